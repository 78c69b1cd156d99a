//! Per-language knowledge for the function index, as data.
//!
//! One [`LangSpec`] per grammar says which node kinds are functions, which are
//! naming scopes (classes, impls, modules, object literals), how anonymous
//! functions borrow a name from their parent (variable declarators, assignment
//! targets, object keys, class fields), and which wrapper nodes widen a
//! definition's span (decorators, `export`, `const x = ...;`). The generic
//! walker in `index.rs` reads these tables; it has no per-language branches.

use crate::Lang;

/// How a function node is recognized and read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FnRule {
    /// tree-sitter node kind.
    pub kind: &'static str,
    /// Field holding the function's own name, if the kind can carry one.
    pub name_field: Option<&'static str>,
    /// Field holding the body.
    pub body_field: &'static str,
    /// True for kinds that are anonymous unless a parent names them
    /// (lambdas, closures, arrows, function expressions, func literals).
    pub expression: bool,
    /// Always a method (Go `method_declaration`, JS `method_definition`).
    pub method: bool,
    /// Always a generator (JS `function*`).
    pub generator: bool,
}

/// What a scope node contributes to qualified names.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScopeRule {
    /// tree-sitter node kind.
    pub kind: &'static str,
    /// Field holding the scope's name (`None`: only a parent can name it).
    pub name_field: Option<&'static str>,
    /// Functions directly inside are methods.
    pub class_like: bool,
    /// Clean the name as a type (strip generics, references, `*`).
    pub type_name: bool,
    /// Field holding the implemented trait (Rust `impl Trait for Type`).
    pub trait_field: Option<&'static str>,
}

/// A parent node that names an anonymous child (function or object/class).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ParentName {
    /// Parent node kind.
    pub parent: &'static str,
    /// Field of the parent holding the name.
    pub field: &'static str,
    /// Field of the parent that must hold the child (the value side).
    pub value_field: &'static str,
    /// Makes the function a method (e.g. `X.prototype.m = function`).
    pub method_if_contains: Option<&'static str>,
    /// Makes the function a method when the parent is a member of an object or class.
    pub member: bool,
}

/// Per-language tables.
#[derive(Debug)]
pub(crate) struct LangSpec {
    pub functions: &'static [FnRule],
    pub scopes: &'static [ScopeRule],
    pub parent_names: &'static [ParentName],
    /// Parents that wrap a definition and widen its span (walked upward while
    /// the child is the wrapped definition): decorated_definition, export.
    pub span_wrappers: &'static [&'static str],
    /// Statement kinds that widen the span of a function named by a parent
    /// (`const x = () => {};` → the whole statement, through its declarator).
    pub statement_wrappers: &'static [&'static str],
    /// Decorator kinds among a span wrapper's children (recorded as the
    /// function's decorators).
    pub wrapper_decorators: &'static [&'static str],
    /// Child kinds that group a function's keyword tokens (Rust
    /// `function_modifiers` holding `async`): searched for the tokens too.
    pub modifier_groups: &'static [&'static str],
    /// Sibling kinds before a definition that belong to it (Rust attributes,
    /// TS decorators) and kinds that may sit between them (comments).
    pub leading_siblings: &'static [&'static str],
    pub between_siblings: &'static [&'static str],
    /// Child kinds at the start of a function node that are not part of its
    /// own "line" (decorators inside JS method definitions).
    pub leading_children: &'static [&'static str],
    /// Keyword tokens marking async / generator functions.
    pub async_tokens: &'static [&'static str],
    pub generator_tokens: &'static [&'static str],
    /// Node kinds that are yields (Python generators), and kinds that stop the
    /// search for them (nested functions and classes).
    pub yield_kinds: &'static [&'static str],
    pub yield_barriers: &'static [&'static str],
    /// Child kinds holding the receiver (Go).
    pub receiver_field: Option<&'static str>,
    /// Kinds whose `get`/`set` keyword child marks an accessor.
    pub accessor_tokens: &'static [&'static str],
    /// Node kind of a string literal used as a key (quotes are stripped).
    pub string_kinds: &'static [&'static str],
    /// Trailing children that do not end a definition (Python blocks swallow
    /// the comments after their last statement; `ast` does not).
    pub trailing_trim: &'static [&'static str],
    /// Item-level macro invocations whose `{ ... }` body is re-parsed in place
    /// as items (Rust `cfg_rt! { pub fn ... }`): (invocation kind, body kind,
    /// parent kinds where the invocation stands as an item).
    pub reparse_macros: Option<(&'static str, &'static str, &'static [&'static str])>,
}

