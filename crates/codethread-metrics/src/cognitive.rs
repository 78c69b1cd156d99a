//! Cognitive complexity: one generic, iterative walker driven by the rule
//! tables of [`rules`] (one table per profile and language).
//!
//! The walker visits the function's subtree in pre-order with an explicit
//! stack. Each visited node carries a scan mode and three nesting counters
//! (structural nesting, function depth, closure depth) inherited from its
//! parent; the first matching [`rules::NodeRule`] of its kind decides its
//! increment and how its children are visited. Boolean operators, direct
//! recursion and "no value" cases are table entries too. Nothing here is
//! specific to a language or a tool.

use std::collections::HashSet;

use codethread_lang::FlatNode as Node;
use codethread_lang::ParsedFile;

use crate::context::FnCtx;
use codethread_rules::cognitive as rules;
use codethread_rules::when::Site;
use rules::{BoolMode, CogRules, FnNest, Inc, NodeRule, Recursion, Scan, Sel};

/// A function's walk, kept so that the walk of an enclosing function can add
/// its total instead of walking the subtree again: valid when the enclosing
/// walk reaches the node in the very state this walk started from (same
/// scan mode, nesting counters, ancestor bits, parent and field) and the node
/// opens a function space (so both start a fresh boolean sequence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct MemoEntry {
    scan: Scan,
    nesting: Nesting,
    seen: u64,
    parent: Option<usize>,
    field: Option<&'static str>,
    /// The walk's total, direct recursion excluded.
    total: u32,
}

impl Memo {
    /// An empty memo for one chunk of a file measured in chunks: gocognit's
    /// method rule (a method that calls its own bare name is not recursive
    /// when the file declares that name at top level) cannot see the other
    /// chunks' names, so it is left to the file's end: a method with such
    /// calls counts them, and [`Memo::take_deferred`] says how many to take
    /// back if the name turns out to be a top-level one
    /// ([`top_level_names`] of every chunk).
    pub(crate) fn deferring_top_names() -> Memo {
        Memo {
            defer_top: true,
            ..Memo::default()
        }
    }

    /// The name and the recursion count of the method at `node_id` whose
    /// top-level-name check was deferred, if any.
    pub(crate) fn take_deferred(&mut self, node_id: usize) -> Option<(Vec<u8>, u32)> {
        let at = self.deferred.iter().position(|d| d.0 == node_id)?;
        let (_, name, count) = self.deferred.swap_remove(at);
        Some((name, count))
    }
}

/// The declaration kinds whose names gocognit's method rule looks up at
/// the file's top level, when `rules` has that rule.
pub(crate) fn top_level_decls(rules: &CogRules) -> Option<&'static [&'static str]> {
    match rules.recursion {
        Recursion::Each {
            method_kinds,
            toplevel_decls,
            ..
        } if !method_kinds.is_empty() => Some(toplevel_decls),
        _ => None,
    }
}

/// The names `root`'s tree declares at top level under `decls` (one
/// chunk's share of the file's: see [`top_level_decls`]).
pub(crate) fn top_level_names(
    file: &ParsedFile,
    root: Node<'_>,
    decls: &[&str],
) -> HashSet<Vec<u8>> {
    names_at_top(file, root, decls)
}

/// Walk totals of functions already measured in one file, by node id.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    walks: std::collections::HashMap<usize, MemoEntry>,
    /// Names the file declares at top level (gocognit's method rule), once
    /// per file.
    top_names: Option<HashSet<Vec<u8>>>,
    /// Leave gocognit's top-level-name check to the file's end
    /// ([`Memo::deferring_top_names`]).
    defer_top: bool,
    /// Methods whose check was left: node id, name, recursion count.
    deferred: Vec<(usize, Vec<u8>, u32)>,
    /// The state a node is entered with by the walk from the root
    /// ([`context_state`]), by node id: each function's inherited context
    /// continues from its nearest known ancestor instead of the root, so
    /// deep nesting costs O(n), not O(depth) per function.
    contexts: std::collections::HashMap<usize, Context>,
}

/// Nesting counters, scan mode and ancestor bits a node is entered with.
#[derive(Debug, Clone, Copy)]
struct Context {
    nesting: Nesting,
    scan: Scan,
    seen: u64,
}

/// Cognitive complexity of `ctx`'s function under `table` (`None`: the tool
/// gives this kind of function no value), with a file-wide [`Memo`];
/// functions should be measured innermost first for the memo to help (the
/// value never depends on it).
pub(crate) fn cognitive_memo_ctx(
    ctx: &FnCtx<'_>,
    table: &'static CogRules,
    memo: &mut Memo,
) -> Option<u32> {
    if table.null_kinds.contains(&crate::kinds::kind_of(ctx.node)) {
        return None;
    }
    // An ancestor of a "no value" kind (parent links: no path built here;
    // the walk below builds the one it needs).
    let mut up = ctx.node.parent();
    while let Some(n) = up.filter(|_| !table.null_inside.is_empty()) {
        if table.null_inside.contains(&crate::kinds::kind_of(n)) {
            return None;
        }
        up = n.parent();
    }
    if table.counts_nothing() {
        // Nothing in the table can add (rust-code-analysis 0.0.25 has no
        // Java rules): the value is 0 without walking the subtree, which
        // for nested local or anonymous classes would be one walk per
        // enclosing method (quadratic in the nesting depth).
        return Some(0);
    }
    Some(cognitive_memo(ctx.file, ctx.node, table, memo))
}

/// Nesting counters of one node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Nesting {
    nest: u32,
    depth: u32,
    lambda: u32,
}

impl Nesting {
    fn total(self) -> u32 {
        self.nest
            .saturating_add(self.depth)
            .saturating_add(self.lambda)
    }
}

