//! Logistic regression by maximum likelihood (Newton) and Firth's penalized likelihood.
//!
//! The MLE follows statsmodels 0.15 `Logit.fit()` step by step so that results agree to
//! round-off: Newton from β = 0, at most 35 iterations, stop when every |Δβ| ≤ 1e-8, a ridge of
//! `1e-10` on the diagonal of the *mean* Hessian (i.e. `n·1e-10` on `XᵀWX`), covariance
//! `(XᵀWX)⁻¹` at the final β, `converged = false` when the cap is reached. Ridge and stopping
//! rule act on the standardized coefficients βⱼ·sⱼ (sⱼ a power of two near the column's sd), so
//! the fit is scale-invariant; columns of extreme scale are fitted on an exactly rescaled copy
//! and reported in their own units, with a warning. Unlike statsmodels,
//! the null log-likelihood is the closed form `n₁ ln p̄ + n₀ ln(1 − p̄)`, rank deficiency is a
//! typed error naming the columns, and separation is detected and named.
//!
//! The sufficient statistics (log-likelihood, score and `XᵀWX`) are accumulated in one streamed
//! pass per iteration, in parallel over row chunks and summed in chunk order, so results are
//! deterministic and no `n × k` temporary is allocated.

use crate::design::Design;
use crate::error::{AnalysisError, Result};
use crate::rank::check_full_rank_in_units;
use nalgebra::{DMatrix, DVector};
use rayon::prelude::*;
use serde::Serialize;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// The 97.5 % quantile of the standard normal distribution (as statsmodels uses it).
pub const Z_975: f64 = 1.959_963_984_540_054;

/// Options of [`fit_logit`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LogitOptions {
    /// Newton iteration cap (statsmodels: 35).
    pub max_iter: usize,
    /// Stop when every standardized step |Δβⱼ|·sⱼ is at most this (statsmodels: |Δβⱼ|, 1e-8).
    pub tol: f64,
    /// Ridge added to the diagonal of the mean Hessian at each step (statsmodels: 1e-10).
    pub ridge: f64,
    /// Fit Firth's penalized likelihood instead of the plain MLE.
    pub firth: bool,
    /// For Firth fits: also compute penalized likelihood-ratio p-values (one refit per
    /// coefficient) and, for designs up to [`PROFILE_LIMIT`] cells, profile intervals.
    pub firth_lrt: bool,
    /// Rows per parallel chunk.
    pub chunk_rows: usize,
}

impl LogitOptions {
    /// Sets [`LogitOptions::max_iter`].
    pub fn max_iter(mut self, max_iter: usize) -> Self {
        self.max_iter = max_iter;
        self
    }

    /// Sets [`LogitOptions::tol`].
    pub fn tol(mut self, tol: f64) -> Self {
        self.tol = tol;
        self
    }

    /// Sets [`LogitOptions::ridge`].
    pub fn ridge(mut self, ridge: f64) -> Self {
        self.ridge = ridge;
        self
    }

    /// Sets [`LogitOptions::firth`].
    pub fn firth(mut self, firth: bool) -> Self {
        self.firth = firth;
        self
    }

    /// Sets [`LogitOptions::firth_lrt`].
    pub fn firth_lrt(mut self, firth_lrt: bool) -> Self {
        self.firth_lrt = firth_lrt;
        self
    }

    /// Sets [`LogitOptions::chunk_rows`].
    pub fn chunk_rows(mut self, chunk_rows: usize) -> Self {
        self.chunk_rows = chunk_rows;
        self
    }
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
    /// Firth only: 95 % profile penalized-likelihood intervals
    /// {b : 2(l*(β̂) − max l*(β | βⱼ = b)) ≤ χ²₁(0.95)}.
    pub conf_int_profile: Option<Vec<[f64; 2]>>,
    /// Human-readable warnings (non-convergence, separation, standardization applied).
    pub warnings: Vec<String>,
}

/// Log-likelihood, score and information accumulated over the rows.
struct Stats {
    ll: f64,
    g: Vec<f64>,
    h: Vec<f64>,
    /// rows with |y − p| < 1e-8
    perfect: usize,
    /// rows strictly on their outcome's side of the hyperplane η = 0
    correct: usize,
}

