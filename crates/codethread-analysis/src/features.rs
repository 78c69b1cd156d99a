//! Per-instance features of the discordant cohort (instances where exactly one of the HA and AA
//! chains resolved PR2), for Figure 3 and the logistic regression.
//!
//! Metric values and edit sets come from other crates (`codethread-metrics`,
//! `codethread-patch`) as plain data through [`FeatureSources`] closures, so this crate neither
//! measures nor localizes code itself (only [`jaccard`] is `codethread-patch`'s):
//! - `metrics(key, stage)` → [`MetricValues`] summed over the target functions,
//! - `edits(key, condition)` → the [`EditSet`] (files, functions) of that chain's PR2 patch,
//! - `iec(key)` → the input/error-contract drift flag (from a judge's JSONL via
//!   [`load_iec_jsonl`], or from [`codethread_judge::iec`]'s static detector).
//!
//! Deltas are AA − HA: at PR1 the agent's PR1 minus the human PR1, at PR2 the AA chain's PR2
//! minus the HA chain's PR2. The leave-one-out difficulty is the mean resolve rate of the
//! **other** models of the same benchmark on the instance, over the conditions in
//! [`FeatureOptions::difficulty_conditions`].

use crate::results::{csv_cell, Condition, Results, TaskType};
use codethread_stats::design::{Design, DesignSpec, Frame};
use codethread_stats::error::{AnalysisError, Result};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Which code a metric value describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Stage {
    /// PR1 written by the human (HA chain's PR1).
    Pr1Human,
    /// PR1 written by the agent (AA chain's PR1).
    Pr1Agent,
    /// PR2 of the HA chain.
    Pr2Ha,
    /// PR2 of the AA chain.
    Pr2Aa,
}

impl Stage {
    /// Every stage, in chain order.
    pub const ALL: [Stage; 4] = [Stage::Pr1Human, Stage::Pr1Agent, Stage::Pr2Ha, Stage::Pr2Aa];

    /// The stage's name in metric tables: `pr1_human`, `pr1_agent`, `pr2_ha`, `pr2_aa`.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Pr1Human => "pr1_human",
            Stage::Pr1Agent => "pr1_agent",
            Stage::Pr2Ha => "pr2_ha",
            Stage::Pr2Aa => "pr2_aa",
        }
    }

    /// The stage named `s` (as [`Stage::as_str`] writes it, any ASCII case).
    pub fn parse(s: &str) -> Option<Stage> {
        Stage::ALL
            .into_iter()
            .find(|st| st.as_str().eq_ignore_ascii_case(s))
    }
}

/// Complexity metrics of the target functions at one stage. A metric the
/// profile does not report for the language is NaN, and its deltas are
/// missing (never 0).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Default)]
pub struct MetricValues {
    /// Cyclomatic complexity.
    pub cyclomatic: f64,
    /// Cognitive complexity.
    pub cognitive: f64,
    /// Halstead volume.
    pub halstead_volume: f64,
    /// Logical lines of code.
    pub lloc: f64,
}

/// What a PR2 patch touched.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct EditSet {
    /// Paths of edited files.
    pub files: BTreeSet<String>,
    /// Edited functions (qualified, e.g. `path::Class.method`).
    pub functions: BTreeSet<String>,
}

/// |A ∩ B| / |A ∪ B|; `None` when both are empty (`codethread_patch::jaccard_opt`, the J^file /
/// J^func of the paper).
pub use codethread_patch::jaccard_opt as jaccard;

/// Identifies one (benchmark, model, instance).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct InstanceKey {
    /// Benchmark.
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// Instance id.
    pub instance: String,
}

/// Callbacks that supply the data other crates compute.
pub struct FeatureSources<'a> {
    /// Metric values of a stage (None = not available).
    pub metrics: &'a dyn Fn(&InstanceKey, Stage) -> Option<MetricValues>,
    /// Edit set of a chain's PR2 patch (condition HA or AA).
    pub edits: &'a dyn Fn(&InstanceKey, Condition) -> Option<EditSet>,
    /// IEC flag.
    pub iec: &'a dyn Fn(&InstanceKey) -> Option<bool>,
}

impl FeatureSources<'_> {
    /// Sources that supply nothing (only winner, task type and difficulty are filled).
    pub fn none() -> FeatureSources<'static> {
        FeatureSources {
            metrics: &|_, _| None,
            edits: &|_, _| None,
            iec: &|_| None,
        }
    }
}

