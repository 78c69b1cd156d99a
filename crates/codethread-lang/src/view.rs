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
    while start < source.len() {
        let end = source[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[start..end];
        let body = line.strip_suffix(b"\r").unwrap_or(line);
        let continues = body.last() == Some(&b'\\');
        if !continued && !continues {
            if let Some(at) = unterminated_include_quote(body) {
                out.get_or_insert_with(|| source.to_vec())[start + at] = b' ';
            }
        }
        continued = continues;
        start = end + 1;
    }
    out
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
        assert_eq!(
            parser_view(Lang::C, b"#include \"x\n").map(|v| v.len()),
            Some(12)
        );
    }
}
