//! Scale invariance of the logistic regression (needs CODETHREAD_SHARED).
//!
//! Multiplying a regressor by `c` must divide its coefficient and standard error by `c` and leave
//! every z, p, log-likelihood, pseudo R² and LR statistic unchanged — for any representable `c`.
//! Checked against the statsmodels 0.15 references in `../shared/stats`, one column at a time
//! and all columns at once, for scales from 1e-160 to 1e160.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_stats::{fit_logit, AnalysisError, Design, DesignSpec, Frame, LogitOptions};
use serde_json::Value;
use std::path::Path;

const SCALES: [f64; 9] = [1e-20, 1e-10, 1e-5, 1e5, 1e10, 1e160, 1e-160, 1e300, 1e-300];
const DATASETS: [&str; 4] = ["a_paper_like", "a18_paper_df", "b_tiny_2x2", "b2_tiny_cont"];

fn load(p: &Path, name: &str) -> Design {
    Frame::from_csv_path(
        &p.join(format!("data/{name}.csv")),
        codethread_stats::SourceLimits::default(),
    )
    .unwrap()
    .design(&DesignSpec {
        outcome: "y".into(),
        ..Default::default()
    })
    .unwrap()
}

fn json(p: &Path, name: &str) -> Value {
    let f = p.join("results").join(format!("{name}.statsmodels.json"));
    serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap()
}

fn arr(v: &Value) -> Vec<f64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect()
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

/// `d` with column `j` (all non-constant columns when `None`) multiplied by `c`.
fn scaled(d: &Design, cols: &[usize], c: f64) -> Design {
    let k = d.k();
    let mut out = d.clone();
    for row in out.x.chunks_exact_mut(k) {
        for &j in cols {
            row[j] *= c;
        }
    }
    out
}

fn check(name: &str, d: &Design, r: &Value, cols: &[usize], c: f64) {
    let tag = format!("{name} cols {cols:?} × {c:e}");
    let fit = fit_logit(d, &LogitOptions::default()).unwrap_or_else(|e| panic!("{tag}: {e}"));
    assert!(fit.converged, "{tag}: not converged: {:?}", fit.warnings);
    assert!(fit.separation.is_none(), "{tag}: {:?}", fit.separation);
    let params = arr(&r["params"]);
    let bse = arr(&r["bse"]);
    let z = arr(&r["zvalues"]);
    let p = arr(&r["pvalues"]);
    for j in 0..params.len() {
        let f = if cols.contains(&j) { c } else { 1.0 };
        // β_scaled = β / c  <=>  β_scaled · c = β (and so for the SE)
        assert!(
            rel(fit.params[j] * f, params[j]) <= 1e-8,
            "{tag}: params[{j}] = {:e}, expected {:e}",
            fit.params[j],
            params[j] / f
        );
        assert!(
            rel(fit.bse[j] * f, bse[j]) <= 1e-8,
            "{tag}: bse[{j}] = {:e}, expected {:e}",
            fit.bse[j],
            bse[j] / f
        );
        assert!(rel(fit.zvalues[j], z[j]) <= 1e-8, "{tag}: z[{j}]");
        assert!((fit.pvalues[j] - p[j]).abs() <= 1e-9, "{tag}: p[{j}]");
        // covariance: cov_ab · c_a · c_b unchanged (diagonal checked through the SE; one row here)
        let k = params.len();
        let fa = if cols.contains(&0) { c } else { 1.0 };
        let cov0 = fit.cov_params[j] * f * fa;
        let want = r["cov_params"][0][j].as_f64().unwrap();
        assert!(
            (cov0 - want).abs() <= 1e-8 * (bse[0] * bse[j]),
            "{tag}: cov[0][{j}] {cov0:e} vs {want:e} (k = {k})"
        );
    }
    assert!(
        rel(fit.llf, r["llf"].as_f64().unwrap()) <= 1e-10,
        "{tag}: llf"
    );
    assert!(
        rel(fit.prsquared, r["prsquared"].as_f64().unwrap()) <= 1e-9,
        "{tag}: prsquared"
    );
    assert!(
        rel(fit.llr, r["llr"].as_f64().unwrap()) <= 1e-8,
        "{tag}: llr"
    );
    assert!(
        (fit.llr_pvalue - r["llr_pvalue"].as_f64().unwrap()).abs() <= 1e-9,
        "{tag}: llr_pvalue"
    );
    if c.abs().log10().abs() >= 10.0 {
        assert!(
            fit.warnings
                .iter()
                .any(|w| w.contains("scale")
                    && cols.iter().any(|&j| w.contains(d.names[j].as_str()))),
            "{tag}: no warning on the extreme scale: {:?}",
            fit.warnings
        );
    }
}