impl Stats {
    fn zero(k: usize) -> Stats {
        Stats {
            ll: 0.0,
            g: vec![0.0; k],
            h: vec![0.0; k * k],
            perfect: 0,
            correct: 0,
        }
    }
}

#[inline]
fn expit(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

/// (p, log-likelihood contribution) for one row from a single `exp`.
#[inline]
fn row_terms(eta: f64, y: f64) -> (f64, f64) {
    let e = (-eta.abs()).exp(); // in (0, 1]
    let l1p = e.ln_1p();
    let p = if eta >= 0.0 {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    };
    // ln p = -softplus(-eta), ln(1-p) = -softplus(eta); softplus(t) = max(t,0) + ln1p(e^-|t|)
    let ll = if y > 0.5 {
        -((-eta).max(0.0) + l1p)
    } else {
        -(eta.max(0.0) + l1p)
    };
    (p, ll)
}

#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut s = 0.0;
    for (x, y) in a.iter().zip(b) {
        s += x * y;
    }
    s
}

fn accumulate_chunk(xc: &[f64], yc: &[f64], beta: &[f64], k: usize) -> Stats {
    let mut s = Stats::zero(k);
    let mut rows = xc.chunks_exact(4 * k);
    let mut ys = yc.chunks_exact(4);
    for (blk, yb) in (&mut rows).zip(&mut ys) {
        let (x0, rest) = blk.split_at(k);
        let (x1, rest) = rest.split_at(k);
        let (x2, x3) = rest.split_at(k);
        let mut w = [0.0; 4];
        let mut r = [0.0; 4];
        for (t, (xr, &y)) in [x0, x1, x2, x3].iter().zip(yb).enumerate() {
            let eta = dot(xr, beta);
            let (p, ll) = row_terms(eta, y);
            s.ll += ll;
            if (y - p).abs() < 1e-8 {
                s.perfect += 1;
            }
            if (y > 0.5 && eta > 0.0) || (y < 0.5 && eta < 0.0) {
                s.correct += 1;
            }
            w[t] = p * (1.0 - p);
            r[t] = y - p;
        }
        for a in 0..k {
            s.g[a] += r[0] * x0[a] + r[1] * x1[a] + r[2] * x2[a] + r[3] * x3[a];
            let c0 = w[0] * x0[a];
            let c1 = w[1] * x1[a];
            let c2 = w[2] * x2[a];
            let c3 = w[3] * x3[a];
            let ha = &mut s.h[a * k + a..(a + 1) * k];
            let (y0, y1, y2, y3) = (&x0[a..], &x1[a..], &x2[a..], &x3[a..]);
            for (b, hb) in ha.iter_mut().enumerate() {
                *hb += c0 * y0[b] + c1 * y1[b] + c2 * y2[b] + c3 * y3[b];
            }
        }
    }
    for (row, &y) in rows.remainder().chunks_exact(k).zip(ys.remainder()) {
        let eta = dot(row, beta);
        let (p, ll) = row_terms(eta, y);
        s.ll += ll;
        if (y - p).abs() < 1e-8 {
            s.perfect += 1;
        }
        if (y > 0.5 && eta > 0.0) || (y < 0.5 && eta < 0.0) {
            s.correct += 1;
        }
        let w = p * (1.0 - p);
        let r = y - p;
        for a in 0..k {
            s.g[a] += r * row[a];
            let c = w * row[a];
            let ha = &mut s.h[a * k + a..(a + 1) * k];
            for (hb, xb) in ha.iter_mut().zip(&row[a..]) {
                *hb += c * xb;
            }
        }
    }
    s
}

