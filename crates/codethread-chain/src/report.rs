//! SWE-bench harness outputs: per-instance `report.json`, the
//! `report: {...}` line of `run_instance.log`, and run-level reports.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::ChainError;
use crate::pyliteral::parse_py_literal;
use crate::records::{decode_text, read_text};

/// `success` / `failure` lists of one test category.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestOutcome {
    /// Tests that passed.
    #[serde(default)]
    pub success: Vec<String>,
    /// Tests that failed (or did not run).
    #[serde(default)]
    pub failure: Vec<String>,
}

/// The harness's `tests_status`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestsStatus {
    /// The instance's FAIL_TO_PASS tests.
    #[serde(rename = "FAIL_TO_PASS", default)]
    pub fail_to_pass: TestOutcome,
    /// The instance's PASS_TO_PASS tests.
    #[serde(rename = "PASS_TO_PASS", default)]
    pub pass_to_pass: TestOutcome,
    /// FAIL_TO_FAIL (informational; empty in most harness versions).
    #[serde(rename = "FAIL_TO_FAIL", default)]
    pub fail_to_fail: TestOutcome,
    /// PASS_TO_FAIL (informational).
    #[serde(rename = "PASS_TO_FAIL", default)]
    pub pass_to_fail: TestOutcome,
}

/// One instance's harness report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceReport {
    /// The instance.
    pub instance_id: String,
    /// The prediction had `model_patch: null`.
    #[serde(default)]
    pub patch_is_none: bool,
    /// The prediction had a non-empty patch.
    #[serde(default)]
    pub patch_exists: bool,
    /// The patch applied in the container.
    #[serde(default)]
    pub patch_successfully_applied: bool,
    /// Every FAIL_TO_PASS and PASS_TO_PASS test passed.
    #[serde(default)]
    pub resolved: bool,
    /// Per-test outcomes; `None` when the harness wrote none (patch did not apply).
    #[serde(default)]
    pub tests_status: Option<TestsStatus>,
}

fn reports_from_value(v: Value, origin: &Path) -> Result<Vec<InstanceReport>, ChainError> {
    let Value::Object(m) = v else {
        return Err(ChainError::Format {
            path: origin.to_path_buf(),
            message: "a report must be a JSON object keyed by instance id".into(),
        });
    };
    let mut out = Vec::new();
    for (id, body) in m {
        let Value::Object(b) = body else {
            return Err(ChainError::BadField {
                path: origin.to_path_buf(),
                line: 1,
                instance_id: id,
                field: "<report>".into(),
                message: "expected an object".into(),
            });
        };
        let flag = |k: &str| b.get(k).and_then(Value::as_bool).unwrap_or(false);
        let tests_status =
            match b.get("tests_status") {
                None | Some(Value::Null) => None,
                Some(ts) => Some(serde_json::from_value::<TestsStatus>(ts.clone()).map_err(
                    |e| ChainError::BadField {
                        path: origin.to_path_buf(),
                        line: 1,
                        instance_id: id.clone(),
                        field: "tests_status".into(),
                        message: e.to_string(),
                    },
                )?),
            };
        out.push(InstanceReport {
            patch_is_none: flag("patch_is_None") || flag("patch_is_none"),
            patch_exists: flag("patch_exists"),
            patch_successfully_applied: flag("patch_successfully_applied"),
            resolved: flag("resolved"),
            tests_status,
            instance_id: id,
        });
    }
    Ok(out)
}

/// Read a per-instance `report.json` (`{instance_id: {patch_is_None,
/// patch_exists, patch_successfully_applied, resolved, tests_status}}`).
pub fn load_instance_report(path: &Path) -> Result<Vec<InstanceReport>, ChainError> {
    let text = read_text(path)?;
    parse_instance_report(path, &text)
}

/// Like [`load_instance_report`], for text in memory.
pub fn parse_instance_report(path: &Path, text: &str) -> Result<Vec<InstanceReport>, ChainError> {
    let v: Value = serde_json::from_str(text).map_err(|e| ChainError::json(path, 0, &e))?;
    reports_from_value(v, path)
}

