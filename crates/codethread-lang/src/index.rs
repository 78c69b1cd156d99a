//! The function index: every function, method, closure, lambda, arrow and func
//! literal of a parsed file, with qualified names and spans.
//!
//! One generic, iterative walker (a `TreeCursor` plus an explicit stack of
//! scope frames) reads the per-language tables of `spec.rs`.

use serde::{Deserialize, Serialize};

use crate::flat::{ByteSpan, FlatNode as Node, FlatTree};
use crate::spec::{spec, DeclaratorRule, FnRule, LangSpec, ScopeRule};
use crate::ParsedFile;

/// A byte and line range of the source. Lines are 1-based and inclusive;
/// `end_byte` is exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte.
    pub start_byte: usize,
    /// One past the last byte.
    pub end_byte: usize,
    /// 1-based line of `start_byte`.
    pub start_line: usize,
    /// 1-based line of the last byte of the span.
    pub end_line: usize,
}

impl Span {
    /// The span of a node (a tree-sitter or a flat-tree node).
    pub fn of(node: impl ByteSpan) -> Span {
        Span::between(&node, &node)
    }

    /// From the start of `a` to the end of `b`.
    pub fn between(a: impl ByteSpan, b: impl ByteSpan) -> Span {
        let end_pos = b.end_point();
        let (a_range, b_range) = (a.byte_span(), b.byte_span());
        let start_row = a.start_point().row;
        // A node ending at column 0 ends on the previous line (its last byte
        // is a newline).
        let end_line = if end_pos.column == 0 && b_range.end > a_range.start {
            end_pos.row
        } else {
            end_pos.row + 1
        };
        Span {
            start_byte: a_range.start,
            end_byte: b_range.end,
            start_line: start_row + 1,
            end_line: end_line.max(start_row + 1),
        }
    }

    /// True when `line` (1-based) lies in the span.
    pub fn contains_line(&self, line: usize) -> bool {
        self.start_line <= line && line <= self.end_line
    }

    /// True when the byte range of `other` lies inside this one.
    pub fn contains(&self, other: &Span) -> bool {
        self.start_byte <= other.start_byte && other.end_byte <= self.end_byte
    }
}

/// Where a function sits, following `docs/target-rules.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FunctionKind {
    /// A top-level (or module-level) function.
    Function,
    /// Directly inside a class, impl, trait, Go receiver, object literal or
    /// `X.prototype.m = ...` assignment.
    Method,
    /// Inside another function (also methods of classes defined in functions).
    Nested,
}

impl FunctionKind {
    /// `function`, `method` or `nested`.
    pub fn as_str(self) -> &'static str {
        match self {
            FunctionKind::Function => "function",
            FunctionKind::Method => "method",
            FunctionKind::Nested => "nested",
        }
    }
}

/// One function of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Function {
    /// Bare name (`<anonymous>` for unnamed closures, arrows, lambdas, func
    /// literals; the assignment target text for `a.b = function`).
    pub name: String,
    /// The name written in the function itself, if any (`function foo() {}`
    /// assigned to `x` has name `x` and own name `foo`).
    pub own_name: Option<String>,
    /// Dot-joined enclosing scopes and name (`Class.method`, `outer.inner`,
    /// Go `Type.method`, Rust `Type.method`, JS `obj.key`).
    pub qualname: String,
    /// Function, method or nested.
    pub kind: FunctionKind,
    /// tree-sitter kind of the function node.
    pub node_kind: &'static str,
    /// True for functions that get no name (callbacks, IIFEs, lambdas,
    /// closures, func literals). These are not "functions" under
    /// `docs/target-rules.md`, but metric tools report some of them.
    pub anonymous: bool,
    /// Index of the innermost enclosing function in the same list.
    pub parent: Option<usize>,
    /// The whole definition: decorators, attributes, `export`, the whole
    /// `const x = ...;` / `a.b = ...;` statement or `key: ...` pair.
    pub span: Span,
    /// The function's own syntax node, without leading decorators inside it.
    pub node: Span,
    /// From `node` start through the body opener (`:`, `{`, `=>`).
    pub header: Span,
    /// The body (block or expression); `None` when there is none.
    pub body: Option<Span>,
    /// `async` function.
    pub is_async: bool,
    /// Generator (Python `yield` in the own body; JS `function*`).
    pub is_generator: bool,
    /// Go receiver text, e.g. `(st *ServerType)`.
    pub receiver: Option<String>,
    /// Rust impl self type or trait name (cleaned), JS/Python class name.
    pub impl_type: Option<String>,
    /// Rust trait of a trait impl, e.g. `Service<Request<B>>`.
    pub impl_trait: Option<String>,
    /// JS/TS accessor keyword (`get` or `set`).
    pub accessor: Option<String>,
    /// Texts of decorators / attributes in the span, in order.
    pub decorators: Vec<String>,
    /// Found by re-parsing the body of an item-level macro invocation
    /// (Rust `cfg_rt! { ... }`): spans are in the file's coordinates, but the
    /// function has no node in the file's tree ([`Function::find_node`] is
    /// `None`).
    pub in_macro: bool,
    /// 1-based rank among functions of the file with the same qualname, in
    /// source order (the `#n` of target ids).
    pub occurrence: usize,
    /// How many functions of the file share the qualname.
    pub dup_count: usize,
    /// 1-based rank among functions with the same matching key
    /// ([`Function::pairing_extra`] and [`Function::params`] with the
    /// qualname): pairs a function before and after a patch.
    pub key_occurrence: usize,
    /// Parameter-list part of the pairing key, for the languages whose
    /// table names a parameter field (Java, C, C++): the parameter-list
    /// tokens with comments dropped and a space only between two word
    /// tokens, for C++ followed by the trailing `const` / `volatile` / `&` /
    /// `&&` qualifiers (`(int a,char*b)const`). `None` elsewhere.
    pub params: Option<String>,
    /// A singleton method (Ruby `def self.x`, `def obj.x`, methods inside
    /// `class << self`); part of the pairing key.
    pub singleton: bool,
    /// C++: the enclosing class's name with its template arguments, tokens
    /// normalized as in [`Function::params`]
    /// (`formatter<tuple_join_view<Char,T...>,Char>`); part of the pairing
    /// key. `None` outside classes and in other languages.
    pub class_type: Option<String>,
    /// Why the index itself is unsure of this function (definition inside a
    /// tree-sitter ERROR node, parse errors inside it or in an enclosing
    /// scope, K&R parameter declarations, a method of an anonymous class no
    /// declarator names). Empty for a clean definition.
    pub notes: Vec<String>,
}

