//! Reliability of the chain pipeline on damaged, hostile or unusual inputs
//! (issue 11): non-UTF-8 code through every export, special files, damaged
//! instance directories, unloadable and duplicate rows, predictable temp
//! names and planted links. Every test uses several inputs of its class.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use codethread_bench::load_reports_dir;
use codethread_bench::{load_instances, Instance};
use codethread_bench::{
    load_patch_predictions, load_predictions, predictions_to_jsonl, Prediction,
};
use codethread_chain::SnapshotSource;
use codethread_chain::{build, stack, BuildOptions, BuildStatus, Chain, Layer};
use codethread_llm::import_answers;
use serde_json::{json, Value};

static N: AtomicUsize = AtomicUsize::new(0);

/// A fresh directory for one test.
fn tmp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "ct-chain-rel-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// An independent base64 decoder (RFC 4648, padded), the reference the
/// library's encoding is checked against.
fn b64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("bad base64 byte {c}"),
        }
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let mut acc = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            acc |= val(c) << (18 - 6 * i);
        }
        let n = chunk.len() * 6 / 8;
        for i in 0..n {
            out.push((acc >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// The bytes of a patch field of a JSON row: `<field>_b64` first, else the text.
fn field_bytes(row: &Value, field: &str) -> Vec<u8> {
    if let Some(b) = row.get(format!("{field}_b64")).and_then(Value::as_str) {
        return b64_decode(b);
    }
    row.get(field)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no {field} in {row}"))
        .as_bytes()
        .to_vec()
}

/// Contents of m.py in which function `f` holds non-UTF-8 bytes (one
/// variant per kind of byte sequence).
fn variants() -> Vec<(&'static str, Vec<u8>)> {
    let body = |line: &[u8], eol: &[u8]| {
        let mut v = Vec::new();
        for l in [
            &b"def f(x):"[..],
            line,
            b"    a = 1",
            b"    b = 2",
            b"    return x + 1",
            b"",
            b"",
            b"def g():",
            b"    return 2",
        ] {
            v.extend_from_slice(l);
            v.extend_from_slice(eol);
        }
        v
    };
    vec![
        ("latin1", body(b"    s = \"caf\xe9\"", b"\n")),
        ("lone_ff", body(b"    s = b\"\xff\"  # \xff", b"\n")),
        ("cp1252", body(b"    s = \"\x93quoted\x94\"", b"\n")),
        ("comment", body(b"    # na\xefve \xe0 la", b"\n")),
        ("crlf", body(b"    s = \"\xe9t\xe9\"", b"\r\n")),
        ("truncated_utf8", body(b"    s = \"\xe2\x82\"", b"\n")),
    ]
}

fn gold_for(content: &[u8]) -> String {
    let eol = if content.windows(2).any(|w| w == b"\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    format!(
        "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -4,3 +4,3 @@\n     b = 2{eol}-    return x + 1{eol}+    return x + 2{eol} {eol}"
    )
}

/// Snapshots + instances file for the variants; returns (instances, snapshots).
fn fixture(dir: &Path, ids: &[(String, Vec<u8>)]) -> (PathBuf, PathBuf) {
    let snaps = dir.join("snaps");
    let mut lines = String::new();
    for (id, content) in ids {
        let f = snaps.join(id).join("before/m.py");
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(&f, content).unwrap();
        let row = json!({"instance_id": id, "repo": "o/r", "base_commit": "c0",
            "patch": gold_for(content), "FAIL_TO_PASS": ["t::f"], "PASS_TO_PASS": []});
        lines.push_str(&row.to_string());
        lines.push('\n');
    }
    let inst = dir.join("instances.jsonl");
    std::fs::write(&inst, lines).unwrap();
    (inst, snaps)
}

fn load(p: &Path) -> Vec<Instance> {
    let l = load_instances(p, Default::default()).unwrap();
    assert!(l.errors.is_empty(), "{:?}", l.errors);
    l.items
}

fn jsonl(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `git apply --check` of `patch` in a repository holding `files`.
fn git_apply_check(files: &[(&str, &[u8])], patch: &[u8]) -> Result<(), String> {
    let d = tmp("apply");
    let ok = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&d)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    for (p, b) in files {
        std::fs::write(d.join(p), b).unwrap();
    }
    std::fs::write(format!("{}.patch", d.display()), patch).unwrap();
    let out = Command::new("git")
        .args(["-c", "core.autocrlf=false", "apply", "--check"])
        .arg(format!("{}.patch", d.display()))
        .current_dir(&d)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(format!("{}.patch", d.display()));
    let _ = std::fs::remove_dir_all(&d);
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn opts(out: &Path) -> BuildOptions {
    BuildOptions::default().out(out.to_path_buf())
}

fn ids_of(v: &[(&str, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    v.iter()
        .map(|(t, c)| (format!("o__r-{t}"), c.clone()))
        .collect()
}

// ---------------------------------------------------------------- defect 4

#[test]
fn non_utf8_code_survives_every_export_byte_exact() {
    let d = tmp("utf8");
    let ids = ids_of(&variants());
    let (inst, snaps) = fixture(&d, &ids);
    let insts = load(&inst);
    let out = d.join("chain");
    let s = build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert_eq!(s.built, ids.len(), "{:?}", s.outcomes);
    let rows = jsonl(&out.join("exports/implementation_task.jsonl"));
    let init: Value = serde_json::from_slice(
        &std::fs::read(out.join("exports/init_patches_implementation.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rows.len(), ids.len());
    for (id, content) in &ids {
        let dir = out.join("instances").join(id);
        let pr0 = std::fs::read(dir.join("pr0.patch")).unwrap();
        let pr1 = std::fs::read(dir.join("pr1_human.patch")).unwrap();
        assert!(
            std::str::from_utf8(&pr0).is_err(),
            "{id}: the fixture is not UTF-8"
        );
        // The per-instance file applies: the reference.
        git_apply_check(&[("m.py", content)], &pr0).unwrap();
        let row = rows
            .iter()
            .find(|r| r["instance_id"] == id.as_str())
            .unwrap();
        for f in ["setup_patch", "pr0_patch"] {
            assert_eq!(field_bytes(row, f), pr0, "{id}: {f}");
            git_apply_check(&[("m.py", content)], &field_bytes(row, f))
                .unwrap_or_else(|e| panic!("{id}: exported {f} does not apply: {e}"));
        }
        // The human PR1 relative to PR0 (the Implementation Task's `patch` is
        // the human PR1 against base: empty, so `--gold` cannot grade PR0).
        assert_eq!(field_bytes(row, "pr1_human_patch"), pr1, "{id}: human PR1");
        assert_eq!(field_bytes(row, "patch"), b"", "{id}: patch against base");
        // The init-patch map: a string for UTF-8 patches, else {patch, patch_b64}.
        let v = &init[id.as_str()];
        let got = match v {
            Value::String(s) => s.as_bytes().to_vec(),
            other => field_bytes(other, "patch"),
        };
        assert_eq!(got, pr0, "{id}: init-patch map");
    }
    // Our importer of the init-patch map and the build's warnings.
    for (id, _) in &ids {
        let pr0 = std::fs::read(out.join("instances").join(id).join("pr0.patch")).unwrap();
        assert_eq!(
            codethread_bench::carry::bytes_of_value(&init[id.as_str()]).unwrap(),
            pr0
        );
        assert!(
            s.warnings
                .iter()
                .any(|w| w.contains(id.as_str()) && w.contains("_b64")),
            "{id}: warned: {:?}",
            s.warnings
        );
    }
    // Re-import: the dataset rows load as instances with the b64 fields kept.
    let back = load(&out.join("exports/implementation_task.jsonl"));
    assert_eq!(back.len(), ids.len());
    for i in &back {
        let b64 = i
            .extra
            .get("setup_patch_b64")
            .and_then(Value::as_str)
            .unwrap();
        let pr0 =
            std::fs::read(out.join("instances").join(&i.instance_id).join("pr0.patch")).unwrap();
        assert_eq!(b64_decode(b64), pr0);
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn non_utf8_code_survives_stack_byte_exact() {
    let d = tmp("utf8stack");
    let ids = ids_of(&variants());
    let (inst, snaps) = fixture(&d, &ids);
    let insts = load(&inst);
    let out = d.join("chain");
    build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    // An agent PR1 (ASCII) that edits g only, relative to base + PR0.
    let mut pr1 = BTreeMap::new();
    for (id, content) in &ids {
        let eol = if content.windows(2).any(|w| w == b"\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        pr1.insert(
            id.clone(),
            Prediction {
                instance_id: id.clone(),
                model_name_or_path: "agent".into(),
                model_patch: format!(
                    "--- a/m.py\n+++ b/m.py\n@@ -8,2 +8,2 @@\n def g():{eol}-    return 2{eol}+    return 3{eol}"
                ),
            },
        );
    }
    let chain = Chain::open(&out, Default::default()).unwrap();
    let (preds, outcomes) = stack(
        &chain,
        &[Layer::Predictions(pr1)],
        "agent",
        &mut SnapshotSource::new(&snaps),
        &mut |_, _, _| {},
    );
    assert!(outcomes.iter().all(|o| o.error.is_none()), "{outcomes:?}");
    assert_eq!(preds.len(), ids.len());
    for p in &preds {
        let row = serde_json::to_value(p).unwrap();
        let id = row["instance_id"].as_str().unwrap().to_string();
        let content = &ids.iter().find(|(i, _)| *i == id).unwrap().1;
        let patch = field_bytes(&row, "model_patch");
        git_apply_check(&[("m.py", content)], &patch)
            .unwrap_or_else(|e| panic!("{id}: stacked prediction does not apply: {e}"));
    }
    assert_eq!(
        outcomes.iter().filter(|o| !o.warnings.is_empty()).count(),
        ids.len(),
        "one warning per non-UTF-8 stack"
    );
    // Our own importers: the bytes loader gives the patch back byte-exactly,
    // the text loader names the line instead of corrupting it.
    let f = d.join("stacked.jsonl");
    std::fs::write(&f, predictions_to_jsonl(&preds)).unwrap();
    let back = load_patch_predictions(&f, Default::default()).unwrap();
    assert!(back.errors.is_empty(), "{:?}", back.errors);
    assert_eq!(back.items, preds);
    let text = load_predictions(&f, Default::default()).unwrap();
    assert!(text.items.is_empty());
    assert_eq!(text.errors.len(), ids.len());
    for (k, e) in text.errors.iter().enumerate() {
        let e = e.to_string();
        assert!(
            e.contains(&format!("stacked.jsonl:{}", k + 1)) && e.contains("not UTF-8"),
            "{e}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- defect 6

/// Run `f` in a thread; fail (instead of hanging the suite) after 20 s.
fn within<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    codethread_testkit::deadline::within(what, 20, f)
}

fn mkfifo(p: &Path) -> bool {
    codethread_testkit::deadline::mkfifo(p)
}

#[test]
fn special_files_are_refused_not_read() {
    let d = tmp("fifo");
    // A reports tree: one good report, one FIFO report.json, one FIFO run_instance.log.
    let logs = d.join("logs/run/m");
    for id in ["a", "b", "c"] {
        std::fs::create_dir_all(logs.join(id)).unwrap();
    }
    std::fs::write(
        logs.join("a/report.json"),
        r#"{"a": {"patch_exists": true, "patch_successfully_applied": true, "resolved": true}}"#,
    )
    .unwrap();
    if !mkfifo(&logs.join("b/report.json")) || !mkfifo(&logs.join("c/run_instance.log")) {
        eprintln!("SKIPPED: mkfifo unavailable");
        return;
    }
    let root = d.join("logs");
    let (reports, errors) = within("load_reports_dir on a FIFO", move || {
        load_reports_dir(&root, Default::default()).map_err(|e| e.to_string())
    })
    .unwrap();
    assert!(reports.contains_key("a"));
    assert_eq!(errors.len(), 2, "{errors:?}");
    for e in &errors {
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
    // Every other file chain reads: instances, predictions, answers, a chain.
    for (name, what) in [
        ("i.jsonl", "instances"),
        ("p.jsonl", "predictions"),
        ("a.jsonl", "answers"),
    ] {
        let f = d.join(name);
        assert!(mkfifo(&f));
        let r = within(what, move || match what {
            "instances" => load_instances(&f, Default::default())
                .map(|_| ())
                .map_err(|e| e.to_string()),
            "predictions" => load_predictions(&f, Default::default())
                .map(|_| ())
                .map_err(|e| e.to_string()),
            _ => import_answers(&f, Default::default())
                .map(|_| ())
                .map_err(|e| e.to_string()),
        });
        let e = r.unwrap_err();
        assert!(e.contains("not a regular file"), "{what}: {e}");
    }
    let chain = d.join("chain");
    std::fs::create_dir_all(&chain).unwrap();
    assert!(mkfifo(&chain.join("instances.jsonl")));
    let r = within("Chain::open", move || {
        Chain::open(&chain, Default::default())
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    assert!(r.unwrap_err().contains("not a regular file"));
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- defect 7

fn plain_fixture(dir: &Path, n: usize) -> (PathBuf, PathBuf, Vec<String>) {
    let ids: Vec<(String, Vec<u8>)> = (0..n)
        .map(|k| {
            (
                format!("o__r-{k}"),
                format!("def f(x):\n    a = {k}\n    a = 1\n    b = 2\n    return x + 1\n\n\ndef g():\n    return 2\n")
                    .into_bytes(),
            )
        })
        .collect();
    let (i, s) = fixture(dir, &ids);
    (i, s, ids.into_iter().map(|(i, _)| i).collect())
}

#[test]
fn a_damaged_instance_directory_does_not_break_a_rerun() {
    type Damage = fn(&Path);
    let damages: [(&str, Damage); 4] = [
        ("deleted pr0.patch", |d| {
            std::fs::remove_file(d.join("pr0.patch")).unwrap()
        }),
        ("garbage llm_request.json", |d| {
            std::fs::write(d.join("llm_request.json"), b"\x00not json{").unwrap()
        }),
        ("deleted task.md", |d| {
            std::fs::remove_file(d.join("task.md")).unwrap()
        }),
        ("garbage status.json", |d| {
            std::fs::write(d.join("status.json"), b"{").unwrap()
        }),
    ];
    for (what, damage) in damages {
        let d = tmp("damage");
        let (inst, snaps, ids) = plain_fixture(&d, 3);
        let insts = load(&inst);
        let out = d.join("chain");
        let s = build(
            &insts,
            &mut SnapshotSource::new(&snaps),
            &opts(&out),
            &mut |_, _, _| {},
        )
        .unwrap();
        assert_eq!(s.built, 3);
        let good_pr0 =
            std::fs::read(out.join("instances").join(&ids[1]).join("pr0.patch")).unwrap();
        damage(&out.join("instances").join(&ids[1]));
        // Re-run: the damaged instance is rebuilt, the others come from the cache.
        let s = build(
            &insts,
            &mut SnapshotSource::new(&snaps),
            &opts(&out),
            &mut |_, _, _| {},
        )
        .unwrap_or_else(|e| panic!("{what}: re-run failed as a whole: {e}"));
        assert_eq!(s.built, 3, "{what}: {:?}", s.outcomes);
        assert_eq!(s.cached, 2, "{what}");
        let rows = jsonl(&out.join("exports/implementation_task.jsonl"));
        assert_eq!(rows.len(), 3, "{what}");
        assert_eq!(
            std::fs::read(out.join("instances").join(&ids[1]).join("pr0.patch")).unwrap(),
            good_pr0,
            "{what}: rebuilt"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn a_damaged_instance_that_cannot_be_rebuilt_is_reported_and_the_others_exported() {
    // A directory where pr1_human.patch goes: the rebuild cannot write it.
    let d = tmp("damage_dir");
    let (inst, snaps, ids) = plain_fixture(&d, 3);
    let insts = load(&inst);
    let out = d.join("chain");
    build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    let idir = out.join("instances").join(&ids[0]);
    std::fs::remove_file(idir.join("pr1_human.patch")).unwrap();
    std::fs::create_dir(idir.join("pr1_human.patch")).unwrap();
    let s = build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert_eq!((s.built, s.failed), (2, 1), "{:?}", s.outcomes);
    let BuildStatus::Failed { error } = &s.outcomes[0].status else {
        panic!("{:?}", s.outcomes[0]);
    };
    assert!(
        error.contains(&ids[0]) && error.contains("pr1_human.patch"),
        "{error}"
    );
    assert_eq!(
        jsonl(&out.join("exports/implementation_task.jsonl")).len(),
        2
    );
    // The chain requests of the others are still given; the damaged one is named.
    std::fs::write(
        out.join("instances").join(&ids[1]).join("llm_request.json"),
        b"garbage",
    )
    .unwrap();
    let chain = Chain::open(&out, Default::default()).unwrap();
    let r =
        codethread_chain::llm_requests(&chain, codethread_chain::RequestFormat::Neutral, "m", 10);
    assert_eq!(r.len(), 3);
    assert!(r[2].1.is_ok());
    let e = r[1].1.as_ref().unwrap_err().to_string();
    assert!(e.contains("llm_request.json"), "{e}");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn stack_reports_a_built_instance_whose_files_are_damaged() {
    for damage in ["delete", "directory"] {
        let d = tmp("stackdmg");
        let (inst, snaps, ids) = plain_fixture(&d, 3);
        let insts = load(&inst);
        let out = d.join("chain");
        build(
            &insts,
            &mut SnapshotSource::new(&snaps),
            &opts(&out),
            &mut |_, _, _| {},
        )
        .unwrap();
        let p = out.join("instances").join(&ids[2]).join("pr0.patch");
        std::fs::remove_file(&p).unwrap();
        if damage == "directory" {
            std::fs::create_dir(&p).unwrap();
        }
        let chain = Chain::open(&out, Default::default()).unwrap();
        let (preds, outcomes) = stack(
            &chain,
            &[Layer::HumanPr1, Layer::Gold],
            "HH",
            &mut SnapshotSource::new(&snaps),
            &mut |_, _, _| {},
        );
        assert_eq!(preds.len(), 2, "{damage}");
        assert_eq!(
            outcomes.len(),
            3,
            "{damage}: one outcome per built instance"
        );
        let bad = outcomes.iter().find(|o| o.instance_id == ids[2]).unwrap();
        let e = bad
            .error
            .as_deref()
            .unwrap_or_else(|| panic!("{damage}: not reported"));
        assert!(e.contains("pr0.patch"), "{damage}: {e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}

// ---------------------------------------------------------------- defect 9

#[test]
fn duplicate_ids_with_different_content_are_refused() {
    let d = tmp("dup");
    let row = |id: &str, commit: &str| {
        json!({"instance_id": id, "repo": "o/r", "base_commit": commit, "patch": "",
            "FAIL_TO_PASS": [], "PASS_TO_PASS": []})
        .to_string()
    };
    // Instances: b differs (lines 2 and 4), a is repeated identically (1 and 3).
    let f = d.join("i.jsonl");
    std::fs::write(
        &f,
        [
            row("a", "c1"),
            row("b", "c1"),
            row("a", "c1"),
            row("b", "c2"),
            row("c", "c1"),
        ]
        .join("\n"),
    )
    .unwrap();
    let l = load_instances(&f, Default::default()).unwrap();
    let got: Vec<&str> = l.items.iter().map(|i| i.instance_id.as_str()).collect();
    assert_eq!(got, vec!["a", "c"]);
    assert_eq!(l.errors.len(), 1, "{:?}", l.errors);
    let e = l.errors[0].to_string();
    assert!(e.contains("b") && e.contains('2') && e.contains('4'), "{e}");
    // The same as a JSON array (lines of the elements).
    let f = d.join("i.json");
    std::fs::write(&f, format!("[\n{},\n{}\n]", row("x", "c1"), row("x", "c9"))).unwrap();
    let l = load_instances(&f, Default::default()).unwrap();
    assert!(l.items.is_empty());
    assert_eq!(l.errors.len(), 1);

    // Instances given to build directly (not through the loader): the
    // repeat is failed, one export row per id.
    let (inst, snaps, _) = plain_fixture(&d, 2);
    let mut insts = load(&inst);
    let mut twin = insts[0].clone();
    twin.base_commit = "other".into();
    insts.push(twin);
    let out = d.join("chain");
    let s = build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    assert_eq!((s.built, s.failed), (2, 1), "{:?}", s.outcomes);
    assert_eq!(
        jsonl(&out.join("exports/implementation_task.jsonl")).len(),
        2
    );

    // Predictions.
    let p = |id: &str, patch: &str| {
        json!({"instance_id": id, "model_name_or_path": "m", "model_patch": patch}).to_string()
    };
    let f = d.join("p.jsonl");
    std::fs::write(
        &f,
        [p("a", "x"), p("a", "y"), p("b", "z"), p("b", "z")].join("\n"),
    )
    .unwrap();
    let l = load_predictions(&f, Default::default()).unwrap();
    assert_eq!(
        l.items
            .iter()
            .map(|p| p.instance_id.as_str())
            .collect::<Vec<_>>(),
        vec!["b"]
    );
    assert_eq!(l.errors.len(), 1);
    assert!(l.errors[0].to_string().contains('1') && l.errors[0].to_string().contains('2'));

    // Answers (custom ids).
    let a = |id: &str, c: &str| json!({"custom_id": id, "content": c}).to_string();
    let f = d.join("a.jsonl");
    std::fs::write(
        &f,
        [a("a", "one"), a("c", "same"), a("a", "two"), a("c", "same")].join("\n"),
    )
    .unwrap();
    let l = import_answers(&f, Default::default()).unwrap();
    assert_eq!(
        l.items
            .iter()
            .map(|a| a.instance_id.as_str())
            .collect::<Vec<_>>(),
        vec!["c"]
    );
    assert_eq!(l.errors.len(), 1);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn answers_are_imported_into_an_existing_chain() {
    let d = tmp("answers");
    let (inst, snaps, ids) = plain_fixture(&d, 3);
    let insts = load(&inst);
    let out = d.join("chain");
    build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    )
    .unwrap();
    for round in ["first answer", "second answer"] {
        let mut o = opts(&out);
        for id in &ids[..2] {
            o.answers.insert(
                id.clone(),
                format!("## Task Overview\n{round} for {id}\n\n### f\n#### Summary\nDoes it.\n"),
            );
        }
        let s = build(
            &insts,
            &mut SnapshotSource::new(&snaps),
            &o,
            &mut |_, _, _| {},
        )
        .unwrap();
        for id in &ids[..2] {
            let task =
                std::fs::read_to_string(out.join("instances").join(id).join("task.md")).unwrap();
            assert!(
                task.contains(&format!("{round} for {id}")),
                "{round}: {id}: {task}"
            );
            let o = s.outcomes.iter().find(|o| &o.instance_id == id).unwrap();
            assert!(
                matches!(&o.status, BuildStatus::Built { statement, .. } if statement == "imported"),
                "{o:?}"
            );
        }
        // The instance without an answer stays cached and offline.
        let o = s.outcomes.iter().find(|o| o.instance_id == ids[2]).unwrap();
        assert!(o.cached);
        let rows = jsonl(&out.join("exports/implementation_task.jsonl"));
        let row = rows
            .iter()
            .find(|r| r["instance_id"] == ids[0].as_str())
            .unwrap();
        assert!(row["problem_statement"].as_str().unwrap().contains(round));
    }
    let _ = std::fs::remove_dir_all(&d);
}

// ---------------------------------------------------------------- temp files and planted links

#[cfg(unix)]
#[test]
fn scratch_files_have_unpredictable_names() {
    // Plant links at every name the old scheme would have used.
    let d = tmp("plant");
    let victim = d.join("victim.txt");
    std::fs::write(&victim, b"precious").unwrap();
    let victim_dir = d.join("victim_dir");
    std::fs::create_dir_all(&victim_dir).unwrap();
    std::fs::write(victim_dir.join("keep"), b"k").unwrap();
    let tmpd = std::env::temp_dir();
    let pid = std::process::id();
    let mut planted = Vec::new();
    for n in 0..400 {
        let f = tmpd.join(format!("codethread-chain-{pid}-{n}.patch"));
        let g = tmpd.join(format!("codethread-chain-{pid}-{n}"));
        if std::os::unix::fs::symlink(&victim, &f).is_ok() {
            planted.push(f);
        }
        if std::os::unix::fs::symlink(&victim_dir, &g).is_ok() {
            planted.push(g);
        }
    }
    let mut base = BTreeMap::new();
    base.insert("m.py".to_string(), b"def f():\n    return 1\n".to_vec());
    let patch =
        b"--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 2\n";
    for _ in 0..5 {
        codethread_chain::check_roundtrip("i", &base, patch).unwrap();
    }
    for p in &planted {
        let _ = std::fs::remove_file(p);
    }
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(std::fs::read(victim_dir.join("keep")).unwrap(), b"k");
    let _ = std::fs::remove_dir_all(&d);
}

#[cfg(unix)]
#[test]
fn a_planted_link_in_the_chain_directory_is_not_followed() {
    let d = tmp("link");
    let (inst, snaps, _) = plain_fixture(&d, 2);
    let insts = load(&inst);
    let out = d.join("chain");
    let elsewhere = d.join("elsewhere");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, out.join("instances")).unwrap();
    let outside_exports = d.join("outside_exports");
    std::fs::create_dir_all(&outside_exports).unwrap();
    std::os::unix::fs::symlink(&outside_exports, out.join("exports")).unwrap();
    // A file the planted link leads to: neither overwritten nor removed.
    std::fs::create_dir_all(elsewhere.join("o__r-0")).unwrap();
    std::fs::write(elsewhere.join("o__r-0/status.json"), b"theirs").unwrap();
    let r = build(
        &insts,
        &mut SnapshotSource::new(&snaps),
        &opts(&out),
        &mut |_, _, _| {},
    );
    if let Ok(s) = &r {
        assert_eq!(s.built, 0, "{:?}", s.outcomes);
    }
    assert_eq!(
        std::fs::read(elsewhere.join("o__r-0/status.json")).unwrap(),
        b"theirs"
    );
    std::fs::remove_dir_all(elsewhere.join("o__r-0")).unwrap();
    assert_eq!(
        std::fs::read_dir(&elsewhere).unwrap().count(),
        0,
        "wrote through instances/"
    );
    assert_eq!(
        std::fs::read_dir(&outside_exports).unwrap().count(),
        0,
        "wrote through exports/"
    );

    let _ = std::fs::remove_dir_all(&d);
}
