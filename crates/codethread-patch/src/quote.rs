//! Git's C-style path quoting (`"a\tb\303\251"`), both directions.

/// Unquotes a C-style quoted string as git writes it. `input` must start with
/// `"`; returns the unquoted bytes and the number of input bytes consumed
/// (including both quotes), or `None` when the quoting is malformed.
pub fn unquote_c(input: &[u8]) -> Option<(Vec<u8>, usize)> {
    if input.first() != Some(&b'"') {
        return None;
    }
    let mut out = Vec::with_capacity(input.len());
    let mut i = 1;
    while i < input.len() {
        let b = input[i];
        match b {
            b'"' => return Some((out, i + 1)),
            b'\\' => {
                let e = *input.get(i + 1)?;
                i += 2;
                match e {
                    b'a' => out.push(0x07),
                    b'b' => out.push(0x08),
                    b't' => out.push(b'\t'),
                    b'n' => out.push(b'\n'),
                    b'v' => out.push(0x0b),
                    b'f' => out.push(0x0c),
                    b'r' => out.push(b'\r'),
                    b'"' => out.push(b'"'),
                    b'\\' => out.push(b'\\'),
                    b'0'..=b'3' => {
                        let d1 = *input.get(i)?;
                        let d2 = *input.get(i + 1)?;
                        if !(b'0'..=b'7').contains(&d1) || !(b'0'..=b'7').contains(&d2) {
                            return None;
                        }
                        out.push(((e - b'0') << 6) | ((d1 - b'0') << 3) | (d2 - b'0'));
                        i += 2;
                    }
                    _ => return None,
                }
            }
            b'\n' => return None,
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    None
}

/// Whether git would quote this path (control bytes, `"`, `\`, or any byte
/// >= 0x80, git's default `core.quotePath=true`).
pub fn needs_quoting(path: &[u8]) -> bool {
    path.iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\' || b >= 0x80 || b == 0x7f)
}

/// Quotes `prefix + path` the way git does when needed; otherwise returns it
/// unchanged.
pub fn quote_path(prefix: &[u8], path: &[u8]) -> Vec<u8> {
    let mut full = Vec::with_capacity(prefix.len() + path.len() + 2);
    full.extend_from_slice(prefix);
    full.extend_from_slice(path);
    if !needs_quoting(&full) {
        return full;
    }
    let mut out = Vec::with_capacity(full.len() + 8);
    out.push(b'"');
    for &b in &full {
        match b {
            0x07 => out.extend_from_slice(b"\\a"),
            0x08 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0b => out.extend_from_slice(b"\\v"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b if !(0x20..0x7f).contains(&b) => {
                out.push(b'\\');
                out.push(b'0' + (b >> 6));
                out.push(b'0' + ((b >> 3) & 7));
                out.push(b'0' + (b & 7));
            }
            b => out.push(b),
        }
    }
    out.push(b'"');
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_quoting() {
        for p in [
            &b"plain/path.rs"[..],
            b"sp ace/x",
            "caf\u{e9}/\u{1F600}.py".as_bytes(),
            b"tab\there",
            b"quote\"back\\slash",
            b"\x01\x7f\xff",
        ] {
            let q = quote_path(b"a/", p);
            if needs_quoting(&[b"a/", p].concat()) {
                let (u, n) = unquote_c(&q).expect("quoted");
                assert_eq!(n, q.len());
                assert_eq!(u, [b"a/", p].concat());
            } else {
                assert_eq!(q, [b"a/", p].concat());
            }
        }
    }

    #[test]
    fn malformed_quotes() {
        assert!(unquote_c(b"\"abc").is_none());
        assert!(unquote_c(b"\"a\\qb\"").is_none());
        assert!(unquote_c(b"\"a\\39\"").is_none());
        assert!(unquote_c(b"abc").is_none());
        assert_eq!(unquote_c(b"\"\\303\\251\" x"), Some((vec![0xc3, 0xa9], 10)));
    }
}
