//! rust-code-analysis 0.0.25, the paper's tool for Rust, JavaScript,
//! TypeScript, TSX, Java and C (read with its C++ grammar): its rows for
//! every metric table, and the functions (spaces) it reports.

pub(crate) mod cognitive;
pub(crate) mod cyclomatic;
pub(crate) mod functions;
pub(crate) mod halstead;
pub(crate) mod lloc;
