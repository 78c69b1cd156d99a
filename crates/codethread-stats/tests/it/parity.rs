//! statsmodels / firthmodels parity on /work/shared/stats (needs CODETHREAD_SHARED).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_stats::{fit_logit, AnalysisError, DesignSpec, Frame, LogitOptions};
use serde_json::Value;
use std::path::Path;

fn load(p: &Path, name: &str) -> codethread_stats::Design {
    let frame = Frame::from_csv_path(
        &p.join(format!("data/{name}.csv")),
        codethread_stats::SourceLimits::default(),
    )
    .unwrap();
    frame
        .design(&DesignSpec {
            outcome: "y".into(),
            ..Default::default()
        })
        .unwrap()
}

fn json(p: &Path, file: &str) -> Value {
    serde_json::from_slice(&std::fs::read(p.join("results").join(file)).unwrap()).unwrap()
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

fn check_statsmodels(name: &str) {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let d = load(&p, name);
    let r = json(&p, &format!("{name}.statsmodels.json"));
    let names: Vec<String> = r["exog_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(d.names, names);
    let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
    let params = arr(&r["params"]);
    let bse = arr(&r["bse"]);
    let pv = arr(&r["pvalues"]);
    let z = arr(&r["zvalues"]);
    let mut worst = (0.0f64, 0.0f64, 0.0f64);
    for j in 0..params.len() {
        worst.0 = worst.0.max(rel(fit.params[j], params[j]));
        worst.1 = worst.1.max(rel(fit.bse[j], bse[j]));
        worst.2 = worst.2.max((fit.pvalues[j] - pv[j]).abs());
        assert!(rel(fit.params[j], params[j]) <= 1e-8, "{name} params[{j}]");
        assert!(rel(fit.bse[j], bse[j]) <= 1e-8, "{name} bse[{j}]");
        assert!((fit.pvalues[j] - pv[j]).abs() <= 1e-9, "{name} p[{j}]");
        assert!(rel(fit.zvalues[j], z[j]) <= 1e-8, "{name} z[{j}]");
        let ci = &r["conf_int_95"][j];
        assert!(rel(fit.conf_int[j][0], ci[0].as_f64().unwrap()) <= 1e-8);
        assert!(rel(fit.conf_int[j][1], ci[1].as_f64().unwrap()) <= 1e-8);
        let or = r["odds_ratios"][j].as_f64().unwrap();
        assert!(rel(fit.odds_ratios[j], or) <= 1e-8);
    }
    let llf = r["llf"].as_f64().unwrap();
    assert!(
        rel(fit.llf, llf) <= 1e-10,
        "{name} llf {} vs {llf}",
        fit.llf
    );
    let llnull = r["llnull"].as_f64().unwrap();
    assert!(rel(fit.llnull, llnull) <= 1e-9, "{name} llnull");
    assert!(rel(fit.prsquared, r["prsquared"].as_f64().unwrap()) <= 1e-9);
    assert!(rel(fit.llr, r["llr"].as_f64().unwrap()) <= 1e-8);
    assert!((fit.llr_pvalue - r["llr_pvalue"].as_f64().unwrap()).abs() <= 1e-9);
    assert!(rel(fit.aic, r["aic"].as_f64().unwrap()) <= 1e-10);
    assert!(rel(fit.bic, r["bic"].as_f64().unwrap()) <= 1e-10);
    assert_eq!(fit.df_model, r["df_model"].as_f64().unwrap());
    assert_eq!(fit.iterations as u64, r["iterations"].as_u64().unwrap());
    assert_eq!(fit.converged, r["converged"].as_bool().unwrap());
    assert!(fit.separation.is_none(), "{name}: {:?}", fit.separation);
    assert!(fit.warnings.is_empty(), "{name}: {:?}", fit.warnings);
    println!(
        "{name}: max rel params {:.2e}, max rel bse {:.2e}, max abs p {:.2e}, rel llf {:.2e}, rel llnull {:.2e}",
        worst.0,
        worst.1,
        worst.2,
        rel(fit.llf, llf),
        rel(fit.llnull, llnull)
    );
}

#[test]
fn parity_a_paper_like() {
    check_statsmodels("a_paper_like");
}

#[test]
fn parity_a18_paper_df() {
    check_statsmodels("a18_paper_df");
}

#[test]
fn parity_b_tiny_2x2() {
    check_statsmodels("b_tiny_2x2");
}

#[test]
fn parity_b2_tiny_cont() {
    check_statsmodels("b2_tiny_cont");
}

#[test]
fn b_equals_closed_form() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let meta: Value =
        serde_json::from_slice(&std::fs::read(p.join("data/datasets_meta.json")).unwrap()).unwrap();
    let cf = &meta["b_tiny_2x2"]["closed_form"];
    let fit = fit_logit(&load(&p, "b_tiny_2x2"), &LogitOptions::default()).unwrap();
    for (j, v) in arr(&cf["params"]).iter().enumerate() {
        assert!(rel(fit.params[j], *v) <= 1e-12);
    }
    for (j, v) in arr(&cf["bse"]).iter().enumerate() {
        assert!(rel(fit.bse[j], *v) <= 1e-12);
    }
    assert!(rel(fit.llf, cf["llf"].as_f64().unwrap()) <= 1e-13);
    assert!(rel(fit.llnull, cf["llnull"].as_f64().unwrap()) <= 1e-14);
    assert!(rel(fit.prsquared, cf["prsquared"].as_f64().unwrap()) <= 1e-12);
    // Firth on a saturated 2x2 = Haldane +0.5 correction
    let firth = fit_logit(
        &load(&p, "b_tiny_2x2"),
        &LogitOptions::default().firth(true),
    )
    .unwrap();
    for (j, v) in arr(&cf["firth_params_haldane"]).iter().enumerate() {
        assert!((firth.params[j] - v).abs() <= 1e-9, "haldane {j}");
    }
}

fn check_firth(name: &str) {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let d = load(&p, name);
    let r = json(&p, &format!("{name}.firth.json"));
    let fit = fit_logit(&d, &LogitOptions::default().firth(true)).unwrap();
    assert!(fit.converged, "{name} firth converged");
    let params = arr(&r["params"]);
    let bse = arr(&r["bse_wald"]);
    let pw = arr(&r["pvalues_wald"]);
    let plrt = arr(&r["pvalues_penalized_lrt"]);
    let lrt = fit.pvalues_penalized_lrt.clone().unwrap();
    let mut worst = 0.0f64;
    for j in 0..params.len() {
        let e = (fit.params[j] - params[j]).abs();
        worst = worst.max(e);
        // firthmodels stops at xtol = gtol = 1e-6 (its 1e-9 refit fails to converge on d), so
        // the reference carries ~1e-6 of optimisation error: compare to 1e-6 relative.
        assert!(
            e <= 1e-6 * params[j].abs().max(1.0),
            "{name} firth param {j}: {} vs {}",
            fit.params[j],
            params[j]
        );
        assert!(
            (fit.bse[j] - bse[j]).abs() <= 1e-6 * bse[j].max(1.0),
            "{name} firth bse {j}: {} vs {}",
            fit.bse[j],
            bse[j]
        );
        assert!((fit.pvalues[j] - pw[j]).abs() <= 1e-6, "{name} firth p {j}");
        assert!(
            (lrt[j] - plrt[j]).abs() <= 1e-6,
            "{name} firth lrt p {j}: {} vs {}",
            lrt[j],
            plrt[j]
        );
    }
    let prof = fit.conf_int_profile.clone().unwrap();
    let mut worst_ci = 0.0f64;
    for (j, ci) in r["conf_int_95_profile_penalized"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
    {
        for s in 0..2 {
            let v = ci[s].as_f64().unwrap();
            let e = (prof[j][s] - v).abs() / v.abs().max(1.0);
            worst_ci = worst_ci.max(e);
            assert!(
                e <= 1e-5,
                "{name} profile ci {j}.{s}: {} vs {v}",
                prof[j][s]
            );
        }
    }
    println!("{name}: profile CI max rel diff {worst_ci:.2e}");
    let pll = r["penalized_llf"].as_f64().unwrap();
    let ours = fit.penalized_llf.unwrap();
    assert!((ours - pll).abs() <= 1e-6, "{name} pll");
    // our optimum is at least as good as the reference's
    assert!(
        ours >= pll - 1e-12 * pll.abs(),
        "{name}: pll {ours} < {pll}"
    );
    // with the reference's own tight refit, where it converged, agreement is much closer
    if let Some(t) = r["params_tight_tol_1e-9"].as_array() {
        for (j, v) in t.iter().enumerate() {
            let v = v.as_f64().unwrap();
            assert!(
                (fit.params[j] - v).abs() <= 1e-7 * v.abs().max(1.0),
                "{name} tight {j}"
            );
        }
    }
    println!("{name}: firth max abs param diff {worst:.2e}");
}

#[test]
fn firth_a() {
    check_firth("a_paper_like");
}
#[test]
fn firth_b() {
    check_firth("b_tiny_2x2");
}
#[test]
fn firth_b2() {
    check_firth("b2_tiny_cont");
}
#[test]
fn firth_c() {
    check_firth("c_quasi_sep");
}
#[test]
fn firth_d() {
    check_firth("d_complete_sep");
}

#[test]
fn separation_c_quasi_names_d1() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let fit = fit_logit(&load(&p, "c_quasi_sep"), &LogitOptions::default()).unwrap();
    let sep = fit.separation.clone().expect("separation reported");
    assert_eq!(sep.kind, codethread_stats::SeparationKind::Quasi);
    assert!(sep.regressors.contains(&"d1".to_string()), "{sep:?}");
    assert!(!sep.regressors.contains(&"x1".to_string()), "{sep:?}");
    assert_eq!(sep.perfectly_predicted, 10);
    assert!(!fit.converged);
}

#[test]
fn separation_d_complete_names_x1() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let fit = fit_logit(&load(&p, "d_complete_sep"), &LogitOptions::default()).unwrap();
    let sep = fit.separation.clone().expect("separation reported");
    assert_eq!(sep.kind, codethread_stats::SeparationKind::Complete);
    assert_eq!(sep.regressors[0], "x1", "{sep:?}");
}

