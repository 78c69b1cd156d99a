//! SWE-bench harness outputs: per-instance `report.json`, the
//! `report: {...}` line of `run_instance.log`, and run-level reports.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::BenchError;
use crate::pyliteral::parse_py_literal;
use crate::records::{decode_text, read_text};
use codethread_lang::io::SourceLimits;

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
    /// Per-test outcomes; `None` when the harness wrote none (the tests
    /// produced no parseable output).
    #[serde(default)]
    pub tests_status: Option<TestsStatus>,
    /// What the harness logged beside (or instead of) a `report.json`: an
    /// apply failure or harness error read from `run_instance.log`, an
    /// environment fault (`infra_failure`, swebench 5.x), or a prediction
    /// skipped as empty (`empty_patch_ids` of a run-level report).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness_note: Option<HarnessNote>,
}

/// What the harness says happened to an instance when its report alone
/// does not (see [`InstanceReport::harness_note`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "note", content = "detail", rename_all = "snake_case")]
pub enum HarnessNote {
    /// `run_instance.log` says `>>>>> Patch Apply Failed` (the harness then
    /// writes no `report.json`).
    PatchDidNotApply,
    /// An infrastructure failure: `infra_failure` / `infra_failure_reason`
    /// of a swebench 5.x report, an error logged in `run_instance.log`
    /// without a report (container, image, timeout), or `error_ids` of a
    /// run-level report.
    Infrastructure(String),
    /// The prediction was empty, so the harness skipped it
    /// (`empty_patch_ids` of a run-level report).
    SkippedEmptyPatch,
    /// Two or more reports for the instance disagree (two harness runs, two
    /// files): neither is trusted. The paths of the disagreeing reports.
    ConflictingReports(Vec<String>),
}

/// The marker the harness logs when no apply command worked.
pub(crate) const APPLY_PATCH_FAIL: &str = ">>>>> Patch Apply Failed";

/// FeatBench's evaluation records as reports ([`crate::featbench`]): the expected tests a
/// record passed under `success`, the others under `failure`; a failed run an
/// infrastructure note; different records for one instance a conflict naming each.
fn featbench_reports(records: Vec<crate::featbench::EvaluationRecord>) -> Vec<InstanceReport> {
    let mut by_id: BTreeMap<String, Vec<crate::featbench::EvaluationRecord>> = BTreeMap::new();
    for r in records {
        by_id.entry(r.instance_id.clone()).or_default().push(r);
    }
    let outcome = |expected: &[String], passed: &[String]| {
        let passed: std::collections::HashSet<&String> = passed.iter().collect();
        let (success, failure) = expected.iter().cloned().partition(|t| passed.contains(t));
        TestOutcome { success, failure }
    };
    let report = |r: &crate::featbench::EvaluationRecord| InstanceReport {
        instance_id: r.instance_id.clone(),
        patch_is_none: false,
        patch_exists: true,
        patch_successfully_applied: r.error.is_none() && r.patch_applied,
        resolved: r.error.is_none() && r.success,
        tests_status: r.error.is_none().then(|| TestsStatus {
            fail_to_pass: outcome(&r.expected_f2p, &r.passed_f2p),
            pass_to_pass: outcome(&r.expected_p2p, &r.passed_p2p),
            ..TestsStatus::default()
        }),
        harness_note: r
            .error
            .as_ref()
            .map(|e| HarnessNote::Infrastructure(format!("FeatBench run failed: {e}"))),
    };
    let mut out = Vec::with_capacity(by_id.len());
    for (id, recs) in by_id {
        let reports: Vec<InstanceReport> = recs.iter().map(report).collect();
        if reports.windows(2).all(|w| w[0] == w[1]) {
            out.extend(reports.into_iter().next());
        } else {
            out.push(InstanceReport {
                instance_id: id,
                patch_is_none: false,
                patch_exists: true,
                patch_successfully_applied: false,
                resolved: false,
                tests_status: None,
                harness_note: Some(HarnessNote::ConflictingReports(
                    recs.iter().map(|r| r.whence.clone()).collect(),
                )),
            });
        }
    }
    out
}

