//! The edit engine: for one function node, the byte range of its body to
//! replace and the stub text that replaces it.
//!
//! Everything outside the returned range is kept byte for byte, including the
//! opener (`:`, `{`, `=>`) and a comment that ends the opener line. The stub's
//! indentation and line ending are read from the file, so a second run finds
//! exactly the stub and plans an identical (no-op) edit.

use codethread_lang::tree_sitter::Node;
use codethread_lang::{Lang, PerLang};

use crate::text::{
    eol_near, first_inner_line_indent, fix_end, fix_start, indent_unit, line_indent,
    only_indent_before,
};
use crate::Warning;

/// The statement that replaces a Python body.
pub const PYTHON_STUB: &str = "raise NotImplementedError";
/// The unreachable statement that keeps a Python generator a generator.
pub const PYTHON_YIELD: &str = "yield";
/// The statement that replaces a Go body.
pub const GO_STUB: &str = "panic(\"not implemented\")";
/// The expression that replaces a Rust body.
pub const RUST_STUB: &str = "todo!()";
/// The statement that replaces a JavaScript / TypeScript body.
pub const JS_STUB: &str = "throw new Error(\"not implemented\");";

/// What replaces a JavaScript / TypeScript expression body (arrow functions):
/// a braced body holding [`JS_STUB`].
const JS_EXPR_STUB: &str = "{ throw new Error(\"not implemented\"); }";

/// How a language's bodies look: the indented block after a `:` line, or a
/// `{ ... }` block (possibly an expression instead).
#[derive(Debug)]
pub(crate) enum BodyForm {
    /// Python: statements in an indented block. Only function kinds in
    /// `statement_kinds` have one (a lambda's body is an expression).
    Indented {
        /// Function node kinds whose body is a statement block.
        statement_kinds: &'static [&'static str],
    },
    /// Go, Rust, JS/TS: a `{ ... }` block of one of `block_kinds`, or, where
    /// `expr_stub` is set, an expression body replaced by `expr_stub`.
    Braced {
        /// Body node kinds that are `{ ... }` blocks.
        block_kinds: &'static [&'static str],
        /// What replaces an expression body (closures, arrows); `None`: the
        /// language has no expression bodies.
        expr_stub: Option<&'static str>,
    },
    /// Ruby: the body's statements sit between the header and a closing
    /// keyword that is the function node's own child (`def f(a) ... end`).
    /// The grammar omits the body node of an empty function (`def f; end`):
    /// such a function has an empty body, and the stub is inserted before
    /// the closing keyword.
    Closed {
        /// Body node kinds that are statement sequences.
        block_kinds: &'static [&'static str],
        /// Kind of the closing keyword child of the function node.
        close: &'static str,
        /// What replaces an expression body (Ruby endless `def x = expr`).
        expr_stub: Option<&'static str>,
    },
}

/// A function-try-block body (C++ `void f() try { ... } catch (...) { ... }`,
/// `A::A() try : m(x) { ... } catch (...) { ... }`): its try block gets the
/// stub and its handlers are replaced by one catch-all handler holding the
/// stub (a try block needs at least one handler; the original handlers are
/// implementation and go with the body). The member initializer list of a
/// constructor lies before the try block and is kept.
#[derive(Debug)]
pub(crate) struct TryBody {
    /// Body node kind of a function-try-block.
    pub kind: &'static str,
    /// Field of that node holding the try block (a braced block).
    pub block_field: &'static str,
    /// Kind of its handler nodes; the last one's braced block must end the
    /// body.
    pub handler_kind: &'static str,
    /// Field of a handler holding its braced block.
    pub handler_block_field: &'static str,
    /// The text of the one handler that replaces them all, before its `{`.
    pub catch_all: &'static str,
}

/// The declarator chain a C / C++ `function_definition` must have to be a
/// function: from the node's `field`, down through `through` kinds (to the
/// child in one of `step_fields`, else the first named child), to a node
/// of a `targets` kind. tree-sitter's error recovery reads
/// `struct MACRO name { ... };` as a function_definition whose declarator
/// is a plain identifier and whose "body" is the class body; stubbing it
/// would destroy the class, so it is refused (`docs/target-rules.md`: the
/// declarator chain must reach a function declarator).
#[derive(Debug)]
pub(crate) struct DeclaratorChain {
    pub field: &'static str,
    pub through: &'static [&'static str],
    pub step_fields: &'static [&'static str],
    pub targets: &'static [&'static str],
}

/// A stub warning raised by a node kind in a function's header.
#[derive(Debug)]
pub(crate) struct HeaderWarning {
    /// Field of the function node searched; `None`: every child before the
    /// body.
    pub field: Option<&'static str>,
    /// Node kinds that raise the warning when found there (at any depth).
    pub kinds: &'static [&'static str],
    /// Node kinds anywhere before the body that cancel it.
    pub unless: &'static [&'static str],
    /// The warning.
    pub warning: Warning,
}

/// A stub for `constexpr` functions returning nothing (C++): one that is a
/// constant expression, so compile-time calls still compile, and that
/// still traps at run time. It replaces the plain stub, and the function's
/// [`Warning::ConstexprStub`] is dropped, when the function node's
/// `type_field` is a `void_kind` node with text `void_text` and its
/// `declarator_field` a `declarator_kind` node directly (not `void *f()`).
#[derive(Debug)]
pub(crate) struct ConstexprVoid {
    pub stub: &'static str,
    pub type_field: &'static str,
    pub void_kind: &'static str,
    pub void_text: &'static str,
    pub declarator_field: &'static str,
    pub declarator_kind: &'static str,
}

/// A constructor of a derived class, whose stub removes a required
/// `super()` call (TypeScript TS2377): a function node of `node_kind` named
/// `name`, whose class (the grandparent) has a `heritage_kind` child holding
/// an `extends_kind` child.
#[derive(Debug)]
pub(crate) struct DerivedConstructor {
    pub node_kind: &'static str,
    pub name: &'static str,
    pub heritage_kind: &'static str,
    pub extends_kind: &'static str,
}

