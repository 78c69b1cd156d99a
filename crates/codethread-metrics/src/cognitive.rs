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

#[path = "rules/cognitive.rs"]
pub mod rules;

use std::collections::HashSet;

use codethread_lang::ParsedFile;
use tree_sitter::Node;

use crate::FnCtx;
use rules::{BoolMode, CogRules, FnNest, Inc, NodeRule, Recursion, Scan, Sel, When};

/// Cognitive complexity of one function under `ctx.profile`; `None` when the
/// profile's tool gives no value for this kind of function (complexipy for
/// nested defs, gocognit for Go function literals).
pub fn cognitive(ctx: &FnCtx<'_>) -> Option<u32> {
    let table = rules::rules(ctx.profile, ctx.file.lang);
    if table.null_kinds.contains(&ctx.node.kind()) {
        return None;
    }
    if has_ancestor(ctx.node, table.null_inside) {
        return None;
    }
    Some(cognitive_with(ctx.file, ctx.node, table))
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

struct Frame<'t> {
    node: Node<'t>,
    scan: Scan,
    nesting: Nesting,
    space: usize,
}

/// Cognitive complexity of the function at `func` under an explicit rule table
/// (no "no value" check).
pub fn cognitive_with(file: &ParsedFile, func: Node<'_>, table: &CogRules) -> u32 {
    let start = if table.context_nesting {
        context_nesting(func, table)
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
        scan: table.start,
        nesting: start,
        space: 0,
    }];
    let mut children: Vec<Frame<'_>> = Vec::new();
    while let Some(frame) = stack.pop() {
        let node = frame.node;
        if frame.scan == Scan::Skip {
            continue;
        }
        let mut space = frame.space;
        if node.id() != func.id() && table.spaces.contains(&node.kind()) {
            sequences.push(None);
            space = sequences.len() - 1;
        }
        let rule = find_rule(table, node, frame.scan);
        let mut nesting = frame.nesting;
        if let Some(r) = rule {
            if let Some(f) = r.fn_nest {
                apply_fn_nest(&mut nesting, f, node);
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
            file,
            node,
            frame.scan,
            table.booleans,
            &mut sequences,
            space,
            &mut chained,
        );
        total = total.saturating_add(boolean);

        route_children(node, rule, frame.scan, nesting, space, &mut children);
        stack.extend(children.drain(..).rev());
    }
    total.saturating_add(recursion(file, func, table.recursion))
}

fn find_rule<'r>(table: &'r CogRules, node: Node<'_>, scan: Scan) -> Option<&'r NodeRule> {
    let kind = node.kind();
    table.nodes.iter().find(|r| {
        r.kind == kind && (r.scans.is_empty() || r.scans.contains(&scan)) && holds(r.when, node)
    })
}

fn holds(when: When, node: Node<'_>) -> bool {
    match when {
        When::Always => true,
        When::ParentIn(kinds) => node.parent().is_some_and(|p| kinds.contains(&p.kind())),
        When::InField(field, parents) => in_field(node, field, parents),
        When::ChildAt(i, kind) => node.child(i).is_some_and(|c| c.kind() == kind),
        When::Shape {
            field,
            parents,
            first,
            second,
        } => {
            if !in_field(node, field, parents) {
                return false;
            }
            let mut cursor = node.walk();
            let named: Vec<Node<'_>> = node
                .named_children(&mut cursor)
                .filter(|c| !c.is_extra())
                .collect();
            named.len() == 2
                && first.contains(&named[0].kind())
                && second.contains(&named[1].kind())
        }
    }
}

fn in_field(node: Node<'_>, field: &str, parents: &[&str]) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    parents.contains(&parent.kind())
        && parent
            .child_by_field_name(field)
            .is_some_and(|c| c.id() == node.id())
}

fn has_ancestor(node: Node<'_>, kinds: &[&str]) -> bool {
    if kinds.is_empty() {
        return false;
    }
    let mut cur = node.parent();
    while let Some(p) = cur {
        if kinds.contains(&p.kind()) {
            return true;
        }
        cur = p.parent();
    }
    false
}

fn apply_fn_nest(nesting: &mut Nesting, f: FnNest, node: Node<'_>) {
    if f.reset_nesting {
        nesting.nest = 0;
    }
    if f.reset_lambda {
        nesting.lambda = 0;
    }
    if f.lambda {
        nesting.lambda = nesting.lambda.saturating_add(1);
    }
    if has_ancestor(node, f.depth_if_ancestor) {
        nesting.depth = nesting.depth.saturating_add(1);
    }
}

/// Scan mode and extra nesting of every child of `node`, in source order.
fn route_children<'t>(
    node: Node<'t>,
    rule: Option<&NodeRule>,
    scan: Scan,
    nesting: Nesting,
    space: usize,
    out: &mut Vec<Frame<'t>>,
) {
    let mut cursor = node.walk();
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
            Sel::Kind(k) => child.kind() == k,
            Sel::Nth(i) => nth == Some(i),
            Sel::AnyNamed => child.is_named() && !child.is_extra(),
        };
        if selected {
            return (r.scan, r.nest);
        }
    }
    (rule.rest.unwrap_or(scan), rule.rest_nest)
}