fn reports_from_value(v: Value, origin: &Path) -> Result<Vec<InstanceReport>, BenchError> {
    if crate::featbench::is_evaluation_results(&v) {
        if let Value::Array(records) = &v {
            return Ok(featbench_reports(crate::featbench::evaluation_records(
                records, origin,
            )?));
        }
    }
    let Value::Object(m) = v else {
        return Err(BenchError::Format {
            path: origin.to_path_buf(),
            message: "a report must be a JSON object keyed by instance id (or FeatBench's evaluation_results.json list)".into(),
        });
    };
    let mut out = Vec::new();
    for (id, body) in m {
        if let Some(why) = crate::ids::id_problem(&id) {
            return Err(BenchError::BadField {
                path: origin.to_path_buf(),
                line: 1,
                instance_id: crate::ids::label(&id),
                field: "<report>".into(),
                message: why,
            });
        }
        let Value::Object(b) = body else {
            return Err(BenchError::BadField {
                path: origin.to_path_buf(),
                line: 1,
                instance_id: id,
                field: "<report>".into(),
                message: "expected an object".into(),
            });
        };
        let flag = |k: &str| b.get(k).and_then(Value::as_bool).unwrap_or(false);
        // Only an object is test evidence; `[]`, a string or a number is a
        // report without test results (the gate's `no_tests_status`).
        let tests_status =
            match b.get("tests_status") {
                None | Some(Value::Null) => None,
                Some(ts) if !ts.is_object() => None,
                Some(ts) => Some(serde_json::from_value::<TestsStatus>(ts.clone()).map_err(
                    |e| BenchError::BadField {
                        path: origin.to_path_buf(),
                        line: 1,
                        instance_id: id.clone(),
                        field: "tests_status".into(),
                        message: e.to_string(),
                    },
                )?),
            };
        let harness_note = flag("infra_failure").then(|| {
            HarnessNote::Infrastructure(
                b.get("infra_failure_reason")
                    .and_then(Value::as_str)
                    .unwrap_or("infra_failure")
                    .to_string(),
            )
        });
        out.push(InstanceReport {
            harness_note,
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
pub fn load_instance_report(
    path: &Path,
    limits: SourceLimits,
) -> Result<Vec<InstanceReport>, BenchError> {
    let text = read_text(path, limits)?;
    parse_instance_report(path, &text)
}

/// Like [`load_instance_report`], for text in memory.
pub fn parse_instance_report(path: &Path, text: &str) -> Result<Vec<InstanceReport>, BenchError> {
    let v: Value = serde_json::from_str(text).map_err(|e| BenchError::json(path, 0, &e))?;
    reports_from_value(v, path)
}

/// Every report in `bytes`, read as the file named `path` would be: a
/// `run_instance.log` (`.log`) by its `report: {...}` lines, anything else
/// as a `report.json`. The fuzz target's entry point.
pub fn parse_report_bytes(path: &Path, bytes: &[u8]) -> Result<Vec<InstanceReport>, BenchError> {
    let text = decode_text(bytes.to_vec());
    if path.extension().is_some_and(|e| e == "log") {
        parse_reports_from_log(path, &text)
    } else {
        parse_instance_report(path, &text)
    }
}

/// Read the reports printed by the harness into a `run_instance.log`
/// (`... - INFO - report: {...}`, a Python dict literal).
pub fn load_reports_from_log(
    path: &Path,
    limits: SourceLimits,
) -> Result<Vec<InstanceReport>, BenchError> {
    let text = read_text(path, limits)?;
    parse_reports_from_log(path, &text)
}

/// Like [`load_reports_from_log`], for text in memory.
pub(crate) fn parse_reports_from_log(
    path: &Path,
    text: &str,
) -> Result<Vec<InstanceReport>, BenchError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(pos) = line.find("report: {") {
            let lit = &line[pos + "report: ".len()..];
            // A literal nested deeper than `pyliteral::MAX_DEPTH` (or
            // malformed) is an error naming the log and its line.
            let v = parse_py_literal(lit.trim_end()).map_err(|e| BenchError::Format {
                path: path.to_path_buf(),
                message: format!("line {}: `report:` line: {e}", n + 1),
            })?;
            out.extend(reports_from_value(v, path)?);
        }
    }
    Ok(out)
}

/// What a `run_instance.log` of `instance_id` says when its directory has
/// no `report.json`: the `report: {...}` line when the harness logged one;
/// otherwise an apply failure ([`APPLY_PATCH_FAIL`]) or the first error the
/// harness logged (an infrastructure failure), as a report without tests.
/// `None` when the log says neither (e.g. a run still going).
pub(crate) fn report_from_log(
    path: &Path,
    instance_id: &str,
    limits: SourceLimits,
) -> Result<Option<InstanceReport>, BenchError> {
    let text = read_text(path, limits)?;
    report_from_log_text(path, &text, instance_id)
}

/// Like [`report_from_log`], for the log's text in memory (`path` names it
/// in errors).
pub(crate) fn report_from_log_text(
    path: &Path,
    text: &str,
    instance_id: &str,
) -> Result<Option<InstanceReport>, BenchError> {
    let logged = parse_reports_from_log(path, text)?;
    if let Some(r) = logged
        .into_iter()
        .rev()
        .find(|r| r.instance_id == instance_id)
    {
        return Ok(Some(r));
    }
    let note = if text.contains(APPLY_PATCH_FAIL) {
        Some(HarnessNote::PatchDidNotApply)
    } else {
        text.lines()
            .find(|l| {
                l.contains(" - ERROR - ")
                    || l.contains("EvaluationError")
                    || l.contains("Error in evaluating model")
                    || l.contains("Timeout error")
                    || l.contains("timed out after")
            })
            .map(|l| HarnessNote::Infrastructure(l.trim().chars().take(300).collect()))
    };
    Ok(note.map(|n| InstanceReport {
        instance_id: instance_id.to_string(),
        patch_is_none: false,
        patch_exists: true,
        patch_successfully_applied: false,
        resolved: false,
        tests_status: None,
        harness_note: Some(n),
    }))
}

/// Which harness reports belong to the stack being gated. The harness
/// writes `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`,
/// `<model>` being the prediction's `model_name_or_path` with `/` replaced
/// by `__`; a directory walk keeps only the reports whose `<model>` (and
/// `<run_id>`) components match, and counts the others
/// ([`ReportSet::ignored`]). The default selects everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReportFilter {
    /// The `model_name_or_path` of the graded (stacked) predictions, e.g.
    /// `gpt-4o__PR1` (`pipeline::stack_model_name`).
    pub model: Option<String>,
    /// The harness's `--run_id`.
    pub run_id: Option<String>,
}

impl ReportFilter {
    /// The log directory name the harness gives `model`.
    pub fn model_dir_name(model: &str) -> String {
        model.replace('/', "__")
    }

    fn selects_everything(&self) -> bool {
        self.model.is_none() && self.run_id.is_none()
    }

    /// Whether the report at `file` (`.../<run_id>/<model>/<id>/report.json`,
    /// an absolute path) belongs to the selection.
    fn keeps_file(&self, file: &Path) -> bool {
        let inst_dir = file.parent();
        let model_dir = inst_dir.and_then(Path::parent);
        let run_dir = model_dir.and_then(Path::parent);
        let name = |p: Option<&Path>| p.and_then(Path::file_name).map(|n| n.to_os_string());
        if let Some(m) = &self.model {
            if name(model_dir).as_deref() != Some(std::ffi::OsStr::new(&Self::model_dir_name(m))) {
                return false;
            }
        }
        if let Some(r) = &self.run_id {
            if name(run_dir).as_deref() != Some(std::ffi::OsStr::new(r)) {
                return false;
            }
        }
        true
    }

    /// Whether a run-level report file belongs to the selection: the
    /// harness names it `<model>.<run_id>.json`.
    fn keeps_run_report(&self, file: &Path) -> bool {
        let Some(n) = file.file_name().and_then(|n| n.to_str()) else {
            return self.selects_everything();
        };
        let Some(stem) = n.strip_suffix(".json") else {
            return self.selects_everything();
        };
        match (&self.model, &self.run_id) {
            (None, None) => true,
            (Some(m), None) => stem.starts_with(&format!("{}.", Self::model_dir_name(m))),
            (None, Some(r)) => stem.ends_with(&format!(".{r}")),
            (Some(m), Some(r)) => stem == format!("{}.{r}", Self::model_dir_name(m)),
        }
    }
}

/// The reports selected for a gate ([`load_reports_selected`]).
#[derive(Debug, Default)]
pub struct ReportSet {
    /// One report per instance. An instance whose reports disagree gets a
    /// report whose note is [`HarnessNote::ConflictingReports`] naming them.
    pub reports: BTreeMap<String, InstanceReport>,
    /// Where each instance's report came from (every file, for a conflict).
    pub sources: BTreeMap<String, Vec<PathBuf>>,
    /// Instances whose reports disagree, with the paths of the reports.
    pub conflicts: BTreeMap<String, Vec<PathBuf>>,
    /// Reports found below a directory that belong to another model or run
    /// ([`ReportFilter`]) and were left out, and run-level report files of
    /// another model or run.
    pub ignored: usize,
    /// Files that could not be read.
    pub errors: Vec<BenchError>,
}

/// Reports as they were found: the file and what it says.
type Found = Vec<(PathBuf, InstanceReport)>;

/// Merge reports by instance id: reports that agree (equal once read) are
/// one report; reports that disagree are a conflict, never decided by the
/// order in which they were found.
fn merge(found: Found, set: &mut ReportSet) {
    let mut by_id: BTreeMap<String, Vec<(PathBuf, InstanceReport)>> = BTreeMap::new();
    for (p, r) in found {
        let v = by_id.entry(r.instance_id.clone()).or_default();
        if !v.iter().any(|(q, _)| *q == p) {
            v.push((p, r));
        }
    }
    for (id, mut v) in by_id {
        let paths: Vec<PathBuf> = v.iter().map(|(p, _)| p.clone()).collect();
        let agree = v.windows(2).all(|w| w[0].1 == w[1].1);
        if agree {
            if let Some((_, r)) = v.pop() {
                set.reports.insert(id.clone(), r);
            }
        } else {
            set.reports.insert(
                id.clone(),
                InstanceReport {
                    instance_id: id.clone(),
                    patch_is_none: false,
                    patch_exists: true,
                    patch_successfully_applied: false,
                    resolved: false,
                    tests_status: None,
                    harness_note: Some(HarnessNote::ConflictingReports(
                        paths.iter().map(|p| p.display().to_string()).collect(),
                    )),
                },
            );
            set.conflicts.insert(id.clone(), paths.clone());
        }
        set.sources.insert(id, paths);
    }
}

/// Every per-instance report under `dir` (the harness writes
/// `logs/run_evaluation/<run_id>/<model>/<instance_id>/report.json`).
/// Where a directory has no `report.json` but a `run_instance.log`, the log
/// is read (its report line, or the apply failure or
/// error it records). Unreadable files are returned as errors beside the
/// good reports: a FIFO, device or a file over the size limit is refused
/// unread, a symbolic link (to a file or a directory) is not followed (the
/// tree is the harness's output; links could lead anywhere), an unreadable
/// subdirectory is one error. Only an unreadable `dir` itself is an `Err`.
/// Every report is taken (no [`ReportFilter`]); two that disagree about one
/// instance give it a [`HarnessNote::ConflictingReports`] report.
pub fn load_reports_dir(
    dir: &Path,
    limits: SourceLimits,
) -> Result<(BTreeMap<String, InstanceReport>, Vec<BenchError>), BenchError> {
    let mut set = ReportSet::default();
    let found = walk_reports(dir, limits, &ReportFilter::default(), &mut set)?;
    merge(found, &mut set);
    Ok((set.reports, set.errors))
}

/// The reports below `dir` that `filter` selects, as found (not merged);
/// the others are counted in `set.ignored`, unreadable files added to
/// `set.errors`.
fn walk_reports(
    dir: &Path,
    limits: SourceLimits,
    filter: &ReportFilter,
    set: &mut ReportSet,
) -> Result<Found, BenchError> {
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    let mut files = Vec::new();
    // The directory's own name and its parents' count for the selection
    // (`--reports logs/run_evaluation/pr1/gpt-4o__PR1` or `--reports .`).
    let abs_root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    while let Some(d) = stack.pop() {
        let rd = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) if d == dir => return Err(BenchError::io(&d, e)),
            Err(e) => {
                set.errors.push(BenchError::io(&d, e));
                continue;
            }
        };
        // The entry's own type: a link (to a file or a directory) is never
        // followed, and is named as an error rather than left out silently.
        let mut names: Vec<(PathBuf, bool)> = Vec::new();
        for e in rd.filter_map(Result::ok) {
            let t = e.file_type();
            if t.as_ref().is_ok_and(|t| t.is_symlink()) {
                set.errors
                    .push(BenchError::File(codethread_lang::io::IoError::Symlink {
                        path: e.path(),
                    }));
                continue;
            }
            names.push((e.path(), t.is_ok_and(|t| t.is_dir())));
        }
        names.sort();
        let has_report = names
            .iter()
            .any(|(p, _)| p.file_name().is_some_and(|n| n == "report.json"));
        for (p, is_dir) in names {
            if is_dir {
                stack.push(p);
            } else if let Some(n) = p.file_name().and_then(|n| n.to_str()) {
                if n == "report.json" || (n == "run_instance.log" && !has_report) {
                    let abs = match p.strip_prefix(dir) {
                        Ok(rel) => abs_root.join(rel),
                        Err(_) => p.clone(),
                    };
                    if filter.keeps_file(&abs) {
                        files.push(p);
                    } else {
                        set.ignored += 1;
                    }
                }
            }
        }
    }
    files.sort();
    let mut found = Vec::new();
    for f in files {
        let r = crate::files::read_opt_nofollow(&f, limits).and_then(|b| match b {
            Some(b) if f.extension().is_some_and(|e| e == "log") => {
                // the harness's instance directory names the instance
                let id = f
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                report_from_log_text(&f, &decode_text(b), &id).map(|r| r.into_iter().collect())
            }
            Some(b) => parse_report_bytes(&f, &b),
            None => Err(BenchError::io(
                &f,
                std::io::Error::from(std::io::ErrorKind::NotFound),
            )),
        });
        match r {
            Ok(rs) => found.extend(rs.into_iter().map(|r| (f.clone(), r))),
            Err(e) => set.errors.push(e),
        }
    }
    Ok(found)
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

