//! Macro-tolerant C/C++ parsing (codethread-lang's masking pass) as the
//! skeleton sees it, on a real fmt excerpt (`fixtures/cpp/`), and the
//! C/C++ helpers for generated files and test-only blocks.

use std::path::{Path, PathBuf};

use codethread_lang::{
    generated_banner, in_test_block, index_functions, macro_mask_spans, mask_macros, parse,
    parse_file, Lang,
};
use codethread_skeleton::{skeletonize, Options, ParseErrorPolicy, Selector, Warning};

fn fixture(name: &str) -> (PathBuf, Vec<u8>) {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/cpp")
        .join(name);
    let b = std::fs::read(&p).expect("fixture");
    (p, b)
}

fn names(src: &[u8], spans: &[(usize, usize)]) -> Vec<String> {
    let mut v: Vec<String> = spans
        .iter()
        .map(|&(s, e)| String::from_utf8_lossy(&src[s..e]).into_owned())
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn fmt_std_path_masks_only_fmt_macros_and_keeps_offsets() {
    let (p, src) = fixture("fmt_std_path.h");
    let spans = macro_mask_spans(Lang::Cpp, &src);
    // The object-like macros of fmt's base.h that stand before
    // declarations; FMT_ASSERT(…) is function-like and stays.
    assert_eq!(
        names(&src, &spans),
        [
            "FMT_BEGIN_NAMESPACE",
            "FMT_CONSTEXPR",
            "FMT_END_NAMESPACE",
            "FMT_EXPORT"
        ]
    );
    let masked = mask_macros(Lang::Cpp, &src).expect("masked");
    assert_eq!(masked.len(), src.len());
    for (i, (a, b)) in src.iter().zip(&masked).enumerate() {
        if a != b {
            assert!(spans.iter().any(|&(s, e)| s <= i && i < e), "byte {i}");
        }
    }
    // Spaces, except FMT_CONSTEXPR, which is written as the keyword it
    // expands to.
    for &(s, e) in &spans {
        let m = &masked[s..e];
        if &src[s..e] == b"FMT_CONSTEXPR" {
            assert_eq!(m, b"constexpr    ");
        } else {
            assert!(
                m.iter().all(|&b| b == b' '),
                "{}",
                String::from_utf8_lossy(m)
            );
        }
    }
    let plain = parse(Lang::Cpp, src.clone()).expect("parse");
    let tolerant = parse_file(
        &p,
        src.clone(),
        &codethread_lang::ParseOptions::with_hint(Some(Lang::Cpp)),
    )
    .expect("parse");
    assert!(
        plain.parse_errors > 0,
        "the plain parse recovers from errors"
    );
    assert!(
        tolerant.parse_errors < plain.parse_errors,
        "{} -> {}",
        plain.parse_errors,
        tolerant.parse_errors
    );
    assert_eq!(tolerant.source, src, "the original bytes are kept");
    let q: Vec<String> = index_functions(&tolerant)
        .into_iter()
        .map(|f| f.qualname)
        .collect();
    for want in [
        "formatter.set_debug_format",
        "formatter.parse",
        "formatter.format",
    ] {
        assert!(q.iter().any(|x| x == want), "{want} in {q:?}");
    }
}

#[test]
fn fmt_members_stub_on_the_tolerant_parse_and_deduced_returns_warn() {
    let (p, src) = fixture("fmt_std_path.h");
    let file = parse_file(
        &p,
        src.clone(),
        &codethread_lang::ParseOptions::with_hint(Some(Lang::Cpp)),
    )
    .expect("parse");
    let opts = Options::default().on_parse_errors(ParseErrorPolicy::SkipAffected);
    let sel = [
        Selector::Qualname("formatter.set_debug_format".into()),
        Selector::Qualname("formatter.parse".into()),
    ];
    let sk = skeletonize(&file, &sel, &opts).expect("skeleton");
    assert!(sk.skipped.is_empty(), "{:?}", sk.skipped);
    assert_eq!(sk.edits.len(), 2, "{:?}", sk.edits);
    // `FMT_CONSTEXPR auto parse(…)` deduces its type: its stub would be
    // void, and breaks the build; `void set_debug_format` does not.
    let parse_edit = sk
        .edits
        .iter()
        .find(|e| e.function == "formatter.parse")
        .expect("parse");
    assert!(parse_edit.warnings.iter().any(|w| w.breaks_build()));
    let set = sk
        .edits
        .iter()
        .find(|e| e.function == "formatter.set_debug_format")
        .expect("set");
    assert!(!set.warnings.iter().any(|w| w.breaks_build()));
    // FMT_CONSTEXPR is `constexpr` in C++14 and later (the mask writes it
    // as the keyword): a `void` one gets the stub that is a constant
    // expression, and no `constexpr_stub` warning.
    assert!(
        !set.warnings.contains(&Warning::ConstexprStub),
        "{:?}",
        set.warnings
    );
    assert!(set
        .replacement
        .contains("__builtin_is_constant_evaluated()"));
    // The skeleton is the original with the bodies replaced: the macros are
    // still there.
    let text = String::from_utf8_lossy(&sk.text);
    assert!(text.contains("FMT_BEGIN_NAMESPACE\n"));
    assert!(text.contains("template <typename ParseContext> FMT_CONSTEXPR auto parse("));
}

#[test]
fn macro_shapes_that_are_types_or_values_are_kept() {
    let src = b"MY_TYPE make_one(void) { return 0; }\n\
SIZE_T count;\n\
enum e { FIRST_ONE,\n  LAST_ONE\n};\n\
int g(void) { return LAST_ONE; }\n\
static MY_API int h(void) { return 1; }\n\
#define MY_EMPTY\n\
MY_EMPTY int k(void) { return 2; }\n";
    let spans = macro_mask_spans(Lang::C, src);
    assert_eq!(names(src, &spans), ["MY_API", "MY_EMPTY"]);
    // A name the file defines as a value is never masked.
    let src2 = b"#define MY_API 3\nstatic MY_API int h(void) { return 1; }\n";
    assert!(macro_mask_spans(Lang::C, src2).is_empty());
    // Other languages have no macro rules.
    assert!(macro_mask_spans(Lang::Java, b"FOO_BAR int x;").is_empty());
}

#[test]
fn test_only_blocks_and_generated_banners() {
    // The shape of redis src/util.c: test helpers under `#ifdef REDIS_TEST`.
    let src = b"int keep(void) { return 0; }\n\
#ifdef REDIS_TEST\n\
static void test_fixedpoint_d2string(void) { }\n\
#endif\n\
#ifndef NO_TESTS\n\
int also_kept(void) { return 1; }\n\
#else\n\
int neither(void) { return 2; }\n\
#endif\n";
    let at = |needle: &[u8]| {
        src.windows(needle.len())
            .position(|w| w == needle)
            .expect("in")
    };
    assert!(!in_test_block(src, at(b"int keep")));
    assert!(in_test_block(src, at(b"static void test_")));
    assert!(!in_test_block(src, at(b"int also_kept")));
    assert!(!in_test_block(src, at(b"int neither")));
    // Bison's and flex's banners (first lines of jq's src/parser.c and
    // src/lexer.c).
    assert_eq!(
        generated_banner(b"/* A Bison parser, made by GNU Bison 3.8.2.  */\n").map(|g| g.1),
        Some("bison")
    );
    assert_eq!(
        generated_banner(b"#line 2 \"src/lexer.c\"\n\n/* A lexical scanner generated by flex */\n")
            .map(|g| g.1),
        Some("flex")
    );
    assert_eq!(generated_banner(b"int main(void) { return 0; }\n"), None);
}
