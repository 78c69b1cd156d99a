//! Reading the files of an instance at its base commit, without touching any
//! working tree: from a local git repository (`git cat-file --batch`), or
//! from a snapshot directory `<dir>/<instance_id>/before/<path>` (as in
//! `shared/chains/dev/files`).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::error::{ChainError, NoSource};

/// Where the pre-images of an instance's files come from.
pub trait SourceReader {
    /// The bytes of `path` at `commit` for `instance_id`; `Ok(None)` when the
    /// file does not exist there (e.g. the gold patch creates it).
    fn read(
        &mut self,
        instance_id: &str,
        commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, ChainError>;

    /// A short description for error messages.
    fn describe(&self) -> String;

    /// Called before the files of `repo` (owner/name) are read; sources that
    /// hold several repositories switch to the right one here.
    fn select_repo(&mut self, _repo: &str) -> Result<(), ChainError> {
        Ok(())
    }

    /// [`SourceReader::select_repo`] for one instance: a failure (e.g. no
    /// repository for `repo` in a repository directory) is that instance's
    /// error, naming it and the repository, so that a batch's failure lines
    /// say which instance they are about.
    fn select_repo_for(&mut self, instance_id: &str, repo: &str) -> Result<(), ChainError> {
        self.select_repo(repo).map_err(|e| match e {
            // A source that knows no instance leaves its id empty.
            ChainError::NoSource {
                instance_id: id,
                problem,
            } if id.is_empty() => ChainError::NoSource {
                instance_id: instance_id.to_string(),
                problem,
            },
            e => ChainError::Repository {
                instance_id: instance_id.to_string(),
                repo: repo.to_string(),
                source: Box::new(e),
            },
        })
    }
}

/// A directory of git repositories, one per benchmark repository, named
/// `owner__name`, `owner/name` or `name` (first found wins).
#[derive(Debug)]
pub struct GitRepoDir {
    root: PathBuf,
    current: Option<(String, GitSource)>,
}

impl GitRepoDir {
    /// A directory of repositories.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        GitRepoDir {
            root: root.into(),
            current: None,
        }
    }
}

impl SourceReader for GitRepoDir {
    fn read(
        &mut self,
        instance_id: &str,
        commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, ChainError> {
        match self.current.as_mut() {
            Some((_, g)) => g.read(instance_id, commit, path),
            None => Err(ChainError::NoSource {
                instance_id: instance_id.to_string(),
                problem: NoSource::NotSelected {
                    root: self.root.clone(),
                },
            }),
        }
    }

    fn describe(&self) -> String {
        format!("git repositories under {}", self.root.display())
    }

    fn select_repo(&mut self, repo: &str) -> Result<(), ChainError> {
        if self.current.as_ref().is_some_and(|(r, _)| r == repo) {
            return Ok(());
        }
        let name = repo.rsplit('/').next().unwrap_or(repo);
        let candidates = [
            self.root.join(repo.replace('/', "__")),
            self.root.join(repo),
            self.root.join(name),
        ];
        let Some(dir) = candidates
            .into_iter()
            .find(|c| c.join(".git").exists() || c.join("HEAD").is_file())
        else {
            // The instance is named by `select_repo_for`.
            return Err(ChainError::NoSource {
                instance_id: String::new(),
                problem: NoSource::Repository {
                    repo: repo.to_string(),
                    root: self.root.clone(),
                    looked_for: vec![repo.replace('/', "__"), repo.to_string(), name.to_string()],
                },
            });
        };
        self.current = Some((repo.to_string(), GitSource::new(dir)));
        Ok(())
    }
}

/// A directory of per-instance git trees at their base commits: the
/// repository of instance `X` is `<dir>/X/testbed` (the layout of
/// `shared/repos/testbeds/` once each `X.testbed.tar.gz` is unpacked into
/// `<dir>/X`) or `<dir>/X` itself. A depth-1 clone is enough: only the base
/// commit's objects are read.
#[derive(Debug)]
pub struct TestbedDir {
    root: PathBuf,
    current: Option<(String, GitSource)>,
}

impl TestbedDir {
    /// A directory of testbeds.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        TestbedDir {
            root: root.into(),
            current: None,
        }
    }

    /// The git tree of `instance_id` under `root`, if there is one:
    /// `<root>/<id>/testbed`, else `<root>/<id>`. The id must be one path
    /// component (no separator, not `.` or `..`), so no id leads out of
    /// `root`.
    pub fn tree_of(root: &std::path::Path, instance_id: &str) -> Option<PathBuf> {
        if instance_id.is_empty()
            || instance_id == "."
            || instance_id == ".."
            || instance_id.contains(['/', '\\', '\0'])
        {
            return None;
        }
        let base = root.join(instance_id);
        [base.join("testbed"), base]
            .into_iter()
            .find(|c| c.join(".git").exists())
    }
}

