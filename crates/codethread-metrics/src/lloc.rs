//! Logical lines of code (paper profile), by one of three generic counters
//! chosen by the language's rule (its tool's `rules::<tool>::lloc` table, named by its
//! `rules::paper` row).
//!
//! All walks are iterative (a `TreeCursor`), so any nesting depth is safe.

use std::sync::OnceLock;

use codethread_lang::Lang;
use codethread_lang::{FlatCursor as TreeCursor, FlatNode as Node};

use crate::context::FnCtx;
use codethread_rules::lloc::{CodeLines, LlocRule, Statements};

// Per-kind flags, looked up by `kind_id` (string compares per node are slow).
const ATOMIC: u16 = 1;
const COMMENT: u16 = 1 << 1;
const CONTINUATION: u16 = 1 << 2;
const OPEN: u16 = 1 << 3;
const CLOSE: u16 = 1 << 4;
const SPLIT: u16 = 1 << 5;
const COLON: u16 = 1 << 6;
const NESTED: u16 = 1 << 7;
const COUNTED: u16 = 1 << 8;
const CONDITIONAL: u16 = 1 << 9;
const FIELD_PARENT: u16 = 1 << 10;

/// Flags of every node kind of a grammar under one LLOC rule, indexed by
/// `kind_id`. Every id whose name matches is flagged, so aliases are covered.
struct KindFlags(Vec<u16>);

impl KindFlags {
    fn build(lang: Lang, rule: &LlocRule) -> KindFlags {
        let Some(language) = lang.ts_language() else {
            // A grammar this build left out: no tree of it can exist.
            return KindFlags(Vec::new());
        };
        let n = language.node_kind_count();
        let mut flags = vec![0u16; n + 1];
        let mut mark = |names: &[&str], flag: u16| {
            for (id, f) in flags.iter_mut().enumerate() {
                let Ok(id) = u16::try_from(id) else { break };
                if language
                    .node_kind_for_id(id)
                    .is_some_and(|k| names.contains(&k))
                {
                    *f |= flag;
                }
            }
        };
        match rule {
            LlocRule::LogicalLines(r) => {
                mark(r.atomic, ATOMIC);
                mark(r.comments, COMMENT);
                mark(r.continuations, CONTINUATION);
                mark(r.open, OPEN);
                mark(r.close, CLOSE);
                mark(&[r.split], SPLIT);
                mark(&[r.colon], COLON);
            }
            LlocRule::CodeLines(r) => {
                mark(r.atomic, ATOMIC);
                mark(r.comments, COMMENT);
                mark(r.nested, NESTED);
            }
            LlocRule::Statements(r) => {
                mark(r.kinds, COUNTED);
                if let Some(c) = &r.conditional {
                    mark(c.kinds, CONDITIONAL);
                }
                let parents: Vec<&str> = r.fields.iter().map(|f| f.parent).collect();
                mark(&parents, FIELD_PARENT);
            }
        }
        KindFlags(flags)
    }

    #[inline]
    fn get(&self, node: Node<'_>) -> u16 {
        self.0
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or(0)
    }
}

/// The flag table of `lang`'s paper rule `rule` over the kind ids of
/// `grammar` (the grammar the tree was parsed with), built on first use.
/// `rule` must be the one of `lang`'s `rules::paper` row (the cache is kept
/// per language).
fn kind_flags(lang: Lang, grammar: Lang, rule: &LlocRule) -> &'static KindFlags {
    const N: usize = Lang::ALL.len();
    static TABLES: [[OnceLock<KindFlags>; N]; N] = [const { [const { OnceLock::new() }; N] }; N];
    let l = Lang::ALL.iter().position(|x| *x == lang).unwrap_or(0);
    let g = Lang::ALL.iter().position(|x| *x == grammar).unwrap_or(0);
    TABLES[l][g].get_or_init(|| KindFlags::build(grammar, rule))
}

/// LLOC of one function under `rule` (its language's paper rule).
pub(crate) fn lloc_with(ctx: &FnCtx<'_>, rule: &LlocRule) -> u32 {
    count(
        ctx.node,
        &ctx.file.source,
        rule,
        kind_flags(ctx.file.lang, ctx.node.tree().lang(), rule),
    )
}

/// True when the profile's LLOC of a function is its own count plus its
/// nested functions' values (so [`lloc_nested_sums`] applies).
pub(crate) fn is_additive(rule: &LlocRule) -> bool {
    matches!(rule, LlocRule::Statements(_))
}

/// LLOC of any node (a function, or a whole file's root) under `rule`.
fn count(node: Node<'_>, src: &[u8], rule: &LlocRule, flags: &KindFlags) -> u32 {
    match rule {
        LlocRule::LogicalLines(_) => logical_lines(node, src, flags),
        LlocRule::CodeLines(r) => code_lines(node, src, r, flags),
        LlocRule::Statements(r) => statements(node, r, flags),
    }
}