/// Per-language knowledge of the stubbing engine, as data.
#[derive(Debug)]
pub(crate) struct StubRules {
    /// The stub statement.
    pub stub: &'static str,
    /// Indentation unit used when neither the body nor the file shows one.
    pub default_unit: &'static str,
    /// The body's form.
    pub form: BodyForm,
    /// Decorated `@overload` stubs exist (Python) and are never targets.
    pub overload_stubs: bool,
    /// Unused imports are compile errors (Go): flag stubs that remove the
    /// last use of an import.
    pub rejects_unused_imports: bool,
    /// Functions with internal linkage draw an "unused" diagnostic when a
    /// stub removes their last use (C, C++ `-Wunused-function`, an error
    /// under `-Werror`): the stub keeps the use ([`StaticUses`]).
    pub static_uses: Option<StaticUses>,
    /// Statement kinds that are kept when they are the first statement of a
    /// body, the stub following them (Java `this(...)` / `super(...)`: a
    /// constructor without one calls the implicit `super()`, which the
    /// superclass may not have, so the file would stop compiling).
    pub kept_first: &'static [&'static str],
    /// Function-try-block bodies, where the language has them.
    pub try_body: Option<TryBody>,
    /// Child kinds of a function node that are its body although the grammar
    /// puts them in no `body` field (tree-sitter-cpp 0.23.4 gives a
    /// constructor's function-try-block `try_statement` no field). Used
    /// when the index gives no body span and the field is absent.
    pub unfielded_bodies: &'static [&'static str],
    /// Header shapes whose stub parses but may not compile.
    pub header_warnings: &'static [HeaderWarning],
    /// The stub of `constexpr` functions that return nothing, if the
    /// language has one ([`ConstexprVoid`]).
    pub constexpr_void: Option<ConstexprVoid>,
    /// TypeScript: the stub of a function with no declared return type,
    /// whose type its callers see is the one inferred from its body
    /// ([`UntypedReturn`]).
    pub untyped_return: Option<UntypedReturn>,
    /// Function nodes are only stubbed when their declarator chain has this
    /// shape (C, C++).
    pub declarator_chain: Option<DeclaratorChain>,
    /// Constructors that must call `super()` (the stub removes the call).
    pub derived_constructor: Option<DerivedConstructor>,
    /// Heredocs whose body follows the line that opens them, outside the
    /// node of the opener (Ruby `<<~T`): a stub that removes an opener
    /// removes its body too (`docs/skeleton.md`, "Heredocs").
    pub heredocs: Option<HeredocKinds>,
}

/// How a stub keeps the uses of functions with internal linkage
/// (`crate::staticuses`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct StaticUses {
    /// A word of the header that gives internal linkage, found
    /// case-insensitively inside a header word (`static`, and the
    /// `STATIC` macro micropython defines to it).
    pub linkage: &'static str,
    /// Words (same matching) that exempt the function: compilers do not
    /// warn about an unused `inline` one.
    pub exempt: &'static [&'static str],
    /// Node kind of a name's use (`identifier`).
    pub identifier: &'static str,
    /// The statement that keeps a use, `{}` standing for the name.
    pub keep: &'static str,
}

/// C and C++: `(void)name;` before the trap.
const C_STATIC_USES: StaticUses = StaticUses {
    linkage: "static",
    exempt: &["inline"],
    identifier: "identifier",
    keep: "(void){}; ",
};

/// Node kinds of a heredoc opener and of its body, which the grammar puts
/// after the opener's statement (Ruby `heredoc_beginning`, `heredoc_body`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeredocKinds {
    /// The opener (`<<~T`).
    pub beginning: &'static str,
    /// The body: from the newline ending the opener's line through the
    /// terminator.
    pub body: &'static str,
}

/// The neutral values of the optional stubbing features (no overload stubs,
/// no import check, nothing kept first, no function-try-blocks, no header
/// warnings, no declarator check, no derived-constructor check): the base
/// every language table updates.
const PLAIN_RULES: StubRules = StubRules {
    stub: "",
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &[],
        expr_stub: None,
    },
    overload_stubs: false,
    rejects_unused_imports: false,
    static_uses: None,
    kept_first: &[],
    try_body: None,
    unfielded_bodies: &[],
    header_warnings: &[],
    constexpr_void: None,
    untyped_return: None,
    declarator_chain: None,
    derived_constructor: None,
    heredocs: None,
};

static PYTHON_RULES: StubRules = StubRules {
    stub: PYTHON_STUB,
    default_unit: "    ",
    form: BodyForm::Indented {
        statement_kinds: &["function_definition"],
    },
    overload_stubs: true,
    ..PLAIN_RULES
};

static GO_RULES: StubRules = StubRules {
    stub: GO_STUB,
    default_unit: "\t",
    form: BodyForm::Braced {
        block_kinds: &["block"],
        expr_stub: None,
    },
    rejects_unused_imports: true,
    ..PLAIN_RULES
};

static RUST_RULES: StubRules = StubRules {
    stub: RUST_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["block"],
        expr_stub: Some(RUST_STUB),
    },
    header_warnings: &[HeaderWarning {
        field: Some("return_type"),
        kinds: &["abstract_type"],
        unless: &[],
        warning: Warning::ImplTraitReturn,
    }],
    ..PLAIN_RULES
};

static JS_RULES: StubRules = StubRules {
    stub: JS_STUB,
    default_unit: "  ",
    form: BodyForm::Braced {
        block_kinds: &["statement_block"],
        expr_stub: Some(JS_EXPR_STUB),
    },
    ..PLAIN_RULES
};
/// TypeScript / TSX: the JS rules, plus the derived-constructor warning.
static TS_RULES: StubRules = StubRules {
    stub: JS_STUB,
    untyped_return: Some(TS_UNTYPED),
    default_unit: "  ",
    form: BodyForm::Braced {
        block_kinds: &["statement_block"],
        expr_stub: Some(JS_EXPR_STUB),
    },
    derived_constructor: Some(DerivedConstructor {
        node_kind: "method_definition",
        name: "constructor",
        heritage_kind: "class_heritage",
        extends_kind: "extends_clause",
    }),
    ..PLAIN_RULES
};

