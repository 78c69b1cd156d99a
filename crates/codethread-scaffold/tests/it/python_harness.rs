//! The hand-off proven with the real Python packages (issue 10): swebench
//! 5.0.2's `make_test_spec`, predictions loader and grading code, the
//! Hugging Face loader mini-swe-agent uses, and one end-to-end run of the
//! real `mini-extra swebench` (local environment, its deterministic test
//! model, no network, no docker) on chains built from the real dev
//! instances joined with their upstream rows (every column).
//!
//! The Python is `CODETHREAD_PYTHON` (`.ci/run` installs the pinned packages
//! into `.venv-ci` and sets it) or `python3`. Without `CODETHREAD_SHARED`
//! these suites print SKIPPED and pass; with it set they FAIL when that
//! Python cannot import swebench 5.0.2 and mini-swe-agent 2.4.6.
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

use codethread_bench::load_reports;
use codethread_bench::HarnessGeneration;
use codethread_bench::{load_instances, Instance};
use codethread_bench::{load_predictions, predictions_by_id, Prediction};
use codethread_chain::SnapshotSource;
use codethread_chain::{
    follow_on_rows, gate_predictions, stack, stack_model_name, BuildOptions, BuildStatus, Chain,
    Layer,
};
use codethread_chain::{GateDecision, GateReason};
use codethread_patch::{diff_trees, ApplyOptions, DiffOptions, MemTree};
use codethread_scaffold::mini_swe_agent::write_mini_swe_agent_subset;
use serde_json::{json, Value};

const SWEBENCH: &str = "5.0.2";
const MINI: &str = "2.4.6";

fn py_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/py")
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Everything the suites share: the Python, a work directory, and the
/// chains built once per test binary.
struct Env {
    python: PathBuf,
    work: PathBuf,
    /// (chain directory, snapshot directory, instances) per pack.
    packs: Vec<(PathBuf, PathBuf, Vec<Instance>)>,
}

fn skip(why: &str) {
    let test = std::thread::current().name().unwrap_or("?").to_string();
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// The Python with the pinned packages, or None (SKIPPED) when neither
/// `CODETHREAD_SHARED` is set nor the packages are there.
fn find_python() -> Option<PathBuf> {
    codethread_testkit::python::require(
        codethread_testkit::python::from_env("CODETHREAD_PYTHON", "python3"),
        &[
            ("swebench", "swebench", SWEBENCH),
            ("minisweagent", "mini-swe-agent", MINI),
        ],
        ".ci/run installs them into .venv-ci and sets CODETHREAD_PYTHON",
    )
}

/// The dev rows with every upstream column: the dev packs carry the
/// classic fields only; the upstream rows (same instance ids) carry the
/// rest. Joined by instance_id; a dev row's own fields win.
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
        let up = upstream
            .get(&id)
            .unwrap_or_else(|| panic!("{id}: no upstream row"));
        for (k, v) in up {
            row.entry(k.clone()).or_insert_with(|| v.clone());
        }
        text.push_str(&Value::Object(row).to_string());
        text.push('\n');
    }
    std::fs::write(out, text).unwrap();
    out.to_path_buf()
}

