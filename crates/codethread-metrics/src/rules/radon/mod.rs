//! radon 6.0.1, the paper's Python tool for cyclomatic complexity, Halstead
//! and LLOC (cognitive complexity is complexipy's, [`super::complexipy`]):
//! its rows for every metric table, and the functions it reports.

pub(crate) mod cyclomatic;
pub(crate) mod functions;
pub(crate) mod halstead;
pub(crate) mod lloc;
