//! gocognit 1.2.0: cognitive complexity for Go.

use crate::cognitive::{all, route, BoolMode, CogRules, Inc, NodeRule, Recursion, Scan, Sel, When};

/// gocognit 1.2.0 for Go.
pub static GO_GOCOGNIT: CogRules = CogRules {
    tool: "gocognit 1.2.0",
    start: Scan::All,
    nodes: &[
        // `else if`: +1, no nesting increment; its body is one deeper.
        NodeRule {
            when: When::InField("alternative", &["if_statement"]),
            inc: Inc::Flat(1),
            routes: &[route(Sel::Field("consequence"), Scan::All, 1)],
            ..all("if_statement")
        },
        NodeRule {
            inc: Inc::Nesting,
            routes: &[route(Sel::Field("consequence"), Scan::All, 1)],
            ..all("if_statement")
        },
        // Plain `else`: +1 and (gocognit 1.2.0 bug) no nesting increment.
        NodeRule {
            when: When::InField("alternative", &["if_statement"]),
            inc: Inc::Flat(1),
            ..all("block")
        },
        NodeRule {
            inc: Inc::Nesting,
            routes: &[route(Sel::Field("body"), Scan::All, 1)],
            ..all("for_statement")
        },
        NodeRule {
            inc: Inc::Nesting,
            routes: &[
                route(Sel::Kind("expression_case"), Scan::All, 1),
                route(Sel::Kind("default_case"), Scan::All, 1),
            ],
            ..all("expression_switch_statement")
        },
        NodeRule {
            inc: Inc::Nesting,
            routes: &[
                route(Sel::Kind("type_case"), Scan::All, 1),
                route(Sel::Kind("default_case"), Scan::All, 1),
            ],
            ..all("type_switch_statement")
        },
        NodeRule {
            inc: Inc::Nesting,
            routes: &[
                route(Sel::Kind("communication_case"), Scan::All, 1),
                route(Sel::Kind("default_case"), Scan::All, 1),
            ],
            ..all("select_statement")
        },
        NodeRule {
            routes: &[route(Sel::Field("body"), Scan::All, 1)],
            ..all("func_literal")
        },
        NodeRule {
            when: When::ChildAt(1, "label_name"),
            inc: Inc::Flat(1),
            ..all("break_statement")
        },
        NodeRule {
            when: When::ChildAt(1, "label_name"),
            inc: Inc::Flat(1),
            ..all("continue_statement")
        },
        NodeRule {
            inc: Inc::Flat(1),
            ..all("goto_statement")
        },
    ],
    booleans: BoolMode::Chain {
        binary_kind: "binary_expression",
        operator_field: "operator",
        operators: &["&&", "||"],
    },
    spaces: &[],
    recursion: Recursion::Each {
        call_kind: "call_expression",
        function_field: "function",
        ident_kind: "identifier",
        method_kinds: &["method_declaration"],
        toplevel_decls: &[
            "function_declaration",
            "var_spec",
            "const_spec",
            "type_spec",
            "type_alias",
        ],
        shadowing: &[
            ("parameter_declaration", "name"),
            ("variadic_parameter_declaration", "name"),
            ("short_var_declaration", "left"),
            ("var_spec", "name"),
            ("const_spec", "name"),
            ("range_clause", "left"),
            ("type_switch_statement", "alias"),
            ("receive_statement", "left"),
        ],
    },
    null_kinds: &["func_literal"],
    null_inside: &[],
    context_nesting: false,
};
