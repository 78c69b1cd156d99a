//! Halstead metrics: one generic walker per counting mode, driven by the
//! per-(profile, language) tables of [`rules`].
//!
//! Three counting modes cover the paper's tools:
//! - token stream (go-halstead): the function body's tokens as Go's scanner
//!   yields them, automatic semicolons included;
//! - node kinds (rust-code-analysis): every syntax node of the function's
//!   subtree classified by its kind;
//! - AST operators (radon): only operator expressions count, with their direct
//!   children as operands keyed by name, attribute or constant value.
//!
//! Every walk is iterative (an explicit stack or a tree cursor), so deeply
//! nested code cannot overflow the stack.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

use codethread_lang::FlatNode as Node;
use codethread_lang::Lang;

use codethread_rules::halstead as rules;
use rules::{AstOpRules, KeywordConst, Mode, NodeClass, NodeRules, Piece, Reread, TokenRules};

use crate::context::FnCtx;
pub use crate::model::Halstead;

/// Halstead counts of the function whose own syntax node is `node` under
/// the tool's rules `r`, in a file with bytes `source` (the bytes the tree
/// was parsed from); `None` when the tool does not report them for this
/// kind of function (go-halstead: function literals).
///
/// (The unit tests of this module show one case per rule and language.)
pub(crate) fn halstead_node(
    r: &'static rules::HalsteadRules,
    source: &[u8],
    node: Node<'_>,
) -> Option<Halstead> {
    if r.null_for.contains(&crate::kinds::kind_of(node)) {
        return None;
    }
    match r.mode {
        Mode::Tokens(t) => count_tokens(t, source, node),
        Mode::Nodes(n) => Some(count_nodes(n, source, node)),
        Mode::AstOps(a) => Some(count_ast_ops(a, source, node)),
    }
}

/// Distinct/total counters.
struct Counter<O, D> {
    operators: HashSet<O>,
    operands: HashSet<D>,
    big_n1: u64,
    big_n2: u64,
}

impl<O: std::hash::Hash + Eq, D: std::hash::Hash + Eq> Counter<O, D> {
    fn new() -> Self {
        Counter {
            operators: HashSet::new(),
            operands: HashSet::new(),
            big_n1: 0,
            big_n2: 0,
        }
    }
    fn operator(&mut self, key: O) {
        self.big_n1 += 1;
        self.operators.insert(key);
    }
    fn operand(&mut self, key: D) {
        self.big_n2 += 1;
        self.operands.insert(key);
    }
    /// Add another counter, consuming it: the smaller set is inserted into
    /// the larger one, so that merging the counters of nested functions up
    /// a chain of any depth costs O(n log n) in all, not O(depth²).
    fn merge_owned(&mut self, mut other: Self) {
        if other.operators.len() > self.operators.len() {
            std::mem::swap(&mut self.operators, &mut other.operators);
        }
        self.operators.extend(other.operators);
        if other.operands.len() > self.operands.len() {
            std::mem::swap(&mut self.operands, &mut other.operands);
        }
        self.operands.extend(other.operands);
        self.big_n1 += other.big_n1;
        self.big_n2 += other.big_n2;
    }
    fn finish(self) -> Halstead {
        Halstead {
            n1: self.operators.len() as u64,
            n2: self.operands.len() as u64,
            big_n1: self.big_n1,
            big_n2: self.big_n2,
        }
    }
}

fn text<'s>(source: &'s [u8], node: Node<'_>) -> &'s [u8] {
    source
        .get(node.start_byte()..node.end_byte())
        .unwrap_or(&[])
}

// ---------------------------------------------------------------------------
// Token-stream mode (go-halstead)
// ---------------------------------------------------------------------------

fn count_tokens(t: &TokenRules, source: &[u8], node: Node<'_>) -> Option<Halstead> {
    let body = node.child_by_field_name(t.body_field)?;
    // The range: from the body's opening token up to (excluding) its closing token.
    let mut end = body.end_byte();
    if let Some(last) = body.child(body.child_count().saturating_sub(1)) {
        if crate::kinds::kind_of(last) == t.close_kind && !last.is_missing() {
            end = last.start_byte();
        }
    }
    let mut c: Counter<&'static str, Vec<u8>> = Counter::new();
    let mut prev_end: Option<usize> = None;
    let mut prev_triggers = false;
    let semi = t.auto_semicolon.as_ref();

    let mut cursor = body.walk();
    'walk: loop {
        let n = cursor.node();
        let mut descend = true;
        if n.start_byte() >= end && n.id() != body.id() {
            break 'walk;
        }
        let kind = crate::kinds::kind_of(n);
        if t.ignored_kinds.contains(&kind) {
            descend = false;
        } else if t.atomic_kinds.contains(&kind) || n.first_child().is_none() {
            descend = false;
            let (s, e) = (n.start_byte(), n.end_byte().min(end));
            let tok = source.get(s..e).unwrap_or(&[]);
            if e > s && !tok.iter().all(|b| b.is_ascii_whitespace()) {
                if let (Some(semi), Some(pe)) = (semi, prev_end) {
                    let gap = source.get(pe..s).unwrap_or(&[]);
                    if prev_triggers && gap.contains(&b'\n') {
                        c.operator(semi.key);
                    }
                }
                if t.operand_kinds.contains(&kind) {
                    let key = if t.strip_cr_kinds.contains(&kind) {
                        tok.iter().copied().filter(|&b| b != b'\r').collect()
                    } else {
                        tok.to_vec()
                    };
                    c.operand(key);
                    prev_triggers = true;
                } else {
                    c.operator(kind);
                    prev_triggers = semi.is_some_and(|s| s.after_texts.contains(&kind));
                }
                prev_end = Some(e);
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() || cursor.node().id() == body.id() {
                break 'walk;
            }
        }
    }
    // Go's scanner inserts a final semicolon at the end of the range.
    if let Some(semi) = semi {
        if prev_triggers {
            c.operator(semi.key);
        }
    }
    Some(c.finish())
}

// ---------------------------------------------------------------------------
// Node-kind mode (rust-code-analysis)
// ---------------------------------------------------------------------------

/// A node-kind table resolved against one grammar's kind ids.
struct Resolved {
    classes: Vec<NodeClass>,
    /// parent kind id → (child kind ids not counted there, those of them
    /// counted when last).
    hidden: HashMap<u16, (HashSet<u16>, HashSet<u16>)>,
    /// (parent kind id, token kind id) → extra pieces.
    extras: HashMap<(u16, u16), &'static [Piece]>,
    /// Kind id of a [`Reread`] construct → index of its rule.
    reread_at: HashMap<u16, usize>,
    /// Kind id → the [`ByText`] rules of that kind (texts, class).
    by_text: HashMap<u16, Vec<TextClass>>,
    /// Kind ids of the [`rules::AloneMacro`] word and of its parent.
    alone_macro: Option<(HashSet<u16>, HashSet<u16>)>,
}

