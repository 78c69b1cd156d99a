//! LLOC rules of the paper profile, one small case per construct.
//!
//! Expected values: Python cases were run through radon 6.0.1
//! `raw.analyze(src).lloc`, Go cases through lizard 1.24.3
//! `analyze_source_code` NLOC, JavaScript and Rust cases through
//! rust-code-analysis-cli 0.0.25 `-m` `loc.lloc` (all on the exact text
//! below); the case marked "reference" is copied from
//! `shared/metrics/reference`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, AnalyzeOptions, FunctionMetrics, Profile};

fn funcs(lang: Lang, src: &str) -> Vec<FunctionMetrics> {
    analyze_source("t", lang, src, &AnalyzeOptions::new(Profile::Paper))
        .unwrap()
        .functions
}

fn lloc_of(lang: Lang, src: &str, name: &str) -> u32 {
    let fs = funcs(lang, src);
    let f = fs
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name:?} in {fs:#?}"));
    f.lloc.unwrap()
}

fn py(src: &str) -> u32 {
    lloc_of(Lang::Python, src, "f")
}

#[test]
fn python_radon_logical_lines() {
    // (source, radon 6.0.1 raw.analyze(source).lloc)
    let cases: &[(&str, &str, u32)] = &[
        ("def line only", "def f():\n    pass\n", 2),
        ("def with inline body", "def f(): return 1\n", 2),
        ("semicolons split", "def f():\n    a = 1; b = 2; c = 3\n", 4),
        ("trailing semicolon", "def f():\n    a = 1;\n", 2),
        ("dict literal colon", "def f():\n    return {'a': 1}\n", 3),
        ("lambda colon", "def f():\n    g = lambda x: x\n", 3),
        ("slice colon", "def f(x):\n    return x[1:2]\n", 3),
        (
            "annotations",
            "def f(x: int) -> int:\n    y: int = x\n    return y\n",
            4,
        ),
        (
            "docstring",
            "def f():\n    \"\"\"Doc.\n\n    More.\n    \"\"\"\n    return 1\n",
            3,
        ),
        (
            "comments and blank lines",
            "def f():\n    # c\n\n    x = 1  # trailing\n    return x\n",
            3,
        ),
        (
            "bracket continuation",
            "def f():\n    x = foo(\n        1,\n        2,\n    )\n    return x\n",
            3,
        ),
        (
            "backslash continuation",
            "def f():\n    x = 1 + \\\n        2\n    return x\n",
            3,
        ),
        ("inline if body", "def f(x):\n    if x: return 1\n    return 2\n", 4),
        (
            "compound statements",
            "def f(x):\n    for i in x:\n        if i:\n            continue\n        else:\n            break\n    while x:\n        x -= 1\n    try:\n        pass\n    except E as e:\n        pass\n    finally:\n        pass\n    with a as b:\n        pass\n",
            16,
        ),
        (
            "multi-line string is one token",
            "def f():\n    x = '''a\nb:c''' + y\n    return x\n",
            3,
        ),
        (
            "colon one token before a semicolon",
            "def f():\n    if x: pass; y = 1\n",
            3,
        ),
        ("walrus is not a colon", "def f():\n    if (n := 10) > 5:\n        return n\n", 3),
        ("nested def counted", "def f():\n    def g(y):\n        return y\n    return g\n", 4),
        ("f-string format spec", "def f(x):\n    return f'{x:>3}'\n", 2),
        ("multi-line signature", "def f(\n    a,\n    b,\n):\n    return a\n", 2),
        (
            "backslash continuation without a continuation node (before an f-string, after `and`)",
            "def f():\n    assert x, \\\n        f'a{b!r}'\n    if a and\\\n            b:\n        return 1\n",
            4,
        ),
        (
            "multi-line dict",
            "def f():\n    return {\n        'a': 1,\n        'b': 2,\n    }\n",
            3,
        ),
    ];
    for (what, src, want) in cases {
        assert_eq!(py(src), *want, "{what}: {src:?}");
    }
}

#[test]
fn python_crlf_tabs_and_decorators() {
    // Same as the LF version: CRLF and tabs do not change logical lines.
    let src = "@dec\r\ndef f(x):\r\n\tif x: return {1: 2}\r\n\treturn 3\r\n";
    let fs = funcs(Lang::Python, src);
    assert_eq!((fs[0].line, fs[0].end_line), (2, 4));
    // def 1, `if x: return {1: 2}` 2, `return 3` 1
    assert_eq!(fs[0].lloc, Some(4));
}

fn go(src: &str, name: &str) -> u32 {
    lloc_of(Lang::Go, src, name)
}

