//! Safe file input and output for every crate and tool of codethread
//! (re-exported by codethread-lang as `codethread_lang::io`).
//!
//! Inputs come from untrusted trees (agent outputs, benchmark snapshots,
//! harness logs) and outputs go into directories a user may share, so one
//! module owns the rules:
//!
//! - **Only regular files are read** ([`read_regular`]): a FIFO, socket,
//!   device or directory is refused with [`IoError::NotRegular`], never read
//!   (a FIFO cannot hang the reader: it is opened non-blocking and checked on
//!   the open descriptor, so a file swapped for a FIFO between the check and
//!   the open is refused too). A file larger than the caller's limit is
//!   refused with [`IoError::TooLarge`] before anything is allocated for it;
//!   [`DEFAULT_MAX_FILE_BYTES`] is the default every tool uses, raised by a
//!   flag.
//! - [`read_regular_nofollow`] also refuses a symbolic link as the last path
//!   component, for trees whose links must not lead outside them.
//! - **Writes are atomic and never follow a symbolic link** ([`write_atomic`],
//!   [`AtomicFile`]): the bytes go to a temporary file created exclusively
//!   (`O_EXCL`, unpredictable name) in the target's directory, which is then
//!   renamed over the target. A crash leaves the old file or the new one,
//!   never half of one; a symbolic link planted at the target is replaced,
//!   never written through. [`create_dir_all_nofollow`] creates an output
//!   directory below a root without passing through a planted link.
//!
//! ```
//! use codethread_io::{read_regular, write_atomic, DEFAULT_MAX_FILE_BYTES};
//!
//! let dir = std::env::temp_dir().join(format!("ct-doc-io-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let out = dir.join("report.json");
//! write_atomic(&out, b"{}\n").unwrap();
//! assert_eq!(read_regular(&out, DEFAULT_MAX_FILE_BYTES).unwrap(), b"{}\n");
//! // A directory is not a regular file: a typed error naming it.
//! let err = read_regular(&dir, DEFAULT_MAX_FILE_BYTES).unwrap_err();
//! assert!(err.to_string().contains("not a regular file"));
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

use std::fs::{File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The default largest file any codethread tool reads: 64 MiB. Every example
/// that reads files takes `--max-file-bytes N` to change it.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// The limits a reader applies to its inputs, passed explicitly by every
/// caller (never a process-wide setting, so concurrent library callers with
/// different limits cannot affect each other). `Default` is
/// [`DEFAULT_MAX_FILE_BYTES`]; the examples set it from `--max-file-bytes`.
///
/// ```
/// use codethread_io::{SourceLimits, DEFAULT_MAX_FILE_BYTES};
/// assert_eq!(SourceLimits::default().max_file_bytes, DEFAULT_MAX_FILE_BYTES);
/// assert_eq!(SourceLimits::with_max_file_bytes(16).max_file_bytes, 16);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SourceLimits {
    /// The largest file read, in bytes; a larger one is
    /// [`IoError::TooLarge`] naming it.
    pub max_file_bytes: u64,
}

impl SourceLimits {
    /// The defaults: [`DEFAULT_MAX_FILE_BYTES`].
    pub const DEFAULT: SourceLimits = SourceLimits {
        max_file_bytes: DEFAULT_MAX_FILE_BYTES,
    };

    /// The defaults with a largest file of `max_file_bytes` bytes.
    pub const fn with_max_file_bytes(max_file_bytes: u64) -> SourceLimits {
        SourceLimits { max_file_bytes }
    }
}

impl Default for SourceLimits {
    fn default() -> Self {
        SourceLimits::DEFAULT
    }
}

/// A file that could not be read or written, naming it.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// The operating system refused (missing file, permissions, ...).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The path is not a regular file (a directory, FIFO, socket or device).
    #[error("{}: not a regular file ({kind}); only regular files are read", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        kind: &'static str,
    },
    /// The path is a symbolic link where links are refused.
    #[error("{}: is a symbolic link; links are not followed here", path.display())]
    Symlink {
        /// The link.
        path: PathBuf,
    },
    /// The file is larger than the limit.
    #[error("{}: larger than the limit of {limit} bytes (raise it with --max-file-bytes)", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
}

impl IoError {
    /// The file the error names.
    pub fn path(&self) -> &Path {
        match self {
            IoError::Io { path, .. }
            | IoError::NotRegular { path, .. }
            | IoError::Symlink { path }
            | IoError::TooLarge { path, .. } => path,
        }
    }