impl SourceReader for TestbedDir {
    fn read(
        &mut self,
        instance_id: &str,
        commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, ChainError> {
        if self
            .current
            .as_ref()
            .is_none_or(|(id, _)| id != instance_id)
        {
            let Some(dir) = TestbedDir::tree_of(&self.root, instance_id) else {
                return Err(ChainError::NoSource {
                    instance_id: instance_id.to_string(),
                    problem: NoSource::Testbed {
                        root: self.root.clone(),
                    },
                });
            };
            self.current = Some((instance_id.to_string(), GitSource::new(dir)));
        }
        let (_, git) = self.current.as_mut().expect("set above");
        git.read(instance_id, commit, path)
    }

    fn describe(&self) -> String {
        format!("testbeds under {}", self.root.display())
    }
}

/// Pre-images stored as `<dir>/<instance_id>/before/<path>`.
#[derive(Debug, Clone)]
pub struct SnapshotSource {
    dir: PathBuf,
    limits: codethread_lang::io::SourceLimits,
}

impl SnapshotSource {
    /// A snapshot directory, read under the default limits
    /// ([`SnapshotSource::with_limits`] to change them).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        SnapshotSource {
            dir: dir.into(),
            limits: codethread_lang::io::SourceLimits::default(),
        }
    }

    /// The same source, reading no file beyond `limits`.
    pub fn with_limits(mut self, limits: codethread_lang::io::SourceLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Directory of one instance.
    pub fn instance_dir(&self, instance_id: &str) -> PathBuf {
        self.dir.join(instance_id)
    }
}

impl SourceReader for SnapshotSource {
    fn read(
        &mut self,
        instance_id: &str,
        _commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, ChainError> {
        // The patch crate's path rules: nothing absolute, no `..`, nothing in `.git`.
        if let Err(why) = codethread_patch::check_path(path.as_bytes()) {
            return Err(ChainError::UnsafePath {
                instance_id: instance_id.to_string(),
                path: path.to_string(),
                why,
            });
        }
        let before = self.dir.join(instance_id).join("before");
        // A missing instance directory is the snapshot's fault, not the
        // patch's: say so instead of "file does not exist" per file.
        if !before.is_dir() {
            let why = if self.dir.is_dir() {
                format!("{} is not a directory", before.display())
            } else {
                format!(
                    "the snapshot directory {} does not exist",
                    self.dir.display()
                )
            };
            return Err(ChainError::NoSource {
                instance_id: instance_id.to_string(),
                problem: NoSource::Snapshot { why },
            });
        }
        // Regular files under the size limit only; a link is not followed,
        // neither at the file nor at any directory on the way (a directory
        // link would lead out of the snapshot).
        Ok(codethread_lang::io::read_below_nofollow(
            &before,
            std::path::Path::new(path),
            self.limits.max_file_bytes,
        )?)
    }

    fn describe(&self) -> String {
        format!("snapshots {}", self.dir.display())
    }
}

/// A local git repository read through one long-lived `git cat-file --batch`.
pub struct GitSource {
    repo: PathBuf,
    batch: Option<(Child, ChildStdin, BufReader<ChildStdout>)>,
}

impl std::fmt::Debug for GitSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitSource")
            .field("repo", &self.repo)
            .finish()
    }
}

impl GitSource {
    /// A repository (its work tree or `.git` directory; a bare repository works too).
    pub fn new(repo: impl Into<PathBuf>) -> Self {
        GitSource {
            repo: repo.into(),
            batch: None,
        }
    }

    fn git_err(&self, args: &str, message: impl Into<String>) -> ChainError {
        ChainError::Git {
            repo: self.repo.clone(),
            args: args.to_string(),
            message: message.into(),
        }
    }

