//! radon 6.0.1, the paper's Python tool for cyclomatic complexity, Halstead
//! and LLOC (cognitive complexity is complexipy's, [`super::complexipy`]):
//! its rows for every metric table, and the functions it reports.

pub mod cyclomatic;
pub mod functions;
pub mod halstead;
pub mod lloc;
