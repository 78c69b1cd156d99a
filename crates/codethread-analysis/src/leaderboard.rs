//! Real outcomes: resolve matrices (instance × model), published-vs-computed resolve rates of
//! leaderboard runs, and leave-one-out instance difficulty.
//!
//! The leave-one-out difficulty of instance *i* for model *m* is the mean resolved flag of the
//! **other** models on *i* (models without a record for *i* are left out of the mean); it is a
//! covariate that does not contain the outcome it is used to explain.

use crate::results::{Condition, Results};
use codethread_lang::io::SourceLimits;
use codethread_stats::error::{AnalysisError, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Resolved flags of models (columns) on instances (rows); `None` = no record.
#[derive(Debug, Clone, Serialize)]
pub struct ResolveMatrix {
    /// Model / run names, column order.
    pub models: Vec<String>,
    /// Instance ids, row order (sorted).
    pub instances: Vec<String>,
    flags: Vec<Option<bool>>,
}

/// Difficulty of one instance.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceDifficulty {
    /// Instance id.
    pub instance: String,
    /// Models with a record.
    pub n_models: usize,
    /// Models that resolved it.
    pub resolved_by: usize,
    /// resolved_by / n_models.
    pub resolve_rate: f64,
    /// Per model (matrix column order): mean resolved flag of the other models (None when the
    /// model has no record or no other model does).
    pub loo: Vec<Option<f64>>,
}

