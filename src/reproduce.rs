//! The end-to-end CodeThread pipeline: the `reproduce` example's one call.
//!
//! From a benchmark directory it builds the chains (targets, PR0, task
//! statements, harness exports), turns each agent's PR1 and PR2 outputs into
//! patches, gates PR1 on the harness reports, stacks PR0 + PR1 + PR2 into the
//! predictions the SWE-bench harness grades, reads the PR2 outcomes, computes
//! the features of the discordant cohort (metric deltas, Jaccard overlaps,
//! IEC drift, leave-one-out difficulty), the tables and the logistic
//! regression, and writes the report.
//!
//! Layout of a benchmark directory (`fixtures/bench` is one; see
//! `fixtures/README.md`), each part overridable in [`ReproduceConfig`]:
//!
//! ```text
//! instances.jsonl                              SWE-bench rows (any supported format)
//! snapshots/<id>/before/<path>                 pre-images (or a git repository: --repo)
//! agents/<model>/pr1/<id>/<path>               the agent's files after PR1 (on PR0)
//! agents/<model>/pr2_HA/<id>/<path>            its files after PR2 on the human PR1
//! agents/<model>/pr2_AA/<id>/<path>            its files after PR2 on its own PR1
//! reports/<model>/{pr1,pr2_HA,pr2_AA}/…/report.json   harness reports
//! task_types.json                              {instance_id: "BF"|"FI"|"RF"|"FI+RF"}
//! ```
//!
//! Files. The agent-output and report trees are untrusted: they are walked without following
//! any symbolic link (a link — to a file, a directory, or dangling — is a per-chain error
//! naming it, and its target is never read), and only regular files are read, each at most
//! [`ReproduceConfig::max_file_bytes`] (a FIFO or device is refused without blocking). The
//! instances and task-type files are read the same way (a link there is followed, but must
//! lead to a regular file). Every output is written atomically below [`ReproduceConfig::out`]
//! with `codethread_lang::io::write_atomic_in`: a link planted at an output file is replaced,
//! never written through, and a link planted at an output directory (`predictions`, `gate`,
//! `report`, `chain`) stops the run.
//!
//! Outcome. Missing `agents` / `reports` / snapshot / repositories directories and a `--repo`
//! that is not a git repository are fatal errors naming the path. An instance whose snapshot
//! directory is missing, or for which `--repos` holds no repository, fails with that reason
//! (not as a patch that does not apply). [`ReproduceSummary::outcome`] maps the run onto the
//! exit-code contract of [`crate::exit`]: no instance succeeded = fatal; any failed instance
//! or per-input error ([`ReproduceSummary::errors`]) = partial.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use codethread_analysis::features::{
    build_features, EditSet, FeatureOptions, FeatureSources, InstanceKey, MetricValues, Stage,
    FEATURES,
};
use codethread_analysis::{
    build_tables, fit_logit, AnalysisError, Condition, LogitFit, LogitOptions, Outcome, Results,
    TableOptions, TaskType,
};
use codethread_chain::instance::{load_instances, parse_instances, Instance};
use codethread_chain::pipeline::{
    build, gate_predictions, stack, BuildOptions, BuildStatus, Chain, Layer, SourceSpec,
};
use codethread_chain::predictions::{predictions_to_jsonl, Prediction};
use codethread_chain::report::{load_reports_dir_limited, InstanceReport};
use codethread_lang::io::{
    create_dir_all_nofollow, read_regular, read_regular_nofollow, write_atomic_in, IoError,
    DEFAULT_MAX_FILE_BYTES,
};
use codethread_lang::{parse_file, Lang};
use codethread_metrics::{analyze_parsed, Profile};

use crate::exit::Outcome as ExitOutcome;
use codethread_patch::{diff_trees, localize, ApplyOptions, DiffOptions, LocalizeOptions, MemTree};