/// The statement that replaces a Java body: an unchecked exception, legal
/// in every method, constructor, compact constructor, `default` method and
/// initializer-free body whatever the return type (a `throw` completes
/// abruptly, so no `return` is missing and blank `final` fields count as
/// assigned).
pub const JAVA_STUB: &str = "throw new UnsupportedOperationException(\"not implemented\");";
/// The statement that replaces a C or C++ body: the GCC/Clang builtin needs
/// no header, works in C and C++ (also with `-fno-exceptions`), and does not
/// return, so functions of any return type (structs, references, templates)
/// stay valid without a `return` and without `-Wreturn-type` warnings. It is
/// also allowed in C++14 and later `constexpr` functions that are not
/// evaluated in a constant expression.
pub const C_STUB: &str = "__builtin_trap();";
/// The statement that replaces the body of a C++ `constexpr` function
/// returning `void`: in a constant evaluation (fmt's compile-time format
/// string checks call `FMT_CONSTEXPR void on_zero()`) it does nothing, so
/// the call is a constant expression; at run time it traps like
/// [`C_STUB`]. `__builtin_is_constant_evaluated` is a GCC (9+) and Clang
/// (9+) builtin, usable in every C++ mode; a plain `__builtin_trap()` is not
/// a constant expression and failed fmt-3248's build.
pub const CPP_CONSTEXPR_VOID_STUB: &str =
    "if (!__builtin_is_constant_evaluated()) __builtin_trap();";
/// The statement that replaces a Ruby body.
pub const RUBY_STUB: &str = "raise NotImplementedError";
/// The expression that replaces the body of a Ruby endless method
/// (`def x = expr` becomes `def x = raise(NotImplementedError)`): with
/// parentheses, because Ruby 3.0 allows no command call there.
pub const RUBY_EXPR_STUB: &str = "raise(NotImplementedError)";
/// The statement that replaces a PHP body: fully qualified, so it also
/// resolves in namespaced files; a `throw` is legal in `void`, `never`,
/// by-reference and generator functions alike.
pub const PHP_STUB: &str = "throw new \\LogicException('not implemented');";

static JAVA_RULES: StubRules = StubRules {
    stub: JAVA_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["block", "constructor_body"],
        expr_stub: None,
    },
    kept_first: &["explicit_constructor_invocation"],
    ..PLAIN_RULES
};

/// Declarators that wrap a function declarator: `*f(...)`, `(f)(...)`,
/// `f(...) [[attr]]`, C++ `&f(...)` / `&&f(...)`, and the qualified name of
/// an out-of-class conversion operator (`A::operator int() const`).
const C_DECLARATOR_WRAPPERS: &[&str] = &[
    "pointer_declarator",
    "parenthesized_declarator",
    "attributed_declarator",
    "reference_declarator",
    "qualified_identifier",
];

static C_RULES: StubRules = StubRules {
    stub: C_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["compound_statement"],
        expr_stub: None,
    },
    declarator_chain: Some(DeclaratorChain {
        field: "declarator",
        through: C_DECLARATOR_WRAPPERS,
        step_fields: &["declarator", "name"],
        targets: &["function_declarator", "operator_cast"],
    }),
    static_uses: Some(C_STATIC_USES),
    ..PLAIN_RULES
};

static CPP_RULES: StubRules = StubRules {
    stub: C_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["compound_statement"],
        expr_stub: None,
    },
    try_body: Some(TryBody {
        kind: "try_statement",
        block_field: "body",
        handler_kind: "catch_clause",
        handler_block_field: "body",
        catch_all: "catch (...)",
    }),
    unfielded_bodies: &["try_statement"],
    header_warnings: &[
        HeaderWarning {
            field: None,
            kinds: &["constexpr", "consteval"],
            unless: &[],
            warning: Warning::ConstexprStub,
        },
        HeaderWarning {
            field: Some("type"),
            kinds: &["auto"],
            unless: &["trailing_return_type"],
            warning: Warning::DeducedReturnType,
        },
    ],
    constexpr_void: Some(ConstexprVoid {
        stub: CPP_CONSTEXPR_VOID_STUB,
        type_field: "type",
        void_kind: "primitive_type",
        void_text: "void",
        declarator_field: "declarator",
        declarator_kind: "function_declarator",
    }),
    declarator_chain: Some(DeclaratorChain {
        field: "declarator",
        through: C_DECLARATOR_WRAPPERS,
        step_fields: &["declarator", "name"],
        targets: &["function_declarator", "operator_cast"],
    }),
    static_uses: Some(C_STATIC_USES),
    ..PLAIN_RULES
};

static RUBY_RULES: StubRules = StubRules {
    stub: RUBY_STUB,
    default_unit: "  ",
    form: BodyForm::Closed {
        block_kinds: &["body_statement"],
        close: "end",
        expr_stub: Some(RUBY_EXPR_STUB),
    },
    heredocs: Some(HeredocKinds {
        beginning: "heredoc_beginning",
        body: "heredoc_body",
    }),
    ..PLAIN_RULES
};

static PHP_RULES: StubRules = StubRules {
    stub: PHP_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["compound_statement"],
        expr_stub: None,
    },
    ..PLAIN_RULES
};

/// The stubbing rules, one row per language.
static RULES: PerLang<&StubRules> = PerLang::new([
    (Lang::Python, &PYTHON_RULES),
    (Lang::Go, &GO_RULES),
    (Lang::Rust, &RUST_RULES),
    (Lang::JavaScript, &JS_RULES),
    (Lang::TypeScript, &TS_RULES),
    (Lang::Tsx, &TS_RULES),
    (Lang::Java, &JAVA_RULES),
    (Lang::C, &C_RULES),
    (Lang::Cpp, &CPP_RULES),
    (Lang::Ruby, &RUBY_RULES),
    (Lang::Php, &PHP_RULES),
]);

