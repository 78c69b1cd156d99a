//! Typed errors. Every variant names where the problem is: file, line,
//! instance and field, so that a batch can report bad rows and go on.

use std::path::PathBuf;

/// Everything that can go wrong reading or writing benchmark files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BenchError {
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

impl BenchError {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        BenchError::Io {
            path: path.into(),
            source,
        }
    }

    /// A JSON error of serde_json in `path`, its line counted from
    /// `line_offset` (the line a record starts on, less one).
    pub fn json(path: impl Into<PathBuf>, line_offset: usize, e: &serde_json::Error) -> Self {
        BenchError::Json {
            path: path.into(),
            line: line_offset + e.line(),
            column: e.column(),
            message: e.to_string(),
        }
    }
}

/// Result alias.
pub type Result<T, E = BenchError> = std::result::Result<T, E>;
