//! The functions rust-code-analysis 0.0.25 reports (its function spaces) for
//! Rust, JavaScript, TypeScript, TSX, Java and C.

use codethread_lang::Lang;

use crate::functions::{DeclaratorNaming, FunctionSet, Kinds, Naming, Nesting};

static RCA_ALL: Nesting = Nesting {
    cyclomatic: true,
    cognitive: true,
    halstead: true,
    lloc: true,
};

pub static RUST: FunctionSet = FunctionSet {
    node_kinds: &["function_item", "closure_expression"],
    naming: Naming::Rca { from_parent: &[] },
    kinds: Kinds::ByNode(&[]),
    nesting: RCA_ALL,
    require_body: false,
    bodiless: false,
    grammar: None,
};

const JS_KINDS: &[&str] = &[
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
];

pub static JS: FunctionSet = FunctionSet {
    node_kinds: JS_KINDS,
    naming: Naming::Rca {
        from_parent: &[("pair", "key"), ("variable_declarator", "name")],
    },
    kinds: Kinds::ByNode(&[]),
    nesting: RCA_ALL,
    require_body: false,
    bodiless: false,
    grammar: None,
};

pub static TS: FunctionSet = FunctionSet {
    node_kinds: JS_KINDS,
    naming: Naming::Rca { from_parent: &[] },
    kinds: Kinds::ByNode(&[]),
    nesting: RCA_ALL,
    require_body: false,
    bodiless: false,
    grammar: None,
};

// rust-code-analysis 0.0.25, Java: method and constructor declarations are
// function spaces (bodiless ones too); lambdas are not.
pub static JAVA_RCA: FunctionSet = FunctionSet {
    node_kinds: &["method_declaration", "constructor_declaration"],
    naming: Naming::Rca { from_parent: &[] },
    kinds: Kinds::ByNode(&[]),
    nesting: RCA_ALL,
    require_body: false,
    bodiless: true,
    grammar: None,
};

// rust-code-analysis 0.0.25, C: `.c` and `.h` go to its `Cpp` language
// (a C++ grammar); function definitions are the function spaces.
pub static C_RCA: FunctionSet = FunctionSet {
    node_kinds: &["function_definition"],
    naming: Naming::RcaDeclarator(&DeclaratorNaming {
        field: "declarator",
        function_declarators: &["function_declarator"],
        name_kinds: &[
            "type_identifier",
            "identifier",
            "field_identifier",
            "destructor_name",
            "operator_name",
            "template_function",
            "template_method",
        ],
        operator_cast: "operator_cast",
    }),
    kinds: Kinds::ByNode(&[]),
    nesting: RCA_ALL,
    require_body: false,
    bodiless: false,
    grammar: Some(Lang::Cpp),
};
