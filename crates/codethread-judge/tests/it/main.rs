//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each suite is the module `<suite>` here, run
//! alone with `cargo test --test it <suite>::`.

mod iec;
mod iec_real;
mod judge;
