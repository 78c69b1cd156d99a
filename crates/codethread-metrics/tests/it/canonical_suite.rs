//! The cross-language suite of the canonical profile: every directory of
//! `tests/canonical/` is one function written with the same control
//! structure in each language that has the constructs (one file per
//! language, one reported function per file) and an `expect.txt`:
//!
//! ```text
//! cyclomatic 4
//! cognitive 7
//! lloc 7
//! lloc_skip rs py
//! function is_even
//! ```
//!
//! Cyclomatic and cognitive complexity must equal the expected values in
//! every file; LLOC too, except for the extensions after `lloc_skip` (where
//! the statements do not correspond one to one). A file holds one reported
//! function, or, with `function NAME`, several (a recursion cycle), of which
//! the one named NAME is checked. Cases are discovered, so a
//! held-out case of the same kind is a new directory.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, AnalyzeOptions, Profile};

struct Expect {
    cyclomatic: u32,
    cognitive: u32,
    lloc: Option<u32>,
    lloc_skip: Vec<String>,
    function: Option<String>,
}

fn read_expect(dir: &Path) -> Expect {
    let text = std::fs::read_to_string(dir.join("expect.txt")).unwrap();
    let mut e = Expect {
        cyclomatic: 0,
        cognitive: 0,
        lloc: None,
        lloc_skip: Vec::new(),
        function: None,
    };
    let mut seen = (false, false);
    for line in text.lines() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("cyclomatic") => {
                e.cyclomatic = words.next().unwrap().parse().unwrap();
                seen.0 = true;
            }
            Some("cognitive") => {
                e.cognitive = words.next().unwrap().parse().unwrap();
                seen.1 = true;
            }
            Some("lloc") => e.lloc = Some(words.next().unwrap().parse().unwrap()),
            Some("lloc_skip") => e.lloc_skip = words.map(str::to_string).collect(),
            Some("function") => e.function = words.next().map(str::to_string),
            None => {}
            Some(other) => panic!("{}: unknown key {other}", dir.display()),
        }
    }
    assert!(
        seen.0 && seen.1,
        "{}: cyclomatic and cognitive are required",
        dir.display()
    );
    e
}

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/canonical");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_case_is_identical_across_languages() {
    let dirs = cases();
    assert!(dirs.len() >= 12, "the suite has {} cases", dirs.len());
    let mut failures: Vec<String> = Vec::new();
    let mut checked = 0usize;
    for dir in &dirs {
        let expect = read_expect(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_name().is_some_and(|n| n != "expect.txt"))
            .collect();
        files.sort();
        assert!(
            files.len() >= 5,
            "{}: only {} languages",
            dir.display(),
            files.len()
        );
        for file in files {
            let lang =
                Lang::from_path(&file).unwrap_or_else(|| panic!("{}: no language", file.display()));
            let ext = file.extension().unwrap().to_string_lossy().into_owned();
            let src = std::fs::read(&file).unwrap();
            let label = file.display().to_string();
            let m = analyze_source(&label, lang, src, &AnalyzeOptions::new(Profile::Canonical))
                .unwrap();
            assert_eq!(m.parse_errors, 0, "{label}: parse errors");
            let f = match &expect.function {
                None => {
                    assert_eq!(m.functions.len(), 1, "{label}: {:?}", m.functions);
                    &m.functions[0]
                }
                Some(name) => m
                    .functions
                    .iter()
                    .find(|f| f.name == *name || f.name.starts_with(&format!("{name}(")))
                    .unwrap_or_else(|| panic!("{label}: no function {name}: {:?}", m.functions)),
            };
            let got = (f.cyclomatic.unwrap(), f.cognitive.unwrap());
            if got != (expect.cyclomatic, expect.cognitive) {
                failures.push(format!(
                    "{label}: (cyclomatic, cognitive) = {got:?}, expected ({}, {})",
                    expect.cyclomatic, expect.cognitive
                ));
            }
            if let Some(l) = expect.lloc.filter(|_| !expect.lloc_skip.contains(&ext)) {
                if f.lloc != Some(l) {
                    failures.push(format!("{label}: lloc {:?}, expected {l}", f.lloc));
                }
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_metric_is_a_number_even_for_empty_functions() {
    let empty: &[(Lang, &str)] = &[
        (Lang::Python, "def f():\n    pass\n"),
        (Lang::Go, "package p\nfunc f() {}\n"),
        (Lang::Rust, "fn f() {}\n"),
        (Lang::JavaScript, "function f() {}\n"),
        (Lang::TypeScript, "function f(): void {}\n"),
        (Lang::Tsx, "function f() { return <a/>; }\n"),
        (Lang::Java, "class A { void f() {} }\n"),
        (Lang::C, "void f(void) {}\n"),
        (Lang::Cpp, "void f() {}\n"),
        (Lang::Ruby, "def f\nend\n"),
        (Lang::Php, "<?php\nfunction f() {}\n"),
    ];
    for (lang, src) in empty {
        let m = analyze_source("t", *lang, *src, &AnalyzeOptions::new(Profile::Canonical)).unwrap();
        assert_eq!(m.functions.len(), 1, "{lang:?}: {:?}", m.functions);
        let f = &m.functions[0];
        assert_eq!(f.cyclomatic, Some(1), "{lang:?}");
        assert_eq!(f.cognitive, Some(0), "{lang:?}");
        let h = f.halstead.expect("halstead");
        assert!(h.volume.is_finite() && h.difficulty.is_finite() && h.effort.is_finite());
        assert!(f.lloc.is_some(), "{lang:?}");
    }
    // No operand at all: difficulty (and effort) 0 by convention, not NaN;
    // an empty vocabulary has volume 0.
    let h = codethread_metrics::Halstead {
        n1: 3,
        n2: 0,
        big_n1: 4,
        big_n2: 0,
    };
    assert_eq!((h.difficulty(), h.effort()), (0.0, 0.0));
    let h = codethread_metrics::Halstead {
        n1: 0,
        n2: 0,
        big_n1: 0,
        big_n2: 0,
    };
    assert_eq!(h.volume(), 0.0);
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 10_000;
    let mut src = String::from("function f(a) {\n");
    for _ in 0..depth {
        src.push_str("if (a && b) {\n");
    }
    for _ in 0..depth {
        src.push('}');
    }
    src.push_str("\n}\n");
    let m = analyze_source(
        "t",
        Lang::JavaScript,
        src,
        &AnalyzeOptions::new(Profile::Canonical),
    )
    .unwrap();
    let f = &m.functions[0];
    // Each level: `if` (1 + nesting) and one `&&` sequence.
    let d = depth as u32;
    assert_eq!(f.cyclomatic, Some(1 + 2 * d));
    assert_eq!(f.cognitive, Some(d * (d + 1) / 2 + d));
}