impl RunReport {
    /// What a run-level report tells the gate about instances it has no
    /// per-instance report for: `empty_patch_ids` were skipped as empty
    /// ([`HarnessNote::SkippedEmptyPatch`]), `error_ids` failed in the
    /// harness ([`HarnessNote::Infrastructure`]). Resolved / unresolved ids
    /// need their per-instance reports (the test lists are not in the run
    /// report).
    pub fn gate_evidence(&self) -> Vec<InstanceReport> {
        let mk = |id: &String, empty: bool| InstanceReport {
            instance_id: id.clone(),
            patch_is_none: false,
            patch_exists: !empty,
            patch_successfully_applied: false,
            resolved: false,
            tests_status: None,
            harness_note: Some(if empty {
                HarnessNote::SkippedEmptyPatch
            } else {
                HarnessNote::Infrastructure("listed in error_ids of the run report".into())
            }),
        };
        self.empty_patch_ids
            .iter()
            .map(|i| mk(i, true))
            .chain(self.error_ids.iter().map(|i| mk(i, false)))
            .collect()
    }
}

impl RunReport {
    /// What the run says of each instance's resolution, for a resolve-rate
    /// table (not the gate, which needs the tests): `resolved_ids` resolved,
    /// `unresolved_ids` not; the empty predictions it skipped and its
    /// errors as [`RunReport::gate_evidence`] says them (unresolved).
    pub fn outcome_evidence(&self) -> Vec<InstanceReport> {
        let mk = |id: &String, resolved: bool| InstanceReport {
            instance_id: id.clone(),
            patch_is_none: false,
            patch_exists: true,
            patch_successfully_applied: true,
            resolved,
            tests_status: None,
            harness_note: None,
        };
        self.resolved_ids
            .iter()
            .map(|i| mk(i, true))
            .chain(self.unresolved_ids.iter().map(|i| mk(i, false)))
            .chain(self.gate_evidence())
            .collect()
    }
}

