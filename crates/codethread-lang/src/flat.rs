//! A flattened copy of a tree-sitter tree: one array of node records in
//! pre-order, built by a single cursor walk.
//!
//! tree-sitter's navigation (`Node::parent`, sibling steps, cursors) resolves
//! hidden and aliased nodes on every step, so each extra walk over a tree costs
//! about as much as the first. Code that walks the same tree several times
//! (the metrics engine runs the function index and four metric walkers over
//! every file) flattens it once with [`FlatTree::new`] and walks the array:
//! parent, siblings, first child and the end of a subtree are plain indices,
//! a subtree is a contiguous range, and kind and field names come from
//! per-grammar tables.
//!
//! [`FlatNode`] mirrors the part of [`tree_sitter::Node`]'s API the walkers use
//! (same method names, same answers), and [`FlatCursor`] mirrors
//! [`tree_sitter::TreeCursor`].
//!
//! ```
//! use codethread_lang::{parse, FlatTree, Lang};
//!
//! let file = parse(Lang::Python, &b"def f(x):\n    return x\n"[..]).unwrap();
//! let flat = FlatTree::new(&file);
//! let root = flat.root();
//! assert_eq!(root.kind(), file.root().kind());
//! let def = root.child(0).unwrap();
//! assert_eq!(def.kind(), "function_definition");
//! assert_eq!(def.child_by_field_name("name").map(|n| n.byte_range()), Some(4..5));
//! assert_eq!(flat.len(), root.descendants().count());
//! ```

use std::ops::Range;
use std::sync::OnceLock;

use tree_sitter::{Language, Node, Point};

use crate::{Lang, ParsedFile};

/// No node (end of a sibling chain, parent of the root).
const NONE: u32 = u32::MAX;

// Flags live in the top bits of `Rec::field_flags`; the field id in the
// low 12 (grammars have at most a few hundred fields: `FIELD_MASK`).
const NAMED: u16 = 1 << 12;
const EXTRA: u16 = 1 << 13;
const MISSING: u16 = 1 << 14;
const HAS_ERROR: u16 = 1 << 15;
const FIELD_MASK: u16 = (1 << 12) - 1;

/// One node of a [`FlatTree`] (24 bytes; positions come from the line
/// table, the next sibling from `subtree_end`, the child count from the
/// sibling chain).
#[derive(Debug, Clone, Copy)]
struct Rec {
    kind: u16,
    /// Field id (low 12 bits) and the flags above.
    field_flags: u16,
    start_byte: u32,
    end_byte: u32,
    parent: u32,
    prev: u32,
    /// One past the last node of the subtree (pre-order index).
    subtree_end: u32,
}

impl Rec {
    fn field(&self) -> u16 {
        self.field_flags & FIELD_MASK
    }

    fn has(&self, flag: u16) -> bool {
        self.field_flags & flag != 0
    }
}

/// Kind and field names of one grammar, by id.
#[derive(Debug)]
struct Names {
    kinds: Vec<&'static str>,
    fields: Vec<&'static str>,
}

fn names(lang: Lang) -> &'static Names {
    static TABLES: [OnceLock<Names>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    TABLES[lang.index()].get_or_init(|| {
        let Some(l): Option<Language> = lang.ts_language() else {
            // No tree of a grammar this build left out can exist.
            return Names {
                kinds: Vec::new(),
                fields: Vec::new(),
            };
        };
        let kinds = crate::kinds::kind_names(&l);
        // Field ids start at 1; index 0 is "no field".
        let fields = (0..=l.field_count())
            .map(|i| {
                u16::try_from(i)
                    .ok()
                    .and_then(|i| l.field_name_for_id(i))
                    .unwrap_or("")
            })
            .collect();
        Names { kinds, fields }
    })
}

/// A parsed tree flattened into pre-order node records. See the module docs.
#[derive(Debug)]
pub struct FlatTree {
    lang: Lang,
    nodes: Vec<Rec>,
    /// Byte offset of the start of every line (row) the root covers, from
    /// the line of its first byte (row `first_row`); rows and columns are
    /// counted as tree-sitter counts them: rows at `\n`, columns in bytes.
    line_starts: Vec<u32>,
    /// The row of `line_starts[0]`.
    first_row: usize,
    /// Where the rows jump (a tree read over several included ranges: a
    /// chunk inside a unit, `chunk.rs`, whose lines are its own and those
    /// of the unit's header and closer): from `line_starts[i]` on, rows
    /// count from `row`. Empty: one run from `first_row`.
    row_jumps: Vec<(u32, usize)>,
    names: &'static Names,
}

