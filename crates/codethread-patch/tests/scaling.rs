//! Localizing a patch is linear in its size on adversarial shapes (a new
//! file with many functions, deep nesting, one huge line): 4x the input must
//! take well under 16x (quadratic) the time. Small sizes, so this runs in a
//! debug build.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_patch::{localize, parse, MemTree};
use codethread_testkit::adversarial::{
    assert_subquadratic, deep_js, many_python_functions, new_file_patch, one_line_js,
};

fn run(path: &str, content: &str) {
    let p = parse(&new_file_patch(path, content)).unwrap();
    let loc = localize(&MemTree::new(), &p).unwrap();
    assert!(!loc.added_functions.is_empty());
}

#[test]
fn new_file_with_many_functions_is_linear() {
    assert_subquadratic("localize a new file of many functions", 2000, |n| {
        run("new.py", &many_python_functions(n))
    });
}

#[test]
fn one_huge_line_is_linear() {
    assert_subquadratic("localize a new file of one huge line", 1000, |n| {
        run("new.js", &one_line_js(n))
    });
}

#[test]
fn deep_nesting_is_linear_in_time() {
    // Each function lists the changed lines inside it, so the output (and
    // the time) grows with input x depth; the time per output line stays
    // flat. With depth 50 the output is linear in the input.
    assert_subquadratic("localize a new file of nested functions", 40, |n| {
        let content: String = (0..n).map(|_| deep_js(50)).collect();
        run("new.js", &content)
    });
}
