//! The one iterative pre-order walk over a tree-sitter tree, and the error
//! queries built on it ([`count_errors`], [`first_error`]).

use tree_sitter::{Node, TreeCursor};

/// The nodes of a subtree in pre-order (the root first), walked with one
/// cursor: no recursion, no allocation per node. [`Preorder::skip_subtree`]
/// leaves out the descendants of the node last returned.
///
/// ```
/// let file = codethread_lang::parse(codethread_lang::Lang::Go, &b"package p\nfunc f() {}\n"[..]).unwrap();
/// let kinds: Vec<&str> = codethread_lang::preorder(file.root()).filter(|n| n.is_named()).map(|n| n.kind()).collect();
/// assert_eq!(kinds[..3], ["source_file", "package_clause", "package_identifier"]);
/// ```
pub struct Preorder<'t> {
    cursor: TreeCursor<'t>,
    /// The node to return next is the cursor's node.
    pending: bool,
    /// The node last returned is not to be entered.
    skip: bool,
    done: bool,
}

/// The nodes of `root`'s subtree in pre-order, `root` first.
pub fn preorder(root: Node<'_>) -> Preorder<'_> {
    Preorder {
        cursor: root.walk(),
        pending: true,
        skip: false,
        done: false,
    }
}

impl Preorder<'_> {
    /// Do not descend into the node last returned by `next`.
    pub fn skip_subtree(&mut self) {
        self.skip = true;
    }
}

impl<'t> Iterator for Preorder<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        if self.done {
            return None;
        }
        if !self.pending {
            let skip = std::mem::take(&mut self.skip);
            if skip || !self.cursor.goto_first_child() {
                loop {
                    if self.cursor.goto_next_sibling() {
                        break;
                    }
                    // The cursor was created at the root: it cannot leave
                    // the subtree.
                    if !self.cursor.goto_parent() {
                        self.done = true;
                        return None;
                    }
                }
            }
        }
        self.pending = false;
        Some(self.cursor.node())
    }
}

/// The ERROR and MISSING nodes below (and including) `root`, in pre-order;
/// only subtrees that contain an error are entered.
fn errors(root: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    let mut walk = preorder(root);
    let mut any = root.has_error();
    std::iter::from_fn(move || {
        while any {
            let Some(node) = walk.next() else {
                any = false;
                break;
            };
            if !node.has_error() {
                walk.skip_subtree();
            }
            if node.is_error() || node.is_missing() {
                return Some(node);
            }
        }
        None
    })
}

/// Count ERROR and MISSING nodes below (and including) `root`, iteratively.
pub fn count_errors(root: Node<'_>) -> usize {
    errors(root).count()
}

/// The first ERROR or MISSING node below (and including) `root` in
/// pre-order, as 1-based (line, column in bytes).
pub fn first_error(root: Node<'_>) -> Option<(usize, usize)> {
    errors(root).next().map(|n| {
        let p = n.start_position();
        (p.row + 1, p.column + 1)
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::{parse, Lang};

    /// The walk visits what tree-sitter's own descendant count says, in
    /// the order of `Node::child` recursion.
    #[test]
    fn preorder_matches_recursive_children() {
        let src = b"def f(x):\n    return [y for y in x if y]\nclass A:\n    pass\n";
        let file = parse(Lang::Python, &src[..]).unwrap();
        let mut want = Vec::new();
        let mut stack = vec![file.root()];
        while let Some(n) = stack.pop() {
            want.push(n.id());
            for i in (0..n.child_count()).rev() {
                stack.push(n.child(i).unwrap());
            }
        }
        let got: Vec<usize> = preorder(file.root()).map(|n| n.id()).collect();
        assert_eq!(got, want);
        assert_eq!(got.len(), file.root().descendant_count());
        // A subtree walk stays inside the subtree.
        let class = file.root().named_child(0).unwrap();
        assert!(class.next_sibling().is_some());
        assert_eq!(preorder(class).count(), class.descendant_count());
    }

    #[test]
    fn errors_are_counted_and_located() {
        let file = parse(Lang::Python, &b"x = 1\ndef f(:\n  pass\ny = (\n"[..]).unwrap();
        assert!(file.parse_errors > 0);
        assert_eq!(count_errors(file.root()), file.parse_errors);
        let (line, _) = first_error(file.root()).unwrap();
        assert_eq!(line, 2);
        let clean = parse(Lang::Python, &b"x = 1\n"[..]).unwrap();
        assert_eq!(
            (count_errors(clean.root()), first_error(clean.root())),
            (0, None)
        );
    }
}
