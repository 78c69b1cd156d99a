//! lizard's CCN for Go, read from the tree's tokens: lizard 1.24.3 counts
//! the condition tokens of a function, and for Go the tree's leaf tokens
//! (strings and comments as single tokens) are lizard's tokens, so the
//! count needs no token reader of its own — only lizard's idea of where a
//! Go function ends ([`BraceScope`]). The paper profile's Go row names
//! this through `rules::lizard::cyclomatic::GO_LIZARD` (token mode); the C++, Ruby
//! and PHP reader is the rest of this module.

use codethread_lang::{FlatNode as Node, ParsedFile};
use codethread_rules::cyclomatic::BraceScope;

/// The token-mode part of a cyclomatic table: which token texts are
/// decisions, which subtrees are one token, which are not the function's.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TokenCount<'t> {
    /// Decision tokens by exact text.
    pub texts: &'t [&'t str],
    /// Subtrees that are a single token (strings, comments).
    pub atomic: &'t [&'t str],
    /// Nested nodes whose tokens are not the function's (reported alone).
    pub excluded: &'t [&'t str],
    /// The token range the tool counts.
    pub brace_scope: Option<&'t BraceScope>,
}

impl TokenCount<'_> {
    /// Decision tokens among the function's tokens (atomic subtrees are one
    /// token, excluded subtrees are skipped), limited to the tool's idea of
    /// the function's extent when there is a [`BraceScope`].
    pub(crate) fn count(&self, file: &ParsedFile, func: Node<'_>) -> u32 {
        let mut tokens: Vec<(usize, &[u8])> = Vec::new();
        let mut stack: Vec<Node<'_>> = vec![func];
        let mut cursor = func.walk();
        let mut kids: Vec<Node<'_>> = Vec::new();
        while let Some(node) = stack.pop() {
            let kind = crate::kinds::kind_of(node);
            if node.id() != func.id() && self.excluded.contains(&kind) {
                continue;
            }
            if self.atomic.contains(&kind) || node.first_child().is_none() {
                tokens.push((node.start_byte(), file.text(node)));
                continue;
            }
            // Children pop in source order.
            kids.clear();
            cursor.reset(node);
            if cursor.goto_first_child() {
                loop {
                    kids.push(cursor.node());
                    if !cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
            stack.extend(kids.drain(..).rev());
        }
        let end = match self.brace_scope {
            Some(scope) => brace_end(func, &tokens, scope).unwrap_or(tokens.len()),
            None => tokens.len(),
        };
        let counted = tokens.get(..end).unwrap_or(&tokens);
        let hits = counted
            .iter()
            .filter(|(_, text)| self.texts.iter().any(|t| t.as_bytes() == *text))
            .count();
        u32::try_from(hits).unwrap_or(u32::MAX)
    }
}

/// Index one past the closing token of the tool's function body.
fn brace_end(func: Node<'_>, tokens: &[(usize, &[u8])], scope: &BraceScope) -> Option<usize> {
    let after = func.child_by_field_name(scope.after_field)?.end_byte();
    let open = scope.open.as_bytes();
    let close = scope.close.as_bytes();
    let start = tokens.iter().enumerate().position(|(i, (pos, text))| {
        *pos >= after
            && *text == open
            && !(i > 0
                && scope
                    .not_after
                    .iter()
                    .any(|n| n.as_bytes() == tokens[i - 1].1))
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