fn env() -> Option<&'static Env> {
    static ENV: OnceLock<Option<Env>> = OnceLock::new();
    let python = find_python()?;
    let shared = codethread_testkit::shared()?;
    ENV.get_or_init(|| {
        // Work directories of earlier runs whose process is gone.
        for e in std::fs::read_dir(std::env::temp_dir())
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(pid) = name.strip_prefix("ct-pyharness-") {
                if !Path::new("/proc").join(pid).exists() {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let work = std::env::temp_dir().join(format!("ct-pyharness-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let mut packs = Vec::new();
        // Both harness generations must grade every row (4.x needs no
        // environment_setup_commit, which Multilingual rows lack).
        for name in ["dev", "dev_multilingual"] {
            let harness = vec![HarnessGeneration::V5, HarnessGeneration::V4];
            let pack = shared.join("chains").join(name);
            let joined = join_upstream(&shared, &pack, &work.join(format!("{name}.jsonl")));
            let loaded = load_instances(&joined, Default::default()).unwrap();
            assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
            let out = work.join(format!("chain-{name}"));
            let s = codethread_scaffold::build(
                &loaded.items,
                &mut SnapshotSource::new(pack.join("files")),
                &BuildOptions::default().out(out.clone()).harness(harness),
                &mut |_, _, _| {},
            )
            .unwrap();
            // The only instances without a chain are those whose every target
            // lies in tree-sitter error recovery (jq-2658 `main` inside an
            // ERROR node, fmt-2310): the stubber refuses such functions.
            let failed: Vec<_> = s
                .outcomes
                .iter()
                .filter(|o| match &o.status {
                    BuildStatus::Failed { error } => {
                        !(error.contains("no target could be stubbed")
                            && error.matches("ParseError").count()
                                == error.matches("touches an ERROR/MISSING node").count())
                    }
                    _ => false,
                })
                .collect();
            assert!(failed.is_empty(), "{failed:?}");
            packs.push((out, pack.join("files"), loaded.items));
        }
        Some(Env {
            python,
            work,
            packs,
        })
    })
    .as_ref()
}

fn run_py(env: &Env, script: &str, args: &[&Path]) -> (Value, String) {
    let out = Command::new(&env.python)
        .arg(py_dir().join(script))
        .args(args)
        .envs(offline_env(&env.work))
        .output()
        .expect("python runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{script}: {stderr}\n{}",
        stdout.chars().take(4000).collect::<String>()
    );
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with(['{', '[']))
        .unwrap_or("null");
    (serde_json::from_str(last).unwrap(), stderr)
}

/// No network: Hugging Face offline, litellm's bundled cost map, a private
/// mini-swe-agent config directory.
fn offline_env(work: &Path) -> Vec<(&'static str, String)> {
    vec![
        ("HF_DATASETS_OFFLINE", "1".into()),
        ("HF_HUB_OFFLINE", "1".into()),
        ("HF_HOME", work.join("hf").display().to_string()),
        ("LITELLM_LOCAL_MODEL_COST_MAP", "True".into()),
        ("MSWEA_SILENT_STARTUP", "1".into()),
        (
            "MSWEA_GLOBAL_CONFIG_DIR",
            work.join("mswea").display().to_string(),
        ),
    ]
}

fn built_ids(chain: &Path) -> Vec<String> {
    let c = Chain::open(chain, Default::default()).unwrap();
    c.instances
        .iter()
        .filter(|i| c.is_built(&i.instance_id))
        .map(|i| i.instance_id.clone())
        .collect()
}

#[test]
fn swebench_make_test_spec_accepts_every_exported_row() {
    let Some(env) = env() else { return };
    let mut total = 0;
    for (chain, _, insts) in &env.packs {
        let built = built_ids(chain).len();
        let (counts, _) = run_py(env, "check_exports.py", &[chain]);
        // Both exports (Implementation Task, Follow-On on the human PR1), 100%.
        assert_eq!(counts["rows"], json!(2 * built), "{counts}");
        assert_eq!(counts["specs"], counts["rows"], "{counts}");
        assert_eq!(counts["mini_rows"], counts["rows"], "{counts}");
        assert!(insts.len() >= built);
        total += built;
        // 4.x: every row, Verified and Multilingual, has what it needs (a
        // version; environment_setup_commit is optional there).
        for row in std::fs::read_to_string(chain.join("exports/implementation_task.jsonl"))
            .unwrap()
            .lines()
        {
            let Value::Object(row) = serde_json::from_str::<Value>(row).unwrap() else {
                panic!("row")
            };
            codethread_bench::check_harness_row(&row, HarnessGeneration::V4).unwrap();
        }
    }
    assert!(total >= 30, "{total} built instances");
}

/// base files of an instance from its snapshot.
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

fn diff(a: &MemTree, b: &MemTree) -> String {
    String::from_utf8(
        diff_trees(a, b, &DiffOptions::default())
            .unwrap()
            .to_bytes(),
    )
    .unwrap()
}

/// An agent's PR1 (relative to PR0) that implements the targets as the
/// original does and appends a comment to the first file (so PR0 + PR1 is
/// not empty), its PR2 on that PR1 (relative to PR0 + PR1) and its PR2 on
/// the human PR1 (relative to base), both writing the gold files.
fn scripted_agent(chain: &Chain, snapshots: &Path, id: &str) -> (String, String, String) {
    let base = tree(snapshots, id, "before");
    let stubbed = apply(&base, &chain.pr0(id).unwrap());
    let mut agent = base.clone();
    let first = base.files.keys().next().unwrap().clone();
    let mut text = base.get(&first).unwrap().to_vec();
    text.extend_from_slice(b"\n// codethread scripted agent\n");
    agent.insert(first, text);
    let after = tree(snapshots, id, "after");
    let mut gold = base.clone();
    for (p, f) in &after.files {
        gold.insert(p.clone(), f.content.clone());
    }
    for p in base.files.keys() {
        if after.get(p).is_none() {
            gold.files.remove(p);
        }
    }
    (
        diff(&stubbed, &agent),
        diff(&agent, &gold),
        diff(&base, &gold),
    )
}

fn preds(model: &str, m: &BTreeMap<String, String>) -> BTreeMap<String, Prediction> {
    m.iter()
        .map(|(id, p)| {
            (
                id.clone(),
                Prediction {
                    instance_id: id.clone(),
                    model_name_or_path: model.into(),
                    model_patch: p.clone(),
                },
            )
        })
        .collect()
}

#[test]
fn swebench_loads_every_stacked_predictions_file_and_git_applies_it() {
    let Some(env) = env() else { return };
    let (chain_dir, snapshots, _) = &env.packs[0];
    let chain = Chain::open(chain_dir, Default::default()).unwrap();
    let ids = built_ids(chain_dir);
    let mut pr1 = BTreeMap::new();
    let mut pr2 = BTreeMap::new();
    let mut pr2_ha = BTreeMap::new();
    for id in &ids {
        let (a, b, c) = scripted_agent(&chain, snapshots, id);
        pr1.insert(id.clone(), a);
        pr2.insert(id.clone(), b);
        pr2_ha.insert(id.clone(), c);
    }
    let stacks: Vec<Vec<Layer>> = vec![
        vec![Layer::HumanPr1],
        vec![Layer::HumanPr1, Layer::Gold],
        vec![Layer::Predictions(preds("agent", &pr1))],
        vec![Layer::HumanPr1, Layer::Predictions(preds("agent", &pr2_ha))],
        vec![
            Layer::Predictions(preds("agent", &pr1)),
            Layer::Predictions(preds("agent", &pr2)),
        ],
    ];
    let mut files: Vec<PathBuf> = vec![chain_dir.join("exports/predictions_HH.jsonl")];
    let mut want_nonempty = ids.len();
    for (k, layers) in stacks.iter().enumerate() {
        let name = stack_model_name("agent", layers);
        let (p, outcomes) = stack(
            &chain,
            layers,
            &name,
            &mut SnapshotSource::new(snapshots),
            &mut |_, _, _| {},
        );
        assert!(
            outcomes.iter().all(|o| o.error.is_none()),
            "{k}: {outcomes:?}"
        );
        assert_eq!(p.len(), ids.len());
        want_nonempty += p
            .iter()
            .filter(|x| !x.model_patch.trim_ascii().is_empty())
            .count();
        let f = env.work.join(format!("stack-{k}-{name}.jsonl"));
        std::fs::write(&f, codethread_bench::predictions_to_jsonl(&p)).unwrap();
        files.push(f);
    }
    let dataset = chain_dir.join("exports/implementation_task.jsonl");
    let mut args: Vec<&Path> = vec![&dataset, snapshots];
    args.extend(files.iter().map(PathBuf::as_path));
    let (counts, _) = run_py(env, "check_predictions.py", &args);
    assert_eq!(counts["files"], json!(files.len()));
    assert_eq!(counts["predictions"], json!(files.len() * ids.len()));
    assert_eq!(counts["applied"], json!(want_nonempty), "{counts}");
}

/// A pytest-style harness test log: `status name` lines between the markers.
fn pytest_log(lines: &[(&str, &str)]) -> String {
    let mut s = String::from("+ pytest -rA\n>>>>> Start Test Output\n");
    for (st, t) in lines {
        s.push_str(&format!("{st} {t}\n"));
    }
    s.push_str(">>>>> End Test Output\n");
    s
}

#[test]
fn swebench_grading_feeds_the_gate() {
    let Some(env) = env() else { return };
    let (chain_dir, _, insts) = &env.packs[0];
    let chain = Chain::open(chain_dir, Default::default()).unwrap();
    let export = chain_dir.join("exports/implementation_task.jsonl");
    let rows: Vec<Value> = std::fs::read_to_string(&export)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let row = rows
        .iter()
        .find(|r| r["log_parser"] == json!("parse_log_pytest"))
        .expect("a pytest instance");
    let id = row["instance_id"].as_str().unwrap().to_string();
    let inst = insts.iter().find(|i| i.instance_id == id).unwrap();
    let (f2p, p2p) = (&inst.fail_to_pass, &inst.pass_to_pass);
    assert!(!p2p.is_empty());
    let all = |f: &str, p: &str| -> Vec<(String, String)> {
        f2p.iter()
            .map(|t| (f.to_string(), t.clone()))
            .chain(p2p.iter().map(|t| (p.to_string(), t.clone())))
            .collect()
    };
    let log = |v: Vec<(String, String)>| {
        let refs: Vec<(&str, &str)> = v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        pytest_log(&refs)
    };
    let with = |i: usize, st: &str, base: Vec<(String, String)>| {
        let mut v = base;
        v[i].0 = st.to_string();
        v
    };
    let n = f2p.len();
    // (model, stacked patch, test output, apply failed, expected decision)
    let some_patch = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
    let cases: Vec<(&str, &str, Option<String>, bool, (bool, GateReason))> = vec![
        (
            "kept",
            some_patch,
            Some(log(all("FAILED", "PASSED"))),
            false,
            (true, GateReason::NoReport),
        ),
        (
            "f2p",
            some_patch,
            Some(log(with(0, "PASSED", all("FAILED", "PASSED")))),
            false,
            (false, GateReason::F2pAlreadyPassing(vec![f2p[0].clone()])),
        ),
        (
            "p2p",
            some_patch,
            Some(log(with(n, "FAILED", all("FAILED", "PASSED")))),
            false,
            (false, GateReason::P2pFailed(vec![p2p[0].clone()])),
        ),
        (
            "skipped",
            some_patch,
            Some(log(with(n, "SKIPPED", all("FAILED", "PASSED")))),
            false,
            (true, GateReason::NoReport),
        ),
        (
            "infra",
            some_patch,
            Some(
                "docker: Cannot connect to the Docker daemon at unix:///var/run/docker.sock.\n"
                    .into(),
            ),
            false,
            (
                false,
                GateReason::InfraFailure("container_unavailable".into()),
            ),
        ),
        (
            "nooutput",
            some_patch,
            Some(">>>>> Start Test Output\n>>>>> End Test Output\n".into()),
            false,
            (false, GateReason::NoTestOutput),
        ),
        (
            "apply",
            some_patch,
            None,
            true,
            (false, GateReason::PatchFailedToApply),
        ),
        ("empty", "", None, false, (true, GateReason::StackIsBase)),
    ];
    let spec = json!({
        "dataset": export,
        "run_id": "gate",
        "cases": cases.iter().map(|(m, p, out, failed, _)| json!({
            "model": format!("agent-{m}__PR1"), "instance_id": id, "model_patch": p,
            "test_output": out, "apply_failed": failed,
        })).collect::<Vec<_>>(),
    });
    let work = env.work.join("grade");
    std::fs::create_dir_all(&work).unwrap();
    let spec_path = work.join("spec.json");
    std::fs::write(&spec_path, spec.to_string()).unwrap();
    let (run_reports, _) = run_py(env, "grade.py", &[&spec_path, &work]);
    let run_reports: Vec<PathBuf> = run_reports
        .as_array()
        .unwrap()
        .iter()
        .map(|p| PathBuf::from(p.as_str().unwrap()))
        .collect();
    assert_eq!(run_reports.len(), cases.len());
    // The PR1 that was stacked (any non-base PR1: the gate reads reports).
    let pr1 = preds(
        "agent",
        &BTreeMap::from([(
            id.clone(),
            String::from_utf8(chain.pr0(&id).unwrap()).unwrap(),
        )]),
    );
    for (m, _, _, _, (kept, reason)) in &cases {
        let model = format!("agent-{m}__PR1");
        let run = run_reports
            .iter()
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("{model}."))
            })
            .unwrap();
        // The harness wrote nothing below logs/ for a skipped empty patch.
        let logs = work.join("logs/run_evaluation/gate").join(&model);
        let mut paths = vec![run.clone()];
        if logs.is_dir() {
            paths.push(logs);
        }
        let (reports, errs) = load_reports(&paths, Default::default());
        assert!(errs.is_empty(), "{m}: {errs:?}");
        let d: Vec<GateDecision> = gate_predictions(&chain, &pr1, &reports, None);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].kept, *kept, "{m}: {:?}", d[0]);
        if *kept && *reason == GateReason::NoReport {
            assert!(d[0].reasons.is_empty(), "{m}: {:?}", d[0]);
        } else {
            assert_eq!(d[0].reasons, vec![reason.clone()], "{m}");
        }
    }
}