impl ResolveMatrix {
    /// Builds a matrix from `(model, instance, resolved)` triples; a later triple for the same
    /// cell replaces an earlier one.
    pub fn from_triples<I: IntoIterator<Item = (String, String, Option<bool>)>>(
        it: I,
    ) -> ResolveMatrix {
        let mut cells: BTreeMap<(String, String), Option<bool>> = BTreeMap::new();
        let mut models: Vec<String> = Vec::new();
        let mut seen = BTreeSet::new();
        for (m, i, f) in it {
            if seen.insert(m.clone()) {
                models.push(m.clone());
            }
            cells.insert((i, m), f);
        }
        let instances: Vec<String> = cells
            .keys()
            .map(|(i, _)| i.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let col: BTreeMap<&String, usize> =
            models.iter().enumerate().map(|(j, m)| (m, j)).collect();
        let row: BTreeMap<&String, usize> =
            instances.iter().enumerate().map(|(i, m)| (m, i)).collect();
        let mut flags = vec![None; instances.len() * models.len()];
        for ((i, m), f) in &cells {
            if let (Some(&r), Some(&c)) = (row.get(i), col.get(m)) {
                flags[r * models.len() + c] = *f;
            }
        }
        ResolveMatrix {
            models,
            instances,
            flags,
        }
    }

    /// The matrix of one benchmark and condition of a [`Results`] collection.
    pub fn from_results(results: &Results, benchmark: &str, condition: Condition) -> ResolveMatrix {
        ResolveMatrix::from_triples(
            results
                .rows()
                .iter()
                .filter(|r| r.benchmark == benchmark && r.condition == condition)
                .map(|r| (r.model.clone(), r.instance.clone(), Some(r.resolved))),
        )
    }

    /// Reads a wide CSV: first column the instance id, one column per model, cells `0/1`,
    /// `0.0/1.0` or `true/false`; an empty cell means no record. Any other cell is
    /// [`AnalysisError::NotBinary`] naming the file, line and column. The rule for rows: one row
    /// per instance — an instance id on two rows is refused
    /// ([`AnalysisError::DuplicateRow`] naming both lines), identical or not, since a merge would
    /// silently pick one. CRLF line ends, a UTF-8 BOM, quoted cells and blank lines are accepted;
    /// line numbers are the file's own.
    pub fn from_csv_bytes(origin: &str, bytes: &[u8]) -> Result<ResolveMatrix> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let csv_err = |line: u64, e: &dyn std::fmt::Display| AnalysisError::Csv {
            origin: origin.to_string(),
            row: usize::try_from(line).unwrap_or(usize::MAX),
            message: e.to_string(),
        };
        let mut rdr = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(bytes);
        let names: Vec<String> = rdr
            .byte_headers()
            .map_err(|e| csv_err(1, &e))?
            .iter()
            .map(|h| String::from_utf8_lossy(h).trim().to_string())
            .collect();
        let Some((_, models)) = names.split_first() else {
            return Err(AnalysisError::Empty {
                origin: origin.to_string(),
            });
        };
        let mut seen_cols = BTreeSet::new();
        for n in &names {
            if !seen_cols.insert(n.as_str()) {
                return Err(csv_err(1, &format!("duplicate column name {n:?}")));
            }
        }
        let mut first_line: BTreeMap<String, u64> = BTreeMap::new();
        let mut triples = Vec::new();
        let mut rec = csv::ByteRecord::new();
        let (mut counted, mut newlines) = (0usize, 0u64);
        loop {
            let more = rdr
                .read_byte_record(&mut rec)
                .map_err(|e| csv_err(e.position().map_or(0, |p| p.line()), &e))?;
            if !more {
                break;
            }
            // the file's own line: 1 + the line ends before the record's first byte (counted
            // incrementally, records come in order)
            let at = rec
                .position()
                .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX))
                .min(bytes.len());
            // the reader's position is where it started reading: skip the line ends (and blank
            // lines) before the record's first byte
            let at = at
                + bytes[at..]
                    .iter()
                    .take_while(|b| matches!(b, b'\r' | b'\n'))
                    .count();
            newlines += bytes[counted..at].iter().filter(|b| **b == b'\n').count() as u64;
            counted = counted.max(at);
            let line = newlines + 1;
            if rec.len() == 1 && rec.get(0).is_some_and(|c| c.is_empty()) && names.len() > 1 {
                continue; // blank line
            }
            let id = String::from_utf8_lossy(rec.get(0).unwrap_or_default())
                .trim()
                .to_string();
            if let Some(&first) = first_line.get(&id) {
                return Err(AnalysisError::DuplicateRow {
                    origin: origin.to_string(),
                    what: "instance".to_string(),
                    key: id,
                    first,
                    line,
                });
            }
            first_line.insert(id.clone(), line);
            for (m, cell) in models.iter().zip(rec.iter().skip(1)) {
                let cell = String::from_utf8_lossy(cell);
                let flag = match cell.trim().to_ascii_lowercase().as_str() {
                    "" => None,
                    "1" | "1.0" | "true" => Some(true),
                    "0" | "0.0" | "false" => Some(false),
                    _ => {
                        return Err(AnalysisError::NotBinary {
                            origin: origin.to_string(),
                            line,
                            column: m.clone(),
                            value: cell.trim().to_string(),
                        })
                    }
                };
                triples.push((m.clone(), id.clone(), flag));
            }
        }
        if first_line.is_empty() {
            return Err(AnalysisError::Empty {
                origin: origin.to_string(),
            });
        }
        Ok(ResolveMatrix::from_triples(triples))
    }

    /// The flag of instance row `i`, model column `j`.
    pub fn get(&self, i: usize, j: usize) -> Option<bool> {
        self.flags.get(i * self.models.len() + j).copied().flatten()
    }

    /// Leave-one-out difficulty for instance row `i` and model column `j`.
    pub fn loo(&self, i: usize, j: usize) -> Option<f64> {
        self.get(i, j)?;
        let (mut n, mut r) = (0usize, 0usize);
        for c in 0..self.models.len() {
            if c == j {
                continue;
            }
            if let Some(f) = self.get(i, c) {
                n += 1;
                r += usize::from(f);
            }
        }
        (n > 0).then(|| r as f64 / n as f64)
    }

    /// Difficulty of every instance.
    pub fn difficulty(&self) -> Vec<InstanceDifficulty> {
        (0..self.instances.len())
            .map(|i| {
                let known: Vec<bool> = (0..self.models.len())
                    .filter_map(|j| self.get(i, j))
                    .collect();
                let n = known.len();
                let r = known.iter().filter(|f| **f).count();
                InstanceDifficulty {
                    instance: self.instances[i].clone(),
                    n_models: n,
                    resolved_by: r,
                    resolve_rate: if n == 0 {
                        f64::NAN
                    } else {
                        r as f64 / n as f64
                    },
                    loo: (0..self.models.len()).map(|j| self.loo(i, j)).collect(),
                }
            })
            .collect()
    }

    /// Difficulty as CSV: `instance,n_models,resolved_by,resolve_rate,loo[<model>]...`.
    pub fn difficulty_csv(&self) -> String {
        let mut s = String::from("instance,n_models,resolved_by,resolve_rate");
        for m in &self.models {
            s.push(',');
            s.push_str(&crate::results::csv_cell(&format!("loo[{m}]")));
        }
        s.push('\n');
        for d in self.difficulty() {
            s.push_str(&format!(
                "{},{},{},{}",
                crate::results::csv_cell(&d.instance),
                d.n_models,
                d.resolved_by,
                d.resolve_rate
            ));
            for v in &d.loo {
                s.push(',');
                if let Some(v) = v {
                    s.push_str(&v.to_string());
                }
            }
            s.push('\n');
        }
        s
    }
}

/// One leaderboard run's header.
#[derive(Debug, Clone, Serialize)]
pub struct RunInfo {
    /// Folder / id of the run.
    pub folder: String,
    /// Display name.
    pub name: String,
    /// Published resolve rate, percent.
    pub published: Option<f64>,
}

