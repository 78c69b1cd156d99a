//! Property checks over every function of every file of the real corpora in
//! `shared/metrics/corpora` (requests, django, gin, cobra, ripgrep, express,
//! lodash), skeletonized with `--all`:
//!
//! - the skeleton has no ERROR/MISSING node the original does not have;
//! - every byte outside the edits is unchanged, and every edit lies inside
//!   its function's body (after the header's opener);
//! - decorators / attributes and the whole signature through the opener are
//!   byte-identical, and the skeleton's own index finds every surviving
//!   function again with the same header, async and generator kind;
//! - splicing the original bodies back restores the file exactly;
//! - a second run is a no-op.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use codethread_lang::{index_functions, parse, parse_file, Function, Lang};
use codethread_skeleton::{
    restore, skeletonize, Edit, Options, ParseErrorPolicy, Selector, Skeleton,
};
use rayon::prelude::*;

/// The corpora of this suite.
const OLD_CORPORA: [&str; 7] = [
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash",
];

/// Every file of a supported language below `root`, sorted.
pub(crate) fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if Lang::from_path(&p).is_some() {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[derive(Default, Debug)]
struct Totals {
    files: usize,
    files_with_parse_errors: usize,
    functions: usize,
    edits: usize,
    skipped: usize,
    already: usize,
    generators: usize,
    asyncs: usize,
    warnings: usize,
    by_lang: std::collections::BTreeMap<&'static str, (usize, usize)>,
    skip_reasons: std::collections::BTreeMap<String, usize>,
}

/// End of the function's syntax node in the tree (the index's `node` span
/// stops before trailing comments of the body).
fn node_end(file: &codethread_lang::ParsedFile, f: &Function) -> usize {
    match f.find_node(file) {
        Some(n) => n.end_byte(),
        // Functions of re-parsed macro bodies: the macro's token tree.
        None => f.span.end_byte + 64,
    }
}

/// Bytes of the signature through the body opener (decorators and
/// attributes are compared separately: a JS `var a = ..., b = ...;`
/// statement is the span of both functions).
fn head<'a>(src: &'a [u8], f: &Function) -> &'a [u8] {
    &src[f.header.start_byte..f.header.end_byte]
}

