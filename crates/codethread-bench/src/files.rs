//! The crate's file access, all through `codethread_lang::io`: reads take
//! only regular files under a size limit (a FIFO or device is refused, never
//! opened for a blocking read), writes are atomic (exclusive temporary file
//! with an unpredictable name, then rename) and never follow a link planted
//! at the target, so an interrupted run never leaves a half-written file and
//! a re-run can trust every file it finds.
//!
//! The size limit is an explicit [`SourceLimits`] argument of every loader
//! (default [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`]; the examples'
//! `--max-file-bytes` flag), never a process-wide setting: two library
//! callers with different limits cannot affect each other.

use std::path::Path;

use codethread_lang::io::{self, SourceLimits};

use crate::error::BenchError;

/// Read a regular file of at most `limits.max_file_bytes` bytes.
pub(crate) fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, BenchError> {
    Ok(io::read_regular(path, limits.max_file_bytes)?)
}

/// As [`read`], but a missing file is `Ok(None)`, and a symbolic link as the last component is refused (for
/// trees whose links could lead outside them, e.g. snapshots).
pub(crate) fn read_opt_nofollow(
    path: &Path,
    limits: SourceLimits,
) -> Result<Option<Vec<u8>>, BenchError> {
    Ok(io::absent_as_none(io::read_regular_nofollow(
        path,
        limits.max_file_bytes,
    ))?)
}

/// Write `bytes` to `path` atomically, its parent directories created
/// ([`io::write_atomic_with_parents`]).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    Ok(io::write_atomic_with_parents(path, bytes)?)
}
