//! codethread analysis from the command line.
//!
//! ```text
//! analyze logit --csv FILE --outcome COL [--categorical A,B] [--exclude C,D] [--drop-missing] [--firth] [--standardize]
//! analyze tables --results FILE [--reps N] [--seed N] [--markdown]
//! analyze difficulty (--leaderboard FILE [--tol POINTS] | --matrix FILE)
//! analyze report --results FILE --out DIR [--leaderboard FILE] [--iec FILE] [--metrics FILE]
//!                [--edits FILE] [--reps N] [--seed N]
//! analyze large --stats DIR     (regenerate + fit the 1,000,000 × 20 benchmark set, print timings)
//! ```
//! Each command prints one JSON document (or Markdown with `tables --markdown`). Every input
//! is read only if it is a regular file of at most `--max-file-bytes N` bytes (default 64 MiB).
//!
//! Exit status (`codethread::exit`, see the README): 0 on success; 2 for a usage error or any
//! error (printed on stderr, naming the file, line or column). Each command has one input set,
//! so there is no partial outcome (1).
use clap::{Parser, Subcommand};
use codethread::exit::Outcome;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "CodeThread statistics: logistic regression, tables, difficulty, reports")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
    /// Largest input file read, in bytes (larger files are refused, naming them).
    #[arg(long, global = true, default_value_t = codethread::lang::io::DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Fit a logistic regression (statsmodels-exact MLE, or Firth) and print one JSON object.
    Logit {
        #[arg(long)]
        csv: PathBuf,
        #[arg(long)]
        outcome: String,
        /// Comma-separated categorical columns (dummy-coded drop-first, sorted levels).
        #[arg(long, value_delimiter = ',')]
        categorical: Vec<String>,
        /// Comma-separated columns to leave out (ids, labels).
        #[arg(long, value_delimiter = ',')]
        exclude: Vec<String>,
        /// Drop rows with a missing cell (empty, NA, NaN, null) instead of failing.
        #[arg(long)]
        drop_missing: bool,
        #[arg(long)]
        firth: bool,
        #[arg(long)]
        standardize: bool,
    },
    /// Tables 2 and 3 and the discordant cohort from a results CSV / JSONL.
    Tables {
        #[arg(long)]
        results: PathBuf,
        #[arg(long, default_value_t = 2000)]
        reps: usize,
        #[arg(long, default_value_t = 20240405)]
        seed: u64,
        #[arg(long)]
        markdown: bool,
    },
    /// Published vs computed resolve rates and leave-one-out difficulty of a leaderboard file.
    Difficulty {
        /// Leaderboard JSON (runs with published rates + per-instance flags).
        #[arg(long, required_unless_present = "matrix")]
        leaderboard: Option<PathBuf>,
        /// Or a wide CSV matrix: instance id, then one 0/1 column per model.
        #[arg(long, conflicts_with = "leaderboard")]
        matrix: Option<PathBuf>,
        #[arg(long, default_value_t = 0.1)]
        tol: f64,
    },
    /// Write the Markdown / CSV / SVG report.
    Report {
        #[arg(long)]
        results: PathBuf,
        #[arg(long)]
        out: PathBuf,
        #[arg(long)]
        leaderboard: Option<PathBuf>,
        #[arg(long)]
        iec: Option<PathBuf>,
        /// Metric values per stage (JSONL).
        #[arg(long)]
        metrics: Option<PathBuf>,
        /// PR2 edit sets (JSONL).
        #[arg(long)]
        edits: Option<PathBuf>,
        #[arg(long, default_value_t = 2000)]
        reps: usize,
        #[arg(long, default_value_t = 20240405)]
        seed: u64,
    },
    /// Regenerate and fit the large benchmark set of shared/stats; print timings and memory.
    Large {
        #[arg(long)]
        stats: PathBuf,
    },
}

fn run(cli: Cli) -> Result<String, String> {
    use codethread_analysis as ca;
    ca::set_max_file_bytes(cli.max_file_bytes);
    match cli.cmd {
        Cmd::Logit {
            csv,
            outcome,
            categorical,
            exclude,
            drop_missing,
            firth,
            standardize,
        } => {
            let opts = ca::LogitOptions {
                firth,
                ..Default::default()
            };
            let fit = ca::fit_csv(
                &csv,
                &outcome,
                &categorical,
                &exclude,
                standardize,
                drop_missing,
                &opts,
            )
            .map_err(|e| e.to_string())?;
            Ok(fit.to_json())
        }
        Cmd::Tables {
            results,
            reps,
            seed,
            markdown,
        } => {
            let t =
                ca::report::tables_from_file(&results, reps, seed).map_err(|e| e.to_string())?;
            if markdown {
                Ok(ca::report::markdown(&t, None, None))
            } else {
                json(&t)
            }
        }
        Cmd::Difficulty {
            leaderboard,
            matrix,
            tol,
        } => {
            let report = match (leaderboard, matrix) {
                (Some(l), _) => ca::leaderboard::difficulty_report(&l, tol),
                (None, Some(m)) => ca::leaderboard::matrix_difficulty_report(&m),
                (None, None) => return Err("give --leaderboard or --matrix".into()),
            };
            json(&report.map_err(|e| e.to_string())?)
        }
        Cmd::Report {
            results,
            out,
            leaderboard,
            iec,
            metrics,
            edits,
            reps,
            seed,
        } => {
            let req = ca::report::ReportRequest {
                results,
                out,
                leaderboard,
                iec,
                metrics,
                edits,
                bootstrap_reps: reps,
                seed,
            };
            let files = ca::report::report_from_files(&req).map_err(|e| e.to_string())?;
            json(&files)
        }
        Cmd::Large { stats } => {
            let limit = cli.max_file_bytes;
            let read = |p: PathBuf| {
                codethread::lang::io::read_regular(&p, limit).map_err(|e| e.to_string())
            };
            let manifest = read(stats.join("data/f_large_manifest.json"))?;
            let head = read(stats.join("data/f_large_head.csv")).ok();
            json(
                &ca::synth::benchmark_large(&manifest, head.as_deref())
                    .map_err(|e| e.to_string())?,
            )
        }
    }
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(s) => {
            println!("{s}");
            ExitCode::from(Outcome::Success)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(Outcome::Fatal)
        }
    }
}
