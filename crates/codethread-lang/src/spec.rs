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
    /// A node of this kind without a body is not a function and is left out
    /// of the index (Java / PHP abstract and interface methods, C++
    /// `= default` / `= delete` definitions).
    pub body_required: bool,
    /// The name field holds a C declarator chain, read through the spec's
    /// [`DeclaratorRule`]; a chain that reaches no function declarator is
    /// not a function.
    pub declarator_chain: bool,
    /// Always a singleton method (Ruby `def self.x`, `def obj.x`).
    pub singleton: bool,
    /// When the body field is absent, the body is the empty range just
    /// before this child token (Ruby `def x; end`: an empty method is still
    /// a definition with a body to stub).
    pub empty_body_before: Option<&'static str>,
    /// When the body field is absent, a direct child of this kind is the
    /// body (a C++ constructor's function-try-block `A() try : a(0) { }
    /// catch (...) { }`, which tree-sitter-cpp puts in no field).
    pub unfielded_body: Option<&'static str>,
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
    /// The node is a scope only when it has a child of this kind (Java
    /// `new T() { ... }` is an anonymous class only with its `class_body`).
    pub requires_child: Option<&'static str>,
    /// Methods directly inside are singleton methods (Ruby `class << self`).
    pub singleton: bool,
    /// The scope's whole name, template arguments kept and tokens
    /// normalized (see [`DeclaratorRule`]'s token rule), is the `class_type`
    /// of the functions inside it (C++ pairing key).
    pub class_type: bool,
    /// Functions inside get a note when no parent names the scope (Java and
    /// PHP anonymous classes not named through a declarator).
    pub note_if_unnamed: bool,
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
    /// Also names anonymous functions (JS arrows); false: names only
    /// anonymous scopes (Java anonymous classes; Java lambdas stay anonymous).
    pub functions: bool,
}

/// How a C-family declarator chain is read: `static int *(*f)(int) {...}`
/// names `f` through pointer / parenthesized / attributed declarators down
/// to a function declarator and its identifier.
#[derive(Debug)]
pub(crate) struct DeclaratorRule {
    /// Declarator kinds passed through towards the name (their `declarator`
    /// field, else their first named child of a declarator kind).
    pub wrappers: &'static [&'static str],
    /// Function declarator kinds: the `parameters` field holds the parameter
    /// list, the `declarator` field continues the chain. Reaching one makes
    /// the definition a function.
    pub function_declarators: &'static [&'static str],
    /// Qualified names (`A<T>::B::f`): `scope` and `name` fields; each scope
    /// becomes a qualname component with template arguments stripped, and
    /// the definition is a method.
    pub qualified: &'static [&'static str],
    /// Name kinds that hold their own function declarator (C++
    /// `operator const char*() const`): the name is the text before it.
    pub embedded: &'static [&'static str],
    /// Name kinds with template arguments (`f<int>`): the `name` field is
    /// the name.
    pub templated: &'static [&'static str],
    /// Child kinds of the function declarator after the parameter list that
    /// join the pairing key (C++ `const`, `volatile`, `&`, `&&`).
    pub trailing_qualifiers: &'static [&'static str],
    /// Child kind of the definition between declarator and body that marks
    /// K&R parameter declarations (kept, with an unsure note: in macro-heavy
    /// C it is usually a macro call followed by declarations).
    pub kr_declarations: Option<&'static str>,
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
    /// Definition rules of Java, C, C++, Ruby and PHP (`docs/target-rules.md`,
    /// "Java, C, C++, Ruby, PHP"); [`DefRules::NONE`] elsewhere.
    pub defs: DefRules,
}

