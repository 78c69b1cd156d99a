//! Logical lines of code (placeholder; the rules land next).

use crate::FnCtx;

/// LLOC of one function; `None` when the profile's tool does not report it.
pub fn lloc(_ctx: &FnCtx<'_>) -> Option<u32> {
    None
}
