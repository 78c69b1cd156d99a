//! The crate's file access: codethread-bench's [`codethread_bench::files`]
//! (regular files under a size limit, atomic writes that follow no link),
//! with this crate's error.

use std::path::{Path, PathBuf};

use codethread_bench::files;
use codethread_lang::io::SourceLimits;

use crate::error::ChainError;

/// [`files::read`].
pub(crate) fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, ChainError> {
    Ok(files::read(path, limits)?)
}

/// [`files::read_opt`].
pub(crate) fn read_opt(path: &Path, limits: SourceLimits) -> Result<Option<Vec<u8>>, ChainError> {
    Ok(files::read_opt(path, limits)?)
}

/// [`files::write_in`].
pub(crate) fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, ChainError> {
    Ok(files::write_in(root, rel, bytes)?)
}

/// A JSON error in `path` (serde_json's line and column).
pub(crate) fn json_error(path: &Path, e: &serde_json::Error) -> ChainError {
    ChainError::Bench(codethread_bench::BenchError::json(path, 0, e))
}
