//! Static detector of input/error-contract (IEC) drift between the human and the agent PR1 of
//! each target function.
//!
//! For a target function found in both sources (by qualified name, via
//! `codethread_lang::index_functions`), it collects three signatures and flags any difference:
//!
//! - **raise sites**: exception / panic / error-return sites by type — Python `raise X(...)`,
//!   JS/TS `throw new X(...)`, Go `panic(...)`, `errors.New` / `fmt.Errorf`, Rust `panic!`-family
//!   macros and `Err(...)` (compared as multisets of type names);
//! - **guard clauses**: `if` statements whose condition mentions a parameter and whose branch
//!   exits (raise / throw / return / panic), compared by normalised condition text and exit;
//! - **defaults**: parameter defaults (`def f(x=None)`, `function f(x = 1)`) and defaulting calls
//!   (`getattr(x, n, None)`, `d.get(k, d)`, Rust `unwrap_or(v)`, JS `a ?? b`), keyed by the call
//!   without its default so that a changed or dropped default is a difference.
//!
//! All language knowledge is in the [`IecSpec`] data tables; one generic iterative walker reads
//! them. Parsing goes through `codethread_lang::parse`.

use codethread_lang::tree_sitter::Node;
use codethread_lang::{index_functions, parse, Function, Lang, ParsedFile, PerLang};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A call expression kind and where its callee's name is read.
#[derive(Debug, Clone, Copy)]
pub struct CalleeRule {
    /// Node kind.
    pub kind: &'static str,
    /// Fields whose texts, joined with `.`, name the callee (`function`; Java
    /// `object` + `name`; Ruby `receiver` + `method`; Rust `macro`). Absent
    /// fields are skipped.
    pub name_fields: &'static [&'static str],
}

/// Where a constructor call (`new X(...)`) names its class.
#[derive(Debug, Clone, Copy)]
pub enum NameFrom {
    /// A field of the node (`constructor`, `type`).
    Field(&'static str),
    /// The first named child (PHP `new \X(...)`).
    FirstNamed,
}

/// A conditional whose branch can be a guard clause.
#[derive(Debug, Clone, Copy)]
pub struct IfRule {
    /// Node kind.
    pub kind: &'static str,
    /// Field holding the condition.
    pub condition: &'static str,
    /// Field holding the guarded branch.
    pub consequence: &'static str,
    /// Prefix of the guard's key (`unless `: the condition is negated).
    pub label: &'static str,
}

/// Per-language node kinds and names used by the detector.
#[derive(Debug)]
pub struct IecSpec {
    /// Statements that raise / throw (their first named non-comment child is the raised
    /// expression).
    pub raise_kinds: &'static [&'static str],
    /// Called names that raise (Ruby `raise`, `fail`): the raised type is the first argument.
    pub raise_calls: &'static [&'static str],
    /// Call expression kinds (arguments in the field `arguments`).
    pub call_kinds: &'static [CalleeRule],
    /// Constructor-call kinds and where the class name is, e.g. JS `new X()`.
    pub new_kinds: &'static [(&'static str, NameFrom)],
    /// Called names (last path segment or full text) that abort: `panic`, `unreachable`,
    /// `assert`, `Objects.requireNonNull`, ...
    pub panic_names: &'static [&'static str],
    /// Called names that construct an error value returned to the caller.
    pub error_ctor_names: &'static [&'static str],
    /// Conditionals whose consequence can be a guard clause.
    pub if_kinds: &'static [IfRule],
    /// Exit statement kinds (return / raise / throw).
    pub exit_kinds: &'static [&'static str],
    /// Return kinds whose value marks an error return (C `return -1;`, `return NULL;`).
    pub return_kinds: &'static [&'static str],
    /// Returned texts that are error returns: a value that starts with one of
    /// `error_return_prefixes` (`-`: `-1`, `-EINVAL`) or equals one of
    /// `error_return_values` (`NULL`). Recorded as `error-return:<text>`.
    pub error_return_prefixes: &'static [&'static str],
    /// See `error_return_prefixes`.
    pub error_return_values: &'static [&'static str],
    /// Declared exception lists in a signature (Java `throws`): each named child is recorded
    /// as `throws:<Type>`.
    pub throws_kinds: &'static [&'static str],
    /// Kinds of the parameter list, searched for in the function's header when none of the
    /// fields `parameters`, `parameter`, `receiver` is on the function node (C/C++: inside
    /// the declarator).
    pub param_list_kinds: &'static [&'static str],
    /// Parameter-with-default kinds: (kind, name field, value field).
    pub param_defaults: &'static [(&'static str, &'static str, &'static str)],
    /// Defaulting calls: (method / function name, index of the default argument).
    pub default_calls: &'static [(&'static str, usize)],
    /// Binary-expression kind and defaulting operators (`??`, `||`).
    pub default_ops: (&'static str, &'static [&'static str]),
    /// Identifier kinds.
    pub identifier_kinds: &'static [&'static str],
    /// Attribute / member access kinds (`errors.E`, `self.Error`): a raised name.
    pub member_kinds: &'static [&'static str],
}

