//! The batch drivers behind the `chain` example: `build` (instances ->
//! chain directory), `gate` (PR1 predictions + harness reports -> kept /
//! dropped) and `stack` (PR1 [+ PR2 ...] predictions -> one combined
//! prediction per instance, graded by the unmodified harness).
//!
//! Every driver returns one outcome per instance: a bad instance never stops
//! the batch. Every file is written atomically below the chain directory,
//! never through a planted link (`codethread_lang::io::write_atomic_in`); `build` skips
//! instances whose `status.json` exists (finished in an earlier run) after
//! checking that their files are still readable, and rebuilds them when
//! they are not.
//!
//! Chain directory layout (see `docs/chain.md`):
//! ```text
//! <out>/instances.jsonl                 normalized instances of the build
//! <out>/instances/<id>/targets.json     targets, negative case, notes
//! <out>/instances/<id>/pr0.patch        PR0 (stubs) against base_commit
//! <out>/instances/<id>/pr0_sealed.patch PR0 sealed: forward-only literals, no original line
//! <out>/instances/<id>/pr1_human.patch  the human PR1 = reverse of PR0
//! <out>/instances/<id>/task.md          Implementation Task statement
//! <out>/instances/<id>/llm_request.json chat request for a statement writer
//! <out>/instances/<id>/answer.md        the imported answer of task.md (if any)
//! <out>/instances/<id>/status.json      written last: built / filtered / failed
//! <out>/targets.jsonl                   {"instance_id","targets","negative_case"}
//! <out>/llm_requests.jsonl              one chat request per built instance
//! <out>/exports/implementation_task.jsonl  SWE-bench dataset, PR0 as setup patch
//! <out>/exports/follow_on_human_pr1.jsonl  SWE-bench dataset, on the human PR1
//! <out>/exports/init_patches_implementation.json  {id: PR0}
//! <out>/exports/predictions_HH.jsonl    PR0 + human PR1 + gold, combined
//! <out>/exports/pro_raw_sample.jsonl    SWE-bench Pro instances: the rows Pro's evaluator reads
//! <out>/exports/mini-swe-agent/{implementation,follow_on_human_pr1}/
//!     subset/test.jsonl, setup_patches/<id>.patch   (`mini-extra swebench --subset .../subset --split test`)
//!     environments/<id>/{Dockerfile,setup.sh,setup.patch}, build_images.sh,
//!     images_subset/test.jsonl  (per-instance images holding the setup state)
//! <out>/summary.json                    counts and per-instance status
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::fsutil::{read, read_opt, write_in};
use codethread_bench::carry::{patch_value, put_bytes};
use codethread_bench::to_jsonl;
use codethread_bench::{
    check_harness_row, predictions_by_id, swebench_row, HarnessGeneration, Instance,
    InstanceReport, PatchPrediction, Prediction,
};

use crate::error::ChainError;
use crate::gate::{gate_one, GateDecision, GateReason};
use crate::pr0::{make_pr0_from, Pr0Options};
use crate::rows::{follow_on_row, implementation_task_row};
use crate::source::SourceReader;
use crate::stack::{base_files, compose_on, reverse_on};
use crate::statement::{llm_request, offline_statement, statement_from_answer};
use crate::targets::localize_instance;
use codethread_lang::io::SourceLimits;

/// The filter reason of an instance whose every target was refused for a
/// stub known not to compile ([`ChainError::NoCompilingStub`]).
pub const NO_COMPILING_STUB: &str = "no_compiling_stub";

/// How one instance fared in `build`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum BuildStatus {
    /// PR0, statement and request written.
    Built {
        /// Target ids.
        targets: Vec<String>,
        /// Targets that could not be stubbed, with the reason.
        #[serde(default)]
        not_stubbed: Vec<(String, String)>,
        /// Statement warnings (imported answers).
        #[serde(default)]
        statement_warnings: Vec<String>,
        /// Warnings of the stubs written (`path::function: code: text`),
        /// from [`crate::pr0::Pr0::warnings`]; also in the build summary and on
        /// stderr, never silent.
        #[serde(default)]
        skeleton_warnings: Vec<String>,
        /// `offline` or `imported`.
        statement: String,
    },
    /// No targets: the negative case.
    Filtered {
        /// `adds_new_functions_only`, ...
        reason: String,
    },
    /// Something went wrong (the message names the instance and the cause).
    Failed {
        /// The error.
        error: String,
    },
}

/// One instance's outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InstanceOutcome {
    /// The instance.
    pub instance_id: String,
    /// Its status.
    #[serde(flatten)]
    pub status: BuildStatus,
    /// True when the status was read from an earlier run.
    #[serde(default, skip_serializing)]
    pub cached: bool,
}

/// Options of [`build`].
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct BuildOptions {
    /// The chain directory.
    pub out: PathBuf,
    /// PR0 options.
    pub pr0: Pr0Options,
    /// Model answers by instance id (imported statements); instances without
    /// one get the offline statement.
    pub answers: BTreeMap<String, String>,
    /// Rebuild instances that already have a `status.json`.
    pub force: bool,
    /// Harness generations the exports must be gradable by: an instance
    /// whose row lacks a field one of them needs fails, naming the field
    /// (`export::check_harness_row`). Empty: no check.
    pub harness: Vec<HarnessGeneration>,
    /// The limits every file the build reads back is read under.
    pub limits: SourceLimits,
}

impl BuildOptions {
    /// Sets [`BuildOptions::out`].
    pub fn out(mut self, out: PathBuf) -> Self {
        self.out = out;
        self
    }

    /// Sets [`BuildOptions::pr0`].
    pub fn pr0(mut self, pr0: Pr0Options) -> Self {
        self.pr0 = pr0;
        self
    }

    /// Sets [`BuildOptions::answers`].
    pub fn answers(mut self, answers: BTreeMap<String, String>) -> Self {
        self.answers = answers;
        self
    }

    /// Sets [`BuildOptions::force`].
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// Sets [`BuildOptions::harness`].
    pub fn harness(mut self, harness: Vec<HarnessGeneration>) -> Self {
        self.harness = harness;
        self
    }

    /// Sets [`BuildOptions::limits`].
    pub fn limits(mut self, limits: SourceLimits) -> Self {
        self.limits = limits;
        self
    }
}

/// The outcome of [`build`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct BuildSummary {
    /// One per input instance, in input order.
    pub outcomes: Vec<InstanceOutcome>,
    /// Built instances.
    pub built: usize,
    /// Filtered (negative case) instances.
    pub filtered: usize,
    /// Failed instances.
    pub failed: usize,
    /// Instances skipped because an earlier run finished them.
    pub cached: usize,
    /// Instances an earlier run finished whose files were damaged (missing,
    /// unreadable, not JSON) or whose imported answer changed, rebuilt in
    /// this run: `(instance id, why)`.
    pub rebuilt: Vec<(String, String)>,
    /// Answers imported into statements in this run.
    pub answers_imported: usize,
    /// Ids of given answers that match no instance of the build.
    pub unused_answers: Vec<String>,
    /// Per-instance warnings (e.g. a patch that is not UTF-8, carried in a
    /// `*_b64` field of the exports), each naming the instance.
    pub warnings: Vec<String>,
}

