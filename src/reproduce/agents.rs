//! Stage 2: per model, the agents' PR1 and PR2 trees and patches, the PR1 gate on the harness
//! reports, the stacks the harness grades, and the PR2 outcomes of the gated chains.
//!
//! An agent's output of a step is either a tree (`agents/<model>/<step>/<id>/<path>`, the
//! agent's files after the step) or a row of a predictions file
//! (`agents/<model>/<step>.jsonl`, SWE-bench's format, the step's patch against the tree
//! the step started from: what `chain import harbor` writes). Both for the same chain is an
//! error for that step.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::Path;

use codethread_analysis::{Condition, Outcome, Results};
use codethread_bench::InstanceReport;
use codethread_bench::{parse_patch_predictions_bytes, predictions_to_jsonl, Prediction};
use codethread_chain::SourceReader;
use codethread_chain::{gate_predictions, stack, Layer};
use codethread_lang::io::{
    dir_below_nofollow, read_regular_nofollow, read_tree_nofollow, subdirs_nofollow,
};
use codethread_patch::{diff_trees, ApplyOptions, DiffOptions, MemTree};

use super::chains::{Built, InstanceTrees};
use super::inputs::Inputs;
use super::keys::{ChainKey, PerCondition, PR2_CONDITIONS};
use super::{write, ChainStep, Diagnostic, ReproduceConfig, ReproduceError, ReproduceSummary};

/// The trees and PR2 patches of one (model, instance) chain.
pub(crate) struct ChainTrees<'a> {
    /// The human PR1 (shared by every model's chain of the instance; a chain whose agent
    /// patches touch files outside it holds its own copy with those files read at base).
    pub base: Cow<'a, MemTree>,
    /// The agent's tree after its PR1 on PR0, when it has one.
    pub agent_pr1: Option<MemTree>,
    /// The agent's tree after PR2, per condition (HA on the human PR1, AA on its own).
    pub pr2: PerCondition<Option<MemTree>>,
    /// The PR2 patches as bytes, per condition (a prediction holds them as text).
    pub pr2_patch: PerCondition<Option<Vec<u8>>>,
}

impl ChainTrees<'_> {
    /// The tree PR2 of condition `c` starts from: the human PR1 for HA, the agent's PR1 for
    /// AA (`None` without one, and for HH).
    pub fn pr2_pre(&self, c: Condition) -> Option<&MemTree> {
        match c {
            Condition::HA => Some(&self.base),
            Condition::AA => self.agent_pr1.as_ref(),
            Condition::HH => None,
        }
    }
}

/// What the agent stage produced.
pub(crate) struct Agents<'a> {
    /// The PR2 outcomes of the gated chains.
    pub results: Results,
    /// The trees of every (model, instance) chain.
    pub trees: BTreeMap<ChainKey, ChainTrees<'a>>,
}

/// Runs every model found under the agents directory (`sum.models`).
///
/// # Errors
/// An output that cannot be written.
pub(crate) fn run<'a>(
    cfg: &ReproduceConfig,
    built: &'a Built,
    inputs: &Inputs,
    source: &mut dyn SourceReader,
    sum: &mut ReproduceSummary,
    progress: &mut dyn FnMut(&str),
) -> Result<Agents<'a>, ReproduceError> {
    sum.models = models(&cfg.agents, sum);
    let mut results = Results::new();
    let mut trees = BTreeMap::new();
    for model in sum.models.clone() {
        progress(&format!(
            "model {model}: PR1 patches, gate, PR2 stacks, outcomes"
        ));
        let mut pr1_preds: BTreeMap<String, Prediction> = BTreeMap::new();
        let mut pr2_preds: PerCondition<BTreeMap<String, Prediction>> = PerCondition::default();
        let given = prediction_files(cfg, &model, sum);
        unmatched_rows(&cfg.agents, built, inputs, &model, &given, sum);
        for (id, inst) in &built.trees {
            let out = Outputs {
                model: &model,
                id,
                inst,
                given: &given,
            };
            let t = chain_trees(cfg, &out, source, &mut pr1_preds, &mut pr2_preds, sum);
            trees.insert(ChainKey::new(&model, id), t);
        }
        write(
            &cfg.out,
            &format!("predictions/{model}.pr1.jsonl"),
            &predictions_to_jsonl(&pr1_preds.values().cloned().collect::<Vec<_>>()),
        )?;
        let kept = gate(cfg, built, &model, &pr1_preds, source, sum)?;
        stacks(
            cfg, built, &model, &kept, &pr1_preds, &pr2_preds, source, sum,
        )?;
        outcomes(cfg, inputs, &model, &kept, &pr2_preds, &mut results, sum);
        hh_outcomes(cfg, inputs, &model, &kept, &mut results, sum);
    }
    Ok(Agents { results, trees })
}

