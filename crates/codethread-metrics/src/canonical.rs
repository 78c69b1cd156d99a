//! The canonical profile ([`crate::Profile::Canonical`]): one generic,
//! iterative walker computing cyclomatic complexity, cognitive complexity,
//! Halstead counts and logical lines of one function in a single pass, from
//! the grammar's [`rules::CanonRules`] table. The rules are in
//! `docs/metrics.md` ("Canonical profile"); nothing here names a language.
//!
//! The function set is the one of `docs/target-rules.md`: the named functions of
//! the codethread-lang index. A function's values cover its own node
//! (signature and body) and the anonymous functions inside it, not the named
//! functions nested in it (each is its own record).

use std::collections::{HashMap, HashSet};

use codethread_lang::{index_flat, FlatNode as Node, FlatTree, Function, ParsedFile};

use crate::context::FnCtx;
use crate::halstead::Halstead;
use crate::model::{assign_occurrences, FileMetrics, FileTotals, FunctionMetrics, HalsteadValues};
use crate::profile::Profile;
use crate::targets::{match_target_positions, needs_reparse, reparsed_index};
use crate::tree::{count_errors, first_error};
use codethread_rules::canonical as rules;
use codethread_rules::when::Site;
use rules::{CanonRules, Cog, Nest, Rule};

/// The four canonical metrics of one function.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CanonValues {
    /// McCabe cyclomatic complexity (1 + decision points).
    pub cyclomatic: u32,
    /// Cognitive complexity (Campbell 2021).
    pub cognitive: u32,
    /// Halstead counts.
    pub halstead: Halstead,
    /// Logical lines (statements and control headers).
    pub lloc: u32,
}

/// Whether `func` is reported by the canonical profile: a named function of
/// the index (anonymous functions belong to their enclosing function).
pub(crate) fn reported(func: &Function) -> bool {
    !func.anonymous && !func.in_macro
}

/// One function's own walk: its values with the named functions nested in
/// it left out, plus what cognitive complexity needs to count those in
/// (the whitepaper's rules: see [`fold`]).
pub(crate) struct Own {
    /// The values of the function's own code (anonymous functions
    /// included, nested named functions excluded, no recursion increment).
    pub values: CanonValues,
    /// Nesting-dependent (structural) cognitive increments of the own code:
    /// counted one level deeper each, a function nested one level deeper
    /// adds this many more.
    pub structural: u32,
    /// The nested named functions met (their slot in the file's reported
    /// functions) and the nesting at the place they are defined.
    pub sites: Vec<(usize, u32)>,
    /// Calls that may be recursion: the callee's bare name and whether it
    /// is called through the current object (`self.f()`, `this.f()`,
    /// `$this->f()`, `Self::f()`, Go's receiver).
    pub calls: Vec<(Vec<u8>, bool)>,
}

