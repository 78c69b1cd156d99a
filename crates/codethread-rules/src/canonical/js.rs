//! Canonical table of JavaScript, TypeScript and TSX.

use super::*;

/// Values that are functions, for [`Declarative::bindings`].
const FUNCTION_VALUES: &[&str] = &[
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
];

const FOR_HEADERS: &[&str] = &["for_statement", "for_in_statement"];

/// JavaScript (tree-sitter-javascript 0.25.0), TypeScript and TSX
/// (tree-sitter-typescript 0.23.2).
pub static JS: CanonRules = CanonRules {
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
        lp("for_in_statement"),
        lp("while_statement"),
        lp("do_statement"),
        structural("switch_statement", 0, 1),
        decision("switch_case", When::Always, 1),
        stmt("switch_default"),
        stmt("try_statement"),
        structural("catch_clause", 1, 1),
        structural("ternary_expression", 1, 0),
        tok("&&", When::ParentIn(&["binary_expression"])),
        tok("||", When::ParentIn(&["binary_expression"])),
        tok("??", When::ParentIn(&["binary_expression"])),
        decision(
            "&&=",
            When::ParentIn(&["augmented_assignment_expression"]),
            0,
        ),
        decision(
            "||=",
            When::ParentIn(&["augmented_assignment_expression"]),
            0,
        ),
        decision(
            "??=",
            When::ParentIn(&["augmented_assignment_expression"]),
            0,
        ),
        lambda("arrow_function"),
        lambda("function_expression"),
        lambda("function"),
        lambda("generator_function"),
        jump("break_statement", When::HasField("label")),
        jump("continue_statement", When::HasField("label")),
        stmt_when("expression_statement", When::ParentNotIn(FOR_HEADERS)),
        stmt_when(
            "lexical_declaration",
            When::Init(&["variable_declarator"], "value", FOR_HEADERS),
        ),
        stmt_when(
            "variable_declaration",
            When::Init(&["variable_declarator"], "value", FOR_HEADERS),
        ),
        stmt("return_statement"),
        stmt("throw_statement"),
        stmt("break_statement"),
        stmt("continue_statement"),
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
        kind: "member_expression",
        object_field: "object",
        property_field: "property",
    }],
    name_kinds: &["identifier"],
    self_names: &["this"],
    receiver: None,
    statement_lists: &[],
    clause_kinds: &[],
    halstead: HalsteadClasses {
        atomic_operands: &["string", "regex"],
        leaf_operators: &["predefined_type"],
        ignored: CLOSERS,
        interpolations: &[],
    },
    // Appendix A: a declarative outer function (no structure at its top
    // level, as functions used as namespaces or classes) does not nest the
    // functions defined in it.
    declarative: Some(Declarative {
        body_field: "body",
        functions: &["function_declaration", "generator_function_declaration"],
        bindings: &[
            Binding {
                statement: "expression_statement",
                binder: "assignment_expression",
                value_field: "right",
                values: FUNCTION_VALUES,
            },
            Binding {
                statement: "lexical_declaration",
                binder: "variable_declarator",
                value_field: "value",
                values: FUNCTION_VALUES,
            },
            Binding {
                statement: "variable_declaration",
                binder: "variable_declarator",
                value_field: "value",
                values: FUNCTION_VALUES,
            },
        ],
        max_functions: u32::MAX,
        others: None,
        docstring: None,
    }),
    expression_bodies: &[ExprBody {
        kind: "arrow_function",
        body_field: "body",
        block_kinds: &["statement_block"],
        skip_root: false,
    }],
};
