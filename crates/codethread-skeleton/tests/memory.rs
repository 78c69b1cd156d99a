//! Peak memory of a skeleton of a large file (issue 19: memory bounded by
//! the input). Above the chunk threshold ([`Options::chunks`]) the file is
//! parsed, planned and its skeleton re-parsed one chunk of whole top-level
//! units at a time: a file of many small functions (C at 0.40 and 0.62
//! estimated tokens per byte, Python, Go), every function stubbed, costs at
//! most 20x its size at peak, where a whole-file tree alone costs 80-160x.
//! The chunked skeleton is the whole-file one, byte for byte.
//!
//! Each measurement runs in a child process (this test binary, re-run on
//! the `child` test with `CODETHREAD_MEM_CHILD` set), which reports the
//! growth of its peak RSS (`VmHWM`) over its RSS once the source exists.
//! Debug build; Linux (`/proc/self/status`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::{ChunkOptions, Lang};
use codethread_skeleton::{skeletonize_path, skeletonize_source, Options, Selector};
use codethread_testkit::{file_shapes, peak_rss};

/// Size of the shapes: above [`CHUNKED`]'s threshold, many chunks.
const LARGE: usize = 600_000;

/// The chunk options of the shapes (the defaults, scaled down with the
/// input so that a debug build measures them in seconds: 1 MB and 16 KiB
/// by default).
const CHUNKED: ChunkOptions = ChunkOptions::DEFAULT
    .min_file_bytes(100_000)
    .chunk_bytes(8 * 1024)
    .max_unit_tokens(50_000);

/// Many small functions of one shape, `size` bytes; their count. Besides
/// files of top-level functions, the shapes of issue 31
/// ([`file_shapes::ISSUE31`]: PHP, minified lines, files of one unit).
fn many_functions(shape: &str, size: usize) -> (Lang, &'static str, String, usize) {
    if file_shapes::ISSUE31.contains(&shape) {
        let f = file_shapes::file(shape, size, |n| n);
        return (
            Lang::from_path(f.name).unwrap(),
            f.name,
            f.text,
            f.functions,
        );
    }
    let (lang, path, head): (Lang, &str, &str) = match shape {
        "c40" | "c62" => (Lang::C, "x.c", "static int used(int a) { return a; }\n"),
        "py" => (Lang::Python, "x.py", "\"\"\"Module.\"\"\"\n"),
        "go" => (Lang::Go, "x.go", "package p\n\nimport \"strings\"\n\n"),
        "rb" => (Lang::Ruby, "x.rb", ""),
        other => panic!("unknown shape {other}"),
    };
    let mut s = String::from(head);
    let mut n = usize::from(shape.starts_with('c'));
    while s.len() < size {
        let f = match shape {
            "c40" => format!(
                "int f{n}(int a, int b) {{ int x = a + b * {n}; if (x > b) return x - a; return used(b); }}\n"
            ),
            "c62" => format!(
                "int g{n}(int a,int b){{int x=a+b*{};if(x>b)x=x-a;else x=b-x;return x*(a-b);}}\n",
                n % 97
            ),
            "py" => format!(
                "def f{n}(a, b):\n    \"\"\"Doc.\"\"\"\n    x = a + b * {n}\n    if x > b:\n        return x - a\n    return b\n\n"
            ),
            "rb" => format!(
                "def f{n}(a, b)\n  x = <<~T.strip\n    text {n}\n  T\n  a + b\nend\n\n"
            ),
            _ => format!(
                "func f{n}(a string, b int) int {{\n\tx := len(strings.TrimSpace(a)) + b*{n}\n\tif x > b {{\n\t\treturn x - b\n\t}}\n\treturn b\n}}\n\n"
            ),
        };
        s.push_str(&f);
        n += 1;
    }
    (lang, path, s, n)
}

fn options(chunks: ChunkOptions) -> Options {
    Options::default().chunks(chunks)
}

/// The measurement itself, in the child: `shape:mode`.
#[test]
fn child() {
    let Some(spec) = peak_rss::child_spec() else {
        return;
    };
    let (shape, mode) = spec.split_once(':').unwrap();
    let (lang, _, src, n) = many_functions(shape, LARGE);
    let chunks = match mode {
        "chunked" => CHUNKED,
        _ => ChunkOptions::NEVER,
    };
    let len = src.len();
    let before = peak_rss::rss_kb();
    let sk =
        skeletonize_source(lang, src.into_bytes(), &[Selector::All], &options(chunks)).unwrap();
    assert_eq!(sk.edits.len(), n, "{spec}: {:?}", sk.skipped.first());
    assert_eq!(sk.parse_errors, 0, "{spec}");
    peak_rss::report(before, len);
}

#[test]
fn chunked_skeleton_peak_memory_is_at_most_20x_the_input() {
    if !peak_rss::available() {
        return;
    }
    let mut failures = Vec::new();
    for shape in ["c40", "c62", "py", "go"]
        .into_iter()
        .chain(file_shapes::ISSUE31)
    {
        let (peak, input) = peak_rss::measure(&format!("{shape}:chunked"));
        let ratio = peak / input;
        println!(
            "{shape}: input {input} B, chunked peak growth {:.1} MB ({ratio:.1}x)",
            peak / 1e6
        );
        if ratio > 20.0 {
            failures.push(format!("{shape}: {ratio:.1}x the input"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The whole-file skeleton (the parent commit's only mode) of the same
/// shapes costs several times more: the bound above is the chunking's,
/// not the shapes' (a test that could not fail otherwise).
#[test]
fn whole_file_skeleton_peak_memory_is_the_tree() {
    if !peak_rss::available() {
        return;
    }
    let (peak, input) = peak_rss::measure("c62:whole");
    let ratio = peak / input;
    println!("c62 whole: {ratio:.1}x");
    assert!(ratio > 40.0, "{ratio:.1}x");
}

#[test]
fn chunked_skeleton_is_the_whole_file_skeleton() {
    for shape in ["c40", "c62", "py", "go", "rb"]
        .into_iter()
        .chain(file_shapes::ISSUE31)
    {
        let (lang, path, src, n) = many_functions(shape, 200_000);
        for selectors in [vec![Selector::All], vec![Selector::Qualname("f7".into())]] {
            let whole =
                skeletonize_source(lang, src.clone(), &selectors, &options(ChunkOptions::NEVER))
                    .unwrap();
            let chunked =
                skeletonize_source(lang, src.clone(), &selectors, &options(CHUNKED)).unwrap();
            assert_eq!(whole, chunked, "{shape} {selectors:?}");
            let by_path = skeletonize_path(
                std::path::Path::new(path),
                src.clone(),
                &selectors,
                &options(CHUNKED),
            )
            .unwrap();
            assert_eq!(whole, by_path, "{shape} {selectors:?} by path");
            if matches!(selectors[0], Selector::All) {
                assert_eq!(whole.edits.len(), n, "{shape}");
            }
        }
    }
}
