//! Paired tests and resampling: exact McNemar, seeded percentile bootstrap.

use serde::Serialize;

/// SplitMix64: a tiny, seedable, reproducible generator (Steele, Lea & Flood 2014).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform integer in `0..n` (Lemire's multiply-shift; bias below 2⁻⁶⁴·n).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// FNV-1a hash of a key, used to derive a per-table-cell seed from a base seed.
pub fn key_seed(base: u64, key: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^ base
}

/// Exact McNemar test on the discordant counts `b` (HA-only wins) and `c` (AA-only wins):
/// two-sided binomial p = min(1, 2·P[X ≤ min(b, c)]), X ~ Bin(b + c, ½). `1` when b + c = 0.
pub fn mcnemar_exact(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let m = b.min(c);
    // Σ_{i ≤ m} C(n, i) / 2^n in log space, accumulated from the largest term downwards
    let ln2n = n as f64 * std::f64::consts::LN_2;
    let terms: Vec<f64> = (0..=m)
        .map(|i| statrs::function::factorial::ln_binomial(n, i) - ln2n)
        .collect();
    let mx = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let s: f64 = terms.iter().map(|t| (t - mx).exp()).sum();
    (2.0 * (mx + s.ln()).exp()).min(1.0)
}

/// Linear-interpolation quantile (numpy's default) of sorted data.
pub fn quantile_sorted(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let h = (sorted.len() - 1) as f64 * q.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = h.ceil() as usize;
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// A bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Interval {
    /// Lower bound.
    pub lo: f64,
    /// Upper bound.
    pub hi: f64,
}

/// Percentile bootstrap 95 % CI of Δ = (AA rate − HA rate)·100 over paired instances
/// `(ha, aa)`, resampling instances with replacement `reps` times from `seed`.
pub fn bootstrap_delta(pairs: &[(bool, bool)], reps: usize, seed: u64) -> Option<Interval> {
    if pairs.is_empty() || reps == 0 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let n = pairs.len();
    let mut stats: Vec<f64> = (0..reps)
        .map(|_| {
            let mut d: i64 = 0;
            for _ in 0..n {
                let (h, a) = pairs[rng.below(n)];
                d += i64::from(a) - i64::from(h);
            }
            100.0 * d as f64 / n as f64
        })
        .collect();
    stats.sort_by(f64::total_cmp);
    Some(Interval {
        lo: quantile_sorted(&stats, 0.025),
        hi: quantile_sorted(&stats, 0.975),
    })
}

/// Percentile bootstrap 95 % CI of the mean over groups of per-group Δ, resampling instances
/// within each group independently (stratified), `reps` times from `seed`.
pub fn bootstrap_mean_delta(
    groups: &[Vec<(bool, bool)>],
    reps: usize,
    seed: u64,
) -> Option<Interval> {
    let groups: Vec<&Vec<(bool, bool)>> = groups.iter().filter(|g| !g.is_empty()).collect();
    if groups.is_empty() || reps == 0 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let mut stats: Vec<f64> = (0..reps)
        .map(|_| {
            let mut tot = 0.0;
            for g in &groups {
                let n = g.len();
                let mut d: i64 = 0;
                for _ in 0..n {
                    let (h, a) = g[rng.below(n)];
                    d += i64::from(a) - i64::from(h);
                }
                tot += 100.0 * d as f64 / n as f64;
            }
            tot / groups.len() as f64
        })
        .collect();
    stats.sort_by(f64::total_cmp);
    Some(Interval {
        lo: quantile_sorted(&stats, 0.025),
        hi: quantile_sorted(&stats, 0.975),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_small_cases_match_binomial_sums() {
        // b=0,c=5: 2 * 1/32
        assert!((mcnemar_exact(0, 5) - 2.0 / 32.0).abs() < 1e-15);
        // b=1,c=4: 2*(1+5)/32
        assert!((mcnemar_exact(1, 4) - 12.0 / 32.0).abs() < 1e-14);
        // symmetric and capped at 1
        assert_eq!(mcnemar_exact(3, 3), 1.0);
        assert_eq!(mcnemar_exact(4, 1), mcnemar_exact(1, 4));
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        // b=10,c=25: scipy.stats.binomtest(10, 35).pvalue = 0.01669...
        let p = mcnemar_exact(10, 25);
        let exact: f64 = (0..=10u64)
            .map(|i| {
                let mut c = 1.0f64;
                for j in 0..i {
                    c = c * (35 - j) as f64 / (j + 1) as f64;
                }
                c
            })
            .sum::<f64>()
            * 2.0
            / 2f64.powi(35);
        assert!((p - exact).abs() < 1e-13, "{p} vs {exact}");
    }

    #[test]
    fn bootstrap_is_seeded_and_brackets_the_estimate() {
        let pairs: Vec<(bool, bool)> = (0..200).map(|i| (i % 3 == 0, i % 2 == 0)).collect();
        let a = bootstrap_delta(&pairs, 1000, 7).unwrap();
        let b = bootstrap_delta(&pairs, 1000, 7).unwrap();
        assert_eq!(a, b);
        let c = bootstrap_delta(&pairs, 1000, 8).unwrap();
        assert_ne!(a, c);
        let est = 100.0
            * pairs
                .iter()
                .map(|(h, a)| i64::from(*a) - i64::from(*h))
                .sum::<i64>() as f64
            / 200.0;
        assert!(a.lo < est && est < a.hi);
        // half-width near the normal approximation for paired differences
        let m = est / 100.0;
        let var = pairs
            .iter()
            .map(|(h, a)| ((i64::from(*a) - i64::from(*h)) as f64 - m).powi(2))
            .sum::<f64>()
            / 200.0;
        let hw = 1.96 * (var / 200.0).sqrt() * 100.0;
        assert!(((a.hi - a.lo) / 2.0 - hw).abs() < 0.25 * hw);
    }

    #[test]
    fn quantiles_interpolate_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile_sorted(&v, 0.5), 2.5);
        assert_eq!(quantile_sorted(&v, 0.0), 1.0);
        assert!((quantile_sorted(&v, 0.975) - 3.925).abs() < 1e-12);
    }
}
