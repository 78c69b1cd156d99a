//! The crate's file access, through `codethread_lang::io` (regular files
//! under a size limit, atomic writes that follow no link), with this
//! crate's error.

use std::path::{Path, PathBuf};

use codethread_lang::io::{self, SourceLimits};

use crate::error::ChainError;

/// [`io::read_regular`] under `limits`.
pub(crate) fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, ChainError> {
    Ok(io::read_regular(path, limits.max_file_bytes)?)
}

/// As [`read`], but a missing file is `Ok(None)`.
pub(crate) fn read_opt(path: &Path, limits: SourceLimits) -> Result<Option<Vec<u8>>, ChainError> {
    Ok(io::absent_as_none(io::read_regular(
        path,
        limits.max_file_bytes,
    ))?)
}

/// [`io::write_atomic_in`].
pub(crate) fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, ChainError> {
    Ok(io::write_atomic_in(root, rel, bytes)?)
}

/// Remove `root/rel` if it is there ([`io::remove_below_nofollow`]): a
/// stale file of an earlier run; a link on the way leaves everything as
/// it is.
pub(crate) fn remove_in(root: &Path, rel: &Path) {
    // Nothing to report: a file that cannot be removed is rewritten or
    // reported by the step that writes it.
    let _ = io::remove_below_nofollow(root, rel);
}

/// A JSON error in `path` (serde_json's line and column).
pub(crate) fn json_error(path: &Path, e: &serde_json::Error) -> ChainError {
    ChainError::Bench(codethread_bench::BenchError::json(path, 0, e))
}