/// The nesting counters a function node inherits from its ancestors
/// (rust-code-analysis keeps one nesting map for the whole file).
fn context_nesting(func: Node<'_>, table: &CogRules) -> Nesting {
    let mut path = Vec::new();
    let mut cur = func.parent();
    while let Some(p) = cur {
        path.push(p);
        cur = p.parent();
    }
    path.reverse();
    path.push(func);
    let mut nesting = Nesting::default();
    let mut scan = table.start;
    let mut out = Vec::new();
    for pair in path.windows(2) {
        let (node, next) = (pair[0], pair[1]);
        let rule = find_rule(table, node, scan);
        if let Some(f) = rule.and_then(|r| r.fn_nest) {
            apply_fn_nest(&mut nesting, f, node);
        }
        out.clear();
        route_children(node, rule, scan, nesting, 0, &mut out);
        match out.iter().find(|f| f.node.id() == next.id()) {
            Some(f) => {
                nesting = f.nesting;
                scan = f.scan;
            }
            None => {
                scan = table.start;
            }
        }
    }
    nesting
}

#[allow(clippy::too_many_arguments)]
fn booleans(
    file: &ParsedFile,
    node: Node<'_>,
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
            let kind = node.kind();
            if reset_kinds.contains(&kind) {
                *seq = None;
                0
            } else if unary_kinds.contains(&kind) {
                *seq = Some(node.kind_id());
                0
            } else if binary_kinds.contains(&kind) {
                let mut added = 0;
                let mut cursor = node.walk();
                for child in node.children(&mut cursor) {
                    if operators.contains(&child.kind()) {
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
            if node.kind() != binary_kind || chained.contains(&node.id()) {
                return 0;
            }
            let Some(op) = node.child_by_field_name(operator_field) else {
                return 0;
            };
            if !operators.contains(&op.kind()) {
                return 0;
            }
            // In-order logical operators of the binary tree rooted here,
            // not crossing parentheses (or any other node kind).
            let mut ops: Vec<(usize, u16)> = Vec::new();
            let mut stack = vec![node];
            while let Some(n) = stack.pop() {
                chained.insert(n.id());
                if let Some(o) = n.child_by_field_name(operator_field) {
                    if operators.contains(&o.kind()) {
                        ops.push((o.start_byte(), o.kind_id()));
                    }
                }
                let mut cursor = n.walk();
                for c in n.named_children(&mut cursor) {
                    if c.kind() == binary_kind {
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
                file,
                bool_kind,
                operator_field,
                unary_kinds,
                operand_field,
                paren_kind,
            };
            if node.kind() == bool_kind {
                1u32.saturating_add(shape.different_children(node))
            } else if unary_kinds.contains(&node.kind()) {
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
    file: &'a ParsedFile,
    bool_kind: &'a str,
    operator_field: &'a str,
    unary_kinds: &'a [&'a str],
    operand_field: &'a str,
    paren_kind: &'a str,
}

impl PyBool<'_> {
    fn strip<'t>(&self, mut node: Node<'t>) -> Node<'t> {
        while node.kind() == self.paren_kind {
            let mut cursor = node.walk();
            let inner = node.named_children(&mut cursor).find(|c| !c.is_extra());
            match inner {
                Some(i) => node = i,
                None => break,
            }
        }
        node
    }

    fn op<'t>(&self, node: Node<'t>) -> &'t str {
        node.child_by_field_name(self.operator_field)
            .map(|o| o.kind())
            .unwrap_or("")
    }

    fn is_bool(&self, node: Node<'_>) -> bool {
        node.kind() == self.bool_kind
    }

    fn is_unary(&self, node: Node<'_>) -> bool {
        self.unary_kinds.contains(&node.kind())
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
        self.values(node).into_iter().map(|v| self.count(v, Some(op))).sum()
    }

    /// Boolean operators nested in `expr` (whose enclosing operator is
    /// `parent`): +1 for each `BoolOp` whose operator differs from its
    /// enclosing one; a unary operator in between counts as a different
    /// operator (`a or not (b or c)` adds 2). Iterative.
    fn count(&self, expr: Node<'_>, parent: Option<&str>) -> u32 {
        let _ = self.file;
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

fn recursion(file: &ParsedFile, func: Node<'_>, mode: Recursion) -> u32 {
    let Some(name) = func.child_by_field_name("name") else {
        return 0;
    };
    let name = file.text(name);
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
        } => {
            if method_kinds.contains(&func.kind())
                && declared_at_top(file, func, name, toplevel_decls)
            {
                return 0;
            }
            count_calls(
                file,
                func,
                name,
                call_kind,
                function_field,
                ident_kind,
                &[],
                false,
            )
        }
    }
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
    let mut count = 0u32;
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if n.id() != root.id() && skip.contains(&n.kind()) {
            continue;
        }
        if n.kind() == call_kind {
            if let Some(f) = n.child_by_field_name(function_field) {
                if f.kind() == ident_kind && file.text(f) == name {
                    count = count.saturating_add(1);
                    if first_only {
                        return count;
                    }
                }
            }
        }
        let mut cursor = n.walk();
        for c in n.named_children(&mut cursor) {
            stack.push(c);
        }
    }
    count
}

/// Whether the file declares `name` at top level (outside any function).
fn declared_at_top(file: &ParsedFile, func: Node<'_>, name: &[u8], decl_kinds: &[&str]) -> bool {
    let mut root = func;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut stack = vec![(root, 0usize)];
    while let Some((n, depth)) = stack.pop() {
        if decl_kinds.contains(&n.kind()) {
            let mut cursor = n.walk();
            if n.children_by_field_name("name", &mut cursor)
                .any(|c| file.text(c) == name)
            {
                return true;
            }
            continue;
        }
        if depth >= 3 {
            continue;
        }
        let mut cursor = n.walk();
        for c in n.named_children(&mut cursor) {
            if c.child_by_field_name("body").is_none() || c.kind().ends_with("_spec") {
                stack.push((c, depth + 1));
            } else if decl_kinds.contains(&c.kind()) {
                stack.push((c, depth + 1));
            }
        }
    }
    false
}
