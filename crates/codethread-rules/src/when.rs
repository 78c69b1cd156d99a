//! The condition on a node's surroundings that every rule table shares
//! (paper cyclomatic and cognitive rules, canonical rules), and its one
//! evaluator.

use codethread_lang::{FlatNode as Node, ParsedFile};

/// A condition on a node's surroundings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Always.
    Always,
    /// The parent's kind is one of these.
    ParentIn(&'static [&'static str]),
    /// The parent's kind is none of these.
    ParentNotIn(&'static [&'static str]),
    /// No ancestor has one of these kinds.
    NotInside(&'static [&'static str]),
    /// The node is in this field of a parent of one of these kinds.
    InField(&'static str, &'static [&'static str]),
    /// Some direct child has one of these kinds (named or anonymous).
    HasChild(&'static [&'static str]),
    /// No direct child has one of these kinds (`except*` has a `*` child).
    LacksChild(&'static [&'static str]),
    /// The node has a child in this field.
    HasField(&'static str),
    /// A direct child of kind `.0` has exactly the text `.1` (a wildcard
    /// pattern `_`).
    ChildText(&'static str, &'static str),
    /// The node's n-th child has this kind (a label after `break`).
    ChildAt(usize, &'static str),
    /// The node is in field `field` of a parent of one of `parents` kinds, and
    /// its named children (comments excluded) are exactly two: the first of
    /// one of `first` kinds and the second of one of `second` kinds
    /// (complexipy's "decorator" body `[def, return]`).
    Shape {
        /// Field of the parent holding the node.
        field: &'static str,
        /// Parent kinds.
        parents: &'static [&'static str],
        /// Kinds of the first child.
        first: &'static [&'static str],
        /// Kinds of the second child.
        second: &'static [&'static str],
    },
    /// The parent's kind is one of `parents` and none of the parent's
    /// `child`-kind children has a `marker`-kind child (a `try` whose handlers
    /// are not `except*`).
    ParentInWithout {
        /// Parent kinds.
        parents: &'static [&'static str],
        /// Kind of the parent's children to inspect.
        child: &'static str,
        /// Kind whose presence under such a child disqualifies the parent.
        marker: &'static str,
    },
    /// The node has a child in field `.1`, or a direct child of one of the
    /// kinds `.0` has one (a declaration with an initializer), and the
    /// parent's kind is none of `.2` (a loop header's declaration).
    Init(
        &'static [&'static str],
        &'static str,
        &'static [&'static str],
    ),
}

/// Whether some ancestor of the node has one of the kinds.
pub type Inside<'a> = &'a dyn Fn(&[&str]) -> bool;

/// Where a node is met by a walk: what a [`When`] looks at.
pub struct Site<'a, 't> {
    /// The file (for [`When::ChildText`]).
    pub file: &'a ParsedFile,
    /// The node.
    pub node: Node<'t>,
    /// Its parent as the walk sees it.
    pub parent: Option<Node<'t>>,
    /// The field of the parent holding it.
    pub field: Option<&'a str>,
    /// Whether an ancestor has one of the kinds (for [`When::NotInside`]),
    /// when the walk carries that; else the parent links are followed.
    pub inside: Option<Inside<'a>>,
}

impl When {
    /// Whether the condition holds at `s`.
    #[inline]
    pub fn holds(self, s: &Site<'_, '_>) -> bool {
        // The parent's kind is looked up only by the variants that read it.
        let parent_in = |kinds: &[&str]| s.parent.is_some_and(|p| kinds.contains(&p.kind()));
        let in_field = |f: &str, parents: &[&str]| s.field == Some(f) && parent_in(parents);
        match self {
            When::Always => true,
            When::ParentIn(kinds) => parent_in(kinds),
            When::ParentNotIn(kinds) => !parent_in(kinds),
            When::NotInside(kinds) => match s.inside {
                Some(inside) => !inside(kinds),
                None => {
                    let mut up = s.parent;
                    while let Some(p) = up {
                        if kinds.contains(&p.kind()) {
                            return false;
                        }
                        up = p.parent();
                    }
                    true
                }
            },
            When::InField(f, parents) => in_field(f, parents),
            When::HasChild(kinds) => s.node.children().any(|c| kinds.contains(&c.kind())),
            When::LacksChild(kinds) => !s.node.children().any(|c| kinds.contains(&c.kind())),
            When::HasField(f) => s.node.child_by_field_name(f).is_some(),
            When::ChildText(kind, text) => s
                .node
                .children()
                .any(|c| c.kind() == kind && s.file.text(c) == text.as_bytes()),
            When::ChildAt(i, kind) => s.node.child(i).is_some_and(|c| c.kind() == kind),
            When::Shape {
                field,
                parents,
                first,
                second,
            } => {
                if !in_field(field, parents) {
                    return false;
                }
                let mut named = s.node.named_children().filter(|c| !c.is_extra());
                let (Some(a), Some(b), None) = (named.next(), named.next(), named.next()) else {
                    return false;
                };
                first.contains(&a.kind()) && second.contains(&b.kind())
            }
            When::ParentInWithout {
                parents,
                child,
                marker,
            } => s.parent.is_some_and(|p| {
                parents.contains(&p.kind())
                    && !p
                        .children()
                        .any(|c| c.kind() == child && c.children().any(|g| g.kind() == marker))
            }),
            When::Init(via, f, not_in) => {
                !parent_in(not_in)
                    && (s.node.child_by_field_name(f).is_some()
                        || s.node
                            .children()
                            .any(|c| via.contains(&c.kind()) && c.child_by_field_name(f).is_some()))
            }
        }
    }
}