/// The reports of `paths` for a resolve-rate table: every report
/// [`load_reports`] reads, and, for instances without one, what the
/// run-level reports among and below `paths` say
/// ([`RunReport::outcome_evidence`]: resolved, unresolved, skipped as
/// empty, errored).
pub fn load_outcome_reports(
    paths: &[PathBuf],
    limits: SourceLimits,
) -> (BTreeMap<String, InstanceReport>, Vec<BenchError>) {
    let (mut reports, mut errors) = load_reports(paths, limits);
    let mut files = Vec::new();
    for p in paths {
        if p.is_dir() {
            files.extend(run_report_files(p));
        } else {
            files.push(p.clone());
        }
    }
    for f in files {
        let Ok(text) = read_text(&f, limits) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if !is_run_report(&v) {
            continue;
        }
        match load_run_report(&f, limits) {
            Ok(r) => {
                for e in r.outcome_evidence() {
                    reports.entry(e.instance_id.clone()).or_insert(e);
                }
            }
            Err(e) => errors.push(e),
        }
    }
    (reports, errors)
}

/// Whether a JSON value is a run-level report (not a per-instance one).
fn is_run_report(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("schema_version")
            || m.get("resolved_ids").is_some_and(Value::is_array)
            || m.get("submitted_ids").is_some_and(Value::is_array)
    })
}