const fn call(kind: &'static str, name_fields: &'static [&'static str]) -> CalleeRule {
    CalleeRule { kind, name_fields }
}

const fn iff(kind: &'static str, condition: &'static str, consequence: &'static str) -> IfRule {
    IfRule {
        kind,
        condition,
        consequence,
        label: "",
    }
}

/// A table with nothing in it, the base of every language's table.
const EMPTY: IecSpec = IecSpec {
    raise_kinds: &[],
    raise_calls: &[],
    call_kinds: &[],
    new_kinds: &[],
    panic_names: &[],
    error_ctor_names: &[],
    if_kinds: &[],
    exit_kinds: &[],
    return_kinds: &[],
    error_return_prefixes: &[],
    error_return_values: &[],
    throws_kinds: &[],
    param_list_kinds: &[],
    param_defaults: &[],
    default_calls: &[],
    default_ops: ("", &[]),
    identifier_kinds: &["identifier"],
    member_kinds: &[],
};

/// Python.
pub const PYTHON: IecSpec = IecSpec {
    raise_kinds: &["raise_statement"],
    call_kinds: &[call("call", &["function"])],
    panic_names: &["sys.exit", "os._exit", "exit"],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["raise_statement", "return_statement"],
    param_defaults: &[
        ("default_parameter", "name", "value"),
        ("typed_default_parameter", "name", "value"),
    ],
    default_calls: &[
        ("getattr", 2),
        ("get", 1),
        ("pop", 1),
        ("setdefault", 1),
        ("next", 1),
    ],
    default_ops: ("boolean_operator", &["or"]),
    member_kinds: &["attribute"],
    ..EMPTY
};

/// JavaScript, TypeScript and TSX.
pub const JAVASCRIPT: IecSpec = IecSpec {
    raise_kinds: &["throw_statement"],
    call_kinds: &[call("call_expression", &["function"])],
    new_kinds: &[("new_expression", NameFrom::Field("constructor"))],
    panic_names: &["process.exit"],
    error_ctor_names: &["Promise.reject"],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["throw_statement", "return_statement"],
    param_defaults: &[
        ("assignment_pattern", "left", "right"),
        ("required_parameter", "pattern", "value"),
        ("optional_parameter", "pattern", "value"),
    ],
    default_calls: &[("get", 1), ("getOrDefault", 1)],
    default_ops: ("binary_expression", &["??", "||"]),
    identifier_kinds: &["identifier", "shorthand_property_identifier_pattern"],
    member_kinds: &["member_expression"],
    ..EMPTY
};

/// Go.
pub const GO: IecSpec = IecSpec {
    call_kinds: &[call("call_expression", &["function"])],
    panic_names: &[
        "panic",
        "log.Fatal",
        "log.Fatalf",
        "log.Panic",
        "log.Panicf",
        "os.Exit",
    ],
    error_ctor_names: &["errors.New", "fmt.Errorf", "errors.Wrap", "errors.Wrapf"],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["return_statement"],
    default_ops: ("binary_expression", &[]),
    ..EMPTY
};

/// Rust.
pub const RUST: IecSpec = IecSpec {
    call_kinds: &[
        call("call_expression", &["function"]),
        call("macro_invocation", &["macro"]),
    ],
    panic_names: &[
        "panic",
        "unreachable",
        "unimplemented",
        "todo",
        "assert",
        "assert_eq",
        "assert_ne",
        "expect",
        "unwrap",
    ],
    error_ctor_names: &["Err", "bail", "anyhow"],
    if_kinds: &[iff("if_expression", "condition", "consequence")],
    exit_kinds: &["return_expression"],
    default_calls: &[
        ("unwrap_or", 0),
        ("unwrap_or_else", 0),
        ("map_or", 0),
        ("get_or", 0),
    ],
    default_ops: ("binary_expression", &[]),
    ..EMPTY
};

/// Java: `throw`, declared `throws` lists, `Objects.requireNonNull` and `assert`
/// (`assert_statement` exits like a throw), guard clauses, `getOrDefault` / `orElse`
/// defaults.
pub const JAVA: IecSpec = IecSpec {
    raise_kinds: &["throw_statement"],
    call_kinds: &[call("method_invocation", &["object", "name"])],
    new_kinds: &[("object_creation_expression", NameFrom::Field("type"))],
    panic_names: &[
        "Objects.requireNonNull",
        "Preconditions.checkNotNull",
        "Preconditions.checkArgument",
        "Preconditions.checkState",
        "System.exit",
    ],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["throw_statement", "return_statement"],
    throws_kinds: &["throws"],
    default_calls: &[("getOrDefault", 1), ("orElse", 0)],
    member_kinds: &["field_access", "scoped_type_identifier"],
    identifier_kinds: &["identifier", "type_identifier"],
    ..EMPTY
};

/// C: error returns (`return -1;`, `return -EINVAL;`, `return NULL;`), `assert`, `abort`,
/// `exit`, guard clauses on parameters.
pub const C: IecSpec = IecSpec {
    call_kinds: &[call("call_expression", &["function"])],
    panic_names: &["assert", "abort", "exit", "_exit", "__builtin_trap"],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["return_statement"],
    return_kinds: &["return_statement"],
    error_return_prefixes: &["-"],
    error_return_values: &["NULL", "EOF", "false"],
    param_list_kinds: &["parameter_list"],
    member_kinds: &["field_expression"],
    ..EMPTY
};

/// C++: `throw`, `assert`/`abort`/`std::terminate`, error returns as in C, default
/// arguments.
pub const CPP: IecSpec = IecSpec {
    raise_kinds: &["throw_statement"],
    call_kinds: &[call("call_expression", &["function"])],
    new_kinds: &[("new_expression", NameFrom::Field("type"))],
    panic_names: &[
        "assert",
        "abort",
        "exit",
        "std.abort",
        "std.exit",
        "std.terminate",
        "__builtin_trap",
    ],
    if_kinds: &[iff("if_statement", "condition", "consequence")],
    exit_kinds: &["throw_statement", "return_statement"],
    return_kinds: &["return_statement"],
    error_return_prefixes: &["-"],
    error_return_values: &["NULL", "nullptr", "EOF", "false"],
    param_list_kinds: &["parameter_list"],
    param_defaults: &[(
        "optional_parameter_declaration",
        "declarator",
        "default_value",
    )],
    member_kinds: &["field_expression", "qualified_identifier"],
    ..EMPTY
};

/// Ruby: `raise` / `fail` (calls), guard clauses in `if` / `unless` and their modifier
/// forms, optional and keyword parameter defaults, `fetch(key, default)`, `a || b`.
pub const RUBY: IecSpec = IecSpec {
    raise_calls: &["raise", "fail"],
    call_kinds: &[call("call", &["receiver", "method"])],
    panic_names: &["exit", "exit!", "abort"],
    if_kinds: &[
        iff("if", "condition", "consequence"),
        iff("if_modifier", "condition", "body"),
        IfRule {
            kind: "unless",
            condition: "condition",
            consequence: "consequence",
            label: "unless ",
        },
        IfRule {
            kind: "unless_modifier",
            condition: "condition",
            consequence: "body",
            label: "unless ",
        },
    ],
    exit_kinds: &["return"],
    param_defaults: &[
        ("optional_parameter", "name", "value"),
        ("keyword_parameter", "name", "value"),
    ],
    default_calls: &[("fetch", 1)],
    default_ops: ("binary", &["||"]),
    member_kinds: &["scope_resolution", "constant"],
    ..EMPTY
};

/// PHP: `throw` (an expression since PHP 8), guard clauses, parameter defaults, `??`.
pub const PHP: IecSpec = IecSpec {
    raise_kinds: &["throw_expression", "throw_statement"],
    call_kinds: &[
        call("function_call_expression", &["function"]),
        call("member_call_expression", &["object", "name"]),
        call("scoped_call_expression", &["scope", "name"]),
        call("nullsafe_member_call_expression", &["object", "name"]),
    ],
    new_kinds: &[("object_creation_expression", NameFrom::FirstNamed)],
    panic_names: &["exit", "die", "assert", "trigger_error"],
    if_kinds: &[iff("if_statement", "condition", "body")],
    exit_kinds: &["throw_expression", "throw_statement", "return_statement"],
    param_list_kinds: &["formal_parameters"],
    param_defaults: &[
        ("simple_parameter", "name", "default_value"),
        ("property_promotion_parameter", "name", "default_value"),
    ],
    default_calls: &[("get", 1)],
    default_ops: ("binary_expression", &["??", "?:"]),
    identifier_kinds: &["variable_name", "name", "qualified_name"],
    member_kinds: &[
        "member_access_expression",
        "class_constant_access_expression",
    ],
    ..EMPTY
};

/// The detector tables, one row per language.
static SPECS: PerLang<&IecSpec> = PerLang::new([
    (Lang::Python, &PYTHON),
    (Lang::Go, &GO),
    (Lang::Rust, &RUST),
    (Lang::JavaScript, &JAVASCRIPT),
    (Lang::TypeScript, &JAVASCRIPT),
    (Lang::Tsx, &JAVASCRIPT),
    (Lang::Java, &JAVA),
    (Lang::C, &C),
    (Lang::Cpp, &CPP),
    (Lang::Ruby, &RUBY),
    (Lang::Php, &PHP),
]);

/// The data table of a language.
pub fn spec(lang: Lang) -> &'static IecSpec {
    SPECS.get(lang)
}

