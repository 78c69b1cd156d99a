//! Canonical tables of Go and Rust.

use super::*;

/// Go (tree-sitter-go 0.25.0). The else branch is the `alternative` field
/// itself (a block, or an `if_statement` for `else if`).
pub static GO: CanonRules = CanonRules {
    rules: &[
        else_if(
            "if_statement",
            When::InField("alternative", &["if_statement"]),
            &["consequence"],
        )
        .with_else(ElseBranch {
            field: "alternative",
            unless: &["if_statement"],
        }),
        if_rule("if_statement", &["alternative"]).with_else(ElseBranch {
            field: "alternative",
            unless: &["if_statement"],
        }),
        lp("for_statement"),
        structural("expression_switch_statement", 0, 1),
        structural("type_switch_statement", 0, 1),
        structural("select_statement", 0, 1),
        decision("expression_case", When::Always, 1),
        decision("type_case", When::Always, 1),
        decision("communication_case", When::Always, 1),
        stmt("default_case"),
        tok("&&", When::ParentIn(&["binary_expression"])),
        tok("||", When::ParentIn(&["binary_expression"])),
        lambda("func_literal"),
        jump("break_statement", When::HasChild(&["label_name"])),
        jump("continue_statement", When::HasChild(&["label_name"])),
        jump("goto_statement", When::Always),
        stmt_when(
            "short_var_declaration",
            When::ParentNotIn(&[
                "if_statement",
                "for_clause",
                "expression_switch_statement",
                "type_switch_statement",
            ]),
        ),
        stmt_when(
            "assignment_statement",
            When::ParentNotIn(&["for_clause", "if_statement", "expression_switch_statement"]),
        ),
        stmt_when(
            "expression_statement",
            When::ParentNotIn(&["if_statement", "expression_switch_statement"]),
        ),
        stmt_when(
            "inc_statement",
            When::ParentNotIn(&["for_clause", "if_statement"]),
        ),
        stmt_when(
            "dec_statement",
            When::ParentNotIn(&["for_clause", "if_statement"]),
        ),
        stmt_when("var_declaration", When::Init(&["var_spec"], "value", &[])),
        stmt("const_declaration"),
        stmt("send_statement"),
        stmt("return_statement"),
        stmt("break_statement"),
        stmt("continue_statement"),
        stmt("fallthrough_statement"),
        stmt("go_statement"),
        stmt("defer_statement"),
    ],
    booleans: Booleans {
        binary_kinds: &["binary_expression"],
        operator_field: "operator",
        operand_fields: ("left", "right"),
        operators: &["&&", "||"],
        paren_kinds: &["parenthesized_expression"],
    },
    calls: &[CallRule {
        kind: "call_expression",
        callee_field: "function",
        receiver_field: None,
    }],
    members: &[Member {
        kind: "selector_expression",
        object_field: "operand",
        property_field: "field",
    }],
    name_kinds: &["identifier"],
    self_names: &[],
    receiver: Some(Receiver {
        field: "receiver",
        param_kind: "parameter_declaration",
        name_field: "name",
    }),
    statement_lists: &[],
    clause_kinds: &[],
    halstead: HalsteadClasses {
        atomic_operands: &[
            "interpreted_string_literal",
            "raw_string_literal",
            "rune_literal",
        ],
        leaf_operators: &[],
        ignored: CLOSERS,
        interpolations: &[],
    },
    declarative: None,
    expression_bodies: &[],
};

/// Block-like expressions: as a statement they count by their own rule.
const RUST_BLOCK_LIKE: &[&str] = &[
    "if_expression",
    "match_expression",
    "for_expression",
    "while_expression",
    "loop_expression",
    "block",
    "unsafe_block",
    "async_block",
];

/// Rust (tree-sitter-rust 0.24.2). A block's statements are its children
/// (the tail expression included); a block-like expression statement
/// (`if`, `match`, loops) counts by its own rule.
pub static RUST: CanonRules = CanonRules {
    rules: &[
        else_if(
            "if_expression",
            When::ParentIn(&["else_clause"]),
            &["consequence"],
        ),
        if_rule("if_expression", &["alternative"]),
        Rule::base("else_clause").with_when(When::HasChild(&["if_expression"])),
        else_node("else_clause", When::Always),
        lp("for_expression"),
        lp("while_expression"),
        lp("loop_expression"),
        structural("match_expression", 0, 1),
        // An arm is a case label (one logical line); `_` is the default.
        stmt_when("match_arm", When::ChildText("match_pattern", "_")),
        decision("match_arm", When::Always, 1),
        tok("if", When::ParentIn(&["match_pattern"])),
        tok("&&", When::ParentIn(&["binary_expression"])),
        tok("||", When::ParentIn(&["binary_expression"])),
        lambda("closure_expression"),
        // The enclosing expression statement is the logical line.
        Rule {
            lloc: 0,
            ..jump("break_expression", When::HasChild(&["label"]))
        },
        Rule {
            lloc: 0,
            ..jump("continue_expression", When::HasChild(&["label"]))
        },
        stmt_when("let_declaration", When::Init(&[], "value", &[])),
        Rule::base("let_declaration"),
        stmt_when("expression_statement", When::LacksChild(RUST_BLOCK_LIKE)),
        Rule::base("expression_statement"),
    ],
    booleans: Booleans {
        binary_kinds: &["binary_expression"],
        operator_field: "operator",
        operand_fields: ("left", "right"),
        operators: &["&&", "||"],
        paren_kinds: &["parenthesized_expression"],
    },
    calls: &[CallRule {
        kind: "call_expression",
        callee_field: "function",
        receiver_field: None,
    }],
    members: &[
        Member {
            kind: "field_expression",
            object_field: "value",
            property_field: "field",
        },
        Member {
            kind: "scoped_identifier",
            object_field: "path",
            property_field: "name",
        },
    ],
    name_kinds: &["identifier"],
    self_names: &["self", "Self"],
    receiver: None,
    statement_lists: &["block"],
    clause_kinds: &[],
    halstead: HalsteadClasses {
        atomic_operands: &[
            "string_literal",
            "raw_string_literal",
            "char_literal",
            "boolean_literal",
        ],
        leaf_operators: &["primitive_type"],
        ignored: CLOSERS,
        interpolations: &[],
    },
    declarative: None,
    // A closure's expression body; a `fn` body is a block, whose tail
    // expression is a statement already.
    expression_bodies: &[ExprBody {
        kind: "closure_expression",
        body_field: "body",
        block_kinds: &["block"],
        skip_root: false,
    }],
};
