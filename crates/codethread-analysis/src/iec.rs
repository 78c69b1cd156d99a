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
use codethread_lang::{index_functions, parse, Function, Lang, ParsedFile};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Per-language node kinds and names used by the detector.
#[derive(Debug)]
pub struct IecSpec {
    /// Statements that raise / throw (their first named non-comment child is the raised
    /// expression).
    pub raise_kinds: &'static [&'static str],
    /// Call expression kinds (fields `function`, `arguments`).
    pub call_kinds: &'static [&'static str],
    /// Constructor-call kinds (field `constructor`), e.g. JS `new X()`.
    pub new_kinds: &'static [&'static str],
    /// Macro invocation kind (field `macro`), Rust.
    pub macro_kinds: &'static [&'static str],
    /// Called names (last path segment or full text) that abort: `panic`, `unreachable`, ...
    pub panic_names: &'static [&'static str],
    /// Called names that construct an error value returned to the caller.
    pub error_ctor_names: &'static [&'static str],
    /// Conditional kinds (fields `condition`, `consequence`).
    pub if_kinds: &'static [&'static str],
    /// Exit statement kinds (return / raise / throw).
    pub exit_kinds: &'static [&'static str],
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

/// Python.
pub const PYTHON: IecSpec = IecSpec {
    raise_kinds: &["raise_statement"],
    call_kinds: &["call"],
    new_kinds: &[],
    macro_kinds: &[],
    panic_names: &["sys.exit", "os._exit", "exit"],
    error_ctor_names: &[],
    if_kinds: &["if_statement"],
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
    identifier_kinds: &["identifier"],
    member_kinds: &["attribute"],
};

/// JavaScript, TypeScript and TSX.
pub const JAVASCRIPT: IecSpec = IecSpec {
    raise_kinds: &["throw_statement"],
    call_kinds: &["call_expression"],
    new_kinds: &["new_expression"],
    macro_kinds: &[],
    panic_names: &["process.exit"],
    error_ctor_names: &["Promise.reject"],
    if_kinds: &["if_statement"],
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
};

/// Go.
pub const GO: IecSpec = IecSpec {
    raise_kinds: &[],
    call_kinds: &["call_expression"],
    new_kinds: &[],
    macro_kinds: &[],
    panic_names: &[
        "panic",
        "log.Fatal",
        "log.Fatalf",
        "log.Panic",
        "log.Panicf",
        "os.Exit",
    ],
    error_ctor_names: &["errors.New", "fmt.Errorf", "errors.Wrap", "errors.Wrapf"],
    if_kinds: &["if_statement"],
    exit_kinds: &["return_statement"],
    param_defaults: &[],
    default_calls: &[],
    default_ops: ("binary_expression", &[]),
    identifier_kinds: &["identifier"],
    member_kinds: &[],
};

/// Rust.
pub const RUST: IecSpec = IecSpec {
    raise_kinds: &[],
    call_kinds: &["call_expression"],
    new_kinds: &[],
    macro_kinds: &["macro_invocation"],
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
    if_kinds: &["if_expression"],
    exit_kinds: &["return_expression"],
    param_defaults: &[],
    default_calls: &[
        ("unwrap_or", 0),
        ("unwrap_or_else", 0),
        ("map_or", 0),
        ("get_or", 0),
    ],
    default_ops: ("binary_expression", &[]),
    identifier_kinds: &["identifier"],
    member_kinds: &[],
};

/// The data table of a language.
pub fn spec(lang: Lang) -> &'static IecSpec {
    match lang {
        Lang::Python => &PYTHON,
        Lang::Go => &GO,
        Lang::Rust => &RUST,
        _ => &JAVASCRIPT,
    }
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
/// [`codethread_lang::parse_path_best`] does for one file.
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
                        || matches!(field, Some("type" | "value" | "right" | "return_type"));
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

fn raised_type(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> String {
    let mut c = n.walk();
    let Some(e) = n.named_children(&mut c).find(|x| !x.is_extra()) else {
        return "<reraise>".to_string();
    };
    if sp.call_kinds.contains(&e.kind()) || sp.new_kinds.contains(&e.kind()) {
        let f = e
            .child_by_field_name("function")
            .or_else(|| e.child_by_field_name("constructor"));
        if let Some(f) = f {
            return text(file, f);
        }
    }
    if sp.identifier_kinds.contains(&e.kind()) || sp.member_kinds.contains(&e.kind()) {
        return text(file, e);
    }
    format!("<{}>", e.kind())
}

fn call_name(file: &ParsedFile, n: Node<'_>) -> Option<String> {
    n.child_by_field_name("function")
        .or_else(|| n.child_by_field_name("macro"))
        .map(|f| text(file, f))
}

fn args(n: Node<'_>) -> Vec<Node<'_>> {
    let Some(a) = n.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut c = a.walk();
    // Comments (extras: `comment`, Rust `line_comment` / `block_comment`) are not arguments.
    a.named_children(&mut c).filter(|x| !x.is_extra()).collect()
}

fn is_exit(file: &ParsedFile, n: Node<'_>, sp: &IecSpec) -> Option<String> {
    if sp.exit_kinds.contains(&n.kind()) {
        if sp.raise_kinds.contains(&n.kind()) {
            return Some(format!("raise {}", raised_type(file, n, sp)));
        }
        return Some("return".into());
    }
    if sp.call_kinds.contains(&n.kind()) || sp.macro_kinds.contains(&n.kind()) {
        let name = call_name(file, n)?;
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
        } else if sp.new_kinds.contains(&kind) {
            // `new Error()` outside throw is not a raise; handled by the throw above
        } else if sp.call_kinds.contains(&kind) || sp.macro_kinds.contains(&kind) {
            if let Some(name) = call_name(file, n) {
                if let Some(p) = matches_name(&name, sp.panic_names) {
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
        } else if sp.if_kinds.contains(&kind) {
            if let (Some(c), Some(b)) = (
                n.child_by_field_name("condition"),
                n.child_by_field_name("consequence"),
            ) {
                if mentions(file, c, &sig.params, sp) {
                    if let Some(e) = branch_exit(file, b, sp) {
                        *sig.guards
                            .entry(format!("{} => {e}", text(file, c)))
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