/// Definition rules the five-language part of `docs/target-rules.md` needs.
#[derive(Debug)]
pub(crate) struct DefRules {
    /// `nested` only under a named (counted) function; anonymous functions
    /// are skipped when looking for the class-like container. False: any
    /// function ancestor, anonymous or not, makes a function `nested`.
    pub counted_nesting: bool,
    /// The C-family declarator chain of function definitions.
    pub declarators: Option<&'static DeclaratorRule>,
    /// Names that make a definition an error-recovery artefact, left out of
    /// the index (C keywords: `switch (x) { ... }` read as a function).
    pub keyword_names: &'static [&'static str],
    /// Field of the function node (or of its function declarator) whose
    /// normalized tokens are the parameter-list part of the pairing key;
    /// `None`: parameters are not part of the key.
    pub params_field: Option<&'static str>,
    /// Comment kinds dropped from normalized token lists.
    pub comment_kinds: &'static [&'static str],
    /// Separator of qualified scope names written as `.` (`::`).
    pub scope_separator: Option<&'static str>,
    /// Expression kinds a value may be wrapped in between it and the parent
    /// that names it (Java parentheses and casts).
    pub transparent_values: &'static [&'static str],
    /// Calls that wrap a definition as their only argument and widen its
    /// span (Ruby `private def x`), with their names recorded as decorators.
    pub call_wrappers: Option<CallWrapper>,
    /// Receiver texts that add nothing to the qualname (Ruby `self`).
    pub self_receivers: &'static [&'static str],
    /// Fields whose last line ends the header, first present wins, instead
    /// of the body opener (Ruby: parameters, then name).
    pub header_end_fields: &'static [&'static str],
    /// A top-level call that ends the program text (PHP
    /// `__halt_compiler();`): the bytes after its statement are data, not
    /// code, and are left out of the tree (`docs/lang.md`, "Where the code
    /// ends").
    pub halt: Option<HaltRule>,
}

/// A call statement after which a file holds data (PHP
/// `__halt_compiler();` before a phar archive): a `statement` child of the
/// root whose first named child is a `call` node with `name` (compared
/// ASCII case-insensitively, as PHP names are) in its `function_field`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HaltRule {
    /// Statement kind directly under the root.
    pub statement: &'static str,
    /// Call expression kind.
    pub call: &'static str,
    /// Field of the call holding the called name.
    pub function_field: &'static str,
    /// The called name.
    pub name: &'static str,
    /// A closing tag that may end the statement instead of `;` (PHP `?>`,
    /// after optional spaces): part of the code when it follows.
    pub closer: Option<&'static str>,
}

impl DefRules {
    /// No five-language rules (Python, Go, Rust, JS/TS).
    pub const NONE: DefRules = DefRules {
        counted_nesting: false,
        declarators: None,
        keyword_names: &[],
        params_field: None,
        comment_kinds: &[],
        scope_separator: None,
        transparent_values: &[],
        call_wrappers: None,
        self_receivers: &[],
        header_end_fields: &[],
        halt: None,
    };
}

/// A call wrapping a definition (Ruby `private def x`): a `kind` node with
/// a `method` name, no receiver, no block, and `args` holding only the
/// definition.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CallWrapper {
    /// Call node kind.
    pub kind: &'static str,
    /// Argument list kind (the definition's parent).
    pub args: &'static str,
    /// Field with the called name.
    pub method_field: &'static str,
    /// Fields that must be absent (receiver, block).
    pub absent_fields: &'static [&'static str],
}

/// A function rule with every flag off (the base of struct updates).
const PLAIN_FN: FnRule = FnRule {
    kind: "",
    name_field: None,
    body_field: "body",
    expression: false,
    method: false,
    generator: false,
    body_required: false,
    declarator_chain: false,
    singleton: false,
    empty_body_before: None,
    unfielded_body: None,
};

/// A scope rule with every flag off (the base of struct updates).
const PLAIN_SCOPE: ScopeRule = ScopeRule {
    kind: "",
    name_field: None,
    class_like: false,
    type_name: false,
    trait_field: None,
    requires_child: None,
    singleton: false,
    class_type: false,
    note_if_unnamed: false,
};