/// The own walk of the function at `node` ([`Own`]); `nested` maps the node
/// ids of the file's reported functions to their slot (skipped when
/// nested: each is its own record).
pub(crate) fn measure(
    file: &ParsedFile,
    t: &'static CanonRules,
    node: Node<'_>,
    nested: &HashMap<usize, usize>,
) -> Own {
    let receiver: Option<&[u8]> = t.receiver.and_then(|r| {
        let list = node.child_by_field_name(r.field)?;
        let param = list.named_children().find(|c| c.kind() == r.param_kind)?;
        Some(file.text(param.child_by_field_name(r.name_field)?))
    });
    let mut w = Walk {
        t,
        file,
        receiver,
        cc: 1,
        cog: 0,
        lloc: 0,
        ops: HashSet::new(),
        operands: HashSet::new(),
        big_n1: 0,
        big_n2: 0,
        structural: 0,
        sites: Vec::new(),
        calls: Vec::new(),
    };
    let mut stack: Vec<Frame<'_>> = vec![Frame {
        node,
        nesting: 0,
        in_chain: false,
        root: true,
        quiet: false,
    }];
    let mut inside: Vec<Node<'_>> = Vec::new();
    let mut cursor = node.walk();
    let mut kids: Vec<Frame<'_>> = Vec::new();
    while let Some(f) = stack.pop() {
        let n = f.node;
        if n.is_extra() {
            continue;
        }
        if !f.root {
            if let Some(&slot) = nested.get(&n.id()) {
                w.sites.push((slot, f.nesting));
                continue;
            }
        }
        let kind = n.kind();
        // Halstead.
        if t.halstead.atomic_operands.contains(&kind) {
            if !f.quiet {
                w.operand(file.text(n));
            }
            // Its interpolations are code: walked quietly (decisions,
            // cognitive increments, nested functions and calls only).
            if !t.halstead.interpolations.is_empty() {
                inside.clear();
                inside.push(n);
                let first = stack.len();
                while let Some(x) = inside.pop() {
                    for c in x.named_children() {
                        if t.halstead.interpolations.contains(&c.kind()) {
                            stack.push(Frame {
                                node: c,
                                nesting: f.nesting,
                                in_chain: false,
                                root: false,
                                quiet: true,
                            });
                        } else {
                            inside.push(c);
                        }
                    }
                }
                // Walked in source order.
                stack[first..].reverse();
            }
            continue;
        }
        let rule = if f.root {
            None
        } else {
            // Not the root: the parent is the node the frame came from.
            find_rule(file, t, n, kind, n.parent(), n.field_name())
        };
        if let Some(r) = rule {
            w.cc = w.cc.saturating_add(r.cc);
            if !f.quiet {
                w.lloc = w.lloc.saturating_add(r.lloc);
            }
            match r.cog {
                Cog::None => {}
                Cog::Structural => {
                    w.cog = w.cog.saturating_add(1).saturating_add(f.nesting);
                    w.structural = w.structural.saturating_add(1);
                }
                Cog::Flat(k) => w.cog = w.cog.saturating_add(k),
            }
        }
        if n.first_child().is_none() {
            if !f.quiet {
                w.leaf(n, kind);
            }
            continue;
        }
        // An expression-bodied function has the logical lines of the
        // equivalent `return` statement.
        if let Some(e) = t.expression_bodies.iter().find(|e| e.kind == kind) {
            if let Some(body) = n.child_by_field_name(e.body_field) {
                let bkind = body.kind();
                if !e.block_kinds.contains(&bkind)
                    && find_rule(file, t, body, bkind, Some(n), Some(e.body_field))
                        .is_none_or(|r| r.lloc == 0)
                    && !(f.quiet || f.root && e.skip_root)
                {
                    w.lloc = w.lloc.saturating_add(1);
                }
            }
        }
        let logical = is_logical(t, file, n, kind);
        if logical && !f.in_chain {
            w.cog = w.cog.saturating_add(sequences(t, file, n));
        }
        w.recursion(n, kind);
        let list = t.statement_lists.contains(&kind);
        // A child continues the sequence when this node is a logical binary
        // or a parenthesis inside one.
        let chain_continues = logical || (f.in_chain && t.booleans.paren_kinds.contains(&kind));
        // Children, in source order.
        kids.clear();
        cursor.reset(n);
        if cursor.goto_first_child() {
            loop {
                let c = cursor.node();
                let field = cursor.field_name();
                let mut nesting = f.nesting;
                if let Some(r) = rule {
                    let deeper = match r.nest {
                        Nest::None => false,
                        Nest::All => true,
                        Nest::Fields(fs) => field.is_some_and(|x| fs.contains(&x)),
                        Nest::AllBut(fs) => !field.is_some_and(|x| fs.contains(&x)),
                    };
                    if deeper {
                        nesting = nesting.saturating_add(1);
                    }
                    if let Some(e) = r.else_branch {
                        if field == Some(e.field) && !e.unless.contains(&c.kind()) {
                            w.cog = w.cog.saturating_add(1);
                            nesting = f.nesting.saturating_add(1);
                        }
                    }
                }
                if list
                    && !f.quiet
                    && c.is_named()
                    && !c.is_extra()
                    && !t.clause_kinds.contains(&c.kind())
                    && find_rule(file, t, c, c.kind(), Some(n), field).is_none()
                {
                    w.lloc = w.lloc.saturating_add(1);
                }
                kids.push(Frame {
                    node: c,
                    nesting,
                    in_chain: chain_continues,
                    root: false,
                    quiet: f.quiet,
                });
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        stack.extend(kids.drain(..).rev());
    }
    Own {
        values: CanonValues {
            cyclomatic: w.cc,
            cognitive: w.cog,
            halstead: Halstead {
                n1: w.ops.len() as u64,
                n2: w.operands.len() as u64,
                big_n1: w.big_n1,
                big_n2: w.big_n2,
            },
            lloc: w.lloc,
        },
        structural: w.structural,
        sites: w.sites,
        calls: w.calls,
    }
}

/// A node waiting to be walked (one per pending sibling: kept small, a
/// left-deep expression leaves two per level on the stack); its parent and
/// field come from the flat tree.
struct Frame<'t> {
    node: Node<'t>,
    nesting: u32,
    /// The node continues a boolean sequence counted at its top.
    in_chain: bool,
    root: bool,
    /// Inside an interpolation of an atomic operand: counts decisions,
    /// cognitive increments, nested functions and calls, not Halstead or
    /// LLOC.
    quiet: bool,
}

