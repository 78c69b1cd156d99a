//! A scratch git repository holding an instance's files at base, used to
//! check patches with the real `git apply` (forward and `-R`) and to
//! compose stacked patches into one diff against base (`git diff`).
//! Nothing here touches the user's repositories.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A temporary git repository with one commit holding the base files.
/// Removed on drop.
#[derive(Debug)]
pub struct ScratchRepo {
    dir: PathBuf,
}

fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "core.autocrlf=false",
            "-c",
            "user.name=codethread",
            "-c",
            "user.email=codethread@invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .map_err(|e| format!("git {}: {e}", args.join(" ")))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// A repository path checked with codethread-patch's rules (relative, no
/// `.` / `..` / empty components, nothing inside `.git`).
fn safe(path: &str) -> Result<&Path, String> {
    codethread_patch::check_path(path.as_bytes())
        .map(|()| Path::new(path))
        .map_err(|why| format!("unsafe repository path {path:?}: {why}"))
}

impl ScratchRepo {
    /// Create the repository with `files` (path -> bytes) committed.
    pub fn new(files: &BTreeMap<String, Vec<u8>>) -> Result<Self, String> {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("codethread-chain-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let repo = ScratchRepo { dir };
        run(&repo.dir, &["init", "-q"])?;
        repo.write_all(files)?;
        run(&repo.dir, &["add", "-A"])?;
        run(&repo.dir, &["commit", "-q", "--allow-empty", "-m", "base"])?;
        Ok(repo)
    }

    fn write_all(&self, files: &BTreeMap<String, Vec<u8>>) -> Result<(), String> {
        for (p, bytes) in files {
            let full = self.dir.join(safe(p)?);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            std::fs::write(&full, bytes).map_err(|e| format!("{}: {e}", full.display()))?;
        }
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `git apply [-R] <patch>` on the work tree (no options otherwise).
    pub fn apply(&self, patch: &[u8], reverse: bool) -> Result<(), String> {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let pf =
            std::env::temp_dir().join(format!("codethread-chain-{}-{n}.patch", std::process::id()));
        std::fs::write(&pf, patch).map_err(|e| format!("{}: {e}", pf.display()))?;
        let pfs = pf.to_string_lossy().into_owned();
        let r = if reverse {
            run(&self.dir, &["apply", "-R", &pfs])
        } else {
            run(&self.dir, &["apply", &pfs])
        };
        let _ = std::fs::remove_file(&pf);
        r.map(|_| ())
    }

    /// The current bytes of a file (None when absent).
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join(safe(path).ok()?)).ok()
    }

    /// The work tree's diff against the base commit (new files included),
    /// as `git diff --binary` writes it.
    pub fn diff_from_base(&self) -> Result<Vec<u8>, String> {
        run(&self.dir, &["add", "-A"])?;
        run(
            &self.dir,
            &[
                "diff",
                "--cached",
                "--binary",
                "--no-color",
                "--no-ext-diff",
                "HEAD",
            ],
        )
    }

    /// Replace the work tree's content of `files` (None = delete).
    pub fn set_files(&self, files: &BTreeMap<String, Option<Vec<u8>>>) -> Result<(), String> {
        for (p, bytes) in files {
            let full = self.dir.join(safe(p)?);
            match bytes {
                Some(b) => {
                    if let Some(parent) = full.parent() {
                        std::fs::create_dir_all(parent)
                            .map_err(|e| format!("{}: {e}", parent.display()))?;
                    }
                    std::fs::write(&full, b).map_err(|e| format!("{}: {e}", full.display()))?;
                }
                None => {
                    let _ = std::fs::remove_file(&full);
                }
            }
        }
        Ok(())
    }
}

impl Drop for ScratchRepo {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `git` can be run.
pub fn git_available() -> bool {
    Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