fn git(dir: &Path, args: &[&str]) -> String {
    codethread_testkit::git(dir, args)
}

/// A git repository holding the instance's base files (its `/testbed`).
fn base_repo(snapshots: &Path, id: &str, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let t = tree(snapshots, id, "before");
    for (p, f) in &t.files {
        let path = dir.join(String::from_utf8_lossy(p).as_ref());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &f.content).unwrap();
    }
    git(dir, &["init", "-q"]);
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "-m", "base"]);
}

/// A deterministic-model config: run `commands`, then submit `patch.txt`.
fn model_yaml(path: &Path, name: &str, commands: &[String], patch: &Path) {
    let mut outputs: Vec<Value> = commands
        .iter()
        .map(|c| json!({"role": "assistant", "content": "step", "extra": {"actions": [{"command": c}]}}))
        .collect();
    outputs.push(json!({"role": "assistant", "content": "submit", "extra": {"actions": [
        {"command": format!("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat '{}'", patch.display())}
    ]}}));
    // JSON is YAML.
    let cfg =
        json!({"model": {"model_class": "deterministic", "model_name": name, "outputs": outputs}});
    std::fs::write(path, cfg.to_string()).unwrap();
}

fn mini(env: &Env, subset: &Path, id: &str, out: &Path, model: &Path, cwd: &Path) {
    let bin = env.python.parent().map(|d| d.join("mini-extra"));
    let mut cmd = match bin.filter(|b| b.is_file()) {
        Some(b) => Command::new(b),
        None => {
            let mut c = Command::new(&env.python);
            c.args(["-m", "minisweagent.run.utilities.mini_extra"]);
            c
        }
    };
    let o = cmd
        .args(["swebench", "--subset"])
        .arg(subset)
        .args([
            "--split",
            codethread_scaffold::mini_swe_agent::MINI_SWE_AGENT_SPLIT,
        ])
        .args(["--filter", &format!("^{id}$"), "-o"])
        .arg(out)
        .args(["-c", "swebench.yaml", "-c"])
        .arg(repo_root().join("integrations/mini-swe-agent/codethread.yaml"))
        .arg("-c")
        .arg(model)
        .args(["--environment-class", "local", "-c"])
        .arg(format!("environment.cwd={}", cwd.display()))
        .envs(offline_env(&env.work))
        .output()
        .unwrap();
    assert!(
        o.status.success() && out.join("preds.json").is_file(),
        "mini-extra: {}\n{}",
        String::from_utf8_lossy(&o.stderr),
        String::from_utf8_lossy(&o.stdout)
    );
}