/// A node waiting to be walked (one per pending sibling: kept small, a
/// left-deep expression leaves two per level on the stack). The parent and
/// the field come from the flat tree (O(1)).
struct Frame<'t> {
    node: Node<'t>,
    /// Bit i: some ancestor has the i-th watched kind (function-depth kinds).
    seen: u64,
    scan: Scan,
    nesting: Nesting,
    space: usize,
}

/// Ancestor kinds the tables ask about (function-depth increments).
fn watched_kinds(table: &CogRules) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in table.nodes {
        if let Some(f) = r.fn_nest {
            for k in f.depth_if_ancestor {
                if !out.contains(k) {
                    out.push(k);
                }
            }
        }
    }
    out.truncate(64);
    out
}

fn seen_with(seen: u64, kind: &str, watched: &[&str]) -> u64 {
    let mut s = seen;
    for (bit, w) in watched.iter().enumerate() {
        if *w == kind {
            s |= 1u64 << bit;
        }
    }
    s
}

fn seen_any(seen: u64, kinds: &[&str], watched: &[&str]) -> bool {
    watched
        .iter()
        .enumerate()
        .any(|(bit, w)| kinds.contains(w) && seen & (1u64 << bit) != 0)
}

/// The nodes from the root down to `target` (inclusive), each with the field
/// it occupies in its parent (parent links of the flat tree: O(depth)).
#[cfg(test)]
fn path_to(target: Node<'_>) -> Vec<(Node<'_>, Option<&'static str>)> {
    let mut path = vec![(target, target.field_name())];
    let mut n = target;
    while let Some(p) = n.parent() {
        path.push((p, p.field_name()));
        n = p;
    }
    if let Some(root) = path.last_mut() {
        root.1 = None;
    }
    path.reverse();
    path
}

/// Cognitive complexity of the function at `func` under an explicit rule table
/// (no "no value" check).
#[cfg(test)]
pub fn cognitive_with(file: &ParsedFile, func: Node<'_>, table: &CogRules) -> u32 {
    cognitive_memo(file, func, table, &mut Memo::default())
}

fn cognitive_memo(file: &ParsedFile, func: Node<'_>, table: &CogRules, memo: &mut Memo) -> u32 {
    let watched = watched_kinds(table);
    let parent = func.parent();
    let field = if parent.is_some() {
        func.field_name()
    } else {
        None
    };
    let context = context_state(file, func, table, &watched, &mut memo.contexts);
    let seen = context.seen;
    let start = if table.context_nesting {
        context.nesting
    } else {
        Nesting::default()
    };
    let mut total: u32 = 0;
    // rust-code-analysis: one boolean sequence per function space.
    let mut sequences: Vec<Option<u16>> = vec![None];
    // gocognit: binary expressions already counted as part of a chain.
    let mut chained: HashSet<usize> = HashSet::new();
    let mut stack = vec![Frame {
        node: func,
        seen,
        scan: table.start,
        nesting: start,
        space: 0,
    }];
    let entry = MemoEntry {
        scan: table.start,
        nesting: start,
        seen,
        parent: parent.map(|p| p.id()),
        field,
        total: 0,
    };
    let mut children: Vec<Frame<'_>> = Vec::new();
    let mut cursor = func.walk();
    while let Some(frame) = stack.pop() {
        let node = frame.node;
        if frame.scan == Scan::Skip {
            continue;
        }
        let (frame_parent, frame_field) = match node.parent() {
            Some(p) => (Some(p), node.field_name()),
            None => (None, None),
        };
        let mut space = frame.space;
        let kind = crate::kinds::kind_of(node);
        if node.id() != func.id() && node.is_named() && table.spaces.contains(&kind) {
            if let Some(m) = memo.walks.get(&node.id()) {
                let here = MemoEntry {
                    scan: frame.scan,
                    nesting: frame.nesting,
                    seen: frame.seen,
                    parent: frame_parent.map(|p| p.id()),
                    field: frame_field,
                    total: m.total,
                };
                if here == *m {
                    total = total.saturating_add(m.total);
                    continue;
                }
            }
            sequences.push(None);
            space = sequences.len() - 1;
        }
        let rule = find_rule(
            file,
            table,
            node,
            kind,
            frame_parent,
            frame_field,
            frame.scan,
        );
        let mut nesting = frame.nesting;
        if let Some(r) = rule {
            if let Some(f) = r.fn_nest {
                apply_fn_nest(
                    &mut nesting,
                    f,
                    seen_any(frame.seen, f.depth_if_ancestor, &watched),
                );
            }
            match r.inc {
                Inc::None => {}
                Inc::Flat(k) => total = total.saturating_add(k),
                Inc::Nesting => {
                    total = total
                        .saturating_add(1)
                        .saturating_add(frame.nesting.total());
                }
            }
            if r.bool_reset {
                if let Some(s) = sequences.get_mut(space) {
                    *s = None;
                }
            }
        }
        let boolean = booleans(
            node,
            kind,
            frame.scan,
            table.booleans,
            &mut sequences,
            space,
            &mut chained,
        );
        total = total.saturating_add(boolean);

        let seen = seen_with(frame.seen, kind, &watched);
        route_children(
            node,
            rule,
            frame.scan,
            nesting,
            space,
            seen,
            &mut children,
            &mut cursor,
        );
        stack.extend(children.drain(..).rev());
    }
    memo.walks.insert(func.id(), MemoEntry { total, ..entry });
    total.saturating_add(recursion(file, func, table.recursion, memo))
}

fn find_rule<'r>(
    file: &ParsedFile,
    table: &'r CogRules,
    node: Node<'_>,
    kind: &str,
    parent: Option<Node<'_>>,
    field: Option<&str>,
    scan: Scan,
) -> Option<&'r NodeRule> {
    table.nodes.iter().find(|r| {
        r.kind == kind
            && (r.scans.is_empty() || r.scans.contains(&scan))
            && r.when.holds(&Site {
                file,
                node,
                parent,
                field,
                inside: None,
            })
    })
}

