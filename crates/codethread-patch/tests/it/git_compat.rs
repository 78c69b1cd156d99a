//! Every diff this crate writes is accepted by the real `git apply` and gives
//! the same bytes as our own applier.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use codethread_patch::{
    diff_files, diff_trees, parse_patch, ApplyOptions, DiffOptions, FileChange, MemTree, TreeFile,
};
use proptest::prelude::*;

/// Writes `before` into a fresh git repo, runs `git apply --check` and
/// `git apply` on `patch`, and returns the resulting tree.
fn git_apply(before: &MemTree, patch: &[u8]) -> Result<MemTree, String> {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("w");
    std::fs::create_dir(&work).unwrap();
    write_tree(before, &work);
    let (ok, err) = git(&work, &["init", "-q", "."]);
    assert!(ok, "{err}");
    let pfile = tmp.path().join("p.diff");
    std::fs::write(&pfile, patch).unwrap();
    let p = pfile.to_str().unwrap();
    let (ok, err) = git(&work, &["apply", "--check", p]);
    if !ok {
        return Err(format!("git apply --check: {err}"));
    }
    let (ok, err) = git(&work, &["apply", p]);
    if !ok {
        return Err(format!("git apply: {err}"));
    }
    std::fs::remove_dir_all(work.join(".git")).unwrap();
    Ok(load_tree(&work))
}

fn tree(files: &[(&[u8], &[u8])]) -> MemTree {
    let mut t = MemTree::new();
    for (p, c) in files {
        t.insert(*p, *c);
    }
    t
}

fn check_with_git(before: &MemTree, after: &MemTree) {
    check_with_git_opts(before, after, &DiffOptions::default());
    // The sealed form (forward-only literals) of the same change.
    check_with_git_opts(before, after, &DiffOptions::default().literal(true));
}

fn check_with_git_opts(before: &MemTree, after: &MemTree, opts: &DiffOptions) {
    let patch = diff_trees(before, after, opts).expect("diff");
    let bytes = patch.to_bytes();
    assert_eq!(
        parse_patch(&bytes)
            .map(|p| p.to_bytes())
            .unwrap_or_default(),
        bytes
    );
    let mut ours = before.clone();
    ours.apply(&patch, &ApplyOptions::default())
        .expect("our apply");
    assert_eq!(
        &ours,
        after,
        "our apply\n{}",
        String::from_utf8_lossy(&bytes)
    );
    let theirs = git_apply(before, &bytes)
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));
    assert_eq!(
        &theirs,
        after,
        "git apply\n{}",
        String::from_utf8_lossy(&bytes)
    );
}

#[test]
fn edge_cases_accepted_by_git() {
    let before = tree(&[
        (b"plain.txt", b"a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"),
        (b"no eol.txt", b"one\ntwo"),
        (b"crlf.txt", b"x\r\ny\r\nz\r\n"),
        (
            "caf\u{e9}/\u{fc}ber.py".as_bytes(),
            b"def f():\n    return 1\n",
        ),
        (b"tab\there", b"t\n"),
        (b"quote\"name", b"q\n"),
        (b"deleted.txt", b"bye\n"),
        (b"emptied.txt", b"content\n"),
        (b"bin.dat", b"\0\x01\x02binary\xff"),
        (b"latin1.txt", b"caf\xe9\n"),
    ]);
    let after = tree(&[
        (b"plain.txt", b"a\nB\nc\nd\ne\nf\ng\nh\nI\nj\n"),
        (b"no eol.txt", b"one\ntwo\nthree"),
        (b"crlf.txt", b"x\r\nY\r\nz\n"),
        (
            "caf\u{e9}/\u{fc}ber.py".as_bytes(),
            b"def f():\n    return 2\n",
        ),
        (b"tab\there", b"t\nu\n"),
        (b"quote\"name", b"Q"),
        (b"new dir/new file.txt", b"hello\n"),
        (b"new-empty", b""),
        (b"emptied.txt", b""),
        (b"bin.dat", b"\0\x01\x02binary\xfe\x00more"),
        (b"latin1.txt", b"caf\xe9 cr\xe8me\n"),
        (b"newbin.dat", b"\0\0\0"),
    ]);
    check_with_git(&before, &after);
}

