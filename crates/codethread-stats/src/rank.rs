//! Rank checks for design matrices: all-zero columns and exact linear dependencies, found
//! column by column in model order so that the *later* column of a dependent set is the one
//! reported (`x3 = 1·x1 + 1·x2`).
//!
//! Small designs (`n·k ≤ 4 194 304`) use Householder QR on a column-scaled copy (no squaring of
//! the condition number; a column is dependent when its residual norm is below
//! `max(n, k)·ε·16` of its own norm). Larger designs use a streamed Gram matrix `XᵀX`
//! and a pivot-free Cholesky in model order with relative residual threshold `1e-11`
//! (so no `n × k` copy is made).

use crate::error::{AnalysisError, Dependency, Result};
use rayon::prelude::*;

const QR_LIMIT: usize = 1 << 22;

/// Checks that the `n × k` row-major matrix has full column rank; the error names the columns.
/// On success, the nearly collinear columns: `(name, r)` where `r` is the column's residual
/// norm, relative to its own norm, after projection on the earlier columns, for
/// `r < NEAR_COLLINEAR` (its variance inflation factor exceeds 1/r²).
pub fn check_full_rank(names: &[String], x: &[f64], n: usize) -> Result<Vec<(String, f64)>> {
    check_full_rank_with_gram(names, x, n, None)
}

/// Relative residual below which a full-rank column is reported as nearly collinear (VIF > 1e8).
pub const NEAR_COLLINEAR: f64 = 1e-4;

/// Whether [`check_full_rank`] would use the streamed Gram matrix for this size.
pub fn uses_gram(n: usize, k: usize) -> bool {
    n * k > QR_LIMIT
}

/// [`check_full_rank`] with an already accumulated Gram matrix `XᵀX` (row-major `k × k`, full)
/// for large designs, saving a pass over the data.
pub fn check_full_rank_with_gram(
    names: &[String],
    x: &[f64],
    n: usize,
    gram: Option<&[f64]>,
) -> Result<Vec<(String, f64)>> {
    check_full_rank_in_units(names, x, n, gram, None)
}

/// [`check_full_rank_with_gram`] on a design whose column `j` was divided by `units[j]` before
/// the check (a rescaled working copy): the dependencies of the error are stated for the
/// original columns, `x_j = Σ c·(units[j]/units[b])·x_b`.
pub fn check_full_rank_in_units(
    names: &[String],
    x: &[f64],
    n: usize,
    gram: Option<&[f64]>,
    units: Option<&[f64]>,
) -> Result<Vec<(String, f64)>> {
    let k = names.len();
    if n < k {
        return Err(AnalysisError::TooFewRows { nobs: n, params: k });
    }
    let norms: Vec<f64> = match gram {
        Some(g) if uses_gram(n, k) => (0..k).map(|j| g[j * k + j].max(0.0).sqrt()).collect(),
        _ => column_norms(x, n, k),
    };
    let zero_columns: Vec<String> = (0..k)
        .filter(|&j| norms[j] == 0.0)
        .map(|j| names[j].clone())
        .collect();
    let mut resid = vec![f64::NAN; k];
    let mut deps = if n * k <= QR_LIMIT {
        qr_dependencies(names, x, n, &norms, &mut resid)
    } else {
        gram_dependencies(names, x, gram, &norms, &mut resid)
    };
    if let Some(u) = units {
        for d in &mut deps {
            let Some(j) = names.iter().position(|n| *n == d.column) else {
                continue;
            };
            for (name, c) in &mut d.on {
                if let Some(b) = names.iter().position(|n| n == name) {
                    *c *= u[j] / u[b];
                }
            }
        }
    }
    if zero_columns.is_empty() && deps.is_empty() {
        return Ok((0..k)
            .filter(|&j| resid[j] < NEAR_COLLINEAR)
            .map(|j| (names[j].clone(), resid[j]))
            .collect());
    }
    let rank = k - zero_columns.len() - deps.len();
    let mut parts = Vec::new();
    if !zero_columns.is_empty() {
        parts.push(format!("all-zero column(s): {}", zero_columns.join(", ")));
    }
    for d in &deps {
        parts.push(format!("exact collinearity: {d}"));
    }
    Err(AnalysisError::RankDeficient {
        rank,
        columns: k,
        zero_columns,
        dependencies: deps,
        detail: parts.join("; "),
    })
}

