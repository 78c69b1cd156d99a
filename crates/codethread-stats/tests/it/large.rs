//! The 1,000,000 × 20 set regenerated in memory: checksums, head rows, statsmodels parity.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_stats::synth::benchmark_large;
use serde_json::Value;

#[test]
fn large_set_regenerates_and_matches_statsmodels() {
    let Some(p) = codethread_testkit::shared_path("stats") else {
        return;
    };
    let manifest = std::fs::read(p.join("data/f_large_manifest.json")).unwrap();
    let head = std::fs::read(p.join("data/f_large_head.csv")).unwrap();
    let r = benchmark_large(&manifest, Some(&head)).unwrap();
    assert!(r.sha256_x_ok, "X checksum");
    assert!(r.sha256_y_ok, "y checksum");
    assert_eq!(r.head_rows_ok, Some(true));
    let sm: Value =
        serde_json::from_slice(&std::fs::read(p.join("results/f_large.statsmodels.json")).unwrap())
            .unwrap();
    let rel = |a: f64, b: f64| (a - b).abs() / b.abs();
    for (j, v) in sm["params"].as_array().unwrap().iter().enumerate() {
        assert!(rel(r.params[j], v.as_f64().unwrap()) <= 1e-8, "param {j}");
    }
    for (j, v) in sm["bse"].as_array().unwrap().iter().enumerate() {
        assert!(rel(r.bse[j], v.as_f64().unwrap()) <= 1e-8, "bse {j}");
    }
    assert!(rel(r.llf, sm["llf"].as_f64().unwrap()) <= 1e-10);
    assert!(rel(r.llnull, sm["llnull"].as_f64().unwrap()) <= 1e-9);
    assert_eq!(r.iterations as u64, sm["iterations"].as_u64().unwrap());
    // streamed: no n × k temporaries beyond the design itself
    if let (Some(peak), Some(base)) = (r.peak_rss_bytes, r.baseline_rss_bytes) {
        assert!(peak - base <= 2 * r.design_bytes, "peak {peak} base {base}");
    }
}