const fn f(
    kind: &'static str,
    name_field: Option<&'static str>,
    body_field: &'static str,
) -> FnRule {
    FnRule {
        kind,
        name_field,
        body_field,
        ..PLAIN_FN
    }
}
const fn fx(kind: &'static str, body_field: &'static str) -> FnRule {
    FnRule {
        kind,
        body_field,
        expression: true,
        ..PLAIN_FN
    }
}
/// A declaration that is a function only with a body.
const fn fb(kind: &'static str, name_field: &'static str) -> FnRule {
    FnRule {
        kind,
        name_field: Some(name_field),
        body_required: true,
        ..PLAIN_FN
    }
}
pub(crate) static PYTHON: LangSpec = LangSpec {
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
        ..PLAIN_SCOPE
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
    defs: DefRules::NONE,
};

pub(crate) static GO: LangSpec = LangSpec {
    functions: &[
        f("function_declaration", Some("name"), "body"),
        FnRule {
            kind: "method_declaration",
            name_field: Some("name"),
            body_field: "body",
            expression: false,
            method: true,
            generator: false,
            ..PLAIN_FN
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
    defs: DefRules::NONE,
};

pub(crate) static RUST: LangSpec = LangSpec {
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
            ..PLAIN_SCOPE
        },
        ScopeRule {
            kind: "impl_item",
            name_field: Some("type"),
            class_like: true,
            type_name: true,
            trait_field: Some("trait"),
            ..PLAIN_SCOPE
        },
        ScopeRule {
            kind: "trait_item",
            name_field: Some("name"),
            class_like: true,
            type_name: true,
            trait_field: None,
            ..PLAIN_SCOPE
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
    defs: DefRules::NONE,
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
        ..PLAIN_FN
    },
    FnRule {
        kind: "function_expression",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: false,
        ..PLAIN_FN
    },
    FnRule {
        kind: "function",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: false,
        ..PLAIN_FN
    },
    FnRule {
        kind: "generator_function",
        name_field: Some("name"),
        body_field: "body",
        expression: true,
        method: false,
        generator: true,
        ..PLAIN_FN
    },
    fx("arrow_function", "body"),
    FnRule {
        kind: "method_definition",
        name_field: Some("name"),
        body_field: "body",
        expression: false,
        method: true,
        generator: false,
        ..PLAIN_FN
    },
];

const JS_SCOPES: &[ScopeRule] = &[
    ScopeRule {
        kind: "class_declaration",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
        ..PLAIN_SCOPE
    },
    ScopeRule {
        kind: "abstract_class_declaration",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
        ..PLAIN_SCOPE
    },
    ScopeRule {
        kind: "class",
        name_field: Some("name"),
        class_like: true,
        type_name: false,
        trait_field: None,
        ..PLAIN_SCOPE
    },
    ScopeRule {
        kind: "object",
        name_field: None,
        class_like: true,
        type_name: false,
        trait_field: None,
        ..PLAIN_SCOPE
    },
];

const JS_PARENT_NAMES: &[ParentName] = &[
    ParentName {
        parent: "variable_declarator",
        field: "name",
        value_field: "value",
        method_if_contains: None,
        member: false,
        functions: true,
    },
    ParentName {
        parent: "assignment_expression",
        field: "left",
        value_field: "right",
        method_if_contains: Some(".prototype."),
        member: false,
        functions: true,
    },
    ParentName {
        parent: "pair",
        field: "key",
        value_field: "value",
        method_if_contains: None,
        member: true,
        functions: true,
    },
    ParentName {
        parent: "field_definition",
        field: "property",
        value_field: "value",
        method_if_contains: None,
        member: true,
        functions: true,
    },
    ParentName {
        parent: "public_field_definition",
        field: "name",
        value_field: "value",
        method_if_contains: None,
        member: true,
        functions: true,
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
            defs: DefRules::NONE,
        }
    };
}

