//! The rule tables: everything a walker knows about a language, as data.
//!
//! - [`paper`]: one row per language for [`crate::Profile::Paper`], grouped
//!   by the reference tool the row reproduces; each row names the tables
//!   below that the tool's metrics read.
//! - [`cyclomatic`], [`cognitive`], [`halstead`], [`lloc`], [`functions`]:
//!   the paper tools' per-metric tables (and which functions they report).
//! - [`canonical`]: the canonical profile's one table per grammar.

pub mod canonical;
pub mod cognitive;
pub mod cyclomatic;
pub mod functions;
pub mod halstead;
pub mod lloc;
pub mod paper;