/// Run one instance's work; a panic in any stage (a bug, never expected)
/// becomes that instance's error instead of ending the batch.
fn guard<T>(instance_id: &str, f: impl FnOnce() -> Result<T, ChainError>) -> Result<T, ChainError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(ChainError::Panic {
                instance_id: instance_id.to_string(),
                message: msg,
            })
        }
    }
}

fn instance_dir(out: &Path, id: &str) -> PathBuf {
    out.join("instances").join(id)
}

/// `instances/<id>/<name>`, relative to the chain directory.
fn rel(id: &str, name: &str) -> PathBuf {
    Path::new("instances").join(id).join(name)
}

fn json_bytes(v: &impl Serialize) -> Vec<u8> {
    format!("{:#}\n", serde_json::to_value(v).unwrap_or(Value::Null)).into_bytes()
}

/// Write rows as JSONL at `out/rel`, atomically, no link followed.
fn write_jsonl_in<T: Serialize>(out: &Path, rel: &str, rows: &[T]) -> Result<(), ChainError> {
    write_in(out, Path::new(rel), to_jsonl(rows).as_bytes()).map(|_| ())
}

/// The files of a built instance its exports are made of, read back (so a
/// damaged instance is found before the exports are written).
#[derive(Debug)]
struct BuiltFiles {
    pr0: Vec<u8>,
    pr1: Vec<u8>,
    task: Vec<u8>,
    request: Value,
}

/// The file of an instance directory holding PR0 sealed
/// ([`crate::stack::seal_on`]): what the agent-side setup applies.
pub const PR0_SEALED_FILE: &str = "pr0_sealed.patch";

fn read_built(out: &Path, id: &str, limits: SourceLimits) -> Result<BuiltFiles, ChainError> {
    let dir = instance_dir(out, id);
    let req_path = dir.join("llm_request.json");
    // The sealed PR0 is what agent-side exports set up from: it must be
    // readable too, or the instance is rebuilt.
    read(&dir.join(PR0_SEALED_FILE), limits)?;
    let request = serde_json::from_slice(&read(&req_path, limits)?)
        .map_err(|e| crate::fsutil::json_error(&req_path, &e))?;
    Ok(BuiltFiles {
        pr0: read(&dir.join("pr0.patch"), limits)?,
        pr1: read(&dir.join("pr1_human.patch"), limits)?,
        task: read(&dir.join("task.md"), limits)?,
        request,
    })
}

/// Why a finished instance must be built again for this run (`None`: the
/// cached outcome stands): an answer to import that is not the one its
/// statement was made from.
fn stale_reason(
    out: &Path,
    o: &InstanceOutcome,
    answer: Option<&String>,
    limits: SourceLimits,
) -> Option<String> {
    let a = answer?;
    let imported =
        matches!(&o.status, BuildStatus::Built { statement, .. } if statement == "imported");
    let same = read_opt(&instance_dir(out, &o.instance_id).join("answer.md"), limits)
        .ok()
        .flatten()
        .is_some_and(|b| b == a.as_bytes());
    (matches!(o.status, BuildStatus::Built { .. }) && !(imported && same))
        .then(|| "a new answer to import: statement re-rendered".to_string())
}

fn build_one(
    inst: &Instance,
    source: &mut dyn SourceReader,
    opts: &BuildOptions,
) -> Result<BuildStatus, ChainError> {
    let id = inst.instance_id.as_str();
    let out = opts.out.as_path();
    if !opts.harness.is_empty() {
        let row = swebench_row(inst);
        for g in &opts.harness {
            check_harness_row(&row, *g)?;
        }
    }
    let (mut loc, images) = crate::targets::localize_kept(inst, source)?;
    crate::targets::drop_non_targets(&mut loc, &images);
    let mut targets_json = serde_json::to_value(&loc).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut targets_json {
        m.insert("target_ids".into(), Value::from(loc.target_ids()));
    }
    write_in(out, &rel(id, "targets.json"), &json_bytes(&targets_json))?;
    if let Some(neg) = loc.negative_case {
        return Ok(BuildStatus::Filtered {
            reason: neg.as_str().to_string(),
        });
    }
    let pr0 = match make_pr0_from(&loc, &opts.pr0, &images) {
        Err(ChainError::NoCompilingStub { .. }) => {
            return Ok(BuildStatus::Filtered {
                reason: NO_COMPILING_STUB.to_string(),
            })
        }
        r => r?,
    };
    crate::stack::check_roundtrip(&inst.instance_id, &loc.before, &pr0.patch)?;
    let pr1 = reverse_on(&inst.instance_id, &loc.before, &pr0.patch)?;
    let pr0_sealed = crate::stack::seal_on(&inst.instance_id, &loc.before, &pr0.patch)?;
    let ctx = crate::statement::task_context(inst, &loc, &pr0);
    let (statement, kind, warnings) = match opts.answers.get(&inst.instance_id) {
        Some(a) => {
            let s = statement_from_answer(&ctx, a);
            // Sections per function and leaks (`llm::check`), flagged per
            // instance in `statement_warnings`.
            let mut w: Vec<String> = s
                .warnings
                .into_iter()
                .filter(|w| w == "code_block_removed")
                .collect();
            w.extend(
                crate::check::check_statement(
                    &ctx,
                    &s.statement,
                    inst.patch.as_bytes(),
                    &crate::check::CheckConfig::default(),
                )
                .iter()
                .map(ToString::to_string),
            );
            (s.statement, "imported", w)
        }
        None => (offline_statement(&ctx), "offline", Vec::new()),
    };
    let req = llm_request(&ctx);
    write_in(out, &rel(id, "pr0.patch"), &pr0.patch)?;
    write_in(out, &rel(id, PR0_SEALED_FILE), &pr0_sealed)?;
    write_in(out, &rel(id, "pr1_human.patch"), &pr1)?;
    write_in(out, &rel(id, "task.md"), statement.as_bytes())?;
    write_in(out, &rel(id, "llm_request.json"), &json_bytes(&req))?;
    // The answer the statement was made from: a re-run with another answer
    // re-renders it.
    let answer_path = rel(id, "answer.md");
    match opts.answers.get(id) {
        Some(a) => {
            write_in(out, &answer_path, a.as_bytes())?;
        }
        None => crate::fsutil::remove_in(out, &answer_path),
    }
    Ok(BuildStatus::Built {
        targets: loc.target_ids(),
        not_stubbed: pr0
            .not_stubbed
            .iter()
            .map(|(id, why)| (id.clone(), why.to_string()))
            .collect(),
        statement_warnings: warnings,
        skeleton_warnings: pr0.warnings,
        statement: kind.to_string(),
    })
}