/// Errors that stop the whole pipeline. Per-instance problems do not: they
/// are collected in [`ReproduceSummary::warnings`].
#[derive(Debug, thiserror::Error)]
pub enum ReproduceError {
    /// A file or directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// Chain construction failed as a whole.
    #[error("chain: {0}")]
    Chain(#[from] codethread_chain::error::ChainError),
    /// The analysis failed as a whole.
    #[error("analysis: {0}")]
    Analysis(#[from] codethread_analysis::AnalysisError),
    /// A required input is missing.
    #[error("{0}")]
    Missing(String),
    /// An input or output file refused by the file rules (special file, link, too large).
    #[error("{0}")]
    File(#[from] IoError),
    /// A given input path is unusable (missing, not a directory, not a git repository).
    #[error("{}: {message}", path.display())]
    Input {
        /// The path as given.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

/// Inputs and outputs of [`reproduce`].
#[derive(Debug, Clone)]
pub struct ReproduceConfig {
    /// Benchmark rows.
    pub instances: PathBuf,
    /// Where pre-images come from.
    pub source: SourceSpec,
    /// `<model>/{pr1,pr2_HA,pr2_AA}/<id>/<path>` agent outputs.
    pub agents: PathBuf,
    /// `<model>/{pr1,pr2_HA,pr2_AA}/` harness reports.
    pub reports: PathBuf,
    /// `{instance_id: task type}` (optional).
    pub task_types: Option<PathBuf>,
    /// Benchmark name used in the tables.
    pub benchmark: String,
    /// Output directory (chain, predictions, report).
    pub out: PathBuf,
    /// Bootstrap resamples per Δ.
    pub bootstrap_reps: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// The largest input file read (instances, task types, agent outputs, reports); larger
    /// files are refused naming the file. Default [`DEFAULT_MAX_FILE_BYTES`].
    pub max_file_bytes: u64,
    /// Compounding-judge labels (JSONL of `codethread_analysis::judge::CompoundLabel`, e.g.
    /// from `analyze judge compound import`): with them the run reports the compounding table
    /// on the HA-wins discordant cohort (`judge/compounding.{json,md}`).
    pub judge_labels: Option<PathBuf>,
    /// Drift-judge labels (JSONL of `codethread_analysis::judge::DriftRecord`, from
    /// `analyze judge drift import`): with them the IEC feature is the judge's (any label in
    /// the input/error-contract group), the static detector filling the chains the judge did
    /// not label; their agreement (Cohen's κ) goes to `judge/iec_agreement.json`.
    pub drift_labels: Option<PathBuf>,
    /// The metric profile of the features (ΔCC, Δcognitive, ΔHalstead
    /// volume, ΔLLOC): [`Profile::Paper`] (default, the paper's tools) or
    /// [`Profile::Canonical`]; `report.md` names it.
    pub profile: Profile,
    /// The inputs are the bundled fixtures (`fixtures/bench`): `report.md`
    /// says so at the top (their numbers only exercise the pipeline).
    pub bundled_fixtures: bool,
}

impl ReproduceConfig {
    /// The configuration for a benchmark directory in the layout above.
    pub fn for_bench_dir(bench: &Path, out: &Path) -> ReproduceConfig {
        let task_types = bench.join("task_types.json");
        ReproduceConfig {
            instances: bench.join("instances.jsonl"),
            source: SourceSpec::Snapshots(bench.join("snapshots")),
            agents: bench.join("agents"),
            reports: bench.join("reports"),
            task_types: task_types.exists().then_some(task_types),
            benchmark: bench
                .file_name()
                .map_or_else(|| "bench".to_string(), |n| n.to_string_lossy().into_owned()),
            out: out.to_path_buf(),
            bootstrap_reps: 2000,
            seed: 20_240_405,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            judge_labels: None,
            drift_labels: None,
            profile: Profile::Paper,
            bundled_fixtures: false,
        }
    }
}

/// What [`reproduce`] did.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ReproduceSummary {
    /// The report directory (`report.md` inside).
    pub report_dir: PathBuf,
    /// Every file the report step wrote.
    pub files: Vec<PathBuf>,
    /// Instances read.
    pub instances: usize,
    /// Instances with targets (chains built).
    pub built: usize,
    /// Negative cases (no targets), with the reason.
    pub filtered: Vec<(String, String)>,
    /// Instances whose chain could not be built, with the error.
    pub failed: Vec<(String, String)>,
    /// Models found under the agents directory.
    pub models: Vec<String>,
    /// Per model: PR1s kept by the gate / judged.
    pub gate: BTreeMap<String, (usize, usize)>,
    /// PR2 outcomes entered into the tables.
    pub outcomes: usize,
    /// Discordant (model, instance) pairs.
    pub discordant: usize,
    /// Per-input failures that did not stop the run (a refused or unreadable agent output or
    /// report, a chain whose pre-images, diff or stack failed, a malformed instance row): the
    /// affected chain or stage is left out, everything else is written.
    pub errors: Vec<String>,
    /// Notes that are not failures (left-out regressors, missing PR2 reports, ...).
    pub warnings: Vec<String>,
    /// Rows of the instances file that could not be read (each also in `errors`).
    pub rejected_rows: usize,
    /// Drift-judge items written to `judge/drift_items.jsonl` (one per model × instance with
    /// an agent PR1); the AA PR2 rows beside them in `judge/aa_pr2.jsonl`.
    pub judge_items: usize,
    /// The compounding table, when judge labels were given.
    pub compounding: Option<codethread_analysis::judge::CompoundingTable>,
    /// With drift labels: the judge's IEC against the static detector on the chains both
    /// rated, and how many chains took their IEC feature from the judge.
    pub iec_agreement: Option<(codethread_analysis::judge::Agreement, usize)>,
}

impl ReproduceSummary {
    /// The run's outcome by the exit-code contract ([`crate::exit`]): every instance that could
    /// not be built (or row that could not be read) is a failed input; a run where none
    /// succeeded is [`ExitOutcome::Fatal`], one with any failure or per-input error
    /// [`ExitOutcome::Partial`].
    pub fn outcome(&self) -> ExitOutcome {
        let failed = self.failed.len() + self.rejected_rows;
        let ok = self.instances.saturating_sub(self.failed.len());
        match crate::exit::from_counts(ok, failed) {
            ExitOutcome::Success if !self.errors.is_empty() => ExitOutcome::Partial,
            o => o,
        }
    }
}

/// One file of an agent tree: (relative path with `/`, as the file system's bytes; contents).
type TreeFile = (Vec<u8>, Vec<u8>);

/// Files below `dir` as (relative path with `/` as the file system's bytes, contents), sorted:
/// names are kept as bytes, so two non-UTF-8 names never become one. The tree is untrusted: the
/// walk never follows a symbolic link (a link anywhere is an error naming it, its target never
/// read), and only regular files of at most `limit` bytes are read. Every problem of the tree
/// is returned (the whole tree is then refused).
fn read_tree(dir: &Path, limit: u64) -> Result<Vec<TreeFile>, Vec<String>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) => {
                problems.push(format!("{}: {e}", d.display()));
                continue;
            }
        };
        for e in entries {
            let e = match e {
                Ok(e) => e,
                Err(err) => {
                    problems.push(format!("{}: {err}", d.display()));
                    continue;
                }
            };
            let p = e.path();
            // `DirEntry::file_type` does not follow links
            let ft = match e.file_type() {
                Ok(t) => t,
                Err(err) => {
                    problems.push(format!("{}: {err}", p.display()));
                    continue;
                }
            };
            if ft.is_symlink() {
                problems.push(IoError::Symlink { path: p }.to_string());
            } else if ft.is_dir() {
                stack.push(p);
            } else {
                match read_regular_nofollow(&p, limit) {
                    Ok(bytes) => {
                        let rel = p.strip_prefix(dir).unwrap_or(&p);
                        let rel = rel
                            .components()
                            .map(|c| c.as_os_str().as_encoded_bytes())
                            .collect::<Vec<_>>()
                            .join(&b'/');
                        out.push((rel, bytes));
                    }
                    Err(err) => problems.push(err.to_string()),
                }
            }
        }
    }
    if !problems.is_empty() {
        problems.sort();
        return Err(problems);
    }
    out.sort();
    Ok(out)
}

