//! Doubling checks for the C/C++ macro mask (issue 19's super-linear class,
//! on the function-like-call pass of issue 21): a file of many unclosed
//! macro-shaped calls (`AB_C(x` on every line) once made
//! `macro_call_spans` rescan to the end of the file for each call. Its own
//! binary: it times the process (debug build), so nothing else may run in
//! it at the same time.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use codethread_lang::{macro_call_spans, mask_macros, Lang};

fn unclosed_calls(lines: usize) -> Vec<u8> {
    let mut s = Vec::new();
    for i in 0..lines {
        s.extend_from_slice(format!("AB_C{}(x, y\n", i % 10).as_bytes());
    }
    s
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut best = Duration::MAX;
    for _ in 0..runs {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
    }
    best
}

#[test]
fn unclosed_macro_calls_are_linear() {
    // Interleave small and large so that load on the machine hits both.
    let small = unclosed_calls(4_000);
    let large = unclosed_calls(32_000);
    for (name, f) in [
        (
            "macro_call_spans",
            (|s: &[u8]| {
                std::hint::black_box(macro_call_spans(Lang::Cpp, s));
            }) as fn(&[u8]),
        ),
        ("mask_macros", |s: &[u8]| {
            std::hint::black_box(mask_macros(Lang::Cpp, s));
        }),
    ] {
        let mut ts = Duration::MAX;
        let mut tl = Duration::MAX;
        for _ in 0..3 {
            ts = ts.min(best_of(1, || f(&small)));
            tl = tl.min(best_of(1, || f(&large)));
        }
        let ratio = tl.as_secs_f64() / ts.as_secs_f64().max(1e-6);
        // 8x the input: linear is ~8, quadratic ~64.
        assert!(
            ratio < 20.0,
            "{name}: 8x input took {ratio:.1}x the time ({ts:?} -> {tl:?})"
        );
    }
}

/// Issue 31: C++ lines that leave a string open (`"abc` on every line)
/// made tree-sitter-cpp's error recovery quadratic (4,000 -> 8,000 lines:
/// 3.3x the time); the parser's view closes no string but reads the
/// opening quote as a space, as for an open `#include "x`.
#[test]
fn open_string_lines_parse_linearly() {
    let lines = |n: usize| "\"abc\n".repeat(n).into_bytes();
    let (small, large) = (lines(4_000), lines(32_000));
    for lang in [Lang::Cpp, Lang::C] {
        let parse = |s: &[u8]| {
            std::hint::black_box(codethread_lang::parse(lang, s.to_vec()).unwrap());
        };
        let mut ts = Duration::MAX;
        let mut tl = Duration::MAX;
        for _ in 0..3 {
            ts = ts.min(best_of(1, || parse(&small)));
            tl = tl.min(best_of(1, || parse(&large)));
        }
        let ratio = tl.as_secs_f64() / ts.as_secs_f64().max(1e-6);
        // 8x the input: linear is ~8, quadratic ~64.
        assert!(
            ratio < 20.0,
            "{lang}: 8x input took {ratio:.1}x the time ({ts:?} -> {tl:?})"
        );
    }
}
