//! Skeletonizing is linear in its input on adversarial shapes (deep nesting,
//! many functions, one huge line): 4x the input must take well under 16x
//! (quadratic) the time. Small sizes, so this runs in a debug build.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_skeleton::{skeletonize_source, Options, Selector};
use codethread_testkit::adversarial::{
    assert_subquadratic, deep_js, many_python_functions, one_line_js,
};

fn run(lang: Lang, src: String) {
    let sk = skeletonize_source(lang, src, &[Selector::All], &Options::default()).unwrap();
    assert!(!sk.edits.is_empty());
}

#[test]
fn deep_nesting_is_linear() {
    assert_subquadratic("skeletonize deep JS nesting", 1000, |n| {
        run(Lang::JavaScript, deep_js(n))
    });
}

#[test]
fn many_functions_are_linear() {
    assert_subquadratic("skeletonize many Python functions", 1000, |n| {
        run(Lang::Python, many_python_functions(n))
    });
}

#[test]
fn one_huge_line_is_linear() {
    assert_subquadratic("skeletonize one huge JS line", 1000, |n| {
        run(Lang::JavaScript, one_line_js(n))
    });
}

/// Issue 31: one name selector per function (`skeletonize --function` for
/// every function, chain's PR0 with every function a target) is linear in
/// the functions, not their product.
#[test]
fn one_selector_per_function_is_linear() {
    assert_subquadratic("skeletonize with a selector per function", 4000, |n| {
        let src = many_python_functions(n);
        let selectors: Vec<Selector> = (0..n)
            .map(|i| Selector::Qualname(format!("func_{i}")))
            .collect();
        let sk = skeletonize_source(Lang::Python, src, &selectors, &Options::default()).unwrap();
        assert_eq!(sk.edits.len(), n);
    });
}
