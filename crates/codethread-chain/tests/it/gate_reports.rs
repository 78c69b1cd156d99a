//! The gate reads only the reports of the stack it gates (issue 18 item 2,
//! issue 19): a mixed `logs/run_evaluation` directory with a PR1 run, a PR2
//! run and another model's PR1 run; reports of two runs that disagree;
//! reports with no evidence about the instance's tests; and the report
//! shapes swebench 4.x and 5.x write for the same test run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codethread_bench::parse_instances;
use codethread_bench::Prediction;
use codethread_bench::{
    load_reports, load_reports_dir, load_reports_selected, parse_instance_report, ReportFilter,
};
use codethread_chain::SnapshotSource;
use codethread_chain::{
    build, gate_predictions, stack_model_name, BuildOptions, BuildStatus, Chain, Layer,
};
use codethread_chain::{gate_one, GateReason};
use serde_json::{json, Value};

const IDS: [&str; 3] = ["o__r-1", "o__r-2", "o__r-3"];
const BASE: &str =
    "def f(x):\n    a = 0\n    a = 1\n    b = 2\n    return x + 1\n\n\ndef g():\n    return 2\n";
const GOLD: &str = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -4,3 +4,3 @@\n     b = 2\n-    return x + 1\n+    return x + 2\n \n";