struct Walk<'a> {
    t: &'static CanonRules,
    file: &'a ParsedFile,
    /// The method's receiver name (a self name), if the grammar names one.
    receiver: Option<&'a [u8]>,
    cc: u32,
    cog: u32,
    lloc: u32,
    ops: HashSet<&'a [u8]>,
    operands: HashSet<&'a [u8]>,
    big_n1: u64,
    big_n2: u64,
    structural: u32,
    sites: Vec<(usize, u32)>,
    calls: Vec<(Vec<u8>, bool)>,
}

impl<'a> Walk<'a> {
    fn operand(&mut self, text: &'a [u8]) {
        self.operands.insert(text);
        self.big_n2 += 1;
    }

    fn operator(&mut self, text: &'a [u8]) {
        self.ops.insert(text);
        self.big_n1 += 1;
    }

    fn leaf(&mut self, n: Node<'_>, kind: &'static str) {
        let text: &'a [u8] = self.file.text(n);
        if text.is_empty() {
            // MISSING tokens and zero-width nodes.
            return;
        }
        if n.is_named() {
            if self.t.halstead.leaf_operators.contains(&kind) {
                self.operator(text);
            } else {
                self.operand(text);
            }
        } else if !self.t.halstead.ignored.contains(&kind) {
            self.operator(text);
        }
    }

    /// Whether `text` names the current object.
    fn is_self(&self, text: &[u8]) -> bool {
        self.receiver == Some(text) || self.t.self_names.iter().any(|s| s.as_bytes() == text)
    }

    /// Records a call that may be recursive: a bare name, or a member of
    /// the current object (cognitive recursion is settled per file).
    fn recursion(&mut self, n: Node<'_>, kind: &str) {
        let t = self.t;
        let Some(call) = t.calls.iter().find(|c| c.kind == kind) else {
            return;
        };
        let Some(callee) = n.child_by_field_name(call.callee_field) else {
            return;
        };
        let receiver = match call.receiver_field.and_then(|f| n.child_by_field_name(f)) {
            None => Some(false),
            Some(r) if self.is_self(self.file.text(r)) => Some(true),
            Some(_) => None,
        };
        let ckind = callee.kind();
        if let Some(via_self) = receiver {
            if t.name_kinds.contains(&ckind) {
                self.calls.push((self.file.text(callee).to_vec(), via_self));
                return;
            }
        }
        if let Some(m) = t.members.iter().find(|m| m.kind == ckind) {
            let obj = callee.child_by_field_name(m.object_field);
            let prop = callee.child_by_field_name(m.property_field);
            if let (Some(o), Some(p)) = (obj, prop) {
                if self.is_self(self.file.text(o)) {
                    self.calls.push((self.file.text(p).to_vec(), true));
                }
            }
        }
    }
}

/// Whether `n` is a binary node with a logical operator of the table.
fn is_logical(t: &CanonRules, file: &ParsedFile, n: Node<'_>, kind: &str) -> bool {
    if !t.booleans.binary_kinds.contains(&kind) {
        return false;
    }
    n.child_by_field_name(t.booleans.operator_field)
        .is_some_and(|op| {
            t.booleans
                .operators
                .iter()
                .any(|o| o.as_bytes() == file.text(op))
        })
}

