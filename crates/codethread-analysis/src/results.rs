//! The results model: one resolved flag per (benchmark, model, condition, instance).
//!
//! Rows come from CSV or JSONL files ([`Results::from_csv_bytes`], [`Results::from_jsonl_bytes`])
//! or from any producer — e.g. `codethread-chain`'s harness-report import — through
//! [`Results::push`], [`Extend`] and [`FromIterator`].

use codethread_lang::io::SourceLimits;
use codethread_stats::error::{AnalysisError, Result};
use codethread_stats::input::read;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Who wrote PR1 and PR2: human/human, human PR1 + agent PR2, agent/agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Condition {
    /// Human PR1, human PR2 (the original history).
    HH,
    /// Human PR1, agent PR2.
    HA,
    /// Agent PR1, agent PR2.
    AA,
}

impl Condition {
    /// Parses `HH` / `HA` / `AA` (case-insensitive).
    pub fn parse(s: &str) -> Option<Condition> {
        match s.trim().to_ascii_uppercase().as_str() {
            "HH" => Some(Condition::HH),
            "HA" => Some(Condition::HA),
            "AA" => Some(Condition::AA),
            _ => None,
        }
    }

    /// `HH`, `HA` or `AA`.
    pub fn as_str(self) -> &'static str {
        match self {
            Condition::HH => "HH",
            Condition::HA => "HA",
            Condition::AA => "AA",
        }
    }
}

/// Task type of an instance: bug fix, feature implementation, refactoring, or both FI and RF.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum TaskType {
    /// Bug fix.
    BF,
    /// Feature implementation.
    FI,
    /// Refactoring.
    RF,
    /// Feature implementation and refactoring.
    #[serde(rename = "FI+RF")]
    FiRf,
}

impl TaskType {
    /// Parses `BF`, `FI`, `RF`, `FI+RF` (also `RF+FI`, `FI/RF`, `FI_RF`; case-insensitive).
    pub fn parse(s: &str) -> Option<TaskType> {
        let t: String = s
            .trim()
            .to_ascii_uppercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        match t.as_str() {
            "BF" => Some(TaskType::BF),
            "FI" => Some(TaskType::FI),
            "RF" => Some(TaskType::RF),
            "FI+RF" | "RF+FI" | "FI/RF" | "FI_RF" | "FIRF" => Some(TaskType::FiRf),
            _ => None,
        }
    }

    /// `BF`, `FI`, `RF`, `FI+RF`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskType::BF => "BF",
            TaskType::FI => "FI",
            TaskType::RF => "RF",
            TaskType::FiRf => "FI+RF",
        }
    }

    /// All task types in table order.
    pub const ALL: [TaskType; 4] = [TaskType::BF, TaskType::FI, TaskType::RF, TaskType::FiRf];
}

/// One PR2 outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Benchmark (e.g. `SWE-bench Verified`).
    pub benchmark: String,
    /// Model (or agent + model).
    pub model: String,
    /// Condition.
    pub condition: Condition,
    /// Instance id.
    pub instance: String,
    /// Whether PR2 resolved the issue.
    pub resolved: bool,
    /// Task type, when known.
    pub task_type: Option<TaskType>,
}

/// A collection of outcomes; later duplicates of the same key are rejected by the loaders.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Results {
    rows: Vec<Outcome>,
}

/// Rows a lenient load rejected, with the reason, alongside the rows it kept.
#[derive(Debug, Default)]
pub struct LoadedResults {
    /// The accepted rows.
    pub results: Results,
    /// One error per rejected row (naming file, row and column).
    pub rejected: Vec<AnalysisError>,
}

impl Results {
    /// An empty collection.
    pub fn new() -> Results {
        Results::default()
    }

    /// Adds one outcome (the seam for harness-report imports).
    pub fn push(&mut self, o: Outcome) {
        self.rows.push(o);
    }

    /// All outcomes in insertion order.
    pub fn rows(&self) -> &[Outcome] {
        &self.rows
    }

    /// Number of outcomes.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Sorted distinct benchmarks.
    pub fn benchmarks(&self) -> Vec<String> {
        let mut v: Vec<String> = self.rows.iter().map(|r| r.benchmark.clone()).collect();
        v.sort();
        v.dedup();
        v
    }