/// Build a chain directory from `instances`. `progress(done, total, id)` is
/// called after each instance.
///
/// Re-runs: an instance with a `status.json` is taken from the earlier run
/// when its files (`pr0.patch`, `pr1_human.patch`, `task.md`,
/// `llm_request.json`) are still readable and no new answer is given for
/// it; otherwise it is rebuilt (listed in [`BuildSummary::rebuilt`]). An
/// instance whose files cannot be written or read back is `failed` with the
/// error naming the file; the others are exported.
pub fn build(
    instances: &[Instance],
    source: &mut dyn SourceReader,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<BuildSummary, ChainError> {
    let out = opts.out.as_path();
    std::fs::create_dir_all(out).map_err(|e| ChainError::io(out, e))?;
    codethread_lang::io::remove_stale_temps(out);
    write_jsonl_in(out, "instances.jsonl", instances)?;
    let mut summary = BuildSummary::default();
    let mut files: Vec<Option<BuiltFiles>> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, inst) in instances.iter().enumerate() {
        let id = inst.instance_id.as_str();
        if !seen.insert(id) {
            // One directory per id: a second instance with the same id would
            // overwrite the first one's files and give two export rows.
            summary.outcomes.push(InstanceOutcome {
                instance_id: id.to_string(),
                status: BuildStatus::Failed {
                    error: format!(
                        "instance {id}: appears more than once in the instances of this build"
                    ),
                },
                cached: false,
            });
            summary.failed += 1;
            files.push(None);
            progress(i + 1, instances.len(), id);
            continue;
        }
        let status_path = instance_dir(out, id).join("status.json");
        let answer = opts.answers.get(id);
        let mut cached = if opts.force {
            None
        } else {
            read_opt(&status_path, opts.limits)
                .ok()
                .flatten()
                .and_then(|b| serde_json::from_slice::<InstanceOutcome>(&b).ok())
                .filter(|o| o.instance_id == id)
        };
        let mut built_files = None;
        if let Some(o) = &cached {
            if let Some(why) = stale_reason(out, o, answer, opts.limits) {
                summary.rebuilt.push((id.to_string(), why));
                cached = None;
            } else if matches!(o.status, BuildStatus::Built { .. }) {
                match read_built(out, id, opts.limits) {
                    Ok(f) => built_files = Some(f),
                    Err(e) => {
                        summary
                            .rebuilt
                            .push((id.to_string(), format!("damaged: {e}")));
                        cached = None;
                    }
                }
            }
        }
        let outcome = match cached {
            Some(mut o) => {
                o.cached = true;
                o
            }
            None => {
                let mut status = guard(id, || build_one(inst, source, opts)).unwrap_or_else(|e| {
                    BuildStatus::Failed {
                        error: e.to_string(),
                    }
                });
                if matches!(status, BuildStatus::Built { .. }) {
                    match read_built(out, id, opts.limits) {
                        Ok(f) => built_files = Some(f),
                        Err(e) => {
                            status = BuildStatus::Failed {
                                error: format!("instance {id}: {e}"),
                            }
                        }
                    }
                }
                let o = InstanceOutcome {
                    instance_id: id.to_string(),
                    status,
                    cached: false,
                };
                if matches!(o.status, BuildStatus::Failed { .. }) {
                    // Failed instances are retried on the next run: no status file.
                    crate::fsutil::remove_in(out, &rel(id, "status.json"));
                } else if let Err(e) = write_in(out, &rel(id, "status.json"), &json_bytes(&o)) {
                    summary.outcomes.push(InstanceOutcome {
                        status: BuildStatus::Failed {
                            error: format!("instance {id}: {e}"),
                        },
                        ..o
                    });
                    summary.failed += 1;
                    files.push(None);
                    progress(i + 1, instances.len(), id);
                    continue;
                }
                o
            }
        };
        match &outcome.status {
            BuildStatus::Built {
                statement,
                not_stubbed,
                skeleton_warnings,
                ..
            } => {
                summary.built += 1;
                for (t, why) in not_stubbed {
                    summary
                        .warnings
                        .push(format!("instance {id}: not stubbed: {t}: {why}"));
                }
                for w in skeleton_warnings {
                    summary
                        .warnings
                        .push(format!("instance {id}: skeleton: {w}"));
                }
                if !outcome.cached && statement == "imported" {
                    summary.answers_imported += 1;
                }
            }
            BuildStatus::Filtered { .. } => summary.filtered += 1,
            BuildStatus::Failed { .. } => summary.failed += 1,
        }
        summary.cached += usize::from(outcome.cached);
        summary.outcomes.push(outcome);
        files.push(built_files);
        progress(i + 1, instances.len(), id);
    }
    let known: std::collections::HashSet<&str> =
        instances.iter().map(|i| i.instance_id.as_str()).collect();
    summary.unused_answers = opts
        .answers
        .keys()
        .filter(|k| !known.contains(k.as_str()))
        .cloned()
        .collect();
    write_exports(instances, &mut summary, &files, out)?;
    Ok(summary)
}

