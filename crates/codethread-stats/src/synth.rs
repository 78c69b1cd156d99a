//! The 1,000,000 × 20 benchmark set of `shared/stats` (`f_large_manifest.json`), regenerated in
//! memory from its counter-based SplitMix64 recipe (`gen_datasets.py`, `gen_large`).
//!
//! Row `i`, stream `s` draws `u = (mix(seed + (i·128 + s + 1)·φ) >> 11)·2⁻⁵³`. Features 0..14
//! are `(((u₀ + u₁) + u₂) + u₃ − 2)·√3` over streams `4j..4j+3`; features 15..19 are
//! `u_{60+j−15} < p_bin` as 0/1; `y = u₁₀₀ < 1/(1 + e^{−η})` with
//! `η = β₀ + Σ βⱼ xⱼ` accumulated in column order. Only integer operations and `+ − × √` touch
//! X, so it is bit-exact; `y` also uses `exp`.

use crate::design::Design;
use crate::error::{AnalysisError, Result};
use rayon::prelude::*;
use sha2::{Digest, Sha256};

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;
const M1: u64 = 0xBF58_476D_1CE4_E5B9;
const M2: u64 = 0x94D0_49BB_1331_11EB;

/// Parameters of the large set (the manifest's fields).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct LargeManifest {
    /// Rows.
    pub n: usize,
    /// Features.
    pub k: usize,
    /// SplitMix64 seed.
    pub seed: u64,
    /// Counter streams per row.
    pub n_streams: u64,
    /// Intercept of the true logit.
    pub beta0: f64,
    /// True slopes.
    pub beta: Vec<f64>,
    /// Bernoulli probabilities of the binary features (the last `p_bin.len()` columns).
    pub p_bin: Vec<f64>,
    /// sha256 of X (row-major little-endian f64, without the constant).
    pub sha256_x_rowmajor_f64le: Option<String>,
    /// sha256 of y as u8.
    pub sha256_y_u8: Option<String>,
    /// Number of ones in y.
    pub y_ones: Option<usize>,
}

impl LargeManifest {
    /// Parses `f_large_manifest.json`.
    pub fn from_json(origin: &str, bytes: &[u8]) -> Result<LargeManifest> {
        let mut v: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| AnalysisError::Json {
                origin: origin.to_string(),
                line: e.line(),
                message: e.to_string(),
            })?;
        if let Some(o) = v.as_object_mut() {
            if let Some(h) = o.remove("sha256_X_rowmajor_f64le") {
                o.insert("sha256_x_rowmajor_f64le".into(), h);
            }
        }
        serde_json::from_value(v).map_err(|e| AnalysisError::Json {
            origin: origin.to_string(),
            line: 0,
            message: e.to_string(),
        })
    }
}