    /// Sorted distinct models (of one benchmark, or all).
    pub fn models(&self, benchmark: Option<&str>) -> Vec<String> {
        let mut v: Vec<String> = self
            .rows
            .iter()
            .filter(|r| benchmark.is_none_or(|b| r.benchmark == b))
            .map(|r| r.model.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Task type per (benchmark, instance): the first non-empty value seen.
    pub fn task_types(&self) -> BTreeMap<(String, String), TaskType> {
        let mut m = BTreeMap::new();
        for r in &self.rows {
            if let Some(t) = r.task_type {
                m.entry((r.benchmark.clone(), r.instance.clone()))
                    .or_insert(t);
            }
        }
        m
    }

    /// Reads a CSV file strictly (the first bad row is an error). See [`Results::from_csv_bytes`].
    pub fn from_csv_path(path: &Path, limits: SourceLimits) -> Result<Results> {
        let bytes = read(path, limits)?;
        Results::from_csv_bytes(&path.display().to_string(), &bytes)
    }

    /// Reads a JSONL file strictly. See [`Results::from_jsonl_bytes`].
    pub fn from_jsonl_path(path: &Path, limits: SourceLimits) -> Result<Results> {
        let bytes = read(path, limits)?;
        Results::from_jsonl_bytes(&path.display().to_string(), &bytes)
    }

    /// Reads `.csv` or `.jsonl` / `.json` by extension.
    pub fn from_path(path: &Path, limits: SourceLimits) -> Result<Results> {
        match path.extension().and_then(|e| e.to_str()) {
            Some("jsonl") | Some("json") | Some("ndjson") => Results::from_jsonl_path(path, limits),
            _ => Results::from_csv_path(path, limits),
        }
    }

    /// CSV with a header naming `benchmark, model, condition, instance` (or `instance_id`),
    /// `resolved` (`0/1`, `true/false`, `yes/no`) and optionally `task_type`; other columns are
    /// ignored. Strict: the first bad row is the error.
    pub fn from_csv_bytes(origin: &str, bytes: &[u8]) -> Result<Results> {
        let l = Results::from_csv_bytes_lenient(origin, bytes)?;
        match l.rejected.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(l.results),
        }
    }

    /// Like [`Results::from_csv_bytes`] but keeps every good row and lists the bad ones.
    /// Only a missing column or an unreadable file is a hard error.
    pub fn from_csv_bytes_lenient(origin: &str, bytes: &[u8]) -> Result<LoadedResults> {
        let frame = codethread_stats::design::Frame::from_csv_bytes(origin, bytes)?;
        let col = |names: &[&str]| -> Result<&[String]> {
            for n in names {
                if frame.names().iter().any(|c| c == n) {
                    return frame.cells(n);
                }
            }
            Err(AnalysisError::MissingColumn {
                origin: origin.to_string(),
                column: names[0].to_string(),
                available: frame.names().join(", "),
            })
        };
        let bench = col(&["benchmark"])?;
        let model = col(&["model"])?;
        let cond = col(&["condition"])?;
        let inst = col(&["instance", "instance_id"])?;
        let res = col(&["resolved"])?;
        let task = col(&["task_type"]).ok();
        let mut out = LoadedResults::default();
        let mut seen = std::collections::HashSet::new();
        for i in 0..frame.nrows() {
            let row = i + 1;
            match parse_row(
                origin,
                row,
                &bench[i],
                &model[i],
                &cond[i],
                &inst[i],
                RawFlag::Text(&res[i]),
                task.map(|t| t[i].as_str()),
            ) {
                Ok(o) => {
                    let key = (
                        o.benchmark.clone(),
                        o.model.clone(),
                        o.condition,
                        o.instance.clone(),
                    );
                    if seen.insert(key) {
                        out.results.push(o);
                    } else {
                        out.rejected.push(duplicate(origin, row, &o));
                    }
                }
                Err(e) => out.rejected.push(e),
            }
        }
        Ok(out)
    }

    /// JSONL: one object per line with the same fields as the CSV (`resolved` a bool or 0/1).
    /// Blank lines are skipped. Strict.
    pub fn from_jsonl_bytes(origin: &str, bytes: &[u8]) -> Result<Results> {
        let l = Results::from_jsonl_bytes_lenient(origin, bytes);
        match l.rejected.into_iter().next() {
            Some(e) => Err(e),
            None if l.results.is_empty() => Err(AnalysisError::Empty {
                origin: origin.to_string(),
            }),
            None => Ok(l.results),
        }
    }

    /// Like [`Results::from_jsonl_bytes`] but keeps every good line and lists the bad ones.
    pub fn from_jsonl_bytes_lenient(origin: &str, bytes: &[u8]) -> LoadedResults {
        let mut out = LoadedResults::default();
        let mut seen = std::collections::HashSet::new();
        for (i, line) in bytes.split(|b| *b == b'\n').enumerate() {
            let line_no = i + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            let v: serde_json::Value = match serde_json::from_slice(line) {
                Ok(v) => v,
                Err(e) => {
                    out.rejected.push(AnalysisError::Json {
                        origin: origin.to_string(),
                        line: line_no,
                        message: e.to_string(),
                    });
                    continue;
                }
            };
            let s = |k: &[&str]| -> String {
                for key in k {
                    match v.get(*key) {
                        Some(serde_json::Value::String(s)) => return s.clone(),
                        Some(serde_json::Value::Number(n)) => return n.to_string(),
                        _ => {}
                    }
                }
                String::new()
            };
            let flag = match v.get("resolved") {
                Some(serde_json::Value::Bool(b)) => RawFlag::Bool(*b),
                Some(serde_json::Value::Number(n)) => RawFlag::Num(n.as_f64()),
                Some(serde_json::Value::String(s)) => RawFlag::Owned(s.clone()),
                _ => RawFlag::Owned(String::new()),
            };
            let task = s(&["task_type"]);
            let flag_ref = match &flag {
                RawFlag::Owned(s) => RawFlag::Text(s),
                RawFlag::Bool(b) => RawFlag::Bool(*b),
                RawFlag::Num(n) => RawFlag::Num(*n),
                RawFlag::Text(t) => RawFlag::Text(t),
            };
            match parse_row(
                origin,
                line_no,
                &s(&["benchmark"]),
                &s(&["model"]),
                &s(&["condition"]),
                &s(&["instance", "instance_id"]),
                flag_ref,
                Some(task.as_str()),
            ) {
                Ok(o) => {
                    let key = (
                        o.benchmark.clone(),
                        o.model.clone(),
                        o.condition,
                        o.instance.clone(),
                    );
                    if seen.insert(key) {
                        out.results.push(o);
                    } else {
                        out.rejected.push(duplicate(origin, line_no, &o));
                    }
                }
                Err(e) => out.rejected.push(e),
            }
        }
        out
    }

    /// Writes the outcomes as CSV (the format [`Results::from_csv_bytes`] reads).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("benchmark,model,condition,instance,resolved,task_type\n");
        for r in &self.rows {
            s.push_str(&format!(
                "{},{},{},{},{},{}\n",
                csv_cell(&r.benchmark),
                csv_cell(&r.model),
                r.condition.as_str(),
                csv_cell(&r.instance),
                u8::from(r.resolved),
                r.task_type.map(|t| t.as_str()).unwrap_or("")
            ));
        }
        s
    }
}

