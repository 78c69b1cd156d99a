//! Exports for harnesses: SWE-bench-compatible datasets for the
//! Implementation Task and for the Follow-On Issue, a mini-swe-agent style
//! init-patch map, and predictions files the unmodified harness grades.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::ChainError;
use crate::fsutil::write_atomic;
use crate::instance::Instance;

/// A row of the Implementation Task dataset: the instance at its base
/// commit with PR0 as setup patch (`setup_patch`, also `pr0_patch`), the
/// task statement as `problem_statement`, the human PR1 (the reverse of PR0,
/// relative to base + PR0) as `patch`, the original `test_patch` and test
/// lists (the gate runs them), the original issue kept as
/// `original_problem_statement`, and the target ids.
pub fn implementation_task_row(
    inst: &Instance,
    pr0: &str,
    human_pr1: &str,
    statement: &str,
    targets: &[String],
) -> Map<String, Value> {
    let mut m = inst.to_swebench_row();
    m.insert(
        "original_problem_statement".into(),
        Value::String(inst.problem_statement.clone()),
    );
    m.insert(
        "problem_statement".into(),
        Value::String(statement.to_string()),
    );
    m.insert("patch".into(), Value::String(human_pr1.to_string()));
    m.insert("setup_patch".into(), Value::String(pr0.to_string()));
    m.insert("pr0_patch".into(), Value::String(pr0.to_string()));
    m.insert("gold_patch".into(), Value::String(inst.patch.clone()));
    m.insert("targets".into(), Value::from(targets.to_vec()));
    m.insert("task".into(), Value::String("implementation".into()));
    m
}

/// A row of the Follow-On Issue dataset on top of a given PR1:
/// `setup_patch` = PR0 + PR1 combined into one diff against base (empty for
/// the human PR1, which restores base), the original issue as
/// `problem_statement`, the gold `patch`, the original tests.
pub fn follow_on_row(inst: &Instance, setup_patch: &str, pr1_label: &str) -> Map<String, Value> {
    let mut m = inst.to_swebench_row();
    m.insert("setup_patch".into(), Value::String(setup_patch.to_string()));
    m.insert("pr1".into(), Value::String(pr1_label.to_string()));
    m.insert("task".into(), Value::String("follow_on".into()));
    m
}

/// Render rows as JSONL.
pub fn to_jsonl<T: serde::Serialize>(rows: &[T]) -> String {
    let mut s = String::new();
    for r in rows {
        if let Ok(line) = serde_json::to_string(r) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s
}

/// Write rows as JSONL, atomically.
pub fn write_jsonl<T: serde::Serialize>(path: &Path, rows: &[T]) -> Result<(), ChainError> {
    write_atomic(path, to_jsonl(rows).as_bytes())
}

/// A mini-swe-agent style init-patch map: `{instance_id: patch}` applied to
/// the environment before the agent starts (PR0 for the Implementation
/// Task, PR0 + PR1 for the Follow-On Issue).
pub fn init_patch_map(patches: &BTreeMap<String, String>) -> Value {
    Value::Object(
        patches
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}