fn write_exports(
    instances: &[Instance],
    summary: &mut BuildSummary,
    files: &[Option<BuiltFiles>],
    out: &Path,
) -> Result<(), ChainError> {
    let mut targets_rows = Vec::new();
    let mut requests = Vec::new();
    let mut impl_rows = Vec::new();
    let mut fo_rows = Vec::new();
    let mut init = serde_json::Map::new();
    let mut hh = Vec::new();
    let mut pro_rows = Vec::new();
    for ((inst, o), f) in instances.iter().zip(&summary.outcomes).zip(files) {
        let id = &inst.instance_id;
        match (&o.status, f) {
            (BuildStatus::Built { targets, .. }, Some(f)) => {
                targets_rows
                    .push(json!({"instance_id": id, "targets": targets, "negative_case": null}));
                let lossy = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
                let task = lossy(&f.task);
                let mut row =
                    implementation_task_row(inst, &lossy(&f.pr0), &lossy(&f.pr1), &task, targets);
                // Bytes that are not UTF-8 travel base64-encoded beside the text.
                for (field, bytes) in [
                    ("setup_patch", &f.pr0),
                    ("pr0_patch", &f.pr0),
                    ("pr1_human_patch", &f.pr1),
                ] {
                    if let Some(w) = put_bytes(&mut row, field, bytes) {
                        summary
                            .warnings
                            .push(format!("instance {id}: implementation_task.jsonl: {w}"));
                    }
                }
                requests.push(f.request.clone());
                impl_rows.push(row);
                fo_rows.push(follow_on_row(inst, "", "human"));
                let (v, w) = patch_value(&f.pr0);
                if let Some(w) = w {
                    summary.warnings.push(format!(
                        "instance {id}: init_patches_implementation.json: {w}"
                    ));
                }
                init.insert(id.clone(), v);
                if codethread_bench::Benchmark::of(inst) == codethread_bench::Benchmark::SweBenchPro
                {
                    pro_rows.push(Value::Object(codethread_bench::pro::raw_sample_row(
                        inst,
                        &inst.problem_statement,
                    )));
                }
                hh.push(Prediction {
                    instance_id: id.clone(),
                    model_name_or_path: "HH".into(),
                    model_patch: inst.patch.clone(),
                });
            }
            (BuildStatus::Filtered { reason }, _) => {
                targets_rows
                    .push(json!({"instance_id": id, "targets": [], "negative_case": reason}));
            }
            _ => {}
        }
    }
    write_jsonl_in(out, "targets.jsonl", &targets_rows)?;
    write_jsonl_in(out, "llm_requests.jsonl", &requests)?;
    write_jsonl_in(out, "exports/implementation_task.jsonl", &impl_rows)?;
    write_jsonl_in(out, "exports/follow_on_human_pr1.jsonl", &fo_rows)?;
    write_in(
        out,
        Path::new("exports/init_patches_implementation.json"),
        &json_bytes(&Value::Object(init)),
    )?;
    write_jsonl_in(out, "exports/predictions_HH.jsonl", &hh)?;
    if !pro_rows.is_empty() {
        write_jsonl_in(out, "exports/pro_raw_sample.jsonl", &pro_rows)?;
    }
    write_in(out, Path::new("summary.json"), &json_bytes(&*summary))?;
    Ok(())
}

/// A chain directory written by [`build`], read back.
#[derive(Debug)]
pub struct Chain {
    /// The directory.
    pub dir: PathBuf,
    /// Its instances (from `instances.jsonl`).
    pub instances: Vec<Instance>,
    /// The limits every file of the chain is read under.
    pub limits: SourceLimits,
}

impl Chain {
    /// Open a chain directory.
    ///
    /// `instances.jsonl` holds the instances as [`build`] normalized them
    /// (the [`Instance`] fields, upstream columns under `extra`); each line
    /// is read back as such, so the exports made from an opened chain carry
    /// the same top-level columns as `build`'s. A line that is not in that
    /// form (a chain directory written by hand) is read as a benchmark row.
    /// Every file of the chain is read under `limits`.
    pub fn open(dir: &Path, limits: SourceLimits) -> Result<Chain, ChainError> {
        let path = dir.join("instances.jsonl");
        let text = codethread_bench::records::decode_text(read(&path, limits)?);
        let mut instances = Vec::new();
        let mut rows = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<Instance>(line) {
                Ok(i) => instances.push(i),
                Err(_) => {
                    rows.push_str(line);
                    rows.push('\n');
                }
            }
        }
        if !rows.is_empty() {
            let l = codethread_bench::parse_instances(&path, &rows)?;
            if let Some(e) = l.errors.into_iter().next() {
                return Err(e.into());
            }
            instances.extend(l.items);
        }
        Ok(Chain {
            dir: dir.to_path_buf(),
            instances,
            limits,
        })
    }

    /// Whether the instance was built (its PR0 file exists); reads nothing.
    pub fn is_built(&self, id: &str) -> bool {
        instance_dir(&self.dir, id).join("pr0.patch").is_file()
    }

    /// Whether the instance was built, by its `status.json` (`built`) or
    /// its PR0 file: an instance whose PR0 was lost since is still one the
    /// batch drivers must report, never silently leave out.
    pub fn was_built(&self, id: &str) -> bool {
        self.is_built(id)
            || read_opt(
                &instance_dir(&self.dir, id).join("status.json"),
                self.limits,
            )
            .ok()
            .flatten()
            .and_then(|b| serde_json::from_slice::<InstanceOutcome>(&b).ok())
            .is_some_and(|o| matches!(o.status, BuildStatus::Built { .. }))
    }

    /// PR0 of a built instance (None when the instance was not built).
    pub fn pr0(&self, id: &str) -> Option<Vec<u8>> {
        self.read_pr0(id).ok()
    }

    /// The human PR1 of a built instance.
    pub fn human_pr1(&self, id: &str) -> Option<Vec<u8>> {
        self.read_human_pr1(id).ok()
    }

    /// PR0 of an instance, or the error naming the file.
    pub fn read_pr0(&self, id: &str) -> Result<Vec<u8>, ChainError> {
        read(&instance_dir(&self.dir, id).join("pr0.patch"), self.limits)
    }

    /// The human PR1 of an instance, or the error naming the file.
    pub fn read_human_pr1(&self, id: &str) -> Result<Vec<u8>, ChainError> {
        read(
            &instance_dir(&self.dir, id).join("pr1_human.patch"),
            self.limits,
        )
    }
}

/// A layer of a stack after PR0.
#[derive(Debug, Clone)]
pub enum Layer {
    /// The human PR1 (reverse of PR0).
    HumanPr1,
    /// The instance's gold patch (the human PR2).
    Gold,
    /// Imported predictions, by instance id, each relative to the state
    /// after the previous layers.
    Predictions(BTreeMap<String, Prediction>),
    /// Imported predictions already relative to base_commit (they include
    /// PR0 and the earlier layers): they replace the layers below them, also
    /// for a file they leave at base (a stubbed file the agent restored
    /// exactly keeps the original, with a warning naming it).
    PredictionsFromBase(BTreeMap<String, Prediction>),
}

/// The `model_name_or_path` of a stacked predictions file: `<model>__PR1`
/// for the PR1-gate stack (PR0 + PR1 alone), `<model>__<condition>` for a
/// stack with follow-ons (`HA`, `AA`, `AH`, ..., one letter per layer: `H`
/// for the human PR1 or the gold patch, `A` for predictions). The harness
/// keys its run cache and its logs by this name
/// (`logs/run_evaluation/<run_id>/<model>/<id>`), so each stage and
/// condition gets its own: a reused run id never skips a PR2 stack as
/// "already run" or reuses PR1 reports for it.
pub fn stack_model_name(model: &str, layers: &[Layer]) -> String {
    if layers.len() <= 1 {
        return format!("{model}__PR1");
    }
    let cond: String = layers
        .iter()
        .map(|l| match l {
            Layer::HumanPr1 | Layer::Gold => 'H',
            Layer::Predictions(_) | Layer::PredictionsFromBase(_) => 'A',
        })
        .collect();
    format!("{model}__{cond}")
}

