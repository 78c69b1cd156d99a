//! The drift and compounding judges: requests, strict answers, IEC import,
//! Cohen's κ, the compounding table and the deterministic survival check.

use std::collections::{BTreeMap, BTreeSet};

use codethread_judge::judge::*;

fn item() -> DriftItem {
    DriftItem {
        benchmark: "verified".into(),
        model: "org/model-7b.v2".into(),
        instance_id: "o__r-1".into(),
        language: "python".into(),
        targets: vec![
            DriftTarget {
                target_id: "m.py::f".into(),
                human: "def f(x):\n    return x + 1\n".into(),
                agent: "def f(x):\n    if x is None:\n        raise ValueError\n    return x + 1\n"
                    .into(),
            },
            DriftTarget {
                target_id: "m.py::g".into(),
                human: "def g():\n    return 2\n".into(),
                agent: "def g():\n    return 2\n".into(),
            },
        ],
        outside_edits: vec![],
        files: vec![],
    }
}

#[test]
fn taxonomy_is_ten_categories_in_three_groups_plus_two() {
    let drift: Vec<_> = TAXONOMY
        .iter()
        .filter(|c| c.group != Group::NoDrift)
        .collect();
    assert_eq!(drift.len(), 10);
    let groups: BTreeSet<Group> = drift.iter().map(|c| c.group).collect();
    assert_eq!(groups.len(), 3);
    let none: Vec<&str> = TAXONOMY
        .iter()
        .filter(|c| c.group == Group::NoDrift)
        .map(|c| c.code)
        .collect();
    assert_eq!(none, vec!["EQUIVALENT", "STYLE"]);
    let codes: BTreeSet<&str> = TAXONOMY.iter().map(|c| c.code).collect();
    assert_eq!(codes.len(), 12);
}

