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
