//! The parse budget (issue 19: tree-sitter's quadratic error recovery on
//! C/C++ lines with unterminated strings, token-dense sources) and the PHP
//! `__halt_compiler();` rule (the data after it is no code).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use codethread_lang::{
    code_end, estimate_tokens, index_functions, parse, parse_lang, BudgetLimit, Lang, LangError,
    LangParseOptions, ParseBudget,
};

/// A C++ function whose every line is an unterminated `#include "x`:
/// tree-sitter's recovery from it is quadratic in time at a linear number of
/// operations and lexer reads (`view.rs`).
fn unterminated_includes(n: usize) -> Vec<u8> {
    let mut s = String::from("void f() {\n");
    for i in 0..n {
        s.push_str(&format!("#include \"x{i}\n"));
    }
    s.push_str("}\n");
    s.into_bytes()
}

/// One long line of unterminated literals and comment openers (sparse
/// enough for the token limit): error recovery re-lexes to the line's end
/// at each of them.
fn unterminated_line(n: usize) -> Vec<u8> {
    format!(
        "void f() {{ {} }}\n",
        "\"/*' aaaaaaaaaaaaaaaaaaaaaaaa ".repeat(n)
    )
    .into_bytes()
}

/// A C file of unterminated character-literal assignments (an open `"`
/// string on a line is read as a space by the parser's view since issue
/// 31; an open `'` still makes error recovery work).
fn unterminated_strings(n: usize) -> Vec<u8> {
    let mut s = String::from("void f() {\n");
    for i in 0..n {
        s.push_str(&format!("  x{i} = 'abc{i};\n"));
    }
    s.push_str("}\n");
    s.into_bytes()
}

fn budget_limit(e: &LangError) -> BudgetLimit {
    match e {
        LangError::Budget { limit, .. } => *limit,
        other => panic!("not a budget error: {other}"),
    }
}

#[test]
fn unterminated_includes_parse_in_linear_time() {
    // Before the parser view the time was quadratic in the number of lines
    // (release build: 1,000 lines 29 ms, 8,000 lines 1.0 s); now it is the
    // time of the same file with the quotes already gone (`#include  x`),
    // measured interleaved so that the machine's load cancels out.
    let n = 64_000;
    for lang in [Lang::C, Lang::Cpp] {
        let src = unterminated_includes(n);
        let control: Vec<u8> = String::from_utf8(src.clone())
            .unwrap()
            .replace("#include \"", "#include  ")
            .into_bytes();
        let (mut hostile, mut plain) = (Duration::MAX, Duration::MAX);
        for _ in 0..3 {
            let t = Instant::now();
            let f = parse_lang(
                lang,
                src.clone(),
                &LangParseOptions::with_budget(ParseBudget::UNLIMITED),
            )
            .unwrap();
            hostile = hostile.min(t.elapsed());
            assert_eq!(f.source, src, "the file's own bytes are kept");
            assert_eq!(index_functions(&f).len(), 1, "{lang}");
            let t = Instant::now();
            let g = parse_lang(
                lang,
                control.clone(),
                &LangParseOptions::with_budget(ParseBudget::UNLIMITED),
            )
            .unwrap();
            plain = plain.min(t.elapsed());
            assert_eq!(f.parse_errors, g.parse_errors);
        }
        assert!(
            hostile.as_secs_f64() < 3.0 * plain.as_secs_f64() + 0.05,
            "{lang}: {n} unterminated includes {hostile:?}, without the quotes {plain:?}"
        );
    }
    // Under the default budget the 450 KB file of the issue parses.
    let f = parse(Lang::Cpp, unterminated_includes(32_000)).unwrap();
    assert_eq!(index_functions(&f).len(), 1);
}

#[test]
fn the_time_limit_stops_a_parse() {
    let budget = ParseBudget {
        time_per_mib: Duration::ZERO,
        min_time: Duration::from_millis(300),
        reads_per_byte: 0,
        min_reads: 0,
        ..ParseBudget::default()
    };
    // Unbounded (no read limit), this takes more than 10 s in a debug build.
    for lang in [Lang::C, Lang::Cpp] {
        let t = Instant::now();
        let err = parse_lang(
            lang,
            unterminated_line(8000),
            &LangParseOptions::with_budget(budget),
        )
        .expect_err("over the time limit");
        assert_eq!(budget_limit(&err), BudgetLimit::Time, "{lang}");
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{lang}: stopped only after {:?}",
            t.elapsed()
        );
        assert!(err.to_string().contains("parse budget"), "{err}");
    }
    // The parser is usable afterwards (a stopped parse is not resumed).
    let ok = parse(Lang::Cpp, b"int g() { return 1; }\n".to_vec()).unwrap();
    assert_eq!(ok.parse_errors, 0);
    assert_eq!(index_functions(&ok).len(), 1);
}