/// Advance `cursor` to the next node in pre-order within the subtree of the
/// node it started at (`depth` tracks how far below the start it is).
/// With `descend == false` the current node's children are skipped.
/// Returns false when the walk is over.
fn next_node(cursor: &mut TreeCursor<'_>, depth: &mut usize, descend: bool) -> bool {
    if descend && cursor.goto_first_child() {
        *depth += 1;
        return true;
    }
    loop {
        if *depth == 0 {
            return false;
        }
        if cursor.goto_next_sibling() {
            return true;
        }
        if !cursor.goto_parent() {
            return false;
        }
        *depth -= 1;
    }
}

/// True when a leaf holds no token (zero width, or whitespace such as Go's
/// newline terminators).
fn is_blank_leaf(node: Node<'_>, src: &[u8]) -> bool {
    let (start, end) = (node.start_byte(), node.end_byte());
    start >= end
        || (src.get(start).is_none_or(u8::is_ascii_whitespace)
            && src
                .get(start..end)
                .is_none_or(|b| b.iter().all(u8::is_ascii_whitespace)))
}

/// One logical-line piece in progress (radon's `_logical` → `aux`).
#[derive(Default)]
struct Piece {
    tokens: usize,
    last_colon: Option<usize>,
}

impl Piece {
    /// radon: `2 - (last_colon == len - 2)` with a colon; otherwise 1 when
    /// any token (other than the end marker) is present. The last piece of a
    /// logical line also holds the ENDMARKER token.
    fn value(&self, last: bool) -> u32 {
        let len = self.tokens + usize::from(last);
        match self.last_colon {
            Some(p) if p + 2 == len => 1,
            Some(_) => 2,
            None => u32::from(self.tokens > 0),
        }
    }
}

fn logical_lines(node: Node<'_>, src: &[u8], flags: &KindFlags) -> u32 {
    let mut total = 0u32;
    let mut in_line = false;
    let mut last_row = 0usize;
    let mut depth = 0usize;
    let mut continued = false;
    let mut prev_end = 0usize;
    let mut piece = Piece::default();
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        let n = cursor.node();
        let f = flags.get(n);
        let atomic = f & ATOMIC != 0;
        let leaf = atomic || n.first_child().is_none();
        if leaf && f & COMMENT == 0 && !is_blank_leaf(n, src) {
            if f & CONTINUATION != 0 {
                continued = true;
            } else {
                let start = n.start_position().row;
                let end = n.end_position().row;
                let new_line = !in_line
                    || (depth == 0
                        && start > last_row
                        && !continued
                        && !backslash_after(src, prev_end, n.start_byte()));
                if new_line {
                    if in_line {
                        total += piece.value(true);
                    }
                    piece = Piece::default();
                    depth = 0;
                    in_line = true;
                    last_row = start;
                }
                continued = false;
                if f & SPLIT != 0 {
                    total += piece.value(false);
                    piece = Piece::default();
                } else {
                    if f & COLON != 0 {
                        piece.last_colon = Some(piece.tokens);
                    } else if f & OPEN != 0 {
                        depth += 1;
                    } else if f & CLOSE != 0 {
                        depth = depth.saturating_sub(1);
                    }
                    piece.tokens += 1;
                }
                last_row = last_row.max(end);
                prev_end = n.end_byte();
            }
        }
        if !next_node(&mut cursor, &mut d, !atomic) {
            break;
        }
    }
    if in_line {
        total += piece.value(true);
    }
    total
}

/// True when the line holding byte `from` ends, before byte `to`, with a
/// backslash continuation (the grammar does not always keep a
/// `line_continuation` node, e.g. before an f-string). A `#` starts a comment,
/// which cannot be continued.
fn backslash_after(src: &[u8], from: usize, to: usize) -> bool {
    let Some(gap) = src.get(from..to.max(from)) else {
        return false;
    };
    let line = match gap.iter().position(|&b| b == b'\n') {
        Some(i) => &gap[..i],
        None => return false,
    };
    if line.contains(&b'#') {
        return false;
    }
    line.iter()
        .rev()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'\\')
}

fn code_lines(node: Node<'_>, src: &[u8], r: &CodeLines, flags: &KindFlags) -> u32 {
    // lizard starts a function's NLOC at 1 for its first line; its `func`
    // keyword token itself is credited to the enclosing scope.
    let mut count = 1u32;
    let mut prev_end: Option<usize> = None;
    let limit = r
        .truncate_at
        .and_then(|(field, kind)| first_of_kind(node.child_by_field_name(field)?, kind))
        .map_or(usize::MAX, |n| n.end_byte());
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        let n = cursor.node();
        if n.start_byte() >= limit {
            break;
        }
        let f = flags.get(n);
        let nested = d > 0 && f & NESTED != 0;
        let atomic = f & ATOMIC != 0;
        let leaf = atomic || n.first_child().is_none();
        if nested {
            // The literal's first token (`func`) is ours; the rest is its own.
            let start = n.start_position().row;
            if prev_end.is_none_or(|p| start > p) {
                count += 1;
            }
            prev_end = Some(n.end_position().row);
        } else if leaf && f & COMMENT == 0 && !is_blank_leaf(n, src) {
            let start = n.start_position().row;
            let end = n.end_position().row;
            if prev_end.is_some() {
                if prev_end.is_some_and(|p| start > p) {
                    count += 1;
                }
                count += u32::try_from(end.saturating_sub(start)).unwrap_or(u32::MAX);
            }
            prev_end = Some(end);
        }
        if !next_node(&mut cursor, &mut d, !atomic && !nested) {
            break;
        }
    }
    count
}

