//! Bad input in Java, C, C++, Ruby and PHP through every stage: parse,
//! function index, skeleton, and metrics (through
//! `codethread_metrics::analyze_source` only). 10,000-deep nesting, non-UTF-8
//! bytes, CRLF, tabs, a 10 MB file, unterminated strings and comments, `#if`
//! mazes in C, heredocs in Ruby and PHP, PHP files that are mostly HTML.
//!
//! Nothing may panic (test threads run on 2 MiB stacks, so a recursive walk
//! over the deep cases would overflow); a clean file must give a clean,
//! exactly restorable, idempotent skeleton; a file with syntax errors must
//! give a typed error naming the file (`ParseErrorPolicy::Refuse`, through
//! `skeletonize_path`) or a skeleton of the unaffected functions
//! (`SkipAffected`); metrics treat syntax problems as input, not errors.
//! The stubbing of the new languages is also checked to be linear
//! (`assert_subquadratic`) on many functions and on deep nesting.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use codethread_lang::{index_functions, parse, Lang};
use codethread_metrics::{analyze_source, AnalyzeOptions, Profile};
use codethread_skeleton::{
    restore, skeletonize, skeletonize_path, skeletonize_source, Options, ParseErrorPolicy,
    Selector, SkeletonError,
};
use codethread_testkit::adversarial::{assert_subquadratic, nested, repeated};

fn ext(lang: Lang) -> &'static str {
    match lang {
        Lang::Java => "java",
        Lang::C => "c",
        Lang::Cpp => "cpp",
        Lang::Ruby => "rb",
        Lang::Php => "php",
        _ => unreachable!(),
    }
}

/// Every stage on one input. Returns (parse errors, functions, stubs).
fn every_stage(label: &str, lang: Lang, src: &[u8]) -> (usize, usize, usize) {
    let file = parse(lang, src.to_vec()).unwrap_or_else(|e| panic!("{label}: parse: {e}"));
    let funcs = index_functions(&file);
    let metrics = analyze_source(
        label,
        lang,
        src.to_vec(),
        &AnalyzeOptions::new(Profile::Paper),
    )
    .unwrap_or_else(|e| panic!("{label}: syntax problems are not metric errors: {e}"));
    assert!(
        metrics.functions.len() <= funcs.len() + 1 || funcs.is_empty(),
        "{label}: {} metric rows for {} functions",
        metrics.functions.len(),
        funcs.len()
    );
    let opts = Options::default().on_parse_errors(ParseErrorPolicy::SkipAffected);
    let sk = skeletonize(&file, &[Selector::All], &opts)
        .unwrap_or_else(|e| panic!("{label}: SkipAffected must skeletonize: {e}"));
    assert_eq!(
        restore(&sk.text, &sk.edits, src).unwrap(),
        src,
        "{label}: restore"
    );
    let re = parse(lang, sk.text.clone()).unwrap();
    assert!(
        re.parse_errors <= file.parse_errors,
        "{label}: the skeleton parses worse"
    );
    let again = skeletonize(&re, &[Selector::All], &opts).unwrap();
    assert!(
        again.edits.is_empty(),
        "{label}: second run {:?}",
        again.edits.first()
    );
    // Refuse: a typed error naming the file when there are errors (the
    // tolerant parse's: `#if` alternatives and macros masked).
    let tolerant = codethread_lang::tolerant(parse(lang, src.to_vec()).unwrap()).parse_errors;
    let path = format!("bad/{label}.{}", ext(lang));
    match skeletonize_path(
        Path::new(&path),
        src.to_vec(),
        &[Selector::All],
        &Options::default(),
    ) {
        Ok(s) => assert_eq!(tolerant, 0, "{label}: {s:?}"),
        Err(e) => {
            assert!(tolerant > 0, "{label}: {e}");
            assert!(e.to_string().contains(&path), "{label}: {e}");
            assert!(
                matches!(e, SkeletonError::File { ref source, .. }
                    if matches!(**source, SkeletonError::ParseErrors { .. })),
                "{label}: {e:?}"
            );
        }
    }
    (file.parse_errors, funcs.len(), sk.edits.len())
}

const DEPTH: usize = 10_000;