/// Euclidean column norms that neither overflow nor underflow: each column is first divided by
/// the power of two at or above its largest magnitude (an exact operation), squared and summed,
/// then multiplied back. A column is zero here only when every entry is exactly zero.
fn column_norms(x: &[f64], n: usize, k: usize) -> Vec<f64> {
    let mut m = vec![0.0f64; k];
    for row in x.chunks_exact(k).take(n) {
        for (mj, v) in m.iter_mut().zip(row) {
            *mj = mj.max(v.abs());
        }
    }
    let unit: Vec<f64> = m.iter().map(|v| pow2_at_least(*v)).collect();
    let mut s = vec![0.0; k];
    for row in x.chunks_exact(k).take(n) {
        for j in 0..k {
            let t = row[j] / unit[j];
            s[j] += t * t;
        }
    }
    s.iter()
        .zip(&unit)
        .zip(&m)
        .map(|((v, u), mx)| if *mx == 0.0 { 0.0 } else { v.sqrt() * u })
        .collect()
}

/// The smallest power of two ≥ `v` (1 for 0 or non-finite `v`), clamped to the normal range.
pub(crate) fn pow2_at_least(v: f64) -> f64 {
    if !(v.is_finite() && v > 0.0) {
        return 1.0;
    }
    pow2(v.log2().ceil() as i32)
}

