//! A reader for Python literals (`repr()` output) as found in SWE-bench Pro's
//! `fail_to_pass` / `pass_to_pass` columns and in the harness's
//! `run_instance.log` (`report: {...}`).
//!
//! Accepted: `None`, `True`, `False`, integers, floats (also `nan`, `inf`),
//! strings with `'` / `"` / triple quotes and `r` / `u` / `b` prefixes
//! (adjacent strings are concatenated, as Python does), lists, tuples
//! (become arrays), sets (arrays) and dicts (keys rendered as strings).
//! The parser is iterative, and nesting deeper than `MAX_DEPTH` is an
//! error at decode time: a `serde_json::Value` is dropped and serialized
//! recursively, so a value nested 60,000 deep (a hostile test list) would
//! overflow the stack later, far from the input that caused it.

use serde_json::{Map, Value};

use crate::error::BenchError;

/// The deepest nesting of lists, tuples, sets and dicts a literal may have:
/// serde_json's own default recursion limit, so a value read by either
/// decoder can be dropped, serialized and re-read by the other. Real test
/// lists and harness reports nest at most 4 deep.
pub(crate) const MAX_DEPTH: usize = 128;

enum Frame {
    List {
        items: Vec<Value>,
        close: u8,
    },
    /// `{`: undecided between dict and set until the first `:` or `,`.
    Brace {
        items: Vec<Value>,
        map: Map<String, Value>,
        is_dict: Option<bool>,
        key: Option<String>,
    },
}

/// Parse one Python literal into JSON (e.g. `['a', "b", None, {'k': (1, 2.5)}]`
/// is `["a", "b", null, {"k": [1, 2.5]}]`; the unit tests hold the example).
pub(crate) fn parse_py_literal(text: &str) -> Result<Value, BenchError> {
    let b = text.as_bytes();
    let mut p = Parser { b, i: 0 };
    let mut stack: Vec<Frame> = Vec::new();
    loop {
        p.ws();
        // A value position, or a closer for an empty container / trailing comma.
        let c = p.peek().ok_or_else(|| p.err("unexpected end of input"))?;
        if matches!(c, b'[' | b'(' | b'{') && stack.len() >= MAX_DEPTH {
            return Err(p.err(&format!("nested deeper than {MAX_DEPTH} levels")));
        }
        let value = match c {
            b'[' | b'(' => {
                p.i += 1;
                stack.push(Frame::List {
                    items: Vec::new(),
                    close: if c == b'[' { b']' } else { b')' },
                });
                continue;
            }
            b'{' => {
                p.i += 1;
                stack.push(Frame::Brace {
                    items: Vec::new(),
                    map: Map::new(),
                    is_dict: None,
                    key: None,
                });
                continue;
            }
            b']' | b')' | b'}' => {
                // Empty container or trailing comma.
                p.i += 1;
                close_frame(&mut p, &mut stack, c)?
            }
            _ => p.scalar()?,
        };
        // Feed the value upward, closing containers as their closers arrive.
        let mut value = value;
        loop {
            let Some(top) = stack.last_mut() else {
                p.ws();
                if p.i < b.len() {
                    return Err(p.err("trailing characters after the literal"));
                }
                return Ok(value);
            };
            match top {
                Frame::List { items, .. } => items.push(value),
                Frame::Brace {
                    items,
                    map,
                    is_dict,
                    key,
                } => {
                    p.ws();
                    if let Some(k) = key.take() {
                        map.insert(k, value);
                    } else if p.peek() == Some(b':') {
                        if *is_dict == Some(false) {
                            return Err(p.err("`:` inside a set"));
                        }
                        *is_dict = Some(true);
                        p.i += 1;
                        let k = match value {
                            Value::String(s) => s,
                            other => other.to_string(),
                        };
                        *key = Some(k);
                        break;
                    } else {
                        if *is_dict == Some(true) {
                            return Err(p.err("expected `:` after a dict key"));
                        }
                        *is_dict = Some(false);
                        items.push(value);
                    }
                }
            }
            p.ws();
            match p.peek() {
                Some(b',') => {
                    p.i += 1;
                    break;
                }
                Some(c @ (b']' | b')' | b'}')) => {
                    p.i += 1;
                    value = close_frame(&mut p, &mut stack, c)?;
                }
                Some(_) => return Err(p.err("expected `,` or a closing bracket")),
                None => return Err(p.err("unexpected end of input")),
            }
        }
    }
}

