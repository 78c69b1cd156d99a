//! End to end on a tiny fixture repository with a scripted agent:
//! build -> export -> (agent PR1) -> stack -> grade like the harness ->
//! gate from report files -> (agent PR2) -> stack -> grade.
//!
//! The "harness" here is a faithful miniature of SWE-bench's grading step:
//! a fresh checkout at base_commit, `git apply` of the prediction, `git
//! apply` of the test patch, the tests run, and a `report.json` written in
//! the harness's format under `logs/run_evaluation/<run>/<model>/<id>/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_bench::load_reports_dir;
use codethread_bench::{load_instances, Instance};
use codethread_bench::{load_predictions, predictions_by_id, PatchPrediction, Prediction};
use codethread_chain::GateReason;
use codethread_chain::GitRepoDir;
use codethread_chain::{
    build, follow_on_rows, gate_predictions, stack, BuildOptions, BuildStatus, Chain, Layer,
};
use serde_json::{json, Value};

/// The stacked predictions as text (the fixture is UTF-8).
fn as_text(v: Vec<PatchPrediction>) -> Vec<Prediction> {
    v.iter()
        .map(|p| p.to_text().expect("UTF-8 patch"))
        .collect()
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e")
}

fn git(dir: &Path, args: &[&str]) -> String {
    codethread_testkit::git(dir, args)
}

fn git_ok(dir: &Path, args: &[&str]) -> bool {
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        let t = to.join(e.file_name());
        if p.is_dir() {
            copy_dir(&p, &t);
        } else {
            std::fs::copy(&p, &t).expect("copy");
        }
    }
}

/// A checkout of the fixture repository at `base` in a new directory.
fn checkout(repo: &Path, base: &str, dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    let out = Command::new("git")
        .args(["clone", "-q"])
        .arg(repo)
        .arg(dir)
        .output()
        .expect("clone");
    assert!(out.status.success());
    git(dir, &["checkout", "-q", base]);
}

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
    std::fs::write(p, s).expect("write");
}

/// Grade one prediction the way the SWE-bench harness does and write its
/// report.json. Returns the report body.
fn grade(
    repo: &Path,
    inst: &Instance,
    pred: &Prediction,
    work: &Path,
    logs: &Path,
    run: &str,
) -> Value {
    checkout(repo, &inst.base_commit, work);
    let id = &inst.instance_id;
    let patch_file = work.join("../model.patch");
    write(&patch_file, &pred.model_patch);
    let exists = !pred.model_patch.trim().is_empty();
    let applied = exists && git_ok(work, &["apply", patch_file.to_str().unwrap_or("")]);
    let mut body = json!({"patch_is_None": false, "patch_exists": exists, "patch_successfully_applied": applied, "resolved": false});
    if applied {
        let tp = work.join("../test.patch");
        write(&tp, &inst.test_patch);
        if !inst.test_patch.is_empty() {
            assert!(
                git_ok(work, &["apply", tp.to_str().unwrap_or("")]),
                "test patch applies"
            );
        }
        let tests: Vec<&String> = inst.fail_to_pass.iter().chain(&inst.pass_to_pass).collect();
        let out = Command::new("python3")
            .current_dir(work)
            .arg("tests/run.py")
            .args(&tests)
            .output()
            .expect("python3");
        let status: BTreeMap<String, String> =
            serde_json::from_slice(&out.stdout).expect("runner json");
        let split = |list: &[String]| {
            let (ok, bad): (Vec<&String>, Vec<&String>) = list
                .iter()
                .partition(|t| status.get(*t).map(String::as_str) == Some("PASSED"));
            json!({"success": ok, "failure": bad})
        };
        let f2p = split(&inst.fail_to_pass);
        let p2p = split(&inst.pass_to_pass);
        let resolved = f2p["failure"].as_array().is_some_and(Vec::is_empty)
            && p2p["failure"].as_array().is_some_and(Vec::is_empty);
        body["resolved"] = json!(resolved);
        body["tests_status"] = json!({"FAIL_TO_PASS": f2p, "PASS_TO_PASS": p2p,
            "FAIL_TO_FAIL": {"success": [], "failure": []}, "PASS_TO_FAIL": {"success": [], "failure": []}});
    }
    let report = json!({ id.clone(): body.clone() });
    write(
        &logs
            .join(run)
            .join(&pred.model_name_or_path)
            .join(id)
            .join("report.json"),
        &format!("{report:#}"),
    );
    body
}

