//! Edit sets of one or two patches against a pre-image directory.
//!
//! ```text
//! cargo run --release --example localize -- --before DIR PATCH_A [PATCH_B]
//! ```
//! Prints one JSON document: per patch the touched files and the edited
//! functions (`targets`: modified / removed, `added_functions`, per-file
//! details), and with two patches `similarity` = J^file and J^func.
//! Errors go to stderr with exit status 1.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

#[derive(Parser)]
#[command(about = "Localize patches to files and functions; Jaccard of two patches")]
struct Cli {
    /// Directory holding the pre-image files (repository root).
    #[arg(long)]
    before: PathBuf,
    /// First patch file.
    patch_a: PathBuf,
    /// Optional second patch file (same base).
    patch_b: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut texts = Vec::new();
    for p in std::iter::once(&cli.patch_a).chain(cli.patch_b.as_ref()) {
        match std::fs::read(p) {
            Ok(t) => texts.push(t),
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let refs: Vec<&[u8]> = texts.iter().map(Vec::as_slice).collect();
    match codethread::patch::edit_sets_in_dir(&cli.before, &refs) {
        Ok(sets) => match serde_json::to_string_pretty(&sets) {
            Ok(s) => {
                println!("{s}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
