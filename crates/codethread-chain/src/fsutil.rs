//! Atomic file output: write to a temporary file beside the target, then
//! rename, so that an interrupted run never leaves a half-written file and a
//! re-run can trust every file it finds.

use std::path::Path;

use crate::error::ChainError;

/// Write `bytes` to `path` atomically (temp file in the same directory + rename).
/// Parent directories are created.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ChainError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| ChainError::io(parent, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| ChainError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        ChainError::io(path, e)
    })
}
