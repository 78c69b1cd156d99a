//! # codethread-patch
//!
//! Unified and git diffs as typed data, for every stage of a CodeThread chain
//! (gold patches, untrusted agent patches, PR0 stubbing patches, stacked
//! PR1 + PR2 patches):
//!
//! - [`parse_patch`]: bytes (not necessarily UTF-8; CRLF, quoted paths, binary
//!   markers, renames, modes) to a [`Patch`]; [`Patch::to_bytes`] writes the
//!   input back byte for byte. Malformed input is a typed [`ParseError`]
//!   naming the line.
//! - [`MemTree::apply`] / [`apply_to_dir`]: git's rules (exact context,
//!   nearest-first offset search, match-at-start/end anchors, no fuzz unless
//!   [`ApplyOptions::fuzz`]), reverse apply, all-or-nothing, and path safety
//!   (no absolute paths, `..`, `.git`, or writes through symlinks).
//! - [`diff_files`] / [`diff_trees`]: git-compatible diffs (`git apply`
//!   accepts them) from before/after contents.
//! - [`localize`]: the files and functions a patch edits, by the rule of
//!   `docs/target-rules.md`, on `codethread-lang`'s function index (an
//!   image keeps no tree; one of 1 MB or more is parsed chunk by chunk:
//!   [`LocalizeOptions::chunks`]).
//! - [`jaccard`], [`similarity`]: J^file and J^func of two patches.
//! - [`to_git_format`]: add `diff --git` headers to traditional diffs;
//!   [`compose`]: stack patches (PR1 + PR2) into one git diff.
//!
//! ```
//! use codethread_patch::{diff_files, localize, parse_patch, ApplyOptions, DiffOptions, FileChange, MemTree};
//!
//! let before = b"def f(x):\n    return x\n\n\ndef g():\n    pass\n";
//! let after = b"def f(x):\n    return x + 1\n\n\ndef g():\n    pass\n";
//! // Write a git diff, read it back, apply it.
//! let patch = diff_files(&[FileChange::new(b"m.py", Some(before), Some(after))], &DiffOptions::default()).unwrap();
//! let text = patch.to_bytes();
//! assert!(text.starts_with(b"diff --git a/m.py b/m.py\n"));
//! let patch = parse_patch(&text).unwrap();
//! assert_eq!(patch.to_bytes(), text);
//! let mut tree = MemTree::new();
//! tree.insert("m.py", &before[..]);
//! let pre = tree.clone();
//! tree.apply(&patch, &ApplyOptions::default()).unwrap();
//! assert_eq!(tree.get(b"m.py"), Some(&after[..]));
//! // Which functions did it edit?
//! let loc = localize(&pre, &patch, &Default::default()).unwrap();
//! assert_eq!(loc.target_ids(), vec!["m.py::f".to_string()]);
//! ```

/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_patch::Lang`, `codethread_patch::lang::...`).
pub use codethread_lang as lang;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod apply;
mod binary;
mod create;
pub mod error;
mod fs;
mod jaccard;
mod localize;
pub mod model;
mod normalize;
mod parse;
pub mod quote;
mod safety;
mod synth;

pub use apply::{
    ApplyOptions, ApplyReport, FileReport, HunkReport, MemTree, TreeFile, MODE_EXEC, MODE_FILE,
    MODE_SYMLINK,
};
pub use binary::{blob_id, MAX_BINARY_BYTES};
pub use create::{diff_files, diff_trees, is_binary, DiffOptions, FileChange};
pub use error::{ApplyError, CreateError, ParseError};
pub use fs::{apply_to_dir, load_for_patch};
pub use jaccard::{
    edit_sets_in_dir, edit_sets_of, file_set, function_set, jaccard, jaccard_of, jaccard_opt,
    localize_in_dir, similarity, EditSets, PatchSimilarity,
};
pub use localize::{
    is_source_path, localize, localize_keeping, EditedFunction, FileEdit, FunctionStatus,
    KeptImage, KeptImages, Localization, LocalizeError, LocalizeOptions, NegativeCase,
    KEPT_TREE_SOURCE_BYTES, LISTED_DEPTH,
};
pub use model::*;
pub use normalize::{compose, to_git_format, ComposeError};
pub use parse::{parse_patch, parse_with_strip};
pub use safety::check_path;
pub use synth::synthesize_images;