impl Function {
    /// The function's node in `file`'s tree again.
    pub fn find_node<'t>(&self, file: &'t ParsedFile) -> Option<tree_sitter::Node<'t>> {
        if self.in_macro {
            return None;
        }
        let mut node = file
            .root()
            .descendant_for_byte_range(self.node.start_byte, self.node.end_byte)?;
        // The own-node span may be narrower than the node (trailing comments
        // trimmed, leading decorators skipped): take the innermost node of
        // the function's kind that covers it.
        loop {
            if crate::kinds::kind_of(node) == self.node_kind
                && node.start_byte() <= self.node.start_byte
                && node.end_byte() >= self.node.end_byte
            {
                return Some(node);
            }
            node = node.parent()?;
        }
    }

    /// The target id used by `expected_targets.jsonl`: `path::qualname`, with
    /// `#occurrence` appended when the qualname is not unique in the file.
    pub fn target_id(&self, path: &str) -> String {
        target_id_for(path, &self.qualname, self.occurrence, self.dup_count)
    }

    /// True when the function has a body to stub.
    pub fn has_body(&self) -> bool {
        self.body.is_some()
    }
}

/// Name contribution of an open scope.
#[derive(Debug)]
struct Frame {
    node_id: usize,
    /// Name this scope adds to qualified names (`None`: adds nothing).
    name: Option<String>,
    class_like: bool,
    type_name: Option<String>,
    trait_name: Option<String>,
    /// Index of the function, when the scope is a function.
    function: Option<usize>,
    /// The scope is an anonymous function (lambda, closure, block).
    anonymous_fn: bool,
    /// Methods directly inside are singleton methods.
    singleton: bool,
    /// C++ class type (see [`Function::class_type`]).
    class_type: Option<String>,
    /// A scope node (not a function) that contains ERROR/MISSING nodes.
    scope_error: bool,
    /// An anonymous class that no parent names (methods get a note).
    unnamed_note: bool,
    /// Filled in by [`push_frame`] so that no lookup walks the whole stack
    /// (a walk per function is quadratic on deep nesting): the nearest
    /// frame at or below this one with a name, how many frames up to this
    /// one have a name, the innermost function and the innermost class-like
    /// frame at or below this one.
    named_at: Option<usize>,
    first_named: Option<usize>,
    named_count: usize,
    function_at: Option<usize>,
    class_at: Option<usize>,
    /// The innermost named (counted) function, the innermost frame that is
    /// not an anonymous function, and the innermost scope with errors, at
    /// or below this one.
    named_function_at: Option<usize>,
    scope_at: Option<usize>,
    scope_error_at: Option<usize>,
}

impl Frame {
    fn new(node_id: usize, name: Option<String>) -> Frame {
        Frame {
            node_id,
            name,
            class_like: false,
            type_name: None,
            trait_name: None,
            function: None,
            anonymous_fn: false,
            singleton: false,
            class_type: None,
            scope_error: false,
            unnamed_note: false,
            named_at: None,
            first_named: None,
            named_count: 0,
            function_at: None,
            class_at: None,
            named_function_at: None,
            scope_at: None,
            scope_error_at: None,
        }
    }
}

/// The most enclosing scopes a qualified name spells out. Deeper functions
/// keep the outermost scope, then one `<N elided>` component, then the
/// innermost scopes, so that a name (and each record carrying it) stays of
/// bounded length: 10,000 nested functions give 10,000 names of at most 32
/// scopes each, not 50 million components. No real code nests that deep;
/// names below the limit are unchanged.
pub const MAX_QUALNAME_SCOPES: usize = 32;

fn push_frame(frames: &mut Vec<Frame>, mut f: Frame) {
    let i = frames.len();
    let below = frames.last();
    f.named_at = if f.name.is_some() {
        Some(i)
    } else {
        below.and_then(|b| b.named_at)
    };
    f.first_named = below.and_then(|b| b.first_named).or(f.named_at);
    f.named_count = below.map_or(0, |b| b.named_count) + usize::from(f.name.is_some());
    f.function_at = f.function.or_else(|| below.and_then(|b| b.function_at));
    f.class_at = if f.class_like {
        Some(i)
    } else {
        below.and_then(|b| b.class_at)
    };
    f.named_function_at = if f.function.is_some() && !f.anonymous_fn {
        f.function
    } else {
        below.and_then(|b| b.named_function_at)
    };
    f.scope_at = if f.anonymous_fn {
        below.and_then(|b| b.scope_at)
    } else {
        Some(i)
    };
    f.scope_error_at = if f.scope_error {
        Some(i)
    } else {
        below.and_then(|b| b.scope_error_at)
    };
    frames.push(f);
}

/// The innermost enclosing function.
fn enclosing_function(frames: &[Frame]) -> Option<usize> {
    frames.last().and_then(|f| f.function_at)
}

/// The innermost class-like frame.
fn enclosing_class(frames: &[Frame]) -> Option<&Frame> {
    frames
        .last()
        .and_then(|f| f.class_at)
        .and_then(|i| frames.get(i))
}

/// The names of the enclosing scopes, outermost first, at most
/// [`MAX_QUALNAME_SCOPES`] (see there); O(that limit), whatever the depth.
fn scope_names(frames: &[Frame]) -> Vec<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let total = frames.last().map_or(0, |f| f.named_count);
    let keep_inner = if total > MAX_QUALNAME_SCOPES {
        MAX_QUALNAME_SCOPES - 2
    } else {
        total
    };
    let mut inner: Vec<Cow<'_, str>> = Vec::with_capacity(keep_inner.min(MAX_QUALNAME_SCOPES));
    let mut at = frames.last().and_then(|f| f.named_at);
    while inner.len() < keep_inner {
        let Some(i) = at else { break };
        if let Some(n) = frames.get(i).and_then(|f| f.name.as_deref()) {
            inner.push(Cow::Borrowed(n));
        }
        at = i
            .checked_sub(1)
            .and_then(|j| frames.get(j))
            .and_then(|f| f.named_at);
    }
    if total > MAX_QUALNAME_SCOPES {
        let first = frames
            .last()
            .and_then(|f| f.first_named)
            .and_then(|i| frames.get(i))
            .and_then(|f| f.name.as_deref())
            .unwrap_or("");
        inner.push(Cow::Owned(format!("<{} elided>", total - keep_inner - 1)));
        inner.push(Cow::Borrowed(first));
    }
    inner.reverse();
    inner
}

/// Index every function of a parsed file, in source (pre-)order; parents come
/// before their nested functions.
pub fn index_functions(file: &ParsedFile) -> Vec<Function> {
    index_flat(file, &FlatTree::new(file))
}

/// [`index_functions`] on a tree already flattened (`flat` must be
/// [`FlatTree::new`] of `file`): callers that walk the file again share one
/// flattening.
pub fn index_flat(file: &ParsedFile, flat: &FlatTree) -> Vec<Function> {
    index_flat_with(file, flat, IndexOptions::default())
}