#[test]
fn coefficients_follow_column_scale_one_column_at_a_time() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    for name in DATASETS {
        let d = load(&p, name);
        let r = json(&p, name);
        for j in 1..d.k() {
            for c in SCALES {
                check(name, &scaled(&d, &[j], c), &r, &[j], c);
            }
        }
    }
}

#[test]
fn coefficients_follow_column_scale_all_columns_at_once() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    for name in DATASETS {
        let d = load(&p, name);
        let r = json(&p, name);
        let cols: Vec<usize> = (1..d.k()).collect();
        for c in SCALES {
            check(name, &scaled(&d, &cols, c), &r, &cols, c);
        }
        // mixed: even columns tiny, odd columns huge
        let even: Vec<usize> = cols.iter().copied().filter(|j| j % 2 == 0).collect();
        let odd: Vec<usize> = cols.iter().copied().filter(|j| j % 2 == 1).collect();
        let mixed = scaled(&scaled(&d, &even, 1e-20), &odd, 1e20);
        let fit = fit_logit(&mixed, &LogitOptions::default()).unwrap();
        let params = arr(&r["params"]);
        for (j, want) in params.iter().enumerate() {
            let f = if even.contains(&j) {
                1e-20
            } else if odd.contains(&j) {
                1e20
            } else {
                1.0
            };
            assert!(rel(fit.params[j] * f, *want) <= 1e-8, "{name} mixed [{j}]");
        }
    }
}

#[test]
fn rank_messages_follow_column_scale() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    // e_collinear: x3 = x1 + x2 exactly. Scaling x1 by c gives x3 = (1/c)·x1 + x2 — when c is a
    // power of ten and the data are exact only up to rounding, the collinearity is still exact
    // to round-off and must be named with the right coefficients.
    let d = load(&p, "e_collinear");
    let i1 = d.names.iter().position(|n| n == "x1").unwrap();
    for c in SCALES {
        let s = scaled(&d, &[i1], c);
        match fit_logit(&s, &LogitOptions::default()) {
            Err(AnalysisError::RankDeficient {
                dependencies,
                zero_columns,
                detail,
                ..
            }) => {
                assert!(zero_columns.is_empty(), "×{c:e}: {detail}");
                assert_eq!(dependencies.len(), 1, "×{c:e}: {detail}");
                let dep = &dependencies[0];
                assert_eq!(dep.column, "x3", "×{c:e}: {detail}");
                let on: std::collections::BTreeMap<&str, f64> =
                    dep.on.iter().map(|(n, v)| (n.as_str(), *v)).collect();
                assert_eq!(on.len(), 2, "×{c:e}: {detail}");
                assert!(rel(on["x1"] * c, 1.0) <= 1e-6, "×{c:e}: {detail}");
                assert!(rel(on["x2"], 1.0) <= 1e-6, "×{c:e}: {detail}");
                assert!(!detail.trim_end().ends_with('='), "×{c:e}: {detail}");
            }
            other => panic!("×{c:e}: expected rank deficiency, got {other:?}"),
        }
    }
    // e2_zero_column: only the truly zero column is all-zero, whatever the others' scale
    let d = load(&p, "e2_zero_column");
    let cols: Vec<usize> = (1..d.k()).collect();
    for c in SCALES {
        match fit_logit(&scaled(&d, &cols, c), &LogitOptions::default()) {
            Err(AnalysisError::RankDeficient {
                zero_columns,
                dependencies,
                detail,
                ..
            }) => {
                assert_eq!(
                    zero_columns,
                    vec!["d_empty".to_string()],
                    "×{c:e}: {detail}"
                );
                assert!(dependencies.is_empty(), "×{c:e}: {detail}");
            }
            other => panic!("×{c:e}: expected rank deficiency, got {other:?}"),
        }
    }
}

