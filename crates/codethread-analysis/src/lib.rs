//! # codethread-analysis
//!
//! Statistics for the CodeThread method: per-instance results of HH / HA / AA chains
//! ([`results`]), the paper's resolve-rate tables with exact McNemar tests and seeded bootstrap
//! intervals ([`tables`], [`stats`]), leave-one-out difficulty and published-vs-computed
//! leaderboard rates ([`leaderboard`]), logistic regression — statsmodels-exact MLE with rank and
//! separation checks, optional Firth fit ([`logit`], [`design`], [`rank`]) — and the
//! 1,000,000-row benchmark set ([`synth`]).
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

pub mod design;
pub mod error;
pub mod features;
pub mod iec;
pub mod leaderboard;
pub mod logit;
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
