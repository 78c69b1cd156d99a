//! Typed errors. Every variant names where the problem is: file, line,
//! instance and field, so that a batch can report bad rows and go on.

use std::path::PathBuf;

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file (or one line of a JSONL file) is not valid JSON.
    #[error("{}:{line}:{column}: invalid JSON: {message}", path.display())]
    Json {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde_json said.
        message: String,
    },
    /// A row lacks a field the format requires.
    #[error("{}:{line}: instance {instance_id}: missing required field `{field}`", path.display())]
    MissingField {
        /// The file.
        path: PathBuf,
        /// 1-based line where the row starts.
        line: usize,
        /// The row's instance id (or `<unknown>` when that is what is missing).
        instance_id: String,
        /// The missing field.
        field: String,
    },
    /// A field is present but cannot be read.
    #[error("{}:{line}: instance {instance_id}: field `{field}`: {message}", path.display())]
    BadField {
        /// The file.
        path: PathBuf,
        /// 1-based line where the row starts.
        line: usize,
        /// The row's instance id.
        instance_id: String,
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// The file as a whole has a shape this crate does not read.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A Python literal could not be parsed.
    #[error("Python literal, byte {offset}: {message}")]
    PyLiteral {
        /// 0-based byte offset in the literal text.
        offset: usize,
        /// What is wrong.
        message: String,
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
    /// A row lacks a field a SWE-bench harness generation needs to grade it
    /// (`export::HarnessGeneration::required_fields`).
    #[error("instance {instance_id}: missing field `{field}` required by {generation}")]
    HarnessField {
        /// The instance.
        instance_id: String,
        /// The missing (or empty / non-string) field.
        field: String,
        /// The harness generation, e.g. `swebench 5.x`.
        generation: String,
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
    /// Two rows of one file share an id but differ in content: neither is
    /// trusted.
    #[error("{}: {what} {id} appears on line {first_line} and, with different content, on line {line}", path.display())]
    Duplicate {
        /// The file.
        path: std::path::PathBuf,
        /// What the id names (`instance`, `prediction`, `answer`).
        what: &'static str,
        /// The id.
        id: String,
        /// Line of the first row with this id.
        first_line: usize,
        /// Line of a later row with the same id and other content.
        line: usize,
    },
}

impl ChainError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ChainError::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn json(
        path: impl Into<PathBuf>,
        line_offset: usize,
        e: &serde_json::Error,
    ) -> Self {
        ChainError::Json {
            path: path.into(),
            line: line_offset + e.line(),
            column: e.column(),
            message: e.to_string(),
        }
    }
}

/// Result alias.
pub type Result<T, E = ChainError> = std::result::Result<T, E>;
