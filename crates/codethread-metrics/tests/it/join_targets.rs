//! The join key on the twelve dev corpora: every record's `target_id` is an
//! id of the codethread-lang index of its file as `chain targets` reads it
//! (`parse_path_hinted` + `index_functions`, the named functions with a
//! body, `Function::target_id`), no two records share one, and a record
//! without one says why in its notes. Under the canonical profile the
//! records are exactly the index's targets (except functions found only
//! inside macro bodies, which have no node): the join misses nothing either
//! way. Both profiles; prints a corpus × profile table.
//!
//! Run: `CODETHREAD_SHARED=/work/shared cargo test -p codethread-metrics
//! --test it join_targets:: -- --nocapture` (`JOIN_CORPUS=gin,cobra` for some).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use codethread_lang::io::DEFAULT_MAX_FILE_BYTES;
use codethread_lang::{index_functions, parse_file, Lang};
use codethread_metrics::{analyze_paths, AnalyzeOptions, Profile};
use serde_json::Value;

const CORPORA: [&str; 12] = [
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash", "gson", "jq", "fmt",
    "jekyll", "carbon",
];

/// The repository-level language hint of a corpus (as the parity test and
/// `chain targets` give it: a C++ repository's `.h` files are C++).
fn hint_of(shared: &Path, corpus: &str) -> Option<Lang> {
    let summary_path = shared.join(format!("reference/{corpus}.paper.summary.json"));
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(&summary_path).unwrap()).unwrap();
    summary["language"]
        .as_str()
        .and_then(Lang::from_name)
        .filter(|l| l.is_c_family())
}

/// Target ids of one file, and those of functions in macro bodies (no node
/// in the file's tree: no canonical record).
fn index_ids(root: &Path, path: &str, hint: Option<Lang>) -> Index {
    let bytes = std::fs::read(root.join(path)).unwrap();
    let Ok(file) = parse_file(
        Path::new(path),
        bytes,
        &codethread_lang::ParseOptions::with_hint(hint),
    ) else {
        return Default::default();
    };
    let mut ix = Index::default();
    for f in index_functions(&file) {
        if f.anonymous || f.body.is_none() {
            continue;
        }
        let id = f.target_id(path);
        if f.in_macro {
            ix.in_macro.insert(id.clone());
        } else {
            // The lines a record of this function may start on.
            for line in [f.span.start_line, f.node.start_line] {
                ix.starts.entry(line).or_insert_with(|| id.clone());
            }
        }
        assert!(ix.ids.insert(id.clone()), "{path}: the index repeats {id}");
    }
    ix
}

/// A file's index: its target ids, those of functions in macro bodies, and
/// the first line of each function's definition and own node.
#[derive(Default)]
struct Index {
    ids: HashSet<String>,
    in_macro: HashSet<String>,
    starts: HashMap<usize, String>,
}

