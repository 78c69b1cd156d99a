//! Survey of the real agent predictions in shared/swebench: every patch
//! parses or gets a typed error (never a panic), and J^file against the gold
//! patch of the same instance.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::common::*;
use codethread_patch::{
    file_set, jaccard, localize, parse_patch, similarity, LocalizeOptions, ParseError,
};

fn pred_files(root: &std::path::Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                let in_agent_dir = p
                    .parent()
                    .is_some_and(|d| d.ends_with("agent_preds_verified"));
                if name.ends_with(".jsonl") && (name.contains("preds") || in_agent_dir) {
                    v.push(p);
                }
            }
        }
    }
    v.sort();
    v
}

fn error_kind(e: &ParseError) -> &'static str {
    match e {
        ParseError::NoFiles { .. } => "no_files",
        ParseError::BadHunkHeader { .. } => "bad_hunk_header",
        ParseError::TruncatedHunk { .. } => "truncated_hunk",
        ParseError::HunkOverflow { .. } => "hunk_overflow",
        ParseError::EmptyHunk { .. } => "empty_hunk",
        ParseError::OrphanNoNewline { .. } => "orphan_no_newline",
        ParseError::MissingNewFileLine { .. } => "missing_plus_line",
        ParseError::HunkWithoutFileHeader { .. } => "hunk_without_header",
        ParseError::MissingFileName { .. } => "missing_file_name",
        ParseError::BadQuotedPath { .. } => "bad_quoted_path",
        ParseError::BadNumber { .. } => "bad_number",
        ParseError::BadBinary { .. } => "bad_binary",
    }
}

