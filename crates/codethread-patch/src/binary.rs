//! `GIT binary patch` support: git's base85 line encoding, zlib, and git's
//! delta format.

use std::io::{Read, Write};

const B85: &[u8; 85] =
    b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";

fn b85_value(c: u8) -> Option<u32> {
    B85.iter().position(|&x| x == c).map(|p| p as u32)
}

/// Decodes one data line (`<len char><base85>`) and appends the bytes.
pub(crate) fn decode_base85_line(line: &[u8], out: &mut Vec<u8>) -> Option<()> {
    let (&lc, data) = line.split_first()?;
    let len = match lc {
        b'A'..=b'Z' => usize::from(lc - b'A') + 1,
        b'a'..=b'z' => usize::from(lc - b'a') + 27,
        _ => return None,
    };
    if data.len() % 5 != 0 || data.len() / 5 * 4 < len || len.div_ceil(4) != data.len() / 5 {
        return None;
    }
    let mut remaining = len;
    for chunk in data.chunks(5) {
        let mut acc: u64 = 0;
        for &c in chunk {
            acc = acc * 85 + u64::from(b85_value(c)?);
        }
        if acc > u64::from(u32::MAX) {
            return None;
        }
        let bytes = (acc as u32).to_be_bytes();
        let take = remaining.min(4);
        out.extend_from_slice(&bytes[..take]);
        remaining -= take;
    }
    Some(())
}

/// Encodes `data` as git binary-patch data lines (52 bytes per line) and a
/// terminating blank line.
pub(crate) fn encode_base85_lines(data: &[u8], out: &mut Vec<u8>) {
    for chunk in data.chunks(52) {
        let n = chunk.len();
        out.push(if n <= 26 {
            b'A' + n as u8 - 1
        } else {
            b'a' + n as u8 - 27
        });
        for group in chunk.chunks(4) {
            let mut b = [0u8; 4];
            b[..group.len()].copy_from_slice(group);
            let mut acc = u32::from_be_bytes(b);
            let mut enc = [0u8; 5];
            for slot in enc.iter_mut().rev() {
                *slot = B85[(acc % 85) as usize];
                acc /= 85;
            }
            out.extend_from_slice(&enc);
        }
        out.push(b'\n');
    }
    out.push(b'\n');
}

/// The largest file a binary patch may produce (and the largest inflated
/// literal or delta it may carry): the default read limit of every tool,
/// [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`]. Sizes announced by a
/// patch are claims checked against this before any output grows; memory is
/// only ever reserved for bytes already seen.
pub const MAX_BINARY_BYTES: u64 = codethread_lang::io::DEFAULT_MAX_FILE_BYTES;

/// zlib-inflates `data`, refusing output larger than `limit` bytes.
pub(crate) fn inflate(data: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(data)
        .take(limit.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| format!("zlib: {e}"))?;
    if out.len() as u64 > limit {
        return Err("inflated data larger than announced".into());
    }
    Ok(out)
}

/// zlib-deflates `data`.
pub(crate) fn deflate(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    let _ = e.write_all(data);
    e.finish().unwrap_or_default()
}

fn varint(d: &[u8], pos: &mut usize) -> Result<u64, String> {
    let mut v: u64 = 0;
    let mut shift = 0;
    loop {
        let b = *d.get(*pos).ok_or("delta: truncated size")?;
        *pos += 1;
        if shift > 56 {
            return Err("delta: size too large".into());
        }
        v |= u64::from(b & 0x7f) << shift;
        shift += 7;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
}

/// Applies a git delta to `base`.
pub(crate) fn apply_delta(base: &[u8], delta: &[u8]) -> Result<Vec<u8>, String> {
    let mut pos = 0;
    let src_size = varint(delta, &mut pos)?;
    if src_size != base.len() as u64 {
        return Err(format!(
            "delta: base size {} but file has {} bytes",
            src_size,
            base.len()
        ));
    }
    let dst_size = varint(delta, &mut pos)?;
    if dst_size > MAX_BINARY_BYTES {
        return Err(format!(
            "delta: result size {dst_size} exceeds the limit of {MAX_BINARY_BYTES} bytes"
        ));
    }
    // The announced size is a claim: reserve no more than the bytes seen.
    let seen = (base.len() as u64).saturating_add(delta.len() as u64);
    let mut out = Vec::with_capacity(dst_size.min(seen) as usize);
    while pos < delta.len() {
        let op = delta[pos];
        pos += 1;
        if op & 0x80 != 0 {
            let mut off: u64 = 0;
            let mut size: u64 = 0;
            for k in 0..4 {
                if op & (1 << k) != 0 {
                    off |= u64::from(*delta.get(pos).ok_or("delta: truncated copy")?) << (8 * k);
                    pos += 1;
                }
            }
            for k in 0..3 {
                if op & (0x10 << k) != 0 {
                    size |= u64::from(*delta.get(pos).ok_or("delta: truncated copy")?) << (8 * k);
                    pos += 1;
                }
            }
            if size == 0 {
                size = 0x10000;
            }
            let end = off.checked_add(size).ok_or("delta: overflow")?;
            if end > base.len() as u64 {
                return Err("delta: copy outside base".into());
            }
            out.extend_from_slice(&base[off as usize..end as usize]);
        } else if op != 0 {
            let n = usize::from(op);
            let lit = delta.get(pos..pos + n).ok_or("delta: truncated insert")?;
            out.extend_from_slice(lit);
            pos += n;
        } else {
            return Err("delta: reserved opcode 0".into());
        }
        if out.len() as u64 > dst_size {
            return Err("delta: result larger than announced".into());
        }
    }
    if out.len() as u64 != dst_size {
        return Err("delta: result size mismatch".into());
    }
    Ok(out)
}

/// Git's blob id: SHA-1 of `blob <len>\0<content>`, lowercase hex.
pub fn blob_id(content: &[u8]) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(format!("blob {}\0", content.len()).as_bytes());
    h.update(content);
    h.digest().to_string()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn base85_round_trip() {
        for n in [0usize, 1, 3, 4, 5, 26, 27, 52, 53, 200] {
            let data: Vec<u8> = (0..n).map(|i| (i * 37 % 256) as u8).collect();
            let mut enc = Vec::new();
            encode_base85_lines(&data, &mut enc);
            let mut dec = Vec::new();
            for line in enc.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                decode_base85_line(line, &mut dec).expect("decodes");
            }
            assert_eq!(dec, data);
        }
    }

    #[test]
    fn blob_ids_match_git() {
        // `git hash-object /dev/null` and `printf 'hello\n' | git hash-object --stdin`.
        assert_eq!(blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        assert_eq!(
            blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn delta_ops() {
        let base = b"0123456789";
        // src 10, dst 7: copy off 2 len 3, insert "ab", copy off 8 len 2
        let delta = [10u8, 7, 0x91, 2, 3, 2, b'a', b'b', 0x91, 8, 2];
        assert_eq!(apply_delta(base, &delta).expect("delta"), b"234ab89");
        assert!(apply_delta(b"short", &delta).is_err());
        assert!(apply_delta(base, &[10, 7, 0x91, 9, 5]).is_err());
    }
}
