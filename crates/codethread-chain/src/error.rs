//! Typed errors. Every variant names where the problem is: file, line,
//! instance and field, so that a batch can report bad rows and go on.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ChainError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A git command failed.
    #[error("git {args} (in {}): {message}", repo.display())]
    Git {
        /// The repository.
        repo: PathBuf,
        /// The arguments given.
        args: String,
        /// stderr, or what went wrong.
        message: String,
    },
    /// A file is missing from a source (git tree or snapshot).
    #[error("instance {instance_id}: {path} not found at {at}")]
    SourceMissing {
        /// The instance.
        instance_id: String,
        /// Repository path of the file.
        path: String,
        /// The commit or snapshot directory searched.
        at: String,
    },
    /// The instance's repository, testbed, snapshot or commit is not where
    /// the source looked.
    #[error("instance {instance_id}: {problem}")]
    NoSource {
        /// The instance.
        instance_id: String,
        /// What is missing.
        problem: NoSource,
    },
    /// The instance's repository could not be selected in a source.
    #[error("instance {instance_id}: repository {repo}: {source}")]
    Repository {
        /// The instance.
        instance_id: String,
        /// The instance's `repo`.
        repo: String,
        /// Why.
        source: Box<ChainError>,
    },
    /// A repository path breaks codethread-patch's path rules
    /// ([`codethread_patch::check_path`]): absolute, `..`, inside `.git`.
    #[error("instance {instance_id}: refusing unsafe repository path {path:?}: {why}")]
    UnsafePath {
        /// The instance.
        instance_id: String,
        /// The path.
        path: String,
        /// The rule it breaks.
        why: &'static str,
    },
    /// The instance has no gold patch.
    #[error("instance {instance_id}: patch: the instance has no gold patch")]
    NoGoldPatch {
        /// The instance.
        instance_id: String,
    },
    /// A diff (the gold patch, a layer, PR0, a setup) is not a valid diff.
    #[error("instance {instance_id}: patch: {layer} cannot be parsed: {source}")]
    PatchParse {
        /// The instance.
        instance_id: String,
        /// Which diff (`gold patch`, `PR0`, `the layers below`, a layer's name).
        layer: String,
        /// The parse error.
        source: codethread_patch::ParseError,
    },
    /// A diff does not apply by codethread-patch's rules (git's).
    #[error("instance {instance_id}: patch: {layer} does not apply: {source}")]
    Apply {
        /// The instance.
        instance_id: String,
        /// Which diff.
        layer: String,
        /// Why.
        source: codethread_patch::ApplyError,
    },
    /// A diff does not apply with the real `git apply` in a scratch
    /// repository (or a scratch repository could not be made or read).
    #[error("instance {instance_id}: patch: {layer}: {source}")]
    GitApply {
        /// The instance.
        instance_id: String,
        /// Which diff, and which way (`PR0`, `git apply -R of PR0`, a layer).
        layer: String,
        /// git's failure.
        source: crate::gitcli::GitError,
    },
    /// `git apply -R` of PR0 did not give the pre-image back.
    #[error("instance {instance_id}: patch: git apply -R {}", if *left_behind { format!("left {path} behind") } else { format!("did not restore {path}") })]
    NotReversible {
        /// The instance.
        instance_id: String,
        /// The file.
        path: String,
        /// The file was added and not removed again (else: its bytes differ).
        left_behind: bool,
    },
    /// Layers could not be combined into one diff.
    #[error("instance {instance_id}: patch: cannot write the combined diff: {source}")]
    Compose {
        /// The instance.
        instance_id: String,
        /// Why.
        source: codethread_patch::ComposeError,
    },
    /// A diff could not be written.
    #[error("instance {instance_id}: cannot write {what}: {source}")]
    Diff {
        /// The instance.
        instance_id: String,
        /// Which diff (`PR0`, `the reverse diff`, `the sealed setup`).
        what: &'static str,
        /// Why.
        source: codethread_patch::CreateError,
    },
    /// The gold patch could not be localized.
    #[error("instance {instance_id}: patch: {source}")]
    Localize {
        /// The instance.
        instance_id: String,
        /// Why.
        source: codethread_patch::LocalizeError,
    },
    /// A target localization named is not in the pre-image's index.
    #[error("instance {instance_id}: patch: target {target} not found in the pre-image index")]
    TargetNotIndexed {
        /// The instance.
        instance_id: String,
        /// The target id.
        target: String,
    },
    /// A target's file has no pre-image in the localization.
    #[error("instance {instance_id}: no pre-image of {path}")]
    NoPreImage {
        /// The instance.
        instance_id: String,
        /// The file.
        path: String,
    },
    /// The skeleton of a target file could not be made.
    #[error("instance {instance_id}: {path}: skeleton: {source}")]
    Skeleton {
        /// The instance.
        instance_id: String,
        /// The file.
        path: String,
        /// Why.
        source: codethread_skeleton::SkeletonError,
    },
    /// No target could be stubbed (each left for a reason other than a stub
    /// known not to compile).
    #[error(
        "instance {instance_id}: no target could be stubbed: {}",
        listed(not_stubbed)
    )]
    NoStub {
        /// The instance.
        instance_id: String,
        /// Each target and why it was left.
        not_stubbed: Vec<(String, NotStubbed)>,
    },
    /// Every target's stub is known not to compile (a C++ deduced return
    /// type, Rust `-> impl Trait`, ...) and none could be written: the
    /// instance is filtered as `no_compiling_stub`, not failed.
    #[error(
        "instance {instance_id}: no target has a stub that compiles: {}",
        listed(not_stubbed)
    )]
    NoCompilingStub {
        /// The instance.
        instance_id: String,
        /// The targets and their `WouldNotCompile(..)` reasons.
        not_stubbed: Vec<(String, NotStubbed)>,
    },
    /// A layer of a stack could not be read.
    #[error("instance {instance_id}: {layer}: {source}")]
    Layer {
        /// The instance.
        instance_id: String,
        /// The layer (`PR0`, `human PR1`).
        layer: &'static str,
        /// Why.
        source: Box<ChainError>,
    },
    /// A layer of predictions has none for the instance.
    #[error("instance {instance_id}: no prediction for {layer}")]
    NoPrediction {
        /// The instance.
        instance_id: String,
        /// The layer (`PR1`, `PR2`, ...).
        layer: String,
    },
    /// A layer labelled `base:` applies on top of the layers below it.
    #[error("instance {instance_id}: patch: {layer} is labelled `base:` but applies on top of the layers below it, not at base_commit: give it without `base:`")]
    BaseLabel {
        /// The instance.
        instance_id: String,
        /// The layer's name.
        layer: String,
    },
    /// An instance's `llm_request.json` is not a request.
    #[error("instance {instance_id}: llm_request.json: {source}")]
    RequestFile {
        /// The instance.
        instance_id: String,
        /// Why.
        source: serde_json::Error,
    },
    /// Code of this crate panicked on the instance (a bug; the batch goes
    /// on).
    #[error("instance {instance_id}: internal error (panic): {message}")]
    Panic {
        /// The instance.
        instance_id: String,
        /// The panic's message.
        message: String,
    },
    /// A file was refused or could not be read or written by the safe I/O
    /// layer (not a regular file, over the size limit, a planted link, ...).
    #[error(transparent)]
    File(#[from] codethread_lang::io::IoError),
    /// A benchmark file (instances, predictions, reports) could not be
    /// read; the error names the file, line, instance and field.
    #[error(transparent)]
    Bench(#[from] codethread_bench::BenchError),
    /// An LLM request or answer file could not be read or written.
    #[error(transparent)]
    Llm(#[from] codethread_llm::LlmError),
}

/// What [`ChainError::NoSource`] found missing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoSource {
    /// No repository directory for the instance's `repo`.
    #[error("no repository for {repo} under {} (looked for {})", root.display(), looked_for.join(", "))]
    Repository {
        /// The instance's `repo`.
        repo: String,
        /// The directory searched.
        root: PathBuf,
        /// The names tried.
        looked_for: Vec<String>,
    },
    /// No repository was selected before a read.
    #[error("no repository selected under {}", root.display())]
    NotSelected {
        /// The directory.
        root: PathBuf,
    },
    /// No testbed work tree for the instance.
    #[error("no testbed: neither {0}/<id>/testbed nor {0}/<id> is a git work tree (check --testbeds)", root.display())]
    Testbed {
        /// The testbeds directory.
        root: PathBuf,
    },
    /// No snapshot directory for the instance.
    #[error(
        "no snapshot: {why} (snapshots are <dir>/<instance_id>/before/<path>; check --snapshots)"
    )]
    Snapshot {
        /// What was found instead.
        why: String,
    },
    /// The base commit is not in the repository.
    #[error("commit {commit} is not in {}", repo.display())]
    Commit {
        /// The commit.
        commit: String,
        /// The repository.
        repo: PathBuf,
    },
    /// The path names a tree, link or submodule at the commit.
    #[error("{object} is a {kind}, not a file")]
    NotAFile {
        /// `commit:path`.
        object: String,
        /// git's object type.
        kind: String,
    },
}

