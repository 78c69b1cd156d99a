//! Skeletonize a source tree: every supported file under ROOT is written to
//! OUT_DIR (same relative path) with the selected function bodies replaced by
//! stubs, and every edit is written as one JSON line to EDITS.
//!
//! ```text
//! cargo run --release --example skeletonize -- --all --out OUT_DIR --edits EDITS.jsonl [--lang-hint cpp] ROOT
//! cargo run --release --example skeletonize -- --function Session.request --keep-docs --out OUT --edits E.jsonl requests/
//! ```
//!
//! Files that do not parse cleanly are reported on stderr and copied
//! unchanged (with `--partial`, their clean functions are skeletonized);
//! that is their defined result, not a failure.
//!
//! Only regular files of at most `--max-file-bytes` (default 64 MiB) are
//! read: a FIFO, device or oversized file under ROOT is reported on stderr
//! and left out of OUT_DIR. Every output is written atomically and never
//! through a symbolic link (`codethread_lang::io`): each file goes to a
//! temporary file renamed into place below OUT_DIR (a link planted in
//! OUT_DIR is refused or replaced, never followed), and EDITS is committed
//! only at the end, so a killed run never leaves a truncated last line.
//! Output paths are built from the file names' bytes; the `path` of an edit
//! line is a `codethread_lang::path_label` (non-UTF-8 names quoted with
//! `\xNN` escapes), so distinct files never share an output or a label.
//!
//! Exit codes (`codethread::exit`): 0 every file read and written; 1 some
//! files refused, unreadable or not written (the others written, each
//! failure on stderr); 2 usage error, ROOT unreadable, nothing written, or
//! EDITS not written.
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use codethread::exit::{from_counts, ExitOutcome};
use codethread::lang::io::{
    create_dir_all_nofollow, write_atomic_in, AtomicFile, DEFAULT_MAX_FILE_BYTES,
};
use codethread::lang::path_label;
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
    /// Largest file read, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Repository language (`cpp`, `c`, `java`, `ruby`, `php`, ...): with
    /// `cpp`, `.h` and `.c` files are C++. Default for `.h`: from the tree's
    /// sources (`codethread::lang::tree_hint`), else by its content.
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    lang_hint: Option<codethread::lang::Lang>,
    /// A source file or a directory (walked recursively).
    root: PathBuf,
}

fn parse_lang(s: &str) -> Result<codethread::lang::Lang, String> {
    codethread::lang::Lang::from_name(s).ok_or_else(|| format!("unknown language `{s}`"))
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
        return ExitCode::from(ExitOutcome::Fatal);
    }
    let hint = args
        .lang_hint
        .or_else(|| codethread::lang::tree_hint(&[&args.root], args.max_file_bytes));
    let options = Options::default()
        .keep_docs(args.keep_docs)
        .on_parse_errors(if args.partial {
            ParseErrorPolicy::SkipAffected
        } else {
            ParseErrorPolicy::Refuse
        })
        .verify(true)
        .hint(hint)
        .max_file_bytes(args.max_file_bytes);
    let start = std::time::Instant::now();
    let outcomes = match skeletonize_dir(&args.root, &selectors, &options) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(ExitOutcome::Fatal);
        }
    };
    if let Err(e) = create_dir_all_nofollow(&args.out, std::path::Path::new("")) {
        eprintln!("error: {e}");
        return ExitCode::from(ExitOutcome::Fatal);
    }
    let mut edits_out = match AtomicFile::create(&args.edits) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(ExitOutcome::Fatal);
        }
    };
    let (mut bytes, mut edited_files, mut edits, mut warned, mut not_clean) = (0usize, 0, 0, 0, 0);
    let (mut written, mut failed) = (0usize, 0usize);
    for o in &outcomes {
        bytes += o.source.len();
        let label = path_label(&o.rel_path);
        let text: &[u8] = match &o.result {
            Ok(sk) => {
                for e in &sk.edits {
                    let line = EditLine {
                        path: label.clone(),
                        edit: e,
                    };
                    let res = serde_json::to_writer(&mut edits_out, &line)
                        .map_err(std::io::Error::from)
                        .and_then(|()| edits_out.write_all(b"\n"));
                    if let Err(err) = res {
                        eprintln!("error: {}: {err}", args.edits.display());
                        return ExitCode::from(ExitOutcome::Fatal);
                    }
                    warned += usize::from(!e.warnings.is_empty());
                    for w in &e.warnings {
                        eprintln!("warning: {label}:{}: {}: {w}", e.line, e.function);
                    }
                }
                for u in &sk.unmatched {
                    eprintln!("note: {label}: no {u}");
                }
                edits += sk.edits.len();
                edited_files += usize::from(!sk.edits.is_empty());
                &sk.text
            }
            Err(e @ (SkeletonError::Io { .. } | SkeletonError::Refused(_))) => {
                eprintln!("error: {e}");
                failed += 1;
                continue;
            }
            Err(e) => {
                eprintln!("not skeletonized (copied unchanged): {e}");
                not_clean += 1;
                &o.source
            }
        };
        match write_atomic_in(&args.out, &o.rel_path, text) {
            Ok(_) => written += 1,
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    if let Err(e) = edits_out.commit() {
        eprintln!("error: {e}");
        return ExitCode::from(ExitOutcome::Fatal);
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{} files ({:.1} MB) in {secs:.2}s ({:.1} MB/s): {edits} stubs in {edited_files} files, {warned} with warnings; {not_clean} files not skeletonized; {failed} files refused or not written",
        outcomes.len(),
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / secs.max(1e-9)
    );
    ExitCode::from(from_counts(written, failed))
}