fn close_frame(p: &mut Parser<'_>, stack: &mut Vec<Frame>, c: u8) -> Result<Value, BenchError> {
    match stack.pop() {
        Some(Frame::List { items, close }) if close == c => Ok(Value::Array(items)),
        Some(Frame::Brace {
            items,
            map,
            is_dict,
            key: None,
        }) if c == b'}' => Ok(match is_dict {
            Some(false) => Value::Array(items),
            _ => Value::Object(map),
        }),
        _ => {
            p.i -= 1;
            Err(p.err("mismatched closing bracket"))
        }
    }
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, message: &str) -> BenchError {
        BenchError::PyLiteral {
            offset: self.i,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn ws(&mut self) {
        while let Some(c) = self.peek() {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.i += 1;
            } else {
                break;
            }
        }
    }

    fn scalar(&mut self) -> Result<Value, BenchError> {
        let c = self
            .peek()
            .ok_or_else(|| self.err("unexpected end of input"))?;
        if c == b'\'' || c == b'"' || self.string_prefix_len().is_some() {
            let mut s = self.string()?;
            // Implicit concatenation of adjacent string literals.
            loop {
                let save = self.i;
                self.ws();
                match self.peek() {
                    Some(b'\'' | b'"') => s.push_str(&self.string()?),
                    Some(_) if self.string_prefix_len().is_some() => s.push_str(&self.string()?),
                    _ => {
                        self.i = save;
                        break;
                    }
                }
            }
            return Ok(Value::String(s));
        }
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+') {
                self.i += 1;
            } else {
                break;
            }
        }
        let word = std::str::from_utf8(&self.b[start..self.i]).unwrap_or("");
        match word {
            "None" => Ok(Value::Null),
            "True" => Ok(Value::Bool(true)),
            "False" => Ok(Value::Bool(false)),
            "" => Err(self.err("expected a value")),
            w => {
                let clean: String = w.chars().filter(|c| *c != '_').collect();
                if let Ok(n) = clean.parse::<i64>() {
                    return Ok(Value::from(n));
                }
                if let Ok(f) = clean.parse::<f64>() {
                    return Ok(serde_json::Number::from_f64(f)
                        .map(Value::Number)
                        .unwrap_or(Value::String(w.to_string())));
                }
                self.i = start;
                Err(self.err(&format!("unknown token `{w}`")))
            }
        }
    }

    /// Length of a string prefix (`r`, `u`, `b`, `rb`, `br`, case-insensitive)
    /// directly followed by a quote.
    fn string_prefix_len(&self) -> Option<usize> {
        let mut n = 0;
        while n < 2 {
            match self.b.get(self.i + n) {
                Some(c) if matches!(c.to_ascii_lowercase(), b'r' | b'u' | b'b') => n += 1,
                _ => break,
            }
        }
        match self.b.get(self.i + n) {
            Some(b'\'' | b'"') if n > 0 => Some(n),
            _ => None,
        }
    }

    fn string(&mut self) -> Result<String, BenchError> {
        let mut raw = false;
        if let Some(n) = self.string_prefix_len() {
            raw = self.b[self.i..self.i + n]
                .iter()
                .any(|c| c.eq_ignore_ascii_case(&b'r'));
            self.i += n;
        }
        let q = self.peek().ok_or_else(|| self.err("expected a quote"))?;
        let triple = self.b.get(self.i..self.i + 3) == Some(&[q, q, q][..]);
        self.i += if triple { 3 } else { 1 };
        let mut out: Vec<u8> = Vec::new();
        loop {
            let c = self.peek().ok_or_else(|| self.err("unterminated string"))?;
            if c == q {
                if !triple {
                    self.i += 1;
                    break;
                }
                if self.b.get(self.i..self.i + 3) == Some(&[q, q, q][..]) {
                    self.i += 3;
                    break;
                }
                out.push(c);
                self.i += 1;
                continue;
            }
            if c == b'\\' {
                let e = self
                    .b
                    .get(self.i + 1)
                    .copied()
                    .ok_or_else(|| self.err("unterminated escape"))?;
                if raw {
                    out.push(b'\\');
                    out.push(e);
                    self.i += 2;
                    continue;
                }
                self.i += 2;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'0'..=b'7' => {
                        let mut v = u32::from(e - b'0');
                        let mut k = 0;
                        while k < 2 {
                            match self.peek() {
                                Some(d @ b'0'..=b'7') => {
                                    v = v * 8 + u32::from(d - b'0');
                                    self.i += 1;
                                    k += 1;
                                }
                                _ => break,
                            }
                        }
                        push_char(&mut out, v);
                    }
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'v' => out.push(11),
                    b'\n' => {}
                    b'x' | b'u' | b'U' => {
                        let n = match e {
                            b'x' => 2,
                            b'u' => 4,
                            _ => 8,
                        };
                        let hex = self
                            .b
                            .get(self.i..self.i + n)
                            .and_then(|h| std::str::from_utf8(h).ok())
                            .and_then(|h| u32::from_str_radix(h, 16).ok())
                            .ok_or_else(|| self.err("bad hex escape"))?;
                        self.i += n;
                        push_char(&mut out, hex);
                    }
                    other => {
                        if !matches!(other, b'\\' | b'\'' | b'"') {
                            out.push(b'\\');
                        }
                        out.push(other);
                    }
                }
                continue;
            }
            out.push(c);
            self.i += 1;
        }
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