fn accumulate(d: &Design, beta: &[f64], chunk_rows: usize) -> Stats {
    let k = d.k();
    let parts: Vec<Stats> =
        d.x.par_chunks(chunk_rows * k)
            .zip(d.y.par_chunks(chunk_rows))
            .map(|(xc, yc)| accumulate_chunk(xc, yc, beta, k))
            .collect();
    let mut tot = Stats::zero(k);
    for p in parts {
        tot.ll += p.ll;
        tot.perfect += p.perfect;
        tot.correct += p.correct;
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
pub fn fit_logit(orig: &Design, opts: &LogitOptions) -> Result<LogitFit> {
    let n = orig.nobs();
    let k = orig.k();
    // the cheap precondition before any pass over the columns
    if n < k {
        return Err(AnalysisError::TooFewRows { nobs: n, params: k });
    }
    let chunk = opts.chunk_rows.max(1);
    let pre_orig = prepass(orig);
    let single = single_regressor_separation(orig, &pre_orig);
    // Scale invariance: every column has a scale s_j (a power of two near its sd). The Newton
    // iteration works on the standardized coefficients β_j·s_j — ridge and stopping rule are
    // applied to them — which, s_j being a power of two, is exactly the iteration on the columns
    // divided by s_j. Columns whose squares would leave the f64 range are really divided (on a
    // copy): `unit[j]` is the factor the working column was divided by, `r[j]` its scale.
    let scales = column_scales(orig, &pre_orig);
    // Firth's iteration has absolute step caps and tolerances: it always runs on the copy
    let copy = opts.firth
        || scales
            .iter()
            .any(|s| s.log2().abs() > f64::from(COPY_EXPONENT));
    let work: std::borrow::Cow<'_, Design> = if copy {
        std::borrow::Cow::Owned(rescaled(orig, &scales))
    } else {
        std::borrow::Cow::Borrowed(orig)
    };
    let d: &Design = &work;
    let unit: Vec<f64> = if copy { scales.clone() } else { vec![1.0; k] };
    let r: Vec<f64> = scales.iter().zip(&unit).map(|(s, u)| s / u).collect();
    let pre = if copy { prepass(d) } else { pre_orig };
    let units = copy.then_some(unit.as_slice());
    // at β = 0 every weight is exactly ¼, so 4·XᵀWX is the Gram matrix XᵀX: large designs get
    // their rank check from the first Newton pass instead of an extra pass over the data
    let (first, near) = if opts.firth || !crate::rank::uses_gram(n, k) {
        (
            None,
            check_full_rank_in_units(&d.names, &d.x, n, None, units)?,
        )
    } else {
        let s0 = accumulate(d, &vec![0.0; k], chunk);
        let gram: Vec<f64> = s0.h.iter().map(|v| 4.0 * v).collect();
        let near = check_full_rank_in_units(&d.names, &d.x, n, Some(&gram), units)?;
        (Some(s0), near)
    };

    let mut profile: Option<Vec<[f64; 2]>> = None;
    let mut profile_skipped = false;
    let (params, iterations, converged, last_step, stats, penalized_llf, lrt) = if opts.firth {
        let f = firth_fit(d, None, None, chunk)?;
        let mut stats = accumulate(d, &f.beta, chunk);
        // Wald covariance from the information of the Firth-augmented data, XᵀW(1+h)X (what
        // firthmodels reports); falls back to (XᵀWX)⁻¹ if that is not positive definite.
        if let Some(hs) = firth_augmented_information(d, &f.beta, &stats.h) {
            if inverse_spd(&hs, k).is_some() {
                stats.h = hs;
            }
        }
        let lrt = if opts.firth_lrt {
            let scale: Vec<f64> = match inverse_spd(&stats.h, k) {
                Some((c, _)) => (0..k).map(|j| c[j * k + j].sqrt()).collect(),
                None => vec![1.0; k],
            };
            // profile intervals cost ~100 constrained refits per coefficient: only for designs of
            // up to PROFILE_LIMIT cells
            let do_profile = n * k <= PROFILE_LIMIT;
            let mut ps = Vec::with_capacity(k);
            let mut cis = Vec::with_capacity(k);
            for (j, se) in scale.iter().enumerate() {
                let r = firth_fit(d, Some((j, 0.0)), Some(&f.beta), chunk)?;
                let lr = (2.0 * (f.pll - r.pll)).max(0.0);
                ps.push(chi2_sf(lr, 1.0));
                if do_profile {
                    cis.push(profile_interval(d, &f, j, *se, chunk)?);
                }
            }
            if do_profile {
                profile = Some(cis);
            } else {
                profile_skipped = true;
            }
            Some(ps)
        } else {
            None
        };
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
        // ridge and stopping rule on the standardized coefficients β_j·s_j
        let ridge: Vec<f64> = r.iter().map(|rj| opts.ridge * n as f64 * rj * rj).collect();
        let mut first = first;
        let mut stopped: Option<usize> = None;
        while iterations < opts.max_iter
            && step.iter().zip(&r).any(|(s, rj)| (s * rj).abs() > opts.tol)
        {
            let s = match first.take() {
                Some(s0) => s0,
                None => accumulate(d, &beta, chunk),
            };
            let mut h = s.h;
            for (a, ra) in ridge.iter().enumerate() {
                h[a * k + a] += ra;
            }
            let next = solve_spd(&h, k, &s.g).filter(|v| v.iter().all(|x| x.is_finite()));
            let Some(next) = next else {
                // only reachable when the weights have collapsed (diverging, separated fit):
                // stop here, report non-convergence and let the separation checks name it
                if iterations == 0 {
                    return Err(AnalysisError::Numerical(
                        "the first Newton step has a singular Hessian".to_string(),
                    ));
                }
                stopped = Some(iterations + 1);
                break;
            };
            step = next;
            for (b, s) in beta.iter_mut().zip(&step) {
                *b += s;
            }
            iterations += 1;
        }
        let converged = iterations < opts.max_iter && stopped.is_none();
        let stats = accumulate(d, &beta, chunk);
        (beta, iterations, converged, step, stats, None, None)
    };

    let mut warnings = Vec::new();
    let (mut cov, _) = match inverse_spd(&stats.h, k) {
        Some(v) => v,
        None => {
            warnings.push(
                "XᵀWX is numerically singular at the estimate; standard errors are undefined"
                    .to_string(),
            );
            (vec![f64::NAN; k * k], f64::NAN)
        }
    };
    // back to the original columns: β = θ / u, cov = D⁻¹ cov_θ D⁻¹ (u powers of two: exact)
    let working_params = params;
    let params: Vec<f64> = working_params
        .iter()
        .zip(&unit)
        .map(|(b, u)| b / u)
        .collect();
    // the SEs from the working diagonal: the variance of a 1e160-scaled column (~1e-324) is
    // below the normal range, its square root is not
    let working_cov_diag: Vec<f64> = (0..k).map(|j| cov[j * k + j]).collect();
    let bse: Vec<f64> = (0..k).map(|j| cov[j * k + j].sqrt() / unit[j]).collect();
    for a in 0..k {
        for b in 0..k {
            cov[a * k + b] = cov[a * k + b] / unit[a] / unit[b];
        }
    }
    let profile = profile.map(|ci| {
        ci.iter()
            .zip(&unit)
            .map(|(c, u)| [c[0] / u, c[1] / u])
            .collect::<Vec<_>>()
    });
    // l*(β) = l(β) + ½ log det XᵀWX, and det of the working information is det / Π u²
    let penalized_llf = penalized_llf.map(|p| p + unit.iter().map(|u| u.ln()).sum::<f64>());
    // z in the working units (θ / se_θ, scale-free): β and its SE of a column scaled to
    // subnormal values may both overflow (inf / inf), their ratio does not
    let zvalues: Vec<f64> = (0..k)
        .map(|j| {
            let z = working_params[j] / working_cov_diag[j].sqrt();
            if z.is_nan() {
                params[j] / bse[j]
            } else {
                z
            }
        })
        .collect();
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
    let perfectly = stats.perfect;
    let scaled_max = max_scaled_coef(d, &pre, &working_params);
    let diverging = (!converged && !opts.firth) || scaled_max > 10.0;
    let mut separation = None;
    if !single.is_empty() || (diverging && perfectly > 0 && !opts.firth) {
        let mut regressors: Vec<String> = single.iter().map(|s| s.0.clone()).collect();
        if diverging && !opts.firth {
            for name in diverging_regressors(d, &pre, &last_step) {
                if !regressors.contains(&name) {
                    regressors.push(name);
                }
            }
        }
        // the fitted hyperplane classifying every row strictly is a certificate of complete
        // separation (only trusted for a diverging MLE fit)
        let complete = perfectly == n
            || (diverging && !opts.firth && stats.correct == n)
            || single.iter().any(|s| s.1 == SeparationKind::Complete);
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
        let why = if iterations >= opts.max_iter || opts.firth {
            "(maximum reached)".to_string()
        } else {
            format!("(Newton step {} had a singular Hessian)", iterations + 1)
        };
        warnings.insert(
            0,
            format!("did not converge in {iterations} iterations {why}"),
        );
    }
    for (name, r) in &near {
        warnings.push(format!(
            "{name} is nearly a linear combination of the earlier columns (relative residual \
             {r:.1e}, variance inflation > {:.0e}): its coefficient is poorly determined",
            1.0 / (r * r)
        ));
    }
    if profile_skipped {
        warnings.push(format!(
            "Firth profile intervals skipped: n·k = {} exceeds {PROFILE_LIMIT}",
            n * k
        ));
    }
    if !d.dropped_rows.is_empty() {
        let shown: Vec<String> = d
            .dropped_rows
            .iter()
            .take(20)
            .map(|r| r.to_string())
            .collect();
        warnings.push(format!(
            "{} rows with missing values dropped (data rows {}{})",
            d.dropped_rows.len(),
            shown.join(", "),
            if d.dropped_rows.len() > 20 {
                ", ..."
            } else {
                ""
            }
        ));
    }
    let extreme: Vec<String> = (0..k)
        .filter(|&j| {
            d.kinds[j] != crate::design::ColumnKind::Constant
                && pre_sd_orig(&pre, &unit, j) > 0.0
                && !(SCALE_WARN.0..=SCALE_WARN.1).contains(&pre_sd_orig(&pre, &unit, j))
        })
        .map(|j| format!("{} (sd {:.1e})", d.names[j], pre_sd_orig(&pre, &unit, j)))
        .collect();
    if !extreme.is_empty() {
        warnings.push(format!(
            "extreme column scale (sd outside [{:.0e}, {:.0e}]): {}; the fit ran on \
             internally rescaled columns and reports coefficients in the original units — \
             consider rescaling these regressors",
            SCALE_WARN.0,
            SCALE_WARN.1,
            extreme.join(", ")
        ));
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
        conf_int_profile: profile,
        warnings,
    })
}

