//! The crate's file access, all through `codethread_lang::io`: reads take
//! only regular files under a size limit (a FIFO or device is refused, never
//! opened for a blocking read), writes are atomic (exclusive temporary file
//! with an unpredictable name, then rename) and never follow a link planted
//! at the target, so an interrupted run never leaves a half-written file and
//! a re-run can trust every file it finds.
//!
//! The size limit is process-wide ([`set_max_file_bytes`]; default
//! [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`]) so that every loader of
//! the crate obeys the `--max-file-bytes` flag of the command line without a
//! parameter on each function.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use codethread_lang::io::{self, IoError, DEFAULT_MAX_FILE_BYTES};

use crate::error::ChainError;

static MAX_FILE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_FILE_BYTES);

/// Set the largest file any loader of this crate reads (bytes).
pub fn set_max_file_bytes(limit: u64) {
    MAX_FILE_BYTES.store(limit, Ordering::Relaxed);
}

/// The largest file any loader of this crate reads (bytes).
pub fn max_file_bytes() -> u64 {
    MAX_FILE_BYTES.load(Ordering::Relaxed)
}

/// Read a regular file of at most [`max_file_bytes`] bytes.
pub fn read(path: &Path) -> Result<Vec<u8>, ChainError> {
    Ok(io::read_regular(path, max_file_bytes())?)
}

/// As [`read`], but a missing file is `Ok(None)`.
pub fn read_opt(path: &Path) -> Result<Option<Vec<u8>>, ChainError> {
    match io::read_regular(path, max_file_bytes()) {
        Ok(b) => Ok(Some(b)),
        Err(IoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// As [`read_opt`], refusing a symbolic link as the last component (for
/// trees whose links could lead outside them, e.g. snapshots).
pub fn read_opt_nofollow(path: &Path) -> Result<Option<Vec<u8>>, ChainError> {
    read_opt_nofollow_limited(path, max_file_bytes())
}

/// As [`read_opt_nofollow`], with an explicit limit instead of the
/// process-wide one.
pub fn read_opt_nofollow_limited(path: &Path, limit: u64) -> Result<Option<Vec<u8>>, ChainError> {
    match io::read_regular_nofollow(path, limit) {
        Ok(b) => Ok(Some(b)),
        Err(IoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e.into()),
    }
}

/// Write `bytes` to `path` atomically (exclusive temporary file in the same
/// directory + rename; a link at `path` is replaced, never written through).
/// Parent directories are created.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ChainError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| ChainError::io(parent, e))?;
    Ok(io::write_atomic(path, bytes)?)
}

/// Write `root/rel` atomically, refusing to pass through a symbolic link
/// (or anything but a directory) below `root`: the writer for every file of
/// a chain directory, where a planted `instances -> /elsewhere` must not
/// redirect the output. Stale temporary files of a killed run in the target
/// directory are removed by the writer (once per directory).
pub fn write_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, ChainError> {
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
