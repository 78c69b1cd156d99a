//! The runner's on-disk cache: one file per answered request, named by the
//! SHA-256 of the exact request body bytes sent, written atomically
//! (`codethread_lang::io::write_atomic`: a temporary file, then a rename),
//! so a killed run leaves whole records or none and a re-run sends nothing
//! that is already answered.
//!
//! Layout: `<dir>/<sha256 hex>.json` holding a [`CacheRecord`]. Only
//! answered requests are cached; failures are retried by the next run.
//!
//! Nothing is followed below the output root (the parent of `<dir>`): a
//! `<dir>` that is a symbolic link (or not a directory) is refused when the
//! cache is opened and at every read and write, so a planted
//! `OUT/cache -> /elsewhere` neither receives records nor loses files to the
//! stale-temporary sweep.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use codethread_bench::BenchError;

/// The cache key of a request body: lowercase hex SHA-256 of its bytes.
pub(crate) fn request_key(body: &[u8]) -> String {
    let d = Sha256::digest(body);
    let mut s = String::with_capacity(64);
    for b in d {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// One answered request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CacheRecord {
    /// The request's `custom_id` when it was answered.
    pub custom_id: String,
    /// The SHA-256 (hex) of the body, the cache key.
    pub key: String,
    /// The answer text (`choices[0].message.content`).
    pub content: String,
    /// The whole response body as the endpoint sent it.
    pub response: Value,
    /// HTTP attempts it took.
    pub attempts: u32,
}

/// A cache directory.
#[derive(Debug, Clone)]
pub struct Cache {
    /// The output root (the caller's; may be anything that is a directory).
    root: PathBuf,
    /// The cache below it (one name, never a link).
    name: PathBuf,
    dir: PathBuf,
    limits: codethread_lang::io::SourceLimits,
}

impl Cache {
    /// Open (create) the cache directory `dir`: its parent is the output
    /// root, `dir` itself must be a real directory (created when missing),
    /// never a symbolic link. Stale temporary files of a killed run are
    /// removed from it.
    pub fn open(dir: &Path) -> Result<Cache, BenchError> {
        let name = dir
            .file_name()
            .map(PathBuf::from)
            .ok_or_else(|| BenchError::Format {
                path: dir.to_path_buf(),
                message: "a cache directory needs a name".into(),
            })?;
        let root = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        Cache::open_in(&root, &name)
    }

    /// The same cache, reading no entry beyond `limits` (default:
    /// [`codethread_lang::io::SourceLimits::default`]).
    pub fn with_limits(mut self, limits: codethread_lang::io::SourceLimits) -> Cache {
        self.limits = limits;
        self
    }

    /// Open (create) `root/rel` as the cache, refusing a symbolic link or
    /// non-directory at any component below `root`.
    pub fn open_in(root: &Path, rel: &Path) -> Result<Cache, BenchError> {
        let dir = codethread_lang::io::create_dir_all_nofollow(root, rel)?;
        codethread_lang::io::remove_stale_temps(&dir);
        Ok(Cache {
            root: root.to_path_buf(),
            name: rel.to_path_buf(),
            dir,
            limits: codethread_lang::io::SourceLimits::default(),
        })
    }

    /// The cache directory still a real directory below the root (it may
    /// have been replaced by a link since it was opened).
    fn check_dir(&self) -> Result<(), BenchError> {
        codethread_lang::io::create_dir_all_nofollow(&self.root, &self.name)?;
        Ok(())
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The record for `key`: `Ok(None)` when there is none; a record that
    /// cannot be read or is not a record for this key is an error naming
    /// the file (the runner then asks again and overwrites it).
    pub fn get(&self, key: &str) -> Result<Option<CacheRecord>, BenchError> {
        self.check_dir()?;
        let p = self.path(key);
        let read = codethread_lang::io::read_regular_nofollow(&p, self.limits.max_file_bytes);
        let Some(bytes) = codethread_lang::io::absent_as_none(read)? else {
            return Ok(None);
        };
        let r: CacheRecord =
            serde_json::from_slice(&bytes).map_err(|e| BenchError::json(&p, 0, &e))?;
        if r.key != key {
            return Err(BenchError::Format {
                path: p,
                message: format!("record for key {} under another name", r.key),
            });
        }
        Ok(Some(r))
    }

    /// Store a record atomically.
    pub fn put(&self, r: &CacheRecord) -> Result<(), BenchError> {
        let bytes = serde_json::to_vec(r).map_err(|e| BenchError::Format {
            path: self.path(&r.key),
            message: e.to_string(),
        })?;
        codethread_lang::io::write_atomic_in(
            &self.root,
            &self.name.join(format!("{}.json", r.key)),
            &bytes,
        )?;
        Ok(())
    }

    /// Remove the record of `key` (nothing when there is none, or when the
    /// cache directory is no longer a real directory).
    pub fn remove(&self, key: &str) {
        let _ = codethread_lang::io::remove_below_nofollow(
            &self.root,
            &self.name.join(format!("{key}.json")),
        );
    }
}