/// Deep nesting: blocks inside one function, and functions inside
/// functions (Ruby `def` in `def`, PHP `function` in `function`, GCC nested
/// functions), and scopes (classes, namespaces, modules).
fn deep_cases() -> Vec<(String, Lang, String)> {
    let c_blocks = format!(
        "int f(int x) {{\n{}}}\n",
        nested(DEPTH, |i| format!("if (x > {i}) {{"), "x++;", "}")
    );
    vec![
        (
            "java blocks".into(),
            Lang::Java,
            format!(
                "class A {{\n  int f(int x) {{\n{}  }}\n}}\n",
                nested(DEPTH, |i| format!("if (x > {i}) {{"), "x++;", "}")
            ),
        ),
        (
            "java classes".into(),
            Lang::Java,
            nested(
                DEPTH,
                |i| format!("class C{i} {{ int m{i}() {{ return {i}; }}"),
                "void leaf() { }",
                "}",
            ),
        ),
        ("c blocks".into(), Lang::C, c_blocks.clone()),
        (
            "c nested functions".into(),
            Lang::C,
            nested(DEPTH, |i| format!("int f{i}(int a) {{"), "return a;", "}"),
        ),
        ("cpp blocks".into(), Lang::Cpp, c_blocks),
        (
            "cpp namespaces".into(),
            Lang::Cpp,
            nested(
                DEPTH,
                |i| format!("namespace n{i} {{ struct S{i} {{ int m() {{ return {i}; }} }};"),
                "int leaf() { return 0; }",
                "}",
            ),
        ),
        (
            "ruby nested defs".into(),
            Lang::Ruby,
            nested(DEPTH, |i| format!("def f{i}(a)"), "a", "end"),
        ),
        (
            "ruby modules".into(),
            Lang::Ruby,
            nested(DEPTH, |i| format!("module M{i}"), "def leaf; 1; end", "end"),
        ),
        (
            "php nested functions".into(),
            Lang::Php,
            format!(
                "<?php\n{}",
                nested(
                    DEPTH,
                    |i| format!("function f{i}($a) {{"),
                    "return $a;",
                    "}"
                )
            ),
        ),
        (
            "php blocks".into(),
            Lang::Php,
            format!(
                "<?php\nfunction f($x) {{\n{}}}\n",
                nested(DEPTH, |i| format!("if ($x > {i}) {{"), "$x++;", "}")
            ),
        ),
    ]
}

#[test]
fn ten_thousand_deep_nesting() {
    for (label, lang, src) in deep_cases() {
        let (errors, funcs, stubs) = every_stage(&label, lang, src.as_bytes());
        println!("{label}: {errors} parse errors, {funcs} functions, {stubs} stubs");
        assert!(funcs > 0, "{label}");
        if errors == 0 {
            assert!(stubs > 0, "{label}");
        }
    }
}

/// A small clean program per language with the given string literal body
/// and comment text inserted (raw bytes).
fn program(lang: Lang, lit: &[u8], comment: &[u8]) -> Vec<u8> {
    let parts: [&[u8]; 5] = match lang {
        Lang::Java => [
            b"class A {\n    // ",
            b"\n    String f() {\n        return \"",
            b"\";\n    }\n\n    A() {\n        super();\n    }\n}\n",
            b"",
            b"",
        ],
        Lang::C | Lang::Cpp => [
            b"/* ",
            b" */\nstatic const char *f(void) {\n    return \"",
            b"\";\n}\n\nint g(int x)\n{\n    return x;\n}\n",
            b"",
            b"",
        ],
        Lang::Ruby => [
            b"# ",
            b"\nclass A\n  def f\n    \"",
            b"\"\n  end\n\n  def g(x) = x\nend\n",
            b"",
            b"",
        ],
        Lang::Php => [
            b"<?php\n// ",
            b"\nfunction f() {\n    return '",
            b"';\n}\n\nclass A { public function g($x) { return $x; } }\n",
            b"",
            b"",
        ],
        _ => unreachable!(),
    };
    let mut v = parts[0].to_vec();
    v.extend_from_slice(comment);
    v.extend_from_slice(parts[1]);
    v.extend_from_slice(lit);
    v.extend_from_slice(parts[2]);
    v
}

