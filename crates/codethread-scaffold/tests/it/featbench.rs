//! The verifier of FeatBench tasks (`tests/grade.py` = `harbor::GRADE_FEATBENCH_PY`) against
//! FeatBench's own evaluator: on the pytest outputs FeatBench's `AgentManager.evaluate` parsed
//! (`fixtures/featbench/eval/logs`: three evaluator set-ups, oracle / no-op / regressing
//! agents on flask-5014, requests-5414 and -6028), the grader's record equals the one FeatBench
//! wrote (`evaluation_results*.json`: passed lists, `success_f2p`, `success_p2p`, `success`),
//! and its reward in `resolve` mode is FeatBench's `success` and in `gate` mode the PR1 gate's
//! decision on FeatBench's result (`decisions.json`). Needs `python3` (the standard library
//! only).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_scaffold::harbor::GRADE_FEATBENCH_PY;
use serde_json::{json, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/featbench/eval")
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn set(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_grader_decides_as_featbench_on_its_own_outputs() {
    let dir = std::env::temp_dir().join(format!("ct-fb-grade-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let grade = dir.join("grade.py");
    std::fs::write(&grade, GRADE_FEATBENCH_PY).unwrap();
    let decisions = read_json(&fixtures().join("decisions.json"));
    let mut graded = 0;
    for (file, set_dir) in [
        ("evaluation_results.json", "swebench_ids"),
        ("evaluation_results_native.json", "native"),
        ("evaluation_results_perfile.json", "perfile"),
    ] {
        for rec in read_json(&fixtures().join(file)).as_array().unwrap() {
            let id = rec["instance_id"].as_str().unwrap();
            let agent = rec["agent"].as_str().unwrap();
            let decision = &decisions[format!("{file}:{id}:{agent}")];
            assert!(decision.is_object(), "{file} {id} {agent}: no decision");
            if rec.get("error").is_some() {
                continue;
            }
            let logs = fixtures()
                .join("logs")
                .join(set_dir)
                .join(id)
                .join(agent.trim_start_matches("stub-"));
            let row = json!({
                "instance_id": id,
                "FAIL_TO_PASS": rec["expected_f2p_tests"],
                "PASS_TO_PASS": rec["expected_p2p_tests"],
            });
            let work = dir.join(format!("{set_dir}-{id}-{agent}"));
            std::fs::create_dir_all(&work).unwrap();
            let inst = work.join("instance.json");
            std::fs::write(&inst, row.to_string()).unwrap();
            // 1. The record of the two saved outputs.
            let o = Command::new("python3")
                .arg(&grade)
                .arg("--record")
                .arg(&inst)
                .arg(logs.join("f2p_pytest.log"))
                .arg(logs.join("p2p_pytest.log"))
                .output()
                .expect("python3");
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let mine: Value = serde_json::from_slice(&o.stdout).unwrap();
            let what = format!("{file} {id} {agent}");
            for k in ["passed_f2p_tests", "passed_p2p_tests"] {
                assert_eq!(set(&mine[k]), set(&rec[k]), "{what}: {k}");
            }
            for k in ["success_f2p", "success_p2p", "success"] {
                assert_eq!(mine[k], rec[k], "{what}: {k}");
            }
            // 2. The verifier's modes on the output as the task's eval.sh prints it.
            let mut log = String::from(">>>>> codethread featbench plugins timeout=1 xdist=1\n");
            for (what, name) in [("f2p", "f2p_pytest.log"), ("p2p", "p2p_pytest.log")] {
                log.push_str(&format!(
                    ">>>>> codethread featbench {what} start mode=ids\n"
                ));
                log.push_str(&String::from_utf8_lossy(
                    &std::fs::read(logs.join(name)).unwrap(),
                ));
                log.push_str(&format!("\n>>>>> codethread featbench {what} end rc=0\n"));
            }
            let log_path = work.join("test_output.txt");
            std::fs::write(&log_path, log).unwrap();
            for (mode, want) in [
                ("resolve", rec["success"].as_bool().unwrap()),
                ("gate", decision["gate"] == "kept"),
            ] {
                let out = work.join(mode);
                let o = Command::new("python3")
                    .arg(&grade)
                    .args([mode, inst.to_str().unwrap(), "applied"])
                    .arg(&log_path)
                    .arg(&out)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                let reward = read_json(&out.join("reward.json"));
                assert_eq!(
                    reward["reward"],
                    json!(u8::from(want)),
                    "{what} {mode}: {reward}"
                );
                let report = read_json(&out.join("report.json"));
                let r = &report[id];
                assert_eq!(r["resolved"], rec["success"], "{what}");
                assert_eq!(
                    set(&r["tests_status"]["PASS_TO_PASS"]["success"]),
                    set(&rec["passed_p2p_tests"]),
                    "{what}"
                );
                let fb = read_json(&out.join("featbench.json"));
                assert_eq!(fb["success"], rec["success"], "{what}");
            }
            graded += 1;
        }
    }
    // 6 records per set-up but the crashed agents' (which have no output): 3 x 3 + 3 + 6.
    assert_eq!(graded, 18);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A step whose patch did not apply, or that produced no test output, is reward 0 with its
/// reason, as with swebench's grader.
#[test]
fn the_grader_names_steps_without_tests() {
    let dir = std::env::temp_dir().join(format!("ct-fb-grade-none-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let grade = dir.join("grade.py");
    std::fs::write(&grade, GRADE_FEATBENCH_PY).unwrap();
    let inst = dir.join("instance.json");
    std::fs::write(
        &inst,
        json!({"instance_id": "o__r-1", "FAIL_TO_PASS": "[\"t.py::a\"]", "PASS_TO_PASS": "[]"})
            .to_string(),
    )
    .unwrap();
    let log = dir.join("log.txt");
    std::fs::write(&log, "bash: eval.sh: No such file or directory\n").unwrap();
    for (status, reason) in [
        ("patch_failed_to_apply", "patch_failed_to_apply"),
        ("applied", "no_test_output"),
        ("empty_patch", "empty_patch"),
    ] {
        let out = dir.join(status);
        let o = Command::new("python3")
            .arg(&grade)
            .args(["resolve", inst.to_str().unwrap(), status])
            .arg(&log)
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let reward = read_json(&out.join("reward.json"));
        assert_eq!(reward["reward"], json!(0), "{status}");
        assert_eq!(reward[reason], json!(1), "{status}: {reward}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