/// Regressors that on their own split y: `max(x | y=0) ≤ min(x | y=1)` or the reverse
/// (strict inequality: complete separation; equality: quasi-complete).
fn single_regressor_separation(d: &Design, pre: &Prepass) -> Vec<(String, SeparationKind, String)> {
    let k = d.k();
    let (lo, hi) = (&pre.lo, &pre.hi);
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
            // y = 0 rows have x <= v, y = 1 rows x >= v; each clause only
            // where such rows exist.
            let v = hi[0][j];
            let mut parts = Vec::new();
            if hi[1][j] > v {
                parts.push(format!("every row with {name} > {v} has y = 1"));
            }
            if lo[0][j] < v {
                parts.push(format!("every row with {name} < {v} has y = 0"));
            }
            parts.push(format!("rows with {name} = {v} have both outcomes"));
            (SeparationKind::Quasi, parts.join("; "))
        } else if hi[1][j] <= lo[0][j] {
            let v = lo[0][j];
            let mut parts = Vec::new();
            if lo[1][j] < v {
                parts.push(format!("every row with {name} < {v} has y = 1"));
            }
            if hi[0][j] > v {
                parts.push(format!("every row with {name} > {v} has y = 0"));
            }
            parts.push(format!("rows with {name} = {v} have both outcomes"));
            (SeparationKind::Quasi, parts.join("; "))
        } else {
            continue;
        };
        out.push((name.clone(), kind, text));
    }
    out
}

