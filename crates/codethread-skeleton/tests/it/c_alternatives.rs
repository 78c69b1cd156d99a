//! `#if` alternatives of one function (issue 21, item 2): two headers under
//! `#ifdef WIN32 … #else … #endif` and one body are one function, named by
//! the branch a default build compiles, stubbed once so that every branch
//! still compiles. On jq's real `src/main.c` (`fixtures/c/jq_main.c`) and on
//! small cases compiled with the system C compiler in both branches.

use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_lang::{alternative_spans, index_functions, parse_file, Lang, ParseOptions};
use codethread_skeleton::{skeletonize, Options, Selector};

fn parsed(path: &Path, src: &[u8]) -> codethread_lang::ParsedFile {
    parse_file(path, src.to_vec(), &ParseOptions::with_hint(Some(Lang::C))).expect("parse")
}

fn jq_main() -> (PathBuf, Vec<u8>) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/jq_main.c");
    let b = std::fs::read(&p).expect("fixture");
    (p, b)
}

fn line_of(src: &[u8], at: usize) -> usize {
    1 + src[..at].iter().filter(|&&b| b == b'\n').count()
}

#[test]
fn jq_main_is_one_function_named_main_and_stubs_after_the_endif() {
    let (p, src) = jq_main();
    let file = parsed(&p, &src);
    let fns = index_functions(&file);
    let main: Vec<_> = fns.iter().filter(|f| f.qualname == "main").collect();
    assert_eq!(
        main.len(),
        1,
        "{:?}",
        fns.iter().map(|f| &f.qualname).collect::<Vec<_>>()
    );
    // `int main(int argc, char* argv[]) {` is line 275, under `#else`.
    assert_eq!(line_of(&src, main[0].span.start_byte), 275);
    assert!(!fns.iter().any(|f| f.qualname == "umain"));
    // The body reaches the end of `main`, not a recovery fragment.
    assert!(main[0].span.end_byte > src.len() - 200);
    let sk = skeletonize(
        &file,
        &[Selector::Qualname("main".into())],
        &Options::default(),
    )
    .expect("skeleton");
    assert_eq!(sk.edits.len(), 1, "{:?} {:?}", sk.skipped, sk.unmatched);
    let text = &sk.text;
    // Every directive of the group stays, in order, before the stub.
    let s = String::from_utf8_lossy(text);
    let want = "int umain(int argc, char* argv[]) {\n#else /*}*/\nint main(int argc, char* argv[]) {\n#endif\n  __builtin_trap();\n}\n";
    assert!(s.contains(want), "{}", &s[s.len().saturating_sub(600)..]);
    // The groups stay balanced: each `#if…` line has its `#endif`.
    let opens = s.lines().filter(|l| l.starts_with("#if")).count();
    assert_eq!(opens, s.lines().filter(|l| l.starts_with("#endif")).count());
    assert_eq!(opens, 4);
}

#[test]
fn alternatives_keep_the_default_branch() {
    // `#else` is kept; a negated opening keeps the first branch.
    let a = b"#ifdef WIN32\nint a(void) {\n#else\nint b(void) {\n#endif\n  return 1;\n}\n";
    let sp = alternative_spans(Lang::C, a);
    let file = parsed(Path::new("a.c"), a);
    let names: Vec<_> = index_functions(&file)
        .into_iter()
        .map(|f| f.qualname)
        .collect();
    assert_eq!(names, ["b"], "{sp:?}");
    let n = b"#ifndef _WIN32\nint b(void) {\n#elif defined(X)\nint c(void) {\n#else\nint a(void) {\n#endif\n  return 1;\n}\n";
    let file = parsed(Path::new("n.c"), n);
    let names: Vec<_> = index_functions(&file)
        .into_iter()
        .map(|f| f.qualname)
        .collect();
    assert_eq!(names, ["b"]);
    // Balanced branches and a group without `#else` are not alternatives.
    assert!(alternative_spans(
        Lang::C,
        b"#ifdef X\nint a(void) { return 1; }\n#else\nint b(void) { return 2; }\n#endif\n"
    )
    .is_empty());
    assert!(alternative_spans(
        Lang::C,
        b"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint x;\n"
    )
    .is_empty());
    assert!(alternative_spans(Lang::Java, a).is_empty());
}

