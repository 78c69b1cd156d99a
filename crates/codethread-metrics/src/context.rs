//! The context every per-function metric walker receives.

use crate::Profile;

/// One function of one parsed file, with everything a metric walker needs.
///
/// The walkers read the file's [`codethread_lang::FlatTree`] (one flattening
/// serves the index and all four metrics):
///
/// ```
/// use codethread_metrics::lang::{index_flat, parse, FlatTree, Lang};
/// use codethread_metrics::{cyclomatic, FnCtx, Profile};
///
/// let file = parse(Lang::Go, &b"package p\nfunc f(a bool) { if a { return } }\n"[..]).unwrap();
/// let flat = FlatTree::new(&file);
/// let index = index_flat(&file, &flat);
/// let node = flat.function_node(&index[0]).unwrap();
/// let ctx = FnCtx { file: &file, func: &index[0], node, index: &index, profile: Profile::Paper };
/// assert_eq!(cyclomatic(&ctx), Some(2));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FnCtx<'a> {
    /// The whole file: bytes and tree.
    pub file: &'a codethread_lang::ParsedFile,
    /// The function, from [`codethread_lang::index_functions`].
    pub func: &'a codethread_lang::Function,
    /// The function's own node (`function_definition`, `func_literal`,
    /// `arrow_function`, ...) in the file's flat tree
    /// ([`codethread_lang::FlatTree::function_node`]).
    pub node: codethread_lang::FlatNode<'a>,
    /// All functions of the file (parent links tell which functions are nested).
    pub index: &'a [codethread_lang::Function],
    /// The rule set to apply.
    pub profile: Profile,
}