/// Reports for the gate from any mix of paths: directories
/// ([`load_reports_dir`]), per-instance `report.json` files,
/// `run_instance.log` files, and run-level reports (schema_version 2 or
/// older; [`RunReport::gate_evidence`]). A per-instance report always wins
/// over run-level evidence for the same instance; per-instance reports that
/// disagree give the instance a [`HarnessNote::ConflictingReports`] report.
/// Files that cannot be read are returned as errors beside the good
/// reports. Every report is taken: [`load_reports_selected`] keeps only
/// one stack's.
pub fn load_reports(
    paths: &[PathBuf],
    limits: SourceLimits,
) -> (BTreeMap<String, InstanceReport>, Vec<BenchError>) {
    let set = load_reports_selected(paths, &ReportFilter::default(), limits);
    (set.reports, set.errors)
}

/// As [`load_reports`], keeping only the reports `filter` selects: below a
/// directory, those of the filter's model (and run id); among run-level
/// report files, those named `<model>.<run_id>.json` accordingly. Files
/// named one by one (`report.json`, `run_instance.log`) are always read.
/// Reports of one instance that disagree — two runs, two files — are never
/// decided by the order they were found in: the instance gets a
/// [`HarnessNote::ConflictingReports`] report naming every path
/// ([`ReportSet::conflicts`]); identical duplicates are one report.
pub fn load_reports_selected(
    paths: &[PathBuf],
    filter: &ReportFilter,
    limits: SourceLimits,
) -> ReportSet {
    let mut set = ReportSet::default();
    let mut found: Found = Vec::new();
    let mut run_level = Vec::new();
    for p in paths {
        if p.is_dir() {
            match walk_reports(p, limits, filter, &mut set) {
                Ok(f) => found.extend(f),
                Err(e) => set.errors.push(e),
            }
            // Run-level reports kept in the directory (`<model>.<run_id>.json`
            // beside the per-instance trees): their evidence where no
            // per-instance report exists (an empty prediction the harness
            // skipped has none).
            for f in run_report_files(p) {
                if !filter.keeps_run_report(&f) {
                    set.ignored += 1;
                    continue;
                }
                match load_run_report(&f, limits) {
                    Ok(r) => {
                        run_level.extend(r.gate_evidence().into_iter().map(|e| (f.clone(), e)))
                    }
                    Err(e) => set.errors.push(e),
                }
            }
            continue;
        }
        if p.file_name().is_some_and(|n| n == "run_instance.log") {
            let id = p
                .parent()
                .and_then(Path::file_name)
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            match report_from_log(p, &id, limits) {
                Ok(r) => found.extend(r.map(|r| (p.clone(), r))),
                Err(e) => set.errors.push(e),
            }
            continue;
        }
        let parsed = read_text(p, limits).and_then(|t| {
            serde_json::from_str::<Value>(&t).map_err(|e| BenchError::json(p, 0, &e))
        });
        match parsed {
            Ok(v) if is_run_report(&v) => {
                if !filter.keeps_run_report(p) {
                    set.ignored += 1;
                    continue;
                }
                match load_run_report(p, limits) {
                    Ok(r) => {
                        run_level.extend(r.gate_evidence().into_iter().map(|e| (p.clone(), e)))
                    }
                    Err(e) => set.errors.push(e),
                }
            }
            Ok(v) => match reports_from_value(v, p) {
                Ok(rs) => found.extend(rs.into_iter().map(|r| (p.clone(), r))),
                Err(e) => set.errors.push(e),
            },
            Err(e) => set.errors.push(e),
        }
    }
    merge(found, &mut set);
    // Run-level evidence only where no per-instance report exists (two
    // run reports that disagree are a conflict too).
    let run_level: Found = run_level
        .into_iter()
        .filter(|(_, r)| !set.reports.contains_key(&r.instance_id))
        .collect();
    merge(run_level, &mut set);
    set
}