/// The texts of one `ByText` rule and the class they get.
type TextClass = (HashSet<&'static [u8]>, NodeClass);

fn resolve(rules: &'static NodeRules, lang: Lang) -> Arc<Resolved> {
    type Cache = Mutex<Vec<(usize, Lang, Arc<Resolved>)>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let key = rules as *const NodeRules as usize;
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    if let Ok(guard) = cache.lock() {
        if let Some((_, _, r)) = guard.iter().find(|(k, l, _)| *k == key && *l == lang) {
            return Arc::clone(r);
        }
    }
    let Some(language) = lang.ts_language() else {
        // A grammar this build left out: no tree of it can exist.
        return Arc::new(Resolved {
            classes: Vec::new(),
            hidden: HashMap::new(),
            extras: HashMap::new(),
            reread_at: HashMap::new(),
            by_text: HashMap::new(),
            alone_macro: None,
        });
    };
    let count = language.node_kind_count();
    let mut classes = vec![NodeClass::Unknown; count];
    let mut hidden: HashMap<u16, (HashSet<u16>, HashSet<u16>)> = HashMap::new();
    let mut by_name: HashMap<(&str, bool), Vec<u16>> = HashMap::new();
    for (id, class) in classes.iter_mut().enumerate() {
        let Ok(id16) = u16::try_from(id) else { break };
        let Some(name) = language.node_kind_for_id(id16) else {
            continue;
        };
        let named = language.node_kind_is_named(id16);
        by_name.entry((name, named)).or_default().push(id16);
        if let Some((_, _, op)) = rules
            .operators
            .iter()
            .find(|(k, n, _)| *k == name && *n == named)
        {
            *class = NodeClass::Operator(op);
        } else if rules
            .operands
            .iter()
            .any(|(k, n)| *k == name && *n == named)
        {
            *class = NodeClass::Operand;
        } else if rules.opaque.iter().any(|(k, n)| *k == name && *n == named) {
            *class = NodeClass::Opaque;
        } else if let Some(i) = rules.splits.iter().position(|(k, _)| *k == name && !named) {
            *class = NodeClass::Split(i);
        }
    }
    for h in rules.hidden_in {
        let ids = |texts: &[&str]| -> HashSet<u16> {
            texts
                .iter()
                .filter_map(|t| by_name.get(&(*t, false)))
                .flatten()
                .copied()
                .collect()
        };
        let (children, keep) = (ids(h.texts), ids(h.keep_last));
        for pid in by_name.get(&(h.parent, true)).into_iter().flatten() {
            let entry = hidden.entry(*pid).or_default();
            entry.0.extend(children.iter().copied());
            entry.1.extend(keep.iter().copied());
        }
    }
    let mut extras: HashMap<(u16, u16), &'static [Piece]> = HashMap::new();
    for e in rules.extra_in {
        for pid in by_name.get(&(e.parent, true)).into_iter().flatten() {
            for tid in by_name.get(&(e.token, false)).into_iter().flatten() {
                extras.insert((*pid, *tid), e.pieces);
            }
        }
    }
    let mut reread_at: HashMap<u16, usize> = HashMap::new();
    for (i, r) in rules.rereads.iter().enumerate() {
        let kind = match r {
            Reread::QualifiedClassLiteral { literal, .. } => literal,
            Reread::GenericDeclaration { declaration, .. } => declaration,
        };
        for id in by_name.get(&(*kind, true)).into_iter().flatten() {
            reread_at.insert(*id, i);
        }
    }
    let mut by_text: HashMap<u16, Vec<TextClass>> = HashMap::new();
    for b in rules.by_text {
        let texts: HashSet<&'static [u8]> = b.texts.iter().map(|t| t.as_bytes()).collect();
        for id in by_name.get(&(b.kind, true)).into_iter().flatten() {
            by_text
                .entry(*id)
                .or_default()
                .push((texts.clone(), b.class));
        }
    }
    let alone_macro = rules.alone_macro.as_ref().map(|a| {
        let ids = |k: &'static str| -> HashSet<u16> {
            by_name
                .get(&(k, true))
                .into_iter()
                .flatten()
                .copied()
                .collect()
        };
        (ids(a.kind), ids(a.parent))
    });
    let resolved = Arc::new(Resolved {
        classes,
        hidden,
        extras,
        reread_at,
        by_text,
        alone_macro,
    });
    if let Ok(mut guard) = cache.lock() {
        guard.push((key, lang, Arc::clone(&resolved)));
    }
    resolved
}

/// What the descendants of a measured function contributed to its counts in
/// node-kind mode, kept so that the walk of an enclosing function can merge
/// them instead of walking the subtree again (same counts: the descendants
/// are classified from their own kinds and parents only; the one piece of
/// walk state they read, the end of the last hidden token, is checked).
struct Interior<'s> {
    counts: Counter<&'static str, &'s [u8]>,
    /// End of the last hidden token among the descendants.
    hidden_end: Option<usize>,
}

/// Node-kind-mode interiors of the functions of one file, by node id.
#[derive(Default)]
pub(crate) struct Memo<'s> {
    interiors: HashMap<usize, Interior<'s>>,
}

/// [`halstead_node`] of `ctx`'s function with a file-wide [`Memo`];
/// functions should be measured innermost first for the memo to help (the
/// value never depends on it).
pub(crate) fn halstead_memo_ctx<'s>(
    ctx: &FnCtx<'s>,
    r: &'static rules::HalsteadRules,
    memo: &mut Memo<'s>,
) -> Option<Halstead> {
    match r.mode {
        Mode::Nodes(n) if !r.null_for.contains(&crate::kinds::kind_of(ctx.node)) => {
            Some(count_nodes_memo(n, &ctx.file.source, ctx.node, memo))
        }
        _ => halstead_node(r, &ctx.file.source, ctx.node),
    }
}

fn count_nodes(rules: &'static NodeRules, source: &[u8], node: Node<'_>) -> Halstead {
    count_nodes_memo(rules, source, node, &mut Memo::default())
}

