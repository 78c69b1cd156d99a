//! Cyclomatic complexity: one generic, iterative walker driven by the rule
//! tables of [`rules`] (one table per profile and language).
//!
//! - Node mode: every node whose kind is a decision point (under its
//!   context condition) adds 1; radon's `match` rule is a table entry too.
//! - Token mode: every leaf token whose text is a decision token adds 1
//!   (lizard); string and comment subtrees count as single tokens.
//! - Excluded kinds (nested functions a tool reports on their own) are not
//!   entered; nested-space kinds (rust-code-analysis sums) add the base value.

#[path = "rules/cyclomatic.rs"]
pub mod rules;

use codethread_lang::ParsedFile;
use tree_sitter::Node;

use crate::FnCtx;
use rules::{CcMode, CcRules, MatchCases, When};

/// Cyclomatic complexity of one function under `ctx.profile`.
///
/// Every tool of the paper profile reports a cyclomatic value for every
/// function it lists, so this returns `Some` for every function node.
pub fn cyclomatic(ctx: &FnCtx<'_>) -> Option<u32> {
    let table = rules::rules(ctx.profile, ctx.file.lang);
    Some(cyclomatic_with(ctx.file, ctx.node, table))
}

/// Cyclomatic complexity of the function at `func` under an explicit rule table.
pub fn cyclomatic_with(file: &ParsedFile, func: Node<'_>, table: &CcRules) -> u32 {
    let scope = match table.scope_field {
        Some(field) => match func.child_by_field_name(field) {
            Some(n) => n,
            None => return table.base,
        },
        None => func,
    };
    if table.mode == CcMode::Tokens {
        return table.base.saturating_add(count_tokens(file, func, table));
    }
    let mut total: u32 = table.base;
    let mut stack: Vec<Node<'_>> = vec![scope];
    while let Some(node) = stack.pop() {
        let kind = node.kind();
        let is_root = node.id() == scope.id() || node.id() == func.id();
        if !is_root {
            if table.excluded.contains(&kind) {
                continue;
            }
            if table.nested_spaces.contains(&kind) {
                total = total.saturating_add(table.base);
            }
        }
        if table
            .decisions
            .iter()
            .any(|d| d.kind == kind && holds(d.when, node))
        {
            total = total.saturating_add(1);
        }
        if let Some(m) = &table.match_cases {
            if m.match_kind == kind {
                total = total.saturating_add(match_increment(node, m));
            }
        }
        if !table.pruned.contains(&kind) {
            push_children(node, &mut stack);
        }
    }
    total
}

/// Token mode: decision tokens among the function's tokens (atomic subtrees
/// are one token, excluded subtrees are skipped), limited to the tool's idea
/// of the function's extent when the table has a [`rules::BraceScope`].
fn count_tokens(file: &ParsedFile, func: Node<'_>, table: &CcRules) -> u32 {
    let mut tokens: Vec<(usize, &[u8])> = Vec::new();
    let mut stack: Vec<Node<'_>> = vec![func];
    while let Some(node) = stack.pop() {
        let kind = node.kind();
        if node.id() != func.id() && table.excluded.contains(&kind) {
            continue;
        }
        if table.atomic.contains(&kind) || node.child_count() == 0 {
            tokens.push((node.start_byte(), file.text(node)));
            continue;
        }
        push_children(node, &mut stack);
    }
    let end = match &table.brace_scope {
        Some(scope) => brace_end(func, &tokens, scope).unwrap_or(tokens.len()),
        None => tokens.len(),
    };
    let counted = tokens.get(..end).unwrap_or(&tokens);
    let hits = counted
        .iter()
        .filter(|(_, text)| table.token_texts.iter().any(|t| t.as_bytes() == *text))
        .count();
    u32::try_from(hits).unwrap_or(u32::MAX)
}

/// Index one past the closing token of the tool's function body.
fn brace_end(func: Node<'_>, tokens: &[(usize, &[u8])], scope: &rules::BraceScope) -> Option<usize> {
    let after = func.child_by_field_name(scope.after_field)?.end_byte();
    let open = scope.open.as_bytes();
    let close = scope.close.as_bytes();
    let start = tokens.iter().enumerate().position(|(i, (pos, text))| {
        *pos >= after
            && *text == open
            && !(i > 0 && scope.not_after.iter().any(|n| n.as_bytes() == tokens[i - 1].1))
    })?;
    let mut depth = 0usize;
    for (i, (_, text)) in tokens.iter().enumerate().skip(start) {
        if *text == open {
            depth += 1;
        } else if *text == close {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return Some(i + 1);
            }
        }
    }
    None
}

/// Push `node`'s children so that they pop in source order.
fn push_children<'t>(node: Node<'t>, stack: &mut Vec<Node<'t>>) {
    let start = stack.len();
    let mut cursor = node.walk();
    if cursor.goto_first_child() {
        loop {
            stack.push(cursor.node());
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    stack[start..].reverse();
}

fn holds(when: When, node: Node<'_>) -> bool {
    match when {
        When::Always => true,
        When::ParentIn(kinds) => node.parent().is_some_and(|p| kinds.contains(&p.kind())),
        When::ParentNotIn(kinds) => !node.parent().is_some_and(|p| kinds.contains(&p.kind())),
        When::NotInside(kinds) => {
            let mut cur = node.parent();
            while let Some(p) = cur {
                if kinds.contains(&p.kind()) {
                    return false;
                }
                cur = p.parent();
            }
            true
        }
    }
}

/// radon: `max(0, cases − [any irrefutable case])` for one match statement.
fn match_increment(node: Node<'_>, m: &MatchCases) -> u32 {
    let mut cases = 0u32;
    let mut irrefutable = false;
    // Cases are children of the match body (a block); walk two levels.
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let mut cursor = n.walk();
        for child in n.named_children(&mut cursor) {
            if child.kind() == m.case_kind {
                cases += 1;
                if is_irrefutable(child, m) {
                    irrefutable = true;
                }
            } else if n.id() == node.id() && child.kind() == "block" {
                stack.push(child);
            }
        }
    }
    cases.saturating_sub(u32::from(irrefutable))
}

fn is_irrefutable(case: Node<'_>, m: &MatchCases) -> bool {
    let mut cursor = case.walk();
    let Some(pattern) = case
        .named_children(&mut cursor)
        .find(|c| c.kind() == m.pattern_kind)
    else {
        return false;
    };
    if pattern.child_count() != 1 {
        return false;
    }
    let Some(only) = pattern.child(0) else {
        return false;
    };
    if m.wildcard_leaves.contains(&only.kind()) {
        return true;
    }
    only.kind() == m.capture_kind && only.named_child_count() == 1
}