/// Choices of [`index_flat_with`]; the default is the function set of
/// `docs/target-rules.md` that [`index_functions`] gives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct IndexOptions {
    /// Also list the bodiless declarations of kinds that are functions only
    /// with a body (Java / PHP abstract and interface methods, C++
    /// `= default` / `= delete`), with `body: None`. They are not functions
    /// under `docs/target-rules.md`; metric tools that report them (rust-code-analysis
    /// gives a bodiless Java method a record) ask for them.
    pub keep_bodiless: bool,
}

impl IndexOptions {
    /// Sets [`IndexOptions::keep_bodiless`].
    pub fn keep_bodiless(mut self, keep_bodiless: bool) -> Self {
        self.keep_bodiless = keep_bodiless;
        self
    }
}

/// [`index_flat`] with [`IndexOptions`].
pub fn index_flat_with(file: &ParsedFile, flat: &FlatTree, opts: IndexOptions) -> Vec<Function> {
    let mut out = index_tree(file, flat, 0, opts);
    if let Some(own) = &file.own {
        out = own_functions(out, own);
    }
    assign_occurrences(&mut out);
    out
}

/// The functions of `funcs` (an index, parents before their nested ones)
/// that start in `own`, their parent links renumbered: a chunk's index
/// leaves out the functions of the ranges it is read with
/// ([`ParsedFile::own`]).
fn own_functions(funcs: Vec<Function>, own: &std::ops::Range<usize>) -> Vec<Function> {
    let mut at: Vec<Option<usize>> = Vec::with_capacity(funcs.len());
    let mut out = Vec::with_capacity(funcs.len());
    for mut f in funcs {
        if own.contains(&f.span.start_byte) {
            f.parent = f.parent.and_then(|p| at.get(p).copied().flatten());
            at.push(Some(out.len()));
            out.push(f);
        } else {
            at.push(None);
        }
    }
    out
}

fn kind_of<'t>(node: impl std::borrow::Borrow<Node<'t>>) -> &'static str {
    node.borrow().kind()
}

/// How deeply item macros are re-parsed inside each other.
const MAX_MACRO_DEPTH: usize = 4;

