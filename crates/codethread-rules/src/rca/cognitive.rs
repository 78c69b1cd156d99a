//! rust-code-analysis 0.0.25 `cognitive.sum`: Rust, JavaScript, TypeScript,
//! TSX, Java and C.

use crate::cognitive::{all, BoolMode, CogRules, FnNest, Inc, NodeRule, Recursion, Scan, When};

const fn nest_all(kind: &'static str) -> NodeRule {
    NodeRule {
        inc: Inc::Nesting,
        rest_nest: 1,
        bool_reset: true,
        ..NodeRule::base(kind)
    }
}

/// rust-code-analysis 0.0.25 `cognitive.sum` for Rust.
pub static RUST_RCA: CogRules = CogRules {
    tool: "rust-code-analysis 0.0.25 cognitive.sum",
    start: Scan::All,
    nodes: &[
        NodeRule {
            when: When::ParentIn(&["else_clause"]),
            ..all("if_expression")
        },
        nest_all("if_expression"),
        nest_all("for_expression"),
        nest_all("while_expression"),
        nest_all("match_expression"),
        NodeRule {
            inc: Inc::Flat(1),
            ..all("else")
        },
        NodeRule {
            when: When::ChildAt(1, "label"),
            inc: Inc::Flat(1),
            ..all("break_expression")
        },
        NodeRule {
            when: When::ChildAt(1, "label"),
            inc: Inc::Flat(1),
            ..all("continue_expression")
        },
        NodeRule {
            fn_nest: Some(FnNest {
                reset_nesting: true,
                reset_lambda: false,
                lambda: false,
                depth_if_ancestor: &["function_item"],
            }),
            ..all("function_item")
        },
        NodeRule {
            fn_nest: Some(FnNest {
                reset_nesting: false,
                reset_lambda: false,
                lambda: true,
                depth_if_ancestor: &[],
            }),
            ..all("closure_expression")
        },
    ],
    booleans: BoolMode::RcaSequence {
        binary_kinds: &["binary_expression"],
        operators: &["&&", "||"],
        unary_kinds: &["unary_expression"],
        reset_kinds: &[],
    },
    spaces: &[
        "function_item",
        "closure_expression",
        "impl_item",
        "trait_item",
    ],
    recursion: Recursion::None,
    null_kinds: &[],
    null_inside: &[],
    context_nesting: true,
};

/// rust-code-analysis 0.0.25 `cognitive.sum` for JavaScript, TypeScript and TSX.
pub static JS_RCA: CogRules = CogRules {
    tool: "rust-code-analysis 0.0.25 cognitive.sum",
    start: Scan::All,
    nodes: &[
        NodeRule {
            when: When::ParentIn(&["else_clause"]),
            ..all("if_statement")
        },
        nest_all("if_statement"),
        nest_all("for_statement"),
        nest_all("for_in_statement"),
        nest_all("while_statement"),
        nest_all("do_statement"),
        nest_all("switch_statement"),
        nest_all("catch_clause"),
        nest_all("ternary_expression"),
        NodeRule {
            inc: Inc::Flat(1),
            ..all("else")
        },
        NodeRule {
            fn_nest: Some(FnNest {
                reset_nesting: true,
                reset_lambda: true,
                lambda: false,
                depth_if_ancestor: &["function_declaration"],
            }),
            ..all("function_declaration")
        },
        NodeRule {
            fn_nest: Some(FnNest {
                reset_nesting: false,
                reset_lambda: false,
                lambda: true,
                depth_if_ancestor: &[],
            }),
            ..all("arrow_function")
        },
    ],
    booleans: BoolMode::RcaSequence {
        binary_kinds: &["binary_expression"],
        operators: &["&&", "||"],
        unary_kinds: &["unary_expression"],
        reset_kinds: &["expression_statement"],
    },
    spaces: &[
        "function_declaration",
        "function_expression",
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_declaration",
        "class",
    ],
    recursion: Recursion::None,
    null_kinds: &[],
    null_inside: &[],
    context_nesting: true,
};

/// rust-code-analysis 0.0.25 `cognitive.sum` for Java: 0.0.25 has no Java
/// rules (`impl Cognitive for JavaCode {}`), so every function is 0. This is
/// the tool's value, reproduced as it is.
pub static JAVA_RCA: CogRules = CogRules {
    tool: "rust-code-analysis 0.0.25 cognitive.sum (no Java rules: always 0)",
    start: Scan::All,
    nodes: &[],
    booleans: BoolMode::None,
    spaces: &[],
    recursion: Recursion::None,
    null_kinds: &[],
    null_inside: &[],
    context_nesting: true,
};

/// rust-code-analysis 0.0.25 `cognitive.sum` for C, read with its C++
/// grammar: `if` (not an else-if: an `if` whose parent is an `else` clause or,
/// as in the tool's grammar where `else if` had no clause node, another
/// `if`), `for` (not range-for), `while`, `do`, `switch`, `catch` +1 +
/// nesting; `else` and `goto` +1; the ternary adds nothing; a lambda raises
/// nesting. Boolean sequences are per space and reset only by the structural
/// increments; a unary expression becomes the sequence's operator.
pub static C_RCA: CogRules = CogRules {
    tool: "rust-code-analysis 0.0.25 cognitive.sum",
    start: Scan::All,
    nodes: &[
        NodeRule {
            when: When::ParentIn(&["else_clause", "if_statement"]),
            ..all("if_statement")
        },
        nest_all("if_statement"),
        nest_all("for_statement"),
        nest_all("while_statement"),
        nest_all("do_statement"),
        nest_all("switch_statement"),
        nest_all("catch_clause"),
        NodeRule {
            inc: Inc::Flat(1),
            ..all("else")
        },
        NodeRule {
            inc: Inc::Flat(1),
            ..all("goto_statement")
        },
        NodeRule {
            fn_nest: Some(FnNest {
                reset_nesting: false,
                reset_lambda: false,
                lambda: true,
                depth_if_ancestor: &[],
            }),
            ..all("lambda_expression")
        },
    ],
    booleans: BoolMode::RcaSequence {
        binary_kinds: &["binary_expression"],
        operators: &["&&", "||"],
        unary_kinds: &["unary_expression"],
        reset_kinds: &[],
    },
    spaces: &[
        "function_definition",
        "struct_specifier",
        "class_specifier",
        "namespace_definition",
    ],
    recursion: Recursion::None,
    null_kinds: &[],
    null_inside: &[],
    context_nesting: true,
};
