//! Real-data suites: every SWE-bench gold patch, and the 41 chains/dev instances.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common::*;
use codethread_patch::{apply_to_dir, parse_patch, synthesize_images, ApplyOptions, FileOp};

/// All 800 gold patches (and their 800 test patches) of SWE-bench Verified +
/// Multilingual parse, and writing them back gives the exact input bytes.
#[test]
fn swebench_gold_patches_round_trip() {
    let Some(dir) = codethread_testkit::shared_path("swebench/swebench_datasets") else {
        return;
    };
    let mut n = 0;
    let mut files = 0;
    for name in [
        "SWE-bench_Verified.test.jsonl",
        "SWE-bench_Multilingual.test.jsonl",
    ] {
        for row in read_jsonl(&dir.join(name)) {
            let id = row["instance_id"].as_str().unwrap();
            for field in ["patch", "test_patch"] {
                let text = row[field].as_str().unwrap();
                let p =
                    parse_patch(text.as_bytes()).unwrap_or_else(|e| panic!("{id} {field}: {e}"));
                assert_eq!(p.to_bytes(), text.as_bytes(), "{id} {field}: round trip");
                // Every `diff --git` line became one file diff, no more, no fewer.
                let headers = text
                    .lines()
                    .filter(|l| l.starts_with("diff --git "))
                    .count();
                assert_eq!(p.files.len(), headers, "{id} {field}");
                assert!(p.trailer.is_empty(), "{id} {field}: stray trailing bytes");
                files += p.files.len();
                // Applying to pre-images synthesized from the hunks gives the
                // synthesized post-images (checks headers, counts, placement),
                // and reverse apply gives the pre-images back.
                let (pre, post) = synthesize_images(&p);
                let mut t = pre.clone();
                t.apply(&p, &ApplyOptions::default())
                    .unwrap_or_else(|e| panic!("{id} {field}: {e}"));
                assert_eq!(t, post, "{id} {field}: synthesized apply");
                t.apply(&p, &ApplyOptions::default().reverse(true))
                    .unwrap_or_else(|e| panic!("{id} {field} reverse: {e}"));
                assert_eq!(t, pre, "{id} {field}: synthesized reverse apply");
                n += 1;
            }
        }
    }
    assert_eq!(
        n, 1600,
        "500 Verified + 300 Multilingual rows, patch + test_patch each"
    );
    assert!(files >= 1600);
}

/// Every dev gold patch parses, round-trips, applies to before/ (in memory
/// and on disk) giving after/ byte for byte, and reverse-applies to after/
/// giving before/.
#[test]
fn dev_gold_patches_apply_exactly() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let insts = dev_instances(&dev);
    assert_eq!(insts.len(), 41);
    for (row, files) in insts {
        let id = row["instance_id"].as_str().unwrap();
        let text = row["patch"].as_str().unwrap();
        let patch = parse_patch(text.as_bytes()).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(patch.to_bytes(), text.as_bytes(), "{id}: round trip");
        let before = load_tree(&files.join("before"));
        let after = load_tree(&files.join("after"));

        let mut t = before.clone();
        t.apply(&patch, &ApplyOptions::default())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(t, after, "{id}: in-memory apply differs from git's after/");

        let tmp = tempfile::tempdir().unwrap();
        write_tree(&before, tmp.path());
        apply_to_dir(tmp.path(), &patch, &ApplyOptions::default())
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(
            load_tree(tmp.path()),
            after,
            "{id}: directory apply differs from git's after/"
        );

        let mut r = after.clone();
        r.apply(&patch, &ApplyOptions::default().reverse(true))
            .unwrap_or_else(|e| panic!("{id} reverse: {e}"));
        assert_eq!(r, before, "{id}: reverse apply");

        // Deleted files are absent after, created files absent before.
        for f in &patch.files {
            match f.op() {
                FileOp::Create => assert!(before.get(f.path()).is_none(), "{id}"),
                FileOp::Delete => assert!(after.get(f.path()).is_none(), "{id}"),
                _ => {}
            }
        }
    }
}

/// The changed-line numbers the applier reports (offsets included) equal the
/// `removed_lines` / `added_lines` of expected_targets.jsonl for every file.
#[test]
fn dev_changed_lines_match_expected() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let expected = read_jsonl(&dev.join("expected_targets.jsonl"));
    let mut checked = 0;
    for (row, files) in dev_instances(&dev) {
        let id = row["instance_id"].as_str().unwrap();
        let exp = expected
            .iter()
            .find(|e| e["instance_id"] == row["instance_id"])
            .expect("expected row");
        let patch = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
        let mut t = load_tree(&files.join("before"));
        let rep = t.apply(&patch, &ApplyOptions::default()).unwrap();
        for ef in exp["files"].as_array().unwrap() {
            let path = ef["path"].as_str().unwrap();
            let fr = rep
                .files
                .iter()
                .find(|f| {
                    f.new_path.as_deref() == Some(path) || f.old_path.as_deref() == Some(path)
                })
                .unwrap_or_else(|| panic!("{id}: {path} not in report"));
            let nums = |k: &str| -> Vec<usize> {
                ef[k]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as usize)
                    .collect()
            };
            assert_eq!(
                fr.removed_lines,
                nums("removed_lines"),
                "{id} {path} removed"
            );
            assert_eq!(fr.added_lines, nums("added_lines"), "{id} {path} added");
            checked += 1;
        }
    }
    assert!(checked >= 41);
}
