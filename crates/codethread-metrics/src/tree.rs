//! Error nodes of a flat tree (the records' `parse_errors` and the file's
//! `first_error`).

use codethread_lang::FlatNode as Node;

/// 1-based line and column of the first ERROR / MISSING node in pre-order.
pub(crate) fn first_error(root: Node<'_>) -> Option<(usize, usize)> {
    if !root.has_error() {
        return None;
    }
    root.descendants()
        .find(|n| n.is_error() || n.is_missing())
        .map(|n| {
            let p = n.start_position();
            (p.row + 1, p.column + 1)
        })
}

/// ERROR and MISSING nodes in the subtree of `node` (a contiguous range of
/// the flat tree; only subtrees flagged with errors are scanned).
pub(crate) fn count_errors(node: Node<'_>) -> usize {
    if !node.has_error() {
        return 0;
    }
    node.descendants()
        .filter(|n| n.is_error() || n.is_missing())
        .count()
}