#[test]
fn every_record_joins_one_target_id() {
    let Some(shared) = codethread_testkit::shared_path("metrics") else {
        return;
    };
    let corpora: Vec<String> = std::env::var("JOIN_CORPUS")
        .ok()
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.split(',').map(|p| p.trim().to_string()).collect())
        .unwrap_or_else(|| CORPORA.iter().map(|s| s.to_string()).collect());
    let mut failures: Vec<String> = Vec::new();
    println!(
        "{:<9} {:<9} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>8} {:>8}",
        "corpus",
        "profile",
        "records",
        "with_id",
        "no_id",
        "dups",
        "misses",
        "index",
        "at_start",
        "unjoined"
    );
    for corpus in &corpora {
        let hint = hint_of(&shared, corpus);
        let root: PathBuf = shared.join(format!("corpora/{corpus}"));
        for profile in [Profile::Paper, Profile::Canonical] {
            let results = analyze_paths(
                std::slice::from_ref(&root),
                &AnalyzeOptions::new(profile)
                    .with_max_file_bytes(DEFAULT_MAX_FILE_BYTES)
                    .with_hint(hint),
            );
            let (mut records, mut with_id, mut dups, mut misses, mut index_total) =
                (0usize, 0usize, 0usize, 0usize, 0usize);
            let (mut unjoined, mut at_start) = (0usize, 0usize);
            let mut no_id: HashMap<String, usize> = HashMap::new();
            for r in results {
                let Ok(m) = r else {
                    continue;
                };
                let Index {
                    ids,
                    in_macro,
                    starts,
                } = index_ids(&root, &m.path, hint);
                index_total += ids.len();
                let mut seen: HashSet<&str> = HashSet::new();
                for f in &m.functions {
                    records += 1;
                    let Some(id) = f.target_id.as_deref() else {
                        // Issue 36: a record where an indexed function
                        // starts is that function: it must carry its id.
                        if let Some(id) = starts.get(&f.line) {
                            unjoined += 1;
                            if unjoined <= 5 {
                                failures.push(format!(
                                    "{corpus} {profile:?}: {}:{} {} has no target_id, but {id} starts there",
                                    f.path, f.line, f.qualname
                                ));
                            }
                        }
                        let why = f
                            .notes
                            .iter()
                            .find(|n| n.starts_with("no target_id"))
                            .cloned();
                        match why {
                            Some(why) => *no_id.entry(why).or_insert(0) += 1,
                            None => failures.push(format!(
                                "{corpus} {profile:?}: {}:{} {} has no target_id and no note",
                                f.path, f.line, f.qualname
                            )),
                        }
                        continue;
                    };
                    with_id += 1;
                    at_start += usize::from(starts.contains_key(&f.line));
                    if !seen.insert(id) {
                        dups += 1;
                        if dups <= 5 {
                            failures.push(format!("{corpus} {profile:?}: duplicate {id}"));
                        }
                    }
                    if !ids.contains(id) {
                        misses += 1;
                        if misses <= 5 {
                            failures.push(format!("{corpus} {profile:?}: {id} not in the index"));
                        }
                    }
                    // The id is the record's own path and qualname.
                    let own = format!("{}::{}", f.path, f.qualname);
                    if id != own && !id.starts_with(&format!("{own}#")) {
                        failures.push(format!("{corpus} {profile:?}: {id} vs qualname {own}"));
                    }
                }
                if profile == Profile::Canonical {
                    // Every target of the file has its record.
                    for id in ids.difference(&in_macro) {
                        if !seen.contains(id.as_str()) {
                            misses += 1;
                            if misses <= 5 {
                                failures
                                    .push(format!("{corpus} canonical: target {id} has no record"));
                            }
                        }
                    }
                }
            }
            let no_id_total: usize = no_id.values().sum();
            println!(
                "{corpus:<9} {:<9} {records:>8} {with_id:>8} {no_id_total:>8} {dups:>6} {misses:>6} {index_total:>8} {at_start:>8} {unjoined:>8}",
                format!("{profile:?}")
            );
            for (why, n) in &no_id {
                println!("    {n:>6} {why}");
            }
            if profile == Profile::Canonical && no_id_total > 0 {
                failures.push(format!(
                    "{corpus} canonical: {no_id_total} records without target_id"
                ));
            }
            // The start-line check sees the records: nearly every joined
            // record starts where its function starts.
            if with_id > 0 && at_start * 10 < with_id * 9 {
                failures.push(format!(
                    "{corpus} {profile:?}: only {at_start} of {with_id} joined records start on an indexed function's first line"
                ));
            }
            if dups > 0 || misses > 0 || unjoined > 0 {
                failures.push(format!(
                    "{corpus} {profile:?}: {dups} dups, {misses} misses, {unjoined} unjoined records at an indexed function's start"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Functions the paper profile's reader (lizard) spells apart from the index still carry the
/// index's id (issue 36): C++ operators (`operator ==` against the index's `operator==`),
/// PHP's by-reference `function &name()`, and a record whose name matches nothing but whose
/// line is the header of exactly one target.
#[test]
fn records_spelled_apart_join_their_function() {
    let opts = AnalyzeOptions::default();
    let cpp = "struct A {\n  int x;\n  bool operator == (const A& o) const { return x == o.x; }\n  bool operator!=(const A& o) const { return !(*this == o); }\n  int operator () (int y) const { if (y) return x; return 0; }\n};\n";
    let m = codethread_metrics::analyze_source("a.cpp", Lang::Cpp, cpp, &opts).unwrap();
    assert_eq!(m.functions.len(), 3, "{:?}", m.functions);
    for f in &m.functions {
        assert!(
            f.target_id.is_some(),
            "{} at line {}: {:?}",
            f.name,
            f.line,
            f.notes
        );
    }
    let php = "<?php\nclass C {\n  public function &get($k) { if ($k) { return $this->a; } return $this->b; }\n}\n";
    let m = codethread_metrics::analyze_source("c.php", Lang::Php, php, &opts).unwrap();
    assert_eq!(m.functions.len(), 1, "{:?}", m.functions);
    assert!(m.functions[0].target_id.is_some(), "{:?}", m.functions[0]);
}
