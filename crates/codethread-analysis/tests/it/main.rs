//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod file_limit;
mod file_safety;
mod leaderboard;
mod report;
mod tables;