/// The stub of a TypeScript function with no declared return type: its
/// callers see the type inferred from its body, and a body that only throws
/// is inferred `never` (a caller that reads the result then fails `tsc`:
/// `Property 'x' does not exist on type 'never'`). The stub returns the
/// value of a function that throws, typed `any`: it still throws when
/// called, no code after it is unreachable, and callers type-check as they
/// did. Constructors, setters (which return nothing) and generators keep
/// the plain stub.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UntypedReturn {
    /// Replaces the plain stub statement.
    pub statement: &'static str,
    /// Replaces the stub of an expression body (an arrow function's).
    pub expr: &'static str,
    /// The function's field holding a declared return type.
    pub return_type_field: &'static str,
    /// Node kinds of generator functions (no untyped stub).
    pub generator_kinds: &'static [&'static str],
}

/// TypeScript's [`UntypedReturn`].
const TS_UNTYPED: UntypedReturn = UntypedReturn {
    statement: "return (() => { throw new Error(\"not implemented\"); })() as any;",
    expr: "(() => { throw new Error(\"not implemented\"); })() as any",
    return_type_field: "return_type",
    generator_kinds: &["generator_function_declaration", "generator_function"],
};

/// Whether `node` (a function of a language with [`UntypedReturn`]) gets
/// the untyped stub: no declared return type, not a constructor, setter or
/// generator.
fn takes_untyped_stub(node: Node<'_>, src: &[u8], u: &UntypedReturn) -> bool {
    if node.child_by_field_name(u.return_type_field).is_some()
        || u.generator_kinds.contains(&node.kind())
    {
        return false;
    }
    let mut c = node.walk();
    for ch in node.children(&mut c) {
        let t = src.get(ch.byte_range()).unwrap_or(&[]);
        if (!ch.is_named() && (t == b"set" || t == b"*"))
            || (ch.kind() == "property_identifier" && t == b"constructor")
        {
            return false;
        }
        if ch.kind() == "statement_block" || ch.kind() == "formal_parameters" {
            break;
        }
    }
    true
}

/// The stubbing rules of a language.
pub(crate) fn rules(lang: Lang) -> &'static StubRules {
    RULES.get(lang)
}

/// The stub statement of a language.
pub fn stub_statement(lang: Lang) -> &'static str {
    rules(lang).stub
}

/// A planned replacement, in the coordinates of the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Planned {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
    pub warnings: Vec<Warning>,
}

/// Why a function cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlanError {
    /// No body node.
    NoBody,
    /// A body form that no stub can replace (Python lambda).
    Unsupported(&'static str),
    /// The body is not in the expected shape (recovered parse).
    Malformed(&'static str),
    /// The function touches a syntax error.
    Affected(String),
}

/// What the engine needs to know about one function.
pub(crate) struct PlanInput<'a, 't> {
    pub lang: Lang,
    /// The whole file.
    pub src: &'a [u8],
    /// Added to node positions to get file positions (non-zero for nodes of
    /// a re-parsed macro body).
    pub off: usize,
    /// The function node.
    pub node: Node<'t>,
    /// The node's grandparent (a method's class), found by the caller
    /// without `Node::parent` (a walk down from the root on every call).
    pub grandparent: Option<Node<'t>>,
    /// The index's body span, in the node's coordinates (`off` subtracted).
    pub body: Option<(usize, usize)>,
    pub is_generator: bool,
    pub keep_docs: bool,
}

/// File-wide facts the planner needs: the lazily computed indentation
/// unit, and the heredocs of languages whose heredoc bodies lie outside
/// their opener's node (those of the tree being planned on: the whole
/// file's, or one chunk's, whose units hold their heredocs).
pub(crate) struct UnitCache {
    unit: Option<String>,
    heredocs: Option<Heredocs>,
    /// Whether the file has a heredoc mark (`<<`), once looked for.
    marks: Option<bool>,
    /// Offsets of the file's `\n` bytes, ascending, once needed.
    newlines: Option<Vec<usize>>,
}

/// The heredoc openers and bodies of a tree.
pub(crate) struct Heredocs {
    /// Start bytes of the openers, ascending.
    beginnings: Vec<usize>,
    /// Byte spans of the bodies, by start.
    bodies: Vec<(usize, usize)>,
}

impl UnitCache {
    pub(crate) fn new() -> Self {
        UnitCache {
            unit: None,
            heredocs: None,
            marks: None,
            newlines: None,
        }
    }

    /// Plan on the tree under `root` from now on (a chunk's): its heredocs
    /// replace the last tree's. What is file-wide (the unit, the newlines)
    /// is kept.
    pub(crate) fn set_tree(&mut self, lang: Lang, root: Node<'_>, src: &[u8]) {
        self.heredocs = None;
        let Some(kinds) = rules(lang).heredocs else {
            return;
        };
        if !*self
            .marks
            .get_or_insert_with(|| src.windows(2).any(|w| w == b"<<"))
        {
            return;
        }
        let mut h = Heredocs {
            beginnings: Vec::new(),
            bodies: Vec::new(),
        };
        for n in codethread_lang::preorder(root) {
            if n.kind() == kinds.beginning {
                h.beginnings.push(n.start_byte());
            } else if n.kind() == kinds.body {
                h.bodies.push((n.start_byte(), n.end_byte()));
            }
        }
        if h.beginnings.is_empty() {
            return;
        }
        h.beginnings.sort_unstable();
        h.bodies.sort_unstable();
        if self.newlines.is_none() {
            self.newlines = Some(
                src.iter()
                    .enumerate()
                    .filter(|(_, &b)| b == b'\n')
                    .map(|(i, _)| i)
                    .collect(),
            );
        }
        self.heredocs = Some(h);
    }

    fn get(&mut self, src: &[u8], lang: Lang) -> &str {
        self.unit
            .get_or_insert_with(|| indent_unit(src, rules(lang).default_unit))
    }
}

/// The body node of a function: the child with the index's body span, else
/// the `body` field, else a child of an unfielded body kind.
fn find_body<'t>(inp: &PlanInput<'_, 't>) -> Option<Node<'t>> {
    let node = inp.node;
    let mut c = node.walk();
    let children: Vec<Node<'t>> = node.children(&mut c).collect();
    if let Some((s, e)) = inp.body {
        if let Some(b) = children
            .iter()
            .find(|n| n.start_byte() == s && n.end_byte() == e)
        {
            return Some(*b);
        }
    }
    if let Some(b) = node.child_by_field_name("body") {
        return Some(b);
    }
    let unfielded = rules(inp.lang).unfielded_bodies;
    children.into_iter().find(|n| unfielded.contains(&n.kind()))
}

/// Plan the body replacement of one function.
pub(crate) fn plan(inp: &PlanInput<'_, '_>, units: &mut UnitCache) -> Result<Planned, PlanError> {
    let r = rules(inp.lang);
    if let Some(chain) = &r.declarator_chain {
        if !declarator_reaches(inp.node, chain) {
            return Err(PlanError::Unsupported(
                "not a function: its declarator chain reaches no function declarator (error recovery)",
            ));
        }
    }
    let body = find_body(inp).filter(|b| !b.is_missing() && !b.byte_range().is_empty());
    let mut warnings = Vec::new();
    collect_warnings(inp, &mut warnings);
    let expr = |stub: &str, body: Node<'_>| Planned {
        start: inp.off + body.start_byte(),
        end: inp.off + body.end_byte(),
        replacement: stub.to_string(),
        warnings: Vec::new(),
    };
    let mut planned = match (&r.form, body) {
        (BodyForm::Indented { statement_kinds }, Some(body)) => {
            if !statement_kinds.contains(&inp.node.kind()) {
                return Err(PlanError::Unsupported(
                    "a Python lambda body is an expression; no statement can replace it",
                ));
            }
            plan_python(inp, body)?
        }
        (BodyForm::Braced { block_kinds, .. }, Some(body))
            if body_is_braced(inp, body, block_kinds) =>
        {
            plan_braces(inp, body, units)?
        }
        (BodyForm::Braced { .. }, Some(body))
            if r.try_body.as_ref().is_some_and(|t| t.kind == body.kind()) =>
        {
            plan_try(inp, body, units)?
        }
        (
            BodyForm::Braced {
                expr_stub: Some(stub),
                ..
            },
            Some(body),
        ) => expr(stub, body),
        (
            BodyForm::Closed {
                block_kinds, close, ..
            },
            body,
        ) if body.is_none_or(|b| block_kinds.contains(&b.kind())) => {
            plan_closed(inp, body, close, units)?
        }
        (
            BodyForm::Closed {
                expr_stub: Some(stub),
                ..
            },
            Some(body),
        ) => expr(stub, body),
        (_, None) => return Err(PlanError::NoBody),
        (_, Some(_)) => return Err(PlanError::Malformed("body without braces")),
    };
    if let Some(cv) = &r.constexpr_void {
        if warnings.contains(&Warning::ConstexprStub) && returns_void(inp, cv) {
            let plain = stub_statement(inp.lang);
            if let Some(at) = planned.replacement.find(plain) {
                planned
                    .replacement
                    .replace_range(at..at + plain.len(), cv.stub);
                warnings.retain(|w| *w != Warning::ConstexprStub);
            }
        }
    }
    if let Some(u) = &r.untyped_return {
        if takes_untyped_stub(inp.node, inp.src, u) {
            if let Some(at) = planned.replacement.find(r.stub) {
                planned
                    .replacement
                    .replace_range(at..at + r.stub.len(), u.statement);
            } else if planned.replacement == JS_EXPR_STUB {
                planned.replacement = u.expr.to_string();
            }
        }
    }
    planned.warnings = warnings;
    match (&units.heredocs, &units.newlines) {
        (Some(h), Some(newlines)) => take_heredoc_bodies(planned, inp.src, h, newlines),
        _ => Ok(planned),
    }
}