fn index_tree(
    file: &ParsedFile,
    flat: &FlatTree,
    macro_depth: usize,
    opts: IndexOptions,
) -> Vec<Function> {
    let spec = spec(file.lang);
    let src = &file.source;
    let mut out: Vec<Function> = Vec::new();
    let mut frames: Vec<Frame> = Vec::new();
    let mut cursor = flat.root().walk();
    // Generators found in this walk (see `fused_yields`): body node id →
    // its function, and for each cursor depth the function whose own-body
    // walk reaches the nodes at that depth.
    let fused = fused_yields(spec);
    let mut bodies: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut targets: Vec<Option<usize>> = vec![None];
    // ERROR nodes open at the walk's position (ids), innermost last.
    let mut errors: Vec<usize> = Vec::new();
    loop {
        let node = cursor.node();
        let before = out.len();
        if node.is_error() {
            errors.push(node.id());
        }
        enter(
            spec,
            src,
            node,
            !errors.is_empty(),
            &mut frames,
            &mut out,
            opts,
        );
        if fused && out.len() > before {
            let kind = kind_of(node);
            let body = spec
                .functions
                .iter()
                .find(|r| r.kind == kind)
                .and_then(|r| node.child_by_field_name(r.body_field));
            if let Some(b) = body {
                bodies.insert(b.id(), before);
            }
        }
        if macro_depth < MAX_MACRO_DEPTH {
            reparse_macro(file, spec, node, &frames, &mut out, macro_depth, opts);
        }
        let child_target = if fused {
            yield_step(
                spec,
                node,
                &bodies,
                targets.last().copied().flatten(),
                &mut out,
            )
        } else {
            None
        };
        if cursor.goto_first_child() {
            targets.push(child_target);
            continue;
        }
        loop {
            let id = cursor.node().id();
            while frames.last().is_some_and(|f| f.node_id == id) {
                frames.pop();
            }
            if errors.last() == Some(&id) {
                errors.pop();
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            targets.pop();
        }
    }
}

/// Whether generators are found during the index walk instead of one
/// [`contains_yield`] walk per function: exact when every function kind is
/// a yield barrier (a function's own-body walk then never reaches another
/// function's body, so each node belongs to at most one such walk).
fn fused_yields(spec: &LangSpec) -> bool {
    !spec.yield_kinds.is_empty()
        && spec
            .functions
            .iter()
            .all(|r| spec.yield_barriers.contains(&r.kind))
}

/// One node of the fused generator search: marks the function whose body
/// walk reaches a yield, and returns the function whose body walk reaches
/// the node's children (the walk [`contains_yield`] does: from the body,
/// through named nodes, not into barriers).
fn yield_step(
    spec: &LangSpec,
    node: Node<'_>,
    bodies: &std::collections::HashMap<usize, usize>,
    target: Option<usize>,
    out: &mut [Function],
) -> Option<usize> {
    if let Some(&f) = bodies.get(&node.id()) {
        if spec.yield_kinds.contains(&kind_of(node)) {
            if let Some(func) = out.get_mut(f) {
                func.is_generator = true;
            }
        }
        return Some(f);
    }
    if !node.is_named() {
        return None;
    }
    let kind = kind_of(node);
    if let Some(t) = target {
        if spec.yield_kinds.contains(&kind) {
            if let Some(func) = out.get_mut(t) {
                func.is_generator = true;
            }
        }
    }
    if spec.yield_barriers.contains(&kind) {
        None
    } else {
        target
    }
}

/// Index the functions inside an item-level macro body, re-parsed as items,
/// and add them with spans shifted into the file's coordinates. Bodies that
/// do not parse cleanly are skipped.
fn reparse_macro(
    file: &ParsedFile,
    spec: &LangSpec,
    node: Node<'_>,
    frames: &[Frame],
    out: &mut Vec<Function>,
    depth: usize,
    opts: IndexOptions,
) {
    let Some((kind, body_kind, parents)) = spec.reparse_macros else {
        return;
    };
    if kind_of(node) != kind || !node.parent().is_some_and(|p| parents.contains(&kind_of(p))) {
        return;
    }
    let Some(body) = node.children().find(|n| kind_of(n) == body_kind) else {
        return;
    };
    if file.source.get(body.start_byte()) != Some(&b'{') || body.end_byte() < body.start_byte() + 2
    {
        return;
    }
    let inner_start = body.start_byte() + 1;
    let Some(inner) = file.source.get(inner_start..body.end_byte() - 1) else {
        return;
    };
    let grammar = crate::LangParseOptions {
        grammar: Some(file.grammar),
        ..Default::default()
    };
    let Ok(parsed) = crate::parse_lang(file.lang, inner.to_vec(), &grammar) else {
        return;
    };
    if parsed.parse_errors > 0 {
        return;
    }
    let inner_funcs = index_tree(&parsed, &FlatTree::new(&parsed), depth + 1, opts);
    if inner_funcs.is_empty() {
        return;
    }
    // Line of the first inner byte; the re-parsed text starts at row 0 there.
    let line0 = body.start_position().row;
    let shift = |s: Span| Span {
        start_byte: s.start_byte + inner_start,
        end_byte: s.end_byte + inner_start,
        start_line: s.start_line + line0,
        end_line: s.end_line + line0,
    };
    let base = out.len();
    let prefix = scope_names(frames);
    let outer_fn = enclosing_function(frames);
    let class_frame = enclosing_class(frames);
    for mut f in inner_funcs {
        f.span = shift(f.span);
        f.node = shift(f.node);
        f.header = shift(f.header);
        f.body = f.body.map(shift);
        f.parent = f.parent.map(|p| p + base).or(outer_fn);
        if !prefix.is_empty() {
            f.qualname = format!("{}.{}", prefix.join("."), f.qualname);
        }
        if outer_fn.is_some() {
            f.kind = FunctionKind::Nested;
        } else if f.kind == FunctionKind::Function && frames.last().is_some_and(|fr| fr.class_like)
        {
            f.kind = FunctionKind::Method;
        }
        if f.impl_type.is_none() {
            f.impl_type = class_frame.and_then(|fr| fr.type_name.clone());
            f.impl_trait = class_frame.and_then(|fr| fr.trait_name.clone());
        }
        f.in_macro = true;
        out.push(f);
    }
}

fn text(src: &[u8], node: Node<'_>) -> String {
    String::from_utf8_lossy(src.get(node.byte_range()).unwrap_or(&[])).into_owned()
}

fn enter(
    spec: &LangSpec,
    src: &[u8],
    node: Node<'_>,
    in_error: bool,
    frames: &mut Vec<Frame>,
    out: &mut Vec<Function>,
    opts: IndexOptions,
) {
    if !node.is_named() {
        return;
    }
    let kind = kind_of(node);
    if let Some(rule) = spec.functions.iter().find(|r| r.kind == kind) {
        if let Some((func, frame_name)) =
            make_function(spec, src, node, rule, frames, in_error, opts)
        {
            let mut frame = Frame::new(node.id(), Some(frame_name));
            frame.function = Some(out.len());
            frame.anonymous_fn = func.anonymous;
            push_frame(frames, frame);
            out.push(func);
        }
    } else if let Some(rule) = spec.scopes.iter().find(|r| {
        r.kind == kind
            && r.requires_child
                .is_none_or(|c| node.children().any(|n| kind_of(n) == c))
    }) {
        push_frame(frames, make_scope(spec, src, node, rule));
    }
}

fn make_scope(spec: &LangSpec, src: &[u8], node: Node<'_>, rule: &ScopeRule) -> Frame {
    let name_node = rule.name_field.and_then(|f| node.child_by_field_name(f));
    let own = name_node.map(|n| scope_name(spec, src, n, rule.type_name));
    let by_parent = if own.is_none() {
        parent_name(spec, src, node, false).map(|(n, _, _)| n)
    } else {
        None
    };
    let named_by_parent = by_parent.is_some();
    let name = own.or(by_parent);
    let trait_name = rule
        .trait_field
        .and_then(|f| node.child_by_field_name(f))
        .map(|n| collapse_ws(&text(src, n)));
    let mut frame = Frame::new(node.id(), name.clone());
    frame.type_name = name;
    frame.class_like = rule.class_like;
    frame.trait_name = trait_name;
    frame.singleton = rule.singleton;
    frame.class_type = if rule.class_type {
        name_node.map(|n| tokens(spec, src, n, None))
    } else {
        None
    };
    frame.scope_error = node.has_error();
    frame.unnamed_note = rule.note_if_unnamed && !named_by_parent;
    frame
}

/// A scope's name: cleaned as [`clean_name`], qualified parts (`A::B`)
/// joined with `.`.
fn scope_name(spec: &LangSpec, src: &[u8], node: Node<'_>, type_name: bool) -> String {
    let name = clean_name(spec, src, node, type_name);
    match spec.defs.scope_separator {
        Some(sep) if name.contains(sep) => name
            .split(sep)
            .map(|p| {
                if type_name {
                    clean_type(p)
                } else {
                    p.trim().to_string()
                }
            })
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join("."),
        _ => name,
    }
}

/// Collapse runs of whitespace to one space.
fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The leaf tokens of `node` (those starting before `until`, when given),
/// comments dropped, joined with a space only between two word tokens:
/// `( const char * s , int /*x*/ n )` → `(const char*s,int n)`. The form
/// of parameter lists and class types in pairing keys.
fn tokens(spec: &LangSpec, src: &[u8], node: Node<'_>, until: Option<usize>) -> String {
    let mut out = String::new();
    let mut last_word = false;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut skip_to = 0usize;
    for n in node.descendants() {
        if n.start_byte() < skip_to {
            continue;
        }
        if until.is_some_and(|u| n.start_byte() >= u) {
            break;
        }
        if spec.defs.comment_kinds.contains(&kind_of(n)) {
            skip_to = n.end_byte();
            continue;
        }
        if n.first_child().is_some() {
            continue;
        }
        let t = text(src, n);
        for piece in t.split_whitespace() {
            let starts_word = piece.chars().next().is_some_and(word);
            if last_word && starts_word {
                out.push(' ');
            }
            out.push_str(piece);
            last_word = piece.chars().last().is_some_and(word);
        }
    }
    out
}

/// The name text of a node, cleaned: string keys unquoted; type names
/// without generics, references, pointers and lifetimes.
fn clean_name(spec: &LangSpec, src: &[u8], node: Node<'_>, type_name: bool) -> String {
    let raw = text(src, node);
    if spec.string_kinds.contains(&kind_of(node)) {
        return raw
            .trim_matches(|c| c == '"' || c == '\'' || c == '`')
            .to_string();
    }
    if type_name {
        return clean_type(&raw);
    }
    collapse_ws(&raw)
}

/// `&'a mut Foo<T>` → `Foo`; `*ServerType` → `ServerType`; `List[T]` → `List`.
pub(crate) fn clean_type(raw: &str) -> String {
    let mut s = raw.trim();
    loop {
        let before = s;
        s = s
            .trim_start_matches('&')
            .trim_start_matches('*')
            .trim_start();
        if let Some(rest) = s.strip_prefix('\'') {
            // lifetime
            s = rest
                .trim_start_matches(|c: char| c.is_alphanumeric() || c == '_')
                .trim_start();
        }
        for kw in ["mut ", "dyn ", "const "] {
            if let Some(rest) = s.strip_prefix(kw) {
                s = rest.trim_start();
            }
        }
        if s == before {
            break;
        }
    }
    let end = s.find(['<', '[', '(', ' ', '\n', '\t']).unwrap_or(s.len());
    s[..end].to_string()
}

/// A name given by the parent of an anonymous node (through the spec's
/// transparent value wrappers), with whether it makes a method and the
/// statement-level node that widens the span. `function`: only rules that
/// name functions apply.
fn parent_name<'t>(
    spec: &LangSpec,
    src: &[u8],
    node: Node<'t>,
    function: bool,
) -> Option<(String, bool, Node<'t>)> {
    let mut child = node;
    let mut parent = node.parent()?;
    while spec.defs.transparent_values.contains(&kind_of(parent)) {
        child = parent;
        parent = parent.parent()?;
    }
    let rule = spec
        .parent_names
        .iter()
        .find(|r| r.parent == kind_of(parent) && (r.functions || !function))?;
    let value = parent.child_by_field_name(rule.value_field)?;
    if value.id() != child.id() {
        return None;
    }
    let name_node = parent.child_by_field_name(rule.field)?;
    let name = clean_name(spec, src, name_node, false);
    let method = rule.member || rule.method_if_contains.is_some_and(|m| name.contains(m));
    Some((name, method, parent))
}