fn sh_quote(p: &Path) -> String {
    format!("'{}'", p.display())
}

#[test]
fn mini_swe_agent_runs_pr1_gate_follow_on_and_stack() {
    let Some(env) = env() else { return };
    let (chain_dir, snapshots, _) = &env.packs[0];
    let chain = Chain::open(chain_dir, Default::default()).unwrap();
    let id = built_ids(chain_dir)
        .into_iter()
        .find(|i| i.starts_with("psf__requests"))
        .unwrap();
    let w = env.work.join("mini");
    std::fs::create_dir_all(&w).unwrap();
    let after = tree(snapshots, &id, "after");

    // 1. PR1: the Implementation Task from the export, PR0 applied and committed
    //    by the integration's startup command; the agent restores the targets
    //    and appends a comment, then submits `git diff`.
    let testbed = w.join("testbed1");
    base_repo(snapshots, &id, &testbed);
    let first =
        String::from_utf8_lossy(tree(snapshots, &id, "before").files.keys().next().unwrap())
            .into_owned();
    let patch1 = w.join("pr1.txt");
    // Its first command keeps everything it can read before it acts: the
    // work tree and .git as a tar (contents stored as they are) and every git
    // object decompressed.
    let cap = w.join("capture");
    std::fs::create_dir_all(&cap).unwrap();
    model_yaml(
        &w.join("pr1.yaml"),
        "scripted",
        &[
            format!(
                "tar cf {} . && git cat-file --batch-all-objects --batch > {} && git log --all --format=%H%n%B > {}",
                sh_quote(&cap.join("tree.tar")),
                sh_quote(&cap.join("objects")),
                sh_quote(&cap.join("log")),
            ),
            format!(
                "cp -r {}/. . && printf '\\n# codethread scripted agent\\n' >> {first} && git diff > {}",
                sh_quote(&snapshots.join(&id).join("before")),
                sh_quote(&patch1)
            ),
        ],
        &patch1,
    );
    mini(
        env,
        &chain_dir.join("exports/mini-swe-agent/implementation/subset"),
        &id,
        &w.join("out1"),
        &w.join("pr1.yaml"),
        &testbed,
    );
    assert!(git(&testbed, &["log", "--format=%s"]).starts_with("codethread setup\n"));
    // What the agent could read at its first step holds no original line.
    let secret = original_lines(&tree(snapshots, &id, "before"), &chain.pr0(&id).unwrap());
    assert!(!secret.is_empty());
    for f in ["tree.tar", "objects", "log"] {
        let bytes = std::fs::read(cap.join(f)).unwrap();
        assert!(bytes.len() > 100 || f == "log", "{f}");
        for l in &secret {
            assert!(
                !contains(&bytes, l),
                "{f} holds {:?}",
                String::from_utf8_lossy(l)
            );
        }
    }
    let pr1 = load_predictions(&w.join("out1/preds.json"), Default::default()).unwrap();
    assert!(pr1.errors.is_empty());
    let pr1 = predictions_by_id(&pr1.items);
    // Relative to PR0: it removes the stubs.
    assert!(
        pr1[&id]
            .model_patch
            .contains("-        raise NotImplementedError"),
        "{}",
        pr1[&id].model_patch
    );

    // 2. The PR1-gate stack and the gate, on swebench's grading of a passing log.
    let layers1 = [Layer::Predictions(pr1.clone())];
    let name1 = stack_model_name("scripted", &layers1);
    let (stacked1, o) = stack(
        &chain,
        &layers1,
        &name1,
        &mut SnapshotSource::new(snapshots),
        &mut |_, _, _| {},
    );
    let mine = |o: &[codethread_chain::StackOutcome]| {
        o.iter().find(|o| o.instance_id == id).cloned().unwrap()
    };
    assert_eq!(mine(&o).error, None);
    let s1 = stacked1.iter().find(|p| p.instance_id == id).unwrap();
    assert!(!s1.model_patch.trim_ascii().is_empty());
    let inst = chain
        .instances
        .iter()
        .find(|i| i.instance_id == id)
        .unwrap();
    // A requests-style log: `PASSED name` / `FAILED name`.
    let log = pytest_log(
        &inst
            .fail_to_pass
            .iter()
            .map(|t| ("FAILED", t.as_str()))
            .chain(inst.pass_to_pass.iter().map(|t| ("PASSED", t.as_str())))
            .collect::<Vec<_>>(),
    );
    let grade = w.join("grade");
    std::fs::create_dir_all(&grade).unwrap();
    let spec = json!({"dataset": chain_dir.join("exports/implementation_task.jsonl"), "run_id": "pr1",
        "cases": [{"model": name1, "instance_id": id, "model_patch": String::from_utf8(s1.model_patch.clone()).unwrap(), "test_output": log}]});
    std::fs::write(grade.join("spec.json"), spec.to_string()).unwrap();
    let (runs, _) = run_py(env, "grade.py", &[&grade.join("spec.json"), &grade]);
    let (reports, errs) = load_reports(
        &[
            grade.join("logs/run_evaluation/pr1"),
            PathBuf::from(runs[0].as_str().unwrap()),
        ],
        Default::default(),
    );
    assert!(errs.is_empty(), "{errs:?}");
    let only = BTreeMap::from([(id.clone(), pr1[&id].clone())]);
    let d = gate_predictions(
        &chain,
        &only,
        &reports,
        Some(&mut SnapshotSource::new(snapshots)),
    );
    assert!(d[0].kept, "{:?}", d[0]);

    // 3. The Follow-On on top of PR1: PR0 + PR1 applied from its file by the
    //    same startup command; the agent writes the gold files.
    let (rows, o) = follow_on_rows(
        &chain,
        &layers1[0],
        &name1,
        &mut SnapshotSource::new(snapshots),
    );
    assert_eq!(mine(&o).error, None);
    let rows: Vec<_> = rows
        .into_iter()
        .filter(|r| r.row["instance_id"] == json!(id))
        .map(|r| (r.row, r.sealed_setup))
        .collect();
    let fo = write_mini_swe_agent_subset(&w.join("follow_on_AA"), &rows).unwrap();
    let testbed2 = w.join("testbed2");
    base_repo(snapshots, &id, &testbed2);
    let patch2 = w.join("pr2.txt");
    model_yaml(
        &w.join("pr2.yaml"),
        "scripted",
        &[format!(
            "cp -r {}/. . && git diff > {}",
            sh_quote(&snapshots.join(&id).join("after")),
            sh_quote(&patch2)
        )],
        &patch2,
    );
    mini(
        env,
        &fo,
        &id,
        &w.join("out2"),
        &w.join("pr2.yaml"),
        &testbed2,
    );
    let pr2 = predictions_by_id(
        &load_predictions(&w.join("out2/preds.json"), Default::default())
            .unwrap()
            .items,
    );

    // 4. chain stack PR0 + PR1 + PR2: one diff against base, named for its
    //    condition, that applies at base and gives the gold tree.
    let layers = [Layer::Predictions(pr1), Layer::Predictions(pr2)];
    let name = stack_model_name("scripted", &layers);
    assert_eq!(name, "scripted__AA");
    assert_ne!(name, name1);
    let (stacked, o) = stack(
        &chain,
        &layers,
        &name,
        &mut SnapshotSource::new(snapshots),
        &mut |_, _, _| {},
    );
    assert_eq!(mine(&o).error, None);
    let s = stacked.iter().find(|p| p.instance_id == id).unwrap();
    let check = w.join("check");
    base_repo(snapshots, &id, &check);
    std::fs::write(w.join("stack.diff"), &s.model_patch).unwrap();
    git(&check, &["apply", w.join("stack.diff").to_str().unwrap()]);
    for (p, f) in &after.files {
        let got = std::fs::read(check.join(String::from_utf8_lossy(p).as_ref())).unwrap();
        assert_eq!(got, f.content, "{}", String::from_utf8_lossy(p));
    }
    let f = w.join("stacked_AA.jsonl");
    std::fs::write(
        &f,
        codethread_bench::predictions_to_jsonl(std::slice::from_ref(s)),
    )
    .unwrap();
    let dataset = chain_dir.join("exports/implementation_task.jsonl");
    let (counts, _) = run_py(env, "check_predictions.py", &[&dataset, snapshots, &f]);
    assert_eq!(counts["applied"], json!(1));
}