/// Widen an edit that removes heredoc openers whose bodies follow its last
/// line (Ruby `def x = <<~T.strip`, `def f; <<~A; end`), so that those
/// bodies go with the body they belong to instead of staying behind as
/// code. The text between the edit's end and the first removed body (the
/// rest of the line, bodies of earlier openers on it) is kept, as part of
/// the replacement. The bodies of one line are consecutive, in the order
/// of their openers, starting at the line's newline.
fn take_heredoc_bodies(
    planned: Planned,
    src: &[u8],
    h: &Heredocs,
    newlines: &[usize],
) -> Result<Planned, PlanError> {
    let (s, e) = (planned.start, planned.end);
    let lo = h.beginnings.partition_point(|&b| b < s);
    let hi = h.beginnings.partition_point(|&b| b < e);
    let Some(&last) = h.beginnings.get(lo..hi).and_then(|r| r.last()) else {
        return Ok(planned);
    };
    // A body that starts inside the edit must end inside it.
    let b_lo = h.bodies.partition_point(|&(bs, _)| bs < s);
    let b_hi = h.bodies.partition_point(|&(bs, _)| bs < e);
    if h.bodies
        .get(b_lo..b_hi)
        .is_some_and(|r| r.iter().any(|&(_, be)| be > e))
    {
        return Err(PlanError::Unsupported(
            "a heredoc body crosses the end of the stubbed body",
        ));
    }
    // The newline ending the last removed opener's line, and where the line starts.
    let k = newlines.partition_point(|&n| n < last);
    let line_end = newlines.get(k).copied().unwrap_or(src.len());
    let line_start = k
        .checked_sub(1)
        .and_then(|j| newlines.get(j))
        .map_or(0, |&n| n + 1);
    if e > line_end {
        // The line ends inside the edit: its bodies start inside it too.
        return Ok(planned);
    }
    // The openers on that line; the removed ones are `i0..i1` of them.
    let l0 = h.beginnings.partition_point(|&b| b < line_start);
    let i0 = lo.max(l0) - l0;
    let i1 = hi - l0;
    // The line's bodies, from its newline on (skipping bodies nested in a
    // body, whose openers sit in an interpolation inside it).
    let mut chain: Vec<(usize, usize)> = Vec::with_capacity(i1.min(h.bodies.len()));
    let mut at = line_end;
    let mut j = h.bodies.partition_point(|&(bs, _)| bs < at);
    while chain.len() < i1 {
        match h.bodies.get(j) {
            Some(&(bs, be)) if bs == at => {
                chain.push((bs, be));
                at = be;
                j += 1;
                while h.bodies.get(j).is_some_and(|&(bs, _)| bs < at) {
                    j += 1;
                }
            }
            _ => {
                return Err(PlanError::Unsupported(
                    "a heredoc opened in the stubbed body has no body after its line",
                ))
            }
        }
    }
    let (Some(&(first, _)), Some(&(_, end))) = (chain.get(i0), chain.get(i1 - 1)) else {
        return Ok(planned);
    };
    let kept = src
        .get(e..first)
        .and_then(|t| std::str::from_utf8(t).ok())
        .ok_or(PlanError::Unsupported(
            "non-UTF-8 text between a stubbed body and its heredoc body",
        ))?;
    let mut replacement = planned.replacement;
    replacement.push_str(kept);
    Ok(Planned {
        start: s,
        end,
        replacement,
        warnings: planned.warnings,
    })
}

