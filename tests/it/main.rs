//! The integration suites of this package in one test binary (one link
//! instead of one per suite): each former `tests/<suite>.rs` is the module
//! `<suite>` here, run alone with `cargo test --test it <suite>::`. The
//! suites that stay binaries of their own, and why, are listed in
//! `docs/ARCHITECTURE.md` ("Test binaries").

mod c_family_trees;
mod chain_cli;
mod cli_help;
mod examples_io;
mod exit_codes;
mod harbor_reproduce;
mod judge_cli;
mod llm_cli;
mod release;
mod reproduce;
mod reproduce_empty_stacks;
mod reproduce_judge;
mod reproduce_safety;
mod sandbox_real;