/// What a C-family declarator chain says about a definition.
struct Declared<'t> {
    /// Scopes written in the name (`A<T>::B::f` → `A`, `B`).
    qualifiers: Vec<String>,
    /// The name (`f`, `~A`, `operator==`, `operator const char*`).
    name: String,
    /// The function declarator nearest the name (holds the parameters).
    function_declarator: Node<'t>,
}

/// Follow a declarator chain to the function's name; `None` when it
/// reaches no function declarator (not a function).
fn read_declarator<'t>(
    spec: &LangSpec,
    rule: &DeclaratorRule,
    src: &[u8],
    mut node: Node<'t>,
) -> Option<Declared<'t>> {
    let mut function_declarator: Option<Node<'t>> = None;
    let mut qualifiers = Vec::new();
    let is_declarator = |k: &str| {
        rule.wrappers.contains(&k)
            || rule.function_declarators.contains(&k)
            || rule.qualified.contains(&k)
            || rule.embedded.contains(&k)
            || rule.templated.contains(&k)
    };
    // Each step goes one level down: bounded by the tree's depth.
    let name = loop {
        let kind = kind_of(node);
        if rule.function_declarators.contains(&kind) {
            function_declarator = Some(node);
            node = node.child_by_field_name("declarator")?;
        } else if rule.wrappers.contains(&kind) {
            node = node.child_by_field_name("declarator").or_else(|| {
                node.named_children()
                    .find(|c| is_declarator(kind_of(c)) || c.first_child().is_none())
            })?;
        } else if rule.qualified.contains(&kind) {
            if let Some(scope) = node.child_by_field_name("scope") {
                let q = clean_type(&collapse_ws(&text(src, scope)));
                if !q.is_empty() {
                    qualifiers.push(q);
                }
            }
            node = node.child_by_field_name("name")?;
        } else if rule.templated.contains(&kind) {
            node = node.child_by_field_name("name")?;
        } else if rule.embedded.contains(&kind) {
            let mut d = node.child_by_field_name("declarator");
            while let Some(x) = d {
                if rule.function_declarators.contains(&kind_of(x)) {
                    function_declarator = Some(x);
                    break;
                }
                d = x
                    .child_by_field_name("declarator")
                    .or_else(|| x.named_children().find(|c| is_declarator(kind_of(c))));
            }
            let until = function_declarator.map(|f| f.start_byte());
            break tokens(spec, src, node, until);
        } else {
            break tokens(spec, src, node, None);
        }
    };
    Some(Declared {
        qualifiers,
        name,
        function_declarator: function_declarator?,
    })
}

/// The parameter-list key of a function (see [`Function::params`]).
fn params_key(
    spec: &LangSpec,
    src: &[u8],
    node: Node<'_>,
    declared: Option<&Declared<'_>>,
) -> Option<String> {
    let field = spec.defs.params_field?;
    let holder = declared.map_or(node, |d| d.function_declarator);
    let params = holder.child_by_field_name(field)?;
    let mut key = tokens(spec, src, params, None);
    if let Some(rule) = spec.defs.declarators {
        for c in holder.children() {
            if c.start_byte() >= params.end_byte() && rule.trailing_qualifiers.contains(&kind_of(c))
            {
                key.push_str(&tokens(spec, src, c, None));
            }
        }
    }
    Some(key)
}

