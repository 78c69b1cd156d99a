//! Chunked parsing (issue 19, `codethread_lang::ChunkPlan`) against the
//! whole-file parse on the twelve real corpora: every file measured with
//! the chunk threshold forced to 0 and small chunks (so that nearly every
//! file is cut into many chunks) gives the same records and totals as the
//! whole-file parse, under both profiles. A file with no syntax error must
//! not differ; a file with errors (in its measured parse or its plain one)
//! may, as the fallback grammar, the macro mask and tree-sitter's error
//! recovery then act per chunk: those are counted and listed with their
//! first difference. Prints a corpus × profile table.
//!
//! Run: `CODETHREAD_SHARED=/work/shared cargo test -p codethread-metrics
//! --test it chunked:: -- --nocapture` (`CHUNK_CORPUS=gin,cobra` for some).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread_lang::io::DEFAULT_MAX_FILE_BYTES;
use codethread_lang::{ChunkOptions, Lang};
use codethread_metrics::{analyze_inputs, collect_inputs, AnalyzeOptions, FileMetrics, Profile};
use serde_json::Value;

const CORPORA: [&str; 12] = [
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash", "gson", "jq", "fmt",
    "jekyll", "carbon",
];

/// Every file chunked, in chunks of about 2 KB; no node budget.
const FORCED: ChunkOptions = ChunkOptions::DEFAULT
    .min_file_bytes(0)
    .chunk_bytes(2_048)
    .max_unit_tokens(0);

fn hint_of(shared: &Path, corpus: &str) -> Option<Lang> {
    let summary_path = shared.join(format!("reference/{corpus}.paper.summary.json"));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    summary["language"]
        .as_str()
        .and_then(Lang::from_name)
        .filter(|l| l.is_c_family())
}

/// The first difference between two measurements of one file.
fn first_difference(whole: &FileMetrics, chunked: &FileMetrics) -> Option<String> {
    if whole.functions.len() != chunked.functions.len() {
        return Some(format!(
            "{} records whole, {} chunked",
            whole.functions.len(),
            chunked.functions.len()
        ));
    }
    for (a, b) in whole.functions.iter().zip(&chunked.functions) {
        let (va, vb) = (
            serde_json::to_value(a).unwrap(),
            serde_json::to_value(b).unwrap(),
        );
        if va != vb {
            let (Value::Object(ma), Value::Object(mb)) = (&va, &vb) else {
                return Some("record differs".into());
            };
            let field = ma
                .iter()
                .find(|(k, v)| mb.get(*k) != Some(*v))
                .map(|(k, v)| format!("{k}: {v} vs {}", mb.get(k).unwrap_or(&Value::Null)))
                .unwrap_or_default();
            return Some(format!("line {} {}: {field}", a.line, a.qualname));
        }
    }
    let (va, vb) = (
        serde_json::to_value(whole).unwrap(),
        serde_json::to_value(chunked).unwrap(),
    );
    (va != vb).then(|| {
        format!(
            "file fields: errors {} vs {}, first_error {:?} vs {:?}, totals {:?} vs {:?}",
            whole.parse_errors,
            chunked.parse_errors,
            whole.first_error,
            chunked.first_error,
            whole.totals,
            chunked.totals
        )
    })
}

/// Whether the file's plain parse has syntax errors.
fn plain_errors(path: &Path, hint: Option<Lang>) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let Some(lang) = Lang::for_source(path, &bytes, hint) else {
        return false;
    };
    codethread_lang::parse(lang, bytes).is_ok_and(|f| f.parse_errors > 0)
}

