//! Localization of the dev gold patches (41 Python/Go/Rust/JS/TS, 25
//! Java/C/C++/Ruby/PHP) against their expected_targets.jsonl.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use codethread_patch::{
    localize, parse_patch, EditedFunction, FunctionStatus, Localization, LocalizeOptions,
};
use serde_json::{json, Value};

fn fn_view(t: &EditedFunction) -> Value {
    json!({
        "path": t.path, "qualname": t.qualname, "status": t.status, "kind": t.kind,
        "start": t.start, "end": t.end, "after_start": t.after_start, "after_end": t.after_end,
        "changed_lines_before": t.changed_lines_before, "changed_lines_after": t.changed_lines_after,
    })
}

fn target_view(t: &EditedFunction) -> Value {
    let mut v = fn_view(t);
    let o = v.as_object_mut().unwrap();
    o.insert("header_end".into(), json!(t.header_end));
    o.insert("changed_directly".into(), json!(t.changed_directly));
    o.insert("trivial_only".into(), json!(t.trivial_only));
    o.insert(
        "signature_or_decorator_changed".into(),
        json!(t.signature_or_decorator_changed),
    );
    v
}

fn expected_view(e: &Value, keys: &[&str]) -> Value {
    let mut m = serde_json::Map::new();
    for k in keys {
        m.insert((*k).to_string(), e[*k].clone());
    }
    Value::Object(m)
}

const FN_KEYS: &[&str] = &[
    "path",
    "qualname",
    "status",
    "kind",
    "start",
    "end",
    "after_start",
    "after_end",
    "changed_lines_before",
    "changed_lines_after",
];
const TARGET_KEYS: &[&str] = &[
    "path",
    "qualname",
    "status",
    "kind",
    "start",
    "end",
    "after_start",
    "after_end",
    "changed_lines_before",
    "changed_lines_after",
    "header_end",
    "changed_directly",
    "trivial_only",
    "signature_or_decorator_changed",
];

/// Differences between our localization and the expected row, as messages.
fn compare(loc: &Localization, exp: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let ids: Vec<String> = loc.target_ids();
    let exp_ids: Vec<String> = exp["target_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    if ids != exp_ids {
        diffs.push(format!("target_ids: got {ids:?}, expected {exp_ids:?}"));
    }
    for (t, e) in loc.targets.iter().zip(exp["targets"].as_array().unwrap()) {
        let (g, x) = (target_view(t), expected_view(e, TARGET_KEYS));
        if g != x {
            diffs.push(format!("target {}: got {g}, expected {x}", t.target_id()));
        }
    }
    let added: Vec<Value> = loc.added_functions.iter().map(fn_view).collect();
    let exp_added: Vec<Value> = exp["added_functions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| expected_view(e, FN_KEYS))
        .collect();
    if added != exp_added {
        diffs.push(format!(
            "added_functions: got {added:?}, expected {exp_added:?}"
        ));
    }
    let neg = serde_json::to_value(loc.negative_case).unwrap();
    if neg != exp["negative_case"] {
        diffs.push(format!(
            "negative_case: got {neg}, expected {}",
            exp["negative_case"]
        ));
    }
    for ef in exp["files"].as_array().unwrap() {
        let path = ef["path"].as_str().unwrap();
        let Some(f) = loc.files.iter().find(|f| f.path == path) else {
            diffs.push(format!("file {path} missing"));
            continue;
        };
        let got = json!({
            "is_source": f.is_source, "removed_lines": f.removed_lines, "added_lines": f.added_lines,
            "language": f.language,
        });
        let want = expected_view(
            ef,
            &["is_source", "removed_lines", "added_lines", "language"],
        );
        if got != want {
            diffs.push(format!("file {path}: got {got}, expected {want}"));
        }
        if f.is_source {
            let got = json!({
                "changed_lines_outside_functions_before": f.changed_lines_outside_functions_before,
                "changed_lines_outside_functions_after": f.changed_lines_outside_functions_after,
                "nontrivial_outside_functions": f.nontrivial_outside_functions,
            });
            let want = expected_view(
                ef,
                &[
                    "changed_lines_outside_functions_before",
                    "changed_lines_outside_functions_after",
                    "nontrivial_outside_functions",
                ],
            );
            if got != want {
                diffs.push(format!("file {path}: got {got}, expected {want}"));
            }
        }
    }
    diffs
}

/// Localizes every instance of a pack and compares it with its
/// expected_targets.jsonl: (instance id, language, identical?, unsure?,
/// differences).
fn check_pack(dir: &std::path::Path) -> Vec<(String, String, bool, bool, String)> {
    let expected = read_jsonl(&dir.join("expected_targets.jsonl"));
    let mut rows = Vec::new();
    for (row, files) in dev_instances(dir) {
        let id = row["instance_id"].as_str().unwrap();
        let language = row["language"].as_str().unwrap_or("Python").to_string();
        let hint = row["language"]
            .as_str()
            .and_then(codethread_lang::Lang::from_name);
        let exp = expected
            .iter()
            .find(|e| e["instance_id"] == row["instance_id"])
            .unwrap();
        let patch = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
        let before = load_tree(&files.join("before"));
        let loc = localize(&before, &patch, &LocalizeOptions::with_hint(hint))
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let diffs = compare(&loc, exp);
        let unsure = exp["unsure"].as_array().map_or(0, Vec::len) > 0;
        rows.push((
            id.to_string(),
            language,
            diffs.is_empty(),
            unsure,
            diffs.join("\n  "),
        ));
    }
    rows
}

#[test]
fn dev_localization_matches_expected_targets() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let rows = check_pack(&dev);
    let exact = rows.iter().filter(|r| r.2).count();
    println!("dev localization: {exact}/41 identical to expected_targets.jsonl");
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for (id, _, same, unsure, diffs) in &rows {
        if *same {
            continue;
        }
        report.push(format!("{id} (unsure: {unsure}):\n  {diffs}"));
        if !unsure {
            failures.push(id.clone());
        }
    }
    for r in &report {
        println!("{r}");
    }
    assert_eq!(rows.len(), 41);
    assert!(
        failures.is_empty(),
        "mismatches on instances not marked unsure: {failures:?}\n{}",
        report.join("\n")
    );
}

