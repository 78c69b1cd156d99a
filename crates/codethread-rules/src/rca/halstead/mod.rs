//! rust-code-analysis 0.0.25's Halstead tables, one file per language.

pub mod c;
pub mod java;
pub mod js;
pub mod rust;
