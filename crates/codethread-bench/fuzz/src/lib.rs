//! The properties checked by the fuzz targets of the chain importers, shared
//! by the libFuzzer targets (`cargo +nightly fuzz run instances|predictions|reports`)
//! and the plain stable driver (`cargo run --release --no-default-features
//! --bin driver`). A property violation panics (that is what a fuzzer
//! reports). The first input byte picks the file name the bytes are read
//! under (which decides JSONL vs JSON vs log); the rest is the file.

use std::collections::HashSet;
use std::path::Path;

use codethread_bench::carry::{b64_decode, b64_encode};
use codethread_bench::parse_instances_bytes;
use codethread_bench::{parse_patch_predictions, parse_patch_predictions_bytes};
use codethread_bench::parse_report_bytes;

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

/// The key the LLM target's answers may echo (long, so replaced in place)
/// and a short one (whose messages are withheld whole).
pub const FUZZ_KEYS: [&str; 2] = ["sk-fuzz-key-0123456789", "k9"];

/// The LLM stage's decoders: the first byte picks one.
/// * 0 — the runner's reading of one HTTP answer
///   (`runner::decode_response`; next byte: status and key, then the
///   `Retry-After` value up to a NUL, then the body): never a panic; an
///   accepted answer nests at most `MAX_ANSWER_DEPTH` levels, holds no key
///   and is read back from its `output.jsonl` line with the same text; no
///   message holds the key or exceeds 300 bytes; a wait is at most
///   `MAX_WAIT`; a 3xx is never an answer.
/// * 1 — result files (`format::parse_batch_output`): every answer's id is
///   a valid id, every error names the file.
/// * 2 — request files (`llm::parse_requests`): ids valid and unique.
/// * 3 — the strict drift-judge answer (`judge::parse_drift_answer`): an
///   accepted answer labels each target once, with distinct labels.
pub fn check_llm(data: &[u8]) {
    use codethread_llm::{decode_response, json_depth, Attempt, MAX_ANSWER_DEPTH, MAX_WAIT};
    let Some((&sel, rest)) = data.split_first() else {
        return;
    };
    match sel % 4 {
        0 => {
            let Some((&st, rest)) = rest.split_first() else {
                return;
            };
            const STATUS: [u16; 10] = [200, 200, 200, 301, 302, 400, 401, 408, 429, 503];
            let status = STATUS[usize::from(st) % STATUS.len()];
            let key = FUZZ_KEYS[usize::from(st / 16) % 2];
            let (ra, body) = match rest.iter().position(|&b| b == 0) {
                Some(i) => (Some(String::from_utf8_lossy(&rest[..i]).into_owned()), &rest[i + 1..]),
                None => (None, rest),
            };
            let text = String::from_utf8_lossy(body).into_owned();
            match decode_response(status, ra.as_deref(), text, "fuzz-id", Some(key)) {
                Attempt::Ok { content, body } => {
                    assert_eq!(status, 200, "a {status} became an answer");
                    let line = codethread_llm::output_line_ok("fuzz-id", "r", &body).to_string();
                    assert!(json_depth(line.as_bytes()) <= MAX_ANSWER_DEPTH + 2, "too deep stored");
                    assert!(!line.contains(key) && !content.contains(key), "the key was accepted in an answer");
                    let back = codethread_llm::parse_batch_output(Path::new("output.jsonl"), line.as_bytes(), None)
                        .expect("own output line");
                    assert!(back.errors.is_empty(), "own output unreadable: {:?}", back.errors);
                    assert_eq!(back.answers.len(), 1, "own output: {:?}", back.failures);
                    assert_eq!(back.answers[0].content, content);
                }
                Attempt::Retry { message, wait, .. } => {
                    assert!(!message.contains(key), "key in a message: {message}");
                    assert!(message.len() <= 300, "message of {} bytes", message.len());
                    assert!(wait.is_none_or(|w| w <= MAX_WAIT), "wait {wait:?}");
                }
                Attempt::Fatal { message, .. } => {
                    assert!(!message.contains(key), "key in a message: {message}");
                    assert!(message.len() <= 300, "message of {} bytes", message.len());
                }
            }
        }
        1 => {
            let (name, bytes) = split(rest, &["o.jsonl", "o.json"]);
            let Ok(o) = codethread_llm::parse_batch_output(Path::new(name), &bytes, None) else {
                return;
            };
            for a in &o.answers {
                assert!(codethread_llm::check_id(&a.instance_id).is_ok(), "bad id {:?}", a.instance_id);
            }
            for f in &o.failures {
                assert!(codethread_llm::check_id(&f.instance_id).is_ok(), "bad id {:?}", f.instance_id);
            }
            for e in &o.errors {
                assert!(e.to_string().contains(name), "error does not name the file: {e}");
            }
        }
        2 => {
            let (name, bytes) = split(rest, &["r.jsonl", "r.json"]);
            let Ok(l) = codethread_llm::parse_requests(Path::new(name), &bytes) else {
                return;
            };
            let mut ids = HashSet::new();
            for r in &l.items {
                assert!(codethread_llm::check_id(&r.custom_id).is_ok(), "bad id {:?}", r.custom_id);
                assert!(ids.insert(r.custom_id.clone()), "duplicate id {:?}", r.custom_id);
            }
        }
        _ => {
            use codethread_judge::judge::{parse_drift_answer, DriftItem, DriftTarget};
            let target = |id: &str| DriftTarget {
                target_id: id.into(),
                human: "def f(): pass".into(),
                agent: "def f(): return 1".into(),
            };
            let item = DriftItem {
                benchmark: "b".into(),
                model: "m".into(),
                instance_id: "i".into(),
                language: "python".into(),
                targets: vec![target("m.py::f"), target("m.py::g")],
                outside_edits: vec![],
                files: vec![],
            };
            if let Ok(labels) = parse_drift_answer(&item, &String::from_utf8_lossy(rest)) {
                assert_eq!(labels.len(), 2);
                assert_eq!(labels[0].target_id, "m.py::f");
                assert_eq!(labels[1].target_id, "m.py::g");
                for l in &labels {
                    let distinct: HashSet<&String> = l.labels.iter().collect();
                    assert_eq!(distinct.len(), l.labels.len(), "repeated label {:?}", l.labels);
                }
            }
        }
    }
}