/// Whether `node`'s declarator chain has the shape of `chain`.
fn declarator_reaches(node: Node<'_>, chain: &DeclaratorChain) -> bool {
    let mut cur = node.child_by_field_name(chain.field);
    // Each step goes one node down, so the walk ends.
    while let Some(d) = cur {
        if chain.targets.contains(&d.kind()) {
            return true;
        }
        if !chain.through.contains(&d.kind()) {
            return false;
        }
        cur = chain
            .step_fields
            .iter()
            .find_map(|f| d.child_by_field_name(f))
            .or_else(|| d.named_child(0));
    }
    false
}

fn body_is_braced(inp: &PlanInput<'_, '_>, body: Node<'_>, block_kinds: &[&str]) -> bool {
    block_kinds.contains(&body.kind()) && inp.src.get(inp.off + body.start_byte()) == Some(&b'{')
}

fn is_comment(lang: Lang, n: Node<'_>) -> bool {
    lang.comment_kinds().contains(&n.kind())
}

/// Where a delimited body's replacement goes and how it is laid out.
struct Layout {
    /// First replaced byte (file coordinates).
    start: usize,
    /// One past the last replaced byte: the closer's first byte.
    end: usize,
    /// The closer lies on a later line than the kept opener.
    multiline: bool,
    eol: &'static str,
    /// Indentation of the stub line (multi-line bodies).
    inner: String,
    /// Indentation of the closer's line.
    close_indent: String,
}

impl Layout {
    /// The replacement holding `stub`: on its own line between the opener
    /// and the closer, or ` stub ` on one line.
    fn wrap(&self, stub: &str) -> String {
        if self.multiline {
            format!(
                "{}{}{stub}{}{}",
                self.eol, self.inner, self.eol, self.close_indent
            )
        } else {
            format!(" {stub} ")
        }
    }
}

/// The layout of a body delimited by an opener ending at `open_end` (node
/// coordinates) on row `open_row` and by `close`, with `items` the nodes
/// between them. Kept before the stub: a first statement of a
/// [`StubRules::kept_first`] kind, and comments that end the opener's (or
/// that statement's) line.
fn layout(
    inp: &PlanInput<'_, '_>,
    open_end: usize,
    open_row: usize,
    items: &[Node<'_>],
    close: Node<'_>,
    units: &mut UnitCache,
) -> Layout {
    let src = inp.src;
    let off = inp.off;
    let (mut anchor_end, mut anchor_row) = (open_end, open_row);
    let mut i = 0;
    if let Some((k, first)) = items
        .iter()
        .enumerate()
        .find(|(_, n)| !is_comment(inp.lang, **n))
    {
        if rules(inp.lang).kept_first.contains(&first.kind()) {
            anchor_end = first.end_byte();
            anchor_row = first.end_position().row;
            i = k + 1;
        }
    }
    // Keep comments on the anchor's line when nothing else follows them there.
    let mut kept_end = anchor_end;
    let mut last_comment_end = None;
    while let Some(c) = items.get(i) {
        if c.start_position().row != anchor_row {
            break;
        }
        if !is_comment(inp.lang, *c) {
            last_comment_end = None;
            break;
        }
        last_comment_end = Some(c.end_byte());
        i += 1;
    }
    if let Some(e) = last_comment_end {
        // Only when the next token starts on a later line.
        let next_row = items
            .get(i)
            .map_or(close.start_position().row, |c| c.start_position().row);
        if next_row > anchor_row {
            kept_end = e;
        }
    }
    let multiline = close.start_position().row > anchor_row;
    let end = off + close.start_byte();
    if !multiline {
        return Layout {
            start: off + anchor_end,
            end,
            multiline,
            eol: "\n",
            inner: String::new(),
            close_indent: String::new(),
        };
    }
    let mut start = fix_start(src, off + kept_end);
    if codethread_lang::macro_rules(inp.lang).is_some() {
        // `#ifdef W int a() { #else int b() { #endif`: the `#endif` stays.
        start = fix_start(src, codethread_lang::after_group_tail(src, start, end));
    }
    let eol = eol_near(src, start).as_str();
    let close_indent = line_indent(src, end);
    let inner = match first_inner_line_indent(src, start, end) {
        Some(ind) if ind.len() > close_indent.len() && ind.starts_with(close_indent.as_str()) => {
            ind
        }
        _ => {
            let unit = if close_indent.ends_with('\t') {
                "\t".to_string()
            } else {
                units.get(src, inp.lang).to_string()
            };
            format!("{close_indent}{unit}")
        }
    };
    Layout {
        start,
        end,
        multiline,
        eol,
        inner,
        close_indent,
    }
}

/// The `{` and `}` of a braced block and the nodes between them.
fn braces<'t>(block: Node<'t>) -> Result<(Node<'t>, Vec<Node<'t>>, Node<'t>), PlanError> {
    let n = block.child_count();
    let open = block.child(0).ok_or(PlanError::Malformed("empty block"))?;
    let close = block
        .child(n.saturating_sub(1))
        .ok_or(PlanError::Malformed("empty block"))?;
    if n < 2 || open.kind() != "{" || close.kind() != "}" || close.is_missing() {
        return Err(PlanError::Malformed("block without its braces"));
    }
    let mut c = block.walk();
    let items: Vec<Node<'t>> = block
        .children(&mut c)
        .skip(1)
        .take(n.saturating_sub(2))
        .collect();
    Ok((open, items, close))
}

