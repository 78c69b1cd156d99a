//! rust-code-analysis 0.0.25's Halstead tables, one file per language.

pub(crate) mod c;
pub(crate) mod java;
pub(crate) mod js;
pub(crate) mod rust;
