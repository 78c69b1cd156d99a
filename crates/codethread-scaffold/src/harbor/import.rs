//! Harbor job results into the project's predictions and harness reports
//! (see [`crate::harbor`]).
//!
//! A job directory holds one directory per trial with `result.json`
//! (`TrialResult`), the collected diff at
//! `artifacts/logs/artifacts/model.patch` and the verifier's files under
//! `verifier/` (multi-step trials: both per step under `steps/<step>/`).
//! [`import_harbor_job`] writes, below its output directory:
//!
//! ```text
//! outcomes.jsonl                                  one row per trial and step, never dropped
//! <condition>/pr1.jsonl, <condition>/pr2.jsonl    predictions (harness format) per stage
//! <condition>/reports/<step>/<model>/<id>/report.json     the verifier's report, in the harness's layout
//! <condition>/reports/<step>/<model>/<id>/run_instance.log
//! reproduce/agents/<model>/{pr1,pr2_HA,pr2_AA}.jsonl  the same predictions, per reproduce step
//! reproduce/reports/<model>/{pr1,pr2_HA,pr2_AA}/<id>/report.json
//! ```
//!
//! `reproduce --agents OUT/reproduce/agents --reports OUT/reproduce/reports`
//! reads the last two as it reads agent trees and harness reports (PR1 and
//! the AA PR2 from the `chain` task, or from `implementation` and
//! `follow_on_agent`; the HA PR2 from `follow_on_human`).
//!
//! `chain gate --predictions implementation/pr1.jsonl --reports
//! implementation/reports/implement` and `chain stack --pr1 chain/pr1.jsonl
//! --pr2 chain/pr2.jsonl` read them unchanged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::export::HarborCondition;
use super::MODEL_PATCH;
use crate::error::ScaffoldError;
use crate::files::write_in;
use codethread_bench::PatchPrediction;
use codethread_lang::io::SourceLimits;

/// What became of one trial (or one step of a multi-step trial).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrialOutcome {
    /// The trial directory's name.
    pub trial: String,
    /// The instance (None when the trial could not be read that far).
    pub instance_id: Option<String>,
    /// The condition (`implementation`, `follow_on_human`, `chain`).
    pub condition: Option<String>,
    /// The step (`implement`, `follow_on`).
    pub step: Option<String>,
    /// `graded` (a diff and a reward, no exception), `exception` (the
    /// trial or step raised; diff and reward imported when present),
    /// `no_diff`, `no_reward`, `not_run` (an earlier step stopped the
    /// chain), `extra_attempt` (a later trial of the same task: not in the
    /// predictions), `report_refused` (diff and reward imported, but a
    /// verifier report or log that is there could not be imported: a link,
    /// a special file, too large, invalid, another instance's) or `error`
    /// (a file that cannot be read or trusted, an id that cannot name a
    /// file).
    pub outcome: String,
    /// The verifier's rewards (`reward` and the gate reasons' counts).
    pub rewards: BTreeMap<String, f64>,
    /// Whether its diff went into the predictions.
    pub imported_diff: bool,
    /// What went wrong, naming the file.
    pub message: Option<String>,
}

/// What [`import_harbor_job`] read and wrote.
#[derive(Debug, Default)]
pub struct HarborImport {
    /// One outcome per trial and step, in trial-name order.
    pub outcomes: Vec<TrialOutcome>,
    /// Files written (relative to the output directory).
    pub written: Vec<PathBuf>,
}

impl HarborImport {
    /// Outcomes that are not `graded`.
    pub fn problems(&self) -> impl Iterator<Item = &TrialOutcome> {
        self.outcomes.iter().filter(|o| o.outcome != "graded")
    }
}

/// Read `root/rel` (None when absent): a regular file, no link at any
/// component below `root` (the tree came from a sandbox), at most `limit`
/// bytes.
fn read_in(root: &Path, rel: &Path, limit: SourceLimits) -> Result<Option<Vec<u8>>, String> {
    codethread_lang::io::read_below_nofollow(root, rel, limit.max_file_bytes)
        .map_err(|e| e.to_string())
}

