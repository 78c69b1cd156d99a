//! The context every per-function metric walker receives.

use crate::Profile;

/// One function of one parsed file, with everything a metric walker needs.
#[derive(Debug, Clone, Copy)]
pub struct FnCtx<'a> {
    /// The whole file: bytes and tree.
    pub file: &'a codethread_lang::ParsedFile,
    /// The function, from [`codethread_lang::index_functions`].
    pub func: &'a codethread_lang::Function,
    /// The function's own node (`function_definition`, `func_literal`, `arrow_function`, ...).
    pub node: codethread_lang::FlatNode<'a>,
    /// All functions of the file (parent links tell which functions are nested).
    pub index: &'a [codethread_lang::Function],
    /// The rule set to apply.
    pub profile: Profile,
}