#[test]
fn drift_request_and_strict_answers() {
    let it = item();
    let r = serde_json::to_value(drift_request(&it)).expect("json");
    let id = r["custom_id"].as_str().expect("id");
    assert!(
        id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-'),
        "{id}"
    );
    let user = r["messages"][1]["content"].as_str().expect("user");
    assert!(user.contains("raise ValueError") && user.contains("m.py::g"));
    let sys = r["messages"][0]["content"].as_str().expect("sys");
    assert!(TAXONOMY.iter().all(|c| sys.contains(c.code)));
    assert_eq!(r["metadata"]["model"], "org/model-7b.v2");
    let good = r#"```json
{"targets": [{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED"], "rationale": "rejects None"},
             {"target_id": "m.py::g", "labels": ["EQUIVALENT"], "rationale": "same"}]}
```"#;
    let labels = parse_drift_answer(&it, good).expect("good");
    let rec = drift_record(&it, labels);
    assert!(rec.iec);
    assert!(rec.targets[0].drifted() && !rec.targets[1].drifted());
    for bad in [
        r#"{"targets": [{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED"], "rationale": "x"}]}"#,
        r#"{"targets": [{"target_id": "m.py::f", "labels": ["NEW_THING"], "rationale": "x"}, {"target_id": "m.py::g", "labels": ["STYLE"], "rationale": "x"}]}"#,
        r#"{"targets": [{"target_id": "m.py::f", "labels": ["STYLE", "RETURN_CHANGED"], "rationale": "x"}, {"target_id": "m.py::g", "labels": ["STYLE"], "rationale": "x"}]}"#,
        r#"{"targets": [{"target_id": "m.py::h", "labels": ["STYLE"], "rationale": "x"}]}"#,
        r#"{"targets": [], "extra": 1}"#,
        "The answer is VALIDATION_ADDED.",
    ] {
        assert!(parse_drift_answer(&it, bad).is_err(), "{bad}");
    }
    // Output-group labels do not set IEC.
    let out = r#"{"targets": [{"target_id": "m.py::f", "labels": ["RETURN_CHANGED"], "rationale": "x"}, {"target_id": "m.py::g", "labels": ["STYLE"], "rationale": "x"}]}"#;
    assert!(!drift_record(&it, parse_drift_answer(&it, out).expect("ok")).iec);
}

#[test]
fn kappa_matches_the_closed_form() {
    let k = |i: usize| ("b".to_string(), "m".to_string(), format!("i{i}"));
    // 20 items: both 1: 6, judge only: 2, detector only: 3, neither: 9.
    let mut j = BTreeMap::new();
    let mut d = BTreeMap::new();
    for i in 0..20 {
        let (a, b) = match i {
            0..=5 => (true, true),
            6..=7 => (true, false),
            8..=10 => (false, true),
            _ => (false, false),
        };
        j.insert(k(i), a);
        d.insert(k(i), b);
    }
    j.insert(k(99), true); // not rated by the detector: ignored
    let a = agreement(&j, &d);
    assert_eq!(
        (a.n, a.both, a.judge_only, a.detector_only, a.neither),
        (20, 6, 2, 3, 9)
    );
    // p_o = 15/20; p_e = (8*9 + 12*11)/400 = 204/400; κ = (0.75-0.51)/(0.49)
    let want = (0.75 - 0.51) / 0.49;
    assert!((a.kappa.expect("kappa") - want).abs() < 1e-12);
    let all_same: BTreeMap<_, _> = (0..3).map(|i| (k(i), true)).collect();
    assert_eq!(agreement(&all_same, &all_same).kappa, None);
}

#[test]
fn compounding_answers_table_and_survival_check() {
    let drift = DriftLabel {
        target_id: "m.py::f".into(),
        labels: vec!["VALIDATION_ADDED".into()],
        rationale: "rejects None".into(),
    };
    let it = CompoundItem {
        benchmark: "verified".into(),
        model: "m".into(),
        instance_id: "o__r-1".into(),
        drift,
        aa_pr2_patch: "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f(x):\n-    return x + 1\n+    return x + 2\n \n".into(),
        aa_resolved: false,
        failing_tests: vec!["t.py::test_f".into()],
    };
    let r = serde_json::to_value(compound_request(&it)).expect("json");
    let u = r["messages"][1]["content"].as_str().expect("user");
    assert!(
        u.contains("VALIDATION_ADDED")
            && u.contains("+    return x + 2")
            && u.contains("t.py::test_f")
    );
    let l = parse_compound_answer(
        &it,
        r#"{"survival": "survived", "caused_failure": "yes", "rationale": "r"}"#,
    )
    .expect("ok");
    assert_eq!((l.survival, l.caused_failure), (Survival::Survived, true));
    assert!(parse_compound_answer(
        &it,
        r#"{"survival": "maybe", "caused_failure": "yes", "rationale": "r"}"#
    )
    .is_err());
    assert!(parse_compound_answer(
        &it,
        r#"{"survival": "removed", "caused_failure": "perhaps", "rationale": "r"}"#
    )
    .is_err());
    let mk = |inst: &str, s: Survival, c: bool| CompoundLabel {
        instance: inst.into(),
        survival: s,
        caused_failure: c,
        ..l.clone()
    };
    let labels = vec![
        mk("a", Survival::Survived, true),
        mk("b", Survival::Survived, false),
        mk("c", Survival::Rewritten, false),
        mk("d", Survival::Removed, false),
        mk("zz", Survival::Survived, true),
    ];
    let cohort: BTreeSet<_> = ["a", "b", "c", "d"]
        .iter()
        .map(|i| ("verified".to_string(), "m".to_string(), i.to_string()))
        .collect();
    let t = compounding_table(&labels, &cohort);
    assert_eq!(
        (
            t.n,
            t.survived,
            t.rewritten,
            t.removed,
            t.caused,
            t.outside_cohort
        ),
        (4, 2, 1, 1, 1, 1)
    );
    assert!((t.pct(t.survived) - 50.0).abs() < 1e-12);
    assert!(t.to_markdown().contains("| 4 | 2 (50.0%)"));
    // Deterministic check on a real tree.
    let mut pre = codethread_patch::MemTree::new();
    pre.insert(
        b"m.py".to_vec(),
        b"def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n".to_vec(),
    );
    assert_eq!(
        touches_function(&pre, it.aa_pr2_patch.as_bytes(), "m.py::f", None),
        Ok(true)
    );
    assert_eq!(
        touches_function(&pre, it.aa_pr2_patch.as_bytes(), "m.py::g", None),
        Ok(false)
    );
    assert_eq!(touches_function(&pre, b"", "m.py::f", None), Ok(false));
}

#[test]
fn items_from_trees_static_iec_and_imports() {
    let mut human = codethread_patch::MemTree::new();
    human.insert(
        b"m.py".to_vec(),
        b"class A:\n    def f(self, x):\n        return x + 1\n".to_vec(),
    );
    let mut agent = codethread_patch::MemTree::new();
    agent.insert(b"m.py".to_vec(), b"class A:\n    def f(self, x):\n        if x is None:\n            raise ValueError('x')\n        return x + 1\n".to_vec());
    let it = drift_item_from_trees(
        "b",
        "m",
        "o__r-2",
        &human,
        &agent,
        &["m.py::A.f".to_string()],
        None,
    );
    assert_eq!(it.language, "python");
    assert!(
        it.targets[0].human.starts_with("def f")
            && it.targets[0].agent.contains("raise ValueError")
    );
    assert_eq!(static_iec(&it), Some(true));
    let same = drift_item_from_trees(
        "b",
        "m",
        "o__r-3",
        &human,
        &human,
        &["m.py::A.f".to_string()],
        None,
    );
    assert_eq!(static_iec(&same), Some(false));
    // The item travels as JSONL.
    let line = serde_json::to_string(&it).expect("json");
    let (items, errs) =
        load_items::<DriftItem>("items.jsonl", format!("{line}\n{{bad\n").as_bytes());
    assert_eq!((items.len(), errs.len()), (1, 1));
    assert!(errs[0].to_string().contains("line 2"));
    let id = serde_json::to_value(drift_request(&it)).expect("json")["custom_id"]
        .as_str()
        .expect("id")
        .to_string();
    let id2 = serde_json::to_value(drift_request(&same)).expect("json")["custom_id"]
        .as_str()
        .expect("id")
        .to_string();
    let answers: BTreeMap<String, String> = [
        (id.clone(), r#"{"targets": [{"target_id": "m.py::A.f", "labels": ["VALIDATION_ADDED"], "rationale": "None rejected"}]}"#.to_string()),
        (id2.clone(), "not json".to_string()),
        ("stray".to_string(), "{}".to_string()),
    ]
    .into_iter()
    .collect();
    let got = import_drift(&[it.clone(), same.clone()], &answers);
    assert_eq!(got.labels.len(), 1);
    assert!(got.labels[0].iec);
    assert_eq!(got.errors.len(), 1);
    assert_eq!(got.errors[0].0, id2);
    assert_eq!(got.unknown, vec!["stray"]);
    let judge = iec_from_labels(&got.labels);
    let det: BTreeMap<_, _> = [(
        ("b".to_string(), "m".to_string(), "o__r-2".to_string()),
        static_iec(&it).unwrap_or(false),
    )]
    .into_iter()
    .collect();
    assert_eq!(agreement(&judge, &det).both, 1);
    let aa: BTreeMap<_, _> = [(
        ("b".to_string(), "m".to_string(), "o__r-2".to_string()),
        ("diff".to_string(), false, vec!["t".to_string()]),
    )]
    .into_iter()
    .collect();
    let ci = compound_items(&got.labels, &aa);
    assert_eq!(ci.len(), 1);
    assert_eq!(ci[0].drift.labels, vec!["VALIDATION_ADDED"]);
}

/// Edits beyond the stubbed targets reach the drift item: a helper the agent added, another
/// function it changed and a file without targets; the target itself and untouched functions
/// are not listed. A C++ header is read as C++ with the repository hint.
#[test]
fn outside_edits_list_what_the_agent_changed_beyond_the_targets() {
    let mut human = codethread_patch::MemTree::new();
    human.insert(
        b"m.py".to_vec(),
        b"def f(x):\n    return x + 1\n\n\ndef g(y):\n    return y\n\n\ndef h():\n    return 0\n"
            .to_vec(),
    );
    let mut agent = human.clone();
    agent.insert(
        b"m.py".to_vec(),
        b"def f(x):\n    return _inc(x)\n\n\ndef _inc(x):\n    return x + 1\n\n\ndef g(y):\n    return y or 0\n\n\ndef h():\n    return 0\n".to_vec(),
    );
    agent.insert(b"util.py".to_vec(), b"X = 1\n".to_vec());
    let it = drift_item_from_trees(
        "b",
        "m",
        "o__r-9",
        &human,
        &agent,
        &["m.py::f".to_string()],
        None,
    );
    assert_eq!(
        it.outside_edits,
        vec![
            "m.py::_inc".to_string(),
            "m.py::g".to_string(),
            "util.py".to_string()
        ]
    );
    assert!(serde_json::to_string(&drift_request(&it))
        .expect("json")
        .contains("m.py::_inc"));
    // Nothing outside the targets: nothing listed.
    let same = drift_item_from_trees(
        "b",
        "m",
        "o__r-9",
        &human,
        &human,
        &["m.py::f".to_string()],
        None,
    );
    assert!(same.outside_edits.is_empty());
    // C++ header with the repository's language.
    let mut h = codethread_patch::MemTree::new();
    h.insert(
        b"r.h".to_vec(),
        b"namespace n {\nint f(int x) { return x; }\nint g() { return 1; }\n}\n".to_vec(),
    );
    let mut a = h.clone();
    a.insert(
        b"r.h".to_vec(),
        b"namespace n {\nint f(int x) { return x + 0; }\nint g() { return 2; }\n}\n".to_vec(),
    );
    let it = codethread_judge::judge::drift_item_from_trees(
        "b",
        "m",
        "o__r-10",
        &h,
        &a,
        &["r.h::n.f".to_string()],
        Some(codethread_lang::Lang::Cpp),
    );
    assert_eq!(it.language, "cpp");
    assert!(!it.targets[0].human.is_empty());
    assert_eq!(it.outside_edits, vec!["r.h::n.g".to_string()]);
}

/// A repeated key (serde_json keeps the last silently, which would flip
/// `iec`) and a repeated label are refused, at every level and in both
/// judges; the same answers without the repeat are accepted.
#[test]
fn repeated_keys_and_labels_are_refused() {
    let it = item();
    let ok_g = r#"{"target_id": "m.py::g", "labels": ["EQUIVALENT"], "rationale": "same"}"#;
    for (bad, good) in [
        // `labels` twice: the contract label first, then an output label that would win.
        (
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED"], "labels": ["RETURN_CHANGED"], "rationale": "x"}}, {ok_g}]}}"#
            ),
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["RETURN_CHANGED"], "rationale": "x"}}, {ok_g}]}}"#
            ),
        ),
        // `targets` twice at the top.
        (
            format!(
                r#"{{"targets": [], "targets": [{{"target_id": "m.py::f", "labels": ["STYLE"], "rationale": "x"}}, {ok_g}]}}"#
            ),
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["STYLE"], "rationale": "x"}}, {ok_g}]}}"#
            ),
        ),
        // `rationale` twice.
        (
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["STYLE"], "rationale": "a", "rationale": "b"}}, {ok_g}]}}"#
            ),
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["STYLE"], "rationale": "b"}}, {ok_g}]}}"#
            ),
        ),
        // A label given twice.
        (
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["RETURN_CHANGED", "RETURN_CHANGED"], "rationale": "x"}}, {ok_g}]}}"#
            ),
            format!(
                r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["RETURN_CHANGED", "STATE_CHANGED"], "rationale": "x"}}, {ok_g}]}}"#
            ),
        ),
    ] {
        let e = parse_drift_answer(&it, &bad).expect_err(&bad).to_string();
        assert!(e.contains("twice") || e.contains("duplicate"), "{e}");
        parse_drift_answer(&it, &good).expect(&good);
    }
    // The compounding judge reads answers the same way.
    let ci = compound_items(
        &[drift_record(
            &it,
            parse_drift_answer(
                &it,
                &format!(
                    r#"{{"targets": [{{"target_id": "m.py::f", "labels": ["VALIDATION_ADDED"], "rationale": "x"}}, {ok_g}]}}"#
                ),
            )
            .expect("drift"),
        )],
        &BTreeMap::from([(
            ("verified".to_string(), "org/model-7b.v2".to_string(), "o__r-1".to_string()),
            ("diff".to_string(), false, vec![]),
        )]),
    );
    let c = ci.first().expect("a compounding item");
    let good = r#"{"survival": "survived", "caused_failure": "no", "rationale": "kept"}"#;
    parse_compound_answer(c, good).expect("good");
    for bad in [
        r#"{"survival": "survived", "caused_failure": "no", "caused_failure": "yes", "rationale": "kept"}"#,
        r#"{"survival": "removed", "survival": "survived", "caused_failure": "no", "rationale": "kept"}"#,
    ] {
        assert!(parse_compound_answer(c, bad).is_err(), "{bad}");
    }
}
