//! The paper's tables from [`Results`]: Table 2 (HA vs AA PR2 resolve rate per model ×
//! benchmark on the shared instances and on each model's full set), Table 3 (by task type,
//! Δ = AA − HA in points, mean Δ across models), and the discordant cohort (HA-only vs AA-only
//! wins) — each Δ with a seeded percentile-bootstrap 95 % CI and an exact McNemar p.

use crate::results::{Condition, Results, TaskType};
use codethread_stats::paired::{
    bootstrap_delta, bootstrap_mean_delta, key_seed, mcnemar_exact, Interval,
};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Options of [`build_tables`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct TableOptions {
    /// Bootstrap resamples per Δ (0 disables the intervals).
    pub bootstrap_reps: usize,
    /// Base seed; each cell's stream is derived from it and the cell's key, so a cell's interval
    /// does not depend on which other cells exist.
    pub seed: u64,
}

impl TableOptions {
    /// Sets [`TableOptions::bootstrap_reps`].
    pub fn bootstrap_reps(mut self, bootstrap_reps: usize) -> Self {
        self.bootstrap_reps = bootstrap_reps;
        self
    }

    /// Sets [`TableOptions::seed`].
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }
}

impl Default for TableOptions {
    fn default() -> Self {
        TableOptions {
            bootstrap_reps: 2000,
            seed: 20_240_405,
        }
    }
}

/// HA vs AA on a set of paired instances.
#[derive(Debug, Clone, Serialize)]
pub struct PairedCell {
    /// Instances with both an HA and an AA outcome.
    pub n: usize,
    /// HA resolved count.
    pub ha_resolved: usize,
    /// AA resolved count.
    pub aa_resolved: usize,
    /// HA resolve rate, percent.
    pub ha_rate: f64,
    /// AA resolve rate, percent.
    pub aa_rate: f64,
    /// Δ = AA − HA, points.
    pub delta: f64,
    /// Bootstrap 95 % CI of Δ.
    pub delta_ci: Option<Interval>,
    /// HA resolved, AA not.
    pub ha_only: usize,
    /// AA resolved, HA not.
    pub aa_only: usize,
    /// Exact McNemar two-sided p.
    pub mcnemar_p: f64,
}

impl PairedCell {
    /// Summarises `(ha, aa)` pairs; the bootstrap uses `seed`.
    pub fn from_pairs(pairs: &[(bool, bool)], reps: usize, seed: u64) -> PairedCell {
        let n = pairs.len();
        let ha = pairs.iter().filter(|p| p.0).count();
        let aa = pairs.iter().filter(|p| p.1).count();
        let ha_only = pairs.iter().filter(|p| p.0 && !p.1).count();
        let aa_only = pairs.iter().filter(|p| !p.0 && p.1).count();
        let pct = |c: usize| {
            if n == 0 {
                f64::NAN
            } else {
                100.0 * c as f64 / n as f64
            }
        };
        PairedCell {
            n,
            ha_resolved: ha,
            aa_resolved: aa,
            ha_rate: pct(ha),
            aa_rate: pct(aa),
            delta: pct(aa) - pct(ha),
            delta_ci: bootstrap_delta(pairs, reps, seed),
            ha_only,
            aa_only,
            mcnemar_p: mcnemar_exact(ha_only as u64, aa_only as u64),
        }
    }

    /// Discordant instances (HA-only + AA-only).
    pub fn discordant(&self) -> usize {
        self.ha_only + self.aa_only
    }
}

/// One row of Table 2.
#[derive(Debug, Clone, Serialize)]
pub struct Table2Row {
    /// Benchmark.
    pub benchmark: String,
    /// Model.
    pub model: String,
    /// On the instances every model of the benchmark has paired outcomes for.
    pub shared: PairedCell,
    /// On every instance this model has paired outcomes for.
    pub full: PairedCell,
    /// HH resolve rate on the full set (percent), when HH outcomes exist.
    pub hh_rate: Option<f64>,
}

/// One (model, task type) row of Table 3, pooled over benchmarks (full sets).
#[derive(Debug, Clone, Serialize)]
pub struct Table3Row {
    /// Model.
    pub model: String,
    /// Task type.
    pub task_type: TaskType,
    /// The comparison.
    pub cell: PairedCell,
}

/// Mean Δ across models for one task type.
#[derive(Debug, Clone, Serialize)]
pub struct Table3Mean {
    /// Task type (`None` = all task types).
    pub task_type: Option<TaskType>,
    /// Models with at least one paired instance of this type.
    pub models: usize,
    /// Mean of the models' Δ, points.
    pub mean_delta: f64,
    /// Stratified bootstrap 95 % CI of the mean.
    pub ci: Option<Interval>,
}

