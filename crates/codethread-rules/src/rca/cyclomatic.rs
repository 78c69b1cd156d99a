//! rust-code-analysis 0.0.25 `cyclomatic.sum`: Rust, JavaScript, TypeScript,
//! TSX, Java and C.

use crate::cyclomatic::{CcMode, CcRules, Decision, When};

/// rust-code-analysis 0.0.25 `cyclomatic.sum` for Rust.
///
/// Inside macro token trees, rust-code-analysis 0.0.25's grammar lexes
/// operators (`&&`, `||`, `?`) as one generic punctuation token, while
/// keywords (`if`, `for`, `while`, `loop`) stay keywords.
pub static RUST_RCA: CcRules = CcRules {
    tool: "rust-code-analysis 0.0.25 cyclomatic.sum",
    mode: CcMode::Nodes,
    base: 1,
    scope_field: None,
    decisions: &[
        Decision {
            kind: "if",
            when: When::Always,
        },
        Decision {
            kind: "for",
            when: When::Always,
        },
        Decision {
            kind: "while",
            when: When::Always,
        },
        Decision {
            kind: "loop",
            when: When::Always,
        },
        Decision {
            kind: "match_arm",
            when: When::Always,
        },
        Decision {
            kind: "?",
            when: When::NotInside(&["token_tree"]),
        },
        Decision {
            kind: "&&",
            when: When::NotInside(&["token_tree"]),
        },
        Decision {
            kind: "||",
            when: When::NotInside(&["token_tree"]),
        },
    ],
    token_texts: &[],
    atomic: &[],
    excluded: &[],
    pruned: &[],
    nested_spaces: &[
        "function_item",
        "closure_expression",
        "impl_item",
        "trait_item",
    ],
    match_cases: None,
    brace_scope: None,
    unreported: None,
};

const JS_RCA_DECISIONS: &[Decision] = &[
    Decision {
        kind: "if",
        when: When::Always,
    },
    Decision {
        kind: "for",
        when: When::Always,
    },
    Decision {
        kind: "while",
        when: When::Always,
    },
    Decision {
        kind: "case",
        when: When::Always,
    },
    Decision {
        kind: "catch",
        when: When::Always,
    },
    Decision {
        kind: "ternary_expression",
        when: When::Always,
    },
    Decision {
        kind: "&&",
        when: When::Always,
    },
    Decision {
        kind: "||",
        when: When::Always,
    },
];

const JS_RCA_SPACES: &[&str] = &[
    "function_declaration",
    "function_expression",
    "generator_function_declaration",
    "generator_function",
    "arrow_function",
    "method_definition",
    "class_declaration",
    // A class expression (a named node; the `class` keyword token is anonymous).
    "class",
];

/// rust-code-analysis 0.0.25 `cyclomatic.sum` for JavaScript, TypeScript and TSX.
pub static JS_RCA: CcRules = CcRules {
    tool: "rust-code-analysis 0.0.25 cyclomatic.sum",
    mode: CcMode::Nodes,
    base: 1,
    scope_field: None,
    decisions: JS_RCA_DECISIONS,
    token_texts: &[],
    atomic: &[],
    excluded: &[],
    pruned: &[],
    nested_spaces: JS_RCA_SPACES,
    match_cases: None,
    brace_scope: None,
    unreported: None,
};

/// rust-code-analysis 0.0.25's cyclomatic decision kinds for Java and its
/// C++ grammar (C): the keyword tokens, the ternary node and every `&&`/`||`
/// token (C++ rvalue references `T&&` included).
const fn rca_decisions(ternary: &'static str) -> [Decision; 8] {
    const fn d(kind: &'static str) -> Decision {
        Decision {
            kind,
            when: When::Always,
        }
    }
    [
        d("if"),
        d("for"),
        d("while"),
        d("case"),
        d("catch"),
        d(ternary),
        d("&&"),
        d("||"),
    ]
}

/// rust-code-analysis 0.0.25 `cyclomatic.sum` for Java. Every nested space
/// (methods of anonymous and local classes, local class and interface
/// declarations) adds its own base 1.
pub static JAVA_RCA: CcRules = CcRules {
    tool: "rust-code-analysis 0.0.25 cyclomatic.sum",
    mode: CcMode::Nodes,
    base: 1,
    scope_field: None,
    decisions: &rca_decisions("ternary_expression"),
    token_texts: &[],
    atomic: &[],
    excluded: &[],
    pruned: &[],
    nested_spaces: &[
        "method_declaration",
        "constructor_declaration",
        "class_declaration",
        "interface_declaration",
    ],
    match_cases: None,
    brace_scope: None,
    unreported: None,
};

/// rust-code-analysis 0.0.25 `cyclomatic.sum` for C, read with its C++
/// grammar. Its spaces include every struct/class specifier (also a type
/// reference such as `struct S *p`) and namespace, and each adds its base 1.
pub static C_RCA: CcRules = CcRules {
    tool: "rust-code-analysis 0.0.25 cyclomatic.sum",
    mode: CcMode::Nodes,
    base: 1,
    scope_field: None,
    decisions: &rca_decisions("conditional_expression"),
    token_texts: &[],
    atomic: &[],
    excluded: &[],
    pruned: &[],
    nested_spaces: &[
        "function_definition",
        "struct_specifier",
        "class_specifier",
        "namespace_definition",
    ],
    match_cases: None,
    brace_scope: None,
    unreported: None,
};
