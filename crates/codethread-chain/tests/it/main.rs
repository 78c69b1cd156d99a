//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod cpp_repos;
mod dev_targets;
mod e2e;
mod gate_reports;
mod handoff;
mod imports;
mod llm_check;
mod parse_count;
mod reliability;
mod sources;
