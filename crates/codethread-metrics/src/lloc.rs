//! Logical lines of code, by one of three generic counters chosen per
//! (profile, language) from the tables in `rules/lloc.rs`.
//!
//! All walks are iterative (a `TreeCursor`), so any nesting depth is safe.

use tree_sitter::{Node, TreeCursor};

use crate::FnCtx;

#[path = "rules/lloc.rs"]
mod rules;

pub(crate) use rules::lloc_rule;
use rules::{CodeLines, LlocRule, LogicalLines, Statements};

/// LLOC of one function; `None` when the profile's tool does not report it.
///
/// - Python (paper): radon `raw.analyze(...).lloc` over the function's own
///   lines: one per logical line, `;` splits, a piece with a `:` that is not
///   its last token counts 2, comments and blank lines 0.
/// - Go (paper): lizard NLOC, lines holding code, signature included, lines of
///   nested func literals excluded (they are reported on their own).
/// - JavaScript / TypeScript / Rust (paper): rust-code-analysis `loc.lloc`,
///   statements by node kind, nested functions included.
pub fn lloc(ctx: &FnCtx<'_>) -> Option<u32> {
    Some(count(
        ctx.node,
        &ctx.file.source,
        &lloc_rule(ctx.profile, ctx.file.lang),
    ))
}

/// LLOC of any node (a function, or a whole file's root) under `rule`.
pub(crate) fn count(node: Node<'_>, src: &[u8], rule: &LlocRule) -> u32 {
    match rule {
        LlocRule::LogicalLines(r) => logical_lines(node, src, r),
        LlocRule::CodeLines(r) => code_lines(node, src, r),
        LlocRule::Statements(r) => statements(node, r),
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
    node.start_byte() >= node.end_byte()
        || src
            .get(node.byte_range())
            .is_none_or(|b| b.iter().all(u8::is_ascii_whitespace))
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

fn logical_lines(node: Node<'_>, src: &[u8], r: &LogicalLines) -> u32 {
    let mut total = 0u32;
    let mut in_line = false;
    let mut last_row = 0usize;
    let mut depth = 0usize;
    let mut continued = false;
    let mut piece = Piece::default();
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        let n = cursor.node();
        let kind = n.kind();
        let atomic = r.atomic.contains(&kind);
        let leaf = atomic || n.child_count() == 0;
        if leaf && !is_blank_leaf(n, src) && !r.comments.contains(&kind) {
            if r.continuations.contains(&kind) {
                continued = true;
            } else {
                let start = n.start_position().row;
                let end = n.end_position().row;
                let new_line = !in_line || (depth == 0 && !continued && start > last_row);
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
                if kind == r.split {
                    total += piece.value(false);
                    piece = Piece::default();
                } else {
                    if kind == r.colon {
                        piece.last_colon = Some(piece.tokens);
                    } else if r.open.contains(&kind) {
                        depth += 1;
                    } else if r.close.contains(&kind) {
                        depth = depth.saturating_sub(1);
                    }
                    piece.tokens += 1;
                }
                last_row = last_row.max(end);
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

fn code_lines(node: Node<'_>, src: &[u8], r: &CodeLines) -> u32 {
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
        let kind = n.kind();
        let nested = d > 0 && r.nested.contains(&kind);
        let atomic = r.atomic.contains(&kind);
        let leaf = atomic || n.child_count() == 0;
        if nested {
            // The literal's first token (`func`) is ours; the rest is its own.
            let start = n.start_position().row;
            if prev_end.is_none_or(|p| start > p) {
                count += 1;
            }
            prev_end = Some(n.end_position().row);
        } else if leaf && !is_blank_leaf(n, src) && !r.comments.contains(&kind) {
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
        if cursor.node().kind() == kind {
            return Some(cursor.node());
        }
        if !next_node(&mut cursor, &mut d, true) {
            return None;
        }
    }
}

fn statements(node: Node<'_>, r: &Statements) -> u32 {
    let mut total = 0u32;
    let mut cursor = node.walk();
    let mut d = 0usize;
    loop {
        let n = cursor.node();
        let kind = n.kind();
        if r.kinds.contains(&kind) {
            total += 1;
        } else if let Some(c) = &r.conditional {
            if c.kinds.contains(&kind) && !has_ancestor_before_stop(n, c.ancestors, c.stop) {
                total += 1;
            }
        }
        for f in r.fields.iter().filter(|f| f.parent == kind) {
            for field in f.fields {
                if let Some(child) = n.child_by_field_name(field) {
                    if !f.unless.contains(&child.kind()) {
                        total += 1;
                    }
                }
            }
        }
        if !next_node(&mut cursor, &mut d, true) {
            break;
        }
    }
    total
}

fn has_ancestor_before_stop(node: Node<'_>, ancestors: &[&str], stop: &[&str]) -> bool {
    let mut p = node.parent();
    while let Some(a) = p {
        let k = a.kind();
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
