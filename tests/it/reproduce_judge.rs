//! `reproduce` writes the judges' inputs and, given compounding-judge
//! labels, reports the compounding table on the HA-wins cohort — on the
//! fixtures, without any model. The expected counts are computed here from
//! `outcomes.csv` directly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use codethread::judge::judge::{AaPr2, CompoundLabel, DriftItem, Survival};
use codethread::reproduce::{reproduce, ReproduceConfig};

fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench")
}

#[test]
fn judge_inputs_and_the_compounding_table() {
    let out =
        codethread::lang::io::create_temp_dir_in(&std::env::temp_dir(), "repro-judge").unwrap();
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &out);
    cfg.bootstrap_reps = 20;
    let s = reproduce(&cfg, &mut |_| {}).expect("runs");
    assert!(s.compounding.is_none());
    let drift: Vec<DriftItem> = std::fs::read_to_string(out.join("judge/drift_items.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(drift.len(), s.judge_items);
    assert!(!drift.is_empty());
    assert!(drift
        .iter()
        .all(|d| !d.targets.is_empty() && d.targets.iter().all(|t| !t.human.is_empty())));
    let aa_text = std::fs::read_to_string(out.join("judge/aa_pr2.jsonl")).unwrap();
    let aa: Vec<AaPr2> = aa_text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(!aa.is_empty());
    // The deterministic survival check ran for every target of every AA PR2.
    for l in aa_text.lines() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert!(
            v["pr2_touches_target"]
                .as_object()
                .is_some_and(|m| !m.is_empty()),
            "{l}"
        );
    }
    // Labels: one per AA chain, survival cycling, caused on every third.
    let kinds = [
        Survival::Survived,
        Survival::Rewritten,
        Survival::Removed,
        Survival::Survived,
    ];
    let labels: Vec<CompoundLabel> = aa
        .iter()
        .enumerate()
        .map(|(i, r)| CompoundLabel {
            benchmark: r.benchmark.clone(),
            model: r.model.clone(),
            instance: r.instance.clone(),
            target_id: "x".into(),
            survival: kinds[i % 4],
            caused_failure: i % 3 == 0,
            rationale: "fixture".into(),
        })
        .collect();
    let lp = out.join("labels.jsonl");
    let text: String = labels
        .iter()
        .map(|l| format!("{}\n", serde_json::to_string(l).unwrap()))
        .collect();
    std::fs::write(&lp, text).unwrap();
    // The HA-wins cohort, from outcomes.csv.
    let csv = std::fs::read_to_string(out.join("outcomes.csv")).unwrap();
    let mut ha = BTreeSet::new();
    let mut aa_ok = BTreeSet::new();
    for l in csv.lines().skip(1) {
        let c: Vec<&str> = l.split(',').collect();
        let key = (c[0].to_string(), c[1].to_string(), c[3].to_string());
        match (c[2], c[4]) {
            ("HA", "1") => {
                ha.insert(key);
            }
            ("AA", "1") => {
                aa_ok.insert(key);
            }
            _ => {}
        }
    }
    let aa_run: BTreeSet<_> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|c| c[2] == "AA")
        .map(|c| (c[0].to_string(), c[1].to_string(), c[3].to_string()))
        .collect();
    let cohort: BTreeSet<_> = ha
        .iter()
        .filter(|k| aa_run.contains(*k) && !aa_ok.contains(*k))
        .cloned()
        .collect();
    let in_cohort: Vec<&CompoundLabel> = labels
        .iter()
        .filter(|l| cohort.contains(&(l.benchmark.clone(), l.model.clone(), l.instance.clone())))
        .collect();
    assert!(!in_cohort.is_empty(), "the fixtures have an HA-wins cohort");
    cfg.judge_labels = Some(lp);
    let s = reproduce(&cfg, &mut |_| {}).expect("runs");
    let t = s.compounding.expect("table");
    assert_eq!(t.n, in_cohort.len());
    assert_eq!(
        t.survived,
        in_cohort
            .iter()
            .filter(|l| l.survival == Survival::Survived)
            .count()
    );
    assert_eq!(
        t.rewritten,
        in_cohort
            .iter()
            .filter(|l| l.survival == Survival::Rewritten)
            .count()
    );
    assert_eq!(
        t.removed,
        in_cohort
            .iter()
            .filter(|l| l.survival == Survival::Removed)
            .count()
    );
    assert_eq!(
        t.caused,
        in_cohort.iter().filter(|l| l.caused_failure).count()
    );
    assert_eq!(t.outside_cohort, labels.len() - in_cohort.len());
    assert!(std::fs::read_to_string(out.join("judge/compounding.md"))
        .unwrap()
        .contains(&format!("| {} |", t.n)));
    let _ = std::fs::remove_dir_all(&out);
}

