//! Bad input is normal input: no panic, metrics on the recovered tree, typed
//! errors that name the file, and one bad file never hides the others.
//!
//! Test threads run on small (2 MiB) stacks, so the deep-nesting cases would
//! overflow if any walk were recursive.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use codethread_lang::Lang;
use codethread_metrics::{
    analyze_paths, analyze_source, AnalyzeOptions, FileMetrics, MetricsError, Profile,
};

fn run(lang: Lang, src: impl Into<Vec<u8>>) -> FileMetrics {
    analyze_source("bad", lang, src, &AnalyzeOptions::new(Profile::Paper))
        .expect("syntax problems are not errors")
}

fn all_metrics_present(f: &FileMetrics) {
    for r in &f.functions {
        assert!(r.lloc.is_some(), "{r:?}");
        assert!(r.line >= 1 && r.end_line >= r.line, "{r:?}");
    }
}

#[test]
fn non_utf8_bytes() {
    let mut py = b"def f(x):\n    s = '".to_vec();
    py.extend_from_slice(&[0xff, 0xfe, 0x80]);
    py.extend_from_slice(b"'  # \xc3\x28\n    return s\n");
    let f = run(Lang::Python, py);
    assert_eq!(f.functions.len(), 1);
    assert_eq!(f.functions[0].lloc, Some(3));
    all_metrics_present(&f);

    let mut go = b"package p\n\n// \xff\xfe\nfunc F() string {\n\treturn \"".to_vec();
    go.extend_from_slice(&[0xc0, 0xaf]);
    go.extend_from_slice(b"\"\n}\n");
    let f = run(Lang::Go, go);
    assert_eq!(f.functions.len(), 1);
    assert_eq!(f.functions[0].lloc, Some(3));

    let js = b"function f() { return '\xff'; }\n".to_vec();
    let f = run(Lang::JavaScript, js);
    assert_eq!(f.functions.len(), 1);
    all_metrics_present(&f);
}

#[test]
fn crlf_and_tabs_match_lf() {
    let lf = "def f(x):\n\tif x:\n\t\treturn {1: 2}\n\treturn 3\n";
    let crlf = lf.replace('\n', "\r\n");
    let a = run(Lang::Python, lf);
    let b = run(Lang::Python, crlf);
    assert_eq!(a.functions.len(), 1);
    let (x, y) = (&a.functions[0], &b.functions[0]);
    assert_eq!((x.line, x.end_line, x.lloc), (y.line, y.end_line, y.lloc));
    assert_eq!((x.cyclomatic, x.cognitive), (y.cyclomatic, y.cognitive));

    let go = "package p\n\nfunc F() {\n\tx()\n}\n";
    let a = run(Lang::Go, go);
    let b = run(Lang::Go, go.replace('\n', "\r\n"));
    assert_eq!(a.functions[0].lloc, b.functions[0].lloc);
    assert_eq!(a.functions[0].end_line, b.functions[0].end_line);
}

#[test]
fn syntax_errors_are_measured_on_the_recovered_tree() {
    let cases: &[(Lang, &str)] = &[
        (
            Lang::Python,
            "def f(x):\n    if x\n        return 1\n    return (2\n\ndef g():\n    pass\n",
        ),
        (
            Lang::Go,
            "package p\n\nfunc F() {\n\tif x {\n\t\ty(\n\t}\n}\n\nfunc G() {}\n",
        ),
        (
            Lang::Rust,
            "fn f() {\n    let x = ;\n    g(\n}\nfn h() {}\n",
        ),
        (
            Lang::JavaScript,
            "function f() {\n  if (x {\n    g();\n  }\n}\nfunction h() {}\n",
        ),
        (Lang::TypeScript, "function f(a: ) {\n  return a +;\n}\n"),
    ];
    for (lang, src) in cases {
        let f = run(*lang, *src);
        assert!(f.parse_errors > 0, "{lang}: {src:?}");
        assert!(
            !f.functions.is_empty(),
            "{lang}: no functions recovered from {src:?}"
        );
        assert!(
            f.functions.iter().any(|r| r.parse_errors > 0),
            "{lang}: no function carries the error: {:?}",
            f.functions
        );
        all_metrics_present(&f);
    }
}

#[test]
fn empty_and_blank_files() {
    for lang in Lang::ALL {
        for src in ["", "\n", "   \n\t\n", "\r\n\r\n"] {
            let f = run(lang, src);
            assert!(f.functions.is_empty(), "{lang} {src:?}");
            assert_eq!(f.totals.functions, 0);
        }
    }
}