/// Two light passes: per-class min / max of every column, then the column moments computed on
/// the column divided by the power of two at or above its largest magnitude (exact, so neither
/// the squares of a 1e160 column overflow nor those of a 1e-160 column underflow).
struct Prepass {
    lo: [Vec<f64>; 2],
    hi: [Vec<f64>; 2],
    sd: Vec<f64>,
}

fn prepass(d: &Design) -> Prepass {
    let k = d.k();
    let n = d.nobs() as f64;
    let empty = || Prepass {
        lo: [vec![f64::INFINITY; k], vec![f64::INFINITY; k]],
        hi: [vec![f64::NEG_INFINITY; k], vec![f64::NEG_INFINITY; k]],
        sd: vec![0.0; k],
    };
    let parts: Vec<Prepass> =
        d.x.par_chunks(65536 * k)
            .zip(d.y.par_chunks(65536))
            .map(|(xc, yc)| {
                let mut p = empty();
                for (row, &y) in xc.chunks_exact(k).zip(yc) {
                    let c = usize::from(y > 0.5);
                    let (lo, hi) = (&mut p.lo[c], &mut p.hi[c]);
                    for j in 0..k {
                        let v = row[j];
                        lo[j] = lo[j].min(v);
                        hi[j] = hi[j].max(v);
                    }
                }
                p
            })
            .collect();
    let mut out = empty();
    for p in parts {
        for c in 0..2 {
            for j in 0..k {
                out.lo[c][j] = out.lo[c][j].min(p.lo[c][j]);
                out.hi[c][j] = out.hi[c][j].max(p.hi[c][j]);
            }
        }
    }
    let unit: Vec<f64> = (0..k)
        .map(|j| {
            let m = [out.lo[0][j], out.lo[1][j], out.hi[0][j], out.hi[1][j]]
                .iter()
                .filter(|v| v.is_finite())
                .fold(0.0f64, |m, v| m.max(v.abs()));
            crate::rank::pow2_at_least(m)
        })
        .collect();
    let sums: Vec<(Vec<f64>, Vec<f64>)> =
        d.x.par_chunks(65536 * k)
            .map(|xc| {
                let mut s = vec![0.0; k];
                let mut s2 = vec![0.0; k];
                for row in xc.chunks_exact(k) {
                    for j in 0..k {
                        let v = row[j] / unit[j];
                        s[j] += v;
                        s2[j] += v * v;
                    }
                }
                (s, s2)
            })
            .collect();
    let mut s = vec![0.0; k];
    let mut s2 = vec![0.0; k];
    for (ps, ps2) in sums {
        for j in 0..k {
            s[j] += ps[j];
            s2[j] += ps2[j];
        }
    }
    for j in 0..k {
        let m = s[j] / n;
        out.sd[j] = (s2[j] / n - m * m).max(0.0).sqrt() * unit[j];
    }
    out
}