pub(crate) static JAVASCRIPT: LangSpec = js_spec!();
pub(crate) static TYPESCRIPT: LangSpec = js_spec!();

const fn class(kind: &'static str) -> ScopeRule {
    ScopeRule {
        kind,
        name_field: Some("name"),
        class_like: true,
        ..PLAIN_SCOPE
    }
}

const fn namespace(kind: &'static str) -> ScopeRule {
    ScopeRule {
        kind,
        name_field: Some("name"),
        ..PLAIN_SCOPE
    }
}

/// Tables with no wrappers, tokens or parent names: the starting point of the
/// C-family, Java, Ruby and PHP specs.
const fn plain(
    functions: &'static [FnRule],
    scopes: &'static [ScopeRule],
    defs: DefRules,
) -> LangSpec {
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
        defs,
    }
}

/// The five-language rules every one of Java, C, C++, Ruby, PHP shares.
const FIVE: DefRules = DefRules {
    counted_nesting: true,
    ..DefRules::NONE
};

pub(crate) static JAVA: LangSpec = LangSpec {
    parent_names: &[ParentName {
        parent: "variable_declarator",
        field: "name",
        value_field: "value",
        method_if_contains: None,
        member: false,
        functions: false,
    }],
    ..plain(
        &[
            fb("method_declaration", "name"),
            fb("constructor_declaration", "name"),
            fb("compact_constructor_declaration", "name"),
            fx("lambda_expression", "body"),
        ],
        &[
            class("class_declaration"),
            class("interface_declaration"),
            class("enum_declaration"),
            class("record_declaration"),
            class("annotation_type_declaration"),
            // Methods of an enum constant body: `FieldNamingPolicy.IDENTITY.translateName`.
            class("enum_constant"),
            ScopeRule {
                kind: "object_creation_expression",
                class_like: true,
                requires_child: Some("class_body"),
                note_if_unnamed: true,
                ..PLAIN_SCOPE
            },
        ],
        DefRules {
            params_field: Some("parameters"),
            comment_kinds: &["line_comment", "block_comment"],
            transparent_values: &["parenthesized_expression", "cast_expression"],
            ..FIVE
        },
    )
};

/// C and C++ keywords: a `function_definition` named by one is an
/// error-recovery artefact (`YY_X switch (x) { ... }`).
const C_KEYWORDS: &[&str] = &[
    "if",
    "else",
    "switch",
    "case",
    "default",
    "for",
    "while",
    "do",
    "return",
    "break",
    "continue",
    "goto",
    "sizeof",
    "typedef",
    "struct",
    "union",
    "enum",
    "static",
    "extern",
    "const",
    "volatile",
    "inline",
    "register",
    "auto",
    "signed",
    "unsigned",
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "_Bool",
    "_Static_assert",
    "_Alignof",
    "_Generic",
    "alignof",
    "catch",
    "class",
    "delete",
    "new",
    "namespace",
    "operator",
    "template",
    "this",
    "throw",
    "try",
    "typename",
    "using",
    "virtual",
    "decltype",
    "static_assert",
    "co_return",
    "co_await",
    "co_yield",
];

static C_DECLARATORS: DeclaratorRule = DeclaratorRule {
    wrappers: &[
        "pointer_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
    ],
    function_declarators: &["function_declarator"],
    qualified: &[],
    embedded: &[],
    templated: &[],
    trailing_qualifiers: &[],
    kr_declarations: Some("declaration"),
};

static CPP_DECLARATORS: DeclaratorRule = DeclaratorRule {
    wrappers: &[
        "pointer_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
        "reference_declarator",
        // tree-sitter-cpp's pointer / reference declarators after a
        // qualified name (`X* f()` misread as `X::*f()` after a macro word).
        "pointer_type_declarator",
        "reference_type_declarator",
        // Inside conversion operators: `operator const T&() const`.
        "abstract_pointer_declarator",
        "abstract_reference_declarator",
        "abstract_parenthesized_declarator",
    ],
    function_declarators: &["function_declarator", "abstract_function_declarator"],
    qualified: &["qualified_identifier"],
    embedded: &["operator_cast"],
    templated: &["template_function", "template_method"],
    trailing_qualifiers: &["type_qualifier", "ref_qualifier"],
    kr_declarations: None,
};

