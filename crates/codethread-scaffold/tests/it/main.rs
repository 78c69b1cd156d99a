//! The integration suites of this package in one test binary.

mod harbor;
mod python_harness;
mod subsets;
