//! The properties checked by the fuzz targets of the chain importers, shared
//! by the libFuzzer targets (`cargo +nightly fuzz run instances|predictions|reports`)
//! and the plain stable driver (`cargo run --release --no-default-features
//! --bin driver`). A property violation panics (that is what a fuzzer
//! reports). The first input byte picks the file name the bytes are read
//! under (which decides JSONL vs JSON vs log); the rest is the file.

use std::collections::HashSet;
use std::path::Path;

use codethread_chain::carry::{b64_decode, b64_encode};
use codethread_chain::instance::parse_instances_bytes;
use codethread_chain::predictions::{parse_patch_predictions, parse_patch_predictions_bytes};
use codethread_chain::report::parse_report_bytes;

fn split(data: &[u8], names: &[&'static str]) -> (&'static str, Vec<u8>) {
    match data.split_first() {
        Some((k, rest)) => (names[usize::from(*k) % names.len()], rest.to_vec()),
        None => (names[0], Vec::new()),
    }
}

/// Instances in every supported dataset format (JSONL, a JSON array, an
/// `{id: row}` object, wrappers): loading never panics; every error names
/// the file; the ids loaded are unique and safe as a directory name; each
/// loaded instance written as `instances.jsonl` is (as in a chain
/// directory) read back with the same id, repo, commit, patch and tests.
pub fn check_instances(data: &[u8]) {
    let (name, bytes) = split(data, &["i.jsonl", "i.json", "i"]);
    let Ok(l) = parse_instances_bytes(Path::new(name), &bytes) else {
        return;
    };
    for e in &l.errors {
        assert!(
            e.to_string().contains(name),
            "error does not name the file: {e}"
        );
    }
    let mut ids = HashSet::new();
    for i in &l.items {
        assert!(
            ids.insert(i.instance_id.clone()),
            "duplicate id {}",
            i.instance_id
        );
        assert!(
            !i.instance_id.is_empty()
                && i.instance_id != "."
                && i.instance_id != ".."
                && !i.instance_id.contains(['/', '\\', '\0']),
            "unsafe id {:?}",
            i.instance_id
        );
        let line = serde_json::to_string(i).expect("an instance serializes");
        let back =
            parse_instances_bytes(Path::new("instances.jsonl"), line.as_bytes()).expect("re-read");
        assert!(
            back.errors.is_empty(),
            "written row not re-read: {:?}",
            back.errors
        );
        assert_eq!(back.items.len(), 1);
        let b = &back.items[0];
        assert_eq!(
            (
                &b.instance_id,
                &b.repo,
                &b.base_commit,
                &b.patch,
                &b.fail_to_pass,
                &b.pass_to_pass
            ),
            (
                &i.instance_id,
                &i.repo,
                &i.base_commit,
                &i.patch,
                &i.fail_to_pass,
                &i.pass_to_pass
            ),
            "instance changed by a write and re-read"
        );
    }
}

/// Predictions (JSONL, JSON list, `{id: prediction|patch}`, wrappers,
/// nested OmniCode objects, `model_patch_b64`): loading never panics; ids
/// are unique; each prediction written as we write it (text, or
/// `model_patch_b64` for non-UTF-8 bytes) is read back byte-exactly.
pub fn check_predictions(data: &[u8]) {
    let (name, bytes) = split(data, &["p.jsonl", "p.json", "p"]);
    let Ok(l) = parse_patch_predictions_bytes(Path::new(name), &bytes) else {
        return;
    };
    let mut ids = HashSet::new();
    for p in &l.items {
        assert!(
            ids.insert(p.instance_id.clone()),
            "duplicate id {}",
            p.instance_id
        );
        let (row, _) = p.to_row();
        let line = serde_json::to_string(&row).expect("a row serializes");
        let back = parse_patch_predictions(Path::new("out.jsonl"), &line).expect("re-read");
        assert!(
            back.errors.is_empty(),
            "written prediction not re-read: {:?}",
            back.errors
        );
        assert_eq!(
            back.items,
            vec![p.clone()],
            "prediction changed by a write and re-read"
        );
    }
    // The byte carrier itself, on the raw input.
    assert_eq!(
        b64_decode(&b64_encode(&bytes)).ok().as_deref(),
        Some(&bytes[..])
    );
}

/// Harness reports: `report.json` and the `report: {...}` lines of a
/// `run_instance.log` (Python literals): reading never panics.
pub fn check_reports(data: &[u8]) {
    let (name, bytes) = split(data, &["report.json", "run_instance.log"]);
    if let Err(e) = parse_report_bytes(Path::new(name), &bytes) {
        assert!(!e.to_string().is_empty());
    }
}