/// The sd of original column `j` from the prepass of the working design.
fn pre_sd_orig(pre: &Prepass, unit: &[f64], j: usize) -> f64 {
    pre.sd[j] * unit[j]
}

/// A copy of `d` with column `j` divided by `scales[j]` (exact: powers of two).
fn rescaled(d: &Design, scales: &[f64]) -> Design {
    let k = d.k();
    let mut out = d.clone();
    for row in out.x.chunks_exact_mut(k) {
        for (v, s) in row.iter_mut().zip(scales) {
            *v /= s;
        }
    }
    out
}

/// Column scales below / above which a warning is given.
const SCALE_WARN: (f64, f64) = (1e-6, 1e6);

/// Binary exponents beyond which the fit runs on a rescaled copy of the design (the squares and
/// cross products of such columns would leave the range of `f64`).
const COPY_EXPONENT: i32 = 200;

/// The scale of every column as an exact power of two: the one nearest its standard deviation
/// (its largest magnitude for a column without spread; 1 for `const` and all-zero columns).
/// Dividing a column by its scale is exact, so the fit on the rescaled columns is the fit on the
/// original ones, with every coefficient multiplied by its scale.
fn column_scales(d: &Design, pre: &Prepass) -> Vec<f64> {
    (0..d.k())
        .map(|j| {
            if d.kinds[j] == crate::design::ColumnKind::Constant {
                return 1.0;
            }
            let spread = pre.sd[j];
            let v = if spread > 0.0 && spread.is_finite() {
                spread
            } else {
                [pre.lo[0][j], pre.lo[1][j], pre.hi[0][j], pre.hi[1][j]]
                    .iter()
                    .filter(|v| v.is_finite())
                    .fold(0.0f64, |m, v| m.max(v.abs()))
            };
            if v > 0.0 && v.is_finite() {
                crate::rank::pow2(v.log2().round() as i32)
            } else {
                1.0
            }
        })
        .collect()
}

