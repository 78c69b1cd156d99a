//! Dataset, prediction and report imports on the real files in shared/swebench.

use std::collections::BTreeMap;
use std::path::Path;

use codethread_bench::{load_instances, parse_instances, DatasetFormat, Instance};
use codethread_bench::{load_predictions, parse_predictions};
use codethread_bench::{load_reports_from_log, load_run_report, RunStatus};
use serde_json::Value;

fn by_id(v: Vec<Instance>) -> BTreeMap<String, Instance> {
    v.into_iter().map(|i| (i.instance_id.clone(), i)).collect()
}

/// A reference JSONL file, every line parsed: a missing or broken reference
/// fails the test instead of leaving nothing to compare with.
fn json_lines(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", p.display(), i + 1))
        })
        .collect()
}

/// A reference JSON file (a missing or broken reference fails the test).
fn json_file(p: &Path) -> Value {
    let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A count field of a reference report (must be present).
fn count(v: &Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("reference has no count `{key}`"))
}

/// Verified stores test lists as JSON-encoded strings; chains/dev/instances.jsonl
/// holds the same rows normalized independently (json.loads). They must agree.
#[test]
fn verified_and_multilingual_match_dev_normalization() {
    let Some(sw) = codethread_testkit::shared_path("swebench/swebench_datasets") else {
        return;
    };
    let Some(dev) = codethread_testkit::shared_path("chains/dev/instances.jsonl") else {
        return;
    };
    let ver = load_instances(
        &sw.join("SWE-bench_Verified.test.jsonl"),
        Default::default(),
    )
    .expect("verified");
    assert_eq!(ver.items.len(), 500);
    assert!(ver.errors.is_empty(), "{:?}", ver.errors.first());
    assert!(ver
        .items
        .iter()
        .all(|i| i.source_format == DatasetFormat::SweBench));
    let ml = load_instances(
        &sw.join("SWE-bench_Multilingual.test.jsonl"),
        Default::default(),
    )
    .expect("ml");
    assert_eq!(ml.items.len(), 300);
    assert!(ml.errors.is_empty());
    assert!(ml
        .items
        .iter()
        .all(|i| i.source_format == DatasetFormat::SweBenchLists));
    let (ver, ml) = (by_id(ver.items), by_id(ml.items));
    let dev_rows = load_instances(&dev, Default::default()).expect("dev");
    assert_eq!(dev_rows.items.len(), 41);
    let mut compared = 0;
    for d in &dev_rows.items {
        let src = ver
            .get(&d.instance_id)
            .or_else(|| ml.get(&d.instance_id))
            .expect("dev id in a dataset");
        assert_eq!(src.fail_to_pass, d.fail_to_pass, "{}", d.instance_id);
        assert_eq!(src.pass_to_pass, d.pass_to_pass, "{}", d.instance_id);
        assert_eq!(src.patch, d.patch);
        assert_eq!(src.base_commit, d.base_commit);
        compared += 1;
    }
    assert_eq!(compared, 41);
    // Unknown columns are kept, not rejected.
    let v = ver.get("astropy__astropy-12907").expect("row");
    assert!(v.extra.contains_key("difficulty") && v.extra.contains_key("eval_script"));
    assert!(v.environment_setup_commit.is_some());
    // Counts against the raw JSON (the string decoded by serde_json here, independently).
    let raw = json_lines(&sw.join("SWE-bench_Verified.test.jsonl"));
    for r in &raw {
        let id = r["instance_id"].as_str().unwrap_or_default();
        let f2p: Vec<String> =
            serde_json::from_str(r["FAIL_TO_PASS"].as_str().expect("FAIL_TO_PASS string"))
                .expect("the reference FAIL_TO_PASS is a JSON list");
        assert_eq!(ver[id].fail_to_pass, f2p);
    }
}