struct Fixture {
    dir: PathBuf,
    chain: Chain,
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Three built instances; each has F2P `t::test_f_<n>` and P2P
/// `t::test_g_<n>`, `t::test_h_<n>`.
fn fixture(tag: &str) -> Fixture {
    let dir = std::env::temp_dir().join(format!("ct-gate-reports-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let snaps = dir.join("snap");
    let mut rows = String::new();
    for (n, id) in IDS.iter().enumerate() {
        let f = snaps.join(id).join("before/m.py");
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, BASE).unwrap();
        rows.push_str(
            &json!({"instance_id": id, "repo": "o/r", "base_commit": "abc", "patch": GOLD,
                "FAIL_TO_PASS": [format!("t::test_f_{n}")],
                "PASS_TO_PASS": [format!("t::test_g_{n}"), format!("t::test_h_{n}")]})
            .to_string(),
        );
        rows.push('\n');
    }
    let loaded = parse_instances(Path::new("rows.jsonl"), &rows).unwrap();
    let out = dir.join("chain");
    let s = build(
        &loaded.items,
        &mut SnapshotSource::new(&snaps),
        &BuildOptions::default().out(out.clone()),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert!(
        s.outcomes
            .iter()
            .all(|o| matches!(o.status, BuildStatus::Built { .. })),
        "{:?}",
        s.outcomes
    );
    Fixture {
        chain: Chain::open(&out, Default::default()).unwrap(),
        dir,
    }
}

/// A non-base PR1 for every instance (PR0 again: not empty, not the human PR1).
fn preds(fx: &Fixture, model: &str) -> BTreeMap<String, Prediction> {
    IDS.iter()
        .map(|id| {
            let p = String::from_utf8(fx.chain.pr0(id).unwrap()).unwrap();
            (
                id.to_string(),
                Prediction {
                    instance_id: id.to_string(),
                    model_name_or_path: model.into(),
                    model_patch: p,
                },
            )
        })
        .collect()
}

/// What the harness writes for instance `n` when the named tests passed
/// (`f2p`: the F2P test, `g`/`h`: the P2P tests).
fn report(n: usize, f2p: bool, g: bool, h: bool) -> String {
    let id = IDS[n];
    let split = |tests: &[(String, bool)]| {
        let ok: Vec<&String> = tests.iter().filter(|t| t.1).map(|t| &t.0).collect();
        let bad: Vec<&String> = tests.iter().filter(|t| !t.1).map(|t| &t.0).collect();
        json!({"success": ok, "failure": bad})
    };
    json!({id: {"patch_is_None": false, "patch_exists": true, "patch_successfully_applied": true,
        "resolved": false, "tests_status": {
            "FAIL_TO_PASS": split(&[(format!("t::test_f_{n}"), f2p)]),
            "PASS_TO_PASS": split(&[(format!("t::test_g_{n}"), g), (format!("t::test_h_{n}"), h)]),
            "FAIL_TO_FAIL": {"success": [], "failure": []},
            "PASS_TO_FAIL": {"success": [], "failure": []}}}})
    .to_string()
}

fn write(p: &Path, s: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, s).unwrap();
}

/// (kept, first reason) per instance, in id order.
fn decisions(
    fx: &Fixture,
    reports: &BTreeMap<String, codethread_bench::InstanceReport>,
) -> Vec<(bool, String)> {
    gate_predictions(&fx.chain, &preds(fx, "agent"), reports, None)
        .into_iter()
        .map(|d| {
            (
                d.kept,
                d.reasons.first().map(|r| r.to_string()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_mixed_log_directory_gives_the_decisions_of_the_gated_stack() {
    let fx = fixture("mixed");
    let runs = fx.dir.join("logs/run_evaluation");
    // The PR1 run of `agent`: 0 kept, 1 P2P regression, 2 already solved.
    let pr1 = [
        report(0, false, true, true),
        report(1, false, false, true),
        report(2, true, true, true),
    ];
    // The PR2 (AA) run of the same model under the same run id, another
    // model's PR1 run, and a rerun of the PR1 stack under another run id:
    // each decides every instance differently.
    let pr2 = [
        report(0, true, true, true),
        report(1, true, true, true),
        report(2, false, true, true),
    ];
    let other = [
        report(0, false, false, false),
        report(1, false, true, true),
        report(2, false, true, false),
    ];
    let stack = stack_model_name("agent", &[Layer::HumanPr1]);
    assert_eq!(stack, "agent__PR1");
    for n in 0..3 {
        let id = IDS[n];
        write(&runs.join(format!("pr1/{stack}/{id}/report.json")), &pr1[n]);
        write(
            &runs.join(format!("pr1/agent__AA/{id}/report.json")),
            &pr2[n],
        );
        write(
            &runs.join(format!("pr1/other__PR1/{id}/report.json")),
            &other[n],
        );
        write(
            &runs.join(format!("pr2/agent__AA/{id}/report.json")),
            &pr2[n],
        );
    }
    let want = vec![
        (true, String::new()),
        (false, "p2p_failed: [\"t::test_g_1\"]".to_string()),
        (false, "f2p_already_passing: [\"t::test_f_2\"]".to_string()),
    ];
    // By the stack's model name, from any level of the tree; by run id and
    // model; the model's own directory.
    for (root, filter) in [
        (
            runs.clone(),
            ReportFilter {
                model: Some(stack.clone()),
                run_id: None,
            },
        ),
        (
            runs.clone(),
            ReportFilter {
                model: Some(stack.clone()),
                run_id: Some("pr1".into()),
            },
        ),
        (
            runs.join("pr1"),
            ReportFilter {
                model: Some(stack.clone()),
                run_id: None,
            },
        ),
        (
            runs.join("pr1").join(&stack),
            ReportFilter {
                model: Some(stack.clone()),
                run_id: Some("pr1".into()),
            },
        ),
    ] {
        let set = load_reports_selected(std::slice::from_ref(&root), &filter, Default::default());
        assert!(set.errors.is_empty(), "{:?}", set.errors);
        assert!(set.conflicts.is_empty(), "{:?}", set.conflicts);
        let ignored = if root == runs {
            9
        } else if root.ends_with("pr1") {
            6
        } else {
            0
        };
        assert_eq!(set.ignored, ignored, "{} {filter:?}", root.display());
        assert_eq!(decisions(&fx, &set.reports), want, "{}", root.display());
        for id in IDS {
            assert_eq!(set.sources[id].len(), 1);
            assert!(set.sources[id][0].to_string_lossy().contains("agent__PR1"));
        }
    }
    // A model name with `/` is logged under `__` (swebench's rule).
    let slash = "org/agent__PR1";
    for n in 0..3 {
        write(
            &runs.join(format!("pr1/org__agent__PR1/{}/report.json", IDS[n])),
            &pr1[n],
        );
    }
    let set = load_reports_selected(
        std::slice::from_ref(&runs),
        &ReportFilter {
            model: Some(slash.into()),
            run_id: None,
        },
        Default::default(),
    );
    assert_eq!(decisions(&fx, &set.reports), want);
    assert_eq!(set.ignored, 12);
    // Without a selection the runs disagree on every instance: each is a
    // conflict naming the disagreeing reports, never decided by path order.
    let (all, errs) = load_reports(std::slice::from_ref(&runs), Default::default());
    assert!(errs.is_empty());
    for (k, (kept, why)) in decisions(&fx, &all).into_iter().enumerate() {
        assert!(!kept, "{k}");
        assert!(why.starts_with("conflicting_reports: "), "{why}");
        assert!(
            why.contains("agent__PR1") && why.contains("other__PR1"),
            "{why}"
        );
    }
}

#[test]
fn reports_of_two_runs_that_disagree_are_a_conflict_naming_both() {
    let fx = fixture("conflict");
    let runs = fx.dir.join("logs/run_evaluation");
    // (report of run a, report of run b, expected decision of instance 0)
    type Case<'a> = (String, String, Option<(bool, &'a str)>);
    let cases: Vec<Case> = vec![
        // Identical: one report, kept.
        (
            report(0, false, true, true),
            report(0, false, true, true),
            Some((true, "")),
        ),
        // Disagree on a P2P test.
        (
            report(0, false, true, true),
            report(0, false, false, true),
            None,
        ),
        // Disagree on the F2P test, the other way round in path order.
        (
            report(0, true, true, true),
            report(0, false, true, true),
            None,
        ),
        // Same tests, one run says the patch did not apply.
        (
            report(0, false, true, true),
            json!({IDS[0]: {"patch_is_None": false, "patch_exists": true,
                "patch_successfully_applied": false, "resolved": false}})
            .to_string(),
            None,
        ),
    ];
    for (k, (a, b, want)) in cases.into_iter().enumerate() {
        let _ = std::fs::remove_dir_all(&runs);
        let pa = runs.join(format!("a/agent__PR1/{}/report.json", IDS[0]));
        let pb = runs.join(format!("b/agent__PR1/{}/report.json", IDS[0]));
        write(&pa, &a);
        write(&pb, &b);
        let filter = ReportFilter {
            model: Some("agent__PR1".into()),
            run_id: None,
        };
        // As a directory and as two files named one by one, in both orders.
        for paths in [
            vec![runs.clone()],
            vec![pa.clone(), pb.clone()],
            vec![pb.clone(), pa.clone()],
        ] {
            let set = load_reports_selected(&paths, &filter, Default::default());
            let d = &decisions(&fx, &set.reports)[0];
            match want {
                Some((kept, why)) => {
                    assert_eq!((d.0, d.1.as_str()), (kept, why), "case {k}");
                    assert!(set.conflicts.is_empty());
                }
                None => {
                    assert!(!d.0, "case {k}");
                    assert!(d.1.starts_with("conflicting_reports"), "case {k}: {}", d.1);
                    for p in [&pa, &pb] {
                        assert!(d.1.contains(&p.display().to_string()), "case {k}: {}", d.1);
                    }
                    assert_eq!(set.conflicts[IDS[0]].len(), 2);
                }
            }
        }
        // The plain directory loader flags it too.
        let (m, _) = load_reports_dir(&runs, Default::default()).unwrap();
        let d = &decisions(&fx, &m)[0];
        assert_eq!(
            d.1.starts_with("conflicting_reports"),
            want.is_none(),
            "case {k}"
        );
    }
}

#[test]
fn a_report_without_evidence_about_the_listed_tests_is_no_tests_status() {
    let fx = fixture("evidence");
    let logs = fx.dir.join("logs/run_evaluation/pr1/agent__PR1");
    let head = |ts: Value| {
        json!({IDS[0]: {"patch_is_None": false, "patch_exists": true,
            "patch_successfully_applied": true, "resolved": false, "tests_status": ts}})
        .to_string()
    };
    let empty = json!({"success": [], "failure": []});
    let cases = [
        head(json!({})),
        head(json!([])),
        head(json!("FAIL_TO_PASS")),
        // Misspelled keys: the lists are never read.
        head(json!({"FAIL_TO_PAS": {"success": [], "failure": ["t::test_f_0"]},
            "pass_to_pass": {"success": ["t::test_g_0", "t::test_h_0"], "failure": []}})),
        // Every category empty.
        head(json!({"FAIL_TO_PASS": empty, "PASS_TO_PASS": empty,
            "FAIL_TO_FAIL": empty, "PASS_TO_FAIL": empty})),
        // Names only another instance's tests.
        head(json!({"FAIL_TO_PASS": {"success": [], "failure": ["t::test_f_1"]},
            "PASS_TO_PASS": {"success": ["t::test_g_1"], "failure": []}})),
        // The F2P test under PASS_TO_PASS and the P2P tests under FAIL_TO_PASS.
        head(json!({"FAIL_TO_PASS": {"success": ["t::test_g_0"], "failure": []},
            "PASS_TO_PASS": {"success": [], "failure": ["t::test_f_0"]}})),
        // The same from a run_instance.log `report:` line.
        format!(
            "2026-01-01 00:00:00,000 - INFO - report: {{'{}': {{'patch_is_None': False, 'patch_exists': True, 'patch_successfully_applied': True, 'resolved': False, 'tests_status': {{}}}}}}\n",
            IDS[0]
        ),
    ];
    for (k, text) in cases.iter().enumerate() {
        let _ = std::fs::remove_dir_all(&logs);
        let name = if text.starts_with('{') {
            "report.json"
        } else {
            "run_instance.log"
        };
        write(&logs.join(IDS[0]).join(name), text);
        let (m, errs) = load_reports_dir(&logs, Default::default()).unwrap();
        assert!(errs.is_empty(), "case {k}: {errs:?}");
        let d = &decisions(&fx, &m)[0];
        assert_eq!(
            (d.0, d.1.as_str()),
            (false, "no_tests_status"),
            "case {k}: {text}"
        );
    }
    // Evidence about one listed test is enough (here: the F2P test alone, still failing).
    let one = head(
        json!({"FAIL_TO_PASS": {"success": [], "failure": ["t::test_f_0"]},
        "PASS_TO_PASS": empty}),
    );
    let r = parse_instance_report(Path::new("report.json"), &one).unwrap();
    let d = gate_one(
        IDS[0],
        r.first(),
        &["t::test_f_0".into()],
        &["t::test_g_0".into()],
    );
    assert!(d.kept, "{d:?}");
    // Unknown lists (an instance without them): any named test is evidence, none is not.
    assert!(gate_one(IDS[0], r.first(), &[], &[]).kept);
    let r = parse_instance_report(Path::new("report.json"), &head(json!({}))).unwrap();
    assert_eq!(
        gate_one(IDS[0], r.first(), &[], &[]).reasons,
        vec![GateReason::NoTestsStatus]
    );
}

/// Issue 33: `gate_run` reads a SWE-bench Pro output directory
/// (`<instance_id>/<prefix>_output.json`, the parser's `{"tests": [...]}`)
/// for the stack's prefix (`<model>__PR1`), decides each PR1 by the
/// instance's own lists as Pro's evaluator does (`PASSED` only), leaves
/// another prefix's outputs out and names it, and never takes
/// `eval_results.json` (one flag per instance) as test evidence.
#[test]
fn pro_output_directories_feed_the_gate() {
    let fx = fixture("pro");
    let pro = fx.dir.join("pro-out");
    let out = |id: &str, prefix: &str, tests: Value| {
        let d = pro.join(id);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join(format!("{prefix}_output.json")),
            json!({"tests": tests}).to_string(),
        )
        .unwrap();
        std::fs::write(d.join(format!("{prefix}_patch.diff")), "x").unwrap();
    };
    let t = |name: &str, status: &str| json!({"name": name, "status": status});
    // o__r-1: P2P pass, F2P fails: kept.
    out(
        "o__r-1",
        "agent__PR1",
        json!([
            t("t::test_f_0", "FAILED"),
            t("t::test_g_0", "PASSED"),
            t("t::test_h_0", "PASSED")
        ]),
    );
    // o__r-2: a P2P test failed: dropped.
    out(
        "o__r-2",
        "agent__PR1",
        json!([
            t("t::test_f_1", "FAILED"),
            t("t::test_g_1", "FAILED"),
            t("t::test_h_1", "PASSED")
        ]),
    );
    // o__r-3: only another stack's output (a PR2 prefix): no report.
    out(
        "o__r-3",
        "agent__HA",
        json!([
            t("t::test_f_2", "PASSED"),
            t("t::test_g_2", "PASSED"),
            t("t::test_h_2", "PASSED")
        ]),
    );
    std::fs::write(pro.join("eval_results.json"), r#"{"o__r-3": true}"#).unwrap();
    let preds: Vec<Prediction> = IDS
        .iter()
        .map(|id| Prediction {
            instance_id: (*id).into(),
            model_name_or_path: "agent".into(),
            model_patch: "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    raise NotImplementedError\n+    return x + 1\n".into(),
        })
        .collect();
    let run = codethread_chain::gate_run(
        &fx.chain,
        &preds,
        std::slice::from_ref(&pro),
        &codethread_chain::GateRunOptions::default(),
        None,
    );
    assert_eq!(run.stack_model.as_deref(), Some("agent__PR1"));
    let by: BTreeMap<&str, &codethread_chain::GateDecision> = run
        .decisions
        .iter()
        .map(|d| (d.instance_id.as_str(), d))
        .collect();
    assert!(by["o__r-1"].kept, "{:?}", by["o__r-1"]);
    assert!(!by["o__r-2"].kept);
    assert!(
        matches!(&by["o__r-2"].reasons[..], [GateReason::P2pFailed(t)] if t == &["t::test_g_1".to_string()])
    );
    assert_eq!(by["o__r-3"].reasons, [GateReason::NoReport]);
    assert!(
        run.warnings.iter().any(|w| w.contains("ignored 1")),
        "{:?}",
        run.warnings
    );
}

/// FeatBench's own evaluator output (`fixtures/featbench/eval`: FeatBench's
/// `AgentManager.evaluate` with an oracle, a no-op, a regressing and a crashing agent on real
/// rows) read as reports: the gate's decision on every record equals the decision worked out
/// from FeatBench's passed lists (`decisions.json`: kept iff every PASS_TO_PASS test passed and
/// no FAIL_TO_PASS test did; a failed run keeps nothing). One run per file, as a user gives
/// the gate: the records of each agent apart; two agents in one file are a named conflict.
#[test]
fn featbench_evaluation_results_gate_as_featbench_decides() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/featbench/eval");
    let decisions: Value =
        serde_json::from_slice(&std::fs::read(dir.join("decisions.json")).unwrap()).unwrap();
    let scratch = std::env::temp_dir().join(format!("ct-featbench-gate-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).unwrap();
    let mut checked = 0;
    for file in [
        "evaluation_results.json",
        "evaluation_results_native.json",
        "evaluation_results_perfile.json",
    ] {
        let records: Vec<Value> =
            serde_json::from_slice(&std::fs::read(dir.join(file)).unwrap()).unwrap();
        let mut by_agent: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for r in &records {
            by_agent
                .entry(r["agent"].as_str().unwrap().to_string())
                .or_default()
                .push(r.clone());
        }
        for (agent, recs) in &by_agent {
            // Repeated records (the paper-era writer appends) are one report.
            let mut doubled = recs.clone();
            doubled.extend(recs.iter().cloned());
            let p = scratch.join(format!("{agent}.json"));
            std::fs::write(&p, serde_json::to_vec(&doubled).unwrap()).unwrap();
            let (reports, errors) = load_reports(&[p], Default::default());
            assert!(errors.is_empty(), "{file} {agent}: {errors:?}");
            for r in recs {
                let id = r["instance_id"].as_str().unwrap();
                let list = |k: &str| -> Vec<String> {
                    r[k].as_array()
                        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                        .unwrap_or_default()
                };
                let d = gate_one(
                    id,
                    reports.get(id),
                    &list("expected_f2p_tests"),
                    &list("expected_p2p_tests"),
                );
                let want = &decisions[format!("{file}:{id}:{agent}")];
                assert_eq!(
                    d.kept,
                    want["gate"] == "kept",
                    "{file}:{id}:{agent}: gate {:?}, FeatBench's lists say {}",
                    d.reasons,
                    want
                );
                checked += 1;
            }
        }
        // Every agent of the file at once: each instance's reports disagree, a named conflict.
        let (reports, _) = load_reports(&[dir.join(file)], Default::default());
        for r in &records {
            let id = r["instance_id"].as_str().unwrap();
            let d = gate_one(id, reports.get(id), &[], &[]);
            assert!(
                matches!(d.reasons.first(), Some(GateReason::ConflictingReports(_))),
                "{file}:{id}: {:?}",
                d.reasons
            );
        }
    }
    std::fs::remove_dir_all(&scratch).unwrap();
    assert_eq!(checked, 24);
}