const LANGS: [Lang; 5] = [Lang::Java, Lang::C, Lang::Cpp, Lang::Ruby, Lang::Php];

#[test]
fn non_utf8_crlf_and_tabs() {
    for lang in LANGS {
        let lf = program(lang, b"a\xff\xfe\x80b", b"caf\xe9 \xc3\x28");
        let (errors, funcs, stubs) = every_stage(&format!("{lang} non-utf8"), lang, &lf);
        assert_eq!(errors, 0, "{lang}");
        assert!(funcs >= 2 && stubs >= 2, "{lang}: {funcs} {stubs}");
        // CRLF: the same functions, and the skeleton has no bare LF.
        let crlf: Vec<u8> = lf
            .iter()
            .flat_map(|&b| {
                if b == b'\n' {
                    vec![b'\r', b'\n']
                } else {
                    vec![b]
                }
            })
            .collect();
        let (e2, f2, s2) = every_stage(&format!("{lang} crlf"), lang, &crlf);
        assert_eq!((e2, f2, s2), (errors, funcs, stubs), "{lang} crlf");
        let sk =
            skeletonize_source(lang, crlf.clone(), &[Selector::All], &Options::default()).unwrap();
        let lfs = sk.text.iter().filter(|&&b| b == b'\n').count();
        let crlfs = sk.text.windows(2).filter(|w| w == b"\r\n").count();
        assert_eq!(lfs, crlfs, "{lang}: bare LF in a CRLF skeleton");
        // Tabs: leading spaces become tabs; the stubs are indented with tabs.
        let text = String::from_utf8_lossy(&lf).into_owned();
        let tabs: String = text
            .split_inclusive('\n')
            .map(|l| {
                let n = l.len() - l.trim_start_matches(' ').len();
                format!("{}{}", "\t".repeat(n / 2), &l[n - n % 2..])
            })
            .collect();
        let sk =
            skeletonize_source(lang, tabs.clone(), &[Selector::All], &Options::default()).unwrap();
        for line in String::from_utf8_lossy(&sk.text).lines() {
            assert!(
                !line.starts_with(' '),
                "{lang}: space indentation in {line:?}"
            );
        }
        every_stage(&format!("{lang} tabs"), lang, tabs.as_bytes());
    }
}

#[test]
fn ten_megabyte_files() {
    // About 2,000 copies of the small program, each with a 5 KB comment
    // line: a 10 MB file with thousands of functions that a debug build
    // still goes through in seconds.
    let comment = "x".repeat(5000);
    for lang in LANGS {
        let one = String::from_utf8(program(lang, b"x", comment.as_bytes())).unwrap();
        // Strip the PHP open tag of the repeated part.
        let (head, unit) = match lang {
            Lang::Php => ("<?php\n", one.trim_start_matches("<?php\n").to_string()),
            _ => ("", one),
        };
        let body = repeated(10 * 1024 * 1024 / unit.len() + 1, "\n", |i| {
            unit.replace("f(", &format!("f{i}("))
                .replace("class A", &format!("class A{i}"))
                .replace("A()", &format!("A{i}()"))
                .replace("g(", &format!("g{i}("))
        });
        let src = format!("{head}{body}");
        assert!(src.len() >= 10 * 1024 * 1024);
        let t = std::time::Instant::now();
        let (errors, funcs, stubs) = every_stage(&format!("{lang} 10MB"), lang, src.as_bytes());
        println!(
            "{lang}: {} bytes, {errors} errors, {funcs} functions, {stubs} stubs in {:?}",
            src.len(),
            t.elapsed()
        );
        assert_eq!(errors, 0, "{lang}");
        assert!(stubs > 4_000, "{lang}: {stubs}");
    }
}