#[test]
fn small_verified_files_and_multilingual_sample() {
    let Some(sw) = codethread_testkit::shared_path("swebench") else {
        return;
    };
    let mini = load_instances(
        &sw.join("swebench_verified_mini50.jsonl"),
        Default::default(),
    )
    .expect("mini");
    assert_eq!((mini.items.len(), mini.errors.len()), (50, 0));
    let sub = load_instances(
        &sw.join("swebench_datasets/verified_v5_subset.jsonl"),
        Default::default(),
    )
    .expect("subset");
    assert_eq!((sub.items.len(), sub.errors.len()), (126, 0));
    let sample = load_instances(
        &sw.join("swebench_datasets/multilingual_sample_5_per_language.jsonl"),
        Default::default(),
    )
    .expect("s");
    assert_eq!((sample.items.len(), sample.errors.len()), (40, 0));
    let mut langs: Vec<String> = sample
        .items
        .iter()
        .filter_map(|i| i.language.clone())
        .collect();
    langs.sort();
    langs.dedup();
    assert_eq!(langs.len(), 8, "{langs:?}");
}

/// SWE-bench Pro run-script info rows; counts checked against the independent
/// 1000-instance index.
#[test]
fn pro_sample_matches_index() {
    let Some(pro) = codethread_testkit::shared_path("swebench/swebench_pro") else {
        return;
    };
    let l = load_instances(
        &pro.join("pro_sample_instances_with_outcomes.json"),
        Default::default(),
    )
    .expect("pro");
    assert_eq!((l.items.len(), l.errors.len()), (44, 0));
    let idx: Value = json_file(&pro.join("pro_instance_index_1000.json"));
    let idx: BTreeMap<String, &Value> = idx["index"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|r| Some((r["instance_id"].as_str()?.to_string(), r)))
                .collect()
        })
        .unwrap_or_default();
    let mut checked = 0;
    for i in &l.items {
        assert_eq!(i.source_format, DatasetFormat::SweBenchProInfo);
        assert!(i.extra.contains_key("resolved_by_run"));
        if let Some(r) = idx.get(&i.instance_id) {
            assert_eq!(
                Some(i.fail_to_pass.len() as u64),
                r["n_fail_to_pass"].as_u64(),
                "{}",
                i.instance_id
            );
            assert_eq!(
                Some(i.pass_to_pass.len() as u64),
                r["n_pass_to_pass"].as_u64()
            );
            assert_eq!(Some(i.base_commit.as_str()), r["base_commit"].as_str());
            assert_eq!(Some(i.repo.as_str()), r["repo"].as_str());
            checked += 1;
        }
    }
    assert!(checked >= 40, "{checked}");
}

/// SWE-bench Pro HF rows: lowercase keys, Python-literal lists. Built from a
/// real Pro sample row's tests rendered the way Python's repr() renders them.
#[test]
fn pro_hf_python_literal_lists() {
    let row = r#"{"repo": "NodeBB/NodeBB", "instance_id": "x", "base_commit": "abc", "patch": "", "test_patch": "",
      "problem_statement": "p", "requirements": "req", "interface": "iface", "repo_language": "js",
      "fail_to_pass": "['test/a.js | it\\'s ok', \"test/b.js | say \\\"hi\\\"\"]", "pass_to_pass": "[]",
      "issue_specificity": "[\"x\"]"}"#;
    let l = parse_instances(Path::new("pro.json"), row).expect("parse");
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    let i = &l.items[0];
    assert_eq!(i.source_format, DatasetFormat::SweBenchPro);
    assert_eq!(
        i.fail_to_pass,
        vec![
            "test/a.js | it's ok".to_string(),
            "test/b.js | say \"hi\"".to_string()
        ]
    );
    assert!(i.pass_to_pass.is_empty());
    assert_eq!(
        (
            i.requirements.as_deref(),
            i.interface.as_deref(),
            i.language.as_deref()
        ),
        (Some("req"), Some("iface"), Some("js"))
    );
    assert!(i.extra.contains_key("issue_specificity"));
}