/// The 25 Java / C / C++ / Ruby / PHP instances of `dev_multilingual`, each
/// localized with its `language` field as the hint: identical to
/// expected_targets.jsonl on every instance not marked unsure, and on at
/// least 90 % overall; prints the per-language table.
#[test]
fn dev_multilingual_localization_matches_expected_targets() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev_multilingual") else {
        return;
    };
    let rows = check_pack(&dev);
    let mut table: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut failures = Vec::new();
    for (id, lang, same, unsure, diffs) in &rows {
        let e = table.entry(lang.as_str()).or_default();
        e.1 += 1;
        if *same {
            e.0 += 1;
            continue;
        }
        println!("{id} (unsure: {unsure}):\n  {diffs}");
        if !unsure {
            failures.push(id.clone());
        }
    }
    println!("language  identical/instances");
    for (lang, (same, n)) in &table {
        println!("{lang:<9} {same}/{n}");
    }
    let exact = rows.iter().filter(|r| r.2).count();
    println!("total     {exact}/{}", rows.len());
    assert_eq!(rows.len(), 25);
    assert!(
        failures.is_empty(),
        "mismatches on instances not marked unsure: {failures:?}"
    );
    assert!(exact * 10 >= rows.len() * 9, "{exact}/{}", rows.len());
}

/// A function the patch moves (deletes and adds back byte for byte) is
/// still a function the patch edits by the line rule, flagged
/// `moved_unchanged`; an edited neighbour and a function moved *and*
/// edited are not flagged, and the flag stays out of the JSON when false.
#[test]
fn moved_functions_are_flagged_moved_unchanged() {
    let before = b"def a():\n    return 1\n\n\ndef b(x):\n    y = x + 1\n    return y\n\n\ndef c():\n    return 3\n\n\ndef d():\n    return 4\n";
    let patch = b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,15 +1,15 @@\n+def b(x):\n+    y = x + 1\n+    return y\n+\n+\n def a():\n-    return 1\n+    return 10\n-\n-\n-def b(x):\n-    y = x + 1\n-    return y\n \n \n-def c():\n-    return 3\n-\n-\n def d():\n     return 4\n+\n+\n+def c():\n+    return 30\n";
    let mut tree = codethread_patch::MemTree::new();
    tree.insert(b"m.py".to_vec(), before.to_vec());
    let loc = localize(
        &tree,
        &parse_patch(patch).unwrap(),
        &LocalizeOptions::default(),
    )
    .unwrap();
    let flag = |q: &str| {
        loc.targets
            .iter()
            .find(|t| t.qualname == q)
            .unwrap_or_else(|| panic!("{q} not a target: {:?}", loc.target_ids()))
            .moved_unchanged
    };
    assert!(flag("b"), "moved unchanged");
    assert!(!flag("a"), "edited in place");
    assert!(!flag("c"), "moved and edited");
    let a = loc.targets.iter().find(|t| t.qualname == "a").unwrap();
    assert!(!serde_json::to_string(a)
        .unwrap()
        .contains("moved_unchanged"));
    let b = loc.targets.iter().find(|t| t.qualname == "b").unwrap();
    assert!(serde_json::to_string(b)
        .unwrap()
        .contains("\"moved_unchanged\":true"));
}

