//! Node kind names of flat-tree nodes (a table lookup, see
//! [`codethread_lang::FlatNode::kind`]).

use codethread_lang::FlatNode;

/// The node's kind name.
pub(crate) fn kind_of<'t>(node: impl std::borrow::Borrow<FlatNode<'t>>) -> &'static str {
    node.borrow().kind()
}
