//! # codethread-analysis
//!
//! Statistics for the CodeThread method:
//!
//! - [`results`]: per-instance PR2 outcomes of HH / HA / AA chains (CSV, JSONL, or pushed by
//!   other crates);
//! - [`tables`], [`stats`]: the paper's Table 2, Table 3 and discordant cohort, with exact
//!   McNemar tests and seeded percentile-bootstrap intervals for every Δ = AA − HA;
//! - [`leaderboard`]: published-vs-computed resolve rates of real runs (disagreements reported,
//!   not fixed) and leave-one-out instance difficulty;
//! - [`features`], [`iec`]: per-instance features of the discordant cohort (metric deltas,
//!   Jaccard of edit sets, IEC drift from a judge or the static detector, difficulty);
//! - [`judge`]: the drift and compounding LLM judges (requests, strict answer schemas,
//!   imports into the IEC feature, Cohen's κ against the static detector, the compounding
//!   table and its deterministic survival check);
//! - [`logit`], [`design`], [`rank`]: logistic regression that reproduces statsmodels to
//!   round-off, names rank deficiency and separation, and offers Firth's penalized fit with
//!   penalized LR tests and profile intervals;
//! - [`prune`]: the Table 4 model with the regressors a cohort cannot inform left out
//!   (missing, constant, collinear), each with its reason;
//! - [`report`]: Markdown, CSV and SVG (Figure-3 box plots);
//! - [`synth`]: the 1,000,000 × 20 benchmark set, regenerated bit-exactly.
//!
//! Rules, formulas and differences from statsmodels: `docs/analysis.md`.
//!
//! ```
//! use codethread_analysis::{fit_logit, Design, LogitOptions};
//! // the 2×2 table of shared/stats (b_tiny_2x2): closed form β = [ln(2/3), ln 6]
//! let xs = [0., 0., 0., 0., 0., 1., 1., 1., 1., 1.];
//! let y = vec![0., 1., 0., 1., 0., 1., 1., 0., 1., 1.];
//! let x: Vec<f64> = xs.iter().flat_map(|v| [1.0, *v]).collect();
//! let d = Design::new(vec!["const".into(), "x".into()], x, y, "y".into()).unwrap();
//! let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
//! assert!((fit.params[0] - (2.0f64 / 3.0).ln()).abs() < 1e-12);
//! assert!((fit.params[1] - 6.0f64.ln()).abs() < 1e-12);
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

pub mod design;
pub mod error;
pub mod features;
pub mod iec;
mod input;
pub mod judge;
pub mod leaderboard;
pub mod logit;
pub mod prune;
pub mod rank;
pub mod report;
pub mod results;
pub mod stats;
pub mod synth;
pub mod tables;

pub use design::{ColumnKind, Design, DesignSpec, Frame};
pub use error::{AnalysisError, Dependency, Result};
pub use leaderboard::{Leaderboard, ResolveMatrix, RunRate};
pub use logit::{fit_csv, fit_logit, LogitFit, LogitOptions, Method, Separation, SeparationKind};
pub use results::{Condition, Outcome, Results, TaskType};
pub use tables::{build_tables, TableOptions, Tables};
