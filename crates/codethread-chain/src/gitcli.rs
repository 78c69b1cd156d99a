//! A scratch git repository holding an instance's files at base, used to
//! check patches with the real `git apply` (forward and `-R`) and to
//! compose stacked patches into one diff against base (`git diff`).
//! Nothing here touches the user's repositories.
//!
//! The scratch directory is created exclusively with an unpredictable name
//! (`codethread_lang::io::create_temp_dir_in`, mode 0700) in the system's
//! temporary directory, so nobody can plant a link where it will be; patches
//! reach `git apply` through its standard input, never through a temporary
//! file. Scratch directories left by a killed process (its pid no longer
//! running, same owner) are removed when the next one is created.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Stem of scratch directory names: `{TEMP_PREFIX}chain-<pid>.<random>`.
const STEM: &str = "chain-";

/// Why a scratch-repository operation failed; the messages are git's
/// (`git <args>: <stderr>`) or name the file or path.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// git could not be started or waited for.
    #[error("git {args}: {source}")]
    Spawn {
        /// The git arguments, space-separated.
        args: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// git ran and failed.
    #[error("git {args}: {stderr}")]
    Failed {
        /// The git arguments, space-separated.
        args: String,
        /// git's standard error, trimmed (lossily decoded).
        stderr: String,
    },
    /// A repository path that breaks codethread-patch's path rules.
    #[error("unsafe repository path {path:?}: {why}")]
    UnsafePath {
        /// The path.
        path: String,
        /// The rule it breaks.
        why: String,
    },
    /// A file or directory of the scratch repository could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// The scratch directory could not be created.
    #[error(transparent)]
    Scratch(#[from] codethread_lang::io::IoError),
}

fn spawn_err(args: &[&str], source: std::io::Error) -> GitError {
    GitError::Spawn {
        args: args.join(" "),
        source,
    }
}

fn io_err(path: &Path, source: std::io::Error) -> GitError {
    GitError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A temporary git repository with one commit holding the base files.
/// Removed on drop.
#[derive(Debug)]
pub struct ScratchRepo {
    dir: PathBuf,
}

fn git(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.arg("-C")
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
        .args(args);
    c
}

fn finish(args: &[&str], out: std::process::Output) -> Result<Vec<u8>, GitError> {
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(GitError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }
}

/// Run git with `input` on its standard input.
fn run_with_input(dir: &Path, args: &[&str], input: &[u8]) -> Result<Vec<u8>, GitError> {
    let mut child = git(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| spawn_err(args, e))?;
    // Written from a thread so that a git that stops reading early cannot
    // deadlock us on a full pipe.
    let mut stdin = child.stdin.take();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        if let Some(s) = stdin.as_mut() {
            let _ = s.write_all(&data);
        }
    });
    let out = child.wait_with_output().map_err(|e| spawn_err(args, e))?;
    let _ = writer.join();
    finish(args, out)
}

/// Remove scratch directories of processes that no longer run (killed
/// before their drop), owned by the owner of `mine`. Linux only (`/proc`);
/// elsewhere nothing is removed.
fn remove_stale_scratch(tmp: &Path, mine: &Path) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::MetadataExt;
        let Ok(me) = std::fs::symlink_metadata(mine) else {
            return;
        };
        let prefix = format!("{}{STEM}", codethread_lang::io::TEMP_PREFIX);
        let Ok(rd) = std::fs::read_dir(tmp) else {
            return;
        };
        for e in rd.flatten() {
            let name = e.file_name();
            let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
                continue;
            };
            let Some(pid) = rest.split('.').next().and_then(|p| p.parse::<u32>().ok()) else {
                continue;
            };
            if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            let p = e.path();
            match std::fs::symlink_metadata(&p) {
                Ok(m) if m.is_dir() && m.uid() == me.uid() => {
                    let _ = std::fs::remove_dir_all(&p);
                }
                _ => {}
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (tmp, mine);
}

fn run(dir: &Path, args: &[&str]) -> Result<Vec<u8>, GitError> {
    let out = git(dir, args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| spawn_err(args, e))?;
    finish(args, out)
}

/// A repository path checked with codethread-patch's rules (relative, no
/// `.` / `..` / empty components, nothing inside `.git`).
fn safe(path: &str) -> Result<&Path, GitError> {
    codethread_patch::check_path(path.as_bytes())
        .map(|()| Path::new(path))
        .map_err(|why| GitError::UnsafePath {
            path: path.to_string(),
            why: why.to_string(),
        })
}

impl ScratchRepo {
    /// Create the repository with `files` (path -> bytes) committed.
    pub fn new(files: &BTreeMap<String, Vec<u8>>) -> Result<Self, GitError> {
        static SWEEP: std::sync::Once = std::sync::Once::new();
        let tmp = std::env::temp_dir();
        let dir = codethread_lang::io::create_temp_dir_in(
            &tmp,
            &format!("{STEM}{}", std::process::id()),
        )?;
        SWEEP.call_once(|| remove_stale_scratch(&tmp, &dir));
        let repo = ScratchRepo { dir };
        run(&repo.dir, &["init", "-q"])?;
        repo.write_all(files)?;
        run(&repo.dir, &["add", "-A"])?;
        run(&repo.dir, &["commit", "-q", "--allow-empty", "-m", "base"])?;
        Ok(repo)
    }

    fn write_all(&self, files: &BTreeMap<String, Vec<u8>>) -> Result<(), GitError> {
        for (p, bytes) in files {
            let full = self.dir.join(safe(p)?);
            if let Some(parent) = full.parent() {
                std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e))?;
            }
            std::fs::write(&full, bytes).map_err(|e| io_err(&full, e))?;
        }
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `git apply [-R] <patch>` on the work tree (no options otherwise).
    /// The patch goes through git's standard input (no temporary file).
    pub fn apply(&self, patch: &[u8], reverse: bool) -> Result<(), GitError> {
        let args: &[&str] = if reverse {
            &["apply", "-R"]
        } else {
            &["apply"]
        };
        run_with_input(&self.dir, args, patch).map(|_| ())
    }

    /// The current bytes of a file (None when absent).
    pub fn read(&self, path: &str) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join(safe(path).ok()?)).ok()
    }

    /// The work tree's diff against the base commit (new files included),
    /// as `git diff --binary` writes it.
    pub fn diff_from_base(&self) -> Result<Vec<u8>, GitError> {
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
    pub fn set_files(&self, files: &BTreeMap<String, Option<Vec<u8>>>) -> Result<(), GitError> {
        for (p, bytes) in files {
            let full = self.dir.join(safe(p)?);
            match bytes {
                Some(b) => {
                    if let Some(parent) = full.parent() {
                        std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e))?;
                    }
                    std::fs::write(&full, b).map_err(|e| io_err(&full, e))?;
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
