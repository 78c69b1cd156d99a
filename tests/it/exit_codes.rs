//! The exit-code contract (`codethread::exit`) of the `analyze` and `reproduce` examples, run as
//! the processes a user starts: 0 = every input succeeded, 1 = per-input failures with the good
//! results written, 2 = usage or fatal error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use codethread_testkit::example;

/// Runs with a deadline: a process blocked on a special file fails the test, not hangs it.
fn run(name: &str, args: &[&str]) -> (i32, String) {
    let Output { status, stderr, .. } = codethread_testkit::deadline::output_within(
        &format!("{name} {args:?}"),
        300,
        Command::new(example(name)).args(args),
    );
    (
        status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&stderr).into_owned(),
    )
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ct-exit-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn analyze_exit_codes() {
    let t = tmp("analyze");
    let good = t.join("good.csv");
    std::fs::write(&good, "instance,m1,m2\na,1,0\nb,0,1\n").unwrap();
    let (code, err) = run("analyze", &["difficulty", "--matrix", s(&good)]);
    assert_eq!(code, 0, "{err}");
    let bad = t.join("bad.csv");
    std::fs::write(&bad, "instance,m1,m2\na,1,0\nb,0,2\n").unwrap();
    let (code, err) = run("analyze", &["difficulty", "--matrix", s(&bad)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("must be 0 or 1") && err.contains("line 3"),
        "{err}"
    );
    let dup = t.join("dup.csv");
    std::fs::write(&dup, "instance,m1\na,1\na,1\n").unwrap();
    let (code, err) = run("analyze", &["difficulty", "--matrix", s(&dup)]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("line 3"), "{err}");
    let (code, err) = run(
        "analyze",
        &["difficulty", "--matrix", s(&good), "--max-file-bytes", "10"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("limit of 10 bytes"), "{err}");
    let (code, err) = run(
        "analyze",
        &[
            "logit",
            "--csv",
            s(&t.join("missing.csv")),
            "--outcome",
            "y",
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("missing.csv"), "{err}");
    #[cfg(unix)]
    {
        let fifo = t.join("results.csv");
        assert!(Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let (code, err) = run(
            "analyze",
            &["report", "--results", s(&fifo), "--out", s(&t.join("out"))],
        );
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("FIFO"), "{err}");
    }
    // a usage error
    let (code, _) = run("analyze", &["difficulty", "--no-such-flag"]);
    assert_eq!(code, 2);
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn reproduce_exit_codes() {
    let t = tmp("reproduce");
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    let out = t.join("out");
    let base = ["--bench", s(&bench), "--out", s(&out), "--bootstrap", "20"];
    let with = |extra: &[&str]| -> (i32, String) {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        run("reproduce", &a)
    };
    let (code, err) = with(&[]);
    assert_eq!(code, 0, "{err}");
    // missing inputs: fatal, naming the path
    for flag in ["--agents", "--reports", "--snapshots", "--repos"] {
        let p = t.join(format!("missing{flag}"));
        let (code, err) = with(&[flag, s(&p)]);
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(
            err.contains(s(&p)) && err.contains("does not exist"),
            "{flag}: {err}"
        );
    }
    let plain = t.join("plain");
    std::fs::create_dir_all(&plain).unwrap();
    let (code, err) = with(&["--repo", s(&plain)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(s(&plain)) && err.contains("not a git repository"),
        "{err}"
    );
    // every instance failing: fatal, with the real reason per instance
    let (code, err) = with(&["--snapshots", s(&plain)]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("snapshot directory") && err.contains("missing"),
        "{err}"
    );
    assert!(!err.contains("does not apply"), "{err}");
    let (code, err) = with(&["--repos", s(&plain)]);
    assert_eq!(code, 2, "{err}");
    // a per-chain failure (a link in the agent tree): partial
    #[cfg(unix)]
    {
        let agents = t.join("agents");
        assert!(Command::new("cp")
            .arg("-r")
            .arg(bench.join("agents"))
            .arg(&agents)
            .status()
            .unwrap()
            .success());
        std::os::unix::fs::symlink(
            "/etc/hostname",
            agents.join("scripted-a/pr1/fixtures__bounded-1/src/leak.rs"),
        )
        .unwrap();
        let (code, err) = with(&["--agents", s(&agents)]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("leak.rs") && err.contains("symbolic link"),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&t);
}

/// Real inputs without agent outputs or reports stop with exit 2 naming what
/// to add; nothing falls back to the fixtures' agents and no report is
/// written. With no input flag the bundled fixtures run, and report.md says
/// so and lists every feature Table 4 left out.
#[test]
fn reproduce_never_grades_the_fixture_agents_on_real_inputs() {
    let t = tmp("real-inputs");
    let bench = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    let out = t.join("out");
    let (code, err) = run(
        "reproduce",
        &[
            "--instances",
            s(&bench.join("instances.jsonl")),
            "--snapshots",
            s(&bench.join("snapshots")),
            "--out",
            s(&out),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--agents") && err.contains("--reports"),
        "{err}"
    );
    assert!(!out.join("report/report.md").exists());
    // Only --instances: the source is named too.
    let (code, err) = run(
        "reproduce",
        &[
            "--instances",
            s(&bench.join("instances.jsonl")),
            "--out",
            s(&out),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--snapshots") && err.contains("--agents"),
        "{err}"
    );
    // The fixtures, by default: the report says where its inputs came from.
    let (code, err) = run("reproduce", &["--out", s(&out), "--bootstrap", "50"]);
    assert!(code == 0 || code == 1, "{err}");
    let md = std::fs::read_to_string(out.join("report/report.md")).unwrap();
    assert!(md.contains("Bundled fixtures"), "{md}");
    assert!(
        md.contains("Features left out of the model") || md.contains("features are in the model"),
        "{md}"
    );
    // Every figure report.md links was written.
    for l in md.lines() {
        if let Some(i) = l.find("![](") {
            let name = &l[i + 4..l[i..].find(')').unwrap() + i];
            assert!(
                out.join("report").join(name).is_file(),
                "{name} linked, not written"
            );
        }
    }
}

/// Errors name their cause: a `--snapshots` directory that does not exist is a usage error
/// naming the flag; one without the instance's `<id>/before` says the snapshot is missing
/// (never "gold patch does not apply ... does not exist").
#[test]
fn chain_snapshot_errors_name_the_snapshot_not_the_patch() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inst = root.join("fixtures/bench/instances.jsonl");
    let d = tmp("snapshots-cause");
    let (code, err) = run(
        "chain",
        &[
            "targets",
            "--instances",
            s(&inst),
            "--snapshots",
            s(&d.join("nope")),
        ],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--snapshots") && err.contains("no such directory"),
        "{err}"
    );
    std::fs::create_dir_all(d.join("empty")).unwrap();
    let (code, err) = run(
        "chain",
        &[
            "targets",
            "--instances",
            s(&inst),
            "--snapshots",
            s(&d.join("empty")),
        ],
    );
    assert_ne!(code, 0, "{err}");
    assert!(
        err.contains("no snapshot") && err.contains("check --snapshots"),
        "{err}"
    );
    assert!(!err.contains("does not apply"), "{err}");
    // The real snapshots still give targets.
    let (code, err) = run(
        "chain",
        &[
            "targets",
            "--instances",
            s(&inst),
            "--snapshots",
            s(&root.join("fixtures/bench/snapshots")),
        ],
    );
    assert_eq!(code, 0, "{err}");
}