#[test]
fn the_default_budget_stops_re_lexing_in_linear_time() {
    // The default read limit (32 bytes per byte, floor 10^6) refuses the
    // re-lexing shape in time linear in its size, deterministically.
    let time = |n: usize| {
        let t = Instant::now();
        let err = parse(Lang::Cpp, unterminated_line(n)).expect_err("over the read limit");
        assert_eq!(budget_limit(&err), BudgetLimit::Reads, "n={n}");
        t.elapsed()
    };
    let _ = time(4000);
    let small = time(4000);
    let large = time(64_000);
    assert!(
        large < Duration::from_secs(10)
            && large.as_secs_f64() < 28.0 * small.as_secs_f64().max(0.01),
        "4000 units {small:?}, 64000 units {large:?}"
    );
}

#[test]
fn the_work_limit_is_deterministic() {
    let src = unterminated_strings(4000);
    for (per_byte, over) in [(1, true), (4, false), (64, false)] {
        let budget = ParseBudget {
            ops_per_byte: per_byte,
            min_ops: 100,
            time_per_mib: Duration::ZERO,
            min_time: Duration::ZERO,
            ..ParseBudget::default()
        };
        let got = parse_lang(
            Lang::Cpp,
            src.clone(),
            &LangParseOptions::with_budget(budget),
        );
        match (over, got) {
            (true, Err(e)) => assert_eq!(budget_limit(&e), BudgetLimit::Work),
            (false, Ok(f)) => assert!(f.parse_errors > 0),
            (over, got) => panic!("{per_byte} ops/byte: over={over}, got {:?}", got.err()),
        }
    }
}

#[test]
fn token_dense_sources_are_refused_before_parsing() {
    let budget = ParseBudget {
        min_tokens: 1000,
        ..ParseBudget::default()
    };
    let dense: Vec<Vec<u8>> = vec![
        format!("int a[] = {{{}}};\n", "1,".repeat(50_000)).into_bytes(),
        format!("int x = {}1;\n", "-".repeat(100_000)).into_bytes(),
        format!("void f() {{ {} }}\n", "a;".repeat(50_000)).into_bytes(),
    ];
    for src in dense {
        let t = Instant::now();
        let err = parse_lang(Lang::C, src, &LangParseOptions::with_budget(budget))
            .expect_err("too dense");
        assert_eq!(budget_limit(&err), BudgetLimit::Tokens);
        assert!(t.elapsed() < Duration::from_secs(2));
    }
    // Ordinary code of the same size is parsed.
    let plain = "int f(int a) { return a + 1; }\n".repeat(4000);
    assert!(parse_lang(
        Lang::C,
        plain.into_bytes(),
        &LangParseOptions::with_budget(budget)
    )
    .is_ok());
    // The default floor parses any file below 100,000 tokens.
    let small = format!("int a[] = {{{}}};\n", "1,".repeat(1000));
    assert!(parse(Lang::C, small.into_bytes()).is_ok());
}

/// Deep nests of dense tokens cost tree-sitter about 800 bytes a token
/// (its parse stack), far more than flat code: `A<A<…>>` 20,000 deep (60 KB)
/// peaked at 100 MB, 80,000 deep (240 KB) at 417 MB and 8.5 s. Above
/// 100,000 estimated tokens the default budget refuses them before parsing.
#[test]
fn dense_nests_are_refused_before_parsing() {
    let shapes: Vec<(Lang, String)> = vec![
        (
            Lang::Cpp,
            format!(
                "void f() {{ A{}{} x; }}\n",
                "<A".repeat(60_000),
                ">".repeat(60_000)
            ),
        ),
        (
            Lang::Php,
            format!(
                "<?php\nfunction f() {{ return {}{}; }}\n",
                "[".repeat(60_000),
                "]".repeat(60_000)
            ),
        ),
        (
            Lang::Java,
            format!(
                "class A {{ void f() {{ int x = {}1{}; }} }}\n",
                "(".repeat(60_000),
                ")".repeat(60_000)
            ),
        ),
    ];
    for (lang, src) in shapes {
        let t = Instant::now();
        let err = parse(lang, src.into_bytes()).expect_err("too dense");
        assert_eq!(budget_limit(&err), BudgetLimit::Tokens, "{lang}");
        assert!(
            t.elapsed() < Duration::from_secs(1),
            "{lang}: {:?}",
            t.elapsed()
        );
    }
    // The densest file of the twelve metrics corpora (jq's decDPD.h table,
    // 0.52 tokens a byte) is far from the per-byte limit, whatever its size.
    let table = "0x0a1, ".repeat(200_000);
    assert!(estimate_tokens(table.as_bytes()) * 100 < 75 * table.len() as u64);
}

