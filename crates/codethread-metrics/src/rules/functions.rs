//! Which functions each profile reports, and how it names and classifies
//! them, per language (data read by `engine.rs`).

use codethread_lang::Lang;

use crate::Profile;

/// How a record's `name` is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// radon: `Class.method` for methods, the bare name otherwise
    /// (closures too).
    Radon,
    /// Go: gocognit's `(*T).M` for declarations; lizard's variable name or
    /// `anonymous__N` (a per-file counter) for func literals.
    GoTools,
    /// rust-code-analysis (JavaScript): the `name` field's text, else the key
    /// of an enclosing `pair` or the name of an enclosing
    /// `variable_declarator`, else `<anonymous>`.
    Rca,
    /// rust-code-analysis (Rust, TypeScript, TSX): the `name` field's text,
    /// else `<anonymous>` (no names borrowed from parents).
    RcaOwn,
}

/// How a record's `kind` is formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kinds {
    /// `closure` inside a function, `method` directly in a class, else
    /// `function` (the Python reference).
    PythonAst,
    /// `func_literal`, `method` (with a receiver) or `function`.
    Go,
    /// Always `function` (rust-code-analysis function spaces).
    Function,
}

/// Which tree-sitter metric spans the profile includes for nested functions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Nesting {
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
    /// Skip functions without a body (Go assembly stubs: the reference has
    /// no record for them; lizard merges them with the next declarations).
    pub require_body: bool,
}

static PYTHON: FunctionSet = FunctionSet {
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
};

static GO: FunctionSet = FunctionSet {
    node_kinds: &["function_declaration", "method_declaration", "func_literal"],
    naming: Naming::GoTools,
    kinds: Kinds::Go,
    // lizard reports literals separately; gocognit and go-halstead fold them.
    nesting: Nesting {
        cyclomatic: false,
        cognitive: true,
        halstead: true,
        lloc: false,
    },
    require_body: true,
};

static RCA_ALL: Nesting = Nesting {
    cyclomatic: true,
    cognitive: true,
    halstead: true,
    lloc: true,
};

static RUST: FunctionSet = FunctionSet {
    node_kinds: &["function_item", "closure_expression"],
    naming: Naming::RcaOwn,
    kinds: Kinds::Function,
    nesting: RCA_ALL,
    require_body: false,
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

static JS: FunctionSet = FunctionSet {
    node_kinds: JS_KINDS,
    naming: Naming::Rca,
    kinds: Kinds::Function,
    nesting: RCA_ALL,
    require_body: false,
};

static TS: FunctionSet = FunctionSet {
    node_kinds: JS_KINDS,
    naming: Naming::RcaOwn,
    kinds: Kinds::Function,
    nesting: RCA_ALL,
    require_body: false,
};

/// The function set of `profile` for `lang`.
pub(crate) fn function_set(profile: Profile, lang: Lang) -> &'static FunctionSet {
    match (profile, lang) {
        (Profile::Paper, Lang::Python) => &PYTHON,
        (Profile::Paper, Lang::Go) => &GO,
        (Profile::Paper, Lang::Rust) => &RUST,
        (Profile::Paper, Lang::JavaScript) => &JS,
        (Profile::Paper, Lang::TypeScript | Lang::Tsx) => &TS,
    }
}