/// Subdirectory names of `dir`, sorted; entries that are symbolic links are returned as
/// errors naming them (never followed).
fn subdirs(dir: &Path) -> (Vec<String>, Vec<String>) {
    let mut v = Vec::new();
    let mut links = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.filter_map(Result::ok) {
            match e.file_type() {
                Ok(t) if t.is_dir() => v.push(e.file_name().to_string_lossy().into_owned()),
                Ok(t) if t.is_symlink() => {
                    links.push(IoError::Symlink { path: e.path() }.to_string())
                }
                _ => {}
            }
        }
    }
    v.sort();
    links.sort();
    (v, links)
}

/// `root/rel…` as a real directory below `root`: `Ok(None)` when it does not exist, an error
/// naming the first component below `root` that is a symbolic link or not a directory.
fn dir_below(root: &Path, rel: &[&str]) -> Result<Option<PathBuf>, String> {
    let mut cur = root.to_path_buf();
    for c in rel {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(IoError::Symlink { path: cur }.to_string())
            }
            Ok(m) if m.is_dir() => {}
            Ok(_) => return Err(format!("{}: not a directory", cur.display())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{}: {e}", cur.display())),
        }
    }
    Ok(Some(cur))
}

/// `tree` with the files of `root/rel…` written over it (`None` when that directory is
/// absent). Errors name every link, special file or unreadable file of the agent's tree.
fn overlay(
    tree: &MemTree,
    root: &Path,
    rel: &[&str],
    limit: u64,
) -> Result<Option<MemTree>, Vec<String>> {
    let Some(dir) = dir_below(root, rel).map_err(|e| vec![e])? else {
        return Ok(None);
    };
    let mut t = tree.clone();
    for (p, bytes) in read_tree(&dir, limit)? {
        t.insert(p, bytes);
    }
    Ok(Some(t))
}

/// The harness reports under `root/rel…`: `None` when that directory is absent. No link is
/// followed, on the way down (`dir_below`) or in the tree (the chain crate's
/// `load_reports_dir_limited` names every link as an error); files are read only when
/// regular and within `limit` bytes.
fn load_reports_nofollow(
    root: &Path,
    rel: &[&str],
    limit: u64,
) -> (Option<BTreeMap<String, InstanceReport>>, Vec<String>) {
    let dir = match dir_below(root, rel) {
        Ok(Some(d)) => d,
        Ok(None) => return (None, Vec::new()),
        Err(e) => return (Some(BTreeMap::new()), vec![e]),
    };
    match load_reports_dir_limited(&dir, limit) {
        Ok((reports, errs)) => (Some(reports), errs.iter().map(|e| e.to_string()).collect()),
        Err(e) => (Some(BTreeMap::new()), vec![e.to_string()]),
    }
}

/// The patch from `a` to `b` as bytes (empty when they are equal): paths and contents as
/// the trees hold them.
fn diff_bytes(a: &MemTree, b: &MemTree) -> Result<Vec<u8>, String> {
    let p = diff_trees(a, b, &DiffOptions::default()).map_err(|e| e.to_string())?;
    Ok(p.to_bytes())
}

/// The trees of one (model, instance) chain.
struct Trees<'a> {
    /// Base = human PR1 (shared by every model's chain of the instance).
    base: &'a MemTree,
    agent_pr1: Option<MemTree>,
    ha_pr2: Option<MemTree>,
    aa_pr2: Option<MemTree>,
    /// PR2 patches (HA, AA) as bytes (a prediction holds them as text).
    ha_patch: Option<Vec<u8>>,
    aa_patch: Option<Vec<u8>>,
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
        let r = codethread_analysis::iec::detect_iec(lang, h, a, &quals)
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
    let parsed = codethread_patch::parse(patch).map_err(|e| e.to_string())?;
    let loc =
        localize(pre, &parsed, &LocalizeOptions::with_hint(hint)).map_err(|e| e.to_string())?;
    Ok(EditSet {
        files: codethread_patch::file_set(&parsed),
        functions: codethread_patch::function_set(&loc, true),
    })
}

fn load_task_types(
    path: Option<&Path>,
    limit: u64,
) -> Result<BTreeMap<String, TaskType>, ReproduceError> {
    let Some(path) = path else {
        return Ok(BTreeMap::new());
    };
    let bytes = read_regular(path, limit)?;
    let raw: BTreeMap<String, String> = serde_json::from_slice(&bytes)
        .map_err(|e| ReproduceError::Missing(format!("{}: {e}", path.display())))?;
    let mut out = BTreeMap::new();
    for (id, t) in raw {
        let tt = TaskType::parse(&t).ok_or_else(|| {
            ReproduceError::Missing(format!("{}: {id}: unknown task type {t:?}", path.display()))
        })?;
        out.insert(id, tt);
    }
    Ok(out)
}

/// Writes `out/rel` atomically; no component below `out` may be a symbolic link (a planted
/// link at the file is replaced, a planted directory link is an error).
fn write(out: &Path, rel: &str, text: &str) -> Result<PathBuf, ReproduceError> {
    Ok(write_atomic_in(out, Path::new(rel), text.as_bytes())?)
}

/// The checks of the inputs given as paths: each must exist, the agent and report trees and a
/// snapshot or repositories directory must be directories, a `--repo` a git repository.
fn check_inputs(cfg: &ReproduceConfig) -> Result<(), ReproduceError> {
    let bad = |path: &Path, message: String| ReproduceError::Input {
        path: path.to_path_buf(),
        message,
    };
    let dir = |path: &Path, what: &str| -> Result<(), ReproduceError> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(bad(path, format!("the {what} is not a directory"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(bad(path, format!("the {what} does not exist")))
            }
            Err(e) => Err(bad(path, format!("the {what}: {e}"))),
        }
    };
    dir(&cfg.agents, "agent-output directory (--agents)")?;
    dir(&cfg.reports, "harness-report directory (--reports)")?;
    match &cfg.source {
        SourceSpec::Snapshots(d) => dir(d, "snapshot directory (--snapshots)")?,
        SourceSpec::Repos(d) => dir(d, "repositories directory (--repos)")?,
        SourceSpec::Repo(r) => {
            dir(r, "repository (--repo)")?;
            let git =
                r.join(".git").exists() || (r.join("HEAD").is_file() && r.join("objects").is_dir());
            if !git {
                return Err(bad(
                    r,
                    "not a git repository (no .git, and not a bare repository) (--repo)".into(),
                ));
            }
        }
    }
    Ok(())
}

