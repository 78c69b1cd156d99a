//! Skeletonize a source tree: every supported file under ROOT is written to
//! OUT_DIR (same relative path) with the selected function bodies replaced by
//! stubs, and every edit is written as one JSON line to EDITS.
//!
//! ```text
//! cargo run --release --example skeletonize -- --all --out OUT_DIR --edits EDITS.jsonl ROOT
//! cargo run --release --example skeletonize -- --function Session.request --keep-docs --out OUT --edits E.jsonl requests/
//! ```
//!
//! Files that do not parse cleanly are reported on stderr and copied
//! unchanged (with `--partial`, their clean functions are skeletonized).
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use codethread::skeleton::{
    skeletonize_dir, Edit, Options, ParseErrorPolicy, Selector, SkeletonError,
};

/// Replace function bodies with stubs, keeping everything else byte for byte.
#[derive(Parser)]
struct Args {
    /// Select every named function with a body.
    #[arg(long)]
    all: bool,
    /// Select functions by qualified name (`Class.method`, `Class.method#2`); repeatable.
    #[arg(long = "function", value_name = "NAME")]
    functions: Vec<String>,
    /// Keep Python docstrings above the stub.
    #[arg(long)]
    keep_docs: bool,
    /// In files with syntax errors, skeletonize the functions the errors do not touch.
    #[arg(long)]
    partial: bool,
    /// Output directory.
    #[arg(long, value_name = "OUT_DIR")]
    out: PathBuf,
    /// JSON-lines file receiving one line per edit.
    #[arg(long, value_name = "EDITS.jsonl")]
    edits: PathBuf,
    /// A source file or a directory (walked recursively).
    root: PathBuf,
}

#[derive(serde::Serialize)]
struct EditLine<'a> {
    path: String,
    #[serde(flatten)]
    edit: &'a Edit,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut selectors: Vec<Selector> = args
        .functions
        .iter()
        .cloned()
        .map(Selector::Qualname)
        .collect();
    if args.all {
        selectors.push(Selector::All);
    }
    if selectors.is_empty() {
        eprintln!("error: give --all or at least one --function NAME");
        return ExitCode::from(2);
    }
    let options = Options {
        keep_docs: args.keep_docs,
        on_parse_errors: if args.partial {
            ParseErrorPolicy::SkipAffected
        } else {
            ParseErrorPolicy::Refuse
        },
        verify: true,
    };
    let start = std::time::Instant::now();
    let outcomes = match skeletonize_dir(&args.root, &selectors, &options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut edits_out = match std::fs::File::create(&args.edits) {
        Ok(f) => std::io::BufWriter::new(f),
        Err(e) => {
            eprintln!("error: {}: {e}", args.edits.display());
            return ExitCode::FAILURE;
        }
    };
    let (mut bytes, mut edited_files, mut edits, mut warned, mut not_clean, mut io_errors) =
        (0usize, 0, 0, 0, 0, 0);
    for o in &outcomes {
        bytes += o.source.len();
        let dest = args.out.join(&o.rel_path);
        let text: &[u8] = match &o.result {
            Ok(sk) => {
                for e in &sk.edits {
                    let line = EditLine {
                        path: o.rel_path.to_string_lossy().replace('\\', "/"),
                        edit: e,
                    };
                    let written = serde_json::to_writer(&mut edits_out, &line)
                        .map_err(std::io::Error::from)
                        .and_then(|()| edits_out.write_all(b"\n"));
                    if let Err(err) = written {
                        eprintln!("error: {}: {err}", args.edits.display());
                        return ExitCode::FAILURE;
                    }
                    warned += usize::from(!e.warnings.is_empty());
                    for w in &e.warnings {
                        eprintln!(
                            "warning: {}:{}: {}: {w}",
                            o.rel_path.display(),
                            e.line,
                            e.function
                        );
                    }
                }
                for u in &sk.unmatched {
                    eprintln!("note: {}: no {u}", o.rel_path.display());
                }
                edits += sk.edits.len();
                edited_files += usize::from(!sk.edits.is_empty());
                &sk.text
            }
            Err(e @ SkeletonError::Io { .. }) => {
                eprintln!("error: {e}");
                io_errors += 1;
                continue;
            }
            Err(e) => {
                eprintln!("not skeletonized (copied unchanged): {e}");
                not_clean += 1;
                &o.source
            }
        };
        let written = dest
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&dest, text));
        if let Err(e) = written {
            eprintln!("error: {}: {e}", dest.display());
            io_errors += 1;
        }
    }
    if let Err(e) = edits_out.flush() {
        eprintln!("error: {}: {e}", args.edits.display());
        return ExitCode::FAILURE;
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} files ({:.1} MB) in {secs:.2}s ({:.1} MB/s): {edits} stubs in {edited_files} files, {warned} with warnings; {not_clean} files not skeletonized; {io_errors} I/O errors",
        outcomes.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    if io_errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
