//! The repository's tidy checks, in the manner of rust-analyzer's `xtask`
//! tidy: the invariants `docs/ARCHITECTURE.md` states about the shape of
//! the code (the crate graph, where grammars may be depended on, where a
//! `match` may list every language, no import circle between the modules of
//! a crate), checked against the code itself by `tests/tidy.rs`.
//!
//! A package of its own with no codethread dependency, so that
//! `cargo test -p codethread-tidy` builds nothing but itself and runs in
//! seconds. Unpublished.
//!
//! ```
//! let root = codethread_tidy::workspace_root();
//! assert!(root.join("docs/ARCHITECTURE.md").is_file());
//! assert!(root.join("crates/codethread-tidy/Cargo.toml").is_file());
//! ```

use std::path::Path;

/// The workspace's root directory: two levels above this package's own
/// (`crates/codethread-tidy`).
pub fn workspace_root() -> &'static Path {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    match here.parent().and_then(Path::parent) {
        Some(root) => root,
        None => here,
    }
}
