//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod c_alternatives;
mod chunked;
mod corpora;
mod cpp_macros;
mod dev_targets;
mod generated;
mod multilingual;
mod near_errors;
mod parse_count;
mod rules;
mod special_files;
mod static_uses;
mod toolchains;
