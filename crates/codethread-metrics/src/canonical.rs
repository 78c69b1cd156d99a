//! The canonical profile ([`crate::Profile::Canonical`]): one generic,
//! iterative walker computing cyclomatic complexity, cognitive complexity,
//! Halstead counts and logical lines of one function in a single pass, from
//! the grammar's [`rules::CanonRules`] table. The rules are in
//! `docs/metrics.md` ("Canonical profile"); nothing here names a language.
//!
//! The function set is the one of `TARGET_RULES.md`: the named functions of
//! the codethread-lang index. A function's values cover its own node
//! (signature and body) and the anonymous functions inside it, not the named
//! functions nested in it (each is its own record).

#[path = "rules/canonical/mod.rs"]
pub mod rules;

use std::collections::HashSet;

use codethread_lang::{index_flat, FlatNode as Node, FlatTree, Function, ParsedFile};

use crate::engine::{FileMetrics, FileTotals, FunctionMetrics, HalsteadValues};
use crate::{Halstead, Profile};
use rules::{CanonRules, Cog, Nest, Rule, When};

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

/// Canonical values of the function at `node` named `name`; `nested` holds
/// the node ids of the file's reported functions (skipped when nested).
pub(crate) fn measure(
    file: &ParsedFile,
    node: Node<'_>,
    name: &[u8],
    nested: &HashSet<usize>,
) -> CanonValues {
    let t = rules::rules(file.lang);
    let receiver: Option<&[u8]> = t.receiver.and_then(|r| {
        let list = node.child_by_field_name(r.field)?;
        let param = list.named_children().find(|c| c.kind() == r.param_kind)?;
        Some(file.text(param.child_by_field_name(r.name_field)?))
    });
    let mut w = Walk {
        t,
        file,
        name,
        receiver,
        cc: 1,
        cog: 0,
        lloc: 0,
        ops: HashSet::new(),
        operands: HashSet::new(),
        big_n1: 0,
        big_n2: 0,
    };
    let mut stack: Vec<Frame<'_>> = vec![Frame {
        node,
        parent: None,
        field: None,
        nesting: 0,
        in_chain: false,
        root: true,
    }];
    let mut cursor = node.walk();
    let mut kids: Vec<Frame<'_>> = Vec::new();
    while let Some(f) = stack.pop() {
        let n = f.node;
        if n.is_extra() {
            continue;
        }
        if !f.root && nested.contains(&n.id()) {
            continue;
        }
        let kind = n.kind();
        // Halstead.
        if t.halstead.atomic_operands.contains(&kind) {
            w.operand(file.text(n));
            continue;
        }
        let rule = if f.root {
            None
        } else {
            find_rule(file, t, n, kind, f.parent, f.field)
        };
        if let Some(r) = rule {
            w.cc = w.cc.saturating_add(r.cc);
            w.lloc = w.lloc.saturating_add(r.lloc);
            match r.cog {
                Cog::None => {}
                Cog::Structural => w.cog = w.cog.saturating_add(1).saturating_add(f.nesting),
                Cog::Flat(k) => w.cog = w.cog.saturating_add(k),
            }
        }
        if n.child_count() == 0 {
            w.leaf(n, kind);
            continue;
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
                    && c.is_named()
                    && !c.is_extra()
                    && !t.clause_kinds.contains(&c.kind())
                    && find_rule(file, t, c, c.kind(), Some(n), field).is_none()
                {
                    w.lloc = w.lloc.saturating_add(1);
                }
                kids.push(Frame {
                    node: c,
                    parent: Some(n),
                    field,
                    nesting,
                    in_chain: chain_continues,
                    root: false,
                });
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        stack.extend(kids.drain(..).rev());
    }
    CanonValues {
        cyclomatic: w.cc,
        cognitive: w.cog,
        halstead: Halstead {
            n1: w.ops.len() as u64,
            n2: w.operands.len() as u64,
            big_n1: w.big_n1,
            big_n2: w.big_n2,
        },
        lloc: w.lloc,
    }
}

struct Frame<'t> {
    node: Node<'t>,
    parent: Option<Node<'t>>,
    field: Option<&'static str>,
    nesting: u32,
    /// The node continues a boolean sequence counted at its top.
    in_chain: bool,
    root: bool,
}

struct Walk<'a> {
    t: &'static CanonRules,
    file: &'a ParsedFile,
    name: &'a [u8],
    /// The method's receiver name (a self name), if the grammar names one.
    receiver: Option<&'a [u8]>,
    cc: u32,
    cog: u32,
    lloc: u32,
    ops: HashSet<&'a [u8]>,
    operands: HashSet<&'a [u8]>,
    big_n1: u64,
    big_n2: u64,
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

    /// +1 for a direct recursive call (cognitive).
    fn recursion(&mut self, n: Node<'_>, kind: &str) {
        let t = self.t;
        let Some(call) = t.calls.iter().find(|c| c.kind == kind) else {
            return;
        };
        let Some(callee) = n.child_by_field_name(call.callee_field) else {
            return;
        };
        let receiver_ok = match call.receiver_field.and_then(|f| n.child_by_field_name(f)) {
            None => true,
            Some(r) => self.is_self(self.file.text(r)),
        };
        let ckind = callee.kind();
        let direct =
            receiver_ok && t.name_kinds.contains(&ckind) && self.file.text(callee) == self.name;
        let member = t.members.iter().find(|m| m.kind == ckind).is_some_and(|m| {
            let obj = callee.child_by_field_name(m.object_field);
            let prop = callee.child_by_field_name(m.property_field);
            obj.is_some_and(|o| self.is_self(self.file.text(o)))
                && prop.is_some_and(|p| self.file.text(p) == self.name)
        });
        if direct || member {
            self.cog = self.cog.saturating_add(1);
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
        r.kind == kind && r.token != n.is_named() && holds(file, r.when, n, parent, field)
    })
}