/// One instance's stacking outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StackOutcome {
    /// The instance.
    pub instance_id: String,
    /// The error, when the stack could not be composed.
    pub error: Option<String>,
    /// Warnings about a stack that was composed (e.g. a `base:` layer that
    /// leaves a file PR0 stubs at base: the agent's tree has the original
    /// there, and that is kept; the combined patch is not UTF-8 and is
    /// carried in `model_patch_b64`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Compose PR0 + `layers` for every built instance of `chain` into one
/// prediction against base_commit each. Instances missing from a
/// predictions layer are reported (`no prediction for PRk`), as are layers
/// that do not apply and built instances whose chain files are damaged
/// (naming the file). The predictions keep the patch bytes: a combined
/// patch that is not UTF-8 is written with `model_patch_b64`
/// ([`PatchPrediction`]) and gets a warning.
pub fn stack(
    chain: &Chain,
    layers: &[Layer],
    model_name: &str,
    source: &mut dyn SourceReader,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> (Vec<PatchPrediction>, Vec<StackOutcome>) {
    let mut preds = Vec::new();
    let mut outcomes = Vec::new();
    let built: Vec<&Instance> = chain
        .instances
        .iter()
        .filter(|i| chain.was_built(&i.instance_id))
        .collect();
    for (n, inst) in built.iter().enumerate() {
        let r = guard(&inst.instance_id, || stack_one(chain, inst, layers, source));
        match r {
            Ok((patch, mut warnings)) => {
                let p = PatchPrediction {
                    instance_id: inst.instance_id.clone(),
                    model_name_or_path: model_name.to_string(),
                    model_patch: patch,
                };
                warnings.extend(
                    p.to_row()
                        .1
                        .map(|w| format!("instance {}: {w}", inst.instance_id)),
                );
                preds.push(p);
                outcomes.push(StackOutcome {
                    instance_id: inst.instance_id.clone(),
                    error: None,
                    warnings,
                });
            }
            Err(e) => outcomes.push(StackOutcome {
                instance_id: inst.instance_id.clone(),
                error: Some(e.to_string()),
                warnings: Vec::new(),
            }),
        }
        progress(n + 1, built.len(), &inst.instance_id);
    }
    (preds, outcomes)
}

fn stack_one(
    chain: &Chain,
    inst: &Instance,
    layers: &[Layer],
    source: &mut dyn SourceReader,
) -> Result<(Vec<u8>, Vec<String>), ChainError> {
    let id = &inst.instance_id;
    let unreadable = |layer: &'static str| {
        move |e: ChainError| ChainError::Layer {
            instance_id: id.clone(),
            layer,
            source: Box::new(e),
        }
    };
    let pr0 = chain.read_pr0(id).map_err(unreadable("PR0"))?;
    // Every layer's patch and whether it is relative to base.
    let mut raw: Vec<(Vec<u8>, String, bool)> = vec![(pr0, "PR0".into(), false)];
    for (k, l) in layers.iter().enumerate() {
        let name = format!("PR{}", k + 1);
        let (p, from_base) = match l {
            Layer::HumanPr1 => (
                chain.read_human_pr1(id).map_err(unreadable("human PR1"))?,
                false,
            ),
            Layer::Gold => (inst.patch.as_bytes().to_vec(), false),
            Layer::Predictions(m) | Layer::PredictionsFromBase(m) => (
                m.get(id)
                    .map(|p| p.model_patch.as_bytes().to_vec())
                    .ok_or_else(|| ChainError::NoPrediction {
                        instance_id: id.clone(),
                        layer: name.clone(),
                    })?,
                matches!(l, Layer::PredictionsFromBase(_)),
            ),
        };
        raw.push((p, name, from_base));
    }
    let all: Vec<&[u8]> = raw.iter().map(|(p, _, _)| p.as_slice()).collect();
    source.select_repo_for(id, &inst.repo)?;
    let base = base_files(id, &inst.base_commit, &all, source)?;
    // The stack so far as ONE diff against base, then each layer on top.
    let mut so_far: Vec<u8> = Vec::new();
    let mut warnings = Vec::new();
    for (p, name, from_base) in &raw {
        if !from_base {
            so_far = compose_on(id, &base, &[&so_far, p], &["the layers below", name])?;
            continue;
        }
        // A `base:` layer is the agent's whole tree relative to base: it
        // replaces the layers below it. A file the layers below change that
        // it leaves out is at base in the agent's tree: for a stubbed file,
        // the agent restored the original (human) code exactly (or its diff
        // was partial). The agent's content is kept, never the stub put back
        // (that would drop a correct PR1), and each such file is named.
        if compose_on(id, &base, &[p], &[name]).is_err()
            && compose_on(id, &base, &[&so_far, p], &["the layers below", name]).is_ok()
        {
            return Err(ChainError::BaseLabel {
                instance_id: id.clone(),
                layer: name.clone(),
            });
        }
        let touched: std::collections::BTreeSet<String> =
            crate::stack::touched_paths(id, p)?.into_iter().collect();
        let (_, left_out) = split_by_paths(id, &so_far, &touched)?;
        for f in &left_out {
            warnings.push(format!(
                "instance {id}: {name} (base:) leaves {f} at base_commit although the layers below change it: the agent's tree has the original content there (restored exactly, or left out of a partial diff), and that is what is kept"
            ));
        }
        so_far = compose_on(id, &base, &[p], &[name])?;
    }
    Ok((so_far, warnings))
}

/// The file diffs of `patch` whose paths are all outside `touched` (as one
/// diff), and those paths.
fn split_by_paths(
    id: &str,
    patch: &[u8],
    touched: &std::collections::BTreeSet<String>,
) -> Result<(Vec<u8>, Vec<String>), ChainError> {
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok((Vec::new(), Vec::new()));
    }
    let mut parsed =
        codethread_patch::parse_patch(patch).map_err(|source| ChainError::PatchParse {
            instance_id: id.to_string(),
            layer: "the layers below".into(),
            source,
        })?;
    let mut left_out = Vec::new();
    parsed.files.retain(|f| {
        let paths: Vec<String> = [&f.old_path, &f.new_path]
            .into_iter()
            .flatten()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect();
        let keep = paths.iter().all(|p| !touched.contains(p));
        if keep {
            left_out.push(f.path_lossy());
        }
        keep
    });
    parsed.trailer.clear();
    Ok((parsed.to_bytes(), left_out))
}

/// A Follow-On Issue row and its agent-side setup.
#[derive(Debug, Clone)]
pub struct FollowOnRow {
    /// The dataset row (every upstream column at the top level, the gold
    /// `patch`, `setup_patch` = PR0 + PR1 combined against base): what the
    /// harness reads.
    pub row: serde_json::Map<String, Value>,
    /// The same setup sealed (`seal_on`: forward-only
    /// literals, none of the original bodies PR0 removed): what the agent's
    /// sandbox applies (`codethread_scaffold::mini_swe_agent::write_mini_swe_agent_subset`).
    pub sealed_setup: Vec<u8>,
}