    fn io(path: &Path, source: std::io::Error) -> IoError {
        IoError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

fn kind_name(ft: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO";
        }
        if ft.is_socket() {
            return "a socket";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
    }
    if ft.is_dir() {
        "a directory"
    } else if ft.is_symlink() {
        "a symbolic link"
    } else {
        "not a file"
    }
}

fn open_for_read(path: &Path, nofollow: bool) -> Result<File, IoError> {
    let mut opts = OpenOptions::new();
    opts.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let mut flags = libc::O_NONBLOCK;
        if nofollow {
            flags |= libc::O_NOFOLLOW;
        }
        opts.custom_flags(flags);
    }
    match opts.open(path) {
        Ok(f) => Ok(f),
        Err(e) => {
            // O_NOFOLLOW on a link fails with ELOOP: say what it was.
            if nofollow {
                if let Ok(m) = std::fs::symlink_metadata(path) {
                    if m.file_type().is_symlink() {
                        return Err(IoError::Symlink {
                            path: path.to_path_buf(),
                        });
                    }
                }
            }
            Err(IoError::io(path, e))
        }
    }
}

/// The checks every read makes on the open descriptor: a regular file of at
/// most `limit` bytes. Returns its size.
fn check_open(path: &Path, file: &File, limit: u64) -> Result<u64, IoError> {
    let meta = file.metadata().map_err(|e| IoError::io(path, e))?;
    if !meta.is_file() {
        return Err(IoError::NotRegular {
            path: path.to_path_buf(),
            kind: kind_name(meta.file_type()),
        });
    }
    if meta.len() > limit {
        return Err(IoError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(meta.len())
}

fn read_open(path: &Path, file: File, limit: u64) -> Result<Vec<u8>, IoError> {
    let len = check_open(path, &file, limit)?;
    // The size is the file system's word for a regular file we already
    // checked against the limit; the read itself is capped too, in case the
    // file grows while it is read.
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| IoError::io(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(IoError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// Open a regular file of at most `limit` bytes for reading, for readers
/// that stream it themselves (e.g. a parquet reader). The same checks as
/// [`read_regular`], on the open descriptor: a FIFO is never opened for a
/// blocking read.
///
/// # Errors
/// As [`read_regular`].
pub fn open_regular(path: &Path, limit: u64) -> Result<File, IoError> {
    let file = open_for_read(path, false)?;
    check_open(path, &file, limit)?;
    Ok(file)
}

/// Read a regular file of at most `limit` bytes. A symbolic link is followed,
/// but what it leads to must be a regular file.
///
/// # Errors
/// [`IoError::NotRegular`] for a directory, FIFO, socket or device (never
/// opened for a blocking read), [`IoError::TooLarge`] over `limit`,
/// [`IoError::Io`] otherwise.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>, IoError> {
    let file = open_for_read(path, false)?;
    read_open(path, file, limit)
}

/// As [`read_regular`], but a symbolic link as the last component of `path`
/// is refused ([`IoError::Symlink`]) instead of followed. For untrusted trees
/// whose links could lead outside them (walk them without following
/// directory links).
///
/// # Errors
/// As [`read_regular`], and [`IoError::Symlink`].
pub fn read_regular_nofollow(path: &Path, limit: u64) -> Result<Vec<u8>, IoError> {
    let file = open_for_read(path, true)?;
    read_open(path, file, limit)
}

/// Read a regular file of at most `limit` bytes as UTF-8 text (invalid
/// sequences are an [`IoError::Io`] of kind `InvalidData`).
///
/// # Errors
/// As [`read_regular`].
pub fn read_regular_to_string(path: &Path, limit: u64) -> Result<String, IoError> {
    let bytes = read_regular(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        IoError::io(
            path,
            std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error()),
        )
    })
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A name no other process can predict: a randomly seeded hash of the process
/// id, the time and a counter.
fn random_suffix() -> String {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    h.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    format!("{:016x}", h.finish())
}

/// The prefix of every temporary file this module creates; [`remove_stale_temps`]
/// removes the ones a killed process left.
pub const TEMP_PREFIX: &str = ".ct-tmp-";

/// Create a new file exclusively (`O_EXCL`, not through a link) with an
/// unpredictable name in `dir`, returning it and its path.
///
/// # Errors
/// [`IoError::Io`] when no file could be created.
pub fn create_temp_in(dir: &Path, stem: &str) -> Result<(File, PathBuf), IoError> {
    let stem: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(64)
        .collect();
    let mut last = None;
    for _ in 0..16 {
        // `<prefix><pid>-<random>.<stem>`: the pid lets a later run tell a
        // killed writer's leftovers from a live writer's file.
        let path = dir.join(format!(
            "{TEMP_PREFIX}{}-{}.{stem}",
            std::process::id(),
            random_suffix()
        ));
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.custom_flags(libc::O_NOFOLLOW).mode(0o644);
        }
        match opts.open(&path) {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(IoError::io(&path, e)),
        }
    }
    Err(IoError::io(
        dir,
        last.unwrap_or_else(|| std::io::Error::other("no temporary name")),
    ))
}

/// Create a new directory exclusively (never through a link: `mkdir` fails
/// on anything that exists) with an unpredictable name
/// `{TEMP_PREFIX}{stem}.{random}` in `dir`, readable only by its owner.
///
/// # Errors
/// [`IoError::Io`] when no directory could be created.
pub fn create_temp_dir_in(dir: &Path, stem: &str) -> Result<PathBuf, IoError> {
    let stem: String = stem
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(64)
        .collect();
    let mut last = None;
    for _ in 0..16 {
        let path = dir.join(format!("{TEMP_PREFIX}{stem}.{}", random_suffix()));
        let mut b = std::fs::DirBuilder::new();
        #[cfg(unix)]
        {
            use std::os::unix::fs::DirBuilderExt;
            b.mode(0o700);
        }
        match b.create(&path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(IoError::io(&path, e)),
        }
    }
    Err(IoError::io(
        dir,
        last.unwrap_or_else(|| std::io::Error::other("no temporary name")),
    ))
}

/// The process that created the temporary file `name` ([`create_temp_in`]
/// names are `<TEMP_PREFIX><pid>-<random>.<stem>`).
fn temp_owner(name: &[u8]) -> Option<u32> {
    let rest = name.strip_prefix(TEMP_PREFIX.as_bytes())?;
    let end = rest.iter().position(|&b| b == b'-')?;
    std::str::from_utf8(&rest[..end]).ok()?.parse().ok()
}

/// Whether process `pid` may still be running. Linux answers from `/proc`;
/// elsewhere every process is taken as running (nothing is removed).
fn may_be_running(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(target_os = "linux")]
    {
        Path::new("/proc").join(pid.to_string()).exists()
    }
    #[cfg(not(target_os = "linux"))]
    {
        true
    }
}

/// Remove the temporary files ([`create_temp_in`]) that killed processes
/// left directly in `dir`; returns how many were removed. Only regular files
/// whose creating process no longer runs are removed (a concurrent writer's
/// file is kept); a missing `dir` removes nothing. [`AtomicFile::create`]
/// does this once per directory and process by itself.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries.flatten() {
        let stale = temp_owner(entry.file_name().as_encoded_bytes())
            .is_some_and(|pid| !may_be_running(pid));
        if stale
            && entry.file_type().map(|t| t.is_file()).unwrap_or(false)
            && std::fs::remove_file(entry.path()).is_ok()
        {
            n += 1;
        }
    }
    n
}

