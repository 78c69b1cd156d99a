//! Benchmark instances: one normalized [`Instance`] from every dataset
//! format this crate reads. See `docs/chain.md` for every quirk handled.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use codethread_lang::io::SourceLimits;

use crate::error::BenchError;
use crate::pyliteral::parse_py_literal;
use crate::records::{read_text, split_records};

/// The dataset format a row was read from (detected per row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DatasetFormat {
    /// SWE-bench / Verified / Lite: `FAIL_TO_PASS` / `PASS_TO_PASS` are
    /// strings holding a JSON-encoded list.
    SweBench,
    /// SWE-bench Multilingual (and this project's normalized files):
    /// `FAIL_TO_PASS` / `PASS_TO_PASS` are JSON lists.
    SweBenchLists,
    /// SWE-bench Pro (HF dataset): lowercase `fail_to_pass` / `pass_to_pass`
    /// holding Python-literal lists; `repo_language`, `requirements`, `interface`.
    SweBenchPro,
    /// SWE-bench Pro `run_scripts/<id>/instance_info.txt` as JSON:
    /// `Instance ID`, `Repository`, `Base Commit`, no gold patch.
    SweBenchProInfo,
    /// FeatBench: `patch` (or `patch_files`) as a list of per-file objects,
    /// test lists possibly comma-separated strings.
    FeatBench,
    /// Multi-SWE-bench (e.g. the Java set): `org` + `repo`, `base.sha`,
    /// `fix_patch`, tests as dicts `f2p_tests` / `p2p_tests` / `s2p_tests` / `n2p_tests`.
    MultiSweBench,
}

/// One benchmark instance, normalized.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Instance {
    /// e.g. `psf__requests-1142`.
    pub instance_id: String,
    /// `owner/name`.
    pub repo: String,
    /// The commit the task starts from.
    pub base_commit: String,
    /// The gold patch (unified diff). Empty when the source has none
    /// ([`DatasetFormat::SweBenchProInfo`]).
    pub patch: String,
    /// The test patch (unified diff), empty when absent.
    pub test_patch: String,
    /// The issue text.
    pub problem_statement: String,
    /// Hints (SWE-bench `hints_text`), empty when absent.
    pub hints_text: String,
    /// Creation time as given.
    pub created_at: Option<String>,
    /// Version string as given (numbers are rendered as text).
    pub version: Option<String>,
    /// SWE-bench `environment_setup_commit`.
    pub environment_setup_commit: Option<String>,
    /// Tests the gold patch makes pass.
    pub fail_to_pass: Vec<String>,
    /// Tests that pass before and after.
    pub pass_to_pass: Vec<String>,
    /// Language as given (`language` or Pro's `repo_language`).
    pub language: Option<String>,
    /// SWE-bench Pro `requirements`.
    pub requirements: Option<String>,
    /// SWE-bench Pro `interface`.
    pub interface: Option<String>,
    /// The format the row was read from.
    pub source_format: DatasetFormat,
    /// Every field not mapped above, verbatim.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, Value>,
}

pub use crate::records::Loaded;

/// Load instances from a `.json` (array, `{id: row}`, or `{"instances": ...}`)
/// or `.jsonl` file, or a `.parquet` file (feature `parquet`, on by default;
/// Snappy or uncompressed columns; errors name the row in `line`).
///
/// A file that cannot be read at all is an `Err` (also a FIFO, device or
/// a file over `limits.max_file_bytes`); a bad row is reported in
/// [`Loaded::errors`] and the other rows are still returned. Rows sharing an
/// `instance_id`: identical repeats are dropped with a warning, differing
/// ones are all refused ([`BenchError::Duplicate`], naming both lines).
pub fn load_instances(path: &Path, limits: SourceLimits) -> Result<Loaded<Instance>, BenchError> {
    if path.extension().is_some_and(|e| e == "parquet") {
        return load_parquet(path, limits);
    }
    let text = read_text(path, limits)?;
    // A `run_scripts/<id>/instance_info.txt` of SWE-bench Pro.
    if text.trim_start().starts_with("Instance ID:") {
        let mut out = Loaded::default();
        match info_row(&text) {
            Some(row) => match instance_from_map(row, None, path, 1) {
                Ok(i) => out.items.push(i),
                Err(e) => out.errors.push(e),
            },
            None => out.errors.push(BenchError::Format {
                path: path.to_path_buf(),
                message: "not an instance_info.txt of SWE-bench Pro".into(),
            }),
        }
        return Ok(out);
    }
    parse_instances(path, &text)
}