/// Every report in `bytes`, read as the file named `path` would be: a
/// `run_instance.log` (`.log`) by its `report: {...}` lines, anything else
/// as a `report.json`. The fuzz target's entry point.
pub fn parse_report_bytes(path: &Path, bytes: &[u8]) -> Result<Vec<InstanceReport>, ChainError> {
    let text = decode_text(bytes.to_vec());
    if path.extension().is_some_and(|e| e == "log") {
        parse_reports_from_log(path, &text)
    } else {
        parse_instance_report(path, &text)
    }
}

/// Read the reports printed by the harness into a `run_instance.log`
/// (`... - INFO - report: {...}`, a Python dict literal).
pub fn load_reports_from_log(path: &Path) -> Result<Vec<InstanceReport>, ChainError> {
    let text = read_text(path)?;
    parse_reports_from_log(path, &text)
}

/// Like [`load_reports_from_log`], for text in memory.
pub fn parse_reports_from_log(path: &Path, text: &str) -> Result<Vec<InstanceReport>, ChainError> {
    let mut out = Vec::new();
    for line in text.lines() {
        if let Some(pos) = line.find("report: {") {
            let lit = &line[pos + "report: ".len()..];
            let v = parse_py_literal(lit.trim_end())?;
            out.extend(reports_from_value(v, path)?);
        }
    }
    Ok(out)
}

/// Every per-instance report under `dir` (the harness writes
/// `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`).
/// Where a directory has no `report.json` but a `run_instance.log`, the
/// report line of the log is used. Unreadable files are returned as errors
/// beside the good reports: a FIFO, device or a file over the size limit is
/// refused unread, a symbolic link (to a file or a directory) is not
/// followed (the tree is the harness's output; links could lead anywhere),
/// an unreadable subdirectory is one error. Only an unreadable `dir` itself
/// is an `Err`.
pub fn load_reports_dir(
    dir: &Path,
) -> Result<(BTreeMap<String, InstanceReport>, Vec<ChainError>), ChainError> {
    let mut reports = BTreeMap::new();
    let mut errors = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        let rd = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) if d == dir => return Err(ChainError::io(&d, e)),
            Err(e) => {
                errors.push(ChainError::io(&d, e));
                continue;
            }
        };
        // The entry's own type: a link to a directory is not walked into.
        let mut names: Vec<(PathBuf, bool)> = rd
            .filter_map(|e| {
                let e = e.ok()?;
                let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                Some((e.path(), is_dir))
            })
            .collect();
        names.sort();
        let has_report = names
            .iter()
            .any(|(p, _)| p.file_name().is_some_and(|n| n == "report.json"));
        for (p, is_dir) in names {
            if is_dir {
                stack.push(p);
            } else if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
                if n == "report.json" || (n == "run_instance.log" && !has_report) {
                    files.push(p);
                }
            }
        }
    }
    files.sort();
    for f in files {
        let r = crate::fsutil::read_opt_nofollow(&f).and_then(|b| match b {
            Some(b) => parse_report_bytes(&f, &b),
            None => Err(ChainError::io(
                &f,
                std::io::Error::from(std::io::ErrorKind::NotFound),
            )),
        });
        match r {
            Ok(rs) => {
                for r in rs {
                    reports.insert(r.instance_id.clone(), r);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    Ok((reports, errors))
}

/// A run-level report (`<model>.<run_id>.json`, schema_version 2, and the
/// older shape whose resolved list is called `resolved`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunReport {
    /// `schema_version` when present.
    pub schema_version: Option<u64>,
    /// `total_instances`.
    pub total_instances: Option<u64>,
    /// `submitted_ids`.
    pub submitted_ids: Vec<String>,
    /// `completed_ids`.
    pub completed_ids: Vec<String>,
    /// `incomplete_ids`.
    pub incomplete_ids: Vec<String>,
    /// `resolved_ids` (older reports: `resolved`).
    pub resolved_ids: Vec<String>,
    /// `unresolved_ids`.
    pub unresolved_ids: Vec<String>,
    /// `empty_patch_ids`.
    pub empty_patch_ids: Vec<String>,
    /// `error_ids`.
    pub error_ids: Vec<String>,
}

/// How an instance fared in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// In `resolved_ids`.
    Resolved,
    /// In `unresolved_ids`.
    Unresolved,
    /// In `empty_patch_ids`.
    EmptyPatch,
    /// In `error_ids`.
    Error,
    /// Submitted but not completed.
    Incomplete,
    /// Not in the run.
    NotSubmitted,
}

impl RunReport {
    /// Status of one instance.
    pub fn status(&self, id: &str) -> RunStatus {
        let has = |v: &Vec<String>| v.iter().any(|x| x == id);
        if has(&self.resolved_ids) {
            RunStatus::Resolved
        } else if has(&self.error_ids) {
            RunStatus::Error
        } else if has(&self.empty_patch_ids) {
            RunStatus::EmptyPatch
        } else if has(&self.unresolved_ids) {
            RunStatus::Unresolved
        } else if has(&self.incomplete_ids) || has(&self.submitted_ids) {
            RunStatus::Incomplete
        } else {
            RunStatus::NotSubmitted
        }
    }
}

/// Read a run-level report.
pub fn load_run_report(path: &Path) -> Result<RunReport, ChainError> {
    let text = read_text(path)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| ChainError::json(path, 0, &e))?;
    let Value::Object(m) = v else {
        return Err(ChainError::Format {
            path: path.to_path_buf(),
            message: "a run report must be a JSON object".into(),
        });
    };
    let ids = |keys: &[&str]| -> Result<Vec<String>, ChainError> {
        for k in keys {
            if let Some(v) = m.get(*k) {
                return match v {
                    Value::Array(a) => Ok(a
                        .iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()),
                    _ => Err(ChainError::BadField {
                        path: path.to_path_buf(),
                        line: 1,
                        instance_id: "<run>".into(),
                        field: k.to_string(),
                        message: "expected a list of ids".into(),
                    }),
                };
            }
        }
        Ok(Vec::new())
    };
    let resolved_ids = ids(&["resolved_ids", "resolved"])?;
    if !m.contains_key("resolved_ids") && !m.contains_key("resolved") {
        return Err(ChainError::MissingField {
            path: path.to_path_buf(),
            line: 1,
            instance_id: "<run>".into(),
            field: "resolved_ids".into(),
        });
    }
    Ok(RunReport {
        schema_version: m.get("schema_version").and_then(Value::as_u64),
        total_instances: m.get("total_instances").and_then(Value::as_u64),
        submitted_ids: ids(&["submitted_ids"])?,
        completed_ids: ids(&["completed_ids"])?,
        incomplete_ids: ids(&["incomplete_ids"])?,
        resolved_ids,
        unresolved_ids: ids(&["unresolved_ids"])?,
        empty_patch_ids: ids(&["empty_patch_ids"])?,
        error_ids: ids(&["error_ids"])?,
    })
}