/// Run the scripted agent on a checkout at base + `setup` and return its diff.
fn agent(repo: &Path, inst: &Instance, setup: &str, step: &str, work: &Path) -> String {
    checkout(repo, &inst.base_commit, work);
    if !setup.trim().is_empty() {
        let p = work.join("../setup.patch");
        write(&p, setup);
        git(work, &["apply", p.to_str().unwrap_or("")]);
        git(work, &["commit", "-qam", "setup"]);
    }
    let st = Command::new("sh")
        .arg(fixture().join("agent.sh"))
        .args([step, &inst.instance_id])
        .arg(work)
        .status()
        .expect("agent");
    assert!(st.success());
    git(work, &["add", "-A"]);
    git(work, &["diff", "--cached"])
}

#[test]
fn scripted_agent_end_to_end() {
    let tools = ["git", "python3"].iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !tools {
        println!("SKIPPED: git and python3 are needed for the e2e chain test");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("ct-chain-e2e-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    // The fixture repository, as a real git repository named owner__name.
    let repo = tmp.join("repos/fixture__calc");
    copy_dir(&fixture().join("repo"), &repo);
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "base"]);
    let base = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    let text = std::fs::read_to_string(fixture().join("instances.jsonl"))
        .expect("fixture")
        .replace("@BASE@", &base);
    let inst_path = tmp.join("instances.jsonl");
    write(&inst_path, &text);

    // Load: the row without base_commit is named, the others load.
    let loaded = load_instances(&inst_path, Default::default()).expect("load");
    assert_eq!(loaded.items.len(), 5);
    assert_eq!(loaded.errors.len(), 1);
    assert!(
        matches!(&loaded.errors[0], codethread_bench::BenchError::MissingField { line: 6, instance_id, field, .. } if instance_id == "fixture__calc-6" && field == "base_commit")
    );
    let insts = loaded.items;
    let by_id: BTreeMap<&str, &Instance> =
        insts.iter().map(|i| (i.instance_id.as_str(), i)).collect();

    // Build.
    let out = tmp.join("chain");
    let opts = BuildOptions::default().out(out.clone());
    let mut calls = 0;
    let s = build(
        &insts,
        &mut GitRepoDir::new(tmp.join("repos")),
        &opts,
        &mut |_, _, _| calls += 1,
    )
    .expect("build");
    assert_eq!(calls, 5);
    assert_eq!((s.built, s.filtered, s.failed, s.cached), (3, 1, 1, 0));
    let status: BTreeMap<&str, &BuildStatus> = s
        .outcomes
        .iter()
        .map(|o| (o.instance_id.as_str(), &o.status))
        .collect();
    let targets = |id: &str| match status[id] {
        BuildStatus::Built { targets, .. } => targets.clone(),
        other => panic!("{id}: {other:?}"),
    };
    assert_eq!(targets("fixture__calc-1"), vec!["calc/ops.py::mul"]);
    assert_eq!(targets("fixture__calc-2"), vec!["calc/ops.py::clamp"]);
    assert_eq!(targets("fixture__calc-3"), vec!["calc/ops.py::Stats.mean"]);
    assert_eq!(
        status["fixture__calc-4"],
        &BuildStatus::Filtered {
            reason: "adds_new_functions_only".into()
        }
    );
    match status["fixture__calc-5"] {
        BuildStatus::Failed { error } => assert!(
            error.contains("fixture__calc-5") && error.contains("does not apply"),
            "{error}"
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        git(&repo, &["status", "--porcelain"]),
        "",
        "the repository's work tree is untouched"
    );
    // Re-run: finished instances are skipped, the failed one is retried; exports are the same.
    let before = std::fs::read(out.join("exports/implementation_task.jsonl")).expect("export");
    let s2 = build(
        &insts,
        &mut GitRepoDir::new(tmp.join("repos")),
        &opts,
        &mut |_, _, _| {},
    )
    .expect("rebuild");
    assert_eq!((s2.built, s2.filtered, s2.failed, s2.cached), (3, 1, 1, 4));
    assert_eq!(
        std::fs::read(out.join("exports/implementation_task.jsonl")).expect("export"),
        before
    );

    // Exports: the Implementation Task dataset, the init-patch map, the targets file.
    let rows: Vec<Value> = String::from_utf8_lossy(&before)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(rows.len(), 3);
    let chain = Chain::open(&out, Default::default()).expect("chain");
    for r in &rows {
        let id = r["instance_id"].as_str().unwrap_or_default();
        let pr0 = String::from_utf8(chain.pr0(id).expect("pr0")).expect("utf8");
        assert_eq!(r["setup_patch"].as_str(), Some(pr0.as_str()));
        assert_eq!(r["base_commit"].as_str(), Some(base.as_str()));
        assert!(r["problem_statement"]
            .as_str()
            .is_some_and(|p| p.contains("## Task Overview")));
        assert_eq!(r["FAIL_TO_PASS"], json!(by_id[id].fail_to_pass));
        // PR0 stubs the target; the human PR1 (`pr1_human_patch`) restores
        // base exactly, so the gold against base (`patch`) is empty.
        assert_eq!(r["patch"].as_str(), Some(""), "{id}: gold against base");
        let work = tmp.join("w-pr0");
        checkout(&repo, &base, &work);
        write(&tmp.join("pr0.patch"), &pr0);
        git(
            &work,
            &["apply", tmp.join("pr0.patch").to_str().unwrap_or("")],
        );
        assert!(std::fs::read_to_string(work.join("calc/ops.py"))
            .unwrap_or_default()
            .contains("raise NotImplementedError"));
        write(
            &tmp.join("pr1.patch"),
            r["pr1_human_patch"].as_str().unwrap_or(""),
        );
        git(
            &work,
            &["apply", tmp.join("pr1.patch").to_str().unwrap_or("")],
        );
        assert_eq!(
            git(&work, &["status", "--porcelain"]),
            "",
            "{id}: PR0 + human PR1 = base"
        );
    }
    let init: Value = serde_json::from_slice(
        &std::fs::read(out.join("exports/init_patches_implementation.json")).expect("init"),
    )
    .expect("json");
    assert_eq!(init.as_object().map(|m| m.len()), Some(3));
    let tl: Vec<Value> = std::fs::read_to_string(out.join("targets.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert_eq!(tl.len(), 4);

    // The scripted agent writes PR1 on top of PR0 (in the environment the init-patch map sets up).
    let logs = tmp.join("logs/run_evaluation");
    let mut pr1 = Vec::new();
    for id in ["fixture__calc-1", "fixture__calc-2", "fixture__calc-3"] {
        let pr0 = init[id].as_str().unwrap_or_default();
        let d = agent(&repo, by_id[id], pr0, "pr1", &tmp.join("w-agent"));
        pr1.push(Prediction {
            instance_id: id.into(),
            model_name_or_path: "scripted-agent".into(),
            model_patch: d,
        });
    }
    let pr1_file = tmp.join("pr1_preds.jsonl");
    write(&pr1_file, &codethread_bench::predictions_to_jsonl(&pr1));
    let pr1_map = predictions_by_id(
        &load_predictions(&pr1_file, Default::default())
            .expect("preds")
            .items,
    );

    // Stack PR0 + PR1 into one diff against base: what the harness grades for the gate.
    let mut src = GitRepoDir::new(tmp.join("repos"));
    let (graded, outcomes) = stack(
        &chain,
        &[Layer::Predictions(pr1_map.clone())],
        "scripted-agent",
        &mut src,
        &mut |_, _, _| {},
    );
    let graded = as_text(graded);
    assert!(outcomes.iter().all(|o| o.error.is_none()), "{outcomes:?}");
    assert_eq!(graded.len(), 3);
    for p in &graded {
        grade(
            &repo,
            by_id[p.instance_id.as_str()],
            p,
            &tmp.join("w-grade"),
            &logs,
            "gate",
        );
    }
    // The gate reads the report files.
    let (reports, errs) = load_reports_dir(&tmp.join("logs"), Default::default()).expect("reports");
    assert!(errs.is_empty());
    assert_eq!(reports.len(), 3);
    let d = gate_predictions(&chain, &pr1_map, &reports, None);
    let d: BTreeMap<&str, _> = d.iter().map(|x| (x.instance_id.as_str(), x)).collect();
    assert!(d["fixture__calc-1"].kept, "{:?}", d["fixture__calc-1"]);
    assert_eq!(
        d["fixture__calc-2"].reasons,
        vec![GateReason::F2pAlreadyPassing(vec![
            "tests/test_ops.py::test_clamp_high".into()
        ])]
    );
    assert_eq!(
        d["fixture__calc-3"].reasons,
        vec![GateReason::P2pFailed(vec![
            "tests/test_ops.py::test_mean".into()
        ])]
    );

    // Follow-On Issue dataset on the agent's PR1: setup = PR0 + PR1 combined.
    let (fo, _) = follow_on_rows(
        &chain,
        &Layer::Predictions(pr1_map.clone()),
        "scripted-agent",
        &mut src,
    );
    assert_eq!(fo.len(), 3);
    let g1 = graded
        .iter()
        .find(|p| p.instance_id == "fixture__calc-1")
        .expect("g1");
    let fo1 = fo
        .iter()
        .find(|r| r.row["instance_id"] == "fixture__calc-1")
        .expect("fo1");
    // The sealed setup: literals only, no text hunk (so no pre-image line).
    let sealed = String::from_utf8(fo1.sealed_setup.clone()).expect("ascii");
    assert!(sealed.contains("GIT binary patch"), "{sealed}");
    assert!(
        !sealed.contains("@@") && !sealed.contains("\n-"),
        "{sealed}"
    );
    let fo1 = &fo1.row;
    assert_eq!(fo1["setup_patch"].as_str(), Some(g1.model_patch.as_str()));
    assert_eq!(
        fo1["problem_statement"].as_str(),
        Some(by_id["fixture__calc-1"].problem_statement.as_str())
    );

    // PR2 by the agent on the kept instance, on top of PR0 + PR1 (AA condition).
    let d2 = agent(
        &repo,
        by_id["fixture__calc-1"],
        &g1.model_patch,
        "pr2",
        &tmp.join("w-agent"),
    );
    let pr2_map = predictions_by_id(&[Prediction {
        instance_id: "fixture__calc-1".into(),
        model_name_or_path: "scripted-agent".into(),
        model_patch: d2,
    }]);
    let (final_preds, outcomes) = stack(
        &chain,
        &[
            Layer::Predictions(pr1_map),
            Layer::Predictions(pr2_map.clone()),
        ],
        "AA-scripted",
        &mut src,
        &mut |_, _, _| {},
    );
    let final_preds = as_text(final_preds);
    assert_eq!(final_preds.len(), 1);
    assert_eq!(
        outcomes
            .iter()
            .filter(|o| o
                .error
                .as_deref()
                .is_some_and(|e| e.contains("no prediction for PR2")))
            .count(),
        2
    );
    // The same stack when the PR1 patches are already relative to base (they include PR0).
    let (alt, _) = stack(
        &chain,
        &[
            Layer::PredictionsFromBase(predictions_by_id(&graded)),
            Layer::Predictions(pr2_map),
        ],
        "AA-scripted",
        &mut src,
        &mut |_, _, _| {},
    );
    let alt = as_text(alt);
    assert_eq!(alt, final_preds);
    let r = grade(
        &repo,
        by_id["fixture__calc-1"],
        &final_preds[0],
        &tmp.join("w-grade"),
        &logs,
        "aa",
    );
    assert_eq!(r["resolved"], json!(true), "{r:#}");

    // HH: PR0 + human PR1 + gold = the gold patch; the harness resolves it.
    let (hh, _) = stack(
        &chain,
        &[Layer::HumanPr1, Layer::Gold],
        "HH",
        &mut src,
        &mut |_, _, _| {},
    );
    let hh = as_text(hh);
    assert_eq!(hh.len(), 3);
    for p in &hh {
        let r = grade(
            &repo,
            by_id[p.instance_id.as_str()],
            p,
            &tmp.join("w-grade"),
            &logs,
            "hh",
        );
        assert_eq!(r["resolved"], json!(true), "{}: {r:#}", p.instance_id);
    }
    // The HH predictions exported by build are the gold patches.
    let hh_export = load_predictions(
        &out.join("exports/predictions_HH.jsonl"),
        Default::default(),
    )
    .expect("hh");
    assert_eq!(hh_export.items.len(), 3);
    // HA: the follow-on on the human PR1 has an empty setup patch.
    let fo_h: Vec<Value> = std::fs::read_to_string(out.join("exports/follow_on_human_pr1.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    assert!(fo_h.iter().all(|r| r["setup_patch"] == json!("")));
    let _ = std::fs::remove_dir_all(&tmp);
}
