//! The rule tables: everything a walker knows about a language, as data.
//!
//! - [`paper`]: one row per language for [`crate::Profile::Paper`]; each row
//!   names the tables of the reference tools it reproduces.
//! - [`cyclomatic`], [`cognitive`], [`halstead`], [`lloc`], [`functions`]:
//!   the table types of each metric (and of which functions are reported).
//! - One module per reference tool holding that tool's rows, for every metric
//!   it measures: [`radon`] and [`complexipy`] (Python); [`lizard`],
//!   [`gocognit`] and [`go_halstead`] (Go; lizard's token tables for C++,
//!   Ruby and PHP); [`rca`] (rust-code-analysis: Rust, JavaScript,
//!   TypeScript, TSX, Java, C).
//! - [`canonical`]: the canonical profile's one table per grammar.
//! - [`when`]: the condition on a node's surroundings every table uses,
//!   with its one evaluator.

pub mod canonical;
pub mod cognitive;
pub mod complexipy;
pub mod cyclomatic;
pub mod functions;
pub mod go_halstead;
pub mod gocognit;
pub mod halstead;
pub mod lizard;
pub mod lloc;
pub mod paper;
pub mod radon;
pub mod rca;
pub mod when;