#[test]
fn mini_swe_agent_startup_applies_setup_patches_beyond_the_argument_limit() {
    let Some(env) = env() else { return };
    let w = env.work.join("big");
    let testbed = w.join("testbed");
    std::fs::create_dir_all(&testbed).unwrap();
    std::fs::write(testbed.join("a.txt"), "a\n").unwrap();
    git(&testbed, &["init", "-q"]);
    git(&testbed, &["add", "-A"]);
    git(&testbed, &["commit", "-q", "-m", "base"]);
    // A 512 KiB setup patch: far beyond one command-line argument (128 KiB).
    let mut before = MemTree::new();
    before.insert(b"a.txt".to_vec(), b"a\n".to_vec());
    let mut after = before.clone();
    let big: String = (0..10_000)
        .map(|i| format!("line {i:06} {}\n", "x".repeat(50)))
        .collect();
    assert!(big.len() > 512 * 1024);
    after.insert(b"big.txt".to_vec(), big.clone().into_bytes());
    let patch = diff(&before, &after);
    let row = serde_json::Map::from_iter([
        ("instance_id".to_string(), json!("o__big-1")),
        ("repo".to_string(), json!("o/big")),
        ("base_commit".to_string(), json!("0")),
        ("problem_statement".to_string(), json!("Do nothing.")),
        ("setup_patch".to_string(), json!(patch)),
    ]);
    let subset = write_mini_swe_agent_subset(&w.join("ds"), &[(row, patch.into_bytes())]).unwrap();
    let empty = w.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    model_yaml(&w.join("m.yaml"), "noop", &[], &empty);
    mini(
        env,
        &subset,
        "o__big-1",
        &w.join("out"),
        &w.join("m.yaml"),
        &testbed,
    );
    assert_eq!(
        std::fs::read_to_string(testbed.join("big.txt")).unwrap(),
        big
    );
    assert_eq!(git(&testbed, &["status", "--porcelain"]), "");
    assert!(git(&testbed, &["log", "--format=%s"]).starts_with("codethread setup\n"));
}

