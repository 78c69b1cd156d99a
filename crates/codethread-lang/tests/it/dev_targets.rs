//! The function index against the independently determined functions of
//! `chains/dev/expected_targets.jsonl`: every target (before image) and every
//! added function (after image) must be found under its qualified name with
//! the same span and kind.

use std::collections::HashMap;
use std::path::Path;

use codethread_lang::{index_functions, parse_file, Function, Lang};
use serde_json::Value;

fn load(path: &Path, hint: Option<Lang>) -> Vec<Function> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = parse_file(path, bytes, &codethread_lang::ParseOptions::with_hint(hint))
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    index_functions(&file)
}

#[test]
fn expected_targets_are_indexed() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    check_pack(&dev, 100);
}

/// The same on the Java / C / C++ / Ruby / PHP pack, each file parsed with
/// its instance's `language` as the hint (fmtlib/fmt's `.h` files are C++).
#[test]
fn multilingual_expected_targets_are_indexed() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev_multilingual") else {
        return;
    };
    check_pack(&dev, 40);
}

/// Every target and added function of `dev`'s expected_targets.jsonl is
/// indexed with its span, kind and header end; at least `min` checked.
fn check_pack(dev: &Path, min: usize) {
    let text = std::fs::read_to_string(dev.join("expected_targets.jsonl"))
        .expect("expected_targets.jsonl");
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut cache: HashMap<std::path::PathBuf, Vec<Function>> = HashMap::new();
    for line in text.lines() {
        let inst: Value = serde_json::from_str(line).expect("json line");
        let id = inst["instance_id"].as_str().unwrap_or_default().to_string();
        let hint = inst["language"].as_str().and_then(Lang::from_name);
        let items = inst["targets"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|t| (t, "before"))
            .chain(
                inst["added_functions"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|t| (t, "after")),
            );
        for (t, side) in items {
            let path = t["path"].as_str().unwrap_or_default();
            let qual = t["qualname"].as_str().unwrap_or_default();
            let occ = t["occurrence"].as_u64().unwrap_or(1) as usize;
            let (start, end) = if side == "before" {
                (t["start"].as_u64(), t["end"].as_u64())
            } else {
                (t["after_start"].as_u64(), t["after_end"].as_u64())
            };
            let file = dev.join("files").join(&id).join(side).join(path);
            if !file.exists() {
                failures.push(format!(
                    "{id}: {} is missing from the shared data",
                    file.display()
                ));
                continue;
            }
            let funcs = cache
                .entry(file.clone())
                .or_insert_with(|| load(&file, hint));
            checked += 1;
            let found = funcs
                .iter()
                .find(|f| f.qualname == qual && f.occurrence == occ && !f.anonymous);
            match found {
                None => {
                    let near: Vec<_> = funcs
                        .iter()
                        .filter(|f| {
                            Some(f.span.start_line as u64) == start
                                || f.name == t["name"].as_str().unwrap_or_default()
                        })
                        .map(|f| {
                            format!(
                                "{}#{} {}-{}",
                                f.qualname, f.occurrence, f.span.start_line, f.span.end_line
                            )
                        })
                        .collect();
                    failures.push(format!(
                        "{id} {side} {path}::{qual}#{occ}: not found; near: {near:?}"
                    ));
                }
                Some(f) => {
                    let got = (Some(f.span.start_line as u64), Some(f.span.end_line as u64));
                    let kind = t["kind"].as_str().unwrap_or_default();
                    if got != (start, end) || f.kind.as_str() != kind {
                        failures.push(format!(
                            "{id} {side} {path}::{qual}: span {:?} kind {} vs expected {:?} {kind}",
                            got,
                            f.kind.as_str(),
                            (start, end)
                        ));
                    }
                    if side == "before" {
                        if let Some(he) = t["header_end"].as_u64() {
                            if f.header.end_line as u64 != he {
                                failures.push(format!(
                                    "{id} {path}::{qual}: header_end {} vs {he}",
                                    f.header.end_line
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    println!("checked {checked} functions, {} mismatches", failures.len());
    for f in &failures {
        println!("  {f}");
    }
    assert!(checked > min, "too few functions checked: {checked}");
    assert!(
        failures.is_empty(),
        "{} of {checked} functions differ",
        failures.len()
    );
}
