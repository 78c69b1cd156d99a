//! # codethread-skeleton
//!
//! PR0 of a CodeThread chain is the base commit with the target functions'
//! bodies removed and their signatures kept. This crate makes that skeleton,
//! exactly and boringly:
//!
//! - **Select** targets with [`Selector`]s: all functions, by qualified name
//!   (`Class.method`, `Class.method#2`), by byte or line span, or by a
//!   predicate over [`codethread_lang::Function`]. Functions nested in a
//!   target go with it; functions without a body and Python `@overload`
//!   stubs are never targets.
//! - **Replace only the body** with a stub: Python `raise NotImplementedError`
//!   (plus an unreachable `yield` for generators), Go
//!   `panic("not implemented")`, Rust `todo!()`, JS/TS
//!   `throw new Error("not implemented");` (expression-bodied arrows get a
//!   braced body), Java `throw new UnsupportedOperationException(...)` (after
//!   a constructor's `this(...)` / `super(...)`), C/C++ `__builtin_trap();`
//!   (C++ function-try-blocks keep `try` and one `catch (...)`), Ruby
//!   `raise NotImplementedError` (endless methods
//!   `raise(NotImplementedError)`), PHP
//!   `throw new \LogicException('not implemented');`. Decorators, attributes, doc comments, the whole signature,
//!   the opener, a comment on the opener line, indentation (tabs or spaces),
//!   line endings and every byte outside the replaced ranges are kept.
//! - **Edits** ([`Edit`]) are reported in the original's coordinates:
//!   [`apply_edits`] rebuilds the skeleton, [`restore`] /
//!   [`restore_selected`] splice the original bodies back.
//! - **Idempotent**: skeletonizing a skeleton changes nothing.
//! - Stubs that parse but cannot type-check (Rust `-> impl Trait`, TS
//!   constructors of derived classes, C++ `constexpr` functions and deduced
//!   `auto` return types) carry a [`Warning`].
//! - **Memory bounded by the file**: a file of at least
//!   [`Options::chunks`]`.min_file_bytes` (1 MB) is indexed, planned and
//!   re-parsed one chunk of whole top-level units at a time
//!   ([`skeletonize_source`], [`skeletonize_path`], [`skeletonize_dir`]),
//!   with the whole-file result.
//!
//! ```
//! use codethread_skeleton::{restore, skeletonize_source, Lang, Options, Selector};
//!
//! let src = "@cache\ndef area(r):  # circle\n    \"\"\"Area.\"\"\"\n    return 3.14 * r * r\n";
//! let sk = skeletonize_source(Lang::Python, src, &[Selector::All], &Options::default()).unwrap();
//! assert_eq!(
//!     String::from_utf8(sk.text.clone()).unwrap(),
//!     "@cache\ndef area(r):  # circle\n    raise NotImplementedError\n"
//! );
//! assert_eq!(sk.edits[0].function, "area");
//! // Splicing the original bodies back restores the file exactly.
//! assert_eq!(restore(&sk.text, &sk.edits, src.as_bytes()).unwrap(), src.as_bytes());
//! ```
//!
//! See `docs/skeleton.md` for the rules per language and the invariants the
//! tests check.

/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_skeleton::Lang`, `codethread_skeleton::lang::...`).
pub use codethread_lang as lang;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod batch;
mod error;
mod goimports;
mod model;
mod plan;
mod select;
mod skeleton;
mod staticuses;
mod text;

pub use batch::{skeletonize_dir, skeletonize_path, FileOutcome};
pub use error::SkeletonError;
pub use model::{Edit, Options, ParseErrorPolicy, SkipReason, Skipped, Warning};
pub use plan::{
    stub_statement, C_STUB, GO_STUB, JAVA_STUB, JS_STUB, PHP_STUB, PYTHON_STUB, PYTHON_YIELD,
    RUBY_EXPR_STUB, RUBY_STUB, RUST_STUB,
};
pub use select::{split_occurrence, Selector};
pub use skeleton::{
    apply_edits, restore, restore_selected, skeletonize, skeletonize_source, Skeleton,
};
