//! Stage 3: what the features of the discordant cohort are made of — metric sums per stage,
//! PR2 edit sets, the static IEC flag — and the feature table.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use codethread_analysis::features::{
    build_features, EditSet, FeatureOptions, FeatureSources, FeatureTable, InstanceKey,
    MetricValues, Stage,
};
use codethread_analysis::{Condition, Results};
use codethread_lang::{parse_file, Lang};
use codethread_metrics::{analyze_parsed, Profile};
use codethread_patch::{localize, LocalizeOptions, MemTree};

use super::agents::ChainTrees;
use super::keys::{ChainKey, PerCondition, PR2_CONDITIONS};
use super::{Diagnostic, ReproduceConfig, ReproduceSummary};

/// The measurements of one (model, instance) chain.
#[derive(Debug, Clone, Default)]
pub(crate) struct ChainMeasures {
    /// Metric sums of the targets in the agent's PR1.
    pub pr1_agent: Option<MetricValues>,
    /// Metric sums of the targets and the PR2-edited functions after PR2, per condition.
    pub pr2: PerCondition<Option<MetricValues>>,
    /// The PR2 edit sets, per condition.
    pub edits: PerCondition<Option<EditSet>>,
    /// Whether any target's input/error contract drifted between the human and the agent's
    /// PR1 (the static detector's, or the drift judge's label).
    pub iec: Option<bool>,
}

/// Everything measured on the chains.
#[derive(Debug, Default)]
pub(crate) struct Measured {
    /// Per chain.
    pub chains: BTreeMap<ChainKey, ChainMeasures>,
    /// Metric sums of the targets in the human PR1, per instance (the same for every model).
    pub human_pr1: BTreeMap<String, MetricValues>,
}

/// Measures every chain: PR2 edit sets (a failed localization is a warning), the static IEC
/// flag (a failure is a warning), and the metric sums of each stage under `cfg.profile`.
pub(crate) fn measure(
    cfg: &ReproduceConfig,
    trees: &BTreeMap<ChainKey, ChainTrees<'_>>,
    targets: &BTreeMap<String, BTreeSet<String>>,
    hints: &BTreeMap<String, Option<Lang>>,
    sum: &mut ReproduceSummary,
) -> Measured {
    let mut out = Measured::default();
    let empty = BTreeSet::new();
    for (key, t) in trees {
        let id = &key.instance;
        let hint = hints.get(id).copied().flatten();
        let t_ids = targets.get(id).unwrap_or(&empty);
        let mut m = ChainMeasures::default();
        for c in PR2_CONDITIONS {
            let (Some(pre), Some(Some(patch))) = (t.pr2_pre(c), t.pr2_patch.get(c)) else {
                continue;
            };
            match edit_set(pre, patch, hint) {
                Ok(s) => {
                    if let Some(slot) = m.edits.get_mut(c) {
                        *slot = Some(s);
                    }
                }
                Err(message) => sum.warnings.push(Diagnostic::Localization {
                    model: key.model.clone(),
                    instance: id.clone(),
                    condition: c,
                    message,
                }),
            }
        }
        // PR2 metrics cover the targets and every function a PR2 edited.
        let mut ids = t_ids.clone();
        for (_, s) in m.edits.iter() {
            if let Some(s) = s {
                ids.extend(s.functions.iter().cloned());
            }
        }
        if let Some(agent) = &t.agent_pr1 {
            match iec_flag(&t.base, agent, t_ids, hint) {
                Ok(flag) => m.iec = Some(flag),
                Err(message) => sum.warnings.push(Diagnostic::Iec {
                    model: key.model.clone(),
                    instance: id.clone(),
                    message,
                }),
            }
        }
        // The human PR1 is the same for every model: measured once per instance.
        if !out.human_pr1.contains_key(id) {
            out.human_pr1
                .insert(id.clone(), metric_sum(&t.base, t_ids, hint, cfg.profile));
        }
        m.pr1_agent = t
            .agent_pr1
            .as_ref()
            .map(|a| metric_sum(a, t_ids, hint, cfg.profile));
        for c in PR2_CONDITIONS {
            if let (Some(Some(tree)), Some(slot)) = (t.pr2.get(c), m.pr2.get_mut(c)) {
                *slot = Some(metric_sum(tree, &ids, hint, cfg.profile));
            }
        }
        out.chains.insert(key.clone(), m);
    }
    out
}

/// The features of the discordant cohort of `results` from the measurements.
pub(crate) fn table(results: &Results, m: &Measured) -> FeatureTable {
    let chain = |k: &InstanceKey| m.chains.get(&ChainKey::new(&k.model, &k.instance));
    let metrics_fn = |k: &InstanceKey, s: Stage| match s {
        Stage::Pr1Human => m.human_pr1.get(&k.instance).copied(),
        Stage::Pr1Agent => chain(k).and_then(|c| c.pr1_agent),
        Stage::Pr2Ha => chain(k).and_then(|c| c.pr2.ha),
        Stage::Pr2Aa => chain(k).and_then(|c| c.pr2.aa),
    };
    let edits_fn =
        |k: &InstanceKey, c: Condition| chain(k).and_then(|m| m.edits.get(c).cloned().flatten());
    let iec_fn = |k: &InstanceKey| chain(k).and_then(|c| c.iec);
    build_features(
        results,
        &FeatureSources {
            metrics: &metrics_fn,
            edits: &edits_fn,
            iec: &iec_fn,
        },
        &FeatureOptions::default(),
    )
}

/// Target ids (`path::qualname[#n]`) grouped by path, as qualnames.
fn ids_by_path(ids: &BTreeSet<String>) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut by_path: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for id in ids {
        if let Some((p, q)) = id.split_once("::") {
            by_path
                .entry(p)
                .or_default()
                .insert(q.split('#').next().unwrap_or(q));
        }
    }
    by_path
}

