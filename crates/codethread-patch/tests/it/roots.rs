//! A directory-mode call whose root is missing, or a file, names the root
//! and what is wrong with it, never a file of the patch (issue 24).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_patch::{
    apply_to_dir, localize_in_dir, parse_patch, ApplyError, ApplyOptions, LocalizeOptions,
};

const PATCH: &[u8] =
    b"--- a/pkg/m.py\n+++ b/pkg/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n";

fn scratch(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("codethread-roots-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_missing_root_is_named_not_the_patch_file() {
    let d = scratch("missing");
    let gone = d.join("no-such-checkout");
    let e = localize_in_dir(
        &gone,
        PATCH,
        0,
        &LocalizeOptions::default().max_file_bytes(1 << 20),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("no-such-checkout") && e.contains("no such directory"),
        "{e}"
    );
    assert!(!e.contains("does not exist (file diff"), "{e}");
    let p = parse_patch(PATCH).unwrap();
    let e = apply_to_dir(&gone, &p, &ApplyOptions::default()).unwrap_err();
    assert!(
        matches!(&e, ApplyError::Root { root, .. } if root.ends_with("no-such-checkout")),
        "{e}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_root_that_is_a_file_is_named() {
    let d = scratch("file");
    let f = d.join("checkout.tar");
    std::fs::write(&f, b"x").unwrap();
    let e = localize_in_dir(
        &f,
        PATCH,
        0,
        &LocalizeOptions::default().max_file_bytes(1 << 20),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("checkout.tar") && e.contains("not a directory"),
        "{e}"
    );
    // A real root still works, and a file missing below it is still the file's error.
    std::fs::create_dir_all(d.join("root/pkg")).unwrap();
    std::fs::write(d.join("root/pkg/m.py"), b"def f():\n    return 1\n").unwrap();
    let (_, loc) = localize_in_dir(
        &d.join("root"),
        PATCH,
        0,
        &LocalizeOptions::default().max_file_bytes(1 << 20),
    )
    .unwrap();
    assert_eq!(loc.targets.len(), 1, "{loc:?}");
    std::fs::remove_file(d.join("root/pkg/m.py")).unwrap();
    let e = localize_in_dir(
        &d.join("root"),
        PATCH,
        0,
        &LocalizeOptions::default().max_file_bytes(1 << 20),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("pkg/m.py"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}