/// Follow-On Issue dataset rows on top of the given PR1 predictions:
/// `setup_patch` = PR0 + PR1 combined against base, and its sealed form for
/// the agent. Instances whose stack (or whose sealed setup) fails are
/// reported in the outcomes.
pub fn follow_on_rows(
    chain: &Chain,
    pr1: &Layer,
    label: &str,
    source: &mut dyn SourceReader,
) -> (Vec<FollowOnRow>, Vec<StackOutcome>) {
    let (preds, mut outcomes) = stack(
        chain,
        std::slice::from_ref(pr1),
        label,
        source,
        &mut |_, _, _| {},
    );
    let by_id: BTreeMap<&str, &PatchPrediction> =
        preds.iter().map(|p| (p.instance_id.as_str(), p)).collect();
    let mut rows = Vec::new();
    for i in &chain.instances {
        let Some(p) = by_id.get(i.instance_id.as_str()) else {
            continue;
        };
        let patch = &p.model_patch;
        let sealed = match crate::stack::seal(&i.instance_id, &i.base_commit, patch, source) {
            Ok(s) => s,
            Err(e) => {
                match outcomes.iter_mut().find(|o| o.instance_id == i.instance_id) {
                    Some(o) => o.error = Some(e.to_string()),
                    None => outcomes.push(StackOutcome {
                        instance_id: i.instance_id.clone(),
                        error: Some(e.to_string()),
                        warnings: Vec::new(),
                    }),
                }
                continue;
            }
        };
        let mut row = follow_on_row(i, &String::from_utf8_lossy(patch), label);
        // A setup patch that is not UTF-8 travels in `setup_patch_b64`.
        put_bytes(&mut row, "setup_patch", patch);
        rows.push(FollowOnRow {
            row,
            sealed_setup: sealed,
        });
    }
    (rows, outcomes)
}

/// Gate PR1 predictions with harness reports: one decision per prediction
/// of a built instance. An empty prediction is dropped as `empty_patch`
/// without looking for a report. A PR1 whose stack PR0 + PR1 is empty is
/// base itself and is kept as `stack_is_base` without a report (the harness
/// skips empty predictions): detected by composing the stack when `source`
/// is given, and otherwise when the PR1 is byte-identical to the human PR1
/// or a run-level report lists the stack under `empty_patch_ids`.
pub fn gate_predictions(
    chain: &Chain,
    pr1: &BTreeMap<String, Prediction>,
    reports: &BTreeMap<String, InstanceReport>,
    mut source: Option<&mut dyn SourceReader>,
) -> Vec<GateDecision> {
    let mut out = Vec::new();
    for inst in &chain.instances {
        let Some(p) = pr1.get(&inst.instance_id) else {
            continue;
        };
        if !chain.was_built(&inst.instance_id) {
            continue;
        }
        let decision = |kept: bool, r: GateReason| GateDecision {
            instance_id: inst.instance_id.clone(),
            kept,
            reasons: vec![r],
        };
        if p.model_patch.trim().is_empty() {
            out.push(decision(false, GateReason::EmptyPatch));
            continue;
        }
        let is_base = match source.as_deref_mut() {
            Some(src) => {
                let one = BTreeMap::from([(inst.instance_id.clone(), p.clone())]);
                guard(&inst.instance_id, || {
                    stack_one(chain, inst, &[Layer::Predictions(one)], src)
                })
                .is_ok_and(|(patch, _)| patch.iter().all(u8::is_ascii_whitespace))
            }
            None => chain
                .human_pr1(&inst.instance_id)
                .is_some_and(|h| h == p.model_patch.as_bytes()),
        };
        if is_base {
            out.push(decision(true, GateReason::StackIsBase));
            continue;
        }
        out.push(gate_one(
            &inst.instance_id,
            reports.get(&inst.instance_id),
            &inst.fail_to_pass,
            &inst.pass_to_pass,
        ));
    }
    out
}

/// Where pre-images come from, as chosen on a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceSpec {
    /// `<dir>/<instance_id>/before/<path>`.
    Snapshots(PathBuf),
    /// One git repository for every instance.
    Repo(PathBuf),
    /// A directory of git repositories (`owner__name`, `owner/name`, `name`).
    Repos(PathBuf),
    /// A directory of per-instance git trees (`<dir>/<instance_id>/testbed`
    /// or `<dir>/<instance_id>`), as [`crate::source::TestbedDir`] reads them.
    Testbeds(PathBuf),
}

impl SourceSpec {
    /// Open the source.
    /// Snapshot files are read under `limits`.
    pub fn open(&self, limits: SourceLimits) -> Box<dyn SourceReader> {
        match self {
            SourceSpec::Snapshots(d) => {
                Box::new(crate::source::SnapshotSource::new(d).with_limits(limits))
            }
            SourceSpec::Repo(d) => Box::new(crate::source::GitSource::new(d)),
            SourceSpec::Repos(d) => Box::new(crate::source::GitRepoDir::new(d)),
            SourceSpec::Testbeds(d) => Box::new(crate::source::TestbedDir::new(d)),
        }
    }
}

/// One line of `targets` output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetsLine {
    /// The instance.
    pub instance_id: String,
    /// Target ids `path::qualname[#n]`.
    pub targets: Vec<String>,
    /// The negative case, when there are no targets.
    pub negative_case: Option<String>,
}

/// Localize every instance: one result per instance, in order.
pub fn targets_batch(
    instances: &[Instance],
    source: &mut dyn SourceReader,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Vec<Result<TargetsLine, ChainError>> {
    let mut out = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        out.push(
            guard(&inst.instance_id, || localize_instance(inst, source)).map(|l| TargetsLine {
                instance_id: inst.instance_id.clone(),
                targets: l.target_ids(),
                negative_case: l.negative_case.map(|n| n.as_str().to_string()),
            }),
        );
        progress(i + 1, instances.len(), &inst.instance_id);
    }
    out
}

/// What `pr0_batch` did for one instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Pr0Status {
    /// `<out>/<id>.patch` written (and checked with `git apply` / `-R`).
    Written {
        /// The file.
        path: PathBuf,
    },
    /// The file existed from an earlier run.
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// No targets.
    Filtered {
        /// The negative case.
        reason: String,
    },
}