/// Like [`load_instances`], for bytes in memory (JSON / JSONL; decoded as
/// the crate's record reader does: lossy UTF-8). The fuzz target's entry point.
pub fn parse_instances_bytes(path: &Path, bytes: &[u8]) -> Result<Loaded<Instance>, BenchError> {
    parse_instances(path, &crate::records::decode_text(bytes.to_vec()))
}

/// Like [`load_instances`], for text already in memory (`path` names it in errors).
pub fn parse_instances(path: &Path, text: &str) -> Result<Loaded<Instance>, BenchError> {
    let records = split_records(path, text, &["instances", "data", "rows"])?;
    let mut out = Loaded::default();
    let mut rows = Vec::new();
    for r in records {
        let value = match r.value {
            Ok(v) => v,
            Err(e) => {
                out.errors.push(e);
                continue;
            }
        };
        match value {
            Value::Object(map) => match instance_from_map(map, r.key.as_deref(), path, r.line) {
                Ok(i) => rows.push((r.line, i.instance_id.clone(), i)),
                Err(e) => out.errors.push(e),
            },
            _ => out.errors.push(BenchError::BadField {
                path: path.to_path_buf(),
                line: r.line,
                instance_id: r.key.unwrap_or_else(|| "<unknown>".into()),
                field: "<row>".into(),
                message: "a row must be a JSON object".into(),
            }),
        }
    }
    crate::records::dedupe(path, "instance", rows, &mut out);
    Ok(out)
}

/// Detect the format of one row from its keys and value types.
pub(crate) fn detect_format(row: &Map<String, Value>) -> DatasetFormat {
    if row.contains_key("Instance ID") || row.contains_key("Base Commit") {
        DatasetFormat::SweBenchProInfo
    } else if row.contains_key("fix_patch") || row.contains_key("f2p_tests") {
        DatasetFormat::MultiSweBench
    } else if row.contains_key("fail_to_pass") || row.contains_key("repo_language") {
        DatasetFormat::SweBenchPro
    } else if row.get("patch").is_some_and(Value::is_array) || row.contains_key("patch_files") {
        DatasetFormat::FeatBench
    } else if row.get("FAIL_TO_PASS").is_some_and(Value::is_array) {
        DatasetFormat::SweBenchLists
    } else {
        DatasetFormat::SweBench
    }
}

struct Row<'a> {
    map: Map<String, Value>,
    path: &'a Path,
    line: usize,
    id: String,
}

