//! `analyze judge drift|compound export|import` as a user runs them, with
//! the judges' answers in an engine's batch-output shape.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

use codethread::judge::judge::{drift_item_from_trees, AaPr2};
use serde_json::{json, Value};

fn exe() -> PathBuf {
    codethread_testkit::example("analyze")
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = codethread_testkit::deadline::output_within(
        &format!("analyze {args:?}"),
        60,
        Command::new(exe()).args(args),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn batch_output(requests: &str, answer: impl Fn(usize) -> String) -> String {
    requests
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let r: Value = serde_json::from_str(l).unwrap();
            let body = json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer(i)}, "finish_reason": "stop"}]});
            format!("{}\n", json!({"id": format!("b{i}"), "custom_id": r["custom_id"], "response": {"status_code": 200, "request_id": "r", "body": body}, "error": null}))
        })
        .collect()
}

#[test]
fn drift_and_compound_round_trip_through_the_example() {
    let dir = codethread::lang::io::create_temp_dir_in(&std::env::temp_dir(), "judge-cli").unwrap();
    let mut human = codethread::patch::MemTree::new();
    human.insert(
        b"m.py".to_vec(),
        b"def f(x):\n    return x + 1\n\n\ndef g(y):\n    return y\n".to_vec(),
    );
    let mut agent = codethread::patch::MemTree::new();
    agent.insert(b"m.py".to_vec(), b"def f(x):\n    if x is None:\n        raise ValueError('x')\n    return x + 1\n\n\ndef g(y):\n    return y\n".to_vec());
    let items: Vec<_> = (0..3)
        .map(|i| {
            drift_item_from_trees(
                "b",
                "m",
                &format!("o__r-{i}"),
                &human,
                if i == 2 { &human } else { &agent },
                &["m.py::f".to_string()],
                None,
            )
        })
        .collect();
    let ip = dir.join("items.jsonl");
    std::fs::write(
        &ip,
        items
            .iter()
            .map(|i| format!("{}\n", serde_json::to_string(i).unwrap()))
            .collect::<String>(),
    )
    .unwrap();
    let (code, reqs, err) = run(&["judge", "drift", "export", "--items", ip.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(reqs.lines().count(), 3);
    // Answers: VALIDATION_ADDED, a malformed one, EQUIVALENT.
    let ans = batch_output(&reqs, |i| {
        match i {
        0 => r#"{"targets": [{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED"], "rationale": "rejects None"}]}"#.into(),
        1 => "VALIDATION_ADDED, I think".into(),
        _ => r#"{"targets": [{"target_id": "m.py::f", "labels": ["EQUIVALENT"], "rationale": "same"}]}"#.into(),
    }
    });
    let ap = dir.join("answers.jsonl");
    std::fs::write(&ap, ans).unwrap();
    let (lp, iecp) = (dir.join("labels.jsonl"), dir.join("iec.jsonl"));
    let (code, out, err) = run(&[
        "judge",
        "drift",
        "import",
        "--items",
        ip.to_str().unwrap(),
        "--answers",
        ap.to_str().unwrap(),
        "--out",
        lp.to_str().unwrap(),
        "--iec-out",
        iecp.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "one bad answer: partial\n{err}");
    assert!(err.contains("bad answer"), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["labelled"], 2);
    assert_eq!(v["iec"], 1);
    let a = &v["agreement_with_static_detector"];
    assert_eq!(
        (a["n"].as_u64(), a["both"].as_u64(), a["neither"].as_u64()),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(a["kappa"].as_f64(), Some(1.0));
    let iec = std::fs::read_to_string(&iecp).unwrap();
    assert!(
        iec.contains("\"iec\":true") && iec.contains("\"instance\":\"o__r-0\""),
        "{iec}"
    );
    // Compounding: joined with the AA PR2s.
    let aa = AaPr2 {
        benchmark: "b".into(),
        model: "m".into(),
        instance: "o__r-0".into(),
        aa_pr2_patch: "diff".into(),
        aa_resolved: false,
        failing_tests: vec!["t::x".into()],
    };
    let aap = dir.join("aa.jsonl");
    std::fs::write(&aap, format!("{}\n", serde_json::to_string(&aa).unwrap())).unwrap();
    let cip = dir.join("c_items.jsonl");
    let (code, creqs, err) = run(&[
        "judge",
        "compound",
        "export",
        "--drift-labels",
        lp.to_str().unwrap(),
        "--aa",
        aap.to_str().unwrap(),
        "--items-out",
        cip.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(creqs.lines().count(), 1, "only the drifted target");
    let cans = dir.join("c_answers.jsonl");
    std::fs::write(
        &cans,
        batch_output(&creqs, |_| {
            r#"{"survival": "survived", "caused_failure": "yes", "rationale": "kept the guard"}"#
                .into()
        }),
    )
    .unwrap();
    let clp = dir.join("c_labels.jsonl");
    let (code, out, err) = run(&[
        "judge",
        "compound",
        "import",
        "--items",
        cip.to_str().unwrap(),
        "--answers",
        cans.to_str().unwrap(),
        "--out",
        clp.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let t: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            t["n"].as_u64(),
            t["survived"].as_u64(),
            t["caused"].as_u64()
        ),
        (Some(1), Some(1), Some(1))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze judge drift export ... | head -1`: the reader closes the pipe after one line; the
/// example stops writing quietly instead of panicking (issue 38, item 7).
#[test]
fn a_closed_pipe_ends_the_output_without_a_panic() {
    use std::io::{BufRead, BufReader};
    let dir =
        codethread::lang::io::create_temp_dir_in(&std::env::temp_dir(), "judge-pipe").unwrap();
    let mut tree = codethread::patch::MemTree::new();
    tree.insert(b"m.py".to_vec(), b"def f(x):\n    return x + 1\n".to_vec());
    let item = serde_json::to_string(&drift_item_from_trees(
        "b",
        "m",
        "o__r-1",
        &tree,
        &tree,
        &["m.py::f".to_string()],
        None,
    ))
    .unwrap();
    // Far more than a pipe buffer (64 KiB) of requests.
    let items: String = (0..2000)
        .map(|i| format!("{}\n", item.replace("o__r-1", &format!("o__r-{i}"))))
        .collect();
    let ip = dir.join("items.jsonl");
    std::fs::write(&ip, items).unwrap();
    let mut child = Command::new(exe())
        .args(["judge", "drift", "export", "--items", ip.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.contains("custom_id"), "{first}");
    // The reader is gone (dropped above): the rest of the output has nowhere to go.
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