/// Traditional diffs (no `diff --git`, as the paper's PR0 patches) become
/// git diffs that git applies with the same result.
#[test]
fn traditional_diffs_normalized_for_git() {
    let before = tree(&[
        (b"src/m.py", b"def f():\n    return 1\n"),
        (b"old.txt", b"x\n"),
    ]);
    // svn style (no a/ b/ prefixes): parse with -p0.
    let svn = b"Index: src/m.py\n===================================================================\n--- src/m.py\t(revision 1)\n+++ src/m.py\t(working copy)\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    raise NotImplementedError\n";
    let p0 = codethread_patch::parse_with_strip(svn, 0).unwrap();
    assert_eq!(p0.files[0].new_path.as_deref(), Some(&b"src/m.py"[..]));
    assert_eq!(
        parse_patch(svn).unwrap().files[0].new_path.as_deref(),
        Some(&b"m.py"[..]),
        "-p1 like git"
    );
    let text = b"--- a/src/m.py\n+++ b/src/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    raise NotImplementedError\n--- a/new dir/n.py\n+++ b/new dir/n.py\n@@ -0,0 +1 @@\n+x = 1\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
    let p = parse_patch(text).unwrap();
    let g = codethread_patch::to_git_format(&p).unwrap();
    let bytes = g.to_bytes();
    assert!(
        bytes.starts_with(b"diff --git a/src/m.py b/src/m.py\n--- a/src/m.py\n"),
        "{}",
        String::from_utf8_lossy(&bytes)
    );
    let mut ours = before.clone();
    ours.apply(&p, &ApplyOptions::default()).unwrap();
    let theirs = git_apply(&before, &bytes)
        .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&bytes)));
    assert_eq!(theirs, ours);
    assert_eq!(ours.get(b"new dir/n.py"), Some(&b"x = 1\n"[..]));
    let g0 = codethread_patch::to_git_format(&p0).unwrap();
    let mut ours0 = before.clone();
    ours0.apply(&p0, &ApplyOptions::default()).unwrap();
    assert_eq!(git_apply(&before, &g0.to_bytes()).unwrap(), ours0);
}

/// PR1 + PR2 stacked into one diff: git applies it to the base and gets the
/// state after both (dev instances: gold patch, then a second edit on top).
#[test]
fn compose_stacked_patches() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    for (row, files) in dev_instances(&dev).into_iter().take(12) {
        let id = row["instance_id"].as_str().unwrap();
        let before = load_tree(&files.join("before"));
        let after = load_tree(&files.join("after"));
        let pr1 = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
        // PR2: append a line to every file PR1 left behind.
        let mut after2 = after.clone();
        for f in after2.files.values_mut() {
            f.content.extend_from_slice(b"\n# pr2\n");
        }
        let pr2 = diff_trees(&after, &after2, &DiffOptions::default()).unwrap();
        let both = codethread_patch::compose(&before, &[&pr1, &pr2])
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let theirs = git_apply(&before, &both.to_bytes()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(theirs, after2, "{id}");
    }
}

#[test]
fn mode_changes_accepted_by_git() {
    let mut before = tree(&[(b"s.sh", b"echo\n")]);
    let mut after = before.clone();
    after.files.insert(
        b"s.sh".to_vec(),
        TreeFile {
            content: b"echo hi\n".to_vec(),
            mode: 0o100755,
        },
    );
    let p = diff_trees(&before, &after, &DiffOptions::default()).unwrap();
    let text = String::from_utf8(p.to_bytes()).unwrap();
    assert!(
        text.contains("old mode 100644\nnew mode 100755\n"),
        "{text}"
    );
    let (ok, _) = {
        let tmp = tempfile::tempdir().unwrap();
        write_tree(&before, tmp.path());
        git(tmp.path(), &["init", "-q", "."]);
        std::fs::write(tmp.path().join("p"), text.as_bytes()).unwrap();
        let r = git(tmp.path(), &["apply", "p"]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let m = std::fs::metadata(tmp.path().join("s.sh"))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(m & 0o111, 0o111, "git made it executable");
        }
        r
    };
    assert!(ok);
    before.apply(&p, &ApplyOptions::default()).unwrap();
    assert_eq!(before, after);
}

