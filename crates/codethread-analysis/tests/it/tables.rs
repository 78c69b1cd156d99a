//! Tables on hand-made results whose numbers are counted by hand in the comments.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_analysis::{build_tables, Condition, Outcome, Results, TableOptions, TaskType};
use codethread_stats::paired::mcnemar_exact;

fn o(b: &str, m: &str, c: Condition, i: &str, r: bool, t: TaskType) -> Outcome {
    Outcome {
        benchmark: b.into(),
        model: m.into(),
        condition: c,
        instance: i.into(),
        resolved: r,
        task_type: Some(t),
    }
}

fn sample() -> Results {
    // benchmark B, models M1 (instances i0..i9) and M2 (i0..i7: i8, i9 missing)
    // M1: HA = 1 on i0..i5 (6), AA = 1 on i0..i2, i6 (4): HA-only i3,i4,i5 (3), AA-only i6 (1)
    // M2: HA = 1 on i0..i3 (4 of 8), AA = 1 on i0..i6 (7 of 8): AA-only i4,i5,i6 (3)
    let mut r = Results::new();
    for k in 0..10 {
        let i = format!("i{k}");
        let t = if k < 5 { TaskType::BF } else { TaskType::FI };
        r.push(o("B", "M1", Condition::HA, &i, k < 6, t));
        r.push(o("B", "M1", Condition::AA, &i, k < 3 || k == 6, t));
        r.push(o("B", "M1", Condition::HH, &i, true, t));
        if k < 8 {
            r.push(o("B", "M2", Condition::HA, &i, k < 4, t));
            r.push(o("B", "M2", Condition::AA, &i, k < 7, t));
        }
    }
    r
}

#[test]
fn table2_shared_and_full() {
    let t = build_tables(&sample(), &TableOptions::default());
    assert_eq!(t.shared_n["B"], 8);
    let m1 = t.table2.iter().find(|r| r.model == "M1").unwrap();
    assert_eq!(
        (m1.full.n, m1.full.ha_resolved, m1.full.aa_resolved),
        (10, 6, 4)
    );
    assert!((m1.full.delta - (-20.0)).abs() < 1e-12);
    // shared = i0..i7: HA 6 of 8, AA 4 of 8
    assert_eq!(
        (m1.shared.n, m1.shared.ha_resolved, m1.shared.aa_resolved),
        (8, 6, 4)
    );
    assert!((m1.shared.ha_rate - 75.0).abs() < 1e-12);
    assert_eq!((m1.full.ha_only, m1.full.aa_only), (3, 1));
    assert!((m1.full.mcnemar_p - 2.0 * 5.0 / 16.0).abs() < 1e-12);
    assert_eq!(m1.hh_rate, Some(100.0));
    let m2 = t.table2.iter().find(|r| r.model == "M2").unwrap();
    assert_eq!((m2.full.n, m2.full.ha_only, m2.full.aa_only), (8, 0, 3));
    assert!((m2.full.delta - 37.5).abs() < 1e-12);
    let ci = m2.full.delta_ci.unwrap();
    assert!(ci.lo <= 37.5 && 37.5 <= ci.hi && ci.lo >= 0.0);
}

#[test]
fn table3_by_task_type_and_mean() {
    let t = build_tables(&sample(), &TableOptions::default());
    // M1 BF (i0..i4): HA 5/5, AA 3/5 -> Δ -40; M2 BF: HA 4/5, AA 5/5 -> +20; mean -10
    let bf = t
        .table3_means
        .iter()
        .find(|m| m.task_type == Some(TaskType::BF))
        .unwrap();
    assert_eq!(bf.models, 2);
    assert!((bf.mean_delta - (-10.0)).abs() < 1e-12);
    // M1 FI (i5..i9): HA 1/5, AA 1/5 -> 0; M2 FI (i5..i7): HA 0/3, AA 2/3 -> 66.67
    let m2fi = t
        .table3
        .iter()
        .find(|r| r.model == "M2" && r.task_type == TaskType::FI)
        .unwrap();
    assert_eq!(m2fi.cell.n, 3);
    assert!((m2fi.cell.delta - 200.0 / 3.0).abs() < 1e-9);
    assert_eq!(t.untyped_pairs, 0);
}

#[test]
fn discordant_pooled() {
    let t = build_tables(&sample(), &TableOptions::default());
    let all = t
        .discordant
        .iter()
        .find(|d| d.benchmark == "all" && d.model == "all")
        .unwrap();
    // HA-only 3 + 0, AA-only 1 + 3
    assert_eq!((all.ha_only, all.aa_only, all.n), (3, 4, 18));
    assert!((all.ha_only_pct - 300.0 / 7.0).abs() < 1e-9);
    assert_eq!(all.mcnemar_p, mcnemar_exact(3, 4));
    assert_eq!(all.mcnemar_p, 1.0);
}

#[test]
fn bootstrap_is_reproducible_per_cell() {
    let a = build_tables(&sample(), &TableOptions::default());
    let b = build_tables(&sample(), &TableOptions::default());
    assert_eq!(a.table2[0].full.delta_ci, b.table2[0].full.delta_ci);
    // adding another model does not change M1's interval (per-cell seeds)
    let mut r = sample();
    r.push(o("C", "M3", Condition::HA, "x", true, TaskType::RF));
    r.push(o("C", "M3", Condition::AA, "x", false, TaskType::RF));
    let c = build_tables(&r, &TableOptions::default());
    let m1a = a.table2.iter().find(|x| x.model == "M1").unwrap();
    let m1c = c.table2.iter().find(|x| x.model == "M1").unwrap();
    assert_eq!(m1a.full.delta_ci, m1c.full.delta_ci);
}

#[test]
fn results_csv_and_jsonl_roundtrip_and_errors() {
    let r = sample();
    let csv = r.to_csv();
    let back = Results::from_csv_bytes("x.csv", csv.as_bytes()).unwrap();
    assert_eq!(back.rows(), r.rows());
    let bad =
        "benchmark,model,condition,instance,resolved\nB,M,HA,i1,1\nB,M,XX,i2,1\nB,M,AA,i3,maybe\n";
    let l = Results::from_csv_bytes_lenient("bad.csv", bad.as_bytes()).unwrap();
    assert_eq!(l.results.len(), 1);
    assert_eq!(l.rejected.len(), 2);
    assert!(
        l.rejected[0].to_string().contains("row 2"),
        "{}",
        l.rejected[0]
    );
    assert!(l.rejected[1].to_string().contains("maybe"));
    let jl = "{\"benchmark\":\"B\",\"model\":\"M\",\"condition\":\"aa\",\"instance_id\":\"i\",\"resolved\":true,\"task_type\":\"FI+RF\"}\n\nnot json\n";
    let l = Results::from_jsonl_bytes_lenient("r.jsonl", jl.as_bytes());
    assert_eq!(l.results.len(), 1);
    assert_eq!(l.results.rows()[0].task_type, Some(TaskType::FiRf));
    assert!(matches!(
        l.rejected[0],
        codethread_analysis::AnalysisError::Json { line: 3, .. }
    ));
}