#[test]
fn ten_megabyte_generated_file() {
    let mut src = String::with_capacity(10 << 20);
    let mut n = 0usize;
    while src.len() < 10 << 20 {
        src.push_str(&format!(
            "def f{n}(a, b):\n    \"\"\"Doc.\"\"\"\n    if a and b:\n        return {{a: b}}\n    for i in range(a):\n        b += i * 2\n    return b\n\n"
        ));
        n += 1;
    }
    let f = run(Lang::Python, src);
    assert_eq!(f.functions.len(), n);
    // def 1, docstring 1, if 1, return {a: b} 2, for 1, b += 1, return 1
    assert!(f.functions.iter().all(|r| r.lloc == Some(8)));
    assert_eq!(f.totals.lloc, Some(8 * n as u64));
}

fn deep(open: &str, close: &str, depth: usize) -> String {
    let mut s = String::with_capacity((open.len() + close.len()) * depth);
    for _ in 0..depth {
        s.push_str(open);
    }
    for _ in 0..depth {
        s.push_str(close);
    }
    s
}

#[test]
fn ten_thousand_deep_nesting() {
    const D: usize = 10_000;
    let cases: Vec<(Lang, String)> = vec![
        (
            Lang::Python,
            format!("def f():\n    x = {}\n    return x\n", deep("(", ")", D)),
        ),
        (
            Lang::Python,
            format!("def f():\n    x = {}\n", deep("[", "]", D)),
        ),
        (
            Lang::Go,
            format!("package p\n\nfunc F() {{\n{}\n}}\n", deep("{", "}", D)),
        ),
        (
            Lang::Go,
            format!(
                "package p\n\nfunc F() int {{\n\treturn {}1{}\n}}\n",
                "(".repeat(D),
                ")".repeat(D)
            ),
        ),
        (
            Lang::Rust,
            format!(
                "fn f() {{\n    let x = {}1{};\n}}\n",
                "(".repeat(D),
                ")".repeat(D)
            ),
        ),
        (Lang::Rust, format!("fn f() {}\n", deep("{", "}", D))),
        (
            Lang::JavaScript,
            format!("function f() {{\n{}\n}}\n", deep("{", "}", D)),
        ),
        (
            Lang::JavaScript,
            format!(
                "function f(x) {{\n  return {}x{};\n}}\n",
                "!(".repeat(D),
                ")".repeat(D)
            ),
        ),
        (
            Lang::TypeScript,
            format!("function f() {{\n{}\n}}\n", deep("if (x) {", "}", D)),
        ),
    ];
    for (lang, src) in cases {
        let f = run(lang, src);
        assert!(!f.functions.is_empty(), "{lang}");
        all_metrics_present(&f);
    }
}

#[test]
fn deeply_nested_functions() {
    // 1,000 nested arrows / closures / func literals / defs: every level is a
    // function record whose metrics include (RCA) or exclude (lizard) the rest.
    const D: usize = 1_000;
    let js = format!("const f = {}1;\n", "() => ".repeat(D));
    let f = run(Lang::JavaScript, js);
    assert_eq!(f.functions.len(), D);
    all_metrics_present(&f);

    let go = format!(
        "package p\n\nfunc F() {{\n{}\n}}\n",
        deep("_ = func() {\n", "}\n", D)
    );
    let f = run(Lang::Go, go);
    assert_eq!(f.functions.len(), D + 1);
    all_metrics_present(&f);

    let rust = format!("fn f() {{\n    let c = {}1;\n}}\n", "|| ".repeat(D));
    let f = run(Lang::Rust, rust);
    assert_eq!(f.functions.len(), D + 1);
    all_metrics_present(&f);

    let mut py = String::new();
    for i in 0..200 {
        py.push_str(&" ".repeat(i));
        py.push_str(&format!("def f{i}():\n"));
    }
    py.push_str(&" ".repeat(200));
    py.push_str("pass\n");
    let f = run(Lang::Python, py);
    assert_eq!(f.functions.len(), 200);
    assert_eq!(f.functions[0].kind.as_str(), "function");
    assert_eq!(f.functions[1].kind.as_str(), "closure");
    all_metrics_present(&f);
}