/// Multi-SWE-bench Java gold rows; base commits checked against the joined file.
#[test]
fn multi_swe_bench_java() {
    let Some(j) = codethread_testkit::shared_path("swebench/java_swebench_java_v0") else {
        return;
    };
    let l = load_instances(
        &j.join("gold_multiswebench_java_50.jsonl"),
        Default::default(),
    )
    .expect("java");
    assert_eq!((l.items.len(), l.errors.len()), (50, 0));
    let joined: Value = json_file(&j.join("java_joined_outcomes.json"));
    let raw = json_lines(&j.join("gold_multiswebench_java_50.jsonl"));
    for (i, r) in l.items.iter().zip(&raw) {
        assert_eq!(i.source_format, DatasetFormat::MultiSweBench);
        assert_eq!(
            Some(i.base_commit.as_str()),
            joined["instances"][&i.instance_id]["base_sha"].as_str()
        );
        assert_eq!(
            Some(i.repo.as_str()),
            joined["instances"][&i.instance_id]["repo"].as_str()
        );
        assert!(i.patch.starts_with("diff --git"));
        let n = ["f2p_tests", "s2p_tests", "n2p_tests"]
            .iter()
            .flat_map(|k| {
                r[*k]
                    .as_object()
                    .map(|m| m.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
            })
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        assert_eq!(i.fail_to_pass.len(), n);
        assert_eq!(
            i.pass_to_pass.len(),
            r["p2p_tests"].as_object().map_or(0, |m| m.len())
        );
    }
}

/// FeatBench: per-file patch objects and comma-separated tests. The diff we
/// build must be accepted by the real `git apply`.
#[test]
fn featbench_per_file_patch_applies_with_git() {
    let row = serde_json::json!({
        "repo": "o/r", "instance_id": "o__r-1", "base_commit": "c0", "problem_statement": "add feature",
        "patch": [
            {"filename": "pkg/a.py", "status": "modified", "additions": 1, "deletions": 1,
             "patch": "@@ -1,3 +1,3 @@\n def f():\n-    return 1\n+    return 2\n \n"},
            {"filename": "pkg/new.py", "status": "added", "patch": "@@ -0,0 +1 @@\n+X = 1"}
        ],
        "FAIL_TO_PASS": "tests/test_a.py::test_f[1,2], tests/test_a.py::test_g",
        "PASS_TO_PASS": "",
        "processed": true
    });
    let l = parse_instances(Path::new("featbench.jsonl"), &row.to_string()).expect("parse");
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    let i = &l.items[0];
    assert_eq!(i.source_format, DatasetFormat::FeatBench);
    assert_eq!(
        i.fail_to_pass,
        vec!["tests/test_a.py::test_f[1,2]", "tests/test_a.py::test_g"]
    );
    assert!(i.pass_to_pass.is_empty());
    let dir = std::env::temp_dir().join(format!("ct-chain-featbench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pkg")).expect("mkdir");
    std::fs::write(dir.join("pkg/a.py"), "def f():\n    return 1\n\n").expect("write");
    std::fs::write(dir.join("p.diff"), &i.patch).expect("write");
    let st = std::process::Command::new("git")
        .args(["apply", "p.diff"])
        .current_dir(&dir)
        .output()
        .expect("git");
    assert!(
        st.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&st.stderr),
        i.patch
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("pkg/a.py")).unwrap_or_default(),
        "def f():\n    return 2\n\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("pkg/new.py")).unwrap_or_default(),
        "X = 1\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_rows_are_named_and_do_not_stop_the_batch() {
    let text = concat!(
        "{\"instance_id\": \"a\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": [], \"PASS_TO_PASS\": [], \"new_field\": 1}\n",
        "{\"instance_id\": \"b\", \"repo\": \"o/r\", \"patch\": \"\", \"FAIL_TO_PASS\": \"[]\", \"PASS_TO_PASS\": \"[]\"}\n",
        "{broken\n",
        "{\"instance_id\": \"d\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": \"[oops\", \"PASS_TO_PASS\": \"[]\"}\n",
        "{\"instance_id\": \"e\", \"repo\": \"o/r\", \"base_commit\": \"c\", \"patch\": \"\", \"FAIL_TO_PASS\": \"[]\", \"PASS_TO_PASS\": \"[]\"}\n",
    );
    let l = parse_instances(Path::new("in.jsonl"), text).expect("parse");
    assert_eq!(
        l.items
            .iter()
            .map(|i| i.instance_id.as_str())
            .collect::<Vec<_>>(),
        vec!["a", "e"]
    );
    assert!(l.items[0].extra.contains_key("new_field"));
    let msgs: Vec<String> = l.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(msgs.len(), 3);
    assert!(
        matches!(&l.errors[0], codethread_bench::BenchError::MissingField { line: 2, instance_id, field, .. } if instance_id == "b" && field == "base_commit"),
        "{}",
        msgs[0]
    );
    assert!(
        matches!(
            &l.errors[1],
            codethread_bench::BenchError::Json { line: 3, .. }
        ),
        "{}",
        msgs[1]
    );
    assert!(
        matches!(&l.errors[2], codethread_bench::BenchError::BadField { line: 4, field, .. } if field == "FAIL_TO_PASS"),
        "{}",
        msgs[2]
    );
    assert!(
        msgs[0].contains("in.jsonl:2")
            && msgs[0].contains("base_commit")
            && msgs[0].contains(" b:")
    );
}