/// The number of sequences of like logical operators in the maximal chain
/// topped by `top` (in-order through logical binaries and parentheses).
fn sequences(t: &CanonRules, file: &ParsedFile, top: Node<'_>) -> u32 {
    let mut count = 0u32;
    let mut last: Option<&[u8]> = None;
    // Operators in source order (explicit stack: left, operator, right).
    let mut ops: Vec<&[u8]> = Vec::new();
    let mut st: Vec<(Node<'_>, bool)> = vec![(top, false)];
    while let Some((n, emit)) = st.pop() {
        if emit {
            ops.push(file.text(n));
            continue;
        }
        let kind = n.kind();
        if t.booleans.paren_kinds.contains(&kind) {
            let mut inner = n.named_children().filter(|c| !c.is_extra());
            if let (Some(only), None) = (inner.next(), inner.next()) {
                st.push((only, false));
            }
            continue;
        }
        if !is_logical(t, file, n, kind) {
            continue;
        }
        let Some(op) = n.child_by_field_name(t.booleans.operator_field) else {
            continue;
        };
        if let Some(r) = n.child_by_field_name(t.booleans.operand_fields.1) {
            st.push((r, false));
        }
        st.push((op, true));
        if let Some(l) = n.child_by_field_name(t.booleans.operand_fields.0) {
            st.push((l, false));
        }
    }
    for op in ops {
        if last != Some(op) {
            count = count.saturating_add(1);
            last = Some(op);
        }
    }
    count
}

fn find_rule(
    file: &ParsedFile,
    t: &'static CanonRules,
    n: Node<'_>,
    kind: &str,
    parent: Option<Node<'_>>,
    field: Option<&str>,
) -> Option<&'static Rule> {
    t.rules.iter().find(|r| {
        r.kind == kind
            && r.token != n.is_named()
            && r.when.holds(&Site {
                file,
                node: n,
                parent,
                field,
                inside: None,
            })
    })
}

/// Canonical values of `ctx`'s function. Cognitive complexity needs the
/// file (recursion cycles, nested functions), so the whole file is
/// measured; [`own_values`] is enough for the other three metrics.
pub(crate) fn values_ctx(ctx: &FnCtx<'_>, t: &'static CanonRules) -> CanonValues {
    let tree = ctx.node.tree();
    let all = measure_all(ctx.file, t, tree, ctx.index);
    let own = ctx.node.id();
    if let Some(m) = all.iter().find(|m| m.node.id() == own) {
        return m.values;
    }
    // Not a reported function (an anonymous one): its own walk.
    measure(ctx.file, t, ctx.node, &HashMap::new()).values
}

/// Canonical values of `ctx`'s function from its own walk only: exact for
/// cyclomatic complexity, Halstead and LLOC (which leave the named
/// functions nested in it out), not for cognitive complexity (which
/// [`values_ctx`] folds over the file).
pub(crate) fn own_values(ctx: &FnCtx<'_>, t: &'static CanonRules) -> CanonValues {
    let tree = ctx.node.tree();
    let own = ctx.node.id();
    let mut nested: HashMap<usize, usize> = HashMap::new();
    let mut is_reported = false;
    for (k, node) in ctx
        .index
        .iter()
        .filter(|f| reported(f))
        .filter_map(|f| tree.function_node(f))
        .enumerate()
    {
        is_reported |= node.id() == own;
        nested.insert(node.id(), k);
    }
    if !is_reported {
        // An anonymous function: walked whole, as `values_ctx` does.
        nested.clear();
    }
    measure(ctx.file, t, ctx.node, &nested).values
}

/// One reported function with its final canonical values.
pub(crate) struct Measured<'t> {
    /// Its node.
    pub node: Node<'t>,
    /// Values: cognitive complexity includes the nested named functions and
    /// the recursion increment.
    pub values: CanonValues,
}

