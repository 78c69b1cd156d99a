//! complexipy 8.3.0: cognitive complexity for Python.

use crate::cognitive::{
    route, BoolMode, CogRules, Inc, NodeRule, Recursion, Route, Scan, Sel, When,
};

use Scan::{Expr, Skip, Stmt};

const S: &[Scan] = &[Stmt];
const E: &[Scan] = &[Expr];

const fn stmt(kind: &'static str, routes: &'static [Route]) -> NodeRule {
    NodeRule {
        scans: S,
        routes,
        rest: Some(Skip),
        ..NodeRule::base(kind)
    }
}
const fn expr(kind: &'static str, routes: &'static [Route]) -> NodeRule {
    NodeRule {
        scans: E,
        routes,
        rest: Some(Skip),
        ..NodeRule::base(kind)
    }
}

const PY_DEFS: &[&str] = &["function_definition", "decorated_definition"];

/// complexipy 8.3.0 for Python.
pub static PYTHON_COMPLEXIPY: CogRules = CogRules {
    tool: "complexipy 8.3.0",
    start: Stmt,
    nodes: &[
        // --- statements -------------------------------------------------
        stmt("function_definition", &[route(Sel::Field("body"), Stmt, 0)]),
        stmt(
            "decorated_definition",
            &[route(Sel::Field("definition"), Stmt, 0)],
        ),
        stmt("class_definition", &[route(Sel::Field("body"), Stmt, 0)]),
        // A function body of exactly [def, return]: the def is scored at the
        // current nesting and the return is ignored.
        NodeRule {
            when: When::Shape {
                field: "body",
                parents: &["function_definition"],
                first: PY_DEFS,
                second: &["return_statement"],
            },
            ..stmt("block", &[route(Sel::Nth(0), Stmt, 0)])
        },
        // Defs directly in a function body are one level deeper.
        NodeRule {
            when: When::InField("body", &["function_definition"]),
            ..stmt(
                "block",
                &[
                    route(Sel::Kind("function_definition"), Stmt, 1),
                    route(Sel::Kind("decorated_definition"), Stmt, 1),
                    route(Sel::AnyNamed, Stmt, 0),
                ],
            )
        },
        // A class body contributes only its methods.
        NodeRule {
            when: When::InField("body", &["class_definition"]),
            ..stmt(
                "block",
                &[
                    route(Sel::Kind("function_definition"), Stmt, 0),
                    route(Sel::Kind("decorated_definition"), Stmt, 0),
                ],
            )
        },
        NodeRule {
            when: When::InField("body", &["match_statement"]),
            ..stmt("block", &[route(Sel::Kind("case_clause"), Stmt, 1)])
        },
        stmt("block", &[route(Sel::AnyNamed, Stmt, 0)]),
        stmt("expression_statement", &[route(Sel::AnyNamed, Expr, 0)]),
        stmt("return_statement", &[route(Sel::AnyNamed, Expr, 0)]),
        stmt("raise_statement", &[route(Sel::AnyNamed, Expr, 0)]),
        stmt("assert_statement", &[route(Sel::AnyNamed, Expr, 0)]),
        NodeRule {
            inc: Inc::Nesting,
            ..stmt(
                "if_statement",
                &[
                    route(Sel::Field("condition"), Expr, 0),
                    route(Sel::Field("consequence"), Stmt, 1),
                    route(Sel::Field("alternative"), Stmt, 0),
                ],
            )
        },
        NodeRule {
            inc: Inc::Flat(1),
            ..stmt(
                "elif_clause",
                &[
                    route(Sel::Field("condition"), Expr, 0),
                    route(Sel::Field("consequence"), Stmt, 1),
                ],
            )
        },
        NodeRule {
            inc: Inc::Flat(1),
            when: When::ParentIn(&["if_statement"]),
            ..stmt("else_clause", &[route(Sel::Field("body"), Stmt, 1)])
        },
        // A loop's or try's else: same nesting, no increment.
        stmt("else_clause", &[route(Sel::Field("body"), Stmt, 0)]),
        NodeRule {
            inc: Inc::Nesting,
            ..stmt(
                "for_statement",
                &[
                    route(Sel::Field("right"), Expr, 0),
                    route(Sel::Field("body"), Stmt, 1),
                    route(Sel::Field("alternative"), Stmt, 0),
                ],
            )
        },
        NodeRule {
            inc: Inc::Nesting,
            ..stmt(
                "while_statement",
                &[
                    route(Sel::Field("condition"), Expr, 0),
                    route(Sel::Field("body"), Stmt, 1),
                    route(Sel::Field("alternative"), Stmt, 0),
                ],
            )
        },
        stmt(
            "try_statement",
            &[
                route(Sel::Field("body"), Stmt, 0),
                route(Sel::Kind("except_clause"), Stmt, 0),
                route(Sel::Kind("except_group_clause"), Stmt, 0),
                route(Sel::Kind("else_clause"), Stmt, 0),
                route(Sel::Kind("finally_clause"), Stmt, 0),
            ],
        ),
        NodeRule {
            inc: Inc::Nesting,
            ..stmt("except_clause", &[route(Sel::Kind("block"), Stmt, 1)])
        },
        NodeRule {
            inc: Inc::Nesting,
            ..stmt("except_group_clause", &[route(Sel::Kind("block"), Stmt, 1)])
        },
        stmt("finally_clause", &[route(Sel::Kind("block"), Stmt, 0)]),
        stmt(
            "with_statement",
            &[
                route(Sel::Kind("with_clause"), Stmt, 0),
                route(Sel::Field("body"), Stmt, 0),
            ],
        ),
        stmt("with_clause", &[route(Sel::Kind("with_item"), Stmt, 0)]),
        stmt("with_item", &[route(Sel::Field("value"), Expr, 0)]),
        NodeRule {
            inc: Inc::Nesting,
            ..stmt("match_statement", &[route(Sel::Field("body"), Stmt, 0)])
        },
        stmt("case_clause", &[route(Sel::Field("consequence"), Stmt, 0)]),
        // --- expressions ------------------------------------------------
        // `with a as b`: the context expression is the pattern's first child.
        expr("as_pattern", &[route(Sel::Nth(0), Expr, 0)]),
        expr("assignment", &[route(Sel::Field("right"), Expr, 0)]),
        expr(
            "augmented_assignment",
            &[route(Sel::Field("right"), Expr, 0)],
        ),
        expr("parenthesized_expression", &[route(Sel::AnyNamed, Expr, 0)]),
        expr("expression_list", &[route(Sel::AnyNamed, Expr, 0)]),
        expr("tuple", &[route(Sel::AnyNamed, Expr, 0)]),
        expr("list", &[route(Sel::AnyNamed, Expr, 0)]),
        expr("set", &[route(Sel::AnyNamed, Expr, 0)]),
        expr(
            "dictionary",
            &[
                route(Sel::Kind("pair"), Expr, 0),
                route(Sel::Kind("dictionary_splat"), Expr, 0),
            ],
        ),
        expr("dictionary_splat", &[route(Sel::AnyNamed, Expr, 0)]),
        NodeRule {
            when: When::ParentIn(&["dictionary"]),
            ..expr("pair", &[route(Sel::Field("value"), Expr, 0)])
        },
        expr("comparison_operator", &[route(Sel::AnyNamed, Expr, 0)]),
        expr("call", &[route(Sel::Field("arguments"), Expr, 0)]),
        expr(
            "argument_list",
            &[
                route(Sel::Kind("keyword_argument"), Skip, 0),
                route(Sel::Kind("list_splat"), Skip, 0),
                route(Sel::Kind("dictionary_splat"), Skip, 0),
                route(Sel::AnyNamed, Expr, 0),
            ],
        ),
        NodeRule {
            inc: Inc::Nesting,
            ..expr(
                "conditional_expression",
                &[
                    route(Sel::Nth(0), Expr, 1),
                    route(Sel::Nth(1), Expr, 0),
                    route(Sel::Nth(2), Expr, 1),
                ],
            )
        },
        expr("lambda", &[route(Sel::Field("body"), Expr, 1)]),
        // Comprehensions: each `for` +1+nesting (its iterable at the same
        // nesting), each `if` +1 (its test one deeper), elements one deeper.
        expr(
            "list_comprehension",
            &[
                route(Sel::Field("body"), Expr, 1),
                route(Sel::Kind("for_in_clause"), Expr, 0),
                route(Sel::Kind("if_clause"), Expr, 0),
            ],
        ),
        expr(
            "set_comprehension",
            &[
                route(Sel::Field("body"), Expr, 1),
                route(Sel::Kind("for_in_clause"), Expr, 0),
                route(Sel::Kind("if_clause"), Expr, 0),
            ],
        ),
        expr(
            "generator_expression",
            &[
                route(Sel::Field("body"), Expr, 1),
                route(Sel::Kind("for_in_clause"), Expr, 0),
                route(Sel::Kind("if_clause"), Expr, 0),
            ],
        ),
        expr(
            "dictionary_comprehension",
            &[
                route(Sel::Field("body"), Expr, 1),
                route(Sel::Kind("for_in_clause"), Expr, 0),
                route(Sel::Kind("if_clause"), Expr, 0),
            ],
        ),
        NodeRule {
            when: When::ParentIn(&["dictionary_comprehension"]),
            ..expr(
                "pair",
                &[
                    route(Sel::Field("key"), Expr, 0),
                    route(Sel::Field("value"), Expr, 0),
                ],
            )
        },
        NodeRule {
            inc: Inc::Nesting,
            ..expr("for_in_clause", &[route(Sel::Field("right"), Expr, 0)])
        },
        NodeRule {
            inc: Inc::Flat(1),
            ..expr("if_clause", &[route(Sel::AnyNamed, Expr, 1)])
        },
    ],
    booleans: BoolMode::Complexipy {
        bool_kind: "boolean_operator",
        operator_field: "operator",
        unary_kinds: &["not_operator"],
        operand_field: "argument",
        paren_kind: "parenthesized_expression",
    },
    spaces: &[],
    recursion: Recursion::Once {
        call_kind: "call",
        function_field: "function",
        ident_kind: "identifier",
        skip: &[
            "function_definition",
            "class_definition",
            "decorated_definition",
            "lambda",
        ],
    },
    null_kinds: &[],
    null_inside: &["function_definition"],
    context_nesting: false,
};