fn holds(
    file: &ParsedFile,
    when: When,
    n: Node<'_>,
    parent: Option<Node<'_>>,
    field: Option<&str>,
) -> bool {
    let parent_kind = parent.map(|p| p.kind());
    match when {
        When::Always => true,
        When::ParentIn(kinds) => parent_kind.is_some_and(|k| kinds.contains(&k)),
        When::ParentNotIn(kinds) => !parent_kind.is_some_and(|k| kinds.contains(&k)),
        When::InField(f, parents) => {
            field == Some(f) && parent_kind.is_some_and(|k| parents.contains(&k))
        }
        When::HasChild(kinds) => n.children().any(|c| kinds.contains(&c.kind())),
        When::LacksChild(kinds) => !n.children().any(|c| kinds.contains(&c.kind())),
        When::HasField(f) => n.child_by_field_name(f).is_some(),
        When::ChildText(kind, text) => n
            .children()
            .any(|c| c.kind() == kind && file.text(c) == text.as_bytes()),
        When::Init(via, f, not_in) => {
            !parent_kind.is_some_and(|k| not_in.contains(&k))
                && (n.child_by_field_name(f).is_some()
                    || n.children()
                        .any(|c| via.contains(&c.kind()) && c.child_by_field_name(f).is_some()))
        }
    }
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

/// Canonical values of `ctx`'s function when its profile is
/// [`Profile::Canonical`] (the public per-metric walkers call this first).
pub(crate) fn values_ctx(ctx: &crate::FnCtx<'_>) -> Option<CanonValues> {
    if ctx.profile != Profile::Canonical {
        return None;
    }
    let tree = ctx.node.tree();
    let nested: HashSet<usize> = ctx
        .index
        .iter()
        .filter(|f| reported(f))
        .filter_map(|f| tree.function_node(f))
        .map(|n| n.id())
        .collect();
    Some(measure(
        ctx.file,
        ctx.node,
        bare_name(&ctx.func.name),
        &nested,
    ))
}

/// The canonical metrics of an already parsed file.
pub(crate) fn analyze(path: &str, file: &ParsedFile) -> FileMetrics {
    let flat = FlatTree::new(file);
    let index = index_flat(file, &flat);
    let mut nodes: Vec<(usize, Node<'_>)> = Vec::new();
    for (i, func) in index.iter().enumerate() {
        if !reported(func) {
            continue;
        }
        if let Some(node) = flat.function_node(func) {
            nodes.push((i, node));
        }
    }
    let nested: HashSet<usize> = nodes.iter().map(|(_, n)| n.id()).collect();
    let mut record_of: Vec<Option<usize>> = vec![None; index.len()];
    let mut records: Vec<FunctionMetrics> = Vec::with_capacity(nodes.len());
    for &(i, node) in &nodes {
        let Some(func) = index.get(i) else {
            continue;
        };
        let v = measure(file, node, bare_name(&func.name), &nested);
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
            kind: func.kind.as_str().to_string(),
            line: func.node.start_line,
            end_line: func.node.end_line,
            cyclomatic: Some(v.cyclomatic),
            cognitive: Some(v.cognitive),
            halstead: Some(HalsteadValues::from(v.halstead)),
            lloc: Some(v.lloc),
            parse_errors: crate::engine::count_errors(node),
            parent,
            occurrence: 0,
            notes: Vec::new(),
        });
    }
    crate::engine::assign_occurrences(&mut records);
    // Values exclude nested functions: every record adds to the totals.
    // Every canonical metric is defined for every record (no `None`).
    let mut totals = FileTotals {
        functions: records.len(),
        cyclomatic: 0,
        cognitive: Some(0),
        halstead_volume: Some(0.0),
        lloc: Some(0),
    };
    for r in &records {
        totals.cyclomatic += u64::from(r.cyclomatic.unwrap_or(0));
        totals.cognitive = totals
            .cognitive
            .map(|t| t + u64::from(r.cognitive.unwrap_or(0)));
        totals.halstead_volume = totals
            .halstead_volume
            .map(|t| t + r.halstead.map_or(0.0, |h| h.volume));
        totals.lloc = totals.lloc.map(|t| t + u64::from(r.lloc.unwrap_or(0)));
    }
    FileMetrics {
        path: path.to_string(),
        language: file.lang,
        profile: Profile::Canonical,
        parse_errors: file.parse_errors,
        first_error: if file.parse_errors > 0 {
            crate::engine::first_error(flat.root())
        } else {
            None
        },
        functions: records,
        totals,
    }
}