/// The IEC column of `report/features.csv`, keyed (model, instance).
fn iec_column(out: &Path) -> std::collections::BTreeMap<(String, String), String> {
    let csv = std::fs::read_to_string(out.join("report/features.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (m, i, iec) = (col("model"), col("instance"), col("iec"));
    lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            ((c[m].to_string(), c[i].to_string()), c[iec].to_string())
        })
        .collect()
}

/// With drift-judge labels, the IEC feature of every labelled chain is the judge's, the
/// others keep the static detector's, and the agreement counts are those of the two columns.
#[test]
fn drift_labels_become_the_iec_feature() {
    use codethread::judge::judge::DriftRecord;
    let out =
        codethread::lang::io::create_temp_dir_in(&std::env::temp_dir(), "repro-drift").unwrap();
    let base = out.join("static");
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &base);
    cfg.bootstrap_reps = 20;
    reproduce(&cfg, &mut |_| {}).expect("runs");
    let static_iec = iec_column(&base);
    assert!(!static_iec.is_empty());
    // The judge labels every other discordant chain, each the opposite of the detector.
    let labelled: Vec<((String, String), String)> = static_iec
        .iter()
        .step_by(2)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let records: Vec<DriftRecord> = labelled
        .iter()
        .map(|((m, i), v)| DriftRecord {
            benchmark: cfg.benchmark.clone().unwrap_or_default(),
            model: m.clone(),
            instance: i.clone(),
            targets: Vec::new(),
            iec: v != "1",
        })
        .collect();
    let lp = out.join("drift_labels.jsonl");
    let text: String = records
        .iter()
        .map(|r| format!("{}\n", serde_json::to_string(r).unwrap()))
        .collect();
    std::fs::write(&lp, text).unwrap();
    let judged = out.join("judged");
    let mut cfg2 = ReproduceConfig::for_bench_dir(&bench(), &judged);
    cfg2.bootstrap_reps = 20;
    cfg2.drift_labels = Some(lp);
    let s = reproduce(&cfg2, &mut |_| {}).expect("runs");
    let judged_iec = iec_column(&judged);
    let flipped: BTreeSet<&(String, String)> = labelled.iter().map(|(k, _)| k).collect();
    for (k, v) in &static_iec {
        let want = if flipped.contains(k) {
            if v == "1" {
                "0"
            } else {
                "1"
            }
        } else {
            v.as_str()
        };
        assert_eq!(judged_iec[k], want, "{k:?}");
    }
    // Every label disagrees with the detector on chains the detector rated.
    let (agreement, used) = s.iec_agreement.expect("agreement");
    assert_eq!(used, records.len());
    let rated = labelled.iter().filter(|(_, v)| !v.is_empty()).count();
    assert_eq!(agreement.n, rated);
    assert_eq!(agreement.both + agreement.neither, 0);
    assert!(std::fs::read_to_string(judged.join("report/report.md"))
        .unwrap()
        .contains("drift judge's labels"));
    let _ = std::fs::remove_dir_all(&out);
}
