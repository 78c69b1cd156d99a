//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod absurd_numbers;
mod agent_preds;
mod byte_names;
mod common;
mod git_compat;
mod issue19;
mod localize_dev;
mod real_data;
mod roots;
mod security;