#[test]
fn rank_e2_zero_column_named() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    match fit_logit(&load(&p, "e2_zero_column"), &LogitOptions::default()) {
        Err(AnalysisError::RankDeficient {
            zero_columns, rank, ..
        }) => {
            assert_eq!(zero_columns, vec!["d_empty".to_string()]);
            assert_eq!(rank, 3);
        }
        other => panic!("expected rank error, got {other:?}"),
    }
}

#[test]
fn rank_e_collinear_named() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    match fit_logit(&load(&p, "e_collinear"), &LogitOptions::default()) {
        Err(AnalysisError::RankDeficient {
            dependencies, rank, ..
        }) => {
            assert_eq!(rank, 3);
            assert_eq!(dependencies.len(), 1);
            assert_eq!(dependencies[0].column, "x3");
            let on: Vec<&str> = dependencies[0].on.iter().map(|c| c.0.as_str()).collect();
            assert_eq!(on, vec!["x1", "x2"]);
            for (_, c) in &dependencies[0].on {
                assert!((c - 1.0).abs() < 1e-9);
            }
        }
        other => panic!("expected rank error, got {other:?}"),
    }
}

#[test]
fn json_output_shape() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let fit = fit_logit(&load(&p, "a18_paper_df"), &LogitOptions::default()).unwrap();
    let text = fit.to_json();
    let v: Value = serde_json::from_str(&text).unwrap();
    for k in [
        "nobs",
        "df_model",
        "llf",
        "llnull",
        "prsquared",
        "llr",
        "llr_pvalue",
        "aic",
        "bic",
        "converged",
        "iterations",
        "params",
        "bse",
        "zvalues",
        "pvalues",
        "conf_int",
        "odds_ratios",
        "odds_ratio_conf_int",
        "separation",
        "warnings",
    ] {
        assert!(v.get(k).is_some(), "{k}");
    }
    assert_eq!(v["df_model"].as_f64(), Some(18.0));
    assert_eq!(v["params"]["const"].as_f64(), Some(fit.params[0]));
    assert_eq!(
        v["conf_int"]["model_M3"][1].as_f64(),
        Some(fit.conf_int[18][1])
    );
    // parameters appear in model order in the text
    let a = text.find("\"d_cc_pr1\"").unwrap();
    let b = text.find("\"bench_B1\"").unwrap();
    assert!(a < b);
    assert_eq!(v["separation"].as_array().unwrap().len(), 0);
}
