//! The `chain` example's exit-code contract (`codethread::exit`: 0 every
//! input succeeded, 1 per-input failures with the good results written, 2
//! usage or fatal error) and its reports of bad inputs, run as a user would.
//! The example binary is the one `cargo test` builds beside this test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;

static N: AtomicUsize = AtomicUsize::new(0);

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ct-chain-cli-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// target/<profile>/examples/chain, built by `cargo test` with the examples
/// (`CODETHREAD_CHAIN_EXE` names another build, e.g. an older one to compare).
fn exe() -> PathBuf {
    if let Some(p) = std::env::var_os("CODETHREAD_CHAIN_EXE") {
        return PathBuf::from(p);
    }
    let me = std::env::current_exe().unwrap();
    let dir = me.parent().and_then(Path::parent).unwrap();
    let p = dir
        .join("examples")
        .join(format!("chain{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.is_file(),
        "{} not built: run `cargo test` (it builds the examples) or `cargo build --example chain`",
        p.display()
    );
    p
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Run the example; fail (not hang) after 60 s.
fn chain(args: &[&str]) -> Run {
    let out = codethread_testkit::deadline::output_within(
        &format!("chain {args:?}"),
        60,
        Command::new(exe()).args(args),
    );
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn p(p: &Path) -> &str {
    p.to_str().unwrap()
}

const GOLD: &str = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -4,3 +4,3 @@\n     b = 2\n-    return x + 1\n+    return x + 2\n \n";

/// Snapshots for `ids`; returns the snapshot directory.
fn snapshots(dir: &Path, ids: &[&str]) -> PathBuf {
    let s = dir.join("snaps");
    for id in ids {
        let f = s.join(id).join("before/m.py");
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(
            &f,
            "def f(x):\n    a = 0\n    a = 1\n    b = 2\n    return x + 1\n\n\ndef g():\n    return 2\n",
        )
        .unwrap();
    }
    s
}

fn row(id: &str) -> String {
    json!({"instance_id": id, "repo": "o/r", "base_commit": "c0", "patch": GOLD,
        "FAIL_TO_PASS": ["t::f"], "PASS_TO_PASS": []})
    .to_string()
}

#[test]
fn targets_follows_the_exit_contract() {
    let d = tmp("targets");
    let snaps = snapshots(&d, &["a", "b"]);
    let no_commit = json!({"instance_id": "c", "repo": "o/r", "patch": GOLD,
        "FAIL_TO_PASS": [], "PASS_TO_PASS": []})
    .to_string();
    let not_applying = json!({"instance_id": "b", "repo": "o/r", "base_commit": "c0",
        "patch": GOLD.replace("b = 2", "b = 3"), "FAIL_TO_PASS": [], "PASS_TO_PASS": []})
    .to_string();
    // (rows, expected exit, expected stdout lines)
    let cases: Vec<(Vec<String>, i32, usize)> = vec![
        (vec![row("a"), row("b")], 0, 2),
        (vec![row("a"), no_commit.clone()], 1, 1),
        (
            vec![row("a"), "{\"instance_id\": \"x\", trunc".into()],
            1,
            1,
        ),
        (vec![row("a"), "[1, 2]".into()], 1, 1),
        (vec![row("a"), not_applying.clone()], 1, 1),
        (vec![no_commit, not_applying], 2, 0),
    ];
    for (k, (rows, code, lines)) in cases.into_iter().enumerate() {
        let f = d.join(format!("i{k}.jsonl"));
        std::fs::write(&f, rows.join("\n")).unwrap();
        let r = chain(&["targets", "--instances", p(&f), "--snapshots", p(&snaps)]);
        assert_eq!(r.code, code, "case {k}: {}", r.stderr);
        assert_eq!(r.stdout.lines().count(), lines, "case {k}");
        if code != 0 {
            assert!(!r.stderr.is_empty(), "case {k}: failures are named");
        }
    }
    // Fatal: unreadable instances, a FIFO, a file over --max-file-bytes, a usage error.
    let f = d.join("i0.jsonl");
    let r = chain(&[
        "targets",
        "--instances",
        p(&d.join("none.jsonl")),
        "--snapshots",
        p(&snaps),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = chain(&[
        "--max-file-bytes",
        "10",
        "targets",
        "--instances",
        p(&f),
        "--snapshots",
        p(&snaps),
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("larger than the limit"), "{}", r.stderr);
    let fifo = d.join("fifo.jsonl");
    if Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success())
    {
        let r = chain(&["targets", "--instances", p(&fifo), "--snapshots", p(&snaps)]);
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    }
    let r = chain(&["targets", "--instances", p(&f)]);
    assert_eq!(r.code, 2, "no source given: {}", r.stderr);
    let _ = std::fs::remove_dir_all(&d);
}

/// A chain of `ids` built with the example; returns (dir, chain, snapshots).
fn built(tag: &str, ids: &[&str]) -> (PathBuf, PathBuf, PathBuf) {
    let d = tmp(tag);
    let snaps = snapshots(&d, ids);
    let inst = d.join("instances.jsonl");
    std::fs::write(
        &inst,
        ids.iter().map(|i| row(i)).collect::<Vec<_>>().join("\n"),
    )
    .unwrap();
    let out = d.join("chain");
    let r = chain(&[
        "build",
        "--instances",
        p(&inst),
        "--snapshots",
        p(&snaps),
        "--out",
        p(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    (d, out, snaps)
}

#[test]
fn gate_names_and_counts_unloadable_predictions_and_reports() {
    let (d, out, _) = built("gate", &["a", "b", "c"]);
    let logs = d.join("logs/run/m");
    std::fs::create_dir_all(logs.join("a")).unwrap();
    std::fs::write(
        logs.join("a/report.json"),
        json!({"a": {"patch_exists": true, "patch_successfully_applied": true,
            "tests_status": {"FAIL_TO_PASS": {"success": [], "failure": ["t::f"]},
                             "PASS_TO_PASS": {"success": [], "failure": []}}}})
        .to_string(),
    )
    .unwrap();
    let good = json!({"instance_id": "a", "model_name_or_path": "m", "model_patch": "--- a/x\n"})
        .to_string();
    let bad_rows = [
        json!({"instance_id": "b", "model_name_or_path": "m"}).to_string(),
        json!({"instance_id": "b", "model_name_or_path": "m", "model_patch": 7}).to_string(),
        "{\"instance_id\": \"b\", \"model_patch\": \"--- a".to_string(),
        json!({"instance_id": "b", "model_name_or_path": "m", "model_patch": {"model_patch": []}})
            .to_string(),
        json!({"instance_id": "b", "model_patch_b64": "!!"}).to_string(),
    ];
    for (k, bad) in bad_rows.iter().enumerate() {
        let f = d.join(format!("p{k}.jsonl"));
        std::fs::write(&f, format!("{good}\n{bad}\n")).unwrap();
        let r = chain(&[
            "gate",
            "--chain",
            p(&out),
            "--predictions",
            p(&f),
            "--reports",
            p(&d.join("logs")),
        ]);
        assert_eq!(r.code, 1, "case {k}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("p{k}.jsonl:2")),
            "case {k}: line named: {}",
            r.stderr
        );
        assert_eq!(
            r.stdout.lines().count(),
            1,
            "case {k}: the good prediction is gated"
        );
        assert!(r.stdout.contains("\"kept\":true"), "{}", r.stdout);
    }
    // Every prediction loads: exit 0.
    let f = d.join("ok.jsonl");
    std::fs::write(&f, format!("{good}\n")).unwrap();
    let r = chain(&[
        "gate",
        "--chain",
        p(&out),
        "--predictions",
        p(&f),
        "--reports",
        p(&d.join("logs")),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // A FIFO among the reports: named, counted, no hang.
    std::fs::create_dir_all(logs.join("b")).unwrap();
    if Command::new("mkfifo")
        .arg(logs.join("b/report.json"))
        .status()
        .is_ok_and(|s| s.success())
    {
        let r = chain(&[
            "gate",
            "--chain",
            p(&out),
            "--predictions",
            p(&f),
            "--reports",
            p(&d.join("logs")),
        ]);
        assert_eq!(r.code, 1, "{}", r.stderr);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
        assert!(r.stdout.contains("\"kept\":true"));
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn damaged_instances_are_reported_per_instance() {
    let (d, out, snaps) = built("damaged", &["a", "b", "c"]);
    // requests: one garbage request, the others written, exit 1.
    std::fs::write(out.join("instances/b/llm_request.json"), b"garbage").unwrap();
    let r = chain(&["requests", "--chain", p(&out)]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2);
    assert!(
        r.stderr.contains("instances/b/llm_request.json"),
        "{}",
        r.stderr
    );
    // stack: a lost PR0 is one failure, not a silent drop.
    std::fs::remove_file(out.join("instances/c/pr0.patch")).unwrap();
    let preds = d.join("hh.jsonl");
    let r = chain(&[
        "stack",
        "--chain",
        p(&out),
        "--snapshots",
        p(&snaps),
        "--pr1",
        "human",
        "--pr2",
        "gold",
        "--out",
        p(&preds),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("pr0.patch"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&preds).unwrap().lines().count(), 2);
    // build re-run: both damaged instances are rebuilt, exit 0.
    let r = chain(&[
        "build",
        "--instances",
        p(&d.join("instances.jsonl")),
        "--snapshots",
        p(&snaps),
        "--out",
        p(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("rebuilt b") && r.stderr.contains("rebuilt c"),
        "{}",
        r.stderr
    );
    let r = chain(&["requests", "--chain", p(&out)]);
    assert_eq!((r.code, r.stdout.lines().count()), (0, 3));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn answers_reach_an_existing_chain_or_fail_loudly() {
    let (d, out, snaps) = built("answers", &["a", "b"]);
    let inst = d.join("instances.jsonl");
    let answers = d.join("answers.jsonl");
    let a = |id: &str, c: &str| json!({"custom_id": id, "content": c}).to_string();
    std::fs::write(
        &answers,
        [a("a", "## Task Overview\nfrom the model\n")].join("\n"),
    )
    .unwrap();
    let r = chain(&[
        "build",
        "--instances",
        p(&inst),
        "--snapshots",
        p(&snaps),
        "--out",
        p(&out),
        "--answers",
        p(&answers),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("answers imported: 1"), "{}", r.stdout);
    assert!(std::fs::read_to_string(out.join("instances/a/task.md"))
        .unwrap()
        .contains("from the model"));
    // An answer for no instance, and conflicting duplicates: exit 1, named.
    std::fs::write(
        &answers,
        [a("zzz", "x"), a("b", "one"), a("b", "two")].join("\n"),
    )
    .unwrap();
    let r = chain(&[
        "build",
        "--instances",
        p(&inst),
        "--snapshots",
        p(&snaps),
        "--out",
        p(&out),
        "--answers",
        p(&answers),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("zzz"), "{}", r.stderr);
    assert!(
        r.stderr.contains("line 2") && r.stderr.contains("line 3"),
        "{}",
        r.stderr
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[cfg(target_os = "linux")]
#[test]
fn scratch_directories_of_killed_runs_are_removed() {
    // A process that has ended: its pid no longer runs.
    let mut child = Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let prefix = codethread::lang::io::TEMP_PREFIX;
    let tmpd = std::env::temp_dir();
    let stale = tmpd.join(format!("{prefix}chain-{dead}.0123456789abcdef"));
    let live = tmpd.join(format!(
        "{prefix}chain-{}.0123456789abcdef",
        std::process::id()
    ));
    for d in [&stale, &live] {
        std::fs::create_dir_all(d.join(".git")).unwrap();
        std::fs::write(d.join("m.py"), b"x").unwrap();
    }
    // Any run that checks a PR0 with git creates a scratch repository.
    let (d, _, _) = built("stale", &["a"]);
    assert!(
        !stale.exists(),
        "the killed run's scratch directory is removed"
    );
    assert!(
        live.exists(),
        "a running process's scratch directory is kept"
    );
    let _ = std::fs::remove_dir_all(&live);
    let _ = std::fs::remove_dir_all(&d);
}