/// The model directories below `agents`, sorted; links, unreadable entries and names that are
/// not UTF-8 are errors.
fn models(agents: &Path, sum: &mut ReproduceSummary) -> Vec<String> {
    let (names, problems) = subdirs_nofollow(agents);
    let mut models = Vec::new();
    for name in names {
        match name.into_string() {
            Ok(m) => models.push(m),
            Err(raw) => sum.errors.push(Diagnostic::ModelName {
                path: agents.join::<OsString>(raw),
            }),
        }
    }
    sum.errors
        .extend(problems.iter().map(|e| Diagnostic::AgentsEntry {
            message: e.to_string(),
        }));
    models
}

/// The steps whose outputs an agent gives, in chain order.
const STEPS: [ChainStep; 3] = [
    ChainStep::Pr1,
    ChainStep::Pr2(Condition::HA),
    ChainStep::Pr2(Condition::AA),
];

/// A model's predictions files, per step: instance id -> patch bytes.
type GivenPatches = BTreeMap<ChainStep, BTreeMap<String, Vec<u8>>>;

/// The predictions files `agents/<model>/<step>.jsonl` that exist. Each is read without
/// following a link, as a regular file within the size limit; a file or row that cannot be
/// read is an error naming it, and the other rows are used.
fn prediction_files(
    cfg: &ReproduceConfig,
    model: &str,
    sum: &mut ReproduceSummary,
) -> GivenPatches {
    let mut given = GivenPatches::new();
    for step in STEPS {
        let path = cfg
            .agents
            .join(model)
            .join(format!("{}.jsonl", step.dir_name()));
        let error = |message: String| Diagnostic::AgentPredictions {
            model: model.to_string(),
            step,
            message,
        };
        match std::fs::symlink_metadata(&path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                sum.errors.push(error(format!("{}: {e}", path.display())));
                continue;
            }
            Ok(_) => {}
        }
        let bytes = match read_regular_nofollow(&path, cfg.max_file_bytes) {
            Ok(b) => b,
            Err(e) => {
                sum.errors.push(error(e.to_string()));
                continue;
            }
        };
        match parse_patch_predictions_bytes(&path, &bytes) {
            Ok(loaded) => {
                sum.errors
                    .extend(loaded.errors.iter().map(|e| error(e.to_string())));
                given.insert(
                    step,
                    loaded
                        .items
                        .into_iter()
                        .map(|p| (p.instance_id, p.model_patch))
                        .collect(),
                );
            }
            Err(e) => sum.errors.push(error(e.to_string())),
        }
    }
    given
}

/// Rows of a model's predictions files that no chain of the run reads, each named: an id
/// that is no instance of the run (a leading space, another case: an error), an instance
/// that was filtered or failed (no chain to read it: a warning), and a PR2 AA row without
/// the agent's PR1 it is relative to (an error: AA is counted only on the agent's own PR1).
fn unmatched_rows(
    agents: &Path,
    built: &Built,
    inputs: &Inputs,
    model: &str,
    given: &GivenPatches,
    sum: &mut ReproduceSummary,
) {
    let known: std::collections::BTreeSet<&str> = inputs
        .instances
        .iter()
        .map(|i| i.instance_id.as_str())
        .collect();
    for (&step, rows) in given {
        for id in rows.keys() {
            let problem = |message: String| Diagnostic::AgentPredictions {
                model: model.to_string(),
                step,
                message,
            };
            if !known.contains(id.as_str()) {
                sum.errors.push(problem(format!(
                    "row for {:?}, which is no instance of this run; not used",
                    codethread_bench::ids::label(id)
                )));
            } else if !built.trees.contains_key(id) {
                sum.warnings.push(problem(format!(
                    "row for {id}, whose chain was not built (filtered or failed); not used"
                )));
            }
        }
    }
    if let Some(aa) = given.get(&ChainStep::Pr2(Condition::AA)) {
        let pr1 = given.get(&ChainStep::Pr1);
        for id in aa.keys().filter(|id| built.trees.contains_key(*id)) {
            let tree = Path::new(model).join(ChainStep::Pr1.dir_name()).join(id);
            if pr1.is_some_and(|m| m.contains_key(id)) {
                continue;
            }
            // A PR1 given as a tree below agents/<model>/pr1/ is read by chain_trees.
            if std::fs::symlink_metadata(agents.join(&tree)).is_ok() {
                continue;
            }
            sum.errors.push(Diagnostic::AgentPredictions {
                model: model.to_string(),
                step: ChainStep::Pr2(Condition::AA),
                message: format!(
                    "row for {id}, but no PR1 of this model for it (pr1.jsonl or pr1/{id}/): AA is the PR2 on the agent's own PR1; not used"
                ),
            });
        }
    }
}

