//! The engine over files and directories, JSONL on stdout (profile `paper`
//! unless `--profile canonical` comes first). The workspace's `metrics` example is the full CLI; this
//! one lives in the crate so benchmarks can run it without building the
//! facade.
//!
//! `cargo run --release -p codethread-metrics --example jsonl -- [--profile paper|canonical] PATH...`
#![allow(missing_docs)]

use std::io::Write;

fn main() -> std::process::ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut profile = codethread_metrics::Profile::Paper;
    if args.first().is_some_and(|a| a == "--profile") {
        let name = args.get(1).and_then(|n| n.to_str()).unwrap_or("");
        let Some(p) = codethread_metrics::Profile::from_name(name) else {
            eprintln!("unknown profile {name:?} (known: paper, canonical)");
            return std::process::ExitCode::from(2);
        };
        profile = p;
        args.drain(..2);
    }
    let paths: Vec<std::path::PathBuf> = args.into_iter().map(Into::into).collect();
    let results = codethread_metrics::analyze_paths(
        &paths,
        &codethread_metrics::AnalyzeOptions::new(profile),
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