/// Quotes a CSV cell when needed.
pub fn csv_cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn duplicate(origin: &str, row: usize, o: &Outcome) -> AnalysisError {
    AnalysisError::Invalid {
        origin: format!("{origin}: row {row}"),
        message: format!(
            "duplicate outcome for ({}, {}, {}, {})",
            o.benchmark,
            o.model,
            o.condition.as_str(),
            o.instance
        ),
    }
}

enum RawFlag<'a> {
    Text(&'a str),
    Owned(String),
    Bool(bool),
    Num(Option<f64>),
}

#[allow(clippy::too_many_arguments)]
fn parse_row(
    origin: &str,
    row: usize,
    bench: &str,
    model: &str,
    cond: &str,
    inst: &str,
    flag: RawFlag<'_>,
    task: Option<&str>,
) -> Result<Outcome> {
    let bad = |column: &str, value: &str| AnalysisError::NonNumeric {
        origin: origin.to_string(),
        column: column.to_string(),
        row,
        value: value.to_string(),
    };
    for (c, v) in [("benchmark", bench), ("model", model), ("instance", inst)] {
        if v.trim().is_empty() {
            return Err(AnalysisError::Invalid {
                origin: format!("{origin}: row {row}"),
                message: format!("empty {c}"),
            });
        }
    }
    let condition = Condition::parse(cond).ok_or_else(|| AnalysisError::Invalid {
        origin: format!("{origin}: row {row}, column \"condition\""),
        message: format!("{cond:?} is not HH, HA or AA"),
    })?;
    let resolved = match flag {
        RawFlag::Bool(b) => b,
        RawFlag::Num(Some(v)) if v == 0.0 || v == 1.0 => v == 1.0,
        RawFlag::Num(v) => return Err(bad("resolved", &format!("{v:?}"))),
        RawFlag::Text(t) => parse_flag(t).ok_or_else(|| bad("resolved", t))?,
        RawFlag::Owned(t) => parse_flag(&t).ok_or_else(|| bad("resolved", &t))?,
    };
    let task_type = match task.map(str::trim) {
        None | Some("") => None,
        Some(t) => Some(TaskType::parse(t).ok_or_else(|| AnalysisError::Invalid {
            origin: format!("{origin}: row {row}, column \"task_type\""),
            message: format!("{t:?} is not BF, FI, RF or FI+RF"),
        })?),
    };
    Ok(Outcome {
        benchmark: bench.trim().to_string(),
        model: model.trim().to_string(),
        condition,
        instance: inst.trim().to_string(),
        resolved,
        task_type,
    })
}

fn parse_flag(t: &str) -> Option<bool> {
    match t.trim().to_ascii_lowercase().as_str() {
        "1" | "1.0" | "true" | "yes" | "y" | "t" => Some(true),
        "0" | "0.0" | "false" | "no" | "n" | "f" => Some(false),
        _ => None,
    }
}

impl FromIterator<Outcome> for Results {
    fn from_iter<T: IntoIterator<Item = Outcome>>(iter: T) -> Self {
        Results {
            rows: iter.into_iter().collect(),
        }
    }
}

impl Extend<Outcome> for Results {
    fn extend<T: IntoIterator<Item = Outcome>>(&mut self, iter: T) {
        self.rows.extend(iter);
    }
}
