//! Applying a patch to a directory on disk, safely.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::apply::{
    apply_with, ApplyOptions, ApplyReport, MemTree, TreeFile, MODE_EXEC, MODE_FILE,
};
use crate::error::ApplyError;
use crate::model::Patch;
use crate::safety::{check_path, to_os_path};

fn lossy(p: &[u8]) -> String {
    String::from_utf8_lossy(p).into_owned()
}

/// The root of a directory-mode operation must be a directory: a missing
/// root is named as such, never reported as a missing file of the patch.
fn check_root(root: &Path) -> Result<(), ApplyError> {
    let message = match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => return Ok(()),
        Ok(_) => "not a directory".to_string(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "no such directory".to_string(),
        Err(e) => e.to_string(),
    };
    Err(ApplyError::Root {
        root: root.display().to_string(),
        message,
    })
}

fn io_err(path: &[u8], e: impl std::fmt::Display) -> ApplyError {
    ApplyError::Io {
        path: lossy(path),
        message: e.to_string(),
    }
}

/// Resolves `rel` below `root`, refusing unsafe paths and any symbolic link
/// on the way (the final component included). Returns the full path and
/// whether it exists as a regular file.
fn resolve(root: &Path, rel: &[u8]) -> Result<(PathBuf, bool), ApplyError> {
    check_path(rel).map_err(|reason| ApplyError::UnsafePath {
        path: lossy(rel),
        reason,
    })?;
    let os =
        to_os_path(rel).ok_or_else(|| io_err(rel, "path is not valid UTF-8 on this platform"))?;
    let mut cur = root.to_path_buf();
    let comps: Vec<_> = os.components().collect();
    for (i, c) in comps.iter().enumerate() {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(ApplyError::Symlink {
                    path: lossy(rel),
                    link: cur.strip_prefix(root).unwrap_or(&cur).display().to_string(),
                })
            }
            Ok(m) if i + 1 < comps.len() && !m.is_dir() => {
                return Err(io_err(
                    rel,
                    format!("`{}` is not a directory", cur.display()),
                ));
            }
            Ok(m) if i + 1 == comps.len() => {
                if m.is_dir() {
                    return Err(io_err(rel, "is a directory"));
                }
                return Ok((cur, true));
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok((root.join(&os), false))
            }
            Err(e) => return Err(io_err(rel, e)),
        }
    }
    Ok((cur, false))
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    if m.permissions().mode() & 0o111 != 0 {
        MODE_EXEC
    } else {
        MODE_FILE
    }
}

#[cfg(not(unix))]
fn mode_of(_m: &std::fs::Metadata) -> u32 {
    MODE_FILE
}

/// Applies `patch` to the directory `root` with the same rules as
/// [`crate::MemTree::apply`]. Every path is checked first (no absolute
/// paths, `..`, `.git`, or symbolic links anywhere on the way); all hunks are
/// applied in memory, and only when every file succeeded are files written
/// (each through a temporary file renamed into place, so a symlink planted
/// later is replaced, not followed). Nothing outside `root` is touched.
pub fn apply_to_dir(
    root: &Path,
    patch: &Patch,
    opts: &ApplyOptions,
) -> Result<ApplyReport, ApplyError> {
    // Load every file the patch may read.
    let loaded: BTreeMap<Vec<u8>, TreeFile> =
        load_for_patch(root, patch, codethread_lang::io::DEFAULT_MAX_FILE_BYTES)?.files;
    let (overlay, report) = apply_with(&|p: &[u8]| loaded.get(p).cloned(), patch, opts)?;
    if let Some((p, _)) = overlay.iter().find(|(_, f)| {
        f.as_ref()
            .is_some_and(|f| f.mode == crate::apply::MODE_SYMLINK)
    }) {
        return Err(ApplyError::Symlink {
            path: lossy(p),
            link: "(creating symbolic links on disk is refused)".into(),
        });
    }
    // Write: first every new content into temp files, then rename, then delete.
    let mut staged: Vec<(PathBuf, PathBuf, Vec<u8>)> = Vec::new();
    let cleanup = |staged: &[(PathBuf, PathBuf, Vec<u8>)]| {
        for (tmp, _, _) in staged {
            let _ = std::fs::remove_file(tmp);
        }
    };
    for (path, f) in &overlay {
        let Some(f) = f else { continue };
        if loaded.get(path).is_some_and(|old| old == f) {
            continue;
        }
        let r = stage(root, path, f);
        match r {
            Ok((tmp, full)) => staged.push((tmp, full, path.clone())),
            Err(e) => {
                cleanup(&staged);
                return Err(e);
            }
        }
    }
    for (i, (tmp, full, path)) in staged.iter().enumerate() {
        if let Err(e) = std::fs::rename(tmp, full) {
            cleanup(&staged[i..]);
            return Err(io_err(path, e));
        }
    }
    for (path, f) in &overlay {
        if f.is_some() {
            continue;
        }
        let (full, exists) = resolve(root, path)?;
        if exists {
            std::fs::remove_file(&full).map_err(|e| io_err(path, e))?;
            // Remove now-empty parent directories, as git does.
            let mut dir = full.parent().map(Path::to_path_buf);
            while let Some(d) = dir {
                if d == root || !d.starts_with(root) || std::fs::remove_dir(&d).is_err() {
                    break;
                }
                dir = d.parent().map(Path::to_path_buf);
            }
        }
    }
    Ok(report)
}

