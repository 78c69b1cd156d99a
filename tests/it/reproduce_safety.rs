//! `reproduce` on hostile inputs: links in the untrusted agent and report trees, links planted
//! in the output directory, special files, missing inputs — and the exit-code contract.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg(unix)]

use std::path::{Path, PathBuf};

use codethread::chain::SourceSpec;
use codethread::exit::ExitOutcome;
use codethread::reproduce::{reproduce, ReproduceConfig, ReproduceSummary};

const SECRET: &str = "TOP-SECRET-0xC0FFEE";

fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench")
}

fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ct-repro-safety-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn copy_dir(from: &Path, to: &Path) {
    let mut stack = vec![from.to_path_buf()];
    std::fs::create_dir_all(to).unwrap();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(from).unwrap();
            if p.is_dir() {
                stack.push(p.clone());
                std::fs::create_dir_all(to.join(rel)).unwrap();
            } else {
                std::fs::create_dir_all(to.join(rel).parent().unwrap()).unwrap();
                std::fs::copy(&p, to.join(rel)).unwrap();
            }
        }
    }
}

fn config(out: &Path) -> ReproduceConfig {
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), out);
    cfg.bootstrap_reps = 20;
    cfg
}

/// Runs the pipeline on another thread; a blocking read fails the test instead of hanging it.
fn run(cfg: ReproduceConfig) -> Result<ReproduceSummary, String> {
    codethread_testkit::deadline::within(
        "reproduce (a blocking read of a special file?)",
        300,
        move || reproduce(&cfg, &mut |_| {}).map_err(|e| e.to_string()),
    )
}

/// Every file below `dir`, as paths.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

