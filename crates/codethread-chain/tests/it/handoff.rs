//! The hand-off to the SWE-bench harness and agent scaffolds (issue 10), on
//! a small snapshot fixture: `base:` layers that leave stubbed files out,
//! mislabelled layers, empty PR0 + PR1 stacks, gate reasons read from
//! harness outputs (report.json, run_instance.log, run-level reports), stage
//! names of stacked predictions, and the mini-swe-agent layout.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codethread_bench::parse_instances;
use codethread_bench::Prediction;
use codethread_bench::{load_reports, load_reports_dir, HarnessNote};
use codethread_chain::GateReason;
use codethread_chain::SnapshotSource;
use codethread_chain::{
    build, gate_predictions, stack, stack_model_name, BuildOptions, BuildStatus, Chain, Layer,
};
use codethread_patch::{diff_trees, ApplyOptions, DiffOptions, MemTree};
use serde_json::{json, Value};

const M_BASE: &str = "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n";
const M_GOLD: &str = "def f(x):\n    return x + 2\n\n\ndef g():\n    return 2\n";
const N_BASE: &str = "def h(y):\n    return y * 3\n";
const N_GOLD: &str = "def h(y):\n    return y * 4\n";

fn diff(before: &[(&str, &str)], after: &[(&str, &str)]) -> String {
    let tree = |files: &[(&str, &str)]| {
        let mut t = MemTree::new();
        for (p, c) in files {
            t.insert(p.as_bytes().to_vec(), c.as_bytes().to_vec());
        }
        t
    };
    let p = diff_trees(&tree(before), &tree(after), &DiffOptions::default()).expect("diff");
    String::from_utf8(p.to_bytes()).expect("utf8")
}