/// [`remove_stale_temps`] for `dir` the first time this process writes
/// there: one directory listing per directory, not per file written.
fn sweep_once(dir: &Path) {
    static SWEPT: std::sync::Mutex<Option<std::collections::HashSet<PathBuf>>> =
        std::sync::Mutex::new(None);
    let first = match SWEPT.lock() {
        Ok(mut g) => g
            .get_or_insert_with(Default::default)
            .insert(dir.to_path_buf()),
        Err(_) => false,
    };
    if first {
        remove_stale_temps(dir);
    }
}

/// A file being written atomically: bytes go to an exclusive temporary file
/// beside the target; [`AtomicFile::commit`] renames it over the target.
/// Dropped without a commit, the temporary file is removed and the target is
/// untouched.
#[derive(Debug)]
pub struct AtomicFile {
    target: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<File>>,
}

impl AtomicFile {
    /// Start writing `target`. Its parent directory must exist (see
    /// [`create_dir_all_nofollow`]).
    ///
    /// # Errors
    /// [`IoError::NotRegular`] when the target is a directory, [`IoError::Io`]
    /// when the temporary file cannot be created.
    pub fn create(target: &Path) -> Result<AtomicFile, IoError> {
        if let Ok(m) = std::fs::symlink_metadata(target) {
            if m.is_dir() {
                return Err(IoError::NotRegular {
                    path: target.to_path_buf(),
                    kind: "a directory",
                });
            }
        }
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let stem = target
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        sweep_once(parent);
        let (file, tmp) = create_temp_in(parent, &stem)?;
        Ok(AtomicFile {
            target: target.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    /// The file this will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Flush and rename the temporary file over the target (replacing a
    /// symbolic link there, never writing through it).
    ///
    /// # Errors
    /// [`IoError::Io`] naming the target; the temporary file is removed.
    pub fn commit(mut self) -> Result<(), IoError> {
        let Some(w) = self.file.take() else {
            return Ok(());
        };
        let res = w
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_data().map(|_| f))
            .and_then(|f| {
                drop(f);
                std::fs::rename(&self.tmp, &self.target)
            });
        res.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            IoError::io(&self.target, e)
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.file {
            Some(f) => f.write(buf),
            None => Err(std::io::Error::other("atomic file already committed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.file {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `bytes` to `path` atomically, never through a symbolic link (see
/// [`AtomicFile`]). The parent directory must exist.
///
/// # Errors
/// As [`AtomicFile::create`] and [`AtomicFile::commit`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    let mut f = AtomicFile::create(path)?;
    f.write_all(bytes).map_err(|e| IoError::io(path, e))?;
    f.commit()
}

/// [`write_atomic`], creating the parent directories first (as
/// `std::fs::create_dir_all`: for a path the user named, whose directories
/// are theirs; below a root that must not be left, use
/// [`write_atomic_in`]).
///
/// # Errors
/// As [`write_atomic`], and [`IoError::Io`] when a directory cannot be
/// created.
pub fn write_atomic_with_parents(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| IoError::io(parent, e))?;
    write_atomic(path, bytes)
}

/// Create `root/rel` and every directory between, refusing to pass through a
/// symbolic link or a non-directory below `root` (`root` itself is the
/// caller's and may be anything that resolves to a directory). `rel` must be
/// relative and free of `..`. Returns `root/rel`.
///
/// # Errors
/// [`IoError::Symlink`] for a link on the way, [`IoError::NotRegular`] for a
/// file where a directory is needed, [`IoError::Io`] otherwise (including a
/// `rel` that is absolute or has `..`).
pub fn create_dir_all_nofollow(root: &Path, rel: &Path) -> Result<PathBuf, IoError> {
    std::fs::create_dir_all(root).map_err(|e| IoError::io(root, e))?;
    match walk_below(root, rel, Missing::Create)? {
        Some(dir) => Ok(dir),
        None => Err(IoError::io(
            &root.join(rel),
            std::io::Error::new(std::io::ErrorKind::NotFound, "the directory vanished"),
        )),
    }
}

/// What [`walk_below`] does at a component that does not exist.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Missing {
    /// Create it (a directory).
    Create,
    /// Stop: the walk's result is `None`.
    Stop,
}

/// The one component walk below `root` behind [`create_dir_all_nofollow`]
/// and [`dir_below_nofollow`]: each component of `rel` must be a real
/// directory (never a symbolic link); a missing one is created or ends the
/// walk with `None`, as `missing` says.
fn walk_below(root: &Path, rel: &Path, missing: Missing) -> Result<Option<PathBuf>, IoError> {
    let mut cur = root.to_path_buf();
    for comp in rel.components() {
        match comp {
            Component::Normal(name) => cur.push(name),
            Component::CurDir => continue,
            _ => {
                return Err(IoError::io(
                    &root.join(rel),
                    std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        "the path must stay below its root",
                    ),
                ))
            }
        }
        match std::fs::symlink_metadata(&cur) {
            Ok(m) if m.file_type().is_symlink() => return Err(IoError::Symlink { path: cur }),
            Ok(m) if m.is_dir() => {}
            Ok(m) if missing == Missing::Create => {
                return Err(IoError::NotRegular {
                    path: cur,
                    kind: if m.is_file() {
                        "a file where a directory is needed"
                    } else {
                        kind_name(m.file_type())
                    },
                })
            }
            Ok(_) => {
                return Err(IoError::io(
                    &cur,
                    std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
                ))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => match missing {
                Missing::Stop => return Ok(None),
                Missing::Create => match std::fs::create_dir(&cur) {
                    Ok(()) => {}
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        // Raced with another creator: it must be a real directory.
                        let m =
                            std::fs::symlink_metadata(&cur).map_err(|e| IoError::io(&cur, e))?;
                        if !m.is_dir() {
                            return Err(IoError::Symlink { path: cur });
                        }
                    }
                    Err(e) => return Err(IoError::io(&cur, e)),
                },
            },
            Err(e) => return Err(IoError::io(&cur, e)),
        }
    }
    Ok(Some(cur))
}

/// Write `root/rel` atomically, creating its directories with
/// [`create_dir_all_nofollow`]: nothing on the way may be a symbolic link.
///
/// # Errors
/// As [`create_dir_all_nofollow`] and [`write_atomic`].
pub fn write_atomic_in(root: &Path, rel: &Path, bytes: &[u8]) -> Result<PathBuf, IoError> {
    let dir = match rel.parent() {
        Some(p) if !p.as_os_str().is_empty() => create_dir_all_nofollow(root, p)?,
        _ => create_dir_all_nofollow(root, Path::new(""))?,
    };
    let name = rel.file_name().ok_or_else(|| {
        IoError::io(
            &root.join(rel),
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "no file name"),
        )
    })?;
    let path = dir.join(name);
    write_atomic(&path, bytes)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// A fresh scratch directory (shared with `tree_tests`).
    pub(super) fn tmpdir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "ct-io-{tag}-{}-{}",
            std::process::id(),
            random_suffix()
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reads_regular_files_and_refuses_the_rest() {
        let d = tmpdir("read");
        let f = d.join("a.py");
        std::fs::write(&f, b"x\xff\r\n").unwrap();
        assert_eq!(read_regular(&f, 100).unwrap(), b"x\xff\r\n");
        assert!(matches!(
            read_regular(&f, 3),
            Err(IoError::TooLarge { limit: 3, .. })
        ));
        assert!(matches!(
            read_regular(&d, 100),
            Err(IoError::NotRegular { .. })
        ));
        assert!(matches!(
            read_regular(&d.join("missing"), 100),
            Err(IoError::Io { .. })
        ));
        #[cfg(unix)]
        {
            // A link to a device: followed, then refused (never read).
            std::os::unix::fs::symlink("/dev/zero", d.join("zero.py")).unwrap();
            let e = read_regular(&d.join("zero.py"), 100).unwrap_err();
            assert!(matches!(e, IoError::NotRegular { .. }), "{e}");
            assert!(e.to_string().contains("zero.py"));
            // A link to a file: followed by read_regular, refused by nofollow.
            std::os::unix::fs::symlink(&f, d.join("link.py")).unwrap();
            assert!(read_regular(&d.join("link.py"), 100).is_ok());
            assert!(matches!(
                read_regular_nofollow(&d.join("link.py"), 100),
                Err(IoError::Symlink { .. })
            ));
            // A FIFO: refused at once, no hang.
            let fifo = d.join("pipe.py");
            let ok = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            if ok {
                let e = read_regular(&fifo, 100).unwrap_err();
                assert!(e.to_string().contains("FIFO"), "{e}");
            }
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn atomic_writes_replace_links_and_leave_no_temp() {
        let d = tmpdir("write");
        let outside = d.join("outside.txt");
        std::fs::write(&outside, b"secret").unwrap();
        let out = d.join("out");
        std::fs::create_dir_all(&out).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, out.join("report.md")).unwrap();
        write_atomic(&out.join("report.md"), b"new").unwrap();
        assert_eq!(std::fs::read(&outside).unwrap(), b"secret");
        assert_eq!(std::fs::read(out.join("report.md")).unwrap(), b"new");
        assert!(!std::fs::symlink_metadata(out.join("report.md"))
            .unwrap()
            .file_type()
            .is_symlink());
        // An uncommitted file leaves the target as it was and no temp file.
        {
            let mut f = AtomicFile::create(&out.join("report.md")).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert_eq!(std::fs::read(out.join("report.md")).unwrap(), b"new");
        let names: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().collect();
        assert_eq!(names.len(), 1);
        // A directory target is refused.
        assert!(write_atomic(&out, b"x").is_err());
        // A killed writer's temp file is cleaned, a running one's is kept.
        #[cfg(target_os = "linux")]
        {
            let mut child = std::process::Command::new("true").spawn().unwrap();
            let dead = child.id();
            child.wait().unwrap();
            let stale = out.join(format!("{TEMP_PREFIX}{dead}-0123.report.md"));
            let live = out.join(format!(
                "{TEMP_PREFIX}{}-0123.report.md",
                std::process::id()
            ));
            std::fs::write(&stale, b"").unwrap();
            std::fs::write(&live, b"").unwrap();
            assert_eq!(remove_stale_temps(&out), 1);
            assert!(!stale.exists() && live.exists());
            std::fs::remove_file(&live).unwrap();
            // The first atomic write into a directory sweeps it by itself.
            let fresh = d.join("fresh");
            std::fs::create_dir_all(&fresh).unwrap();
            let stale = fresh.join(format!("{TEMP_PREFIX}{dead}-0123.x"));
            std::fs::write(&stale, b"").unwrap();
            write_atomic(&fresh.join("x"), b"x").unwrap();
            assert!(!stale.exists());
        }
        // Temporary directories: new, distinct, never an existing path.
        let a = create_temp_dir_in(&out, "scratch").unwrap();
        let b = create_temp_dir_in(&out, "scratch").unwrap();
        assert_ne!(a, b);
        assert!(
            a.is_dir()
                && a.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(TEMP_PREFIX)
        );
        // open_regular refuses what read_regular refuses.
        assert!(matches!(
            open_regular(&out, 10),
            Err(IoError::NotRegular { .. })
        ));
        assert!(open_regular(&out.join("report.md"), 10).is_ok());
        assert!(matches!(
            open_regular(&out.join("report.md"), 1),
            Err(IoError::TooLarge { .. })
        ));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn nofollow_dirs_refuse_planted_links() {
        let d = tmpdir("dirs");
        let elsewhere = d.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let root = d.join("root");
        std::fs::create_dir_all(&root).unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&elsewhere, root.join("instances")).unwrap();
            let e = write_atomic_in(&root, Path::new("instances/x/pr0.patch"), b"p").unwrap_err();
            assert!(matches!(e, IoError::Symlink { .. }), "{e}");
            assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
        }
        let p = write_atomic_in(&root, Path::new("a/b/c.txt"), b"c").unwrap();
        assert_eq!(std::fs::read(p).unwrap(), b"c");
        assert!(write_atomic_in(&root, Path::new("../x.txt"), b"c").is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }
}

// ---- No-follow walks of untrusted trees -------------------------------------------------

/// One regular file read by [`read_tree_nofollow`].
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct WalkedFile {
    /// The path below the walked directory, its components joined by `/`, as the file
    /// system's bytes (two non-UTF-8 names never become one).
    pub rel: Vec<u8>,
    /// The contents.
    pub bytes: Vec<u8>,
}

/// Every regular file below `dir`, sorted by [`WalkedFile::rel`]. The tree is untrusted: the
/// walk never follows a symbolic link (a link anywhere below `dir`, to a file, a directory or
/// nowhere, is an [`IoError::Symlink`] naming it, its target never read), and only regular
/// files of at most `limit` bytes are read ([`read_regular_nofollow`]: a FIFO or device is
/// refused without blocking). `dir` itself is the caller's (see [`dir_below_nofollow`]).
/// The walk is iterative.
///
/// # Errors
/// Every problem of the tree (a link, a special or oversized file, an unreadable directory
/// or entry), sorted by path: the whole tree is then refused.
pub fn read_tree_nofollow(dir: &Path, limit: u64) -> Result<Vec<WalkedFile>, Vec<IoError>> {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = match std::fs::read_dir(&d) {
            Ok(rd) => rd,
            Err(e) => {
                problems.push(IoError::io(&d, e));
                continue;
            }
        };
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    problems.push(IoError::io(&d, e));
                    continue;
                }
            };
            let p = entry.path();
            // `DirEntry::file_type` does not follow links.
            match entry.file_type() {
                Err(e) => problems.push(IoError::io(&p, e)),
                Ok(t) if t.is_symlink() => problems.push(IoError::Symlink { path: p }),
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(_) => match read_regular_nofollow(&p, limit) {
                    Ok(bytes) => {
                        let rel = p
                            .strip_prefix(dir)
                            .unwrap_or(&p)
                            .components()
                            .map(|c| c.as_os_str().as_encoded_bytes())
                            .collect::<Vec<_>>()
                            .join(&b'/');
                        out.push(WalkedFile { rel, bytes });
                    }
                    Err(e) => problems.push(e),
                },
            }
        }
    }
    if !problems.is_empty() {
        problems.sort_by(|a, b| {
            a.path()
                .cmp(b.path())
                .then_with(|| a.to_string().cmp(&b.to_string()))
        });
        return Err(problems);
    }
    out.sort();
    Ok(out)
}