#[test]
fn go_lizard_nloc() {
    // (source, function, lizard 1.24.3 NLOC)
    let cases: &[(&str, &str, &str, u32)] = &[
        (
            "comments and blank lines are not code",
            "package p\n\nfunc F(a int) int {\n\t// comment\n\n\treturn a\n}\n",
            "F",
            3,
        ),
        (
            "signature lines count",
            "package p\n\nfunc F(\n\ta int,\n\tb int,\n) int {\n\treturn a\n}\n",
            "F",
            6,
        ),
        (
            "every line of a raw string counts",
            "package p\n\nfunc F() string {\n\treturn `a\n\nb`\n}\n",
            "F",
            5,
        ),
        (
            "block comment lines are not code",
            "package p\n\nfunc F() {\n\t/* a\n\tb */\n\tx()\n}\n",
            "F",
            3,
        ),
        (
            "a literal's lines are its own",
            "package p\n\nfunc F() {\n\tgo func() {\n\t\tx()\n\t}()\n\ty()\n}\n",
            "F",
            4,
        ),
        (
            "the literal itself",
            "package p\n\nfunc F() {\n\tgo func() {\n\t\tx()\n\t}()\n\ty()\n}\n",
            "anonymous__0",
            3,
        ),
        (
            "a literal first on its line: the line is the parent's too",
            "package p\n\nfunc F() {\n\tfoo(\n\t\tfunc() {\n\t\t\tx()\n\t\t},\n\t)\n}\n",
            "F",
            5,
        ),
        (
            "literal first on its line",
            "package p\n\nfunc F() {\n\tfoo(\n\t\tfunc() {\n\t\t\tx()\n\t\t},\n\t)\n}\n",
            "anonymous__0",
            3,
        ),
        (
            "struct{} in the result ends lizard's function",
            "package p\n\nfunc (c *C) Done() <-chan struct{} {\n\tif c.x {\n\t\treturn nil\n\t}\n\treturn c.d\n}\n",
            "(*C).Done",
            1,
        ),
        (
            "interface{} in the result does not",
            "package p\n\nfunc F() interface{} {\n\tif x {\n\t\treturn nil\n\t}\n\treturn y\n}\n",
            "F",
            6,
        ),
    ];
    for (what, src, name, want) in cases {
        assert_eq!(go(src, name), *want, "{what}: {src:?}");
    }
}

#[test]
fn go_declarations_without_body_are_not_reported() {
    // Assembly stubs: the reference has no record for them (lizard merges
    // them with the following declarations).
    let src = "package p\n\nfunc stub(x int) int\n\nfunc F() {\n\tx()\n}\n";
    let fs = funcs(Lang::Go, src);
    let names: Vec<&str> = fs.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["F"]);
}

#[test]
fn go_names_kinds_and_lines() {
    let src = "package p\n\n// doc\nfunc (s *T[K]) M() {\n\tvar h H = func() {}\n\tg := func() {}\n\t_ = func() {}\n}\n";
    let fs = funcs(Lang::Go, src);
    let got: Vec<(&str, &str, usize, usize)> = fs
        .iter()
        .map(|f| (f.name.as_str(), f.kind.as_str(), f.line, f.end_line))
        .collect();
    assert_eq!(
        got,
        vec![
            ("(*T).M", "method", 4, 8),
            ("h", "func_literal", 5, 5),
            ("anonymous__0", "func_literal", 6, 6),
            ("anonymous__1", "func_literal", 7, 7),
        ]
    );
}

fn js(src: &str, name: &str) -> u32 {
    lloc_of(Lang::JavaScript, src, name)
}

#[test]
fn javascript_rca_statements() {
    // rust-code-analysis 0.0.25: every statement kind counts 1, statement
    // blocks included; declarations (var/let/const) count 0; nested functions
    // are included in the enclosing function's value.
    let cases: &[(&str, &str, &str, u32)] = &[
        ("body block", "function f() {}\n", "f", 1),
        (
            "expression + return",
            "function f() {\n  g();\n  return 1;\n}\n",
            "f",
            3,
        ),
        (
            "declarations count 0",
            "function f() {\n  var a = 1;\n  let b = 2;\n  const c = 3;\n}\n",
            "f",
            1,
        ),
        (
            "if with blocks",
            "function f(x) {\n  if (x) { g(); } else { h(); }\n}\n",
            "f",
            6,
        ),
        (
            "for(;;) header: expression initializer and condition count",
            "function f() {\n  for (i = 0; i < 1; i++) ;\n}\n",
            "f",
            5,
        ),
        (
            "for(let ...) header: the declaration does not",
            "function f() {\n  for (let i = 0; i < 1; i++) {}\n}\n",
            "f",
            4,
        ),
        (
            "empty for header",
            "function f() {\n  for (;;) ;\n}\n",
            "f",
            5,
        ),
        (
            "label and labelled break",
            "function f() {\n  a: for (x in y) { break a; }\n}\n",
            "f",
            6,
        ),
        (
            "switch, throw, try",
            "function f() {\n  switch (x) { case 1: throw e; }\n  try { g(); } catch (e) {}\n}\n",
            "f",
            7,
        ),
        (
            "while, do, continue, debugger, empty",
            "function f() {\n  while (x) { continue; }\n  do ; while (x);\n  debugger;\n  ;\n}\n",
            "f",
            8,
        ),
        (
            "nested arrow is included",
            "function f() {\n  const g = () => { h(); };\n}\n",
            "f",
            3,
        ),
        (
            "the arrow alone",
            "function f() {\n  const g = () => { h(); };\n}\n",
            "g",
            2,
        ),
        (
            "expression-bodied arrow",
            "const g = (x) => x + 1;\n",
            "g",
            0,
        ),
    ];
    for (what, src, name, want) in cases {
        assert_eq!(js(src, name), *want, "{what}: {src:?}");
    }
}

