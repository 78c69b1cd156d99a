//! Patches and sources are bytes; JSON strings are Unicode. This module is
//! the one rule for putting bytes into JSON without losing any:
//!
//! - bytes that are valid UTF-8 go into the text field as they are;
//! - other bytes (Latin-1 or CP-1252 code, a lone `\xff`, a truncated UTF-8
//!   sequence) go byte-exactly, base64-encoded (RFC 4648, padded), into the
//!   sibling field `<field>_b64`, which is **authoritative**; the text field
//!   still holds a lossy rendering (U+FFFD) so that the row keeps the schema
//!   tools expect, and the writer returns a warning naming the field;
//! - every reader of this crate reads `<field>_b64` first ([`take_bytes`]).
//!
//! The init-patch map (`{instance_id: patch}`) has no sibling fields: there
//! a non-UTF-8 patch is the object `{"patch": lossy, "patch_b64": ...}`
//! ([`patch_value`], read back by [`bytes_of_value`]), so that a consumer
//! that expects a string fails loudly instead of applying a corrupted patch.

use serde_json::{Map, Value};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (RFC 4648, standard alphabet, padded).
pub fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Why base64 text could not be decoded ([`b64_decode`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum B64Error {
    /// A byte outside the alphabet, at this offset of the text.
    #[error("invalid base64 character at offset {0}")]
    InvalidCharacter(usize),
    /// Data after `=` padding, at this offset of the text.
    #[error("base64 data after padding at offset {0}")]
    AfterPadding(usize),
    /// A dangling single character at the end.
    #[error("truncated base64 (a dangling character)")]
    Truncated,
}

/// Why a byte field of a JSON row could not be read ([`bytes_of_value`]
/// and the importers' `*_b64` rule).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CarryError {
    /// The `*_b64` field is not valid base64.
    #[error("`{field}`: {error}")]
    Base64 {
        /// The `*_b64` field.
        field: String,
        /// What is wrong with its text.
        error: B64Error,
    },
    /// The `*_b64` field is not a string.
    #[error("`{field}`: expected a base64 string")]
    Base64NotString {
        /// The `*_b64` field.
        field: String,
    },
    /// The text field is not a string.
    #[error("`{field}`: expected a string")]
    NotString {
        /// The text field.
        field: String,
    },
    /// An init-patch map object without a `patch` field.
    #[error("no `patch` field")]
    NoPatch,
    /// An init-patch map value that is neither a string nor an object.
    #[error("expected a patch string or {{patch, patch_b64}}")]
    NotPatch,
}

/// Decode base64 (RFC 4648, standard alphabet; padding optional; ASCII
/// whitespace ignored). An invalid character or a dangling single character
/// is an error naming its offset.
pub fn b64_decode(text: &str) -> Result<Vec<u8>, B64Error> {
    let mut out = Vec::new();
    let mut acc: u32 = 0;
    let mut nbits = 0u32;
    let mut pad = false;
    let mut count = 0usize;
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                pad = true;
                continue;
            }
            c if c.is_ascii_whitespace() => continue,
            _ => return Err(B64Error::InvalidCharacter(i)),
        };
        if pad {
            return Err(B64Error::AfterPadding(i));
        }
        count += 1;
        acc = (acc << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((acc >> nbits) as u8);
            acc &= (1 << nbits) - 1;
        }
    }
    if count % 4 == 1 {
        return Err(B64Error::Truncated);
    }
    Ok(out)
}

/// The name of the sibling field that carries `field` as base64.
pub(crate) fn b64_field(field: &str) -> String {
    format!("{field}_b64")
}

