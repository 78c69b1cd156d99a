//! The crate's file access, through `codethread_lang::io` (regular files
//! under a size limit, atomic writes that follow no link), with this
//! crate's error.

use std::path::{Path, PathBuf};

use codethread_lang::io::{self, SourceLimits};

use crate::error::ScaffoldError;

/// [`io::read_regular`] under `limits`.
pub(crate) fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, ScaffoldError> {
    Ok(io::read_regular(path, limits.max_file_bytes)?)
}

/// [`io::write_atomic_in`].
pub(crate) fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, ScaffoldError> {
    Ok(io::write_atomic_in(root, rel, bytes)?)
}

/// [`io::write_atomic_with_parents`].
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ScaffoldError> {
    Ok(io::write_atomic_with_parents(path, bytes)?)
}

/// Rows as JSONL at `path`, atomically.
pub(crate) fn write_jsonl<T: serde::Serialize>(
    path: &Path,
    rows: &[T],
) -> Result<(), ScaffoldError> {
    Ok(codethread_bench::write_jsonl(path, rows)?)
}