/// The names of the subdirectories of `dir`, sorted, and the problems met: an entry that is
/// a symbolic link is an [`IoError::Symlink`] naming it (never followed, never listed), an
/// unreadable `dir` or entry an [`IoError::Io`]. Other entries (files, FIFOs, ...) are
/// skipped. Names are the file system's (`OsString`): the caller decides what a name that is
/// not UTF-8 means.
pub fn subdirs_nofollow(dir: &Path) -> (Vec<std::ffi::OsString>, Vec<IoError>) {
    let mut names = Vec::new();
    let mut problems = Vec::new();
    match std::fs::read_dir(dir) {
        Err(e) => problems.push(IoError::io(dir, e)),
        Ok(rd) => {
            for entry in rd {
                let entry = match entry {
                    Ok(e) => e,
                    Err(e) => {
                        problems.push(IoError::io(dir, e));
                        continue;
                    }
                };
                match entry.file_type() {
                    Ok(t) if t.is_dir() => names.push(entry.file_name()),
                    Ok(t) if t.is_symlink() => {
                        problems.push(IoError::Symlink { path: entry.path() })
                    }
                    Ok(_) => {}
                    Err(e) => problems.push(IoError::io(&entry.path(), e)),
                }
            }
        }
    }
    names.sort();
    problems.sort_by(|a, b| a.path().cmp(b.path()));
    (names, problems)
}

