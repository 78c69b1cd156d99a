//! The crate's file access: codethread-bench's [`codethread_bench::files`]
//! (regular files under a size limit, atomic writes that follow no link),
//! with this crate's error.

use std::path::{Path, PathBuf};

use codethread_bench::files;
use codethread_lang::io::SourceLimits;

use crate::error::ScaffoldError;

/// [`files::read`].
pub(crate) fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, ScaffoldError> {
    Ok(files::read(path, limits)?)
}

/// [`files::write_in`].
pub(crate) fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, ScaffoldError> {
    Ok(files::write_in(root, rel, bytes)?)
}

/// [`files::write_atomic`].
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ScaffoldError> {
    Ok(files::write_atomic(path, bytes)?)
}

/// Rows as JSONL at `path`, atomically.
pub(crate) fn write_jsonl<T: serde::Serialize>(
    path: &Path,
    rows: &[T],
) -> Result<(), ScaffoldError> {
    Ok(codethread_bench::write_jsonl(path, rows)?)
}