/// Write `<out>/<instance_id>.patch` (PR0) for every instance with targets;
/// existing files are kept unless `force`.
pub fn pr0_batch(
    instances: &[Instance],
    source: &mut dyn SourceReader,
    out: &Path,
    opts: &Pr0Options,
    force: bool,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Vec<(String, Result<Pr0Status, ChainError>)> {
    let mut res = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let path = out.join(format!("{}.patch", inst.instance_id));
        let r = if path.exists() && !force {
            Ok(Pr0Status::Exists { path })
        } else {
            guard(&inst.instance_id, || {
                let (mut loc, images) = crate::targets::localize_kept(inst, source)?;
                crate::targets::drop_non_targets(&mut loc, &images);
                if let Some(n) = loc.negative_case {
                    return Ok(Pr0Status::Filtered {
                        reason: n.as_str().to_string(),
                    });
                }
                let pr0 = match make_pr0_from(&loc, opts, &images) {
                    Err(ChainError::NoCompilingStub { .. }) => {
                        return Ok(Pr0Status::Filtered {
                            reason: NO_COMPILING_STUB.to_string(),
                        })
                    }
                    r => r?,
                };
                crate::stack::check_roundtrip(&inst.instance_id, &loc.before, &pr0.patch)?;
                write_in(
                    out,
                    Path::new(&format!("{}.patch", inst.instance_id)),
                    &pr0.patch,
                )?;
                Ok(Pr0Status::Written { path })
            })
        };
        res.push((inst.instance_id.clone(), r));
        progress(i + 1, instances.len(), &inst.instance_id);
    }
    res
}

/// Shape of LLM request lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequestFormat {
    /// `{custom_id, messages, metadata}` (provider-neutral).
    Neutral,
    /// OpenAI Batch API lines.
    Openai,
    /// Anthropic Message Batches lines.
    Anthropic,
}

/// The chat requests of every built instance of `chain`, in the given
/// shape: one result per built instance, in order. A damaged
/// `llm_request.json` (missing, unreadable, not a request) is that
/// instance's error, naming the file; the others are still returned.
pub fn llm_requests(
    chain: &Chain,
    format: RequestFormat,
    model: &str,
    max_tokens: u32,
) -> Vec<(String, Result<Value, ChainError>)> {
    let mut out = Vec::new();
    for inst in &chain.instances {
        if !chain.was_built(&inst.instance_id) {
            continue;
        }
        let p = instance_dir(&chain.dir, &inst.instance_id).join("llm_request.json");
        let r = read(&p, chain.limits).and_then(|b| {
            serde_json::from_slice::<codethread_llm::LlmRequest>(&b)
                .map_err(|e| crate::fsutil::json_error(&p, &e))
        });
        let r = r.map(|req| match format {
            RequestFormat::Neutral => serde_json::to_value(&req).unwrap_or(Value::Null),
            RequestFormat::Openai => req.to_openai_batch(model),
            RequestFormat::Anthropic => req.to_anthropic_batch(model, max_tokens),
        });
        out.push((inst.instance_id.clone(), r));
    }
    out
}

/// The statement requests of every built instance of `chain`, as
/// [`LlmRequest`](codethread_llm::LlmRequest)s: one result per built instance, a damaged
/// `llm_request.json` being that instance's error.
pub fn chain_requests(
    chain: &Chain,
) -> Vec<(String, Result<codethread_llm::LlmRequest, ChainError>)> {
    llm_requests(chain, RequestFormat::Neutral, "", 0)
        .into_iter()
        .map(|(id, r)| {
            let r = r.and_then(|v| {
                serde_json::from_value::<codethread_llm::LlmRequest>(v).map_err(|source| {
                    ChainError::RequestFile {
                        instance_id: id.clone(),
                        source,
                    }
                })
            });
            (id, r)
        })
        .collect()
}

/// What [`gate_run`] is told besides the predictions and reports.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct GateRunOptions {
    /// The model the predictions were stacked under (`--model`); `None`:
    /// the predictions' own `model_name_or_path`.
    pub model: Option<String>,
    /// The harness run id to read reports of; `None`: any.
    pub run_id: Option<String>,
    /// The limits every file is read under.
    pub limits: SourceLimits,
}

impl GateRunOptions {
    /// With `model` as the predictions' model.
    pub fn model(mut self, model: Option<String>) -> Self {
        self.model = model;
        self
    }

    /// With `run_id` as the harness run to read.
    pub fn run_id(mut self, run_id: Option<String>) -> Self {
        self.run_id = run_id;
        self
    }

    /// With `limits` for every file read.
    pub fn limits(mut self, limits: SourceLimits) -> Self {
        self.limits = limits;
        self
    }
}

/// What [`gate_run`] decided and what it could not use.
#[derive(Debug, Default)]
pub struct GateRun {
    /// One decision per prediction of a built instance.
    pub decisions: Vec<GateDecision>,
    /// The stack model name whose reports were read (`<model>__PR1`), when
    /// one is known.
    pub stack_model: Option<String>,
    /// Notes that are no failure (no model named: every report read;
    /// reports of other models or runs left out, naming the model they were
    /// filed under when it differs).
    pub warnings: Vec<String>,
    /// Inputs that could not be used, each named (unreadable reports,
    /// conflicting reports, predictions for instances the chain did not
    /// build): counted in the exit code.
    pub problems: Vec<String>,
}