const C_DEFINITION: FnRule = FnRule {
    kind: "function_definition",
    name_field: Some("declarator"),
    body_required: true,
    declarator_chain: true,
    ..PLAIN_FN
};

pub(crate) static C: LangSpec = plain(
    &[C_DEFINITION],
    &[],
    DefRules {
        declarators: Some(&C_DECLARATORS),
        keyword_names: C_KEYWORDS,
        params_field: Some("parameters"),
        comment_kinds: &["comment"],
        ..FIVE
    },
);

pub(crate) static CPP: LangSpec = LangSpec {
    // `template <...>` headers and `friend` start the span.
    span_wrappers: &["template_declaration", "friend_declaration"],
    ..plain(
        &[
            FnRule {
                unfielded_body: Some("try_statement"),
                ..C_DEFINITION
            },
            fx("lambda_expression", "body"),
        ],
        &[
            namespace("namespace_definition"),
            ScopeRule {
                class_type: true,
                type_name: true,
                ..class("class_specifier")
            },
            ScopeRule {
                class_type: true,
                type_name: true,
                ..class("struct_specifier")
            },
            ScopeRule {
                class_type: true,
                type_name: true,
                ..class("union_specifier")
            },
        ],
        DefRules {
            declarators: Some(&CPP_DECLARATORS),
            keyword_names: C_KEYWORDS,
            params_field: Some("parameters"),
            comment_kinds: &["comment"],
            scope_separator: Some("::"),
            ..FIVE
        },
    )
};

pub(crate) static RUBY: LangSpec = LangSpec {
    receiver_field: Some("object"),
    ..plain(
        &[
            FnRule {
                empty_body_before: Some("end"),
                ..f("method", Some("name"), "body")
            },
            FnRule {
                singleton: true,
                empty_body_before: Some("end"),
                ..f("singleton_method", Some("name"), "body")
            },
            fx("block", "body"),
            fx("do_block", "body"),
            fx("lambda", "body"),
        ],
        &[
            class("class"),
            class("module"),
            ScopeRule {
                kind: "singleton_class",
                class_like: true,
                singleton: true,
                ..PLAIN_SCOPE
            },
        ],
        DefRules {
            comment_kinds: &["comment"],
            scope_separator: Some("::"),
            call_wrappers: Some(CallWrapper {
                kind: "call",
                args: "argument_list",
                method_field: "method",
                absent_fields: &["receiver", "block"],
            }),
            self_receivers: &["self"],
            header_end_fields: &["parameters", "name"],
            ..FIVE
        },
    )
};

pub(crate) static PHP: LangSpec = plain(
    &[
        fb("function_definition", "name"),
        FnRule {
            method: true,
            ..fb("method_declaration", "name")
        },
        fx("anonymous_function", "body"),
        fx("arrow_function", "body"),
    ],
    &[
        class("class_declaration"),
        class("interface_declaration"),
        class("trait_declaration"),
        class("enum_declaration"),
        ScopeRule {
            kind: "anonymous_class",
            class_like: true,
            note_if_unnamed: true,
            ..PLAIN_SCOPE
        },
    ],
    DefRules {
        comment_kinds: &["comment"],
        halt: Some(HaltRule {
            statement: "expression_statement",
            call: "function_call_expression",
            function_field: "function",
            name: "__halt_compiler",
            closer: Some("?>"),
        }),
        ..FIVE
    },
);
/// The tables for a language (its [`crate::LangInfo`] row's).
pub(crate) fn spec(lang: Lang) -> &'static LangSpec {
    lang.info().spec
}
