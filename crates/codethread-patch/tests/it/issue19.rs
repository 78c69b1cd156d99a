//! Issue 19 classes in localization: the parse budget is a typed error
//! naming the file, and PHP data after `__halt_compiler();` holds no
//! function.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use codethread_lang::{BudgetLimit, ParseBudget};
use codethread_patch::{
    diff_files, localize, parse_patch, DiffOptions, FileChange, LocalizeError, LocalizeOptions,
    MemTree,
};
use codethread_testkit::adversarial::new_file_patch;

/// One long line of unterminated literals and comment openers: tree-sitter's
/// error recovery re-lexes to the line's end at each of them, which the
/// default read limit of the parse budget stops.
fn unterminated_line(n: usize) -> String {
    format!(
        "void f() {{ {} }}\n",
        "\"/*' aaaaaaaaaaaaaaaaaaaaaaaa ".repeat(n)
    )
}

#[test]
fn an_image_over_the_parse_budget_names_its_file() {
    let budget = ParseBudget::default();
    for path in ["src/slow.cpp", "src/slow.c", "include/slow.hpp"] {
        let p = parse_patch(&new_file_patch(path, &unterminated_line(8000))).unwrap();
        let t = Instant::now();
        let err = localize(
            &MemTree::new(),
            &p,
            &LocalizeOptions::default().budget(budget),
        )
        .expect_err("over budget");
        match &err {
            LocalizeError::Budget {
                path: named, limit, ..
            } => {
                assert_eq!(named, path);
                assert_eq!(*limit, BudgetLimit::Reads);
            }
            other => panic!("{other}"),
        }
        assert!(err.to_string().starts_with(path), "{err}");
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    }
    // Small files pass under the same budget.
    let p = parse_patch(&new_file_patch("src/ok.cpp", "int g() { return 1; }\n")).unwrap();
    let loc = localize(
        &MemTree::new(),
        &p,
        &LocalizeOptions::default().budget(budget),
    )
    .unwrap();
    assert_eq!(loc.added_functions.len(), 1);
}

#[test]
fn php_data_after_halt_compiler_holds_no_function() {
    let head = "<?php\nfunction a() {\n    return 1;\n}\n__halt_compiler();\n";
    let before = format!("{head}function phantom() {{\n    return 2;\n}}\n");
    for after in [
        format!("{head}function phantom() {{\n    return 3;\n}}\n"),
        format!("{head}function phantom() {{\n    return 2;\n}}\nfunction more() {{ }}\n"),
        format!("{head}garbage {{ }}\n"),
    ] {
        let mut tree = MemTree::new();
        tree.insert("lib/x.php", before.clone());
        let change = FileChange {
            path: b"lib/x.php",
            before: Some(before.as_bytes()),
            after: Some(after.as_bytes()),
            old_mode: Some(0o100644),
            new_mode: Some(0o100644),
        };
        let p = diff_files(&[change], &DiffOptions::default()).unwrap();
        let loc = localize(&tree, &p, &LocalizeOptions::default()).unwrap();
        let names: Vec<&str> = loc
            .targets
            .iter()
            .chain(&loc.added_functions)
            .map(|f| f.qualname.as_str())
            .collect();
        assert!(names.is_empty(), "{names:?} for\n{after}");
    }
}