/// Whether the function at `node` is declarative ([`rules::Declarative`]):
/// its nested functions are not one nesting level deeper.
fn declarative(file: &ParsedFile, t: &'static CanonRules, node: Node<'_>) -> bool {
    let Some(d) = t.declarative else {
        return false;
    };
    let Some(body) = node.child_by_field_name(d.body_field) else {
        return false;
    };
    let mut functions = 0u32;
    for c in body.named_children() {
        if c.is_extra() {
            continue;
        }
        let kind = c.kind();
        if d.functions.contains(&kind) || binds_function(&d, c, kind) {
            functions = functions.saturating_add(1);
            continue;
        }
        if let Some((stmt, lit)) = d.docstring {
            if kind == stmt
                && c.named_child_count() == 1
                && c.named_child(0).is_some_and(|x| x.kind() == lit)
            {
                continue;
            }
        }
        let ok = match d.others {
            Some(kinds) => kinds.contains(&kind),
            None => {
                find_rule(file, t, c, kind, Some(body), None).is_none_or(|r| r.cog == Cog::None)
            }
        };
        if !ok {
            return false;
        }
    }
    functions >= 1 && functions <= d.max_functions
}

/// Whether the statement `c` binds a function to a name
/// ([`rules::Declarative::bindings`]).
fn binds_function(d: &rules::Declarative, c: Node<'_>, kind: &str) -> bool {
    d.bindings.iter().any(|b| {
        b.statement == kind
            && c.named_children().any(|x| {
                x.kind() == b.binder
                    && x.child_by_field_name(b.value_field)
                        .is_some_and(|v| b.values.contains(&v.kind()))
            })
    })
}

/// The reported functions of `index` with their nodes (index position,
/// node), and each one's own measures ([`measure`]), in index order.
fn own_measures<'t>(
    file: &ParsedFile,
    t: &'static CanonRules,
    flat: &'t FlatTree,
    index: &[Function],
) -> (Vec<(usize, Node<'t>)>, Vec<Own>) {
    let mut slots: Vec<(usize, Node<'t>)> = Vec::new();
    for (i, func) in index.iter().enumerate() {
        if !reported(func) {
            continue;
        }
        if let Some(node) = flat.function_node(func) {
            slots.push((i, node));
        }
    }
    let nested: HashMap<usize, usize> = slots
        .iter()
        .enumerate()
        .map(|(k, (_, n))| (n.id(), k))
        .collect();
    let owns: Vec<Own> = slots
        .iter()
        .map(|&(_, node)| measure(file, t, node, &nested))
        .collect();
    (slots, owns)
}

/// The canonical values of every reported function of `file`, in index
/// order. Cognitive complexity, as the whitepaper counts it:
/// - a named function nested in another (directly, or through a class
///   defined in it) counts in the enclosing function one nesting level
///   deeper than where it is defined, except in a declarative enclosing
///   function ([`rules::Declarative`], the whitepaper's Appendix A), where
///   it adds no level; the nested function keeps its own record, measured
///   from nesting 0, marked `nested_in`;
/// - +1 for each method in a recursion cycle, direct or indirect, among the
///   functions of the file (calls resolved by bare name: see
///   [`recursive_slots`]), once however many calls close the cycle.
pub(crate) fn measure_all<'t>(
    file: &ParsedFile,
    t: &'static CanonRules,
    flat: &'t FlatTree,
    index: &[Function],
) -> Vec<Measured<'t>> {
    let (slots, owns) = own_measures(file, t, flat, index);
    let names: Vec<(&str, &str)> = slots
        .iter()
        .map(|&(i, _)| (index[i].qualname.as_str(), index[i].name.as_str()))
        .collect();
    let recursive = recursive_slots(&names, &owns);
    let shifts: Vec<u32> = slots
        .iter()
        .map(|&(_, node)| u32::from(!declarative(file, t, node)))
        .collect();
    let (total, _) = fold_nested(&owns, &recursive, &shifts);
    slots
        .iter()
        .zip(owns)
        .enumerate()
        .map(|(k, (&(_, node), own))| Measured {
            node,
            values: CanonValues {
                cognitive: total[k],
                ..own.values
            },
        })
        .collect()
}