/// Options of [`build_features`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FeatureOptions {
    /// Conditions whose PR2 outcomes enter the leave-one-out difficulty (default HA and AA).
    pub difficulty_conditions: Vec<Condition>,
}

impl FeatureOptions {
    /// Sets [`FeatureOptions::difficulty_conditions`].
    pub fn difficulty_conditions(mut self, difficulty_conditions: Vec<Condition>) -> Self {
        self.difficulty_conditions = difficulty_conditions;
        self
    }
}

impl Default for FeatureOptions {
    fn default() -> Self {
        FeatureOptions {
            difficulty_conditions: vec![Condition::HA, Condition::AA],
        }
    }
}

/// Which chain won a discordant instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Winner {
    /// HA resolved PR2, AA did not.
    HaOnly,
    /// AA resolved PR2, HA did not.
    AaOnly,
}

/// Features of one discordant instance.
#[derive(Debug, Clone, Serialize)]
pub struct FeatureRow {
    /// The instance.
    pub key: InstanceKey,
    /// Who won.
    pub winner: Winner,
    /// Task type.
    pub task_type: Option<TaskType>,
    /// Named feature values (see [`FEATURES`]); `None` = not available.
    pub values: Vec<Option<f64>>,
}

/// Feature names, in column order.
pub const FEATURES: [&str; 12] = [
    "d_cc_pr1",
    "d_cc_pr2",
    "d_cog_pr1",
    "d_cog_pr2",
    "d_hv_pr1",
    "d_hv_pr2",
    "d_lloc_pr1",
    "d_lloc_pr2",
    "jacc_file_pr2",
    "jacc_func_pr2",
    "iec",
    "difficulty",
];

/// The discordant cohort with features.
#[derive(Debug, Clone, Serialize)]
pub struct FeatureTable {
    /// One row per discordant (benchmark, model, instance).
    pub rows: Vec<FeatureRow>,
}

/// Builds the features of every discordant instance of `results`.
pub fn build_features(
    results: &Results,
    sources: &FeatureSources<'_>,
    opts: &FeatureOptions,
) -> FeatureTable {
    let pm = crate::tables::pair_map(results);
    let types = results.task_types();
    // (benchmark, instance) -> model -> (resolved count, outcomes) over the chosen conditions
    let mut per_inst: BTreeMap<(String, String), BTreeMap<String, (usize, usize)>> =
        BTreeMap::new();
    for r in results.rows() {
        if opts.difficulty_conditions.contains(&r.condition) {
            let e = per_inst
                .entry((r.benchmark.clone(), r.instance.clone()))
                .or_default()
                .entry(r.model.clone())
                .or_default();
            e.0 += usize::from(r.resolved);
            e.1 += 1;
        }
    }
    let mut rows = Vec::new();
    for ((b, m, i), (_, ha, aa)) in &pm {
        let winner = match (ha, aa) {
            (Some(true), Some(false)) => Winner::HaOnly,
            (Some(false), Some(true)) => Winner::AaOnly,
            _ => continue,
        };
        let key = InstanceKey {
            benchmark: b.clone(),
            model: m.clone(),
            instance: i.clone(),
        };
        let mv = |s| (sources.metrics)(&key, s);
        let (h1, a1, h2, a2) = (
            mv(Stage::Pr1Human),
            mv(Stage::Pr1Agent),
            mv(Stage::Pr2Ha),
            mv(Stage::Pr2Aa),
        );
        let delta =
            |a: Option<MetricValues>, h: Option<MetricValues>, f: fn(&MetricValues) -> f64| {
                // NaN marks a metric the profile does not report for the language
                // (paper profile, C++/Ruby/PHP cognitive, Halstead, LLOC): missing.
                Some(f(&a?) - f(&h?)).filter(|d| d.is_finite())
            };
        let eh = (sources.edits)(&key, Condition::HA);
        let ea = (sources.edits)(&key, Condition::AA);
        let (jf, jfn) = match (&eh, &ea) {
            (Some(h), Some(a)) => (
                jaccard(&h.files, &a.files),
                jaccard(&h.functions, &a.functions),
            ),
            _ => (None, None),
        };
        let difficulty = per_inst.get(&(b.clone(), i.clone())).and_then(|models| {
            let rates: Vec<f64> = models
                .iter()
                .filter(|(mm, (_, n))| *mm != m && *n > 0)
                .map(|(_, (r, n))| *r as f64 / *n as f64)
                .collect();
            (!rates.is_empty()).then(|| rates.iter().sum::<f64>() / rates.len() as f64)
        });
        let values = vec![
            delta(a1, h1, |v| v.cyclomatic),
            delta(a2, h2, |v| v.cyclomatic),
            delta(a1, h1, |v| v.cognitive),
            delta(a2, h2, |v| v.cognitive),
            delta(a1, h1, |v| v.halstead_volume),
            delta(a2, h2, |v| v.halstead_volume),
            delta(a1, h1, |v| v.lloc),
            delta(a2, h2, |v| v.lloc),
            jf,
            jfn,
            (sources.iec)(&key).map(|f| if f { 1.0 } else { 0.0 }),
            difficulty,
        ];
        rows.push(FeatureRow {
            task_type: types.get(&(b.clone(), i.clone())).copied(),
            key,
            winner,
            values,
        });
    }
    FeatureTable { rows }
}

