//! The per-input errors and warnings of a run, typed; their text is their `Display`.

use std::fmt;
use std::path::PathBuf;

use codethread_analysis::prune::FitNote;
use codethread_analysis::Condition;

/// A step of a (model, instance) chain whose agent outputs and harness reports the pipeline
/// reads: PR1, or PR2 under a condition (HA: on the human PR1, AA: on the agent's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ChainStep {
    /// The agent's PR1 on PR0.
    Pr1,
    /// PR2 under a condition ([`Condition::HA`] or [`Condition::AA`]).
    Pr2(Condition),
}

impl ChainStep {
    /// The step's directory name below `agents/<model>/` and `reports/<model>/`: `pr1`,
    /// `pr2_HA`, `pr2_AA`.
    pub fn dir_name(self) -> String {
        match self {
            ChainStep::Pr1 => "pr1".to_string(),
            ChainStep::Pr2(c) => format!("pr2_{}", c.as_str()),
        }
    }
}

impl fmt::Display for ChainStep {
    /// `PR1`, `PR2 HA`, `PR2 AA`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainStep::Pr1 => f.write_str("PR1"),
            ChainStep::Pr2(c) => write!(f, "PR2 {}", c.as_str()),
        }
    }
}

/// One per-input problem of a run ([`super::ReproduceSummary::errors`]) or note
/// ([`super::ReproduceSummary::warnings`]). Each names the model, instance and step it
/// concerns; causes from other crates are kept as their text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Diagnostic {
    /// A row of the instances file could not be read (the row is left out).
    #[error("{message}")]
    InstanceRow {
        /// The loader's error, naming the file and line.
        message: String,
    },
    /// The pre-images of a built instance could not be read, or its PR0 did not apply to
    /// them (every chain of the instance is left out).
    #[error("{instance}: pre-images: {message}")]
    PreImages {
        /// The instance.
        instance: String,
        /// The cause.
        message: String,
    },
    /// An entry of the agents directory could not be used as a model (a symbolic link, an
    /// unreadable entry).
    #[error("{message}")]
    AgentsEntry {
        /// The file rules' error, naming the entry.
        message: String,
    },
    /// A model directory whose name is not UTF-8 (model names name prediction files and
    /// table rows): the model is left out.
    #[error("{}: the model directory's name is not UTF-8; the model is left out", path.display())]
    ModelName {
        /// The directory.
        path: PathBuf,
    },
    /// An agent's output tree of one step was refused (a link, a special or oversized file):
    /// that tree is left out.
    #[error("{model} {instance}: {}: {message}", step.dir_name())]
    AgentOutput {
        /// The model.
        model: String,
        /// The instance.
        instance: String,
        /// The step.
        step: ChainStep,
        /// The file rules' error, naming the file.
        message: String,
    },
    /// A predictions file of a step (`agents/<model>/<step>.jsonl`), or one of its rows,
    /// could not be read: the rows that could are used.
    #[error("{model}: {}.jsonl: {message}", step.dir_name())]
    AgentPredictions {
        /// The model.
        model: String,
        /// The step.
        step: ChainStep,
        /// The loader's error, naming the file (and line).
        message: String,
    },
    /// The patch of a step could not be made from the agent's trees.
    #[error("{model} {instance}: {} diff: {message}", match step { ChainStep::Pr1 => "PR1", ChainStep::Pr2(_) => "PR2" })]
    Diff {
        /// The model.
        model: String,
        /// The instance.
        instance: String,
        /// The step.
        step: ChainStep,
        /// The cause.
        message: String,
    },
    /// A harness report of a step could not be read (it is left out).
    #[error("{model}: {step} reports: {message}")]
    Reports {
        /// The model.
        model: String,
        /// The step.
        step: ChainStep,
        /// The loader's error, naming the file.
        message: String,
    },
    /// There is no harness-report directory for a step (warning).
    #[error("{model}: {step} reports: {} does not exist", path.display())]
    ReportsMissing {
        /// The model.
        model: String,
        /// The step.
        step: ChainStep,
        /// The directory looked for.
        path: PathBuf,
    },
    /// A gated chain could not be stacked into the prediction the harness grades.
    #[error("{model} {} {instance}: stack: {message}", condition.as_str())]
    Stack {
        /// The model.
        model: String,
        /// The condition.
        condition: Condition,
        /// The instance.
        instance: String,
        /// The cause.
        message: String,
    },
    /// A gated chain has no PR2 report under a condition (warning: no outcome).
    #[error("{model} {} {instance}: no PR2 report", condition.as_str())]
    NoPr2Report {
        /// The model.
        model: String,
        /// The condition.
        condition: Condition,
        /// The instance.
        instance: String,
    },
    /// A PR2 patch could not be localized to functions (warning: no edit set).
    #[error("{model} {instance}: PR2 {} localization: {message}", condition.as_str())]
    Localization {
        /// The model.
        model: String,
        /// The instance.
        instance: String,
        /// The condition.
        condition: Condition,
        /// The cause.
        message: String,
    },
    /// The static IEC detector failed on a chain (warning: no IEC value).
    #[error("{model} {instance}: IEC: {message}")]
    Iec {
        /// The model.
        model: String,
        /// The instance.
        instance: String,
        /// The cause, naming the file.
        message: String,
    },
    /// A step of the Table 4 regression (warning: a left-out feature or row, a failed Firth fit).
    #[error("regression: {0}")]
    Regression(FitNote),
    /// A compounding-judge label could not be read (it is left out).
    #[error("judge labels: {message}")]
    JudgeLabels {
        /// The loader's error, naming the file and line.
        message: String,
    },
    /// A drift-judge label could not be read (it is left out).
    #[error("drift labels: {message}")]
    DriftLabels {
        /// The loader's error, naming the file and line.
        message: String,
    },
}

impl serde::Serialize for Diagnostic {
    /// As its text.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