impl FlatTree {
    /// Flatten `file`'s tree (one iterative cursor walk).
    pub fn new(file: &ParsedFile) -> FlatTree {
        // A tree of several included ranges: the lines of those ranges
        // only (scanning every line from the first range's to the last's
        // would cost the whole file for each chunk of a unit).
        let ranges = file.tree.included_ranges();
        if ranges.len() > 1 {
            let mut flat = FlatTree::walk(file.grammar, file.root());
            flat.lines_of_ranges(&file.source, &ranges);
            return flat;
        }
        FlatTree::from_node(file.grammar, &file.source, file.root())
    }

    /// The line table of the bytes of `ranges` only (in file order).
    fn lines_of_ranges(&mut self, source: &[u8], ranges: &[tree_sitter::Range]) {
        let to32 = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let mut starts: Vec<u32> = Vec::new();
        let mut jumps: Vec<(u32, usize)> = Vec::new();
        for r in ranges {
            let end = r.end_byte.min(source.len());
            if r.start_byte >= end {
                continue;
            }
            let line = to32(r.start_byte.saturating_sub(r.start_point.column));
            if starts.last().is_none_or(|&l| l < line) {
                jumps.push((to32(starts.len()), r.start_point.row));
                starts.push(line);
            }
            starts.extend(
                source
                    .get(r.start_byte..end)
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b == b'\n')
                    .map(|(i, _)| to32(r.start_byte + i + 1)),
            );
        }
        if !starts.is_empty() {
            self.first_row = jumps.first().map_or(self.first_row, |j| j.1);
            self.line_starts = starts;
            self.row_jumps = jumps;
        }
    }

    /// Flatten the subtree of `root`, a node of a tree parsed as `lang` from
    /// `source`.
    pub fn from_node(lang: Lang, source: &[u8], root: Node<'_>) -> FlatTree {
        let mut flat = FlatTree::walk(lang, root);
        // The lines the root covers, from tree-sitter's own position of
        // its first byte: a tree of one part of a file (a chunk,
        // `chunk.rs`) costs its own lines, not the file's.
        let to32 = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        let first = root.start_position();
        let from = root.start_byte().saturating_sub(first.column);
        let to = root.end_byte().min(source.len());
        // The first line's start is known from the column: only the
        // root's own bytes are scanned (a chunk of a minified line does
        // not read the line from its start).
        let at = root.start_byte().min(to);
        let mut line_starts = vec![to32(from)];
        line_starts.extend(
            source
                .get(at..to)
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| to32(at + i + 1)),
        );
        flat.line_starts = line_starts;
        flat.first_row = first.row;
        flat
    }

    /// The node records of the subtree of `root` (no line table yet).
    fn walk(lang: Lang, root: Node<'_>) -> FlatTree {
        // Exact: the cursor visits the visible nodes tree-sitter counts.
        let mut nodes: Vec<Rec> = Vec::with_capacity(root.descendant_count());
        // Ancestors of the cursor's node, and the last child seen at each depth.
        let mut stack: Vec<u32> = Vec::new();
        let mut last: Vec<u32> = vec![NONE];
        let mut cursor = root.walk();
        let to32 = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        'walk: loop {
            let node = cursor.node();
            let id = to32(nodes.len());
            let parent = stack.last().copied().unwrap_or(NONE);
            let depth = stack.len();
            let prev = last.get(depth).copied().unwrap_or(NONE);
            // A field id beyond the mask (no grammar has one) reads as none.
            let field = cursor.field_id().map_or(0, u16::from);
            let mut flags = if field > FIELD_MASK { 0 } else { field };
            if node.is_named() {
                flags |= NAMED;
            }
            if node.is_extra() {
                flags |= EXTRA;
            }
            if node.is_missing() {
                flags |= MISSING;
            }
            if node.has_error() {
                flags |= HAS_ERROR;
            }
            nodes.push(Rec {
                kind: node.kind_id(),
                field_flags: flags,
                start_byte: to32(node.start_byte()),
                end_byte: to32(node.end_byte()),
                parent,
                prev,
                subtree_end: id.saturating_add(1),
            });
            if let Some(slot) = last.get_mut(depth) {
                *slot = id;
            }
            if cursor.goto_first_child() {
                stack.push(id);
                last.push(NONE);
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                let Some(done) = stack.pop() else {
                    break 'walk;
                };
                last.pop();
                let end = to32(nodes.len());
                if let Some(r) = nodes.get_mut(done as usize) {
                    r.subtree_end = end;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        FlatTree {
            lang,
            nodes,
            line_starts: Vec::new(),
            first_row: 0,
            row_jumps: Vec::new(),
            names: names(lang),
        }
    }

    /// Row and byte column of byte offset `byte`, as tree-sitter counts them.
    fn point(&self, byte: u32) -> Point {
        let row = self
            .line_starts
            .partition_point(|s| *s <= byte)
            .saturating_sub(1);
        let start = self.line_starts.get(row).copied().unwrap_or(0);
        let (base_index, base_row) = match self.row_jumps.as_slice() {
            [] => (0, self.first_row),
            jumps => {
                let j = jumps
                    .partition_point(|&(i, _)| i as usize <= row)
                    .saturating_sub(1);
                jumps
                    .get(j)
                    .map_or((0, self.first_row), |&(i, r)| (i as usize, r))
            }
        };
        Point::new(
            base_row.saturating_add(row.saturating_sub(base_index)),
            byte.saturating_sub(start) as usize,
        )
    }

    /// The grammar the tree was parsed with ([`ParsedFile::grammar`]; its
    /// kind ids are this grammar's).
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no node (never true for a flattened tree).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The root node.
    pub fn root(&self) -> FlatNode<'_> {
        FlatNode { tree: self, id: 0 }
    }

    /// The node with pre-order index `id`, if any.
    pub fn node(&self, id: usize) -> Option<FlatNode<'_>> {
        (id < self.nodes.len()).then(|| FlatNode {
            tree: self,
            id: u32::try_from(id).unwrap_or(NONE),
        })
    }

    /// The first node, in pre-order, of kind `kind` covering exactly
    /// `start..end` bytes.
    pub fn find(&self, start: usize, end: usize, kind: &str) -> Option<FlatNode<'_>> {
        // Start bytes are non-decreasing in pre-order.
        let s = u32::try_from(start).ok()?;
        let e = u32::try_from(end).ok()?;
        let first = self.nodes.partition_point(|r| r.start_byte < s);
        self.nodes
            .get(first..)?
            .iter()
            .take_while(|r| r.start_byte == s)
            .position(|r| r.end_byte == e && self.kind_name(r.kind) == kind)
            .and_then(|i| self.node(first + i))
    }

    /// The innermost node of kind `kind` with `start_byte <= start` and
    /// `end_byte >= end`.
    pub fn innermost(&self, start: usize, end: usize, kind: &str) -> Option<FlatNode<'_>> {
        let s = u32::try_from(start).ok()?;
        // Start bytes are non-decreasing in pre-order, so the last node
        // starting at or before `start` lies inside every node covering
        // `start..end` (or is one): climb from it.
        let last = self
            .nodes
            .partition_point(|r| r.start_byte <= s)
            .checked_sub(1)?;
        let mut node = self.node(last);
        while let Some(n) = node {
            if n.start_byte() <= start && n.end_byte() >= end && n.kind() == kind {
                return Some(n);
            }
            node = n.parent();
        }
        None
    }

    /// The id of the field named `name` in this grammar (0 = none).
    pub fn field_id_for_name(&self, name: &str) -> u16 {
        self.names
            .fields
            .iter()
            .position(|f| *f == name)
            .and_then(|i| u16::try_from(i).ok())
            .filter(|i| *i != 0)
            .unwrap_or(0)
    }

    /// The kind name of kind id `kind`.
    pub fn kind_name(&self, kind: u16) -> &'static str {
        if kind == u16::MAX {
            return "ERROR";
        }
        self.names
            .kinds
            .get(usize::from(kind))
            .copied()
            .unwrap_or("")
    }

    fn rec(&self, id: u32) -> &Rec {
        // Ids come from this tree only; index 0 exists in every flat tree.
        &self.nodes[id as usize]
    }

    fn wrap(&self, id: u32) -> Option<FlatNode<'_>> {
        (id != NONE).then_some(FlatNode { tree: self, id })
    }
}