fn count_nodes_memo<'s>(
    rules: &'static NodeRules,
    source: &'s [u8],
    node: Node<'_>,
    memo: &mut Memo<'s>,
) -> Halstead {
    // Kind ids are those of the tree's grammar (C read with the C++ grammar).
    let resolved = resolve(rules, node.tree().lang());
    // The root's own contributions, then its descendants'.
    let mut root_counts: Counter<&'static str, &[u8]> = Counter::new();
    let mut interior: Counter<&'static str, &[u8]> = Counter::new();
    let mut cursor = node.walk();
    // Kind ids of the ancestors of the cursor's node (within the subtree).
    let mut parents: Vec<Node<'_>> = Vec::new();
    // End of the last hidden token (for operands glued to it).
    let mut hidden_end: Option<usize> = None;
    // The byte range of a construct the tool's grammar read as an
    // expression, and its rule.
    let mut reread: Option<(usize, usize, &'static Reread)> = None;
    'walk: loop {
        let n = cursor.node();
        let is_root = n.id() == node.id();
        let c = if is_root {
            &mut root_counts
        } else {
            &mut interior
        };
        let mut class = resolved
            .classes
            .get(usize::from(n.kind_id()))
            .copied()
            .unwrap_or(NodeClass::Unknown);
        if let Some(rules) = (!resolved.by_text.is_empty())
            .then(|| resolved.by_text.get(&n.kind_id()))
            .flatten()
        {
            let t = text(source, n);
            if let Some((_, c)) = rules.iter().find(|(texts, _)| texts.contains(t)) {
                class = *c;
            }
        }
        if let Some((kinds, parent_kinds)) = &resolved.alone_macro {
            if kinds.contains(&n.kind_id())
                && n.prev_sibling().is_none()
                && parents
                    .last()
                    .is_some_and(|p| parent_kinds.contains(&p.kind_id()))
                && is_alone_macro(source, n)
            {
                class = NodeClass::Unknown;
            }
        }
        if let Some(r) = (!resolved.reread_at.is_empty())
            .then(|| resolved.reread_at.get(&n.kind_id()))
            .flatten()
            .and_then(|&i| rules.rereads.get(i))
        {
            if let Some((lo, hi, reread_self)) = reread_span(r, n) {
                reread = Some((lo, hi, r));
                if !reread_self {
                    class = NodeClass::Unknown;
                }
            }
        } else if let Some((lo, hi, r)) = reread {
            if n.start_byte() >= lo && n.end_byte() <= hi {
                if let Some(c) = reread_class(r, n) {
                    class = c;
                }
            } else if n.start_byte() >= hi {
                reread = None;
            }
        }
        let hidden = !n.is_named()
            && parents
                .last()
                .and_then(|p| resolved.hidden.get(&p.kind_id()))
                .is_some_and(|(set, keep_last)| {
                    set.contains(&n.kind_id())
                        && !(keep_last.contains(&n.kind_id()) && n.next_sibling().is_none())
                });
        let mut descend = true;
        if hidden {
            hidden_end = Some(n.end_byte());
        }
        if !hidden && !n.is_missing() {
            match class {
                NodeClass::Operator(key) => c.operator(key),
                NodeClass::Operand
                    if !rules.hidden_glue.is_empty()
                        && n.first_child().is_none()
                        && hidden_end == Some(n.start_byte()) =>
                {
                    glued_operand(c, text(source, n), rules.hidden_glue);
                }
                NodeClass::Operand => c.operand(text(source, n)),
                NodeClass::Unknown => {}
                NodeClass::Opaque => descend = false,
                NodeClass::Split(i) => {
                    let pieces = rules.splits.get(i).map_or(&[][..], |(_, p)| p);
                    count_pieces(c, pieces, source, parents.last().copied());
                }
            }
            if !n.is_named() && !resolved.extras.is_empty() {
                if let Some(p) = parents.last() {
                    if let Some(pieces) = resolved.extras.get(&(p.kind_id(), n.kind_id())) {
                        count_pieces(c, pieces, source, Some(*p));
                    }
                }
            }
        }
        if descend && !is_root {
            // A function measured before: merge its descendants' counts,
            // unless a hidden token ends right where its tokens start.
            // Each interior is merged into its nearest measured enclosing
            // function only (an outer function stops at that one's
            // interior), so it is taken out of the memo, not copied.
            let usable = memo
                .interiors
                .get(&n.id())
                .is_some_and(|_| hidden_end.is_none_or(|h| h < n.start_byte()));
            if usable {
                if let Some(m) = memo.interiors.remove(&n.id()) {
                    c.merge_owned(m.counts);
                    if m.hidden_end.is_some() {
                        hidden_end = m.hidden_end;
                    }
                    descend = false;
                }
            }
        }
        if descend && cursor.goto_first_child() {
            parents.push(n);
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                break 'walk;
            }
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
            parents.pop();
        }
    }
    let h = Halstead {
        n1: (interior.operators.len()
            + root_counts
                .operators
                .iter()
                .filter(|k| !interior.operators.contains(*k))
                .count()) as u64,
        n2: (interior.operands.len()
            + root_counts
                .operands
                .iter()
                .filter(|k| !interior.operands.contains(*k))
                .count()) as u64,
        big_n1: root_counts.big_n1 + interior.big_n1,
        big_n2: root_counts.big_n2 + interior.big_n2,
    };
    memo.interiors.insert(
        node.id(),
        Interior {
            counts: interior,
            hidden_end,
        },
    );
    h
}

/// An operand that directly follows hidden punctuation whose token, in the
/// tool's grammar, also took the operand's leading `glue` bytes: the rest is
/// a number (leading digits) and/or an identifier.
fn glued_operand<'s>(c: &mut Counter<&'static str, &'s [u8]>, t: &'s [u8], glue: &[u8]) {
    let start = t.iter().position(|b| !glue.contains(b)).unwrap_or(t.len());
    if start == 0 {
        c.operand(t);
        return;
    }
    let rest = &t[start..];
    let digits = rest
        .iter()
        .position(|b| !(b.is_ascii_digit() || *b == b'_'))
        .unwrap_or(rest.len());
    let (num, ident) = if rest.first().is_some_and(u8::is_ascii_digit) {
        rest.split_at(digits)
    } else {
        (&rest[..0], rest)
    };
    if !num.is_empty() {
        c.operand(num);
    }
    if !ident.is_empty() {
        c.operand(ident);
    }
}