#[test]
fn rca_names_and_lines() {
    // rust-code-analysis-cli 0.0.25 on this text as .js / .ts / .tsx: the
    // JavaScript grammar borrows names from object keys and declarators, the
    // TypeScript ones do not.
    let src = "const a = () => 1;\nconst b = function () {};\nconst o = { c: () => 1, d: function () {}, 'e': function () {} };\nx = function () {};\nclass K { m() {} f = () => 1; }\n";
    let names = |lang| -> Vec<(String, usize)> {
        analyze_source("t", lang, src, &AnalyzeOptions::new(Profile::Paper))
            .unwrap()
            .functions
            .into_iter()
            .map(|f| (f.name, f.line))
            .collect()
    };
    let js = [
        ("a", 1),
        ("b", 2),
        ("c", 3),
        ("d", 3),
        ("'e'", 3),
        ("<anonymous>", 4),
        ("m", 5),
        ("<anonymous>", 5),
    ];
    let js_names: Vec<(String, usize)> = js.iter().map(|(n, l)| (n.to_string(), *l)).collect();
    assert_eq!(names(Lang::JavaScript), js_names);
    let ts_names: Vec<(String, usize)> = js
        .iter()
        .map(|(n, l)| (if *n == "m" { "m" } else { "<anonymous>" }.to_string(), *l))
        .collect();
    assert_eq!(names(Lang::TypeScript), ts_names);
    assert_eq!(names(Lang::Tsx), ts_names);
}

#[test]
fn ts_method_line_skips_decorators() {
    let src = "class C {\n  @dec\n  method() {}\n}\n";
    let fs = analyze_source(
        "t.ts",
        Lang::TypeScript,
        src,
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap()
    .functions;
    assert_eq!((fs[0].name.as_str(), fs[0].line), ("method", 3));
}

fn rs(src: &str, name: &str) -> u32 {
    lloc_of(Lang::Rust, src, name)
}

#[test]
fn rust_rca_statements() {
    let cases: &[(&str, &str, &str, u32)] = &[
        // reference: ripgrep build.rs `main` has lloc 2.
        (
            "expression statements (reference)",
            "fn main() {\n    set_git_revision_hash();\n    set_windows_exe_options();\n}\n",
            "main",
            2,
        ),
        (
            "tail expression counts 0",
            "fn f() -> u8 {\n    g()\n}\n",
            "f",
            0,
        ),
        ("let counts 1", "fn f() {\n    let x = 1;\n}\n", "f", 1),
        (
            "assignment statement counts 2",
            "fn f() {\n    y = y + 1;\n}\n",
            "f",
            2,
        ),
        (
            "compound assignment counts 2",
            "fn f() {\n    y += 1;\n}\n",
            "f",
            2,
        ),
        (
            "if statement counts 1, its inner statements too",
            "fn f() {\n    if x {\n        return;\n    }\n}\n",
            "f",
            2,
        ),
        (
            "closure statements are included",
            "fn f() {\n    let c = |x| {\n        g(x);\n    };\n}\n",
            "f",
            2,
        ),
        (
            "the closure alone",
            "fn f() {\n    let c = |x| {\n        g(x);\n    };\n}\n",
            "<anonymous>",
            1,
        ),
    ];
    for (what, src, name, want) in cases {
        assert_eq!(rs(src, name), *want, "{what}: {src:?}");
    }
}

#[test]
fn rust_lines_exclude_attributes_and_docs() {
    let src = "/// doc\n#[inline]\npub fn f() {\n    g();\n}\n";
    let fs = funcs(Lang::Rust, src);
    assert_eq!(
        (fs[0].line, fs[0].end_line, fs[0].kind.as_str()),
        (3, 5, "function")
    );
}

#[test]
fn python_kinds_and_names() {
    let src = "def top():\n    def inner():\n        pass\nclass A:\n    def m(self):\n        pass\n    class B:\n        def n(self):\n            pass\n";
    let fs = funcs(Lang::Python, src);
    let got: Vec<(&str, &str)> = fs
        .iter()
        .map(|f| (f.name.as_str(), f.kind.as_str()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("top", "function"),
            ("inner", "closure"),
            ("A.m", "method"),
            ("B.n", "method"),
        ]
    );
}
