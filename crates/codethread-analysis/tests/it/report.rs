//! Report files, figures and the feature builder on hand-made data.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_analysis::features::{
    build_features, jaccard, EditSet, FeatureSources, InstanceKey, MetricValues, Stage, Winner,
};
use codethread_analysis::report::{box_plot_svg, box_stats, write_report};
use codethread_analysis::{build_tables, Condition, Outcome, Results, TableOptions};
use std::collections::BTreeSet;

fn results() -> Results {
    // two benchmarks × three models × 40 instances, flags from a fixed pattern
    let mut r = Results::new();
    for b in ["B1", "B2"] {
        for (mi, m) in ["m1", "m2", "m3"].iter().enumerate() {
            for i in 0..40usize {
                let inst = format!("{b}-{i}");
                let ha = (i * 7 + mi * 3) % 5 < 3;
                let aa = (i * 11 + mi) % 4 < 2;
                for (c, f) in [(Condition::HA, ha), (Condition::AA, aa)] {
                    r.push(Outcome {
                        benchmark: b.into(),
                        model: (*m).into(),
                        condition: c,
                        instance: inst.clone(),
                        resolved: f,
                        task_type: None,
                    });
                }
            }
        }
    }
    r
}

#[test]
fn box_stats_quartiles_and_percentile_whiskers() {
    let v: Vec<f64> = (1..=101).map(f64::from).collect();
    let b = box_stats(&v).unwrap();
    // Whiskers at the 5th and 95th percentiles by nearest rank (the 6th and 96th of 101
    // values), the 5 values beyond each drawn as dots.
    assert_eq!(
        (b.whisker_lo, b.q1, b.median, b.q3, b.whisker_hi, b.outliers),
        (6.0, 26.0, 51.0, 76.0, 96.0, 10)
    );
    // Values 0 and 2 only: whiskers on data points, never interpolated
    // (an interpolated 95th percentile would put one at 1.8).
    let v = [0., 0., 0., 0., 0., 0., 0., 2., 2., 2.];
    let b = box_stats(&v).unwrap();
    assert_eq!((b.whisker_lo, b.whisker_hi), (0.0, 2.0));
    assert!(v.contains(&b.whisker_lo) && v.contains(&b.whisker_hi));
    // 40 values: the 95th percentile is the 38th, the two above it are dots.
    let v: Vec<f64> = (1..=40).map(f64::from).collect();
    let b = box_stats(&v).unwrap();
    assert_eq!((b.whisker_lo, b.whisker_hi, b.outliers), (2.0, 38.0, 3));
    let svg = box_plot_svg("x", "value", &[("HA-only", &v), ("AA-only", &[])]).unwrap();
    assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
    assert!(svg.contains("whiskers: 5th and 95th percentiles"));
    assert!(box_stats(&[]).is_none());
}

/// The group labels sit under the x axis line, not on it: each label's baseline is below the
/// lowest point the plot area draws.
#[test]
fn group_labels_are_below_the_axis() {
    let a = [1.0, 2.0, 3.0];
    let svg = box_plot_svg("d_cc_pr1", "AA − HA", &[("HA-only", &a), ("AA-only", &a)]).unwrap();
    let y_of = |needle: &str| -> f64 {
        let at = svg.find(needle).unwrap();
        let tag = &svg[svg[..at].rfind("<text").unwrap()..at];
        let y = tag.split(" y=\"").nth(1).unwrap();
        y[..y.find('"').unwrap()].parse().unwrap()
    };
    // The x axis line: the lowest horizontal line of the mesh.
    let axis = svg
        .match_indices("<line")
        .filter_map(|(i, _)| {
            let tag = &svg[i..i + svg[i..].find("/>").unwrap()];
            let get = |k: &str| -> Option<f64> {
                let v = tag.split(&format!(" {k}=\"")).nth(1)?;
                v[..v.find('"')?].parse().ok()
            };
            let (y1, y2) = (get("y1")?, get("y2")?);
            (y1 == y2).then_some(y1)
        })
        .fold(f64::MIN, f64::max);
    for label in ["HA-only (n=3)", "AA-only (n=3)"] {
        assert!(
            y_of(label) > axis,
            "{label} at {} over the axis at {axis}",
            y_of(label)
        );
    }
}

/// The 0/1 `iec` feature is drawn as the share of 1s per group, not as a box.
#[test]
fn binary_feature_is_drawn_as_shares() {
    use codethread_analysis::report::{share_plot_svg, BINARY_FEATURES};
    assert!(BINARY_FEATURES.contains(&"iec"));
    let svg = share_plot_svg(
        "iec",
        &[
            ("HA-only", &[1.0, 0.0, 0.0, 0.0]),
            ("AA-only", &[1.0, 1.0, 0.0]),
        ],
    )
    .unwrap();
    assert!(svg.contains("\n25%\n"), "{svg}");
    assert!(svg.contains("\n67%\n"), "{svg}");
    assert!(svg.contains("HA-only (n=4)") && svg.contains("AA-only (n=3)"));
    assert!(!svg.contains("whiskers"));
}