fn apply_fn_nest(nesting: &mut Nesting, f: FnNest, inside: bool) {
    if f.reset_nesting {
        nesting.nest = 0;
    }
    if f.reset_lambda {
        nesting.lambda = 0;
    }
    if f.lambda {
        nesting.lambda = nesting.lambda.saturating_add(1);
    }
    if inside {
        nesting.depth = nesting.depth.saturating_add(1);
    }
}

/// Scan mode and extra nesting of every child of `node`, in source order.
#[allow(clippy::too_many_arguments)]
fn route_children<'t>(
    node: Node<'t>,
    rule: Option<&NodeRule>,
    scan: Scan,
    nesting: Nesting,
    space: usize,
    seen: u64,
    out: &mut Vec<Frame<'t>>,
    cursor: &mut codethread_lang::FlatCursor<'t>,
) {
    cursor.reset(node);
    if !cursor.goto_first_child() {
        return;
    }
    let mut named_index = 0usize;
    loop {
        let child = cursor.node();
        let field = cursor.field_name();
        let nth = if child.is_named() && !child.is_extra() {
            named_index += 1;
            Some(named_index - 1)
        } else {
            None
        };
        let (child_scan, extra) = child_route(rule, scan, child, field, nth);
        if child_scan != Scan::Skip {
            let mut n = nesting;
            n.nest = n.nest.saturating_add(extra);
            out.push(Frame {
                node: child,
                seen,
                scan: child_scan,
                nesting: n,
                space,
            });
        }
        if !cursor.goto_next_sibling() {
            break;
        }
    }
}

/// The index of `child` among `parent`'s named, non-extra children.
fn named_index_of(parent: Node<'_>, child: Node<'_>) -> Option<usize> {
    let mut i = 0usize;
    for c in parent.named_children() {
        if c.is_extra() {
            continue;
        }
        if c.id() == child.id() {
            return Some(i);
        }
        i += 1;
    }
    None
}

fn child_route(
    rule: Option<&NodeRule>,
    scan: Scan,
    child: Node<'_>,
    field: Option<&str>,
    nth: Option<usize>,
) -> (Scan, u32) {
    let Some(rule) = rule else {
        // Unknown kinds: entered only when everything is scanned.
        return (
            if scan == Scan::All {
                Scan::All
            } else {
                Scan::Skip
            },
            0,
        );
    };
    for r in rule.routes {
        let selected = match r.sel {
            Sel::Field(f) => field == Some(f),
            Sel::Kind(k) => crate::kinds::kind_of(child) == k,
            Sel::Nth(i) => nth == Some(i),
            Sel::AnyNamed => child.is_named() && !child.is_extra(),
        };
        if selected {
            return (r.scan, r.nest);
        }
    }
    (rule.rest.unwrap_or(scan), rule.rest_nest)
}

/// The state `target` is entered with by the walk from the root that
/// [`context_nesting`] does (its nesting counters, scan mode and the bits of
/// watched ancestor kinds), continuing from the nearest ancestor already in
/// `known` and recording every node on the way.
fn context_state(
    file: &ParsedFile,
    target: Node<'_>,
    table: &CogRules,
    watched: &[&str],
    known: &mut std::collections::HashMap<usize, Context>,
) -> Context {
    // Climb to the nearest known ancestor (or the root).
    let mut chain = vec![target];
    let mut state = None;
    let mut n = target;
    loop {
        if let Some(c) = known.get(&n.id()) {
            state = Some(*c);
            break;
        }
        match n.parent() {
            Some(p) => {
                chain.push(p);
                n = p;
            }
            None => break,
        }
    }
    let mut state = state.unwrap_or(Context {
        nesting: Nesting::default(),
        scan: table.start,
        seen: 0,
    });
    let top = chain.len() - 1;
    known.insert(chain[top].id(), state);
    // Down again: the step of `context_nesting` for each (node, child) pair.
    for j in (1..=top).rev() {
        let (node, next) = (chain[j], chain[j - 1]);
        let parent = node.parent();
        let field = if parent.is_some() {
            node.field_name()
        } else {
            None
        };
        let rule = find_rule(
            file,
            table,
            node,
            crate::kinds::kind_of(node),
            parent,
            field,
            state.scan,
        );
        if let Some(f) = rule.and_then(|r| r.fn_nest) {
            apply_fn_nest(
                &mut state.nesting,
                f,
                seen_any(state.seen, f.depth_if_ancestor, watched),
            );
        }
        state.seen = seen_with(state.seen, crate::kinds::kind_of(node), watched);
        let wants_nth = rule.is_some_and(|r| r.routes.iter().any(|x| matches!(x.sel, Sel::Nth(_))));
        let nth = if wants_nth && next.is_named() && !next.is_extra() {
            named_index_of(node, next)
        } else {
            None
        };
        let (child_scan, extra) = child_route(rule, state.scan, next, next.field_name(), nth);
        if child_scan == Scan::Skip {
            state.scan = table.start;
        } else {
            state.nesting.nest = state.nesting.nest.saturating_add(extra);
            state.scan = child_scan;
        }
        known.insert(next.id(), state);
    }
    state
}