/// Anything with a byte range in a source file: tree-sitter nodes and
/// flat-tree nodes alike (see [`ParsedFile::text`]).
pub trait ByteSpan {
    /// The bytes covered.
    fn byte_span(&self) -> Range<usize>;
    /// 0-based row and byte column of the first byte.
    fn start_point(&self) -> Point;
    /// 0-based row and byte column just past the last byte.
    fn end_point(&self) -> Point;
}

/// Both node types answer with their own methods of the same names.
macro_rules! byte_span_of_node {
    ($($t:ty),*) => {$(
        impl ByteSpan for $t {
            fn byte_span(&self) -> Range<usize> {
                self.byte_range()
            }
            fn start_point(&self) -> Point {
                self.start_position()
            }
            fn end_point(&self) -> Point {
                self.end_position()
            }
        }
    )*};
}

byte_span_of_node!(Node<'_>, FlatNode<'_>);

impl ParsedFile {
    /// The bytes a node covers.
    pub fn text(&self, node: impl ByteSpan) -> &[u8] {
        self.source.get(node.byte_span()).unwrap_or(&[])
    }

    /// The text of a node as a string (lossy for non-UTF-8 bytes).
    pub fn text_lossy(&self, node: impl ByteSpan) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.text(node))
    }
}

impl<T: ByteSpan> ByteSpan for &T {
    fn byte_span(&self) -> Range<usize> {
        (*self).byte_span()
    }
    fn start_point(&self) -> Point {
        (*self).start_point()
    }
    fn end_point(&self) -> Point {
        (*self).end_point()
    }
}

