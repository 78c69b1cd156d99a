//! Property tests on generated programs: random mixes of functions, methods,
//! nested functions, decorators / attributes, one-line and multi-line bodies,
//! opener-line comments, docstrings, generators, async, tabs or spaces, LF or
//! CRLF. For every program: the skeleton parses with no new error, splicing
//! the originals back restores it, a second run is a no-op, bytes outside the
//! edits are unchanged and every header line survives. Python programs are
//! also compiled with `python3` in one batch (skipped visibly when absent).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Mutex;

use codethread_lang::{parse, Lang};
use codethread_skeleton::{restore, skeletonize, Options, Selector};
use proptest::prelude::*;

/// Deterministic choices drawn from proptest bytes.
struct Ch<'a> {
    bytes: &'a [u8],
    i: usize,
}

impl Ch<'_> {
    fn pick(&mut self, n: usize) -> usize {
        let b = self.bytes.get(self.i).copied().unwrap_or(0);
        self.i += 1;
        b as usize % n.max(1)
    }
    fn flip(&mut self) -> bool {
        self.pick(2) == 1
    }
}

struct Style {
    eol: &'static str,
    unit: &'static str,
}

fn py_body(c: &mut Ch<'_>, s: &Style, ind: &str, depth: usize, out: &mut String, n: &mut usize) {
    let inner = format!("{ind}{}", s.unit);
    let eol = s.eol;
    if c.pick(4) == 0 {
        let stmt = [
            "return 1",
            "yield x",
            "pass",
            "\"doc\"; return 2",
            "x = 1; return x",
        ][c.pick(5)];
        out.push_str(&format!(" {stmt}"));
        if c.flip() {
            out.push_str("  # trailing");
        }
        out.push_str(eol);
        return;
    }
    if c.flip() {
        out.push_str("  # opener comment");
    }
    out.push_str(eol);
    if c.flip() {
        out.push_str(&format!(
            "{inner}\"\"\"Docstring{eol}{inner}more.\"\"\"{eol}"
        ));
    }
    if c.flip() {
        out.push_str(&format!("{inner}# leading comment{eol}"));
    }
    let k = 1 + c.pick(3);
    for _ in 0..k {
        match c.pick(7) {
            0 => out.push_str(&format!("{inner}yield x{eol}")),
            1 if depth < 2 => py_function(c, s, &inner, depth + 1, out, n),
            2 => out.push_str(&format!(
                "{inner}if x:{eol}{inner}{}return (yield){eol}",
                s.unit
            )),
            3 => out.push_str(&format!("{inner}f = lambda: (yield){eol}")),
            4 => out.push_str(&format!("{inner}s = '''a{eol}b'''{eol}")),
            _ => out.push_str(&format!("{inner}x = [i for i in y]{eol}")),
        }
    }
    match c.pick(4) {
        0 => out.push_str(&format!("{inner}# trailing body comment{eol}")),
        1 => out.push_str(&format!("# dedented comment{eol}")),
        _ => {}
    }
}

fn py_function(
    c: &mut Ch<'_>,
    s: &Style,
    ind: &str,
    depth: usize,
    out: &mut String,
    n: &mut usize,
) {
    *n += 1;
    for _ in 0..c.pick(3) {
        out.push_str(&format!(
            "{ind}@{}{}",
            ["dec", "functools.wraps(f)", "property"][c.pick(3)],
            s.eol
        ));
    }
    let asy = if c.pick(3) == 0 { "async " } else { "" };
    let ret = if c.flip() { " -> int" } else { "" };
    out.push_str(&format!("{ind}{asy}def f{}(a, b=(1, 2)){ret}:", *n));
    py_body(c, s, ind, depth, out, n);
}

fn gen_python(c: &mut Ch<'_>, s: &Style) -> String {
    let mut out = String::from("import functools");
    out.push_str(s.eol);
    let mut n = 0;
    for _ in 0..1 + c.pick(4) {
        match c.pick(3) {
            0 => {
                out.push_str(&format!("class C{n}(Base):{}", s.eol));
                if c.flip() {
                    out.push_str(&format!("{}\"\"\"Class doc.\"\"\"{}", s.unit, s.eol));
                }
                for _ in 0..1 + c.pick(3) {
                    py_function(c, s, s.unit, 0, &mut out, &mut n);
                }
            }
            _ => py_function(c, s, "", 0, &mut out, &mut n),
        }
        out.push_str(s.eol);
    }
    out
}

