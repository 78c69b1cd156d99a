//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod bad_input;
mod canonical_suite;
mod canonical_whitepaper;
mod cc_cog_reference;
mod chunked;
mod engine;
mod join_targets;
mod lizard_rules;
mod lloc_rules;
mod parity;
mod php_halt;
mod rca_java_c;
mod special_files;
mod unmeasured;