/// A node of a [`FlatTree`]; a copyable handle like [`tree_sitter::Node`],
/// with the same method names and answers.
#[derive(Clone, Copy)]
pub struct FlatNode<'t> {
    tree: &'t FlatTree,
    id: u32,
}

impl std::fmt::Debug for FlatNode<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{{{} {:?} - {:?}}}",
            self.kind(),
            self.start_position(),
            self.end_position()
        )
    }
}

impl PartialEq for FlatNode<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.tree, other.tree) && self.id == other.id
    }
}

impl Eq for FlatNode<'_> {}

impl<'t> FlatNode<'t> {
    fn rec(&self) -> &'t Rec {
        self.tree.rec(self.id)
    }

    /// The pre-order index: unique within the tree.
    pub fn id(&self) -> usize {
        self.id as usize
    }

    /// The tree the node belongs to.
    pub fn tree(&self) -> &'t FlatTree {
        self.tree
    }

    /// The kind id (`u16::MAX` for ERROR nodes), as [`Node::kind_id`].
    pub fn kind_id(&self) -> u16 {
        self.rec().kind
    }

    /// The kind name, as [`Node::kind`].
    pub fn kind(&self) -> &'static str {
        self.tree.kind_name(self.rec().kind)
    }

    /// Named node (not an anonymous token).
    pub fn is_named(&self) -> bool {
        self.rec().has(NAMED)
    }

    /// Extra node (comments and the like).
    pub fn is_extra(&self) -> bool {
        self.rec().has(EXTRA)
    }

    /// Inserted by error recovery.
    pub fn is_missing(&self) -> bool {
        self.rec().has(MISSING)
    }

    /// An ERROR node.
    pub fn is_error(&self) -> bool {
        self.rec().kind == u16::MAX
    }

    /// The subtree contains an ERROR or MISSING node.
    pub fn has_error(&self) -> bool {
        self.rec().has(HAS_ERROR)
    }

    /// First byte.
    pub fn start_byte(&self) -> usize {
        self.rec().start_byte as usize
    }

    /// One past the last byte.
    pub fn end_byte(&self) -> usize {
        self.rec().end_byte as usize
    }

    /// The byte range.
    pub fn byte_range(&self) -> Range<usize> {
        self.start_byte()..self.end_byte()
    }

    /// 0-based row and byte column of the first byte.
    pub fn start_position(&self) -> Point {
        self.tree.point(self.rec().start_byte)
    }

    /// 0-based row and byte column just past the last byte.
    pub fn end_position(&self) -> Point {
        self.tree.point(self.rec().end_byte)
    }

    /// The parent (O(1)).
    pub fn parent(&self) -> Option<FlatNode<'t>> {
        self.tree.wrap(self.rec().parent)
    }

    /// The next sibling, named or not: the node after the subtree, when
    /// it is still inside the parent's.
    pub fn next_sibling(&self) -> Option<FlatNode<'t>> {
        let r = self.rec();
        if r.parent == NONE {
            return None;
        }
        let end = r.subtree_end;
        (end < self.tree.rec(r.parent).subtree_end).then_some(FlatNode {
            tree: self.tree,
            id: end,
        })
    }

    /// The previous sibling, named or not.
    pub fn prev_sibling(&self) -> Option<FlatNode<'t>> {
        self.tree.wrap(self.rec().prev)
    }

    /// The next named sibling.
    pub fn next_named_sibling(&self) -> Option<FlatNode<'t>> {
        let mut n = self.next_sibling();
        while let Some(s) = n {
            if s.is_named() {
                return Some(s);
            }
            n = s.next_sibling();
        }
        None
    }

    /// The previous named sibling.
    pub fn prev_named_sibling(&self) -> Option<FlatNode<'t>> {
        let mut n = self.prev_sibling();
        while let Some(s) = n {
            if s.is_named() {
                return Some(s);
            }
            n = s.prev_sibling();
        }
        None
    }

    /// Number of children, named or not (O(1) for a leaf, else one step
    /// per child).
    pub fn child_count(&self) -> usize {
        self.children().count()
    }

    /// Number of named children.
    pub fn named_child_count(&self) -> usize {
        self.named_children().count()
    }

    /// The first child.
    pub fn first_child(&self) -> Option<FlatNode<'t>> {
        let r = self.rec();
        (r.subtree_end > self.id + 1).then_some(FlatNode {
            tree: self.tree,
            id: self.id + 1,
        })
    }

    /// The `i`-th child, named or not.
    pub fn child(&self, i: usize) -> Option<FlatNode<'t>> {
        self.children().nth(i)
    }

    /// The `i`-th named child.
    pub fn named_child(&self, i: usize) -> Option<FlatNode<'t>> {
        self.named_children().nth(i)
    }

    /// The children, named or not, in order.
    pub fn children(&self) -> Children<'t> {
        Children {
            next: self.first_child(),
        }
    }

    /// The named children, in order.
    pub fn named_children(&self) -> impl Iterator<Item = FlatNode<'t>> {
        self.children().filter(FlatNode::is_named)
    }

    /// The node and all its descendants, in pre-order (a contiguous range).
    pub fn descendants(&self) -> impl Iterator<Item = FlatNode<'t>> {
        let tree = self.tree;
        (self.id..self.rec().subtree_end).map(move |id| FlatNode { tree, id })
    }

    /// Pre-order index one past the node's last descendant.
    pub fn subtree_end(&self) -> usize {
        self.rec().subtree_end as usize
    }

    /// The field id under which this node is its parent's child (0: none).
    pub fn field_id(&self) -> u16 {
        self.rec().field()
    }

    /// The field name under which this node is its parent's child.
    pub fn field_name(&self) -> Option<&'static str> {
        let f = self.rec().field();
        (f != 0)
            .then(|| self.tree.names.fields.get(usize::from(f)).copied())
            .flatten()
    }

    /// The first child under field `name`, as [`Node::child_by_field_name`].
    pub fn child_by_field_name(&self, name: &str) -> Option<FlatNode<'t>> {
        let fields = &self.tree.names.fields;
        self.children().find(|c| {
            let f = c.rec().field();
            f != 0 && fields.get(usize::from(f)).is_some_and(|n| *n == name)
        })
    }

    /// The first child with field id `field`.
    pub fn child_by_field_id(&self, field: u16) -> Option<FlatNode<'t>> {
        if field == 0 {
            return None;
        }
        self.children().find(|c| c.rec().field() == field)
    }

    /// The children under field `name`, in order.
    pub fn children_by_field_name(&self, name: &str) -> impl Iterator<Item = FlatNode<'t>> {
        let field = self.tree.field_id_for_name(name);
        self.children()
            .filter(move |c| field != 0 && c.rec().field() == field)
    }

    /// A cursor starting at this node (it never leaves the node's subtree).
    pub fn walk(&self) -> FlatCursor<'t> {
        FlatCursor {
            tree: self.tree,
            root: self.id,
            at: self.id,
        }
    }
}