/// The byte range whose type names a [`Reread`] rule turns into operands
/// when `n` has the rule's shape, and whether `n` keeps its own class.
fn reread_span(r: &Reread, n: Node<'_>) -> Option<(usize, usize, bool)> {
    let kind = |x: &Node<'_>| crate::kinds::kind_of(x);
    match *r {
        Reread::QualifiedClassLiteral { scoped, .. } => {
            let ty = n.named_children().find(|c| !c.is_extra())?;
            (kind(&ty) == scoped).then(|| (n.start_byte(), n.end_byte(), false))
        }
        Reread::GenericDeclaration {
            modifiers,
            declarator,
            type_field,
            generic,
            arguments,
            scoped,
            word,
            min_dots,
            ..
        } => {
            let mut declarators = 0;
            for c in n.children() {
                let k = kind(&c);
                if k == modifiers {
                    return None;
                }
                if k == declarator {
                    declarators += 1;
                }
            }
            let ty = n.child_by_field_name(type_field)?;
            if declarators != 1 || kind(&ty) != generic {
                return None;
            }
            let (mut levels, mut dots) = (0usize, 0usize);
            for d in ty.descendants().skip(1) {
                let k = kind(&d);
                if k == arguments {
                    levels += 1;
                    if d.named_children().count() != 1 {
                        return None;
                    }
                } else if k == scoped {
                    dots += 1;
                } else if d.is_named() && k != word && k != generic {
                    return None;
                }
            }
            let needed = levels.checked_sub(1).and_then(|i| min_dots.get(i))?;
            (dots >= *needed).then(|| (ty.start_byte(), ty.end_byte(), true))
        }
    }
}

/// The class of a node inside a [`Reread`] range, when the rule changes it.
fn reread_class(r: &Reread, n: Node<'_>) -> Option<NodeClass> {
    let k = crate::kinds::kind_of(n);
    match *r {
        Reread::QualifiedClassLiteral { keyword, word, .. } => {
            let hit = if n.is_named() {
                k == word
            } else {
                k == keyword
            };
            hit.then_some(NodeClass::Operand)
        }
        Reread::GenericDeclaration { word, .. } => {
            (n.is_named() && k == word).then_some(NodeClass::Operand)
        }
    }
}

/// `[_A-Z][_A-Z0-9]+` followed by white space only, up to a newline.
fn is_alone_macro(source: &[u8], n: Node<'_>) -> bool {
    let word = text(source, n);
    let spelled = word.len() >= 2
        && word
            .first()
            .is_some_and(|b| b.is_ascii_uppercase() || *b == b'_')
        && word
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
    if !spelled {
        return false;
    }
    let rest = source.get(n.end_byte()..).unwrap_or(&[]);
    for &b in rest {
        match b {
            b'\n' => return true,
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {}
            _ => return false,
        }
    }
    false
}