/// `root/rel` as a real directory below `root`, reached without following a link: `Ok(None)`
/// when some component does not exist. `root` itself is the caller's; `rel` must be relative
/// and free of `..`.
///
/// # Errors
/// [`IoError::Symlink`] naming the first component below `root` that is a symbolic link,
/// [`IoError::Io`] (kind `NotADirectory`) for one that is not a directory, [`IoError::Io`]
/// for any other failure and for a `rel` that leaves `root`.
pub fn dir_below_nofollow(root: &Path, rel: &Path) -> Result<Option<PathBuf>, IoError> {
    walk_below(root, rel, Missing::Stop)
}

/// The regular file `root/rel`, every component below `root` reached without
/// following a link: `Ok(None)` when a component does not exist. For the
/// files of an untrusted tree named by an untrusted path (a snapshot's
/// pre-images named by a patch): a link anywhere on the way, not only at
/// the file itself, is refused, so nothing outside `root` is ever read.
/// `rel` must be relative and free of `..`.
///
/// # Errors
/// [`IoError::Symlink`] naming the first link on the way (or the file
/// itself), [`IoError::Io`] (kind `NotADirectory`) for a component that is
/// not a directory, and the errors of [`read_regular_nofollow`].
pub fn read_below_nofollow(
    root: &Path,
    rel: &Path,
    limit: u64,
) -> Result<Option<Vec<u8>>, IoError> {
    let Some(name) = rel.file_name() else {
        return Err(IoError::io(
            &root.join(rel),
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file"),
        ));
    };
    let parent = rel.parent().unwrap_or(Path::new(""));
    let Some(dir) = dir_below_nofollow(root, parent)? else {
        return Ok(None);
    };
    absent_as_none(read_regular_nofollow(&dir.join(name), limit))
}