#[test]
fn a_tiny_column_is_not_all_zero() {
    // no shared data needed: x·1e-160 with values below 1 used to underflow the column norm
    let n = 40;
    let names = vec!["const".to_string(), "x".to_string()];
    let mut x = Vec::new();
    let mut y = Vec::new();
    for i in 0..n {
        let v = (i as f64 - 20.0) / 10.0;
        x.extend([1.0, v * 1e-3 * 1e-160]);
        y.push(if (i * 7) % 5 < 2 + usize::from(v > 0.0) * 2 {
            1.0
        } else {
            0.0
        });
    }
    let d = Design::new(names, x, y, "y".into()).unwrap();
    let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
    assert!(fit.converged);
    assert!(fit.params[1].abs() > 1e150, "{:?}", fit.params);
}

#[test]
fn firth_follows_column_scale() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    for name in ["b2_tiny_cont", "a_paper_like", "c_quasi_sep"] {
        let d = load(&p, name);
        let f = p.join("results").join(format!("{name}.firth.json"));
        let r: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        let params = arr(&r["params"]);
        let bse = arr(&r["bse_wald"]);
        let plrt = arr(&r["pvalues_penalized_lrt"]);
        let cols: Vec<usize> = (1..d.k()).collect();
        for c in [1e-10, 1e10, 1e160, 1e-160] {
            let tag = format!("{name} firth × {c:e}");
            let fit = fit_logit(
                &scaled(&d, &cols, c),
                &LogitOptions::default()
                    .firth(true)
                    // profile intervals are slow on 405 rows; checked on the tiny set only
                    .firth_lrt(name != "a_paper_like"),
            )
            .unwrap_or_else(|e| panic!("{tag}: {e}"));
            assert!(fit.converged, "{tag}");
            for j in 0..params.len() {
                let f = if j == 0 { 1.0 } else { c };
                assert!(
                    (fit.params[j] * f - params[j]).abs() <= 1e-6 * params[j].abs().max(1.0),
                    "{tag}: params[{j}] {:e}",
                    fit.params[j]
                );
                assert!(
                    (fit.bse[j] * f - bse[j]).abs() <= 1e-6 * bse[j].max(1.0),
                    "{tag}: bse[{j}]"
                );
                if let Some(lrt) = &fit.pvalues_penalized_lrt {
                    assert!((lrt[j] - plrt[j]).abs() <= 1e-6, "{tag}: lrt p[{j}]");
                }
            }
            // ½ log det XᵀWX grows by ln c per scaled column
            let pll = r["penalized_llf"].as_f64().unwrap();
            let want = pll + cols.len() as f64 * c.ln();
            let got = fit.penalized_llf.unwrap();
            assert!(
                (got - want).abs() <= 1e-6 * want.abs().max(1.0),
                "{tag}: pll {got} vs {want}"
            );
        }
    }
}

#[test]
fn separation_verdict_follows_column_scale() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    for name in ["c_quasi_sep", "d_complete_sep"] {
        let d = load(&p, name);
        let base = fit_logit(&d, &LogitOptions::default()).unwrap();
        let sep = base.separation.clone().expect("separated");
        let cols: Vec<usize> = (1..d.k()).collect();
        for c in SCALES {
            for set in [cols.clone(), vec![1]] {
                let fit = fit_logit(&scaled(&d, &set, c), &LogitOptions::default())
                    .unwrap_or_else(|e| panic!("{name} × {c:e}: {e}"));
                let s = fit
                    .separation
                    .unwrap_or_else(|| panic!("{name} {set:?} × {c:e}: separation lost"));
                assert_eq!(s.kind, sep.kind, "{name} {set:?} × {c:e}");
                assert_eq!(s.regressors, sep.regressors, "{name} {set:?} × {c:e}");
            }
        }
    }
}

/// "Too few rows" is said in time linear in the column count (every column
/// name was looked up by a linear scan: quadratic): 4x the columns must
/// take well under 16x the time. Debug-build sizes.
#[test]
fn many_columns_are_linear() {
    codethread_testkit::adversarial::assert_subquadratic("logit on a wide CSV", 16000, |k| {
        let csv = codethread_testkit::llm_shapes::wide_csv(k);
        let d = Frame::from_csv_bytes("wide.csv", csv.as_bytes())
            .unwrap()
            .design(&DesignSpec {
                outcome: "y".into(),
                ..Default::default()
            })
            .unwrap();
        let e = fit_logit(&d, &LogitOptions::default()).unwrap_err();
        assert!(matches!(e, AnalysisError::TooFewRows { .. }), "{e}");
    });
}