/// Re-diffing every dev instance's before/ and after/ gives a patch that
/// git applies to the same after/ bytes.
#[test]
fn dev_rediffs_accepted_by_git() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    for (row, files) in dev_instances(&dev) {
        let id = row["instance_id"].as_str().unwrap();
        let before = load_tree(&files.join("before"));
        let after = load_tree(&files.join("after"));
        let patch = diff_trees(&before, &after, &DiffOptions::default())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let theirs = git_apply(&before, &patch.to_bytes()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(theirs, after, "{id}");
        let mut ours = before.clone();
        ours.apply(&patch, &ApplyOptions::default())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(ours, after, "{id}");
    }
}

fn content() -> impl Strategy<Value = Vec<u8>> {
    // Few distinct lines so diffs have repeats, moves and close changes.
    let line = prop_oneof![
        Just(b"a\n".to_vec()),
        Just(b"b\n".to_vec()),
        Just(b"c\r\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"  indented\n".to_vec()),
        Just(b"\xff\xfe bytes\n".to_vec()),
        "[a-z ]{0,6}\n".prop_map(|s| s.into_bytes()),
    ];
    (
        prop::collection::vec(line, 0..40),
        prop::option::of("[a-z]{1,4}"),
    )
        .prop_map(|(lines, tail)| {
            let mut v: Vec<u8> = lines.concat();
            if let Some(t) = tail {
                v.extend_from_slice(t.as_bytes()); // last line without newline
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// create → parse → write gives the same bytes; create → apply gives after;
    /// reverse apply gives before.
    #[test]
    fn create_parse_apply_round_trip(before in content(), after in content(), ctx in 0usize..5) {
        let opts = DiffOptions::default().context(ctx);
        let p = diff_files(&[FileChange::new(b"f", Some(&before), Some(&after))], &opts).unwrap();
        let bytes = p.to_bytes();
        if before == after {
            prop_assert!(bytes.is_empty());
        } else {
            prop_assert_eq!(parse_patch(&bytes).unwrap().to_bytes(), bytes.clone());
            let mut t = tree(&[(b"f", &before)]);
            // -U0 patches need git's --unidiff-zero, as in git.
            let aopts = ApplyOptions::default().unidiff_zero(ctx == 0);
            t.apply(&p, &aopts).unwrap();
            prop_assert_eq!(t.get(b"f"), Some(after.as_slice()));
            t.apply(&p, &aopts.reverse(true)).unwrap();
            prop_assert_eq!(t.get(b"f"), Some(before.as_slice()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// The real git accepts random diffs we write (fewer cases: each runs git).
    #[test]
    fn git_accepts_random_diffs(before in content(), after in content()) {
        // Equal contents give the empty diff, which git refuses ("No valid
        // patches in input"); `create_parse_apply_round_trip` covers it.
        prop_assume!(before != after);
        let b = tree(&[(b"f", &before)]);
        let a = tree(&[(b"f", &after)]);
        check_with_git(&b, &a);
    }
}

/// Diffs written by the real git (`--binary -M -C`: renames and copies with
/// similarity, binary literal and delta hunks, mode changes, quoted
/// non-ASCII names, CRLF, deletions) parse, round-trip, and apply to the
/// same bytes git produced.
#[test]
fn git_generated_diffs_parse_and_apply() {
    let tmp = tempfile::tempdir().unwrap();
    let w = tmp.path();
    let big: Vec<u8> = (0..20_000u32)
        .flat_map(|i| format!("line {i} of a long text file\n").into_bytes())
        .collect();
    let mut bin: Vec<u8> = (0..60_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    bin[0] = 0;
    let before = tree(&[
        (b"keep.py", b"def f():\n    return 1\n"),
        (b"moved.txt", big.as_slice()),
        (b"copied.txt", big.as_slice()),
        (b"data.bin", bin.as_slice()),
        (b"gone.txt", b"bye\n"),
        ("caf\u{e9} dir/\u{fc}.txt".as_bytes(), b"a\r\nb\r\n"),
        (b"run.sh", b"#!/bin/sh\n"),
    ]);
    write_tree(&before, w);
    assert!(git(w, &["init", "-q", "."]).0);
    assert!(git(w, &["add", "-A"]).0);
    assert!(
        git(
            w,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-qm",
                "base"
            ]
        )
        .0
    );
    // Edits.
    let mut after = before.clone();
    let mut moved = big.clone();
    moved.extend_from_slice(b"appended\n");
    after.files.remove(&b"moved.txt"[..]);
    after.insert(&b"renamed/moved.txt"[..], moved);
    let mut copy = big.clone();
    copy.splice(0..0, b"copy header\n".iter().copied());
    after.insert(&b"copy-of-copied.txt"[..], copy);
    let mut bin2 = bin.clone();
    bin2[30_000..30_010].copy_from_slice(b"0123456789");
    after.insert(&b"data.bin"[..], bin2);
    after.files.remove(&b"gone.txt"[..]);
    after.insert("caf\u{e9} dir/\u{fc}.txt".as_bytes(), &b"a\r\nB\r\nc"[..]);
    after.files.get_mut(&b"run.sh"[..]).unwrap().mode = 0o100755;
    for p in [&b"moved.txt"[..], b"gone.txt"] {
        std::fs::remove_file(w.join(String::from_utf8_lossy(p).as_ref())).unwrap();
    }
    write_tree(&after, w);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(w.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert!(git(w, &["add", "-A"]).0);
    let out = std::process::Command::new("git")
        .args([
            "diff",
            "--cached",
            "--binary",
            "-M",
            "-C",
            "--find-copies-harder",
            "HEAD",
        ])
        .current_dir(w)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = out.stdout;
    let p =
        parse_patch(&text).unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&text)));
    assert_eq!(p.to_bytes(), text);
    let s = String::from_utf8_lossy(&text);
    assert!(
        s.contains("rename from moved.txt") && s.contains("\ncopy from "),
        "{s}"
    );
    assert!(s.contains("GIT binary patch"), "{s}");
    assert!(p
        .files
        .iter()
        .any(|f| f.is_rename && f.similarity.is_some()));
    assert!(p.files.iter().any(|f| f.is_copy && f.similarity.is_some()));
    let mut t = before.clone();
    t.apply(&p, &ApplyOptions::default())
        .unwrap_or_else(|e| panic!("{e}\n{s}"));
    assert_eq!(t, after);
    // git apply -R refuses to reverse a copy ("already exists"); so do we.
    let rev = ApplyOptions::default().reverse(true);
    let e = t.apply(&p, &rev);
    assert!(
        matches!(e, Err(codethread_patch::ApplyError::AlreadyExists { .. })),
        "{e:?}"
    );
    assert_eq!(t, after, "unchanged after the refused reverse");
    // Without the copy, the reverse restores the base (plus the copy).
    let mut no_copy = p.clone();
    no_copy.files.retain(|f| !f.is_copy);
    let mut base = before.clone();
    base.insert(
        &b"copy-of-copied.txt"[..],
        after.get(b"copy-of-copied.txt").unwrap(),
    );
    t.apply(&no_copy, &rev).unwrap();
    assert_eq!(t, base);
}

/// A file large enough that its line diff is cut at unique lines first
/// (over 20,000 lines on both sides), edited all over, with lines removed,
/// added and moved: git applies the diff with the same result.
#[test]
fn a_large_file_diff_cut_at_anchors_applies_with_git() {
    let before: String = (0..6000)
        .map(|i| format!("def f{i}(a):\n    x = a\n    if x:\n        return 1\n    return -x\n\n"))
        .collect();
    let after: String = before
        .split_inclusive("\n\n")
        .enumerate()
        .map(|(i, f)| match i % 3 {
            0 => f.replace("    return -x\n", "    return -x - 1\n"),
            1 => f.replace("    x = a\n", ""),
            _ => f.replace("    if x:\n", "    y = 2\n    if x:\n"),
        })
        .chain(std::iter::once("def moved():\n    return 0\n".to_string()))
        .collect();
    let b = tree(&[(b"big.py", before.as_bytes())]);
    let a = tree(&[(b"big.py", after.as_bytes())]);
    check_with_git(&b, &a);
    check_with_git(&a, &b);
}