/// Renaming an enclosing class leaves its methods unchanged (issue 33, item 7): a method whose
/// definition is the same bytes under the renamed class is no target (its lines are not in
/// the diff) or, where the diff removes and adds it back, a `moved_unchanged` target (never
/// stubbed); a method edited in the same patch is a target as before; a deleted method with no
/// identical counterpart stays `removed`.
#[test]
fn a_renamed_class_does_not_make_its_methods_targets() {
    let before = b"class Old:\n    def keep(self):\n        return 1\n\n    def edit(self):\n        return 2\n\n    def gone(self):\n        return 3\n";
    let patch = b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,9 +1,6 @@\n-class Old:\n+class New:\n     def keep(self):\n         return 1\n \n     def edit(self):\n-        return 2\n-\n-    def gone(self):\n-        return 3\n+        return 20\n";
    let mut tree = codethread_patch::MemTree::new();
    tree.insert(b"m.py".to_vec(), before.to_vec());
    let loc = localize(
        &tree,
        &parse_patch(patch).unwrap(),
        &LocalizeOptions::default(),
    )
    .unwrap();
    let ids = loc.target_ids();
    assert!(!ids.iter().any(|t| t.ends_with("Old.keep")), "{ids:?}");
    let status = |q: &str| {
        loc.targets
            .iter()
            .find(|t| t.qualname == q)
            .unwrap_or_else(|| panic!("{q} not a target: {ids:?}"))
            .status
    };
    // `edit` changed and its class was renamed: unpaired by name, it is edited (removed here,
    // as any function whose scope and body both changed).
    assert_eq!(status("Old.gone"), FunctionStatus::Removed);
    assert!(ids.iter().any(|t| t.ends_with("Old.edit")), "{ids:?}");
    // Moved into a renamed class with the diff showing its lines: moved, unchanged.
    let patch2 = b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,9 +1,9 @@\n-class Old:\n-    def keep(self):\n-        return 1\n+class New:\n+    def gone(self):\n+        return 3\n \n     def edit(self):\n         return 2\n \n-    def gone(self):\n-        return 3\n+    def keep(self):\n+        return 1\n";
    let loc = localize(
        &tree,
        &parse_patch(patch2).unwrap(),
        &LocalizeOptions::default(),
    )
    .unwrap();
    for q in ["Old.keep", "Old.gone"] {
        let t = loc
            .targets
            .iter()
            .find(|t| t.qualname == q)
            .unwrap_or_else(|| panic!("{q}: {:?}", loc.target_ids()));
        assert!(t.moved_unchanged, "{q}: {t:?}");
        assert_eq!(t.status, FunctionStatus::Modified, "{q}");
    }
    assert!(loc
        .unsure
        .iter()
        .any(|n| n.contains("unchanged under another scope")));
}

/// Chunked localization (issue 19, `LocalizeOptions::chunks`) against the
/// whole-file one on the 66 dev instances: with the chunk threshold forced
/// to 0 and chunks of about 2 KB (every image cut into many chunks), the
/// whole localization (targets, added functions, files, notes) is the same
/// on every instance whose touched source files parse without syntax
/// errors; the others are counted.
#[test]
fn chunked_localization_equals_whole_file_localization() {
    use codethread_lang::ChunkOptions;
    const FORCED: ChunkOptions = ChunkOptions::DEFAULT
        .min_file_bytes(0)
        .chunk_bytes(2_048)
        .max_unit_tokens(0);
    let (mut n, mut with_errors) = (0usize, 0usize);
    let mut failures = Vec::new();
    for pack in ["chains/dev", "chains/dev_multilingual"] {
        let Some(dir) = codethread_testkit::shared_path(pack) else {
            return;
        };
        for (row, files) in dev_instances(&dir) {
            let id = row["instance_id"].as_str().unwrap().to_string();
            let hint = row["language"]
                .as_str()
                .and_then(codethread_lang::Lang::from_name);
            let patch = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
            let before = load_tree(&files.join("before"));
            let run = |chunks| {
                let opts = LocalizeOptions::with_hint(hint).chunks(chunks);
                serde_json::to_value(localize(&before, &patch, &opts).unwrap()).unwrap()
            };
            let (whole, chunked) = (run(ChunkOptions::NEVER), run(FORCED));
            n += 1;
            if whole == chunked {
                continue;
            }
            let errors = whole["files"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["parse_errors"] != json!([0, 0]));
            if errors {
                with_errors += 1;
                println!("{id}: differs (touched files with syntax errors)");
            } else {
                let (w, c) = (whole.to_string(), chunked.to_string());
                let at = w.bytes().zip(c.bytes()).take_while(|(a, b)| a == b).count();
                let from = at.saturating_sub(200);
                println!(
                    "{id}: whole …{}… / chunked …{}…",
                    w.get(from..(at + 200).min(w.len())).unwrap_or_default(),
                    c.get(from..(at + 200).min(c.len())).unwrap_or_default()
                );
                failures.push(id);
            }
        }
    }
    println!("chunked localization: {n} instances, {with_errors} differ with syntax errors");
    assert_eq!(n, 66);
    assert!(failures.is_empty(), "{failures:?}");
}