#[test]
fn chunked_records_equal_whole_file_records() {
    let Some(shared) = codethread_testkit::shared_path("metrics") else {
        return;
    };
    let corpora: Vec<String> = std::env::var("CHUNK_CORPUS")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.split(',').map(|p| p.trim().to_string()).collect())
        .unwrap_or_else(|| CORPORA.iter().map(|s| s.to_string()).collect());
    println!(
        "{:<9} {:<9} {:>6} {:>9} {:>10} {:>10}",
        "corpus", "profile", "files", "compared", "differ", "differ_ok"
    );
    let mut failures: Vec<String> = Vec::new();
    let (mut total_files, mut total_differ) = (0usize, 0usize);
    for corpus in &corpora {
        let hint = hint_of(&shared, corpus);
        let root: PathBuf = shared.join(format!("corpora/{corpus}"));
        let (inputs, _) = collect_inputs(std::slice::from_ref(&root));
        for profile in [Profile::Paper, Profile::Canonical] {
            let base = AnalyzeOptions::new(profile)
                .with_max_file_bytes(DEFAULT_MAX_FILE_BYTES)
                .with_hint(hint);
            let whole = analyze_inputs(&inputs, &base.with_chunks(ChunkOptions::NEVER));
            let chunked = analyze_inputs(&inputs, &base.with_chunks(FORCED));
            let (mut compared, mut differ, mut differ_ok) = (0usize, 0usize, 0usize);
            for ((input, w), c) in inputs.iter().zip(&whole).zip(&chunked) {
                let why = match (w, c) {
                    (Ok(w), Ok(c)) => {
                        compared += 1;
                        first_difference(w, c).map(|d| (w.parse_errors > 0, d))
                    }
                    (Err(_), Err(_)) => None,
                    (w, c) => Some((
                        false,
                        format!(
                            "whole {:?}, chunked {:?}",
                            w.as_ref().err().map(ToString::to_string),
                            c.as_ref().err().map(ToString::to_string)
                        ),
                    )),
                };
                let Some((with_errors, why)) = why else {
                    continue;
                };
                // The file's plain parse (its own grammar, no fallback, no
                // macro mask) has syntax errors: recovery, fallback and mask
                // act per chunk there.
                let with_errors = with_errors || plain_errors(&input.path, hint);
                differ += 1;
                let line = format!("{corpus} {profile:?} {}: {why}", input.label);
                println!("  differs: {line}");
                if with_errors {
                    differ_ok += 1;
                } else {
                    failures.push(line);
                }
            }
            total_files += compared;
            total_differ += differ;
            println!(
                "{corpus:<9} {:<9} {:>6} {compared:>9} {differ:>10} {differ_ok:>10}",
                format!("{profile:?}"),
                inputs.len()
            );
        }
    }
    println!("compared {total_files} file measurements, {total_differ} differ");
    assert!(
        failures.is_empty(),
        "clean files whose chunked records differ from the whole file's:\n{failures:#?}"
    );
}

/// What spans chunks (no corpus needed): gocognit's method rule with the
/// top-level name declared in another chunk, Go's `anonymous__N` counter,
/// a qualname repeated across chunks (target ids `#n`), canonical
/// recursion through a function of another chunk.
#[test]
fn file_wide_rules_across_chunks() {
    let filler: String = (0..40)
        .map(|i| format!("func h{i}(a int) int {{\n\tif a > {i} {{\n\t\treturn a\n\t}}\n\treturn {i}\n}}\n\n"))
        .collect();
    let go = format!(
        "package p\n\nfunc f() int {{ return 1 }}\n\nvar v = func() int {{ return 2 }}\n\n{filler}\
         type T struct{{}}\n\nfunc (t T) f() int {{\n\tif true {{\n\t\treturn f()\n\t}}\n\treturn 0\n}}\n\n\
         func (t T) g() int {{\n\tif true {{\n\t\treturn g()\n\t}}\n\treturn 0\n}}\n\n\
         var w = func() int {{ return 3 }}\n\n{filler}\
         func a() int {{ return b() }}\n\nfunc b() int {{ return a() }}\n\n\
         func init() {{}}\n\n{filler}func init() {{}}\n"
    );
    let py = format!(
        "def a():\n    return b()\n\n{}\ndef b():\n    return a()\n\n{}\ndef a():\n    return 1\n",
        (0..40)
            .map(|i| format!("def h{i}(x):\n    if x:\n        return {i}\n    return x\n\n"))
            .collect::<String>(),
        (0..40)
            .map(|i| format!("def k{i}(x):\n    return x + {i}\n\n"))
            .collect::<String>()
    );
    let forced = ChunkOptions::default()
        .min_file_bytes(0)
        .chunk_bytes(256)
        .max_unit_tokens(0);
    for (lang, src) in [(Lang::Go, go), (Lang::Python, py)] {
        for profile in [Profile::Paper, Profile::Canonical] {
            let opts = AnalyzeOptions::new(profile);
            let whole = codethread_metrics::analyze_source(
                "x",
                lang,
                src.clone(),
                &opts.with_chunks(ChunkOptions::NEVER),
            )
            .unwrap();
            let chunked = codethread_metrics::analyze_source(
                "x",
                lang,
                src.clone(),
                &opts.with_chunks(forced),
            )
            .unwrap();
            assert!(!whole.functions.is_empty());
            assert_eq!(
                first_difference(&whole, &chunked),
                None,
                "{lang} {profile:?}"
            );
        }
    }
}