#[test]
fn unreadable_and_unsupported_files_are_named_and_skipped() {
    let dir = std::env::temp_dir().join(format!("codethread-metrics-bad-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("a.py"), "def f():\n    pass\n").unwrap();
    std::fs::write(dir.join("sub/b.go"), "package p\n\nfunc G() {}\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not code").unwrap();
    // A dangling symlink with a supported extension: listed, but unreadable.
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("missing-target.py"), dir.join("broken.py")).unwrap();
    let unsupported = dir.join("notes.txt");
    let missing = dir.join("nope.rs");

    let results = analyze_paths(
        &[dir.clone(), unsupported.clone(), missing.clone()],
        &AnalyzeOptions::new(Profile::Paper),
    );
    let mut ok = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Ok(f) => ok.push(f.path.clone()),
            Err(e) => errors.push(e),
        }
    }
    // The directory's good files, labelled relative to it, in order.
    assert_eq!(ok, vec!["a.py".to_string(), "sub/b.go".to_string()]);
    let msgs: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, MetricsError::Unsupported { path } if *path == unsupported)),
        "{msgs:?}"
    );
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, MetricsError::Read { path, .. } if *path == missing)),
        "{msgs:?}"
    );
    #[cfg(unix)]
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, MetricsError::Read { path, .. } if path.ends_with("broken.py"))),
        "{msgs:?}"
    );
    // Every message names its file.
    for e in &errors {
        assert!(e.to_string().contains(&*e.path().to_string_lossy()), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn labels_have_no_leading_dot_slash() {
    // cargo runs tests from the crate directory.
    let file = PathBuf::from("./tests/it/bad_input.rs");
    let f = analyze_paths(&[file], &AnalyzeOptions::new(Profile::Paper))
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(f.path, "tests/it/bad_input.rs");
    let dir = PathBuf::from("./tests/it");
    let labels: Vec<String> = analyze_paths(&[dir], &AnalyzeOptions::new(Profile::Paper))
        .into_iter()
        .map(|r| r.unwrap().path)
        .collect();
    assert!(labels.contains(&"bad_input.rs".to_string()), "{labels:?}");
    let mut sorted = labels.clone();
    sorted.sort();
    assert_eq!(labels, sorted);
}

/// The lizard token reader (C++, Ruby, PHP) on bad input: no panic, linear
/// time, the same result for CRLF as for LF.
mod lizard_reader {
    use super::*;

    fn ccns(lang: Lang, src: impl Into<Vec<u8>>) -> Vec<(String, usize, usize, Option<u32>)> {
        run(lang, src)
            .functions
            .iter()
            .map(|r| (r.name.clone(), r.line, r.end_line, r.cyclomatic))
            .collect()
    }

    const CPP: &str = "int f(int x) {\n\tif (x && y) { return 1; }\n\treturn x ? 2 : 3;\n}\n";
    const RUBY: &str = "def f(x)\n\treturn 1 if x\n\tx || y\nend\n";
    const PHP: &str = "<?php\nfunction f($x) {\n\tif ($x) { return 1; }\n\treturn $x ?? 2;\n}\n";

    #[test]
    fn crlf_tabs_and_non_utf8() {
        for (lang, src, ccn) in [
            (Lang::Cpp, CPP, 4),
            (Lang::Ruby, RUBY, 3),
            (Lang::Php, PHP, 2),
        ] {
            let lf = ccns(lang, src);
            assert_eq!(lf.len(), 1, "{lang:?}");
            assert_eq!(lf[0].3, Some(ccn), "{lang:?}");
            assert_eq!(ccns(lang, src.replace('\n', "\r\n")), lf, "{lang:?} CRLF");
            assert_eq!(ccns(lang, src.replace('\n', "\r")), lf, "{lang:?} CR");
            // Invalid UTF-8 inside a comment and a string changes nothing.
            let mut bytes = b"/* \xff\xfe */ # \xc3\x28\n".to_vec();
            if lang == Lang::Php {
                bytes = b"<?php /* \xff\xfe */ ?>\n".to_vec();
                bytes.extend_from_slice(src.replace("<?php\n", "<?php ").as_bytes());
            } else {
                bytes.extend_from_slice(src.as_bytes());
            }
            let got = ccns(lang, bytes);
            assert_eq!(got.len(), 1, "{lang:?} {got:?}");
            assert_eq!(got[0].3, Some(ccn), "{lang:?}");
        }
    }

    #[test]
    fn unterminated_strings_comments_heredocs() {
        let cases: &[(Lang, &str)] = &[
            (Lang::Cpp, "int f() { if (x) {} \"abc\n"),
            (Lang::Cpp, "int f() { /* never closed\n if (x) {} }\n"),
            (Lang::Cpp, "int f() { auto s = R\"(open\n if (x) }\n"),
            (Lang::Cpp, "int f() { char c = '\\\n"),
            (Lang::Ruby, "def f\n  x = \"#{ a ? 1\nend\n"),
            (Lang::Ruby, "def f\n  x = %w(a b > c\n  y = /[a-z/\nend\n"),
            (
                Lang::Ruby,
                "def f\n  x = <<~EOS\n  if y\nend\n=begin\nnever ended\n",
            ),
            (
                Lang::Php,
                "<?php\nfunction f() { $s = <<<EOT\n if ($x) {}\n",
            ),
            (
                Lang::Php,
                "<?php\nfunction f() { $s = \"open ?> text <?php if ($x) {} }\n",
            ),
        ];
        for (lang, src) in cases {
            let f = run(*lang, *src);
            for r in &f.functions {
                assert!(r.line >= 1 && r.end_line >= r.line, "{r:?}");
            }
        }
    }

    #[test]
    fn ten_thousand_deep_nesting() {
        const D: usize = 10_000;
        let cpp = format!("void f() {{\n{}\n}}\n", deep("if (x) {", "}", D));
        let got = ccns(Lang::Cpp, cpp);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].3, Some(1 + D as u32));
        let ruby = format!("def f\n{}\nend\n", deep("[1].each do\n", "\nend", D));
        let got = ccns(Lang::Ruby, ruby);
        assert_eq!(got.len(), 1, "{:?}", got.first());
        assert_eq!(got[0].1, 1);
        let php = format!(
            "<?php\nfunction f() {{\n{}\n}}\n",
            deep("if ($x) {", "}", D)
        );
        let got = ccns(Lang::Php, php);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].3, Some(1 + D as u32));
        // Unbalanced: only openers.
        let _ = run(Lang::Ruby, "def f\n".to_string() + &"x do\n".repeat(D));
        let _ = run(Lang::Cpp, "void f() ".to_string() + &"{".repeat(D));
    }

    #[test]
    fn ten_megabyte_files() {
        let (cpp, rb, php) = (
            "int f(int x) {\n  if (x && y) { return 1; }\n  return x ? 2 : 3;\n}\n",
            "def f(x)\n  return 1 if x\n  \"#{x}\" =~ /a[b]c/\nend\n",
            "function f($x) {\n  if ($x) { return 1; }\n  return $x ?? 2;\n}\n",
        );
        for (lang, unit, prefix) in [
            (Lang::Cpp, cpp, ""),
            (Lang::Ruby, rb, ""),
            (Lang::Php, php, "<?php\n"),
        ] {
            let n = 10_000_000 / unit.len();
            let src = format!("{prefix}{}", unit.repeat(n));
            let start = std::time::Instant::now();
            let f = run(lang, src);
            assert_eq!(f.functions.len(), n, "{lang:?}");
            assert!(
                start.elapsed().as_secs() < 60,
                "{lang:?}: {:?}",
                start.elapsed()
            );
        }
        // Pathological single lines: many regex starts that never close, many
        // unterminated strings and comments.
        let line = "x = [(/[".repeat(1_000_000);
        let _ = run(Lang::Ruby, format!("def f\n{line}\nend\n"));
        let _ = run(
            Lang::Cpp,
            format!("void f() {{ {} }}", "\"/*'".repeat(1_000_000)),
        );
        let _ = run(
            Lang::Php,
            format!("<?php function f() {{ {} }}", "<<<E ".repeat(200_000)),
        );
    }
}