/// `(instance_id, condition)` of a task name written by the export.
fn parse_task_name(name: &str) -> Option<(String, HarborCondition)> {
    let rest = name.strip_prefix("codethread/")?;
    let (id, cond) = rest.rsplit_once('.')?;
    Some((id.to_string(), cond.parse().ok()?))
}

fn rewards_of(v: Option<&Value>) -> Option<BTreeMap<String, f64>> {
    let r = v?.get("rewards")?.as_object()?;
    Some(
        r.iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_f64()?)))
            .collect(),
    )
}

fn exception_of(v: &Value) -> Option<String> {
    let e = v.get("exception_info")?.as_object()?;
    let t = e
        .get("exception_type")
        .and_then(Value::as_str)
        .unwrap_or("?");
    let m = e
        .get("exception_message")
        .and_then(Value::as_str)
        .unwrap_or("");
    Some(format!("{t}: {}", m.chars().take(300).collect::<String>()))
}

/// The diff's paths must stay inside the repository; the error names the
/// first that does not.
fn check_diff(file: &Path, patch: &[u8]) -> Result<(), String> {
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    let p = codethread_patch::parse_patch(patch)
        .map_err(|e| format!("{}: not a diff: {e}", file.display()))?;
    for path in p.touched_paths() {
        if let Err(why) = codethread_patch::check_path(&path) {
            return Err(format!(
                "{}: touches {:?} outside the repository ({why})",
                file.display(),
                String::from_utf8_lossy(&path)
            ));
        }
    }
    Ok(())
}

/// One step to import: where its files are and what it produces.
struct StepPlan {
    /// The step name (`implement` / `follow_on`).
    name: &'static str,
    /// Trial-relative directory of its `artifacts/` and `verifier/`.
    dir: PathBuf,
    /// The prediction file it feeds (`pr1` / `pr2`).
    stage: &'static str,
}

fn plans(cond: HarborCondition) -> Vec<StepPlan> {
    match cond {
        HarborCondition::Implementation => vec![StepPlan {
            name: "implement",
            dir: PathBuf::new(),
            stage: "pr1",
        }],
        // PR2 alone (`model.patch`, against the PR1 the task started on).
        HarborCondition::FollowOnHuman | HarborCondition::FollowOnAgent => vec![StepPlan {
            name: "follow_on",
            dir: PathBuf::new(),
            stage: "pr2",
        }],
        HarborCondition::Chain => vec![
            StepPlan {
                name: "implement",
                dir: PathBuf::from("steps/implement"),
                stage: "pr1",
            },
            StepPlan {
                name: "follow_on",
                dir: PathBuf::from("steps/follow_on"),
                stage: "pr2",
            },
        ],
    }
}