struct Fixture {
    dir: PathBuf,
    chain: Chain,
    snapshots: PathBuf,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One instance whose gold patch edits `f` in m.py and `h` in n.py: PR0
/// stubs both files.
fn fixture(tag: &str) -> Fixture {
    let dir = std::env::temp_dir().join(format!("ct-handoff-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let snapshots = dir.join("snap");
    for (p, c) in [("m.py", M_BASE), ("n.py", N_BASE)] {
        let f = snapshots.join("o__r-1/before").join(p);
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, c).unwrap();
    }
    let gold = diff(
        &[("m.py", M_BASE), ("n.py", N_BASE)],
        &[("m.py", M_GOLD), ("n.py", N_GOLD)],
    );
    let row = json!({
        "instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc", "patch": gold,
        "FAIL_TO_PASS": ["t.py::test_f"], "PASS_TO_PASS": ["t.py::test_g"], "version": "1.0",
        "image": "img", "eval_script": "#!/bin/bash\n", "log_parser": "parse_log_pytest",
        "eval_type": "pass_and_fail"
    });
    let loaded = parse_instances(Path::new("rows.jsonl"), &row.to_string()).unwrap();
    let out = dir.join("chain");
    let s = build(
        &loaded.items,
        &mut SnapshotSource::new(&snapshots),
        &BuildOptions::default().out(out.clone()),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert!(
        matches!(s.outcomes[0].status, BuildStatus::Built { .. }),
        "{:?}",
        s.outcomes
    );
    Fixture {
        chain: Chain::open(&out, Default::default()).unwrap(),
        dir,
        snapshots,
    }
}

fn pred(patch: &str) -> BTreeMap<String, Prediction> {
    BTreeMap::from([(
        "o__r-1".to_string(),
        Prediction {
            instance_id: "o__r-1".into(),
            model_name_or_path: "agent".into(),
            model_patch: patch.to_string(),
        },
    )])
}

/// Apply `patch` to the base files; the resulting (m.py, n.py).
fn at_base(patch: impl AsRef<[u8]>) -> (String, String) {
    let patch = patch.as_ref();
    let mut t = MemTree::new();
    t.insert(b"m.py".to_vec(), M_BASE.as_bytes().to_vec());
    t.insert(b"n.py".to_vec(), N_BASE.as_bytes().to_vec());
    if !patch.iter().all(u8::is_ascii_whitespace) {
        let p = codethread_patch::parse_patch(patch).unwrap();
        t.apply(&p, &ApplyOptions::default()).unwrap();
    }
    let s = |p: &[u8]| String::from_utf8(t.get(p).unwrap().to_vec()).unwrap();
    (s(b"m.py"), s(b"n.py"))
}

fn stubbed(fx: &Fixture) -> (String, String) {
    at_base(fx.chain.pr0("o__r-1").unwrap())
}

#[test]
fn base_layer_that_leaves_a_stubbed_file_at_base_keeps_the_agents_content_and_warns() {
    let fx = fixture("omit");
    let (m_stub, n_stub) = stubbed(&fx);
    assert!(m_stub.contains("NotImplementedError") && n_stub.contains("NotImplementedError"));
    let m_agent = "def f(x):\n    return x + 1  # agent\n\n\ndef g():\n    return 2\n";
    let n_agent = "def h(y):\n    return 3 * y\n";
    // (agent's base-relative diff, expected m.py, expected n.py, files named in warnings)
    let cases: Vec<(String, &str, &str, Vec<&str>)> = vec![
        // m.py implemented, n.py restored exactly to the original: the
        // agent's n.py (the original) is kept, not the stub put back.
        (
            diff(&[("m.py", M_BASE)], &[("m.py", m_agent)]),
            m_agent,
            N_BASE,
            vec!["n.py"],
        ),
        // The other way round.
        (
            diff(&[("n.py", N_BASE)], &[("n.py", n_agent)]),
            M_BASE,
            n_agent,
            vec!["m.py"],
        ),
        // Both restored exactly: the stack is base itself, both named.
        (String::new(), M_BASE, N_BASE, vec!["m.py", "n.py"]),
        // Both implemented: exactly the agent's tree, no warning.
        (
            diff(
                &[("m.py", M_BASE), ("n.py", N_BASE)],
                &[("m.py", m_agent), ("n.py", n_agent)],
            ),
            m_agent,
            n_agent,
            vec![],
        ),
    ];
    for (patch, want_m, want_n, named) in cases {
        let (preds, outcomes) = stack(
            &fx.chain,
            &[Layer::PredictionsFromBase(pred(&patch))],
            "agent__PR1",
            &mut SnapshotSource::new(&fx.snapshots),
            &mut |_, _, _| {},
        );
        assert_eq!(outcomes[0].error, None, "{patch}");
        let (m, n) = at_base(&preds[0].model_patch);
        assert_eq!((m.as_str(), n.as_str()), (want_m, want_n), "{patch}");
        assert_eq!(outcomes[0].warnings.len(), named.len(), "{:?}", outcomes[0]);
        for (w, f) in outcomes[0].warnings.iter().zip(&named) {
            assert!(
                w.contains("o__r-1")
                    && w.contains("base:")
                    && w.contains(f)
                    && w.contains("original"),
                "{w}"
            );
        }
    }
}

#[test]
fn layer_relative_to_pr0_labelled_base_is_detected() {
    let fx = fixture("mislabel");
    let (m_stub, n_stub) = stubbed(&fx);
    let m_agent = "def f(x):\n    return x + 1  # agent\n\n\ndef g():\n    return 2\n";
    for patch in [
        diff(&[("m.py", &m_stub)], &[("m.py", m_agent)]),
        diff(
            &[("m.py", &m_stub), ("n.py", &n_stub)],
            &[("m.py", m_agent), ("n.py", N_BASE)],
        ),
    ] {
        let (preds, outcomes) = stack(
            &fx.chain,
            &[Layer::PredictionsFromBase(pred(&patch))],
            "agent__PR1",
            &mut SnapshotSource::new(&fx.snapshots),
            &mut |_, _, _| {},
        );
        assert!(preds.is_empty());
        let e = outcomes[0].error.clone().unwrap_or_default();
        assert!(e.contains("o__r-1") && e.contains("without `base:`"), "{e}");
        // Given as it is (relative to PR0), it stacks.
        let (preds, outcomes) = stack(
            &fx.chain,
            &[Layer::Predictions(pred(&patch))],
            "agent__PR1",
            &mut SnapshotSource::new(&fx.snapshots),
            &mut |_, _, _| {},
        );
        assert_eq!(outcomes[0].error, None);
        assert_eq!(at_base(&preds[0].model_patch).0, m_agent);
    }
}

#[test]
fn empty_stack_is_kept_as_base_without_a_report() {
    let fx = fixture("empty");
    let (m_stub, n_stub) = stubbed(&fx);
    let human = String::from_utf8(fx.chain.human_pr1("o__r-1").unwrap()).unwrap();
    // The same tree as the human PR1, written differently (one file at a
    // time, in the other order, one line of context).
    let one = |p: &str, from: &str, to: &str| {
        let mut b = MemTree::new();
        b.insert(p.as_bytes().to_vec(), from.as_bytes().to_vec());
        let mut a = MemTree::new();
        a.insert(p.as_bytes().to_vec(), to.as_bytes().to_vec());
        let o = DiffOptions::default()
            .context(1)
            .index(false)
            .literal(false);
        String::from_utf8(diff_trees(&b, &a, &o).unwrap().to_bytes()).unwrap()
    };
    let rewritten = one("n.py", &n_stub, N_BASE) + &one("m.py", &m_stub, M_BASE);
    assert_ne!(rewritten, human);
    let no_reports = BTreeMap::new();
    for (patch, with_source) in [(&human, false), (&human, true), (&rewritten, true)] {
        let mut src = SnapshotSource::new(&fx.snapshots);
        let source: Option<&mut dyn codethread_chain::SourceReader> =
            if with_source { Some(&mut src) } else { None };
        let d = gate_predictions(&fx.chain, &pred(patch), &no_reports, source);
        assert_eq!(d.len(), 1);
        assert!(d[0].kept, "{d:?}");
        assert_eq!(d[0].reasons, vec![GateReason::StackIsBase]);
    }
    // A PR1 that keeps a stub is not base: without a report it is not kept.
    let partial = one("m.py", &m_stub, M_BASE);
    let d = gate_predictions(
        &fx.chain,
        &pred(&partial),
        &no_reports,
        Some(&mut SnapshotSource::new(&fx.snapshots)),
    );
    assert_eq!(d[0].reasons, vec![GateReason::NoReport]);
}

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

#[test]
fn gate_reasons_come_from_what_the_harness_wrote() {
    let fx = fixture("reasons");
    let logs = fx.dir.join("logs/run_evaluation/r1/agent__PR1");
    let body = |applied: bool, extra: Value| {
        let mut b = json!({"patch_is_None": false, "patch_exists": true,
            "patch_successfully_applied": applied, "resolved": false});
        if let (Value::Object(b), Value::Object(e)) = (&mut b, extra) {
            b.extend(e);
        }
        b
    };
    // (what the harness left in the instance's log directory, expected reason)
    let cases: Vec<(Vec<(&str, String)>, GateReason)> = vec![
        // No report.json; run_instance.log records the apply failure.
        (
            vec![("run_instance.log", "2026-01-01 00:00:00,000 - INFO - Failed to apply patch to container: git apply --verbose\n2026-01-01 00:00:00,000 - INFO - >>>>> Patch Apply Failed:\nerror: patch failed: m.py:1\n".into())],
            GateReason::PatchFailedToApply,
        ),
        // The tests produced no output: the harness writes applied=false.
        (
            vec![("report.json", json!({"o__r-1": body(false, json!({}))}).to_string())],
            GateReason::NoTestOutput,
        ),
        // 5.x flags an environment fault.
        (
            vec![("report.json", json!({"o__r-1": body(false, json!({"infra_failure": true, "infra_failure_reason": "browser did not start"}))}).to_string())],
            GateReason::InfraFailure("browser did not start".into()),
        ),
        // A container error logged, no report.
        (
            vec![("run_instance.log", "2026-01-01 00:00:00,000 - ERROR - Error creating container for o__r-1: 500 Server Error\n".into())],
            GateReason::InfraFailure("2026-01-01 00:00:00,000 - ERROR - Error creating container for o__r-1: 500 Server Error".into()),
        ),
    ];
    for (files, want) in cases {
        let _ = std::fs::remove_dir_all(&logs);
        for (name, text) in &files {
            write(&logs.join("o__r-1").join(name), text);
        }
        let (reports, errs) = load_reports_dir(&fx.dir.join("logs"), Default::default()).unwrap();
        assert!(errs.is_empty(), "{errs:?}");
        let pr1 = String::from_utf8(fx.chain.pr0("o__r-1").unwrap()).unwrap();
        // Any non-base PR1 (here: PR0 again, which does not apply on PR0).
        let d = gate_predictions(&fx.chain, &pred(&pr1), &reports, None);
        assert_eq!(d[0].reasons, vec![want], "{files:?}");
        assert!(!d[0].kept);
    }
}

#[test]
fn run_level_reports_feed_the_gate() {
    let fx = fixture("runlevel");
    let pr1 = String::from_utf8(fx.chain.pr0("o__r-1").unwrap()).unwrap();
    for (key, want, kept) in [
        ("empty_patch_ids", GateReason::StackIsBase, true),
        (
            "error_ids",
            GateReason::InfraFailure("listed in error_ids of the run report".into()),
            false,
        ),
    ] {
        let mut run = json!({"schema_version": 2, "total_instances": 1, "submitted_ids": ["o__r-1"],
            "completed_ids": [], "incomplete_ids": [], "resolved_ids": [], "unresolved_ids": [],
            "empty_patch_ids": [], "error_ids": []});
        run[key] = json!(["o__r-1"]);
        let p = fx.dir.join("agent__PR1.r1.json");
        write(&p, &run.to_string());
        let (reports, errs) = load_reports(&[p], Default::default());
        assert!(errs.is_empty(), "{errs:?}");
        let d = gate_predictions(&fx.chain, &pred(&pr1), &reports, None);
        assert_eq!((d[0].kept, d[0].reasons.clone()), (kept, vec![want]));
    }
    // A per-instance report wins over the run-level evidence.
    let logs = fx.dir.join("logs/run_evaluation/r1/agent__PR1/o__r-1");
    write(
        &logs.join("run_instance.log"),
        ">>>>> Patch Apply Failed:\n",
    );
    let (reports, _) = load_reports(
        &[fx.dir.join("agent__PR1.r1.json"), fx.dir.join("logs")],
        Default::default(),
    );
    assert_eq!(
        reports["o__r-1"].harness_note,
        Some(HarnessNote::PatchDidNotApply)
    );
}

#[test]
fn stacked_model_names_carry_stage_and_condition() {
    let p = || Layer::Predictions(BTreeMap::new());
    let names = [
        stack_model_name("gpt-4o", &[p()]),
        stack_model_name("gpt-4o", &[Layer::HumanPr1, p()]),
        stack_model_name("gpt-4o", &[p(), p()]),
        stack_model_name("gpt-4o", &[p(), Layer::Gold]),
    ];
    assert_eq!(
        names,
        ["gpt-4o__PR1", "gpt-4o__HA", "gpt-4o__AA", "gpt-4o__AH"].map(String::from)
    );
    // The PR1-gate stack and the PR2 stacks never share a harness run cache.
    let mut uniq = names.to_vec();
    uniq.sort();
    uniq.dedup();
    assert_eq!(uniq.len(), names.len());
}
