//! `chain llm export | run | import` as a user runs them: a chain built
//! from the fixtures, its statement requests sent to a loopback
//! chat-completions server by the example binary, the process killed
//! midway and restarted (the server counts what it receives), the API key
//! in no file, the results imported and the statements checked.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use codethread_testkit::chat_server::{ChatServer, Fault};

fn exe() -> PathBuf {
    codethread_testkit::example("chain")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files_containing(dir: &Path, needle: &[u8]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read(&p).is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle))
            {
                out.push(p);
            }
        }
    }
    out
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = codethread_testkit::deadline::output_within(
        &format!("chain {args:?}"),
        120,
        Command::new(exe()).args(args).envs(env.iter().copied()),
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn killed_run_resumes_and_the_key_stays_out_of_files() {
    let dir = codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), "llm-cli").unwrap();
    let chain = dir.join("chain");
    let fx = root().join("fixtures/bench");
    let (code, _, err) = run(
        &[
            "build",
            "--instances",
            fx.join("instances.jsonl").to_str().unwrap(),
            "--snapshots",
            fx.join("snapshots").to_str().unwrap(),
            "--out",
            chain.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    // Every fixture instance but the one negative case (fixtures/README.md)
    // becomes a chain with one statement request.
    let rows = std::fs::read_to_string(fx.join("instances.jsonl")).unwrap();
    let n = rows.lines().filter(|l| !l.trim().is_empty()).count() - 1;
    assert!(n >= 20, "{n}");
    // Both batch formats are written for every built instance.
    for f in ["openai-batch", "anthropic-batch"] {
        let (code, out, err) = run(
            &[
                "llm",
                "export",
                "--chain",
                chain.to_str().unwrap(),
                "--format",
                f,
                "--model",
                "m",
            ],
            &[],
        );
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().count(), n, "{f}");
    }
    let server = ChatServer::start(
        Duration::from_millis(120),
        Arc::new(|_: &str, _| Fault::None),
    );
    let secret = "sk-cli-secret-0d1b2a";
    let out_dir = dir.join("run");
    let args = [
        "llm",
        "run",
        "--chain",
        chain.to_str().unwrap(),
        "--endpoint",
        &server.base_url(),
        "--model",
        "m",
        "--out",
        out_dir.to_str().unwrap(),
        "--concurrency",
        "2",
        "--api-key-env",
        "CT_LLM_CLI_KEY",
    ];
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    // First run: killed after a few answers.
    let mut child = Command::new(exe())
        .args(&args)
        .env("CT_LLM_CLI_KEY", secret)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while server.seen().answered.len() < 6 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    let _ = child.wait();
    let before = server.total();
    assert!(before < n, "the run was not stopped midway ({before})");
    // Second run finishes, sending only what is not cached.
    let sargs: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = run(&sargs, &[("CT_LLM_CLI_KEY", secret)]);
    assert_eq!(code, 0, "{err}");
    let seen = server.seen();
    assert_eq!(seen.answered.len(), n);
    // At most the requests in flight at the kill (concurrency 2) are asked twice.
    assert!(
        server.total() <= n + 2,
        "{} requests for {n} answers",
        server.total()
    );
    let repeated = seen.answered.values().filter(|n| **n > 1).count();
    assert!(repeated <= 2, "{repeated}");
    // A third run sends nothing.
    let total = server.total();
    let (code, _, err) = run(&sargs, &[("CT_LLM_CLI_KEY", secret)]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(server.total(), total);
    assert!(
        err.contains(&format!("answered 0, from the cache {n}")),
        "{err}"
    );
    assert!(seen.auth.iter().all(|a| a == &format!("Bearer {secret}")));
    assert!(files_containing(&dir, secret.as_bytes()).is_empty());
    // Without the variable: a fatal error naming it, not the key.
    let (code, _, err) = run(&sargs, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("CT_LLM_CLI_KEY"), "{err}");
    // Import, then build with the answers: the bare answers lack the
    // required sections and are flagged per instance.
    let answers = dir.join("answers.jsonl");
    let (code, _, err) = run(
        &[
            "llm",
            "import",
            "--chain",
            chain.to_str().unwrap(),
            "--output",
            out_dir.join("output.jsonl").to_str().unwrap(),
            "--answers-out",
            answers.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(&answers).unwrap().lines().count(),
        n
    );
    let (code, _, err) = run(
        &[
            "build",
            "--instances",
            fx.join("instances.jsonl").to_str().unwrap(),
            "--snapshots",
            fx.join("snapshots").to_str().unwrap(),
            "--out",
            chain.to_str().unwrap(),
            "--answers",
            answers.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 0, "{err}");
    assert!(err.matches("statement flagged").count() >= n, "{err}");
    assert!(err.contains("missing_section: Task Overview"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
