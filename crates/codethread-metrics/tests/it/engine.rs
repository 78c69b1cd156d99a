//! Engine behaviour: file totals, parents, occurrences, deterministic order.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_paths, analyze_source, AnalyzeOptions, Profile};

#[test]
fn totals_do_not_double_count_nested_values() {
    // rust-code-analysis values include nested functions: only the outer
    // function is summed (its lloc 3 already holds the arrow's 2).
    let js = "function f() {\n  const g = () => { h(); };\n}\n";
    let f = analyze_source(
        "a.js",
        Lang::JavaScript,
        js,
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap();
    assert_eq!(f.functions.len(), 2);
    assert_eq!(f.functions[1].parent, Some(0));
    assert_eq!(
        (f.functions[0].lloc, f.functions[1].lloc),
        (Some(3), Some(2))
    );
    assert_eq!(f.totals.lloc, Some(3));
    assert_eq!(f.totals.functions, 2);

    // lizard reports a func literal's lines on their own: all records sum.
    let go = "package p\n\nfunc F() {\n\tgo func() {\n\t\tx()\n\t}()\n\ty()\n}\n";
    let f = analyze_source("a.go", Lang::Go, go, &AnalyzeOptions::new(Profile::Paper)).unwrap();
    assert_eq!(f.functions.len(), 2);
    assert_eq!(f.totals.lloc, Some(4 + 3));
    // gocognit / go-halstead give literals no value of their own.
    assert_eq!(f.functions[1].cognitive, None);
    assert_eq!(f.functions[1].halstead, None);
}

#[test]
fn same_line_records_get_occurrences() {
    let js = "foo(() => 1, () => 2);\n";
    let f = analyze_source(
        "a.js",
        Lang::JavaScript,
        js,
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap();
    let occ: Vec<(usize, usize)> = f.functions.iter().map(|r| (r.line, r.occurrence)).collect();
    assert_eq!(occ, vec![(1, 0), (1, 1)]);
}

#[test]
fn parallel_output_is_deterministic() {
    // cargo runs tests from the crate directory: measure this crate's own
    // sources twice.
    let roots = vec![
        std::path::PathBuf::from("src"),
        std::path::PathBuf::from("tests"),
    ];
    let a: Vec<_> = analyze_paths(&roots, &AnalyzeOptions::new(Profile::Paper))
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    let b: Vec<_> = analyze_paths(&roots, &AnalyzeOptions::new(Profile::Paper))
        .into_iter()
        .map(|r| r.unwrap())
        .collect();
    assert!(a.len() > 5);
    assert_eq!(a, b);
    let labels: Vec<&str> = a.iter().map(|f| f.path.as_str()).collect();
    assert!(
        labels.contains(&"lib.rs") && labels.contains(&"engine.rs"),
        "{labels:?}"
    );
}

#[test]
fn file_pass_lloc_equals_per_function_lloc() {
    // The engine computes rust-code-analysis LLOC for the whole file in one
    // pass; the public per-function walker must give the same values.
    use codethread_lang::{index_functions, parse};
    use codethread_metrics::{lloc, FnCtx};
    let cases: &[(Lang, &str)] = &[
        (
            Lang::JavaScript,
            "function f() {\n  for (i = 0; i < n; i++) { g(() => { a(); b(); }); }\n  const h = function () { if (x) { return; } };\n  class C { m() { return () => 1; } }\n}\nfoo(function () { x: while (1) { break x; } }, () => {});\n",
        ),
        (
            Lang::Rust,
            "fn f() {\n    let c = |x| { g(x); let y = || { h(); }; };\n    fn inner() { a = 1; b += 2; }\n    if x { c(1); }\n}\nfn g() {}\n",
        ),
        (
            Lang::TypeScript,
            "export function f(a: number): number {\n  const g = (b: number) => { return b + 1; };\n  return g(a);\n}\n",
        ),
    ];
    for (lang, src) in cases {
        let engine =
            analyze_source("t", *lang, *src, &AnalyzeOptions::new(Profile::Paper)).unwrap();
        let file = parse(*lang, *src).unwrap();
        let index = index_functions(&file);
        let flat = codethread_lang::FlatTree::new(&file);
        let mut direct = Vec::new();
        for func in &index {
            let Some(node) = flat.function_node(func) else {
                continue;
            };
            let ctx = FnCtx {
                file: &file,
                func,
                node,
                index: &index,
                profile: Profile::Paper,
            };
            direct.push((func.node.start_line, lloc(&ctx)));
        }
        let ours: Vec<(usize, Option<u32>)> =
            engine.functions.iter().map(|r| (r.line, r.lloc)).collect();
        assert_eq!(ours.len(), direct.len(), "{lang}");
        assert_eq!(ours, direct, "{lang}: {src}");
        assert!(ours.iter().any(|(_, v)| v.unwrap_or(0) > 2), "{lang}");
    }
}

#[test]
fn canonical_walkers_equal_the_engine_records() {
    // The public per-metric walkers under the canonical profile (one
    // function's own walk for cyclomatic, Halstead and LLOC; the file for
    // cognitive) give the engine's values for every record.
    use codethread_lang::{index_functions, parse};
    use codethread_metrics::{cognitive, cyclomatic, halstead, lloc, FnCtx, HalsteadValues};
    let cases: &[(Lang, &str)] = &[
        (
            Lang::Python,
            "def f(x):\n    def g(y):\n        if y:\n            return g(y - 1)\n        return 0\n    for i in x:\n        if i and x or i:\n            g(i)\n    return lambda: x if x else 1\n\nclass C:\n    def m(self):\n        while self:\n            self.m()\n",
        ),
        (
            Lang::JavaScript,
            "function f(a) {\n  function g() { return a ? 1 : 2; }\n  if (a && b) { return [1].map(x => x ? g() : 0); }\n  return g();\n}\nclass K { m() { try { f(1); } catch (e) { if (e) { throw e; } } } }\n",
        ),
        (
            Lang::Go,
            "package p\nfunc (t *T) M(a int) int { if a > 0 { return t.M(a - 1) }; f := func() int { for { return 1 } }; return f() }\nfunc g() { switch { case true: g() } }\n",
        ),
    ];
    for (lang, src) in cases {
        let engine =
            analyze_source("t", *lang, *src, &AnalyzeOptions::new(Profile::Canonical)).unwrap();
        let file = parse(*lang, *src).unwrap();
        let index = index_functions(&file);
        let flat = codethread_lang::FlatTree::new(&file);
        let mut checked = 0;
        for r in &engine.functions {
            let func = index
                .iter()
                .find(|f| f.qualname == r.qualname && f.node.start_line == r.line)
                .expect("indexed");
            let node = flat.function_node(func).expect("node");
            let ctx = FnCtx {
                file: &file,
                func,
                node,
                index: &index,
                profile: Profile::Canonical,
            };
            assert_eq!(cyclomatic(&ctx), r.cyclomatic, "{lang} {}", r.qualname);
            assert_eq!(cognitive(&ctx), r.cognitive, "{lang} {}", r.qualname);
            assert_eq!(lloc(&ctx), r.lloc, "{lang} {}", r.qualname);
            assert_eq!(
                halstead(&ctx).map(HalsteadValues::from),
                r.halstead,
                "{lang} {}",
                r.qualname
            );
            checked += 1;
        }
        assert!(checked >= 2, "{lang}: {checked}");
        // Nested named functions are their own records, left out of the
        // enclosing function's cyclomatic value but counted in its cognitive
        // (Go has none).
        if *lang != Lang::Go {
            assert!(
                engine.functions.iter().any(|r| r.nested_in.is_some()),
                "{lang}"
            );
        }
    }
}
