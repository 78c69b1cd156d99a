//! The crate's error: what went wrong exporting a scaffold's files or
//! importing a scaffold's results, naming the file or the instance.

use std::path::PathBuf;

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScaffoldError {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A file has a shape this crate does not read.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// One instance cannot be exported.
    #[error("instance {instance_id}: {message}")]
    Instance {
        /// The instance.
        instance_id: String,
        /// What went wrong.
        message: String,
    },
    /// A chain file, stack or source failed.
    #[error(transparent)]
    Chain(#[from] codethread_chain::ChainError),
    /// A benchmark file (rows, predictions, reports) could not be read.
    #[error(transparent)]
    Bench(#[from] codethread_bench::BenchError),
    /// A file was refused by the safe I/O layer.
    #[error(transparent)]
    File(#[from] codethread_lang::io::IoError),
}

impl ScaffoldError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ScaffoldError::Io {
            path: path.into(),
            source,
        }
    }

    /// A JSON error of serde_json in `path`, lines counted from `line_offset`.
    pub(crate) fn json(
        path: impl Into<PathBuf>,
        line_offset: usize,
        e: &serde_json::Error,
    ) -> Self {
        ScaffoldError::Bench(codethread_bench::BenchError::json(path, line_offset, e))
    }
}
