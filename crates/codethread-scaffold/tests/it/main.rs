//! The integration suites of this package in one test binary.

mod featbench;
mod harbor;
mod pro;
mod python_harness;
mod subsets;