/// `{ ... }` bodies (Go, Rust, JS/TS, Java, C, C++, PHP): replace what lies
/// between the braces, keeping a comment that ends the opener line.
fn plan_braces(
    inp: &PlanInput<'_, '_>,
    body: Node<'_>,
    units: &mut UnitCache,
) -> Result<Planned, PlanError> {
    let (open, items, close) = braces(body)?;
    let l = layout(
        inp,
        open.end_byte(),
        open.start_position().row,
        &items,
        close,
        units,
    );
    Ok(Planned {
        start: l.start,
        end: l.end,
        replacement: l.wrap(stub_statement(inp.lang)),
        warnings: Vec::new(),
    })
}

/// A function-try-block ([`TryBody`]): from inside the try block through
/// the last handler's block, replaced by the stub, `}`, one catch-all handler
/// and the stub again, so `try`, a constructor's initializer list and the
/// final `}` are kept.
fn plan_try(
    inp: &PlanInput<'_, '_>,
    body: Node<'_>,
    units: &mut UnitCache,
) -> Result<Planned, PlanError> {
    let t = rules(inp.lang)
        .try_body
        .as_ref()
        .ok_or(PlanError::Malformed("no function-try-block rule"))?;
    let block = body
        .child_by_field_name(t.block_field)
        .ok_or(PlanError::Malformed("function-try-block without its block"))?;
    let mut c = body.walk();
    let last_handler = body
        .children(&mut c)
        .filter(|n| n.kind() == t.handler_kind)
        .last()
        .ok_or(PlanError::Malformed("function-try-block without a handler"))?;
    if last_handler.end_byte() != body.end_byte() {
        return Err(PlanError::Malformed(
            "function-try-block does not end with a handler",
        ));
    }
    let handler_block = last_handler
        .child_by_field_name(t.handler_block_field)
        .ok_or(PlanError::Malformed("handler without its block"))?;
    let (open, items, _) = braces(block)?;
    let (_, _, close) = braces(handler_block)?;
    let l = layout(
        inp,
        open.end_byte(),
        open.start_position().row,
        &items,
        close,
        units,
    );
    let stub = stub_statement(inp.lang);
    let replacement = if l.multiline {
        let stubbed = l.wrap(stub);
        format!("{stubbed}}} {} {{{stubbed}", t.catch_all)
    } else {
        format!(" {stub} }} {} {{ {stub} ", t.catch_all)
    };
    Ok(Planned {
        start: l.start,
        end: l.end,
        replacement,
        warnings: Vec::new(),
    })
}

/// [`BodyForm::Closed`] bodies (Ruby `def f(a) ... end`): replace what lies
/// between the header (its last non-comment token before the body) and the
/// closing keyword, keeping a comment that ends the header line. An empty
/// body (`body` is `None`) gets the stub inserted.
fn plan_closed(
    inp: &PlanInput<'_, '_>,
    body: Option<Node<'_>>,
    close_kind: &str,
    units: &mut UnitCache,
) -> Result<Planned, PlanError> {
    let node = inp.node;
    let mut c = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut c).collect();
    let close = *children
        .last()
        .filter(|n| n.kind() == close_kind && !n.is_missing())
        .ok_or(if body.is_some() {
            PlanError::Malformed("body without its closing keyword")
        } else {
            PlanError::NoBody
        })?;
    let inner_start = body.map_or(close.start_byte(), |b| b.start_byte());
    let open = children
        .iter()
        .take_while(|n| n.end_byte() <= inner_start && n.id() != close.id())
        .filter(|n| !is_comment(inp.lang, **n))
        .last()
        .copied()
        .ok_or(PlanError::Malformed("function without a header"))?;
    let mut items = Vec::new();
    for ch in &children {
        if ch.start_byte() < open.end_byte() || ch.id() == close.id() {
            continue;
        }
        if body.is_some_and(|b| b.id() == ch.id()) {
            let mut bc = ch.walk();
            items.extend(ch.children(&mut bc));
        } else {
            items.push(*ch);
        }
    }
    let l = layout(
        inp,
        open.end_byte(),
        open.end_position().row,
        &items,
        close,
        units,
    );
    Ok(Planned {
        start: l.start,
        end: l.end,
        replacement: l.wrap(stub_statement(inp.lang)),
        warnings: Vec::new(),
    })
}

/// The docstring statement of a Python block: a first statement that is a
/// plain (not f-) string literal.
fn python_docstring<'t>(lang: Lang, block: Node<'t>, src: &[u8], off: usize) -> Option<Node<'t>> {
    let mut c = block.walk();
    let first = block
        .named_children(&mut c)
        .find(|n| !is_comment(lang, *n))?;
    if first.kind() != "expression_statement" || first.named_child_count() != 1 {
        return None;
    }
    let lit = first.named_child(0)?;
    let string = match lit.kind() {
        "string" => lit,
        "concatenated_string" => lit.named_child(0)?,
        _ => return None,
    };
    let text = src.get(off + string.start_byte()..off + string.end_byte())?;
    let prefix_len = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    if text[..prefix_len]
        .iter()
        .any(|b| matches!(b, b'f' | b'F' | b'b' | b'B'))
    {
        return None;
    }
    Some(first)
}