/// The startup command of `integrations/mini-swe-agent/<name>`, as the
/// yaml holds it (the block under `env_startup_command: |`, dedented).
fn startup_command(name: &str) -> String {
    let yaml = std::fs::read_to_string(repo_root().join("integrations/mini-swe-agent").join(name))
        .unwrap();
    let mut out = String::new();
    let mut inside = false;
    for l in yaml.lines() {
        if l.trim_end() == "  env_startup_command: |" {
            inside = true;
            continue;
        }
        if inside {
            if !l.is_empty() && !l.starts_with("    ") {
                break;
            }
            out.push_str(l.strip_prefix("    ").unwrap_or(""));
            out.push('\n');
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// PR0's removed lines that the stubbed tree holds nowhere: the original
/// bodies, as an agent could find them.
fn original_lines(base: &MemTree, pr0: &[u8]) -> Vec<Vec<u8>> {
    let stubbed = apply(base, pr0);
    pr0.split(|b| *b == b'\n')
        .filter(|l| !l.starts_with(b"--- a/") && *l != b"--- /dev/null")
        .filter_map(|l| {
            let t = l.strip_prefix(b"-")?.trim_ascii();
            let unique = t.len() >= 12 && !stubbed.files.values().any(|f| contains(&f.content, t));
            unique.then(|| t.to_vec())
        })
        .collect()
}

/// Every byte an agent in `testbed` can read there: each file of the work
/// tree and of `.git`, and every git object decompressed.
fn readable_bytes(testbed: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![testbed.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
            } else if m.is_file() {
                out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    let o = Command::new("git")
        .args(["cat-file", "--batch-all-objects", "--batch"])
        .current_dir(testbed)
        .output()
        .unwrap();
    assert!(o.status.success());
    out.push(("git objects".into(), o.stdout));
    out
}

/// The tree `git ls-tree -r HEAD` holds, read back file by file.
fn head_tree(testbed: &Path) -> MemTree {
    let mut t = MemTree::new();
    let names = git(testbed, &["ls-tree", "-r", "-z", "--name-only", "HEAD"]);
    for n in names.split('\0').filter(|n| !n.is_empty()) {
        let o = Command::new("git")
            .args(["cat-file", "blob", &format!("HEAD:{n}")])
            .current_dir(testbed)
            .output()
            .unwrap();
        assert!(o.status.success(), "{n}");
        t.insert(n.as_bytes().to_vec(), o.stdout);
    }
    t
}

/// A base repository whose every file is also matched by `.gitignore`
/// (tracked all the same): a setup that re-adds with `git add -A` drops them.
fn ignored_base_repo(snapshots: &Path, id: &str, dir: &Path) {
    base_repo(snapshots, id, dir);
    let t = tree(snapshots, id, "before");
    let ignore: String = t
        .files
        .keys()
        .map(|p| format!("/{}\n", String::from_utf8_lossy(p)))
        .collect();
    std::fs::write(dir.join(".gitignore"), ignore).unwrap();
    git(dir, &["add", ".gitignore"]);
    git(dir, &["commit", "-q", "-m", "ignore"]);
}

/// The Implementation Task's setup, as the integration runs it, on every
/// dev instance: afterwards HEAD's tree is exactly PR0 (every tracked file,
/// `.gitignore`d ones too), the work tree is clean, and no byte the agent
/// can read in the sandbox (work tree, `.git`, every git object, the setup
/// file a container would be given) holds a line of the original bodies.
#[test]
fn the_agent_cannot_read_the_original_and_head_is_pr0() {
    let Some(env) = env() else { return };
    let script = startup_command("codethread.yaml");
    assert_eq!(
        script,
        format!(
            "set -- '{{{{ setup_patch_file }}}}'\n{}",
            codethread_scaffold::mini_swe_agent::SETUP_SCRIPT
        ),
        "the yaml and SETUP_SCRIPT differ"
    );
    let mut checked = 0;
    let mut lines_checked = 0;
    for (chain_dir, snapshots, _) in &env.packs {
        let chain = Chain::open(chain_dir, Default::default()).unwrap();
        let subset = chain_dir.join("exports/mini-swe-agent/implementation/subset/test.jsonl");
        let rows: Vec<Value> = std::fs::read_to_string(&subset)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        for row in &rows {
            let id = row["instance_id"].as_str().unwrap();
            for f in codethread_chain::AGENT_HIDDEN_FIELDS {
                assert!(row.get(*f).is_none(), "{id}: agent row carries {f}");
            }
            let setup = PathBuf::from(row["setup_patch_file"].as_str().unwrap());
            let pr0 = chain.pr0(id).unwrap();
            let base = tree(snapshots, id, "before");
            let secret = original_lines(&base, &pr0);
            let testbed = env.work.join("leak").join(id);
            ignored_base_repo(snapshots, id, &testbed);
            let cmd = script.replace("{{ setup_patch_file }}", &setup.display().to_string());
            let o = Command::new("sh")
                .args(["-c", &cmd])
                .current_dir(&testbed)
                .output()
                .unwrap();
            assert!(
                o.status.success(),
                "{id}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
            // HEAD = PR0, every tracked file, nothing else; nothing uncommitted.
            let mut want = apply(&base, &pr0);
            want.insert(
                b".gitignore".to_vec(),
                std::fs::read(testbed.join(".gitignore")).unwrap(),
            );
            assert_eq!(head_tree(&testbed), want, "{id}: HEAD is not PR0");
            assert_eq!(git(&testbed, &["status", "--porcelain"]), "", "{id}");
            assert_eq!(git(&testbed, &["log", "--format=%s"]), "codethread setup\n");
            let mut readable = readable_bytes(&testbed);
            readable.push((setup.display().to_string(), std::fs::read(&setup).unwrap()));
            let env_dir = chain_dir
                .join("exports/mini-swe-agent/implementation/environments")
                .join(id);
            for f in ["setup.patch", "setup.sh", "Dockerfile"] {
                let p = env_dir.join(f);
                readable.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
            for l in &secret {
                for (name, bytes) in &readable {
                    assert!(
                        !contains(bytes, l),
                        "{id}: {name} holds the original line {:?}",
                        String::from_utf8_lossy(l)
                    );
                }
            }
            lines_checked += secret.len();
            checked += 1;
            let _ = std::fs::remove_dir_all(&testbed);
        }
    }
    assert!(checked >= 30, "{checked} instances");
    assert!(lines_checked >= 100, "{lines_checked} original lines");
    eprintln!("no original line readable: {checked} instances, {lines_checked} lines");
}

/// The Python with swebench 4.x (`CODETHREAD_PYTHON4`; `.ci/run` makes
/// `.venv-ci4` with swebench 4.1.0), or None (SKIPPED) without
/// `CODETHREAD_SHARED`; with it set, a missing 4.x fails.
fn python4() -> Option<PathBuf> {
    let shared_set = std::env::var_os(codethread_testkit::ENV).is_some_and(|v| !v.is_empty());
    let p = std::env::var_os("CODETHREAD_PYTHON4")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let ok = p.as_ref().is_some_and(|p| {
        Command::new(p)
            .args([
                "-c",
                "import swebench, sys; sys.exit(not swebench.__version__.startswith('4.'))",
            ])
            .status()
            .is_ok_and(|s| s.success())
    });
    match (ok, shared_set) {
        (true, _) => p,
        (false, true) => panic!(
            "CODETHREAD_SHARED is set but CODETHREAD_PYTHON4 ({p:?}) cannot import swebench 4.x; .ci/run installs it into .venv-ci4"
        ),
        (false, false) => {
            skip("CODETHREAD_PYTHON4 with swebench 4.x not set");
            None
        }
    }
}

/// Every dataset file the project writes, for every built instance of both
/// dev packs: build's two exports and four mini-swe-agent subsets, and the
/// Follow-On files `chain stack --follow-on` / `--follow-on-mini` write on
/// an agent's PR1 (AA). swebench 5.0.2's and 4.1.0's `make_test_spec`
/// accept 100% of the rows.
#[test]
fn every_written_dataset_file_passes_make_test_spec_in_5x_and_4x() {
    let Some(env) = env() else { return };
    let Some(py4) = python4() else { return };
    let mut files: Vec<PathBuf> = Vec::new();
    let mut want_rows = 0usize;
    for (k, (chain_dir, snapshots, _)) in env.packs.iter().enumerate() {
        let chain = Chain::open(chain_dir, Default::default()).unwrap();
        let ids = built_ids(chain_dir);
        let ex = chain_dir.join("exports");
        for f in [
            "implementation_task.jsonl",
            "follow_on_human_pr1.jsonl",
            "mini-swe-agent/implementation/subset/test.jsonl",
            "mini-swe-agent/implementation/images_subset/test.jsonl",
            "mini-swe-agent/follow_on_human_pr1/subset/test.jsonl",
            "mini-swe-agent/follow_on_human_pr1/images_subset/test.jsonl",
        ] {
            files.push(ex.join(f));
            want_rows += ids.len();
        }
        // The AA Follow-On on an agent's PR1 that appends a comment to each file.
        let mut pr1 = BTreeMap::new();
        for id in &ids {
            pr1.insert(id.clone(), scripted_agent(&chain, snapshots, id).0);
        }
        let layer = Layer::Predictions(preds("agent", &pr1));
        let (rows, o) = follow_on_rows(
            &chain,
            &layer,
            "agent__PR1",
            &mut SnapshotSource::new(snapshots),
        );
        assert!(o.iter().all(|o| o.error.is_none()), "{o:?}");
        assert_eq!(rows.len(), ids.len());
        let fo = env.work.join(format!("follow_on_AA_{k}.jsonl"));
        let plain: Vec<_> = rows.iter().map(|r| &r.row).collect();
        codethread_bench::write_jsonl(&fo, &plain).unwrap();
        files.push(fo);
        let mini_rows: Vec<_> = rows
            .iter()
            .map(|r| (r.row.clone(), r.sealed_setup.clone()))
            .collect();
        let mini = env.work.join(format!("follow_on_AA_mini_{k}"));
        write_mini_swe_agent_subset(&mini, &mini_rows).unwrap();
        files.push(mini.join("subset/test.jsonl"));
        files.push(mini.join("images_subset/test.jsonl"));
        want_rows += 3 * ids.len();
        // Every top-level column the 5.x harness reads, in every file.
        for f in files.iter().rev().take(3) {
            for l in std::fs::read_to_string(f).unwrap().lines() {
                let Value::Object(row) = serde_json::from_str::<Value>(l).unwrap() else {
                    panic!("row")
                };
                assert!(!row.contains_key("extra"), "{}: nested extra", f.display());
                codethread_bench::check_harness_row(&row, HarnessGeneration::V5).unwrap();
            }
        }
    }
    let args: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    for python in [env.python.clone(), py4] {
        let out = Command::new(&python)
            .arg(py_dir().join("check_datasets.py"))
            .args(&args)
            .envs(offline_env(&env.work))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{}: {}\n{stdout}",
            python.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        let (mut rows, mut specs) = (0, 0);
        for c in v["files"].as_object().unwrap().values() {
            rows += c["rows"].as_u64().unwrap();
            specs += c["specs"].as_u64().unwrap();
        }
        assert_eq!(rows as usize, want_rows, "{v}");
        assert_eq!(specs, rows, "{v}");
        eprintln!(
            "swebench {}: make_test_spec accepts {specs}/{rows} rows of {} files",
            v["swebench"],
            files.len()
        );
    }
}

/// Issue 18 item 6: the two harness generations grade one log differently
/// when the test command exits non-zero while the log names no failure
/// (e.g. a `conftest.py` of the patch printing `PASSED` lines, or a crash
/// after the listed tests ran): swebench 4.1.0 ignores the exit status and
/// grades the parsed lines (the PR1 is kept), 5.0.2 reads `>>>>> Test Exit
/// Code: N` and declares the log invalid (`patch_successfully_applied:
/// false`: dropped as `no_test_output`). On every other case here both
/// generations give the same decision (a skipped P2P or F2P test keeps the
/// PR1 in both). The gate, fed each generation's own report.json and
/// run_instance.log, decides as that generation graded.
#[test]
fn gate_follows_each_harness_generation_on_exit_codes() {
    let Some(env) = env() else { return };
    let Some(py4) = python4() else { return };
    let (chain_dir, _, insts) = &env.packs[0];
    let chain = Chain::open(chain_dir, Default::default()).unwrap();
    let export = chain_dir.join("exports/implementation_task.jsonl");
    let rows: Vec<Value> = std::fs::read_to_string(&export)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let row = rows
        .iter()
        .find(|r| r["log_parser"] == json!("parse_log_pytest"))
        .expect("a pytest instance");
    let id = row["instance_id"].as_str().unwrap().to_string();
    let inst = insts.iter().find(|i| i.instance_id == id).unwrap();
    let (f2p, p2p) = (&inst.fail_to_pass, &inst.pass_to_pass);
    assert!(!p2p.is_empty() && !f2p.is_empty());
    let log = |f2p_status: Option<&str>, p2p0: &str, exit: Option<i32>| {
        let mut lines: Vec<(&str, &str)> = Vec::new();
        if let Some(st) = f2p_status {
            lines.extend(f2p.iter().map(|t| (st, t.as_str())));
        }
        lines.push((p2p0, p2p[0].as_str()));
        lines.extend(p2p[1..].iter().map(|t| ("PASSED", t.as_str())));
        let mut s = pytest_log(&lines);
        if let Some(c) = exit {
            s.push_str(&format!(">>>>> Test Exit Code: {c}\n"));
        }
        s
    };
    // (case, test log, kept under 4.x, kept under 5.x)
    let no_output = GateReason::NoTestOutput;
    let cases: Vec<(&str, String, Option<GateReason>, Option<GateReason>)> = vec![
        (
            "exit1-nofail",
            log(None, "PASSED", Some(1)),
            None,
            Some(no_output.clone()),
        ),
        (
            "exit2-nofail",
            log(None, "PASSED", Some(2)),
            None,
            Some(no_output.clone()),
        ),
        (
            "exit1-failed",
            log(Some("FAILED"), "PASSED", Some(1)),
            None,
            None,
        ),
        ("exit0-nofail", log(None, "PASSED", Some(0)), None, None),
        ("noexit-nofail", log(None, "PASSED", None), None, None),
        (
            "skip-p2p",
            log(Some("FAILED"), "SKIPPED", Some(1)),
            None,
            None,
        ),
        (
            "skip-f2p",
            log(Some("SKIPPED"), "PASSED", Some(0)),
            None,
            None,
        ),
        (
            "no-tests",
            pytest_log(&[]),
            Some(GateReason::P2pFailed(p2p.clone())),
            Some(no_output.clone()),
        ),
        (
            "p2p-failed",
            log(Some("FAILED"), "FAILED", Some(1)),
            Some(GateReason::P2pFailed(vec![p2p[0].clone()])),
            Some(GateReason::P2pFailed(vec![p2p[0].clone()])),
        ),
    ];
    let pr1 = preds(
        "agent",
        &BTreeMap::from([(
            id.clone(),
            String::from_utf8(chain.pr0(&id).unwrap()).unwrap(),
        )]),
    );
    let some_patch = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
    for (generation, python) in [("4", py4), ("5", env.python.clone())] {
        let work = env.work.join(format!("grade-exit-{generation}"));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work).unwrap();
        let spec = json!({
            "dataset": export,
            "run_id": "exit",
            "cases": cases.iter().map(|(c, out, _, _)| json!({
                "model": format!("agent-{c}__PR1"), "instance_id": id,
                "model_patch": some_patch, "test_output": out,
            })).collect::<Vec<_>>(),
        });
        let spec_path = work.join("spec.json");
        std::fs::write(&spec_path, spec.to_string()).unwrap();
        let out = Command::new(&python)
            .arg(py_dir().join("grade_generation.py"))
            .args([&spec_path, &work])
            .envs(offline_env(&env.work))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{generation}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let graded: Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert!(
            graded["swebench"].as_str().unwrap().starts_with(generation),
            "{graded}"
        );
        for (c, _, want4, want5) in &cases {
            let want = if generation == "4" { want4 } else { want5 };
            let model = format!("agent-{c}__PR1");
            // What swebench itself said: the log was graded (or not).
            let report = &graded["reports"][&model];
            assert_eq!(
                report["patch_successfully_applied"],
                json!(*want != Some(GateReason::NoTestOutput)),
                "{generation} {c}: {report}"
            );
            let logs = work.join("logs/run_evaluation/exit").join(&model);
            let (reports, errs) = load_reports(&[logs], Default::default());
            assert!(errs.is_empty(), "{generation} {c}: {errs:?}");
            let d: Vec<GateDecision> = gate_predictions(&chain, &pr1, &reports, None);
            assert_eq!(d.len(), 1);
            match want {
                None => assert!(
                    d[0].kept && d[0].reasons.is_empty(),
                    "{generation} {c}: {:?}",
                    d[0]
                ),
                Some(r) => {
                    assert!(!d[0].kept, "{generation} {c}: {:?}", d[0]);
                    assert_eq!(d[0].reasons, vec![r.clone()], "{generation} {c}");
                }
            }
        }
    }
}
