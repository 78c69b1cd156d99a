//! A Harbor job round-trips into `reproduce` (issue 23): chains of real
//! SWE-bench Verified instances (`shared/chains/dev`, joined with their
//! upstream rows) are exported as Harbor tasks; a job's trial directories are
//! written with harbor 0.25.0's own pydantic models (`TrialResult`), holding
//! each step's collected diff and the verifier's swebench report;
//! `import_harbor_job` reads them; and `reproduce` on the import's
//! `reproduce/` layout (predictions files) gives byte for byte the PR1
//! predictions, gate decisions, stacked PR2 predictions and outcomes that
//! `reproduce` gives on the same agent outputs laid out as trees.
//!
//! Each step's patch is distinct (PR1, the HA PR2 and the AA PR2 each add a
//! note file of their own beside their code), and so is each step's report
//! (the AA PR2 resolves every other instance, the HA PR2 all), so a condition
//! or report read from the wrong trial or step changes the outputs. One
//! instance also has an `implementation` trial with another PR1: the
//! two-step `chain` trial's PR1 is the one its AA PR2 was made on, and the
//! one `reproduce` must get.
//!
//! Needs `CODETHREAD_SHARED` and harbor's interpreter
//! (`CODETHREAD_HARBOR_PYTHON`, `.ci/run` installs it): without the first
//! the suite prints SKIPPED; with it set and harbor missing it fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use codethread::chain::{build, BuildOptions, Chain, SnapshotSource, SourceSpec};
use codethread::patch::{ApplyOptions, MemTree};
use codethread::reproduce::{reproduce, ReproduceConfig, ReproduceSummary};
use codethread::scaffold::harbor::{export_harbor, import_harbor_job, HarborExportOptions};
use serde_json::{json, Value};

const HARBOR: &str = "0.25.0";
/// Instances of the dev pack used (the first Python rows: quick to build).
const N: usize = 4;
const MODEL: &str = "oracle-notes";

fn skip(why: &str) {
    let _ = writeln!(std::io::stderr(), "SKIPPED harbor_reproduce: {why}");
}

/// The dev pack's first `N` Python rows with their upstream columns
/// (`image`, `eval_script`, ... that the Harbor export needs).
fn rows(shared: &Path, out: &Path) -> PathBuf {
    let mut upstream: BTreeMap<String, serde_json::Map<String, Value>> = BTreeMap::new();
    for f in std::fs::read_dir(shared.join("swebench/swebench_datasets")).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "jsonl") {
            for l in std::fs::read_to_string(&p).unwrap().lines() {
                if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(l) {
                    upstream.insert(m["instance_id"].as_str().unwrap().to_string(), m);
                }
            }
        }
    }
    let pack = shared.join("chains/dev/instances.jsonl");
    let mut text = String::new();
    let mut n = 0;
    for l in std::fs::read_to_string(pack).unwrap().lines() {
        let Ok(Value::Object(mut row)) = serde_json::from_str::<Value>(l) else {
            continue;
        };
        let id = row["instance_id"].as_str().unwrap().to_string();
        let python = row["patch"]
            .as_str()
            .is_some_and(|p| p.contains(".py b/") && !p.contains(".js b/"));
        if !python || n == N {
            continue;
        }
        for (k, v) in &upstream[&id] {
            row.entry(k.clone()).or_insert_with(|| v.clone());
        }
        text.push_str(&Value::Object(row).to_string());
        text.push('\n');
        n += 1;
    }
    std::fs::write(out, text).unwrap();
    out.to_path_buf()
}

fn note(name: &str, id: &str) -> Vec<u8> {
    format!(
        "diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n+++ b/{name}\n@@ -0,0 +1 @@\n+{name} of {id}\n"
    )
    .into_bytes()
}

fn cat(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut v = a.to_vec();
    if !v.ends_with(b"\n") && !v.is_empty() {
        v.push(b'\n');
    }
    v.extend_from_slice(b);
    v
}

