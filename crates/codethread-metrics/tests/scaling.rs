//! The engine is linear in its input on adversarial shapes (deep nesting,
//! many functions, one huge line), in time and in output size: 4x the input
//! must take well under 16x (quadratic) the time. Small sizes, so this runs
//! in a debug build; `examples/scaling.rs` measures real sizes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, Profile};
use codethread_testkit::adversarial::{
    assert_subquadratic, deep_js, many_python_functions, one_line_js,
};

fn output_bytes(lang: Lang, src: &str) -> usize {
    let m = analyze_source("x", lang, src.as_bytes().to_vec(), Profile::Paper).unwrap();
    m.functions
        .iter()
        .map(|f| serde_json::to_string(f).unwrap().len())
        .sum()
}

#[test]
fn deep_nesting_is_linear() {
    assert_subquadratic("metrics on deep JS nesting", 1000, |n| {
        let src = deep_js(n);
        analyze_source("x.js", Lang::JavaScript, src.into_bytes(), Profile::Paper).unwrap();
    });
}

#[test]
fn deep_nesting_output_is_linear() {
    // 10,000-deep nesting once wrote 103 MB: every qualified name spelled out
    // the whole chain. Names are capped (MAX_QUALNAME_SCOPES), so the output
    // grows with the input.
    let (a, b) = (
        output_bytes(Lang::JavaScript, &deep_js(500)),
        output_bytes(Lang::JavaScript, &deep_js(2000)),
    );
    let ratio = b as f64 / a as f64;
    assert!(
        ratio < 6.0,
        "output {a} -> {b} bytes ({ratio:.1}x for 4x input)"
    );
}

#[test]
fn many_functions_are_linear() {
    assert_subquadratic("metrics on many Python functions", 1000, |n| {
        let src = many_python_functions(n);
        analyze_source("x.py", Lang::Python, src.into_bytes(), Profile::Paper).unwrap();
    });
}

#[test]
fn one_huge_line_is_linear() {
    assert_subquadratic("metrics on one huge JS line", 1000, |n| {
        let src = one_line_js(n);
        analyze_source("x.js", Lang::JavaScript, src.into_bytes(), Profile::Paper).unwrap();
    });
}
