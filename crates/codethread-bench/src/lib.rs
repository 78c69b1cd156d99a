//! # codethread-bench
//!
//! The benchmark adapters of codethread: everything that knows how one
//! repository-level benchmark writes its rows, how its harness grades them
//! and what its harness writes back. One normalized [`Instance`] comes out
//! of every row shape; a chain built from it is handed back to the
//! benchmark's own harness in the form that harness reads.
//!
//! - Instances ([`load_instances`]): JSON, JSONL and Parquet rows of every
//!   benchmark (unknown fields kept, missing fields named with file, line
//!   and instance id; one bad row never stops the batch).
//! - Harness exports ([`swebench_row`], [`check_harness_row`]): the row a
//!   harness grades, checked against what each harness generation needs.
//! - Predictions ([`load_predictions`]) and harness reports
//!   ([`load_reports`]): every shape the harnesses and scaffolds write,
//!   normalized to [`Prediction`] and [`InstanceReport`].
//! - Per benchmark: [`pro`] (SWE-bench Pro's images, rows, outputs and
//!   evaluator files) and [`featbench`] (FeatBench's `evaluation_results.json`
//!   read as reports); FeatBench rows of every published shape are read by
//!   [`load_instances`] (test lists split without losing an id, per-file patch
//!   objects preferred, the Hugging Face strings repaired).
//! - The shared rules: [`ids`] (an id names files: one path component, no
//!   control character), [`carry`] (bytes in JSON: the `*_b64` sibling
//!   field) and [`records`] (JSON / JSONL records with their lines); every
//!   file goes through `codethread_lang::io` (regular files only, atomic
//!   writes, no link followed).
//!
//! ```
//! use std::path::Path;
//! use codethread_bench::parse_instances;
//!
//! // A SWE-bench Verified row: the test lists are JSON-encoded strings.
//! let row = r#"{"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
//!   "patch": "diff --git a/m.py b/m.py\n", "FAIL_TO_PASS": "[\"t.py::test_f\"]",
//!   "PASS_TO_PASS": "[]"}"#;
//! let loaded = parse_instances(Path::new("rows.jsonl"), &row.replace('\n', " ")).unwrap();
//! assert!(loaded.errors.is_empty());
//! assert_eq!(loaded.items[0].fail_to_pass, vec!["t.py::test_f"]);
//! ```

/// The language crate's I/O limits every loader takes (re-exported).
pub use codethread_lang::io::SourceLimits;

pub use crate::error::{BenchError, Result};

// Which benchmark an instance belongs to and its harness's conventions.
pub use crate::benchmark::{swebench_image, testbed_link, AgentBase, Benchmark, Environment};

// Instances: every dataset format into one `Instance`.
pub use crate::instance::{
    load_instances, parse_instances, parse_instances_bytes, DatasetFormat, Instance,
};

// Harness exports: the row a harness grades and what each generation needs.
pub use crate::export::{
    check_harness_row, sh_quote, swebench_row, to_jsonl, write_jsonl, HarnessGeneration,
};

// Predictions files of agents and scaffolds.
pub use crate::predictions::{
    load_patch_predictions, load_predictions, parse_patch_predictions,
    parse_patch_predictions_bytes, parse_predictions, predictions_by_id, predictions_to_jsonl,
    PatchPrediction, Prediction,
};

// Harness reports (per instance, run level, logs).
pub use crate::report::{
    load_instance_report, load_outcome_reports, load_reports, load_reports_dir,
    load_reports_from_log, load_reports_selected, load_resolved, load_run_report,
    parse_instance_report, parse_report_bytes, HarnessNote, InstanceReport, ReportFilter,
    ReportSet, RunReport, RunStatus, TestOutcome, TestsStatus,
};

mod benchmark;
pub mod carry;
mod error;
mod export;
pub mod featbench;
mod files;
pub mod ids;
mod instance;
#[cfg(feature = "parquet")]
mod parquet_guard;
mod predictions;
pub mod pro;
pub mod pyliteral;
pub mod records;
mod report;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