fn apply(t: &MemTree, patch: &[u8]) -> MemTree {
    let mut t = t.clone();
    t.apply(
        &codethread::patch::parse_patch(patch).unwrap(),
        &ApplyOptions::default(),
    )
    .unwrap();
    t
}

/// Writes every file of `t` below `dir` (the tree route's agent output).
fn write_tree(t: &MemTree, dir: &Path) {
    for (p, f) in &t.files {
        let path = dir.join(String::from_utf8(p.clone()).unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &f.content).unwrap();
    }
}

fn names(row: &Value, key: &str) -> Vec<String> {
    match &row[key] {
        Value::String(s) => serde_json::from_str(s).unwrap(),
        v => serde_json::from_value(v.clone()).unwrap(),
    }
}

/// swebench's `report.json` for `id`: the PR1 gate's shape (F2P still
/// failing, P2P passing) or a PR2's (resolved or not).
fn report(row: &Value, id: &str, pr1: bool, resolved: bool) -> Vec<u8> {
    let (f2p, p2p) = (names(row, "FAIL_TO_PASS"), names(row, "PASS_TO_PASS"));
    let (f_ok, f_bad) = if pr1 || !resolved {
        (vec![], f2p)
    } else {
        (f2p, vec![])
    };
    serde_json::to_vec(&json!({ id: {
        "patch_is_None": false, "patch_exists": true, "patch_successfully_applied": true,
        "resolved": !pr1 && resolved,
        "tests_status": {
            "FAIL_TO_PASS": {"success": f_ok, "failure": f_bad},
            "PASS_TO_PASS": {"success": p2p, "failure": []},
            "FAIL_TO_FAIL": {"success": [], "failure": []},
            "PASS_TO_FAIL": {"success": [], "failure": []},
        }
    }}))
    .unwrap()
}