const fn f(
    kind: &'static str,
    name_field: Option<&'static str>,
    body_field: &'static str,
) -> FnRule {
    FnRule {
        kind,
        name_field,
        body_field,
        expression: false,
        method: false,
        generator: false,
    }
}
const fn fx(kind: &'static str, body_field: &'static str) -> FnRule {
    FnRule {
        kind,
        name_field: None,
        body_field,
        expression: true,
        method: false,
        generator: false,
    }
}

static PYTHON: LangSpec = LangSpec {
    functions: &[
        f("function_definition", Some("name"), "body"),
        fx("lambda", "body"),
    ],
    scopes: &[ScopeRule {
        kind: "class_definition",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
    }],
    parent_names: &[],
    span_wrappers: &["decorated_definition"],
    statement_wrappers: &[],
    wrapper_decorators: &["decorator"],
    modifier_groups: &[],
    leading_siblings: &[],
    between_siblings: &[],
    leading_children: &[],
    async_tokens: &["async"],
    generator_tokens: &[],
    yield_kinds: &["yield"],
    yield_barriers: &["function_definition", "lambda", "class_definition"],
    receiver_field: None,
    accessor_tokens: &[],
    string_kinds: &["string"],
    trailing_trim: &["comment"],
    reparse_macros: None,
};

static GO: LangSpec = LangSpec {
    functions: &[
        f("function_declaration", Some("name"), "body"),
        FnRule {
            kind: "method_declaration",
            name_field: Some("name"),
            body_field: "body",
            expression: false,
            method: true,
            generator: false,
        },
        fx("func_literal", "body"),
    ],
    scopes: &[],
    parent_names: &[],
    span_wrappers: &[],
    statement_wrappers: &[],
    wrapper_decorators: &[],
    modifier_groups: &[],
    leading_siblings: &[],
    between_siblings: &[],
    leading_children: &[],
    async_tokens: &[],
    generator_tokens: &[],
    yield_kinds: &[],
    yield_barriers: &[],
    receiver_field: Some("receiver"),
    accessor_tokens: &[],
    string_kinds: &[],
    trailing_trim: &[],
    reparse_macros: None,
};

static RUST: LangSpec = LangSpec {
    functions: &[
        f("function_item", Some("name"), "body"),
        fx("closure_expression", "body"),
    ],
    scopes: &[
        ScopeRule {
            kind: "mod_item",
            name_field: Some("name"),
            class_like: false,
            type_name: false,
            trait_field: None,
        },
        ScopeRule {
            kind: "impl_item",
            name_field: Some("type"),
            class_like: true,
            type_name: true,
            trait_field: Some("trait"),
        },
        ScopeRule {
            kind: "trait_item",
            name_field: Some("name"),
            class_like: true,
            type_name: true,
            trait_field: None,
        },
    ],
    parent_names: &[],
    span_wrappers: &[],
    statement_wrappers: &[],
    wrapper_decorators: &[],
    modifier_groups: &["function_modifiers"],
    leading_siblings: &["attribute_item"],
    between_siblings: &["line_comment", "block_comment"],
    leading_children: &[],
    async_tokens: &["async"],
    generator_tokens: &[],
    yield_kinds: &[],
    yield_barriers: &[],
    receiver_field: None,
    accessor_tokens: &[],
    string_kinds: &[],
    trailing_trim: &[],
    reparse_macros: Some((
        "macro_invocation",
        "token_tree",
        &["source_file", "declaration_list"],
    )),
};

const JS_FUNCTIONS: &[FnRule] = &[
    f("function_declaration", Some("name"), "body"),
    FnRule {
        kind: "generator_function_declaration",
        name_field: Some("name"),
        body_field: "body",
        expression: false,
        method: false,
        generator: true,
    },
    FnRule {
        kind: "function_expression",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: false,
    },
    FnRule {
        kind: "function",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: false,
    },
    FnRule {
        kind: "generator_function",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: true,
    },
    fx("arrow_function", "body"),
    FnRule {
        kind: "method_definition",
        name_field: Some("name"),
        body_field: "body",
        expression: false,
        method: true,
        generator: false,
    },
];

const JS_SCOPES: &[ScopeRule] = &[
    ScopeRule {
        kind: "class_declaration",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
    },
    ScopeRule {
        kind: "abstract_class_declaration",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
    },
    ScopeRule {
        kind: "class",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
    },
    ScopeRule {
        kind: "object",
        name_field: None,
        class_like: true,
        type_name: false,
        trait_field: None,
    },
];

const JS_PARENT_NAMES: &[ParentName] = &[
    ParentName {
        parent: "variable_declarator",
        field: "name",
        value_field: "value",
        method_if_contains: None,
        member: false,
    },
    ParentName {
        parent: "assignment_expression",
        field: "left",
        value_field: "right",
        method_if_contains: Some(".prototype."),
        member: false,
    },
    ParentName {
        parent: "pair",
        field: "key",
        value_field: "value",
        method_if_contains: None,
        member: true,
    },
    ParentName {
        parent: "field_definition",
        field: "property",
        value_field: "value",
        method_if_contains: None,
        member: true,
    },
    ParentName {
        parent: "public_field_definition",
        field: "name",
        value_field: "value",
        method_if_contains: None,
        member: true,
    },
];