const SHORTENED: &str = "name shortened: over 32 scopes or 1024 bytes";

/// lizard names a C++ function by its whole namespace chain; past 32 scopes
/// the name keeps the outermost, `<N elided>::` and the 30 innermost (as
/// codethread-lang qualnames do), and says so in a note. Up to 32 scopes the
/// names are lizard 1.24.3's own (checked with lizard on this text).
#[test]
fn lizard_names_keep_at_most_32_scopes() {
    let n = 40;
    let mut src = String::new();
    for i in 0..n {
        src.push_str(&format!(
            "namespace n{i} {{ int f{i}(int a) {{ if (a && b) return 1; return 0; }}\n"
        ));
    }
    src.push_str(&"}\n".repeat(n));
    let f = run(Lang::Cpp, src);
    assert_eq!(f.functions.len(), n);
    for (i, r) in f.functions.iter().enumerate() {
        let scopes: Vec<String> = (0..=i).map(|k| format!("n{k}")).collect();
        let want = if i < 32 {
            format!("{}::f{i}", scopes.join("::"))
        } else {
            format!(
                "n0::<{} elided>::{}::f{i}",
                i + 1 - 31,
                scopes[i + 1 - 30..].join("::")
            )
        };
        assert_eq!(r.name, want);
        assert_eq!(r.qualname, want.replace("::", "."));
        assert_eq!((r.line, r.end_line, r.cyclomatic), (i + 1, i + 1, Some(3)));
        assert_eq!(r.notes.iter().any(|n| n == SHORTENED), i >= 32, "{r:?}");
    }
}

