//! Stage 3b: the judges — their inputs (`judge/drift_items.jsonl`, `judge/aa_pr2.jsonl`), the
//! compounding table from compounding-judge labels, and drift-judge labels as the IEC feature.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use codethread_analysis::features::ha_wins_cohort;
use codethread_analysis::{Condition, Results};
use codethread_judge::judge::{
    agreement, compounding_table, drift_item_from_trees, iec_from_labels, load_items,
    touches_function, CompoundLabel, DriftRecord,
};
use codethread_lang::io::read_regular_nofollow;
use codethread_lang::Lang;

use super::agents::Agents;
use super::features::Measured;
use super::keys::ChainKey;
use super::{write, Diagnostic, ReproduceConfig, ReproduceError, ReproduceSummary};

/// Where the IEC feature comes from, as `report.md` says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum IecSource {
    /// The static detector on every chain.
    Detector,
    /// The drift judge's labels on this many chains, the detector elsewhere.
    Judge {
        /// Chains of the benchmark the judge labelled.
        chains: usize,
    },
}

impl fmt::Display for IecSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IecSource::Detector => f.write_str("the static detector (docs/analysis.md)"),
            IecSource::Judge { chains } => write!(
                f,
                "the drift judge's labels on {chains} chains (the static detector elsewhere; agreement in judge/iec_agreement.json)"
            ),
        }
    }
}

/// The judges' inputs: one drift item per chain with an agent PR1, and its AA PR2 with the
/// deterministic survival check per target.
///
/// # Errors
/// An output that cannot be written.
pub(crate) fn write_inputs(
    cfg: &ReproduceConfig,
    agents: &Agents<'_>,
    targets: &BTreeMap<String, BTreeSet<String>>,
    hints: &BTreeMap<String, Option<Lang>>,
    benchmarks: &BTreeMap<String, String>,
    sum: &mut ReproduceSummary,
) -> Result<(), ReproduceError> {
    let aa_resolved: BTreeMap<ChainKey, bool> = agents
        .results
        .rows()
        .iter()
        .filter(|o| o.condition == Condition::AA)
        .map(|o| (ChainKey::new(&o.model, &o.instance), o.resolved))
        .collect();
    let (mut drift, mut aa) = (Vec::new(), Vec::new());
    for (key, t) in &agents.trees {
        let Some(agent) = &t.agent_pr1 else {
            continue;
        };
        let (model, id) = (&key.model, &key.instance);
        let hint = hints.get(id).copied().flatten();
        let ids: Vec<String> = targets
            .get(id)
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default();
        let benchmark = benchmarks.get(id).map_or("", String::as_str);
        let item = drift_item_from_trees(benchmark, model, id, &t.base, agent, &ids, hint);
        drift.push(serde_json::to_value(&item).unwrap_or_default());
        if let Some(p) = &t.pr2_patch.aa {
            let touches: BTreeMap<&String, Option<bool>> = ids
                .iter()
                .map(|tid| (tid, touches_function(agent, p, tid, hint).ok()))
                .collect();
            aa.push(serde_json::json!({
                "benchmark": benchmark, "model": model, "instance": id,
                "aa_pr2_patch": String::from_utf8_lossy(p),
                "aa_resolved": aa_resolved.get(key).copied().unwrap_or(false),
                "failing_tests": [],
                "pr2_touches_target": touches,
            }));
        }
    }
    let lines =
        |rows: &[serde_json::Value]| -> String { rows.iter().map(|r| format!("{r}\n")).collect() };
    write(&cfg.out, "judge/drift_items.jsonl", &lines(&drift))?;
    write(&cfg.out, "judge/aa_pr2.jsonl", &lines(&aa))?;
    sum.judge_items = drift.len();
    Ok(())
}

/// With compounding-judge labels: the compounding table on the HA-wins cohort
/// (`judge/compounding.{json,md}`, [`ReproduceSummary::compounding`]).
///
/// # Errors
/// An unreadable labels file, an output that cannot be written.
pub(crate) fn compounding(
    cfg: &ReproduceConfig,
    results: &Results,
    sum: &mut ReproduceSummary,
) -> Result<(), ReproduceError> {
    let Some(p) = &cfg.judge_labels else {
        return Ok(());
    };
    let bytes = read_regular_nofollow(p, cfg.max_file_bytes)?;
    let (labels, errs) = load_items::<CompoundLabel>(&p.display().to_string(), &bytes);
    sum.errors
        .extend(errs.iter().map(|e| Diagnostic::JudgeLabels {
            message: e.to_string(),
        }));
    let t = compounding_table(&labels, &ha_wins_cohort(results));
    write(
        &cfg.out,
        "judge/compounding.json",
        &format!("{}\n", serde_json::to_string(&t).unwrap_or_default()),
    )?;
    write(&cfg.out, "judge/compounding.md", &t.to_markdown())?;
    sum.compounding = Some(t);
    Ok(())
}

/// With drift-judge labels: the judge's IEC replaces the static detector's where the judge
/// labelled the chain; their agreement goes to `judge/iec_agreement.json` and
/// [`ReproduceSummary::iec_agreement`].
///
/// # Errors
/// An unreadable labels file, an output that cannot be written.
pub(crate) fn drift_labels(
    cfg: &ReproduceConfig,
    benchmarks: &BTreeMap<String, String>,
    measured: &mut Measured,
    sum: &mut ReproduceSummary,
) -> Result<IecSource, ReproduceError> {
    let Some(p) = &cfg.drift_labels else {
        return Ok(IecSource::Detector);
    };
    let bytes = read_regular_nofollow(p, cfg.max_file_bytes)?;
    let (records, errs) = load_items::<DriftRecord>(&p.display().to_string(), &bytes);
    sum.errors
        .extend(errs.iter().map(|e| Diagnostic::DriftLabels {
            message: e.to_string(),
        }));
    let judge = iec_from_labels(&records);
    let detector: BTreeMap<(String, String, String), bool> = measured
        .chains
        .iter()
        .filter_map(|(k, m)| {
            let flag = m.iec?;
            Some((
                (
                    benchmarks.get(&k.instance).cloned().unwrap_or_default(),
                    k.model.clone(),
                    k.instance.clone(),
                ),
                flag,
            ))
        })
        .collect();
    let agreement = agreement(&judge, &detector);
    let mut used = 0usize;
    for ((b, m, i), f) in &judge {
        if benchmarks.get(i) == Some(b) {
            measured.chains.entry(ChainKey::new(m, i)).or_default().iec = Some(*f);
            used += 1;
        }
    }
    write(
        &cfg.out,
        "judge/iec_agreement.json",
        &format!(
            "{}\n",
            serde_json::json!({"judge_labelled_chains": used, "agreement": agreement})
        ),
    )?;
    sum.iec_agreement = Some((agreement, used));
    Ok(IecSource::Judge { chains: used })
}