/// Per-instance resolved flags of one run, from any of: a run-level report
/// (schema_version 2 or the older `resolved` list: ids in the resolved list
/// are `true`, ids in `unresolved_ids` / `empty_patch_ids` / `error_ids` /
/// `incomplete_ids` are `false`), or an `{instance_id: bool}` object (SWE-bench
/// Pro's `eval_results.json`). Instances the run did not evaluate are absent.
pub fn load_resolved(path: &Path) -> Result<BTreeMap<String, bool>, ChainError> {
    let text = read_text(path)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| ChainError::json(path, 0, &e))?;
    let Value::Object(m) = &v else {
        return Err(ChainError::Format {
            path: path.to_path_buf(),
            message: "expected a JSON object".into(),
        });
    };
    if !m.is_empty() && m.values().all(Value::is_boolean) {
        return Ok(m
            .iter()
            .filter_map(|(k, b)| Some((k.clone(), b.as_bool()?)))
            .collect());
    }
    let r = load_run_report(path)?;
    let mut out = BTreeMap::new();
    for id in r
        .unresolved_ids
        .iter()
        .chain(&r.empty_patch_ids)
        .chain(&r.error_ids)
        .chain(&r.incomplete_ids)
    {
        out.insert(id.clone(), false);
    }
    for id in &r.resolved_ids {
        out.insert(id.clone(), true);
    }
    Ok(out)
}