/// Loads, from the directory `root`, every existing file that `patch` reads
/// or writes (same path and symlink checks as [`apply_to_dir`]) into a
/// [`MemTree`] — the pre-images needed to apply or localize the patch.
///
/// Only regular files of at most `max_file_bytes` are read
/// ([`codethread_lang::io::read_regular`]): a FIFO, device or oversized
/// pre-image is an [`ApplyError::Io`] naming it, never a hang.
pub fn load_for_patch(
    root: &Path,
    patch: &Patch,
    max_file_bytes: u64,
) -> Result<MemTree, ApplyError> {
    check_root(root)?;
    let mut t = MemTree::new();
    for fp in &patch.files {
        for p in [&fp.old_path, &fp.new_path].into_iter().flatten() {
            let (full, exists) = resolve(root, p)?;
            if exists && !t.files.contains_key(p) {
                let meta = std::fs::symlink_metadata(&full).map_err(|e| io_err(p, e))?;
                let content = codethread_lang::io::read_regular(&full, max_file_bytes)
                    .map_err(|e| io_err(p, e))?;
                t.files.insert(
                    p.clone(),
                    TreeFile {
                        content,
                        mode: mode_of(&meta),
                    },
                );
            }
        }
    }
    Ok(t)
}

/// Creates missing parent directories (checking each for symlinks) and
/// writes the content into a fresh temporary file beside the target.
fn stage(root: &Path, path: &[u8], f: &TreeFile) -> Result<(PathBuf, PathBuf), ApplyError> {
    let (full, _) = resolve(root, path)?;
    let parent = full
        .parent()
        .ok_or_else(|| io_err(path, "no parent directory"))?;
    // Create directories one by one below root; resolve() already refused symlinks.
    let rel_parent = parent.strip_prefix(root).map_err(|e| io_err(path, e))?;
    let mut cur = root.to_path_buf();
    for c in rel_parent.components() {
        cur.push(c);
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.is_dir() && !m.file_type().is_symlink() => {}
            Ok(_) => {
                return Err(io_err(
                    path,
                    format!("`{}` is not a directory", cur.display()),
                ))
            }
            Err(_) => std::fs::create_dir(&cur).map_err(|e| io_err(path, e))?,
        }
    }
    let name = full
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Exclusive create with an unpredictable name, never through a link
    // (`codethread_lang::io`): nobody can plant the temporary file first.
    let (mut file, tmp) =
        codethread_lang::io::create_temp_in(parent, &name).map_err(|e| io_err(path, e))?;
    let res = file
        .write_all(&f.content)
        .and_then(|_| set_mode(&file, f.mode));
    if let Err(e) = res {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(path, e));
    }
    Ok((tmp, full))
}

#[cfg(unix)]
fn set_mode(file: &std::fs::File, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let perm = if mode == MODE_EXEC { 0o755 } else { 0o644 };
    file.set_permissions(std::fs::Permissions::from_mode(perm))
}

#[cfg(not(unix))]
fn set_mode(_file: &std::fs::File, _mode: u32) -> std::io::Result<()> {
    Ok(())
}
