//! Numbers read from a patch (hunk line counts, `GIT binary patch` sizes,
//! delta sizes) never size an allocation before the data is seen: absurd
//! values give a typed error, never an abort. Each test runs in this process,
//! so an abort fails the whole test binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;

use codethread_patch::{
    diff_files, parse_patch, ApplyError, ApplyOptions, Binary, BinaryHunk, BinaryMethod,
    DiffOptions, FileChange, MemTree, ParseError,
};
use codethread_testkit::leb128;

fn header_patch(header: &str) -> Vec<u8> {
    format!("--- a/m.py\n+++ b/m.py\n{header}\n-x = 1\n+x = 2\n").into_bytes()
}

#[test]
fn absurd_hunk_counts_are_typed_errors() {
    for header in [
        "@@ -1,4294967297 +1,1 @@",
        "@@ -1,1 +1,4294967297 @@",
        "@@ -1,4294967295 +1,4294967295 @@",
        "@@ -1,999999999999999999 +1,1 @@",
        "@@ -1,1 +1,999999999999999999 @@",
        "@@ -1,999999999999999999 +1,999999999999999999 @@",
        "@@ -999999999999999999,999999999999999999 +1 @@",
        "@@ -1,18446744073709551615 +1,1 @@",
        "@@ -1,18446744073709551616 +1,1 @@",
        "@@ -1,99999999999999999999999 +1,1 @@",
    ] {
        match parse_patch(&header_patch(header)) {
            Err(ParseError::TruncatedHunk { .. } | ParseError::BadHunkHeader { .. }) => {}
            other => panic!("{header}: {other:?}"),
        }
    }
}

/// A parsed patch whose model was edited to carry absurd counts: applying it
/// is an error or a result, never an abort.
#[test]
fn absurd_counts_in_the_model_do_not_abort_apply() {
    let mut p = parse_patch(b"--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n").unwrap();
    let mut tree = MemTree::new();
    tree.insert(b"m.py".to_vec(), b"x = 1\n".to_vec());
    for n in [1usize << 40, 1 << 50, usize::MAX / 64, usize::MAX] {
        p.files[0].hunks[0].old_len = n;
        p.files[0].hunks[0].new_len = n;
        let mut t = tree.clone();
        // Whatever the answer, it must come back.
        let _ = t.apply(&p, &ApplyOptions::default());
    }
}

fn binary_patch() -> codethread_patch::Patch {
    let before = b"\x00\x01\x02binary\x00".to_vec();
    let after = b"\x00\x01\x03binary!\x00".to_vec();
    diff_files(
        &[FileChange::new(b"blob.bin", Some(&before), Some(&after))],
        &DiffOptions::default(),
    )
    .unwrap()
}

fn binary_tree() -> MemTree {
    let mut t = MemTree::new();
    t.insert(b"blob.bin".to_vec(), b"\x00\x01\x02binary\x00".to_vec());
    t
}

#[test]
fn absurd_literal_sizes_are_typed_errors() {
    for header in [
        "literal 99999999999",
        "literal 999999999999999999",
        "literal 4294967297",
        "literal 1000000000",
    ] {
        let p = binary_patch();
        let mut text = p.to_bytes();
        // The forward hunk is the first `literal N` line.
        let pos = text
            .windows(8)
            .position(|w| w == b"literal ")
            .expect("forward literal");
        let end = pos + text[pos..].iter().position(|&b| b == b'\n').unwrap();
        text.splice(pos..end, header.bytes());
        let p = parse_patch(&text).unwrap();
        let e = binary_tree()
            .apply(&p, &ApplyOptions::default())
            .unwrap_err();
        assert!(
            matches!(e, ApplyError::BinaryFailed { .. }),
            "{header}: {e}"
        );
    }
}

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn with_forward(hunk: BinaryHunk) -> codethread_patch::Patch {
    let mut p = binary_patch();
    p.files[0].binary = Some(Binary::Git {
        forward: hunk,
        reverse: None,
    });
    p.files[0].index = None;
    p
}

#[test]
fn absurd_delta_sizes_are_typed_errors() {
    let base_len = 10u64;
    for dst in [1u64 << 40, 1 << 56, u64::MAX >> 8, 99_999_999_999] {
        let mut delta = Vec::new();
        leb128(base_len, &mut delta);
        leb128(dst, &mut delta);
        // Copy the whole base, many times: 8 bytes of delta, 10 bytes out each.
        for _ in 0..64 {
            delta.extend_from_slice(&[0x91, 0, base_len as u8]);
        }
        let p = with_forward(BinaryHunk {
            method: BinaryMethod::Delta,
            size: delta.len() as u64,
            deflated: zlib(&delta),
        });
        let e = binary_tree()
            .apply(&p, &ApplyOptions::default())
            .unwrap_err();
        assert!(matches!(e, ApplyError::BinaryFailed { .. }), "{dst}: {e}");
    }
    // An announced delta size far beyond what the deflated bytes can hold.
    for size in [u64::MAX, 1 << 60, 99_999_999_999] {
        let p = with_forward(BinaryHunk {
            method: BinaryMethod::Delta,
            size,
            deflated: zlib(&[10, 3, 0x91, 0, 3]),
        });
        let r = binary_tree().apply(&p, &ApplyOptions::default());
        // The size is a claim: the data decides (here a valid delta).
        match r {
            Ok(_) | Err(ApplyError::BinaryFailed { .. }) => {}
            Err(e) => panic!("{size}: {e}"),
        }
    }
}

/// A delta whose copies amplify a tiny input into more than the largest file
/// any tool reads is refused before the output grows that far.
#[test]
fn delta_amplification_is_bounded() {
    let base = vec![7u8; 0x10000];
    let dst = 1u64 << 33; // 8 GiB announced
    let mut delta = Vec::new();
    leb128(base.len() as u64, &mut delta);
    leb128(dst, &mut delta);
    // Each `0x80` op copies 0x10000 bytes from offset 0.
    delta.extend(std::iter::repeat_n(0x80u8, (dst / 0x10000) as usize));
    let p = with_forward(BinaryHunk {
        method: BinaryMethod::Delta,
        size: delta.len() as u64,
        deflated: zlib(&delta),
    });
    let mut t = MemTree::new();
    t.insert(b"blob.bin".to_vec(), base);
    let e = t.apply(&p, &ApplyOptions::default()).unwrap_err();
    assert!(
        e.to_string().contains("limit"),
        "refused for its size, not by running out of memory: {e}"
    );
}
