//! # codethread-chain
//!
//! Turns benchmark instances (SWE-bench Verified / Lite / Multilingual / Pro,
//! FeatBench, Multi-SWE-bench) into CodeThread chains and talks to the
//! SWE-bench harness:
//!
//! - [`instance`]: every dataset format into one normalized [`instance::Instance`]
//!   (JSON, JSONL; unknown fields kept, missing fields named with file, line
//!   and instance id; one bad row never stops the batch).
//! - [`source`]: files at `base_commit` from a git repository
//!   (`git cat-file --batch`, work tree untouched) or a snapshot directory.
//! - [`targets`]: the functions the gold patch edits (`docs/target-rules.md`),
//!   or the typed reason there are none.
//! - [`pr0`]: the target bodies stubbed (codethread-skeleton), as a git diff
//!   that `git apply` applies at base and `git apply -R` reverses; the human
//!   PR1 is its reverse.
//! - [`statement`]: the Implementation Task statement: an LLM request, the
//!   import of the model's answers, or a deterministic offline statement.
//! - [`llm`]: batch-engine request and result files, an online runner
//!   for OpenAI-compatible endpoints with a cache, statement checks.
//! - [`export`], [`stack`]: SWE-bench datasets for the Implementation Task
//!   and the Follow-On Issue, init-patch maps, and predictions where PR0 +
//!   PR1 (+ PR2 ...) are ONE diff against base_commit.
//! - [`predictions`], [`report`], [`gate`]: predictions files, harness
//!   reports (per instance and run level), and the PR1 gate with typed reasons.
//! - [`harbor`]: Harbor tasks (single- and multi-step) from a chain, and
//!   Harbor job results back into predictions and harness reports.
//! - [`condition`]: HH / HA / AA / AH and longer chains as data.
//! - [`carry`]: the one rule for bytes in JSON (non-UTF-8 patches travel
//!   base64-encoded in a `*_b64` sibling field, read first by every importer).
//! - every file read (regular files only, under the caller's
//!   [`SourceLimits`]) and write (atomic, no link followed) of the crate
//!   goes through one private module over `codethread_lang::io`.
//! - [`pipeline`]: the batch drivers (`build`, `stack`, `gate`) with
//!   atomic outputs, re-runs that skip finished instances, and a progress
//!   callback. The library never prints.
//!
//! ```
//! use std::path::Path;
//! use codethread_chain::instance::parse_instances;
//! use codethread_chain::pr0::{make_pr0, Pr0Options};
//! use codethread_chain::source::SnapshotSource;
//! use codethread_chain::targets::localize;
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
/// The scratch git repository the stacks are checked in, and its error.
pub use gitcli::{git_available, GitError, ScratchRepo};
/// The outcome of loading a file (rows and per-row errors).
pub use records::Loaded;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod carry;
pub mod condition;
pub mod error;
pub mod export;
mod fsutil;
pub mod gate;
mod gitcli;
pub mod harbor;
pub mod ids;
pub mod instance;
pub mod llm;
#[cfg(feature = "parquet")]
mod parquet_guard;
pub mod pipeline;
pub mod pr0;
pub mod predictions;
mod pyliteral;
mod records;
pub mod report;
pub mod source;
pub mod stack;
pub mod statement;
pub mod targets;