impl ChainError {
    /// The instance the error is about, when it is about one.
    pub fn instance_id(&self) -> Option<&str> {
        use ChainError::*;
        match self {
            SourceMissing { instance_id, .. }
            | NoSource { instance_id, .. }
            | Repository { instance_id, .. }
            | UnsafePath { instance_id, .. }
            | NoGoldPatch { instance_id }
            | PatchParse { instance_id, .. }
            | Apply { instance_id, .. }
            | GitApply { instance_id, .. }
            | NotReversible { instance_id, .. }
            | Compose { instance_id, .. }
            | Diff { instance_id, .. }
            | Localize { instance_id, .. }
            | TargetNotIndexed { instance_id, .. }
            | NoPreImage { instance_id, .. }
            | Skeleton { instance_id, .. }
            | NoStub { instance_id, .. }
            | NoCompilingStub { instance_id, .. }
            | Layer { instance_id, .. }
            | NoPrediction { instance_id, .. }
            | BaseLabel { instance_id, .. }
            | RequestFile { instance_id, .. }
            | Panic { instance_id, .. } => Some(instance_id),
            Io { .. } | Git { .. } | File(_) | Bench(_) | Llm(_) => None,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ChainError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias.
pub type Result<T, E = ChainError> = std::result::Result<T, E>;

/// Why a target of PR0 was left as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum NotStubbed {
    /// Its stub is known not to compile (a C++ deduced return type, Rust `-> impl Trait`,
    /// ...), so none was written: the skeleton's warning code and text.
    WouldNotCompile {
        /// The warning's code (`codethread_skeleton::Warning::code`).
        code: String,
        /// The warning.
        warning: String,
    },
    /// The skeletonizer left it (no body, an overload, already a stub, a syntax error).
    Skipped(codethread_skeleton::SkipReason),
}

impl NotStubbed {
    /// Whether the stub would not compile (the only reason an instance can be left with no
    /// stub at all without failing: `ChainError::NoCompilingStub`).
    pub fn would_not_compile(&self) -> bool {
        matches!(self, NotStubbed::WouldNotCompile { .. })
    }
}

impl std::fmt::Display for NotStubbed {
    /// `WouldNotCompile(<code>: <warning>)`, or the skeleton's reason as it debug-prints
    /// (`NoBody`, `ParseError("...")`): the text the summaries always carried.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotStubbed::WouldNotCompile { code, warning } => {
                write!(f, "WouldNotCompile({code:?}: {warning})")
            }
            NotStubbed::Skipped(r) => write!(f, "{r:?}"),
        }
    }
}

/// `id: reason; id: reason` of targets left as they are.
pub(crate) fn listed(not_stubbed: &[(String, NotStubbed)]) -> String {
    not_stubbed
        .iter()
        .map(|(id, why)| format!("{id}: {why}"))
        .collect::<Vec<_>>()
        .join("; ")
}
