//! Cognitive-complexity rule tables, one per (profile, language).
//!
//! The walker in [`crate::cognitive()`] is language-agnostic. It visits nodes in
//! pre-order with an explicit stack; every node carries a *scan mode* (see
//! [`Scan`]) and nesting counters inherited from its parent. A table says, per
//! node kind (and context):
//! - the increment ([`Inc`]): none, flat `+k`, or structural `+1 + nesting`;
//! - how its children are visited ([`Route`]): in which scan mode and whether
//!   they are one nesting level deeper;
//! - function-nesting effects ([`FnNest`]) for nested functions and closures;
//! - and, globally, how boolean operators are counted ([`BoolMode`]), whether
//!   direct recursion counts ([`Recursion`]) and which functions get no value.

pub use super::when::When;

/// How a node's subtree is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// Every node counts (rust-code-analysis, gocognit).
    All,
    /// Statement context (complexipy): only kinds with a rule count; unknown
    /// kinds are not entered.
    Stmt,
    /// Expression context (complexipy): only kinds with a rule are entered;
    /// boolean operators count here.
    Expr,
    /// Not visited.
    Skip,
}

/// Which children a [`Route`] applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sel {
    /// The child in this field.
    Field(&'static str),
    /// Children of this kind.
    Kind(&'static str),
    /// The n-th named child (0-based).
    Nth(usize),
    /// Any named child.
    AnyNamed,
}

/// How to visit the children selected by `sel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// Selected children.
    pub sel: Sel,
    /// Their scan mode.
    pub scan: Scan,
    /// Extra nesting for them (0 or 1).
    pub nest: u32,
}

/// Shorthand constructor for [`Route`].
pub const fn route(sel: Sel, scan: Scan, nest: u32) -> Route {
    Route { sel, scan, nest }
}

/// The increment a node contributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inc {
    /// Nothing.
    None,
    /// A fixed amount (else, elif, labelled jump).
    Flat(u32),
    /// `1 + nesting` (structural increment).
    Nesting,
}

/// Function-nesting effects of a nested function or closure node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FnNest {
    /// Reset the structural nesting counter to 0.
    pub reset_nesting: bool,
    /// Reset the closure counter to 0.
    pub reset_lambda: bool,
    /// Add 1 to the closure counter.
    pub lambda: bool,
    /// Add 1 to the function-depth counter when an ancestor has one of these kinds.
    pub depth_if_ancestor: &'static [&'static str],
}

/// The rule for one node kind in one context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeRule {
    /// tree-sitter node kind.
    pub kind: &'static str,
    /// Scan modes in which the rule applies (empty = any).
    pub scans: &'static [Scan],
    /// Context condition.
    pub when: When,
    /// Increment.
    pub inc: Inc,
    /// Child routes (first match wins); unmatched children use `rest`.
    pub routes: &'static [Route],
    /// Scan mode of unmatched children; `None` = same as the node's.
    pub rest: Option<Scan>,
    /// Extra nesting for unmatched children.
    pub rest_nest: u32,
    /// Function-nesting effects.
    pub fn_nest: Option<FnNest>,
    /// Reset the boolean-operator sequence here (rust-code-analysis).
    pub bool_reset: bool,
}

impl NodeRule {
    /// A rule with no effect that keeps the scan mode for all children.
    pub const fn base(kind: &'static str) -> NodeRule {
        NodeRule {
            kind,
            scans: &[],
            when: When::Always,
            inc: Inc::None,
            routes: &[],
            rest: None,
            rest_nest: 0,
            fn_nest: None,
            bool_reset: false,
        }
    }
}