fn brace_body(c: &mut Ch<'_>, s: &Style, ind: &str, lang: Lang, out: &mut String) {
    let inner = format!("{ind}{}", s.unit);
    let eol = s.eol;
    let stmt = match lang {
        Lang::Go => "x := 1",
        Lang::Rust => "let x = 1;",
        _ => "const x = 1;",
    };
    match c.pick(4) {
        0 => out.push_str(&format!("{{ {stmt} }}")),
        1 => out.push_str("{}"),
        _ => {
            out.push('{');
            if c.flip() {
                out.push_str(" // opener comment");
            }
            out.push_str(eol);
            if c.flip() {
                out.push_str(&format!("{inner}/* block comment */{eol}"));
            }
            for _ in 0..1 + c.pick(3) {
                match (lang, c.pick(4)) {
                    (Lang::Go, 0) => out.push_str(&format!("{inner}f := func() {{{eol}{inner}{}return{eol}{inner}}}{eol}", s.unit)),
                    (Lang::Rust, 0) => out.push_str(&format!("{inner}let f = |a: u32| {{ a + 1 }};{eol}{inner}fn inner() {{}}{eol}")),
                    (Lang::Rust, 1) => out.push_str(&format!("{inner}let s = \"a{{{eol}}}b\";{eol}")),
                    (Lang::JavaScript | Lang::TypeScript, 0) => out.push_str(&format!("{inner}const g = (a) => a + 1;{eol}{inner}function inner() {{ return 2; }}{eol}")),
                    (Lang::JavaScript | Lang::TypeScript, 1) => out.push_str(&format!("{inner}const t = `a{{{eol}}}${{x}}`;{eol}")),
                    _ => out.push_str(&format!("{inner}{stmt}{eol}")),
                }
            }
            if c.flip() {
                out.push_str(&format!("{inner}// trailing{eol}"));
            }
            out.push_str(&format!("{ind}}}"));
        }
    }
}

fn gen_brace(c: &mut Ch<'_>, s: &Style, lang: Lang) -> String {
    let eol = s.eol;
    let unit = s.unit;
    let mut out = String::new();
    if lang == Lang::Go {
        out.push_str(&format!("package p{eol}{eol}"));
    }
    for k in 0..1 + c.pick(4) {
        if c.flip() {
            out.push_str(&format!("// Doc comment.{eol}"));
        }
        match (lang, c.pick(4)) {
            (Lang::Go, 0) => out.push_str(&format!("func (s *S) M{k}(a int) (int, error) ")),
            (Lang::Go, 1) => {
                out.push_str(&format!("func asm{k}(a int) int{eol}{eol}"));
                continue;
            }
            (Lang::Go, _) => out.push_str(&format!("func F{k}[T any](a T) ")),
            (Lang::Rust, 0) => {
                out.push_str(&format!(
                    "impl<T> S<T> {{{eol}{unit}#[inline]{eol}{unit}pub fn m{k}(&self) -> u32 "
                ));
                brace_body(c, s, unit, lang, &mut out);
                out.push_str(&format!("{eol}}}{eol}{eol}"));
                continue;
            }
            (Lang::Rust, 1) => {
                out.push_str(&format!(
                    "trait T{k} {{{eol}{unit}fn sig(&self);{eol}{unit}fn dflt(&self) "
                ));
                brace_body(c, s, unit, lang, &mut out);
                out.push_str(&format!("{eol}}}{eol}{eol}"));
                continue;
            }
            (Lang::Rust, 2) => out.push_str(&format!(
                "#[cfg(test)]{eol}async fn f{k}<'a>(x: &'a str) -> impl Iterator<Item = u8> "
            )),
            (Lang::Rust, _) => out.push_str(&format!("pub(crate) const fn f{k}() ")),
            (_, 0) => {
                out.push_str(&format!(
                    "class C{k} extends B {{{eol}{unit}constructor(a) "
                ));
                brace_body(c, s, unit, lang, &mut out);
                out.push_str(&format!("{eol}{unit}async *gen() "));
                brace_body(c, s, unit, lang, &mut out);
                out.push_str(&format!("{eol}{unit}get v() "));
                brace_body(c, s, unit, lang, &mut out);
                out.push_str(&format!("{eol}}}{eol}{eol}"));
                continue;
            }
            (_, 1) => {
                out.push_str(&format!(
                    "export const a{k} = async (x) => x * 2;{eol}{eol}"
                ));
                continue;
            }
            (_, 2) => out.push_str(&format!(
                "const o{k} = {{ m() {{ return 1; }}, n: function () "
            )),
            (_, _) => out.push_str(&format!("function* g{k}(a, b = () => 1) ")),
        }
        brace_body(c, s, "", lang, &mut out);
        if lang.is_js_family() && out.contains(&format!("const o{k} = ")) {
            out.push_str(" };");
        }
        out.push_str(eol);
        out.push_str(eol);
    }
    out
}

