//! Typed errors. Every variant names where the problem is: file, line,
//! instance and field, so that a batch can report bad rows and go on.

use std::path::PathBuf;

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
    /// A diff could not be parsed, applied or created.
    #[error("instance {instance_id}: patch: {message}")]
    Patch {
        /// The instance.
        instance_id: String,
        /// What went wrong.
        message: String,
    },
    /// Every target's stub is known not to compile (a C++ deduced return
    /// type, Rust `-> impl Trait`, ...) and none could be written: the
    /// instance is filtered as `no_compiling_stub`, not failed.
    #[error("instance {instance_id}: no target has a stub that compiles: {not_stubbed}")]
    NoCompilingStub {
        /// The instance.
        instance_id: String,
        /// The targets and their `WouldNotCompile(..)` reasons.
        not_stubbed: String,
    },
    /// Any other per-instance problem.
    #[error("instance {instance_id}: {message}")]
    Instance {
        /// The instance.
        instance_id: String,
        /// What went wrong.
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

impl ChainError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ChainError::Io {
            path: path.into(),
            source,
        }
    }
}

/// Result alias.
pub type Result<T, E = ChainError> = std::result::Result<T, E>;
