//! # codethread-scaffold
//!
//! Where the agents of a CodeThread study run: the agent scaffolds' own
//! inputs made from a chain directory (codethread-chain), each holding none
//! of the code the agent is asked to restore, and the scaffolds' outputs
//! read back into the predictions and reports the chain's gate and stacks
//! read.
//!
//! - [`mini_swe_agent`]: datasets `mini-extra swebench` loads, with each
//!   instance's sealed setup patch and per-instance setup images.
//! - [`swe_agent`]: SWE-agent `expert_file` batches of those images, with
//!   a self-contained swe-rex runtime, the paper's limits and a network
//!   with no way out.
//! - [`harbor`]: Harbor tasks (single step and the two-step AA chain) and
//!   the import of Harbor job results.
//!
//! ```
//! use codethread_scaffold::mini_swe_agent::{SETUP_SCRIPT, MINI_SWE_AGENT_SPLIT};
//!
//! // The setup replaces the history by one commit holding the tracked files.
//! assert!(SETUP_SCRIPT.contains("rm -rf .git"));
//! assert_eq!(MINI_SWE_AGENT_SPLIT, "test");
//! ```

pub use crate::error::ScaffoldError;

mod error;
mod files;
pub mod harbor;
pub mod mini_swe_agent;
mod naming;
mod portable;
pub mod swe_agent;

/// Build a chain directory ([`codethread_chain::build`]) and the agent-side
/// datasets every build carries: the mini-swe-agent subsets of the
/// Implementation Task and of the Follow-On Issue on the human PR1
/// ([`mini_swe_agent::write_chain_subsets`]).
pub fn build(
    instances: &[codethread_bench::Instance],
    source: &mut dyn codethread_chain::SourceReader,
    opts: &codethread_chain::BuildOptions,
    progress: &mut dyn FnMut(usize, usize, &str),
) -> Result<codethread_chain::BuildSummary, ScaffoldError> {
    let summary = codethread_chain::build(instances, source, opts, progress)?;
    let chain = codethread_chain::Chain::open(&opts.out, opts.limits)?;
    mini_swe_agent::write_chain_subsets(&chain)?;
    Ok(summary)
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