impl FeatureTable {
    /// Values of feature `name` split by winner: `(HA-only, AA-only)`, missing values left out.
    pub fn split(&self, name: &str) -> Option<(Vec<f64>, Vec<f64>)> {
        let j = FEATURES.iter().position(|f| *f == name)?;
        let mut ha = Vec::new();
        let mut aa = Vec::new();
        for r in &self.rows {
            if let Some(v) = r.values.get(j).copied().flatten() {
                match r.winner {
                    Winner::HaOnly => ha.push(v),
                    Winner::AaOnly => aa.push(v),
                }
            }
        }
        Some((ha, aa))
    }

    /// CSV: `benchmark,model,instance,task_type,ha_win,<features>` (empty cell = missing).
    pub fn to_csv(&self) -> String {
        let mut s = String::from("benchmark,model,instance,task_type,ha_win");
        for f in FEATURES {
            s.push(',');
            s.push_str(f);
        }
        s.push('\n');
        for r in &self.rows {
            s.push_str(&format!(
                "{},{},{},{},{}",
                csv_cell(&r.key.benchmark),
                csv_cell(&r.key.model),
                csv_cell(&r.key.instance),
                r.task_type.map(|t| t.as_str()).unwrap_or(""),
                u8::from(r.winner == Winner::HaOnly)
            ));
            for v in &r.values {
                s.push(',');
                if let Some(v) = v {
                    s.push_str(&v.to_string());
                }
            }
            s.push('\n');
        }
        s
    }

    /// The regression design: outcome `ha_win` (1 = HA-only win), the features in `features`
    /// (default all available) plus `benchmark` and `model` dummies (drop-first, sorted).
    /// Rows with a missing value in a chosen feature are dropped; their keys are returned.
    pub fn design(
        &self,
        features: Option<&[&str]>,
        standardize: bool,
    ) -> Result<(Design, Vec<InstanceKey>)> {
        let chosen: Vec<&str> = features
            .map(|f| f.to_vec())
            .unwrap_or_else(|| FEATURES.to_vec());
        let idx: Vec<usize> = chosen
            .iter()
            .map(|c| {
                FEATURES
                    .iter()
                    .position(|f| f == c)
                    .ok_or_else(|| AnalysisError::MissingColumn {
                        origin: "features".into(),
                        column: c.to_string(),
                        available: FEATURES.join(", "),
                    })
            })
            .collect::<Result<_>>()?;
        let mut dropped = Vec::new();
        let mut csv = String::from("ha_win,benchmark,model");
        for c in &chosen {
            csv.push(',');
            csv.push_str(c);
        }
        csv.push('\n');
        for r in &self.rows {
            let vals: Option<Vec<f64>> = idx
                .iter()
                .map(|&j| r.values.get(j).copied().flatten())
                .collect();
            let Some(vals) = vals else {
                dropped.push(r.key.clone());
                continue;
            };
            csv.push_str(&format!(
                "{},{},{}",
                u8::from(r.winner == Winner::HaOnly),
                csv_cell(&r.key.benchmark),
                csv_cell(&r.key.model)
            ));
            for v in vals {
                csv.push_str(&format!(",{v:?}"));
            }
            csv.push('\n');
        }
        let frame = Frame::from_csv_bytes("features", csv.as_bytes())?;
        let mut categorical = Vec::new();
        for c in ["benchmark", "model"] {
            let levels: BTreeSet<&String> = frame.cells(c)?.iter().collect();
            if levels.len() > 1 {
                categorical.push(c.to_string());
            }
        }
        let mut columns: Vec<String> = categorical.clone();
        columns.extend(chosen.iter().map(|c| c.to_string()));
        let d = frame.design(&DesignSpec {
            outcome: "ha_win".into(),
            columns: Some(columns),
            categorical,
            standardize,
            drop_missing: false,
        })?;
        Ok((d, dropped))
    }
}

