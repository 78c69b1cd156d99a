//! Chunked skeletons (issue 19, `Options::chunks`) against whole-file
//! ones on the twelve real metrics corpora: every file skeletonized with
//! `--all` by path, with the chunk threshold forced to 0 and chunks of
//! about 2 KB (so that nearly every file is cut into many chunks), gives
//! the skeleton of the whole-file parse: the same text, edits, skips and
//! error count. A file whose parse (plain, or as the skeleton reads it) has
//! no syntax error must not differ; a file with errors may (the fallback
//! grammar, the macro mask and tree-sitter's error recovery then act per
//! chunk): those are counted and listed. Prints a table per corpus.
//!
//! Run: `CODETHREAD_SHARED=/work/shared cargo test -p codethread-skeleton
//! --test it chunked:: -- --nocapture`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::{ChunkOptions, Lang};
use codethread_skeleton::{skeletonize_path, Options, ParseErrorPolicy, Selector, Skeleton};
use rayon::prelude::*;

use super::corpora::files;

const CORPORA: [&str; 12] = [
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash", "gson", "jq", "fmt",
    "jekyll", "carbon",
];

/// Every file chunked, in chunks of about 2 KB; no node budget.
const FORCED: ChunkOptions = ChunkOptions::DEFAULT
    .min_file_bytes(0)
    .chunk_bytes(2_048)
    .max_unit_tokens(0);

/// The corpus's repository language when it is C or C++ (the hint the
/// metrics reference runs use).
fn hint_of(corpus: &str) -> Option<Lang> {
    match corpus {
        "jq" => Some(Lang::C),
        "fmt" => Some(Lang::Cpp),
        _ => None,
    }
}

fn first_difference(whole: &Skeleton, chunked: &Skeleton) -> String {
    if whole.edits.len() != chunked.edits.len() {
        return format!(
            "{} edits whole, {} chunked",
            whole.edits.len(),
            chunked.edits.len()
        );
    }
    if let Some((a, b)) = whole.edits.iter().zip(&chunked.edits).find(|(a, b)| a != b) {
        return format!("edit {} vs {}: {a:?} / {b:?}", a.function, b.function);
    }
    if whole.skipped != chunked.skipped {
        return format!("skipped {:?} vs {:?}", whole.skipped, chunked.skipped);
    }
    format!(
        "errors {} vs {}, lang {} vs {}",
        whole.parse_errors, chunked.parse_errors, whole.lang, chunked.lang
    )
}

#[test]
fn chunked_skeletons_equal_whole_file_skeletons() {
    let Some(shared) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    let opts = |chunks| {
        Options::default()
            .on_parse_errors(ParseErrorPolicy::SkipAffected)
            .chunks(chunks)
    };
    let mut failures = Vec::new();
    let (mut all_files, mut all_edits, mut all_with_errors) = (0usize, 0usize, 0usize);
    for corpus in CORPORA {
        let root = shared.join(corpus);
        let hint = hint_of(corpus);
        let rows: Vec<(usize, usize, usize, Option<String>)> = files(&root)
            .par_iter()
            .map(|path| {
                let src = std::fs::read(path).unwrap();
                let rel = path.strip_prefix(&root).unwrap();
                let run = |chunks| {
                    let o = opts(chunks).hint(hint);
                    skeletonize_path(rel, src.clone(), &[Selector::All], &o)
                };
                match (run(ChunkOptions::NEVER), run(FORCED)) {
                    (Ok(w), Ok(c)) if w == c => (1, w.edits.len(), 0, None),
                    (Ok(w), Ok(c)) => {
                        let plain = Lang::for_source(rel, &src, hint).is_some_and(|l| {
                            codethread_lang::parse(l, src.clone()).is_ok_and(|f| f.parse_errors > 0)
                        });
                        let errors = usize::from(w.parse_errors > 0 || c.parse_errors > 0 || plain);
                        let note = format!("{}: {}", rel.display(), first_difference(&w, &c));
                        (1, w.edits.len(), errors, Some(note))
                    }
                    // The same refusal both ways (a budget, a verification).
                    (Err(a), Err(b)) if a.to_string() == b.to_string() => (1, 0, 0, None),
                    (a, b) => (
                        1,
                        0,
                        0,
                        Some(format!(
                            "{}: whole {:?} / chunked {:?}",
                            rel.display(),
                            a.map(|s| s.edits.len()),
                            b.map(|s| s.edits.len())
                        )),
                    ),
                }
            })
            .collect();
        let n = rows.len();
        let edits: usize = rows.iter().map(|r| r.1).sum();
        let differ: Vec<&(usize, usize, usize, Option<String>)> =
            rows.iter().filter(|r| r.3.is_some()).collect();
        let with_errors = differ.iter().filter(|r| r.2 == 1).count();
        println!(
            "{corpus:10} files {n:5} edits {edits:6} differ {:3} (with syntax errors {with_errors})",
            differ.len()
        );
        for r in &differ {
            let note = r.3.as_deref().unwrap_or_default();
            if r.2 == 1 {
                println!("    with errors: {note}");
            } else {
                failures.push(format!("{corpus}: {note}"));
            }
        }
        all_files += n;
        all_edits += edits;
        all_with_errors += with_errors;
    }
    println!("all: {all_files} files, {all_edits} edits, {all_with_errors} differ in files with syntax errors");
    assert!(all_files > 3_000, "{all_files}");
    assert!(failures.is_empty(), "{failures:#?}");
}
