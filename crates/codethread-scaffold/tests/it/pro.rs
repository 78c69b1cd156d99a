//! The verifier of SWE-bench Pro tasks (`tests/grade.py` = `harbor::GRADE_PRO_PY`) against Pro's
//! own evaluator: on the test outputs Pro's `swe_bench_pro_eval.py` recorded for the Pro row of
//! `fixtures/pro` (`fixtures/pro/eval`: the gold patch, the human PR1 stack, the gold patch
//! without a network), Pro's own parser (the instance's `parser.py`, as `tests/eval.sh` runs it)
//! gives the output Pro recorded, the grader's `resolve` reward is Pro's `eval_results.json`,
//! and its `gate` reward keeps the stack whose FAIL_TO_PASS test fails and whose PASS_TO_PASS
//! tests pass. Needs `python3` (the standard library only).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_scaffold::harbor::GRADE_PRO_PY;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pro")
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

/// `tests/grade.py MODE instance.json applied log OUT` with `OUT/pro_output.json` in place: the
/// reward and the grader's detail.
fn grade(grader: &Path, mode: &str, inst: &Path, out: &Path) -> (i64, Value) {
    let log = out.join("test_output.txt");
    std::fs::write(&log, ">>>>> codethread pro run_script rc=1\n").unwrap();
    let st = Command::new("python3")
        .arg(grader)
        .args([mode])
        .arg(inst)
        .arg("applied")
        .arg(&log)
        .arg(out)
        .status()
        .unwrap();
    assert!(st.success(), "{mode}");
    let reward = read_json(&out.join("reward.json"))["reward"]
        .as_i64()
        .unwrap();
    (reward, read_json(&out.join("codethread.json")))
}

#[test]
fn the_grader_decides_as_pros_evaluator_on_its_own_outputs() {
    let dir = std::env::temp_dir().join(format!("ct-pro-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let grader = dir.join("grade.py");
    std::fs::write(&grader, GRADE_PRO_PY).unwrap();
    // The verifier's row: the fixture's Pro row (its `fail_to_pass` / `pass_to_pass` strings).
    let row = std::fs::read_to_string(fixtures().join("requests-2931.jsonl")).unwrap();
    let inst = dir.join("instance.json");
    std::fs::write(&inst, row.lines().next().unwrap()).unwrap();
    let id = "psf__requests-2931";
    let parser = fixtures()
        .join("SWE-bench_Pro-os/run_scripts")
        .join(id)
        .join("parser.py");
    for (case, gate_keeps) in [
        ("gold", false),
        ("human__PR1", true),
        ("gold_no_network", false),
    ] {
        let rec = fixtures().join("eval").join(case);
        let out = dir.join(case);
        std::fs::create_dir_all(&out).unwrap();
        // Pro's parser on Pro's recorded run gives the output Pro recorded.
        let st = Command::new("python3")
            .arg(&parser)
            .arg(rec.join("stdout.log"))
            .arg(rec.join("stderr.log"))
            .arg(out.join("pro_output.json"))
            .status()
            .unwrap();
        assert!(st.success(), "{case}: parser.py");
        assert_eq!(
            read_json(&out.join("pro_output.json")),
            read_json(&rec.join("output.json")),
            "{case}"
        );
        let resolved = read_json(&rec.join("eval_results.json"))[id]
            .as_bool()
            .unwrap();
        let (reward, detail) = grade(&grader, "resolve", &inst, &out);
        assert_eq!(reward == 1, resolved, "{case}: {detail}");
        assert_eq!(detail["grader"], "swe-bench-pro");
        let (reward, detail) = grade(&grader, "gate", &inst, &out);
        assert_eq!(reward == 1, gate_keeps, "{case}: {detail}");
        let report = read_json(&out.join("report.json"));
        assert_eq!(report[id]["resolved"], Value::Bool(resolved), "{case}");
    }
    // The gold run without a network: exactly Pro's two failing PASS_TO_PASS tests.
    let (_, detail) = grade(&grader, "resolve", &inst, &dir.join("gold_no_network"));
    assert_eq!(
        detail["p2p_failed"],
        serde_json::json!([
            "test_requests.py::TestTimeout::test_connect_timeout",
            "test_requests.py::TestTimeout::test_total_timeout_connect"
        ])
    );
    // An output naming none of the listed tests decides nothing.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    std::fs::write(
        empty.join("pro_output.json"),
        r#"{"tests": [{"name": "other", "status": "PASSED"}]}"#,
    )
    .unwrap();
    let (reward, detail) = grade(&grader, "gate", &inst, &empty);
    assert_eq!(
        (reward, detail["reason"].as_str()),
        (0, Some("no_test_output"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The verifier's `tests/eval.sh` (`codethread_bench::pro::eval_script`) runs what Pro's own
/// entry script runs after `git apply`: on the entry script Pro's `create_entryscript` wrote
/// for the fixture's row (`fixtures/pro/eval/gold/entryscript.sh`), the same exports, the same
/// directory, the same last line of `before_repo_set_cmd`, the run script on the same
/// selection and the parser on its outputs.
#[test]
fn the_evaluation_script_runs_the_commands_of_pros_entry_script() {
    let loaded = codethread_bench::load_instances(
        &fixtures().join("requests-2931.jsonl"),
        Default::default(),
    )
    .unwrap();
    let inst = &loaded.items[0];
    let scripts = codethread_bench::pro::load_scripts(
        &fixtures().join("SWE-bench_Pro-os"),
        &inst.instance_id,
        Default::default(),
    )
    .unwrap();
    let ours = codethread_bench::pro::eval_script(inst, &scripts, "/app");
    let pro = std::fs::read_to_string(fixtures().join("eval/gold/entryscript.sh")).unwrap();
    let pro: Vec<&str> = pro.lines().filter(|l| !l.trim().is_empty()).collect();
    let ours: Vec<&str> = ours.lines().collect();
    let exports = |ls: &[&str]| -> Vec<String> {
        ls.iter()
            .filter(|l| l.starts_with("export "))
            .map(|l| l.to_string())
            .collect()
    };
    assert_eq!(exports(&ours), exports(&pro));
    assert!(!exports(&pro).is_empty());
    // From `cd /app` on: Pro's reset and apply are the verifier's test.sh; the rest is eval.sh.
    let after_apply = pro.iter().position(|l| l.starts_with("git apply")).unwrap();
    let checkout = pro[after_apply + 1];
    assert!(ours.contains(&"cd /app") && pro.contains(&"cd /app"));
    assert_eq!(
        ours.iter().position(|l| *l == checkout),
        ours.iter().position(|l| *l == "cd /app").map(|i| i + 1),
        "{checkout}"
    );
    // The run script and the parser: Pro's /workspace paths are the verifier's own.
    let run = pro
        .iter()
        .find(|l| l.starts_with("bash /workspace/run_script.sh"))
        .unwrap();
    let pro_args = run
        .strip_prefix("bash /workspace/run_script.sh ")
        .and_then(|r| r.split(" > ").next())
        .unwrap();
    let our_run = ours
        .iter()
        .find(|l| l.starts_with("bash \"$CODETHREAD_TESTS/run_script.sh\""))
        .unwrap();
    let our_args = our_run
        .strip_prefix("bash \"$CODETHREAD_TESTS/run_script.sh\" ")
        .and_then(|r| r.split(" > ").next())
        .unwrap();
    assert_eq!(our_args, pro_args);
    assert!(pro
        .iter()
        .any(|l| l.starts_with("python /workspace/parser.py")));
    assert!(ours
        .iter()
        .any(|l| l.starts_with("python \"$CODETHREAD_TESTS/parser.py\"")));
}
