//! codethread-metrics: per-function cyclomatic, cognitive, Halstead and LLOC.
//!
//! Work in progress: the engine lands next.

mod cognitive;
mod context;
mod cyclomatic;
mod halstead;
mod lloc;
mod profile;

pub use cognitive::cognitive;
pub use context::FnCtx;
pub use cyclomatic::cyclomatic;
pub use halstead::{halstead, Halstead};
pub use lloc::lloc;
pub use profile::Profile;