/// The contract signature of one function.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ContractSignature {
    /// Raise / panic / error sites by type, with counts.
    pub raises: BTreeMap<String, usize>,
    /// Guard clauses on parameters: `condition => exit`.
    pub guards: BTreeMap<String, usize>,
    /// Defaults: site → its distinct default texts, sorted (`<none>` when a call has none).
    pub defaults: BTreeMap<String, Vec<String>>,
    /// Parameter names.
    pub params: BTreeSet<String>,
}

/// One difference between the human and the agent function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum ContractChange {
    /// A raise / panic / error site type added (count) in the agent's version.
    RaiseAdded(String, usize),
    /// A raise / panic / error site type removed (count).
    RaiseRemoved(String, usize),
    /// A guard clause added.
    GuardAdded(String),
    /// A guard clause removed.
    GuardRemoved(String),
    /// A default changed: site, human defaults, agent defaults.
    DefaultChanged(String, Vec<String>, Vec<String>),
}

/// Result for one target function.
#[derive(Debug, Clone, Serialize)]
pub struct FunctionIec {
    /// Qualified name.
    pub qualname: String,
    /// Found in the human source.
    pub in_human: bool,
    /// Found in the agent source.
    pub in_agent: bool,
    /// Differences (empty when equal or when missing on a side).
    pub changes: Vec<ContractChange>,
}

