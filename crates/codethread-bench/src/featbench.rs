//! FeatBench's conventions beyond its rows (which [`crate::load_instances`] reads in every
//! published shape): the results its evaluator writes, read as harness reports.
//!
//! FeatBench's `EvaluationResultManager` writes `evaluation_results.json`, a JSON list of
//! records `{agent, model, instance_id, success_f2p, success_p2p, success, passed_f2p_tests,
//! passed_p2p_tests, expected_f2p_tests, expected_p2p_tests, ...}`, or `{agent, model,
//! instance_id, success: false, error}` when the agent or the run failed. Its passed lists are
//! already decided by FeatBench's own rule (pytest's `-rA` summary; an id not found exactly is
//! decided by the cases sharing its name up to the first `[`: any failure fails it, all
//! passed or skipped with one pass passes it). [`crate::load_reports`] reads such a file: each
//! record becomes an [`crate::InstanceReport`] with the expected tests it passed under
//! `success` and the others under `failure`, so the PR1 gate keeps a PR1 exactly when every
//! PASS_TO_PASS test passed and no FAIL_TO_PASS test did; a record with `error` is an
//! infrastructure failure. Records that repeat an (agent, instance) pair identically are one
//! report; the paper-era writer appends, so a file can hold several runs — give the gate one
//! run's records (different records for one instance are a conflict, named, never decided by
//! order).

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::BenchError;

/// One record of FeatBench's `evaluation_results.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvaluationRecord {
    /// The instance.
    pub instance_id: String,
    /// Where the record is: `<file>: record <n> (agent <a>, model <m>)`.
    pub whence: String,
    /// The run failed (`error`): the message.
    pub error: Option<String>,
    /// FAIL_TO_PASS tests FeatBench expected.
    pub expected_f2p: Vec<String>,
    /// Those it found passing.
    pub passed_f2p: Vec<String>,
    /// PASS_TO_PASS tests FeatBench expected.
    pub expected_p2p: Vec<String>,
    /// Those it found passing.
    pub passed_p2p: Vec<String>,
    /// FeatBench's own verdict (`success`).
    pub success: bool,
    /// False when the record's `patch_application` (some versions) says the patch failed.
    pub patch_applied: bool,
}

/// Whether `v` is a FeatBench `evaluation_results.json`: a non-empty list of objects, each with
/// an `instance_id` and either the expected test lists or an `error`.
pub fn is_evaluation_results(v: &Value) -> bool {
    let Value::Array(items) = v else {
        return false;
    };
    !items.is_empty()
        && items.iter().all(|r| {
            r.get("instance_id").is_some_and(Value::is_string)
                && (r.get("expected_f2p_tests").is_some() || r.get("error").is_some())
        })
}

/// The records of a FeatBench `evaluation_results.json` (`records`, from `origin`), identical
/// repeats of a record left out; a record that is not one (a bad id, a list of non-strings) is
/// an error naming the file, the record and the instance.
pub fn evaluation_records(
    records: &[Value],
    origin: &Path,
) -> Result<Vec<EvaluationRecord>, BenchError> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (n, r) in records.iter().enumerate() {
        if !seen.insert(r.to_string()) {
            continue;
        }
        let bad = |id: &str, message: String| BenchError::BadField {
            path: origin.to_path_buf(),
            line: 1,
            instance_id: crate::ids::label(id),
            field: format!("record {}", n + 1),
            message,
        };
        let Value::Object(m) = r else {
            return Err(bad("<unknown>", "a record must be an object".into()));
        };
        let id = m
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(why) = crate::ids::id_problem(id) {
            return Err(bad(id, why));
        }
        let list = |k: &str| -> Result<Vec<String>, BenchError> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| bad(id, format!("{k}: an element is not a string")))
                    })
                    .collect(),
                Some(other) => Err(bad(id, format!("{k}: expected a list, found {other}"))),
            }
        };
        let error = m.get("error").filter(|e| !e.is_null()).map(|e| {
            e.as_str()
                .map_or_else(|| e.to_string(), str::to_string)
                .chars()
                .take(300)
                .collect()
        });
        out.push(EvaluationRecord {
            instance_id: id.to_string(),
            whence: format!(
                "{}: record {} (agent {}, model {})",
                origin.display(),
                n + 1,
                m.get("agent").and_then(Value::as_str).unwrap_or("?"),
                m.get("model").and_then(Value::as_str).unwrap_or("?")
            ),
            error,
            expected_f2p: list("expected_f2p_tests")?,
            passed_f2p: list("passed_f2p_tests")?,
            expected_p2p: list("expected_p2p_tests")?,
            passed_p2p: list("passed_p2p_tests")?,
            success: m.get("success").and_then(Value::as_bool).unwrap_or(false),
            patch_applied: !applied_false(m),
        });
    }
    Ok(out)
}

/// A record whose `patch_application` (some FeatBench versions) says the patch did not apply.
fn applied_false(m: &Map<String, Value>) -> bool {
    match m.get("patch_application") {
        Some(Value::Bool(b)) => !b,
        Some(Value::String(s)) => {
            let s = s.to_ascii_lowercase();
            s.contains("fail") || s == "false"
        }
        _ => false,
    }
}