impl Row<'_> {
    fn missing(&self, field: &str) -> BenchError {
        BenchError::MissingField {
            path: self.path.to_path_buf(),
            line: self.line,
            instance_id: self.id.clone(),
            field: field.to_string(),
        }
    }

    fn bad(&self, field: &str, message: impl Into<String>) -> BenchError {
        BenchError::BadField {
            path: self.path.to_path_buf(),
            line: self.line,
            instance_id: self.id.clone(),
            field: field.to_string(),
            message: message.into(),
        }
    }

    /// Take the first present (non-null) field among `names`.
    fn take(&mut self, names: &[&str]) -> Option<(String, Value)> {
        for n in names {
            if let Some(v) = self.map.remove(*n) {
                if !v.is_null() {
                    return Some((n.to_string(), v));
                }
            }
        }
        None
    }

    fn opt_str(&mut self, names: &[&str]) -> Result<Option<String>, BenchError> {
        match self.take(names) {
            None => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s)),
            Some((_, Value::Number(n))) => Ok(Some(n.to_string())),
            Some((_, Value::Bool(b))) => Ok(Some(b.to_string())),
            Some((f, v)) => Err(self.bad(&f, format!("expected a string, found {}", kind(&v)))),
        }
    }

    fn req_str(&mut self, names: &[&str]) -> Result<String, BenchError> {
        self.opt_str(names)?.ok_or_else(|| self.missing(names[0]))
    }

    /// A FeatBench test list ([`decode_featbench_tests`]).
    fn featbench_tests(&mut self, names: &[&str]) -> Result<Vec<String>, BenchError> {
        match self.take(names) {
            None => Err(self.missing(names[0])),
            Some((f, v)) => decode_featbench_tests(&v).map_err(|m| self.bad(&f, m.to_string())),
        }
    }

    /// A FeatBench patch: the per-file objects (`<name>_files`, or a list in
    /// `<name>`) when the row has them, else the Hugging Face string repaired
    /// ([`repair_featbench_diff`]); both fields are taken, so neither stays in
    /// the row's extra fields (each holds the whole patch).
    fn featbench_patch(&mut self, name: &str) -> Result<Option<String>, BenchError> {
        let files_field = format!("{name}_files");
        let files = self.take(&[&files_field]);
        let plain = self.take(&[name]);
        match (files, plain) {
            (Some((f, Value::Array(list))), _) | (None, Some((f, Value::Array(list)))) => {
                per_file_patches_to_diff(&list)
                    .map(Some)
                    .map_err(|m| self.bad(&f, m.to_string()))
            }
            (Some((f, v)), _) => {
                Err(self.bad(&f, format!("expected a list of files, found {}", kind(&v))))
            }
            (None, Some((_, Value::String(s)))) => Ok(Some(repair_featbench_diff(&s))),
            (None, Some((f, v))) => {
                Err(self.bad(&f, format!("expected a diff, found {}", kind(&v))))
            }
            (None, None) => Ok(None),
        }
    }

    fn tests(&mut self, names: &[&str], required: bool) -> Result<Vec<String>, BenchError> {
        match self.take(names) {
            None if required => Err(self.missing(names[0])),
            None => Ok(Vec::new()),
            Some((f, v)) => decode_tests(&v).map_err(|m| self.bad(&f, m.to_string())),
        }
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Decode a test list in any of the shapes found in the wild: a JSON list;
/// a string holding a JSON list (SWE-bench Verified); a string holding a
/// Python-literal list (SWE-bench Pro); a comma-separated string (FeatBench;
/// commas inside `[...]` / `(...)` parameter ids do not split); an object
/// whose keys are the tests (Multi-SWE-bench).
pub(crate) fn decode_tests(v: &Value) -> Result<Vec<String>, TestsError> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => items
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                other => Err(TestsError::Element(kind(other))),
            })
            .collect(),
        Value::Object(m) => Ok(m.keys().cloned().collect()),
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                return Ok(Vec::new());
            }
            if t.starts_with('[') || t.starts_with('(') {
                let parsed = serde_json::from_str::<Value>(t)
                    .or_else(|_| parse_py_literal(t))
                    .map_err(|e| TestsError::NotAList(e.to_string()))?;
                if !parsed.is_array() {
                    return Err(TestsError::NoList);
                }
                return decode_tests(&parsed);
            }
            Ok(split_top_level_commas(t))
        }
        other => Err(TestsError::Kind(kind(other))),
    }
}

/// Decode a FeatBench test list, never losing an id. FeatBench writes a
/// list as `", ".join(sorted(set(ids)))` (and its Hugging Face upload, as
/// `split(",")` of that): a `", "` inside a test's parameters
/// (`test_x[timeout0-(connect, read)]`) cannot be the separator when the
/// next piece does not start a pytest node id (`path.py::` or `path.py`),
/// so the pieces are folded back into the id whose `[` is still open. A
/// string whose first piece is no node id (Django's `name (module.Class)`,
/// bare names) cannot be split unambiguously and is refused; so is a list
/// whose first element is a node id and some other is not (split at every
/// `,` by FeatBench's `standardize_dataset.py`: use the string shape).
pub(crate) fn decode_featbench_tests(v: &Value) -> Result<Vec<String>, TestsError> {
    let checked = |ids: Vec<String>| -> Result<Vec<String>, TestsError> {
        if ids.first().is_some_and(|f| starts_node_id(f)) {
            if let Some(bad) = ids.iter().find(|t| !starts_node_id(t)) {
                return Err(TestsError::SplitAtComma(bad.clone()));
            }
        }
        Ok(ids)
    };
    match v {
        Value::Null => Ok(Vec::new()),
        Value::Array(_) => checked(decode_tests(v)?),
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                return Ok(Vec::new());
            }
            // A SWE-bench-style list stored as a string. A FeatBench string may
            // itself begin with `[` (an id such as `[100%]`): then it is split below.
            if t.starts_with('[') {
                if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(t) {
                    return checked(decode_tests(&Value::Array(items))?);
                }
            }
            if !t.contains(", ") {
                return Ok(vec![t.to_string()]);
            }
            let mut pieces = t.split(", ");
            let first = pieces.next().unwrap_or_default();
            if !starts_node_id(first) {
                return Err(TestsError::Ambiguous(first.chars().take(80).collect()));
            }
            let mut out = vec![first.to_string()];
            for piece in pieces {
                let open = out
                    .last()
                    .map(|cur| cur.matches('[').count() > cur.matches(']').count())
                    .unwrap_or(false);
                match out.last_mut() {
                    Some(cur) if open && !starts_node_id(piece) => {
                        cur.push_str(", ");
                        cur.push_str(piece);
                    }
                    _ => out.push(piece.to_string()),
                }
            }
            Ok(out.into_iter().filter(|x| !x.trim().is_empty()).collect())
        }
        other => Err(TestsError::Kind(kind(other))),
    }
}

