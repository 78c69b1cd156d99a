//! Byte-level text helpers: lines, indentation and line endings.
//!
//! Only `\n` ends a line (as for tree-sitter rows); a `\r` directly before it
//! makes the ending `\r\n`. Nothing here assumes UTF-8.

/// A line ending as it appears in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Eol {
    /// `\n`
    Lf,
    /// `\r\n`
    CrLf,
}

impl Eol {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
        }
    }
}

/// True for the bytes that may make up indentation.
pub(crate) fn is_indent_byte(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\x0c')
}

/// Start of the line holding `pos`.
pub(crate) fn line_start(src: &[u8], pos: usize) -> usize {
    let pos = pos.min(src.len());
    match src[..pos].iter().rposition(|&b| b == b'\n') {
        Some(i) => i + 1,
        None => 0,
    }
}

/// The indentation (leading spaces / tabs / form feeds) of the line holding
/// `pos`, as a string of those bytes.
pub(crate) fn line_indent(src: &[u8], pos: usize) -> String {
    let start = line_start(src, pos);
    let rest = src.get(start..).unwrap_or(&[]);
    let n = rest.iter().take_while(|&&b| is_indent_byte(b)).count();
    // Indentation bytes are ASCII, so this is lossless.
    String::from_utf8_lossy(&rest[..n]).into_owned()
}

/// True when only indentation precedes `pos` on its line.
pub(crate) fn only_indent_before(src: &[u8], pos: usize) -> bool {
    let start = line_start(src, pos);
    src.get(start..pos)
        .is_some_and(|s| s.iter().all(|&b| is_indent_byte(b)))
}

/// The line ending in force at `pos`: the first one at or after `pos`, else
/// the last one before it, else `\n`.
pub(crate) fn eol_near(src: &[u8], pos: usize) -> Eol {
    let pos = pos.min(src.len());
    let kind = |i: usize| {
        if i > 0 && src[i - 1] == b'\r' {
            Eol::CrLf
        } else {
            Eol::Lf
        }
    };
    if let Some(off) = src[pos..].iter().position(|&b| b == b'\n') {
        return kind(pos + off);
    }
    match src[..pos].iter().rposition(|&b| b == b'\n') {
        Some(i) => kind(i),
        None => Eol::Lf,
    }
}

/// Move a range start so it never falls between `\r` and `\n`: the `\r` joins
/// the range (the replacement then writes a whole line ending).
pub(crate) fn fix_start(src: &[u8], start: usize) -> usize {
    if start > 0 && src.get(start) == Some(&b'\n') && src.get(start - 1) == Some(&b'\r') {
        start - 1
    } else {
        start
    }
}

/// Move a range end so it never falls between `\r` and `\n`: the `\r` stays
/// outside the range with its `\n`.
pub(crate) fn fix_end(src: &[u8], end: usize) -> usize {
    if end > 0 && src.get(end) == Some(&b'\n') && src.get(end - 1) == Some(&b'\r') {
        end - 1
    } else {
        end
    }
}

/// The indentation of the first non-blank line that starts inside
/// `src[from..to]` (lines beginning after `from`), if any.
pub(crate) fn first_inner_line_indent(src: &[u8], from: usize, to: usize) -> Option<String> {
    let to = to.min(src.len());
    let mut i = from.min(to);
    while i < to {
        let nl = src[i..to].iter().position(|&b| b == b'\n')?;
        let line = i + nl + 1;
        let n = src[line..to]
            .iter()
            .take_while(|&&b| is_indent_byte(b))
            .count();
        let after = line + n;
        match src.get(after) {
            Some(b'\n') | Some(b'\r') => {
                i = after;
                continue;
            }
            _ if after >= to => return None,
            _ => return Some(String::from_utf8_lossy(&src[line..after]).into_owned()),
        }
    }
    None
}

/// One level of indentation as the file writes it: a tab when most indented
/// lines start with a tab, otherwise the narrowest space indentation of at
/// least two columns (capped at 8); `default` when the file has no indented
/// line.
pub(crate) fn indent_unit(src: &[u8], default: &'static str) -> String {
    let mut tabs = 0usize;
    let mut spaces = 0usize;
    let mut narrowest = usize::MAX;
    for line in src.split(|&b| b == b'\n') {
        match line.first() {
            Some(b'\t') => tabs += 1,
            Some(b' ') => {
                let n = line.iter().take_while(|&&b| b == b' ').count();
                if line.get(n).is_some_and(|&b| !matches!(b, b'\r' | b'\t')) {
                    spaces += 1;
                    if n >= 2 {
                        narrowest = narrowest.min(n);
                    }
                }
            }
            _ => {}
        }
    }
    if tabs == 0 && spaces == 0 {
        return default.to_string();
    }
    if tabs > spaces {
        return "\t".to_string();
    }
    if narrowest == usize::MAX {
        return default.to_string();
    }
    " ".repeat(narrowest.min(8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_indents() {
        let s = b"a\n\t\tb\r\n  c";
        assert_eq!(line_start(s, 0), 0);
        assert_eq!(line_start(s, 4), 2);
        assert_eq!(line_indent(s, 4), "\t\t");
        assert_eq!(line_indent(s, 9), "  ");
        assert!(only_indent_before(s, 4));
        assert!(!only_indent_before(s, 5));
    }

    #[test]
    fn line_endings() {
        assert_eq!(eol_near(b"a\r\nb\nc", 0), Eol::CrLf);
        assert_eq!(eol_near(b"a\r\nb\nc", 3), Eol::Lf);
        assert_eq!(eol_near(b"a\r\nb", 4), Eol::CrLf);
        assert_eq!(eol_near(b"ab", 1), Eol::Lf);
        assert_eq!(fix_start(b"a\r\n", 2), 1);
        assert_eq!(fix_start(b"a\n", 1), 1);
        assert_eq!(fix_end(b"a\r\n", 2), 1);
    }

    #[test]
    fn inner_indent() {
        let s = b"{ // c\n\n    \t\n\t\tx\n}";
        assert_eq!(first_inner_line_indent(s, 1, s.len()), Some("\t\t".into()));
        assert_eq!(first_inner_line_indent(b"{\n}", 1, 2), None);
        assert_eq!(first_inner_line_indent(b"{ x }", 1, 4), None);
    }

    #[test]
    fn units() {
        assert_eq!(indent_unit(b"a\n\tb\n\tc\n  d\n", "    "), "\t");
        assert_eq!(indent_unit(b"a\n  b\n    c\n", "    "), "  ");
        assert_eq!(indent_unit(b"a\nb\n", "    "), "    ");
        assert_eq!(indent_unit(b"a\n        b\n", "\t"), "        ");
    }
}