#[test]
fn svg_has_boxes_and_labels() {
    let a = [1.0, 2.0, 3.0, 4.0, 5.0];
    let b = [-1.0, 0.0, 0.5];
    let svg = box_plot_svg("d_cc_pr1", "AA − HA", &[("HA-only", &a), ("AA-only", &b)]).unwrap();
    assert!(svg.starts_with("<svg"));
    assert!(svg.contains("HA-only (n=5)"));
    assert!(svg.contains("AA-only (n=3)"));
    assert!(
        svg.matches("<rect").count() >= 5,
        "background + 2×(fill + outline)"
    );
    // empty groups are drawn as labels only, never a panic
    let svg = box_plot_svg("x", "v", &[("HA-only", &[]), ("AA-only", &[])]).unwrap();
    assert!(svg.contains("n=0"));
}

#[test]
fn features_from_plain_data() {
    let r = results();
    let metrics = |k: &InstanceKey, s: Stage| {
        let base = k.instance.len() as f64;
        Some(match s {
            Stage::Pr1Human => MetricValues {
                cyclomatic: base,
                cognitive: 1.0,
                halstead_volume: 10.0,
                lloc: 3.0,
            },
            Stage::Pr1Agent => MetricValues {
                cyclomatic: base + 2.0,
                cognitive: 4.0,
                halstead_volume: 12.5,
                lloc: 5.0,
            },
            Stage::Pr2Ha => MetricValues {
                cyclomatic: 1.0,
                cognitive: 1.0,
                halstead_volume: 1.0,
                lloc: 1.0,
            },
            Stage::Pr2Aa => MetricValues {
                cyclomatic: 0.0,
                cognitive: 3.0,
                halstead_volume: 1.0,
                lloc: 2.0,
            },
        })
    };
    let edits = |_: &InstanceKey, c: Condition| {
        let mut e = EditSet::default();
        e.files.insert("a.py".into());
        e.functions.insert("a.py::f".into());
        if c == Condition::AA {
            e.files.insert("b.py".into());
            e.functions.insert("b.py::g".into());
            e.functions.insert("b.py::h".into());
        }
        Some(e)
    };
    let iec = |k: &InstanceKey| Some(k.instance.ends_with('3'));
    let src = FeatureSources {
        metrics: &metrics,
        edits: &edits,
        iec: &iec,
    };
    let ft = build_features(&r, &src, &Default::default());
    let t = build_tables(&r, &TableOptions::default().bootstrap_reps(0).seed(1));
    let disc: usize = t.table2.iter().map(|x| x.full.discordant()).sum();
    assert_eq!(ft.rows.len(), disc);
    let row = &ft.rows[0];
    assert_eq!(row.values[0], Some(2.0)); // d_cc_pr1
    assert_eq!(row.values[1], Some(-1.0)); // d_cc_pr2
    assert_eq!(row.values[4], Some(2.5)); // d_hv_pr1
    assert_eq!(row.values[8], Some(0.5)); // file Jaccard {a} vs {a,b}
    assert!((row.values[9].unwrap() - 1.0 / 3.0).abs() < 1e-15);
    // leave-one-out difficulty: mean over the other two models of (HA + AA)/2
    let k = &row.key;
    let other: Vec<f64> = ["m1", "m2", "m3"]
        .iter()
        .filter(|m| **m != k.model)
        .map(|m| {
            let f: Vec<bool> = r
                .rows()
                .iter()
                .filter(|o| o.model == *m && o.instance == k.instance && o.benchmark == k.benchmark)
                .map(|o| o.resolved)
                .collect();
            f.iter().filter(|x| **x).count() as f64 / f.len() as f64
        })
        .collect();
    assert!((row.values[11].unwrap() - (other[0] + other[1]) / 2.0).abs() < 1e-15);
    assert!(ft.rows.iter().any(|r| r.winner == Winner::HaOnly));
    assert!(ft.rows.iter().any(|r| r.winner == Winner::AaOnly));
    // regression design: dummies for benchmark and model, chosen features
    let (d, dropped) = ft
        .design(
            Some(&["d_cc_pr1", "jacc_file_pr2", "iec", "difficulty"]),
            false,
        )
        .unwrap();
    assert!(dropped.is_empty());
    assert_eq!(
        d.names,
        vec![
            "const",
            "benchmark[B2]",
            "model[m2]",
            "model[m3]",
            "d_cc_pr1",
            "jacc_file_pr2",
            "iec",
            "difficulty"
        ]
    );
    // d_cc_pr1 and jacc are constant here -> collinear with const: a typed error, not a fit
    assert!(codethread_stats::fit_logit(&d, &codethread_stats::LogitOptions::default()).is_err());
    assert_eq!(jaccard::<String>(&BTreeSet::new(), &BTreeSet::new()), None);
}

