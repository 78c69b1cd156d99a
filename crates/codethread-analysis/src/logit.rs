//! Logistic regression by maximum likelihood (Newton) and Firth's penalized likelihood.
//!
//! The MLE follows statsmodels 0.15 `Logit.fit()` step by step so that results agree to
//! round-off: Newton from β = 0, at most 35 iterations, stop when every |Δβ| ≤ 1e-8, a ridge of
//! `1e-10` on the diagonal of the *mean* Hessian (i.e. `n·1e-10` on `XᵀWX`), covariance
//! `(XᵀWX)⁻¹` at the final β, `converged = false` when the cap is reached. Unlike statsmodels,
//! the null log-likelihood is the closed form `n₁ ln p̄ + n₀ ln(1 − p̄)`, rank deficiency is a
//! typed error naming the columns, and separation is detected and named.
//!
//! The sufficient statistics (log-likelihood, score and `XᵀWX`) are accumulated in one streamed
//! pass per iteration, in parallel over row chunks and summed in chunk order, so results are
//! deterministic and no `n × k` temporary is allocated.

use crate::design::Design;
use crate::error::{AnalysisError, Result};
use crate::rank::check_full_rank;
use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;
use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The 97.5 % quantile of the standard normal distribution (as statsmodels uses it).
pub const Z_975: f64 = 1.959_963_984_540_054;

/// Options of [`fit_logit`].
#[derive(Debug, Clone)]
pub struct LogitOptions {
    /// Newton iteration cap (statsmodels: 35).
    pub max_iter: usize,
    /// Stop when every |Δβ| is at most this (statsmodels: 1e-8).
    pub tol: f64,
    /// Ridge added to the diagonal of the mean Hessian at each step (statsmodels: 1e-10).
    pub ridge: f64,
    /// Fit Firth's penalized likelihood instead of the plain MLE.
    pub firth: bool,
    /// For Firth fits: also compute penalized likelihood-ratio p-values (one refit per coefficient).
    pub firth_lrt: bool,
    /// Rows per parallel chunk.
    pub chunk_rows: usize,
}

impl Default for LogitOptions {
    fn default() -> Self {
        LogitOptions {
            max_iter: 35,
            tol: 1e-8,
            ridge: 1e-10,
            firth: false,
            firth_lrt: true,
            chunk_rows: 8192,
        }
    }
}

/// Complete or quasi-complete separation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum SeparationKind {
    /// Some linear combination of regressors splits y = 0 from y = 1 strictly.
    Complete,
    /// The split holds with ties: some rows are perfectly predicted, others not.
    Quasi,
}

/// A report of (quasi-)separation: the MLE does not exist.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Separation {
    /// Complete or quasi.
    pub kind: SeparationKind,
    /// Regressors involved (those that split y on their own, plus those whose coefficients diverge).
    pub regressors: Vec<String>,
    /// Rows whose fitted probability is within 1e-8 of their outcome.
    pub perfectly_predicted: usize,
    /// Explanation.
    pub detail: String,
}

/// Which estimator produced a [`LogitFit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Method {
    /// Maximum likelihood (Newton).
    Mle,
    /// Firth penalized likelihood (Jeffreys prior, ½ log det XᵀWX).
    Firth,
}