/// The accumulated outputs.
#[derive(Default)]
struct Outputs {
    /// `(condition, stage)` -> predictions by instance.
    preds: BTreeMap<(String, &'static str), BTreeMap<String, PatchPrediction>>,
    /// The verifier's report files.
    reports: Vec<ReportFile>,
}

/// One verifier file of a trial's step.
struct ReportFile {
    cond: HarborCondition,
    step: &'static str,
    id: String,
    /// The prediction's model name (the trial's agent and model).
    model: String,
    file: &'static str,
    bytes: Vec<u8>,
}

/// Read one trial directory into outcomes (and outputs).
fn import_trial(
    job: &Path,
    name: &str,
    model: Option<&str>,
    limit: SourceLimits,
    seen: &mut BTreeMap<String, String>,
    outs: &mut Outputs,
) -> Vec<TrialOutcome> {
    let mut base = TrialOutcome {
        trial: name.to_string(),
        instance_id: None,
        condition: None,
        step: None,
        outcome: "error".into(),
        rewards: BTreeMap::new(),
        imported_diff: false,
        message: None,
    };
    let fail = |mut o: TrialOutcome, m: String| {
        o.message = Some(m);
        vec![o]
    };
    let trial = job.join(name);
    let result_path = trial.join("result.json");
    let bytes = match read_in(job, &Path::new(name).join("result.json"), limit) {
        Ok(Some(b)) => b,
        Ok(None) => return fail(base, format!("{}: missing", result_path.display())),
        Err(e) => return fail(base, e),
    };
    let result: Value = match serde_json::from_slice(&bytes) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => {
            return fail(
                base,
                format!("{}: not a JSON object", result_path.display()),
            )
        }
        Err(e) => {
            return fail(
                base,
                format!("{}: invalid JSON: {e}", result_path.display()),
            )
        }
    };
    let Some(task_name) = result.get("task_name").and_then(Value::as_str) else {
        return fail(base, format!("{}: no `task_name`", result_path.display()));
    };
    let Some((id, cond)) = parse_task_name(task_name) else {
        return fail(
            base,
            format!(
                "{}: task {task_name:?} is not a codethread task (codethread/<id>.<condition>)",
                result_path.display()
            ),
        );
    };
    // The id names the files the import writes (`reports/<model>/<id>/`,
    // predictions keyed by it): the one id rule of every loader.
    if let Some(why) = codethread_bench::ids::id_problem(&id) {
        base.instance_id = Some(codethread_bench::ids::label(&id));
        return fail(
            base,
            format!(
                "{}: task {:?}: instance id cannot name a file: {why}",
                result_path.display(),
                codethread_bench::ids::label(task_name)
            ),
        );
    }
    base.instance_id = Some(id.clone());
    base.condition = Some(cond.name().to_string());
    let key = format!("{}/{id}", cond.name());
    if let Some(first) = seen.get(&key) {
        base.outcome = "extra_attempt".into();
        return fail(
            base,
            format!("another trial of {task_name} ({first}) is in the predictions"),
        );
    }
    seen.insert(key, name.to_string());
    let model_name = model.map(str::to_string).unwrap_or_else(|| {
        let agent = result
            .pointer("/agent_info/name")
            .and_then(Value::as_str)
            .unwrap_or("harbor");
        match result
            .pointer("/agent_info/model_info/name")
            .and_then(Value::as_str)
        {
            Some(m) => format!("{agent}/{m}"),
            None => agent.to_string(),
        }
    });
    let trial_exception = exception_of(&result);
    let step_results: Option<&Vec<Value>> = result.get("step_results").and_then(Value::as_array);
    let mut out = Vec::new();
    for plan in plans(cond) {
        let mut o = base.clone();
        o.step = Some(plan.name.to_string());
        let step_value: Option<&Value> = if cond == HarborCondition::Chain {
            let found = step_results.and_then(|s| {
                s.iter()
                    .find(|v| v.get("step_name").and_then(Value::as_str) == Some(plan.name))
            });
            match found {
                Some(v) => Some(v),
                None => {
                    o.outcome = "not_run".into();
                    o.message = Some(format!(
                        "{}: no result for step {} (an earlier step stopped the chain{})",
                        result_path.display(),
                        plan.name,
                        trial_exception
                            .as_deref()
                            .map(|e| format!("; trial exception {e}"))
                            .unwrap_or_default()
                    ));
                    out.push(o);
                    continue;
                }
            }
        } else {
            Some(&result)
        };
        let exception = step_value
            .and_then(exception_of)
            .or_else(|| trial_exception.clone());
        let rewards = rewards_of(step_value.and_then(|v| v.get("verifier_result")));
        // Each step's model.patch is relative to the state the step started
        // from (the second step's: PR2 alone; its stack.patch is what the
        // verifier graded), as `chain stack` takes PR1 and PR2.
        let patch_name = MODEL_PATCH;
        let rel_patch = Path::new(name)
            .join(&plan.dir)
            .join("artifacts/logs/artifacts")
            .join(patch_name);
        let diff = read_in(job, &rel_patch, limit);
        let mut problems: Vec<String> = Vec::new();
        match diff {
            Err(e) => {
                o.outcome = "error".into();
                problems.push(e);
            }
            Ok(None) => {
                o.outcome = "no_diff".into();
                problems.push(format!("{}: missing", job.join(&rel_patch).display()));
            }
            Ok(Some(patch)) => match check_diff(&job.join(&rel_patch), &patch) {
                Err(e) => {
                    o.outcome = "error".into();
                    problems.push(e);
                }
                Ok(()) => {
                    o.imported_diff = true;
                    outs.preds
                        .entry((cond.name().to_string(), plan.stage))
                        .or_default()
                        .insert(
                            id.clone(),
                            PatchPrediction {
                                instance_id: id.clone(),
                                model_name_or_path: model_name.clone(),
                                model_patch: patch,
                            },
                        );
                }
            },
        }
        match &rewards {
            Some(r) => o.rewards = r.clone(),
            None => {
                if o.imported_diff {
                    o.outcome = "no_reward".into();
                }
                problems.push(format!(
                    "{}: no verifier rewards{}",
                    result_path.display(),
                    if plan.dir.as_os_str().is_empty() {
                        String::new()
                    } else {
                        format!(" for step {}", plan.name)
                    }
                ));
            }
        }
        if let Some(e) = &exception {
            if o.imported_diff && rewards.is_some() {
                o.outcome = "exception".into();
            }
            problems.push(format!("exception {e}"));
        }
        if o.imported_diff && rewards.is_some() && exception.is_none() {
            o.outcome = "graded".into();
        }
        // The verifier's report files, as the harness lays them out. One
        // that is there but cannot be imported leaves the step without the
        // evidence its reward came from: `report_refused`, never `graded`.
        let mut refused = false;
        for file in ["report.json", "run_instance.log"] {
            let rel = Path::new(name).join(&plan.dir).join("verifier").join(file);
            match read_in(job, &rel, limit) {
                Ok(Some(b)) => {
                    if file == "report.json" {
                        match codethread_bench::parse_report_bytes(&job.join(&rel), &b) {
                            Ok(r) if r.iter().all(|r| r.instance_id == id) => {}
                            Ok(_) => {
                                refused = true;
                                problems.push(format!(
                                    "{}: reports another instance, not imported",
                                    job.join(&rel).display()
                                ));
                                continue;
                            }
                            Err(e) => {
                                refused = true;
                                problems.push(format!("{e} (not imported)"));
                                continue;
                            }
                        }
                    }
                    outs.reports.push(ReportFile {
                        cond,
                        step: plan.name,
                        id: id.clone(),
                        model: model_name.clone(),
                        file,
                        bytes: b,
                    });
                }
                Ok(None) => {}
                Err(e) => {
                    refused = true;
                    problems.push(format!("{e} (not imported)"));
                }
            }
        }
        if refused && o.outcome == "graded" {
            o.outcome = "report_refused".into();
        }
        if !problems.is_empty() {
            o.message = Some(problems.join("; "));
        }
        out.push(o);
    }
    out
}