#[test]
fn report_writes_every_table_and_figure() {
    let r = results();
    let t = build_tables(&r, &TableOptions::default().bootstrap_reps(200).seed(3));
    let iec = |k: &InstanceKey| Some(k.instance.len().is_multiple_of(2));
    let src = FeatureSources {
        metrics: &|_, _| None,
        edits: &|_, _| None,
        iec: &iec,
    };
    let ft = build_features(&r, &src, &Default::default());
    let dir = std::env::temp_dir().join(format!("ct-analysis-report-{}", std::process::id()));
    let files = write_report(&dir, &t, Some(&ft), None, &[]).unwrap();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    for n in [
        "report.md",
        "table2.csv",
        "table3.csv",
        "table3_means.csv",
        "discordant.csv",
        "features.csv",
        "figure3_iec.svg",
        "figure3_difficulty.svg",
    ] {
        assert!(names.contains(&n.to_string()), "{n} in {names:?}");
    }
    // no metric sources -> no metric figures
    assert!(!names.iter().any(|n| n.contains("d_cc")));
    let t2 = std::fs::read_to_string(dir.join("table2.csv")).unwrap();
    assert_eq!(t2.lines().count(), 1 + 6);
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(md.contains("## Table 2") && md.contains("## Discordant cohort"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn report_from_files_with_metrics_and_edits() {
    use codethread_analysis::report::{report_from_files, ReportRequest};
    let dir = std::env::temp_dir().join(format!("ct-analysis-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = results();
    std::fs::write(dir.join("results.csv"), r.to_csv()).unwrap();
    let mut m = String::new();
    let mut e = String::new();
    for b in ["B1", "B2"] {
        for i in 0..40 {
            // human PR1 shared by all models (no "model" field)
            m.push_str(&format!(
                "{{\"benchmark\":\"{b}\",\"instance\":\"{b}-{i}\",\"stage\":\"pr1_human\",\"cyclomatic\":3,\"cognitive\":2,\"halstead_volume\":50.5,\"lloc\":10}}\n"
            ));
            for model in ["m1", "m2", "m3"] {
                m.push_str(&format!(
                    "{{\"benchmark\":\"{b}\",\"model\":\"{model}\",\"instance\":\"{b}-{i}\",\"stage\":\"pr1_agent\",\"cyclomatic\":{},\"cognitive\":2,\"halstead_volume\":60.5,\"lloc\":12}}\n",
                    3 + i % 3
                ));
                for (st, cc) in [("pr2_ha", 4), ("pr2_aa", 6)] {
                    m.push_str(&format!(
                        "{{\"benchmark\":\"{b}\",\"model\":\"{model}\",\"instance\":\"{b}-{i}\",\"stage\":\"{st}\",\"cyclomatic\":{cc},\"cognitive\":1,\"halstead_volume\":1,\"lloc\":1}}\n"
                    ));
                }
                for (c, files) in [("HA", "[\"a.py\"]"), ("AA", "[\"a.py\",\"b.py\"]")] {
                    e.push_str(&format!(
                        "{{\"benchmark\":\"{b}\",\"model\":\"{model}\",\"instance\":\"{b}-{i}\",\"condition\":\"{c}\",\"files\":{files},\"functions\":[\"a.py::f\"]}}\n"
                    ));
                }
            }
        }
    }
    std::fs::write(dir.join("metrics.jsonl"), m).unwrap();
    std::fs::write(dir.join("edits.jsonl"), e).unwrap();
    let req = ReportRequest {
        results: dir.join("results.csv"),
        out: dir.join("out"),
        metrics: Some(dir.join("metrics.jsonl")),
        edits: Some(dir.join("edits.jsonl")),
        bootstrap_reps: 100,
        seed: 1,
        ..Default::default()
    };
    let files = report_from_files(&req).unwrap();
    assert!(files.iter().any(|f| f.ends_with("figure3_d_cc_pr1.svg")));
    assert!(files
        .iter()
        .any(|f| f.ends_with("figure3_jacc_file_pr2.svg")));
    let csv = std::fs::read_to_string(dir.join("out/features.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    for line in csv.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let inst: usize = cells[2].split('-').nth(1).unwrap().parse().unwrap();
        assert_eq!(
            cells[col("d_cc_pr1")].parse::<f64>().unwrap(),
            (inst % 3) as f64
        );
        assert_eq!(cells[col("d_cc_pr2")].parse::<f64>().unwrap(), 2.0);
        assert_eq!(cells[col("d_hv_pr1")].parse::<f64>().unwrap(), 10.0);
        assert_eq!(cells[col("jacc_file_pr2")].parse::<f64>().unwrap(), 0.5);
        assert_eq!(cells[col("jacc_func_pr2")].parse::<f64>().unwrap(), 1.0);
    }
    // a bad metrics line is an error naming the line
    std::fs::write(
        dir.join("bad.jsonl"),
        "{\"instance\":\"x\",\"stage\":\"pr9\"}\n",
    )
    .unwrap();
    let bad = ReportRequest {
        metrics: Some(dir.join("bad.jsonl")),
        ..req
    };
    let err = report_from_files(&bad).unwrap_err().to_string();
    assert!(err.contains("line 1") && err.contains("pr9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn stage_names_are_the_metric_table_names() {
    let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
    assert_eq!(names, ["pr1_human", "pr1_agent", "pr2_ha", "pr2_aa"]);
    for s in Stage::ALL {
        assert_eq!(Stage::parse(s.as_str()), Some(s));
    }
    assert_eq!(Stage::parse("PR2_AA"), Some(Stage::Pr2Aa));
    assert_eq!(Stage::parse("pr2"), None);
}

#[test]
fn hand_made_short_feature_rows_are_missing_values_not_panics() {
    use codethread_analysis::features::{FeatureRow, FeatureTable};
    let key = |i: &str| InstanceKey {
        benchmark: "b".into(),
        model: "m".into(),
        instance: i.into(),
    };
    let table = FeatureTable {
        rows: vec![
            FeatureRow {
                key: key("short"),
                winner: Winner::HaOnly,
                task_type: None,
                values: vec![Some(1.0)],
            },
            FeatureRow {
                key: key("full-ha"),
                winner: Winner::HaOnly,
                task_type: None,
                values: vec![Some(3.0); 12],
            },
            FeatureRow {
                key: key("full-aa"),
                winner: Winner::AaOnly,
                task_type: None,
                values: vec![Some(2.0); 12],
            },
        ],
    };
    assert_eq!(table.split("d_cc_pr1"), Some((vec![1.0, 3.0], vec![2.0])));
    assert_eq!(table.split("difficulty"), Some((vec![3.0], vec![2.0])));
    let (d, dropped) = table.design(Some(&["difficulty"]), false).unwrap();
    assert_eq!(dropped, vec![key("short")]);
    assert_eq!(d.y, vec![1.0, 0.0]);
}

#[test]
fn iec_jsonl_lines_crlf_blanks_and_errors() {
    use codethread_analysis::features::{load_iec_jsonl, lookup_iec};
    let m = load_iec_jsonl(
        "iec.jsonl",
        b"{\"instance\":\"i1\",\"model\":\"m\",\"iec\":true}\r\n\r\n{\"instance_id\":\"i2\",\"iec\":\"no\"}\n",
    )
    .unwrap();
    let key = |i: &str| InstanceKey {
        benchmark: "b".into(),
        model: "m".into(),
        instance: i.into(),
    };
    assert_eq!(lookup_iec(&m, &key("i1")), Some(true));
    assert_eq!(lookup_iec(&m, &key("i2")), Some(false));
    assert_eq!(lookup_iec(&m, &key("i3")), None);
    let err = load_iec_jsonl("iec.jsonl", b"\n{\"instance\":\"i1\",\"iec\":\"maybe\"}\n")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("iec.jsonl") && err.contains("line 2") && err.contains("maybe"),
        "{err}"
    );
    let err = load_iec_jsonl("iec.jsonl", b"{\"iec\":true}\n{oops\n")
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 1") && err.contains("instance"), "{err}");
}

/// A quasi-separation note names only rows that exist: with every y = 1 row
/// at x = 0 there is no row with x > 0 to speak of.
#[test]
fn separation_notes_speak_only_of_rows_that_exist() {
    use codethread_stats::{fit_logit, Design, LogitOptions};
    let xs = [-1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 0.0];
    let y = vec![0., 0., 0., 1., 1., 1., 0.];
    let x: Vec<f64> = xs.iter().flat_map(|v| [1.0, *v]).collect();
    let d = Design::new(vec!["const".into(), "x".into()], x, y, "y".into()).unwrap();
    let detail = match fit_logit(&d, &LogitOptions::default()) {
        Ok(f) => f.separation.map(|s| s.detail).unwrap_or_default(),
        Err(e) => e.to_string(),
    };
    assert!(
        detail.contains("every row with x < 0 has y = 0"),
        "{detail}"
    );
    assert!(!detail.contains("x > 0"), "{detail}");
}