/// Discordant counts over a group of cells.
#[derive(Debug, Clone, Serialize)]
pub struct DiscordantRow {
    /// Benchmark, or `all`.
    pub benchmark: String,
    /// Model, or `all`.
    pub model: String,
    /// Paired instances.
    pub n: usize,
    /// HA-only wins.
    pub ha_only: usize,
    /// AA-only wins.
    pub aa_only: usize,
    /// HA-only as percent of discordant.
    pub ha_only_pct: f64,
    /// AA-only as percent of discordant.
    pub aa_only_pct: f64,
    /// Discordant as percent of paired instances.
    pub discordant_pct: f64,
    /// Exact McNemar p of the pooled counts.
    pub mcnemar_p: f64,
}

/// All tables.
#[derive(Debug, Clone, Serialize)]
pub struct Tables {
    /// Table 2 rows, by benchmark then model.
    pub table2: Vec<Table2Row>,
    /// Shared-set size per benchmark.
    pub shared_n: BTreeMap<String, usize>,
    /// Table 3 rows, by task type then model.
    pub table3: Vec<Table3Row>,
    /// Table 3 means across models per task type, and over all types.
    pub table3_means: Vec<Table3Mean>,
    /// Paired instances without a task type (left out of Table 3).
    pub untyped_pairs: usize,
    /// Discordant cohort: per model × benchmark, per benchmark, per model, and pooled (`all`/`all`).
    pub discordant: Vec<DiscordantRow>,
}

/// Paired (HA, AA) flags per (benchmark, model, instance).
pub type PairMap = BTreeMap<(String, String, String), (Option<bool>, Option<bool>, Option<bool>)>;

/// model → instance → (HA, AA) of one benchmark.
type ModelPairs = BTreeMap<String, BTreeMap<String, (bool, bool)>>;

/// Collects HH / HA / AA flags per (benchmark, model, instance).
pub fn pair_map(results: &Results) -> PairMap {
    let mut m: PairMap = BTreeMap::new();
    for r in results.rows() {
        let e = m
            .entry((r.benchmark.clone(), r.model.clone(), r.instance.clone()))
            .or_default();
        match r.condition {
            Condition::HH => e.0 = Some(r.resolved),
            Condition::HA => e.1 = Some(r.resolved),
            Condition::AA => e.2 = Some(r.resolved),
        }
    }
    m
}

fn discordant_row(benchmark: &str, model: &str, cells: &[&PairedCell]) -> DiscordantRow {
    let n: usize = cells.iter().map(|c| c.n).sum();
    let b: usize = cells.iter().map(|c| c.ha_only).sum();
    let c: usize = cells.iter().map(|c| c.aa_only).sum();
    let d = b + c;
    let pct = |x: usize, of: usize| {
        if of == 0 {
            f64::NAN
        } else {
            100.0 * x as f64 / of as f64
        }
    };
    DiscordantRow {
        benchmark: benchmark.to_string(),
        model: model.to_string(),
        n,
        ha_only: b,
        aa_only: c,
        ha_only_pct: pct(b, d),
        aa_only_pct: pct(c, d),
        discordant_pct: pct(d, n),
        mcnemar_p: mcnemar_exact(b as u64, c as u64),
    }
}

