//! Real outcomes: 25 mini-swe-agent runs × 500 SWE-bench Verified instances.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_analysis::Leaderboard;
use serde_json::Value;
use std::collections::BTreeMap;

#[test]
fn run_rates_and_discrepancies_are_reported() {
    let Some(p) =
        codethread_testkit::shared_path("swebench/verified_bashonly_leaderboard_per_instance.json")
    else {
        return;
    };
    let lb = Leaderboard::from_path(&p, codethread_analysis::SourceLimits::default()).unwrap();
    assert_eq!(lb.runs.len(), 25);
    assert_eq!(lb.matrix.instances.len(), 500);
    let rates = lb.run_rates(0.1);
    // independent count straight from the JSON
    let raw: Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    let mut expect_bad = Vec::new();
    for run in raw["runs"].as_array().unwrap() {
        let folder = run["folder"].as_str().unwrap();
        let published = run["resolved"].as_f64().unwrap();
        let recs = raw["per_instance"][folder].as_object().unwrap();
        let n = recs
            .values()
            .filter(|r| r["resolved"].as_bool() == Some(true))
            .count();
        let r = rates.iter().find(|r| r.run == folder).unwrap();
        assert_eq!(r.resolved, n, "{folder}");
        assert_eq!(r.published, Some(published));
        if (100.0 * n as f64 / 500.0 - published).abs() > 0.1 + 1e-9 {
            expect_bad.push(folder.to_string());
        }
    }
    let bad: Vec<String> = rates
        .iter()
        .filter(|r| !r.agrees)
        .map(|r| r.run.clone())
        .collect();
    assert_eq!(bad, expect_bad);
    // such runs exist in this file, and they are reported with both numbers
    assert!(!bad.is_empty());
    let c37 = rates
        .iter()
        .find(|r| r.run.contains("claude-3-7-sonnet"))
        .unwrap();
    assert!(!c37.agrees);
    assert_eq!(c37.published, Some(52.8));
    assert!(c37.computed < 20.0);
    // every run has a record for every instance here: nothing missing
    assert!(rates
        .iter()
        .all(|r| r.missing.is_empty() && r.records == 500));
    for r in rates.iter().filter(|r| r.agrees) {
        assert!((r.computed - r.published.unwrap()).abs() <= 0.1 + 1e-9);
    }
}

#[test]
fn loo_difficulty_matches_the_matrix_csv() {
    let Some(p) =
        codethread_testkit::shared_path("swebench/verified_bashonly_leaderboard_per_instance.json")
    else {
        return;
    };
    let Some(csv) =
        codethread_testkit::shared_path("swebench/verified_bashonly_resolved_matrix.csv")
    else {
        return;
    };
    let lb = Leaderboard::from_path(&p, codethread_analysis::SourceLimits::default()).unwrap();
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let runs = &header[1..];
    let mut rows: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for l in lines {
        let mut it = l.split(',');
        let id = it.next().unwrap().to_string();
        rows.insert(id, it.map(|v| v.parse().unwrap()).collect());
    }
    assert_eq!(rows.len(), 500);
    let diff = lb.matrix.difficulty();
    assert_eq!(diff.len(), 500);
    let mut checked = 0;
    for d in &diff {
        let flags = &rows[&d.instance];
        let total: u32 = flags.iter().map(|v| u32::from(*v)).sum();
        assert_eq!(d.resolved_by as u32, total, "{}", d.instance);
        for (j, run) in runs.iter().enumerate() {
            let col = lb.matrix.models.iter().position(|m| m == run).unwrap();
            let expect = f64::from(total - u32::from(flags[j])) / 24.0;
            let got = d.loo[col].unwrap();
            assert!((got - expect).abs() < 1e-15, "{} {run}", d.instance);
            assert_eq!(
                lb.matrix.get(
                    diff.iter().position(|x| x.instance == d.instance).unwrap(),
                    col
                ),
                Some(flags[j] == 1)
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 500 * 25);
    // some instances nobody solves, some everybody solves
    assert!(diff.iter().any(|d| d.resolved_by == 0));
    assert!(diff.iter().any(|d| d.resolved_by == 25));
}

#[test]
fn malformed_entries_do_not_lose_the_rest() {
    let j = r#"{"runs":[{"folder":"a","resolved":50.0},{"name":"no folder"},{"folder":"b","resolved":100.0}],
      "per_instance":{"a":{"i1":{"resolved":true},"i2":{"resolved":false}},
                      "b":{"i1":{"resolved":true},"i2":{"resolved":"yes"}}}}"#;
    let lb = Leaderboard::from_json_bytes("t.json", j.as_bytes()).unwrap();
    assert_eq!(lb.runs.len(), 2);
    assert_eq!(lb.problems.len(), 1);
    let rates = lb.run_rates(0.1);
    assert!(rates[0].agrees);
    // b: i2 has no boolean flag -> unknown, computed 50 vs published 100 -> reported
    assert_eq!(rates[1].unknown, vec!["i2".to_string()]);
    assert!(!rates[1].agrees);
    assert!((rates[1].computed - 50.0).abs() < 1e-12);
    assert!(Leaderboard::from_json_bytes("t.json", b"{").is_err());
    assert!(Leaderboard::from_json_bytes("t.json", b"{}").is_err());
}

#[test]
fn wide_csv_matrices_load_and_agree_with_the_json() {
    let Some(p) =
        codethread_testkit::shared_path("swebench/verified_bashonly_leaderboard_per_instance.json")
    else {
        return;
    };
    let Some(csv) =
        codethread_testkit::shared_path("swebench/verified_bashonly_resolved_matrix.csv")
    else {
        return;
    };
    let lb = Leaderboard::from_path(&p, codethread_analysis::SourceLimits::default()).unwrap();
    let m =
        codethread_analysis::ResolveMatrix::from_csv_bytes("m.csv", &std::fs::read(csv).unwrap())
            .unwrap();
    assert_eq!(m.instances, lb.matrix.instances);
    for (j, model) in m.models.iter().enumerate() {
        let jj = lb.matrix.models.iter().position(|x| x == model).unwrap();
        for i in 0..m.instances.len() {
            assert_eq!(
                m.get(i, j),
                lb.matrix.get(i, jj),
                "{model} {}",
                m.instances[i]
            );
        }
    }
    // the 16-model Inspect matrix (0.0/1.0 cells): 500 instances, LOO over 15 others
    let Some(ins) = codethread_testkit::shared_path("swebench/verified_inspect16_resolved.csv")
    else {
        return;
    };
    let m16 =
        codethread_analysis::ResolveMatrix::from_csv_bytes("i.csv", &std::fs::read(ins).unwrap())
            .unwrap();
    assert_eq!((m16.instances.len(), m16.models.len()), (500, 16));
    let d = m16.difficulty();
    let i0 = &d[0];
    let j = (0..16).find(|&j| m16.get(0, j).is_some()).unwrap();
    let own = f64::from(u8::from(m16.get(0, j).unwrap()));
    assert!(
        (i0.loo[j].unwrap() - (i0.resolved_by as f64 - own) / (i0.n_models as f64 - 1.0)).abs()
            < 1e-15
    );
    // a bad cell is an error naming line and column
    let e = codethread_analysis::ResolveMatrix::from_csv_bytes("x.csv", b"id,a\ni1,1\ni2,maybe\n")
        .unwrap_err();
    assert!(
        matches!(
            e,
            codethread_analysis::AnalysisError::NotBinary { line: 3, .. }
        ),
        "{e:?}"
    );
}