/// Whether `s` starts with a pytest node id: `dir/.../file.py` followed by
/// `::` or the end (`(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_.-]+\.py(?:::|$)`).
fn starts_node_id(s: &str) -> bool {
    let b = s.as_bytes();
    let ok = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-');
    let mut i = 0;
    let mut seg_len = 0usize;
    while i < b.len() {
        let c = b[i];
        if c == b'/' {
            if seg_len == 0 {
                return false;
            }
            seg_len = 0;
        } else if ok(c) {
            seg_len += 1;
            // `.py` ends a segment of at least one character before it.
            if c == b'y' && seg_len >= 4 && b[i - 2] == b'.' && b[i - 1] == b'p' {
                let rest = &b[i + 1..];
                if rest.is_empty() || rest.starts_with(b"::") {
                    return true;
                }
            }
        } else {
            return false;
        }
        i += 1;
    }
    false
}

/// Why a test-list field could not be decoded (`decode_tests`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum TestsError {
    /// A list element that is not a string or a number (its JSON kind).
    #[error("test list element is {0}")]
    Element(&'static str),
    /// A bracketed string that neither JSON nor the Python-literal reader
    /// reads (the reader's message).
    #[error("string is neither a JSON nor a Python list: {0}")]
    NotAList(String),
    /// A bracketed string that holds something other than a list.
    #[error("string does not hold a list")]
    NoList,
    /// A value of another JSON kind.
    #[error("expected a list of tests, found {0}")]
    Kind(&'static str),
    /// A FeatBench string whose ids are not pytest node ids: a `", "` inside
    /// an id cannot be told from the separator (the first piece).
    #[error("ids are not pytest node ids (first: {0:?}): a \", \" inside an id cannot be told from the separator")]
    Ambiguous(String),
    /// A FeatBench list split at every `,` (an element that is no node id).
    #[error("list looks split at ',' (FeatBench's standardize_dataset.py; element {0:?}): give the string shape")]
    SplitAtComma(String),
}

/// Split on commas outside brackets, trimming whitespace, dropping empties.
fn split_top_level_commas(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth <= 0 => {
                let t = cur.trim();
                if !t.is_empty() {
                    out.push(t.to_string());
                }
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    let t = cur.trim();
    if !t.is_empty() {
        out.push(t.to_string());
    }
    out
}

/// Why FeatBench per-file patch objects cannot be one diff
/// ([`per_file_patches_to_diff`]); the row's file, line and field are added
/// by the loader.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PerFileError {
    /// An element of the list is not an object.
    #[error("element {index} is {kind}, expected an object")]
    NotObject {
        /// The element's position (0-based).
        index: usize,
        /// What it is instead.
        kind: &'static str,
    },
    /// An element names no file.
    #[error("element {index} has no `filename`")]
    NoFilename {
        /// The element's position (0-based).
        index: usize,
    },
    /// An element with no text patch (a binary file, a pure rename or a
    /// mode change, which FeatBench stores as `patch: ""`): the change
    /// cannot be rebuilt, and dropping it would lose part of the patch.
    #[error("{name} ({status}) has an empty patch: a binary file, rename or mode change FeatBench cannot represent")]
    Empty {
        /// The file.
        name: String,
        /// Its GitHub status.
        status: String,
    },
}

/// A FeatBench Hugging Face `patch` / `test_patch` string as `git apply`
/// takes it: FeatBench's converter writes placeholder `index` lines
/// (`index 1111111..2222222 100644`, `index 0000000..1111111`,
/// `index 1111111..0000000`), which name blobs that exist nowhere, and no
/// final newline (`corrupt patch` at the last line). Both are undone; any
/// other text is kept byte for byte.
pub(crate) fn repair_featbench_diff(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    for line in s.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        let placeholder = bare
            .strip_prefix("index ")
            .map(|rest| rest.split(' ').next().unwrap_or(""))
            .is_some_and(|ids| {
                matches!(
                    ids,
                    "1111111..2222222" | "0000000..1111111" | "1111111..0000000"
                )
            });
        if !placeholder {
            out.push_str(line);
        }
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Turn FeatBench per-file patch objects (GitHub "files" API shape:
/// `filename`, `status`, `patch` = hunks only, optional `previous_filename`)
/// into one unified diff that `git apply` accepts.
pub(crate) fn per_file_patches_to_diff(files: &[Value]) -> Result<String, PerFileError> {
    let mut out = String::new();
    for (i, f) in files.iter().enumerate() {
        let Value::Object(m) = f else {
            return Err(PerFileError::NotObject {
                index: i,
                kind: kind(f),
            });
        };
        let name = m
            .get("filename")
            .or_else(|| m.get("path"))
            .or_else(|| m.get("file"))
            .and_then(Value::as_str)
            .ok_or(PerFileError::NoFilename { index: i })?;
        let body = m
            .get("patch")
            .or_else(|| m.get("diff"))
            .and_then(Value::as_str)
            .unwrap_or("");
        // Already a full diff for this file: keep it.
        if body.starts_with("diff --git ") || body.starts_with("--- ") {
            out.push_str(body);
            if !body.ends_with('\n') {
                out.push('\n');
            }
            continue;
        }
        let status = m
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("modified");
        if body.is_empty() {
            return Err(PerFileError::Empty {
                name: name.to_string(),
                status: status.to_string(),
            });
        }
        let old = m
            .get("previous_filename")
            .and_then(Value::as_str)
            .unwrap_or(name);
        out.push_str(&format!("diff --git a/{old} b/{name}\n"));
        match status {
            "added" => out.push_str(&format!(
                "new file mode 100644\n--- /dev/null\n+++ b/{name}\n"
            )),
            "removed" | "deleted" => out.push_str(&format!(
                "deleted file mode 100644\n--- a/{old}\n+++ /dev/null\n"
            )),
            _ => {
                if old != name {
                    out.push_str(&format!("rename from {old}\nrename to {name}\n"));
                }
                out.push_str(&format!("--- a/{old}\n+++ b/{name}\n"));
            }
        }
        out.push_str(body);
        if !body.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

/// Build an [`Instance`] from one row. `key` is the row's key when the file
/// maps ids to rows; `line` is where the row starts (for errors).
pub(crate) fn instance_from_map(
    map: Map<String, Value>,
    key: Option<&str>,
    path: &Path,
    line: usize,
) -> Result<Instance, BenchError> {
    let format = detect_format(&map);
    let id = ["instance_id", "Instance ID"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .or(key)
        .map(crate::ids::label)
        .unwrap_or_else(|| "<unknown>".into());
    let mut row = Row {
        map,
        path,
        line,
        id,
    };
    let instance_id = match row.take(&["instance_id", "Instance ID"]) {
        Some((_, Value::String(s))) => s,
        Some((f, v)) => return Err(row.bad(&f, format!("expected a string, found {}", kind(&v)))),
        None => key
            .map(str::to_string)
            .ok_or_else(|| row.missing("instance_id"))?,
    };
    // Ids name the per-instance directories and files of every output and
    // snapshot: one plain path component that fits `<id>.patch`, nothing that
    // could leave the directory, no control character (`ids`).
    if let Some(why) = crate::ids::id_problem(&instance_id) {
        return Err(row.bad("instance_id", why));
    }
    let mut inst =
        match format {
            DatasetFormat::MultiSweBench => {
                let org = row.req_str(&["org"])?;
                let name = row.req_str(&["repo"])?;
                let base_commit = match row.take(&["base"]) {
                    Some((_, Value::Object(b))) => b
                        .get("sha")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .ok_or_else(|| row.missing("base.sha"))?,
                    Some((f, v)) => {
                        return Err(row.bad(&f, format!("expected an object, found {}", kind(&v))))
                    }
                    None => row
                        .req_str(&["base_commit"])
                        .map_err(|_| row.missing("base.sha"))?,
                };
                let patch = row.req_str(&["fix_patch", "patch"])?;
                let test_patch = row.opt_str(&["test_patch"])?.unwrap_or_default();
                let mut f2p = row.tests(&["f2p_tests"], true)?;
                let mut seen: std::collections::HashSet<String> = f2p.iter().cloned().collect();
                for extra in ["s2p_tests", "n2p_tests"] {
                    for t in row.tests(&[extra], false)? {
                        if seen.insert(t.clone()) {
                            f2p.push(t);
                        }
                    }
                }
                let p2p = row.tests(&["p2p_tests"], false)?;
                let title = row.opt_str(&["title"])?.unwrap_or_default();
                let body = row.opt_str(&["body"])?.unwrap_or_default();
                let issues = match row.map.get("resolved_issues") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .filter_map(|i| {
                            let t = i.get("title").and_then(Value::as_str).unwrap_or("");
                            let b = i.get("body").and_then(Value::as_str).unwrap_or("");
                            (!t.is_empty() || !b.is_empty()).then(|| format!("{t}\n{b}"))
                        })
                        .collect::<Vec<_>>(),
                    _ => Vec::new(),
                };
                let problem_statement = if issues.is_empty() {
                    format!("{title}\n{body}")
                } else {
                    issues.join("\n")
                };
                Instance {
                    instance_id,
                    repo: format!("{org}/{name}"),
                    base_commit,
                    patch,
                    test_patch,
                    problem_statement,
                    hints_text: String::new(),
                    created_at: None,
                    version: None,
                    environment_setup_commit: None,
                    fail_to_pass: f2p,
                    pass_to_pass: p2p,
                    language: None,
                    requirements: None,
                    interface: None,
                    source_format: format,
                    extra: BTreeMap::new(),
                }
            }
            _ => {
                let repo = row.req_str(&["repo", "Repository"])?;
                let base_commit = row.req_str(&["base_commit", "Base Commit"])?;
                let featbench = format == DatasetFormat::FeatBench;
                let patch = if format == DatasetFormat::SweBenchProInfo {
                    row.opt_str(&["patch"])?.unwrap_or_default()
                } else if featbench {
                    row.featbench_patch("patch")?
                        .ok_or_else(|| row.missing("patch"))?
                } else {
                    match row.take(&["patch", "patch_files"]) {
                        Some((_, Value::String(s))) => s,
                        Some((f, Value::Array(files))) => per_file_patches_to_diff(&files)
                            .map_err(|m| row.bad(&f, m.to_string()))?,
                        Some((f, v)) => {
                            return Err(row.bad(&f, format!("expected a diff, found {}", kind(&v))))
                        }
                        None => return Err(row.missing("patch")),
                    }
                };
                let test_patch = if featbench {
                    row.featbench_patch("test_patch")?.unwrap_or_default()
                } else {
                    match row.take(&["test_patch", "test_patch_files"]) {
                        Some((_, Value::String(s))) => s,
                        Some((f, Value::Array(files))) => per_file_patches_to_diff(&files)
                            .map_err(|m| row.bad(&f, m.to_string()))?,
                        Some((f, v)) => {
                            return Err(row.bad(&f, format!("expected a diff, found {}", kind(&v))))
                        }
                        None => String::new(),
                    }
                };
                let (fail_to_pass, pass_to_pass) = if featbench {
                    let f2p = row.featbench_tests(&["FAIL_TO_PASS", "fail_to_pass"])?;
                    if f2p.is_empty() {
                        // FeatBench leaves both lists empty for instances its pipeline
                        // skipped (a test patch that only adds parametrize cases).
                        return Err(row.bad(
                            "FAIL_TO_PASS",
                            "empty: FeatBench did not process this instance (no test to fail)",
                        ));
                    }
                    (f2p, row.featbench_tests(&["PASS_TO_PASS", "pass_to_pass"])?)
                } else {
                    (
                        row.tests(&["FAIL_TO_PASS", "fail_to_pass"], true)?,
                        row.tests(&["PASS_TO_PASS", "pass_to_pass"], true)?,
                    )
                };
                Instance {
                    instance_id,
                    repo,
                    base_commit,
                    patch,
                    test_patch,
                    problem_statement: row.opt_str(&["problem_statement"])?.unwrap_or_default(),
                    hints_text: row.opt_str(&["hints_text"])?.unwrap_or_default(),
                    created_at: row.opt_str(&["created_at"])?,
                    version: row.opt_str(&["version"])?,
                    environment_setup_commit: row.opt_str(&["environment_setup_commit"])?,
                    fail_to_pass,
                    pass_to_pass,
                    language: row.opt_str(&["language", "repo_language"])?,
                    requirements: row.opt_str(&["requirements"])?,
                    interface: row.opt_str(&["interface"])?,
                    source_format: format,
                    extra: BTreeMap::new(),
                }
            }
        };
    inst.extra = row.map.into_iter().collect();
    Ok(inst)
}

impl Instance {
    /// The repository-level language hint: the `language` field (SWE-bench
    /// Multilingual rows as the `dev_multilingual` pack carries them,
    /// Multi-SWE-bench, Pro's `repo_language`) read by [`Lang::from_name`](codethread_lang::Lang::from_name)
    /// (`C++`, `Java`, `PHP`, ...). `None` when absent or unknown: C-family
    /// files then follow [`Lang::for_source`](codethread_lang::Lang::for_source)'s content rule for `.h`.
    pub fn lang_hint(&self) -> Option<codethread_lang::Lang> {
        self.language
            .as_deref()
            .and_then(codethread_lang::Lang::from_name)
    }

    /// Serialize as a SWE-bench row (the classic columns, lists as JSON
    /// lists as in Multilingual; `language` etc. only when set).
    pub fn to_swebench_row(&self) -> Map<String, Value> {
        let mut m = Map::new();
        let s = |x: &str| Value::String(x.to_string());
        m.insert("repo".into(), s(&self.repo));
        m.insert("instance_id".into(), s(&self.instance_id));
        m.insert("base_commit".into(), s(&self.base_commit));
        m.insert("patch".into(), s(&self.patch));
        m.insert("test_patch".into(), s(&self.test_patch));
        m.insert("problem_statement".into(), s(&self.problem_statement));
        m.insert("hints_text".into(), s(&self.hints_text));
        m.insert(
            "created_at".into(),
            s(self.created_at.as_deref().unwrap_or("")),
        );
        m.insert("version".into(), s(self.version.as_deref().unwrap_or("")));
        m.insert(
            "FAIL_TO_PASS".into(),
            Value::from(self.fail_to_pass.clone()),
        );
        m.insert(
            "PASS_TO_PASS".into(),
            Value::from(self.pass_to_pass.clone()),
        );
        if let Some(e) = &self.environment_setup_commit {
            m.insert("environment_setup_commit".into(), s(e));
        }
        if let Some(l) = &self.language {
            m.insert("language".into(), s(l));
        }
        m
    }
}

/// Read a `run_scripts/<id>/instance_info.txt` of scaleapi/SWE-bench_Pro-os
/// (`Instance ID: …`, `Repository: …`, `Base Commit: …`, `Test Files: [...]`,
/// `FAIL_TO_PASS: [...]`, `PASS_TO_PASS: [...]`, one per line) as the row
/// the instance loader reads (its keys kept).
pub(crate) fn info_row(text: &str) -> Option<Map<String, Value>> {
    let mut m = Map::new();
    for line in text.lines() {
        let Some((k, v)) = line.split_once(": ") else {
            continue;
        };
        let v = v.trim();
        let value = if v.starts_with('[') {
            serde_json::from_str(v)
                .or_else(|_| crate::pyliteral::parse_py_literal(v))
                .unwrap_or_else(|_| Value::String(v.to_string()))
        } else {
            Value::String(v.to_string())
        };
        m.insert(k.trim().to_string(), value);
    }
    m.contains_key("Instance ID").then_some(m)
}

/// Read a `.parquet` dataset with the `parquet` crate's row API (no arrow).
/// Errors name the row (1-based) in the `line` field.
#[cfg(feature = "parquet")]
fn load_parquet(path: &Path, limits: SourceLimits) -> Result<Loaded<Instance>, BenchError> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let fmt = |m: String| BenchError::Format {
        path: path.to_path_buf(),
        message: m,
    };
    let mut file = codethread_lang::io::open_regular(path, limits.max_file_bytes)?;
    crate::parquet_guard::check_file(&mut file).map_err(|m| fmt(format!("refused: {m}")))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| fmt(format!("not a readable parquet file: {e}")))?;
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| fmt(format!("cannot read rows: {e}")))?;
    let mut out = Loaded::default();
    let mut kept = Vec::new();
    for (i, row) in rows.enumerate() {
        match row {
            Ok(r) => match r.to_json_value() {
                Value::Object(map) => match instance_from_map(map, None, path, i + 1) {
                    Ok(inst) => kept.push((i + 1, inst.instance_id.clone(), inst)),
                    Err(e) => out.errors.push(e),
                },
                _ => out
                    .errors
                    .push(fmt(format!("row {} is not a record", i + 1))),
            },
            Err(e) => {
                // A decoding error ends the row stream: report it and stop.
                out.errors.push(fmt(format!("row {}: {e}", i + 1)));
                break;
            }
        }
    }
    crate::records::dedupe(path, "instance", kept, &mut out);
    Ok(out)
}

#[cfg(not(feature = "parquet"))]
fn load_parquet(path: &Path, _limits: SourceLimits) -> Result<Loaded<Instance>, BenchError> {
    Err(BenchError::Format {
        path: path.to_path_buf(),
        message: "parquet support is off (build codethread-chain with the `parquet` feature)"
            .into(),
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn fb(s: &str) -> Result<Vec<String>, TestsError> {
        decode_featbench_tests(&Value::String(s.into()))
    }

    #[test]
    fn featbench_strings_split_only_between_node_ids() {
        // A `", "` inside parameters (real pytest ids of requests' tests) is rejoined.
        let ids = fb("tests/test_requests.py::test_invalid_timeout[timeout0-(connect, read)], tests/test_requests.py::test_x").unwrap();
        assert_eq!(
            ids,
            [
                "tests/test_requests.py::test_invalid_timeout[timeout0-(connect, read)]",
                "tests/test_requests.py::test_x"
            ]
        );
        // A truncated id (SWE-bench's log parser cut it at a space) keeps what follows it.
        let ids = fb("t.py::a[x, y, t.py::b").unwrap();
        assert_eq!(ids, ["t.py::a[x, y", "t.py::b"]);
        // One id, whatever its shape; bare files; empty.
        assert_eq!(fb("[100%]").unwrap(), ["[100%]"]);
        assert_eq!(fb("a/b.py, c.py").unwrap(), ["a/b.py", "c.py"]);
        assert!(fb("  ").unwrap().is_empty());
        // Ids that are no node ids: refused, never guessed.
        let e = fb("test_a (m.T), test_b (m.T)").unwrap_err();
        assert!(matches!(e, TestsError::Ambiguous(_)), "{e}");
        // A list split at every `,` by standardize_dataset.py.
        let split = Value::Array(vec!["t.py::a[127.0.0.1".into(), "localhost]".into()]);
        assert!(matches!(
            decode_featbench_tests(&split),
            Err(TestsError::SplitAtComma(_))
        ));
        // A JSON list stored as a string.
        assert_eq!(
            fb(r#"["t.py::a", "t.py::b"]"#).unwrap(),
            ["t.py::a", "t.py::b"]
        );
    }

    #[test]
    fn node_id_heads() {
        for yes in [
            "a.py",
            "a.py::b",
            "tests/x-y/t_1.py::C::d[1]",
            "src/a.b.py::x",
        ] {
            assert!(starts_node_id(yes), "{yes}");
        }
        for no in [
            ".py",
            "a.pyx::b",
            "/a.py",
            "a//b.py",
            "name (m.C)",
            "a.py:b",
            "a py.py",
        ] {
            assert!(!starts_node_id(no), "{no}");
        }
    }

    #[test]
    fn featbench_strings_are_repaired() {
        let s = "diff --git a/x.py b/x.py\nindex 1111111..2222222 100644\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b";
        assert_eq!(
            repair_featbench_diff(s),
            "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n"
        );
        let real = "diff --git a/x.py b/x.py\nindex 3f2a1b0..9c8d7e6 100644\n";
        assert_eq!(repair_featbench_diff(real), real);
    }
}
