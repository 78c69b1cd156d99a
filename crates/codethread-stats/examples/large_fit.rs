//! Regenerates the 1,000,000 × 20 set of shared/stats, verifies it and times the fit.
//! Usage: `cargo run --release -p codethread-analysis --example large_fit -- <stats dir>`
use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: large_fit <shared/stats dir>");
        return ExitCode::from(2);
    };
    let manifest = match std::fs::read(dir.join("data/f_large_manifest.json")) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{}: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let head = std::fs::read(dir.join("data/f_large_head.csv")).ok();
    match codethread_stats::synth::benchmark_large(&manifest, head.as_deref()) {
        Ok(r) => {
            println!("{}", serde_json::to_string_pretty(&r).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
