//! The bytes the parser reads, when they differ from the file's.
//!
//! tree-sitter's C and C++ grammars recover from an unterminated quoted
//! `#include "x` line in time quadratic in the number of such lines, at a
//! linear number of parser operations and lexer reads, so neither the work
//! nor the read limit of a [`crate::ParseBudget`] sees it (debug build: 8,000
//! lines, 127 KB, 1.0 s; 16,000 lines 4 s). No compiler accepts such a
//! line, so the parser is handed the file with the opening quote of each one
//! written as a space (`#include  x`: an include of an identifier, which the
//! grammars parse in linear time). The rewrite keeps every byte offset; the
//! [`crate::ParsedFile`] keeps the file's own bytes, so node texts, stubs and
//! patches are those of the file except for that one quote.
//!
//! It applies to the languages with a C preprocessor (those whose
//! [`crate::LangInfo::macros`] is set).

use crate::Lang;

/// The bytes to parse `source` from under `grammar`, when they differ from
/// `source`: one linear pass over the lines.
pub(crate) fn parser_view(grammar: Lang, source: &[u8]) -> Option<Vec<u8>> {
    grammar.info().macros?;
    let mut out: Option<Vec<u8>> = None;
    let mut start = 0usize;
    // A line that continues the previous one (a backslash before its
    // newline) is not a directive of its own: leave it.
    let mut continued = false;
    // What a line starts inside: a block comment, a C++ raw string.
    let mut carry = Carry::Code;
    while start < source.len() {
        let end = source[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[start..end];
        let body = line.strip_suffix(b"\r").unwrap_or(line);
        let continues = body.last() == Some(&b'\\');
        let directive = body.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'#');
        if !continued && !continues && carry == Carry::Code && directive {
            if let Some(at) = unterminated_include_quote(body) {
                out.get_or_insert_with(|| source.to_vec())[start + at] = b' ';
            }
        }
        let (quote, next) = scan_line(body, carry, grammar == Lang::Cpp);
        // A string left open at the end of a code line that does not
        // continue (no compiler accepts one): its opening quote is a space
        // in the view (the same quadratic recovery as an open `#include
        // "x`, in C++).
        if let (Some(at), false, false, false) = (quote, continued, continues, directive) {
            out.get_or_insert_with(|| source.to_vec())[start + at] = b' ';
        }
        carry = next;
        continued = continues;
        start = end + 1;
    }
    out
}

/// What a line of C or C++ starts inside.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Carry {
    Code,
    /// A `/* */` comment.
    Comment,
    /// A C++ raw string, and its closer `)delim"`.
    Raw(Vec<u8>),
}