/// A function level's name part is the function's whole name, so names can
/// double per level when lizard's brace and template counts disagree
/// (`void f() { template < } > void g() …`): 30 levels would be 1.6 GB of
/// names. Names are lizard's up to 1024 bytes, then cut (`<cut>`).
#[test]
fn lizard_names_are_cut_at_1024_bytes() {
    for k in [12usize, 30] {
        let mut src = String::new();
        for i in 0..k {
            src.push_str(&format!("void f{i}() {{ template < }} > "));
        }
        src.push_str(&"}".repeat(k));
        // lizard's names: each nested function's prefix is the names of all
        // enclosing ones, each followed by `.`.
        let mut full: Vec<String> = Vec::new();
        for i in 0..k {
            let mut name: String = full.iter().map(|f| format!("{f}.")).collect();
            name.push_str(&format!("f{i}"));
            name.truncate(4096);
            full.push(name);
        }
        let f = run(Lang::Cpp, src);
        assert_eq!(f.functions.len(), k);
        let mut names: Vec<&str> = f.functions.iter().map(|r| r.name.as_str()).collect();
        names.sort_unstable();
        let mut want: Vec<String> = full
            .iter()
            .map(|n| {
                if n.len() <= 1024 {
                    n.clone()
                } else {
                    format!("{}<cut>", &n[..1024])
                }
            })
            .collect();
        want.sort_unstable();
        assert_eq!(names, want, "k = {k}");
        for r in &f.functions {
            assert_eq!(r.cyclomatic, Some(1));
            assert_eq!(
                r.notes.iter().any(|n| n == SHORTENED),
                r.name.ends_with("<cut>")
            );
        }
    }
    // One identifier longer than the cap.
    let long = "A".repeat(3000);
    let f = run(Lang::Cpp, format!("void {long}() {{ if (x) y(); }}\n"));
    assert_eq!(f.functions.len(), 1);
    assert_eq!(f.functions[0].name, format!("{}<cut>", &long[..1024]));
    assert_eq!(f.functions[0].cyclomatic, Some(2));
    // A multi-byte character is not split.
    let long = "é".repeat(1000);
    let f = run(Lang::Cpp, format!("void {long}() {{ }}\n"));
    assert_eq!(f.functions[0].name, format!("{}<cut>", "é".repeat(512)));
}

/// Under the paper profile C++, Ruby and PHP are read by lizard's token reader, which sees no
/// syntax; the file's syntax errors come from its naming parse (issue 31, minor), so a broken
/// file is reported (and `--strict` exits 1 on it) while the valid one is not.
#[test]
fn paper_profile_sees_syntax_errors_in_lizard_languages() {
    for (lang, good, bad) in [
        (
            Lang::Cpp,
            "int f(int x) {\n  return x + 1;\n}\n",
            "int f(int x) {\n  return x + ;\n}\nint g( {\n",
        ),
        (
            Lang::Ruby,
            "def f(x)\n  x + 1\nend\n",
            "def f(x)\n  x + \nend\nclass\n",
        ),
        (
            Lang::Php,
            "<?php\nfunction f($x) {\n  return $x + 1;\n}\n",
            "<?php\nfunction f($x) {\n  return $x + ;\n}\nfunction g( {\n",
        ),
    ] {
        let ok = run(lang, good);
        assert_eq!((ok.parse_errors, ok.first_error), (0, None), "{lang:?}");
        let broken = run(lang, bad);
        assert!(broken.parse_errors > 0, "{lang:?}: {broken:?}");
        let (line, _) = broken.first_error.expect("first error");
        assert!((1..=4).contains(&line), "{lang:?}: {line}");
    }
}