/// The directory below the import's output that `reproduce` reads
/// (`--agents OUT/reproduce/agents --reports OUT/reproduce/reports`).
pub const REPRODUCE_DIR: &str = "reproduce";

/// The model directory of a step's reports in `<condition>/reports/<step>/`: the name the
/// SWE-bench harness gives the graded predictions' log directory, so `chain gate` and
/// `chain stack` select them as they select the harness's own. The implementation step
/// graded the stack `chain gate` looks for, `<model>__PR1`
/// ([`codethread_chain::stack_model_name`] of the human-PR1 slot); the other steps carry the
/// predictions' model. `/` is written `__` (the harness's rule); a name the id rule refuses
/// as a path component falls back to [`model_dir_name`].
pub fn report_model_dir(model: &str, step: &str) -> String {
    let graded = if step == "implement" {
        codethread_chain::stack_model_name(model, &[codethread_chain::Layer::HumanPr1])
    } else {
        model.to_string()
    };
    let name = codethread_bench::ReportFilter::model_dir_name(&graded);
    // One path component by the id rule every loader applies (codethread-bench's `ids`).
    if codethread_bench::ids::id_problem(&name).is_none() {
        name
    } else {
        model_dir_name(&graded)
    }
}

/// A model name as a directory name: `/` becomes `__`, every byte outside
/// `[A-Za-z0-9._-]` `_`; an empty name, `.` or `..` becomes `model`.
pub fn model_dir_name(model: &str) -> String {
    let s: String = model
        .replace('/', "__")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.as_str() {
        "" | "." | ".." => "model".to_string(),
        _ => s,
    }
}

