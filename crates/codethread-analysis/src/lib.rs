//! # codethread-analysis
//!
//! The CodeThread analysis, built on the statistics of `codethread-stats` and the drift
//! detector and LLM judges of `codethread-judge`:
//!
//! - [`results`]: per-instance PR2 outcomes of HH / HA / AA chains (CSV, JSONL, or pushed by
//!   other crates);
//! - [`tables`]: the paper's Table 2, Table 3 and discordant cohort, with exact McNemar tests
//!   and seeded percentile-bootstrap intervals for every Δ = AA − HA
//!   (`codethread_stats::paired`);
//! - [`leaderboard`]: published-vs-computed resolve rates of real runs (disagreements reported,
//!   not fixed) and leave-one-out instance difficulty;
//! - [`features`]: per-instance features of the discordant cohort (metric deltas, Jaccard of
//!   edit sets, IEC drift from the judge's labels or `codethread-judge`'s static detector,
//!   difficulty) and the HA-wins cohort the compounding judge reads;
//! - [`prune`]: the Table 4 model with the regressors a cohort cannot inform left out
//!   (missing, constant, collinear), each with its reason, fitted with
//!   `codethread_stats::fit_logit`;
//! - [`report`]: Markdown, CSV and SVG (Figure-3 box plots).
//!
//! Rules, formulas and differences from statsmodels: `docs/analysis.md`.
//!
//! ```
//! use codethread_analysis::{build_tables, Condition, Outcome, Results, TableOptions, TaskType};
//! // One model, two instances: HA resolves both, AA only the first.
//! let mut results = Results::new();
//! for (instance, aa) in [("i1", true), ("i2", false)] {
//!     for (condition, resolved) in [(Condition::HA, true), (Condition::AA, aa)] {
//!         results.push(Outcome {
//!             benchmark: "verified".into(),
//!             model: "m".into(),
//!             condition,
//!             instance: instance.into(),
//!             resolved,
//!             task_type: Some(TaskType::FI),
//!         });
//!     }
//! }
//! let tables = build_tables(&results, &TableOptions::default());
//! let pooled = tables.discordant.iter().find(|r| r.model == "all").unwrap();
//! assert_eq!((pooled.n, pooled.ha_only, pooled.aa_only), (2, 1, 0));
//! ```

/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_analysis::Lang`, `codethread_analysis::lang::...`).
pub use codethread_lang as lang;
/// The input limits every path-taking function of this crate takes (re-exported from
/// `codethread-lang`).
pub use codethread_lang::io::SourceLimits;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod features;
pub mod leaderboard;
pub mod prune;
pub mod report;
pub mod results;
pub mod tables;

pub use codethread_stats::{AnalysisError, Dependency, Result};
pub use leaderboard::{Leaderboard, ResolveMatrix, RunRate};
pub use results::{Condition, Outcome, Results, TaskType};
pub use tables::{build_tables, TableOptions, Tables};
