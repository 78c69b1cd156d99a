//! The paper's Table 4 model on a discordant cohort, with the regressors the cohort cannot
//! inform left out: [`fit_pruned`].
//!
//! A regressor is left out before any fit when some row lacks it or it is constant over the
//! cohort; then the model is fitted, and while the design is rank deficient (an all-zero
//! column, or a column that is an exact linear combination of others, as PR2 deltas that move
//! together in a small cohort are) the named columns are dropped and the model refitted. Under
//! separation the maximum-likelihood estimate does not exist, so Firth's penalized fit is added
//! beside it. Every step is reported ([`FitNote`]), every left-out feature with its reason
//! ([`LeftOut`]).

use std::collections::BTreeSet;
use std::fmt;

use serde::Serialize;

use crate::features::FeatureTable;
use codethread_stats::error::AnalysisError;
use codethread_stats::logit::{fit_logit, LogitFit, LogitOptions};

/// Why a feature is not in the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum LeftOutReason {
    /// Some rows of the cohort lack the feature.
    Missing {
        /// Rows without a value.
        missing: usize,
        /// Rows of the cohort.
        rows: usize,
    },
    /// The feature has one value over the whole cohort.
    Constant,
    /// The fit found the column all zero or an exact linear combination of others; the text
    /// is the rank check's ([`AnalysisError::RankDeficient`]'s `detail`).
    RankDeficient {
        /// The rank check's summary.
        detail: String,
    },
}

impl fmt::Display for LeftOutReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LeftOutReason::Missing { missing, rows } => {
                write!(f, "missing for {missing} of {rows} rows")
            }
            LeftOutReason::Constant => f.write_str("constant over the cohort"),
            LeftOutReason::RankDeficient { detail } => f.write_str(detail),
        }
    }
}

/// A feature left out of the model, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeftOut {
    /// The feature's name (one of [`crate::features::FEATURES`]).
    pub feature: String,
    /// Why.
    pub reason: LeftOutReason,
}

/// One step of [`fit_pruned`] worth telling the user, in the order it happened. The text
/// ([`fmt::Display`]) is a sentence without a prefix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum FitNote {
    /// A feature left out before fitting (missing for some rows, or constant).
    LeftOut(LeftOut),
    /// Rows that lack a chosen feature were left out of a fit.
    RowsDropped {
        /// How many rows.
        rows: usize,
    },
    /// Columns dropped after a rank-deficient fit, the model then refitted.
    RankDeficient {
        /// The dropped features, sorted.
        features: Vec<String>,
        /// The rank check's summary.
        detail: String,
    },
    /// The maximum-likelihood fit showed separation and the Firth fit failed.
    FirthFailed {
        /// The failure.
        message: String,
    },
}

impl fmt::Display for FitNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FitNote::LeftOut(l) => write!(f, "{} left out ({})", l.feature, l.reason),
            FitNote::RowsDropped { rows } => {
                write!(f, "{rows} rows lack a feature and were left out")
            }
            FitNote::RankDeficient { features, detail } => {
                write!(f, "left out {} ({detail})", features.join(", "))
            }
            FitNote::FirthFailed { message } => write!(f, "Firth fit failed: {message}"),
        }
    }
}

/// Why no model could be estimated.
#[derive(Debug, thiserror::Error)]
pub enum PruneError {
    /// The design matrix could not be built from the features.
    #[error("{0}")]
    Design(AnalysisError),
    /// The design is rank deficient in columns that are not features (the constant, a
    /// benchmark or model dummy): nothing left to drop.
    #[error("{detail}")]
    RankDeficient {
        /// The rank check's summary.
        detail: String,
    },
    /// The fit failed otherwise.
    #[error("{0}")]
    Fit(AnalysisError),
}

/// What [`fit_pruned`] did.
#[derive(Debug)]
pub struct PrunedFit {
    /// The features in the final model, in the order given.
    pub chosen: Vec<String>,
    /// The features left out, with the reason: first those left out before fitting (in the
    /// order given), then those dropped for rank deficiency (sorted per refit).
    pub left_out: Vec<LeftOut>,
    /// The fits of the final model: the maximum-likelihood fit, followed by the Firth fit when
    /// the first shows separation. Empty when [`PrunedFit::error`] is set.
    pub fits: Vec<LogitFit>,
    /// Why no model could be estimated, if so.
    pub error: Option<PruneError>,
    /// Every step worth a warning, in order.
    pub notes: Vec<FitNote>,
}

