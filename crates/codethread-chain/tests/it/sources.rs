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
        Err(ChainError::Instance {
            instance_id,
            message,
        }) => {
            assert_eq!(instance_id, "inst-7");
            assert!(message.contains("0123456789"), "{message}");
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
