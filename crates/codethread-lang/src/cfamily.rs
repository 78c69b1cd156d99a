//! C or C++ for a `.h` file, by evidence.
//!
//! Two levels, the tree first:
//! - [`c_family_hint`]: a header is compiled in the language of the sources
//!   that include it, so in a tree with C sources and no C++ source every
//!   header is C, whatever words its parameters use (`const char *template`,
//!   `const char *typename`); in a tree of mostly C++ sources every header is
//!   C++; [`headers_hint`] for a tree of headers only.
//! - [`looks_like_cpp`]: otherwise one header decides by constructs that only
//!   C++ has, anchored the way GitHub linguist's `.h` heuristic anchors them
//!   (its `cpp` named pattern), read outside comments, strings and character
//!   literals, so a C identifier named `class` or `template` never fires.
//!
//! ```
//! use codethread_lang::{c_family_hint, looks_like_cpp, Lang};
//! assert!(!looks_like_cpp(b"sds sdscatfmt(sds s, const char *template, ...);"));
//! assert!(looks_like_cpp(b"namespace fmt {\nclass buffer;\n}"));
//! assert_eq!(c_family_hint(["src/sds.c", "src/sds.h"]), Some(Lang::C));
//! assert_eq!(c_family_hint(["src/a.c", "src/b.c", "fuzz/f.cpp"]), None);
//! assert_eq!(c_family_hint(["src/a.cc", "include/a.h"]), Some(Lang::Cpp));
//! ```

use std::path::Path;

use crate::Lang;

/// The standard headers whose `#include <...>` marks C++ (linguist's list).
const CPP_HEADERS: &[&[u8]] = &[
    b"cstdint",
    b"string",
    b"vector",
    b"map",
    b"list",
    b"array",
    b"bitset",
    b"queue",
    b"stack",
    b"forward_list",
    b"unordered_map",
    b"unordered_set",
    b"iostream",
    b"istream",
    b"ostream",
];

/// `source` with comments, string and character literals blanked to spaces
/// (newlines kept), so that line-anchored rules see only code. The text of an
/// `#include <...>` is kept: it is not a literal.
fn code_only(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut i = 0;
    while i < src.len() {
        match src[i] {
            b'/' if src.get(i + 1) == Some(&b'/') => {
                while i < src.len() && src[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                let start = i;
                i += 2;
                while i < src.len() && !(src[i] == b'*' && src.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                let end = (i + 2).min(src.len());
                for c in &mut out[start..end] {
                    if *c != b'\n' {
                        *c = b' ';
                    }
                }
                i = end;
            }
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < src.len() && src[i] != q && src[i] != b'\n' {
                    if src[i] == b'\\' && i + 1 < src.len() && src[i + 1] != b'\n' {
                        out[i] = b' ';
                        i += 1;
                    }
                    out[i] = b' ';
                    i += 1;
                }
                i += 1;
            }
            _ => i += 1,
        }
    }
    out
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `line` after leading blanks (`[ \t]*`).
fn trim_start(line: &[u8]) -> &[u8] {
    let n = line
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    &line[n..]
}

/// `rest` starts with the whole word `word`; returns what follows.
fn word<'a>(rest: &'a [u8], word: &[u8]) -> Option<&'a [u8]> {
    let after = rest.strip_prefix(word)?;
    (!after.first().is_some_and(|&b| is_word(b))).then_some(after)
}

fn blanks(rest: &[u8]) -> &[u8] {
    let n = rest.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &rest[n..]
}