/// What one (model, instance) chain reads its agent outputs from.
struct Outputs<'a, 'b> {
    model: &'b str,
    id: &'b str,
    inst: &'a InstanceTrees,
    given: &'b GivenPatches,
}

/// The agent's trees of `model` on instance `id` and the PR1 and PR2 patches made from them
/// (into the prediction maps). An unreadable agent output loses that tree only; so does a
/// given patch that does not parse or apply to the tree its step starts from.
fn chain_trees<'a>(
    cfg: &ReproduceConfig,
    o: &Outputs<'a, '_>,
    source: &mut dyn SourceReader,
    pr1_preds: &mut BTreeMap<String, Prediction>,
    pr2_preds: &mut PerCondition<BTreeMap<String, Prediction>>,
    sum: &mut ReproduceSummary,
) -> ChainTrees<'a> {
    let (model, id, inst) = (o.model, o.id, o.inst);
    let output_error = |step: ChainStep, message: String| Diagnostic::AgentOutput {
        model: model.to_string(),
        instance: id.to_string(),
        step,
        message,
    };
    // The given patches of this chain, parsed; the trees the steps start from, with every
    // file a patch touches outside them read at base.
    let mut patches = BTreeMap::new();
    for step in STEPS {
        let Some(bytes) = o.given.get(&step).and_then(|m| m.get(id)) else {
            continue;
        };
        let tree_dir = cfg.agents.join(model).join(step.dir_name()).join(id);
        if std::fs::symlink_metadata(&tree_dir).is_ok() {
            sum.errors.push(output_error(
                step,
                format!(
                    "both {}.jsonl and the tree {}/{id} are given; neither is used",
                    step.dir_name(),
                    step.dir_name()
                ),
            ));
            patches.insert(step, None);
            continue;
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            patches.insert(step, Some(codethread_patch::Patch::default()));
            continue;
        }
        match codethread_patch::parse_patch(bytes) {
            Ok(p) => {
                patches.insert(step, Some(p));
            }
            Err(e) => {
                sum.errors.push(output_error(
                    step,
                    format!("{}.jsonl: the patch does not parse: {e}", step.dir_name()),
                ));
                patches.insert(step, None);
            }
        }
    }
    let mut base = Cow::Borrowed(&inst.base);
    let mut stubbed = Cow::Borrowed(&inst.stubbed);
    // Paths a given patch touches outside the trees, by the first step
    // that touches them. A path that leaves the repository (absolute,
    // `..`, `.git`) makes that step's patch unusable and is never read; a
    // name that is not UTF-8 is not looked up (its patch then fails to
    // apply, naming it).
    let mut missing: BTreeMap<Vec<u8>, ChainStep> = BTreeMap::new();
    for (&step, slot) in patches.iter_mut() {
        let Some(p) = slot.as_ref() else { continue };
        let mut refused = None;
        for path in p.touched_paths() {
            if let Err(why) = codethread_patch::check_path(&path) {
                refused = Some(format!(
                    "{}.jsonl: the patch touches {:?} outside the repository ({why})",
                    step.dir_name(),
                    String::from_utf8_lossy(&path)
                ));
                break;
            }
            if inst.base.get(&path).is_none() {
                missing.entry(path).or_insert(step);
            }
        }
        if let Some(message) = refused {
            sum.errors.push(output_error(step, message));
            *slot = None;
        }
    }
    missing.retain(|path, step| {
        patches.get(step).is_some_and(Option::is_some) && std::str::from_utf8(path).is_ok()
    });
    if let Some(&step) = missing.values().next() {
        if let Err(e) = source.select_repo_for(id, &inst.repo) {
            sum.errors.push(output_error(step, e.to_string()));
            missing.clear();
        }
    }
    for (path, step) in missing {
        let Ok(name) = std::str::from_utf8(&path) else {
            continue;
        };
        match source.read(id, &inst.base_commit, name) {
            Ok(Some(bytes)) => {
                base.to_mut().insert(path.clone(), bytes.clone());
                stubbed.to_mut().insert(path, bytes);
            }
            Ok(None) => {}
            Err(e) => sum.errors.push(output_error(step, e.to_string())),
        }
    }
    let mut read = |tree: &MemTree, step: ChainStep| {
        if let Some(given) = patches.get(&step) {
            let patch = given.as_ref()?;
            let mut t = tree.clone();
            return match t.apply(patch, &ApplyOptions::default()) {
                Ok(_) => Some(t),
                Err(e) => {
                    sum.errors.push(output_error(
                        step,
                        format!(
                            "{}.jsonl: the patch does not apply to the tree {step} starts from: {e}",
                            step.dir_name()
                        ),
                    ));
                    None
                }
            };
        }
        let rel = Path::new(model).join(step.dir_name()).join(id);
        overlay(tree, &cfg.agents, &rel, cfg.max_file_bytes).unwrap_or_else(|es| {
            for message in es {
                sum.errors.push(output_error(step, message));
            }
            None
        })
    };
    let agent_pr1 = read(&stubbed, ChainStep::Pr1);
    let ha = read(&base, ChainStep::Pr2(Condition::HA));
    let aa = match &agent_pr1 {
        Some(a) => read(a, ChainStep::Pr2(Condition::AA)),
        None => None,
    };
    let mut t = ChainTrees {
        base,
        agent_pr1,
        pr2: PerCondition { ha, aa },
        pr2_patch: PerCondition::default(),
    };
    // Predictions are JSON text: the harness cannot be given other bytes.
    let pred = |patch: &[u8]| Prediction {
        instance_id: id.to_string(),
        model_name_or_path: model.to_string(),
        model_patch: String::from_utf8_lossy(patch).into_owned(),
    };
    let diff_error = |step: ChainStep, message: String| Diagnostic::Diff {
        model: model.to_string(),
        instance: id.to_string(),
        step,
        message,
    };
    if let Some(a) = &t.agent_pr1 {
        match diff_bytes(&stubbed, a) {
            Ok(p) => {
                pr1_preds.insert(id.to_string(), pred(&p));
            }
            Err(e) => sum.errors.push(diff_error(ChainStep::Pr1, e)),
        }
    }
    for c in PR2_CONDITIONS {
        let (Some(pre), Some(Some(post))) = (t.pr2_pre(c), t.pr2.get(c)) else {
            continue;
        };
        match diff_bytes(pre, post) {
            Ok(p) => {
                if let Some(m) = pr2_preds.get_mut(c) {
                    m.insert(id.to_string(), pred(&p));
                }
                if let Some(slot) = t.pr2_patch.get_mut(c) {
                    *slot = Some(p);
                }
            }
            Err(e) => sum.errors.push(diff_error(ChainStep::Pr2(c), e)),
        }
    }
    t
}

