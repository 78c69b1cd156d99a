//! Edit sets of one or two patches against a pre-image directory.
//!
//! ```text
//! cargo run --release --example localize -- [--max-file-bytes N] [--lang-hint LANG] --before DIR PATCH_A [PATCH_B]
//! ```
//! `--lang-hint` names the repository's language (`cpp`, `C++`, `java`, ...;
//! `codethread_lang::Lang::from_name`): with `cpp`, every C-family file
//! (`.h`, `.c` too) is C++.
//! Prints one JSON document: per patch the touched files and the edited
//! functions (`targets`: modified / removed, `added_functions`, per-file
//! details), and with two patches `similarity` = J^file and J^func.
//!
//! Every file read (the patches and the pre-images under `--before`) must be
//! a regular file of at most `--max-file-bytes` (default 64 MiB): a FIFO or
//! device is refused, never read. Each patch is one input: when one of two
//! patches fails (unreadable, not a diff, a pre-image refused, does not
//! apply), the error goes to stderr naming it and the document holds the
//! other patch only (`similarity` is then null).
//!
//! Exit codes (`codethread::exit`): 0 every patch localized; 1 some patch
//! failed, the others' results printed; 2 usage error or no patch localized
//! (nothing printed).
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use codethread::exit::{from_counts, ExitOutcome};
use codethread::lang::io::{read_regular, DEFAULT_MAX_FILE_BYTES};

#[derive(Parser)]
#[command(about = "Localize patches to files and functions; Jaccard of two patches")]
struct Cli {
    /// Directory holding the pre-image files (repository root).
    #[arg(long)]
    before: PathBuf,
    /// Largest file read (patches and pre-images), in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Repository language (`cpp`, `c`, `java`, `ruby`, `php`, ...). Default
    /// for `.h`: from the tree of `--before` (`codethread::lang::tree_hint`),
    /// else by its content.
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    lang_hint: Option<codethread::lang::Lang>,
    /// First patch file.
    patch_a: PathBuf,
    /// Optional second patch file (same base).
    patch_b: Option<PathBuf>,
}

fn parse_lang(s: &str) -> Result<codethread::lang::Lang, String> {
    codethread::lang::Lang::from_name(s).ok_or_else(|| format!("unknown language `{s}`"))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if !cli.before.is_dir() {
        eprintln!("error: {}: not a directory", cli.before.display());
        return ExitCode::from(ExitOutcome::Fatal);
    }
    let hint = cli
        .lang_hint
        .or_else(|| codethread::lang::tree_hint(&[&cli.before], cli.max_file_bytes));
    let mut done = Vec::new();
    let mut failed = 0usize;
    for (index, p) in std::iter::once(&cli.patch_a)
        .chain(cli.patch_b.as_ref())
        .enumerate()
    {
        let result = read_regular(p, cli.max_file_bytes)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                codethread::patch::localize_in_dir(
                    &cli.before,
                    &text,
                    index,
                    &codethread::patch::LocalizeOptions::default()
                        .hint(hint)
                        .max_file_bytes(cli.max_file_bytes),
                )
                .map_err(|e| format!("{}: {e}", p.display()))
            });
        match result {
            Ok(r) => done.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    let outcome = from_counts(done.len(), failed);
    if outcome == ExitOutcome::Fatal {
        return ExitCode::from(outcome);
    }
    let sets = codethread::patch::edit_sets_of(done);
    match serde_json::to_string_pretty(&sets) {
        Ok(s) => {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            if let Err(e) = writeln!(o, "{s}").and_then(|()| o.flush()) {
                eprintln!("error: stdout: {e}");
                return ExitCode::from(ExitOutcome::Fatal);
            }
            ExitCode::from(outcome)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(ExitOutcome::Fatal)
        }
    }
}