/// IEC result for a file pair.
#[derive(Debug, Clone, Serialize)]
pub struct IecReport {
    /// True when any target function's contract changed.
    pub flag: bool,
    /// Per target function.
    pub functions: Vec<FunctionIec>,
}

/// Errors of the detector (parsing).
pub type IecError = codethread_lang::LangError;

/// Compares the human and agent PR1 sources of `targets` (qualified names).
///
/// Both sides are parsed with one grammar. For JavaScript with syntax errors
/// on either side the TypeScript and TSX grammars are tried too, and the one
/// with the fewest ERROR/MISSING nodes over both sides is kept (Flow-typed
/// `.js` files parse only as TypeScript; ties keep JavaScript), as
/// [`codethread_lang::parse_file`] does for one file.
pub fn detect_iec(
    lang: Lang,
    human: &[u8],
    agent: &[u8],
    targets: &[String],
) -> Result<IecReport, IecError> {
    let (hf, af) = parse_pair(lang, human, agent)?;
    // Each side is indexed once, not once per target.
    let (hi, ai) = (index_functions(&hf), index_functions(&af));
    let mut functions = Vec::new();
    for t in targets {
        let hs = signature_in(&hf, &hi, t);
        let as_ = signature_in(&af, &ai, t);
        let changes = match (&hs, &as_) {
            (Some(h), Some(a)) => diff(h, a),
            _ => Vec::new(),
        };
        functions.push(FunctionIec {
            qualname: t.clone(),
            in_human: hs.is_some(),
            in_agent: as_.is_some(),
            changes,
        });
    }
    Ok(IecReport {
        flag: functions.iter().any(|f| !f.changes.is_empty()),
        functions,
    })
}