#[test]
fn unterminated_strings_and_comments() {
    let cases: &[(Lang, &str)] = &[
        (
            Lang::Java,
            "class A {\n  String f() { return \"abc; }\n  int g() { return 1; }\n}\n",
        ),
        (
            Lang::Java,
            "class A {\n  int g() { return 1; }\n  /* never closed\n  int h() { return 2; }\n",
        ),
        (
            Lang::Java,
            "class A {\n  String t() { return \"\"\"\n    text block never closed\n  }\n}\n",
        ),
        (
            Lang::C,
            "int f(void) { return \"abc; }\nint g(void) { return 1; }\n",
        ),
        (
            Lang::C,
            "int g(void) { return 1; }\n/* never closed\nint h(void) { return 2; }\n",
        ),
        (
            Lang::C,
            "int g(void) { return 1; }\nint h(void) { char c = 'x; return c; }\n",
        ),
        (
            Lang::Cpp,
            "auto s = R\"delim(raw never closed\nint g() { return 1; }\n",
        ),
        (
            Lang::Cpp,
            "struct A {\n  int g() { return 1; }\n  int h() { /* open\n};\n",
        ),
        (Lang::Ruby, "def f\n  \"abc\nend\ndef g; 1; end\n"),
        (
            Lang::Ruby,
            "def g; 1; end\n=begin\nnever closed\ndef h; 2; end\n",
        ),
        (
            Lang::Ruby,
            "def f\n  x = <<~EOS\n    heredoc never closed\nend\n",
        ),
        (Lang::Ruby, "def f\n  %w[a b\nend\n"),
        (
            Lang::Php,
            "<?php\nfunction f() { return 'abc; }\nfunction g() { return 1; }\n",
        ),
        (
            Lang::Php,
            "<?php\nfunction g() { return 1; }\n/* never closed\nfunction h() { return 2; }\n",
        ),
        (
            Lang::Php,
            "<?php\nfunction f() {\n  $x = <<<EOT\n  never closed\n}\n",
        ),
    ];
    for (i, (lang, src)) in cases.iter().enumerate() {
        let (errors, funcs, stubs) =
            every_stage(&format!("unterminated {i}"), *lang, src.as_bytes());
        println!("unterminated {i} ({lang}): {errors} errors, {funcs} functions, {stubs} stubs");
    }
}

#[test]
fn c_preprocessor_mazes() {
    // Function headers split across #if branches, bodies closed in one
    // branch only, deep #if nests, and macros that look like functions.
    let split = "#if A\nint f(int x) {\n#else\nint f(long x) {\n#endif\n  return x;\n}\n\nint g(void) { return 1; }\n";
    let branches = "#ifdef WIN32\nint umain(int argc, wchar_t **argv) {\n#else\nint main(int argc, char **argv) {\n#endif\n  return 0;\n}\n";
    let both = "#if A\nint f(void) { return 1; }\n#elif B\nint f(void) { return 2; }\n#else\nint f(void) { return 3; }\n#endif\n";
    let close_in_branch =
        "int f(int x) {\n  if (x) {\n#if A\n  }\n#else\n  }\n#endif\n  return x;\n}\n";
    let deep_if = nested(
        DEPTH,
        |i| format!("#if D{i}\nint f{i}(void) {{ return {i}; }}"),
        "int leaf(void) { return 0; }",
        "#endif",
    );
    let macros = "#define F(x) int x(void) { return 0; }\nF(a)\nDEFINE_FUN(b, c);\nMACRO int h(void) { return 1; }\nstruct API s { int x; };\n";
    for (label, src) in [
        ("split header", split.to_string()),
        ("main/umain", branches.to_string()),
        ("elif chain", both.to_string()),
        ("close in branch", close_in_branch.to_string()),
        ("10,000 #if", deep_if),
        ("macros", macros.to_string()),
    ] {
        for lang in [Lang::C, Lang::Cpp] {
            let (errors, funcs, stubs) =
                every_stage(&format!("{lang} {label}"), lang, src.as_bytes());
            println!("{lang} {label}: {errors} errors, {funcs} functions, {stubs} stubs");
        }
    }
    // The three `f` of the #if/#elif/#else chain are three functions.
    let sk = skeletonize_source(Lang::C, both, &[Selector::All], &Options::default()).unwrap();
    assert_eq!(sk.edits.len(), 3);
    // `struct API s { ... };` is not a function, whatever error recovery
    // reads: its members survive.
    let sk = skeletonize_source(
        Lang::Cpp,
        "struct FMT_API pipe {\n  file read_end;\n  pipe();\n};\n",
        &[Selector::All],
        &Options::default(),
    )
    .unwrap();
    assert!(sk.edits.is_empty(), "{:?}", sk.edits);
}

