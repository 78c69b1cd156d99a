//! The targets of `shared/chains/dev/expected_targets.jsonl` (found
//! independently of codethread), skeletonized on each instance's `before/`
//! files by target id `path::qualname[#occurrence]`:
//!
//! - every target id resolves to exactly one function of the file (or is
//!   covered by an enclosing target of the same instance);
//! - each edit starts on the target's `header_end` line (right after the
//!   opener) and ends on its last line (Python: after it only comment lines
//!   of the body);
//! - the skeleton restores exactly, re-skeletonizes to itself, and the diff
//!   from the before file to the skeleton applies with plain `git apply`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use codethread_lang::parse_file;
use codethread_skeleton::{restore, skeletonize, split_occurrence, Options, Selector};
use serde_json::Value;

fn line_of(src: &[u8], byte: usize) -> usize {
    src[..byte].iter().filter(|&&b| b == b'\n').count() + 1
}

fn git_apply_ok(dir: &Path, before: &[u8], after: &[u8]) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "core.autocrlf=false",
                "-c",
                "user.email=t@t",
                "-c",
                "user.name=t",
            ])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        (
            out.status.success(),
            out.stdout,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    git(&["init", "-q"]);
    std::fs::write(dir.join("f"), before).unwrap();
    git(&["add", "f"]);
    git(&["commit", "-q", "-m", "before"]);
    std::fs::write(dir.join("f"), after).unwrap();
    let (_, patch, _) = git(&["diff", "--no-color"]);
    std::fs::write(dir.join("p.diff"), &patch).unwrap();
    git(&["checkout", "-q", "--", "f"]);
    let (ok, _, err) = git(&["apply", "p.diff"]);
    if !ok {
        return Err(err);
    }
    if std::fs::read(dir.join("f")).unwrap() != after {
        return Err("git apply gave other bytes".into());
    }
    Ok(())
}

#[test]
fn dev_targets_skeletonize_exactly() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let has_git = Command::new("git").arg("--version").output().is_ok();
    if !has_git {
        println!("SKIPPED: git not found; the git-apply gate did not run");
    }
    let tmp = std::env::temp_dir().join(format!("codethread-skeleton-dev-{}", std::process::id()));
    let text = std::fs::read_to_string(dev.join("expected_targets.jsonl")).unwrap();
    let (mut targets, mut edits, mut covered, mut files, mut applied) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    for line in text.lines() {
        let inst: Value = serde_json::from_str(line).unwrap();
        let id = inst["instance_id"].as_str().unwrap();
        let mut by_file: BTreeMap<String, Vec<&Value>> = BTreeMap::new();
        for t in inst["targets"].as_array().unwrap() {
            by_file
                .entry(t["path"].as_str().unwrap().to_string())
                .or_default()
                .push(t);
        }
        for (path, ts) in by_file {
            files += 1;
            let before =
                std::fs::read(dev.join("files").join(id).join("before").join(&path)).unwrap();
            let file = parse_file(
                Path::new(&path),
                before.clone(),
                &codethread_lang::ParseOptions::default(),
            )
            .unwrap();
            let ids: Vec<String> = inst["target_ids"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|v| v.as_str())
                .filter_map(|s| s.strip_prefix(&format!("{path}::")).map(str::to_string))
                .collect();
            assert_eq!(ids.len(), ts.len(), "{id} {path}");
            let sels: Vec<Selector> = ids.iter().map(|q| Selector::Qualname(q.clone())).collect();
            let sk = match skeletonize(&file, &sels, &Options::default()) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{id} {path}: {e}"));
                    continue;
                }
            };
            assert!(
                sk.unmatched.is_empty(),
                "{id} {path}: unmatched {:?}",
                sk.unmatched
            );
            for (q, t) in ids.iter().zip(&ts) {
                targets += 1;
                let (name, _) = split_occurrence(q);
                assert_eq!(name, t["qualname"].as_str().unwrap());
                let (start, end, header_end) = (
                    t["start"].as_u64().unwrap() as usize,
                    t["end"].as_u64().unwrap() as usize,
                    t["header_end"].as_u64().unwrap() as usize,
                );
                let Some(e) = sk
                    .edits
                    .iter()
                    .find(|e| &e.function == q || e.function == name && !q.contains('#'))
                else {
                    // Must be covered by another target's edit.
                    let inside = sk.edits.iter().any(|e| {
                        let (es, ee) =
                            (line_of(&before, e.start_byte), line_of(&before, e.end_byte));
                        es <= start && end <= ee
                    });
                    if inside {
                        covered += 1;
                    } else {
                        failures.push(format!(
                            "{id} {path}: {q} not edited; skipped {:?}",
                            sk.skipped
                        ));
                    }
                    continue;
                };
                edits += 1;
                let (es, ee) = (line_of(&before, e.start_byte), line_of(&before, e.end_byte));
                let tail_ok = ee == end
                    || (ee > end
                        && before[e.start_byte..e.end_byte]
                            .split(|&b| b == b'\n')
                            .skip(end + 1 - es)
                            .all(|l| {
                                let l = String::from_utf8_lossy(l);
                                let l = l.trim();
                                l.is_empty() || l.starts_with('#')
                            }));
                if !(start <= e.line && e.line <= header_end && es == header_end && tail_ok) {
                    failures.push(format!(
                        "{id} {path}: {q}: edit lines {es}-{ee} (def line {}), expected span {start}-{end} header_end {header_end}",
                        e.line
                    ));
                }
            }
            assert_eq!(
                restore(&sk.text, &sk.edits, &before).unwrap(),
                before,
                "{id} {path}"
            );
            let again = skeletonize(
                &codethread_lang::parse(file.lang, sk.text.clone()).unwrap(),
                &sels,
                &Options::default(),
            )
            .unwrap();
            assert!(again.edits.is_empty(), "{id} {path}: second run edited");
            if has_git {
                match git_apply_ok(&tmp, &before, &sk.text) {
                    Ok(()) => applied += 1,
                    Err(e) => failures.push(format!("{id} {path}: git apply: {e}")),
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("dev targets: {targets} targets in {files} files: {edits} edited, {covered} covered by an enclosing target; {applied} skeleton diffs applied with git apply");
    for f in &failures {
        println!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} failures", failures.len());
    assert_eq!(targets, 100);
}