fn check_file(path: &Path, opts: &Options, totals: &Mutex<Totals>, failures: &Mutex<Vec<String>>) {
    let src = std::fs::read(path).unwrap();
    let file = parse_file(path, src.clone(), &codethread_lang::ParseOptions::default()).unwrap();
    let name = path.display().to_string();
    let fail = |m: String| failures.lock().unwrap().push(format!("{name}: {m}"));
    let sk: Skeleton = match skeletonize(&file, &[Selector::All], opts) {
        Ok(s) => s,
        Err(e) => return fail(format!("skeletonize failed: {e}")),
    };
    // Exact restoration.
    match restore(&sk.text, &sk.edits, &src) {
        Ok(r) if r == src => {}
        Ok(_) => fail("restore differs from the original".into()),
        Err(e) => fail(format!("restore failed: {e}")),
    }
    // Bytes outside the edits, walked independently of apply_edits.
    let mut o = 0usize;
    let mut s = 0usize;
    for e in &sk.edits {
        let gap = e.start_byte - o;
        if sk.text.get(s..s + gap) != src.get(o..e.start_byte) {
            fail(format!("bytes before edit {} changed", e.function));
        }
        s += gap + e.replacement.len();
        o = e.end_byte;
    }
    if sk.text.get(s..) != src.get(o..) {
        fail("bytes after the last edit changed".into());
    }
    // No new ERROR/MISSING nodes.
    let re = parse(file.lang, sk.text.clone()).unwrap();
    if re.parse_errors > file.parse_errors {
        fail(format!(
            "skeleton has {} ERROR/MISSING, original {}",
            re.parse_errors, file.parse_errors
        ));
    }
    // Edits stay inside bodies; headers survive with their kind.
    let before = index_functions(&file);
    let after = index_functions(&re);
    let edited: Vec<(&Edit, &Function)> = sk
        .edits
        .iter()
        .map(|e| {
            let f = before
                .iter()
                .find(|f| {
                    f.body.is_some()
                        && f.header.end_byte <= e.start_byte
                        && e.end_byte <= node_end(&file, f)
                        && f.node.start_line == e.line
                })
                .unwrap_or_else(|| panic!("{name}: edit {} lies outside every body", e.function));
            (e, f)
        })
        .collect();
    let covered = |f: &Function| {
        sk.edits
            .iter()
            .any(|e| e.start_byte <= f.span.start_byte && f.span.end_byte <= e.end_byte)
    };
    let survivors: Vec<&Function> = before.iter().filter(|f| !covered(f)).collect();
    if survivors.len() != after.len() {
        fail(format!(
            "{} functions survive but the skeleton indexes {}",
            survivors.len(),
            after.len()
        ));
    } else {
        for (b, a) in survivors.iter().zip(&after) {
            if b.qualname != a.qualname
                || b.is_async != a.is_async
                || b.is_generator != a.is_generator
                || head(&src, b) != head(&sk.text, a)
                || b.decorators != a.decorators
            {
                fail(format!(
                    "function {} (line {}) changed header or kind: async {}->{} generator {}->{}",
                    b.qualname,
                    b.node.start_line,
                    b.is_async,
                    a.is_async,
                    b.is_generator,
                    a.is_generator
                ));
                break;
            }
        }
    }
    // Second run is a no-op.
    let file2 = parse(file.lang, sk.text.clone()).unwrap();
    match skeletonize(&file2, &[Selector::All], opts) {
        Ok(s2) if s2.edits.is_empty() && s2.text == sk.text => {}
        Ok(s2) => fail(format!(
            "second run made {} edits, first {:?}",
            s2.edits.len(),
            s2.edits.first()
        )),
        Err(e) => fail(format!("second run failed: {e}")),
    }
    let mut t = totals.lock().unwrap();
    t.files += 1;
    t.files_with_parse_errors += usize::from(file.parse_errors > 0);
    t.functions += before.len();
    t.edits += sk.edits.len();
    t.skipped += sk.skipped.len();
    t.already += sk
        .skipped
        .iter()
        .filter(|s| s.reason == codethread_skeleton::SkipReason::AlreadyStub)
        .count();
    t.generators += edited.iter().filter(|(_, f)| f.is_generator).count();
    t.asyncs += edited.iter().filter(|(_, f)| f.is_async).count();
    t.warnings += sk.edits.iter().filter(|e| !e.warnings.is_empty()).count();
    for sk in &sk.skipped {
        let r = format!("{}: {:?}", file.lang.name(), sk.reason);
        *t.skip_reasons.entry(r).or_default() += 1;
    }
    let entry = t.by_lang.entry(file.lang.name()).or_default();
    entry.0 += before.len();
    entry.1 += sk.edits.len();
}

fn run_corpora(opts: &Options) {
    let Some(root) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    // The Python / Go / Rust / JS corpora; the Java, C, C++, Ruby and PHP
    // ones are checked by tests/it/multilingual.rs.
    let all: Vec<PathBuf> = OLD_CORPORA
        .iter()
        .flat_map(|c| files(&root.join(c)))
        .collect();
    assert!(
        all.len() > 3000,
        "expected the whole corpora, found {} files",
        all.len()
    );
    let totals = Mutex::new(Totals::default());
    let failures = Mutex::new(Vec::new());
    all.par_iter()
        .for_each(|p| check_file(p, opts, &totals, &failures));
    let t = totals.into_inner().unwrap();
    println!("{t:?}");
    let failures = failures.into_inner().unwrap();
    for f in failures.iter().take(30) {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert!(t.edits > 20_000, "{t:?}");
    assert!(t.generators > 50 && t.asyncs > 50, "{t:?}");
}

#[test]
fn corpora_all_functions_default_options() {
    run_corpora(
        &Options::default()
            .on_parse_errors(ParseErrorPolicy::SkipAffected)
            .verify(false),
    );
}

#[test]
fn corpora_all_functions_keep_docs() {
    run_corpora(
        &Options::default()
            .keep_docs(true)
            .on_parse_errors(ParseErrorPolicy::SkipAffected)
            .verify(false),
    );
}
