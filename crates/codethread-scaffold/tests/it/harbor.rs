//! Harbor tasks (issue 23) proven with the real packages: harbor 0.25.0's
//! `harbor lint` and its `Task` loader on every exported task of the dev
//! chains (Verified and Multilingual, joined with their upstream rows), the
//! exported verifier (`test.sh` + `grade.py`, swebench 5.0.2's grading) run
//! outside a container on recorded harness-format logs, and one chain
//! round-tripped: export → the oracle's solution applied by hand → the
//! collect hook → the verifier → result directories written with harbor's
//! own pydantic models → import → gate → stack, the stacked prediction
//! applying at base and giving the gold tree; the follow_on_agent task's
//! oracle likewise on a given agent PR1. (`tests/it/harbor_reproduce.rs` of
//! the root package goes on from the import into `reproduce`.)
//!
//! Harbor's Python is `CODETHREAD_HARBOR_PYTHON` (`.ci/run` installs harbor
//! into `.venv-harbor`, Python >= 3.12) or `<repo>/.venv-harbor/bin/python`;
//! swebench's is `CODETHREAD_PYTHON`. Without `CODETHREAD_SHARED` the suites
//! print SKIPPED and pass; with it set they FAIL when either is missing.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::type_complexity
)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use codethread_bench::load_reports_dir;
use codethread_bench::HarnessGeneration;
use codethread_bench::{load_instances, Instance};
use codethread_bench::{load_predictions, predictions_by_id};
use codethread_chain::GateReason;
use codethread_chain::SnapshotSource;
use codethread_chain::{gate_predictions, stack, stack_model_name, BuildOptions, Chain, Layer};
use codethread_patch::{ApplyOptions, MemTree};
use codethread_scaffold::harbor::{
    export_harbor, import_harbor_job, task_digest, AgentPr1, HarborCondition, HarborExport,
    HarborExportOptions, HarborImage, IMAGES_FILE,
};
use codethread_testkit::python;
use serde_json::{json, Value};

const HARBOR: &str = "0.25.0";
const SWEBENCH: &str = "5.0.2";
/// How CI provides the interpreters.
const HINT: &str = ".ci/run installs it";

fn py_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py")
}