/// Instances whose pre-images cannot be read at all, with the reason: a missing snapshot
/// directory, or no repository for the instance under `--repos`.
fn unreadable_sources(cfg: &ReproduceConfig, instances: &[Instance]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match &cfg.source {
        SourceSpec::Snapshots(d) => {
            for i in instances {
                let p = d.join(&i.instance_id);
                if !std::fs::metadata(&p).is_ok_and(|m| m.is_dir()) {
                    out.insert(
                        i.instance_id.clone(),
                        format!(
                            "snapshot directory {} is missing (expected {}/before/<path>)",
                            p.display(),
                            p.display()
                        ),
                    );
                }
            }
        }
        SourceSpec::Repos(_) => {
            let mut probe = cfg.source.open();
            for i in instances {
                if let Err(e) = probe.select_repo_for(&i.instance_id, &i.repo) {
                    out.insert(i.instance_id.clone(), e.to_string());
                }
            }
        }
        SourceSpec::Repo(_) => {}
    }
    out
}

/// Pre-images from a snapshot directory `<dir>/<id>/before/<path>`, read by the file rules: a
/// symbolic link as the file, a FIFO, device or directory, or a file above the limit is an error
/// naming it (never read, never blocking); a missing file is `None` (the gold patch creates it).
struct SnapshotFiles {
    dir: PathBuf,
    limit: u64,
}