/// A fitted logistic regression; vectors follow `names` (`const` first).
#[derive(Debug, Clone, Serialize)]
pub struct LogitFit {
    /// Estimator.
    pub method: Method,
    /// Parameter names.
    pub names: Vec<String>,
    /// Observations.
    pub nobs: usize,
    /// rank − 1.
    pub df_model: f64,
    /// n − rank.
    pub df_resid: f64,
    /// Coefficients.
    pub params: Vec<f64>,
    /// Standard errors √diag((XᵀWX)⁻¹) at the estimate.
    pub bse: Vec<f64>,
    /// Wald z = β / se.
    pub zvalues: Vec<f64>,
    /// Two-sided normal p-values 2Φ(−|z|).
    pub pvalues: Vec<f64>,
    /// 95 % Wald intervals β ± 1.959963984540054·se.
    pub conf_int: Vec<[f64; 2]>,
    /// exp(β).
    pub odds_ratios: Vec<f64>,
    /// exp of the Wald interval.
    pub odds_ratio_conf_int: Vec<[f64; 2]>,
    /// Covariance matrix, row-major k × k.
    pub cov_params: Vec<f64>,
    /// Log-likelihood at the estimate (unpenalized, also for Firth).
    pub llf: f64,
    /// Closed-form null log-likelihood n₁ ln p̄ + n₀ ln(1 − p̄).
    pub llnull: f64,
    /// McFadden pseudo R² = 1 − llf/llnull.
    pub prsquared: f64,
    /// LR statistic 2(llf − llnull).
    pub llr: f64,
    /// χ² survival of `llr` with `df_model` degrees of freedom.
    pub llr_pvalue: f64,
    /// −2 llf + 2 k.
    pub aic: f64,
    /// −2 llf + ln(n) k.
    pub bic: f64,
    /// Newton iterations used.
    pub iterations: usize,
    /// False when the iteration cap was reached.
    pub converged: bool,
    /// Separation found (the MLE does not exist), if any.
    pub separation: Option<Separation>,
    /// Firth only: penalized log-likelihood.
    pub penalized_llf: Option<f64>,
    /// Firth only: penalized likelihood-ratio p-values per coefficient.
    pub pvalues_penalized_lrt: Option<Vec<f64>>,
    /// Human-readable warnings (non-convergence, separation, standardization applied).
    pub warnings: Vec<String>,
}

/// Log-likelihood, score and information accumulated over the rows.
struct Stats {
    ll: f64,
    g: Vec<f64>,
    h: Vec<f64>,
}

#[inline]
fn softplus(t: f64) -> f64 {
    // ln(1 + e^t), stable
    if t > 0.0 {
        t + (-t).exp().ln_1p()
    } else {
        t.exp().ln_1p()
    }
}