#[test]
fn unlimited_budget_checks_nothing() {
    let src = unterminated_strings(500);
    let f = parse_lang(
        Lang::Cpp,
        src,
        &LangParseOptions::with_budget(ParseBudget::UNLIMITED),
    )
    .unwrap();
    assert!(f.parse_errors > 0);
}

fn php_names(src: &[u8]) -> Vec<String> {
    let f = parse(Lang::Php, src.to_vec()).unwrap();
    index_functions(&f)
        .into_iter()
        .map(|f| f.qualname)
        .collect()
}

#[test]
fn php_code_ends_at_halt_compiler() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            b"<?php\nfunction a() { return 1; }\n__halt_compiler();\nfunction phantom() { if ($x) { return 2; } }\n".to_vec(),
            "__halt_compiler();",
        ),
        (
            b"<?php\nfunction a() { return 1; }\n__HALT_COMPILER(); function phantom() {}\n".to_vec(),
            "__HALT_COMPILER();",
        ),
        (
            b"<?php\nnamespace N;\nfunction a() {}\n__halt_compiler() ?>\nfunction phantom() {}\n".to_vec(),
            "__halt_compiler() ?>",
        ),
        (
            // A phar-like binary tail, not UTF-8, with braces.
            [
                &b"<?php\r\nfunction a() {}\r\n__halt_compiler();"[..],
                &[0xff, 0xfe, b'{', 0x00, b'}'],
                &b"function phantom() {}\n"[..],
            ]
            .concat(),
            "__halt_compiler();",
        ),
    ];
    for (src, halt) in cases {
        assert_eq!(php_names(&src), vec!["a".to_string()], "{src:?}");
        let f = parse(Lang::Php, src.clone()).unwrap();
        let at = src
            .windows(halt.len())
            .position(|w| w == halt.as_bytes())
            .unwrap();
        assert_eq!(f.code_end, at + halt.len(), "{src:?}");
        assert_eq!(f.code(), &src[..at + halt.len()]);
        assert_eq!(f.source, src, "the source is kept whole");
        assert_eq!(code_end(Lang::Php, &src), f.code_end);
        assert!(f.root().end_byte() <= f.code_end);
    }
}

#[test]
fn php_halt_only_at_the_top_level_call() {
    // In a string, a comment, a method name or as the last statement, the
    // whole file is code.
    let cases: [&[u8]; 4] = [
        b"<?php\n$s = '__halt_compiler();';\nfunction b() {}\n",
        b"<?php\n// __halt_compiler();\nfunction b() {}\n",
        b"<?php\n$o->__halt_compiler();\nfunction b() {}\n",
        b"<?php\nfunction b() {}\n__halt_compiler();",
    ];
    for src in cases {
        let f = parse(Lang::Php, src.to_vec()).unwrap();
        assert_eq!(f.code_end, src.len(), "{:?}", String::from_utf8_lossy(src));
        assert_eq!(php_names(src), vec!["b".to_string()]);
    }
    // Other languages have no halt rule.
    let js = b"function a() {}\n__halt_compiler();\nfunction b() {}\n";
    assert_eq!(code_end(Lang::JavaScript, js), js.len());
}

#[test]
fn the_read_limit_stops_re_lexing_deterministically() {
    // Error recovery re-lexes to the line's end at each unterminated
    // literal of one long line: the lexer reads far more bytes than the
    // input holds (sparse enough for the token limit).
    let src = unterminated_line(8000);
    let reads = ParseBudget {
        reads_per_byte: 32,
        min_reads: 0,
        ..ParseBudget::default()
    };
    for _ in 0..2 {
        let Err(err) = parse_lang(
            Lang::Cpp,
            src.clone(),
            &LangParseOptions::with_budget(reads),
        ) else {
            panic!("parsed within the read limit");
        };
        assert_eq!(budget_limit(&err), BudgetLimit::Reads);
        assert!(err.to_string().contains("bytes read by the lexer"), "{err}");
    }
    // The error names the limit: 32 bytes read per input byte.
    let Err(LangError::Budget { allowed, bytes, .. }) =
        parse_lang(Lang::Cpp, src, &LangParseOptions::with_budget(reads))
    else {
        panic!("not a budget error");
    };
    assert_eq!(allowed, 32 * bytes as u64);
    // Ordinary code reads each byte about once: far within the limit, and
    // the tree is the one of an unlimited parse.
    let ok = b"int g(int a) { if (a) { return 1; } return 0; }\n".repeat(200);
    let limited = parse_lang(Lang::Cpp, ok.clone(), &LangParseOptions::with_budget(reads)).unwrap();
    let plain = parse(Lang::Cpp, ok).unwrap();
    assert_eq!(
        limited.tree.root_node().to_sexp(),
        plain.tree.root_node().to_sexp()
    );
    // The parser is usable afterwards.
    assert_eq!(
        parse(Lang::Cpp, b"int h() { return 2; }\n".to_vec())
            .unwrap()
            .parse_errors,
        0
    );
}