/// Fits the logistic regression of an HA-only win on the `candidates` features of
/// `features` (names from [`crate::features::FEATURES`]), leaving out what the cohort cannot
/// inform: a feature missing for some row or constant over the cohort before fitting, then
/// the columns each rank-deficient fit names, one refit at a time. With separation the Firth
/// fit (`opts` with `firth` set) is added. Never fails: a model that cannot be estimated is
/// [`PrunedFit::error`].
///
/// Time: one pass over the cohort per candidate, then at most one fit per dropped column.
pub fn fit_pruned(features: &FeatureTable, candidates: &[&str], opts: &LogitOptions) -> PrunedFit {
    let mut chosen: Vec<&str> = Vec::new();
    let mut left_out: Vec<LeftOut> = Vec::new();
    let mut notes: Vec<FitNote> = Vec::new();
    let column = |name: &str| crate::features::FEATURES.iter().position(|f| *f == name);
    for name in candidates {
        let Some(j) = column(name) else {
            // An unknown name stays: the design names it as a missing column.
            chosen.push(name);
            continue;
        };
        let rows = features.rows.len();
        let present: Vec<f64> = features
            .rows
            .iter()
            .filter_map(|r| r.values.get(j).copied().flatten())
            .collect();
        let reason = if present.len() < rows {
            Some(LeftOutReason::Missing {
                missing: rows - present.len(),
                rows,
            })
        } else if present.windows(2).all(|w| w[0] == w[1]) {
            Some(LeftOutReason::Constant)
        } else {
            None
        };
        match reason {
            Some(reason) => {
                let l = LeftOut {
                    feature: (*name).to_string(),
                    reason,
                };
                notes.push(FitNote::LeftOut(l.clone()));
                left_out.push(l);
            }
            None => chosen.push(name),
        }
    }
    let mut fits: Vec<LogitFit> = Vec::new();
    let mut error: Option<PruneError> = None;
    // Each pass drops at least one chosen column or stops.
    for _ in 0..=chosen.len() {
        let (design, dropped) = match features.design(Some(&chosen), false) {
            Ok(d) => d,
            Err(e) => {
                error = Some(PruneError::Design(e));
                break;
            }
        };
        if !dropped.is_empty() {
            notes.push(FitNote::RowsDropped {
                rows: dropped.len(),
            });
        }
        match fit_logit(&design, opts) {
            Ok(fit) => {
                let separated = fit.separation.is_some();
                fits.push(fit);
                if separated {
                    let firth = opts.clone().firth(true);
                    match fit_logit(&design, &firth) {
                        Ok(f) => fits.push(f),
                        Err(e) => notes.push(FitNote::FirthFailed {
                            message: e.to_string(),
                        }),
                    }
                }
                break;
            }
            Err(AnalysisError::RankDeficient {
                zero_columns,
                dependencies,
                detail,
                ..
            }) => {
                let drop: BTreeSet<String> = zero_columns
                    .into_iter()
                    .chain(dependencies.into_iter().map(|d| d.column))
                    .filter(|c| chosen.contains(&c.as_str()))
                    .collect();
                if drop.is_empty() {
                    error = Some(PruneError::RankDeficient { detail });
                    break;
                }
                for d in &drop {
                    left_out.push(LeftOut {
                        feature: d.clone(),
                        reason: LeftOutReason::RankDeficient {
                            detail: detail.clone(),
                        },
                    });
                }
                notes.push(FitNote::RankDeficient {
                    features: drop.iter().cloned().collect(),
                    detail,
                });
                chosen.retain(|c| !drop.contains(*c));
            }
            Err(e) => {
                error = Some(PruneError::Fit(e));
                break;
            }
        }
    }
    PrunedFit {
        chosen: chosen.into_iter().map(str::to_string).collect(),
        left_out,
        fits,
        error,
        notes,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::features::{FeatureRow, InstanceKey, Winner, FEATURES};

    /// A cohort of `n` rows whose features are given per row by `value(row, feature index)`.
    fn cohort(n: usize, value: impl Fn(usize, usize) -> Option<f64>) -> FeatureTable {
        FeatureTable {
            rows: (0..n)
                .map(|i| FeatureRow {
                    key: InstanceKey {
                        benchmark: "b".into(),
                        model: "m".into(),
                        instance: format!("i{i}"),
                    },
                    winner: if i % 3 == 0 {
                        Winner::HaOnly
                    } else {
                        Winner::AaOnly
                    },
                    task_type: None,
                    values: (0..FEATURES.len()).map(|j| value(i, j)).collect(),
                })
                .collect(),
        }
    }

    fn idx(name: &str) -> usize {
        FEATURES.iter().position(|f| *f == name).unwrap()
    }

    #[test]
    fn missing_constant_and_collinear_features_are_left_out_with_their_reason() {
        let (cc, cog, hv, lloc) = (
            idx("d_cc_pr1"),
            idx("d_cog_pr1"),
            idx("d_hv_pr1"),
            idx("d_lloc_pr1"),
        );
        // d_cc_pr1 varies (not in step with the outcome), d_cog_pr1 lacks row 2, d_hv_pr1 is
        // constant, d_lloc_pr1 = 2·d_cc_pr1 exactly.
        let x = |i: usize| [0.0, 1.0, 3.0, 1.0, 2.0, 0.0, 5.0, 1.0, 2.0][i % 9];
        let t = cohort(18, |i, j| match j {
            _ if j == cc => Some(x(i)),
            _ if j == cog => (i != 2).then_some(i as f64),
            _ if j == hv => Some(7.0),
            _ if j == lloc => Some(2.0 * x(i)),
            _ => None,
        });
        let r = fit_pruned(
            &t,
            &["d_cc_pr1", "d_cog_pr1", "d_hv_pr1", "d_lloc_pr1"],
            &LogitOptions::default(),
        );
        assert!(r.error.is_none(), "{:?}", r.error);
        let out: Vec<(&str, &LeftOutReason)> = r
            .left_out
            .iter()
            .map(|l| (l.feature.as_str(), &l.reason))
            .collect();
        assert_eq!(
            out[..2],
            [
                (
                    "d_cog_pr1",
                    &LeftOutReason::Missing {
                        missing: 1,
                        rows: 18
                    }
                ),
                ("d_hv_pr1", &LeftOutReason::Constant)
            ]
        );
        // Exactly one of the two collinear columns is dropped, the other stays in the model.
        assert_eq!(out.len(), 3);
        assert!(matches!(out[2].1, LeftOutReason::RankDeficient { .. }));
        let dropped = out[2].0;
        assert!(
            dropped == "d_cc_pr1" || dropped == "d_lloc_pr1",
            "{dropped}"
        );
        assert_eq!(r.chosen.len(), 1);
        assert_ne!(r.chosen[0], dropped);
        assert_eq!(r.fits.len(), 1);
        assert_eq!(r.fits[0].names, ["const", r.chosen[0].as_str()]);
        assert_eq!(r.fits[0].nobs, 18);
        let notes: Vec<String> = r.notes.iter().map(ToString::to_string).collect();
        assert_eq!(notes[0], "d_cog_pr1 left out (missing for 1 of 18 rows)");
        assert_eq!(notes[1], "d_hv_pr1 left out (constant over the cohort)");
        assert!(
            notes[2].starts_with(&format!("left out {dropped} (")),
            "{}",
            notes[2]
        );
        assert_eq!(notes.len(), 3);
    }

    #[test]
    fn separation_adds_the_firth_fit_and_an_empty_model_is_an_error() {
        let cc = idx("d_cc_pr1");
        // The feature separates the outcome completely (HA-only rows are i % 3 == 0).
        let t = cohort(12, |i, j| {
            (j == cc).then_some(if i % 3 == 0 { 1.0 } else { 0.0 } + i as f64 * 1e-3)
        });
        let r = fit_pruned(&t, &["d_cc_pr1"], &LogitOptions::default());
        assert!(r.error.is_none(), "{:?}", r.error);
        assert_eq!(r.fits.len(), 2);
        assert!(r.fits[0].separation.is_some());
        assert!(r.fits[1].penalized_llf.is_some());
        // No rows: every feature constant, the intercept-only model cannot be fitted.
        let empty = FeatureTable { rows: Vec::new() };
        let r = fit_pruned(&empty, &["d_cc_pr1"], &LogitOptions::default());
        assert_eq!(
            r.left_out,
            [LeftOut {
                feature: "d_cc_pr1".into(),
                reason: LeftOutReason::Constant
            }]
        );
        assert!(r.fits.is_empty());
        assert!(r.error.is_some());
    }
}
