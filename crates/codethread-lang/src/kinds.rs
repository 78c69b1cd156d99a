//! Node kind names without tree-sitter's per-call C-string conversion.
//!
//! `Node::kind` runs `strlen` and UTF-8 validation on every call, and the
//! walkers of codethread ask for kinds millions of times per corpus.
//! [`kind_of`] looks the name up instead in a per-thread table built once per
//! grammar from `Language::node_kind_for_id` (the same strings `Node::kind`
//! returns).

use std::cell::RefCell;

use tree_sitter::{Language, Node};

std::thread_local! {
    /// Kind names by kind id, one table per grammar seen on this thread.
    static KIND_NAMES: RefCell<Vec<(Language, Vec<&'static str>)>> = const { RefCell::new(Vec::new()) };
}

/// The node's kind, as [`Node::kind`] returns it, from a per-grammar table.
///
/// ```
/// let file = codethread_lang::parse(codethread_lang::Lang::Go, &b"package p"[..]).unwrap();
/// assert_eq!(codethread_lang::kind_of(file.root()), file.root().kind());
/// ```
pub fn kind_of<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    let node: &Node<'t> = node.borrow();
    let id = usize::from(node.kind_id());
    let lang = node.language();
    let found = KIND_NAMES.with(|tables| {
        let mut tables = tables.try_borrow_mut().ok()?;
        if let Some((_, names)) = tables.iter().find(|(l, _)| *l == *lang) {
            return names.get(id).copied();
        }
        let l: Language = (*lang).clone();
        let names = kind_names(&l);
        let name = names.get(id).copied();
        tables.push((l, names));
        name
    });
    match found {
        Some(name) if !name.is_empty() => name,
        _ => node.kind(),
    }
}

/// Every kind name of a grammar, by kind id (`""` for ids without one).
pub(crate) fn kind_names(l: &Language) -> Vec<&'static str> {
    (0..l.node_kind_count())
        .map(|i| {
            u16::try_from(i)
                .ok()
                .and_then(|i| l.node_kind_for_id(i))
                .unwrap_or("")
        })
        .collect()
}