/// The nesting counters a function node inherits from its ancestors
/// (rust-code-analysis keeps one nesting map for the whole file). The
/// reference for [`context_state`], which the engine uses.
#[cfg(test)]
fn context_nesting(
    file: &ParsedFile,
    path: &[(Node<'_>, Option<&'static str>)],
    table: &CogRules,
    watched: &[&str],
) -> Nesting {
    let mut nesting = Nesting::default();
    let mut scan = table.start;
    let mut seen = 0u64;
    for (i, pair) in path.windows(2).enumerate() {
        let ((node, field), (next, _)) = (pair[0], pair[1]);
        let parent = i.checked_sub(1).and_then(|j| path.get(j)).map(|(n, _)| *n);
        let rule = find_rule(
            file,
            table,
            node,
            crate::kinds::kind_of(node),
            parent,
            field,
            scan,
        );
        if let Some(f) = rule.and_then(|r| r.fn_nest) {
            apply_fn_nest(
                &mut nesting,
                f,
                seen_any(seen, f.depth_if_ancestor, watched),
            );
        }
        seen = seen_with(seen, crate::kinds::kind_of(node), watched);
        let next_field = pair[1].1;
        let wants_nth = rule.is_some_and(|r| r.routes.iter().any(|x| matches!(x.sel, Sel::Nth(_))));
        let nth = if wants_nth && next.is_named() && !next.is_extra() {
            named_index_of(node, next)
        } else {
            None
        };
        let (child_scan, extra) = child_route(rule, scan, next, next_field, nth);
        if child_scan == Scan::Skip {
            scan = table.start;
        } else {
            nesting.nest = nesting.nest.saturating_add(extra);
            scan = child_scan;
        }
    }
    nesting
}

#[allow(clippy::too_many_arguments)]
fn booleans(
    node: Node<'_>,
    kind: &str,
    scan: Scan,
    mode: BoolMode,
    sequences: &mut [Option<u16>],
    space: usize,
    chained: &mut HashSet<usize>,
) -> u32 {
    match mode {
        BoolMode::None => 0,
        BoolMode::RcaSequence {
            binary_kinds,
            operators,
            unary_kinds,
            reset_kinds,
        } => {
            let Some(seq) = sequences.get_mut(space) else {
                return 0;
            };
            if reset_kinds.contains(&kind) {
                *seq = None;
                0
            } else if unary_kinds.contains(&kind) {
                *seq = Some(node.kind_id());
                0
            } else if binary_kinds.contains(&kind) {
                let mut added = 0;
                for child in node.children() {
                    if operators.contains(&crate::kinds::kind_of(child)) {
                        match *seq {
                            Some(prev) if prev == child.kind_id() => {}
                            Some(_) => added += 1,
                            None => {
                                *seq = Some(child.kind_id());
                                added += 1;
                            }
                        }
                    }
                }
                added
            } else {
                0
            }
        }
        BoolMode::Chain {
            binary_kind,
            operator_field,
            operators,
        } => {
            if kind != binary_kind || chained.contains(&node.id()) {
                return 0;
            }
            let Some(op) = node.child_by_field_name(operator_field) else {
                return 0;
            };
            if !operators.contains(&crate::kinds::kind_of(op)) {
                return 0;
            }
            // In-order logical operators of the binary tree rooted here,
            // not crossing parentheses (or any other node kind).
            let mut ops: Vec<(usize, u16)> = Vec::new();
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                chained.insert(n.id());
                if let Some(o) = n.child_by_field_name(operator_field) {
                    if operators.contains(&crate::kinds::kind_of(o)) {
                        ops.push((o.start_byte(), o.kind_id()));
                    }
                }
                for c in n.named_children() {
                    if crate::kinds::kind_of(c) == binary_kind {
                        stack.push(c);
                    }
                }
            }
            ops.sort_unstable();
            let mut last: Option<u16> = None;
            let mut added = 0;
            for (_, op) in ops {
                if last != Some(op) {
                    added += 1;
                    last = Some(op);
                }
            }
            added
        }
        BoolMode::Complexipy {
            bool_kind,
            operator_field,
            unary_kinds,
            operand_field,
            paren_kind,
        } => {
            if scan != Scan::Expr {
                return 0;
            }
            let shape = PyBool {
                bool_kind,
                operator_field,
                unary_kinds,
                operand_field,
                paren_kind,
            };
            if kind == bool_kind {
                1u32.saturating_add(shape.different_children(node))
            } else if unary_kinds.contains(&kind) {
                match node.child_by_field_name(operand_field) {
                    Some(operand) => shape.count(shape.strip(operand), None),
                    None => 0,
                }
            } else {
                0
            }
        }
    }
}

/// complexipy's view of boolean expressions: `BoolOp` nodes with flattened
/// same-operator operands, unary operators, and parentheses that do not exist.
struct PyBool<'a> {
    bool_kind: &'a str,
    operator_field: &'a str,
    unary_kinds: &'a [&'a str],
    operand_field: &'a str,
    paren_kind: &'a str,
}

