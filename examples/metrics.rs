//! Per-function metrics of files and directories.
//!
//! `cargo run --release --example metrics -- [--profile paper] [--format jsonl|csv] PATH...`
//!
//! One record per function on stdout (JSONL or CSV); unreadable or
//! unsupported files are reported on stderr with their path and skipped.
//! The exit status is 1 when any file was skipped, 0 otherwise.

use std::io::Write;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};
use codethread_metrics::{analyze_paths, FunctionMetrics, Profile};

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Jsonl,
    Csv,
}

#[derive(Parser)]
#[command(about = "Per-function cyclomatic, cognitive, Halstead and LLOC metrics")]
struct Args {
    /// Rule profile.
    #[arg(long, default_value = "paper", value_parser = parse_profile)]
    profile: Profile,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
    /// Files or directories (recursive).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::from_name(s).ok_or_else(|| format!("unknown profile {s:?} (known: paper)"))
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let results = analyze_paths(&args.paths, args.profile);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = false;
    if matches!(args.format, Format::Csv) {
        let _ = writeln!(out, "{}", FunctionMetrics::csv_header());
    }
    for r in results {
        match r {
            Ok(file) => {
                for f in &file.functions {
                    let line = match args.format {
                        Format::Jsonl => serde_json::to_string(f).unwrap_or_default(),
                        Format::Csv => f.csv_row(),
                    };
                    if writeln!(out, "{line}").is_err() {
                        return std::process::ExitCode::FAILURE;
                    }
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
