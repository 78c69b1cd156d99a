//! The properties checked by the fuzz targets, shared by the libFuzzer
//! targets (`cargo +nightly fuzz run parse|apply|create`) and the plain
//! stable driver (`cargo run --release --no-default-features --bin driver`).
//! A property violation panics (that is what a fuzzer reports).

use codethread_patch::{
    diff_files, parse_patch, synthesize_images, ApplyOptions, DiffOptions, FileChange, MemTree,
};

/// Parsing never panics; a parsed patch writes back to the exact input, and
/// applying it to pre-images synthesized from its hunks never panics.
pub fn check_parse(data: &[u8]) {
    if let Ok(p) = parse_patch(data) {
        assert_eq!(p.to_bytes(), data, "round trip");
        let (pre, _post) = synthesize_images(&p);
        let mut t = pre.clone();
        if t.apply(&p, &ApplyOptions::default()).is_ok() {
            let _ = t.apply(&p, &ApplyOptions::default().reverse(true));
        }
    }
}

/// `data` = file content, NUL NUL, patch text. Applying (forward, reverse,
/// with and without fuzz) to that content never panics, and a failed apply
/// leaves the tree unchanged.
pub fn check_apply(data: &[u8]) {
    let Some(sep) = data.windows(2).position(|w| w == b"\0\0") else { return };
    let (content, patch) = (&data[..sep], &data[sep + 2..]);
    let Ok(p) = parse_patch(patch) else { return };
    let mut tree = MemTree::new();
    for f in &p.files {
        for path in [&f.old_path, &f.new_path].into_iter().flatten() {
            tree.insert(path.clone(), content);
        }
    }
    for opts in [
        ApplyOptions::default(),
        ApplyOptions::default().reverse(true),
        ApplyOptions::default().fuzz(2),
        ApplyOptions::default().unidiff_zero(true),
    ] {
        let mut t = tree.clone();
        if t.apply(&p, &opts).is_err() {
            assert_eq!(t, tree, "failed apply changed the tree");
        }
    }
}

/// `data` = before, NUL NUL, after. The diff this crate writes parses back
/// to the same bytes, applies to before giving after, and reverse-applies.
pub fn check_create(data: &[u8]) {
    let (before, after) = match data.windows(2).position(|w| w == b"\0\0") {
        Some(sep) => (&data[..sep], &data[sep + 2..]),
        None => (data, &b""[..]),
    };
    let Ok(p) = diff_files(&[FileChange::new(b"f", Some(before), Some(after))], &DiffOptions::default()) else {
        panic!("diff_files failed on a safe path");
    };
    let bytes = p.to_bytes();
    if before == after {
        assert!(bytes.is_empty());
        return;
    }
    let reparsed = parse_patch(&bytes).expect("created diff parses");
    assert_eq!(reparsed.to_bytes(), bytes);
    let mut t = MemTree::new();
    t.insert(&b"f"[..], before);
    t.apply(&p, &ApplyOptions::default()).expect("created diff applies");
    assert_eq!(t.get(b"f"), Some(after));
    t.apply(&p, &ApplyOptions::default().reverse(true)).expect("reverse applies");
    assert_eq!(t.get(b"f"), Some(before));
}