impl PyBool<'_> {
    fn strip<'t>(&self, mut node: Node<'t>) -> Node<'t> {
        while crate::kinds::kind_of(node) == self.paren_kind {
            let inner = node.named_children().find(|c| !c.is_extra());
            match inner {
                Some(i) => node = i,
                None => break,
            }
        }
        node
    }

    fn op<'t>(&self, node: Node<'t>) -> &'t str {
        node.child_by_field_name(self.operator_field)
            .map(|o| crate::kinds::kind_of(o))
            .unwrap_or("")
    }

    fn is_bool(&self, node: Node<'_>) -> bool {
        crate::kinds::kind_of(node) == self.bool_kind
    }

    fn is_unary(&self, node: Node<'_>) -> bool {
        self.unary_kinds.contains(&crate::kinds::kind_of(node))
    }

    /// The operands of a `BoolOp` (same-operator chains without parentheses
    /// are one `BoolOp` in Python's AST).
    fn values<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        let op = self.op(node);
        let mut out = Vec::new();
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            let left = n.child_by_field_name("left");
            let right = n.child_by_field_name("right");
            for side in [right, left].into_iter().flatten() {
                if self.is_bool(side) && self.op(side) == op {
                    stack.push(side);
                } else {
                    out.push(side);
                }
            }
        }
        out.sort_by_key(|n| n.start_byte());
        out.into_iter().map(|n| self.strip(n)).collect()
    }

    fn operand<'t>(&self, unary: Node<'t>) -> Option<Node<'t>> {
        unary
            .child_by_field_name(self.operand_field)
            .map(|n| self.strip(n))
    }

    /// `Σ nested(v, op)` over the operands `v` of the `BoolOp` `node`.
    fn different_children(&self, node: Node<'_>) -> u32 {
        let op = self.op(node);
        self.values(node)
            .into_iter()
            .map(|v| self.count(v, Some(op)))
            .sum()
    }

    /// Boolean operators nested in `expr` (whose enclosing operator is
    /// `parent`): +1 for each `BoolOp` whose operator differs from its
    /// enclosing one; a unary operator in between counts as a different
    /// operator (`a or not (b or c)` adds 2). Iterative.
    fn count(&self, expr: Node<'_>, parent: Option<&str>) -> u32 {
        let mut total = 0u32;
        let mut stack = vec![(expr, parent)];
        while let Some((e, p)) = stack.pop() {
            if self.is_bool(e) {
                let op = self.op(e);
                if p != Some(op) {
                    total = total.saturating_add(1);
                }
                for v in self.values(e) {
                    stack.push((v, Some(op)));
                }
            } else if self.is_unary(e) {
                if let Some(o) = self.operand(e) {
                    stack.push((o, None));
                }
            }
        }
        total
    }
}

fn recursion(file: &ParsedFile, func: Node<'_>, mode: Recursion, memo: &mut Memo) -> u32 {
    let Some(name) = func.child_by_field_name("name") else {
        return 0;
    };
    let name = file.text(name);
    // Every count below needs an identifier spelled `name` inside the
    // function: when its bytes do not contain the name, there is none.
    if matches!(mode, Recursion::None) || !contains_bytes(file.text(func), name) {
        return 0;
    }
    match mode {
        Recursion::None => 0,
        Recursion::Once {
            call_kind,
            function_field,
            ident_kind,
            skip,
        } => {
            let Some(body) = func.child_by_field_name("body") else {
                return 0;
            };
            let found = count_calls(
                file,
                body,
                name,
                call_kind,
                function_field,
                ident_kind,
                skip,
                true,
            );
            u32::from(found > 0)
        }
        Recursion::Each {
            call_kind,
            function_field,
            ident_kind,
            method_kinds,
            toplevel_decls,
            shadowing,
        } => {
            let method = method_kinds.contains(&crate::kinds::kind_of(func));
            if method && !memo.defer_top {
                let top = memo
                    .top_names
                    .get_or_insert_with(|| names_at_top(file, func.tree().root(), toplevel_decls));
                if top.contains(name) {
                    return 0;
                }
            }
            // One walk over the named nodes: a local declaration of the name
            // means no recursion, else every matching call counts.
            let mut count = 0u32;
            let mut cursor = func.walk();
            let count = 'walk: loop {
                let n = cursor.node();
                let mut descend = false;
                if n.is_named() {
                    if declares(file, n, name, ident_kind, shadowing) {
                        return 0;
                    }
                    if is_call_to(file, n, name, call_kind, function_field, ident_kind) {
                        count = count.saturating_add(1);
                    }
                    descend = true;
                }
                if descend && cursor.goto_first_child() {
                    continue;
                }
                loop {
                    if cursor.node().id() == func.id() {
                        break 'walk count;
                    }
                    if cursor.goto_next_sibling() {
                        break;
                    }
                    if !cursor.goto_parent() {
                        break 'walk count;
                    }
                }
            };
            if method && memo.defer_top && count > 0 {
                memo.deferred.push((func.id(), name.to_vec(), count));
            }
            count
        }
    }
}

/// Whether `needle` occurs in `hay` (an empty needle occurs everywhere).
fn contains_bytes(hay: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut from = 0usize;
    while let Some(i) = hay
        .get(from..)
        .and_then(|h| h.iter().position(|&b| b == first))
    {
        let at = from + i;
        if hay.get(at + 1..at + 1 + rest.len()) == Some(rest) {
            return true;
        }
        from = at + 1;
    }
    false
}

