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
    codethread_testkit::example("chain")
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
    // The harness logs the stack of model `m` as `m__PR1`.
    let logs = d.join("logs/run/m__PR1");
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

/// A report.json of instance `id` (F2P `t::f`): `f2p` whether the F2P test
/// passed, `p2p_fail` the P2P tests that failed.
fn report_json(id: &str, f2p: bool, p2p_fail: &[&str]) -> String {
    let (ok, bad): (Vec<&str>, Vec<&str>) = if f2p {
        (vec!["t::f"], vec![])
    } else {
        (vec![], vec!["t::f"])
    };
    json!({id: {"patch_is_None": false, "patch_exists": true, "patch_successfully_applied": true,
        "resolved": false, "tests_status": {
            "FAIL_TO_PASS": {"success": ok, "failure": bad},
            "PASS_TO_PASS": {"success": [], "failure": p2p_fail}}}})
    .to_string()
}

fn put(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

/// Issue 18 item 2: `--reports logs/run_evaluation` holding the PR1 run, the
/// PR2 run and another model's PR1 run gives the PR1 run's decisions; the
/// others are counted on stderr; two PR1 runs that disagree are named.
#[test]
fn gate_reads_only_the_gated_stacks_reports() {
    let ids = ["inst-one", "inst-two", "inst-three"];
    let (d, out, _) = built("gate-mixed", &ids);
    let runs = d.join("logs/run_evaluation");
    for id in ids {
        // PR1 of `agent`: inst-one kept, inst-two F2P already passing, inst-three kept.
        let pr1 = report_json(id, id == "inst-two", &[]);
        put(&runs.join(format!("pr1/agent__PR1/{id}/report.json")), &pr1);
        // The AA run (same run id) and another model's PR1 run disagree everywhere.
        put(
            &runs.join(format!("pr1/agent__AA/{id}/report.json")),
            &report_json(id, id != "inst-two", &["t::p"]),
        );
        put(
            &runs.join(format!("pr2/agent__AA/{id}/report.json")),
            &report_json(id, true, &[]),
        );
        put(
            &runs.join(format!("pr1/zz_other__PR1/{id}/report.json")),
            &report_json(id, true, &["t::p"]),
        );
    }
    let preds = d.join("agent_pr1.jsonl");
    let lines: Vec<String> = ids
        .iter()
        .map(|id| {
            json!({"instance_id": id, "model_name_or_path": "agent", "model_patch": "--- a/x\n"})
                .to_string()
        })
        .collect();
    std::fs::write(&preds, lines.join("\n")).unwrap();
    let gate = |extra: &[&str]| {
        let mut args = vec![
            "gate",
            "--chain",
            p(&out),
            "--predictions",
            p(&preds),
            "--reports",
            p(&runs),
        ];
        args.extend_from_slice(extra);
        chain(&args)
    };
    let kept = |r: &Run| -> Vec<bool> {
        let mut v: Vec<(String, bool)> = r
            .stdout
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (
                    v["instance_id"].as_str().unwrap().to_string(),
                    v["kept"].as_bool().unwrap(),
                )
            })
            .collect();
        v.sort();
        // inst-one, inst-three, inst-two
        v.into_iter().map(|x| x.1).collect()
    };
    for extra in [
        &[][..],
        &["--run-id", "pr1"][..],
        &["--model", "agent", "--run-id", "pr1"][..],
    ] {
        let r = gate(extra);
        assert_eq!(r.code, 0, "{extra:?}: {}", r.stderr);
        assert_eq!(kept(&r), vec![true, true, false], "{extra:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("ignored 9 reports"),
            "{extra:?}: {}",
            r.stderr
        );
    }
    // A second PR1 run that disagrees on inst-one: named with both paths, exit 1.
    let again = runs.join("pr1-again/agent__PR1/inst-one/report.json");
    put(&again, &report_json("inst-one", false, &["t::p"]));
    let r = gate(&[]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let line = r
        .stderr
        .lines()
        .find(|l| l.starts_with("conflicting reports"))
        .unwrap_or_else(|| panic!("{}", r.stderr));
    assert!(
        line.contains("inst-one") && line.contains("pr1-again") && line.contains("pr1/agent__PR1"),
        "{line}"
    );
    assert_eq!(kept(&r), vec![false, true, false], "{}", r.stdout);
    assert!(r.stdout.contains("conflicting_reports"), "{}", r.stdout);
    // Its run id picks one run.
    let r = gate(&["--run-id", "pr1-again"]);
    assert!(!kept(&r)[0], "{}", r.stdout);
    assert!(r.stdout.contains("p2p_failed"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 18 item 7: `--pr1 AGENT --pr2 gold` carries the agent's name, each
/// `base:` warning is printed once, a missing repository names the instance.
#[test]
fn stack_names_warnings_and_missing_repositories() {
    let ids = ["inst-one", "inst-two"];
    let (d, out, snaps) = built("stack-names", &ids);
    // PR1 relative to PR0 is not needed here: `base:` patches that add a file
    // and leave the stubbed m.py at base (the agent restored it).
    let add = "diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+x = 1\n";
    let preds = d.join("agent.jsonl");
    let lines: Vec<String> = ids
        .iter()
        .map(|id| {
            json!({"instance_id": id, "model_name_or_path": "org/agent", "model_patch": add})
                .to_string()
        })
        .collect();
    std::fs::write(&preds, lines.join("\n")).unwrap();
    let base_arg = format!("base:{}", p(&preds));
    for (pr1, pr2, name) in [
        (base_arg.as_str(), Some("gold"), "org/agent__AH"),
        (base_arg.as_str(), None, "org/agent__PR1"),
        ("human", Some("gold"), "gold__HH"),
        ("human", Some(p(&preds)), "org/agent__HA"),
    ] {
        let o = d.join("stacked.jsonl");
        let mut args = vec![
            "stack",
            "--chain",
            p(&out),
            "--snapshots",
            p(&snaps),
            "--pr1",
            pr1,
        ];
        if let Some(x) = pr2 {
            args.extend(["--pr2", x]);
        }
        args.extend(["--out", p(&o)]);
        let r = chain(&args);
        assert_eq!(r.code, 0, "{pr1} {pr2:?}: {}", r.stderr);
        let text = std::fs::read_to_string(&o).unwrap();
        for l in text.lines() {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["model_name_or_path"], name, "{pr1} {pr2:?}");
        }
        if pr1.starts_with("base:") {
            for id in ids {
                let n = r
                    .stderr
                    .lines()
                    .filter(|l| l.contains("(base:)") && l.contains(id))
                    .count();
                assert_eq!(n, 1, "{id}: {}", r.stderr);
            }
            assert!(r.stderr.contains("original"), "{}", r.stderr);
        }
    }
    // No repository for o/r: each failure line names its instance.
    let repos = d.join("repos");
    std::fs::create_dir_all(&repos).unwrap();
    let r = chain(&[
        "build",
        "--instances",
        p(&d.join("instances.jsonl")),
        "--repos",
        p(&repos),
        "--out",
        p(&d.join("chain2")),
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let failed: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("failed:"))
        .collect();
    assert_eq!(failed.len(), 2, "{}", r.stderr);
    for id in ids {
        assert!(
            failed
                .iter()
                .any(|l| l.contains(&format!("instance {id}")) && l.contains("o/r")),
            "{id}: {}",
            r.stderr
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 19: a test list nested 60,000 deep (a Verified `FAIL_TO_PASS` JSON
/// string, a Pro `fail_to_pass` Python literal, a `run_instance.log`
/// `report:` line), each in a ~150 KB row: that row fails alone, named; the
/// others are built and gated; no stack overflow.
#[test]
fn deeply_nested_rows_fail_alone() {
    let d = tmp("deep");
    let good = ["inst-one", "inst-two"];
    let snaps = snapshots(&d, &good);
    let deep_json = format!("{}\"t\"{}", "[".repeat(60_000), "]".repeat(60_000));
    let deep_py = format!(
        "{}'t'{}{}",
        "[(".repeat(30_000),
        ",)]".repeat(30_000),
        " ".repeat(30_000)
    );
    let hostile = [
        json!({"instance_id": "deep-verified", "repo": "o/r", "base_commit": "c0", "patch": GOLD,
            "FAIL_TO_PASS": deep_json, "PASS_TO_PASS": "[]"}),
        json!({"instance_id": "deep-pro", "repo": "o/r", "base_commit": "c0", "patch": GOLD,
            "fail_to_pass": deep_py, "pass_to_pass": "[]", "repo_language": "python"}),
        json!({"instance_id": "deep-pass", "repo": "o/r", "base_commit": "c0", "patch": GOLD,
            "FAIL_TO_PASS": "[\"t::f\"]", "PASS_TO_PASS": format!("{}{}", "(".repeat(75_000), ")".repeat(75_000))}),
    ];
    for (k, h) in hostile.iter().enumerate() {
        let text = h.to_string();
        assert!(text.len() > 100_000, "{}", text.len());
        let inst = d.join(format!("i{k}.jsonl"));
        std::fs::write(&inst, [row(good[0]), text, row(good[1])].join("\n")).unwrap();
        let id = h["instance_id"].as_str().unwrap();
        let r = chain(&["targets", "--instances", p(&inst), "--snapshots", p(&snaps)]);
        assert_eq!(r.code, 1, "case {k}: {}", r.stderr);
        assert_eq!(r.stdout.lines().count(), 2, "case {k}");
        assert!(
            r.stderr.contains(id) && r.stderr.contains("nested deeper than 128"),
            "case {k}: {}",
            r.stderr
        );
        let out = d.join(format!("chain{k}"));
        let r = chain(&[
            "build",
            "--instances",
            p(&inst),
            "--snapshots",
            p(&snaps),
            "--out",
            p(&out),
        ]);
        assert_eq!(r.code, 1, "case {k}: {}", r.stderr);
        assert!(r.stdout.contains("built 2"), "case {k}: {}", r.stdout);
        assert!(r.stderr.contains(id), "case {k}: {}", r.stderr);
    }
    // A report line nested 60,000 deep in one instance's run_instance.log:
    // that file is the error (named with its line), the other report is read.
    let out = d.join("chain0");
    let runs = d.join("logs/run_evaluation/pr1/agent__PR1");
    put(
        &runs.join("inst-one/report.json"),
        &report_json("inst-one", false, &[]),
    );
    let deep = format!("{}1{}", "{'k': ".repeat(50_000), "}".repeat(50_000));
    let deep_log = format!(
        "2026-01-01 00:00:00,000 - INFO - start\n2026-01-01 00:00:00,000 - INFO - report: {{'inst-two': {deep}}}\n"
    );
    put(&runs.join("inst-two/run_instance.log"), &deep_log);
    let preds = d.join("agent_pr1.jsonl");
    let lines: Vec<String> = good
        .iter()
        .map(|id| {
            json!({"instance_id": id, "model_name_or_path": "agent", "model_patch": "--- a/x\n"})
                .to_string()
        })
        .collect();
    std::fs::write(&preds, lines.join("\n")).unwrap();
    let r = chain(&[
        "gate",
        "--chain",
        p(&out),
        "--predictions",
        p(&preds),
        "--reports",
        p(&d.join("logs")),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains("run_instance.log") && r.stderr.contains("line 2"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout
            .contains("\"instance_id\":\"inst-one\",\"kept\":true"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("no_report"), "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 19: ids too long for `setup_patches/<id>.patch`, or holding control
/// characters or `/`, are refused per row (printed escaped); the other
/// instances, the summary and the mini-swe-agent subset are still written.
#[test]
fn ids_that_no_output_can_hold_are_refused_per_row() {
    let d = tmp("ids");
    let longest = "L".repeat(249);
    let good = ["inst-one", longest.as_str()];
    let snaps = snapshots(&d, &good);
    let bad: Vec<String> = vec![
        "x".repeat(250),
        "é".repeat(128),
        "y".repeat(300),
        "forged\nfailed: inst-one: everything".into(),
        "cr\rid".into(),
        "esc\u{1b}[2Jid".into(),
        "nul\0id".into(),
        "del\u{7f}id".into(),
        "bell\u{7}id".into(),
        "sub/dir".into(),
    ];
    let mut rows = vec![row(good[0])];
    rows.extend(bad.iter().map(|b| row(b)));
    rows.push(row(good[1]));
    let inst = d.join("instances.jsonl");
    std::fs::write(&inst, rows.join("\n")).unwrap();
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
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("built 2"), "{}", r.stdout);
    assert!(
        !r.stderr.chars().any(|c| c.is_control() && c != '\n'),
        "raw control characters on stderr: {:?}",
        r.stderr
    );
    assert!(
        !r.stderr.contains("\nfailed: inst-one: everything"),
        "{}",
        r.stderr
    );
    assert_eq!(
        r.stderr
            .lines()
            .filter(|l| l.starts_with("skipped row:"))
            .count(),
        bad.len(),
        "{}",
        r.stderr
    );
    for shown in [
        "forged\\nfailed",
        "cr\\rid",
        "esc\\x1b[2Jid",
        "nul\\x00id",
        "del\\x7fid",
        "sub/dir",
        "xxxxxxxx",
    ] {
        assert!(r.stderr.contains(shown), "{shown}: {}", r.stderr);
    }
    let subset = out.join("exports/mini-swe-agent/implementation/subset/test.jsonl");
    let text = std::fs::read_to_string(&subset).unwrap();
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(out
        .join("exports/mini-swe-agent/implementation/setup_patches")
        .join(format!("{longest}.patch"))
        .is_file());
    // Predictions with such ids or model names: refused per line, escaped.
    let preds = d.join("p.jsonl");
    let pl = |id: &str, m: &str| {
        json!({"instance_id": id, "model_name_or_path": m, "model_patch": "--- a/x\n"}).to_string()
    };
    std::fs::write(
        &preds,
        [
            pl("inst-one", "agent"),
            pl("a\u{1b}]0;title\u{7}", "agent"),
            pl(&"z".repeat(251), "agent"),
            pl(longest.as_str(), "ag\nent"),
        ]
        .join("\n"),
    )
    .unwrap();
    let r = chain(&[
        "gate",
        "--chain",
        p(&out),
        "--predictions",
        p(&preds),
        "--reports",
        p(&d),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stderr
            .lines()
            .filter(|l| l.starts_with("unloadable prediction"))
            .count(),
        3,
        "{}",
        r.stderr
    );
    assert!(
        !r.stderr.chars().any(|c| c.is_control() && c != '\n'),
        "{:?}",
        r.stderr
    );
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    let _ = std::fs::remove_dir_all(&d);
}

/// Issue 38: `chain stack` names each prediction row for an instance the
/// chain did not build and exits 1 (they were ignored with exit 0); `--format
/// pro` writes the JSON list of `{instance_id, patch, prefix}` SWE-bench
/// Pro's evaluator reads, the prefix being the stack's name (issue 33).
#[test]
fn stack_names_rows_outside_the_chain_and_writes_pros_patches() {
    let ids = ["inst-one", "inst-two"];
    let (d, out, snaps) = built("stack-outside", &ids);
    let add = "diff --git a/n.py b/n.py\nnew file mode 100644\n--- /dev/null\n+++ b/n.py\n@@ -0,0 +1 @@\n+x = 1\n";
    let preds = d.join("pr2.jsonl");
    let lines: Vec<String> = ids
        .iter()
        .copied()
        .chain(["not-built-1", "not-built-2", "not-built-3"])
        .map(|id| {
            json!({"instance_id": id, "model_name_or_path": "agent", "model_patch": add})
                .to_string()
        })
        .collect();
    std::fs::write(&preds, lines.join("\n")).unwrap();
    let o = d.join("stacked.jsonl");
    let r = chain(&[
        "stack",
        "--chain",
        p(&out),
        "--snapshots",
        p(&snaps),
        "--pr1",
        "human",
        "--pr2",
        p(&preds),
        "--out",
        p(&o),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    for id in ["not-built-1", "not-built-2", "not-built-3"] {
        assert!(
            r.stderr
                .lines()
                .any(|l| l.contains(id) && l.contains("not a built instance")),
            "{id}: {}",
            r.stderr
        );
    }
    let pro = d.join("patches.json");
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
        "--format",
        "pro",
        "--out",
        p(&pro),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&pro).unwrap()).unwrap();
    let rows = v.as_array().expect("one JSON list");
    assert_eq!(rows.len(), ids.len());
    for row in rows {
        assert_eq!(row["prefix"], "gold__HH");
        assert!(row["patch"]
            .as_str()
            .is_some_and(|p| p.contains("diff --git")));
        assert!(ids.contains(&row["instance_id"].as_str().unwrap_or("")));
    }
    let _ = std::fs::remove_dir_all(&d);
}