/// A leaderboard: runs with published rates plus per-instance resolved flags.
#[derive(Debug, Clone, Serialize)]
pub struct Leaderboard {
    /// Runs in file order.
    pub runs: Vec<RunInfo>,
    /// Instance × run flags.
    pub matrix: ResolveMatrix,
    /// Per run: instances whose record has no boolean `resolved`.
    pub unknown: BTreeMap<String, Vec<String>>,
    /// Entries that could not be used (e.g. a run without a folder), one message each; the rest
    /// of the file is still loaded.
    pub problems: Vec<String>,
}

/// Published vs computed resolve rate of one run.
#[derive(Debug, Clone, Serialize)]
pub struct RunRate {
    /// Run folder.
    pub run: String,
    /// Display name.
    pub name: String,
    /// Published rate, percent.
    pub published: Option<f64>,
    /// 100 · resolved / instances in the universe (all instances of the leaderboard).
    pub computed: f64,
    /// Instances in the universe.
    pub universe: usize,
    /// Instances with a boolean record for this run.
    pub records: usize,
    /// Resolved instances.
    pub resolved: usize,
    /// computed − published, points.
    pub diff_points: Option<f64>,
    /// |diff| ≤ tolerance.
    pub agrees: bool,
    /// Universe instances with no record for this run.
    pub missing: Vec<String>,
    /// Instances whose record lacks a boolean flag.
    pub unknown: Vec<String>,
}

impl Leaderboard {
    /// Reads the `verified_bashonly_leaderboard_per_instance.json` layout:
    /// `{"runs": [{"folder", "name", "resolved"}...], "per_instance": {run: {instance: {"resolved": bool}}}}`.
    pub fn from_path(path: &Path, limits: SourceLimits) -> Result<Leaderboard> {
        let bytes = codethread_stats::input::read(path, limits)?;
        Leaderboard::from_json_bytes(&path.display().to_string(), &bytes)
    }

    /// See [`Leaderboard::from_path`].
    pub fn from_json_bytes(origin: &str, bytes: &[u8]) -> Result<Leaderboard> {
        let jerr = |m: String| AnalysisError::Json {
            origin: origin.to_string(),
            line: 0,
            message: m,
        };
        let v: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| AnalysisError::Json {
                origin: origin.to_string(),
                line: e.line(),
                message: e.to_string(),
            })?;
        let runs_v = v
            .get("runs")
            .and_then(|r| r.as_array())
            .ok_or_else(|| jerr("no \"runs\" array".into()))?;
        let per = v
            .get("per_instance")
            .and_then(|r| r.as_object())
            .ok_or_else(|| jerr("no \"per_instance\" object".into()))?;
        let mut runs = Vec::new();
        let mut problems = Vec::new();
        for (i, r) in runs_v.iter().enumerate() {
            let Some(folder) = r.get("folder").and_then(|f| f.as_str()) else {
                problems.push(format!("{origin}: runs[{i}] has no \"folder\"; skipped"));
                continue;
            };
            if runs.iter().any(|x: &RunInfo| x.folder == folder) {
                problems.push(format!(
                    "{origin}: runs[{i}]: duplicate folder {folder:?}; skipped"
                ));
                continue;
            }
            runs.push(RunInfo {
                folder: folder.to_string(),
                name: r
                    .get("name")
                    .and_then(|f| f.as_str())
                    .unwrap_or(folder)
                    .to_string(),
                published: r.get("resolved").and_then(|f| f.as_f64()),
            });
        }
        // runs that only appear in per_instance are kept too
        for k in per.keys() {
            if !runs.iter().any(|r| &r.folder == k) {
                runs.push(RunInfo {
                    folder: k.clone(),
                    name: k.clone(),
                    published: None,
                });
            }
        }
        let mut triples = Vec::new();
        let mut unknown: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in &runs {
            let recs = per.get(&r.folder);
            if recs.is_some_and(|x| !x.is_object()) {
                problems.push(format!(
                    "{origin}: per_instance[{:?}] is not an object",
                    r.folder
                ));
            }
            if let Some(recs) = recs.and_then(|x| x.as_object()) {
                for (inst, rec) in recs {
                    let flag = match rec {
                        serde_json::Value::Bool(b) => Some(*b),
                        other => other.get("resolved").and_then(|f| f.as_bool()),
                    };
                    if flag.is_none() {
                        unknown
                            .entry(r.folder.clone())
                            .or_default()
                            .push(inst.clone());
                    }
                    triples.push((r.folder.clone(), inst.clone(), flag));
                }
            }
        }
        let mut matrix = ResolveMatrix::from_triples(triples);
        // keep run order = file order, including runs without any record
        let order: Vec<String> = runs.iter().map(|r| r.folder.clone()).collect();
        matrix = reorder(matrix, &order);
        Ok(Leaderboard {
            runs,
            matrix,
            unknown,
            problems,
        })
    }

    /// Published vs computed rate for every run; `tol_points` is the agreement tolerance (0.1).
    /// The universe is every instance that appears for any run.
    pub fn run_rates(&self, tol_points: f64) -> Vec<RunRate> {
        let m = &self.matrix;
        let universe = m.instances.len();
        self.runs
            .iter()
            .enumerate()
            .map(|(j, r)| {
                let mut records = 0;
                let mut resolved = 0;
                let mut missing = Vec::new();
                for (i, inst) in m.instances.iter().enumerate() {
                    match m.get(i, j) {
                        Some(f) => {
                            records += 1;
                            resolved += usize::from(f);
                        }
                        None => {
                            if !self
                                .unknown
                                .get(&r.folder)
                                .is_some_and(|u| u.contains(inst))
                            {
                                missing.push(inst.clone());
                            }
                        }
                    }
                }
                let computed = if universe == 0 {
                    f64::NAN
                } else {
                    100.0 * resolved as f64 / universe as f64
                };
                let diff = r.published.map(|p| computed - p);
                RunRate {
                    run: r.folder.clone(),
                    name: r.name.clone(),
                    published: r.published,
                    computed,
                    universe,
                    records,
                    resolved,
                    diff_points: diff,
                    agrees: diff.is_some_and(|d| d.abs() <= tol_points + 1e-9),
                    missing,
                    unknown: self.unknown.get(&r.folder).cloned().unwrap_or_default(),
                }
            })
            .collect()
    }
}

