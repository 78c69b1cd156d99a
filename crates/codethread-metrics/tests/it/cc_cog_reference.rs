//! Cyclomatic and cognitive complexity against the paper-profile references
//! (`metrics/reference/<corpus>.paper.jsonl`), corpus by corpus.
//!
//! Every reference record is mapped to the indexed function with the same
//! `line`/`end_line` (own node span) in the same file, in source order; a record
//! with no such function counts as a mismatch. Fails when any corpus × metric
//! agrees on fewer than 99.5 % of the reference's functions.
//!
//! Env: `PARITY_CORPUS` (one corpus), `PARITY_METRIC` (`cyclomatic` or
//! `cognitive`), `PARITY_SHOW=N` (print the first N mismatches).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use codethread_lang::{index_functions, parse_path};
use codethread_metrics::{cognitive, cyclomatic, FnCtx, Profile};
use rayon::prelude::*;
use serde_json::Value;

const CORPORA: &[&str] = &[
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash",
];
const METRICS: &[&str] = &["cyclomatic", "cognitive"];

#[derive(Default, Clone)]
struct Tally {
    compared: usize,
    matched: usize,
    unmapped: usize,
    mismatches: Vec<String>,
}

fn check_file(root: &Path, rel: &str, recs: &[Value], metrics: &[&str]) -> Vec<Tally> {
    let mut out = vec![Tally::default(); metrics.len()];
    let bytes = std::fs::read(root.join(rel)).unwrap();
    let file = parse_path(Path::new(rel), bytes).unwrap();
    let funcs = index_functions(&file);
    let flat = codethread_lang::FlatTree::new(&file);
    // (line, end_line) -> functions in source order
    let mut by_span: HashMap<(u64, u64), Vec<usize>> = HashMap::new();
    for (i, f) in funcs.iter().enumerate() {
        by_span
            .entry((f.node.start_line as u64, f.node.end_line as u64))
            .or_default()
            .push(i);
    }
    let mut used: HashMap<(u64, u64), usize> = HashMap::new();
    for rec in recs {
        let line = rec["line"].as_u64().unwrap();
        let end = rec["end_line"].as_u64().unwrap();
        let k = used.entry((line, end)).or_insert(0);
        let idx = by_span.get(&(line, end)).and_then(|v| v.get(*k)).copied();
        *k += 1;
        let name = rec["name"].as_str().unwrap_or("");
        for (mi, m) in metrics.iter().enumerate() {
            let t = &mut out[mi];
            let want = rec[*m].as_u64();
            t.compared += 1;
            let Some(idx) = idx else {
                t.unmapped += 1;
                t.mismatches
                    .push(format!("{rel}:{line}-{end} {name}: UNMAPPED ref={want:?}"));
                continue;
            };
            let f = &funcs[idx];
            let Some(node) = flat.function_node(f) else {
                t.unmapped += 1;
                t.mismatches
                    .push(format!("{rel}:{line}-{end} {name}: NO NODE ref={want:?}"));
                continue;
            };
            let ctx = FnCtx {
                file: &file,
                func: f,
                node,
                index: &funcs,
                profile: Profile::Paper,
            };
            let got = match *m {
                "cyclomatic" => cyclomatic(&ctx),
                _ => cognitive(&ctx),
            }
            .map(u64::from);
            if got == want {
                t.matched += 1;
            } else {
                t.mismatches.push(format!(
                    "{rel}:{line}-{end} {name}: ours={got:?} ref={want:?}"
                ));
            }
        }
    }
    out
}

#[test]
fn cyclomatic_and_cognitive_match_the_paper_references() {
    let Some(shared) = codethread_testkit::shared_path("metrics") else {
        return;
    };
    let only_corpus = std::env::var("PARITY_CORPUS").ok();
    let only_metric = std::env::var("PARITY_METRIC").ok();
    let show: usize = std::env::var("PARITY_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let metrics: Vec<&str> = METRICS
        .iter()
        .copied()
        .filter(|m| only_metric.as_deref().is_none_or(|o| o == *m))
        .collect();
    let mut failures = Vec::new();
    println!(
        "{:<10} {:<11} {:>7} {:>7} {:>8} {:>8}",
        "corpus", "metric", "match", "of", "%", "unmapped"
    );
    for corpus in CORPORA {
        if only_corpus.as_deref().is_some_and(|c| c != *corpus) {
            continue;
        }
        let reference = shared.join(format!("reference/{corpus}.paper.jsonl"));
        let root = shared.join(format!("corpora/{corpus}"));
        let text = std::fs::read_to_string(&reference).unwrap();
        let mut by_path: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).unwrap();
            by_path
                .entry(v["path"].as_str().unwrap().to_string())
                .or_default()
                .push(v);
        }
        let per_file: Vec<Vec<Tally>> = by_path
            .par_iter()
            .map(|(rel, recs)| check_file(&root, rel, recs, &metrics))
            .collect();
        for (mi, m) in metrics.iter().enumerate() {
            let mut t = Tally::default();
            for f in &per_file {
                t.compared += f[mi].compared;
                t.matched += f[mi].matched;
                t.unmapped += f[mi].unmapped;
                t.mismatches.extend(f[mi].mismatches.iter().cloned());
            }
            let pct = 100.0 * t.matched as f64 / t.compared.max(1) as f64;
            println!(
                "{corpus:<10} {m:<11} {:>7} {:>7} {pct:>7.2}% {:>8}",
                t.matched, t.compared, t.unmapped
            );
            for line in t.mismatches.iter().take(show) {
                println!("    {line}");
            }
            if pct < 99.5 {
                failures.push(format!("{corpus} {m}: {pct:.2}%"));
            }
        }
    }
    assert!(failures.is_empty(), "below 99.5%: {failures:?}");
}
