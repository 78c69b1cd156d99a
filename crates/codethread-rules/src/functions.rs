//! Which functions each paper tool reports, and how it names and classifies
//! them: the types (data read by `paper.rs`); the rows, one per (tool,
//! language), are in their tools' modules.

use codethread_lang::Lang;

/// How a record's `name` is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Naming {
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
pub struct DeclaratorNaming {
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
pub struct GoNaming {
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
pub enum Kinds {
    /// `closure` inside a function, `method` directly in a class, else
    /// `function` (the Python reference).
    PythonAst,
    /// By the function's node kind (`(node kind, record kind)`), else
    /// `function` (Go: `func_literal`, `method`; rust-code-analysis: always
    /// `function`).
    ByNode(&'static [(&'static str, crate::RecordKind)]),
}

/// The function set of a profile for a language.
#[derive(Debug, Clone, Copy)]
pub struct FunctionSet {
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

/// Which tree-sitter metric spans the profile includes for nested functions.
#[derive(Debug, Clone, Copy)]
pub struct Nesting {
    /// The metric's value of a function includes its nested functions, so
    /// file totals sum only outermost records.
    pub cyclomatic: bool,
    /// As `cyclomatic`, for cognitive.
    pub cognitive: bool,
    /// As `cyclomatic`, for Halstead.
    pub halstead: bool,
    /// As `cyclomatic`, for LLOC.
    pub lloc: bool,
}