macro_rules! js_spec {
    () => {
        LangSpec {
            functions: JS_FUNCTIONS,
            scopes: JS_SCOPES,
            parent_names: JS_PARENT_NAMES,
            span_wrappers: &["export_statement"],
            statement_wrappers: &[
                "lexical_declaration",
                "variable_declaration",
                "expression_statement",
                "variable_declarator",
            ],
            wrapper_decorators: &["decorator"],
            modifier_groups: &[],
            leading_siblings: &["decorator"],
            between_siblings: &["comment"],
            leading_children: &["decorator", "comment"],
            async_tokens: &["async"],
            generator_tokens: &["*"],
            yield_kinds: &[],
            yield_barriers: &[],
            receiver_field: None,
            accessor_tokens: &["get", "set"],
            string_kinds: &["string"],
            trailing_trim: &[],
            reparse_macros: None,
        }
    };
}

static JAVASCRIPT: LangSpec = js_spec!();
static TYPESCRIPT: LangSpec = js_spec!();

const fn class(kind: &'static str) -> ScopeRule {
    ScopeRule {
        kind,
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
    }
}

const fn namespace(kind: &'static str) -> ScopeRule {
    ScopeRule {
        kind,
        name_field: Some("name"),
        class_like: false,
        type_name: false,
        trait_field: None,
    }
}

/// Tables with no wrappers, tokens or parent names: the starting point of the
/// C-family, Java, Ruby and PHP specs.
const fn plain(functions: &'static [FnRule], scopes: &'static [ScopeRule]) -> LangSpec {
    LangSpec {
        functions,
        scopes,
        parent_names: &[],
        span_wrappers: &[],
        statement_wrappers: &[],
        wrapper_decorators: &[],
        modifier_groups: &[],
        leading_siblings: &[],
        between_siblings: &[],
        leading_children: &[],
        async_tokens: &[],
        generator_tokens: &[],
        yield_kinds: &[],
        yield_barriers: &[],
        receiver_field: None,
        accessor_tokens: &[],
        string_kinds: &[],
        trailing_trim: &[],
        reparse_macros: None,
    }
}

static JAVA: LangSpec = plain(
    &[
        f("method_declaration", Some("name"), "body"),
        f("constructor_declaration", Some("name"), "body"),
        f("compact_constructor_declaration", Some("name"), "body"),
        fx("lambda_expression", "body"),
    ],
    &[
        class("class_declaration"),
        class("interface_declaration"),
        class("enum_declaration"),
        class("record_declaration"),
        class("annotation_type_declaration"),
    ],
);

static C: LangSpec = plain(&[f("function_definition", Some("declarator"), "body")], &[]);

static CPP: LangSpec = plain(
    &[
        f("function_definition", Some("declarator"), "body"),
        fx("lambda_expression", "body"),
    ],
    &[
        namespace("namespace_definition"),
        class("class_specifier"),
        class("struct_specifier"),
        class("union_specifier"),
    ],
);

static RUBY: LangSpec = plain(
    &[
        f("method", Some("name"), "body"),
        f("singleton_method", Some("name"), "body"),
        fx("block", "body"),
        fx("do_block", "body"),
        fx("lambda", "body"),
    ],
    &[
        class("class"),
        class("module"),
        ScopeRule {
            kind: "singleton_class",
            name_field: None,
            class_like: true,
            type_name: false,
            trait_field: None,
        },
    ],
);

static PHP: LangSpec = plain(
    &[
        f("function_definition", Some("name"), "body"),
        FnRule {
            kind: "method_declaration",
            name_field: Some("name"),
            body_field: "body",
            expression: false,
            method: true,
            generator: false,
        },
        fx("anonymous_function", "body"),
        fx("arrow_function", "body"),
    ],
    &[
        class("class_declaration"),
        class("interface_declaration"),
        class("trait_declaration"),
        class("enum_declaration"),
    ],
);

/// The tables for a language.
pub(crate) fn spec(lang: Lang) -> &'static LangSpec {
    match lang {
        Lang::Python => &PYTHON,
        Lang::Go => &GO,
        Lang::Rust => &RUST,
        Lang::JavaScript => &JAVASCRIPT,
        Lang::TypeScript | Lang::Tsx => &TYPESCRIPT,
        Lang::Java => &JAVA,
        Lang::C => &C,
        Lang::Cpp => &CPP,
        Lang::Ruby => &RUBY,
        Lang::Php => &PHP,
    }
}
