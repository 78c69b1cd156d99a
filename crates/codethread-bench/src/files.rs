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

use std::path::{Path, PathBuf};

use codethread_lang::io::{self, IoError, SourceLimits};

use crate::error::BenchError;

/// Read a regular file of at most `limits.max_file_bytes` bytes.
pub fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>, BenchError> {
    Ok(io::read_regular(path, limits.max_file_bytes)?)
}

fn missing_is_none(r: Result<Vec<u8>, IoError>) -> Result<Option<Vec<u8>>, BenchError> {
    match r {
        Ok(b) => Ok(Some(b)),
        Err(IoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// As [`read`], but a missing file is `Ok(None)`.
pub fn read_opt(path: &Path, limits: SourceLimits) -> Result<Option<Vec<u8>>, BenchError> {
    missing_is_none(io::read_regular(path, limits.max_file_bytes))
}

/// As [`read_opt`], refusing a symbolic link as the last component (for
/// trees whose links could lead outside them, e.g. snapshots).
pub fn read_opt_nofollow(path: &Path, limits: SourceLimits) -> Result<Option<Vec<u8>>, BenchError> {
    missing_is_none(io::read_regular_nofollow(path, limits.max_file_bytes))
}

/// Write `bytes` to `path` atomically (exclusive temporary file in the same
/// directory + rename; a link at `path` is replaced, never written through).
/// Parent directories are created.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), BenchError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| BenchError::io(parent, e))?;
    Ok(io::write_atomic(path, bytes)?)
}

/// Write `root/rel` atomically, refusing to pass through a symbolic link
/// (or anything but a directory) below `root`: the writer for every file of
/// a chain directory, where a planted `instances -> /elsewhere` must not
/// redirect the output. Stale temporary files of a killed run in the target
/// directory are removed by the writer (once per directory).
pub fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, BenchError> {
    Ok(io::write_atomic_in(root, rel, bytes)?)
}

/// Remove the file `root/rel` if it is there, refusing (doing nothing) when
/// a directory on the way below `root` is a symbolic link: a planted link
/// must not make the chain remove a file elsewhere. A link at `rel` itself
/// is removed, not followed.
pub fn remove_in(root: &Path, rel: &Path) {
    let mut cur = root.to_path_buf();
    if let Some(parent) = rel.parent() {
        for c in parent.components() {
            match c {
                std::path::Component::Normal(n) => cur.push(n),
                _ => return,
            }
            match std::fs::symlink_metadata(&cur) {
                Ok(m) if m.is_dir() => {}
                _ => return,
            }
        }
    }
    if let Some(name) = rel.file_name() {
        let _ = std::fs::remove_file(cur.join(name));
    }
}