/// Reads IEC judgements: JSONL lines with `instance` (or `instance_id`), optional `model` and
/// `benchmark`, and `iec` (bool, 0/1, or "yes"/"no"). Keys without a model apply to every model.
pub fn load_iec_jsonl(
    origin: &str,
    bytes: &[u8],
) -> Result<BTreeMap<(String, String, String), bool>> {
    let mut out = BTreeMap::new();
    for item in jsonl_lines(origin, bytes) {
        let (line, v) = item?;
        let err = |m: String| AnalysisError::Json {
            origin: origin.to_string(),
            line,
            message: m,
        };
        let inst = jstr(&v, &["instance", "instance_id"]);
        if inst.is_empty() {
            return Err(err("no \"instance\"".into()));
        }
        let flag = match v.get("iec") {
            Some(serde_json::Value::Bool(b)) => *b,
            Some(serde_json::Value::Number(x)) if x.as_f64() == Some(1.0) => true,
            Some(serde_json::Value::Number(x)) if x.as_f64() == Some(0.0) => false,
            Some(serde_json::Value::String(t)) => match t.to_ascii_lowercase().as_str() {
                "yes" | "true" | "1" | "iec" => true,
                "no" | "false" | "0" | "none" => false,
                _ => return Err(err(format!("\"iec\" value {t:?} is not a flag"))),
            },
            _ => return Err(err("no boolean \"iec\"".into())),
        };
        out.insert((jstr(&v, &["benchmark"]), jstr(&v, &["model"]), inst), flag);
    }
    Ok(out)
}

/// Looks up an IEC flag loaded by [`load_iec_jsonl`]: exact key first, then without benchmark,
/// then without model.
pub fn lookup_iec(
    map: &BTreeMap<(String, String, String), bool>,
    key: &InstanceKey,
) -> Option<bool> {
    loose_keys(key)
        .into_iter()
        .find_map(|k| map.get(&k).copied())
}

/// Table key with optional parts: (benchmark, model, instance); empty = applies to all.
pub type LooseKey = (String, String, String);

/// The lookup order for a key: exact, without benchmark, without model, instance only.
fn loose_keys(key: &InstanceKey) -> [LooseKey; 4] {
    let (b, m, i) = (&key.benchmark, &key.model, &key.instance);
    [
        (b.clone(), m.clone(), i.clone()),
        (String::new(), m.clone(), i.clone()),
        (b.clone(), String::new(), i.clone()),
        (String::new(), String::new(), i.clone()),
    ]
}

fn jsonl_lines<'a>(
    origin: &'a str,
    bytes: &'a [u8],
) -> impl Iterator<Item = Result<(usize, serde_json::Value)>> + 'a {
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(|b| b.is_ascii_whitespace()))
        .map(move |(n, l)| {
            let l = l.strip_suffix(b"\r").unwrap_or(l);
            serde_json::from_slice(l)
                .map(|v| (n + 1, v))
                .map_err(|e| AnalysisError::Json {
                    origin: origin.to_string(),
                    line: n + 1,
                    message: e.to_string(),
                })
        })
}

fn jstr(v: &serde_json::Value, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|k| v.get(*k).and_then(|x| x.as_str()).map(str::to_string))
        .unwrap_or_default()
}

/// Metric values per stage, read from JSONL: `instance` (or `instance_id`), optional `benchmark`
/// and `model` (omit `model` for the human PR1, which every model shares), `stage`
/// (`pr1_human`, `pr1_agent`, `pr2_ha`, `pr2_aa`) and numbers `cyclomatic`, `cognitive`,
/// `halstead_volume`, `lloc`.
#[derive(Debug, Clone, Default)]
pub struct MetricTable {
    map: BTreeMap<(LooseKey, Stage), MetricValues>,
}

