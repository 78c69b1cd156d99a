//! # codethread-judge
//!
//! How an agent's implementation of a function differs from the human one,
//! judged two ways:
//!
//! - [`iec`]: a static detector of input/error-contract (IEC) drift between
//!   the human and the agent PR1 of each target function (raise sites,
//!   guard clauses, defaults), one generic walker over per-language tables;
//! - [`judge`]: the drift judge (PR1: which of ten behaviour categories the
//!   agent's version drifted in) and the compounding judge (PR2: did the
//!   drift survive and cause the failing test), as data in and data out:
//!   request builders for `codethread-llm`, strict answer schemas, imports,
//!   Cohen's κ against the detector, and the compounding table with its
//!   deterministic survival check.
//!
//! `codethread-analysis` turns both into the IEC feature of the regression.
//! Categories and rules: `docs/analysis.md`.
//!
//! ```
//! use codethread_judge::iec::detect_iec;
//! use codethread_lang::Lang;
//! let human = b"def f(x):\n    return x + 1\n";
//! let agent = b"def f(x):\n    if x is None:\n        raise ValueError('x')\n    return x + 1\n";
//! let drift = detect_iec(Lang::Python, human, agent, &["f".to_string()]).unwrap();
//! assert!(drift.flag);
//! ```

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod iec;
pub mod judge;