/// The skeleton compiles with and without the macro (`-DWIN32`).
#[test]
fn stubbed_alternatives_compile_in_every_branch() {
    let Ok(out) = Command::new("cc").arg("--version").output() else {
        eprintln!("SKIP: no C compiler (cc)");
        return;
    };
    assert!(out.status.success());
    let cases: [&[u8]; 2] = [
        b"#include <stdio.h>\n#ifdef WIN32\nint umain(int argc, char **argv);\nint wmain(int argc, char **argv) {\n  return umain(argc, argv);\n}\nint umain(int argc, char **argv) {\n#else /*}*/\nint main(int argc, char **argv) {\n#endif\n  int x = argc;\n  if (x) {\n    printf(\"%s\", argv[0]);\n  }\n  return 0;\n}\n",
        b"#ifndef WIN32\nstatic int f(int a)\n{\n#else\nstatic int g(int a)\n{\n#endif\n  return a + 1;\n}\nint main(void) { return 0; }\n",
    ];
    let dir = std::env::temp_dir().join(format!("ct-calt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmpdir");
    for (i, src) in cases.iter().enumerate() {
        let file = parsed(Path::new("x.c"), src);
        let first = index_functions(&file)
            .into_iter()
            .find(|f| f.qualname != "main" || i == 0)
            .expect("a function");
        let want = if i == 0 { "main" } else { "f" };
        assert_eq!(first.qualname, want);
        let sk = skeletonize(
            &file,
            &[Selector::Qualname(want.into())],
            &Options::default(),
        )
        .expect("skeleton");
        assert_eq!(sk.edits.len(), 1);
        let c = dir.join(format!("case{i}.c"));
        std::fs::write(&c, &sk.text).expect("write");
        for def in [None, Some("-DWIN32")] {
            let mut cmd = Command::new("cc");
            cmd.args(["-fsyntax-only", "-Werror=implicit-function-declaration"]);
            cmd.args(def);
            let o = cmd.arg(&c).output().expect("cc runs");
            assert!(
                o.status.success(),
                "case {i} {def:?}: {}\n{}",
                String::from_utf8_lossy(&o.stderr),
                String::from_utf8_lossy(&sk.text)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `constexpr` function returning `void` gets a stub that is a constant
/// expression (fmt-3248's `FMT_CONSTEXPR void on_zero()`): the skeleton
/// still compiles where the function is evaluated at compile time, and no
/// `constexpr_stub` warning is left; a non-void one keeps the warning.
#[test]
fn constexpr_void_stubs_compile_in_constant_evaluation() {
    let src = "#define MY_CONSTEXPR constexpr\nstruct specs { int fill = 0;\n  MY_CONSTEXPR void on_zero() {\n    fill = 1;\n  }\n  constexpr int width() const {\n    return fill;\n  }\n};\nconstexpr bool check() { specs s; s.on_zero(); return true; }\nstatic_assert(check(), \"\");\nint main() { return specs().width(); }\n";
    let file = parse_file(
        Path::new("s.cc"),
        src.as_bytes().to_vec(),
        &ParseOptions::with_hint(Some(Lang::Cpp)),
    )
    .expect("parse");
    let sk = skeletonize(
        &file,
        &[
            Selector::Qualname("specs.on_zero".into()),
            Selector::Qualname("specs.width".into()),
        ],
        &Options::default(),
    )
    .expect("skeleton");
    assert_eq!(sk.edits.len(), 2, "{:?}", sk.skipped);
    let on_zero = sk
        .edits
        .iter()
        .find(|e| e.function == "specs.on_zero")
        .expect("on_zero");
    assert!(on_zero.warnings.is_empty(), "{:?}", on_zero.warnings);
    assert!(on_zero
        .replacement
        .contains("__builtin_is_constant_evaluated"));
    let width = sk
        .edits
        .iter()
        .find(|e| e.function == "specs.width")
        .expect("width");
    assert!(width
        .warnings
        .contains(&codethread_skeleton::Warning::ConstexprStub));
    if Command::new("g++").arg("--version").output().is_err() {
        eprintln!("SKIP: no g++");
        return;
    }
    let dir = std::env::temp_dir().join(format!("ct-cexpr-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmpdir");
    let c = dir.join("s.cc");
    std::fs::write(&c, &sk.text).expect("write");
    for std in ["-std=c++14", "-std=c++17", "-std=c++20"] {
        let o = Command::new("g++")
            .args(["-fsyntax-only", std])
            .arg(&c)
            .output()
            .expect("g++ runs");
        assert!(
            o.status.success(),
            "{std}: {}\n{}",
            String::from_utf8_lossy(&o.stderr),
            String::from_utf8_lossy(&sk.text)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
