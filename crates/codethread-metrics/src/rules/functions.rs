//! Which functions each paper tool reports, and how it names and classifies
//! them, per language (data read by `paper.rs`).

use codethread_lang::Lang;

pub(crate) use crate::model::Nesting;

/// How a record's `name` is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// radon: the `name` field's text, prefixed with `Class.` for methods
    /// (closures keep the bare name).
    Radon,
    /// rust-code-analysis: the `name` field's text, else the field
    /// `.1` of an enclosing node of kind `.0` (JavaScript: a `pair`'s key, a
    /// `variable_declarator`'s name; none for Rust and TypeScript), else
    /// `<anonymous>`.
    Rca {
        /// `(parent kind, field)` pairs a name is borrowed from.
        from_parent: &'static [(&'static str, &'static str)],
    },
    /// Go: gocognit's `(*T).M` for declarations; lizard's variable name or
    /// `anonymous__N` (a per-file counter) for func literals.
    GoTools(&'static GoNaming),
    /// rust-code-analysis for C/C++: the name is read from the declarator.
    RcaDeclarator(&'static DeclaratorNaming),
}

/// rust-code-analysis's C/C++ function name: the text of an operator-cast
/// child if there is one; else, in the `field` child (the declarator), the
/// first function declarator in pre-order, and the text of its first child
/// when that child has one of `name_kinds`; otherwise no name (`""`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeclaratorNaming {
    /// The function node's declarator field.
    pub field: &'static str,
    /// Function declarator kinds.
    pub function_declarators: &'static [&'static str],
    /// Kinds of a function declarator's first child that name it.
    pub name_kinds: &'static [&'static str],
    /// Operator-cast kind (a conversion operator is named by its text).
    pub operator_cast: &'static str,
}

/// The Go syntax the Go tools' names are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GoNaming {
    /// Func literal kind (named after a variable, or `anonymous__N`).
    pub literal: &'static str,
    /// `var x [T] = func…`: the literal's parent kind, grandparent kind, and
    /// the grandparent's name field.
    pub var_parent: &'static str,
    /// See `var_parent`.
    pub var_spec: &'static str,
    /// Receiver field of a method and the kind of its parameter.
    pub receiver_field: &'static str,
    /// See `receiver_field`.
    pub receiver_param: &'static str,
    /// The parameter's type field (also the base type of a generic type).
    pub type_field: &'static str,
    /// Pointer type kind (adds `*`; its first named child is the pointee).
    pub pointer: &'static str,
    /// Generic type kind (type arguments dropped).
    pub generic: &'static str,
    /// Type name kind; anything else is gocognit's `BADRECV`.
    pub type_name: &'static str,
}

/// How a record's `kind` is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kinds {
    /// `closure` inside a function, `method` directly in a class, else
    /// `function` (the Python reference).
    PythonAst,
    /// By the function's node kind (`(node kind, record kind)`), else
    /// `function` (Go: `func_literal`, `method`; rust-code-analysis: always
    /// `function`).
    ByNode(&'static [(&'static str, &'static str)]),
}

/// The function set of a profile for a language.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FunctionSet {
    /// tree-sitter node kinds reported as functions.
    pub node_kinds: &'static [&'static str],
    /// Naming convention.
    pub naming: Naming,
    /// Kind convention.
    pub kinds: Kinds,
    /// Which metric values include nested functions.
    pub nesting: Nesting,
    /// List bodiless declarations too (rust-code-analysis reports Java
    /// abstract and interface methods; `codethread_lang::IndexOptions`).
    pub bodiless: bool,
    /// Skip functions without a body (Go assembly stubs: the reference has
    /// no record for them; lizard merges them with the next declarations).
    pub require_body: bool,
    /// The grammar the profile's tool parses this language with, when it is
    /// another language's (rust-code-analysis reads C with its C++ grammar);
    /// `None`: the language's own. The records keep the file's language.
    pub grammar: Option<Lang>,
}

pub(crate) static PYTHON: FunctionSet = FunctionSet {
    node_kinds: &["function_definition"],
    naming: Naming::Radon,
    kinds: Kinds::PythonAst,
    // radon CC excludes closures; complexipy folds them; the span metrics
    // (Halstead, LLOC) cover the nested defs' lines.
    nesting: Nesting {
        cyclomatic: false,
        cognitive: true,
        halstead: true,
        lloc: true,
    },
    require_body: false,
    bodiless: false,
    grammar: None,
};

pub(crate) static GO: FunctionSet = FunctionSet {
    node_kinds: &["function_declaration", "method_declaration", "func_literal"],
    naming: Naming::GoTools(&GoNaming {
        literal: "func_literal",
        var_parent: "expression_list",
        var_spec: "var_spec",
        receiver_field: "receiver",
        receiver_param: "parameter_declaration",
        type_field: "type",
        pointer: "pointer_type",
        generic: "generic_type",
        type_name: "type_identifier",
    }),
    kinds: Kinds::ByNode(&[
        ("func_literal", "func_literal"),
        ("method_declaration", "method"),
    ]),
    // lizard reports literals separately; gocognit and go-halstead fold them.
    nesting: Nesting {
        cyclomatic: false,
        cognitive: true,
        halstead: true,
        lloc: false,
    },
    require_body: true,
    bodiless: false,
    grammar: None,
};

static RCA_ALL: Nesting = Nesting {
    cyclomatic: true,
    cognitive: true,
    halstead: true,
    lloc: true,
};

pub(crate) static RUST: FunctionSet = FunctionSet {
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

pub(crate) static JS: FunctionSet = FunctionSet {
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

pub(crate) static TS: FunctionSet = FunctionSet {
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
pub(crate) static JAVA_RCA: FunctionSet = FunctionSet {
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
pub(crate) static C_RCA: FunctionSet = FunctionSet {
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