fn make_function(
    spec: &LangSpec,
    src: &[u8],
    node: Node<'_>,
    rule: &FnRule,
    frames: &[Frame],
    in_error: bool,
    opts: IndexOptions,
) -> Option<(Function, String)> {
    let body = node.child_by_field_name(rule.body_field).or_else(|| {
        let kind = rule.unfielded_body?;
        node.children().find(|c| kind_of(c) == kind)
    });
    if rule.body_required && body.is_none() && !opts.keep_bodiless {
        return None;
    }
    let declared = match (rule.declarator_chain, spec.defs.declarators) {
        (true, Some(d)) => Some(read_declarator(
            spec,
            d,
            src,
            node.child_by_field_name(rule.name_field?)?,
        )?),
        _ => None,
    };
    let own_name = match &declared {
        Some(d) => Some(d.name.clone()),
        None => rule
            .name_field
            .and_then(|f| node.child_by_field_name(f))
            .map(|n| clean_name(spec, src, n, false)),
    };
    if own_name
        .as_deref()
        .is_some_and(|n| spec.defs.keyword_names.contains(&n))
    {
        return None;
    }
    // Name: own name for declarations; for expressions, the parent's.
    let mut method_by_parent = false;
    let mut wrapper: Option<Node<'_>> = None;
    let name = if rule.expression {
        match parent_name(spec, src, node, true) {
            Some((n, m, p)) => {
                method_by_parent = m;
                wrapper = Some(p);
                Some(n)
            }
            None => own_name.clone(),
        }
    } else {
        own_name.clone()
    };
    let anonymous = name.is_none();
    let name = name.unwrap_or_else(|| "<anonymous>".to_string());
    let qualifiers: &[String] = declared.as_ref().map_or(&[], |d| &d.qualifiers);

    // Enclosing scopes.
    let parent_fn = enclosing_function(frames);
    let innermost = frames.last();
    let kind = if spec.defs.counted_nesting {
        let container = innermost
            .and_then(|f| f.scope_at)
            .and_then(|i| frames.get(i));
        if innermost.and_then(|f| f.named_function_at).is_some() {
            FunctionKind::Nested
        } else if rule.method
            || method_by_parent
            || !qualifiers.is_empty()
            || container.is_some_and(|f| f.class_like)
        {
            FunctionKind::Method
        } else {
            FunctionKind::Function
        }
    } else if parent_fn.is_some() {
        FunctionKind::Nested
    } else if rule.method || method_by_parent || innermost.is_some_and(|f| f.class_like) {
        FunctionKind::Method
    } else {
        FunctionKind::Function
    };
    let receiver = spec
        .receiver_field
        .and_then(|f| node.child_by_field_name(f))
        .map(|n| collapse_ws(&text(src, n)));
    let receiver_type = receiver
        .as_deref()
        .filter(|r| !spec.defs.self_receivers.contains(r))
        .map(receiver_type);
    let mut own_parts: Vec<&str> = Vec::new();
    if let Some(t) = receiver_type.as_deref() {
        own_parts.push(t);
    }
    own_parts.extend(qualifiers.iter().map(String::as_str));
    own_parts.push(&name);
    let frame_name = if anonymous {
        "<anonymous>".to_string()
    } else {
        own_parts.join(".")
    };
    let mut parts = scope_names(frames);
    parts.extend(own_parts.iter().map(|p| std::borrow::Cow::Borrowed(*p)));
    let qualname = parts.join(".");
    let class_frame = enclosing_class(frames);
    let impl_type = receiver_type
        .clone()
        .or_else(|| class_frame.and_then(|f| f.type_name.clone()));
    let impl_trait = class_frame.and_then(|f| f.trait_name.clone());
    let scope_frame = innermost
        .and_then(|f| f.scope_at)
        .and_then(|i| frames.get(i));
    let singleton = rule.singleton || scope_frame.is_some_and(|f| f.singleton);
    let class_type = if qualifiers.is_empty() {
        class_frame.and_then(|f| f.class_type.clone())
    } else {
        None
    };
    let params = params_key(spec, src, node, declared.as_ref());

    // Spans.
    let own_start = node_start(spec, node);
    let node_end = last_content(spec, node);
    let node_span = Span::between(own_start, node_end);
    let (span_start, span_end, decorators) = definition_span(spec, src, node, wrapper);
    let span_end = if span_end.id() == node.id() {
        node_end
    } else {
        last_content(spec, span_end)
    };
    let span = Span::between(span_start, span_end);
    let header_field = spec
        .defs
        .header_end_fields
        .iter()
        .find_map(|f| node.child_by_field_name(f));
    let header = match (header_field, body) {
        (Some(h), _) => Span::between(own_start, h),
        (None, Some(b)) => header_span(src, own_start, node, b),
        (None, None) => node_span,
    };
    let body_span = match body {
        Some(b) => Some(Span::between(b, last_content(spec, b))),
        None => rule.empty_body_before.and_then(|k| {
            let end = node.children().find(|c| kind_of(c) == k)?;
            let line = end.start_position().row + 1;
            Some(Span {
                start_byte: end.start_byte(),
                end_byte: end.start_byte(),
                start_line: line,
                end_line: line,
            })
        }),
    };

    let mut notes = Vec::new();
    if in_error {
        notes.push(
            "definition lies inside a tree-sitter ERROR node; enclosing scopes may be missing \
             from the qualname and the span comes from error recovery"
                .to_string(),
        );
    }
    if node.has_error() {
        notes.push(
            "parse errors (ERROR/MISSING nodes) inside the function span; span comes from \
             error recovery"
                .to_string(),
        );
    }
    if let Some(f) = innermost
        .and_then(|f| f.scope_error_at)
        .and_then(|i| frames.get(i))
    {
        notes.push(format!(
            "enclosing scope `{}` contains parse errors (ERROR/MISSING nodes); the qualname \
             prefix comes from error recovery",
            f.name.as_deref().unwrap_or("<unnamed>")
        ));
    }
    if let Some(kr) = spec.defs.declarators.and_then(|d| d.kr_declarations) {
        if node.children().any(|c| kind_of(c) == kr) {
            notes.push(
                "K&R-style parameter declarations between declarator and body (often a macro \
                 call read as a definition; the span may swallow the next function)"
                    .to_string(),
            );
        }
    }
    if class_frame.is_some_and(|f| f.unnamed_note) && !anonymous {
        notes.push(
            "is a method of an anonymous class; the anonymous class contributes no name to \
             the qualname"
                .to_string(),
        );
    }

    let is_async = has_token(node, spec.async_tokens, spec.modifier_groups, body);
    let is_generator = rule.generator
        || (!spec.generator_tokens.is_empty()
            && has_token(node, spec.generator_tokens, spec.modifier_groups, body))
        || (!fused_yields(spec) && body.is_some_and(|b| contains_yield(spec, b)));
    let accessor = if spec.accessor_tokens.is_empty() {
        None
    } else {
        first_token(node, spec.accessor_tokens, spec.modifier_groups, body).map(str::to_string)
    };
    Some((
        Function {
            name,
            own_name,
            qualname,
            kind,
            node_kind: rule.kind,
            anonymous,
            parent: parent_fn,
            span,
            node: node_span,
            header,
            body: body_span,
            is_async,
            is_generator,
            receiver,
            impl_type,
            impl_trait,
            accessor,
            decorators,
            occurrence: 1,
            dup_count: 1,
            key_occurrence: 1,
            in_macro: false,
            params,
            singleton,
            class_type,
            notes,
        },
        frame_name,
    ))
}

/// `(st *ServerType)` → `ServerType`; `(l *List[T])` → `List`.
fn receiver_type(recv: &str) -> String {
    let inner = recv
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    // The type is the last whitespace-separated part (after the optional name),
    // but generics may contain spaces: cut at '[' first.
    let head = match inner.find('[') {
        Some(i) => &inner[..i],
        None => inner,
    };
    let ty = head.split_whitespace().last().unwrap_or(head);
    clean_type(ty)
}

/// The last descendant of `node` that is not trailing trivia (comments after
/// the last statement of a Python block), found iteratively.
fn last_content<'t>(spec: &LangSpec, node: Node<'t>) -> Node<'t> {
    if spec.trailing_trim.is_empty() {
        return node;
    }
    let mut cur = node;
    loop {
        let mut child = cur.child(cur.child_count().saturating_sub(1));
        while let Some(c) = child {
            if spec.trailing_trim.contains(&kind_of(c)) {
                child = c.prev_sibling();
            } else {
                break;
            }
        }
        match child {
            // The last child already ends where `cur` ends: nothing to trim.
            Some(c) if c.end_byte() == cur.end_byte() && c.first_child().is_none() => return cur,
            Some(c) => cur = c,
            None => return cur,
        }
        if cur.first_child().is_none() {
            return cur;
        }
    }
}