/// One line of C or C++ from `carry`: the offset of the opening quote of a
/// `"` string it leaves open, and what the next line starts inside.
fn scan_line(line: &[u8], mut carry: Carry, cpp: bool) -> (Option<usize>, Carry) {
    let n = line.len();
    let mut i = 0;
    while i < n {
        match &carry {
            Carry::Comment => match line[i..].windows(2).position(|w| w == b"*/") {
                Some(k) => {
                    i += k + 2;
                    carry = Carry::Code;
                }
                None => return (None, carry),
            },
            Carry::Raw(closer) => match line[i..]
                .windows(closer.len())
                .position(|w| w == closer.as_slice())
            {
                Some(k) => {
                    i += k + closer.len();
                    carry = Carry::Code;
                }
                None => return (None, carry),
            },
            Carry::Code => {
                let c = line[i];
                if c == b'/' && line.get(i + 1) == Some(&b'/') {
                    return (None, Carry::Code);
                }
                if c == b'/' && line.get(i + 1) == Some(&b'*') {
                    carry = Carry::Comment;
                    i += 2;
                    continue;
                }
                if c == b'\'' {
                    // A character literal on this line (or a C++14 digit
                    // separator after a digit or letter).
                    if i > 0 && line[i - 1].is_ascii_alphanumeric() {
                        i += 1;
                        continue;
                    }
                    let mut j = i + 1;
                    while j < n && line[j] != b'\'' {
                        j += if line[j] == b'\\' { 2 } else { 1 };
                    }
                    i = (j + 1).min(n);
                    continue;
                }
                if c == b'"' {
                    // A C++ raw string: `R"delim(` after a prefix word.
                    if cpp && i > 0 && line[i - 1] == b'R' {
                        if let Some(open) = line[i + 1..].iter().position(|&b| b == b'(') {
                            let delim = &line[i + 1..i + 1 + open];
                            if delim.len() <= 16 && !delim.iter().any(|b| b" ()\\\t".contains(b)) {
                                let mut closer = vec![b')'];
                                closer.extend_from_slice(delim);
                                closer.push(b'"');
                                carry = Carry::Raw(closer);
                                i += 2 + open;
                                continue;
                            }
                        }
                    }
                    let mut j = i + 1;
                    while j < n && line[j] != b'"' {
                        j += if line[j] == b'\\' { 2 } else { 1 };
                    }
                    if j >= n {
                        return (Some(i), Carry::Code);
                    }
                    i = j + 1;
                    continue;
                }
                i += 1;
            }
        }
    }
    (None, carry)
}

/// The offset of the opening quote of `line` when it is `#include "…` with
/// no closing quote.
fn unterminated_include_quote(line: &[u8]) -> Option<usize> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = line.iter().position(|b| !blank(b))?;
    if line[i] != b'#' {
        return None;
    }
    i += 1;
    i += line[i..].iter().take_while(|b| blank(b)).count();
    let rest = line[i..].strip_prefix(b"include")?;
    i += b"include".len();
    let pad = rest.iter().take_while(|b| blank(b)).count();
    i += pad;
    if line.get(i) != Some(&b'"') {
        return None;
    }
    if line[i + 1..].contains(&b'"') {
        return None;
    }
    Some(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(src: &str) -> Option<String> {
        parser_view(Lang::Cpp, src.as_bytes()).map(|v| String::from_utf8(v).unwrap_or_default())
    }

    #[test]
    fn only_an_unterminated_quoted_include_is_rewritten() {
        assert_eq!(view("#include \"x\n").as_deref(), Some("#include  x\n"));
        assert_eq!(
            view("  #  include\t\"x\r\n").as_deref(),
            Some("  #  include\t x\r\n")
        );
        assert_eq!(view("#include\"x").as_deref(), Some("#include x"));
        for same in [
            "#include \"x.h\"\n",
            "#include <x\n",
            "#define A \"x\n",
            "#error \"can't\n",
            "s = \"abc\\\n#include \"x\n",
            "int include = 1; // #include \"x\n",
            "#includes \"x\n",
        ] {
            assert_eq!(view(same), None, "{same:?}");
        }
        assert_eq!(parser_view(Lang::Python, b"#include \"x\n"), None);
        // Issue 31: a string left open at the end of a code line.
        assert_eq!(view("\"abc\n").as_deref(), Some(" abc\n"));
        assert_eq!(
            view("  x = \"a\\\"b;\n").as_deref(),
            Some("  x =  a\\\"b;\n")
        );
        assert_eq!(
            view("f(\"a\", '\"', \"b\n").as_deref(),
            Some("f(\"a\", '\"',  b\n")
        );
        for same in [
            "s = R\"x(\n\"\n)x\";\n",
            "/* \"\n */ int x;\n",
            "int n = 1'000'000; char c = '\"';\n",
            "s = \"a\\\nb\";\n",
            "f(\"a\"); // \"\n",
        ] {
            assert_eq!(view(same), None, "{same:?}");
        }
        assert_eq!(
            parser_view(Lang::C, b"#include \"x\n").map(|v| v.len()),
            Some(12)
        );
    }
}