/// Bottom-up over the slots (a nested function comes after its enclosing
/// one in pre-order): each slot's total cognitive value (its own, +1 in a
/// recursion cycle, and each nested function's total plus its structural
/// count times the nesting at its site, shifted by one unless the enclosing
/// function is declarative: `shifts`, 1 where absent), and the slot each
/// nested function folds into.
fn fold_nested(owns: &[Own], recursive: &[bool], shifts: &[u32]) -> (Vec<u32>, Vec<Option<usize>>) {
    let n = owns.len();
    let mut total = vec![0u32; n];
    let mut structural = vec![0u32; n];
    let mut nested_in: Vec<Option<usize>> = vec![None; n];
    for k in (0..n).rev() {
        let own = &owns[k];
        let mut cog = own.values.cognitive;
        let mut st = own.structural;
        if recursive.get(k).copied().unwrap_or(false) {
            cog = cog.saturating_add(1);
        }
        let shift = shifts.get(k).copied().unwrap_or(1);
        for &(child, site) in &own.sites {
            let base = site.saturating_add(shift);
            cog = cog
                .saturating_add(total[child])
                .saturating_add(base.saturating_mul(structural[child]));
            st = st.saturating_add(structural[child]);
            nested_in[child] = Some(k);
        }
        total[k] = cog;
        structural[k] = st;
    }
    (total, nested_in)
}

/// Which reported functions are in a recursion cycle within the file. A
/// call's bare name `f` may name: through the current object, the
/// functions `f` of the caller's own scope (its qualname without the last
/// part); as a bare name, those, the file's top-level functions `f` and the
/// caller's own nested functions `f`. A function is in a cycle when a chain
/// of such calls leads back to it (strongly connected components of the
/// graph of functions and (scope, name) groups; linear in calls +
/// functions, iterative).
fn recursive_slots(names: &[(&str, &str)], owns: &[Own]) -> Vec<bool> {
    let n = names.len();
    // The scope part of a qualname: a slice of it (no copy per function).
    fn scope_of(q: &str) -> &str {
        let q = q.split('(').next().unwrap_or(q);
        q.rfind(['.', ':'])
            .map_or("", |i| q[..i].trim_end_matches(':'))
    }
    // Groups (scope, bare name) -> node number n + g.
    let mut groups: HashMap<(&str, &[u8]), usize> = HashMap::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (k, &(qualname, name)) in names.iter().enumerate() {
        let key = (scope_of(qualname), bare_name(name));
        let g = *groups.entry(key).or_insert_with(|| {
            members.push(Vec::new());
            members.len() - 1
        });
        members[g].push(k);
    }
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, own) in owns.iter().enumerate() {
        let qualname = names.get(k).map_or("", |p| p.0);
        let scope = scope_of(qualname);
        let mut out: Vec<usize> = Vec::new();
        for (name, via_self) in &own.calls {
            let mut look = |s: &str| {
                if let Some(&g) = groups.get(&(s, name.as_slice())) {
                    out.push(n + g);
                }
            };
            look(scope);
            if !via_self {
                if !scope.is_empty() {
                    look("");
                }
                look(qualname);
            }
        }
        out.sort_unstable();
        out.dedup();
        edges[k] = out;
    }
    drop(groups);
    // The group nodes' edges are their members (moved, not copied).
    edges.extend(members);
    let comp = tarjan(&edges);
    drop(edges);
    // Component numbers are below the node count.
    let mut size = vec![0usize; comp.len()];
    for &c in &comp {
        if let Some(s) = size.get_mut(c) {
            *s += 1;
        }
    }
    (0..n)
        .map(|k| size.get(comp[k]).copied().unwrap_or(0) > 1)
        .collect()
}

