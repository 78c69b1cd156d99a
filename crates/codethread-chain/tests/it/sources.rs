//! Sources: git (cat-file --batch, work tree untouched) and snapshots.

use std::path::Path;

use codethread_chain::ChainError;
use codethread_chain::{GitRepoDir, GitSource, SnapshotSource, SourceReader};

fn git(dir: &Path, args: &[&str]) -> String {
    codethread_testkit::git(dir, args)
}

#[test]
fn git_source_reads_bytes_at_commit_without_touching_the_work_tree() {
    let dir = std::env::temp_dir().join(format!("ct-chain-src-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let repo = dir.join("o__r");
    std::fs::create_dir_all(repo.join("sub dir")).expect("mkdir");
    git(&repo, &["init", "-q"]);
    let crlf = b"def f():\r\n\treturn 1\r\n".to_vec();
    let binary: Vec<u8> = (0u8..=255).chain([b'\n', 0, 0xff]).collect();
    std::fs::write(repo.join("sub dir/a b.py"), &crlf).expect("w");
    std::fs::write(repo.join("bin.dat"), &binary).expect("w");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-qm", "one"]);
    let c1 = git(&repo, &["rev-parse", "HEAD"]).trim().to_string();
    std::fs::write(repo.join("sub dir/a b.py"), b"changed\n").expect("w");
    git(&repo, &["commit", "-qam", "two"]);
    std::fs::write(repo.join("sub dir/a b.py"), b"dirty work tree\n").expect("w");

    let mut g = GitSource::new(&repo);
    // Many reads through one batch process.
    for _ in 0..50 {
        assert_eq!(
            g.read("i", &c1, "sub dir/a b.py").expect("read"),
            Some(crlf.clone())
        );
        assert_eq!(
            g.read("i", &c1, "bin.dat").expect("read"),
            Some(binary.clone())
        );
    }
    assert_eq!(g.read("i", &c1, "missing.py").expect("read"), None);
    match g.read("inst-7", "0123456789012345678901234567890123456789", "a.py") {
        Err(ChainError::NoSource {
            instance_id,
            problem: codethread_chain::NoSource::Commit { commit, .. },
        }) => {
            assert_eq!(instance_id, "inst-7");
            assert_eq!(commit, "0123456789012345678901234567890123456789");
        }
        other => panic!("{other:?}"),
    }
    assert!(g.read("i", &c1, "sub dir").is_err(), "a tree is not a file");
    // The work tree (dirty file) and HEAD are untouched.
    assert_eq!(
        std::fs::read(repo.join("sub dir/a b.py")).expect("r"),
        b"dirty work tree\n"
    );
    assert_eq!(
        git(&repo, &["status", "--porcelain"]).trim(),
        "M \"sub dir/a b.py\""
    );
    // A directory of repositories, found by owner__name.
    let mut d = GitRepoDir::new(&dir);
    assert!(d.select_repo("x/unknown").is_err());
    d.select_repo("o/r").expect("select");
    assert_eq!(d.read("i", &c1, "bin.dat").expect("read"), Some(binary));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshots_and_atomic_writes() {
    let dir = std::env::temp_dir().join(format!("ct-chain-snap-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let x = dir.join("i1/before/p/x.go");
    std::fs::create_dir_all(x.parent().expect("parent")).expect("mkdir");
    codethread_chain::lang::io::write_atomic(&x, b"package p\n").expect("write");
    let mut s = SnapshotSource::new(&dir);
    assert_eq!(
        s.read("i1", "c", "p/x.go").expect("read"),
        Some(b"package p\n".to_vec())
    );
    assert_eq!(s.read("i1", "c", "p/none.go").expect("read"), None);
    assert!(s.read("i1", "c", "../i1/before/p/x.go").is_err());
    assert!(s.read("i1", "c", "/etc/passwd").is_err());
    assert!(
        s.read("i1", "c", "p/.git/config").is_err(),
        "nothing inside .git"
    );
    // No temporary file is left beside the output.
    let names: Vec<String> = std::fs::read_dir(dir.join("i1/before/p"))
        .expect("ls")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["x.go"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 32: the failures of localization are typed, keep their source and
/// name their instance: a caller tells a missing snapshot from a gold patch
/// that is no diff or does not apply without reading messages.
#[test]
fn localization_failures_are_typed() {
    use codethread_chain::{localize_instance, NoSource};
    let row = |patch: &str| {
        let row = serde_json::json!({
            "instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
            "patch": patch, "FAIL_TO_PASS": ["t"], "PASS_TO_PASS": []
        });
        codethread_bench::parse_instances(Path::new("r.jsonl"), &row.to_string())
            .expect("row")
            .items
            .remove(0)
    };
    let dir = codethread_chain::lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-typed")
        .expect("temp dir");
    let good = "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n";
    // No snapshot of the instance.
    let e = localize_instance(&row(good), &mut SnapshotSource::new(dir.join("none")))
        .expect_err("an error");
    assert!(
        matches!(
            &e,
            ChainError::NoSource {
                problem: NoSource::Snapshot { .. },
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(e.instance_id(), Some("o__r-1"));
    std::fs::create_dir_all(dir.join("o__r-1/before")).expect("mkdir");
    std::fs::write(dir.join("o__r-1/before/m.py"), "def f():\n    return 3\n").expect("write");
    let mut src = SnapshotSource::new(&dir);
    // A gold patch that does not apply at base.
    let e = localize_instance(&row(good), &mut src).expect_err("an error");
    assert!(
        matches!(&e, ChainError::Apply { layer, .. } if layer == "gold patch"),
        "{e:?}"
    );
    assert!(e.to_string().contains("does not apply"), "{e}");
    // No gold patch, and one that is no diff.
    let e = localize_instance(&row(" "), &mut src).expect_err("an error");
    assert!(matches!(e, ChainError::NoGoldPatch { .. }), "{e:?}");
    let e =
        localize_instance(&row("diff --git a/m.py\n@@ nonsense"), &mut src).expect_err("an error");
    assert!(matches!(e, ChainError::PatchParse { .. }), "{e:?}");
    // An unsafe path is refused before any read.
    let e = localize_instance(
        &row("diff --git a/../x.py b/../x.py\n--- a/../x.py\n+++ b/../x.py\n@@ -1 +1 @@\n-a\n+b\n"),
        &mut src,
    )
    .expect_err("an error");
    assert!(
        matches!(
            &e,
            ChainError::UnsafePath { .. } | ChainError::PatchParse { .. }
        ),
        "{e:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
