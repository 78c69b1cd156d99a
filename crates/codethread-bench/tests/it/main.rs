//! The integration suites of this package in one test binary.

mod featbench;
mod parquet_depth;
