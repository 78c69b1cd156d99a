//! A depth check of a `.parquet` file's schema before the `parquet` crate
//! reads it.
//!
//! The crate turns the footer's flat list of schema elements into a tree
//! with one recursive call per nesting level, and its rows into JSON the
//! same way, so a file whose schema nests ~100,000 groups deep overflows the
//! stack of whoever reads it. This module reads the footer's Thrift compact
//! encoding itself, iteratively: it walks `FileMetaData` to field 2
//! (`schema: list<SchemaElement>`), takes each element's field 5
//! (`num_children`) and computes the nesting depth with an explicit stack.
//! Nothing is allocated by a count read from the file before the bytes it
//! counts have been seen.

/// The deepest schema nesting accepted (Arrow and Spark tables nest a few
/// levels; the `parquet` crate's own Thrift skipper stops at 64 as well).
pub(crate) const MAX_SCHEMA_DEPTH: usize = 64;

/// Thrift compact types.
const STOP: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;
const BYTE: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const DOUBLE: u8 = 7;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const SET: u8 = 10;
const MAP: u8 = 11;
const STRUCT: u8 = 12;
const UUID: u8 = 13;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let v = *self.b.get(self.at).ok_or("the footer ends early")?;
        self.at += 1;
        Ok(v)
    }

    /// A ULEB128 varint read exactly as the `parquet` crate reads it
    /// (`read_vlq`): as many bytes as carry the continuation bit, each
    /// shifted with a wrapping shift (a shift of 64 or more wraps).
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        let mut shift = 0u32;
        loop {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f).wrapping_shl(shift);
            if b & 0x80 == 0 {
                return Ok(v);
            }
            shift = shift.wrapping_add(7);
        }
    }

    /// A zig-zag varint as the crate's `read_zig_zag` gives it (`i64`); its
    /// `read_i16` / `read_i32` truncate this with `as`.
    fn zigzag(&mut self) -> Result<i64, String> {
        let z = self.varint()?;
        Ok(((z >> 1) as i64) ^ -((z & 1) as i64))
    }

    fn skip(&mut self, n: u64) -> Result<(), String> {
        let n = usize::try_from(n).map_err(|_| "a length beyond the address space")?;
        if self.b.len() - self.at < n {
            return Err("a length beyond the footer".into());
        }
        self.at += n;
        Ok(())
    }
}

/// What is being read, innermost last.
enum Frame {
    /// A struct's fields; `last` is the previous field id (delta encoding;
    /// an `i16`, as the crate keeps it). `role` tells which of the fields
    /// matter.
    Struct { last: i16, role: Role },
    /// `left` more elements of type `ty` (a map's keys and values alternate:
    /// `ty2` is the value type, `key` whether the next one is a key).
    Seq {
        left: u64,
        ty: u8,
        ty2: u8,
        key: bool,
        role: Role,
    },
}

#[derive(Clone, Copy, PartialEq)]
enum Role {
    Other,
    FileMetaData,
    SchemaList,
    SchemaElement,
}

/// Checks the schema nesting of an open Parquet file from its footer (the
/// file's last bytes: the footer, its length, `PAR1`), then rewinds it.
pub(crate) fn check_file(file: &mut std::fs::File) -> Result<(), String> {
    use std::io::{Read, Seek, SeekFrom};
    let io = |e: std::io::Error| format!("cannot read its footer: {e}");
    let n = file.seek(SeekFrom::End(0)).map_err(io)?;
    if n < 12 {
        file.rewind().map_err(io)?;
        return Ok(());
    }
    let mut tail = [0u8; 8];
    file.seek(SeekFrom::Start(n - 8)).map_err(io)?;
    file.read_exact(&mut tail).map_err(io)?;
    let len = u64::from(u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]));
    let mut bytes = Vec::new();
    if &tail[4..] == b"PAR1" && len <= n - 8 {
        // The footer is inside the file, whose size the caller has bounded.
        file.seek(SeekFrom::Start(n - 8 - len)).map_err(io)?;
        bytes = vec![0u8; len as usize];
        file.read_exact(&mut bytes).map_err(io)?;
        bytes.extend_from_slice(&tail);
    }
    file.rewind().map_err(io)?;
    if bytes.is_empty() {
        return Ok(());
    }
    // check_schema_depth wants a whole file: PAR1 + footer + tail.
    let mut whole = b"PAR1".to_vec();
    whole.extend_from_slice(&bytes);
    check_schema_depth(&whole)
}

/// Checks the nesting of the schema of the Parquet file whose bytes are
/// `file`; `Err` names what is wrong. A footer this reader cannot follow is
/// left to the `parquet` crate (which reports it), except where following it
/// would need a deeper stack than [`MAX_SCHEMA_DEPTH`].
pub(crate) fn check_schema_depth(file: &[u8]) -> Result<(), String> {
    let n = file.len();
    if n < 12 || &file[n - 4..] != b"PAR1" {
        return Ok(()); // not plain Parquet: the crate says so
    }
    let len = u32::from_le_bytes([file[n - 8], file[n - 7], file[n - 6], file[n - 5]]) as usize;
    if len > n - 8 {
        return Ok(());
    }
    let footer = &file[n - 8 - len..n - 8];
    let children = schema_children(footer)?;
    // Depth by an explicit stack of children still to come per open group.
    let mut open: Vec<i64> = Vec::new();
    for c in children {
        while open.last() == Some(&0) {
            open.pop();
        }
        if let Some(top) = open.last_mut() {
            *top -= 1;
        }
        if c > 0 {
            open.push(c);
            if open.len() > MAX_SCHEMA_DEPTH {
                return Err(format!(
                    "its schema nests deeper than {MAX_SCHEMA_DEPTH} levels"
                ));
            }
        }
    }
    Ok(())
}