/// Parse both sides with the grammar that fits them best (see [`detect_iec`]).
fn parse_pair(
    lang: Lang,
    human: &[u8],
    agent: &[u8],
) -> Result<(ParsedFile, ParsedFile), IecError> {
    let mut best = (parse(lang, human.to_vec())?, parse(lang, agent.to_vec())?);
    let errors = |p: &(ParsedFile, ParsedFile)| p.0.parse_errors + p.1.parse_errors;
    if errors(&best) == 0 {
        return Ok(best);
    }
    for &alt in lang.fallback_grammars() {
        let pair = (parse(alt, human.to_vec())?, parse(alt, agent.to_vec())?);
        if errors(&pair) < errors(&best) {
            best = pair;
        }
    }
    Ok(best)
}

/// The contract signature of the first function named `qualname` in `file`.
pub fn signature_of(file: &ParsedFile, qualname: &str) -> Option<ContractSignature> {
    signature_in(file, &index_functions(file), qualname)
}

/// [`signature_of`] with the file's function index already built.
fn signature_in(
    file: &ParsedFile,
    index: &[Function],
    qualname: &str,
) -> Option<ContractSignature> {
    let f = index
        .iter()
        .find(|f| f.qualname == qualname && !f.anonymous)?;
    let node = f.find_node(file)?;
    Some(signature(file, node, spec(file.lang)))
}

fn text(file: &ParsedFile, n: Node<'_>) -> String {
    let t = file.text_lossy(n);
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn name_tail(s: &str) -> &str {
    s.rsplit(['.', ':']).next().unwrap_or(s)
}

fn matches_name(name: &str, list: &[&str]) -> Option<String> {
    let tail = name_tail(name);
    list.iter()
        .find(|l| **l == name || (!l.contains('.') && **l == tail))
        .map(|l| (*l).to_string())
}

fn params(file: &ParsedFile, func: Node<'_>, sp: &IecSpec) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut roots = Vec::new();
    for field in ["parameters", "parameter", "receiver"] {
        if let Some(p) = func.child_by_field_name(field) {
            roots.push(p);
        }
    }
    if roots.is_empty() && !sp.param_list_kinds.is_empty() {
        // C/C++: the parameter list sits inside the declarator; search the header only.
        let body_start = func
            .child_by_field_name("body")
            .map_or(usize::MAX, |b| b.start_byte());
        let mut stack = vec![func];
        while let Some(n) = stack.pop() {
            if n.start_byte() >= body_start {
                continue;
            }
            if sp.param_list_kinds.contains(&n.kind()) {
                roots.push(n);
                break;
            }
            let mut c = n.walk();
            let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
            stack.extend(kids.into_iter().rev());
        }
    }
    for root in roots {
        let mut cursor = root.walk();
        let mut stack = vec![(root, false)];
        while let Some((n, in_type)) = stack.pop() {
            if !in_type && sp.identifier_kinds.contains(&n.kind()) {
                out.insert(text(file, n));
            }
            if n.child_count() == 0 {
                continue;
            }
            cursor.reset(n);
            if cursor.goto_first_child() {
                loop {
                    let field = cursor.field_name();
                    let ty = in_type
                        || matches!(
                            field,
                            Some("type" | "value" | "right" | "return_type" | "default_value")
                        );
                    stack.push((cursor.node(), ty));
                    if !cursor.goto_next_sibling() {
                        break;
                    }
                }
            }
        }
    }
    out
}

fn call_rule<'s>(sp: &'s IecSpec, kind: &str) -> Option<&'s CalleeRule> {
    sp.call_kinds.iter().find(|c| c.kind == kind)
}

