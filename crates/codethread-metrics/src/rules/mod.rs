//! The rule tables: everything a walker knows about a language, as data.
//!
//! - [`paper`]: one row per language for [`crate::Profile::Paper`], grouped
//!   by the reference tool the row reproduces; each row names the tables
//!   below that the tool's metrics read.
//! - [`cyclomatic`], [`cognitive`], [`halstead`], [`lloc`], [`functions`]:
//!   the paper tools' per-metric tables (and which functions they report).
//! - [`canonical`]: the canonical profile's one table per grammar.
//! - [`when`]: the condition on a node's surroundings every table uses,
//!   with its one evaluator.

pub mod canonical;
pub mod cognitive;
pub mod cyclomatic;
pub mod functions;
pub mod halstead;
pub mod lloc;
pub mod paper;
pub mod when;
