//! rust-code-analysis 0.0.25, the paper's tool for Rust, JavaScript,
//! TypeScript, TSX, Java and C (read with its C++ grammar): its rows for
//! every metric table, and the functions (spaces) it reports.

pub mod cognitive;
pub mod cyclomatic;
pub mod functions;
pub mod halstead;
pub mod lloc;
