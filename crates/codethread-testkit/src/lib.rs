//! Test support shared by the codethread crates: locating the real-data
//! folder named by `CODETHREAD_SHARED`.
//!
//! Suites that need the real data call [`shared`] (or [`shared_path`]) first:
//! - `CODETHREAD_SHARED` unset: the function prints a visible `SKIPPED` line
//!   and returns `None`; the test returns early.
//! - set, but the folder or the requested file is missing: the test fails
//!   (panics with the path), so a broken CI setup can never pass silently.
//!
//! ```no_run
//! if let Some(p) = codethread_testkit::shared_path("metrics/reference") {
//!     assert!(p.is_dir());
//! }
//! ```
#![allow(clippy::panic)]

use std::io::Write;
use std::path::PathBuf;

/// Name of the environment variable that points at the shared data folder.
pub const ENV: &str = "CODETHREAD_SHARED";

/// The shared data folder, or `None` (with a printed skip notice) when
/// `CODETHREAD_SHARED` is unset or empty.
///
/// # Panics
/// When the variable is set but does not name a directory.
pub fn shared() -> Option<PathBuf> {
    match std::env::var_os(ENV) {
        Some(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            if !p.is_dir() {
                panic!(
                    "{ENV} is set to {} but that is not a directory",
                    p.display()
                );
            }
            Some(p)
        }
        _ => {
            // Written to the stderr handle directly: libtest captures the
            // print macros of passing tests, and a skip must stay visible.
            let test = std::thread::current().name().unwrap_or("?").to_string();
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: {ENV} is not set; this real-data suite did not run"
            );
            None
        }
    }
}

/// A path below the shared folder that must exist when the folder is set.
///
/// # Panics
/// When `CODETHREAD_SHARED` is set but `rel` does not exist below it.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let root = shared()?;
    let p = root.join(rel);
    if !p.exists() {
        panic!("{ENV} is set but {} is missing", p.display());
    }
    Some(p)
}