    fn start(&mut self) -> Result<(), ChainError> {
        if self.batch.is_some() {
            return Ok(());
        }
        let mut child = Command::new("git")
            .arg("-C")
            .arg(&self.repo)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| self.git_err("cat-file --batch", e.to_string()))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| self.git_err("cat-file --batch", "no stdin"))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| self.git_err("cat-file --batch", "no stdout"))?;
        self.batch = Some((child, stdin, BufReader::new(stdout)));
        Ok(())
    }

    /// `git show <commit>:<path>`-style read of one object by name, through
    /// the batch process; `Ok(None)` when missing.
    pub fn read_object(&mut self, spec: &str) -> Result<Option<(String, Vec<u8>)>, ChainError> {
        if spec.contains('\n') {
            return self.read_object_once(spec);
        }
        self.start()?;
        let res = (|| -> std::io::Result<Option<(String, Vec<u8>)>> {
            let Some((_, stdin, stdout)) = self.batch.as_mut() else {
                return Ok(None);
            };
            stdin.write_all(spec.as_bytes())?;
            stdin.write_all(b"\n")?;
            stdin.flush()?;
            let mut header = Vec::new();
            stdout.read_until(b'\n', &mut header)?;
            let h = String::from_utf8_lossy(&header).trim_end().to_string();
            if h.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "git cat-file ended",
                ));
            }
            if h.ends_with(" missing") || h.ends_with(" ambiguous") {
                return Ok(None);
            }
            let mut parts = h.split(' ');
            let (_sha, kind, size) = (
                parts.next(),
                parts.next().unwrap_or(""),
                parts.next().unwrap_or(""),
            );
            let size: usize = size
                .parse()
                .map_err(|_| std::io::Error::other(format!("bad header {h:?}")))?;
            // The object and git's trailing newline.
            let len = size
                .checked_add(1)
                .ok_or_else(|| std::io::Error::other(format!("bad header {h:?}")))?;
            let mut buf = vec![0u8; len];
            stdout.read_exact(&mut buf)?;
            buf.pop();
            Ok(Some((kind.to_string(), buf)))
        })();
        match res {
            Ok(v) => Ok(v),
            Err(e) => {
                self.stop();
                Err(self.git_err(&format!("cat-file --batch ({spec})"), e.to_string()))
            }
        }
    }

    fn read_object_once(&self, spec: &str) -> Result<Option<(String, Vec<u8>)>, ChainError> {
        let out = Command::new("git")
            .arg("-C")
            .arg(&self.repo)
            .args(["cat-file", "blob", spec])
            .output()
            .map_err(|e| self.git_err("cat-file blob", e.to_string()))?;
        Ok(out
            .status
            .success()
            .then(|| ("blob".to_string(), out.stdout)))
    }

    /// Whether `commit` names a commit in the repository.
    pub fn has_commit(&mut self, commit: &str) -> Result<bool, ChainError> {
        Ok(
            matches!(self.read_object(&format!("{commit}^{{commit}}"))?, Some((k, _)) if k == "commit"),
        )
    }

    fn stop(&mut self) {
        if let Some((mut child, stdin, _)) = self.batch.take() {
            drop(stdin);
            let _ = child.wait();
        }
    }
}

impl Drop for GitSource {
    fn drop(&mut self) {
        self.stop();
    }
}

impl SourceReader for GitSource {
    fn read(
        &mut self,
        instance_id: &str,
        commit: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, ChainError> {
        if !self.has_commit(commit)? {
            return Err(ChainError::NoSource {
                instance_id: instance_id.to_string(),
                problem: NoSource::Commit {
                    commit: commit.to_string(),
                    repo: self.repo.clone(),
                },
            });
        }
        match self.read_object(&format!("{commit}:{path}"))? {
            Some((kind, bytes)) if kind == "blob" => Ok(Some(bytes)),
            Some((kind, _)) => Err(ChainError::NoSource {
                instance_id: instance_id.to_string(),
                problem: NoSource::NotAFile {
                    object: format!("{commit}:{path}"),
                    kind,
                },
            }),
            None => Ok(None),
        }
    }

    fn describe(&self) -> String {
        format!("git repository {}", self.repo.display())
    }
}
