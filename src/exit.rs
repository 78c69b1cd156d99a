//! The exit-code contract of every codethread example (also in the README):
//!
//! | code | meaning |
//! |---|---|
//! | 0 | every input succeeded |
//! | 1 | finished with per-input failures: the good results are written, each failure is on stderr |
//! | 2 | usage error or fatal error: nothing (or not everything that was asked) could be done |
//!
//! ```
//! use codethread::exit::{Outcome, from_counts};
//! assert_eq!(from_counts(10, 0), Outcome::Success);
//! assert_eq!(from_counts(9, 1), Outcome::Partial);
//! // Nothing succeeded although there were inputs: that is not a partial run.
//! assert_eq!(from_counts(0, 3), Outcome::Fatal);
//! assert_eq!(Outcome::Partial.code(), 1);
//! ```

use std::process::ExitCode;

/// How a run ended, by the contract above.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Every input succeeded (exit 0).
    Success,
    /// Finished with per-input failures; the good results are written (exit 1).
    Partial,
    /// Usage or fatal error (exit 2).
    Fatal,
}

impl Outcome {
    /// The numeric exit code.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Success => 0,
            Outcome::Partial => 1,
            Outcome::Fatal => 2,
        }
    }

    /// The worse of two outcomes.
    pub fn worst(self, other: Outcome) -> Outcome {
        self.max(other)
    }
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        ExitCode::from(o.code())
    }
}

/// The outcome of a batch with `ok` successful and `failed` failed inputs:
/// [`Outcome::Fatal`] when inputs were given and none succeeded.
pub fn from_counts(ok: usize, failed: usize) -> Outcome {
    match (ok, failed) {
        (_, 0) => Outcome::Success,
        (0, _) => Outcome::Fatal,
        _ => Outcome::Partial,
    }
}