/// How boolean operators are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolMode {
    /// Not counted (rust-code-analysis 0.0.25 for Java, which has no
    /// cognitive rules).
    None,
    /// rust-code-analysis: per function space, the first `&&`/`||` token of a
    /// sequence adds 1 and becomes the sequence's operator; any later operator
    /// different from it adds 1. A unary expression sets the sequence operator
    /// to itself. Sequences reset at structural increments and `reset_kinds`.
    RcaSequence {
        /// Nodes whose direct operator children are looked at.
        binary_kinds: &'static [&'static str],
        /// Boolean operator tokens.
        operators: &'static [&'static str],
        /// Unary nodes ("not" in rust-code-analysis's terms).
        unary_kinds: &'static [&'static str],
        /// Nodes that reset the sequence.
        reset_kinds: &'static [&'static str],
    },
    /// gocognit: the in-order logical operators of a maximal binary-expression
    /// tree (parentheses break it) add 1 each time the operator changes.
    Chain {
        /// Binary expression kind.
        binary_kind: &'static str,
        /// Field holding the operator.
        operator_field: &'static str,
        /// Logical operators.
        operators: &'static [&'static str],
    },
    /// complexipy: a boolean-operator expression adds 1, plus 1 for every
    /// nested operand with a different operator, walked the way complexipy's
    /// `count_different_childs_type` walks it (unary operators included).
    Complexipy {
        /// Boolean operator kind (`a and b`).
        bool_kind: &'static str,
        /// Field holding the operator token.
        operator_field: &'static str,
        /// Unary operator kinds (`not x`, `-x`).
        unary_kinds: &'static [&'static str],
        /// Field holding a unary operator's operand.
        operand_field: &'static str,
        /// Parentheses (transparent).
        paren_kind: &'static str,
    },
}

/// Direct-recursion increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recursion {
    /// None.
    None,
    /// +1 when at least one call of the function by its bare name exists
    /// (complexipy); `skip` subtrees are not searched.
    Once {
        /// Call node kind.
        call_kind: &'static str,
        /// Field of the callee.
        function_field: &'static str,
        /// Bare-name kind.
        ident_kind: &'static str,
        /// Not searched.
        skip: &'static [&'static str],
    },
    /// +1 per call by bare name (gocognit). For `method_kinds` the call counts
    /// only when no top-level declaration of that name exists in the file
    /// (gocognit compares resolved objects, and method names resolve to none).
    Each {
        /// Call node kind.
        call_kind: &'static str,
        /// Field of the callee.
        function_field: &'static str,
        /// Bare-name kind.
        ident_kind: &'static str,
        /// Method declaration kinds.
        method_kinds: &'static [&'static str],
        /// Top-level declaration kinds and the kinds of their name-bearing specs.
        toplevel_decls: &'static [&'static str],
        /// Local declarations `(kind, field)` inside the function: a name
        /// declared there (directly or in a list) shadows the function, so a
        /// bare call of it is not recursion (go/parser resolves it locally).
        shadowing: &'static [(&'static str, &'static str)],
    },
}

/// The cognitive rules of one tool for one language.
#[derive(Debug, Clone, Copy)]
pub struct CogRules {
    /// The tool reproduced (documentation; read by tests and callers).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// Scan mode of the function node itself.
    pub start: Scan,
    /// Node rules (first matching rule per node wins).
    pub nodes: &'static [NodeRule],
    /// Boolean operators.
    pub booleans: BoolMode,
    /// Named kinds that open a new boolean-sequence scope (rust-code-analysis spaces).
    pub spaces: &'static [&'static str],
    /// Direct recursion.
    pub recursion: Recursion,
    /// The tool gives no value for functions of these kinds.
    pub null_kinds: &'static [&'static str],
    /// The tool gives no value for functions nested in one of these kinds.
    pub null_inside: &'static [&'static str],
    /// Nesting is computed from the file root (rust-code-analysis keeps one
    /// nesting map per file, so a closure's own value depends on its context).
    pub context_nesting: bool,
}

impl CogRules {
    /// No node rule, boolean rule or recursion rule: every function's value
    /// is 0 whatever its subtree holds.
    pub fn counts_nothing(&self) -> bool {
        self.nodes.is_empty()
            && matches!(self.booleans, BoolMode::None)
            && matches!(self.recursion, Recursion::None)
    }
}

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

const fn all(kind: &'static str) -> NodeRule {
    NodeRule::base(kind)
}

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