/// 2^e exactly, `e` clamped to the normal exponents [-1022, 1023].
pub(crate) fn pow2(e: i32) -> f64 {
    let e = e.clamp(-1022, 1023);
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// Householder QR in model order, skipping dependent columns.
fn qr_dependencies(
    names: &[String],
    x: &[f64],
    n: usize,
    norms: &[f64],
    resid_out: &mut [f64],
) -> Vec<Dependency> {
    let k = names.len();
    // column-major scaled copy
    let mut a = vec![0.0; n * k];
    for j in 0..k {
        let s = norms[j];
        for i in 0..n {
            a[j * n + i] = if s > 0.0 { x[i * k + j] / s } else { 0.0 };
        }
    }
    let tol = (n.max(k) as f64) * f64::EPSILON * 16.0;
    let mut reflectors: Vec<(usize, Vec<f64>)> = Vec::new(); // (start row, v) with v[0] at row start
    let mut basis: Vec<usize> = Vec::new(); // columns in the basis, in order
    let mut r_cols: Vec<Vec<f64>> = Vec::new(); // R columns (first r entries) for basis columns
    let mut deps = Vec::new();
    for j in 0..k {
        if norms[j] == 0.0 {
            continue;
        }
        let mut col: Vec<f64> = a[j * n..(j + 1) * n].to_vec();
        for (start, v) in &reflectors {
            let dot: f64 = v.iter().zip(&col[*start..]).map(|(a, b)| a * b).sum();
            for (ci, vi) in col[*start..].iter_mut().zip(v) {
                *ci -= 2.0 * dot * vi;
            }
        }
        let r = basis.len();
        let resid: f64 = col[r..].iter().map(|v| v * v).sum::<f64>().sqrt();
        resid_out[j] = resid;
        if resid <= tol {
            // dependent: solve R c = col[..r]
            let mut c = vec![0.0; r];
            for i in (0..r).rev() {
                let mut s = col[i];
                for (m, cm) in c.iter().enumerate().skip(i + 1) {
                    s -= r_cols[m][i] * cm;
                }
                c[i] = s / r_cols[i][i];
            }
            deps.push(make_dependency(names, j, &basis, &c, norms));
            continue;
        }
        // new reflector for rows r..n
        let alpha = if col[r] >= 0.0 { -resid } else { resid };
        let mut v: Vec<f64> = col[r..].to_vec();
        v[0] -= alpha;
        let vn: f64 = v.iter().map(|t| t * t).sum::<f64>().sqrt();
        if vn > 0.0 {
            for t in v.iter_mut() {
                *t /= vn;
            }
        }
        let mut rc = col[..r].to_vec();
        rc.push(alpha);
        r_cols.push(rc);
        reflectors.push((r, v));
        basis.push(j);
    }
    deps
}

fn make_dependency(
    names: &[String],
    j: usize,
    basis: &[usize],
    c_scaled: &[f64],
    norms: &[f64],
) -> Dependency {
    // x_j / s_j = Σ c_m x_{b_m} / s_{b_m}  =>  x_j = Σ c_m (s_j / s_{b_m}) x_{b_m}
    // negligible terms are judged on the normalized columns (scale-free), not after the
    // conversion to the columns' own units
    let maxc = c_scaled.iter().map(|c| c.abs()).fold(0.0, f64::max);
    let on = basis
        .iter()
        .zip(c_scaled)
        .filter(|(_, c)| c.abs() > 1e-8 * maxc.max(1e-300))
        .map(|(&b, &c)| (names[b].clone(), c * (norms[j] / norms[b])))
        .collect();
    Dependency {
        column: names[j].clone(),
        on,
    }
}

/// Streamed Gram matrix and in-order Cholesky with skipping.
fn gram_dependencies(
    names: &[String],
    x: &[f64],
    gram: Option<&[f64]>,
    norms: &[f64],
    resid_out: &mut [f64],
) -> Vec<Dependency> {
    let k = names.len();
    let g = match gram {
        Some(g) => g.to_vec(),
        None => gram_matrix(x, k),
    };
    // scale to correlation-like matrix
    let s: Vec<f64> = norms
        .iter()
        .map(|v| if *v > 0.0 { 1.0 / v } else { 0.0 })
        .collect();
    let at = |a: usize, b: usize| g[a * k + b] * s[a] * s[b];
    in_order_cholesky(names, k, norms, at, resid_out)
}

fn gram_matrix(x: &[f64], k: usize) -> Vec<f64> {
    let chunk = 4096 * k;
    let parts: Vec<Vec<f64>> = x
        .par_chunks(chunk)
        .map(|c| {
            let mut g = vec![0.0; k * k];
            for row in c.chunks_exact(k) {
                for a in 0..k {
                    let xa = row[a];
                    for b in a..k {
                        g[a * k + b] += xa * row[b];
                    }
                }
            }
            g
        })
        .collect();
    let mut g = vec![0.0; k * k];
    for p in parts {
        for (t, v) in g.iter_mut().zip(p) {
            *t += v;
        }
    }
    for a in 0..k {
        for b in 0..a {
            g[a * k + b] = g[b * k + a];
        }
    }
    g
}

fn in_order_cholesky(
    names: &[String],
    k: usize,
    norms: &[f64],
    at: impl Fn(usize, usize) -> f64,
    resid_out: &mut [f64],
) -> Vec<Dependency> {
    let mut basis: Vec<usize> = Vec::new();
    let mut l: Vec<Vec<f64>> = Vec::new(); // rows of L for basis columns
    let mut deps = Vec::new();
    for j in 0..k {
        if norms[j] == 0.0 {
            continue;
        }
        let r = basis.len();
        let mut lj = vec![0.0; r];
        for m in 0..r {
            let mut v = at(basis[m], j);
            for t in 0..m {
                v -= l[m][t] * lj[t];
            }
            lj[m] = v / l[m][m];
        }
        let d = at(j, j) - lj.iter().map(|v| v * v).sum::<f64>();
        resid_out[j] = d.max(0.0).sqrt();
        if d <= 1e-11 {
            // solve Lᵀ c = lj
            let mut c = vec![0.0; r];
            for i in (0..r).rev() {
                let mut v = lj[i];
                for (m, cm) in c.iter().enumerate().skip(i + 1) {
                    v -= l[m][i] * cm;
                }
                c[i] = v / l[i][i];
            }
            deps.push(make_dependency(names, j, &basis, &c, norms));
            continue;
        }
        lj.push(d.sqrt());
        l.push(lj);
        basis.push(j);
    }
    deps
}