/// Put `bytes` into `row[field]`: as text when they are UTF-8; otherwise
/// lossy text plus `row[field_b64]` (authoritative). Returns a warning when
/// the b64 field was needed. A stale `field_b64` is removed for UTF-8 bytes.
pub fn put_bytes(row: &mut Map<String, Value>, field: &str, bytes: &[u8]) -> Option<String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => {
            row.insert(field.to_string(), Value::String(s.to_string()));
            row.remove(&b64_field(field));
            None
        }
        Err(e) => {
            row.insert(
                field.to_string(),
                Value::String(String::from_utf8_lossy(bytes).into_owned()),
            );
            row.insert(b64_field(field), Value::String(b64_encode(bytes)));
            Some(format!(
                "`{field}` is not UTF-8 (first invalid byte at offset {}): carried byte-exactly in `{}`; its text is lossy",
                e.valid_up_to(),
                b64_field(field)
            ))
        }
    }
}

/// Read `row[field]` as bytes: `row[field_b64]` first (a string of base64),
/// else the text field. `Ok(None)` when neither is present (or the text
/// field is `null`); an `Err` names the field and what is wrong.
pub fn take_bytes(row: &Map<String, Value>, field: &str) -> Result<Option<Vec<u8>>, CarryError> {
    let bf = b64_field(field);
    match row.get(&bf) {
        Some(Value::String(b)) => {
            return b64_decode(b)
                .map(Some)
                .map_err(|error| CarryError::Base64 { field: bf, error })
        }
        Some(Value::Null) | None => {}
        Some(_) => return Err(CarryError::Base64NotString { field: bf }),
    }
    match row.get(field) {
        Some(Value::String(s)) => Ok(Some(s.as_bytes().to_vec())),
        Some(Value::Null) | None => Ok(None),
        Some(_) => Err(CarryError::NotString {
            field: field.to_string(),
        }),
    }
}

/// A patch as a value of the init-patch map: a string when UTF-8, else
/// `{"patch": lossy, "patch_b64": base64}`; the warning when it is not UTF-8.
pub fn patch_value(bytes: &[u8]) -> (Value, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (Value::String(s.to_string()), None),
        Err(_) => {
            let mut m = Map::new();
            let w = put_bytes(&mut m, "patch", bytes);
            (Value::Object(m), w)
        }
    }
}

/// The bytes of an init-patch map value (`codethread_chain::init_patch_map`: a
/// string, or `{patch, patch_b64}` with the base64 read first).
pub fn bytes_of_value(v: &Value) -> Result<Vec<u8>, CarryError> {
    match v {
        Value::String(s) => Ok(s.as_bytes().to_vec()),
        Value::Object(m) => take_bytes(m, "patch")?.ok_or(CarryError::NoPatch),
        _ => Err(CarryError::NotPatch),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_length() {
        // RFC 4648 section 10 test vectors.
        for (plain, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(b64_encode(plain.as_bytes()), enc);
            assert_eq!(b64_decode(enc).ok(), Some(plain.as_bytes().to_vec()));
        }
        let all: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for n in 0..all.len() {
            assert_eq!(
                b64_decode(&b64_encode(&all[..n])).ok(),
                Some(all[..n].to_vec())
            );
        }
        assert!(b64_decode("Zm9v!").is_err());
        assert!(b64_decode("Zm9vY").is_err());
        assert!(b64_decode("Zg==Zg").is_err());
    }

    #[test]
    fn fields_carry_bytes() {
        let mut m = Map::new();
        assert!(put_bytes(&mut m, "patch", b"ok\n").is_none());
        assert!(!m.contains_key("patch_b64"));
        let w = put_bytes(&mut m, "patch", b"caf\xe9\n");
        assert!(w.is_some_and(|w| w.contains("patch_b64")));
        assert_eq!(
            take_bytes(&m, "patch").ok().flatten(),
            Some(b"caf\xe9\n".to_vec())
        );
        assert!(put_bytes(&mut m, "patch", b"ok\n").is_none());
        assert!(!m.contains_key("patch_b64"), "stale b64 removed");
        let (v, w) = patch_value(b"\xff");
        assert!(w.is_some());
        assert_eq!(bytes_of_value(&v).ok(), Some(b"\xff".to_vec()));
    }
}