fn new_rule(sp: &IecSpec, kind: &str) -> Option<NameFrom> {
    sp.new_kinds
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, from)| *from)
}

/// The class a constructor call names.
fn new_name(file: &ParsedFile, n: Node<'_>, from: NameFrom) -> Option<String> {
    match from {
        NameFrom::Field(f) => n.child_by_field_name(f).map(|x| text(file, x)),
        NameFrom::FirstNamed => {
            let mut c = n.walk();
            let first = n.named_children(&mut c).find(|x| !x.is_extra());
            first.map(|x| text(file, x))
        }
    }
}

/// The name a raised expression gives: a constructor's class, a callee, an identifier or
/// member access, else `<kind>`.
fn expr_name(file: &ParsedFile, e: Node<'_>, sp: &IecSpec) -> String {
    if let Some(from) = new_rule(sp, e.kind()) {
        if let Some(t) = new_name(file, e, from) {
            return t;
        }
    }
    if let Some(rule) = call_rule(sp, e.kind()) {
        if let Some(t) = callee(file, e, rule) {
            // Ruby `raise Error.new("m")`: the receiver is the raised class.
            return t.strip_suffix(".new").map_or(t.clone(), str::to_string);
        }
    }
    if sp.identifier_kinds.contains(&e.kind()) || sp.member_kinds.contains(&e.kind()) {
        return text(file, e);
    }
    format!("<{}>", e.kind())
}

