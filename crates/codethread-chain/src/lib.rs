//! # codethread-chain
//!
//! Turns benchmark instances (SWE-bench Verified / Lite / Multilingual / Pro,
//! FeatBench, Multi-SWE-bench) into CodeThread chains and talks to the
//! SWE-bench harness:
//!
//! - Instances ([`load_instances`]): every dataset format into one
//!   normalized [`Instance`] (JSON, JSONL; unknown fields kept, missing
//!   fields named with file, line and instance id; one bad row never stops
//!   the batch).
//! - Sources ([`SourceReader`]): files at `base_commit` from a git
//!   repository ([`GitSource`]: `git cat-file --batch`, work tree untouched)
//!   or a snapshot directory ([`SnapshotSource`]).
//! - Targets ([`localize`]): the functions the gold patch edits
//!   (`docs/target-rules.md`), or the typed reason there are none.
//! - PR0 ([`make_pr0`]): the target bodies stubbed (codethread-skeleton), as
//!   a git diff that `git apply` applies at base and `git apply -R`
//!   reverses; the human PR1 is its reverse.
//! - Statements ([`llm_request`], [`import_answers`], [`offline_statement`]):
//!   the Implementation Task statement: an LLM request, the import of the
//!   model's answers, or a deterministic offline statement.
//! - [`llm`]: batch-engine request and result files, an online runner
//!   for OpenAI-compatible endpoints with a cache, statement checks.
//! - Exports and stacks ([`write_jsonl`], [`init_patch_map`], [`compose`]):
//!   SWE-bench datasets for the Implementation Task and the Follow-On Issue,
//!   init-patch maps, and predictions where PR0 + PR1 (+ PR2 ...) are ONE
//!   diff against base_commit.
//! - Predictions, reports and the gate ([`load_predictions`],
//!   [`load_reports`], [`gate_one`]): predictions files, harness reports
//!   (per instance and run level), and the PR1 gate with typed reasons.
//! - [`harbor`]: Harbor tasks (single- and multi-step) from a chain, and
//!   Harbor job results back into predictions and harness reports.
//! - [`Condition`]: HH / HA / AA / AH and longer chains as data.
//! - Bytes in JSON ([`bytes_of_value`]): the one rule (non-UTF-8 patches
//!   travel base64-encoded in a `*_b64` sibling field, read first by every
//!   importer).
//! - every file read (regular files only, under the caller's
//!   [`SourceLimits`]) and write (atomic, no link followed) of the crate
//!   goes through one private module over `codethread_lang::io`.
//! - The batch drivers ([`build`], [`stack()`], [`gate_predictions`]) with
//!   atomic outputs, re-runs that skip finished instances, and a progress
//!   callback. The library never prints.
//!
//! The crate's modules are private: everything public is re-exported at
//! the root (grouped below), except the [`llm`] and [`harbor`] namespaces.
//!
//! ```
//! use std::path::Path;
//! use codethread_chain::{localize, make_pr0, parse_instances, Pr0Options, SnapshotSource};
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
//! let loc = localize(inst, &mut SnapshotSource::new(&dir)).unwrap();
//! assert_eq!(loc.target_ids(), vec!["m.py::f"]);
//! let pr0 = make_pr0(&loc, &Pr0Options::default()).unwrap();
//! let text = String::from_utf8(pr0.patch).unwrap();
//! assert!(text.contains("+    raise NotImplementedError"));
//! std::fs::remove_dir_all(&dir).ok();
//! ```

/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_chain::Lang`, `codethread_chain::lang::...`).
pub use codethread_lang as lang;
/// The input limits every loader of this crate takes (re-exported from
/// `codethread-lang`).
pub use codethread_lang::io::SourceLimits;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;

// Errors: the crate's error, its `Result`, and the scratch git repository
// the stacks are checked in.
pub use crate::{
    error::{ChainError, Result},
    gitcli::{git_available, GitError, ScratchRepo},
};

// Instances: every dataset format into one `Instance`; the outcome of
// loading a file (rows and per-row errors); the one id rule.
pub use crate::{
    ids::label,
    instance::{load_instances, parse_instances, parse_instances_bytes, DatasetFormat, Instance},
    records::Loaded,
};

// Sources: the files at `base_commit`, from git or a snapshot directory.
pub use crate::source::{GitRepoDir, GitSource, SnapshotSource, SourceReader};

// Targets and PR0: the functions the gold patch edits, and their bodies
// stubbed as a reversible diff.
pub use crate::{
    pr0::{make_pr0, Pr0, Pr0Options},
    targets::{localize, Localization, NegativeCase, Target},
};

// Statements: the Implementation Task statement (LLM request, imported
// answers, offline statement).
pub use crate::statement::{
    import_answers, llm_request, offline_statement, Answer, ChatMessage, ImportedStatement,
    LlmRequest, TargetInfo, TaskContext,
};

// Harness exports: SWE-bench rows and the mini-swe-agent subset.
pub use crate::export::{
    check_harness_row, init_patch_map, write_jsonl, write_mini_swe_agent_subset, HarnessGeneration,
    AGENT_HIDDEN_FIELDS, MINI_SWE_AGENT_SPLIT, SETUP_SCRIPT,
};

// Stacks: PR0 + PR1 (+ PR2 ...) as one diff against `base_commit`.
pub use crate::stack::{
    check_roundtrip, compose, compose_on, compose_with_git, reverse_on, reverse_with_git,
    touched_paths,
};

// Predictions and harness reports.
pub use crate::{
    predictions::{
        load_patch_predictions, load_predictions, parse_patch_predictions,
        parse_patch_predictions_bytes, parse_predictions, predictions_by_id, predictions_to_jsonl,
        PatchPrediction, Prediction,
    },
    report::{
        load_instance_report, load_reports, load_reports_dir, load_reports_from_log,
        load_reports_selected, load_resolved, load_run_report, parse_instance_report,
        parse_report_bytes, HarnessNote, InstanceReport, ReportFilter, ReportSet, RunReport,
        RunStatus, TestOutcome, TestsStatus,
    },
};

// The PR1 gate and the chain conditions (HH / HA / AA / AH and longer).
pub use crate::{
    condition::{Author, Condition, Step, StepTask},
    gate::{gate_all, gate_one, GateDecision, GateReason},
};

// Bytes in JSON: the `*_b64` sibling-field rule.
pub use crate::carry::{b64_decode, b64_encode, bytes_of_value, B64Error, CarryError};

// The batch drivers (`build`, `stack`, `gate`, targets, PR0, requests).
pub use crate::pipeline::{
    build, chain_requests, follow_on_rows, gate_predictions, llm_requests, pr0_batch, stack,
    stack_model_name, targets_batch, BuildOptions, BuildStatus, BuildSummary, Chain, FollowOnRow,
    InstanceOutcome, Layer, Pr0Status, RequestFormat, SourceSpec, StackOutcome, TargetsLine,
};

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod carry;
mod condition;
mod error;
mod export;
mod fsutil;
mod gate;
mod gitcli;
pub mod harbor;
mod ids;
mod instance;
pub mod llm;
#[cfg(feature = "parquet")]
mod parquet_guard;
mod pipeline;
mod pr0;
mod predictions;
mod pyliteral;
mod records;
mod report;
mod source;
mod stack;
mod statement;
mod targets;
