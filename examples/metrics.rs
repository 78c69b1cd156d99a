//! Per-function metrics of files and directories.
//!
//! `cargo run --release --example metrics -- [--profile paper|canonical] [--format jsonl|csv] [--out FILE] [--max-file-bytes N] [--lang-hint c|cpp] [--strict] PATH...`
//!
//! One record per function, on stdout or, with `--out`, in FILE (written
//! atomically: a temporary file renamed over FILE at the end, so an
//! interrupted run leaves the old FILE or none, never a truncated line, and
//! a symbolic link at FILE is replaced, not written through).
//!
//! Only regular files of at most `--max-file-bytes` (default 64 MiB) are
//! read: a FIFO, device or oversized file inside a walked tree is refused.
//! Every file that is not measured is reported on stderr with its path and
//! the reason (unreadable, refused, unsupported, UTF-16, binary content; see
//! docs/metrics.md); a file with syntax errors is measured on the recovered
//! tree and reported as a warning with the position of the first error
//! (functions inside the errors are missing from its records).
//! Record paths are `codethread_lang::path_label`s: non-UTF-8 names are
//! quoted with `\xNN` escapes, so distinct files never share a path.
//!
//! Without `--lang-hint`, `.h` files follow the tree
//! ([`codethread::lang::tree_hint`]: C in a tree of C sources, C++ in one of
//! mostly C++ sources or C++ headers, else each header by its content); the
//! decision is printed on stderr.
//!
//! Exit codes (`codethread::exit`): 0 every file measured (files with syntax
//! errors are measured on the recovered tree: their warnings and the count go
//! to stderr); 1 some files refused or failed (every other record written),
//! or, with `--strict`, some file measured with syntax errors; 2 usage error,
//! no file measured, or the output not written.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use codethread::exit::{from_counts, ExitOutcome};
use codethread::lang::io::{AtomicFile, DEFAULT_MAX_FILE_BYTES};
use codethread::lang::Lang;
use codethread_metrics::{analyze_paths, AnalyzeOptions, FunctionMetrics, Profile};

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Jsonl,
    Csv,
}

#[derive(Parser)]
#[command(about = "Per-function cyclomatic, cognitive, Halstead and LLOC metrics")]
struct Args {
    /// Rule profile: `paper` reproduces, per language, the tools the CodeThread paper used
    /// (radon + complexipy, lizard + gocognit + go-halstead, rust-code-analysis 0.0.25, lizard
    /// CCN only for C++/Ruby/PHP: other metrics absent there); `canonical` is one rule set for
    /// every language, every metric defined (docs/metrics.md).
    #[arg(long, default_value = "paper", value_parser = parse_profile)]
    profile: Profile,
    /// Output format.
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
    /// Write the records to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Largest file read, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Repository language for C-family files (`cpp`: every `.c`/`.h` is
    /// C++; `c`: `.c` and `.h` are C; default: from the tree's sources, else
    /// `.h` by its content).
    #[arg(long, value_parser = parse_hint)]
    lang_hint: Option<Lang>,
    /// Exit 1 when a file was measured with syntax errors (by default such
    /// files are measured on the recovered tree, warned about, and exit 0).
    #[arg(long)]
    strict: bool,
    /// Files or directories (recursive).
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

fn parse_hint(s: &str) -> Result<Lang, String> {
    Lang::from_name(s)
        .filter(|l| l.is_c_family())
        .ok_or_else(|| format!("unknown C-family language {s:?} (known: c, cpp)"))
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::from_name(s).ok_or_else(|| format!("unknown profile {s:?} (known: paper, canonical)"))
}

/// Where the records go: stdout, or a file committed at the end.
enum Sink {
    Stdout(std::io::BufWriter<std::io::StdoutLock<'static>>),
    File(AtomicFile),
}

impl Sink {
    fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => w,
            Sink::File(f) => f,
        }
    }

    /// Flush stdout, or rename the file into place.
    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Stdout(mut w) => w.flush().map_err(|e| format!("stdout: {e}")),
            Sink::File(f) => f.commit().map_err(|e| e.to_string()),
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut sink = match &args.out {
        Some(path) => match AtomicFile::create(path) {
            Ok(f) => Sink::File(f),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(ExitOutcome::Fatal);
            }
        },
        None => Sink::Stdout(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let out = sink.writer();
    let write_failed = |e: std::io::Error| {
        eprintln!("error: writing the records: {e}");
        ExitCode::from(ExitOutcome::Fatal)
    };
    if matches!(args.format, Format::Csv) {
        if let Err(e) = writeln!(out, "{}", FunctionMetrics::csv_header()) {
            return write_failed(e);
        }
    }
    let hint = args.lang_hint.or_else(|| {
        let tree = codethread::lang::tree_hint(&args.paths, args.max_file_bytes);
        if let Some(l) = tree {
            eprintln!("note: C-family files read as {l} (decided by the tree's files; --lang-hint overrides)");
        }
        tree
    });
    let (mut measured, mut failed, mut warned) = (0usize, 0usize, 0usize);
    for r in analyze_paths(
        &args.paths,
        &AnalyzeOptions::new(args.profile)
            .with_max_file_bytes(args.max_file_bytes)
            .with_hint(hint),
    ) {
        match r {
            Ok(file) => {
                measured += 1;
                if file.parse_errors > 0 {
                    warned += 1;
                    let (line, column) = file.first_error.unwrap_or((1, 1));
                    eprintln!(
                        "warning: {}: {} syntax error node(s), first at line {line}, column {column}: measured on the recovered tree ({} functions); functions inside the errors are missing",
                        file.path,
                        file.parse_errors,
                        file.functions.len()
                    );
                }
                for f in &file.functions {
                    let line = match args.format {
                        Format::Jsonl => match serde_json::to_string(f) {
                            Ok(l) => l,
                            Err(e) => return write_failed(e.into()),
                        },
                        Format::Csv => f.csv_row(),
                    };
                    if let Err(e) = writeln!(out, "{line}") {
                        return write_failed(e);
                    }
                }
            }
            Err(e) => {
                failed += 1;
                eprintln!("skipped: {e}");
            }
        }
    }
    if let Err(e) = sink.finish() {
        eprintln!("error: {e}");
        return ExitCode::from(ExitOutcome::Fatal);
    }
    let mut outcome = from_counts(measured, failed);
    if warned > 0 && args.strict {
        outcome = outcome.worst(ExitOutcome::Partial);
    }
    eprintln!("{measured} files measured ({warned} with syntax errors), {failed} not measured");
    ExitCode::from(outcome)
}