/// Gates the PR1 predictions of `model` on their harness reports (`gate/<model>.jsonl`);
/// returns the kept instance ids.
fn gate(
    cfg: &ReproduceConfig,
    built: &Built,
    model: &str,
    pr1_preds: &BTreeMap<String, Prediction>,
    source: &mut dyn SourceReader,
    sum: &mut ReproduceSummary,
) -> Result<BTreeSet<String>, ReproduceError> {
    let reports = reports(cfg, model, ChainStep::Pr1, sum).unwrap_or_default();
    let decisions = gate_predictions(&built.chain, pr1_preds, &reports, Some(source));
    let kept: BTreeSet<String> = decisions
        .iter()
        .filter(|d| d.kept)
        .map(|d| d.instance_id.clone())
        .collect();
    sum.gate
        .insert(model.to_string(), (kept.len(), decisions.len()));
    let gate_lines: Vec<String> = decisions
        .iter()
        .filter_map(|d| serde_json::to_string(d).ok())
        .collect();
    write(
        &cfg.out,
        &format!("gate/{model}.jsonl"),
        &(gate_lines.join("\n") + "\n"),
    )?;
    Ok(kept)
}

/// The stacks the harness grades, PR0 + PR1 + PR2 as one diff against base, per condition
/// (`predictions/<model>.<HA|AA>.stacked.jsonl`), of the gated instances.
#[allow(clippy::too_many_arguments)]
fn stacks(
    cfg: &ReproduceConfig,
    built: &Built,
    model: &str,
    kept: &BTreeSet<String>,
    pr1_preds: &BTreeMap<String, Prediction>,
    pr2_preds: &PerCondition<BTreeMap<String, Prediction>>,
    source: &mut dyn SourceReader,
    sum: &mut ReproduceSummary,
) -> Result<(), ReproduceError> {
    let gated = |m: &BTreeMap<String, Prediction>| -> BTreeMap<String, Prediction> {
        m.iter()
            .filter(|(k, _)| kept.contains(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    for (c, pr2) in pr2_preds.iter() {
        let layers = match c {
            Condition::AA => vec![
                Layer::Predictions(gated(pr1_preds)),
                Layer::Predictions(gated(pr2)),
            ],
            _ => vec![Layer::HumanPr1, Layer::Predictions(gated(pr2))],
        };
        let (preds, outcomes) = stack(
            &built.chain,
            &layers,
            &format!("{model}__{}", c.as_str()),
            source,
            &mut |_, _, _| {},
        );
        for o in outcomes {
            if let Some(message) = o.error {
                if kept.contains(&o.instance_id) {
                    sum.errors.push(Diagnostic::Stack {
                        model: model.to_string(),
                        condition: c,
                        instance: o.instance_id,
                        message,
                    });
                }
            }
        }
        write(
            &cfg.out,
            &format!("predictions/{model}.{}.stacked.jsonl", c.as_str()),
            &predictions_to_jsonl(&preds),
        )?;
    }
    Ok(())
}

/// The PR2 outcomes of `model` on the gated instances, per condition, from the harness reports.
fn outcomes(
    cfg: &ReproduceConfig,
    inputs: &Inputs,
    model: &str,
    kept: &BTreeSet<String>,
    pr2_preds: &PerCondition<BTreeMap<String, Prediction>>,
    results: &mut Results,
    sum: &mut ReproduceSummary,
) {
    for c in PR2_CONDITIONS {
        let reports = reports(cfg, model, ChainStep::Pr2(c), sum).unwrap_or_default();
        let given = pr2_preds.get(c);
        let count = sum
            .submissions
            .entry((model.to_string(), c.as_str().to_string()))
            .or_default();
        for id in kept {
            let push = |results: &mut Results, resolved: bool| {
                results.push(Outcome {
                    benchmark: inputs.benchmarks.get(id).cloned().unwrap_or_default(),
                    model: model.to_string(),
                    condition: c,
                    instance: id.clone(),
                    resolved,
                    task_type: inputs.task_types.get(id).copied(),
                })
            };
            let patch = given
                .and_then(|m| m.get(id))
                .map(|p| p.model_patch.as_str());
            match reports.get(id) {
                // A report of the harness, a run-level one included (an
                // empty prediction it skipped is unresolved).
                Some(r) => {
                    if r.harness_note == Some(codethread_bench::HarnessNote::SkippedEmptyPatch) {
                        count.empty += 1;
                    } else {
                        count.graded += 1;
                    }
                    push(results, r.resolved);
                }
                // An empty submission: the harness grades nothing and writes
                // no report for it, and it resolves nothing.
                None if patch.is_some_and(|p| p.trim().is_empty()) => {
                    count.empty += 1;
                    push(results, false);
                }
                None if patch.is_none() => count.not_submitted += 1,
                None => {
                    count.no_report += 1;
                    sum.warnings.push(Diagnostic::NoPr2Report {
                        model: model.to_string(),
                        condition: c,
                        instance: id.clone(),
                    });
                }
            }
        }
    }
}

/// HH outcomes (the human PR1 and the human PR2, the gold patch: the
/// chain's `predictions_HH.jsonl`) from `reports/HH/` when it is given, one
/// per kept instance of `model`, so that Table 2 shows the HH rate on that
/// model's instances.
fn hh_outcomes(
    cfg: &ReproduceConfig,
    inputs: &Inputs,
    model: &str,
    kept: &BTreeSet<String>,
    results: &mut Results,
    sum: &mut ReproduceSummary,
) {
    let Ok(Some(dir)) = dir_below_nofollow(&cfg.reports, Path::new("HH")) else {
        return;
    };
    let limits = codethread_lang::io::SourceLimits::with_max_file_bytes(cfg.max_file_bytes);
    let (reports, errs) = codethread_bench::load_outcome_reports(&[dir], limits);
    sum.errors.extend(errs.iter().map(|e| Diagnostic::Reports {
        model: "HH".to_string(),
        step: ChainStep::Pr2(Condition::HH),
        message: e.to_string(),
    }));
    for id in kept {
        if let Some(r) = reports.get(id) {
            results.push(Outcome {
                benchmark: inputs.benchmarks.get(id).cloned().unwrap_or_default(),
                model: model.to_string(),
                condition: Condition::HH,
                instance: id.clone(),
                resolved: r.resolved,
                task_type: inputs.task_types.get(id).copied(),
            });
        }
    }
}

/// The harness reports of `model`'s `step`: `None` (with a warning) when their directory does
/// not exist. No link is followed, on the way down or in the tree (the chain crate's loader
/// names every link as an error); files are read only when regular and within the limit.
/// Every unreadable report is an error.
fn reports(
    cfg: &ReproduceConfig,
    model: &str,
    step: ChainStep,
    sum: &mut ReproduceSummary,
) -> Option<BTreeMap<String, InstanceReport>> {
    let rel = Path::new(model).join(step.dir_name());
    let error = |message: String| Diagnostic::Reports {
        model: model.to_string(),
        step,
        message,
    };
    let dir = match dir_below_nofollow(&cfg.reports, &rel) {
        Ok(Some(d)) => d,
        Ok(None) => {
            sum.warnings.push(Diagnostic::ReportsMissing {
                model: model.to_string(),
                step,
                path: cfg.reports.join(rel),
            });
            return None;
        }
        Err(e) => {
            sum.errors.push(error(e.to_string()));
            return Some(BTreeMap::new());
        }
    };
    // Every form `chain gate` reads: per-instance reports, `run_instance.log`
    // and run-level reports (`empty_patch_ids`: an empty prediction the
    // harness skipped is an unresolved outcome).
    let limits = codethread_lang::io::SourceLimits::with_max_file_bytes(cfg.max_file_bytes);
    // PR1: what `chain gate` reads (the gate needs the tests); PR2: also the
    // run-level resolved / unresolved lists (a resolve rate needs no more).
    let (reports, errs) = match step {
        ChainStep::Pr1 => codethread_bench::load_reports(&[dir], limits),
        ChainStep::Pr2(_) => codethread_bench::load_outcome_reports(&[dir], limits),
    };
    sum.errors.extend(errs.iter().map(|e| error(e.to_string())));
    Some(reports)
}

/// `tree` with the files of `root/rel` written over it (`None` when that directory is
/// absent). Errors name every link, special file or unreadable file of the agent's tree.
fn overlay(
    tree: &MemTree,
    root: &Path,
    rel: &Path,
    limit: u64,
) -> Result<Option<MemTree>, Vec<String>> {
    let Some(dir) = dir_below_nofollow(root, rel).map_err(|e| vec![e.to_string()])? else {
        return Ok(None);
    };
    let files = read_tree_nofollow(&dir, limit)
        .map_err(|es| es.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut t = tree.clone();
    for f in files {
        t.insert(f.rel, f.bytes);
    }
    Ok(Some(t))
}

/// The patch from `a` to `b` as bytes (empty when they are equal): paths and contents as
/// the trees hold them.
fn diff_bytes(a: &MemTree, b: &MemTree) -> Result<Vec<u8>, String> {
    let p = diff_trees(a, b, &DiffOptions::default()).map_err(|e| e.to_string())?;
    Ok(p.to_bytes())
}
