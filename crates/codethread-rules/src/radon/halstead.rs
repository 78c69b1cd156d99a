//! Python, profile `paper`: radon 6.0.1 `h_visit` on the function's own source.
//!
//! Operators are only AST operator nodes: `BinOp`, `UnaryOp`, `BoolOp` (one
//! per chain, whatever its arity), `AugAssign` and each comparison operator of
//! a `Compare`; they are keyed by the AST operator class name (`Add`, `USub`,
//! `And`, `NotIn`, ...), so `a + b` and `a += b` share `Add`. Operands are the
//! operator's direct children: a name by its identifier, an attribute by its
//! attribute name, a constant by its Python value (so `1 == 1.0 == True` and a
//! string `'x'` equals the name `x`), any other expression as a new distinct
//! operand. Operands are keyed together with the innermost enclosing `def`'s
//! name. A `def` contributes only its body (not decorators, defaults or
//! annotations); lambdas and classes are visited whole.

use crate::halstead::{AstFields, AstOpRules, HalsteadRules, KeywordConst, Mode};

pub static PAPER: HalsteadRules = HalsteadRules {
    null_for: &[],
    mode: Mode::AstOps(&AST),
};

static AST: AstOpRules = AstOpRules {
    fields: AstFields {
        name: "name",
        body: "body",
        definition: "definition",
        operator: "operator",
        left: "left",
        right: "right",
        argument: "argument",
        operators: "operators",
    },
    function_kinds: &["function_definition"],
    decorated_kind: "decorated_definition",
    decorator_kind: "decorator",
    binary_kinds: &["binary_operator"],
    unary_kinds: &["unary_operator"],
    not_kind: "not_operator",
    not_name: "Not",
    bool_kind: "boolean_operator",
    compare_kind: "comparison_operator",
    augassign_kind: "augmented_assignment",
    paren_kind: "parenthesized_expression",
    // Annotations: tree-sitter has `type`, `union_type`, `member_type` where
    // Python's AST has plain expressions (`BinOp(BitOr)`, `Attribute`).
    wrapper_kinds: &["type"],
    union_kinds: &[("union_type", "BitOr")],
    member_kinds: &["member_type"],
    pattern_kinds: &[
        "case_pattern",
        "union_pattern",
        "dict_pattern",
        "list_pattern",
        "tuple_pattern",
        "keyword_pattern",
        "class_pattern",
        "as_pattern",
    ],
    complex_pattern_kind: "complex_pattern",
    chevron: ("chevron", "print"),
    binary_ops: &[
        ("+", "Add"),
        ("-", "Sub"),
        ("*", "Mult"),
        ("/", "Div"),
        ("//", "FloorDiv"),
        ("%", "Mod"),
        ("**", "Pow"),
        ("@", "MatMult"),
        ("<<", "LShift"),
        (">>", "RShift"),
        ("|", "BitOr"),
        ("^", "BitXor"),
        ("&", "BitAnd"),
    ],
    unary_ops: &[("-", "USub"), ("+", "UAdd"), ("~", "Invert")],
    bool_ops: &[("and", "And"), ("or", "Or")],
    compare_ops: &[
        ("<", "Lt"),
        ("<=", "LtE"),
        ("==", "Eq"),
        ("!=", "NotEq"),
        ("<>", "NotEq"),
        (">", "Gt"),
        (">=", "GtE"),
        ("in", "In"),
        ("not in", "NotIn"),
        ("is", "Is"),
        ("is not", "IsNot"),
    ],
    name_kinds: &["identifier", "keyword_identifier"],
    attribute: ("attribute", "attribute"),
    int_kinds: &["integer"],
    float_kinds: &["float"],
    string_kinds: &["string"],
    concat_string_kinds: &["concatenated_string"],
    keyword_constants: &[
        ("true", KeywordConst::True),
        ("false", KeywordConst::False),
        ("none", KeywordConst::None),
        ("ellipsis", KeywordConst::Ellipsis),
    ],
};
