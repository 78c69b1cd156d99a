//! The engine is linear in its input on adversarial shapes (deep nesting,
//! many functions, one huge line), in time and in output size: 4x the input
//! must take well under 16x (quadratic) the time. Small sizes, so this runs
//! in a debug build; `examples/scaling.rs` measures real sizes.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, AnalyzeOptions, Profile};
use codethread_testkit::adversarial::{
    assert_subquadratic, deep_js, many_python_functions, one_line_js,
};

fn output_bytes(lang: Lang, src: &str) -> usize {
    let m = analyze_source(
        "x",
        lang,
        src.as_bytes().to_vec(),
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap();
    m.functions
        .iter()
        .map(|f| serde_json::to_string(f).unwrap().len())
        .sum()
}

#[test]
fn deep_nesting_is_linear() {
    assert_subquadratic("metrics on deep JS nesting", 1000, |n| {
        let src = deep_js(n);
        analyze_source(
            "x.js",
            Lang::JavaScript,
            src.into_bytes(),
            &AnalyzeOptions::new(Profile::Paper),
        )
        .unwrap();
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
        analyze_source(
            "x.py",
            Lang::Python,
            src.into_bytes(),
            &AnalyzeOptions::new(Profile::Paper),
        )
        .unwrap();
    });
}

#[test]
fn one_huge_line_is_linear() {
    assert_subquadratic("metrics on one huge JS line", 1000, |n| {
        let src = one_line_js(n);
        analyze_source(
            "x.js",
            Lang::JavaScript,
            src.into_bytes(),
            &AnalyzeOptions::new(Profile::Paper),
        )
        .unwrap();
    });
}

// Issue 19: shapes that were quadratic in the nesting depth (Java paper
// metrics over nested local and anonymous classes; the lizard reader's
// block stack in C++, Ruby and PHP) or whose names grew with the square of
// the depth (C++ records in nested namespaces).

/// `n` Java methods, each declaring an anonymous class that holds the next.
fn java_anonymous(n: usize) -> String {
    let mut s = String::from("class A {\n");
    for i in 0..n {
        s.push_str(&format!(
            "void m{i}() {{ if (a) {{ b(); }} new Object() {{\n"
        ));
    }
    for _ in 0..n {
        s.push_str("};}\n");
    }
    s.push_str("}\n");
    s
}

/// `n` Java methods, each declaring a local class that holds the next.
fn java_local(n: usize) -> String {
    let mut s = String::from("class A {\n");
    for i in 0..n {
        s.push_str(&format!(
            "void m{i}() {{ int x = a && b ? 1 : 2; class L{i} {{\n"
        ));
    }
    for _ in 0..n {
        s.push_str("}}\n");
    }
    s.push_str("}\n");
    s
}

/// `n` nested namespaces, each holding one function.
fn cpp_namespaces(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "namespace n{i} {{ void f{i}() {{ if (a) b(); }}\n"
        ));
    }
    for _ in 0..n {
        s.push_str("}\n");
    }
    s
}

/// `n` nested namespaces, each holding one empty function: little work per
/// level, so a cost per level that grows with the depth shows at small `n`.
fn cpp_namespaces_compact(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("namespace n{i}{{void f(){{}}\n"));
    }
    s.push_str(&"}\n".repeat(n));
    s
}

/// `n` unclosed braces, each followed by a declaration.
fn cpp_unclosed(n: usize) -> String {
    (0..n).map(|i| format!("{{ x{i} y{i};\n")).collect()
}

/// `f` with `n` parameter lists (`f()()()…`): each list renames the candidate.
fn cpp_parameter_lists(n: usize) -> String {
    format!("namespace a {{ f{} {{ if (x) y(); }} }}\n", "()".repeat(n))
}

/// `n` unclosed `do` blocks.
fn ruby_unclosed_do(n: usize) -> String {
    (0..n).map(|i| format!("foo{i} do |x| x if a\n")).collect()
}

/// `n` one-line endless defs (each opens a level lizard never closes).
fn ruby_endless(n: usize) -> String {
    (0..n)
        .map(|i| format!("def f{i}(a) = a && {i}\n"))
        .collect()
}

/// `n` unclosed PHP blocks in functions.
fn php_unclosed(n: usize) -> String {
    let mut s = String::from("<?php\n");
    for i in 0..n {
        s.push_str(&format!("function f{i}($a) {{ if ($a) {{ return 1; }}\n"));
    }
    s
}

