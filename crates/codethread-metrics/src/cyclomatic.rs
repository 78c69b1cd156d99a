//! Cyclomatic complexity (placeholder; owned by the CC+cognitive engineer).

use crate::FnCtx;

/// Cyclomatic complexity of one function; `None` when the profile's tool does not report it.
pub fn cyclomatic(_ctx: &FnCtx<'_>) -> Option<u32> {
    None
}