/// First child of `node` that is not a leading decorator/comment.
fn node_start<'t>(spec: &LangSpec, node: Node<'t>) -> Node<'t> {
    if spec.leading_children.is_empty() {
        return node;
    }
    for child in node.children() {
        if !spec.leading_children.contains(&kind_of(child)) {
            return child;
        }
    }
    node
}

/// Definition span start/end nodes and the decorator texts.
fn definition_span<'t>(
    spec: &LangSpec,
    src: &[u8],
    node: Node<'t>,
    named_by: Option<Node<'t>>,
) -> (Node<'t>, Node<'t>, Vec<String>) {
    let mut top = node;
    let mut decorators = Vec::new();
    // Leading decorator children (JS method_definition).
    for child in node.children() {
        if spec.leading_siblings.contains(&kind_of(child)) {
            decorators.push(text(src, child));
        } else if !spec.leading_children.contains(&kind_of(child)) {
            break;
        }
    }
    // Named by a parent: widen to the pair / declarator and its statement.
    if let Some(p) = named_by {
        top = p;
        let mut up = p;
        while let Some(pp) = up.parent() {
            if spec.statement_wrappers.contains(&kind_of(pp)) {
                top = pp;
                up = pp;
            } else {
                break;
            }
        }
    }
    // Calls wrapping the definition as their only argument (Ruby
    // `private def x`), outermost last.
    if let Some(cw) = spec.defs.call_wrappers {
        let mut calls = Vec::new();
        while let Some(args) = top.parent() {
            let Some(call) = args.parent() else { break };
            let wraps = kind_of(args) == cw.args
                && args.named_child_count() == 1
                && kind_of(call) == cw.kind
                && call
                    .child_by_field_name("arguments")
                    .is_some_and(|a| a.id() == args.id())
                && cw
                    .absent_fields
                    .iter()
                    .all(|f| call.child_by_field_name(f).is_none());
            let Some(method) = call.child_by_field_name(cw.method_field).filter(|_| wraps) else {
                break;
            };
            calls.push(text(src, method));
            top = call;
        }
        calls.reverse();
        decorators.extend(calls);
    }
    // Wrappers (decorated_definition, export_statement).
    while let Some(pp) = top.parent() {
        if spec.span_wrappers.contains(&kind_of(pp)) {
            for child in pp.children() {
                if spec.wrapper_decorators.contains(&kind_of(child)) {
                    decorators.push(text(src, child));
                }
            }
            top = pp;
        } else {
            break;
        }
    }
    // Leading sibling attributes / decorators.
    let mut start = top;
    let mut sib = top.prev_sibling();
    let mut pending: Vec<String> = Vec::new();
    while let Some(s) = sib {
        if spec.leading_siblings.contains(&kind_of(s)) {
            start = s;
            pending.push(text(src, s));
        } else if !spec.between_siblings.contains(&kind_of(s)) {
            break;
        }
        sib = s.prev_sibling();
    }
    pending.reverse();
    pending.extend(decorators);
    (start, top, pending)
}

/// Header: from the node's own start through the opener of the body.
fn header_span(src: &[u8], start: Node<'_>, node: Node<'_>, body: Node<'_>) -> Span {
    // Brace bodies: the header ends at the `{` (first byte of the body).
    if src.get(body.start_byte()) == Some(&b'{') {
        let end = body.start_byte() + 1;
        return Span {
            start_byte: start.start_byte(),
            end_byte: end,
            start_line: start.start_position().row + 1,
            end_line: body.start_position().row + 1,
        };
    }
    // Otherwise the last anonymous token before the body (`:`, `=>`).
    let mut opener: Option<Node<'_>> = None;
    for child in node.children() {
        if child.start_byte() >= body.start_byte() {
            break;
        }
        if !child.is_named() {
            opener = Some(child);
        }
    }
    match opener {
        Some(o) => Span::between(start, o),
        None => Span {
            start_byte: start.start_byte(),
            end_byte: body.start_byte(),
            start_line: start.start_position().row + 1,
            end_line: body.start_position().row + 1,
        },
    }
}

