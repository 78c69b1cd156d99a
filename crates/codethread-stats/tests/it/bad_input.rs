//! Bad input: typed errors naming the column / row, never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_stats::{fit_logit, AnalysisError, Design, DesignSpec, Frame, LogitOptions};

/// The design of `csv` (origin `t.csv`) under `spec`.
fn design_of(csv: &str, spec: DesignSpec) -> Result<Design, AnalysisError> {
    Frame::from_csv_bytes("t.csv", csv.as_bytes())?.design(&spec)
}

/// The default spec with outcome `y`.
fn spec_y() -> DesignSpec {
    DesignSpec {
        outcome: "y".into(),
        ..Default::default()
    }
}

fn fit_bytes(csv: &str, outcome: &str) -> Result<codethread_stats::LogitFit, AnalysisError> {
    let d = design_of(
        csv,
        DesignSpec {
            outcome: outcome.into(),
            ..Default::default()
        },
    )?;
    fit_logit(&d, &LogitOptions::default())
}

/// A seeded 64-bit LCG: uniform draws in [0, 1).
fn uniform(seed: u64) -> impl FnMut() -> f64 {
    let mut s = seed;
    move || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[test]
fn non_numeric_cell_names_column_and_row() {
    let e = fit_bytes("y,x\n0,1\n1,abc\n0,3\n", "y").unwrap_err();
    match e {
        AnalysisError::NonNumeric {
            column, row, value, ..
        } => {
            assert_eq!((column.as_str(), row, value.as_str()), ("x", 2, "abc"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn empty_cell_is_non_numeric() {
    let e = fit_bytes("y,x\n0,1\n1,\n", "y").unwrap_err();
    assert!(
        matches!(e, AnalysisError::NonNumeric { row: 2, .. }),
        "{e:?}"
    );
}

#[test]
fn missing_outcome_column() {
    let e = fit_bytes("y,x\n0,1\n1,2\n", "resolved").unwrap_err();
    match e {
        AnalysisError::MissingColumn {
            column, available, ..
        } => {
            assert_eq!(column, "resolved");
            assert_eq!(available, "y, x");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn constant_outcome() {
    let e = fit_bytes("y,x\n1,1\n1,2\n1,3\n", "y").unwrap_err();
    assert!(
        matches!(e, AnalysisError::ConstantOutcome { ref column, value: 1 } if column == "y"),
        "{e:?}"
    );
}

#[test]
fn non_binary_outcome() {
    let e = fit_bytes("y,x\n0,1\n2,2\n1,3\n", "y").unwrap_err();
    assert!(
        matches!(e, AnalysisError::NonBinaryOutcome { row: 2, .. }),
        "{e:?}"
    );
}

#[test]
fn nan_and_inf() {
    for cell in ["NaN", "nan", "inf", "-inf", "Infinity"] {
        let e = fit_bytes(&format!("y,x\n0,1\n1,{cell}\n0,3\n"), "y").unwrap_err();
        match e {
            AnalysisError::NonFinite { column, row, .. } => {
                assert_eq!((column.as_str(), row), ("x", 2))
            }
            other => panic!("{cell}: {other:?}"),
        }
    }
}

#[test]
fn empty_file_and_header_only() {
    assert!(matches!(
        fit_bytes("", "y").unwrap_err(),
        AnalysisError::Empty { .. }
    ));
    assert!(matches!(
        fit_bytes("y,x\n", "y").unwrap_err(),
        AnalysisError::Empty { .. }
    ));
}

#[test]
fn ragged_row_is_csv_error() {
    let e = fit_bytes("y,x\n0,1\n1,2,3\n", "y").unwrap_err();
    assert!(matches!(e, AnalysisError::Csv { row: 2, .. }), "{e:?}");
}

#[test]
fn too_few_rows() {
    let e = fit_bytes("y,a,b,c\n0,1,2,3\n1,2,1,0\n", "y").unwrap_err();
    assert!(matches!(e, AnalysisError::TooFewRows { .. }), "{e:?}");
}

#[test]
fn crlf_bom_and_quotes_are_fine() {
    let csv = "\u{feff}y,\"x\"\r\n0,1\r\n0,2\r\n1,3\r\n0,4\r\n1,5\r\n1,6\r\n";
    let fit = fit_bytes(csv, "y").unwrap();
    assert!(fit.converged);
    assert_eq!(fit.names, vec!["const", "x"]);
}

#[test]
fn categorical_dummies_sorted_drop_first() {
    let csv = "y,m,x\n0,b,1\n1,a,2\n0,c,3\n1,b,4\n1,c,5\n0,a,6\n1,a,7\n0,c,8\n1,b,2\n0,b,9\n";
    let d = design_of(
        csv,
        DesignSpec {
            categorical: vec!["m".into()],
            ..spec_y()
        },
    )
    .unwrap();
    assert_eq!(d.names, vec!["const", "m[b]", "m[c]", "x"]);
    // numeric levels sort numerically: 2 < 10
    let csv = "y,g\n0,10\n1,2\n0,2\n1,10\n0,3\n1,3\n";
    let d = design_of(
        csv,
        DesignSpec {
            categorical: vec!["g".into()],
            ..spec_y()
        },
    )
    .unwrap();
    assert_eq!(d.names, vec!["const", "g[3]", "g[10]"]);
}

#[test]
fn standardize_changes_slopes_not_fit() {
    let csv = "y,x\n0,1\n0,2\n0,3\n1,4\n0,5\n1,6\n0,7\n1,8\n1,9\n1,10\n";
    let raw = fit_bytes(csv, "y").unwrap();
    let d = design_of(
        csv,
        DesignSpec {
            standardize: true,
            ..spec_y()
        },
    )
    .unwrap();
    let sd = d.scaling[0].sd;
    let st = fit_logit(&d, &LogitOptions::default()).unwrap();
    assert!((st.params[1] - raw.params[1] * sd).abs() < 1e-9);
    assert!((st.llf - raw.llf).abs() < 1e-9);
    assert!((st.pvalues[1] - raw.pvalues[1]).abs() < 1e-9);
}

#[test]
fn reference_level_separation_is_detected() {
    // level "a" (the dropped reference) has only y = 0: separation along −(m[b] + m[c])
    let mut csv = String::from("y,m,x\n");
    let xs = [
        0.3, -1.2, 0.8, 1.5, -0.4, 0.1, 2.0, -0.9, 0.6, -1.7, 1.1, 0.2,
    ];
    for (i, x) in xs.iter().enumerate() {
        let (m, y) = match i % 3 {
            0 => ("a", 0),
            1 => ("b", i32::from(i % 2 == 0)),
            _ => ("c", i32::from(i % 4 != 0)),
        };
        csv.push_str(&format!("{y},{m},{x}\n"));
    }
    let d = design_of(
        &csv,
        DesignSpec {
            categorical: vec!["m".into()],
            ..spec_y()
        },
    )
    .unwrap();
    let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
    let sep = fit.separation.expect("separation");
    assert!(sep.regressors.contains(&"m[b]".to_string()), "{sep:?}");
    assert!(sep.regressors.contains(&"m[c]".to_string()), "{sep:?}");
}

#[test]
fn separation_by_a_combination_is_detected_and_named() {
    // y = 1 exactly when x1 + x2 > 0; neither regressor separates alone; x3 is noise
    let mut csv = String::from("y,x1,x2,x3\n");
    let mut unit = uniform(42);
    let mut u = || unit() * 2.0 - 1.0;
    for _ in 0..80 {
        let (a, b, c) = (u(), u(), u());
        let y = i32::from(a + b > 0.0);
        csv.push_str(&format!("{y},{a},{b},{c}\n"));
    }
    let fit = fit_bytes(&csv, "y").unwrap();
    assert!(!fit.converged);
    let sep = fit.separation.expect("separation");
    assert_eq!(sep.kind, codethread_stats::SeparationKind::Complete);
    assert!(sep.regressors.contains(&"x1".to_string()), "{sep:?}");
    assert!(sep.regressors.contains(&"x2".to_string()), "{sep:?}");
    assert!(!sep.regressors.contains(&"x3".to_string()), "{sep:?}");
}

#[test]
fn no_false_separation_on_ordinary_data() {
    let mut csv = String::from("y,x1,x2\n");
    let mut u = uniform(7);
    for _ in 0..500 {
        let (a, b, e) = (u() * 4.0 - 2.0, u() * 4.0 - 2.0, u());
        let p = 1.0 / (1.0 + (-(0.3 + 1.5 * a - 0.8 * b)).exp());
        csv.push_str(&format!("{},{a},{b}\n", i32::from(e < p)));
    }
    let fit = fit_bytes(&csv, "y").unwrap();
    assert!(fit.converged);
    assert!(fit.separation.is_none());
    assert!(fit.warnings.is_empty(), "{:?}", fit.warnings);
}

#[test]
fn drop_missing_rows_is_opt_in_and_reported() {
    let csv = "y,x,id\n0,1,a\n1,,b\n0,3,c\n1,NA,d\n1,5,e\n0,2,f\n1,4,g\n0,6,h\n";
    assert!(matches!(
        fit_bytes(csv, "y").unwrap_err(),
        AnalysisError::NonNumeric { .. }
    ));
    let d = design_of(
        csv,
        DesignSpec {
            columns: Some(vec!["x".into()]),
            drop_missing: true,
            ..spec_y()
        },
    )
    .unwrap();
    assert_eq!(d.dropped_rows, vec![2, 4]);
    assert_eq!(d.nobs(), 6);
    let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
    assert!(fit
        .warnings
        .iter()
        .any(|w| w.contains("2 rows with missing values dropped (data rows 2, 4)")));
}

#[test]
fn near_collinearity_is_a_warning_naming_the_column() {
    let mut csv = String::from("y,x1,x2,x3\n");
    let mut u = uniform(11);
    for i in 0..200 {
        let (a, b) = (u() * 2.0 - 1.0, u() * 2.0 - 1.0);
        let c = a + b + if i % 2 == 0 { 1e-7 } else { -1e-7 }; // not exact: rank 4
        let y = i32::from(u() < 1.0 / (1.0 + (-(a - b)).exp()));
        csv.push_str(&format!("{y},{a},{b},{c}\n"));
    }
    let fit = fit_bytes(&csv, "y").unwrap();
    assert!(
        fit.warnings
            .iter()
            .any(|w| w.starts_with("x3 is nearly a linear combination")),
        "{:?}",
        fit.warnings
    );
}

/// A column named `const` (the intercept's name) or a column whose name a
/// dummy takes (`g[b]` beside categorical `g`) is a typed error naming it,
/// never a design with two columns of one name (duplicate JSON keys).
#[test]
fn column_names_that_collide_with_generated_names_are_refused() {
    let mut u = uniform(7);
    let mut csv = String::from("y,const,x\n");
    for i in 0..40 {
        csv.push_str(&format!("{},{:.3},{:.3}\n", i % 2, u(), u()));
    }
    let e = design_of(&csv, spec_y()).expect_err("const collides");
    assert!(
        matches!(&e, AnalysisError::Invalid { message, .. } if message.contains("\"const\"")),
        "{e}"
    );
    // Renamed, it fits and every name is unique.
    let fit = fit_bytes(&csv.replacen("const", "c0", 1), "y").expect("fit");
    let names: std::collections::BTreeSet<_> = fit.names.iter().collect();
    assert_eq!(names.len(), fit.names.len());
    let json: serde_json::Value = serde_json::from_str(&fit.to_json()).expect("json");
    assert_eq!(json["params"].as_object().map(|o| o.len()), Some(3));
    let mut csv = String::from("y,g,g[b]\n");
    for i in 0..40 {
        csv.push_str(&format!("{},{},{:.3}\n", i % 2, ["a", "b"][i % 3 % 2], u()));
    }
    let e = design_of(
        &csv,
        DesignSpec {
            outcome: "y".into(),
            categorical: vec!["g".into()],
            ..Default::default()
        },
    )
    .expect_err("dummy collides");
    assert!(e.to_string().contains("g[b]"), "{e}");
}

/// Scale invariance down to subnormal columns: a regressor multiplied by
/// 1e-309 (and 1e-310, 1e-308) keeps its z and p (they were null and 0.0:
/// β and its SE both overflow, their ratio does not).
#[test]
fn subnormal_column_keeps_z_and_p() {
    let mut u = uniform(11);
    let rows: Vec<(f64, f64, u8)> = (0..200)
        .map(|_| {
            let x1 = u() * 4.0 - 2.0;
            let x2 = u() * 4.0 - 2.0;
            let p = 1.0 / (1.0 + (-(0.3 * x1 - 0.2 * x2)).exp());
            (x1, x2, u8::from(u() < p))
        })
        .collect();
    let csv = |scale: f64| {
        let mut s = String::from("y,x1,x2\n");
        for (x1, x2, y) in &rows {
            s.push_str(&format!("{y},{:e},{x2}\n", x1 * scale));
        }
        s
    };
    let base = fit_bytes(&csv(1.0), "y").expect("base fit");
    for scale in [1e-309, 1e-310, 1e-308, 1e-300] {
        let f = fit_bytes(&csv(scale), "y").expect("scaled fit");
        for j in 0..3 {
            assert!(
                f.zvalues[j].is_finite(),
                "scale {scale}: z[{j}] = {}",
                f.zvalues[j]
            );
            let (a, b) = (base.pvalues[j], f.pvalues[j]);
            assert!(
                (a - b).abs() <= 1e-6 * a.max(1e-12),
                "scale {scale}: p[{j}] {a} vs {b}"
            );
            let (za, zb) = (base.zvalues[j], f.zvalues[j]);
            assert!(
                (za - zb).abs() <= 1e-6 * za.abs().max(1.0),
                "scale {scale}: z[{j}] {za} vs {zb}"
            );
        }
        let json: serde_json::Value = serde_json::from_str(&f.to_json()).expect("json");
        assert!(json["zvalues"]["x1"].is_number(), "{}", json["zvalues"]);
        assert!(json["pvalues"]["x1"].as_f64().is_some_and(|p| p > 0.0));
    }
}

/// The row count is checked before any pass over the columns: 20,000
/// columns and 3 rows fail with `TooFewRows` (the time is checked by
/// `tests/it/scaling.rs`, `many_columns_are_linear`).
#[test]
fn too_few_rows_is_found_before_work_on_many_columns() {
    let k = 20_000;
    let mut csv = String::from("y");
    for j in 0..k {
        csv.push_str(&format!(",x{j}"));
    }
    csv.push('\n');
    for i in 0..3 {
        csv.push_str(&format!("{}", i % 2));
        for j in 0..k {
            csv.push_str(&format!(",{}", (i * 7 + j) % 5));
        }
        csv.push('\n');
    }
    let e = fit_bytes(&csv, "y").expect_err("too few rows");
    assert!(
        matches!(e, AnalysisError::TooFewRows { nobs: 3, params } if params == k + 1),
        "{e}"
    );
}