/// Python: replace the block after the `:` line (one-line bodies in place),
/// keeping a comment on the `def` line.
fn plan_python(inp: &PlanInput<'_, '_>, body: Node<'_>) -> Result<Planned, PlanError> {
    let src = inp.src;
    let off = inp.off;
    let node = inp.node;
    // The `:` opener: the last anonymous child before the body.
    let mut colon = None;
    let mut c = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut c).collect();
    for ch in &children {
        if ch.start_byte() >= body.start_byte() {
            break;
        }
        if ch.kind() == ":" {
            colon = Some(*ch);
        }
    }
    let colon = colon.ok_or(PlanError::Malformed("def without ':'"))?;
    let opener_row = colon.start_position().row;
    let mut bc = body.walk();
    let stmts: Vec<Node<'_>> = body.children(&mut bc).collect();
    let first_stmt = stmts
        .iter()
        .find(|n| n.is_named() && !is_comment(inp.lang, **n))
        .copied()
        .ok_or(PlanError::Malformed("block without a statement"))?;
    let doc = if inp.keep_docs {
        python_docstring(inp.lang, body, src, off)
    } else {
        None
    };
    let gen = inp.is_generator;

    if body.start_position().row == opener_row {
        // One-line body: `def f(): return 1  # comment`.
        let last = stmts
            .iter()
            .rev()
            .find(|n| !is_comment(inp.lang, **n))
            .copied()
            .ok_or(PlanError::Malformed("block without a statement"))?;
        let end = off + last.end_byte();
        let (start, mut replacement) = match doc {
            Some(d) => (off + d.end_byte(), format!("; {PYTHON_STUB}")),
            None => (off + body.start_byte(), PYTHON_STUB.to_string()),
        };
        if gen {
            replacement.push_str("; ");
            replacement.push_str(PYTHON_YIELD);
        }
        return Ok(Planned {
            start,
            end: end.max(start),
            replacement,
            warnings: Vec::new(),
        });
    }

    // Multi-line body. Keep the `:` line, with a trailing comment on it.
    let mut kept_end = colon.end_byte();
    for ch in &children {
        if ch.start_byte() >= body.start_byte() {
            break;
        }
        if ch.start_byte() >= colon.end_byte()
            && is_comment(inp.lang, *ch)
            && ch.start_position().row == opener_row
        {
            kept_end = ch.end_byte();
        }
    }
    if !only_indent_before(src, off + first_stmt.start_byte()) {
        return Err(PlanError::Malformed(
            "first statement does not start its line",
        ));
    }
    let indent = line_indent(src, off + first_stmt.start_byte());
    // Trailing comments dedented below the body belong to the enclosing code.
    let body_col = first_stmt.start_position().column;
    let last_kept = stmts
        .iter()
        .rev()
        .find(|n| !(is_comment(inp.lang, **n) && n.start_position().column < body_col))
        .copied()
        .unwrap_or(first_stmt);
    let end = fix_end(src, off + last_kept.end_byte());
    let start = match doc {
        Some(d) => off + d.end_byte(),
        None => fix_start(src, off + kept_end),
    };
    // The ending of the `:` line, or of the docstring's line.
    let eol: &str = eol_near(src, start).as_str();
    let mut replacement = format!("{eol}{indent}{PYTHON_STUB}");
    if gen {
        replacement.push_str(eol);
        replacement.push_str(&indent);
        replacement.push_str(PYTHON_YIELD);
    }
    Ok(Planned {
        start,
        end: end.max(start),
        replacement,
        warnings: Vec::new(),
    })
}

/// Warnings for stubs that parse but cannot type-check
/// ([`StubRules::header_warnings`], [`StubRules::derived_constructor`]).
fn collect_warnings(inp: &PlanInput<'_, '_>, out: &mut Vec<Warning>) {
    let node = inp.node;
    let r = rules(inp.lang);
    if r.header_warnings.is_empty() && r.derived_constructor.is_none() {
        return;
    }
    let body_start = find_body(inp).map_or(node.end_byte(), |b| b.start_byte());
    let mut c = node.walk();
    let header: Vec<Node<'_>> = node
        .children(&mut c)
        .filter(|n| n.end_byte() <= body_start)
        .collect();
    let header_has = |kinds: &[&str]| {
        !kinds.is_empty()
            && header
                .iter()
                .any(|n| kinds.iter().any(|k| subtree_has_kind(*n, k)))
    };
    for w in r.header_warnings {
        let found = match w.field {
            Some(field) => node
                .child_by_field_name(field)
                .is_some_and(|n| w.kinds.iter().any(|k| subtree_has_kind(n, k))),
            None => header_has(w.kinds),
        };
        if found && !header_has(w.unless) && !out.contains(&w.warning) {
            out.push(w.warning);
        }
    }
    if let Some(d) = &r.derived_constructor {
        if node.kind() == d.node_kind && is_derived_constructor(inp, d) {
            out.push(Warning::DerivedConstructor);
        }
    }
}

fn is_derived_constructor(inp: &PlanInput<'_, '_>, d: &DerivedConstructor) -> bool {
    let node = inp.node;
    let Some(name) = node.child_by_field_name("name") else {
        return false;
    };
    let name_text = inp
        .src
        .get(inp.off + name.start_byte()..inp.off + name.end_byte())
        .unwrap_or(&[]);
    if name_text != d.name.as_bytes() {
        return false;
    }
    let Some(class) = inp.grandparent else {
        return false;
    };
    let mut c = class.walk();
    let derived = class
        .children(&mut c)
        .filter(|n| n.kind() == d.heritage_kind)
        .any(|h| {
            let mut c2 = h.walk();
            let found = h.children(&mut c2).any(|n| n.kind() == d.extends_kind);
            found
        });
    derived
}

/// Whether the function of `inp` returns `void` ([`ConstexprVoid`]).
fn returns_void(inp: &PlanInput<'_, '_>, cv: &ConstexprVoid) -> bool {
    let node = inp.node;
    let ty = node.child_by_field_name(cv.type_field);
    let decl = node.child_by_field_name(cv.declarator_field);
    ty.is_some_and(|t| {
        t.kind() == cv.void_kind
            && inp
                .src
                .get(inp.off + t.start_byte()..inp.off + t.end_byte())
                == Some(cv.void_text.as_bytes())
    }) && decl.is_some_and(|d| d.kind() == cv.declarator_kind)
}

/// Iterative search for a node kind below (and including) `root`.
fn subtree_has_kind(root: Node<'_>, kind: &str) -> bool {
    codethread_lang::preorder(root).any(|n| n.kind() == kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expression_body_stubs_hold_the_statement_stub() {
        assert_eq!(JS_EXPR_STUB, format!("{{ {JS_STUB} }}"));
        for lang in Lang::ALL {
            let r = rules(lang);
            assert_eq!(stub_statement(lang), r.stub);
            if let BodyForm::Braced {
                expr_stub: Some(e), ..
            } = r.form
            {
                assert!(e.contains(r.stub), "{lang:?}: {e}");
            }
        }
    }
}
