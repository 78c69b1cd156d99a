//! Malicious patches are refused, on disk and in memory, and nothing outside
//! the root is touched.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_patch::{apply_to_dir, parse_patch, ApplyError, ApplyOptions, MemTree};

fn create_patch(path: &str) -> Vec<u8> {
    format!("diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n+owned\n").into_bytes()
}

#[test]
fn traversal_absolute_and_git_dir_refused_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
    std::fs::write(root.join("ok.txt"), "ok\n").unwrap();
    for bad in [
        "../../etc/x",
        "../escape.txt",
        "sub/../../escape.txt",
        ".git/hooks/pre-commit",
        "sub/.git/config",
        ".GIT/hooks/x",
    ] {
        let p = parse_patch(&create_patch(bad)).unwrap();
        let e = apply_to_dir(&root, &p, &ApplyOptions::default()).unwrap_err();
        assert!(matches!(e, ApplyError::UnsafePath { .. }), "{bad}: {e}");
    }
    assert!(!tmp.path().join("escape.txt").exists());
    assert!(!root.join(".git/hooks/pre-commit").exists());
    // Absolute path through a rename header (rename names are not stripped).
    let p = parse_patch(b"diff --git a/ok.txt b/ok.txt\nsimilarity index 100%\nrename from ok.txt\nrename to /tmp/codethread-owned\n").unwrap();
    let e = apply_to_dir(&root, &p, &ApplyOptions::default()).unwrap_err();
    assert!(
        matches!(
            e,
            ApplyError::UnsafePath {
                reason: "absolute path",
                ..
            }
        ),
        "{e}"
    );
    assert!(root.join("ok.txt").exists());
}

#[cfg(unix)]
#[test]
fn symlinks_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    let outside = tmp.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret"), "secret\n").unwrap();
    std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret"), root.join("file-link")).unwrap();

    // Directory symlink on the way.
    let p = parse_patch(&create_patch("link/new")).unwrap();
    let e = apply_to_dir(&root, &p, &ApplyOptions::default()).unwrap_err();
    assert!(matches!(e, ApplyError::Symlink { .. }), "{e}");
    assert!(!outside.join("new").exists());

    // Modifying an existing file through a symlink.
    let p = parse_patch(b"--- a/link/secret\n+++ b/link/secret\n@@ -1 +1 @@\n-secret\n+owned\n")
        .unwrap();
    assert!(matches!(
        apply_to_dir(&root, &p, &ApplyOptions::default()),
        Err(ApplyError::Symlink { .. })
    ));
    let p =
        parse_patch(b"--- a/file-link\n+++ b/file-link\n@@ -1 +1 @@\n-secret\n+owned\n").unwrap();
    assert!(matches!(
        apply_to_dir(&root, &p, &ApplyOptions::default()),
        Err(ApplyError::Symlink { .. })
    ));
    assert_eq!(
        std::fs::read_to_string(outside.join("secret")).unwrap(),
        "secret\n"
    );

    // A patch creating a symlink is refused on disk.
    let p = parse_patch(b"diff --git a/l b/l\nnew file mode 120000\n--- /dev/null\n+++ b/l\n@@ -0,0 +1 @@\n+/etc/passwd\n\\ No newline at end of file\n").unwrap();
    assert!(matches!(
        apply_to_dir(&root, &p, &ApplyOptions::default()),
        Err(ApplyError::Symlink { .. })
    ));
    assert!(std::fs::symlink_metadata(root.join("l")).is_err());
}

#[test]
fn all_or_nothing_on_disk() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a"), "1\n").unwrap();
    std::fs::write(tmp.path().join("b"), "2\n").unwrap();
    // First file applies, second does not: nothing may change.
    let p = parse_patch(b"--- a/a\n+++ b/a\n@@ -1 +1 @@\n-1\n+one\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-X\n+two\n--- /dev/null\n+++ b/c/new\n@@ -0,0 +1 @@\n+n\n").unwrap();
    let e = apply_to_dir(tmp.path(), &p, &ApplyOptions::default()).unwrap_err();
    assert!(
        matches!(&e, ApplyError::HunkFailed { path, hunk: 1, .. } if path == "b"),
        "{e}"
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("a")).unwrap(),
        "1\n"
    );
    assert!(!tmp.path().join("c").exists());
    let mut names: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["a", "b"], "no temporary files left behind");
}

#[test]
fn memtree_refuses_the_same() {
    for bad in ["../../etc/x", ".git/hooks/post-checkout"] {
        let p = parse_patch(&create_patch(bad)).unwrap();
        let mut t = MemTree::new();
        assert!(t.apply(&p, &ApplyOptions::default()).is_err());
        assert!(t.files.is_empty());
    }
}

/// Temporary files get unpredictable names with an exclusive create: files
/// planted at every name a predictable scheme (`.<name>.codethread-patch.<pid>.<n>`)
/// would try neither block the write nor are written through.
#[test]
fn temporary_names_cannot_be_planted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("root");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("m.py"), "x = 1\n").unwrap();
    let outside = tmp.path().join("outside");
    std::fs::write(&outside, "keep\n").unwrap();
    for n in 0..100u32 {
        let planted = root.join(format!(".m.py.codethread-patch.{}.{n}", std::process::id()));
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, &planted).unwrap();
        #[cfg(not(unix))]
        std::fs::write(&planted, "").unwrap();
    }
    let p = parse_patch(b"--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n").unwrap();
    apply_to_dir(&root, &p, &ApplyOptions::default()).unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("m.py")).unwrap(),
        "x = 2\n"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep\n");
}
