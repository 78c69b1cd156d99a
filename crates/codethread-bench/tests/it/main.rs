//! The integration suites of this package in one test binary.

mod parquet_depth;