impl codethread_chain::source::SourceReader for SnapshotFiles {
    fn read(
        &mut self,
        instance_id: &str,
        _commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, codethread_chain::error::ChainError> {
        let fail = |message: String| codethread_chain::error::ChainError::Instance {
            instance_id: instance_id.to_string(),
            message,
        };
        // the patch crate's path rules: nothing absolute, no `..`, nothing in `.git`
        codethread_patch::check_path(path.as_bytes())
            .map_err(|why| fail(format!("refusing unsafe repository path {path:?}: {why}")))?;
        let full = self.dir.join(instance_id).join("before").join(path);
        match read_regular_nofollow(&full, self.limit) {
            Ok(b) => Ok(Some(b)),
            Err(IoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                Ok(None)
            }
            Err(e) => Err(fail(e.to_string())),
        }
    }

    fn describe(&self) -> String {
        format!("snapshots {}", self.dir.display())
    }
}

/// The source of `cfg`: snapshots through [`SnapshotFiles`], git through the chain crate.
fn open_source(cfg: &ReproduceConfig) -> Box<dyn codethread_chain::source::SourceReader> {
    match &cfg.source {
        SourceSpec::Snapshots(d) => Box::new(SnapshotFiles {
            dir: d.clone(),
            limit: cfg.max_file_bytes,
        }),
        other => other.open(),
    }
}

/// The instances file: a regular file within the limit (parquet files are checked, then read
/// by the chain crate).
fn read_instances(
    path: &Path,
    limit: u64,
) -> Result<codethread_chain::instance::Loaded<Instance>, ReproduceError> {
    let bytes = read_regular(path, limit)?;
    if path.extension().is_some_and(|e| e == "parquet") {
        drop(bytes);
        return Ok(load_instances(path)?);
    }
    let text = String::from_utf8(bytes).map_err(|e| ReproduceError::Input {
        path: path.to_path_buf(),
        message: format!("not UTF-8 text: {}", e.utf8_error()),
    })?;
    Ok(parse_instances(path, &text)?)
}

/// Run the whole pipeline. `progress` receives one line per stage.
///
/// # Errors
/// Only for failures of the run as a whole (unreadable instances file,
/// unwritable output directory). Per-instance and per-model problems are
/// reported in [`ReproduceSummary::warnings`] and never stop the others.
pub fn reproduce(
    cfg: &ReproduceConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<ReproduceSummary, ReproduceError> {
    let mut sum = ReproduceSummary::default();
    let limit = cfg.max_file_bytes;
    check_inputs(cfg)?;
    let loaded = read_instances(&cfg.instances, limit)?;
    sum.rejected_rows = loaded.errors.len();
    sum.errors
        .extend(loaded.errors.iter().map(|e| e.to_string()));
    let instances: Vec<Instance> = loaded.items;
    sum.instances = instances.len();
    if instances.is_empty() {
        return Err(ReproduceError::Missing(format!(
            "{}: no instances",
            cfg.instances.display()
        )));
    }
    let task_types = load_task_types(cfg.task_types.as_deref(), limit)?;

    // Instances whose pre-images cannot be read at all fail here, with the real reason.
    let unreadable = unreadable_sources(cfg, &instances);
    for i in &instances {
        if let Some(why) = unreadable.get(&i.instance_id) {
            sum.failed.push((i.instance_id.clone(), why.clone()));
        }
    }
    let instances: Vec<Instance> = instances
        .into_iter()
        .filter(|i| !unreadable.contains_key(&i.instance_id))
        .collect();
    if instances.is_empty() {
        return Ok(sum);
    }
    // The instance's language settles ambiguous extensions (`.h`: C or C++).
    let hints: BTreeMap<String, Option<Lang>> = instances
        .iter()
        .map(|i| {
            let l = i.language.as_deref().and_then(Lang::from_name);
            (i.instance_id.clone(), l)
        })
        .collect();

    // 1. Chains: targets, PR0, statements, exports.
    progress("building chains (targets, PR0, task statements, exports)");
    // the chain directory must be a real directory below the output root
    let chain_dir = create_dir_all_nofollow(&cfg.out, Path::new("chain"))?;
    let report_dir = create_dir_all_nofollow(&cfg.out, Path::new("report"))?;
    let mut source = open_source(cfg);
    let built = build(
        &instances,
        source.as_mut(),
        &BuildOptions {
            out: chain_dir.clone(),
            force: true,
            ..BuildOptions::default()
        },
        &mut |_, _, _| {},
    )?;
    for o in &built.outcomes {
        match &o.status {
            BuildStatus::Built { .. } => sum.built += 1,
            BuildStatus::Filtered { reason } => {
                sum.filtered.push((o.instance_id.clone(), reason.clone()))
            }
            BuildStatus::Failed { error } => {
                sum.failed.push((o.instance_id.clone(), error.clone()))
            }
        }
    }
    let chain = Chain::open(&chain_dir)?;
    let built_ids: Vec<&Instance> = chain
        .instances
        .iter()
        .filter(|i| chain.is_built(&i.instance_id))
        .collect();
    let targets: BTreeMap<String, BTreeSet<String>> = built
        .outcomes
        .iter()
        .filter_map(|o| match &o.status {
            BuildStatus::Built { targets, .. } => {
                Some((o.instance_id.clone(), targets.iter().cloned().collect()))
            }
            _ => None,
        })
        .collect();

    // Base and PR0 trees per built instance.
    let mut base_trees: BTreeMap<String, (MemTree, MemTree)> = BTreeMap::new();
    for inst in &built_ids {
        let id = &inst.instance_id;
        let r = (|| -> Result<(MemTree, MemTree), String> {
            let gold = codethread_patch::parse(inst.patch.as_bytes()).map_err(|e| e.to_string())?;
            source
                .select_repo_for(id, &inst.repo)
                .map_err(|e| e.to_string())?;
            let mut base = MemTree::new();
            for p in gold.touched_paths() {
                let p = String::from_utf8_lossy(&p).into_owned();
                if let Some(b) = source
                    .read(id, &inst.base_commit, &p)
                    .map_err(|e| e.to_string())?
                {
                    base.insert(p.into_bytes(), b);
                }
            }
            let pr0 = chain.pr0(id).ok_or("no PR0")?;
            let pr0 = codethread_patch::parse(&pr0).map_err(|e| e.to_string())?;
            let mut stubbed = base.clone();
            stubbed
                .apply(&pr0, &ApplyOptions::default())
                .map_err(|e| e.to_string())?;
            Ok((base, stubbed))
        })();
        match r {
            Ok(t) => {
                base_trees.insert(id.clone(), t);
            }
            Err(e) => sum.errors.push(format!("{id}: pre-images: {e}")),
        }
    }

    // 2. Agents: PR1 / PR2 patches, gate, stacks, outcomes.
    let (models, links) = subdirs(&cfg.agents);
    sum.models = models;
    sum.errors.extend(links);
    let mut results = Results::new();
    let mut trees: BTreeMap<(String, String), Trees> = BTreeMap::new();
    for model in &sum.models {
        progress(&format!(
            "model {model}: PR1 patches, gate, PR2 stacks, outcomes"
        ));
        let mut pr1_preds: BTreeMap<String, Prediction> = BTreeMap::new();
        let mut pr2: [BTreeMap<String, Prediction>; 2] = [BTreeMap::new(), BTreeMap::new()];
        for (id, (base, stubbed)) in &base_trees {
            // An unreadable agent output loses that tree only, with a warning.
            let mut read = |tree: &MemTree, stage: &str| {
                overlay(tree, &cfg.agents, &[model, stage, id], limit).unwrap_or_else(|es| {
                    for e in es {
                        sum.errors.push(format!("{model} {id}: {stage}: {e}"));
                    }
                    None
                })
            };
            let agent_pr1 = read(stubbed, "pr1");
            let ha_pr2 = read(base, "pr2_HA");
            let aa_pr2 = match &agent_pr1 {
                Some(a) => read(a, "pr2_AA"),
                None => None,
            };
            let mut t = Trees {
                base,
                agent_pr1,
                ha_pr2,
                aa_pr2,
                ha_patch: None,
                aa_patch: None,
            };
            // Predictions are JSON text: the harness cannot be given other bytes.
            let pred = |patch: &[u8]| Prediction {
                instance_id: id.clone(),
                model_name_or_path: model.clone(),
                model_patch: String::from_utf8_lossy(patch).into_owned(),
            };
            if let Some(a) = &t.agent_pr1 {
                match diff_bytes(stubbed, a) {
                    Ok(p) => {
                        pr1_preds.insert(id.clone(), pred(&p));
                    }
                    Err(e) => sum.errors.push(format!("{model} {id}: PR1 diff: {e}")),
                }
            }
            for (k, (pre, post)) in [(Some(t.base), &t.ha_pr2), (t.agent_pr1.as_ref(), &t.aa_pr2)]
                .into_iter()
                .enumerate()
            {
                if let (Some(pre), Some(post)) = (pre, post) {
                    match diff_bytes(pre, post) {
                        Ok(p) => {
                            pr2[k].insert(id.clone(), pred(&p));
                            if k == 0 {
                                t.ha_patch = Some(p);
                            } else {
                                t.aa_patch = Some(p);
                            }
                        }
                        Err(e) => sum.errors.push(format!("{model} {id}: PR2 diff: {e}")),
                    }
                }
            }
            trees.insert((model.clone(), id.clone()), t);
        }
        write(
            &cfg.out,
            &format!("predictions/{model}.pr1.jsonl"),
            &predictions_to_jsonl(&pr1_preds.values().cloned().collect::<Vec<_>>()),
        )?;

        // Gate PR1 on its harness reports.
        let (pr1_reports, errs) = load_reports_nofollow(&cfg.reports, &[model, "pr1"], limit);
        sum.errors
            .extend(errs.iter().map(|e| format!("{model}: PR1 reports: {e}")));
        let pr1_reports = pr1_reports.unwrap_or_else(|| {
            sum.warnings.push(format!(
                "{model}: PR1 reports: {} does not exist",
                cfg.reports.join(model).join("pr1").display()
            ));
            BTreeMap::new()
        });
        let decisions = gate_predictions(&chain, &pr1_preds, &pr1_reports, Some(source.as_mut()));
        let kept: BTreeSet<String> = decisions
            .iter()
            .filter(|d| d.kept)
            .map(|d| d.instance_id.clone())
            .collect();
        sum.gate
            .insert(model.clone(), (kept.len(), decisions.len()));
        let gate_lines: Vec<String> = decisions
            .iter()
            .filter_map(|d| serde_json::to_string(d).ok())
            .collect();
        write(
            &cfg.out,
            &format!("gate/{model}.jsonl"),
            &(gate_lines.join("\n") + "\n"),
        )?;

        // Stacks the harness grades: PR0 + PR1 + PR2 as one diff against base.
        let kept_pr1: BTreeMap<String, Prediction> = pr1_preds
            .iter()
            .filter(|(k, _)| kept.contains(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let kept_pr2 = |m: &BTreeMap<String, Prediction>| -> BTreeMap<String, Prediction> {
            m.iter()
                .filter(|(k, _)| kept.contains(*k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        };
        for (cond, layers) in [
            (
                "HA",
                vec![Layer::HumanPr1, Layer::Predictions(kept_pr2(&pr2[0]))],
            ),
            (
                "AA",
                vec![
                    Layer::Predictions(kept_pr1.clone()),
                    Layer::Predictions(kept_pr2(&pr2[1])),
                ],
            ),
        ] {
            let (preds, outcomes) = stack(
                &chain,
                &layers,
                &format!("{model}__{cond}"),
                source.as_mut(),
                &mut |_, _, _| {},
            );
            for o in outcomes {
                if let Some(e) = o.error {
                    if kept.contains(&o.instance_id) {
                        sum.errors
                            .push(format!("{model} {cond} {}: stack: {e}", o.instance_id));
                    }
                }
            }
            write(
                &cfg.out,
                &format!("predictions/{model}.{cond}.stacked.jsonl"),
                &predictions_to_jsonl(&preds),
            )?;
        }

        // PR2 outcomes on the gated instances.
        for cond in [Condition::HA, Condition::AA] {
            let stage = format!("pr2_{}", cond.as_str());
            let (reports, errs) = load_reports_nofollow(&cfg.reports, &[model, &stage], limit);
            sum.errors.extend(
                errs.iter()
                    .map(|e| format!("{model}: PR2 {} reports: {e}", cond.as_str())),
            );
            let Some(reports) = reports else {
                sum.warnings.push(format!(
                    "{model}: PR2 {} reports: {} does not exist",
                    cond.as_str(),
                    cfg.reports.join(model).join(&stage).display()
                ));
                continue;
            };
            for id in &kept {
                match reports.get(id).map(|r| r.resolved) {
                    Some(resolved) => results.push(Outcome {
                        benchmark: cfg.benchmark.clone(),
                        model: model.clone(),
                        condition: cond,
                        instance: id.clone(),
                        resolved,
                        task_type: task_types.get(id).copied(),
                    }),
                    None => sum
                        .warnings
                        .push(format!("{model} {} {id}: no PR2 report", cond.as_str())),
                }
            }
        }
    }
    sum.outcomes = results.rows().len();
    write(&cfg.out, "outcomes.csv", &results.to_csv())?;

    // 3. Features of the discordant cohort.
    progress("features: metric deltas, Jaccard, IEC, difficulty");
    let mut metric_cache: BTreeMap<(String, String, Stage), MetricValues> = BTreeMap::new();
    let mut edit_cache: BTreeMap<(String, String, Condition), EditSet> = BTreeMap::new();
    let mut iec_cache: BTreeMap<(String, String), bool> = BTreeMap::new();
    let mut pr1h_cache: BTreeMap<String, MetricValues> = BTreeMap::new();
    let (mut judge_drift, mut judge_aa) = (Vec::new(), Vec::new());
    let aa_resolved: BTreeMap<(String, String), bool> = results
        .rows()
        .iter()
        .filter(|o| o.condition == Condition::AA)
        .map(|o| ((o.model.clone(), o.instance.clone()), o.resolved))
        .collect();
    for ((model, id), t) in &trees {
        let hint = hints.get(id).copied().flatten();
        let mut ids = targets.get(id).cloned().unwrap_or_default();
        let mut sets = Vec::new();
        for (tag, pre, patch) in [
            (Condition::HA, Some(t.base), &t.ha_patch),
            (Condition::AA, t.agent_pr1.as_ref(), &t.aa_patch),
        ] {
            if let (Some(pre), Some(patch)) = (pre, patch) {
                match edit_set(pre, patch, hint) {
                    Ok(s) => sets.push((tag, s)),
                    Err(e) => sum.warnings.push(format!(
                        "{model} {id}: PR2 {} localization: {e}",
                        tag.as_str()
                    )),
                }
            }
        }
        for (_, s) in &sets {
            ids.extend(s.functions.iter().cloned());
        }
        for (tag, s) in sets {
            edit_cache.insert((model.clone(), id.clone(), tag), s);
        }
        let t_ids = targets.get(id).cloned().unwrap_or_default();
        // The judges' inputs: the drift item of this chain, and its AA PR2 with the
        // deterministic survival check per target.
        if let Some(agent) = &t.agent_pr1 {
            let ids: Vec<String> = t_ids.iter().cloned().collect();
            let item = codethread_analysis::judge::drift_item_from_trees(
                &cfg.benchmark,
                model,
                id,
                t.base,
                agent,
                &ids,
                hint,
            );
            judge_drift.push(serde_json::to_value(&item).unwrap_or_default());
            if let Some(p) = &t.aa_patch {
                let touches: BTreeMap<&String, Option<bool>> = ids
                    .iter()
                    .map(|tid| {
                        (
                            tid,
                            codethread_analysis::judge::touches_function(agent, p, tid, hint).ok(),
                        )
                    })
                    .collect();
                judge_aa.push(serde_json::json!({
                    "benchmark": cfg.benchmark, "model": model, "instance": id,
                    "aa_pr2_patch": String::from_utf8_lossy(p),
                    "aa_resolved": aa_resolved.get(&(model.clone(), id.clone())).copied().unwrap_or(false),
                    "failing_tests": [],
                    "pr2_touches_target": touches,
                }));
            }
        }
        if let Some(agent) = &t.agent_pr1 {
            match iec_flag(t.base, agent, &t_ids, hint) {
                Ok(flag) => {
                    iec_cache.insert((model.clone(), id.clone()), flag);
                }
                Err(e) => sum.warnings.push(format!("{model} {id}: IEC: {e}")),
            }
        }
        // The human PR1 is the same for every model: measured once per instance.
        if !pr1h_cache.contains_key(id) {
            pr1h_cache.insert(id.clone(), metric_sum(t.base, &t_ids, hint, cfg.profile));
        }
        if let Some(a) = &t.agent_pr1 {
            metric_cache.insert(
                (model.clone(), id.clone(), Stage::Pr1Agent),
                metric_sum(a, &t_ids, hint, cfg.profile),
            );
        }
        if let Some(h) = &t.ha_pr2 {
            metric_cache.insert(
                (model.clone(), id.clone(), Stage::Pr2Ha),
                metric_sum(h, &ids, hint, cfg.profile),
            );
        }
        if let Some(a) = &t.aa_pr2 {
            metric_cache.insert(
                (model.clone(), id.clone(), Stage::Pr2Aa),
                metric_sum(a, &ids, hint, cfg.profile),
            );
        }
    }
    let lines =
        |rows: &[serde_json::Value]| -> String { rows.iter().map(|r| format!("{r}\n")).collect() };
    write(&cfg.out, "judge/drift_items.jsonl", &lines(&judge_drift))?;
    write(&cfg.out, "judge/aa_pr2.jsonl", &lines(&judge_aa))?;
    sum.judge_items = judge_drift.len();
    if let Some(p) = &cfg.judge_labels {
        let bytes = read_regular_nofollow(p, limit)?;
        let (labels, errs) = codethread_analysis::judge::load_items::<
            codethread_analysis::judge::CompoundLabel,
        >(&p.display().to_string(), &bytes);
        sum.errors
            .extend(errs.iter().map(|e| format!("judge labels: {e}")));
        let cohort = codethread_analysis::judge::ha_wins_cohort(&results);
        let t = codethread_analysis::judge::compounding_table(&labels, &cohort);
        write(
            &cfg.out,
            "judge/compounding.json",
            &format!("{}\n", serde_json::to_string(&t).unwrap_or_default()),
        )?;
        write(&cfg.out, "judge/compounding.md", &t.to_markdown())?;
        sum.compounding = Some(t);
    }
    // The judge's IEC replaces the static detector's where the judge labelled the chain.
    let mut iec_source = "the static detector (docs/analysis.md)".to_string();
    if let Some(p) = &cfg.drift_labels {
        let bytes = read_regular_nofollow(p, limit)?;
        let (records, errs) = codethread_analysis::judge::load_items::<
            codethread_analysis::judge::DriftRecord,
        >(&p.display().to_string(), &bytes);
        sum.errors
            .extend(errs.iter().map(|e| format!("drift labels: {e}")));
        let judge = codethread_analysis::judge::iec_from_labels(&records);
        let detector: BTreeMap<(String, String, String), bool> = iec_cache
            .iter()
            .map(|((m, i), f)| ((cfg.benchmark.clone(), m.clone(), i.clone()), *f))
            .collect();
        let agreement = codethread_analysis::judge::agreement(&judge, &detector);
        let mut used = 0usize;
        for ((b, m, i), f) in &judge {
            if *b == cfg.benchmark {
                iec_cache.insert((m.clone(), i.clone()), *f);
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
        iec_source = format!(
            "the drift judge's labels on {used} chains (the static detector elsewhere; agreement in judge/iec_agreement.json)"
        );
        sum.iec_agreement = Some((agreement, used));
    }
    let metrics_fn = |k: &InstanceKey, s: Stage| match s {
        Stage::Pr1Human => pr1h_cache.get(&k.instance).copied(),
        _ => metric_cache
            .get(&(k.model.clone(), k.instance.clone(), s))
            .copied(),
    };
    let edits_fn = |k: &InstanceKey, c: Condition| {
        edit_cache
            .get(&(k.model.clone(), k.instance.clone(), c))
            .cloned()
    };
    let iec_fn = |k: &InstanceKey| {
        iec_cache
            .get(&(k.model.clone(), k.instance.clone()))
            .copied()
    };
    let features = build_features(
        &results,
        &FeatureSources {
            metrics: &metrics_fn,
            edits: &edits_fn,
            iec: &iec_fn,
        },
        &FeatureOptions::default(),
    );
    sum.discordant = features.rows.len();

    // 4. Tables, regression, report.
    progress("tables, regression, report");
    let tables = build_tables(
        &results,
        &TableOptions {
            bootstrap_reps: cfg.bootstrap_reps,
            seed: cfg.seed,
        },
    );
    sum.files =
        codethread_analysis::report::write_report(&report_dir, &tables, Some(&features), None)?;
    // The paper's regressors, less those this cohort cannot inform: a
    // feature missing for some row, or constant over the cohort.
    let mut chosen: Vec<&str> = Vec::new();
    // Every feature left out of the model, with its reason, for report.md.
    let mut left_out: Vec<String> = Vec::new();
    for (j, name) in FEATURES.iter().enumerate() {
        let vals: Vec<Option<f64>> = features
            .rows
            .iter()
            .map(|r| r.values.get(j).copied().flatten())
            .collect();
        let present: Vec<f64> = vals.iter().flatten().copied().collect();
        if present.len() < vals.len() {
            let why = format!(
                "missing for {} of {} rows",
                vals.len() - present.len(),
                vals.len()
            );
            sum.warnings
                .push(format!("regression: {name} left out ({why})"));
            left_out.push(format!("`{name}`: {why}"));
        } else if present.windows(2).all(|w| w[0] == w[1]) {
            sum.warnings.push(format!(
                "regression: {name} left out (constant over the cohort)"
            ));
            left_out.push(format!("`{name}`: constant over the cohort"));
        } else {
            chosen.push(name);
        }
    }
    // Exactly collinear regressors (e.g. PR2 deltas that move together in a
    // small cohort) are dropped one fit at a time, each with a warning.
    let mut fits: Vec<LogitFit> = Vec::new();
    let mut reg_error: Option<String> = None;
    loop {
        let (design, dropped) = match features.design(Some(&chosen), false) {
            Ok(d) => d,
            Err(e) => {
                reg_error = Some(e.to_string());
                break;
            }
        };
        if !dropped.is_empty() {
            sum.warnings.push(format!(
                "regression: {} rows lack a feature and were left out",
                dropped.len()
            ));
        }
        match fit_logit(&design, &LogitOptions::default()) {
            Ok(fit) => {
                // Under separation the MLE does not exist: add the Firth fit.
                let separated = fit.separation.is_some();
                fits.push(fit);
                if separated {
                    let opts = LogitOptions {
                        firth: true,
                        ..LogitOptions::default()
                    };
                    match fit_logit(&design, &opts) {
                        Ok(f) => fits.push(f),
                        Err(e) => sum
                            .warnings
                            .push(format!("regression: Firth fit failed: {e}")),
                    }
                }
                break;
            }
            Err(AnalysisError::RankDeficient {
                zero_columns,
                dependencies,
                detail,
                ..
            }) => {
                let drop: BTreeSet<String> = zero_columns
                    .into_iter()
                    .chain(dependencies.into_iter().map(|d| d.column))
                    .filter(|c| chosen.contains(&c.as_str()))
                    .collect();
                if drop.is_empty() {
                    reg_error = Some(detail);
                    break;
                }
                sum.warnings.push(format!(
                    "regression: left out {} ({detail})",
                    drop.iter().cloned().collect::<Vec<_>>().join(", ")
                ));
                for d in &drop {
                    left_out.push(format!("`{d}`: {detail}"));
                }
                chosen.retain(|c| !drop.contains(*c));
            }
            Err(e) => {
                reg_error = Some(e.to_string());
                break;
            }
        }
    }
    let reg_json = match &reg_error {
        Some(e) => serde_json::json!({ "error": e }),
        None => serde_json::json!({ "fits": fits }),
    };
    let reg_path = write(
        &cfg.out,
        "report/regression.json",
        &format!("{reg_json:#}\n"),
    )?;
    sum.files.push(reg_path);
    // Table 4 goes right after Tables 2 and 3 in report.md.
    let md_path = report_dir.join("report.md");
    let md = String::from_utf8_lossy(&read_regular_nofollow(&md_path, u64::MAX)?).into_owned();
    let left_out_md = if left_out.is_empty() {
        format!("All {} features are in the model.\n", FEATURES.len())
    } else {
        let mut t = format!(
            "Features left out of the model ({} of {}):\n\n",
            left_out.len(),
            FEATURES.len()
        );
        for l in &left_out {
            t.push_str(&format!("- {l}\n"));
        }
        t
    };
    // Every (language, metric) the profile does not measure, and why
    // (codethread_metrics::UNMEASURED): a null or a tool's constant.
    let unmeasured = codethread_metrics::unmeasured(cfg.profile);
    let unmeasured_md = if unmeasured.is_empty() {
        "The profile measures every metric of every language.\n".to_string()
    } else {
        let mut t = String::from("Not measured under this profile (language, metric: why):\n\n");
        for (lang, metric, why) in &unmeasured {
            t.push_str(&format!("- {}, {metric}: {why}\n", lang.name()));
        }
        t
    };
    let table4 = format!(
        "{}\n{left_out_md}\nMetric features use the `{}` metric profile (`--profile`; docs/metrics.md). The IEC feature comes from {iec_source}.\n\n{unmeasured_md}",
        table4_markdown(&fits, reg_error.as_deref()),
        cfg.profile
    );
    let mut md = match md.find("\n## Discordant cohort") {
        Some(i) => format!("{}\n{table4}{}", &md[..i], &md[i..]),
        None => format!("{md}\n{table4}"),
    };
    if cfg.bundled_fixtures {
        let note =
            "> **Bundled fixtures.** These inputs are `fixtures/bench`: scripted agents on small \
                    instances made to exercise every stage of the pipeline. The numbers below say \
                    nothing about any real agent.\n\n";
        let at = md.find('\n').map_or(0, |i| i + 1);
        md.insert_str(at, &format!("\n{note}"));
    }
    write(&cfg.out, "report/report.md", &md)?;
    sum.report_dir = report_dir;
    Ok(sum)
}

/// Table 4: the logistic regression of an HA-only win on the features.
fn table4_markdown(fits: &[LogitFit], error: Option<&str>) -> String {
    let mut s = String::from(
        "## Table 4 — logistic regression: P(HA-only win) on the discordant cohort\n\n",
    );
    if let Some(e) = error {
        s.push_str(&format!("Not estimable: {e}\n"));
        return s;
    }
    for fit in fits {
        let label = if fit.penalized_llf.is_some() {
            "Firth penalized likelihood"
        } else {
            "maximum likelihood"
        };
        s.push_str(&format!(
            "{label}: n = {}, df = {}, log-likelihood {:.4} (null {:.4}), McFadden R² = {:.4}, LR χ² = {:.3} (p = {:.4}), AIC {:.2}, BIC {:.2}, {} iterations{}\n\n",
            fit.nobs,
            fit.df_model,
            fit.llf,
            fit.llnull,
            fit.prsquared,
            fit.llr,
            fit.llr_pvalue,
            fit.aic,
            fit.bic,
            fit.iterations,
            if fit.converged { "" } else { ", not converged" }
        ));
        s.push_str("| term | coef | SE | z | p | odds ratio | OR 95% CI |\n|---|---:|---:|---:|---:|---:|---|\n");
        for (j, name) in fit.names.iter().enumerate() {
            let g = |v: &[f64]| v.get(j).copied().unwrap_or(f64::NAN);
            let ci = fit
                .odds_ratio_conf_int
                .get(j)
                .copied()
                .unwrap_or([f64::NAN; 2]);
            s.push_str(&format!(
                "| {name} | {} | {} | {:.3} | {:.4} | {} | [{}, {}] |\n",
                num(g(&fit.params)),
                num(g(&fit.bse)),
                g(&fit.zvalues),
                g(&fit.pvalues),
                num(g(&fit.odds_ratios)),
                num(ci[0]),
                num(ci[1])
            ));
        }
        for w in &fit.warnings {
            s.push_str(&format!("\n> {w}\n"));
        }
        s.push('\n');
    }
    s
}

/// Four decimals, or scientific notation for very large or small magnitudes.
fn num(v: f64) -> String {
    if v.is_finite() && v != 0.0 && !(1e-4..1e6).contains(&v.abs()) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
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
