//! # codethread-rules
//!
//! Everything `codethread-metrics`' walkers know about a language, as data:
//! which functions are reported and how they are named, which nodes are
//! decisions, cognitive increments, Halstead operators and operands, and
//! logical lines. The walkers are generic; adding a language or a reference
//! tool is adding rows here.
//!
//! - [`paper`]: one row per language for the `paper` profile, which
//!   reproduces the tools the CodeThread paper used; each row names the
//!   tables of the reference tool it reproduces (radon and complexipy for
//!   Python; lizard, gocognit and go-halstead for Go; rust-code-analysis
//!   for Rust, JavaScript, TypeScript, TSX, Java and C; lizard's token
//!   reader for C++, Ruby and PHP). The rows of each tool are a private
//!   module of their own, reached through [`paper::paper`].
//! - [`cyclomatic`], [`cognitive`], [`halstead`], [`lloc`], [`functions`]:
//!   the table types of each metric (and of which functions are reported).
//! - [`canonical`]: the canonical profile's one table per grammar
//!   ([`canonical::rules`]).
//! - [`when`]: the condition on a node's surroundings every table uses,
//!   with its one evaluator.
//!
//! ```
//! use codethread_lang::Lang;
//! use codethread_rules::paper::{paper, PaperTables};
//!
//! // Python's paper row is read on the tree (radon, complexipy); C++'s by
//! // lizard's token reader.
//! assert!(matches!(paper(Lang::Python), PaperTables::Tree(_)));
//! assert!(matches!(paper(Lang::Cpp), PaperTables::Lizard(_)));
//! // The canonical profile knows Python's `if` statement.
//! let canon = codethread_rules::canonical::rules(Lang::Python);
//! assert!(canon.rules.iter().any(|r| r.kind == "if_statement"));
//! ```

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod canonical;
pub mod cognitive;
mod complexipy;
pub mod cyclomatic;
pub mod functions;
mod go_halstead;
mod gocognit;
pub mod halstead;
mod kind;
mod lizard;
pub mod lloc;
pub mod paper;
mod radon;
mod rca;
pub mod when;

pub use kind::RecordKind;