fn raised_type(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> String {
    let mut c = n.walk();
    let Some(e) = n.named_children(&mut c).find(|x| !x.is_extra()) else {
        return "<reraise>".to_string();
    };
    expr_name(file, e, sp)
}

/// The callee of a call: the texts of the rule's name fields joined with `.` (`::` and `->`
/// written as `.`).
fn callee(file: &ParsedFile, n: Node<'_>, rule: &CalleeRule) -> Option<String> {
    let parts: Vec<String> = rule
        .name_fields
        .iter()
        .filter_map(|f| n.child_by_field_name(f))
        .map(|f| text(file, f).replace("::", ".").replace("->", "."))
        .collect();
    (!parts.is_empty()).then(|| parts.join("."))
}

fn call_name(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> Option<String> {
    callee(file, n, call_rule(sp, n.kind())?)
}

/// For a call to a raising name (Ruby `raise X, "m"`), the raised type: the first argument's
/// name, or `RuntimeError`-free `<message>` when only a message is given.
fn raise_call_type(file: &ParsedFile, n: Node<'_>, name: &str, sp: &IecSpec) -> Option<String> {
    if !sp.raise_calls.contains(&name) {
        return None;
    }
    Some(match args(n).first() {
        Some(a)
            if sp.identifier_kinds.contains(&a.kind()) || sp.member_kinds.contains(&a.kind()) =>
        {
            text(file, *a)
        }
        Some(a) if call_rule(sp, a.kind()).is_some() || new_rule(sp, a.kind()).is_some() => {
            expr_name(file, *a, sp)
        }
        Some(_) => "<message>".to_string(),
        None => "<reraise>".to_string(),
    })
}

/// The error value a return statement gives back (C `return -1;`), if it is one.
fn error_return(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> Option<String> {
    if !sp.return_kinds.contains(&n.kind()) {
        return None;
    }
    let mut c = n.walk();
    let v = n.named_children(&mut c).find(|x| !x.is_extra())?;
    let t = text(file, v);
    let hit = sp.error_return_values.contains(&t.as_str())
        || sp.error_return_prefixes.iter().any(|p| t.starts_with(p));
    hit.then_some(t)
}

fn args(n: Node<'_>) -> Vec<Node<'_>> {
    let Some(a) = n.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut c = a.walk();
    // Comments (extras: `comment`, Rust `line_comment` / `block_comment`) are not arguments;
    // PHP wraps each argument in an `argument` node.
    a.named_children(&mut c)
        .filter(|x| !x.is_extra())
        .map(|x| {
            if x.kind() == "argument" && x.named_child_count() == 1 {
                x.named_child(0).unwrap_or(x)
            } else {
                x
            }
        })
        .collect()
}

fn is_exit(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> Option<String> {
    if sp.exit_kinds.contains(&n.kind()) {
        if sp.raise_kinds.contains(&n.kind()) {
            return Some(format!("raise {}", raised_type(file, n, sp)));
        }
        if let Some(e) = error_return(file, n, sp) {
            return Some(format!("return {e}"));
        }
        return Some("return".into());
    }
    if call_rule(sp, n.kind()).is_some() {
        let name = call_name(file, n, sp)?;
        if let Some(t) = raise_call_type(file, n, &name, sp) {
            return Some(format!("raise {t}"));
        }
        return matches_name(&name, sp.panic_names).map(|p| format!("panic {p}"));
    }
    None
}

/// First exit among the first statements of a branch (looking through expression statements).
fn branch_exit(file: &ParsedFile, branch: Node<'_>, sp: &IecSpec) -> Option<String> {
    let mut stack = vec![(branch, 0usize)];
    let mut seen = 0;
    while let Some((n, depth)) = stack.pop() {
        seen += 1;
        if seen > 64 {
            break;
        }
        if let Some(e) = is_exit(file, n, sp) {
            return Some(e);
        }
        if depth < 2 {
            let mut c = n.walk();
            let kids: Vec<Node<'_>> = n.named_children(&mut c).take(3).collect();
            for k in kids.into_iter().rev() {
                stack.push((k, depth + 1));
            }
        }
    }
    None
}

fn mentions(file: &ParsedFile, n: Node<'_>, names: &BTreeSet<String>, sp: &IecSpec) -> bool {
    let mut stack = vec![n];
    while let Some(x) = stack.pop() {
        if sp.identifier_kinds.contains(&x.kind()) && names.contains(&text(file, x)) {
            return true;
        }
        let mut c = x.walk();
        stack.extend(x.named_children(&mut c));
    }
    false
}

/// The contract signature of a function node (iterative walk; nested functions included, as
/// their raises are part of what the function can surface).
pub fn signature(file: &ParsedFile, func: Node<'_>, sp: &IecSpec) -> ContractSignature {
    let mut sig = ContractSignature {
        params: params(file, func, sp),
        ..Default::default()
    };
    let mut stack = vec![func];
    while let Some(n) = stack.pop() {
        let kind = n.kind();
        if sp.raise_kinds.contains(&kind) {
            *sig.raises.entry(raised_type(file, n, sp)).or_default() += 1;
        } else if sp.throws_kinds.contains(&kind) {
            let mut c = n.walk();
            for t in n.named_children(&mut c).filter(|x| !x.is_extra()) {
                *sig.raises
                    .entry(format!("throws:{}", text(file, t)))
                    .or_default() += 1;
            }
        } else if let Some(e) = error_return(file, n, sp) {
            *sig.raises.entry(format!("error-return:{e}")).or_default() += 1;
        } else if call_rule(sp, kind).is_some() {
            if let Some(name) = call_name(file, n, sp) {
                if let Some(t) = raise_call_type(file, n, &name, sp) {
                    *sig.raises.entry(t).or_default() += 1;
                } else if let Some(p) = matches_name(&name, sp.panic_names) {
                    *sig.raises.entry(format!("panic:{p}")).or_default() += 1;
                } else if let Some(e) = matches_name(&name, sp.error_ctor_names) {
                    *sig.raises.entry(format!("error:{e}")).or_default() += 1;
                }
                let tail = name_tail(&name).to_string();
                if let Some((_, idx)) = sp.default_calls.iter().find(|(c, _)| *c == tail) {
                    let a = args(n);
                    let recv = name.strip_suffix(&tail).unwrap_or("").to_string();
                    let key_args: Vec<String> = a
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| i != idx)
                        .map(|(_, x)| text(file, *x))
                        .collect();
                    let key = format!("{recv}{tail}({})", key_args.join(", "));
                    let val = a
                        .get(*idx)
                        .map(|x| text(file, *x))
                        .unwrap_or_else(|| "<none>".into());
                    sig.defaults.entry(key).or_default().push(val);
                }
            }
        } else if kind == sp.default_ops.0 {
            if let Some(op) = n.child_by_field_name("operator") {
                let o = text(file, op);
                if sp.default_ops.1.contains(&o.as_str()) {
                    if let (Some(l), Some(r)) = (
                        n.child_by_field_name("left"),
                        n.child_by_field_name("right"),
                    ) {
                        if mentions(file, l, &sig.params, sp) {
                            sig.defaults
                                .entry(format!("{} {o}", text(file, l)))
                                .or_default()
                                .push(text(file, r));
                        }
                    }
                }
            }
        } else if let Some(rule) = sp.if_kinds.iter().find(|r| r.kind == kind) {
            if let (Some(c), Some(b)) = (
                n.child_by_field_name(rule.condition),
                n.child_by_field_name(rule.consequence),
            ) {
                if mentions(file, c, &sig.params, sp) {
                    if let Some(e) = branch_exit(file, b, sp) {
                        *sig.guards
                            .entry(format!("{}{} => {e}", rule.label, text(file, c)))
                            .or_default() += 1;
                    }
                }
            }
        }
        if let Some((_, nf, vf)) = sp.param_defaults.iter().find(|(k, _, _)| *k == kind) {
            if let (Some(nm), Some(v)) = (n.child_by_field_name(nf), n.child_by_field_name(vf)) {
                sig.defaults
                    .entry(format!("param {}", text(file, nm)))
                    .or_default()
                    .push(text(file, v));
            }
        }
        let mut c = n.walk();
        let kids: Vec<Node<'_>> = n.named_children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    // a site's distinct default values: calling the same site more often is not a change
    for v in sig.defaults.values_mut() {
        v.sort();
        v.dedup();
    }
    sig
}

/// Differences between two signatures (human → agent).
pub fn diff(h: &ContractSignature, a: &ContractSignature) -> Vec<ContractChange> {
    let mut out = Vec::new();
    let keys: BTreeSet<&String> = h.raises.keys().chain(a.raises.keys()).collect();
    for k in keys {
        let (x, y) = (
            h.raises.get(k).copied().unwrap_or(0),
            a.raises.get(k).copied().unwrap_or(0),
        );
        if y > x {
            out.push(ContractChange::RaiseAdded(k.clone(), y - x));
        } else if x > y {
            out.push(ContractChange::RaiseRemoved(k.clone(), x - y));
        }
    }
    let keys: BTreeSet<&String> = h.guards.keys().chain(a.guards.keys()).collect();
    for k in keys {
        let (x, y) = (
            h.guards.get(k).copied().unwrap_or(0),
            a.guards.get(k).copied().unwrap_or(0),
        );
        if y > x {
            out.push(ContractChange::GuardAdded(k.clone()));
        } else if x > y {
            out.push(ContractChange::GuardRemoved(k.clone()));
        }
    }
    let keys: BTreeSet<&String> = h.defaults.keys().chain(a.defaults.keys()).collect();
    for k in keys {
        let x = h.defaults.get(k).cloned().unwrap_or_default();
        let y = a.defaults.get(k).cloned().unwrap_or_default();
        if x != y && !(x.is_empty() || y.is_empty()) || (k.starts_with("param ") && x != y) {
            out.push(ContractChange::DefaultChanged(k.clone(), x, y));
        }
    }
    out
}