fn reorder(m: ResolveMatrix, order: &[String]) -> ResolveMatrix {
    let k = m.models.len();
    let idx: Vec<Option<usize>> = order
        .iter()
        .map(|o| m.models.iter().position(|x| x == o))
        .collect();
    let mut flags = Vec::with_capacity(m.instances.len() * order.len());
    for i in 0..m.instances.len() {
        for j in &idx {
            flags.push(j.and_then(|j| m.flags[i * k + j]));
        }
    }
    ResolveMatrix {
        models: order.to_vec(),
        instances: m.instances,
        flags,
    }
}

/// Everything the `difficulty` command reports about a leaderboard.
#[derive(Debug, Clone, Serialize)]
pub struct DifficultyReport {
    /// Runs in file order.
    pub runs: Vec<RunRate>,
    /// The runs whose computed rate differs from the published one by more than the tolerance.
    pub discrepancies: Vec<RunRate>,
    /// Per instance: resolve rate over all runs and leave-one-out difficulty per run.
    pub instances: Vec<InstanceDifficultyNamed>,
}

/// [`InstanceDifficulty`] with the leave-one-out values keyed by run.
#[derive(Debug, Clone, Serialize)]
pub struct InstanceDifficultyNamed {
    /// Instance id.
    pub instance: String,
    /// Runs with a record.
    pub n_models: usize,
    /// Runs that resolved it.
    pub resolved_by: usize,
    /// resolved_by / n_models.
    pub resolve_rate: f64,
    /// run → mean resolved flag of the other runs.
    pub loo: BTreeMap<String, Option<f64>>,
}

/// Loads a leaderboard file and computes rates, discrepancies and difficulty.
pub fn difficulty_report(
    path: &Path,
    tol_points: f64,
    limits: SourceLimits,
) -> Result<DifficultyReport> {
    let lb = Leaderboard::from_path(path, limits)?;
    let runs = lb.run_rates(tol_points);
    let discrepancies = runs.iter().filter(|r| !r.agrees).cloned().collect();
    Ok(DifficultyReport {
        runs,
        discrepancies,
        instances: named_difficulty(&lb.matrix),
    })
}

/// Difficulty of a wide CSV matrix ([`ResolveMatrix::from_csv_bytes`]); no published rates, so
/// `runs` and `discrepancies` are empty.
pub fn matrix_difficulty_report(path: &Path, limits: SourceLimits) -> Result<DifficultyReport> {
    let bytes = codethread_stats::input::read(path, limits)?;
    let m = ResolveMatrix::from_csv_bytes(&path.display().to_string(), &bytes)?;
    Ok(DifficultyReport {
        runs: Vec::new(),
        discrepancies: Vec::new(),
        instances: named_difficulty(&m),
    })
}

fn named_difficulty(m: &ResolveMatrix) -> Vec<InstanceDifficultyNamed> {
    m.difficulty()
        .into_iter()
        .map(|d| InstanceDifficultyNamed {
            instance: d.instance,
            n_models: d.n_models,
            resolved_by: d.resolved_by,
            resolve_rate: d.resolve_rate,
            loo: m.models.iter().cloned().zip(d.loo).collect(),
        })
        .collect()
}