#[inline]
fn expit(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

fn accumulate(d: &Design, beta: &[f64], chunk_rows: usize) -> Stats {
    let k = d.k();
    let parts: Vec<Stats> =
        d.x.par_chunks(chunk_rows * k)
            .zip(d.y.par_chunks(chunk_rows))
            .map(|(xc, yc)| {
                let mut s = Stats {
                    ll: 0.0,
                    g: vec![0.0; k],
                    h: vec![0.0; k * k],
                };
                let mut wx = vec![0.0; k];
                for (row, &y) in xc.chunks_exact(k).zip(yc) {
                    let mut eta = 0.0;
                    for (a, b) in row.iter().zip(beta) {
                        eta += a * b;
                    }
                    let p = expit(eta);
                    s.ll -= if y > 0.5 {
                        softplus(-eta)
                    } else {
                        softplus(eta)
                    };
                    let w = p * (1.0 - p);
                    let r = y - p;
                    for a in 0..k {
                        s.g[a] += r * row[a];
                        wx[a] = w * row[a];
                    }
                    for a in 0..k {
                        let wa = wx[a];
                        let ha = &mut s.h[a * k..(a + 1) * k];
                        for b in a..k {
                            ha[b] += wa * row[b];
                        }
                    }
                }
                s
            })
            .collect();
    let mut tot = Stats {
        ll: 0.0,
        g: vec![0.0; k],
        h: vec![0.0; k * k],
    };
    for p in parts {
        tot.ll += p.ll;
        for (t, v) in tot.g.iter_mut().zip(&p.g) {
            *t += v;
        }
        for (t, v) in tot.h.iter_mut().zip(&p.h) {
            *t += v;
        }
    }
    for a in 0..k {
        for b in 0..a {
            tot.h[a * k + b] = tot.h[b * k + a];
        }
    }
    tot
}

fn solve_spd(h: &[f64], k: usize, rhs: &[f64]) -> Option<Vec<f64>> {
    let m = DMatrix::from_row_slice(k, k, h);
    let b = DVector::from_column_slice(rhs);
    if let Some(ch) = m.clone().cholesky() {
        return Some(ch.solve(&b).iter().copied().collect());
    }
    m.lu().solve(&b).map(|v| v.iter().copied().collect())
}

fn inverse_spd(h: &[f64], k: usize) -> Option<(Vec<f64>, f64)> {
    let m = DMatrix::from_row_slice(k, k, h);
    let ch = m.cholesky()?;
    let logdet = 2.0 * ch.l_dirty().diagonal().iter().map(|v| v.ln()).sum::<f64>();
    let inv = ch.inverse();
    let mut out = vec![0.0; k * k];
    for a in 0..k {
        for b in 0..k {
            out[a * k + b] = inv[(a, b)];
        }
    }
    Some((out, logdet))
}

/// Closed-form null log-likelihood of an intercept-only model.
pub fn llnull_closed_form(y: &[f64]) -> f64 {
    let n = y.len() as f64;
    let n1 = y.iter().filter(|v| **v > 0.5).count() as f64;
    let n0 = n - n1;
    let p = n1 / n;
    let mut ll = 0.0;
    if n1 > 0.0 {
        ll += n1 * p.ln();
    }
    if n0 > 0.0 {
        ll += n0 * (1.0 - p).ln();
    }
    ll
}

/// Two-sided normal p-value 2Φ(−|z|).
pub fn normal_two_sided(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    statrs::function::erf::erfc(z.abs() / std::f64::consts::SQRT_2)
}

/// χ² survival function.
pub fn chi2_sf(x: f64, df: f64) -> f64 {
    if !(x.is_finite()) || df <= 0.0 {
        return if x == f64::INFINITY { 0.0 } else { f64::NAN };
    }
    if x <= 0.0 {
        return 1.0;
    }
    match ChiSquared::new(df) {
        Ok(c) => c.sf(x),
        Err(_) => f64::NAN,
    }
}

/// Fits a logistic regression of `d.y` on `d.x`.
///
/// Errors: [`AnalysisError::RankDeficient`] (naming all-zero and collinear columns),
/// [`AnalysisError::TooFewRows`], [`AnalysisError::Numerical`]. Separation is not an error: the
/// fit is returned with [`LogitFit::separation`] set and a warning.
pub fn fit_logit(d: &Design, opts: &LogitOptions) -> Result<LogitFit> {
    let n = d.nobs();
    let k = d.k();
    check_full_rank(&d.names, &d.x, n)?;
    let chunk = opts.chunk_rows.max(1);
    let single = single_regressor_separation(d);

    let (params, iterations, converged, last_step, stats, penalized_llf, lrt) = if opts.firth {
        let f = firth_fit(d, None, chunk)?;
        let lrt = if opts.firth_lrt {
            let mut ps = Vec::with_capacity(k);
            for j in 0..k {
                let r = firth_fit(d, Some(j), chunk)?;
                let lr = (2.0 * (f.pll - r.pll)).max(0.0);
                ps.push(chi2_sf(lr, 1.0));
            }
            Some(ps)
        } else {
            None
        };
        let mut stats = accumulate(d, &f.beta, chunk);
        // Wald covariance from the information of the Firth-augmented data, XᵀW(1+h)X (what
        // firthmodels reports); falls back to (XᵀWX)⁻¹ if that is not positive definite.
        if let Some(hs) = firth_augmented_information(d, &f.beta, &stats.h) {
            if inverse_spd(&hs, k).is_some() {
                stats.h = hs;
            }
        }
        (
            f.beta,
            f.iterations,
            f.converged,
            vec![0.0; k],
            stats,
            Some(f.pll),
            lrt,
        )
    } else {
        let mut beta = vec![0.0; k];
        let mut step = vec![f64::INFINITY; k];
        let mut iterations = 0;
        let ridge = opts.ridge * n as f64;
        while iterations < opts.max_iter && step.iter().any(|s| s.abs() > opts.tol) {
            let s = accumulate(d, &beta, chunk);
            let mut h = s.h;
            for a in 0..k {
                h[a * k + a] += ridge;
            }
            step = solve_spd(&h, k, &s.g).ok_or_else(|| {
                AnalysisError::Numerical(format!(
                    "Newton step {} has a singular Hessian",
                    iterations + 1
                ))
            })?;
            if step.iter().any(|v| !v.is_finite()) {
                return Err(AnalysisError::Numerical(format!(
                    "Newton step {} is not finite",
                    iterations + 1
                )));
            }
            for (b, s) in beta.iter_mut().zip(&step) {
                *b += s;
            }
            iterations += 1;
        }
        let converged = iterations < opts.max_iter;
        let stats = accumulate(d, &beta, chunk);
        (beta, iterations, converged, step, stats, None, None)
    };

    let mut warnings = Vec::new();
    let (cov, _) = match inverse_spd(&stats.h, k) {
        Some(v) => v,
        None => {
            warnings.push(
                "XᵀWX is numerically singular at the estimate; standard errors are undefined"
                    .to_string(),
            );
            (vec![f64::NAN; k * k], f64::NAN)
        }
    };
    let bse: Vec<f64> = (0..k).map(|j| cov[j * k + j].sqrt()).collect();
    let zvalues: Vec<f64> = params.iter().zip(&bse).map(|(b, s)| b / s).collect();
    let pvalues = zvalues.iter().map(|z| normal_two_sided(*z)).collect();
    let conf_int: Vec<[f64; 2]> = params
        .iter()
        .zip(&bse)
        .map(|(b, s)| [b - Z_975 * s, b + Z_975 * s])
        .collect();
    let odds_ratios = params.iter().map(|b| b.exp()).collect();
    let odds_ratio_conf_int = conf_int.iter().map(|c| [c[0].exp(), c[1].exp()]).collect();
    let llf = stats.ll;
    let llnull = llnull_closed_form(&d.y);
    let df_model = (k - 1) as f64;
    let llr = 2.0 * (llf - llnull);
    let nf = n as f64;

    // separation
    let perfectly = perfectly_predicted(d, &params);
    let scaled_max = max_scaled_coef(d, &params);
    let diverging = (!converged && !opts.firth) || scaled_max > 10.0;
    let mut separation = None;
    if !single.is_empty() || (diverging && perfectly > 0 && !opts.firth) {
        let mut regressors: Vec<String> = single.iter().map(|s| s.0.clone()).collect();
        if diverging && !opts.firth {
            for name in diverging_regressors(d, &last_step) {
                if !regressors.contains(&name) {
                    regressors.push(name);
                }
            }
        }
        let complete = perfectly == n || single.iter().any(|s| s.1 == SeparationKind::Complete);
        let kind = if complete {
            SeparationKind::Complete
        } else {
            SeparationKind::Quasi
        };
        let mut detail = format!(
            "{} separation: {} of {} observations are perfectly predicted",
            if complete {
                "complete"
            } else {
                "quasi-complete"
            },
            perfectly,
            n
        );
        for (name, kind, text) in &single {
            let _ = kind;
            detail.push_str(&format!("; {name}: {text}"));
        }
        if opts.firth {
            detail.push_str("; the Firth estimate is finite and usable");
        } else {
            detail.push_str(
                "; the maximum likelihood estimate does not exist, coefficients of these \
                 regressors (and their standard errors) diverge — use the Firth fit",
            );
        }
        warnings.push(detail.clone());
        separation = Some(Separation {
            kind,
            regressors,
            perfectly_predicted: perfectly,
            detail,
        });
    }
    if !converged {
        warnings.insert(
            0,
            format!("did not converge in {iterations} iterations (maximum reached)"),
        );
    }
    if !d.scaling.is_empty() {
        warnings.push(format!(
            "standardized (mean 0, sd 1, ddof 1): {}",
            d.scaling
                .iter()
                .map(|s| s.column.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok(LogitFit {
        method: if opts.firth {
            Method::Firth
        } else {
            Method::Mle
        },
        names: d.names.clone(),
        nobs: n,
        df_model,
        df_resid: nf - k as f64,
        params,
        bse,
        zvalues,
        pvalues,
        conf_int,
        odds_ratios,
        odds_ratio_conf_int,
        cov_params: cov,
        llf,
        llnull,
        prsquared: 1.0 - llf / llnull,
        llr,
        llr_pvalue: chi2_sf(llr, df_model),
        aic: -2.0 * llf + 2.0 * k as f64,
        bic: -2.0 * llf + nf.ln() * k as f64,
        iterations,
        converged,
        separation,
        penalized_llf,
        pvalues_penalized_lrt: lrt,
        warnings,
    })
}

/// Regressors that on their own split y: `max(x | y=0) ≤ min(x | y=1)` or the reverse
/// (strict inequality: complete separation; equality: quasi-complete).
fn single_regressor_separation(d: &Design) -> Vec<(String, SeparationKind, String)> {
    let k = d.k();
    let mut lo = [vec![f64::INFINITY; k], vec![f64::INFINITY; k]];
    let mut hi = [vec![f64::NEG_INFINITY; k], vec![f64::NEG_INFINITY; k]];
    for (row, &y) in d.x.chunks_exact(k).zip(&d.y) {
        let c = usize::from(y > 0.5);
        for j in 0..k {
            lo[c][j] = lo[c][j].min(row[j]);
            hi[c][j] = hi[c][j].max(row[j]);
        }
    }
    let mut out = Vec::new();
    for j in 0..k {
        let constant = lo[0][j].min(lo[1][j]) == hi[0][j].max(hi[1][j]);
        if constant {
            continue;
        }
        let name = &d.names[j];
        let (kind, text) = if hi[0][j] < lo[1][j] {
            (
                SeparationKind::Complete,
                format!("y = 1 exactly when {name} > {}", hi[0][j]),
            )
        } else if hi[1][j] < lo[0][j] {
            (
                SeparationKind::Complete,
                format!("y = 1 exactly when {name} < {}", lo[0][j]),
            )
        } else if hi[0][j] <= lo[1][j] {
            (
                SeparationKind::Quasi,
                format!(
                    "every row with {name} > {v} has y = 1 and every row with {name} < {v} has y = 0",
                    v = hi[0][j]
                ),
            )
        } else if hi[1][j] <= lo[0][j] {
            (
                SeparationKind::Quasi,
                format!(
                    "every row with {name} < {v} has y = 1 and every row with {name} > {v} has y = 0",
                    v = lo[0][j]
                ),
            )
        } else {
            continue;
        };
        out.push((name.clone(), kind, text));
    }
    out
}

fn perfectly_predicted(d: &Design, beta: &[f64]) -> usize {
    let k = d.k();
    d.x.par_chunks(k)
        .zip(d.y.par_iter())
        .filter(|(row, &y)| {
            let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
            let p = expit(eta);
            (y - p).abs() < 1e-8
        })
        .count()
}

fn column_sd(d: &Design) -> Vec<f64> {
    let k = d.k();
    let n = d.nobs() as f64;
    let mut s = vec![0.0; k];
    let mut s2 = vec![0.0; k];
    for row in d.x.chunks_exact(k) {
        for j in 0..k {
            s[j] += row[j];
            s2[j] += row[j] * row[j];
        }
    }
    (0..k)
        .map(|j| {
            let m = s[j] / n;
            (s2[j] / n - m * m).max(0.0).sqrt()
        })
        .collect()
}

fn max_scaled_coef(d: &Design, beta: &[f64]) -> f64 {
    column_sd(d)
        .iter()
        .zip(beta)
        .zip(&d.kinds)
        .filter(|(_, kind)| **kind != crate::design::ColumnKind::Constant)
        .map(|((s, b), _)| (s * b).abs())
        .fold(0.0, f64::max)
}

/// Regressors whose share of the last Newton step (in sd units) is at least 10 % of the largest.
fn diverging_regressors(d: &Design, step: &[f64]) -> Vec<String> {
    let sd = column_sd(d);
    let comp: Vec<f64> = (0..d.k())
        .map(|j| {
            if d.kinds[j] == crate::design::ColumnKind::Constant || !step[j].is_finite() {
                0.0
            } else {
                (step[j] * sd[j]).abs()
            }
        })
        .collect();
    let m = comp.iter().copied().fold(0.0, f64::max);
    if m <= 0.0 {
        return Vec::new();
    }
    (0..d.k())
        .filter(|&j| comp[j] >= 0.1 * m)
        .map(|j| d.names[j].clone())
        .collect()
}

struct FirthResult {
    beta: Vec<f64>,
    pll: f64,
    iterations: usize,
    converged: bool,
}

/// Σ h_i (½ − p_i) x_i with h_i = w_i x_iᵀ (XᵀWX)⁻¹ x_i.
fn firth_adjustment(d: &Design, beta: &[f64], hinv: &[f64], chunk_rows: usize) -> Vec<f64> {
    let k = d.k();
    let parts: Vec<Vec<f64>> =
        d.x.par_chunks(chunk_rows * k)
            .map(|xc| {
                let mut a = vec![0.0; k];
                let mut t = vec![0.0; k];
                for row in xc.chunks_exact(k) {
                    let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
                    let p = expit(eta);
                    let w = p * (1.0 - p);
                    for (r, tr) in t.iter_mut().enumerate() {
                        let hr = &hinv[r * k..(r + 1) * k];
                        *tr = hr.iter().zip(row).map(|(a, b)| a * b).sum();
                    }
                    let q: f64 = t.iter().zip(row).map(|(a, b)| a * b).sum();
                    let h = w * q;
                    let c = h * (0.5 - p);
                    for (aj, xj) in a.iter_mut().zip(row) {
                        *aj += c * xj;
                    }
                }
                a
            })
            .collect();
    let mut out = vec![0.0; k];
    for p in parts {
        for (o, v) in out.iter_mut().zip(p) {
            *o += v;
        }
    }
    out
}

/// Firth fit by modified-score Fisher scoring with step halving on the penalized likelihood;
/// `fixed = Some(j)` holds β_j at 0 (for penalized likelihood-ratio tests).
fn firth_fit(d: &Design, fixed: Option<usize>, chunk: usize) -> Result<FirthResult> {
    let k = d.k();
    let free: Vec<usize> = (0..k).filter(|j| Some(*j) != fixed).collect();
    let mut beta = vec![0.0; k];
    let eval = |beta: &[f64]| -> Result<(Stats, Vec<f64>, f64)> {
        let s = accumulate(d, beta, chunk);
        let (hinv, logdet) = inverse_spd(&s.h, k)
            .ok_or_else(|| AnalysisError::Numerical("Firth: XᵀWX is singular".to_string()))?;
        let pll = s.ll + 0.5 * logdet;
        Ok((s, hinv, pll))
    };
    let (mut s, mut hinv, mut pll) = eval(&beta)?;
    let max_iter = 200;
    let mut iterations = 0;
    let mut converged = false;
    while iterations < max_iter {
        iterations += 1;
        let adj = firth_adjustment(d, &beta, &hinv, chunk);
        let ustar: Vec<f64> = s.g.iter().zip(&adj).map(|(a, b)| a + b).collect();
        let kf = free.len();
        let mut hf = vec![0.0; kf * kf];
        for (a, &ja) in free.iter().enumerate() {
            for (b, &jb) in free.iter().enumerate() {
                hf[a * kf + b] = s.h[ja * k + jb];
            }
        }
        let uf: Vec<f64> = free.iter().map(|&j| ustar[j]).collect();
        let mut step_f = solve_spd(&hf, kf, &uf)
            .ok_or_else(|| AnalysisError::Numerical("Firth: singular information".to_string()))?;
        let mx = step_f.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if mx > 5.0 {
            for v in step_f.iter_mut() {
                *v *= 5.0 / mx;
            }
        }
        let small = step_f.iter().all(|v| v.abs() <= 1e-10)
            && uf
                .iter()
                .all(|v| v.abs() <= 1e-9 * (d.nobs() as f64).max(1.0));
        let mut accepted = false;
        let mut factor = 1.0;
        for _ in 0..40 {
            let mut nb = beta.clone();
            for (&j, v) in free.iter().zip(&step_f) {
                nb[j] += factor * v;
            }
            let (ns, nh, np) = eval(&nb)?;
            if np >= pll - 1e-12 * pll.abs().max(1.0) {
                beta = nb;
                s = ns;
                hinv = nh;
                pll = np;
                accepted = true;
                break;
            }
            factor *= 0.5;
        }
        if small || !accepted {
            converged = small;
            break;
        }
        if step_f.iter().all(|v| (factor * v).abs() <= 1e-11) {
            converged = true;
            break;
        }
    }
    Ok(FirthResult {
        beta,
        pll,
        iterations,
        converged,
    })
}

/// XᵀW(1+h)X: Fisher information of the Firth-augmented data at β.
fn firth_augmented_information(d: &Design, beta: &[f64], info: &[f64]) -> Option<Vec<f64>> {
    let k = d.k();
    let (a, _) = inverse_spd(info, k)?;
    let mut out = vec![0.0; k * k];
    for row in d.x.chunks_exact(k) {
        let eta: f64 = row.iter().zip(beta).map(|(a, b)| a * b).sum();
        let p = expit(eta);
        let w = p * (1.0 - p);
        let mut q = 0.0;
        for u in 0..k {
            let t: f64 = (0..k).map(|v| a[u * k + v] * row[v]).sum();
            q += row[u] * t;
        }
        let ww = w * (1.0 + w * q);
        for r in 0..k {
            for s in 0..k {
                out[r * k + s] += ww * row[r] * row[s];
            }
        }
    }
    Some(out)
}