fn count_pieces<'s>(
    c: &mut Counter<&'static str, &'s [u8]>,
    pieces: &[Piece],
    source: &'s [u8],
    parent: Option<Node<'_>>,
) {
    for piece in pieces {
        match *piece {
            Piece::Operator(key) => c.operator(key),
            Piece::Operand(t) => c.operand(t.as_bytes()),
            Piece::ParentText => {
                if let Some(p) = parent {
                    c.operand(text(source, p));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// AST-operator mode (radon)
// ---------------------------------------------------------------------------

/// A radon operand: the value Python's set membership compares.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum PyValue {
    /// A `str` constant, a name's identifier or an attribute's name.
    Str(Vec<u8>),
    /// A `bytes` constant.
    Bytes(Vec<u8>),
    /// An integral number (ints, bools, integral floats, complex with zero imaginary part).
    Int(i128),
    /// An integer too large for `i128`, by its canonical digits.
    BigInt(Vec<u8>),
    /// A non-integral float, by its bits.
    Float(u64),
    /// A complex number `(real bits, imaginary bits)`.
    Complex(u64, u64),
    /// `None`.
    None,
    /// `...`.
    Ellipsis,
    /// Any other expression: distinct each time (node id).
    Node(usize),
}

fn count_ast_ops(a: &AstOpRules, source: &[u8], root: Node<'_>) -> Halstead {
    let mut c: Counter<&'static str, (u32, PyValue)> = Counter::new();
    // context ids: index into `names` (same name → same id, as radon keys by name)
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut ctx_of = |name: &[u8]| -> u32 {
        if let Some(i) = names.iter().position(|n| n == name) {
            i as u32
        } else {
            names.push(name.to_vec());
            (names.len() - 1) as u32
        }
    };

    let mut stack: Vec<(Node<'_>, u32)> = Vec::new();
    if a.function_kinds.contains(&crate::kinds::kind_of(root)) {
        let name = root
            .child_by_field_name(a.fields.name)
            .map(|n| text(source, n))
            .unwrap_or(b"");
        let ctx = ctx_of(name);
        if let Some(body) = root.child_by_field_name(a.fields.body) {
            stack.push((body, ctx));
        }
    } else {
        let ctx = ctx_of(b"");
        stack.push((root, ctx));
    }

    // Boolean operators folded into the chain of an enclosing one.
    let mut merged_bools: HashSet<usize> = HashSet::new();
    while let Some((n, ctx)) = stack.pop() {
        let kind = crate::kinds::kind_of(n);
        if a.function_kinds.contains(&kind) {
            // A nested def: only its body, under its own name.
            let name = n
                .child_by_field_name(a.fields.name)
                .map(|x| text(source, x))
                .unwrap_or(b"");
            let inner = ctx_of(name);
            if let Some(body) = n.child_by_field_name(a.fields.body) {
                stack.push((body, inner));
            }
            continue;
        }
        if kind == a.decorated_kind {
            let def_is_function = n
                .child_by_field_name(a.fields.definition)
                .is_some_and(|d| a.function_kinds.contains(&crate::kinds::kind_of(d)));
            for child in n.children() {
                if def_is_function && crate::kinds::kind_of(child) == a.decorator_kind {
                    continue;
                }
                stack.push((child, ctx));
            }
            continue;
        }
        if a.binary_kinds.contains(&kind) || kind == a.augassign_kind {
            let op_text = n
                .child_by_field_name(a.fields.operator)
                .map(|o| text(source, o))
                .unwrap_or(b"");
            let op_text = if kind == a.augassign_kind {
                op_text.strip_suffix(b"=").unwrap_or(op_text)
            } else {
                op_text
            };
            if let Some(name) = lookup(a.binary_ops, op_text) {
                c.operator(name);
                for field in [a.fields.left, a.fields.right] {
                    if let Some(x) = n.child_by_field_name(field) {
                        c.operand((ctx, py_value(a, source, x)));
                    }
                }
            }
        } else if a.unary_kinds.contains(&kind) {
            let op_text = n
                .child_by_field_name(a.fields.operator)
                .map(|o| text(source, o))
                .unwrap_or(b"");
            if let Some(name) = lookup(a.unary_ops, op_text) {
                c.operator(name);
                if let Some(x) = n.child_by_field_name(a.fields.argument) {
                    c.operand((ctx, py_value(a, source, x)));
                }
            }
        } else if kind == a.not_kind {
            c.operator(a.not_name);
            if let Some(x) = n.child_by_field_name(a.fields.argument) {
                c.operand((ctx, py_value(a, source, x)));
            }
        } else if kind == a.bool_kind {
            let op = bool_op(a, source, n);
            let merged = merged_bools.remove(&n.id());
            if let (Some(name), false) = (op, merged) {
                c.operator(name);
                // Flatten the left-nested chain of the same operator.
                let mut rights = Vec::new();
                let mut cur = n;
                loop {
                    if let Some(r) = cur.child_by_field_name(a.fields.right) {
                        rights.push(r);
                    }
                    match cur.child_by_field_name(a.fields.left) {
                        Some(l)
                            if crate::kinds::kind_of(l) == a.bool_kind
                                && bool_op(a, source, l) == op =>
                        {
                            merged_bools.insert(l.id());
                            cur = l;
                        }
                        Some(l) => {
                            c.operand((ctx, py_value(a, source, l)));
                            break;
                        }
                        None => break,
                    }
                }
                for r in rights.into_iter().rev() {
                    c.operand((ctx, py_value(a, source, r)));
                }
            }
        } else if kind == a.chevron.0 {
            let ch: Vec<Node<'_>> = n.children().filter(|x| !x.is_extra()).collect();
            if let (Some(op), Some(right)) = (ch.first(), ch.get(1)) {
                if let Some(name) = lookup(a.binary_ops, text(source, *op)) {
                    c.operator(name);
                    c.operand((ctx, PyValue::Str(a.chevron.1.as_bytes().to_vec())));
                    c.operand((ctx, py_value(a, source, *right)));
                }
            }
        } else if kind == a.complex_pattern_kind {
            // `[-] real (+|-) imaginary`: BinOp(left, op, imaginary).
            let ch: Vec<Node<'_>> = n.children().filter(|x| !x.is_extra()).collect();
            let signed = ch
                .first()
                .is_some_and(|x| !x.is_named() && text(source, *x) == b"-");
            let op_at = if signed { 2 } else { 1 };
            if let (Some(op), Some(right)) = (ch.get(op_at), ch.get(op_at + 1)) {
                if let Some(name) = lookup(a.binary_ops, text(source, *op)) {
                    c.operator(name);
                    let left = match (signed, ch.first(), ch.get(1)) {
                        (true, Some(sign), Some(num)) => {
                            c.operator(lookup(a.unary_ops, b"-").unwrap_or("USub"));
                            c.operand((ctx, py_value(a, source, *num)));
                            PyValue::Node(sign.id())
                        }
                        (_, Some(num), _) => py_value(a, source, *num),
                        _ => PyValue::Node(n.id()),
                    };
                    c.operand((ctx, left));
                    c.operand((ctx, py_value(a, source, *right)));
                }
            }
        } else if a.pattern_kinds.contains(&kind) {
            // A `-` before a number in a pattern is `UnaryOp(USub, number)`.
            let ch: Vec<Node<'_>> = n.children().filter(|x| !x.is_extra()).collect();
            for pair in ch.windows(2) {
                if !pair[0].is_named() && text(source, pair[0]) == b"-" {
                    if let Some(name) = lookup(a.unary_ops, b"-") {
                        c.operator(name);
                        c.operand((ctx, py_value(a, source, pair[1])));
                    }
                }
            }
        } else if let Some(name) = lookup(a.union_kinds, kind.as_bytes()) {
            c.operator(name);
            for x in n.named_children().filter(|x| !x.is_extra()) {
                c.operand((ctx, py_value(a, source, x)));
            }
        } else if kind == a.compare_kind {
            let mut cur = n.walk();
            if cur.goto_first_child() {
                loop {
                    let child = cur.node();
                    if cur.field_name() == Some(a.fields.operators) {
                        let norm = normalize_ws(text(source, child));
                        if let Some(name) = lookup(a.compare_ops, &norm) {
                            c.operator(name);
                        }
                    } else if child.is_named() && !child.is_extra() {
                        c.operand((ctx, py_value(a, source, child)));
                    }
                    if !cur.goto_next_sibling() {
                        break;
                    }
                }
            }
        }
        // Generic visit of every child.
        for child in n.children() {
            stack.push((child, ctx));
        }
    }
    c.finish()
}

fn lookup(table: &[(&'static str, &'static str)], key: &[u8]) -> Option<&'static str> {
    table
        .iter()
        .find(|(k, _)| k.as_bytes() == key)
        .map(|(_, v)| *v)
}

fn bool_op(a: &AstOpRules, source: &[u8], n: Node<'_>) -> Option<&'static str> {
    let op = n
        .child_by_field_name(a.fields.operator)
        .map(|o| text(source, o))
        .unwrap_or(b"");
    lookup(a.bool_ops, op)
}

/// Collapse runs of whitespace to one space (`not   in` → `not in`).
fn normalize_ws(t: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(t.len());
    for w in t
        .split(|b| b.is_ascii_whitespace() || *b == b'\\')
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend_from_slice(w);
    }
    out
}

/// The operand radon records for an expression node.
fn py_value(a: &AstOpRules, source: &[u8], node: Node<'_>) -> PyValue {
    let mut n = node;
    // Look through grouping parentheses and annotation wrappers.
    while crate::kinds::kind_of(n) == a.paren_kind
        || a.wrapper_kinds.contains(&crate::kinds::kind_of(n))
    {
        let inner: Vec<Node<'_>> = n.named_children().filter(|c| !c.is_extra()).collect();
        match inner.as_slice() {
            [one] => n = *one,
            _ => return PyValue::Node(n.id()),
        }
    }
    let kind = crate::kinds::kind_of(n);
    if a.name_kinds.contains(&kind) {
        return PyValue::Str(text(source, n).to_vec());
    }
    if kind == a.attribute.0 {
        return match n.child_by_field_name(a.attribute.1) {
            Some(attr) => PyValue::Str(text(source, attr).to_vec()),
            None => PyValue::Node(n.id()),
        };
    }
    if a.member_kinds.contains(&kind) {
        let last = n
            .named_children()
            .filter(|x| a.name_kinds.contains(&crate::kinds::kind_of(x)))
            .last();
        return match last {
            Some(attr) => PyValue::Str(text(source, attr).to_vec()),
            None => PyValue::Node(n.id()),
        };
    }
    if let Some((_, k)) = a.keyword_constants.iter().find(|(k, _)| *k == kind) {
        return match k {
            KeywordConst::True => PyValue::Int(1),
            KeywordConst::False => PyValue::Int(0),
            KeywordConst::None => PyValue::None,
            KeywordConst::Ellipsis => PyValue::Ellipsis,
        };
    }
    if a.int_kinds.contains(&kind) || a.float_kinds.contains(&kind) {
        return py_number(text(source, n)).unwrap_or(PyValue::Node(n.id()));
    }
    if a.string_kinds.contains(&kind) || a.concat_string_kinds.contains(&kind) {
        let parts: Vec<Node<'_>> = if a.concat_string_kinds.contains(&kind) {
            n.named_children()
                .filter(|c| a.string_kinds.contains(&crate::kinds::kind_of(c)))
                .collect()
        } else {
            vec![n]
        };
        let mut value = Vec::new();
        let mut bytes_kind = None;
        for p in parts {
            match py_string(text(source, p)) {
                Some((is_bytes, v)) => {
                    if bytes_kind.is_some_and(|b| b != is_bytes) {
                        return PyValue::Node(n.id());
                    }
                    bytes_kind = Some(is_bytes);
                    value.extend_from_slice(&v);
                }
                None => return PyValue::Node(n.id()),
            }
        }
        return match bytes_kind {
            Some(true) => PyValue::Bytes(value),
            _ => PyValue::Str(value),
        };
    }
    PyValue::Node(n.id())
}

/// A Python number literal's value, normalised so that equal numbers compare equal.
fn py_number(t: &[u8]) -> Option<PyValue> {
    let s: String = t
        .iter()
        .filter(|&&b| b != b'_')
        .map(|&b| b as char)
        .collect::<String>()
        .to_ascii_lowercase();
    let s = s.trim_end_matches('l');
    if let Some(imag) = s.strip_suffix('j') {
        let v: f64 = imag.parse().ok()?;
        return Some(if v == 0.0 {
            PyValue::Int(0)
        } else {
            PyValue::Complex(0f64.to_bits(), v.to_bits())
        });
    }
    let radix = |p: &str, r: u32| -> Option<PyValue> {
        match i128::from_str_radix(p, r) {
            Ok(v) => Some(PyValue::Int(v)),
            Err(_) => Some(PyValue::BigInt(format!("{r}:{p}").into_bytes())),
        }
    };
    if let Some(h) = s.strip_prefix("0x") {
        return radix(h, 16);
    }
    if let Some(o) = s.strip_prefix("0o") {
        return radix(o, 8);
    }
    if let Some(b) = s.strip_prefix("0b") {
        return radix(b, 2);
    }
    if s.bytes().all(|b| b.is_ascii_digit()) {
        return match s.parse::<i128>() {
            Ok(v) => Some(PyValue::Int(v)),
            Err(_) => Some(PyValue::BigInt(
                s.trim_start_matches('0').as_bytes().to_vec(),
            )),
        };
    }
    let v: f64 = s.parse().ok()?;
    Some(float_value(v))
}

fn float_value(v: f64) -> PyValue {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1.0e38 {
        PyValue::Int(v as i128)
    } else {
        PyValue::Float(v.to_bits())
    }
}

/// Decode one Python string literal (with prefix and quotes) to
/// `(is_bytes, value bytes)`; `None` for f-strings (a `JoinedStr`, not a constant).
fn py_string(t: &[u8]) -> Option<(bool, Vec<u8>)> {
    let quote_at = t.iter().position(|&b| b == b'\'' || b == b'"')?;
    let prefix: Vec<u8> = t[..quote_at]
        .iter()
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if prefix.contains(&b'f') || prefix.contains(&b't') {
        return None;
    }
    let raw = prefix.contains(&b'r');
    let is_bytes = prefix.contains(&b'b');
    let body = &t[quote_at..];
    let q = body[0];
    let triple = body.len() >= 6 && body[1] == q && body[2] == q;
    let ql = if triple { 3 } else { 1 };
    if body.len() < 2 * ql {
        return None;
    }
    let inner = &body[ql..body.len() - ql];
    // Source newlines are normalised to \n before tokenizing.
    let mut norm = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        if inner[i] == b'\r' {
            norm.push(b'\n');
            if inner.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
        } else {
            norm.push(inner[i]);
        }
        i += 1;
    }
    if raw {
        return Some((is_bytes, norm));
    }
    Some((is_bytes, unescape(&norm, is_bytes)))
}

fn push_char(out: &mut Vec<u8>, cp: u32, is_bytes: bool) {
    if is_bytes {
        out.push((cp & 0xff) as u8);
    } else if let Some(ch) = char::from_u32(cp) {
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
    } else {
        // A lone surrogate (Python strings may hold one): its own 3-byte form.
        out.extend_from_slice(&[
            0xE0 | ((cp >> 12) & 0x0F) as u8,
            0x80 | ((cp >> 6) & 0x3F) as u8,
            0x80 | (cp & 0x3F) as u8,
        ]);
    }
}

fn unescape(s: &[u8], is_bytes: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        let b = s[i];
        if b != b'\\' || i + 1 >= s.len() {
            out.push(b);
            i += 1;
            continue;
        }
        let e = s[i + 1];
        i += 2;
        match e {
            b'\n' => {}
            b'\\' => out.push(b'\\'),
            b'\'' => out.push(b'\''),
            b'"' => out.push(b'"'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut v = u32::from(e - b'0');
                let mut k = 0;
                while k < 2 && i < s.len() && (b'0'..=b'7').contains(&s[i]) {
                    v = v * 8 + u32::from(s[i] - b'0');
                    i += 1;
                    k += 1;
                }
                push_char(&mut out, v, is_bytes);
            }
            b'x' | b'u' | b'U' if !(is_bytes && e != b'x') => {
                let len = match e {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let hex = s.get(i..i + len).and_then(|h| std::str::from_utf8(h).ok());
                match hex.and_then(|h| u32::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        push_char(&mut out, v, is_bytes);
                        i += len;
                    }
                    None => {
                        out.push(b'\\');
                        out.push(e);
                    }
                }
            }
            _ => {
                out.push(b'\\');
                out.push(e);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use codethread_lang::parse;

    const FUNCTION_KINDS: &[&str] = &[
        "function_definition",
        "function_declaration",
        "method_declaration",
        "func_literal",
        "function_expression",
        "arrow_function",
        "method_definition",
        "function_item",
        "closure_expression",
    ];

    /// Halstead of the `nth` function node (pre-order) of `src`.
    fn nth(lang: Lang, src: &str, nth: usize) -> Option<Halstead> {
        let file = parse(lang, src.as_bytes().to_vec()).expect("grammar loads");
        let flat = codethread_lang::FlatTree::new(&file);
        let found: Vec<Node<'_>> = flat
            .root()
            .descendants()
            .filter(|n| FUNCTION_KINDS.contains(&crate::kinds::kind_of(n)))
            .collect();
        let node = *found.get(nth).expect("function present");
        halstead_node(
            codethread_rules::paper::paper(lang)
                .tree()
                .expect("a tree language")
                .halstead,
            &file.source,
            node,
        )
    }

    fn counts(lang: Lang, src: &str) -> (u64, u64, u64, u64) {
        let h = nth(lang, src, 0).expect("a value");
        (h.n1, h.n2, h.big_n1, h.big_n2)
    }

    // ---- Python (expected values: radon 6.0.1 h_visit on the same source) ----

    #[test]
    fn python_binop_operands_by_name() {
        assert_eq!(
            counts(Lang::Python, "def f(a, b):\n    return a + b\n"),
            (1, 2, 1, 2)
        );
    }

    #[test]
    fn python_constants_compare_by_value_and_boolop_chains_are_one_operator() {
        let src = "def f(x):\n    y = 1 == 1.0\n    return x and True and 1\n";
        let h = nth(Lang::Python, src, 0).expect("a value");
        assert_eq!((h.n1, h.n2, h.big_n1, h.big_n2), (2, 2, 2, 5));
        assert!((h.volume() - 14.0).abs() < 1e-9);
    }

    #[test]
    fn python_augassign_shares_binop_name_and_str_equals_name() {
        let src = "def f(x):\n    s = \"x\" + x\n    x += -1\n    return not x\n";
        assert_eq!(counts(Lang::Python, src), (3, 3, 4, 6));
    }

    #[test]
    fn python_nested_def_operands_keyed_by_def_name() {
        let src = "def f(a):\n    def g(a):\n        return a + 1\n    return a + 1\n";
        assert_eq!(counts(Lang::Python, src), (1, 4, 2, 4));
    }

    #[test]
    fn python_comparison_chains_and_negated_operators() {
        let src = "def f(a, b):\n    return a < b <= 3 and a not in b or a is not None\n";
        assert_eq!(counts(Lang::Python, src), (6, 8, 6, 11));
    }

    #[test]
    fn python_annotation_unions_parens_and_fstrings() {
        let src = "def f(a):\n    h: A[a] | a.B | None = 1\n    return (a) - (a + 1) * f\"{a}\"\n";
        assert_eq!(counts(Lang::Python, src), (4, 9, 5, 10));
    }

    #[test]
    fn python_bytes_differ_from_str_and_escapes_are_decoded() {
        let src = "def f():\n    return b\"x\" + \"x\" + u\"\\x41\" + \"A\"\n";
        assert_eq!(counts(Lang::Python, src), (1, 5, 3, 6));
    }

    #[test]
    fn python_decorators_defaults_annotations_of_def_excluded() {
        let src = "@dec(a + 1)\ndef f(a=1 + 2) -> int:\n    return [x * 2 for x in a]\n";
        assert_eq!(counts(Lang::Python, src), (1, 2, 1, 2));
    }

    #[test]
    fn python_classes_lambdas_and_number_forms() {
        let src = "def f(a):\n    class C:\n        z = a - 1\n        def m(self):\n            return a - 1\n    g = lambda y=a * 2: y ** 2\n    return 0x10 == 16 == 16.0 == \"\"\"a\nb\"\"\" + r\"\\n\" + \"\\n\"\n";
        assert_eq!(counts(Lang::Python, src), (5, 12, 9, 16));
    }

    #[test]
    fn python_parenthesised_boolops_are_not_merged() {
        let src = "def f(a, b, c):\n    return (a and b) and c or (a or b)\n";
        assert_eq!(counts(Lang::Python, src), (2, 6, 4, 8));
    }

    #[test]
    fn python_implicit_concatenation_and_attribute_names() {
        let src = "def f(a):\n    return 'ab' 'c' == \"abc\" != f\"abc\" != a.abc\n";
        assert_eq!(counts(Lang::Python, src), (2, 2, 3, 4));
    }

    #[test]
    fn python_match_patterns_negative_and_complex_literals() {
        let src = "def f(x):\n    match x:\n        case -1 | 2+3j:\n            pass\n        case {\"a\": -2.5}:\n            pass\n";
        assert_eq!(counts(Lang::Python, src), (2, 4, 3, 4));
    }

    #[test]
    fn python_print_chevron_is_a_shift_and_surrogates_stay_distinct() {
        let src = "def f():\n    print >> sys.stderr, \"m\"\n    print >> 42\n    x = print << sys.stderr\n";
        assert_eq!(counts(Lang::Python, src), (2, 3, 3, 6));
        let src = "def f():\n    return '\\ud800\\udc02' < '\\ud84d\\udc56' < '\\U00010002'\n";
        assert_eq!(counts(Lang::Python, src), (1, 3, 2, 3));
    }

    #[test]
    fn python_function_without_operators_has_volume_zero() {
        let h = nth(Lang::Python, "def f(a):\n    return g(a)\n", 0).expect("a value");
        assert_eq!(h, Halstead::default());
        assert_eq!(h.volume(), 0.0);
    }

    // ---- Go (go-halstead: Go scanner tokens of `{` .. before `}`) ----

    #[test]
    fn go_tokens_with_automatic_semicolon() {
        // `{` return a + 1 `;`(newline)
        assert_eq!(
            counts(
                Lang::Go,
                "package p\nfunc f(a int) int {\n\treturn a + 1\n}\n"
            ),
            (4, 2, 4, 2)
        );
    }

    #[test]
    fn go_explicit_semicolons_comments_and_final_semicolon() {
        // `{` x := "a" ; y := `b` /* c */ ;(end of range)
        let src = "package p\nfunc g() { x := \"a\"; y := `b` /* c */ }\n";
        assert_eq!(counts(Lang::Go, src), (3, 4, 5, 4));
    }

    #[test]
    fn go_semicolons_after_increments_and_closers() {
        let src = "package p\nfunc h(xs []int) {\n\tfor i := range xs {\n\t\txs[i]++\n\t}\n\tgo func() {}()\n}\n";
        assert_eq!(counts(Lang::Go, src), (13, 2, 20, 4));
    }

    #[test]
    fn go_func_literals_have_no_value() {
        let src = "package p\nfunc h() {\n\tf := func() int { return 1 }\n\t_ = f\n}\n";
        assert!(nth(Lang::Go, src, 0).is_some());
        assert_eq!(nth(Lang::Go, src, 1), None);
    }

    #[test]
    fn go_volume_value() {
        let h = nth(
            Lang::Go,
            "package p\nfunc f(a int) int {\n\treturn a + 1\n}\n",
            0,
        )
        .expect("a value");
        assert!((h.volume() - 6.0 * 6f64.log2()).abs() < 1e-12);
        assert!((h.difficulty() - 2.0).abs() < 1e-12);
    }

    // ---- JavaScript / Rust (rust-code-analysis 0.0.25) ----

    #[test]
    fn js_rca_reference_example() {
        // rust-code-analysis's own test: n1 10, N1 24, n2 11, N2 21.
        let src = "function main() {\n  var a, b, c, avg;\n  a = 5; b = 5; c = 5;\n  avg = (a + b + c) / 3;\n  console.log(\"{}\", avg);\n}\n";
        assert_eq!(counts(Lang::JavaScript, src), (10, 11, 24, 21));
    }

    #[test]
    fn js_function_expression_member_expression_and_keyword_operands() {
        let src = "const f = function (x) { return x?.y ?? typeof x; };\n";
        assert_eq!(counts(Lang::JavaScript, src), (7, 4, 7, 6));
    }

    #[test]
    fn js_nested_arrow_included_in_outer() {
        let src = "function f(a) { return a.map(x => x + 1); }\n";
        let outer = nth(Lang::JavaScript, src, 0).expect("a value");
        let inner = nth(Lang::JavaScript, src, 1).expect("a value");
        // arrow: x, x, 1 operands; + operator (`=>` is not an operator)
        assert_eq!(
            (inner.n1, inner.n2, inner.big_n1, inner.big_n2),
            (1, 2, 1, 3)
        );
        assert!(outer.big_n1 > inner.big_n1 && outer.big_n2 > inner.big_n2);
    }

    #[test]
    fn js_jsx_closing_tokens_count_as_the_old_grammar_tokens() {
        // `<div>` `</div>`: `<` `>` then `<` `/` `>` (today one `</` token).
        let a = counts(Lang::JavaScript, "function f() { return <div></div>; }\n");
        let b = counts(Lang::JavaScript, "function f() { return <div/>; }\n");
        // operators function () {} return < > / ; (a: `<` `>` `<` `/` `>`; b: `<` `/` `>`),
        // operands f, div (twice in a)
        assert_eq!(a, (8, 2, 10, 3));
        assert_eq!(b, (8, 2, 8, 2));
    }

    #[test]
    fn rust_rca_reference_example() {
        // rust-code-analysis's own test: n1 9, N1 22, n2 9, N2 15 (the comma
        // inside the macro's token tree is not seen).
        let src = "fn main() {\n  let a = 5; let b = 5; let c = 5;\n  let avg = (a + b + c) / 3;\n  println!(\"{}\", avg);\n}\n";
        assert_eq!(counts(Lang::Rust, src), (9, 9, 22, 15));
    }

    #[test]
    fn rust_types_else_as_and_primitive_types() {
        let src = "fn g(v: &[u8]) -> Option<usize> {\n    if v.is_empty() { None } else { Some(v.len() as usize) }\n}\n";
        assert_eq!(counts(Lang::Rust, src), (11, 4, 19, 6));
    }

    #[test]
    fn rust_macro_rules_repetitions_hide_punctuation_but_not_the_repetition_operator() {
        // rust-code-analysis-cli 0.0.25 on this source: n1 10, n2 4, N1 17, N2 6.
        let src = "fn f(v: u8) {\n    macro_rules! m {\n        ($($x:ident),+) => { $( let _ = $x + 1; )* };\n    }\n    m!(v);\n}\n";
        assert_eq!(counts(Lang::Rust, src), (10, 4, 17, 6));
    }

    #[test]
    fn js_labels_shorthands_templates_regex_spread() {
        // rust-code-analysis-cli 0.0.25 on this source: n1 15, n2 4, N1 26, N2 10.
        let src = "function f(a) {\n  label: for (const k in a) { if (!a[k]) continue label; }\n  return { a, b: `x${a}y`, [a]: /re/g, ...a };\n}\n";
        assert_eq!(counts(Lang::JavaScript, src), (15, 4, 26, 10));
    }

    #[test]
    fn js_import_meta_as_the_old_member_expression() {
        // rust-code-analysis-cli 0.0.25 on this source: n1 10, n2 5, N1 13, N2 5.
        let src = "function F() {\n  if (new.target) return import.meta.url;\n}\n";
        assert_eq!(counts(Lang::JavaScript, src), (10, 5, 13, 5));
    }

    #[test]
    fn ts_type_annotations_and_as_const() {
        // rust-code-analysis-cli 0.0.25 on this source: n1 16, n2 6, N1 23, N2 9.
        let src = "function f<T>(a: T[], b?: number): T | undefined {\n  const x = a as unknown as T[];\n  return x?.[b ?? 0] as const;\n}\n";
        assert_eq!(counts(Lang::TypeScript, src), (16, 6, 23, 9));
    }

    #[test]
    fn rust_token_tree_punctuation_takes_leading_underscores() {
        // rust-code-analysis-cli 0.0.25: `|__t|` is `|__` + `t`, `<_0A` is `<_` + `0` + `A`.
        let a = counts(Lang::Rust, "fn f() { m!(|__t| x); }\n");
        let b = counts(Lang::Rust, "fn f() { m!(|t| x); }\n");
        assert_eq!(a, b);
        assert_eq!(a, (5, 4, 6, 4));
        let c = counts(Lang::Rust, "fn f() { m!(<_0A as B>::c()); }\n");
        let d = counts(Lang::Rust, "fn f() { m!(< 0 A as B>::c()); }\n");
        assert_eq!(c, d);
        assert_eq!(c, (5, 6, 7, 6));
    }

    #[test]
    fn rust_comments_are_one_token() {
        let a = counts(Lang::Rust, "fn f() -> u8 {\n    1\n}\n");
        let b = counts(
            Lang::Rust,
            "fn f() -> u8 {\n    //! inner doc!\n    /// outer doc\n    1\n}\n",
        );
        assert_eq!(a, b);
    }

    // ---- deep nesting: the walks are iterative ----

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 10_000usize;
        let py = format!("def f(x):\n    return {}x\n", "-".repeat(depth));
        let h = nth(Lang::Python, &py, 0).expect("a value");
        assert_eq!(
            (h.n1, h.n2, h.big_n1, h.big_n2),
            (1, depth as u64, depth as u64, depth as u64)
        );

        let go = format!(
            "package p\nfunc f() {{{}{}}}\n",
            "{".repeat(depth),
            "}".repeat(depth)
        );
        let h = nth(Lang::Go, &go, 0).expect("a value");
        assert_eq!((h.n1, h.n2, h.big_n1), (3, 0, 2 * depth as u64 + 2));

        let js = format!(
            "function f() {{ return {}{}; }}\n",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let h = nth(Lang::JavaScript, &js, 0).expect("a value");
        assert!(h.big_n1 >= depth as u64);

        let rs = format!(
            "fn f() -> u8 {{ {}1{} }}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let h = nth(Lang::Rust, &rs, 0).expect("a value");
        assert!(h.big_n1 >= depth as u64);
    }
}