fn all_text_below(dir: &Path) -> String {
    files_below(dir)
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

#[test]
fn links_in_the_agent_tree_are_refused_per_chain_never_read() {
    let t = tmp("agent-links");
    let secret_file = t.join("secret.py");
    std::fs::write(&secret_file, format!("{SECRET} = 1\n")).unwrap();
    let secret_dir = t.join("secret_dir");
    std::fs::create_dir_all(secret_dir.join("pystats")).unwrap();
    std::fs::write(
        secret_dir.join("pystats/stats.py"),
        format!("{SECRET} = 2\n"),
    )
    .unwrap();
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let link = |target: &Path, at: &Path| {
        let _ = std::fs::remove_file(at);
        let _ = std::fs::remove_dir_all(at);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, at).unwrap();
    };
    // a file link over a real agent file, a dangling link, a link to a directory, a stage
    // directory that is a link, an instance directory that is a link, a model that is a link
    let a = agents.join("scripted-a");
    let cases: Vec<(PathBuf, PathBuf)> = vec![
        (
            secret_file.clone(),
            a.join("pr1/fixtures__pystats-1-v4/pystats/stats.py"),
        ),
        (
            t.join("nowhere"),
            a.join("pr1/fixtures__bounded-1/src/dangling.rs"),
        ),
        (
            secret_dir.clone(),
            a.join("pr2_HA/fixtures__pystats-1-v4/pystats"),
        ),
        (secret_dir.clone(), agents.join("scripted-b/pr2_AA")),
        (
            secret_dir.clone(),
            agents.join("scripted-c/pr1/fixtures__pystats-1-v4"),
        ),
        (secret_dir.clone(), agents.join("zz-linked-model")),
    ];
    for (target, at) in &cases {
        link(target, at);
    }
    let mut cfg = config(&t.join("out"));
    cfg.agents = agents.clone();
    let s = run(cfg).expect("the run survives links in the agent tree");
    // nothing behind a link reaches any output
    let written = all_text_below(&t.join("out"));
    assert!(
        !written.contains(SECRET),
        "secret content leaked into the outputs"
    );
    // each link is a per-chain error naming it
    for (_, at) in &cases[..5] {
        let rel = at.strip_prefix(&agents).unwrap().display().to_string();
        assert!(
            s.errors
                .iter()
                .any(|e| e.to_string().contains(&rel) && e.to_string().contains("symbolic link")),
            "no error naming {rel}: {:?}",
            s.errors
        );
    }
    assert!(
        s.errors
            .iter()
            .any(|e| e.to_string().contains("zz-linked-model")
                && e.to_string().contains("symbolic link")),
        "{:?}",
        s.errors
    );
    assert_eq!(s.models, vec!["scripted-a", "scripted-b", "scripted-c"]);
    assert!(s.outcomes > 0);
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn links_and_fifos_in_the_reports_tree_are_refused() {
    let t = tmp("report-links");
    let reports = t.join("reports");
    copy_dir(&bench().join("reports"), &reports);
    // a report.json replaced by a link to a report elsewhere that flips the outcome
    let victim = reports.join("scripted-a/pr2_HA/fixtures__bounded-1/report.json");
    let original = std::fs::read_to_string(&victim).unwrap();
    let flipped = if original.contains("\"resolved\": true") {
        original.replace("\"resolved\": true", "\"resolved\": false")
    } else {
        original.replace("\"resolved\": false", "\"resolved\": true")
    };
    assert_ne!(original, flipped, "fixture report shape changed");
    std::fs::write(t.join("elsewhere.json"), &flipped).unwrap();
    std::fs::remove_file(&victim).unwrap();
    std::os::unix::fs::symlink(t.join("elsewhere.json"), &victim).unwrap();
    // a directory link and a FIFO
    std::fs::create_dir_all(t.join("outside/fixtures__x")).unwrap();
    std::os::unix::fs::symlink(t.join("outside"), reports.join("scripted-b/pr1/linked")).unwrap();
    let fifo = reports.join("scripted-c/pr1/fifo-inst");
    std::fs::create_dir_all(&fifo).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(fifo.join("report.json"))
        .status()
        .unwrap()
        .success());
    let mut cfg = config(&t.join("out"));
    cfg.reports = reports.clone();
    let s = run(cfg).expect("the run survives links in the reports tree");
    for needle in [
        "scripted-a/pr2_HA/fixtures__bounded-1/report.json",
        "scripted-b/pr1/linked",
        "scripted-c/pr1/fifo-inst/report.json",
    ] {
        assert!(
            s.errors.iter().any(|e| e.to_string().contains(needle)),
            "no error naming {needle}: {:?}",
            s.errors
        );
    }
    // the linked report was not used: scripted-a HA on bounded-1 has no outcome
    let csv = std::fs::read_to_string(t.join("out/outcomes.csv")).unwrap();
    assert!(
        !csv.lines().any(|l| l.contains("scripted-a")
            && l.contains(",HA,")
            && l.contains("fixtures__bounded-1,")),
        "{csv}"
    );
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn outputs_replace_planted_links_and_refuse_planted_directories() {
    let t = tmp("out-links");
    let out = t.join("out");
    let s = run(config(&out)).unwrap();
    assert_eq!(s.outcome(), ExitOutcome::Success, "{:?}", s.errors);
    let outside = t.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    // every file kind reproduce writes: predictions, gate decisions, outcomes, report files
    let mine: Vec<PathBuf> = files_below(&out)
        .into_iter()
        .filter(|p| !p.starts_with(out.join("chain")))
        .collect();
    for kind in [
        "pr1.jsonl",
        "stacked.jsonl",
        "gate",
        "outcomes.csv",
        "report.md",
        "regression.json",
        ".svg",
        "table2.csv",
    ] {
        assert!(
            mine.iter().any(|p| p.display().to_string().contains(kind)),
            "no {kind} output in {mine:?}"
        );
    }
    for (i, f) in mine.iter().enumerate() {
        let target = outside.join(format!("{i}.txt"));
        std::fs::write(&target, SECRET).unwrap();
        std::fs::remove_file(f).unwrap();
        std::os::unix::fs::symlink(&target, f).unwrap();
    }
    let s = run(config(&out)).unwrap();
    assert_eq!(s.outcome(), ExitOutcome::Success, "{:?}", s.errors);
    for (i, f) in mine.iter().enumerate() {
        assert_eq!(
            std::fs::read_to_string(outside.join(format!("{i}.txt"))).unwrap(),
            SECRET,
            "{} was written through",
            f.display()
        );
        assert!(std::fs::symlink_metadata(f).unwrap().file_type().is_file());
    }
    // a planted directory link is refused, nothing written behind it
    for sub in ["predictions", "gate", "report"] {
        let out2 = t.join(format!("out-{sub}"));
        std::fs::create_dir_all(&out2).unwrap();
        let behind = t.join(format!("behind-{sub}"));
        std::fs::create_dir_all(&behind).unwrap();
        std::os::unix::fs::symlink(&behind, out2.join(sub)).unwrap();
        let e = run(config(&out2)).unwrap_err();
        assert!(e.contains(sub) && e.contains("symbolic link"), "{sub}: {e}");
        assert_eq!(
            std::fs::read_dir(&behind).unwrap().count(),
            0,
            "{sub}: written behind the link"
        );
    }
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn special_input_files_are_refused_and_the_limit_applies() {
    let t = tmp("special");
    let fifo = t.join("instances.jsonl");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut cfg = config(&t.join("out"));
    cfg.instances = fifo.clone();
    let e = run(cfg).unwrap_err();
    assert!(e.contains("instances.jsonl") && e.contains("FIFO"), "{e}");
    let zero = t.join("task_types.json");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.task_types = Some(zero);
    let e = run(cfg).unwrap_err();
    assert!(
        e.contains("task_types.json") && e.contains("not a regular file"),
        "{e}"
    );
    // a FIFO in the agent tree: a per-chain error, no hang
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let pipe = agents.join("scripted-a/pr1/fixtures__bounded-1/src/pipe.rs");
    assert!(std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap()
        .success());
    let mut cfg = config(&t.join("out"));
    cfg.agents = agents;
    let s = run(cfg).unwrap();
    assert!(
        s.errors
            .iter()
            .any(|e| e.to_string().contains("pipe.rs") && e.to_string().contains("FIFO")),
        "{:?}",
        s.errors
    );
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    // the size limit
    let mut cfg = config(&t.join("out"));
    cfg.max_file_bytes = 100;
    let e = run(cfg).unwrap_err();
    assert!(
        e.contains("instances.jsonl") && e.contains("limit of 100 bytes"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn missing_inputs_are_fatal_and_name_the_path() {
    let t = tmp("missing");
    for (what, mutate) in [
        (
            "agents",
            Box::new(|c: &mut ReproduceConfig, t: &Path| c.agents = t.join("no-agents"))
                as Box<dyn Fn(&mut ReproduceConfig, &Path)>,
        ),
        (
            "reports",
            Box::new(|c: &mut ReproduceConfig, t: &Path| c.reports = t.join("no-reports")),
        ),
        (
            "snapshots",
            Box::new(|c: &mut ReproduceConfig, t: &Path| {
                c.source = SourceSpec::Snapshots(t.join("no-snapshots"))
            }),
        ),
        (
            "repos",
            Box::new(|c: &mut ReproduceConfig, t: &Path| {
                c.source = SourceSpec::Repos(t.join("no-repos"))
            }),
        ),
        (
            "repo",
            Box::new(|c: &mut ReproduceConfig, t: &Path| {
                c.source = SourceSpec::Repo(t.join("no-repo"))
            }),
        ),
    ] {
        let mut cfg = config(&t.join("out"));
        mutate(&mut cfg, &t);
        let e = run(cfg).unwrap_err();
        assert!(e.contains(&format!("no-{what}")), "{what}: {e}");
        assert!(e.contains("does not exist"), "{what}: {e}");
    }
    // a directory that is not a git repository
    let plain = t.join("plain-dir");
    std::fs::create_dir_all(&plain).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.source = SourceSpec::Repo(plain.clone());
    let e = run(cfg).unwrap_err();
    assert!(
        e.contains("plain-dir") && e.contains("not a git repository"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn every_instance_failing_is_fatal_with_the_real_reason() {
    let t = tmp("allfail");
    // an empty snapshot directory: every instance's snapshot is missing
    let snaps = t.join("snapshots");
    std::fs::create_dir_all(&snaps).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.source = SourceSpec::Snapshots(snaps.clone());
    let s = run(cfg).unwrap();
    assert_eq!(s.built, 0);
    assert_eq!(s.failed.len(), s.instances, "{:?}", s.failed);
    for (id, e) in &s.failed {
        assert!(
            e.contains("snapshot directory") && e.contains("missing") && e.contains(id.as_str()),
            "{id}: {e}"
        );
        assert!(!e.contains("does not apply"), "{id}: {e}");
    }
    assert_eq!(s.outcome(), ExitOutcome::Fatal);
    // one instance's snapshot missing: that one fails, the run is partial
    let snaps = t.join("snapshots2");
    copy_dir(&bench().join("snapshots"), &snaps);
    let victim = std::fs::read_dir(&snaps)
        .unwrap()
        .map(|e| e.unwrap().path())
        .min()
        .unwrap();
    let victim_id = victim.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::remove_dir_all(&victim).unwrap();
    let mut cfg = config(&t.join("out2"));
    cfg.source = SourceSpec::Snapshots(snaps);
    let s = run(cfg).unwrap();
    assert!(
        s.failed
            .iter()
            .any(|(id, e)| *id == victim_id && e.contains("snapshot directory")),
        "{:?}",
        s.failed
    );
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    // an empty --repos directory: nothing can be read, every instance fails
    let repos = t.join("repos");
    std::fs::create_dir_all(&repos).unwrap();
    let mut cfg = config(&t.join("out3"));
    cfg.source = SourceSpec::Repos(repos);
    let s = run(cfg).unwrap();
    assert_eq!(s.built, 0);
    assert!(
        s.failed.iter().all(|(_, e)| e.contains("no repository")),
        "{:?}",
        s.failed
    );
    assert_eq!(s.outcome(), ExitOutcome::Fatal);
    let _ = std::fs::remove_dir_all(&t);
}

#[test]
fn special_files_and_links_in_snapshots_fail_that_instance_only() {
    let t = tmp("snap-special");
    let snaps = t.join("snapshots");
    copy_dir(&bench().join("snapshots"), &snaps);
    let fifo = snaps.join("fixtures__pystats-1/before/pystats/stats.py");
    std::fs::remove_file(&fifo).unwrap();
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let secret = t.join("secret.py");
    std::fs::write(&secret, format!("{SECRET} = 3\n")).unwrap();
    let link = snaps.join("fixtures__pystats-1-v2/before/pystats/stats.py");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(&secret, &link).unwrap();
    // A directory link on the way (issue 31): `before/pystats` leads to a
    // directory outside the snapshot holding a `stats.py` of its own.
    let outside = t.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("stats.py"), format!("{SECRET} = 4\n")).unwrap();
    let dir = snaps.join("fixtures__pystats-1-v3/before/pystats");
    std::fs::remove_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&outside, &dir).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.source = SourceSpec::Snapshots(snaps);
    let s = run(cfg).expect("the run survives special files in the snapshots");
    for (id, what) in [
        ("fixtures__pystats-1", "FIFO"),
        ("fixtures__pystats-1-v2", "symbolic link"),
        ("fixtures__pystats-1-v3", "symbolic link"),
    ] {
        assert!(
            s.failed
                .iter()
                .any(|(i, e)| i == id && e.contains("before/pystats") && e.contains(what)),
            "{id}: {:?}",
            s.failed
        );
    }
    assert!(!all_text_below(&t.join("out")).contains(SECRET));
    assert!(s.built > 0);
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

/// Issue 19: test lists nested 60,000 deep (a Verified `FAIL_TO_PASS` JSON
/// string, a Pro `fail_to_pass` Python literal) and a harness `report:` line
/// nested as deep fail their own row or file, named; the run goes on (the
/// deep values were built and then dropped recursively: stack overflow).
#[test]
fn deeply_nested_rows_and_reports_fail_alone() {
    let t = tmp("deep");
    let mut rows = std::fs::read_to_string(bench().join("instances.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(rows.lines().next().unwrap()).unwrap();
    let deep_json = format!("{}\"t\"{}", "[".repeat(60_000), "]".repeat(60_000));
    let deep_py = format!("{}'t'{}", "[(".repeat(30_000), ",)]".repeat(30_000));
    for (id, key, list) in [
        ("deep__verified-1", "FAIL_TO_PASS", deep_json),
        ("deep__pro-1", "fail_to_pass", deep_py),
    ] {
        let mut r = first.clone();
        r["instance_id"] = id.into();
        r.as_object_mut().unwrap().remove("FAIL_TO_PASS");
        r[key] = list.into();
        rows.push_str(&format!("{r}\n"));
    }
    let inst = t.join("instances.jsonl");
    std::fs::write(&inst, rows).unwrap();
    let reports = t.join("reports");
    copy_dir(&bench().join("reports"), &reports);
    let victim = reports.join("scripted-a/pr2_HA/fixtures__bounded-1");
    std::fs::remove_file(victim.join("report.json")).unwrap();
    let deep = format!("{}1{}", "{'k': ".repeat(50_000), "}".repeat(50_000));
    std::fs::write(
        victim.join("run_instance.log"),
        format!("x - INFO - start\nx - INFO - report: {{'fixtures__bounded-1': {deep}}}\n"),
    )
    .unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.instances = inst;
    cfg.reports = reports;
    let s = run(cfg).expect("the run survives deep rows");
    for needle in ["deep__verified-1", "deep__pro-1", "run_instance.log"] {
        assert!(
            s.errors.iter().any(|e| e.to_string().contains(needle)
                && e.to_string().contains("nested deeper than 128")),
            "no error naming {needle}: {:?}",
            s.errors
        );
    }
    assert_eq!(s.rejected_rows, 2);
    assert!(s.outcomes > 0);
    let _ = std::fs::remove_dir_all(&t);
}

/// The size limit applies to the snapshots too: a pre-image above `max_file_bytes` fails its
/// instance only, naming the file and the limit (the other inputs are below it).
#[test]
fn a_snapshot_file_above_the_limit_fails_that_instance_only() {
    let t = tmp("snap-limit");
    let snaps = t.join("snapshots");
    copy_dir(&bench().join("snapshots"), &snaps);
    let big = snaps.join("fixtures__pystats-1-v3/before/pystats/stats.py");
    let mut text = std::fs::read(&big).unwrap();
    text.extend(std::iter::repeat_n(b'#', 200_000));
    text.push(b'\n');
    std::fs::write(&big, text).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.source = SourceSpec::Snapshots(snaps);
    cfg.max_file_bytes = 100_000;
    let s = run(cfg).expect("the run survives an oversized snapshot file");
    assert_eq!(s.failed.len(), 1, "{:?}", s.failed);
    let (id, e) = &s.failed[0];
    assert_eq!(id, "fixtures__pystats-1-v3");
    assert!(
        e.contains("stats.py") && e.contains("limit of 100000 bytes"),
        "{e}"
    );
    assert!(s.built > 0);
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

/// A model directory whose name is not UTF-8 is an error naming it, never run under a lossy
/// name (which would name prediction files and table rows after a model that does not exist).
#[test]
fn a_model_name_that_is_not_utf8_is_an_error() {
    use std::os::unix::ffi::OsStrExt;
    let t = tmp("model-name");
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let bad = agents.join(std::ffi::OsStr::from_bytes(b"model-\xff"));
    copy_dir(&agents.join("scripted-a"), &bad);
    let mut cfg = config(&t.join("out"));
    cfg.agents = agents;
    let s = run(cfg).expect("the run survives a non-UTF-8 model name");
    assert_eq!(s.models, vec!["scripted-a", "scripted-b", "scripted-c"]);
    assert!(
        s.errors.iter().any(|e| matches!(
            e,
            codethread::reproduce::Diagnostic::ModelName { path } if *path == bad
        )),
        "{:?}",
        s.errors
    );
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

/// Agent outputs given as predictions files (`agents/<model>/<step>.jsonl`, what
/// `chain harbor-import` writes): the rows that can be used give the same gate as the trees
/// they were made from; a row that is not JSON, a patch that does not parse or apply, a row
/// for a chain whose tree is given too, and a predictions file that is a link (never read)
/// are each an error naming the model and step, and the rest of the run goes on.
#[test]
fn predictions_files_as_agent_outputs_fail_row_by_row() {
    let t = tmp("given");
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let reports = t.join("reports");
    copy_dir(&bench().join("reports"), &reports);
    // Baseline: scripted-a as trees.
    let mut cfg = config(&t.join("out-trees"));
    cfg.agents = agents.clone();
    cfg.reports = reports.clone();
    let base = run(cfg).unwrap();
    let pr1 =
        std::fs::read_to_string(t.join("out-trees/predictions/scripted-a.pr1.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = pr1
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() >= 4, "{} PR1 rows", rows.len());
    let id = |k: usize| rows[k]["instance_id"].as_str().unwrap().to_string();
    // The model `given`: scripted-a's PR1 patches as a predictions file.
    let given = agents.join("given");
    std::fs::create_dir_all(&given).unwrap();
    let mut text = String::new();
    for (k, r) in rows.iter().enumerate() {
        let mut r = r.clone();
        r["model_name_or_path"] = "given".into();
        if k == 1 {
            r["model_patch"] = "this is not a diff\n".into();
        }
        text.push_str(&r.to_string());
        text.push('\n');
        if k == 0 {
            text.push_str("{\"instance_id\": \n");
        }
    }
    std::fs::write(given.join("pr1.jsonl"), text).unwrap();
    // The same chain as a tree too: neither is used.
    copy_dir(
        &agents.join("scripted-a/pr1").join(id(2)),
        &given.join("pr1").join(id(2)),
    );
    // A PR2 that does not apply to the agent's PR1.
    let bad = format!(
        "{}\n",
        serde_json::json!({"instance_id": id(3), "model_name_or_path": "given",
            "model_patch": "diff --git a/no_such_file.py b/no_such_file.py\n--- a/no_such_file.py\n+++ b/no_such_file.py\n@@ -1 +1 @@\n-x\n+y\n"})
    );
    std::fs::write(given.join("pr2_AA.jsonl"), bad).unwrap();
    // A predictions file that is a link to a secret.
    std::fs::write(t.join("secret.jsonl"), SECRET).unwrap();
    std::os::unix::fs::symlink(t.join("secret.jsonl"), given.join("pr2_HA.jsonl")).unwrap();
    copy_dir(&reports.join("scripted-a"), &reports.join("given"));
    // A patch that leaves the repository: refused by name, never read
    // (the snapshot source would resolve `../` below its root).
    let escape = agents.join("escape");
    std::fs::create_dir_all(&escape).unwrap();
    let up = format!(
        "../../../../../../../..{}",
        t.join("secret.jsonl").display()
    );
    let row = serde_json::json!({"instance_id": id(0), "model_name_or_path": "escape",
        "model_patch": format!("diff --git a/{up} b/{up}\n--- a/{up}\n+++ b/{up}\n@@ -1 +1 @@\n-{SECRET}\n+x\n")});
    std::fs::write(escape.join("pr1.jsonl"), format!("{row}\n")).unwrap();

    let mut cfg = config(&t.join("out"));
    cfg.agents = agents.clone();
    cfg.reports = reports.clone();
    let s = run(cfg).unwrap();
    let errors: Vec<String> = s.errors.iter().map(ToString::to_string).collect();
    let has = |needle: &str| errors.iter().any(|e| e.contains(needle));
    assert!(has("given: pr1.jsonl:") && has(":2"), "{errors:?}");
    assert!(
        has(&format!(
            "given {}: pr1: pr1.jsonl: the patch does not parse",
            id(1)
        )),
        "{errors:?}"
    );
    assert!(
        has(&format!(
            "given {}: pr1: both pr1.jsonl and the tree",
            id(2)
        )),
        "{errors:?}"
    );
    assert!(
        has(&format!(
            "given {}: pr2_AA: pr2_AA.jsonl: the patch does not apply",
            id(3)
        )),
        "{errors:?}"
    );
    assert!(has("given: pr2_HA.jsonl:") && has("link"), "{errors:?}");
    assert!(
        has(&format!(
            "escape {}: pr1: pr1.jsonl: the patch touches",
            id(0)
        )) && has("outside the repository"),
        "{errors:?}"
    );
    assert!(!all_text_below(&t.join("out")).contains(SECRET));
    // The usable rows give scripted-a's decisions; the other models are untouched.
    let gate = |dir: &str, model: &str| -> Vec<serde_json::Value> {
        std::fs::read_to_string(t.join(dir).join(format!("gate/{model}.jsonl")))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let theirs = gate("out", "given");
    let ours = gate("out-trees", "scripted-a");
    assert_eq!(theirs.len(), rows.len() - 2);
    for d in &theirs {
        let same = ours
            .iter()
            .find(|o| o["instance_id"] == d["instance_id"])
            .unwrap();
        assert_eq!(d["kept"], same["kept"], "{d} vs {same}");
        assert_eq!(d["reasons"], same["reasons"], "{d} vs {same}");
    }
    for m in ["scripted-a", "scripted-b", "scripted-c"] {
        assert_eq!(s.gate[m], base.gate[m], "{m}");
    }
    let _ = std::fs::remove_dir_all(&t);
}

/// Issue 31: predictions rows no chain of the run reads are named, never dropped silently:
/// an id that is no instance (a leading space, another case) is an error, and a model that
/// gives only `pr2_AA.jsonl` (AA is the PR2 on the agent's own PR1, which it does not give)
/// is an error per row; the run exits 1, not 0.
#[test]
fn predictions_rows_no_chain_reads_are_named() {
    let t = tmp("unmatched");
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let rows: Vec<serde_json::Value> = std::fs::read_to_string(bench().join("instances.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let id = rows[0]["instance_id"].as_str().unwrap().to_string();
    let patch = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n";
    let row = |id: &str| {
        format!(
            "{}\n",
            serde_json::json!({"instance_id": id, "model_name_or_path": "m", "model_patch": patch})
        )
    };
    let odd = agents.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    let spaced = format!(" {id}");
    let upper = id.to_uppercase();
    std::fs::write(odd.join("pr1.jsonl"), row(&spaced) + &row(&upper)).unwrap();
    let only_aa = agents.join("only-aa");
    std::fs::create_dir_all(&only_aa).unwrap();
    std::fs::write(only_aa.join("pr2_AA.jsonl"), row(&id)).unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.agents = agents;
    let s = run(cfg).unwrap();
    let errors: Vec<String> = s.errors.iter().map(ToString::to_string).collect();
    let has = |needle: &str| errors.iter().any(|e| e.contains(needle));
    assert!(
        has(&format!("{spaced:?}, which is no instance")),
        "{errors:?}"
    );
    assert!(
        has(&format!("{upper:?}, which is no instance")),
        "{errors:?}"
    );
    assert!(
        has(&format!("only-aa: pr2_AA.jsonl: row for {id}, but no PR1")),
        "{errors:?}"
    );
    assert_eq!(s.outcome(), ExitOutcome::Partial);
    let _ = std::fs::remove_dir_all(&t);
}

/// The resolved rows of `outcomes.csv` of `model` under `cond`: (instance,
/// resolved).
fn outcomes_of(out: &Path, model: &str, cond: &str) -> Vec<(String, bool)> {
    std::fs::read_to_string(out.join("outcomes.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f.get(1) == Some(&model) && f.get(2) == Some(&cond))
                .then(|| (f[3].to_string(), f[4] == "1"))
        })
        .collect()
}

/// Issue 38: an empty PR2 submission is an unresolved outcome, never a
/// dropped instance: with a run-level report (`empty_patch_ids`, no
/// per-instance report for them) the model's HA rate is the harness's own
/// resolved / submitted.
#[test]
fn empty_submissions_count_as_unresolved() {
    let t = tmp("empty-subs");
    let agents = t.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let reports = t.join("reports");
    copy_dir(&bench().join("reports"), &reports);
    // Baseline: scripted-a's HA outcomes.
    let mut cfg = config(&t.join("base"));
    cfg.agents = agents.clone();
    cfg.reports = reports.clone();
    run(cfg).unwrap();
    let base = outcomes_of(&t.join("base"), "scripted-a", "HA");
    assert!(base.len() >= 4, "{base:?}");
    // The model `rl`: scripted-a, with two HA submissions empty and the HA
    // reports given as one run-level report.
    copy_dir(&agents.join("scripted-a"), &agents.join("rl"));
    copy_dir(&reports.join("scripted-a"), &reports.join("rl"));
    let _ = std::fs::remove_dir_all(reports.join("rl/pr2_HA"));
    std::fs::create_dir_all(reports.join("rl/pr2_HA")).unwrap();
    let empties: Vec<&String> = base.iter().map(|(i, _)| i).take(2).collect();
    for id in &empties {
        // PR2 = the base files (the human PR1 restored base): an empty diff.
        let tree = agents.join("rl/pr2_HA").join(id);
        let _ = std::fs::remove_dir_all(&tree);
        copy_dir(&bench().join("snapshots").join(id).join("before"), &tree);
    }
    let resolved: Vec<&String> = base
        .iter()
        .filter(|(i, r)| *r && !empties.contains(&i))
        .map(|(i, _)| i)
        .collect();
    let unresolved: Vec<&String> = base
        .iter()
        .filter(|(i, r)| !*r && !empties.contains(&i))
        .map(|(i, _)| i)
        .collect();
    let submitted: Vec<&String> = base.iter().map(|(i, _)| i).collect();
    let run_report = serde_json::json!({
        "schema_version": 2, "total_instances": base.len(),
        "submitted_instances": submitted.len(), "submitted_ids": submitted,
        "completed_ids": resolved.iter().chain(&unresolved).collect::<Vec<_>>(),
        "resolved_ids": resolved, "unresolved_ids": unresolved,
        "empty_patch_ids": empties, "error_ids": [], "incomplete_ids": []
    });
    std::fs::write(
        reports.join("rl/pr2_HA/rl__HA.run1.json"),
        run_report.to_string(),
    )
    .unwrap();
    let mut cfg = config(&t.join("out"));
    cfg.agents = agents;
    cfg.reports = reports;
    let s = run(cfg).unwrap();
    let ha = outcomes_of(&t.join("out"), "rl", "HA");
    assert_eq!(
        ha.len(),
        submitted.len(),
        "every submission is an outcome: {ha:?}"
    );
    let got = ha.iter().filter(|(_, r)| *r).count();
    assert_eq!(got, resolved.len(), "the harness's own resolved count");
    for id in &empties {
        assert!(ha.contains(&((*id).clone(), false)), "{id} unresolved");
    }
    let subs = s.submissions[&("rl".to_string(), "HA".to_string())];
    assert_eq!(subs.empty, 2, "{subs:?}");
    assert_eq!(subs.graded + subs.empty, submitted.len());
    let report = std::fs::read_to_string(s.report_dir.join("report.md")).unwrap();
    assert!(report.contains("## What this report holds"), "{report}");
    let _ = std::fs::remove_dir_all(&t);
}

/// Issue 38: missing inputs never give an empty report with exit 0: no PR1
/// at all is an error naming it (exit 2); HA outputs alone give a report
/// that says, at its top, what it holds and that AA is missing.
#[test]
fn missing_inputs_are_named_never_an_empty_report() {
    let t = tmp("missing");
    // Only PR2 HA outputs (no PR1): nothing can be counted.
    let agents = t.join("agents");
    std::fs::create_dir_all(agents.join("m")).unwrap();
    copy_dir(
        &bench().join("agents/scripted-a/pr2_HA"),
        &agents.join("m/pr2_HA"),
    );
    let mut cfg = config(&t.join("out1"));
    cfg.agents = agents.clone();
    let e = run(cfg).expect_err("no outcome is an error");
    assert!(
        e.contains("no PR2 outcome") && e.contains("m: no PR1"),
        "{e}"
    );
    // PR1 and HA, no AA: a report that says AA is missing.
    copy_dir(
        &bench().join("agents/scripted-a/pr1"),
        &agents.join("m/pr1"),
    );
    let reports = t.join("reports");
    copy_dir(&bench().join("reports/scripted-a"), &reports.join("m"));
    let _ = std::fs::remove_dir_all(reports.join("m/pr2_AA"));
    let mut cfg = config(&t.join("out2"));
    cfg.agents = agents;
    cfg.reports = reports;
    let s = run(cfg).unwrap();
    assert!(s.outcomes > 0);
    let report = std::fs::read_to_string(s.report_dir.join("report.md")).unwrap();
    assert!(report.contains("What it lacks"), "{report}");
    assert!(report.contains("m AA: no PR2 outcome"), "{report}");
    let _ = std::fs::remove_dir_all(&t);
}
