//! Cyclomatic-complexity rule tables, one per (profile, language).
//!
//! The walker in [`crate::cyclomatic()`] knows nothing about any language: it
//! reads one [`CcRules`] value. Each table below reproduces one tool's counting
//! rules as documented in `RULES.md` of the shared reference set.

pub use super::when::When;

/// How the walker visits the function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CcMode {
    /// Count syntax nodes (named or anonymous) by kind ([`CcRules::decisions`]).
    Nodes,
    /// Count leaf tokens by their exact text ([`CcRules::token_texts`]), the way a
    /// token-based tool (lizard) does; [`CcRules::atomic`] subtrees are one token.
    Tokens,
}

/// One decision point: every node of `kind` (when `when` holds) adds 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// tree-sitter node kind (keyword tokens are anonymous nodes named by their text).
    pub kind: &'static str,
    /// Extra condition.
    pub when: When,
}

/// radon's `match` rule: `cases − [some case is irrefutable]`, never below 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchCases {
    /// The match statement's kind.
    pub match_kind: &'static str,
    /// A case's kind (a child of the match, or of its body).
    pub case_kind: &'static str,
    /// The kind of the match's body, whose children are searched for cases too.
    pub body_kind: &'static str,
    /// The kind of a case's pattern node.
    pub pattern_kind: &'static str,
    /// A pattern whose only child is one of these leaves is irrefutable (`_`).
    pub wildcard_leaves: &'static [&'static str],
    /// A pattern whose only child is this kind holding exactly one identifier
    /// is an irrefutable capture (`case x:`).
    pub capture_kind: &'static str,
}

/// Token mode: where a token-based tool thinks the function ends (defined
/// beside lizard's Go token count).
pub use crate::lizard::go::BraceScope;

/// The cyclomatic rules of one tool for one language.
#[derive(Debug, Clone, Copy)]
pub struct CcRules {
    /// The tool these rules reproduce (documentation; read by tests and callers).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// Node or token counting.
    pub mode: CcMode,
    /// The value of a function with no decision point.
    pub base: u32,
    /// Count only inside this field of the function node (radon walks `body` only).
    pub scope_field: Option<&'static str>,
    /// Decision points (node mode).
    pub decisions: &'static [Decision],
    /// Decision tokens by exact text (token mode).
    pub token_texts: &'static [&'static str],
    /// Token mode: subtrees that are a single token (strings, comments).
    pub atomic: &'static [&'static str],
    /// Nested nodes whose subtree is not part of this function (reported alone).
    pub excluded: &'static [&'static str],
    /// Nodes counted as decisions but not entered (radon's `visit_Assert`
    /// does not visit the assertion's expressions).
    pub pruned: &'static [&'static str],
    /// Nested named nodes that each add `base` (rust-code-analysis sums nested spaces).
    pub nested_spaces: &'static [&'static str],
    /// radon's `match` handling.
    pub match_cases: Option<MatchCases>,
    /// Token mode: the token range the tool counts.
    pub brace_scope: Option<BraceScope>,
    /// Functions the tool gives no value: those with an ancestor of a
    /// [`Unreported::classes`] kind that itself has an ancestor of a
    /// [`Unreported::scopes`] kind.
    pub unreported: Option<Unreported>,
}

/// Functions a tool does not report: radon's `cc_visit` lists a class's
/// methods only for classes at module level, so methods of classes nested in
/// a class or defined in a function (and everything inside them) get no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreported {
    /// Class kinds.
    pub classes: &'static [&'static str],
    /// Kinds that make an enclosed class nested or local.
    pub scopes: &'static [&'static str],
}

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
