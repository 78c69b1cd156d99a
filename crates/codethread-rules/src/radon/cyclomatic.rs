//! radon 6.0.1 `cc_visit`: cyclomatic complexity for Python.

use crate::cyclomatic::{CcMode, CcRules, Decision, MatchCases, Unreported, When};

/// radon 6.0.1 `cc_visit` for Python.
pub static PYTHON_RADON: CcRules = CcRules {
    tool: "radon 6.0.1 cc_visit",
    mode: CcMode::Nodes,
    base: 1,
    scope_field: Some("body"),
    decisions: &[
        Decision {
            kind: "if_statement",
            when: When::Always,
        },
        Decision {
            kind: "elif_clause",
            when: When::Always,
        },
        Decision {
            kind: "conditional_expression",
            when: When::Always,
        },
        Decision {
            kind: "boolean_operator",
            when: When::Always,
        },
        Decision {
            kind: "for_statement",
            when: When::Always,
        },
        Decision {
            kind: "while_statement",
            when: When::Always,
        },
        Decision {
            kind: "else_clause",
            when: When::ParentIn(&["for_statement", "while_statement"]),
        },
        // radon counts a try's `else` only for `Try`, not `TryStar` (`except*`).
        Decision {
            kind: "else_clause",
            when: When::ParentInWithout {
                parents: &["try_statement"],
                child: "except_clause",
                marker: "*",
            },
        },
        Decision {
            kind: "except_clause",
            when: When::LacksChild(&["*"]),
        },
        // `except*` handlers belong to `TryStar`, which radon 6.0.1 does not
        // count (its bodies are still visited).
        Decision {
            kind: "for_in_clause",
            when: When::Always,
        },
        Decision {
            kind: "if_clause",
            when: When::ParentNotIn(&["case_clause"]),
        },
        Decision {
            kind: "assert_statement",
            when: When::Always,
        },
    ],
    token_texts: &[],
    atomic: &[],
    excluded: &[
        "function_definition",
        "class_definition",
        "decorated_definition",
    ],
    pruned: &["assert_statement"],
    nested_spaces: &[],
    match_cases: Some(MatchCases {
        match_kind: "match_statement",
        case_kind: "case_clause",
        body_kind: "block",
        pattern_kind: "case_pattern",
        wildcard_leaves: &["_"],
        capture_kind: "dotted_name",
    }),
    brace_scope: None,
    unreported: Some(Unreported {
        classes: &["class_definition"],
        scopes: &["class_definition", "function_definition"],
    }),
};