/// Per reproduce step (`pr1`, `pr2_HA`, `pr2_AA`), the condition and step
/// of the trials an instance's output comes from. PR1 and the AA PR2 come
/// from one agent session: the two-step `chain` task when the job has one
/// for the instance, else the `implementation` task's PR1 with the
/// `follow_on_agent` task's PR2 (the fresh-session PR2 on that PR1); the HA
/// PR2 is `follow_on_human`'s.
fn reproduce_sources(
    outs: &Outputs,
    id: &str,
) -> [(&'static str, HarborCondition, &'static str, &'static str); 3] {
    let from_chain = outs
        .preds
        .get(&(HarborCondition::Chain.name().to_string(), "pr1"))
        .is_some_and(|m| m.contains_key(id))
        || outs
            .reports
            .iter()
            .any(|r| r.cond == HarborCondition::Chain && r.id == id);
    let (pr1, aa) = if from_chain {
        (HarborCondition::Chain, HarborCondition::Chain)
    } else {
        (
            HarborCondition::Implementation,
            HarborCondition::FollowOnAgent,
        )
    };
    [
        ("pr1", pr1, "pr1", "implement"),
        ("pr2_HA", HarborCondition::FollowOnHuman, "pr2", "follow_on"),
        ("pr2_AA", aa, "pr2", "follow_on"),
    ]
}

/// Predictions files `(model dir, step) -> rows` and report files
/// `(model dir, step, file)` of the reproduce layout (see [`REPRODUCE_DIR`]).
#[allow(clippy::type_complexity)]
fn reproduce_layout(
    outs: &Outputs,
) -> (
    BTreeMap<(String, &'static str), Vec<&PatchPrediction>>,
    Vec<(String, &'static str, &ReportFile)>,
) {
    let mut ids: Vec<&str> = outs
        .preds
        .values()
        .flat_map(|m| m.keys().map(String::as_str))
        .chain(outs.reports.iter().map(|r| r.id.as_str()))
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let mut agents: BTreeMap<(String, &'static str), Vec<&PatchPrediction>> = BTreeMap::new();
    let mut reports = Vec::new();
    for id in ids {
        for (step, cond, stage, trial_step) in reproduce_sources(outs, id) {
            if let Some(p) = outs
                .preds
                .get(&(cond.name().to_string(), stage))
                .and_then(|m| m.get(id))
            {
                agents
                    .entry((model_dir_name(&p.model_name_or_path), step))
                    .or_default()
                    .push(p);
            }
            for r in outs
                .reports
                .iter()
                .filter(|r| r.cond == cond && r.step == trial_step && r.id == id)
            {
                reports.push((model_dir_name(&r.model), step, r));
            }
        }
    }
    (agents, reports)
}

/// Import every trial of the Harbor job at `job` into `out` (layout in the
/// module docs). `model` names the predictions (default: the trial's
/// `agent_info`, `<agent>/<model>`). Each trial directory is read without
/// following links, each file under the crate's size limit; a trial that
/// cannot be read is an outcome (`error`) naming the file, the others are
/// imported. Only an unreadable `job` itself is an `Err`.
pub fn import_harbor_job(
    job: &Path,
    out: &Path,
    model: Option<&str>,
    limits: SourceLimits,
) -> Result<HarborImport, ScaffoldError> {
    let limit = limits;
    let mut names = Vec::new();
    let mut res = HarborImport::default();
    for e in std::fs::read_dir(job).map_err(|e| ScaffoldError::io(job, e))? {
        let e = e.map_err(|e| ScaffoldError::io(job, e))?;
        let ft = e
            .file_type()
            .map_err(|err| ScaffoldError::io(e.path(), err))?;
        // Harbor names trials in ASCII; a name that is not UTF-8 is named as
        // an error, never read under a lossy name that points elsewhere.
        let name = match e.file_name().into_string() {
            Ok(n) => n,
            Err(os) => {
                res.outcomes.push(TrialOutcome {
                    trial: codethread_lang::bytes_label(os.as_encoded_bytes()),
                    instance_id: None,
                    condition: None,
                    step: None,
                    outcome: "error".into(),
                    rewards: BTreeMap::new(),
                    imported_diff: false,
                    message: Some(format!(
                        "{}: trial directory name is not UTF-8, not read",
                        e.path().display()
                    )),
                });
                continue;
            }
        };
        if ft.is_symlink() {
            res.outcomes.push(TrialOutcome {
                trial: name.clone(),
                instance_id: None,
                condition: None,
                step: None,
                outcome: "error".into(),
                rewards: BTreeMap::new(),
                imported_diff: false,
                message: Some(format!(
                    "{}: trial directory is a symbolic link, not followed",
                    e.path().display()
                )),
            });
        } else if ft.is_dir() {
            names.push(name);
        }
    }
    names.sort();
    let mut seen = BTreeMap::new();
    let mut outs = Outputs::default();
    for name in &names {
        // A job's own subdirectories without result.json and no trial
        // layout are not trials.
        let has_result = job.join(name).join("result.json").exists()
            || std::fs::symlink_metadata(job.join(name).join("result.json")).is_ok();
        let looks_like_trial = has_result
            || job.join(name).join("config.json").exists()
            || job.join(name).join("trial.log").exists();
        if !looks_like_trial {
            continue;
        }
        res.outcomes
            .extend(import_trial(job, name, model, limit, &mut seen, &mut outs));
    }
    res.outcomes.sort_by(|a, b| a.trial.cmp(&b.trial));
    for ((cond, stage), preds) in &outs.preds {
        let rows: Vec<&PatchPrediction> = preds.values().collect();
        let rel = PathBuf::from(cond).join(format!("{stage}.jsonl"));
        write_in(out, &rel, codethread_bench::to_jsonl(&rows).as_bytes())?;
        res.written.push(rel);
    }
    for r in &outs.reports {
        let rel = PathBuf::from(r.cond.name())
            .join("reports")
            .join(r.step)
            .join(report_model_dir(&r.model, r.step))
            .join(&r.id)
            .join(r.file);
        write_in(out, &rel, &r.bytes)?;
        res.written.push(rel);
    }
    let (agents, reports) = reproduce_layout(&outs);
    for ((model, step), rows) in &agents {
        let rel = Path::new(REPRODUCE_DIR)
            .join("agents")
            .join(model)
            .join(format!("{step}.jsonl"));
        write_in(out, &rel, codethread_bench::to_jsonl(rows).as_bytes())?;
        res.written.push(rel);
    }
    for (model, step, r) in reports {
        let rel = Path::new(REPRODUCE_DIR)
            .join("reports")
            .join(model)
            .join(step)
            .join(&r.id)
            .join(r.file);
        write_in(out, &rel, &r.bytes)?;
        res.written.push(rel);
    }
    let rel = PathBuf::from("outcomes.jsonl");
    write_in(
        out,
        &rel,
        codethread_bench::to_jsonl(&res.outcomes).as_bytes(),
    )?;
    res.written.push(rel);
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The implementation step's reports sit under the name `chain gate` selects
    /// (`ReportFilter::model_dir_name` of `<model>__PR1`); a name the id rule refuses falls back
    /// to the sanitized one.
    #[test]
    fn report_model_dirs_are_the_gates() {
        assert_eq!(report_model_dir("oracle", "implement"), "oracle__PR1");
        assert_eq!(
            report_model_dir("claude-code/anthropic/x", "implement"),
            "claude-code__anthropic__x__PR1"
        );
        assert_eq!(report_model_dir("a/b", "follow_on"), "a__b");
        assert_eq!(report_model_dir("a\u{7}b", "follow_on"), "a_b");
        assert_eq!(report_model_dir("", "follow_on"), "model");
    }

    #[test]
    fn task_names_round_trip() {
        for c in HarborCondition::EVERY {
            let n = super::super::export::task_name("o__r-1.2", c);
            assert_eq!(parse_task_name(&n), Some(("o__r-1.2".to_string(), c)));
        }
        assert_eq!(parse_task_name("other/x.implementation"), None);
        assert_eq!(parse_task_name("codethread/x.hh"), None);
    }

    #[test]
    fn diffs_outside_the_repository_are_refused() {
        let bad = b"diff --git a/../x b/../x\n--- a/../x\n+++ b/../x\n@@ -1 +1 @@\n-a\n+b\n";
        let e = check_diff(Path::new("m.patch"), bad).expect_err("outside");
        assert!(e.contains("m.patch") && e.contains(".."), "{e}");
        let good = b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        check_diff(Path::new("m.patch"), good).expect("inside");
        check_diff(Path::new("m.patch"), b"").expect("empty");
    }

    /// A job directory of implementation trials written by hand: each
    /// trial's `result.json`, its diff and a verifier `report.json` for
    /// `report_for` (or none).
    fn trial(job: &Path, name: &str, task: &str, report: Option<&[u8]>) {
        let dir = job.join(name);
        std::fs::create_dir_all(dir.join("artifacts/logs/artifacts")).expect("mkdir");
        std::fs::create_dir_all(dir.join("verifier")).expect("mkdir");
        let result = serde_json::json!({
            "task_name": task,
            "agent_info": {"name": "oracle"},
            "verifier_result": {"rewards": {"reward": 1.0}},
        });
        std::fs::write(dir.join("result.json"), result.to_string()).expect("write");
        std::fs::write(
            dir.join("artifacts/logs/artifacts/model.patch"),
            b"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
        )
        .expect("write");
        if let Some(r) = report {
            std::fs::write(dir.join("verifier/report.json"), r).expect("write");
        }
    }

    fn report(id: &str) -> Vec<u8> {
        serde_json::json!({id: {"patch_is_None": false, "patch_exists": true,
            "patch_successfully_applied": true, "resolved": false,
            "tests_status": {"FAIL_TO_PASS": {"success": [], "failure": ["t"]},
                "PASS_TO_PASS": {"success": ["u"], "failure": []}}}})
        .to_string()
        .into_bytes()
    }

    /// Issue 31: task names whose id breaks the id rule are that trial's
    /// error (never a path the import writes, never the whole import lost);
    /// a verifier report that is there but cannot be imported makes the
    /// trial `report_refused`, named, never `graded`.
    #[test]
    fn hostile_ids_and_refused_reports_are_named_per_trial() {
        let d = std::env::temp_dir().join(format!("ct-harbor-hostile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let job = d.join("job");
        trial(
            &job,
            "good",
            "codethread/o__r-1.implementation",
            Some(&report("o__r-1")),
        );
        let long = "x".repeat(300);
        let hostile = [
            "..".to_string(),
            "/abs".to_string(),
            "a/b".to_string(),
            String::new(),
            ".".to_string(),
            "nul\u{0}id".to_string(),
            long,
        ];
        for (i, id) in hostile.iter().enumerate() {
            trial(
                &job,
                &format!("h{i}"),
                &format!("codethread/{id}.implementation"),
                None,
            );
        }
        trial(
            &job,
            "other",
            "codethread/o__r-2.implementation",
            Some(&report("o__r-9")),
        );
        trial(
            &job,
            "invalid",
            "codethread/o__r-3.implementation",
            Some(b"{not json"),
        );
        trial(
            &job,
            "big",
            "codethread/o__r-4.implementation",
            Some(&vec![b' '; 5000]),
        );
        trial(&job, "link", "codethread/o__r-5.implementation", None);
        std::os::unix::fs::symlink(
            d.join("elsewhere.json"),
            job.join("link/verifier/report.json"),
        )
        .expect("link");
        let out = d.join("out");
        let limits = SourceLimits::with_max_file_bytes(4096);
        let r = import_harbor_job(&job, &out, None, limits).expect("import");
        let by: BTreeMap<&str, &TrialOutcome> =
            r.outcomes.iter().map(|o| (o.trial.as_str(), o)).collect();
        assert_eq!(by["good"].outcome, "graded", "{:?}", by["good"]);
        for i in 0..hostile.len() {
            let o = by[format!("h{i}").as_str()];
            assert_eq!(o.outcome, "error", "{o:?}");
            assert!(!o.imported_diff, "{o:?}");
            let m = o.message.as_deref().unwrap_or_default();
            assert!(m.contains("instance id cannot name a file"), "{m}");
            assert!(!m.contains('\0'), "{m:?}");
        }
        for t in ["other", "invalid", "big", "link"] {
            let o = by[t];
            assert_eq!(o.outcome, "report_refused", "{o:?}");
            assert!(
                o.message
                    .as_deref()
                    .unwrap_or_default()
                    .contains("report.json"),
                "{o:?}"
            );
        }
        assert_eq!(r.problems().count(), hostile.len() + 4);
        // Nothing was written outside the output directory or at a shared path.
        assert!(!d.join("abs").exists());
        let mut written: Vec<String> = r
            .written
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        written.sort();
        for w in &written {
            assert!(!w.contains(".."), "{w}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
