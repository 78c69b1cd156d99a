//! Canonical tables of Java, C and C++.

use super::*;

/// Java (tree-sitter-java 0.23.5). The else branch is the `alternative`
/// field itself (any statement; an `if_statement` there is an `else if`).
pub static JAVA: CanonRules = CanonRules {
    rules: &[
        else_if(
            "if_statement",
            When::InField("alternative", &["if_statement"]),
            &["consequence"],
        )
        .with_else(JAVA_ELSE),
        if_rule("if_statement", &["alternative"]).with_else(JAVA_ELSE),
        lp("for_statement"),
        lp("enhanced_for_statement"),
        lp("while_statement"),
        lp("do_statement"),
        structural("switch_expression", 0, 1),
        structural("switch_statement", 0, 1),
        stmt_when("switch_label", When::HasChild(&["default"])),
        decision("switch_label", When::Always, 1),
        stmt("try_statement"),
        stmt("try_with_resources_statement"),
        structural("catch_clause", 1, 1),
        structural("ternary_expression", 1, 0),
        tok("&&", When::ParentIn(&["binary_expression"])),
        tok("||", When::ParentIn(&["binary_expression"])),
        lambda("lambda_expression"),
        jump("break_statement", When::HasChild(&["identifier"])),
        jump("continue_statement", When::HasChild(&["identifier"])),
        stmt_when(
            "expression_statement",
            When::ParentNotIn(&["for_statement"]),
        ),
        stmt_when(
            "local_variable_declaration",
            When::Init(&["variable_declarator"], "value", &["for_statement"]),
        ),
        stmt("return_statement"),
        stmt("throw_statement"),
        stmt("break_statement"),
        stmt("continue_statement"),
        stmt("yield_statement"),
        stmt("assert_statement"),
        stmt("explicit_constructor_invocation"),
        stmt("synchronized_statement"),
    ],
    booleans: Booleans {
        binary_kinds: &["binary_expression"],
        operator_field: "operator",
        operand_fields: ("left", "right"),
        operators: &["&&", "||"],
        paren_kinds: &["parenthesized_expression"],
    },
    calls: &[CallRule {
        kind: "method_invocation",
        callee_field: "name",
        receiver_field: Some("object"),
    }],
    members: &[],
    name_kinds: &["identifier"],
    self_names: &["this"],
    receiver: None,
    statement_lists: &[],
    clause_kinds: &[],
    halstead: HalsteadClasses {
        atomic_operands: &["string_literal", "character_literal"],
        leaf_operators: &["void_type", "boolean_type"],
        ignored: CLOSERS,
        interpolations: &[],
    },
    declarative: None,
    expression_bodies: &[ExprBody {
        kind: "lambda_expression",
        body_field: "body",
        block_kinds: &["block"],
        skip_root: false,
    }],
};

const JAVA_ELSE: ElseBranch = ElseBranch {
    field: "alternative",
    unless: &["if_statement"],
};

const C_HEADERS: &[&str] = &["for_statement", "for_range_loop", "condition_clause"];

/// C (tree-sitter-c 0.24.2) and C++ (tree-sitter-cpp 0.23.4).
pub static C_CPP: CanonRules = CanonRules {
    rules: &[
        else_if(
            "if_statement",
            When::ParentIn(&["else_clause"]),
            &["consequence"],
        ),
        if_rule("if_statement", &["alternative"]),
        Rule::base("else_clause").with_when(When::HasChild(&["if_statement"])),
        else_node("else_clause", When::Always),
        lp("for_statement"),
        lp("for_range_loop"),
        lp("while_statement"),
        lp("do_statement"),
        structural("switch_statement", 0, 1),
        stmt_when("case_statement", When::HasChild(&["default"])),
        decision("case_statement", When::Always, 1),
        stmt("try_statement"),
        structural("catch_clause", 1, 1),
        structural("conditional_expression", 1, 0),
        tok("&&", When::ParentIn(&["binary_expression"])),
        tok("||", When::ParentIn(&["binary_expression"])),
        tok("and", When::ParentIn(&["binary_expression"])),
        tok("or", When::ParentIn(&["binary_expression"])),
        lambda("lambda_expression"),
        jump("goto_statement", When::Always),
        stmt_when("expression_statement", When::ParentNotIn(C_HEADERS)),
        stmt_when(
            "declaration",
            When::Init(&["init_declarator"], "value", C_HEADERS),
        ),
        stmt("return_statement"),
        stmt("break_statement"),
        stmt("continue_statement"),
        stmt("throw_statement"),
        stmt("co_return_statement"),
    ],
    booleans: Booleans {
        binary_kinds: &["binary_expression"],
        operator_field: "operator",
        operand_fields: ("left", "right"),
        operators: &["&&", "||", "and", "or"],
        paren_kinds: &["parenthesized_expression"],
    },
    calls: &[CallRule {
        kind: "call_expression",
        callee_field: "function",
        receiver_field: None,
    }],
    members: &[Member {
        kind: "field_expression",
        object_field: "argument",
        property_field: "field",
    }],
    name_kinds: &["identifier"],
    self_names: &["this"],
    receiver: None,
    statement_lists: &[],
    clause_kinds: &[],
    halstead: HalsteadClasses {
        atomic_operands: &[
            "string_literal",
            "char_literal",
            "raw_string_literal",
            "system_lib_string",
            "concatenated_string",
        ],
        leaf_operators: &["primitive_type"],
        ignored: CLOSERS,
        interpolations: &[],
    },
    declarative: None,
    expression_bodies: &[],
};
