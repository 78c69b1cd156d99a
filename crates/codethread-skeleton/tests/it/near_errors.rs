//! The fallback rule for functions that touch a syntax error
//! (`ParseErrorPolicy::SkipAffected`): a function whose body opens and
//! closes with real brace tokens and holds no error itself is stubbed when
//! the file with that stub re-parses with no more errors, flagged
//! `near_parse_error`; a function whose body holds the error is still
//! skipped. On real code: jq's vendored `decNumber.c`, whose every function
//! touches tree-sitter-c's error recovery, is stubbed whole and still
//! compiles with gcc.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use codethread_lang::{parse_file, Lang, ParseOptions};
use codethread_skeleton::{
    skeletonize, skeletonize_source, Options, ParseErrorPolicy, Selector, SkipReason, Warning,
};

fn partial() -> Options {
    Options::default().on_parse_errors(ParseErrorPolicy::SkipAffected)
}

#[test]
fn a_clean_braced_body_beside_an_error_is_stubbed_and_flagged() {
    // `my_export` (a macro this file does not define, not ALL-CAPS) makes
    // tree-sitter-cpp recover around `f1`; `broken`'s error is in its body.
    let src = "my_export int f1(int a) {\n  return a;\n}\nint broken(int a) {\n  return a + ;\n}\nint fine(int a) {\n  return a * 2;\n}\n";
    let sk = skeletonize_source(Lang::Cpp, src, &[Selector::All], &partial()).expect("partial");
    let by = |name: &str| sk.edits.iter().find(|e| e.function == name);
    let f1 = by("f1").expect("f1 stubbed");
    assert_eq!(f1.warnings, [Warning::NearParseError]);
    assert!(by("fine").expect("fine stubbed").warnings.is_empty());
    assert!(by("broken").is_none());
    let skipped = sk
        .skipped
        .iter()
        .find(|s| s.function == "broken")
        .expect("broken skipped");
    assert!(matches!(&skipped.reason, SkipReason::ParseError(m) if m.contains("ERROR/MISSING")));
    let re = codethread_lang::parse(Lang::Cpp, sk.text.clone()).unwrap();
    assert!(re.parse_errors <= sk.parse_errors);
}

#[test]
fn real_decnumber_is_stubbed_whole_and_compiles() {
    let Some(corpus) = codethread_testkit::shared_path("metrics/corpora/jq/vendor/decNumber")
    else {
        return;
    };
    let path = corpus.join("decNumber.c");
    let bytes = std::fs::read(&path).unwrap();
    let file = parse_file(&path, bytes, &ParseOptions::default()).unwrap();
    assert_eq!(file.lang, Lang::C);
    assert!(file.parse_errors > 0, "the file must exercise the rule");
    let sk = skeletonize(&file, &[Selector::All], &partial()).unwrap();
    let near = sk
        .edits
        .iter()
        .filter(|e| e.warnings.contains(&Warning::NearParseError))
        .count();
    println!(
        "decNumber.c: {} stubs, {near} by the fallback rule, {} skipped, {} parse errors",
        sk.edits.len(),
        sk.skipped.len(),
        sk.parse_errors
    );
    assert!(near >= 50, "{near} of {} stubs", sk.edits.len());
    if Command::new("gcc").arg("--version").output().is_err() {
        assert!(
            std::env::var_os(codethread_testkit::ENV).is_none(),
            "gcc is needed with CODETHREAD_SHARED set (.ci/run installs it)"
        );
        return;
    }
    let dir =
        codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-decnumber").unwrap();
    for e in std::fs::read_dir(&corpus).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "h") {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::write(dir.join("decNumber.c"), &sk.text).unwrap();
    let o = Command::new("gcc")
        .args(["-fsyntax-only", "-I"])
        .arg(&dir)
        .arg(dir.join("decNumber.c"))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "the stubbed decNumber.c does not compile: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The fallback stubs are checked together: a file of many functions that
/// each touch an error costs the same few parses as a file of one (never a
/// re-parse per function, which would be quadratic in the file).
#[test]
fn fallback_stubs_cost_a_constant_number_of_parses() {
    let file = |n: usize| -> String {
        (0..n)
            .map(|k| format!("my_export int f{k}(int a) {{\n  return a + {k};\n}}\n"))
            .collect()
    };
    let mut counts = Vec::new();
    for n in [1usize, 50, 400] {
        let src = file(n);
        let parsed = codethread_lang::parse(Lang::Cpp, src.clone().into_bytes()).unwrap();
        assert!(parsed.parse_errors > 0);
        let before = codethread_lang::parses_on_thread();
        let sk = skeletonize(&parsed, &[Selector::All], &partial()).unwrap();
        counts.push(codethread_lang::parses_on_thread() - before);
        let near = sk
            .edits
            .iter()
            .filter(|e| e.warnings == [Warning::NearParseError])
            .count();
        assert_eq!(near, n, "every function stubbed by the fallback rule");
    }
    assert!(
        counts.iter().all(|&c| c <= 2),
        "parses per skeleton: {counts:?}"
    );
}