/// The first node of `kind` in `node`'s subtree, in pre-order.
fn first_of_kind<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        if crate::kinds::kind_of(cursor.node()) == kind {
            return Some(cursor.node());
        }
        if !next_node(&mut cursor, &mut d, true) {
            return None;
        }
    }
}

/// The statements a node contributes by itself (0, 1, or more through
/// `FieldStatement`s).
fn statement_value(n: Node<'_>, f: u16, r: &Statements) -> u32 {
    let mut total = 0u32;
    if f & COUNTED != 0 {
        total += 1;
    } else if f & CONDITIONAL != 0 {
        if let Some(c) = &r.conditional {
            if !has_ancestor_before_stop(n, c.ancestors, c.stop) {
                total += 1;
            }
        }
    }
    if f & FIELD_PARENT != 0 {
        let kind = crate::kinds::kind_of(n);
        for fs in r.fields.iter().filter(|fs| fs.parent == kind) {
            for field in fs.fields {
                if let Some(child) = n.child_by_field_name(field) {
                    if !fs.unless.contains(&crate::kinds::kind_of(child)) {
                        total += 1;
                    }
                }
            }
        }
    }
    total
}

fn statements(node: Node<'_>, r: &Statements, flags: &KindFlags) -> u32 {
    let mut total = 0u32;
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        let n = cursor.node();
        total += statement_value(n, flags.get(n), r);
        if !next_node(&mut cursor, &mut d, true) {
            break;
        }
    }
    total
}

/// LLOC of all functions of a file at once, for rules where a function's
/// value is its own statements plus its nested functions' values
/// (rust-code-analysis). One walk per outermost function instead of one per
/// function: linear in the file, whatever the nesting. `nodes` are the
/// functions' nodes in pre-order; `parents[i]` is the index of the
/// enclosing function. `None` when the rule is not additive (use [`lloc`]).
pub(crate) fn lloc_nested_sums(
    lang: Lang,
    rule: &LlocRule,
    nodes: &[Node<'_>],
    parents: &[Option<usize>],
) -> Option<Vec<u32>> {
    let LlocRule::Statements(r) = rule else {
        return None;
    };
    let Some(grammar) = nodes.first().map(|n| n.tree().lang()) else {
        return Some(Vec::new());
    };
    let flags = kind_flags(lang, grammar, rule);
    let mut own = vec![0u32; nodes.len()];
    let mut i = 0usize;
    while i < nodes.len() {
        if parents.get(i).copied().flatten().is_some() {
            i += 1;
            continue;
        }
        // Walk the outermost function `i`; `stack` holds (function, depth).
        let mut stack: Vec<(usize, usize)> = vec![(i, 0)];
        let mut next = i + 1;
        let mut cursor = nodes[i].walk();
        let mut d = 0usize;
        loop {
            let n = cursor.node();
            if d > 0 {
                while stack.last().is_some_and(|&(_, sd)| sd >= d) {
                    stack.pop();
                }
                if nodes.get(next).is_some_and(|m| m.id() == n.id()) {
                    stack.push((next, d));
                    next += 1;
                }
            }
            let top = stack.last().map_or(i, |&(f, _)| f);
            own[top] += statement_value(n, flags.get(n), r);
            if !next_node(&mut cursor, &mut d, true) {
                break;
            }
        }
        // Every function nested in `i` must have been entered, in order.
        let end = (i + 1..nodes.len())
            .find(|&j| parents.get(j).copied().flatten().is_none())
            .unwrap_or(nodes.len());
        if next != end {
            return None;
        }
        i = end;
    }
    let mut total = own;
    for j in (0..total.len()).rev() {
        if let Some(p) = parents.get(j).copied().flatten() {
            if p < j {
                total[p] += total[j];
            }
        }
    }
    Some(total)
}

fn has_ancestor_before_stop(node: Node<'_>, ancestors: &[&str], stop: &[&str]) -> bool {
    let mut p = node.parent();
    while let Some(a) = p {
        let k = crate::kinds::kind_of(a);
        if ancestors.contains(&k) {
            return true;
        }
        if stop.contains(&k) {
            return false;
        }
        p = a.parent();
    }
    false
}