/// Builds Tables 2 and 3 and the discordant cohort.
pub fn build_tables(results: &Results, opts: &TableOptions) -> Tables {
    let pm = pair_map(results);
    let types = results.task_types();
    let reps = opts.bootstrap_reps;
    // per benchmark: model -> instance -> (ha, aa)
    let mut by_bench: BTreeMap<String, ModelPairs> = BTreeMap::new();
    let mut hh: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for ((b, m, i), (h, ha, aa)) in &pm {
        if let Some(h) = h {
            let e = hh.entry((b.clone(), m.clone())).or_default();
            e.0 += usize::from(*h);
            e.1 += 1;
        }
        if let (Some(ha), Some(aa)) = (ha, aa) {
            by_bench
                .entry(b.clone())
                .or_default()
                .entry(m.clone())
                .or_default()
                .insert(i.clone(), (*ha, *aa));
        }
    }
    let mut table2 = Vec::new();
    let mut shared_n = BTreeMap::new();
    for (bench, models) in &by_bench {
        let mut shared: Option<BTreeSet<&String>> = None;
        for inst in models.values() {
            let keys: BTreeSet<&String> = inst.keys().collect();
            shared = Some(match shared {
                None => keys,
                Some(s) => s.intersection(&keys).copied().collect(),
            });
        }
        let shared = shared.unwrap_or_default();
        shared_n.insert(bench.clone(), shared.len());
        for (model, inst) in models {
            let full: Vec<(bool, bool)> = inst.values().copied().collect();
            let sh: Vec<(bool, bool)> = inst
                .iter()
                .filter(|(i, _)| shared.contains(i))
                .map(|(_, v)| *v)
                .collect();
            let key = format!("t2|{bench}|{model}");
            table2.push(Table2Row {
                benchmark: bench.clone(),
                model: model.clone(),
                shared: PairedCell::from_pairs(
                    &sh,
                    reps,
                    key_seed(opts.seed, &(key.clone() + "|shared")),
                ),
                full: PairedCell::from_pairs(&full, reps, key_seed(opts.seed, &(key + "|full"))),
                hh_rate: hh
                    .get(&(bench.clone(), model.clone()))
                    .map(|(r, n)| 100.0 * *r as f64 / *n as f64),
            });
        }
    }
    // Table 3: per model × task type, pooled over benchmarks
    let mut t3: BTreeMap<(TaskType, String), Vec<(bool, bool)>> = BTreeMap::new();
    let mut all_by_model: BTreeMap<String, Vec<(bool, bool)>> = BTreeMap::new();
    let mut untyped = 0;
    for (bench, models) in &by_bench {
        for (model, inst) in models {
            for (i, v) in inst {
                match types.get(&(bench.clone(), i.clone())) {
                    Some(t) => {
                        t3.entry((*t, model.clone())).or_default().push(*v);
                        all_by_model.entry(model.clone()).or_default().push(*v);
                    }
                    None => untyped += 1,
                }
            }
        }
    }
    let mut table3 = Vec::new();
    let mut table3_means = Vec::new();
    for t in TaskType::ALL {
        let groups: Vec<(&String, &Vec<(bool, bool)>)> = t3
            .iter()
            .filter(|((tt, _), _)| *tt == t)
            .map(|((_, m), v)| (m, v))
            .collect();
        if groups.is_empty() {
            continue;
        }
        let mut deltas = Vec::new();
        for (m, v) in &groups {
            let cell = PairedCell::from_pairs(
                v,
                reps,
                key_seed(opts.seed, &format!("t3|{}|{m}", t.as_str())),
            );
            deltas.push(cell.delta);
            table3.push(Table3Row {
                model: (*m).clone(),
                task_type: t,
                cell,
            });
        }
        let gv: Vec<Vec<(bool, bool)>> = groups.iter().map(|g| g.1.clone()).collect();
        table3_means.push(Table3Mean {
            task_type: Some(t),
            models: deltas.len(),
            mean_delta: deltas.iter().sum::<f64>() / deltas.len() as f64,
            ci: bootstrap_mean_delta(
                &gv,
                reps,
                key_seed(opts.seed, &format!("t3mean|{}", t.as_str())),
            ),
        });
    }
    if !all_by_model.is_empty() {
        let gv: Vec<Vec<(bool, bool)>> = all_by_model.values().cloned().collect();
        let deltas: Vec<f64> = gv
            .iter()
            .map(|g| PairedCell::from_pairs(g, 0, 0).delta)
            .collect();
        table3_means.push(Table3Mean {
            task_type: None,
            models: deltas.len(),
            mean_delta: deltas.iter().sum::<f64>() / deltas.len() as f64,
            ci: bootstrap_mean_delta(&gv, reps, key_seed(opts.seed, "t3mean|all")),
        });
    }
    // discordant cohort over the full sets
    let mut discordant = Vec::new();
    for r in &table2 {
        discordant.push(discordant_row(&r.benchmark, &r.model, &[&r.full]));
    }
    for b in by_bench.keys() {
        let cells: Vec<&PairedCell> = table2
            .iter()
            .filter(|r| &r.benchmark == b)
            .map(|r| &r.full)
            .collect();
        discordant.push(discordant_row(b, "all", &cells));
    }
    let models: BTreeSet<&String> = table2.iter().map(|r| &r.model).collect();
    for m in models {
        let cells: Vec<&PairedCell> = table2
            .iter()
            .filter(|r| &r.model == m)
            .map(|r| &r.full)
            .collect();
        discordant.push(discordant_row("all", m, &cells));
    }
    let cells: Vec<&PairedCell> = table2.iter().map(|r| &r.full).collect();
    discordant.push(discordant_row("all", "all", &cells));
    Tables {
        table2,
        shared_n,
        table3,
        table3_means,
        untyped_pairs: untyped,
        discordant,
    }
}