/// One line's C++-only construct, if any (linguist's anchors, tightened to
/// whole words).
fn cpp_line(line: &[u8]) -> bool {
    let l = trim_start(line);
    let l_end = {
        let mut e = l;
        while let [rest @ .., b' ' | b'\t' | b'\r'] = e {
            e = rest;
        }
        e
    };
    // #include <vector> and the other C++ standard headers
    if let Some(rest) = l.strip_prefix(b"#") {
        let rest = trim_start(rest);
        if let Some(rest) = word(rest, b"include") {
            let rest = trim_start(rest);
            if let Some(name) = rest.strip_prefix(b"<") {
                let end = name.iter().position(|&b| b == b'>').unwrap_or(name.len());
                return CPP_HEADERS.contains(&&name[..end]);
            }
        }
        return false;
    }
    // template <...>
    if let Some(rest) = word(l, b"template") {
        return blanks(rest).starts_with(b"<");
    }
    // constexpr ..., try {, catch (
    if word(l, b"constexpr").is_some() {
        return true;
    }
    if let Some(rest) = word(l, b"try") {
        let rest = blanks(rest);
        return rest.is_empty() || rest.starts_with(b"{");
    }
    if let Some(rest) = word(l, b"catch") {
        return blanks(rest).starts_with(b"(");
    }
    // class NAME, namespace NAME, using namespace NAME
    let named = |rest: &[u8]| trim_start(rest).first().is_some_and(|&b| is_word(b));
    if let Some(rest) = word(l, b"class") {
        if rest.first().is_some_and(|&b| b == b' ' || b == b'\t') && named(rest) {
            return true;
        }
    }
    let ns = word(l, b"using")
        .map(trim_start)
        .and_then(|r| word(r, b"namespace"))
        .or_else(|| word(l, b"namespace"));
    if let Some(rest) = ns {
        if rest.first().is_some_and(|&b| b == b' ' || b == b'\t') && named(rest) {
            return true;
        }
    }
    // public: / private: / protected: alone on the line
    for label in [&b"public"[..], b"private", b"protected"] {
        if let Some(rest) = word(l_end, label) {
            if rest == b":" {
                return true;
            }
        }
    }
    false
}

/// The `#if` groups a line opens or closes, to leave out the code a header
/// compiles only as C++ (`#ifdef __cplusplus … #endif`, the `#else` of
/// `#ifndef __cplusplus`, `#if defined(__cplusplus) && !defined(X)`): such a
/// header is written for both languages.
///
/// A branch is C++-only when C never compiles it: its condition is false in
/// C whatever the other macros are ([`in_c`]: `__cplusplus` is undefined
/// there), or an earlier branch of its group is true in C whatever they are.
#[derive(Default)]
struct CppGuards {
    /// Per open `#if` group: whether an earlier branch is true in C, and
    /// whether the current branch is C++-only.
    stack: Vec<(bool, bool)>,
}

impl CppGuards {
    /// Reads a directive line (already trimmed, without `#`).
    fn directive(&mut self, d: &[u8]) {
        if let Some(rest) = word(d, b"ifdef") {
            let c = in_c(&[b"defined".as_slice(), b" ", blanks(rest)].concat());
            self.stack.push((c == Some(true), c == Some(false)));
        } else if let Some(rest) = word(d, b"ifndef") {
            let c = in_c(&[b"!defined".as_slice(), b" ", blanks(rest)].concat());
            self.stack.push((c == Some(true), c == Some(false)));
        } else if let Some(rest) = word(d, b"if") {
            let c = in_c(rest);
            self.stack.push((c == Some(true), c == Some(false)));
        } else if let Some(rest) = word(d, b"elif") {
            let c = in_c(rest);
            if let Some(top) = self.stack.last_mut() {
                *top = (top.0 || c == Some(true), top.0 || c == Some(false));
            }
        } else if word(d, b"else").is_some() {
            if let Some(top) = self.stack.last_mut() {
                top.1 = top.0;
            }
        } else if word(d, b"endif").is_some() {
            self.stack.pop();
        }
    }

    fn cpp_only(&self) -> bool {
        self.stack.iter().any(|&(_, cpp)| cpp)
    }
}

/// The truth of a `#if` condition when compiled as C, where `__cplusplus`
/// is undefined (and so 0): `Some(true)` / `Some(false)` when it holds or
/// fails whatever the other macros are, `None` when it depends on them.
fn in_c(cond: &[u8]) -> Option<bool> {
    codethread_lex::ppexpr::eval(cond, &|name| name == b"__cplusplus")
}