#[test]
fn agent_predictions_survey() {
    let Some(sw) = codethread_testkit::shared_path("swebench") else {
        return;
    };
    let dev = codethread_testkit::shared_path("chains/dev").unwrap();
    let mut gold: BTreeMap<String, String> = BTreeMap::new();
    for row in read_jsonl(&sw.join("swebench_datasets/SWE-bench_Verified.test.jsonl")) {
        gold.insert(
            row["instance_id"].as_str().unwrap().into(),
            row["patch"].as_str().unwrap().into(),
        );
    }
    for row in read_jsonl(&sw.join("java_swebench_java_v0/gold_multiswebench_java_50.jsonl")) {
        gold.insert(
            row["instance_id"].as_str().unwrap().into(),
            row["fix_patch"].as_str().unwrap().into(),
        );
    }
    let dev_rows: BTreeMap<String, (serde_json::Value, PathBuf)> = dev_instances(&dev)
        .into_iter()
        .map(|(r, p)| (r["instance_id"].as_str().unwrap().to_string(), (r, p)))
        .collect();

    let files = pred_files(&sw);
    assert!(files.len() >= 10, "{files:?}");
    let mut total = BTreeMap::<&str, usize>::new();
    let mut dev_overlap = 0;
    println!("| preds file | rows | parsed | null | empty | typed errors | with stray text | with gold | mean J^file vs gold |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for f in &files {
        let rows = read_jsonl(f);
        let mut c = BTreeMap::<&str, usize>::new();
        let mut errors = BTreeMap::<&str, usize>::new();
        let mut js = Vec::new();
        for row in &rows {
            let id = row["instance_id"].as_str().unwrap_or_default();
            // SWE-agent (OmniCode) rows nest the prediction object inside `model_patch`.
            let mp = row.get("model_patch");
            let nested = mp.and_then(|v| v.get("model_patch"));
            if nested.is_some() {
                *c.entry("nested_object").or_default() += 1;
            }
            let kind = match nested.or(mp).and_then(|v| v.as_str()) {
                None => "null",
                Some(p) if p.trim().is_empty() => "empty",
                Some(p) => match parse_patch(p.as_bytes()) {
                    Ok(patch) => {
                        assert_eq!(patch.to_bytes(), p.as_bytes(), "{id}: round trip");
                        if !patch.trailer.is_empty()
                            || patch.files.iter().any(|f| !f.preamble.is_empty())
                        {
                            *c.entry("stray_text").or_default() += 1;
                        }
                        if let Some(g) = gold.get(id) {
                            let gp = parse_patch(g.as_bytes()).unwrap();
                            let (a, b) = (file_set(&patch), file_set(&gp));
                            let j = jaccard(&a, &b);
                            assert!((0.0..=1.0).contains(&j));
                            assert_eq!(j, jaccard(&b, &a), "symmetric");
                            js.push(j);
                        }
                        if let Some((drow, dfiles)) = dev_rows.get(id) {
                            // Pre-images present: J^func too.
                            dev_overlap += 1;
                            let before = load_tree(&dfiles.join("before"));
                            let gp =
                                parse_patch(drow["patch"].as_str().unwrap().as_bytes()).unwrap();
                            if let (Ok(la), Ok(lg)) = (
                                localize(&before, &patch, &LocalizeOptions::default()),
                                localize(&before, &gp, &LocalizeOptions::default()),
                            ) {
                                let s = similarity((&patch, &la), (&gp, &lg));
                                println!("J {id}: file {:.3} func {:.3}", s.file, s.func);
                            }
                        }
                        "parsed"
                    }
                    Err(e) => {
                        *errors.entry(error_kind(&e)).or_default() += 1;
                        // The error names a line inside the patch (or the whole input).
                        let msg = e.to_string();
                        assert!(!msg.is_empty());
                        "error"
                    }
                },
            };
            *c.entry(kind).or_default() += 1;
            *total.entry(kind).or_default() += 1;
            if nested.is_some() {
                *total.entry("nested_object").or_default() += 1;
            }
        }
        let extra = c.get("nested_object").copied().unwrap_or(0)
            + c.get("stray_text").copied().unwrap_or(0);
        assert_eq!(c.values().sum::<usize>() - extra, rows.len());
        let mean = if js.is_empty() {
            f64::NAN
        } else {
            js.iter().sum::<f64>() / js.len() as f64
        };
        println!(
            "| {} | {} | {} | {} | {} | {:?} | {} | {} | {:.3} |",
            f.strip_prefix(&sw).unwrap().display(),
            rows.len(),
            c.get("parsed").copied().unwrap_or(0),
            c.get("null").copied().unwrap_or(0),
            c.get("empty").copied().unwrap_or(0),
            errors,
            c.get("stray_text").copied().unwrap_or(0),
            js.len(),
            mean
        );
    }
    println!(
        "totals: {total:?}; predictions on chains/dev instances (J^func computable): {dev_overlap}"
    );
    // Independent count (python json + str.strip over the same files):
    // 41 null and 91 empty `model_patch` values, 581 non-empty strings, and 20
    // nested objects (19 holding a non-empty `model_patch` string, 1 a null).
    assert_eq!(total.get("null").copied().unwrap_or(0), 42);
    assert_eq!(total.get("empty").copied().unwrap_or(0), 91);
    assert_eq!(total.get("nested_object").copied().unwrap_or(0), 20);
    assert_eq!(
        total.get("parsed").copied().unwrap_or(0) + total.get("error").copied().unwrap_or(0),
        600
    );
}

/// J^file and J^func on real patches with pre-images: each dev gold patch
/// against the diff this crate writes from the same before/after (same edit,
/// different hunking) must give 1.0 / 1.0; against another instance's patch
/// of the same repository the file sets differ.
#[test]
fn dev_jaccard_gold_vs_rediff() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    for (row, files) in dev_instances(&dev) {
        let id = row["instance_id"].as_str().unwrap();
        let before = load_tree(&files.join("before"));
        let after = load_tree(&files.join("after"));
        let gold = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
        let re = codethread_patch::diff_trees(&before, &after, &Default::default()).unwrap();
        let (lg, lr) = (
            localize(&before, &gold, &LocalizeOptions::default()).unwrap(),
            localize(&before, &re, &LocalizeOptions::default()).unwrap(),
        );
        let s = similarity((&gold, &lg), (&re, &lr));
        assert_eq!(file_set(&gold), file_set(&re), "{id}");
        let (fg, fr): (BTreeSet<_>, BTreeSet<_>) = (
            codethread_patch::function_set(&lg, true),
            codethread_patch::function_set(&lr, true),
        );
        assert_eq!(fg, fr, "{id}: same edit, same functions");
        assert_eq!((s.file, s.func), (1.0, 1.0), "{id}");
    }
}