/// Whether an anonymous token of `kinds` appears among `node`'s direct
/// children before the body (or within a `function_modifiers` child).
fn has_token(
    node: Node<'_>,
    kinds: &[&'static str],
    groups: &[&'static str],
    body: Option<Node<'_>>,
) -> bool {
    first_token(node, kinds, groups, body).is_some()
}

/// The first of `kinds` among the node's anonymous children before the body,
/// looking into `groups` children too.
fn first_token(
    node: Node<'_>,
    kinds: &[&'static str],
    groups: &[&'static str],
    body: Option<Node<'_>>,
) -> Option<&'static str> {
    if kinds.is_empty() {
        return None;
    }
    let limit = body.map_or(node.end_byte(), |b| b.start_byte());
    for child in node.children() {
        if child.start_byte() >= limit {
            break;
        }
        if let Some(k) = kinds.iter().find(|k| **k == kind_of(child)) {
            // A `get` / `set` that is the method's name is not an accessor.
            if child.is_named() {
                continue;
            }
            return Some(k);
        }
        if groups.contains(&kind_of(child)) {
            for m in child.children() {
                if let Some(k) = kinds.iter().find(|k| **k == kind_of(m)) {
                    return Some(k);
                }
            }
        }
    }
    None
}

/// A yield in `body` that is not inside a nested barrier (function, class).
/// One cursor walk over the named nodes (no cursor per node).
fn contains_yield(spec: &LangSpec, body: Node<'_>) -> bool {
    if spec.yield_kinds.is_empty() {
        return false;
    }
    if spec.yield_kinds.contains(&kind_of(body)) {
        return true;
    }
    let mut cursor = body.walk();
    if !cursor.goto_first_child() {
        return false;
    }
    loop {
        let n = cursor.node();
        let mut descend = false;
        if n.is_named() {
            let kind = kind_of(n);
            if spec.yield_kinds.contains(&kind) {
                return true;
            }
            descend = !spec.yield_barriers.contains(&kind);
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() || cursor.node().id() == body.id() {
                return false;
            }
        }
    }
}

/// The indexes of consecutive parts of one file (the chunks of a
/// [`crate::ChunkPlan`], in file order) as one index of the file: parents
/// shifted to the joined positions, occurrences and duplicate counts
/// counted over the whole file, as [`index_flat`] counts them.
pub fn join_indexes(parts: Vec<Vec<Function>>) -> Vec<Function> {
    let mut join = IndexJoin::default();
    for part in parts {
        join.push(part);
    }
    join.finish()
}

/// [`join_indexes`] one part at a time, so that a caller never holds the
/// parts and the joined index at once: [`IndexJoin::push`] each part's
/// index in file order, then [`IndexJoin::finish`].
#[derive(Debug, Default)]
pub struct IndexJoin {
    out: Vec<Function>,
}

impl IndexJoin {
    /// Appends the next part's index (parents shifted to the joined
    /// positions).
    pub fn push(&mut self, part: Vec<Function>) {
        let base = self.out.len();
        self.out.extend(part.into_iter().map(|mut f| {
            f.parent = f.parent.map(|p| p + base);
            f
        }));
    }

    /// How many functions the parts pushed so far hold.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether no function was pushed yet.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The joined index, occurrences and duplicate counts counted over
    /// every part.
    pub fn finish(mut self) -> Vec<Function> {
        assign_occurrences(&mut self.out);
        self.out
    }
}

fn assign_occurrences(out: &mut [Function]) {
    let by_name = occurrences(out.len(), |i| out[i].qualname.as_str());
    let by_key = occurrences(out.len(), |i| out[i].pairing_key_ref());
    for ((f, (occ, dup)), (key_occ, _)) in out.iter_mut().zip(by_name).zip(by_key) {
        f.occurrence = occ;
        f.dup_count = dup;
        f.key_occurrence = key_occ;
    }
}

/// The target id of the `occurrence`-th (1-based) of `dup_count`
/// functions named `qualname` in `path`: `path::qualname`, with `#n` when
/// the name is not unique in the file ([`Function::target_id`] for an
/// index entry; records that keep only these fields use this).
pub fn target_id_for(path: &str, qualname: &str, occurrence: usize, dup_count: usize) -> String {
    if dup_count > 1 {
        format!("{path}::{qualname}#{occurrence}")
    } else {
        format!("{path}::{qualname}")
    }
}

/// For the items `0..n` in order: each one's occurrence (1-based) among
/// the items with an equal `key`, and how many items share that key.
/// Counted on a stable sort of the indices by key (file order within
/// equal keys), so no key is copied or hashed: O(n log n) comparisons and
/// 24 bytes an item. [`join_indexes`] numbers qualnames and pairing keys
/// with it; callers that keep slimmer records of an index number them
/// the same way.
pub fn occurrences<K: Ord>(n: usize, key: impl Fn(usize) -> K) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| key(i));
    let mut out = vec![(0usize, 0usize); n];
    for run in order.chunk_by(|&a, &b| key(a) == key(b)) {
        for (k, &i) in run.iter().enumerate() {
            if let Some(o) = out.get_mut(i) {
                *o = (k + 1, run.len());
            }
        }
    }
    out
}

/// The part of a function's before/after key besides the qualname that
/// step 2 of the pairing keeps (`docs/target-rules.md`): Rust impl trait, JS
/// accessor, Ruby singleton flag, C++ class type.
pub type PairingExtra = (Option<String>, Option<String>, bool, Option<String>);

/// (qualname, [`PairingExtra`], parameter-list key): functions with equal
/// keys are paired before/after in source order.
pub type PairingKey = (String, PairingExtra, Option<String>);

/// A [`PairingKey`] borrowing the function's strings
/// ([`Function::pairing_key_ref`]): keys of a whole index counted or
/// looked up without a copy of each.
pub type PairingKeyRef<'a> = (
    &'a str,
    (Option<&'a str>, Option<&'a str>, bool, Option<&'a str>),
    Option<&'a str>,
);

impl Function {
    /// See [`PairingExtra`].
    pub fn pairing_extra(&self) -> PairingExtra {
        (
            self.impl_trait.clone(),
            self.accessor.clone(),
            self.singleton,
            self.class_type.clone(),
        )
    }

    /// See [`PairingKeyRef`]: equal exactly when [`Function::pairing_key`]
    /// is.
    pub fn pairing_key_ref(&self) -> PairingKeyRef<'_> {
        (
            self.qualname.as_str(),
            (
                self.impl_trait.as_deref(),
                self.accessor.as_deref(),
                self.singleton,
                self.class_type.as_deref(),
            ),
            self.params.as_deref(),
        )
    }

    /// See [`PairingKey`].
    pub fn pairing_key(&self) -> PairingKey {
        (
            self.qualname.clone(),
            self.pairing_extra(),
            self.params.clone(),
        )
    }

    /// The before/after matching key of `docs/target-rules.md`: the
    /// [`PairingKey`] and the n-th occurrence of that key.
    pub fn match_key(&self) -> (PairingKey, usize) {
        (self.pairing_key(), self.key_occurrence)
    }
}

impl FlatTree {
    /// The function's own node: the innermost node of its kind covering
    /// `func.node` (as [`Function::find_node`]; `None` for functions
    /// found inside macro bodies). O(log n + depth).
    pub fn function_node(&self, func: &Function) -> Option<Node<'_>> {
        if func.in_macro {
            return None;
        }
        self.innermost(func.node.start_byte, func.node.end_byte, func.node_kind)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    /// The generator flags of the fused walk equal one [`contains_yield`]
    /// walk per function, on every Python file of the django corpus (plus
    /// small cases when the corpus is not available).
    #[test]
    fn fused_generator_search_matches_per_function_walks() {
        let mut sources: Vec<Vec<u8>> = vec![
            b"def f():\n    yield 1\n".to_vec(),
            b"def f():\n    def g():\n        yield 1\n    return g\n".to_vec(),
            b"def f(x=(yield)):\n    pass\n".to_vec(),
            b"g = lambda: (yield)\nclass K:\n    def m(self):\n        x = [(yield) for _ in y]\n"
                .to_vec(),
            b"def f(:\n    yield\n".to_vec(),
        ];
        if let Some(dir) = codethread_testkit::shared_path("metrics/corpora/django") {
            let (files, errors) = crate::source_files(&dir);
            assert!(errors.is_empty(), "{errors:?}");
            for p in files
                .iter()
                .filter(|p| p.extension().is_some_and(|x| x == "py"))
            {
                sources.push(std::fs::read(p).unwrap());
            }
        }
        let spec = spec(crate::Lang::Python);
        assert!(fused_yields(spec));
        let mut generators = 0usize;
        for src in sources {
            let file = crate::parse(crate::Lang::Python, src).unwrap();
            let flat = FlatTree::new(&file);
            for func in index_functions(&file) {
                let node = flat.function_node(&func).expect("function node");
                let rule = spec
                    .functions
                    .iter()
                    .find(|r| r.kind == node.kind())
                    .unwrap();
                let walked = node
                    .child_by_field_name(rule.body_field)
                    .is_some_and(|b| contains_yield(spec, b));
                assert_eq!(
                    func.is_generator, walked,
                    "{} line {}",
                    func.name, func.node.start_line
                );
                generators += usize::from(walked);
            }
        }
        assert!(generators >= 3);
    }
}