fn max_scaled_coef(d: &Design, pre: &Prepass, beta: &[f64]) -> f64 {
    pre.sd
        .iter()
        .zip(beta)
        .zip(&d.kinds)
        .filter(|(_, kind)| **kind != crate::design::ColumnKind::Constant)
        .map(|((s, b), _)| (s * b).abs())
        .fold(0.0, f64::max)
}

/// Regressors whose share of the last Newton step (in sd units) is at least 10 % of the largest.
fn diverging_regressors(d: &Design, pre: &Prepass, step: &[f64]) -> Vec<String> {
    let sd = &pre.sd;
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

/// Largest design (n·k cells) for which Firth profile intervals are computed.
pub const PROFILE_LIMIT: usize = 2_000_000;

/// χ²₁ 95 % quantile.
const CHI2_1_95: f64 = 3.841_458_820_694_124;

/// Profile penalized-likelihood 95 % interval of coefficient `j`: the two roots of
/// 2(l*(β̂) − l*_j(b)) = χ²₁(0.95), bracketed by stepping out in units of the Wald SE and then
/// bisected to 1e-10 relative.
fn profile_interval(
    d: &Design,
    f: &FirthResult,
    j: usize,
    se: f64,
    chunk: usize,
) -> Result<[f64; 2]> {
    let center = f.beta[j];
    let step0 = if se.is_finite() && se > 0.0 { se } else { 1.0 };
    let g = |b: f64| -> Result<f64> {
        let r = firth_fit(d, Some((j, b)), Some(&f.beta), chunk)?;
        Ok(2.0 * (f.pll - r.pll) - CHI2_1_95)
    };
    let mut out = [f64::NAN; 2];
    for (side, dir) in [(0usize, -1.0f64), (1, 1.0)] {
        let mut inner = center;
        let mut outer = center + dir * 2.0 * step0;
        let mut found = false;
        for _ in 0..60 {
            if g(outer)? > 0.0 {
                found = true;
                break;
            }
            inner = outer;
            outer = center + 2.0 * (outer - center);
            if !outer.is_finite() || (outer - center).abs() > 1e6 * step0.max(1.0) {
                break;
            }
        }
        if !found {
            out[side] = dir * f64::INFINITY;
            continue;
        }
        for _ in 0..200 {
            let mid = 0.5 * (inner + outer);
            if (outer - inner).abs() <= 1e-10 * mid.abs().max(1.0) {
                break;
            }
            if g(mid)? > 0.0 {
                outer = mid;
            } else {
                inner = mid;
            }
        }
        out[side] = 0.5 * (inner + outer);
    }
    Ok(out)
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
/// `fixed = Some((j, v))` holds β_j at v (penalized likelihood-ratio tests and profiles).
fn firth_fit(
    d: &Design,
    fixed: Option<(usize, f64)>,
    start: Option<&[f64]>,
    chunk: usize,
) -> Result<FirthResult> {
    let k = d.k();
    let free: Vec<usize> = (0..k).filter(|j| fixed.map(|f| f.0) != Some(*j)).collect();
    let mut beta = start.map(|s| s.to_vec()).unwrap_or_else(|| vec![0.0; k]);
    if let Some((j, v)) = fixed {
        beta[j] = v;
    }
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

impl LogitFit {
    /// The fit as one JSON object in statsmodels' vocabulary, keys in a fixed order and
    /// per-parameter maps in model order: `nobs, df_model, df_resid, llf, llnull, prsquared,
    /// llr, llr_pvalue, aic, bic, converged, iterations, method, params, bse, zvalues, pvalues,
    /// conf_int ([lo, hi]), odds_ratios, odds_ratio_conf_int, separation` (regressor names),
    /// `separation_kind`, `warnings`, and for Firth fits `penalized_llf`,
    /// `pvalues_penalized_lrt`. Non-finite numbers are written as `null`.
    pub fn to_json(&self) -> String {
        fn num(v: f64) -> String {
            if v.is_finite() {
                serde_json::Value::from(v).to_string()
            } else {
                "null".to_string()
            }
        }
        fn string(s: &str) -> String {
            serde_json::Value::from(s).to_string()
        }
        let map = |vals: &[f64]| {
            let items: Vec<String> = self
                .names
                .iter()
                .zip(vals)
                .map(|(n, v)| format!("{}:{}", string(n), num(*v)))
                .collect();
            format!("{{{}}}", items.join(","))
        };
        let map2 = |vals: &[[f64; 2]]| {
            let items: Vec<String> = self
                .names
                .iter()
                .zip(vals)
                .map(|(n, v)| format!("{}:[{},{}]", string(n), num(v[0]), num(v[1])))
                .collect();
            format!("{{{}}}", items.join(","))
        };
        let list = |v: &[String]| {
            format!(
                "[{}]",
                v.iter().map(|s| string(s)).collect::<Vec<_>>().join(",")
            )
        };
        let mut f: Vec<(&str, String)> = vec![
            ("nobs", self.nobs.to_string()),
            ("df_model", num(self.df_model)),
            ("df_resid", num(self.df_resid)),
            ("llf", num(self.llf)),
            ("llnull", num(self.llnull)),
            ("prsquared", num(self.prsquared)),
            ("llr", num(self.llr)),
            ("llr_pvalue", num(self.llr_pvalue)),
            ("aic", num(self.aic)),
            ("bic", num(self.bic)),
            ("converged", self.converged.to_string()),
            ("iterations", self.iterations.to_string()),
            (
                "method",
                string(match self.method {
                    Method::Mle => "mle",
                    Method::Firth => "firth",
                }),
            ),
            ("params", map(&self.params)),
            ("bse", map(&self.bse)),
            ("zvalues", map(&self.zvalues)),
            ("pvalues", map(&self.pvalues)),
            ("conf_int", map2(&self.conf_int)),
            ("odds_ratios", map(&self.odds_ratios)),
            ("odds_ratio_conf_int", map2(&self.odds_ratio_conf_int)),
        ];
        if let Some(pll) = self.penalized_llf {
            f.push(("penalized_llf", num(pll)));
        }
        if let Some(p) = &self.pvalues_penalized_lrt {
            f.push(("pvalues_penalized_lrt", map(p)));
        }
        if let Some(ci) = &self.conf_int_profile {
            f.push(("conf_int_profile", map2(ci)));
            let or: Vec<[f64; 2]> = ci.iter().map(|c| [c[0].exp(), c[1].exp()]).collect();
            f.push(("odds_ratio_conf_int_profile", map2(&or)));
        }
        let sep = self.separation.as_ref();
        f.push((
            "separation",
            list(&sep.map(|s| s.regressors.clone()).unwrap_or_default()),
        ));
        f.push((
            "separation_kind",
            match sep.map(|s| s.kind) {
                Some(SeparationKind::Complete) => string("complete"),
                Some(SeparationKind::Quasi) => string("quasi"),
                None => "null".to_string(),
            },
        ));
        f.push(("warnings", list(&self.warnings)));
        let body: Vec<String> = f
            .into_iter()
            .map(|(k, v)| format!("{}:{}", string(k), v))
            .collect();
        format!("{{{}}}", body.join(","))
    }
}

/// Reads a CSV, builds the design (`outcome`, `categorical`, `standardize`; every other column
/// except those in `exclude` is a regressor, in file order) and fits it. The file is read under
/// `limits`.
#[allow(clippy::too_many_arguments)]
pub fn fit_csv(
    path: &std::path::Path,
    outcome: &str,
    categorical: &[String],
    exclude: &[String],
    standardize: bool,
    drop_missing: bool,
    opts: &LogitOptions,
    limits: codethread_io::SourceLimits,
) -> Result<LogitFit> {
    let frame = crate::design::Frame::from_csv_path(path, limits)?;
    for e in exclude {
        frame.cells(e)?;
    }
    let excluded: std::collections::HashSet<&str> = exclude.iter().map(String::as_str).collect();
    let columns: Vec<String> = frame
        .names()
        .iter()
        .filter(|n| *n != outcome && !excluded.contains(n.as_str()))
        .cloned()
        .collect();
    let d = frame.design(&crate::design::DesignSpec {
        outcome: outcome.to_string(),
        columns: Some(columns),
        categorical: categorical.to_vec(),
        standardize,
        drop_missing,
    })?;
    fit_logit(&d, opts)
}