fn push_char(out: &mut Vec<u8>, v: u32) {
    let ch = char::from_u32(v).unwrap_or(char::REPLACEMENT_CHARACTER);
    let mut buf = [0u8; 4];
    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_doc_example() {
        let v = parse_py_literal("['a', \"b\", None, {'k': (1, 2.5)}]").expect("parse");
        assert_eq!(v, json!(["a", "b", null, {"k": [1, 2.5]}]));
    }

    #[test]
    fn nested_and_quotes() {
        let v = parse_py_literal(
            r#"{'a': [1, -2, 3.5e1, None, True], "b": ("x",), 'c': {'s', 't'}, 'd': {}}"#,
        );
        assert_eq!(
            v.ok(),
            Some(json!({"a": [1, -2, 35.0, null, true], "b": ["x"], "c": ["s", "t"], "d": {}}))
        );
    }

    #[test]
    fn escapes_and_concat() {
        let v = parse_py_literal(
            r#"['it\'s', "a\"b", 'tab\there', '\x41\u00e9', r'\d+' 'z', '''tri'ple''']"#,
        );
        assert_eq!(
            v.ok(),
            Some(json!([
                "it's",
                "a\"b",
                "tab\there",
                "Aé",
                "\\d+z",
                "tri'ple"
            ]))
        );
    }

    #[test]
    fn errors_carry_offsets() {
        match parse_py_literal("[1, 2") {
            Err(BenchError::PyLiteral { offset, .. }) => assert_eq!(offset, 5),
            other => panic!("unexpected {other:?}"),
        }
        assert!(parse_py_literal("[1, 2)").is_err());
        assert!(parse_py_literal("[1] x").is_err());
        assert!(parse_py_literal("{'a' 1}").is_err());
    }

    #[test]
    fn nesting_is_limited_at_decode_time() {
        // Up to the limit: read (and dropped without trouble).
        for open in ["[", "(", "{'k': "] {
            let close = match open {
                "[" => "]",
                "(" => ")",
                _ => "}",
            };
            let s = format!("{}1{}", open.repeat(MAX_DEPTH), close.repeat(MAX_DEPTH));
            assert!(parse_py_literal(&s).is_ok(), "{open} x {MAX_DEPTH}");
        }
        // One more level, 60,000 levels, unclosed, mixed: a typed error, no overflow.
        for s in [
            format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1)),
            format!("{}{}", "[".repeat(60_000), "]".repeat(60_000)),
            "[(".repeat(40_000),
            format!("{{'a': {}", "{'b': [".repeat(30_000)),
            format!("['t', {}]", "(".repeat(70_000)),
        ] {
            match parse_py_literal(&s) {
                Err(BenchError::PyLiteral { message, offset }) => {
                    assert!(message.contains("nested deeper than 128"), "{message}");
                    assert!(offset < 1_000, "{offset}");
                }
                other => panic!("unexpected {:?}", other.map(|_| ())),
            }
        }
    }
}
