//! The engine over files and directories, JSONL on stdout, no options
//! (profile `paper`). The workspace's `metrics` example is the full CLI; this
//! one lives in the crate so benchmarks can run it without building the
//! facade.
//!
//! `cargo run --release -p codethread-metrics --example jsonl -- PATH...`
#![allow(missing_docs)]

use std::io::Write;

fn main() -> std::process::ExitCode {
    let paths: Vec<std::path::PathBuf> = std::env::args_os().skip(1).map(Into::into).collect();
    let results = codethread_metrics::analyze_paths(
        &paths,
        &codethread_metrics::AnalyzeOptions::new(codethread_metrics::Profile::Paper),
    );
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for r in results {
        match r {
            Ok(f) => {
                for x in &f.functions {
                    let _ = writeln!(out, "{}", serde_json::to_string(x).unwrap_or_default());
                }
            }
            Err(e) => {
                failed = true;
                eprintln!("skipped: {e}");
            }
        }
    }
    let _ = out.flush();
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
