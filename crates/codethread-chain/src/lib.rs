//! # codethread-chain
//!
//! The CodeThread method on one benchmark instance: the target functions
//! (existing functions the gold patch edits), PR0 (their bodies stubbed),
//! the Implementation Task statement, stacks of PR0 + PR1 (+ PR2 ...) as
//! one diff the unmodified harness grades, and the PR1 gate.
//!
//! - Sources ([`SourceReader`]): files at `base_commit` from a git
//!   repository ([`GitSource`]: `git cat-file --batch`, work tree untouched)
//!   or a snapshot directory ([`SnapshotSource`]).
//! - Targets ([`localize_instance`]): the functions the gold patch edits
//!   (`docs/target-rules.md`), or the typed reason there are none.
//! - PR0 ([`make_pr0`]): the target bodies stubbed (codethread-skeleton), as
//!   a git diff that `git apply` applies at base and `git apply -R`
//!   reverses; the human PR1 is its reverse.
//! - Statements ([`llm_request`], [`offline_statement`], [`check`]): the
//!   Implementation Task statement as an LLM request (run by
//!   codethread-llm), made from the model's answer, or a deterministic
//!   offline statement; checks for sections and leaks.
//! - Stacks ([`compose_layers`], [`stack()`]): PR0 + PR1 (+ PR2 ...) as ONE diff
//!   against base_commit; sealed setups for the agent's side.
//! - The gate ([`gate_one`], [`gate_predictions`]): a PR1 is kept iff every
//!   PASS_TO_PASS test passes and every FAIL_TO_PASS test still fails.
//! - The batch drivers ([`build`], [`stack()`], [`gate_predictions`]) with
//!   atomic outputs, re-runs that skip finished instances, and a progress
//!   callback. The library never prints.
//!
//! Benchmark rows, harness reports and predictions are codethread-bench's
//! (re-exported as [`mod@bench`]); agent scaffolds (mini-swe-agent, SWE-agent,
//! Harbor) are codethread-scaffold's.
//!
//! ```
//! use std::path::Path;
//! use codethread_chain::bench::parse_instances;
//! use codethread_chain::{localize_instance, make_pr0, Pr0Options, SnapshotSource};
//!
//! // A snapshot: <dir>/<instance_id>/before/<path>.
//! let dir = codethread_chain::lang::io::create_temp_dir_in(&std::env::temp_dir(), "chain-doc").unwrap();
//! let before = dir.join("o__r-1/before/m.py");
//! std::fs::create_dir_all(before.parent().unwrap()).unwrap();
//! std::fs::write(&before, "def f(x):\n    return x + 1\n\n\ndef g():\n    return 2\n").unwrap();
//! // A SWE-bench Verified row (test lists are JSON-encoded strings).
//! let row = serde_json::json!({
//!     "instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
//!     "patch": "diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n def f(x):\n-    return x + 1\n+    return x + 2\n \n",
//!     "FAIL_TO_PASS": "[\"t.py::test_f\"]", "PASS_TO_PASS": "[]", "difficulty": "<15 min"
//! });
//! let loaded = parse_instances(Path::new("rows.jsonl"), &row.to_string()).unwrap();
//! let inst = &loaded.items[0];
//! assert_eq!(inst.fail_to_pass, vec!["t.py::test_f"]);
//! let loc = localize_instance(inst, &mut SnapshotSource::new(&dir)).unwrap();
//! assert_eq!(loc.target_ids(), vec!["m.py::f"]);
//! let pr0 = make_pr0(&loc, &Pr0Options::default()).unwrap();
//! let text = String::from_utf8(pr0.patch).unwrap();
//! assert!(text.contains("+    raise NotImplementedError"));
//! std::fs::remove_dir_all(&dir).ok();
//! ```

/// The benchmark adapters, re-exported so that this crate is usable alone
/// (`codethread_chain::bench::Instance`, ...).
pub use codethread_bench as bench;
/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_chain::Lang`, `codethread_chain::lang::...`).
pub use codethread_lang as lang;
/// The input limits every loader of this crate takes (re-exported from
/// `codethread-lang`).
pub use codethread_lang::io::SourceLimits;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;
/// The LLM stages (requests, batch files, the runner), re-exported.
pub use codethread_llm as llm;

// Errors: the crate's error, its `Result`, and the scratch git repository
// the stacks are checked in.
pub use crate::{
    error::{ChainError, NoSource, Result},
    gitcli::{git_available, GitError, ScratchRepo},
};

// Sources: the files at `base_commit`, from git or a snapshot directory.
pub use crate::source::{GitRepoDir, GitSource, SnapshotSource, SourceReader, TestbedDir};

// Targets and PR0: the functions the gold patch edits, and their bodies
// stubbed as a reversible diff.
pub use crate::{
    pr0::{make_pr0, NotStubbed, Pr0, Pr0Options},
    targets::{localize_instance, InstanceTargets, NoTargets, Target},
};

// Statements: the Implementation Task statement (LLM request, the
// statement made from an answer, offline statement) and its checks.
pub use crate::statement::{
    llm_request, offline_statement, statement_from_answer, task_context, ImportedStatement,
    TargetInfo, TaskContext,
};

// The chain's dataset rows and their agent-side form.
pub use crate::rows::{agent_row, init_patch_map, AGENT_HIDDEN_FIELDS};

// Stacks: PR0 + PR1 (+ PR2 ...) as one diff against `base_commit`.
pub use crate::stack::{
    check_roundtrip, compose_layers, compose_on, compose_with_git, reverse_on, reverse_with_git,
    seal, seal_on, touched_paths,
};

// The PR1 gate.
pub use crate::gate::{gate_all, gate_one, GateDecision, GateReason};

// The batch drivers (`build`, `stack`, `gate`, targets, PR0, requests).
pub use crate::pipeline::{
    build, chain_requests, follow_on_rows, gate_predictions, gate_run, llm_requests, pr0_batch,
    stack, stack_model_name, stack_run, targets_batch, BuildOptions, BuildStatus, BuildSummary,
    Chain, FollowOnRow, GateRun, GateRunOptions, InstanceOutcome, Layer, LayerSpec, Pr0Status,
    RequestFormat, SourceSpec, StackOutcome, StackRun, TargetsLine, PR0_SEALED_FILE,
};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod check;
mod error;
mod fsutil;
mod gate;
mod gitcli;
mod pipeline;
mod pr0;
mod rows;
mod source;
mod stack;
mod statement;
mod targets;