/// The `num_children` of every schema element, in order (0 when absent).
fn schema_children(footer: &[u8]) -> Result<Vec<i64>, String> {
    let mut r = Reader { b: footer, at: 0 };
    let mut stack = vec![Frame::Struct {
        last: 0,
        role: Role::FileMetaData,
    }];
    let mut out: Vec<i64> = Vec::new();
    // The type of the value to read next and the role it plays.
    loop {
        if stack.len() > MAX_SCHEMA_DEPTH + 4 {
            return Err(format!(
                "its footer nests deeper than {} levels",
                MAX_SCHEMA_DEPTH + 4
            ));
        }
        let Some(top) = stack.last_mut() else { break };
        let (ty, id, parent_role) = match top {
            Frame::Struct { last, role } => {
                let h = r.byte()?;
                if h == STOP {
                    stack.pop();
                    continue;
                }
                // Field ids as the crate reads them: a delta added with an
                // overflow check (an overflow is the crate's error before any
                // schema is built: nothing for this guard to do), a long-form
                // id truncated to `i16`.
                let delta = i16::from(h >> 4);
                let id = if delta == 0 {
                    r.zigzag()? as i16
                } else {
                    match last.checked_add(delta) {
                        Some(id) => id,
                        None => return Ok(Vec::new()),
                    }
                };
                *last = id;
                (h & 0x0f, Some(id), *role)
            }
            Frame::Seq {
                left,
                ty,
                ty2,
                key,
                role,
            } => {
                if *left == 0 {
                    stack.pop();
                    continue;
                }
                let t = if *ty2 == 0 || *key { *ty } else { *ty2 };
                if *ty2 == 0 || !*key {
                    *left -= 1;
                }
                if *ty2 != 0 {
                    *key = !*key;
                }
                (t, None, *role)
            }
        };
        // The role of this value.
        let role = match (parent_role, id) {
            (Role::FileMetaData, Some(2)) => Role::SchemaList,
            (Role::SchemaList, None) => Role::SchemaElement,
            _ => Role::Other,
        };
        if role == Role::SchemaElement {
            out.push(0);
        }
        match ty {
            TRUE | FALSE => {
                if id.is_none() {
                    r.byte()?; // a bool in a list is one byte
                }
            }
            BYTE => {
                r.byte()?;
            }
            I16 | I32 | I64 => {
                let v = r.zigzag()?;
                if parent_role == Role::SchemaElement && id == Some(5) {
                    // `num_children` is an `i32` to the crate: the zig-zag
                    // value truncated, as its `read_i32` does. A negative
                    // count is the crate's error; counted as a leaf here.
                    if let Some(last) = out.last_mut() {
                        *last = i64::from((v as i32).max(0));
                    }
                }
            }
            DOUBLE => r.skip(8)?,
            UUID => r.skip(16)?,
            BINARY => {
                let len = r.varint()?;
                r.skip(len)?;
            }
            LIST | SET => {
                let h = r.byte()?;
                let mut size = u64::from(h >> 4);
                if size == 15 {
                    size = r.varint()?;
                }
                // Each element takes at least one byte: a size beyond the
                // footer is a lie, and nothing is allocated by it.
                if size > footer.len() as u64 {
                    return Err("a list longer than the footer".into());
                }
                stack.push(Frame::Seq {
                    left: size,
                    ty: h & 0x0f,
                    ty2: 0,
                    key: false,
                    role,
                });
            }
            MAP => {
                let size = r.varint()?;
                if size > footer.len() as u64 {
                    return Err("a map longer than the footer".into());
                }
                if size > 0 {
                    let kv = r.byte()?;
                    stack.push(Frame::Seq {
                        left: size,
                        ty: kv >> 4,
                        ty2: (kv & 0x0f).max(1),
                        key: true,
                        role: Role::Other,
                    });
                }
            }
            STRUCT => stack.push(Frame::Struct { last: 0, role }),
            _ => return Ok(Vec::new()), // not a type this reader knows: leave it to the crate
        }
    }
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    use codethread_testkit::parquet_nested as nested;

    /// Footers with bytes changed or cut short: an answer, never a panic or
    /// a hang (a deterministic xorshift, 20,000 mutants and their prefixes).
    #[test]
    fn mutated_footers_never_panic() {
        let base = nested(70);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let mut f = base.clone();
            let body = 4..f.len() - 8;
            for _ in 0..=(next() % 4) {
                let i = body.start + (next() as usize) % (body.end - body.start);
                match next() % 3 {
                    0 => f[i] = next() as u8,
                    1 => f[i] ^= 1 << (next() % 8),
                    _ => f[i] = 0xff,
                }
            }
            let _ = check_schema_depth(&f);
            let cut = (next() as usize) % f.len();
            let _ = check_schema_depth(&f[..cut]);
        }
    }

    #[test]
    fn depth_is_counted_without_recursion() {
        assert!(check_schema_depth(&nested(3)).is_ok());
        assert!(check_schema_depth(&nested(MAX_SCHEMA_DEPTH)).is_ok());
        let e = check_schema_depth(&nested(MAX_SCHEMA_DEPTH + 1)).unwrap_err();
        assert!(e.contains("deeper than 64"), "{e}");
        assert!(check_schema_depth(&nested(200_000)).is_err());
        // Truncated or foreign bytes are left to the crate or named.
        assert!(check_schema_depth(b"not parquet").is_ok());
        let mut cut = nested(5);
        let n = cut.len();
        cut[n - 8..n - 4].copy_from_slice(&3u32.to_le_bytes());
        let _ = check_schema_depth(&cut);
    }
}