/// Runs `tests/py/<script>` with harbor's interpreter on `args`; panics
/// with its stderr (and `what`) unless it succeeds; returns its stdout read
/// as one JSON value (`Value::Null` for none).
fn harbor_script(env: &Env, script: &str, args: &[&Path], what: &str) -> Value {
    let out = Command::new(&env.harbor_py)
        .arg(py_dir().join(script))
        .args(args)
        .env("HARBOR_TELEMETRY", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{script} {what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = out.stdout.trim_ascii();
    if text.is_empty() {
        return Value::Null;
    }
    serde_json::from_slice(text).unwrap()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skip(why: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

struct Pack {
    chain: PathBuf,
    snapshots: PathBuf,
    insts: Vec<Instance>,
    dataset: PathBuf,
    export: HarborExport,
    /// The same chain exported with [`SIF_TEMPLATE`] (prebuilt images).
    sif_dataset: PathBuf,
    sif_export: HarborExport,
    /// The follow_on_agent export (see [`agent_pr1s`]).
    fa_dataset: PathBuf,
    fa_export: HarborExport,
    /// How many agent PR1s `check_applies` checked.
    fa_checked: usize,
}

/// The stand-in agent PR1 of the follow_on_agent export: a new file, so it
/// applies at base + PR0 of every instance and carries no original code.
const AGENT_NOTE: &[u8] = b"diff --git a/CODETHREAD_AGENT_NOTE.md b/CODETHREAD_AGENT_NOTE.md
new file mode 100644
--- /dev/null
+++ b/CODETHREAD_AGENT_NOTE.md
@@ -0,0 +1 @@
+an agent's PR1
";

/// The agent PR1s of the follow_on_agent export: the first built instance
/// has none, the second an empty patch, the third one that does not apply,
/// the fourth is not kept by the gate; every other one is [`AGENT_NOTE`].
fn agent_pr1s(ids: &[String], source: PathBuf) -> AgentPr1 {
    let mut patches = BTreeMap::new();
    let mut kept = std::collections::BTreeSet::new();
    for (n, id) in ids.iter().enumerate() {
        let patch: &[u8] = match n {
            0 => continue,
            1 => b"\n",
            2 => b"diff --git a/codethread_no_such_file b/codethread_no_such_file\n--- a/codethread_no_such_file\n+++ b/codethread_no_such_file\n@@ -1 +1 @@\n-x\n+y\n",
            _ => AGENT_NOTE,
        };
        patches.insert(id.clone(), patch.to_vec());
        if n != 3 {
            kept.insert(id.clone());
        }
    }
    AgentPr1 {
        source,
        patches,
        kept: Some(kept),
        ..Default::default()
    }
}

/// The image template of the singularity export.
const SIF_TEMPLATE: &str = "registry.example.org:5000/codethread/{id}:{role}";

struct Env {
    harbor_py: PathBuf,
    swebench_py: PathBuf,
    work: PathBuf,
    packs: Vec<Pack>,
}

fn join_upstream(shared: &Path, pack: &Path, out: &Path) -> PathBuf {
    let mut upstream: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    for f in std::fs::read_dir(shared.join("swebench/swebench_datasets")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "jsonl") {
            for l in std::fs::read_to_string(&p).unwrap().lines() {
                if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(l) {
                    let id = m["instance_id"].as_str().unwrap().to_string();
                    upstream.insert(id, m);
                }
            }
        }
    }
    let mut text = String::new();
    for l in std::fs::read_to_string(pack.join("instances.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let Value::Object(mut row) = serde_json::from_str::<Value>(l).unwrap() else {
            panic!("row")
        };
        let id = row["instance_id"].as_str().unwrap().to_string();
        for (k, v) in &upstream[&id] {
            row.entry(k.clone()).or_insert_with(|| v.clone());
        }
        text.push_str(&Value::Object(row).to_string());
        text.push('\n');
    }
    std::fs::write(out, text).unwrap();
    out.to_path_buf()
}

/// FeatBench's raw rows (`fixtures/featbench/rows_raw.jsonl`) of the instances `pack` has
/// snapshots of.
fn featbench_rows(pack: &Path, out: &Path) -> PathBuf {
    let rows =
        std::fs::read_to_string(repo_root().join("fixtures/featbench/rows_raw.jsonl")).unwrap();
    let mut text = String::new();
    for l in rows.lines().filter(|l| !l.trim().is_empty()) {
        let row: Value = serde_json::from_str(l).unwrap();
        if pack
            .join("files")
            .join(row["instance_id"].as_str().unwrap())
            .is_dir()
        {
            text.push_str(l);
            text.push('\n');
        }
    }
    std::fs::write(out, text).unwrap();
    out.to_path_buf()
}

fn env() -> Option<&'static Env> {
    static ENV: OnceLock<Option<Env>> = OnceLock::new();
    ENV.get_or_init(|| {
        let shared_set = std::env::var_os(codethread_testkit::ENV).is_some_and(|v| !v.is_empty());
        let harbor = python::from_env(
            "CODETHREAD_HARBOR_PYTHON",
            repo_root().join(".venv-harbor/bin/python"),
        );
        if !shared_set && !harbor.exists() {
            skip("no harbor venv and CODETHREAD_SHARED unset");
            return None;
        }
        let harbor_py = python::require(harbor, &[("harbor", "harbor", HARBOR)], HINT)?;
        let swebench = python::from_env("CODETHREAD_PYTHON", "python3");
        let swebench_py = python::require(swebench, &[("swebench", "swebench", SWEBENCH)], HINT)?;
        let shared = codethread_testkit::shared()?;
        // Work directories of earlier runs whose process is gone.
        for e in std::fs::read_dir(std::env::temp_dir())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("ct-harbor-") {
                if !Path::new("/proc").join(pid).exists() {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let work = std::env::temp_dir().join(format!("ct-harbor-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let mut packs = Vec::new();
        // Pro's own run scripts of the Pro-shaped row (`fixtures/pro`).
        let pro_scripts = Some(repo_root().join("fixtures/pro/SWE-bench_Pro-os"));
        for name in ["dev", "dev_multilingual", "featbench", "pro"] {
            // FeatBench: its rows of the dev pack's instances (made by FeatBench's own code,
            // `fixtures/featbench`), graded by FeatBench's rules; no swebench columns.
            // Pro: a dev pack instance as a SWE-bench Pro row, graded by Pro's rules.
            let featbench = name == "featbench";
            let native = featbench || name == "pro";
            let pack = shared
                .join("chains")
                .join(if native { "dev" } else { name });
            let rows = if featbench {
                featbench_rows(&pack, &work.join("featbench.jsonl"))
            } else if name == "pro" {
                repo_root().join("fixtures/pro/requests-2931.jsonl")
            } else {
                join_upstream(&shared, &pack, &work.join(format!("{name}.jsonl")))
            };
            let loaded = load_instances(&rows, Default::default()).unwrap();
            assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
            let chain = work.join(format!("chain-{name}"));
            codethread_scaffold::build(
                &loaded.items,
                &mut SnapshotSource::new(pack.join("files")),
                &BuildOptions::default()
                    .out(chain.clone())
                    .harness(if native {
                        Vec::new()
                    } else {
                        vec![HarnessGeneration::V5]
                    }),
                &mut |_, _, _| {},
            )
            .unwrap();
            let dataset = work.join(format!("harbor-{name}"));
            let export = export_harbor(
                &chain,
                &dataset,
                &HarborExportOptions::default().pro_scripts(pro_scripts.clone()),
            )
            .unwrap();
            let sif_dataset = work.join(format!("harbor-{name}-sif"));
            let sif_export = export_harbor(
                &chain,
                &sif_dataset,
                &HarborExportOptions::default()
                    .docker_image_template(Some(SIF_TEMPLATE.into()))
                    .pro_scripts(pro_scripts.clone()),
            )
            .unwrap();
            let ids = built(&chain);
            let mut given = agent_pr1s(&ids, work.join(format!("agent-pr1-{name}.jsonl")));
            let fa_checked = given.check_applies(
                &Chain::open(&chain, Default::default()).unwrap(),
                &mut SnapshotSource::new(pack.join("files")),
            );
            let fa_dataset = work.join(format!("harbor-{name}-fa"));
            let fa_export = export_harbor(
                &chain,
                &fa_dataset,
                &HarborExportOptions::default()
                    .conditions(vec![HarborCondition::FollowOnAgent])
                    .agent_pr1(Some(given))
                    .pro_scripts(pro_scripts.clone()),
            )
            .unwrap();
            packs.push(Pack {
                chain,
                snapshots: pack.join("files"),
                insts: loaded.items,
                dataset,
                export,
                sif_dataset,
                sif_export,
                fa_dataset,
                fa_export,
                fa_checked,
            });
        }
        Some(Env {
            harbor_py,
            swebench_py,
            work,
            packs,
        })
    })
    .as_ref()
}

fn built(chain: &Path) -> Vec<String> {
    let c = Chain::open(chain, Default::default()).unwrap();
    c.instances
        .iter()
        .filter(|i| c.is_built(&i.instance_id))
        .map(|i| i.instance_id.clone())
        .collect()
}

#[test]
fn harbor_lint_and_task_loader_accept_every_exported_task() {
    let Some(env) = env() else { return };
    let harbor = env.harbor_py.with_file_name("harbor");
    let mut total = 0;
    let mut fa_total = 0;
    for p in &env.packs {
        let ids = built(&p.chain);
        if p.chain.ends_with("chain-pro") {
            // One instance, given no PR1: one named skip.
            assert_eq!(ids.len(), 1);
            assert!(p.fa_export.tasks.is_empty());
            assert_eq!(p.fa_export.skipped.len(), 1, "{:?}", p.fa_export.skipped);
        } else {
            assert!(ids.len() > 4);
            // follow_on_agent: four named skips, one task for every other instance.
            assert!(p.fa_export.errors.is_empty(), "{:?}", p.fa_export.errors);
            assert_eq!(p.fa_checked, ids.len() - 2);
            let why: BTreeMap<&str, &str> = p
                .fa_export
                .skipped
                .iter()
                .map(|k| {
                    assert_eq!(k.condition, HarborCondition::FollowOnAgent);
                    (k.instance_id.as_str(), k.reason.as_str())
                })
                .collect();
            assert_eq!(why.len(), 4, "{why:?}");
            assert!(
                why[ids[0].as_str()].contains("no PR1 prediction in"),
                "{why:?}"
            );
            assert!(why[ids[1].as_str()].contains("empty patch"), "{why:?}");
            assert!(why[ids[2].as_str()].contains("does not apply"), "{why:?}");
            assert!(
                why[ids[3].as_str()].contains("not kept by the gate"),
                "{why:?}"
            );
            assert_eq!(p.fa_export.tasks.len(), ids.len() - 4);
            for (id, c, rel) in &p.fa_export.tasks {
                assert_eq!(*c, HarborCondition::FollowOnAgent);
                assert!(!why.contains_key(id.as_str()));
                let env_dir = p.fa_dataset.join(rel).join("environment");
                assert_eq!(
                    std::fs::read(env_dir.join("agent_pr1.patch")).unwrap(),
                    AGENT_NOTE
                );
            }
        }
        fa_total += p.fa_export.tasks.len();
        for (dataset, export, per) in [
            (&p.dataset, &p.export, 3),
            (&p.sif_dataset, &p.sif_export, 3),
            (&p.fa_dataset, &p.fa_export, 0),
        ] {
            assert!(export.errors.is_empty(), "{:?}", export.errors);
            if per == 0 {
                // Checked above.
            } else {
                assert_eq!(export.tasks.len(), per * ids.len());
            }
            let dirs: Vec<PathBuf> = export.tasks.iter().map(|t| dataset.join(&t.2)).collect();
            if dirs.is_empty() {
                // The Pro pack's follow_on_agent export (its one instance skipped).
                continue;
            }
            // harbor lint, default rules (shared-verifier included): no finding.
            let out = Command::new(&harbor)
                .arg("lint")
                .arg("--json")
                .args(&dirs)
                .env("HARBOR_TELEMETRY", "0")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "harbor lint: {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let findings: Value = serde_json::from_str(stdout.trim()).unwrap();
            assert_eq!(findings, json!([]), "{stdout}");
            // harbor's Task loader and is_valid_dir on every task.
            let list = env.work.join(format!(
                "{}.tasks.json",
                dataset.display().to_string().replace('/', "_")
            ));
            std::fs::write(&list, serde_json::to_string(&dirs).unwrap()).unwrap();
            let r = harbor_script(env, "harbor_tasks.py", &[&list], "");
            assert_eq!(r["loaded"], json!(dirs.len()), "{r}");
            assert_eq!(r["valid"], json!(dirs.len()), "{r}");
            let multi = if per == 0 { 0 } else { ids.len() };
            assert_eq!(r["multi_step"], json!(multi), "{r}");
            total += dirs.len();
        }
    }
    eprintln!(
        "harbor lint + Task loader: {total}/{total} tasks (Dockerfile, prebuilt-image and follow_on_agent exports; {fa_total} follow_on_agent)"
    );
}

/// A log in the harness's format for pytest-style parsers.
fn pytest_log(lines: &[(&str, &str)]) -> String {
    let mut s = String::from("+ pytest -rA\n>>>>> Start Test Output\n");
    for (st, t) in lines {
        s.push_str(&format!("{st} {t}\n"));
    }
    s.push_str(">>>>> End Test Output\n");
    s
}

fn git(dir: &Path, args: &[&str]) -> String {
    codethread_testkit::git(dir, args)
}

fn tree(snapshots: &Path, id: &str, side: &str) -> MemTree {
    let mut t = MemTree::new();
    let root = snapshots.join(id).join(side);
    let mut stack = vec![root.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                t.insert(rel.into_bytes(), std::fs::read(&p).unwrap());
            }
        }
    }
    t
}

fn apply(t: &MemTree, patch: &[u8]) -> MemTree {
    let mut t = t.clone();
    if !patch.iter().all(u8::is_ascii_whitespace) {
        t.apply(
            &codethread_patch::parse_patch(patch).unwrap(),
            &ApplyOptions::default(),
        )
        .unwrap();
    }
    t
}

/// A git repository holding the instance's base files (the verifier's
/// `/testbed`: the instance image at base).
fn base_repo(snapshots: &Path, id: &str, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    for (p, f) in &tree(snapshots, id, "before").files {
        let path = dir.join(String::from_utf8_lossy(p).as_ref());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &f.content).unwrap();
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(
        dir,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "base",
        ],
    );
}

/// Run a step's `test.sh` outside a container: `tests` copied with its
/// `eval.sh` replaced by printing the recorded `log`, on a fresh base
/// checkout; returns the rewards.
fn run_verifier(
    env: &Env,
    snapshots: &Path,
    id: &str,
    tests: &Path,
    artifacts: &Path,
    log: &str,
    out: &Path,
) -> BTreeMap<String, f64> {
    let scratch = codethread_chain::lang::io::create_temp_dir_in(&env.work, "verify").unwrap();
    let t = scratch.join("tests");
    std::fs::create_dir_all(&t).unwrap();
    for e in std::fs::read_dir(tests).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, t.join(p.file_name().unwrap())).unwrap();
    }
    std::fs::write(scratch.join("recorded.log"), log).unwrap();
    std::fs::write(
        t.join("eval.sh"),
        format!("cat '{}'\n", scratch.join("recorded.log").display()),
    )
    .unwrap();
    let repo = scratch.join("testbed");
    base_repo(snapshots, id, &repo);
    let o = Command::new("bash")
        .arg(t.join("test.sh"))
        .env("CODETHREAD_GRADER_PYTHON", &env.swebench_py)
        .env("CODETHREAD_TESTS_DIR", &t)
        .env("CODETHREAD_REPO_DIR", &repo)
        .env("CODETHREAD_ARTIFACTS_DIR", artifacts)
        .env("CODETHREAD_VERIFIER_DIR", out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "test.sh: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let r: BTreeMap<String, f64> =
        serde_json::from_slice(&std::fs::read(out.join("reward.json")).unwrap()).unwrap();
    r
}

/// The first pytest-graded built instance of the Verified pack with
/// PASS_TO_PASS tests.
fn pytest_instance(env: &Env) -> (&Pack, Instance) {
    let p = &env.packs[0];
    let rows = std::fs::read_to_string(p.chain.join("exports/implementation_task.jsonl")).unwrap();
    for l in rows.lines() {
        let r: Value = serde_json::from_str(l).unwrap();
        if r["log_parser"] == json!("parse_log_pytest") {
            let id = r["instance_id"].as_str().unwrap();
            let inst = p.insts.iter().find(|i| i.instance_id == id).unwrap();
            if !inst.pass_to_pass.is_empty() {
                return (p, inst.clone());
            }
        }
    }
    panic!("no pytest instance with PASS_TO_PASS tests")
}

fn logs_for(inst: &Instance, f2p: &str, p2p: &str) -> String {
    pytest_log(
        &inst
            .fail_to_pass
            .iter()
            .map(|t| (f2p, t.as_str()))
            .chain(inst.pass_to_pass.iter().map(|t| (p2p, t.as_str())))
            .collect::<Vec<_>>(),
    )
}

#[test]
fn exported_verifier_grades_recorded_logs_as_swebench_does() {
    let Some(env) = env() else { return };
    let (p, inst) = pytest_instance(env);
    let id = &inst.instance_id;
    let task = p.dataset.join(format!("{id}.implementation"));
    let ha = p.dataset.join(format!("{id}.follow_on_human"));
    let human_pr1 = std::fs::read(task.join("solution/solution.patch")).unwrap();
    let gold = std::fs::read(ha.join("solution/solution.patch")).unwrap();
    let chain = Chain::open(&p.chain, Default::default()).unwrap();
    let (f2p, p2p) = (&inst.fail_to_pass, &inst.pass_to_pass);
    let n = |v: usize| v as f64;
    // (tests dir, diff or None for no diff, log, expected rewards)
    let cases: Vec<(&str, &Path, Option<&[u8]>, String, Vec<(&str, f64)>)> = vec![
        ("kept", &task, Some(&human_pr1), logs_for(&inst, "FAILED", "PASSED"), vec![("reward", 1.0), ("p2p_failed", 0.0), ("f2p_already_passing", 0.0)]),
        ("f2p already passing", &task, Some(&human_pr1), logs_for(&inst, "PASSED", "PASSED"), vec![("reward", 0.0), ("f2p_already_passing", n(f2p.len()))]),
        ("p2p failing", &task, Some(&human_pr1), logs_for(&inst, "FAILED", "FAILED"), vec![("reward", 0.0), ("p2p_failed", n(p2p.len()))]),
        ("no output", &task, Some(&human_pr1), "Traceback: collection error\n".into(), vec![("reward", 0.0), ("no_test_output", 1.0)]),
        ("patch fails", &task, Some(b"diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-x\n+y\n"), String::new(), vec![("reward", 0.0), ("patch_failed_to_apply", 1.0)]),
        ("empty diff", &task, Some(b""), String::new(), vec![("reward", 0.0), ("empty_patch", 1.0)]),
        ("no diff", &task, None, String::new(), vec![("reward", 0.0), ("no_diff", 1.0)]),
        ("resolved", &ha, Some(&gold), logs_for(&inst, "PASSED", "PASSED"), vec![("reward", 1.0), ("f2p_failed", 0.0)]),
        ("not resolved", &ha, Some(&gold), logs_for(&inst, "FAILED", "PASSED"), vec![("reward", 0.0), ("f2p_failed", n(f2p.len()))]),
    ];
    for (name, dir, diff, log, want) in cases {
        let scratch = codethread_chain::lang::io::create_temp_dir_in(&env.work, "case").unwrap();
        let art = scratch.join("artifacts");
        std::fs::create_dir_all(&art).unwrap();
        if let Some(d) = diff {
            std::fs::write(art.join("model.patch"), d).unwrap();
        }
        let out = scratch.join("verifier");
        let r = run_verifier(env, &p.snapshots, id, &dir.join("tests"), &art, &log, &out);
        for (k, v) in &want {
            assert_eq!(r.get(*k), Some(v), "{name}: {k} in {r:?}");
        }
        // The gate's loader reads what the verifier wrote, with the same decision.
        if dir == task {
            let rep = scratch.join("reports").join(id);
            std::fs::create_dir_all(&rep).unwrap();
            for f in ["report.json", "run_instance.log"] {
                if out.join(f).exists() {
                    std::fs::copy(out.join(f), rep.join(f)).unwrap();
                }
            }
            let (reports, errs) =
                load_reports_dir(&scratch.join("reports"), Default::default()).unwrap();
            assert!(errs.is_empty(), "{errs:?}");
            if diff.is_some_and(|d| !d.is_empty()) {
                let preds = BTreeMap::from([(
                    id.clone(),
                    codethread_bench::Prediction {
                        instance_id: id.clone(),
                        model_name_or_path: "m".into(),
                        model_patch: "diff --git a/x b/x\n".into(),
                    },
                )]);
                let d = gate_predictions(&chain, &preds, &reports, None);
                assert_eq!(d[0].kept, r["reward"] == 1.0, "{name}: {:?} vs {r:?}", d[0]);
            }
        }
    }
}

/// The collect command of `task.toml` number `nth`, with the container's
/// paths replaced by local ones.
fn collect_cmd(task: &Path, nth: usize, repo: &Path, art: &Path) -> String {
    let toml = std::fs::read_to_string(task.join("task.toml")).unwrap();
    let line = toml
        .lines()
        .filter(|l| l.starts_with("command = "))
        .nth(nth)
        .unwrap();
    let cmd: String = serde_json::from_str(line.trim_start_matches("command = ")).unwrap();
    cmd.replace("/logs/artifacts", &art.display().to_string())
        .replace("/testbed", &repo.display().to_string())
}

/// The oracle's exported `solve.sh` of a solution directory, run on `repo`
/// with the container's paths (`/testbed`, `/solution`) replaced by local
/// ones.
fn solve(solution: &Path, repo: &Path) {
    let script = std::fs::read_to_string(solution.join("solve.sh")).unwrap();
    assert!(script.contains("/testbed") && script.contains("/solution/solution.patch"));
    sh(&script
        .replace("/testbed", &repo.display().to_string())
        .replace("/solution/", &format!("{}/", solution.display())));
}

fn sh(cmd: &str) {
    let o = Command::new("sh").arg("-c").arg(cmd).output().unwrap();
    assert!(
        o.status.success(),
        "{cmd}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The agent's sandbox outside a container, as the exported Dockerfile
/// makes it: the base checkout, the environment's setup.sh with its sealed
/// patch, the setup ref, and (follow_on_agent) the given agent PR1
/// committed by agent_pr1.sh (its `/testbed` replaced).
fn agent_sandbox(snapshots: &Path, id: &str, task: &Path, dir: &Path) {
    base_repo(snapshots, id, dir);
    let env = task.join("environment");
    let dockerfile = std::fs::read_to_string(env.join("Dockerfile")).unwrap();
    sh(&format!(
        "cd '{}' && sh '{}' '{}' && git update-ref refs/codethread/setup HEAD",
        dir.display(),
        env.join("setup.sh").display(),
        env.join("setup.patch").display()
    ));
    if dockerfile.contains("agent_pr1.sh") {
        let script = std::fs::read_to_string(env.join("agent_pr1.sh"))
            .unwrap()
            .replace("/testbed", &dir.display().to_string());
        let local = env.join("agent_pr1.local.sh");
        std::fs::write(&local, script).unwrap();
        sh(&format!(
            "sh '{}' '{}'",
            local.display(),
            env.join("agent_pr1.patch").display()
        ));
        std::fs::remove_file(local).unwrap();
    }
}

#[test]
fn a_harbor_job_round_trips_into_gate_and_stack() {
    let Some(env) = env() else { return };
    let (p, inst) = pytest_instance(env);
    let id = inst.instance_id.clone();
    let w = codethread_chain::lang::io::create_temp_dir_in(&env.work, "job").unwrap();
    let job = w.join("job");
    std::fs::create_dir_all(&job).unwrap();
    let pass = logs_for(&inst, "FAILED", "PASSED");
    let resolved = logs_for(&inst, "PASSED", "PASSED");
    let implementation = p.dataset.join(format!("{id}.implementation"));
    let chain_task = p.dataset.join(format!("{id}.chain"));

    // Trial 1: the Implementation Task, the oracle's PR1.
    let repo = w.join("sandbox1");
    agent_sandbox(&p.snapshots, &id, &implementation, &repo);
    solve(&implementation.join("solution"), &repo);
    let t1 = job.join("impl__1");
    let art1 = t1.join("artifacts/logs/artifacts");
    std::fs::create_dir_all(&art1).unwrap();
    sh(&collect_cmd(&implementation, 0, &repo, &art1));
    let r1 = run_verifier(
        env,
        &p.snapshots,
        &id,
        &implementation.join("tests"),
        &art1,
        &pass,
        &t1.join("verifier"),
    );
    assert_eq!(r1["reward"], 1.0, "{r1:?}");

    // Trial 2: the two-step chain, the oracle in both steps.
    let repo = w.join("sandbox2");
    agent_sandbox(&p.snapshots, &id, &chain_task, &repo);
    solve(&chain_task.join("steps/implement/solution"), &repo);
    let t2 = job.join("chain__1");
    let s1 = t2.join("steps/implement");
    let a1 = s1.join("artifacts/logs/artifacts");
    std::fs::create_dir_all(&a1).unwrap();
    sh(&collect_cmd(&chain_task, 0, &repo, &a1));
    let rs1 = run_verifier(
        env,
        &p.snapshots,
        &id,
        &chain_task.join("steps/implement/tests"),
        &a1,
        &pass,
        &s1.join("verifier"),
    );
    assert_eq!(rs1["reward"], 1.0, "{rs1:?}");
    let setup2 = std::fs::read_to_string(chain_task.join("steps/follow_on/workdir/setup.sh"))
        .unwrap()
        .replace("/testbed", &repo.display().to_string());
    sh(&setup2);
    solve(&chain_task.join("steps/follow_on/solution"), &repo);
    let s2 = t2.join("steps/follow_on");
    let a2 = s2.join("artifacts/logs/artifacts");
    std::fs::create_dir_all(&a2).unwrap();
    sh(&collect_cmd(&chain_task, 1, &repo, &a2));
    let rs2 = run_verifier(
        env,
        &p.snapshots,
        &id,
        &chain_task.join("steps/follow_on/tests"),
        &a2,
        &resolved,
        &s2.join("verifier"),
    );
    assert_eq!(rs2["reward"], 1.0, "{rs2:?}");

    // Trial 3: the Follow-On on a given agent PR1 (follow_on_agent), the
    // oracle's PR2 on it: the agent's PR1 is the human one plus a note file
    // of its own, so the gold patch applies on it as on the human PR1.
    let chain_open = Chain::open(&p.chain, Default::default()).unwrap();
    let mut given_pr1 = chain_open.human_pr1(&id).unwrap();
    given_pr1.extend_from_slice(AGENT_NOTE);
    let fa_dataset = w.join("fa");
    let fa_export = export_harbor(
        &p.chain,
        &fa_dataset,
        &HarborExportOptions::default()
            .conditions(vec![HarborCondition::FollowOnAgent])
            .agent_pr1(Some(AgentPr1 {
                source: w.join("given-pr1.jsonl"),
                patches: BTreeMap::from([(id.clone(), given_pr1.clone())]),
                ..Default::default()
            })),
    )
    .unwrap();
    assert!(fa_export.errors.is_empty(), "{:?}", fa_export.errors);
    let fa_task = fa_dataset.join(format!("{id}.follow_on_agent"));
    let repo = w.join("sandbox3");
    agent_sandbox(&p.snapshots, &id, &fa_task, &repo);
    assert!(
        repo.join("CODETHREAD_AGENT_NOTE.md").is_file(),
        "the sandbox starts from the agent's PR1"
    );
    solve(&fa_task.join("solution"), &repo);
    let t3fa = job.join("fa__1");
    let a3 = t3fa.join("artifacts/logs/artifacts");
    std::fs::create_dir_all(&a3).unwrap();
    sh(&collect_cmd(&fa_task, 0, &repo, &a3));
    let r3 = run_verifier(
        env,
        &p.snapshots,
        &id,
        &fa_task.join("tests"),
        &a3,
        &resolved,
        &t3fa.join("verifier"),
    );
    assert_eq!(r3["reward"], 1.0, "{r3:?}");

    // Bad trials beside them: a malformed result.json, a trial directory
    // that is a link, a trial without a diff, a diff leaving the repository.
    let t3 = job.join("nodiff__1");
    std::fs::create_dir_all(t3.join("verifier")).unwrap();
    let t4 = job.join("escape__1");
    let a4 = t4.join("artifacts/logs/artifacts");
    std::fs::create_dir_all(&a4).unwrap();
    std::fs::write(a4.join("model.patch"), "diff --git a/../../etc/x b/../../etc/x\nnew file mode 100644\n--- /dev/null\n+++ b/../../etc/x\n@@ -0,0 +1 @@\n+x\n").unwrap();
    let spec = json!({"job_dir": job, "trials": [
        {"trial_name": "impl__1", "task_dir": implementation, "agent": "oracle", "model": null, "rewards": r1},
        {"trial_name": "chain__1", "task_dir": chain_task, "agent": "oracle", "model": null, "rewards": rs2,
         "steps": [{"step_name": "implement", "rewards": rs1}, {"step_name": "follow_on", "rewards": rs2}]},
        {"trial_name": "fa__1", "task_dir": fa_task, "agent": "oracle", "model": null, "rewards": r3},
        {"trial_name": "nodiff__1", "task_dir": p.dataset.join(format!("{id}.follow_on_human")), "agent": "oracle", "model": null, "rewards": null, "exception": "agent timed out"},
        {"trial_name": "escape__1", "task_dir": p.dataset.join(format!("{}.implementation", other_id(p, &id))), "agent": "oracle", "model": null, "rewards": {"reward": 0}},
        {"trial_name": "linkpatch__1", "task_dir": p.dataset.join(format!("{}.follow_on_human", other_id(p, &id))), "agent": "oracle", "model": null, "rewards": {"reward": 1}},
    ]});
    // A sandbox-planted link as the collected diff: never followed.
    let a6 = job.join("linkpatch__1/artifacts/logs/artifacts");
    std::fs::create_dir_all(&a6).unwrap();
    std::os::unix::fs::symlink(art1.join("model.patch"), a6.join("model.patch")).unwrap();
    std::fs::write(w.join("spec.json"), spec.to_string()).unwrap();
    harbor_script(env, "harbor_results.py", &[&w.join("spec.json")], "");
    std::fs::create_dir_all(job.join("broken__1")).unwrap();
    std::fs::write(job.join("broken__1/result.json"), "{\"task_name\": ").unwrap();
    std::os::unix::fs::symlink(&t1, job.join("linked__1")).unwrap();

    let out = w.join("imported");
    let imp = import_harbor_job(&job, &out, None, Default::default()).unwrap();
    let by = |trial: &str, step: &str| {
        imp.outcomes
            .iter()
            .find(|o| o.trial == trial && o.step.as_deref().unwrap_or(step) == step)
            .unwrap_or_else(|| panic!("no outcome {trial}/{step}: {:?}", imp.outcomes))
            .clone()
    };
    assert_eq!(by("impl__1", "implement").outcome, "graded");
    assert_eq!(by("chain__1", "implement").outcome, "graded");
    assert_eq!(by("chain__1", "follow_on").outcome, "graded");
    let nd = by("nodiff__1", "follow_on");
    assert_eq!(nd.outcome, "no_diff");
    let m = nd.message.unwrap();
    assert!(
        m.contains("model.patch") && m.contains("agent timed out"),
        "{m}"
    );
    let esc = by("escape__1", "implement");
    assert_eq!(esc.outcome, "error");
    assert!(esc.message.unwrap().contains("outside the repository"));
    let broken = by("broken__1", "");
    assert_eq!(broken.outcome, "error");
    assert!(broken.message.unwrap().contains("broken__1/result.json"));
    let linked = by("linked__1", "");
    assert!(linked.message.unwrap().contains("symbolic link"));
    let lp = by("linkpatch__1", "follow_on");
    assert_eq!(lp.outcome, "error");
    assert!(!lp.imported_diff);
    assert!(lp.message.unwrap().contains("symbolic link"));
    assert_eq!(by("fa__1", "follow_on").outcome, "graded");
    // impl 1 + chain 2 steps + follow_on_agent 1 + five bad trials.
    assert_eq!(imp.outcomes.len(), 9);
    // The linked diff went into no predictions file.
    let ha = out.join("follow_on_human/pr2.jsonl");
    assert!(
        !ha.exists()
            || !std::fs::read_to_string(&ha)
                .unwrap()
                .contains(&other_id(p, &id))
    );

    // The gate on the imported PR1 and reports, unchanged.
    let chain = Chain::open(&p.chain, Default::default()).unwrap();
    for cond in [HarborCondition::Implementation, HarborCondition::Chain] {
        let preds =
            load_predictions(&out.join(cond.name()).join("pr1.jsonl"), Default::default()).unwrap();
        assert!(preds.errors.is_empty());
        let pr1 = predictions_by_id(&preds.items);
        assert_eq!(pr1[&id].model_name_or_path, "oracle");
        let (reports, errs) = load_reports_dir(
            &out.join(cond.name()).join("reports/implement"),
            Default::default(),
        )
        .unwrap();
        assert!(errs.is_empty(), "{errs:?}");
        let d = gate_predictions(
            &chain,
            &pr1,
            &reports,
            Some(&mut SnapshotSource::new(&p.snapshots)),
        );
        let d = d.iter().find(|d| d.instance_id == id).unwrap();
        assert!(d.kept, "{d:?}");
        // The oracle's PR1 is the human PR1: PR0 + PR1 is base.
        assert_eq!(d.reasons, vec![GateReason::StackIsBase]);
    }
    // The stack of the chain's PR1 and PR2 applies at base and gives the gold tree.
    let load = |f: &str| {
        predictions_by_id(
            &load_predictions(&out.join("chain").join(f), Default::default())
                .unwrap()
                .items,
        )
    };
    let layers = [
        Layer::Predictions(load("pr1.jsonl")),
        Layer::Predictions(load("pr2.jsonl")),
    ];
    let (stacked, outcomes) = stack(
        &chain,
        &layers,
        &stack_model_name("oracle", &layers),
        &mut SnapshotSource::new(&p.snapshots),
        &mut |_, _, _| {},
    );
    let so = outcomes.iter().find(|o| o.instance_id == id).unwrap();
    assert_eq!(so.error, None);
    let s = stacked.iter().find(|s| s.instance_id == id).unwrap();
    let base = tree(&p.snapshots, &id, "before");
    assert_eq!(
        apply(&base, &s.model_patch),
        apply(&base, inst.patch.as_bytes())
    );
    // The follow_on_agent PR2 stacks on the given PR1: PR0 + PR1 + PR2 at
    // base is the gold tree plus the agent's note.
    let fa_pr2 = predictions_by_id(
        &load_predictions(&out.join("follow_on_agent/pr2.jsonl"), Default::default())
            .unwrap()
            .items,
    );
    assert!(fa_pr2.contains_key(&id));
    let given = predictions_by_id(&[codethread_bench::Prediction {
        instance_id: id.clone(),
        model_name_or_path: "agent".into(),
        model_patch: String::from_utf8(given_pr1).unwrap(),
    }]);
    let layers = [Layer::Predictions(given), Layer::Predictions(fa_pr2)];
    let (stacked, outcomes) = stack(
        &chain,
        &layers,
        &stack_model_name("oracle", &layers),
        &mut SnapshotSource::new(&p.snapshots),
        &mut |_, _, _| {},
    );
    let so = outcomes.iter().find(|o| o.instance_id == id).unwrap();
    assert_eq!(so.error, None);
    let s = stacked.iter().find(|s| s.instance_id == id).unwrap();
    assert_eq!(
        apply(&base, &s.model_patch),
        apply(&apply(&base, inst.patch.as_bytes()), AGENT_NOTE)
    );
}

/// Another built instance of the pack (the escaping diff's trial).
fn other_id(p: &Pack, id: &str) -> String {
    built(&p.chain).into_iter().find(|i| i != id).unwrap()
}

/// What a non-oracle agent can read of a task: every file except the
/// `solution/` and `tests/` trees (harbor 0.25.0 uploads `solution/` only
/// for its oracle agent and `tests/` only to the verifier, after the agent
/// phase; the multi-step tasks' verifiers run in a separate environment).
fn agent_visible(task: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![task.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let name = e.file_name();
            if e.file_type().unwrap().is_dir() {
                if name != "solution" && name != "tests" {
                    stack.push(p);
                }
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The lines of the statement's "As declared by the signature" blocks.
fn declared_signatures(statement: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut inside = false;
    for l in statement.lines() {
        if l.starts_with("As declared by the signature") {
            inside = true;
        } else if l.starts_with('#') {
            inside = false;
        } else if inside && !l.trim().is_empty() {
            out.insert(l.trim().to_string());
        }
    }
    out
}

/// The agent of a Harbor task never reads the code it is asked to restore
/// (issue 18's validity rule on the Harbor route): no code line the human
/// PR1 restores appears in a file the agent can read while implementing
/// (the Implementation Task, and the chain task but its second step), and
/// every patch the
/// agent's image is built from is a forward-only git binary literal (one
/// `literal` block per file, no text hunk, so no old line travels with it).
#[test]
fn no_task_shows_the_agent_the_code_it_restores() {
    let Some(env) = env() else { return };
    let (mut restored, mut files, mut patches, mut fa_tasks) = (0usize, 0usize, 0usize, 0usize);
    for p in &env.packs {
        for id in built(&p.chain) {
            let implementation = p.dataset.join(format!("{id}.implementation"));
            let pr1 = std::fs::read(implementation.join("solution/solution.patch")).unwrap();
            // Body lines the PR1 restores: added, not also removed or context
            // (a line the stub keeps), long enough to be specific.
            let text = String::from_utf8_lossy(&pr1);
            let kept: std::collections::BTreeSet<&str> = text
                .lines()
                .filter(|l| l.starts_with('-') || l.starts_with(' '))
                .map(|l| l[1..].trim())
                .collect();
            // Code, not documentation: the statement is written from the
            // signature and docstring, so docstring and comment lines may
            // appear in it by design.
            let mut in_doc = false;
            let mut lines: Vec<&str> = Vec::new();
            for l in text
                .lines()
                .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
            {
                let l = l[1..].trim();
                let quotes = l.matches("\"\"\"").count() + l.matches("'''").count();
                let doc = in_doc || quotes > 0;
                if quotes % 2 == 1 {
                    in_doc = !in_doc;
                }
                let comment = ["#", "//", "/*", "*", "--"]
                    .iter()
                    .any(|c| l.starts_with(c));
                // Specific: more than one token (a lone identifier can be a
                // parameter name the signature shows).
                let specific = l.chars().any(|c| !(c.is_alphanumeric() || c == '_'));
                if !doc && !comment && specific && l.len() >= 20 && !kept.contains(l) {
                    lines.push(l);
                }
            }
            // The statement declares every target's signature (nested
            // targets' headers are restored lines): those are given by design.
            let statement = std::fs::read_to_string(implementation.join("instruction.md")).unwrap();
            let declared = declared_signatures(&statement);
            lines.retain(|l| !declared.contains(*l));
            restored += lines.len();
            // The HA follow-on starts from the human PR1 by design, and the
            // chain's second step (the benchmark's own issue, which may quote
            // the code) is shown only once the first is done: what the agent
            // reads while it implements is the implementation task and the
            // chain's environment and first step.
            for cond in ["implementation", "chain"] {
                let task = p.dataset.join(format!("{id}.{cond}"));
                assert!(task.is_dir(), "{}", task.display());
                let step2 = task.join("steps/follow_on");
                for f in agent_visible(&task)
                    .into_iter()
                    .filter(|f| !f.starts_with(&step2))
                {
                    files += 1;
                    let bytes = std::fs::read(&f).unwrap();
                    let body = String::from_utf8_lossy(&bytes);
                    for l in &lines {
                        assert!(
                            !body.contains(l),
                            "{}: the agent can read a restored line: {l}",
                            f.display()
                        );
                    }
                    if f.extension().is_some_and(|e| e == "patch") {
                        patches += 1;
                        assert!(
                            !body.lines().any(|l| l.starts_with("@@")),
                            "{}: a text hunk",
                            f.display()
                        );
                        for section in body.split("GIT binary patch\n").skip(1) {
                            let blocks = section
                                .split("\ndiff --git ")
                                .next()
                                .unwrap()
                                .lines()
                                .filter(|l| l.starts_with("literal ") || l.starts_with("delta "))
                                .count();
                            assert_eq!(blocks, 1, "{}: not forward-only", f.display());
                        }
                    }
                }
            }
            // follow_on_agent: the agent's PR1 is visible by design, the
            // human original beyond it is not (the instruction is the
            // benchmark's own issue, which may quote the code).
            let fa = p.fa_dataset.join(format!("{id}.follow_on_agent"));
            if fa.is_dir() {
                fa_tasks += 1;
                let agent = std::fs::read(fa.join("environment/agent_pr1.patch")).unwrap();
                let agent = String::from_utf8_lossy(&agent).into_owned();
                for f in agent_visible(&fa) {
                    if f.file_name().is_some_and(|n| n == "instruction.md") {
                        continue;
                    }
                    files += 1;
                    let body = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
                    for l in lines.iter().filter(|l| !agent.contains(**l)) {
                        assert!(
                            !body.contains(l),
                            "{}: the agent can read a restored line: {l}",
                            f.display()
                        );
                    }
                    if f.file_name().is_some_and(|n| n == "setup.patch") {
                        patches += 1;
                        assert!(
                            !body.lines().any(|l| l.starts_with("@@")),
                            "{}: a text hunk",
                            f.display()
                        );
                    }
                }
            }
        }
    }
    assert!(fa_tasks > 0, "no follow_on_agent task checked");
    assert!(
        restored > 100 && patches > 0,
        "{restored} lines, {patches} patches"
    );
    eprintln!(
        "harbor: {restored} restored lines absent from {files} agent-visible files ({patches} setup patches forward-only; {fa_tasks} follow_on_agent tasks)"
    );
}

/// `dataset.toml` is the manifest harbor itself writes: harbor's
/// `DatasetManifest` serializes it back to the same bytes, every digest is
/// harbor's `Packager.compute_content_hash` of the task directory (what
/// `harbor dataset add` pins), `harbor init --dataset` on a copy of the
/// task directories writes the same manifest, `harbor sync` changes
/// nothing, and `harbor run --dry-run -p` loads the dataset. The crate's
/// own [`task_digest`] follows a changed task as harbor does (an added
/// test file changes the digest, an ignored `.pyc` does not).
#[test]
fn dataset_toml_pins_every_task_as_harbor_does() {
    let Some(env) = env() else { return };
    let mut total = 0;
    for p in &env.packs {
        for (dataset, export) in [(&p.dataset, &p.export), (&p.sif_dataset, &p.sif_export)] {
            assert_eq!(export.pinned.len(), export.tasks.len());
            let scratch = codethread_chain::lang::io::create_temp_dir_in(&env.work, "ds").unwrap();
            let r = harbor_script(
                env,
                "harbor_dataset.py",
                &[dataset, &scratch],
                &dataset.display().to_string(),
            );
            assert_eq!(r["tasks"], json!(export.tasks.len()), "{r}");
            let name = dataset.file_name().unwrap().to_string_lossy();
            assert_eq!(r["name"], json!(format!("codethread/{name}")));
            let changed = r["changed"].as_array().unwrap();
            let task = PathBuf::from(changed[0].as_str().unwrap());
            let ignored_pyc = changed[1].as_str().unwrap();
            let added_test = changed[2].as_str().unwrap();
            let original = &export
                .pinned
                .iter()
                .find(|(n, _)| {
                    *n == format!("codethread/{}", task.file_name().unwrap().to_string_lossy())
                })
                .unwrap()
                .1;
            assert_eq!(
                ignored_pyc, original,
                "an ignored .pyc changed harbor's digest"
            );
            assert_ne!(added_test, original);
            assert_eq!(task_digest(&task, Default::default()).unwrap(), added_test);
            std::fs::remove_file(task.join("tests/extra.txt")).unwrap();
            assert_eq!(task_digest(&task, Default::default()).unwrap(), ignored_pyc);
            total += export.pinned.len();
        }
    }
    eprintln!("dataset.toml: {total}/{total} task digests equal harbor's (init, sync, dry run)");
}

/// With `docker_image_template` every task names prebuilt images, as
/// harbor's singularity environment needs: harbor resolves the agent's
/// image and every step's verifier image (tests baked in, not uploaded) to
/// the names in `images.tsv`, and `SingularityEnvironment` accepts each
/// definition; the Dockerfile export is refused by the same check. One
/// image serves every task naming it (harbor's `environment_content_hash`
/// of the build contexts is one), and the tasks differ from the Dockerfile
/// export only in `task.toml`.
#[test]
fn singularity_tasks_name_prebuilt_images_harbor_accepts() {
    let Some(env) = env() else { return };
    let (mut ok_total, mut images_total) = (0, 0);
    for p in &env.packs {
        let listed = std::fs::read_to_string(p.sif_dataset.join(IMAGES_FILE)).unwrap();
        let listed: BTreeMap<String, String> = listed
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let (i, c) = l.split_once('\t').unwrap();
                (i.to_string(), c.to_string())
            })
            .collect();
        let ids = built(&p.chain);
        assert_eq!(listed.len(), 5 * ids.len(), "five images per instance");
        for (dataset, export, want_ok) in [
            (&p.sif_dataset, &p.sif_export, true),
            (&p.dataset, &p.export, false),
        ] {
            let mut tasks = Vec::new();
            for (id, cond, rel) in &export.tasks {
                let named: Vec<&HarborImage> = p
                    .sif_export
                    .images
                    .iter()
                    .filter(|i| i.instance_id == *id && i.context.starts_with(rel))
                    .collect();
                let img = |i: usize| {
                    if want_ok {
                        json!(named[i].image)
                    } else {
                        Value::Null
                    }
                };
                let verifiers: Vec<Value> = (1..named.len()).map(img).collect();
                assert_eq!(
                    verifiers.len(),
                    if *cond == HarborCondition::Chain {
                        2
                    } else {
                        1
                    }
                );
                tasks.push(
                    json!({"dir": dataset.join(rel), "agent": img(0), "verifiers": verifiers}),
                );
            }
            let contexts: Vec<Value> = p
                .sif_export
                .images
                .iter()
                .map(|i| json!([i.image, p.sif_dataset.join(&i.context)]))
                .collect();
            for i in &p.sif_export.images {
                assert!(
                    listed.contains_key(&i.image),
                    "{} not in {IMAGES_FILE}",
                    i.image
                );
            }
            let spec = env.work.join(format!(
                "{}.sif.json",
                dataset.display().to_string().replace('/', "_")
            ));
            std::fs::write(
                &spec,
                json!({"tasks": tasks, "images": contexts, "scratch": env.work.join("sif-scratch")})
                    .to_string(),
            )
            .unwrap();
            let r = harbor_script(env, "harbor_singularity.py", &[&spec], "");
            let n = export.tasks.len();
            if want_ok {
                assert_eq!(
                    (r["ok"].clone(), r["refused"].clone()),
                    (json!(n), json!(0)),
                    "{r}"
                );
                assert_eq!(r["images"], json!(listed.len()), "{r}");
                ok_total += n;
                images_total += listed.len();
            } else {
                // The Dockerfile tasks name no image: singularity refuses every one.
                assert_eq!(
                    (r["ok"].clone(), r["refused"].clone()),
                    (json!(0), json!(n)),
                    "{r}"
                );
            }
        }
        // Only task.toml differs between the two exports.
        for (_, _, rel) in &p.export.tasks {
            let a = codethread_chain::lang::io::read_tree_nofollow(&p.dataset.join(rel), u64::MAX)
                .unwrap();
            let b =
                codethread_chain::lang::io::read_tree_nofollow(&p.sif_dataset.join(rel), u64::MAX)
                    .unwrap();
            let strip = |t: Vec<codethread_chain::lang::io::WalkedFile>| {
                t.into_iter()
                    .filter(|f| f.rel != b"task.toml")
                    .collect::<Vec<_>>()
            };
            assert_eq!(strip(a), strip(b), "{}", rel.display());
        }
    }
    eprintln!("singularity: {ok_total} tasks name {images_total} prebuilt images harbor resolves and accepts");
}

/// FeatBench chains (FeatBench's own rows of the dev pack's instances) export as Harbor tasks
/// graded by FeatBench's rules: every instance the Verified rows build is built and exported
/// (three tasks each, no error), each verifier runs FeatBench's two pytest runs
/// (`codethread_bench::featbench::eval_script`) and grades with `GRADE_FEATBENCH_PY`, the
/// images start from FeatBench's image of the instance with the repository cloned at
/// `/workdir/swap/<name>`, and nothing of the gold or test patch is in a file the agent reads.
/// (`harbor lint`, the Task loader, the digests and the leak check run on these tasks with the
/// other packs'.)
#[test]
fn featbench_chains_export_tasks_graded_by_featbench_rules() {
    use codethread_bench::featbench::{native_image, MARKER};
    use codethread_scaffold::harbor::GRADE_FEATBENCH_PY;
    let Some(env) = env() else { return };
    let verified = &env.packs[0];
    let fb = env
        .packs
        .iter()
        .find(|p| p.chain.ends_with("chain-featbench"))
        .unwrap();
    let mut fb_ids = built(&fb.chain);
    fb_ids.sort();
    let mut want: Vec<String> = built(&verified.chain)
        .into_iter()
        .filter(|id| fb.insts.iter().any(|i| i.instance_id == *id))
        .collect();
    want.sort();
    assert!(want.len() >= 6, "{want:?}");
    assert_eq!(
        fb_ids, want,
        "FeatBench rows build what the Verified rows build"
    );
    assert!(fb.export.errors.is_empty(), "{:?}", fb.export.errors);
    assert_eq!(fb.export.tasks.len(), 3 * fb_ids.len());
    for inst in fb.insts.iter().filter(|i| fb_ids.contains(&i.instance_id)) {
        let id = &inst.instance_id;
        let image = native_image(inst).unwrap();
        assert!(image.starts_with("ghcr.io/kndy666/featbench_"), "{image}");
        let name = inst.repo.rsplit('/').next().unwrap();
        for (cond, tests) in [
            ("implementation", vec!["tests"]),
            ("follow_on_human", vec!["tests"]),
            (
                "chain",
                vec!["steps/implement/tests", "steps/follow_on/tests"],
            ),
        ] {
            let task = fb.dataset.join(format!("{id}.{cond}"));
            let env_docker = std::fs::read_to_string(task.join("environment/Dockerfile")).unwrap();
            assert!(
                env_docker.contains(&format!("FROM {image}\n")),
                "{env_docker}"
            );
            assert!(
                env_docker.contains(&format!(
                    "git clone -q 'https://github.com/{}.git' '/workdir/swap/{name}'",
                    inst.repo
                )),
                "{env_docker}"
            );
            for t in tests {
                let dir = task.join(t);
                assert_eq!(
                    std::fs::read_to_string(dir.join("grade.py")).unwrap(),
                    GRADE_FEATBENCH_PY
                );
                let eval = std::fs::read_to_string(dir.join("eval.sh")).unwrap();
                assert!(
                    eval.contains(&format!("cd '/workdir/swap/{name}'")),
                    "{eval}"
                );
                assert!(eval.contains(&format!("{MARKER} f2p start")), "{eval}");
                assert!(eval.contains(&inst.test_patch), "{id}: the test patch");
                let docker = std::fs::read_to_string(dir.join("Dockerfile")).unwrap();
                assert!(docker.contains(&format!("FROM {image}\n")), "{docker}");
                let row = std::fs::read_to_string(dir.join("instance.json")).unwrap();
                for hidden in ["patch_files", "test_patch_files"] {
                    assert!(
                        !row.contains(hidden),
                        "{id}: {hidden} in the verifier's row"
                    );
                }
            }
            for f in agent_visible(&task) {
                let body = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
                for hidden in ["patch_files", "test_patch_files"] {
                    assert!(!body.contains(hidden), "{}: {hidden}", f.display());
                }
                // The instructions are the statement and the benchmark's issue (which may quote
                // a test); every other file must not hold the test patch.
                if f.file_name().is_some_and(|n| n == "instruction.md") {
                    continue;
                }
                for l in inst
                    .test_patch
                    .lines()
                    .filter(|l| l.starts_with('+') && l.len() > 30)
                {
                    assert!(
                        !body.contains(&l[1..]),
                        "{}: a test patch line: {l}",
                        f.display()
                    );
                }
            }
        }
    }
    eprintln!(
        "FeatBench: {} instances, {} tasks graded by FeatBench's rules",
        fb_ids.len(),
        fb.export.tasks.len()
    );
}

/// SWE-bench Pro chains (`fixtures/pro`: a dev pack instance as a Pro row) export as Harbor
/// tasks graded by Pro's rules: three tasks, each verifier holding the instance's own
/// `run_script.sh` and `parser.py` byte for byte (from the given SWE-bench_Pro-os checkout),
/// Pro's entry script from the patch on (`tests/eval.sh`: `cd /app`, the last line of
/// `before_repo_set_cmd`, the run script on the selected files) and `GRADE_PRO_PY`; every image
/// starts from Pro's image of the instance with `/testbed` linked to `/app`. Without the
/// checkout, the instance is an error naming it and no task is written. (`harbor lint`, the
/// Task loader, the digests and the leak check run on these tasks with the other packs'.)
#[test]
fn pro_chains_export_tasks_graded_by_pros_own_scripts() {
    use codethread_scaffold::harbor::GRADE_PRO_PY;
    let Some(env) = env() else { return };
    let pro = env
        .packs
        .iter()
        .find(|p| p.chain.ends_with("chain-pro"))
        .unwrap();
    assert!(pro.export.errors.is_empty(), "{:?}", pro.export.errors);
    let ids = built(&pro.chain);
    assert_eq!(ids, ["psf__requests-2931"]);
    assert_eq!(pro.export.tasks.len(), 3);
    let inst = &pro.insts[0];
    let scripts = repo_root().join("fixtures/pro/SWE-bench_Pro-os/run_scripts/psf__requests-2931");
    let image = codethread_bench::pro::image(inst);
    assert_eq!(image, "jefzda/sweap-images:psf.requests-2931-local");
    for (cond, tests) in [
        ("implementation", vec!["tests"]),
        ("follow_on_human", vec!["tests"]),
        (
            "chain",
            vec!["steps/implement/tests", "steps/follow_on/tests"],
        ),
    ] {
        let task = pro.dataset.join(format!("psf__requests-2931.{cond}"));
        let env_docker = std::fs::read_to_string(task.join("environment/Dockerfile")).unwrap();
        assert!(
            env_docker.contains(&format!("FROM {image}\n"))
                && env_docker.contains("ln -s /app /testbed"),
            "{env_docker}"
        );
        for t in tests {
            let dir = task.join(t);
            assert_eq!(
                std::fs::read_to_string(dir.join("grade.py")).unwrap(),
                GRADE_PRO_PY
            );
            for f in ["run_script.sh", "parser.py"] {
                assert_eq!(
                    std::fs::read(dir.join(f)).unwrap(),
                    std::fs::read(scripts.join(f)).unwrap(),
                    "{cond}: {f}"
                );
            }
            let eval = std::fs::read_to_string(dir.join("eval.sh")).unwrap();
            let lines: Vec<&str> = eval.lines().collect();
            assert!(lines.contains(&"cd /app"), "{eval}");
            assert!(
                lines.contains(&"git checkout codethread-pro-fix -- test_requests.py"),
                "{eval}"
            );
            assert!(
                eval.contains("run_script.sh\" test_requests.py > "),
                "{eval}"
            );
            let docker = std::fs::read_to_string(dir.join("Dockerfile")).unwrap();
            assert!(docker.contains(&format!("FROM {image}\n")), "{docker}");
        }
    }
    // The rows Pro's evaluator reads: its columns, its Python-literal lists.
    let raw = std::fs::read_to_string(pro.chain.join("exports/pro_raw_sample.jsonl")).unwrap();
    let rows: Vec<Value> = raw
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0]["fail_to_pass"],
        json!("[\"test_requests.py::TestRequests::test_binary_put\"]")
    );
    assert_eq!(
        rows[0]["selected_test_files_to_run"],
        json!("[\"test_requests.py\"]")
    );
    assert!(rows[0]["before_repo_set_cmd"]
        .as_str()
        .unwrap()
        .ends_with("git checkout codethread-pro-fix -- test_requests.py"));
    // Without Pro's scripts: one error naming the instance, no task.
    let out = env.work.join("harbor-pro-no-scripts");
    let e = export_harbor(&pro.chain, &out, &HarborExportOptions::default()).unwrap();
    assert!(e.tasks.is_empty());
    assert_eq!(e.errors.len(), 1, "{:?}", e.errors);
    let msg = e.errors[0].to_string();
    assert!(
        msg.contains("psf__requests-2931") && msg.contains("--pro-scripts"),
        "{msg}"
    );
}