#[allow(clippy::too_many_arguments)]
fn count_calls(
    file: &ParsedFile,
    root: Node<'_>,
    name: &[u8],
    call_kind: &str,
    function_field: &str,
    ident_kind: &str,
    skip: &[&str],
    first_only: bool,
) -> u32 {
    // One cursor walk over the root and its named descendants; `skip`
    // kinds (below the root) are not entered.
    let mut count = 0u32;
    let mut cursor = root.walk();
    loop {
        let n = cursor.node();
        let is_root = n.id() == root.id();
        let mut descend = false;
        if is_root || (n.is_named() && !skip.contains(&crate::kinds::kind_of(n))) {
            if is_call_to(file, n, name, call_kind, function_field, ident_kind) {
                count = count.saturating_add(1);
                if first_only {
                    return count;
                }
            }
            descend = true;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == root.id() {
                return count;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

/// Whether `n` is a call of the identifier `name`.
fn is_call_to(
    file: &ParsedFile,
    n: Node<'_>,
    name: &[u8],
    call_kind: &str,
    function_field: &str,
    ident_kind: &str,
) -> bool {
    crate::kinds::kind_of(n) == call_kind
        && n.child_by_field_name(function_field)
            .is_some_and(|f| crate::kinds::kind_of(f) == ident_kind && file.text(f) == name)
}

/// Whether the node `n` itself declares `name` (parameters, `:=`, `var`, ...).
fn declares(
    file: &ParsedFile,
    n: Node<'_>,
    name: &[u8],
    ident_kind: &str,
    shadowing: &[(&str, &str)],
) -> bool {
    for (kind, field) in shadowing {
        if crate::kinds::kind_of(n) != *kind {
            continue;
        }
        for target in n.children_by_field_name(field) {
            if crate::kinds::kind_of(target) == ident_kind && file.text(target) == name {
                return true;
            }
            if target
                .named_children()
                .any(|c| crate::kinds::kind_of(c) == ident_kind && file.text(c) == name)
            {
                return true;
            }
        }
    }
    false
}

/// Every name the file declares at top level (outside any function body):
/// the `name` fields of declaration kinds at most three levels down.
fn names_at_top(file: &ParsedFile, root: Node<'_>, decl_kinds: &[&str]) -> HashSet<Vec<u8>> {
    let mut out = HashSet::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        if decl_kinds.contains(&crate::kinds::kind_of(n)) {
            for c in n.children_by_field_name("name") {
                out.insert(file.text(c).to_vec());
            }
        }
        // Declarations sit at most a few levels down (`var ( … )` groups);
        // function bodies are not entered.
        if depth >= 3 || (depth > 0 && n.child_by_field_name("body").is_some()) {
            continue;
        }
        for c in n.named_children() {
            stack.push((c, depth + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    //! One small case per counting rule per language; expected values follow
    //! the tools' rules in `RULES.md` (the disputed-constructs table where it
    //! gives the paper tool's value).
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::backend::cognitive;
    use crate::Profile;
    use codethread_lang::{index_functions, parse, Lang};

    /// The memoized context of every function (innermost first, as the
    /// engine asks) equals the walk from the root it replaces.
    #[test]
    fn memoized_context_equals_the_walk_from_the_root() {
        let cases = [
            (
                Lang::JavaScript,
                "function a(x) { if (x) { const f = () => { while (x) { function g() { return x ? 1 : 2; } } }; } }\nclass C { m() { return [1].map(function (y) { if (y) { return () => y; } }); } }\n",
            ),
            (
                Lang::Python,
                "def a(x):\n    if x:\n        def b():\n            for i in x:\n                g = lambda: [j for j in i if j]\n        class K:\n            def m(self):\n                try:\n                    def n(): pass\n                except E:\n                    pass\n",
            ),
            (
                Lang::Go,
                "package p\nfunc a(x int) { if x > 0 { f := func() { for { g := func() {}; _ = g } }; _ = f } }\n",
            ),
            (
                Lang::Rust,
                "fn a(x: u8) { if x > 0 { let f = || { loop { fn g() {} let h = |y: u8| y; } }; } }\nimpl T { fn m(&self) { match 1 { _ => { let c = || 1; } } } }\n",
            ),
        ];
        for (lang, src) in cases {
            let file = parse(lang, src.as_bytes().to_vec()).unwrap();
            let funcs = index_functions(&file);
            let flat = codethread_lang::FlatTree::new(&file);
            let table = codethread_rules::paper::paper(lang)
                .tree()
                .unwrap()
                .cognitive;
            let watched = watched_kinds(table);
            let mut known = std::collections::HashMap::new();
            assert!(funcs.len() >= 3, "{lang:?}");
            for f in funcs.iter().rev() {
                let node = flat.function_node(f).expect("function node");
                let path = path_to(node);
                let want_nesting = context_nesting(&file, &path, table, &watched);
                let want_seen = path
                    .iter()
                    .take(path.len().saturating_sub(1))
                    .fold(0u64, |acc, (n, _)| {
                        seen_with(acc, crate::kinds::kind_of(n), &watched)
                    });
                let got = context_state(&file, node, table, &watched, &mut known);
                assert_eq!(got.nesting, want_nesting, "{lang:?} {}", f.qualname);
                assert_eq!(got.seen, want_seen, "{lang:?} {}", f.qualname);
            }
        }
    }

    /// Cognitive complexity of every function named `name` (source order).
    fn cog(lang: Lang, src: &str, name: &str) -> Vec<Option<u32>> {
        let file = parse(lang, src.as_bytes().to_vec()).unwrap();
        let funcs = index_functions(&file);
        let flat = codethread_lang::FlatTree::new(&file);
        let mut out = Vec::new();
        for f in funcs.iter().filter(|f| f.name == name) {
            let node = flat.function_node(f).expect("function node");
            let ctx = FnCtx {
                file: &file,
                func: f,
                node,
                index: &funcs,
                profile: Profile::Paper,
            };
            out.push(cognitive(&ctx));
        }
        assert!(!out.is_empty(), "no function {name}");
        out
    }

    fn one(lang: Lang, src: &str, name: &str) -> Option<u32> {
        cog(lang, src, name)[0]
    }

    fn py(body: &str) -> Option<u32> {
        one(Lang::Python, &format!("def f(a, b, c, y):\n{body}"), "f")
    }

    // ---- Python: complexipy ----------------------------------------------
    #[test]
    fn complexipy_structural_nesting() {
        assert_eq!(
            py("    if a:\n        for x in y:\n            while b:\n                pass\n"),
            Some(6)
        );
    }

    #[test]
    fn complexipy_elif_else_are_flat_and_else_if_nests() {
        assert_eq!(
            py("    if a:\n        pass\n    elif b:\n        pass\n    else:\n        pass\n"),
            Some(3)
        );
        // `else:` holding a lone `if` nests (unlike `elif`).
        assert_eq!(
            py("    if a:\n        pass\n    else:\n        if b:\n            pass\n"),
            Some(4)
        );
    }

    #[test]
    fn complexipy_loop_else_adds_nothing() {
        // Table, "Python loop with else": complexipy 4.
        let body = "    for x in y:\n        if x:\n            break\n    else:\n        pass\n    while y:\n        y.pop()\n    else:\n        pass\n";
        assert_eq!(py(body), Some(4));
    }

    #[test]
    fn complexipy_try_counts_each_except() {
        // Table: try with 2 excepts, else, finally → complexipy 2.
        let body = "    try:\n        g()\n    except A:\n        pass\n    except B:\n        pass\n    else:\n        pass\n    finally:\n        pass\n";
        assert_eq!(py(body), Some(2));
        assert_eq!(py("    if a:\n        try:\n            g()\n        except A:\n            if b:\n                pass\n"), Some(6));
    }

    #[test]
    fn complexipy_with_assert_match() {
        // Table: with + assert → 0; match with 3 cases → 1.
        assert_eq!(py("    with open(a) as fh:\n        assert fh\n"), Some(0));
        let body = "    match a:\n        case 1:\n            pass\n        case 2:\n            pass\n        case _:\n            pass\n";
        assert_eq!(py(body), Some(1));
        assert_eq!(
            py("    match a:\n        case 1:\n            if b:\n                pass\n"),
            Some(3)
        );
    }

    #[test]
    fn complexipy_boolean_operators() {
        assert_eq!(py("    return a and b or c\n"), Some(2));
        // Same operator, parenthesised: no extra increment.
        assert_eq!(py("    x = a and (b and c)\n"), Some(1));
        assert_eq!(py("    return not (a or (b and c))\n"), Some(2));
        // A `not` between two equal operators counts as a change.
        assert_eq!(py("    if a or not (b or c):\n        pass\n"), Some(3));
        // Only positional call arguments are looked at.
        assert_eq!(py("    foo(a and b, key=c or y)\n"), Some(1));
        // Expressions outside the looked-at statements add nothing.
        assert_eq!(py("    del x[a and b]\n"), Some(0));
    }

    #[test]
    fn complexipy_ternary_comprehension_lambda() {
        assert_eq!(py("    if c:\n        x = 1 if a else 2\n"), Some(3));
        assert_eq!(py("    x = [i for i in y if i]\n"), Some(2));
        assert_eq!(py("    for z in y:\n        x = [i for i in z]\n"), Some(3));
        assert_eq!(py("    g = lambda: 1 if a else 2\n"), Some(2));
    }

    #[test]
    fn complexipy_recursion_counts_once() {
        let src = "def f(n):\n    return f(n - 1) + f(n - 2)\n";
        assert_eq!(one(Lang::Python, src, "f"), Some(1));
    }

    #[test]
    fn complexipy_nested_defs_fold_and_get_no_value() {
        let src =
            "def f():\n    x = 1\n    def g():\n        if a:\n            pass\n    return g\n";
        assert_eq!(one(Lang::Python, src, "f"), Some(2));
        assert_eq!(one(Lang::Python, src, "g"), None);
        // A decorator-shaped body [def, return] is scored at nesting 0.
        let src = "def f():\n    def g():\n        if a:\n            pass\n    return g\n";
        assert_eq!(one(Lang::Python, src, "f"), Some(1));
    }

    #[test]
    fn complexipy_methods_have_values() {
        let src = "class K:\n    def m(self):\n        if a:\n            pass\n";
        assert_eq!(one(Lang::Python, src, "m"), Some(1));
    }

    // ---- Go: gocognit ----------------------------------------------------
    fn go(body: &str) -> Option<u32> {
        one(
            Lang::Go,
            &format!("package p\nfunc f(a, b, c, d bool) {{\n{body}\n}}\n"),
            "f",
        )
    }

    #[test]
    fn gocognit_if_chains_and_nesting() {
        assert_eq!(go("if a {\n} else if b {\n} else {\n}"), Some(3));
        assert_eq!(go("for {\n if a {\n  switch {\n  }\n }\n}"), Some(6));
    }

    #[test]
    fn gocognit_plain_else_does_not_nest() {
        // gocognit 1.2.0: the `else` block is walked without a nesting increment
        // (the whitepaper would give 7).
        assert_eq!(
            go("if a {\n} else {\n if b {\n  if c {\n  }\n }\n}"),
            Some(5)
        );
    }

    #[test]
    fn gocognit_boolean_chains() {
        assert_eq!(go("if a && b || c && d {\n}"), Some(4));
        assert_eq!(go("if a && (b || c) {\n}"), Some(3));
    }

    #[test]
    fn gocognit_jumps_and_literals() {
        assert_eq!(
            go("L:\n for {\n  if a {\n   break L\n  }\n  continue L\n }\n goto L"),
            Some(6)
        );
        let src = "package p\nfunc f() {\n\tg := func() {\n\t\tif a {\n\t\t}\n\t}\n\t_ = g\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), Some(2));
        assert_eq!(one(Lang::Go, src, "<anonymous>"), None);
    }

    #[test]
    fn gocognit_recursion() {
        let src = "package p\nfunc f(n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn f(n - 1)\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), Some(2));
        // A method's name is not a resolved object: a bare call of the same
        // name counts unless the file declares that name at top level.
        let src = "package p\nfunc (t T) m() {\n\tm()\n}\n";
        assert_eq!(one(Lang::Go, src, "m"), Some(1));
        let src = "package p\nfunc m() {}\nfunc (t T) m() {\n\tm()\n}\n";
        assert_eq!(cog(Lang::Go, src, "m")[1], Some(0));
        // A local declaration of the name shadows the function.
        let src = "package p\nfunc f() {\n\tf := func() {}\n\tf()\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), Some(0));
        let src = "package p\nfunc (t T) logf(s string) {\n\tif logf, ok := t.v.(func(string)); ok {\n\t\tlogf(s)\n\t}\n}\n";
        assert_eq!(one(Lang::Go, src, "logf"), Some(1));
    }

    // ---- Rust: rust-code-analysis 0.0.25 ---------------------------------
    fn rs(body: &str) -> Option<u32> {
        one(Lang::Rust, &format!("fn f() {{\n{body}\n}}\n"), "f")
    }

    #[test]
    fn rca_rust_if_else_match_loop() {
        assert_eq!(rs("if a {} else if b {} else {}"), Some(3));
        // Table: 3-arm match with a guard → RCA 1.
        assert_eq!(rs("match x { 1 if y => 1, 2 => 2, _ => 3 };"), Some(1));
        // `loop` is not counted; a labelled break is +1.
        assert_eq!(rs("'a: loop { while x { break 'a; } }"), Some(2));
    }

    #[test]
    fn rca_rust_boolean_sequence() {
        assert_eq!(rs("let a = x && y || z;"), Some(2));
        // Statements do not reset the sequence in Rust: the second `&&`
        // repeats the sequence's first operator.
        assert_eq!(rs("let a = x && y;\nlet b = z && w;"), Some(1));
        // A unary expression becomes the sequence operator, so every later
        // `&&` differs from it (pre-order: `!x && y` would see `&&` first).
        assert_eq!(rs("let a = !x;\nlet b = y && z && w;"), Some(2));
        assert_eq!(rs("let b = y && z && w;"), Some(1));
    }

    #[test]
    fn rca_rust_closures_nest_and_items_reset() {
        let src = "fn f() {\n    let c = || {\n        if a {}\n    };\n}\n";
        assert_eq!(one(Lang::Rust, src, "f"), Some(2));
        assert_eq!(one(Lang::Rust, src, "<anonymous>"), Some(2));
        let src =
            "fn f() {\n    if a {\n        fn g() {\n            if b {}\n        }\n    }\n}\n";
        assert_eq!(one(Lang::Rust, src, "g"), Some(2));
        assert_eq!(one(Lang::Rust, src, "f"), Some(3));
    }

    // ---- JavaScript / TypeScript: rust-code-analysis 0.0.25 --------------
    fn js(src: &str, name: &str) -> Option<u32> {
        one(Lang::JavaScript, src, name)
    }

    #[test]
    fn rca_js_structure() {
        let src =
            "function f() {\n  if (a) {\n    if (b) {}\n  } else if (c) {\n  } else {\n  }\n}\n";
        assert_eq!(js(src, "f"), Some(5));
        let src = "function f() {\n  switch (a) {\n    case 1:\n      return b ? 1 : 2;\n  }\n  try {} catch (e) {}\n  do {} while (a);\n}\n";
        assert_eq!(js(src, "f"), Some(5));
        assert_eq!(one(Lang::TypeScript, src, "f"), Some(5));
    }

    #[test]
    fn rca_js_boolean_sequence() {
        assert_eq!(js("function f() {\n  x = a && b || c;\n}\n", "f"), Some(2));
        assert_eq!(js("function f() {\n  return !a && b;\n}\n", "f"), Some(1));
        assert_eq!(
            js(
                "function f() {\n  if (a && b) {}\n  if (c && d) {}\n}\n",
                "f"
            ),
            Some(4)
        );
        // `??` is not a boolean operator here.
        assert_eq!(js("function f() {\n  return a ?? b;\n}\n", "f"), Some(0));
    }

    #[test]
    fn rca_js_function_nesting() {
        let src = "function f() {\n  if (a) {\n    x.map((y) => (y ? 1 : 2));\n  }\n}\n";
        assert_eq!(js(src, "f"), Some(4));
        assert_eq!(js(src, "<anonymous>"), Some(3));
        // A nested declaration resets nesting but adds function depth.
        let src =
            "function f() {\n  if (a) {\n    function g() {\n      if (b) {}\n    }\n  }\n}\n";
        assert_eq!(js(src, "g"), Some(2));
        assert_eq!(js(src, "f"), Some(3));
        // A function expression is transparent.
        let src =
            "function f() {\n  if (a) {\n    x(function () {\n      if (b) {}\n    });\n  }\n}\n";
        assert_eq!(js(src, "f"), Some(3));
        assert_eq!(js(src, "<anonymous>"), Some(2));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 10_000;
        // Python: 10,000 nested boolean operators alternating `and`/`or`
        // (tree-sitter-python's indentation scanner cannot nest blocks that deep).
        let mut expr = String::from("a");
        for i in 0..depth {
            let op = if i % 2 == 0 { "and" } else { "or" };
            expr = format!("({expr} {op} b)");
        }
        let src = format!("def f(a, b):\n    return {expr}\n");
        let file = parse(Lang::Python, src.into_bytes()).unwrap();
        let flat = codethread_lang::FlatTree::new(&file);
        let func = flat.root().named_child(0).unwrap();
        assert_eq!(crate::kinds::kind_of(func), "function_definition");
        let v = cognitive_with(
            &file,
            func,
            codethread_rules::paper::paper(Lang::Python)
                .tree()
                .unwrap()
                .cognitive,
        );
        assert_eq!(v, depth as u32);
        let mut src = String::from("function f(a) {\n");
        for _ in 0..depth {
            src.push_str("if (a) {\n");
        }
        for _ in 0..depth {
            src.push('}');
        }
        src.push_str("\n}\n");
        let file = parse(Lang::JavaScript, src.into_bytes()).unwrap();
        let flat = codethread_lang::FlatTree::new(&file);
        let func = flat.root().named_child(0).unwrap();
        let v = cognitive_with(
            &file,
            func,
            codethread_rules::paper::paper(Lang::JavaScript)
                .tree()
                .unwrap()
                .cognitive,
        );
        assert!(v > 0);
    }
}