/// `Ok(None)` for a read that failed because the file does not exist; any
/// other result as it is: `absent_as_none(read_regular(p, limit))` reads a
/// file that may not be there.
///
/// # Errors
/// Every error of `r` but "not found".
pub fn absent_as_none<T>(r: Result<T, IoError>) -> Result<Option<T>, IoError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(IoError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Remove the file `root/rel` if it is there, every directory below `root`
/// reached without following a link: a planted link on the way makes it an
/// error and nothing is removed elsewhere. A link at `rel` itself is
/// removed, not followed. `Ok(false)` when there was nothing to remove.
///
/// # Errors
/// As [`dir_below_nofollow`]; [`IoError::Io`] when the removal fails, or
/// when `rel` names a directory.
pub fn remove_below_nofollow(root: &Path, rel: &Path) -> Result<bool, IoError> {
    let Some(name) = rel.file_name() else {
        return Err(IoError::io(
            &root.join(rel),
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file"),
        ));
    };
    let Some(dir) = dir_below_nofollow(root, rel.parent().unwrap_or(Path::new("")))? else {
        return Ok(false);
    };
    let path = dir.join(name);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(IoError::io(&path, e)),
    }
}

#[cfg(test)]
mod tree_tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    use super::tests::tmpdir;

    #[test]
    fn removal_and_optional_reads_stay_below_their_root() {
        let d = tmpdir("remove");
        let root = d.join("root");
        let outside = d.join("outside");
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(root.join("a/x.json"), b"x").unwrap();
        std::fs::write(outside.join("x.json"), b"keep").unwrap();
        // A file below the root is removed once; then there is nothing.
        assert!(remove_below_nofollow(&root, Path::new("a/x.json")).unwrap());
        assert!(!remove_below_nofollow(&root, Path::new("a/x.json")).unwrap());
        assert!(!remove_below_nofollow(&root, Path::new("missing/x.json")).unwrap());
        // A directory link on the way: an error naming it, nothing removed
        // outside.
        std::os::unix::fs::symlink(&outside, root.join("l")).unwrap();
        let e = remove_below_nofollow(&root, Path::new("l/x.json")).unwrap_err();
        assert!(matches!(e, IoError::Symlink { .. }), "{e}");
        assert_eq!(std::fs::read(outside.join("x.json")).unwrap(), b"keep");
        // A link as the file itself is removed, not followed.
        std::os::unix::fs::symlink(outside.join("x.json"), root.join("a/y.json")).unwrap();
        assert!(remove_below_nofollow(&root, Path::new("a/y.json")).unwrap());
        assert_eq!(std::fs::read(outside.join("x.json")).unwrap(), b"keep");
        assert!(remove_below_nofollow(&root, Path::new("../outside/x.json")).is_err());
        // Optional reads: absent is None, anything else is still an error.
        assert_eq!(
            absent_as_none(read_regular(&root.join("nope"), 10)).unwrap(),
            None
        );
        assert!(absent_as_none(read_regular(&root.join("a"), 10)).is_err());
        // Writes that create their parents.
        write_atomic_with_parents(&d.join("new/deep/f.txt"), b"ok").unwrap();
        assert_eq!(std::fs::read(d.join("new/deep/f.txt")).unwrap(), b"ok");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn tree_walks_read_regular_files_and_name_every_link() {
        let d = tmpdir("walk");
        let root = d.join("root");
        std::fs::create_dir_all(root.join("a/b")).unwrap();
        std::fs::create_dir_all(root.join("m2")).unwrap();
        std::fs::write(root.join("a/b/x.py"), b"x\r\n\xff").unwrap();
        std::fs::write(root.join("top.rs"), b"t").unwrap();
        let files = read_tree_nofollow(&root, 100).unwrap();
        let rels: Vec<&[u8]> = files.iter().map(|f| f.rel.as_slice()).collect();
        assert_eq!(rels, [&b"a/b/x.py"[..], b"top.rs"]);
        assert_eq!(files[0].bytes, b"x\r\n\xff");
        // The size limit applies to every file.
        let e = read_tree_nofollow(&root, 2).unwrap_err();
        assert_eq!(e.len(), 1);
        assert!(matches!(&e[0], IoError::TooLarge { path, .. } if path.ends_with("a/b/x.py")));
        let (names, problems) = subdirs_nofollow(&root);
        assert_eq!(names, ["a", "m2"]);
        assert!(problems.is_empty());
        assert_eq!(
            dir_below_nofollow(&root, Path::new("a/b")).unwrap(),
            Some(root.join("a/b"))
        );
        assert_eq!(
            dir_below_nofollow(&root, Path::new("a/none")).unwrap(),
            None
        );
        let e = dir_below_nofollow(&root, Path::new("top.rs/x")).unwrap_err();
        assert!(e.to_string().ends_with("top.rs: not a directory"), "{e}");
        assert!(dir_below_nofollow(&root, Path::new("../root")).is_err());
        #[cfg(unix)]
        {
            let secret = d.join("secret");
            std::fs::create_dir_all(&secret).unwrap();
            std::fs::write(secret.join("s.txt"), b"SECRET").unwrap();
            // links to a file, to a directory, and nowhere: each named, none read
            std::os::unix::fs::symlink(secret.join("s.txt"), root.join("a/f.txt")).unwrap();
            std::os::unix::fs::symlink(&secret, root.join("a/b/dir")).unwrap();
            std::os::unix::fs::symlink(d.join("nowhere"), root.join("dangling")).unwrap();
            let e = read_tree_nofollow(&root, 100).unwrap_err();
            let paths: Vec<&Path> = e.iter().map(IoError::path).collect();
            assert_eq!(
                paths,
                [
                    root.join("a/b/dir"),
                    root.join("a/f.txt"),
                    root.join("dangling")
                ]
            );
            assert!(e.iter().all(|e| matches!(e, IoError::Symlink { .. })));
            // a link among the subdirectories is an error, not a name
            std::os::unix::fs::symlink(&secret, root.join("linked")).unwrap();
            let (names, problems) = subdirs_nofollow(&root);
            assert_eq!(names, ["a", "m2"]);
            let paths: Vec<&Path> = problems.iter().map(IoError::path).collect();
            assert_eq!(paths, [root.join("dangling"), root.join("linked")]);
            assert!(problems
                .iter()
                .all(|e| matches!(e, IoError::Symlink { .. })));
            let e = dir_below_nofollow(&root, Path::new("linked/x")).unwrap_err();
            assert!(matches!(e, IoError::Symlink { .. }), "{e}");
            // a FIFO is refused without blocking
            let fifo = root.join("m2/pipe");
            let made = std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .is_ok_and(|s| s.success());
            if made {
                let e = read_tree_nofollow(&root.join("m2"), 100).unwrap_err();
                assert!(e[0].to_string().contains("FIFO"), "{}", e[0]);
            }
        }
        std::fs::remove_dir_all(&d).unwrap();
    }
}