static PY_SKELETONS: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn check(lang: Lang, src: &str, keep_docs: bool) -> Result<(), TestCaseError> {
    let file = parse(lang, src).unwrap();
    prop_assert_eq!(
        file.parse_errors,
        0,
        "generated program does not parse:\n{}",
        src
    );
    let opts = Options::default().keep_docs(keep_docs);
    let sk = skeletonize(&file, &[Selector::All], &opts)
        .map_err(|e| TestCaseError::fail(format!("{e}\n{src}")))?;
    let restored = restore(&sk.text, &sk.edits, src.as_bytes()).unwrap();
    prop_assert_eq!(restored, src.as_bytes().to_vec());
    let re = parse(lang, sk.text.clone()).unwrap();
    prop_assert_eq!(re.parse_errors, 0);
    let again = skeletonize(&re, &[Selector::All], &opts).unwrap();
    prop_assert!(
        again.edits.is_empty(),
        "second run edited {:?}",
        again.edits
    );
    // Bytes outside edits, and no edit splits a CRLF.
    let (mut o, mut s) = (0usize, 0usize);
    for e in &sk.edits {
        prop_assert_eq!(
            &sk.text[s..s + e.start_byte - o],
            &src.as_bytes()[o..e.start_byte]
        );
        s += e.start_byte - o + e.replacement.len();
        o = e.end_byte;
        for b in [e.start_byte, e.end_byte] {
            prop_assert!(
                !(b > 0 && src.as_bytes().get(b) == Some(&b'\n') && src.as_bytes()[b - 1] == b'\r')
            );
        }
        if src.contains("\r\n") {
            prop_assert!(
                !e.replacement.replace("\r\n", "").contains('\n'),
                "bare LF in a CRLF file"
            );
        }
        if src.contains("\n\t") && !src.contains("\n ") {
            prop_assert!(
                !e.replacement.contains("\n "),
                "spaces in a tab-indented file"
            );
        }
    }
    prop_assert_eq!(&sk.text[s..], &src.as_bytes()[o..]);
    // Every top-level decorator / attribute / doc comment / class line
    // survives (nested ones go with their enclosing target).
    let text = String::from_utf8(sk.text.clone()).unwrap();
    for line in src.lines() {
        let t = line.trim_end();
        if t.starts_with('@')
            || t.starts_with("#[")
            || t.starts_with("// Doc")
            || t.starts_with("class ")
        {
            prop_assert!(text.contains(line), "lost line {:?}", line);
        }
    }
    if lang == Lang::Python {
        PY_SKELETONS.lock().unwrap().push(text);
    }
    Ok(())
}

fn style(eol: bool, unit: usize) -> Style {
    Style {
        eol: if eol { "\r\n" } else { "\n" },
        unit: ["    ", "\t", "  "][unit % 3],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn python_programs(bytes in prop::collection::vec(any::<u8>(), 0..120), crlf: bool, unit in 0usize..3, keep: bool) {
        let s = style(crlf, unit);
        let src = gen_python(&mut Ch { bytes: &bytes, i: 0 }, &s);
        check(Lang::Python, &src, keep)?;
    }

    #[test]
    fn go_programs(bytes in prop::collection::vec(any::<u8>(), 0..80), crlf: bool, unit in 0usize..3) {
        let s = style(crlf, unit);
        check(Lang::Go, &gen_brace(&mut Ch { bytes: &bytes, i: 0 }, &s, Lang::Go), false)?;
    }

    #[test]
    fn rust_programs(bytes in prop::collection::vec(any::<u8>(), 0..80), crlf: bool, unit in 0usize..3) {
        let s = style(crlf, unit);
        check(Lang::Rust, &gen_brace(&mut Ch { bytes: &bytes, i: 0 }, &s, Lang::Rust), false)?;
    }

    #[test]
    fn js_programs(bytes in prop::collection::vec(any::<u8>(), 0..80), crlf: bool, unit in 0usize..3, ts: bool) {
        let s = style(crlf, unit);
        let lang = if ts { Lang::TypeScript } else { Lang::JavaScript };
        check(lang, &gen_brace(&mut Ch { bytes: &bytes, i: 0 }, &s, lang), false)?;
    }
}

/// Compile the generated Python skeletons (and their originals' validity is
/// implied by a clean tree-sitter parse) with CPython in one process.
#[test]
fn python_generated_skeletons_compile() {
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        println!("SKIPPED: python3 is not on this machine");
        return;
    }
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 400,
        ..ProptestConfig::default()
    });
    let strat = (
        prop::collection::vec(any::<u8>(), 0..120),
        any::<bool>(),
        0usize..3,
        any::<bool>(),
    );
    let pairs = Mutex::new(Vec::new());
    runner
        .run(&strat, |(bytes, crlf, unit, keep)| {
            let s = style(crlf, unit);
            let src = gen_python(
                &mut Ch {
                    bytes: &bytes,
                    i: 0,
                },
                &s,
            );
            let file = parse(Lang::Python, src.as_str()).unwrap();
            let opts = Options::default().keep_docs(keep);
            let sk = skeletonize(&file, &[Selector::All], &opts).unwrap();
            pairs
                .lock()
                .unwrap()
                .push((src, String::from_utf8(sk.text).unwrap()));
            Ok(())
        })
        .unwrap();
    let payload = serde_json::to_string(&*pairs.lock().unwrap()).unwrap();
    let script = r#"
import json, sys, ast
pairs = json.load(sys.stdin)
bad = 0
for o, s in pairs:
    try:
        compile(o, "orig", "exec")
    except SyntaxError:
        continue
    try:
        compile(s, "skel", "exec")
    except SyntaxError as e:
        bad += 1
        print("FAIL", e, repr(s)[:400])
print(len(pairs), "generated", bad, "bad")
sys.exit(1 if bad else 0)
"#;
    let mut child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}");
    assert!(out.status.success(), "{text}");
}
