//! The fixture reports are what the real SWE-bench harness writes: it skips
//! an empty prediction (`empty_patch_ids`) and writes no report for it. A
//! scripted agent whose PR1 restores the original exactly makes PR0 + PR1
//! empty, so its instance has no PR1 report; the gate keeps it anyway as
//! `stack_is_base` (base passes the gate by construction), and every other
//! PR1 is kept on its report.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread::reproduce::{reproduce, ReproduceConfig};

fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench")
}

#[test]
fn empty_pr1_stacks_are_kept_without_a_report() {
    let out = std::env::temp_dir().join(format!("codethread-empty-stacks-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &out);
    cfg.bootstrap_reps = 50;
    let s = reproduce(&cfg, &mut |_| {}).expect("pipeline runs");
    let mut base_stacks = 0;
    for model in &s.models {
        let gate =
            std::fs::read_to_string(out.join("gate").join(format!("{model}.jsonl"))).unwrap();
        let mut n = 0;
        for line in gate.lines().filter(|l| !l.trim().is_empty()) {
            let d: serde_json::Value = serde_json::from_str(line).unwrap();
            let id = d["instance_id"].as_str().unwrap();
            let has_report = bench()
                .join("reports")
                .join(model)
                .join("pr1")
                .join(id)
                .join("report.json")
                .is_file();
            assert_eq!(d["kept"], serde_json::json!(true), "{model} {id}: {d}");
            let is_base = d["reasons"] == serde_json::json!([{"reason": "stack_is_base"}]);
            // Exactly the instances without a report are empty stacks.
            assert_eq!(is_base, !has_report, "{model} {id}: {d}");
            base_stacks += usize::from(is_base);
            n += 1;
        }
        assert_eq!(n, 40, "{model}");
        assert_eq!(s.gate.get(model).copied(), Some((40, 40)), "{model}");
    }
    // The fixtures do hold such agents (one of each instance's PR1 pool).
    assert!(base_stacks >= 20, "{base_stacks}");
    let _ = std::fs::remove_dir_all(&out);
}
