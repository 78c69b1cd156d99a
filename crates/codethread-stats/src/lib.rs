//! # codethread-stats
//!
//! The statistics of the CodeThread method, with no language, benchmark or
//! LLM dependency (`codethread-analysis` builds the paper's tables, features
//! and reports on it):
//!
//! - [`logit`], [`design`], [`rank`]: logistic regression that reproduces
//!   statsmodels to round-off, names rank deficiency and separation, and
//!   offers Firth's penalized fit with penalized LR tests and profile
//!   intervals; data frames and design matrices read from CSV;
//! - [`paired`]: exact McNemar tests and seeded percentile-bootstrap
//!   intervals for paired outcomes;
//! - [`synth`]: the 1,000,000 × 20 benchmark set, regenerated bit-exactly;
//! - [`error`]: the one error type of the analysis crates, naming the file,
//!   row, column or run at fault.
//!
//! Rules, formulas and differences from statsmodels: `docs/analysis.md`.
//!
//! ```
//! use codethread_stats::{fit_logit, Design, LogitOptions};
//! // the 2×2 table of shared/stats (b_tiny_2x2): closed form β = [ln(2/3), ln 6]
//! let xs = [0., 0., 0., 0., 0., 1., 1., 1., 1., 1.];
//! let y = vec![0., 1., 0., 1., 0., 1., 1., 0., 1., 1.];
//! let x: Vec<f64> = xs.iter().flat_map(|v| [1.0, *v]).collect();
//! let d = Design::new(vec!["const".into(), "x".into()], x, y, "y".into()).unwrap();
//! let fit = fit_logit(&d, &LogitOptions::default()).unwrap();
//! assert!((fit.params[0] - (2.0f64 / 3.0).ln()).abs() < 1e-12);
//! assert!((fit.params[1] - 6.0f64.ln()).abs() < 1e-12);
//! ```

/// The input limits every path-taking function of this crate takes.
pub use codethread_io::SourceLimits;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod design;
pub mod error;
pub mod input;
pub mod logit;
pub mod paired;
pub mod rank;
pub mod synth;

pub use design::{ColumnKind, Design, DesignSpec, Frame};
pub use error::{AnalysisError, Dependency, Result};
pub use logit::{fit_csv, fit_logit, LogitFit, LogitOptions, Method, Separation, SeparationKind};
