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
//! agents/<model>/{pr1,pr2_HA,pr2_AA}.jsonl     or the same steps as patches (predictions
//!                                              files, e.g. from `chain harbor-import`)
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
//! or per-input error ([`ReproduceSummary::errors`]) = partial. Errors and warnings are typed
//! ([`Diagnostic`]); their text is their [`std::fmt::Display`].
//!
//! Stages, one module each: `inputs` (checks, instances, task types, the pre-image source),
//! `chains` (targets, PR0, the base and stubbed trees), `agents` (PR1/PR2 patches, gate, stacks,
//! outcomes), `features` (metric sums, edit sets, IEC, the feature table), `judges` (the
//! judges' inputs and labels), `report` (Table 4 by `codethread_analysis::prune`, the report).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codethread_chain::SourceSpec;
use codethread_lang::io::{
    create_dir_all_nofollow, write_atomic_in, IoError, DEFAULT_MAX_FILE_BYTES,
};
use codethread_metrics::Profile;

use crate::exit::ExitOutcome;

mod agents;
mod chains;
mod diagnostic;
mod features;
mod inputs;
mod judges;
mod keys;
mod report;

pub use diagnostic::{ChainStep, Diagnostic};

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
    Chain(#[from] codethread_chain::ChainError),
    /// A benchmark file (instances) could not be read as a whole.
    #[error("benchmark: {0}")]
    Bench(#[from] codethread_bench::BenchError),
    /// The analysis failed as a whole.
    #[error("analysis: {0}")]
    Analysis(#[from] codethread_analysis::AnalysisError),
    /// Inputs were given but the run produced no PR2 outcome: each entry
    /// says what is missing (no model, no PR1, no PR1 the gate kept, no
    /// PR2 or no report of one), per model and step.
    #[error("no PR2 outcome to analyse: {}", missing.join("; "))]
    NoOutcomes {
        /// What is missing, per model and step.
        missing: Vec<String>,
    },
    /// The instances file holds no instance.
    #[error("{}: no instances", path.display())]
    NoInstances {
        /// The instances file.
        path: PathBuf,
    },
    /// The task-type file is not a JSON object of known task types.
    #[error("{}: {message}", path.display())]
    TaskTypes {
        /// The task-type file.
        path: PathBuf,
        /// What is wrong (the JSON error, or the instance and its unknown type).
        message: String,
    },
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
    /// The benchmark name the tables give every instance; `None`: each
    /// instance's own benchmark, told from its row
    /// ([`codethread_bench::Benchmark::of`]: `SWE-bench Verified`,
    /// `SWE-bench Multilingual`, `SWE-bench Pro`, `FeatBench`, ...).
    pub benchmark: Option<String>,
    /// Output directory (chain, predictions, report).
    pub out: PathBuf,
    /// Bootstrap resamples per Δ.
    pub bootstrap_reps: usize,
    /// Bootstrap seed.
    pub seed: u64,
    /// The largest input file read (instances, task types, agent outputs, reports); larger
    /// files are refused naming the file. Default [`DEFAULT_MAX_FILE_BYTES`].
    pub max_file_bytes: u64,
    /// Compounding-judge labels (JSONL of `codethread_judge::judge::CompoundLabel`, e.g.
    /// from `analyze judge compound import`): with them the run reports the compounding table
    /// on the HA-wins discordant cohort (`judge/compounding.{json,md}`).
    pub judge_labels: Option<PathBuf>,
    /// Drift-judge labels (JSONL of `codethread_judge::judge::DriftRecord`, from
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
            benchmark: Some(
                bench
                    .file_name()
                    .map_or_else(|| "bench".to_string(), |n| n.to_string_lossy().into_owned()),
            ),
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
    pub errors: Vec<Diagnostic>,
    /// Notes that are not failures (left-out regressors, missing PR2 reports, ...).
    pub warnings: Vec<Diagnostic>,
    /// Rows of the instances file that could not be read (each also in `errors`).
    pub rejected_rows: usize,
    /// Per (model, condition) of PR2: what became of the kept instances'
    /// submissions (graded, empty, not submitted, no report).
    pub submissions: BTreeMap<(String, String), Submissions>,
    /// Instances per benchmark name (as the tables give them).
    pub benchmarks: BTreeMap<String, usize>,
    /// Instances per task type and the rule that gave it (`--task-types`
    /// file, or the paper's rule for the instance's benchmark); instances
    /// with none are under `None`.
    pub task_type_rules: BTreeMap<(Option<String>, String), usize>,
    /// Drift-judge items written to `judge/drift_items.jsonl` (one per model × instance with
    /// an agent PR1); the AA PR2 rows beside them in `judge/aa_pr2.jsonl`.
    pub judge_items: usize,
    /// The compounding table, when judge labels were given.
    pub compounding: Option<codethread_judge::judge::CompoundingTable>,
    /// With drift labels: the judge's IEC against the static detector on the chains both
    /// rated, and how many chains took their IEC feature from the judge.
    pub iec_agreement: Option<(codethread_judge::judge::Agreement, usize)>,
}

/// What became of one model's PR2 submissions under one condition, over the
/// instances whose PR1 the gate kept.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Submissions {
    /// Graded by the harness (a report, resolved or not).
    pub graded: usize,
    /// Empty (given empty, or skipped by the harness as empty): counted as
    /// unresolved, never dropped.
    pub empty: usize,
    /// No PR2 given for the instance: no outcome.
    pub not_submitted: usize,
    /// A PR2 given but no report of it: no outcome (a warning each).
    pub no_report: usize,
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

/// Writes `out/rel` atomically; no component below `out` may be a symbolic link (a planted
/// link at the file is replaced, a planted directory link is an error).
fn write(out: &Path, rel: &str, text: &str) -> Result<PathBuf, ReproduceError> {
    Ok(write_atomic_in(out, Path::new(rel), text.as_bytes())?)
}

/// Run the whole pipeline. `progress` receives one line per stage.
///
/// # Errors
/// Only for failures of the run as a whole (unreadable instances file,
/// unwritable output directory). Per-instance and per-model problems are
/// reported in [`ReproduceSummary::errors`] and [`ReproduceSummary::warnings`] and never stop
/// the others.
pub fn reproduce(
    cfg: &ReproduceConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<ReproduceSummary, ReproduceError> {
    let mut sum = ReproduceSummary::default();
    let Some(inputs) = inputs::read(cfg, &mut sum)? else {
        return Ok(sum);
    };

    // 1. Chains: targets, PR0, statements, exports.
    progress("building chains (targets, PR0, task statements, exports)");
    // the chain directory must be a real directory below the output root
    let chain_dir = create_dir_all_nofollow(&cfg.out, Path::new("chain"))?;
    let report_dir = create_dir_all_nofollow(&cfg.out, Path::new("report"))?;
    let mut source = inputs::open_source(cfg);
    let built = chains::build(
        &inputs.instances,
        source.as_mut(),
        &chain_dir,
        codethread_lang::io::SourceLimits::with_max_file_bytes(cfg.max_file_bytes),
        &mut sum,
    )?;

    // 2. Agents: PR1 / PR2 patches, gate, stacks, outcomes.
    let agents = agents::run(cfg, &built, &inputs, source.as_mut(), &mut sum, progress)?;
    sum.outcomes = agents.results.rows().len();
    write(&cfg.out, "outcomes.csv", &agents.results.to_csv())?;
    if sum.outcomes == 0 && sum.built > 0 {
        // Never an empty report: say what is missing (exit 2).
        return Err(ReproduceError::NoOutcomes {
            missing: report::missing(cfg, &sum),
        });
    }

    // 3. Features of the discordant cohort, and the judges' inputs and labels.
    progress("features: metric deltas, Jaccard, IEC, difficulty");
    let mut measured =
        features::measure(cfg, &agents.trees, &built.targets, &inputs.hints, &mut sum);
    judges::write_inputs(
        cfg,
        &agents,
        &built.targets,
        &inputs.hints,
        &inputs.benchmarks,
        &mut sum,
    )?;
    judges::compounding(cfg, &agents.results, &mut sum)?;
    let iec_source = judges::drift_labels(cfg, &inputs.benchmarks, &mut measured, &mut sum)?;
    let features = features::table(&agents.results, &measured);
    sum.discordant = features.rows.len();

    // 4. Tables, regression, report.
    progress("tables, regression, report");
    report::write_all(
        cfg,
        &agents.results,
        &features,
        &report_dir,
        &iec_source,
        &mut sum,
    )?;
    sum.report_dir = report_dir;
    Ok(sum)
}