/// The children of a [`FlatNode`].
#[derive(Clone)]
pub struct Children<'t> {
    next: Option<FlatNode<'t>>,
}

impl<'t> Iterator for Children<'t> {
    type Item = FlatNode<'t>;
    fn next(&mut self) -> Option<FlatNode<'t>> {
        let n = self.next?;
        self.next = n.next_sibling();
        Some(n)
    }
}

/// A cursor over a [`FlatTree`], like [`tree_sitter::TreeCursor`]: it moves
/// within the subtree of the node it was created at.
#[derive(Clone)]
pub struct FlatCursor<'t> {
    tree: &'t FlatTree,
    root: u32,
    at: u32,
}

impl<'t> FlatCursor<'t> {
    /// The current node.
    pub fn node(&self) -> FlatNode<'t> {
        FlatNode {
            tree: self.tree,
            id: self.at,
        }
    }

    /// Move to `to` if there is one.
    fn go(&mut self, to: Option<FlatNode<'t>>) -> bool {
        match to {
            Some(n) => {
                self.at = n.id;
                true
            }
            None => false,
        }
    }

    /// Move to the first child; false (and no move) if there is none.
    pub fn goto_first_child(&mut self) -> bool {
        self.go(self.node().first_child())
    }

    /// Move to the next sibling; false at the last child or the start node.
    pub fn goto_next_sibling(&mut self) -> bool {
        self.at != self.root && self.go(self.node().next_sibling())
    }

    /// Move to the parent; false at the start node.
    pub fn goto_parent(&mut self) -> bool {
        self.at != self.root && self.go(self.node().parent())
    }

    /// Move to the first child that ends after `byte` and return its index
    /// among the children, as [`tree_sitter::TreeCursor::goto_first_child_for_byte`].
    pub fn goto_first_child_for_byte(&mut self, byte: usize) -> Option<usize> {
        let (i, c) = self
            .node()
            .children()
            .enumerate()
            .find(|(_, c)| c.end_byte() > byte)?;
        self.at = c.id;
        Some(i)
    }

    /// The current node's field name.
    pub fn field_name(&self) -> Option<&'static str> {
        self.node().field_name()
    }

    /// The current node's field id (`None`: no field).
    pub fn field_id(&self) -> Option<std::num::NonZeroU16> {
        std::num::NonZeroU16::new(self.node().field_id())
    }

    /// Restart at `node` (which becomes the cursor's bound).
    pub fn reset(&mut self, node: FlatNode<'t>) {
        self.root = node.id;
        self.at = node.id;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_record_is_24_bytes() {
        // The flat copy is held beside tree-sitter's tree: its size per
        // node is the part of a file's peak memory this crate controls.
        assert_eq!(std::mem::size_of::<Rec>(), 24);
    }

    #[test]
    fn every_grammar_field_id_fits_the_mask() {
        for lang in Lang::ALL {
            if let Some(l) = lang.ts_language() {
                assert!(l.field_count() <= usize::from(FIELD_MASK), "{lang:?}");
            }
        }
    }

    #[test]
    fn capacity_is_exact() {
        let file = crate::parse(Lang::C, &b"int f(int a) { return a + 1 * 2; }\n"[..])
            .unwrap_or_else(|e| panic!("{e}"));
        let flat = FlatTree::new(&file);
        assert_eq!(flat.nodes.capacity(), flat.len());
        assert_eq!(flat.len(), file.root().descendant_count());
    }
}