/// Strongly connected components (iterative Tarjan): the component number
/// of each node.
fn tarjan(edges: &[Vec<usize>]) -> Vec<usize> {
    let n = edges.len();
    let unset = usize::MAX;
    let mut idx = vec![unset; n];
    let mut low = vec![0usize; n];
    let mut on = vec![false; n];
    let mut comp = vec![unset; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut next = 0usize;
    let mut ncomp = 0usize;
    for root in 0..n {
        if idx[root] != unset {
            continue;
        }
        // (node, next edge position)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        idx[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on[root] = true;
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if let Some(&w) = edges[v].get(*e) {
                *e += 1;
                if idx[w] == unset {
                    idx[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(idx[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(p, _)) = work.last() {
                low[p] = low[p].min(low[v]);
            }
            if low[v] == idx[v] {
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp[w] = ncomp;
                    if w == v {
                        break;
                    }
                }
                ncomp += 1;
            }
        }
    }
    comp
}

/// The name a recursive call uses: the index name up to a parameter list,
/// after the last `.` or `::`, without pointer stars and spaces (the C index
/// names a function by its declarator text, `f(int a)`, `*g(void)`).
fn bare_name(name: &str) -> &[u8] {
    let head = name.split('(').next().unwrap_or(name);
    let tail = head.rsplit(['.', ':']).next().unwrap_or(head);
    tail.trim_matches(|c: char| c == '*' || c == '&' || c.is_whitespace())
        .as_bytes()
}

/// The canonical records of `file` under its grammar's table `t`.
pub(crate) fn analyze(path: &str, file: &ParsedFile, t: &'static CanonRules) -> FileMetrics {
    let part = analyze_part(path, file, t, None);
    finish(path, file.lang, part)
}

/// One part of a file (a chunk, or the whole file) measured, before the
/// file-wide steps ([`finish`]: recursion cycles, the nesting fold, target
/// ids, occurrences, totals).
pub(crate) struct Part {
    /// Per record: the own walk; `sites` are record positions in the part.
    owns: Vec<Own>,
    /// Per record: whether nested functions count one level deeper (1) or
    /// not (0, a declarative function).
    shifts: Vec<u32>,
    /// The records, `cognitive` and `nested_in` still unset, `parent`
    /// within the part.
    records: Vec<FunctionMetrics>,
    /// Each record's position in `id_names` (or why it has no target id).
    ids: Vec<Result<usize, &'static str>>,
    /// The qualnames of the part's join index, in file order.
    id_names: Vec<String>,
    parse_errors: usize,
    first_error: Option<(usize, usize)>,
}

/// The records of `file` (a whole file, or one chunk of it with the whole
/// file's bytes) before [`finish`]. `ids` is the part's join index when
/// the caller built it (a chunk: its own parse with the fallback grammars).
pub(crate) fn analyze_part(
    path: &str,
    file: &ParsedFile,
    t: &'static CanonRules,
    ids: Option<Vec<Function>>,
) -> Part {
    let _ = path;
    // The join key: this file's index is the one `chain targets` builds
    // unless the file needs another grammar (a JavaScript file with parse
    // errors); that parse comes first, so its tree is gone before this
    // one's flat copy is built.
    let other = match ids {
        Some(ids) => Some(ids),
        None => needs_reparse(file.grammar, file.lang, file.parse_errors)
            .then(|| reparsed_index(file.lang, &file.source)),
    };
    let flat = FlatTree::new(file);
    let index = index_flat(file, &flat);
    let (slots, owns) = own_measures(file, t, &flat, &index);
    let shifts: Vec<u32> = slots
        .iter()
        .map(|&(_, node)| u32::from(!declarative(file, t, node)))
        .collect();
    let ids: &[Function] = other.as_deref().unwrap_or(&index);
    let funcs: Vec<&Function> = slots.iter().filter_map(|&(i, _)| index.get(i)).collect();
    let id_positions = match_target_positions(&funcs, ids);
    let id_names: Vec<String> = ids.iter().map(|f| f.qualname.clone()).collect();
    let mut record_of: Vec<Option<usize>> = vec![None; index.len()];
    let mut records: Vec<FunctionMetrics> = Vec::with_capacity(slots.len());
    for (&(i, node), own) in slots.iter().zip(&owns) {
        let Some(func) = index.get(i) else {
            continue;
        };
        let v = own.values;
        let mut parent = None;
        let mut p = func.parent;
        while let Some(j) = p {
            if let Some(r) = record_of.get(j).copied().flatten() {
                parent = Some(r);
                break;
            }
            p = index.get(j).and_then(|f| f.parent);
        }
        record_of[i] = Some(records.len());
        records.push(FunctionMetrics {
            path: path.to_string(),
            language: file.lang,
            name: func.name.clone(),
            qualname: func.qualname.clone(),
            target_id: None,
            nested_in: None,
            kind: func.kind.into(),
            line: func.node.start_line,
            end_line: func.node.end_line,
            cyclomatic: Some(v.cyclomatic),
            cognitive: None,
            halstead: Some(HalsteadValues::from(v.halstead)),
            lloc: Some(v.lloc),
            parse_errors: count_errors(node),
            parent,
            occurrence: 0,
            notes: Vec::new(),
        });
    }
    Part {
        owns,
        shifts,
        records,
        ids: id_positions,
        id_names,
        parse_errors: file.parse_errors,
        first_error: if file.parse_errors > 0 {
            first_error(flat.root())
        } else {
            None
        },
    }
}

impl Part {
    /// Append `next`, the part that follows this one in the file (its
    /// parents, nested-function sites and id positions shifted).
    pub(crate) fn absorb(&mut self, next: Part) {
        let (base, id_base) = (self.records.len(), self.id_names.len());
        self.owns.extend(next.owns.into_iter().map(|mut o| {
            for site in &mut o.sites {
                site.0 += base;
            }
            o
        }));
        self.shifts.extend(next.shifts);
        self.records.extend(next.records.into_iter().map(|mut r| {
            r.parent = r.parent.map(|p| p + base);
            r
        }));
        self.ids
            .extend(next.ids.into_iter().map(|r| r.map(|i| i + id_base)));
        self.id_names.extend(next.id_names);
        self.parse_errors += next.parse_errors;
        self.first_error = self.first_error.or(next.first_error);
    }
}

/// The records of a whole file (one part, or the parts of its chunks
/// joined by [`Part::absorb`]): recursion cycles over the whole file, the
/// nesting fold, target ids, occurrences and totals.
pub(crate) fn finish(path: &str, lang: codethread_lang::Lang, part: Part) -> FileMetrics {
    let Part {
        owns,
        shifts,
        mut records,
        ids,
        id_names,
        parse_errors,
        first_error: first,
    } = part;
    let names: Vec<(&str, &str)> = records
        .iter()
        .map(|r| (r.qualname.as_str(), r.name.as_str()))
        .collect();
    let recursive = recursive_slots(&names, &owns);
    drop(names);
    let (total, nested_in) = fold_nested(&owns, &recursive, &shifts);
    for ((r, id), cog) in records
        .iter_mut()
        .zip(crate::targets::target_ids_of(path, &id_names, &ids))
        .zip(&total)
    {
        r.cognitive = Some(*cog);
        match id {
            Ok(id) => r.target_id = Some(id),
            Err(note) => r.notes.push(note.to_string()),
        }
    }
    // Slots and records are in the same order.
    for (k, outer) in nested_in.iter().enumerate() {
        if let Some(outer) = *outer {
            let key = records.get(outer).map(|r| {
                r.target_id
                    .clone()
                    .unwrap_or_else(|| format!("{path}::{}", r.qualname))
            });
            if let Some(r) = records.get_mut(k) {
                r.nested_in = key;
            }
        }
    }
    assign_occurrences(&mut records);
    // Cyclomatic, Halstead and LLOC exclude nested functions: every record
    // adds to their totals. Cognitive includes them: only the records not
    // `nested_in` another add to its total. Every canonical metric is
    // defined for every record (no `None`).
    let mut totals = FileTotals {
        functions: records.len(),
        cyclomatic: 0,
        cognitive: Some(0),
        halstead_volume: Some(0.0),
        lloc: Some(0),
    };
    for r in &records {
        totals.cyclomatic += u64::from(r.cyclomatic.unwrap_or(0));
        if r.nested_in.is_none() {
            totals.cognitive = totals
                .cognitive
                .map(|t| t + u64::from(r.cognitive.unwrap_or(0)));
        }
        totals.halstead_volume = totals
            .halstead_volume
            .map(|t| t + r.halstead.map_or(0.0, |h| h.volume));
        totals.lloc = totals.lloc.map(|t| t + u64::from(r.lloc.unwrap_or(0)));
    }
    FileMetrics {
        path: path.to_string(),
        language: lang,
        profile: Profile::Canonical,
        parse_errors,
        first_error: first,
        functions: records,
        totals,
    }
}
