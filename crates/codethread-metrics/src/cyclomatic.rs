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
        match table.mode {
            CcMode::Nodes => {
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
            }
            CcMode::Tokens => {
                if table.atomic.contains(&kind) {
                    continue;
                }
                if node.child_count() == 0 {
                    let text = file.text(node);
                    if table.token_texts.iter().any(|t| t.as_bytes() == text) {
                        total = total.saturating_add(1);
                    }
                    continue;
                }
            }
        }
        push_children(node, &mut stack);
    }
    total
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