/// The gate of one PR1 predictions file against harness reports, with every
/// rule a command line needs: the stack's model name
/// ([`stack_model_name`]: `<model>__PR1`, the name `chain stack` gave the
/// stack the harness graded) from `opts.model` or the predictions; the
/// reports of that stack only (SWE-bench harness trees, per-instance and
/// run-level files, and SWE-bench Pro output directories, read as Pro's
/// evaluator decides for the stack's prefix); conflicts, unreadable files
/// and predictions for instances the chain did not build named in
/// [`GateRun::problems`]; reports of another model left out and named.
pub fn gate_run(
    chain: &Chain,
    preds: &[Prediction],
    reports: &[PathBuf],
    opts: &GateRunOptions,
    source: Option<&mut dyn SourceReader>,
) -> GateRun {
    let mut run = GateRun::default();
    let base = opts.model.clone().or_else(|| {
        preds
            .last()
            .map(|p| p.model_name_or_path.clone())
            .filter(|m| !m.is_empty())
    });
    let stack_model = base.map(|m| {
        if m.ends_with("__PR1") {
            m
        } else {
            stack_model_name(&m, &[Layer::HumanPr1])
        }
    });
    if stack_model.is_none() && opts.run_id.is_none() {
        run.warnings.push(
            "the predictions name no model and no --model / --run-id was given: every report below the report directories is read".into(),
        );
    }
    let filter = codethread_bench::ReportFilter {
        model: stack_model.clone(),
        run_id: opts.run_id.clone(),
    };
    // SWE-bench Pro output directories are read for the stack's prefix;
    // everything else as the SWE-bench harness writes it.
    let (pro_dirs, swe): (Vec<PathBuf>, Vec<PathBuf>) = reports
        .iter()
        .cloned()
        .partition(|p| p.is_dir() && codethread_bench::pro::is_output_dir(p));
    let mut set = codethread_bench::load_reports_selected(&swe, &filter, opts.limits);
    let by_id: BTreeMap<String, &Instance> = chain
        .instances
        .iter()
        .map(|i| (i.instance_id.clone(), i))
        .collect();
    for d in &pro_dirs {
        let prefix = stack_model.clone().unwrap_or_default();
        let pro = codethread_bench::pro::load_outputs(d, &prefix, &by_id, opts.limits);
        set.errors.extend(pro.errors);
        set.ignored += pro.ignored;
        for (id, r) in pro.reports {
            set.reports.entry(id).or_insert(r);
        }
    }
    run.problems
        .extend(set.errors.iter().map(|e| format!("unreadable report: {e}")));
    if set.ignored > 0 {
        let mut w = format!(
            "ignored {} reports of other models or runs (reading model {}, run {})",
            set.ignored,
            filter.model.as_deref().unwrap_or("any"),
            filter.run_id.as_deref().unwrap_or("any")
        );
        if set.reports.is_empty() {
            w.push_str(": no report of this stack was found; if the harness graded it under another name, give that name with --model (a SWE-agent predictions file names its own model)");
        }
        run.warnings.push(w);
    }
    for (id, paths) in &set.conflicts {
        let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        run.problems.push(format!(
            "conflicting reports: instance {}: {} disagree; neither is used",
            codethread_bench::ids::label(id),
            names.join(" and ")
        ));
    }
    run.decisions = gate_predictions(chain, &predictions_by_id(preds), &set.reports, source);
    let gated: std::collections::HashSet<&str> = run
        .decisions
        .iter()
        .map(|x| x.instance_id.as_str())
        .collect();
    for p in preds {
        if !gated.contains(p.instance_id.as_str()) {
            run.problems.push(format!(
                "not gated: prediction for {}: not a built instance of the chain",
                codethread_bench::ids::label(&p.instance_id)
            ));
        }
    }
    run.stack_model = stack_model;
    run
}

/// A stack layer as a command line names it: `human` (the human PR1),
/// `gold` (the gold patch), a predictions file, or `base:` and a
/// predictions file whose patches are relative to `base_commit`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayerSpec {
    /// `human`.
    Human,
    /// `gold`.
    Gold,
    /// A predictions file, relative to the state after the layers below
    /// (`from_base`: relative to `base_commit`, the `base:` prefix).
    Predictions {
        /// The file.
        path: PathBuf,
        /// Given with `base:`.
        from_base: bool,
    },
}

impl std::str::FromStr for LayerSpec {
    type Err = std::convert::Infallible;
    fn from_str(arg: &str) -> Result<Self, Self::Err> {
        Ok(match arg {
            "human" => LayerSpec::Human,
            "gold" => LayerSpec::Gold,
            path => match path.strip_prefix("base:") {
                Some(p) => LayerSpec::Predictions {
                    path: PathBuf::from(p),
                    from_base: true,
                },
                None => LayerSpec::Predictions {
                    path: PathBuf::from(path),
                    from_base: false,
                },
            },
        })
    }
}

/// What [`stack_run`] stacked and what it could not use.
#[derive(Debug, Default)]
pub struct StackRun {
    /// The stack's model name ([`stack_model_name`] of the last predictions
    /// layer's model, else of the given or human name).
    pub model: String,
    /// The layers, in order.
    pub layers: Vec<Layer>,
    /// One combined prediction per built instance that stacked.
    pub predictions: Vec<PatchPrediction>,
    /// One outcome per built instance.
    pub outcomes: Vec<StackOutcome>,
    /// Warnings of the predictions files (identical repeated rows).
    pub warnings: Vec<String>,
    /// Inputs that could not be used, each named: unloadable prediction
    /// rows, and rows for instances the chain did not build (counted in the
    /// exit code, never ignored silently).
    pub problems: Vec<String>,
}

/// Stack PR0 and the given layers for every built instance of `chain`, with
/// the rules of a command line: the layers loaded from their specs, the
/// stack named by the last predictions layer's model (`--pr1 AGENT --pr2
/// gold` is `AGENT__AH`; `human` / `gold` name a stack only when it has no
/// predictions layer; `model` overrides the base name), and every
/// prediction row for an instance the chain did not build named in
/// [`StackRun::problems`].
///
/// # Errors
/// A predictions file that cannot be read at all.
pub fn stack_run(
    chain: &Chain,
    specs: &[LayerSpec],
    model: Option<String>,
    source: &mut dyn SourceReader,
    limits: SourceLimits,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<StackRun, ChainError> {
    let mut run = StackRun::default();
    let (mut last_agent, mut last_human) = (None, None);
    let built: std::collections::HashSet<&str> = chain
        .instances
        .iter()
        .filter(|i| chain.was_built(&i.instance_id))
        .map(|i| i.instance_id.as_str())
        .collect();
    for (k, spec) in specs.iter().enumerate() {
        match spec {
            LayerSpec::Human => {
                last_human = Some("human".to_string());
                run.layers.push(Layer::HumanPr1);
            }
            LayerSpec::Gold => {
                last_human = Some("gold".to_string());
                run.layers.push(Layer::Gold);
            }
            LayerSpec::Predictions { path, from_base } => {
                let l = codethread_bench::load_predictions(path, limits)?;
                run.warnings.extend(l.warnings.iter().cloned());
                run.problems.extend(
                    l.errors
                        .iter()
                        .map(|e| format!("unloadable prediction: {e}")),
                );
                for p in &l.items {
                    if !built.contains(p.instance_id.as_str()) {
                        run.problems.push(format!(
                            "PR{}: {}: prediction for {}, which is not a built instance of the chain; not used",
                            k + 1,
                            path.display(),
                            codethread_bench::ids::label(&p.instance_id)
                        ));
                    }
                }
                if let Some(m) = l
                    .items
                    .last()
                    .map(|p| p.model_name_or_path.clone())
                    .filter(|m| !m.is_empty())
                {
                    last_agent = Some(m);
                }
                let m = predictions_by_id(&l.items);
                run.layers.push(if *from_base {
                    Layer::PredictionsFromBase(m)
                } else {
                    Layer::Predictions(m)
                });
            }
        }
    }
    run.model = stack_model_name(
        &model
            .or(last_agent)
            .or(last_human)
            .unwrap_or_else(|| "codethread".into()),
        &run.layers,
    );
    let (preds, outcomes) = stack(chain, &run.layers, &run.model, source, progress);
    run.predictions = preds;
    run.outcomes = outcomes;
    Ok(run)
}