/// Sum of the `profile` metrics of the functions `ids` (`path::qualname`)
/// in `tree`; functions missing from the tree count 0; a metric the profile
/// does not report for a file's language is NaN. `hint` is the
/// instance's language (it settles `.h` between C and C++).
fn metric_sum(
    tree: &MemTree,
    ids: &BTreeSet<String>,
    hint: Option<Lang>,
    profile: Profile,
) -> MetricValues {
    let mut v = MetricValues::default();
    for (path, quals) in ids_by_path(ids) {
        let Some(bytes) = tree.get(path.as_bytes()) else {
            continue;
        };
        let Ok(file) = parse_file(
            Path::new(path),
            bytes.to_vec(),
            &codethread_lang::ParseOptions::with_hint(hint),
        ) else {
            continue;
        };
        let fm = analyze_parsed(path, &file, profile);
        // A metric the profile does not report for this language (no file
        // total) is NaN: its deltas are missing, never 0.
        if fm.totals.cognitive.is_none() {
            v.cognitive = f64::NAN;
        }
        if fm.totals.halstead_volume.is_none() {
            v.halstead_volume = f64::NAN;
        }
        if fm.totals.lloc.is_none() {
            v.lloc = f64::NAN;
        }
        // Records join the ids on `target_id` (the `#n` of duplicate
        // qualnames included). A canonical cognitive value already holds
        // those of the functions nested in it (`nested_in`): a nested
        // target inside another target adds its cognitive value once.
        let outer: BTreeMap<&str, &str> = fm
            .functions
            .iter()
            .filter_map(|m| Some((m.target_id.as_deref()?, m.nested_in.as_deref()?)))
            .collect();
        let inside_a_target = |id: &str| {
            let mut cur = outer.get(id).copied();
            // Each step goes to an enclosing function: at most one per record.
            for _ in 0..=outer.len() {
                match cur {
                    Some(o) if ids.contains(o) => return true,
                    Some(o) => cur = outer.get(o).copied(),
                    None => return false,
                }
            }
            false
        };
        for m in fm.functions.iter().filter(|m| {
            quals.contains(m.qualname.as_str())
                && m.target_id.as_deref().is_some_and(|id| ids.contains(id))
        }) {
            v.cyclomatic += f64::from(m.cyclomatic.unwrap_or(0));
            if !m.target_id.as_deref().is_some_and(inside_a_target) {
                v.cognitive += f64::from(m.cognitive.unwrap_or(0));
            }
            v.halstead_volume += m.halstead.as_ref().map_or(0.0, |h| h.volume);
            v.lloc += f64::from(m.lloc.unwrap_or(0));
        }
    }
    v
}

/// The static IEC flag: does any target's input/error contract differ
/// between the human PR1 (`human`) and the agent's PR1 (`agent`)?
fn iec_flag(
    human: &MemTree,
    agent: &MemTree,
    ids: &BTreeSet<String>,
    hint: Option<Lang>,
) -> Result<bool, String> {
    let mut flag = false;
    for (path, quals) in ids_by_path(ids) {
        let quals: Vec<String> = quals.into_iter().map(str::to_string).collect();
        let (Some(h), Some(a)) = (human.get(path.as_bytes()), agent.get(path.as_bytes())) else {
            continue;
        };
        let Some(lang) = Lang::for_source(path, h, hint) else {
            continue;
        };
        let r = codethread_judge::iec::detect_iec(lang, h, a, &quals)
            .map_err(|e| format!("{path}: {e}"))?;
        flag |= r.flag;
    }
    Ok(flag)
}

/// Edited files and functions (`path::qualname`) of `patch` on `pre`.
fn edit_set(pre: &MemTree, patch: &[u8], hint: Option<Lang>) -> Result<EditSet, String> {
    if patch.trim_ascii().is_empty() {
        return Ok(EditSet::default());
    }
    let parsed = codethread_patch::parse_patch(patch).map_err(|e| e.to_string())?;
    let loc =
        localize(pre, &parsed, &LocalizeOptions::with_hint(hint)).map_err(|e| e.to_string())?;
    Ok(EditSet {
        files: codethread_patch::file_set(&parsed),
        functions: codethread_patch::function_set(&loc, true),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn metric_sums_join_records_on_target_ids() {
        let mut tree = MemTree::new();
        // Two `f` (ids `m.py::f#1`, `m.py::f#2`): only the one named counts.
        tree.insert(
            "m.py",
            "def f(a):\n    return a\n\ndef f(a):\n    if a:\n        return 1\n    return 2\n",
        );
        let v = metric_sum(&tree, &ids(&["m.py::f#2"]), None, Profile::Canonical);
        assert_eq!(v.cyclomatic, 2.0);
        let v = metric_sum(&tree, &ids(&["m.py::f#1"]), None, Profile::Canonical);
        assert_eq!(v.cyclomatic, 1.0);
        // A nested target inside a target: its cognitive value is already
        // in the outer one's (canonical), counted once.
        tree.insert(
            "n.py",
            "def outer(a):\n    x = 1\n    def inner(b):\n        if b:\n            return 1\n    return inner\n",
        );
        let both = metric_sum(
            &tree,
            &ids(&["n.py::outer", "n.py::outer.inner"]),
            None,
            Profile::Canonical,
        );
        let outer = metric_sum(&tree, &ids(&["n.py::outer"]), None, Profile::Canonical);
        assert_eq!(outer.cognitive, 2.0);
        assert_eq!(both.cognitive, 2.0);
        assert_eq!(both.cyclomatic, 3.0);
    }
}