#[test]
fn heredocs() {
    let ruby = "class A\n  def f\n    <<~EOS\n      end\n      def x; end\n      }\n    EOS\n  end\n\n  def g(a) = <<~T.strip\n    end\n  T\n\n  def h\n    [<<~A, <<~B]\n      one\n    A\n      two\n    B\n  end\nend\n";
    let php = "<?php\nfunction f() {\n    return <<<EOT\n    } function g() { ?> <?php\n    EOT;\n}\nfunction h() {\n    return <<<'NOW'\n}\nNOW;\n}\n";
    for (lang, src) in [(Lang::Ruby, ruby), (Lang::Php, php)] {
        let (errors, funcs, stubs) = every_stage(&format!("{lang} heredoc"), lang, src.as_bytes());
        println!("{lang} heredoc: {errors} errors, {funcs} functions, {stubs} stubs");
        assert_eq!(errors, 0, "{lang}");
        assert!(stubs >= 2, "{lang}: {stubs}");
        let sk = skeletonize_source(lang, src, &[Selector::All], &Options::default()).unwrap();
        let text = String::from_utf8_lossy(&sk.text);
        assert!(!text.contains("one") && !text.contains("NOW;"), "{text}");
    }
}

#[test]
fn php_mostly_html() {
    let page = "<div class=\"row\">{ } <?= 1 ?> function fake() { }</div>\n";
    let mut src = repeated(20_000, "", |_| page.to_string());
    src.push_str("<?php function real($x) { ?>\n<b><?= $x ?></b>\n<?php } ?>\n");
    src.push_str(&repeated(20_000, "", |_| page.to_string()));
    src.push_str("<?php\nfunction last(): void\n{\n    ?>tail<?php\n}\n");
    let (errors, funcs, stubs) = every_stage("php html", Lang::Php, src.as_bytes());
    println!(
        "php mostly HTML ({} bytes): {errors} errors, {funcs} functions, {stubs} stubs",
        src.len()
    );
    assert_eq!((errors, funcs, stubs), (0, 2, 2));
    let sk = skeletonize_source(
        Lang::Php,
        src.clone(),
        &[Selector::All],
        &Options::default(),
    )
    .unwrap();
    // The HTML outside the functions is untouched.
    assert!(sk.text.starts_with(&src.as_bytes()[..page.len() * 20_000]));
}

fn stub_all(lang: Lang, src: String) {
    let sk = skeletonize_source(lang, src, &[Selector::All], &Options::default()).unwrap();
    assert!(!sk.edits.is_empty());
}

#[test]
fn stubbing_is_linear() {
    for lang in LANGS {
        let one = String::from_utf8(program(lang, b"x", b"c")).unwrap();
        let (head, unit) = match lang {
            Lang::Php => ("<?php\n", one.trim_start_matches("<?php\n").to_string()),
            _ => ("", one),
        };
        assert_subquadratic(&format!("stub many {lang} functions"), 200, |n| {
            let body = repeated(n, "\n", |i| {
                unit.replace("f(", &format!("f{i}("))
                    .replace("class A", &format!("class A{i}"))
                    .replace("A()", &format!("A{i}()"))
                    .replace("g(", &format!("g{i}("))
            });
            stub_all(lang, format!("{head}{body}"));
        });
    }
    for lang in LANGS {
        assert_subquadratic(&format!("stub deep {lang} nesting"), 250, |n| {
            let src = match lang {
                Lang::Java => format!(
                    "class A {{\n  int f(int x) {{\n{}  }}\n}}\n",
                    nested(n, |i| format!("if (x > {i}) {{"), "x++;", "}")
                ),
                Lang::C | Lang::Cpp => {
                    nested(n, |i| format!("int f{i}(int a) {{"), "return a;", "}")
                }
                Lang::Ruby => nested(n, |i| format!("def f{i}(a)"), "a", "end"),
                _ => format!(
                    "<?php\n{}",
                    nested(n, |i| format!("function f{i}($a) {{"), "return $a;", "}")
                ),
            };
            stub_all(lang, src);
        });
    }
}
