//! # codethread
//!
//! Facade over the codethread library crates. Each crate can also be used on
//! its own (`cargo add codethread-metrics`); this crate re-exports them under
//! short names and owns the command-line examples in `examples/`.
//!
//! ```
//! assert_eq!(codethread::lang::Lang::from_path("a/b.py"), Some(codethread::lang::Lang::Python));
//! ```

pub use codethread_analysis as analysis;
pub use codethread_bench as bench;
pub use codethread_chain as chain;
pub use codethread_judge as judge;
pub use codethread_lang as lang;
pub use codethread_llm as llm;
pub use codethread_metrics as metrics;
pub use codethread_patch as patch;
pub use codethread_sandbox as sandbox;
pub use codethread_scaffold as scaffold;
pub use codethread_skeleton as skeleton;
pub use codethread_stats as stats;

pub mod exit;
pub mod reproduce;