/// True when C-family text has a construct only C++ has, outside comments,
/// strings, character literals and the code it compiles only as C++
/// (`#ifdef __cplusplus` groups), by the anchors of GitHub linguist's `.h`
/// heuristic: a C++ standard header in `#include <...>` (`vector`, `string`,
/// `iostream`, ...), a line starting with `template <`, `constexpr`, `try {`
/// or `catch (`, with `class NAME`, `namespace NAME` or `using namespace
/// NAME`, an access label alone on its line (`public:`),
/// `__has_cpp_attribute` or `std::NAME`. (linguist also takes
/// `__cplusplus >`; here a test of `__cplusplus` marks a header written for
/// both languages.) One linear scan.
///
/// ```
/// use codethread_lang::looks_like_cpp;
/// assert!(looks_like_cpp(b"template <class T> T f(T x);"));
/// assert!(looks_like_cpp(b"#include <vector>\nint f();"));
/// assert!(!looks_like_cpp(b"/* class */ int f(const char *s); // namespace"));
/// assert!(!looks_like_cpp(b"#define S \"a::b\"\nint klass;"));
/// // C identifiers named after C++ keywords are C.
/// assert!(!looks_like_cpp(b"void f(const char *typename, int class, char *template);"));
/// // So is a C header's C++-only part.
/// assert!(!looks_like_cpp(b"#ifdef __cplusplus\nusing namespace std;\n#endif\nint f(void);"));
/// ```
pub fn looks_like_cpp(src: &[u8]) -> bool {
    // A UTF-8 byte-order mark is no part of the first line.
    let src = src.strip_prefix(b"\xef\xbb\xbf").unwrap_or(src);
    let code = code_only(src);
    let mut guards = CppGuards::default();
    for line in code.split(|&b| b == b'\n') {
        let l = trim_start(line);
        if let Some(d) = l.strip_prefix(b"#") {
            guards.directive(trim_start(d));
        }
        if guards.cpp_only() {
            continue;
        }
        let directive = l.starts_with(b"#");
        if (!directive || is_include(l)) && cpp_line(line) || cpp_words(line) {
            return true;
        }
    }
    false
}

fn is_include(l: &[u8]) -> bool {
    l.strip_prefix(b"#")
        .is_some_and(|d| word(trim_start(d), b"include").is_some())
}

/// `std::NAME` or `__has_cpp_attribute` anywhere in a code line.
fn cpp_words(code: &[u8]) -> bool {
    let mut i = 0;
    while i < code.len() {
        if is_word(code[i]) && (i == 0 || !is_word(code[i - 1])) {
            let start = i;
            while i < code.len() && is_word(code[i]) {
                i += 1;
            }
            let rest = &code[i..];
            let hit = match &code[start..i] {
                b"std" => rest.starts_with(b"::") && rest.get(2).is_some_and(|&b| is_word(b)),
                b"__has_cpp_attribute" => true,
                _ => false,
            };
            if hit {
                return true;
            }
        } else {
            i += 1;
        }
    }
    false
}

/// The language of a tree's C-family headers, from its translation units
/// (a header is compiled in the language of the sources that include it):
/// - C sources (`.c`) and no C++ source (an extension [`Lang::from_extension`]
///   maps to C++, `.h` aside): `Some(Lang::C)`, every header is C;
/// - more C++ sources than C sources: `Some(Lang::Cpp)`, every header is C++
///   (fmt: 60-odd `.cc` files and one `test/c-test.c`);
/// - otherwise `None`: each `.h` decides by [`looks_like_cpp`], C without
///   evidence (jq's two `.cpp` fuzzers, redis's eight `.cpp` files under
///   `deps/`); a tree of headers only: see [`headers_hint`].
///
/// Pass the answer as the `hint` of [`Lang::for_source`] (an explicit
/// `--lang-hint` wins).
pub fn c_family_hint<P: AsRef<Path>>(files: impl IntoIterator<Item = P>) -> Option<Lang> {
    let (mut c, mut cpp) = (0usize, 0usize);
    for f in files {
        let Some(ext) = f.as_ref().extension().and_then(|e| e.to_str()) else {
            continue;
        };
        if ext == "h" {
            continue;
        }
        match Lang::from_extension(ext) {
            Some(Lang::C) => c += 1,
            Some(Lang::Cpp) => cpp += 1,
            _ => {}
        }
    }
    if c > 0 && cpp == 0 {
        Some(Lang::C)
    } else if cpp > c {
        Some(Lang::Cpp)
    } else {
        None
    }
}