/// The run-level report files below `dir`: regular `*.json` files other
/// than `report.json` whose content is a run report (links not followed;
/// a file that cannot be read is left to the per-instance walk's errors).
fn run_report_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.filter_map(Result::ok) {
            let Ok(t) = e.file_type() else { continue };
            let p = e.path();
            if t.is_dir() {
                stack.push(p);
            } else if t.is_file()
                && p.extension().is_some_and(|x| x == "json")
                && p.file_name().is_some_and(|n| n != "report.json")
            {
                let is_run = crate::files::read_opt_nofollow(&p, SourceLimits::default())
                    .ok()
                    .flatten()
                    .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                    .is_some_and(|v| is_run_report(&v));
                if is_run {
                    out.push(p);
                }
            }
        }
    }
    out.sort();
    out
}

/// Read a run-level report.
pub fn load_run_report(path: &Path, limits: SourceLimits) -> Result<RunReport, BenchError> {
    let text = read_text(path, limits)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| BenchError::json(path, 0, &e))?;
    let Value::Object(m) = v else {
        return Err(BenchError::Format {
            path: path.to_path_buf(),
            message: "a run report must be a JSON object".into(),
        });
    };
    let ids = |keys: &[&str]| -> Result<Vec<String>, BenchError> {
        for k in keys {
            if let Some(v) = m.get(*k) {
                return match v {
                    Value::Array(a) => Ok(a
                        .iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()),
                    _ => Err(BenchError::BadField {
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
        return Err(BenchError::MissingField {
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
pub fn load_resolved(
    path: &Path,
    limits: SourceLimits,
) -> Result<BTreeMap<String, bool>, BenchError> {
    let text = read_text(path, limits)?;
    let v: Value = serde_json::from_str(&text).map_err(|e| BenchError::json(path, 0, &e))?;
    let Value::Object(m) = &v else {
        return Err(BenchError::Format {
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
    let r = load_run_report(path, limits)?;
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