#[test]
fn predictions_in_every_shape() {
    let Some(sw) = codethread_testkit::shared_path("swebench") else {
        return;
    };
    // Plain JSONL (TDAD), empty patches included.
    let p = load_predictions(
        &sw.join("tdad_qwen_mini_verified_first100/exp011_baseline_preds.jsonl"),
        Default::default(),
    )
    .expect("p");
    assert_eq!((p.items.len(), p.errors.len()), (100, 0));
    let raw = json_lines(&sw.join("tdad_qwen_mini_verified_first100/exp011_baseline_preds.jsonl"));
    let empty = raw
        .iter()
        .filter(|r| r["model_patch"].as_str().is_some_and(str::is_empty))
        .count();
    assert_eq!(
        p.items.iter().filter(|x| x.model_patch.is_empty()).count(),
        empty
    );
    // OmniCode SWE-agent: model_patch is a nested prediction object.
    let o = load_predictions(
        &sw.join("agent_preds_verified/omnicode_sweagent_claude-sonnet-4-6_python_bugfixing.jsonl"),
        Default::default(),
    )
    .expect("o");
    assert_eq!((o.items.len(), o.errors.len()), (20, 0));
    let raw = json_lines(
        &sw.join("agent_preds_verified/omnicode_sweagent_claude-sonnet-4-6_python_bugfixing.jsonl"),
    );
    for (x, r) in o.items.iter().zip(&raw) {
        assert_eq!(
            x.model_patch.as_str(),
            r["model_patch"]["model_patch"].as_str().unwrap_or(""),
            "nested null patch = empty"
        );
        assert_eq!(
            Some(x.model_name_or_path.as_str()),
            r["model_name_or_path"].as_str()
        );
    }
    let h = load_predictions(
        &sw.join("agent_preds_verified/omnicode_openhands_sdk_python_bugfixing_all_preds.jsonl"),
        Default::default(),
    )
    .expect("h");
    assert_eq!((h.items.len(), h.errors.len()), (19, 0));
    // SWE-agent Java: null patches and a leading newline.
    let j = load_predictions(
        &sw.join("java_swebench_java_v0/20240825_SWE-agent_gpt-4o-2024-05-13/all_preds.jsonl"),
        Default::default(),
    )
    .expect("j");
    assert_eq!((j.items.len(), j.errors.len()), (85, 0));
    let raw = json_lines(
        &sw.join("java_swebench_java_v0/20240825_SWE-agent_gpt-4o-2024-05-13/all_preds.jsonl"),
    );
    let nulls = raw.iter().filter(|r| r["model_patch"].is_null()).count();
    assert!(nulls > 0);
    assert_eq!(
        j.items.iter().filter(|x| x.model_patch.is_empty()).count(),
        nulls
            + raw
                .iter()
                .filter(|r| r["model_patch"].as_str() == Some(""))
                .count()
    );
    // mini-swe-agent preds.json: a dict keyed by id; and a JSON list.
    let d = parse_predictions(Path::new("preds.json"), r#"{"a__b-1": {"model_name_or_path": "m", "instance_id": "a__b-1", "model_patch": "diff"}, "a__b-2": {"model_name_or_path": "m", "model_patch": null}}"#).expect("d");
    assert_eq!(d.items.len(), 2);
    assert_eq!(d.items[1].instance_id, "a__b-2");
    let l = parse_predictions(Path::new("preds.json"), r#"[{"instance_id": "x", "model_name_or_path": "m", "model_patch": "p"}, {"model_patch": "q"}]"#).expect("l");
    assert_eq!(l.items.len(), 1);
    assert!(
        matches!(&l.errors[0], codethread_bench::BenchError::MissingField { line: 1, field, .. } if field == "instance_id")
    );
}

#[test]
fn run_reports_both_schemas() {
    let Some(sw) = codethread_testkit::shared_path("swebench") else {
        return;
    };
    let gold = load_run_report(
        &sw.join("harness_output_samples/swebench_final_report_gold.fresh-verified.json"),
        Default::default(),
    )
    .expect("gold");
    assert_eq!(gold.schema_version, Some(2));
    assert_eq!(gold.resolved_ids.len(), 500);
    assert_eq!(gold.status("astropy__astropy-12907"), RunStatus::Resolved);
    let t = load_run_report(
        &sw.join("tdad_qwen_mini_verified_first100/exp011_baseline_harness_report.json"),
        Default::default(),
    )
    .expect("t");
    let raw: Value =
        json_file(&sw.join("tdad_qwen_mini_verified_first100/exp011_baseline_harness_report.json"));
    assert_eq!(
        t.resolved_ids.len() as u64,
        count(&raw, "resolved_instances")
    );
    assert_eq!(
        t.empty_patch_ids.len() as u64,
        count(&raw, "empty_patch_instances")
    );
    assert_eq!(t.status("astropy__astropy-12907"), RunStatus::EmptyPatch);
    assert_eq!(t.status("django__django-13128"), RunStatus::Incomplete);
    // Older schema: `resolved` instead of `resolved_ids`.
    let j = load_run_report(
        &sw.join("java_swebench_java_v0/20240825_SWE-agent_deepseek-chat-v2/results/results.json"),
        Default::default(),
    )
    .expect("j");
    let raw: Value = json_file(
        &sw.join("java_swebench_java_v0/20240825_SWE-agent_deepseek-chat-v2/results/results.json"),
    );
    assert_eq!(
        j.resolved_ids.len() as u64,
        count(&raw, "resolved_instances")
    );
    assert_eq!(j.status("google__gson-1787"), RunStatus::Error);
    // The per-instance outcomes agree with the joined outcome file.
    let joined: Value = json_file(&sw.join("java_swebench_java_v0/java_joined_outcomes.json"));
    let mut n = 0;
    for (id, v) in joined["instances"].as_object().into_iter().flatten() {
        if let Some(s) = v["runs"]["20240825_SWE-agent_deepseek-chat-v2"]["status"].as_str() {
            let mine = serde_json::to_value(j.status(id)).unwrap_or_default();
            if s == "resolved" || s == "unresolved" || s == "not_submitted" {
                assert_eq!(mine.as_str(), Some(s), "{id}");
                n += 1;
            }
        }
    }
    assert!(n >= 40, "{n}");
}

/// The harness's run_instance.log carries the per-instance report as a Python dict.
#[test]
fn report_from_run_instance_log() {
    let Some(log) = codethread_testkit::shared_path(
        "swebench/java_swebench_java_v0/sample_run_instance_gpt4o_dubbo-10638.log",
    ) else {
        return;
    };
    let r = load_reports_from_log(&log, Default::default()).expect("log");
    assert_eq!(r.len(), 1);
    let r = &r[0];
    assert_eq!(r.instance_id, "apache__dubbo-10638");
    assert!(r.patch_successfully_applied && r.patch_exists && !r.resolved);
    let ts = r.tests_status.as_ref().expect("tests_status");
    assert_eq!(
        ts.fail_to_pass.failure,
        vec!["dubbo-common:org.apache.dubbo.common.utils.PojoUtilsTest".to_string()]
    );
    assert!(ts.pass_to_pass.success.is_empty());
    let d = codethread_chain::gate_one(&r.instance_id, Some(r), &[], &[]);
    assert!(d.kept, "F2P still failing, no P2P: kept");
}

/// The parquet originals load to exactly the same instances as their JSONL
/// conversions (Verified: test lists as JSON strings; Multilingual: list columns).
#[cfg(feature = "parquet")]
#[test]
fn parquet_equals_jsonl() {
    let Some(sw) = codethread_testkit::shared_path("swebench/swebench_datasets") else {
        return;
    };
    for name in ["SWE-bench_Verified.test", "SWE-bench_Multilingual.test"] {
        let pq = load_instances(&sw.join(format!("{name}.parquet")), Default::default())
            .expect("parquet");
        let js =
            load_instances(&sw.join(format!("{name}.jsonl")), Default::default()).expect("jsonl");
        assert!(pq.errors.is_empty(), "{:?}", pq.errors.first());
        assert_eq!(pq.items.len(), js.items.len());
        for (a, b) in pq.items.iter().zip(&js.items) {
            assert_eq!(a.instance_id, b.instance_id);
            assert_eq!(
                (&a.patch, &a.test_patch, &a.base_commit),
                (&b.patch, &b.test_patch, &b.base_commit)
            );
            assert_eq!(
                (&a.fail_to_pass, &a.pass_to_pass),
                (&b.fail_to_pass, &b.pass_to_pass),
                "{}",
                a.instance_id
            );
            assert_eq!(a.source_format, b.source_format);
            assert_eq!(a.problem_statement, b.problem_statement);
        }
    }
}

/// SWE-bench Pro eval_results ({id: bool}) per run agree with the per-instance
/// flags of the independently joined sample file; run reports give flags too.
#[test]
fn resolved_flags_from_pro_eval_results_and_run_reports() {
    let Some(pro) = codethread_testkit::shared_path("swebench/swebench_pro") else {
        return;
    };
    let runs: Value = json_file(&pro.join("pro_eval_results_9runs.json"));
    let sample: Value = json_file(&pro.join("pro_sample_instances_with_outcomes.json"));
    let dir = std::env::temp_dir().join(format!("ct-chain-pro-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let mut compared = 0;
    for (run, results) in runs["runs"].as_object().into_iter().flatten() {
        let f = dir.join(format!("{run}.json"));
        std::fs::write(&f, results.to_string()).expect("write");
        let flags = codethread_bench::load_resolved(&f, Default::default()).expect("flags");
        assert_eq!(flags.len(), results.as_object().map_or(0, |m| m.len()));
        for (id, inst) in sample["instances"].as_object().into_iter().flatten() {
            if let Some(b) = inst["resolved_by_run"][run].as_bool() {
                assert_eq!(flags.get(id), Some(&b), "{run} {id}");
                compared += 1;
            }
        }
    }
    assert!(compared > 100, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
    let Some(t) = codethread_testkit::shared_path(
        "swebench/tdad_qwen_mini_verified_first100/exp011_baseline_harness_report.json",
    ) else {
        return;
    };
    let flags = codethread_bench::load_resolved(&t, Default::default()).expect("flags");
    let raw: Value = json_file(&t);
    assert_eq!(
        flags.values().filter(|b| **b).count() as u64,
        count(&raw, "resolved_instances")
    );
    assert_eq!(flags.get("astropy__astropy-12907"), Some(&false));
}

#[test]
fn instance_ids_that_would_leave_their_directory_are_refused() {
    let row = |id: &str| {
        serde_json::json!({"instance_id": id, "repo": "o/r", "base_commit": "c", "patch": "",
            "FAIL_TO_PASS": [], "PASS_TO_PASS": []})
        .to_string()
    };
    let ids = ["../escape", "a/b", "a\\b", "..", "", "ok__repo-1"];
    let text: String = ids.iter().map(|id| row(id) + "\n").collect();
    let l = parse_instances(Path::new("ids.jsonl"), &text).expect("parse");
    assert_eq!(
        l.items
            .iter()
            .map(|i| i.instance_id.as_str())
            .collect::<Vec<_>>(),
        vec!["ok__repo-1"]
    );
    assert_eq!(l.errors.len(), 5);
    for (e, line) in l.errors.iter().zip(1..) {
        assert!(
            matches!(e, codethread_bench::BenchError::BadField { line: l, field, .. } if *l == line && field == "instance_id"),
            "{e}"
        );
        assert!(e.to_string().contains(&format!("ids.jsonl:{line}")), "{e}");
    }
}