#[inline]
fn u01(seed: u64, counter: u64) -> f64 {
    let mut z = seed.wrapping_add(counter.wrapping_add(1).wrapping_mul(GOLDEN));
    z = (z ^ (z >> 30)).wrapping_mul(M1);
    z = (z ^ (z >> 27)).wrapping_mul(M2);
    z ^= z >> 31;
    (z >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// Generates the set as a [`Design`] (`const` first, then `x0..x{k-1}`), rows in parallel.
pub fn large_design(m: &LargeManifest) -> Result<Design> {
    let k = m.k;
    let nbin = m.p_bin.len();
    if m.beta.len() != k || nbin > k || 4 * (k - nbin) > 60 || m.n_streams < 101 {
        return Err(AnalysisError::Invalid {
            origin: "large manifest".into(),
            message: "inconsistent k / beta / p_bin / n_streams".into(),
        });
    }
    let kc = k + 1;
    let mut x = vec![0.0; m.n * kc];
    let mut y = vec![0.0; m.n];
    let s3 = 3.0f64.sqrt();
    x.par_chunks_mut(kc)
        .zip(y.par_iter_mut())
        .enumerate()
        .for_each(|(i, (row, yi))| {
            let base = i as u64 * m.n_streams;
            row[0] = 1.0;
            for j in 0..k - nbin {
                let s = base + 4 * j as u64;
                let u = [
                    u01(m.seed, s),
                    u01(m.seed, s + 1),
                    u01(m.seed, s + 2),
                    u01(m.seed, s + 3),
                ];
                row[1 + j] = ((((u[0] + u[1]) + u[2]) + u[3]) - 2.0) * s3;
            }
            for (b, p) in m.p_bin.iter().enumerate() {
                let j = k - nbin + b;
                row[1 + j] = if u01(m.seed, base + 60 + b as u64) < *p {
                    1.0
                } else {
                    0.0
                };
            }
            let mut eta = m.beta0;
            for j in 0..k {
                eta += m.beta[j] * row[1 + j];
            }
            let uy = u01(m.seed, base + 100);
            *yi = if uy < 1.0 / (1.0 + (-eta).exp()) {
                1.0
            } else {
                0.0
            };
        });
    let mut names = vec!["const".to_string()];
    names.extend((0..k).map(|j| format!("x{j}")));
    Design::new(names, x, y, "y".into())
}

/// sha256 (hex) of the design's X without its first (constant) column, row-major f64 LE, and of
/// y as bytes — the two checksums of the manifest.
pub fn design_checksums(d: &Design) -> (String, String) {
    let k = d.k();
    let mut hx = Sha256::new();
    let mut buf = Vec::with_capacity(8 * (k - 1) * 4096);
    for rows in d.x.chunks(k * 4096) {
        buf.clear();
        for row in rows.chunks_exact(k) {
            for v in &row[1..] {
                buf.extend_from_slice(&v.to_le_bytes());
            }
        }
        hx.update(&buf);
    }
    let mut hy = Sha256::new();
    let ybytes: Vec<u8> = d.y.iter().map(|v| u8::from(*v > 0.5)).collect();
    hy.update(&ybytes);
    (hex(&hx.finalize()), hex(&hy.finalize()))
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|v| format!("{v:02x}")).collect()
}

/// Timings and checks of one large-set run (see [`benchmark_large`]).
#[derive(Debug, Clone, serde::Serialize)]
pub struct LargeBenchmark {
    /// Rows × features.
    pub n: usize,
    /// Features (without the constant).
    pub k: usize,
    /// Worker threads used by rayon.
    pub threads: usize,
    /// Seconds to regenerate X and y.
    pub generate_s: f64,
    /// X checksum matches the manifest.
    pub sha256_x_ok: bool,
    /// y checksum matches the manifest.
    pub sha256_y_ok: bool,
    /// The first rows equal the head CSV exactly (None when no head file was given).
    pub head_rows_ok: Option<bool>,
    /// Seconds for the fit (rank check, Newton, covariance, SEs, p-values, llnull, separation check).
    pub fit_s: f64,
    /// CPU seconds (user + system, all threads) spent in the fit — a load-independent measure.
    pub fit_cpu_s: Option<f64>,
    /// Newton iterations.
    pub iterations: usize,
    /// Converged.
    pub converged: bool,
    /// Log-likelihood.
    pub llf: f64,
    /// Null log-likelihood.
    pub llnull: f64,
    /// Parameters.
    pub params: Vec<f64>,
    /// Standard errors.
    pub bse: Vec<f64>,
    /// Bytes of the design matrix (n × (k+1) f64).
    pub design_bytes: usize,
    /// Peak resident set size of the process (VmHWM, Linux), bytes.
    pub peak_rss_bytes: Option<usize>,
    /// Resident set size before the data were generated, bytes.
    pub baseline_rss_bytes: Option<usize>,
}

fn proc_cpu_s() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // fields after the parenthesised command name; utime and stime are fields 14 and 15
    let rest = &s[s.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ut: f64 = f.get(11)?.parse().ok()?;
    let st: f64 = f.get(12)?.parse().ok()?;
    Some((ut + st) / 100.0)
}

fn proc_status_kib(field: &str) -> Option<usize> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Regenerates the large set, verifies it against the manifest (and the head CSV when given),
/// fits it with [`crate::fit_logit`] and reports timings and peak memory.
pub fn benchmark_large(manifest: &[u8], head_csv: Option<&[u8]>) -> Result<LargeBenchmark> {
    let m = LargeManifest::from_json("f_large_manifest.json", manifest)?;
    let baseline = proc_status_kib("VmRSS:").map(|v| v * 1024);
    let t0 = std::time::Instant::now();
    let d = large_design(&m)?;
    let generate_s = t0.elapsed().as_secs_f64();
    let (hx, hy) = design_checksums(&d);
    let head_rows_ok = match head_csv {
        Some(bytes) => {
            let f = crate::design::Frame::from_csv_bytes("f_large_head.csv", bytes)?;
            let mut ok = true;
            let yv = f.numeric("y")?;
            for (i, v) in yv.iter().enumerate() {
                ok &= d.y.get(i) == Some(v);
            }
            for j in 0..m.k {
                let col = f.numeric(&format!("x{j}"))?;
                for (i, v) in col.iter().enumerate() {
                    ok &= d.x.get(i * (m.k + 1) + 1 + j).map(|a| a.to_bits()) == Some(v.to_bits());
                }
            }
            Some(ok)
        }
        None => None,
    };
    let c1 = proc_cpu_s();
    let t1 = std::time::Instant::now();
    let fit = crate::logit::fit_logit(&d, &crate::logit::LogitOptions::default())?;
    let fit_s = t1.elapsed().as_secs_f64();
    let fit_cpu_s = match (c1, proc_cpu_s()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok(LargeBenchmark {
        n: m.n,
        k: m.k,
        threads: rayon::current_num_threads(),
        generate_s,
        sha256_x_ok: m.sha256_x_rowmajor_f64le.as_deref() == Some(hx.as_str()),
        sha256_y_ok: m.sha256_y_u8.as_deref() == Some(hy.as_str()),
        head_rows_ok,
        fit_s,
        fit_cpu_s,
        iterations: fit.iterations,
        converged: fit.converged,
        llf: fit.llf,
        llnull: fit.llnull,
        params: fit.params,
        bse: fit.bse,
        design_bytes: d.x.len() * 8,
        peak_rss_bytes: proc_status_kib("VmHWM:").map(|v| v * 1024),
        baseline_rss_bytes: baseline,
    })
}
