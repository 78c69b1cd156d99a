//! # codethread-metrics
//!
//! Per-function cyclomatic complexity, cognitive complexity, Halstead
//! (n1, n2, N1, N2, vocabulary, length, volume, difficulty, effort) and
//! logical lines of code, for Python, Go, Rust, JavaScript, TypeScript, TSX,
//! Java, C, C++, Ruby and PHP.
//!
//! - A [`Profile`] picks the counting rules. [`Profile::Paper`] reproduces,
//!   per language, the tools the CodeThread paper used (radon + complexipy
//!   for Python; lizard + gocognit + go-halstead for Go; rust-code-analysis
//!   0.0.25 for JavaScript, TypeScript, Rust, Java and C, which it reads
//!   with a C++ grammar; lizard 1.24.3's CCN only for C++, Ruby and PHP,
//!   read by a lizard-compatible token reader, with the other metrics `None`
//!   and a note), including which functions
//!   they report and how they name them. Rules are per-language data tables
//!   read by one generic walker per metric, so a new profile is a data change.
//!   [`Profile::Canonical`] applies one documented rule set to every language
//!   (docs/metrics.md, "Canonical profile"), read from its own tables by one
//!   walker that computes all four metrics in one pass; every value is defined.
//! - [`analyze_source`] / [`analyze_file`] / [`analyze_paths`] give one
//!   [`FunctionMetrics`] record per function and [`FileTotals`] per file;
//!   [`analyze_paths`] walks directories and measures files in parallel
//!   (rayon) with a deterministic output order. [`AnalyzeOptions`] holds
//!   the settings of every job (profile, language hint, file size limit,
//!   parse budgets).
//! - Bad input is normal input: non-UTF-8 bytes, CRLF, tabs and syntax errors
//!   are measured on the recovered tree (`parse_errors > 0`); unreadable or
//!   unsupported files give a [`MetricsError`] naming the file. Walks are
//!   iterative: any nesting depth is safe.
//!
//! The per-metric walkers ([`cyclomatic()`], [`cognitive()`], [`halstead()`],
//! [`lloc()`]) take a [`FnCtx`] and are public for callers that already have a
//! parsed file and function index.
//!
//! ```
//! use codethread_metrics::{analyze_source, AnalyzeOptions, Lang, Profile};
//!
//! let src = "def f(x):\n    if x:\n        return 1  # one\n    return {x: 2}\n";
//! let opts = AnalyzeOptions::new(Profile::Paper);
//! let file = analyze_source("a.py", Lang::Python, src, &opts).unwrap();
//! let f = &file.functions[0];
//! assert_eq!((f.name.as_str(), f.kind.as_str(), f.line, f.end_line), ("f", "function", 1, 4));
//! // radon LLOC: `def` 1, `if` 1, `return 1` 1, `return {x: 2}` 2 (a `:` inside).
//! assert_eq!(f.lloc, Some(5));
//! assert_eq!(f.parse_errors, 0);
//! ```

/// The language crate, re-exported so that this crate is usable alone
/// (one dependency: `codethread_metrics::Lang`, `codethread_metrics::lang::...`).
pub use codethread_lang as lang;
/// The languages (re-exported from `codethread-lang`).
pub use codethread_lang::Lang;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

mod backend;
mod canonical;
mod chunked;
mod cognitive;
mod context;
mod cyclomatic;
mod engine;
mod error;
mod halstead;
mod kinds;
mod lizard;
mod lloc;
mod model;
mod naming;
mod paper;
mod profile;
mod targets;
mod tree;
mod unmeasured;

pub use backend::{cognitive, cyclomatic, halstead, lloc};
pub use canonical::CanonValues;
pub use codethread_rules::RecordKind;
pub use context::FnCtx;
pub use engine::{
    analyze_file, analyze_inputs, analyze_parsed, analyze_paths, analyze_source, collect_inputs,
    parse_for, AnalyzeOptions, Input,
};
pub use error::{check_text, MetricsError};
pub use model::{FileMetrics, FileTotals, FunctionMetrics, Halstead, HalsteadValues};
pub use naming::NAMING_BUDGET;
pub use profile::Profile;
pub use unmeasured::{unmeasured, JAVA_COGNITIVE_CONSTANT, UNMEASURED};