fn measure(path: &str, lang: Lang, src: String) -> usize {
    analyze_source(
        path,
        lang,
        src.into_bytes(),
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap()
    .functions
    .len()
}

#[test]
fn java_nested_anonymous_classes_are_linear() {
    assert_subquadratic("metrics on nested Java anonymous classes", 2000, |n| {
        assert_eq!(measure("A.java", Lang::Java, java_anonymous(n)), n);
    });
}

#[test]
fn java_nested_local_classes_are_linear() {
    assert_subquadratic("metrics on nested Java local classes", 500, |n| {
        assert_eq!(measure("A.java", Lang::Java, java_local(n)), n);
    });
}

#[test]
fn lizard_nested_namespaces_are_linear() {
    assert_subquadratic("lizard reader on nested C++ namespaces", 4000, |n| {
        assert_eq!(measure("x.cpp", Lang::Cpp, cpp_namespaces(n)), n);
    });
    assert_subquadratic("lizard reader on compact nested namespaces", 8000, |n| {
        assert_eq!(measure("x.cpp", Lang::Cpp, cpp_namespaces_compact(n)), n);
    });
}

/// Measured whole and chunked (every size in one mode: the default chunk
/// threshold, 1 MB, falls between `n` and `4n` here, and a comparison
/// across it compares two readings).
#[test]
fn lizard_unclosed_braces_are_linear() {
    let forced = codethread_lang::ChunkOptions::default().min_file_bytes(0);
    for (mode, chunks) in [
        ("whole", codethread_lang::ChunkOptions::NEVER),
        ("chunked", forced),
    ] {
        assert_subquadratic(
            &format!("lizard reader on unclosed C++ braces, {mode}"),
            2000,
            |n| {
                // A typed refusal (the node budget) is an outcome too: its
                // time counts the same.
                let _ = analyze_source(
                    "x.cpp",
                    Lang::Cpp,
                    cpp_unclosed(n).into_bytes(),
                    &AnalyzeOptions::new(Profile::Paper).with_chunks(chunks),
                );
            },
        );
    }
}

#[test]
fn lizard_parameter_lists_are_linear() {
    assert_subquadratic("lizard reader on f()()()...", 2000, |n| {
        assert_eq!(measure("x.cpp", Lang::Cpp, cpp_parameter_lists(n)), 1);
    });
}

#[test]
fn lizard_ruby_unclosed_blocks_are_linear() {
    assert_subquadratic("lizard reader on unclosed Ruby do blocks", 2000, |n| {
        measure("x.rb", Lang::Ruby, ruby_unclosed_do(n));
    });
}

#[test]
fn lizard_ruby_endless_defs_are_linear() {
    assert_subquadratic("lizard reader on one-line endless defs", 2000, |n| {
        measure("x.rb", Lang::Ruby, ruby_endless(n));
    });
}

/// PHP's reader was linear before issue 19 too (no block stack is scanned):
/// a guard for the shape.
#[test]
fn lizard_php_unclosed_blocks_are_linear() {
    assert_subquadratic("lizard reader on unclosed PHP blocks", 2000, |n| {
        measure("x.php", Lang::Php, php_unclosed(n));
    });
}

#[test]
fn lizard_nested_namespace_output_is_linear() {
    // 0.94 MB of nested namespaces once needed 5.6 GB: every name spelled
    // the whole namespace chain. Names keep at most 32 scopes.
    let (a, b) = (
        output_bytes(Lang::Cpp, &cpp_namespaces(500)),
        output_bytes(Lang::Cpp, &cpp_namespaces(2000)),
    );
    let ratio = b as f64 / a as f64;
    assert!(
        ratio < 6.0,
        "output {a} -> {b} bytes ({ratio:.1}x for 4x input)"
    );
}

/// One C++ line of `n` unterminated string and character literals and
/// comment openers between words (too sparse for the token limit): error
/// recovery re-lexes to the line's end at each of them.
fn cpp_unterminated_line(n: usize) -> String {
    format!(
        "void f() {{ {} }}\n",
        "\"/*' aaaaaaaaaaaaaaaaaaaaaaaa ".repeat(n)
    )
}

/// lizard's reader is linear on such a line; the parse that only names the
/// records stops at its read limit (`AnalyzeOptions::naming_budget`,
/// `ParseBudget::reads_per_byte`): without it, 2,000 units took 2.2 s and
/// 8,000 ran into the 10 s time limit (debug build); with it, 0.06 s and
/// 0.17 s. The time limit caps the growth, so the ratio alone cannot tell;
/// the absolute bound does.
#[test]
fn naming_parse_of_an_unterminated_line_is_linear() {
    assert_subquadratic("naming parse on one unterminated C++ line", 2000, |n| {
        assert_eq!(measure("x.cpp", Lang::Cpp, cpp_unterminated_line(n)), 1);
    });
    let t = std::time::Instant::now();
    let m = analyze_source(
        "x.cpp",
        Lang::Cpp,
        cpp_unterminated_line(8000).into_bytes(),
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap();
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
    let notes = &m.functions[0].notes;
    assert!(
        notes.iter().any(|n| n.contains("naming budget")),
        "{notes:?}"
    );
    assert_eq!(m.functions[0].target_id, None);
}
