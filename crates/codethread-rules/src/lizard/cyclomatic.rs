//! lizard 1.24.3 CCN for Go (token mode, counted by codethread-metrics' `lizard::go`).

use crate::cyclomatic::{BraceScope, CcMode, CcRules};

/// lizard 1.24.3 CCN for Go (token based; function literals are separate functions).
pub static GO_LIZARD: CcRules = CcRules {
    tool: "lizard 1.24.3 CCN",
    mode: CcMode::Tokens,
    base: 1,
    scope_field: None,
    decisions: &[],
    token_texts: &["if", "for", "while", "catch", "&&", "||", "case", "?"],
    atomic: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
        "comment",
    ],
    excluded: &["func_literal"],
    pruned: &[],
    nested_spaces: &[],
    match_cases: None,
    brace_scope: Some(BraceScope {
        after_field: "parameters",
        open: "{",
        close: "}",
        not_after: &["interface"],
    }),
    unreported: None,
};
