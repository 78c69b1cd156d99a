//! The exit-code contract of every codethread example (also in the README):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | every input succeeded |
//! | 1 | finished with per-input failures: the good results are written, each failure is on stderr |
//! | 2 | usage error or fatal error: nothing (or not everything that was asked) could be done |
//!
//! ```
//! use codethread::exit::{ExitOutcome, from_counts};
//! assert_eq!(from_counts(10, 0), ExitOutcome::Success);
//! assert_eq!(from_counts(9, 1), ExitOutcome::Partial);
//! // Nothing succeeded although there were inputs: that is not a partial run.
//! assert_eq!(from_counts(0, 3), ExitOutcome::Fatal);
//! assert_eq!(ExitOutcome::Partial.code(), 1);
//! ```

use std::process::ExitCode;

/// How a run ended, by the contract above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitOutcome {
    /// Every input succeeded (exit 0).
    Success,
    /// Finished with per-input failures; the good results are written (exit 1).
    Partial,
    /// Usage or fatal error (exit 2).
    Fatal,
}

impl ExitOutcome {
    /// The numeric exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitOutcome::Success => 0,
            ExitOutcome::Partial => 1,
            ExitOutcome::Fatal => 2,
        }
    }

    /// The worse of two outcomes.
    pub fn worst(self, other: ExitOutcome) -> ExitOutcome {
        self.max(other)
    }
}

impl From<ExitOutcome> for ExitCode {
    fn from(o: ExitOutcome) -> ExitCode {
        ExitCode::from(o.code())
    }
}

/// The outcome of a batch with `ok` successful and `failed` failed inputs:
/// [`ExitOutcome::Fatal`] when inputs were given and none succeeded.
pub fn from_counts(ok: usize, failed: usize) -> ExitOutcome {
    match (ok, failed) {
        (_, 0) => ExitOutcome::Success,
        (0, _) => ExitOutcome::Fatal,
        _ => ExitOutcome::Partial,
    }
}