impl MetricTable {
    /// Parses the JSONL; errors name the line and field.
    pub fn from_jsonl(origin: &str, bytes: &[u8]) -> Result<MetricTable> {
        let mut map = BTreeMap::new();
        for item in jsonl_lines(origin, bytes) {
            let (line, v) = item?;
            let err = |m: String| AnalysisError::Json {
                origin: origin.to_string(),
                line,
                message: m,
            };
            let inst = jstr(&v, &["instance", "instance_id"]);
            if inst.is_empty() {
                return Err(err("no \"instance\"".into()));
            }
            let stage = jstr(&v, &["stage"]);
            let stage = Stage::parse(&stage).ok_or_else(|| {
                err(format!(
                    "\"stage\" {:?} is not pr1_human, pr1_agent, pr2_ha or pr2_aa",
                    stage.to_ascii_lowercase()
                ))
            })?;
            let num = |k: &str| -> Result<f64> {
                v.get(k)
                    .and_then(|x| x.as_f64())
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| err(format!("\"{k}\" is missing or not a finite number")))
            };
            let mv = MetricValues {
                cyclomatic: num("cyclomatic")?,
                cognitive: num("cognitive")?,
                halstead_volume: num("halstead_volume")?,
                lloc: num("lloc")?,
            };
            map.insert(
                (
                    (jstr(&v, &["benchmark"]), jstr(&v, &["model"]), inst),
                    stage,
                ),
                mv,
            );
        }
        Ok(MetricTable { map })
    }

    /// The value for a key and stage (exact key first, then without benchmark / model).
    pub fn get(&self, key: &InstanceKey, stage: Stage) -> Option<MetricValues> {
        loose_keys(key)
            .into_iter()
            .find_map(|k| self.map.get(&(k, stage)).copied())
    }
}

/// Edit sets of PR2 patches, read from JSONL: `instance`, optional `benchmark`, `model`,
/// `condition` (`HA` / `AA`), `files` and `functions` (arrays of strings).
#[derive(Debug, Clone, Default)]
pub struct EditTable {
    map: BTreeMap<(LooseKey, Condition), EditSet>,
}

impl EditTable {
    /// Parses the JSONL; errors name the line and field.
    pub fn from_jsonl(origin: &str, bytes: &[u8]) -> Result<EditTable> {
        let mut map = BTreeMap::new();
        for item in jsonl_lines(origin, bytes) {
            let (line, v) = item?;
            let err = |m: String| AnalysisError::Json {
                origin: origin.to_string(),
                line,
                message: m,
            };
            let inst = jstr(&v, &["instance", "instance_id"]);
            if inst.is_empty() {
                return Err(err("no \"instance\"".into()));
            }
            let c = Condition::parse(&jstr(&v, &["condition"]))
                .filter(|c| *c != Condition::HH)
                .ok_or_else(|| err("\"condition\" must be HA or AA".into()))?;
            let list = |k: &str| -> Result<BTreeSet<String>> {
                match v.get(k) {
                    None => Ok(BTreeSet::new()),
                    Some(serde_json::Value::Array(a)) => a
                        .iter()
                        .map(|x| {
                            x.as_str()
                                .map(str::to_string)
                                .ok_or_else(|| err(format!("\"{k}\" has a non-string item")))
                        })
                        .collect(),
                    Some(_) => Err(err(format!("\"{k}\" is not an array"))),
                }
            };
            let e = EditSet {
                files: list("files")?,
                functions: list("functions")?,
            };
            map.insert(
                ((jstr(&v, &["benchmark"]), jstr(&v, &["model"]), inst), c),
                e,
            );
        }
        Ok(EditTable { map })
    }

    /// The edit set for a key and condition.
    pub fn get(&self, key: &InstanceKey, c: Condition) -> Option<EditSet> {
        loose_keys(key)
            .into_iter()
            .find_map(|k| self.map.get(&(k, c)).cloned())
    }
}

/// The HA-wins discordant cohort of `results`: `(benchmark, model,
/// instance)` where the HA chain resolved PR2 and the AA chain did not.
pub fn ha_wins_cohort(
    results: &crate::Results,
) -> std::collections::BTreeSet<codethread_judge::judge::JudgeKey> {
    build_features(results, &FeatureSources::none(), &FeatureOptions::default())
        .rows
        .into_iter()
        .filter(|r| r.winner == Winner::HaOnly)
        .map(|r| (r.key.benchmark, r.key.model, r.key.instance))
        .collect()
}