fn put(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn run(
    instances: &Path,
    snapshots: &Path,
    agents: &Path,
    reports: &Path,
    out: &Path,
) -> ReproduceSummary {
    let mut cfg = ReproduceConfig::for_bench_dir(Path::new("unused"), out);
    cfg.instances = instances.to_path_buf();
    cfg.source = SourceSpec::Snapshots(snapshots.to_path_buf());
    cfg.agents = agents.to_path_buf();
    cfg.reports = reports.to_path_buf();
    cfg.task_types = None;
    // Each instance's benchmark and task type from its row (issue 37).
    cfg.benchmark = None;
    cfg.bootstrap_reps = 50;
    reproduce(&cfg, &mut |_| {}).expect("reproduce runs")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_harbor_job_round_trips_into_reproduce() {
    if std::env::var_os(codethread_testkit::ENV).is_none_or(|v| v.is_empty()) {
        skip("CODETHREAD_SHARED unset");
        return;
    }
    let Some(shared) = codethread_testkit::shared() else {
        return;
    };
    let harbor = codethread_testkit::python::from_env(
        "CODETHREAD_HARBOR_PYTHON",
        Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv-harbor/bin/python"),
    );
    let harbor = codethread_testkit::python::require(
        harbor,
        &[("harbor", "harbor", HARBOR)],
        ".ci/run installs it",
    )
    .expect("harbor's interpreter");
    let w =
        codethread::lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-harbor-repro").unwrap();
    let snapshots = shared.join("chains/dev/files");
    let instances = rows(&shared, &w.join("instances.jsonl"));
    let loaded = codethread::bench::load_instances(&instances, Default::default()).unwrap();
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    let raw: BTreeMap<String, Value> = read(&instances)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["instance_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    let chain_dir = w.join("chain");
    build(
        &loaded.items,
        &mut SnapshotSource::new(&snapshots),
        &BuildOptions::default().out(chain_dir.clone()),
        &mut |_, _, _| {},
    )
    .unwrap();
    let chain = Chain::open(&chain_dir, Default::default()).unwrap();
    let dataset = w.join("dataset");
    export_harbor(&chain_dir, &dataset, &HarborExportOptions::default()).unwrap();

    let (trees, tree_reports) = (w.join("trees/agents"), w.join("trees/reports"));
    let job = w.join("job");
    let mut trials = Vec::new();
    let mut built = 0;
    for (n, inst) in loaded.items.iter().enumerate() {
        let id = &inst.instance_id;
        if !chain.is_built(id) {
            continue;
        }
        built += 1;
        let row = &raw[id];
        let gold = inst.patch.as_bytes();
        let mut base = MemTree::new();
        for p in codethread::patch::parse_patch(gold)
            .unwrap()
            .touched_paths()
        {
            let f = snapshots
                .join(id)
                .join("before")
                .join(String::from_utf8(p.clone()).unwrap());
            if let Ok(b) = std::fs::read(f) {
                base.insert(p, b);
            }
        }
        let stubbed = apply(&base, &chain.pr0(id).unwrap());
        let pr1 = cat(&chain.human_pr1(id).unwrap(), &note("PR1_NOTE.md", id));
        let ha = cat(gold, &note("HA_NOTE.md", id));
        let aa = cat(gold, &note("AA_NOTE.md", id));
        let agent_pr1 = apply(&stubbed, &pr1);
        let aa_resolved = n % 2 == 0;
        // The tree route: the agent's files after each step, the reports beside them.
        write_tree(&agent_pr1, &trees.join(MODEL).join("pr1").join(id));
        write_tree(
            &apply(&base, &ha),
            &trees.join(MODEL).join("pr2_HA").join(id),
        );
        write_tree(
            &apply(&agent_pr1, &aa),
            &trees.join(MODEL).join("pr2_AA").join(id),
        );
        let r1 = report(row, id, true, false);
        let rha = report(row, id, false, true);
        let raa = report(row, id, false, aa_resolved);
        for (step, r) in [("pr1", &r1), ("pr2_HA", &rha), ("pr2_AA", &raa)] {
            put(
                &tree_reports
                    .join(MODEL)
                    .join(step)
                    .join(id)
                    .join("report.json"),
                r,
            );
        }
        // The Harbor route: a two-step chain trial and a follow_on_human trial.
        let t = job.join(format!("chain__{n}"));
        for (step, patch, r) in [("implement", &pr1, &r1), ("follow_on", &aa, &raa)] {
            let s = t.join("steps").join(step);
            put(&s.join("artifacts/logs/artifacts/model.patch"), patch);
            put(&s.join("verifier/report.json"), r);
        }
        trials.push(json!({"trial_name": format!("chain__{n}"),
            "task_dir": dataset.join(format!("{id}.chain")), "agent": MODEL, "model": null,
            "rewards": {"reward": f64::from(u8::from(aa_resolved))},
            "steps": [{"step_name": "implement", "rewards": {"reward": 1.0}},
                      {"step_name": "follow_on", "rewards": {"reward": f64::from(u8::from(aa_resolved))}}]}));
        let t = job.join(format!("ha__{n}"));
        put(&t.join("artifacts/logs/artifacts/model.patch"), &ha);
        put(&t.join("verifier/report.json"), &rha);
        trials.push(json!({"trial_name": format!("ha__{n}"),
            "task_dir": dataset.join(format!("{id}.follow_on_human")), "agent": MODEL,
            "model": null, "rewards": {"reward": 1.0}}));
        if built == 1 {
            // Another session's PR1 of the same instance: not the chain's.
            let t = job.join(format!("impl__{n}"));
            put(
                &t.join("artifacts/logs/artifacts/model.patch"),
                &chain.human_pr1(id).unwrap(),
            );
            put(&t.join("verifier/report.json"), &r1);
            trials.push(json!({"trial_name": format!("impl__{n}"),
                "task_dir": dataset.join(format!("{id}.implementation")), "agent": MODEL,
                "model": null, "rewards": {"reward": 1.0}}));
        }
    }
    assert!(built >= 3, "{built} of {N} built");
    let spec = w.join("spec.json");
    std::fs::write(&spec, json!({"job_dir": job, "trials": trials}).to_string()).unwrap();
    let out = Command::new(&harbor)
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("crates/codethread-scaffold/tests/py/harbor_results.py"),
        )
        .arg(&spec)
        .env("HARBOR_TELEMETRY", "0")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let imported = w.join("imported");
    let imp = import_harbor_job(&job, &imported, None, Default::default()).unwrap();
    assert!(
        imp.outcomes.iter().all(|o| o.outcome == "graded"),
        "{:?}",
        imp.problems().collect::<Vec<_>>()
    );
    let agents = imported.join("reproduce/agents");
    let mut files: Vec<String> = std::fs::read_dir(agents.join(MODEL))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["pr1.jsonl", "pr2_AA.jsonl", "pr2_HA.jsonl"]);

    let a = run(
        &instances,
        &snapshots,
        &trees,
        &tree_reports,
        &w.join("out-trees"),
    );
    let b = run(
        &instances,
        &snapshots,
        &agents,
        &imported.join("reproduce/reports"),
        &w.join("out-harbor"),
    );
    assert!(a.errors.is_empty(), "{:?}", a.errors);
    assert!(b.errors.is_empty(), "{:?}", b.errors);
    assert_eq!(a.models, [MODEL]);
    assert_eq!(b.models, a.models);
    assert_eq!(a.gate[MODEL], (built, built), "every oracle PR1 kept");
    assert_eq!(b.gate, a.gate);
    assert_eq!(a.outcomes, 2 * built);
    assert_eq!(b.outcomes, a.outcomes);
    assert_eq!(b.discordant, a.discordant);
    assert!(
        a.discordant > 0,
        "HA resolves every instance, AA every other one"
    );
    // Verified rows (they carry `difficulty`) are named so and are bug
    // fixes by the paper's rule: Table 3 is filled without a flag.
    assert_eq!(
        a.benchmarks.keys().collect::<Vec<_>>(),
        ["SWE-bench Verified"],
        "{:?}",
        a.benchmarks
    );
    assert!(a
        .task_type_rules
        .keys()
        .all(|(t, rule)| t.as_deref() == Some("BF") && rule.contains("paper's rule")));
    let csv = read(&w.join("out-trees/outcomes.csv"));
    assert!(
        csv.lines()
            .skip(1)
            .all(|l| l.contains("SWE-bench Verified") && l.contains("BF")),
        "{csv}"
    );
    let report = read(&w.join("out-trees/report/report.md"));
    assert!(report.contains("| BF |"), "Table 3 has a BF row");
    for f in [
        format!("predictions/{MODEL}.pr1.jsonl"),
        format!("predictions/{MODEL}.HA.stacked.jsonl"),
        format!("predictions/{MODEL}.AA.stacked.jsonl"),
        format!("gate/{MODEL}.jsonl"),
        "outcomes.csv".to_string(),
    ] {
        let (x, y) = (
            read(&w.join("out-trees").join(&f)),
            read(&w.join("out-harbor").join(&f)),
        );
        assert_eq!(x, y, "{f} differs between the tree and the Harbor route");
    }
    // The stacked AA prediction carries the chain's PR1 note and the AA note,
    // never the HA note or the lone implementation trial's PR1.
    let aa = read(
        &w.join("out-harbor")
            .join(format!("predictions/{MODEL}.AA.stacked.jsonl")),
    );
    assert!(aa.contains("PR1_NOTE.md of") && aa.contains("AA_NOTE.md of"));
    assert!(!aa.contains("HA_NOTE.md"));
    let _ = std::fs::remove_dir_all(&w);
}