/// The language of a header-only tree (no translation unit, so
/// [`c_family_hint`] is `None`) from its headers' text: C++ when more than
/// half of them look like C++ ([`looks_like_cpp`]; libstdc++'s `bits/*.h`
/// has three macro-only headers among 130), C when none does, `None` (each
/// header by itself) otherwise or without headers.
pub fn headers_hint<'a>(headers: impl IntoIterator<Item = &'a [u8]>) -> Option<Lang> {
    let (mut n, mut cpp) = (0usize, 0usize);
    for h in headers {
        n += 1;
        cpp += usize::from(looks_like_cpp(h));
    }
    match n {
        0 => None,
        _ if cpp * 2 > n => Some(Lang::Cpp),
        _ if cpp == 0 => Some(Lang::C),
        _ => None,
    }
}

/// Both rules over the files below `paths` (files or directories, walked
/// with [`crate::source_files`]): [`c_family_hint`], and for a tree without a
/// C-family translation unit [`headers_hint`] over its `.h` files, read with
/// [`crate::io::read_regular`] under `max_file_bytes` (a header that cannot
/// be read is left out of the count; reading it for real reports it).
pub fn tree_hint<P: AsRef<Path>>(paths: &[P], max_file_bytes: u64) -> Option<Lang> {
    let mut files = Vec::new();
    for p in paths {
        files.extend(crate::source_files(p.as_ref()).0);
    }
    if let Some(hint) = c_family_hint(&files) {
        return Some(hint);
    }
    let unit = |f: &std::path::PathBuf| {
        f.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            e != "h" && matches!(Lang::from_extension(e), Some(Lang::C | Lang::Cpp))
        })
    };
    if files.iter().any(unit) {
        return None;
    }
    let headers: Vec<Vec<u8>> = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "h"))
        .filter_map(|f| crate::io::read_regular(f, max_file_bytes).ok())
        .collect();
    headers_hint(headers.iter().map(Vec::as_slice))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linguist_anchors() {
        for cpp in [
            &b"namespace detail {\n}"[..],
            b"using namespace std;\n",
            b"class A : public B {\n",
            b"struct S {\n  public:\n  int x;\n};",
            b"struct S {\r\n protected:  \r\n};",
            b"  try {\n  } catch (...) {}",
            b"constexpr int x = 1;",
            b"#if __has_cpp_attribute(nodiscard)\n#endif",
            b"int n = std::max(a, b);",
            b"# include <string>\n",
        ] {
            assert!(looks_like_cpp(cpp), "{}", String::from_utf8_lossy(cpp));
        }
        for c in [
            &b"sds sdscatfmt(sds s, char const *template, ...);"[..],
            b"int connCreate(const char *typename);",
            b"int f(int class);\nint private_x;\n",
            b"#ifdef __cplusplus\nextern \"C\" {\n#endif",
            b"#include <string.h>\n#include <stdint.h>",
            b"int try_lock(void);\nint catchall(int);",
            b"/* namespace x { */ int y;",
            b"#ifdef __cplusplus\nusing namespace std;\nclass X;\n#endif",
            b"#if defined(__cplusplus) && __cplusplus > 199711L\ntemplate <class T> T f();\n#endif",
            b"#ifndef __cplusplus\nint f(void);\n#else\nnamespace n {}\n#endif",
            b"#if __cplusplus > 199711L\n#endif",
            b"const char *s = \"std::vector\";",
            b"int templates <3;",
            b"label:\n  public_count++;",
        ] {
            assert!(!looks_like_cpp(c), "{}", String::from_utf8_lossy(c));
        }
    }

    /// Issue 31: a `__cplusplus` guard is read as an expression, not by
    /// whether it has a `!` somewhere: a C header's C++-only group stays out
    /// of the anchors however its condition is written; a group C may
    /// compile is read.
    #[test]
    fn cplusplus_guards_are_expressions() {
        let tpl = "template <class T> T f();";
        for (cond, cpp_only_first) in [
            ("#if defined(__cplusplus) && !defined(NO_CXX)", true),
            ("#if !defined(NO_CXX) && defined __cplusplus", true),
            (
                "#if defined(__cplusplus) && (__cplusplus >= 201103L || defined(_MSC_VER))",
                true,
            ),
            ("#if (defined(__cplusplus))", true),
            ("#if __cplusplus >= 201703L && !defined(X)", true),
            ("#if !defined(__cplusplus) || defined(FORCE)", false),
            ("#if defined(__cplusplus) || defined(X)", false),
            ("#if !defined(X)", false),
            ("#ifdef __cplusplus /* C++ */", true),
        ] {
            let first = format!("{cond}\n{tpl}\n#endif\nint g(void);");
            assert_eq!(!looks_like_cpp(first.as_bytes()), cpp_only_first, "{first}");
        }
        // The #else of a condition C always takes is C++-only; of one that
        // depends on other macros it is not.
        let els =
            format!("#if !defined(__cplusplus) || defined(X)\nint f(void);\n#else\n{tpl}\n#endif");
        assert!(!looks_like_cpp(els.as_bytes()), "{els}");
        let els = format!("#if defined(X)\nint f(void);\n#else\n{tpl}\n#endif");
        assert!(looks_like_cpp(els.as_bytes()), "{els}");
        let els =
            format!("#if !defined(__cplusplus)\nint f(void);\n#elif defined(X)\n{tpl}\n#endif");
        assert!(!looks_like_cpp(els.as_bytes()), "{els}");
        // A byte-order mark hides no anchor.
        assert!(looks_like_cpp(b"\xef\xbb\xbfnamespace n {}\n"));
        assert!(looks_like_cpp(b"\xef\xbb\xbf#include <vector>\n"));
        // Deep conditions need no recursion.
        let deep = format!(
            "#if {}defined(__cplusplus){}\n{tpl}\n#endif",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        assert!(!looks_like_cpp(deep.as_bytes()));
    }

    #[test]
    fn the_tree_decides_first() {
        assert_eq!(c_family_hint(["a.c", "b.h"]), Some(Lang::C));
        assert_eq!(c_family_hint(["a.c", "b.cpp"]), None);
        assert_eq!(c_family_hint(["a.c", "b.c", "t.cpp"]), None);
        assert_eq!(c_family_hint(["a.cc", "b.cc", "t.c"]), Some(Lang::Cpp));
        assert_eq!(c_family_hint(["a.cc", "b.h"]), Some(Lang::Cpp));
        assert_eq!(
            headers_hint([&b"namespace a {}"[..], b"#define X 1", b"class B;"]),
            Some(Lang::Cpp)
        );
        assert_eq!(
            headers_hint([&b"int f(void);"[..], b"#define X 1"]),
            Some(Lang::C)
        );
        assert_eq!(
            headers_hint([&b"namespace a {}"[..], b"int f(void);"]),
            None
        );
        assert_eq!(headers_hint(Vec::<&[u8]>::new()), None);
        assert_eq!(c_family_hint(["b.h"]), None);
        assert_eq!(c_family_hint(["a.c", "x.hpp"]), None);
        assert!(looks_like_cpp(
            b"#ifdef __cplusplus\n#endif\nnamespace n {}"
        ));
        assert!(looks_like_cpp(
            b"#ifndef __cplusplus\nint f(void);\n#else\n#endif\nclass C {};"
        ));
        assert_eq!(c_family_hint(["a.py", "a.c"]), Some(Lang::C));
    }
}
