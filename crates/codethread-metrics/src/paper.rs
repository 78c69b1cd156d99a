//! The paper profile's tree backend: the functions a reference tool
//! reports, named and classified its way, with the per-metric walkers'
//! values (one [`TreeTables`] row per language).

use codethread_lang::{FlatNode as Node, FlatTree, Function, ParsedFile};
use codethread_rules::RecordKind;

use crate::context::FnCtx;
use crate::model::{assign_occurrences, totals, FileMetrics, FunctionMetrics, HalsteadValues};
use crate::profile::Profile;
use crate::targets::{match_target_positions, needs_reparse, reparsed_index, target_index};
use crate::tree::{count_errors, first_error};
use crate::unmeasured::constant_notes;
use codethread_rules::functions::{DeclaratorNaming, FunctionSet, GoNaming, Kinds, Naming};
use codethread_rules::paper::TreeTables;

/// The paper profile's records of `file` under its language's tree tables
/// `t` (`file` parsed with the grammar the tool reads it with). `ids` is
/// the file's target index ([`reparsed_index`]) when the caller built it
/// before parsing `file` (so that two trees are never held at once).
pub(crate) fn analyze_tree(
    path: &str,
    file: &ParsedFile,
    t: &'static TreeTables,
    ids: Option<Vec<Function>>,
) -> FileMetrics {
    let part = analyze_part(path, file, t, ids, &mut FileState::default());
    finish(path, file.lang, t, part)
}

/// What the records of one part of a file (a chunk, or the whole file)
/// share with the other parts: Go's anonymous-function counter, and
/// whether gocognit's top-level-name check waits for the file's end.
#[derive(Debug, Default)]
pub(crate) struct FileState {
    /// The next `anonymous__N`.
    pub anonymous: usize,
    /// A file measured in chunks: gocognit's method rule is settled in
    /// [`finish`], once every chunk's top-level names are known
    /// ([`crate::cognitive::Memo::deferring_top_names`]).
    pub defer_top_names: bool,
}

/// The records of one part of a file before the file-wide steps (target
/// ids, occurrences, totals): [`Part::absorb`] joins the parts, [`finish`]
/// ends the file.
pub(crate) struct Part {
    records: Vec<FunctionMetrics>,
    /// Each record's position in `id_names` (or why it has no target id).
    ids: Vec<Result<usize, &'static str>>,
    /// The qualnames of the part's join index, in file order.
    id_names: Vec<String>,
    parse_errors: usize,
    first_error: Option<(usize, usize)>,
    /// Records whose method recursion count is taken back if the file
    /// declares the name at top level (record, name, count).
    pending: Vec<(usize, Vec<u8>, u32)>,
    /// The part's top-level names (gocognit's method rule), when deferred.
    top_names: std::collections::HashSet<Vec<u8>>,
}

impl Part {
    /// Append `next`, the part that follows this one in the file (its
    /// parents and id positions shifted).
    pub(crate) fn absorb(&mut self, next: Part) {
        let (base, id_base) = (self.records.len(), self.id_names.len());
        self.records.extend(next.records.into_iter().map(|mut r| {
            r.parent = r.parent.map(|p| p + base);
            r
        }));
        self.ids
            .extend(next.ids.into_iter().map(|r| r.map(|i| i + id_base)));
        self.id_names.extend(next.id_names);
        self.parse_errors += next.parse_errors;
        self.first_error = self.first_error.or(next.first_error);
        self.pending.extend(
            next.pending
                .into_iter()
                .map(|(r, name, count)| (r + base, name, count)),
        );
        self.top_names.extend(next.top_names);
    }
}

/// The records of a whole file (one part, or the parts of its chunks
/// joined by [`Part::absorb`]): target ids and occurrences over the whole
/// file, then its totals.
pub(crate) fn finish(
    path: &str,
    lang: codethread_lang::Lang,
    t: &'static TreeTables,
    part: Part,
) -> FileMetrics {
    let profile = Profile::Paper;
    let Part {
        mut records,
        ids,
        id_names,
        parse_errors,
        first_error,
        pending,
        top_names,
    } = part;
    // gocognit's method rule, left to here in a chunked file: a method
    // named after a top-level declaration is not recursive.
    for (r, name, count) in pending {
        if top_names.contains(&name) {
            if let Some(c) = records.get_mut(r).and_then(|r| r.cognitive.as_mut()) {
                *c = c.saturating_sub(count);
            }
        }
    }
    let constant = constant_notes(profile, lang);
    for (r, id) in records
        .iter_mut()
        .zip(crate::targets::target_ids_of(path, &id_names, &ids))
    {
        match id {
            Ok(id) => r.target_id = Some(id),
            Err(note) => r.notes.push(note.to_string()),
        }
        r.notes.extend(constant.iter().cloned());
    }
    assign_occurrences(&mut records);
    let totals = totals(t.functions.nesting, true, &records);
    FileMetrics {
        path: path.to_string(),
        language: lang,
        profile,
        parse_errors,
        first_error,
        functions: records,
        totals,
    }
}

/// The records of `file` (a whole file, or one chunk of it with the whole
/// file's bytes) before [`finish`]; `state` carries what the parts share.
pub(crate) fn analyze_part(
    path: &str,
    file: &ParsedFile,
    t: &'static TreeTables,
    ids: Option<Vec<Function>>,
    state: &mut FileState,
) -> Part {
    let profile = Profile::Paper;
    let set = t.functions;
    // The other parse's index first: its tree is gone before this one's
    // flat copy is built.
    let reparse = needs_reparse(file.grammar, file.lang, file.parse_errors);
    let other = match ids {
        Some(ids) => Some(ids),
        None if reparse => Some(reparsed_index(file.lang, &file.source)),
        None => None,
    };
    let flat = FlatTree::new(file);
    let index = codethread_lang::index_flat_with(
        file,
        &flat,
        codethread_lang::IndexOptions::default().keep_bodiless(set.bodiless),
    );
    let mut records: Vec<FunctionMetrics> = Vec::new();
    // Position of each index entry among the records (None: not reported).
    let mut record_of: Vec<Option<usize>> = vec![None; index.len()];
    // rust-code-analysis LLOC is additive over nested functions: computed
    // for the whole file below, in one pass.
    let additive_lloc = crate::lloc::is_additive(&t.lloc);
    let mut nodes: Vec<Node<'_>> = Vec::new();
    // Index entry of each record.
    let mut funcs: Vec<usize> = Vec::new();
    for (i, func) in index.iter().enumerate() {
        if !set.node_kinds.contains(&func.node_kind) || (set.require_body && func.body.is_none()) {
            continue;
        }
        let Some(node) = flat.function_node(func) else {
            continue;
        };
        let parent_node = node.parent();
        let cand = Candidate {
            node,
            parent: parent_node,
            grandparent: parent_node.and_then(|p| p.parent()),
        };
        let cand = &cand;
        let node = cand.node;
        let ctx = FnCtx {
            file,
            func,
            node,
            index: &index,
            profile,
        };
        let parent = enclosing_record(&index, &record_of, func);
        let name = record_name(set, file, func, cand, &mut state.anonymous);
        let kind = record_kind(set, func, node, parent.is_some());
        let line = func.node.start_line;
        let end_line = func.node.end_line;
        record_of[i] = Some(records.len());
        nodes.push(node);
        funcs.push(i);
        records.push(FunctionMetrics {
            path: path.to_string(),
            language: file.lang,
            name,
            qualname: func.qualname.clone(),
            kind,
            line,
            end_line,
            // Filled in below, innermost functions first.
            cyclomatic: None,
            cognitive: None,
            halstead: None,
            lloc: if additive_lloc {
                None
            } else {
                Some(crate::lloc::lloc_with(&ctx, &t.lloc))
            },
            parse_errors: count_errors(node),
            parent,
            occurrence: 0,
            notes: Vec::new(),
            target_id: None,
            nested_in: None,
        });
    }
    // The join key: ids of the index `chain targets` builds (this one when
    // it is the same; Java lists bodiless declarations, C is read with the
    // C++ grammar here).
    let bodiless_index;
    let ids: &[Function] = match &other {
        Some(other) => other,
        // Java lists bodiless declarations: the targets' index of the same
        // tree leaves them out.
        None if set.bodiless => {
            bodiless_index = target_index(file, Some(&flat));
            &bodiless_index
        }
        None => &index,
    };
    let funcs_of: Vec<&Function> = funcs.iter().filter_map(|&i| index.get(i)).collect();
    let id_positions = match_target_positions(&funcs_of, ids);
    let id_names: Vec<String> = ids.iter().map(|f| f.qualname.clone()).collect();
    // Cyclomatic, cognitive and Halstead in reverse pre-order, so that a
    // function's walk can reuse the sums of the functions nested in it
    // (values unchanged; see `cyclomatic::Memo`).
    let mut cc_memo = crate::cyclomatic::Memo::default();
    let mut cog_memo = if state.defer_top_names {
        crate::cognitive::Memo::deferring_top_names()
    } else {
        crate::cognitive::Memo::default()
    };
    let mut pending: Vec<(usize, Vec<u8>, u32)> = Vec::new();
    let mut hal_memo = crate::halstead::Memo::default();
    for (k, ((r, &node), &i)) in records.iter_mut().zip(&nodes).zip(&funcs).enumerate().rev() {
        let Some(func) = index.get(i) else {
            continue;
        };
        let ctx = FnCtx {
            file,
            func,
            node,
            index: &index,
            profile,
        };
        r.cyclomatic = crate::cyclomatic::cyclomatic_memo_ctx(&ctx, t.cyclomatic, &mut cc_memo);
        r.cognitive = crate::cognitive::cognitive_memo_ctx(&ctx, t.cognitive, &mut cog_memo);
        if let Some((name, count)) = cog_memo.take_deferred(node.id()) {
            pending.push((k, name, count));
        }
        r.halstead = crate::halstead::halstead_memo_ctx(&ctx, t.halstead, &mut hal_memo)
            .map(HalsteadValues::from);
    }
    if additive_lloc {
        let parents: Vec<Option<usize>> = records.iter().map(|r| r.parent).collect();
        match crate::lloc::lloc_nested_sums(file.lang, &t.lloc, &nodes, &parents) {
            Some(values) => {
                for (r, v) in records.iter_mut().zip(values) {
                    r.lloc = Some(v);
                }
            }
            None => {
                for ((r, &node), &i) in records.iter_mut().zip(&nodes).zip(&funcs) {
                    let Some(func) = index.get(i) else {
                        continue;
                    };
                    let ctx = FnCtx {
                        file,
                        func,
                        node,
                        index: &index,
                        profile,
                    };
                    r.lloc = Some(crate::lloc::lloc_with(&ctx, &t.lloc));
                }
            }
        }
    }
    let top_names = match crate::cognitive::top_level_decls(t.cognitive) {
        Some(decls) if state.defer_top_names => {
            crate::cognitive::top_level_names(file, flat.root(), decls)
        }
        _ => std::collections::HashSet::new(),
    };
    Part {
        records,
        ids: id_positions,
        id_names,
        pending,
        top_names,
        parse_errors: file.parse_errors,
        first_error: if file.parse_errors > 0 {
            first_error(flat.root())
        } else {
            None
        },
    }
}

/// A tree node of a reported kind, with its parent and grandparent.
#[derive(Clone, Copy)]
struct Candidate<'t> {
    node: Node<'t>,
    parent: Option<Node<'t>>,
    grandparent: Option<Node<'t>>,
}

/// The nearest enclosing function that is itself reported.
fn enclosing_record(
    index: &[Function],
    record_of: &[Option<usize>],
    func: &Function,
) -> Option<usize> {
    let mut p = func.parent;
    while let Some(i) = p {
        if let Some(r) = record_of.get(i).copied().flatten() {
            return Some(r);
        }
        p = index.get(i).and_then(|f| f.parent);
    }
    None
}

fn record_name(
    set: &FunctionSet,
    file: &ParsedFile,
    func: &Function,
    cand: &Candidate<'_>,
    anon: &mut usize,
) -> String {
    let node = cand.node;
    match set.naming {
        Naming::Radon => {
            let own = node
                .child_by_field_name("name")
                .map(|n| file.text_lossy(n).into_owned())
                .unwrap_or_else(|| func.name.clone());
            match (&func.kind, &func.impl_type) {
                (codethread_lang::FunctionKind::Method, Some(class)) => format!("{class}.{own}"),
                _ => own,
            }
        }
        Naming::Rca { from_parent } => rca_name(file, cand, from_parent),
        Naming::RcaDeclarator(d) => declarator_name(file, node, d),
        Naming::GoTools(g) => go_name(file, cand, g, anon),
    }
}

fn rca_name(
    file: &ParsedFile,
    cand: &Candidate<'_>,
    from_parent: &[(&'static str, &'static str)],
) -> String {
    if let Some(n) = cand.node.child_by_field_name("name") {
        return file.text_lossy(n).into_owned();
    }
    if let Some(p) = cand.parent {
        let kind = crate::kinds::kind_of(p);
        let field = from_parent
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, f)| *f);
        if let Some(n) = field.and_then(|f| p.child_by_field_name(f)) {
            return file.text_lossy(n).into_owned();
        }
    }
    "<anonymous>".to_string()
}

fn declarator_name(file: &ParsedFile, node: Node<'_>, d: &DeclaratorNaming) -> String {
    let text = |n: Node<'_>| file.text_lossy(n).into_owned();
    if let Some(cast) = node
        .children()
        .find(|c| crate::kinds::kind_of(c) == d.operator_cast)
    {
        return text(cast);
    }
    let Some(declarator) = node.child_by_field_name(d.field) else {
        return String::new();
    };
    // The first function declarator in pre-order (the declarator itself
    // included); its subtree is a contiguous range of the flat tree.
    let found = declarator
        .descendants()
        .find(|n| d.function_declarators.contains(&crate::kinds::kind_of(n)));
    found
        .and_then(|f| f.children().next())
        .filter(|c| d.name_kinds.contains(&crate::kinds::kind_of(c)))
        .map(text)
        .unwrap_or_default()
}

fn go_name(file: &ParsedFile, cand: &Candidate<'_>, g: &GoNaming, anon: &mut usize) -> String {
    let node = cand.node;
    if crate::kinds::kind_of(node) == g.literal {
        // lizard names `var x [T] = func...` after the variable.
        let var = cand
            .parent
            .filter(|p| crate::kinds::kind_of(p) == g.var_parent)
            .and(cand.grandparent)
            .filter(|p| crate::kinds::kind_of(p) == g.var_spec)
            .and_then(|p| p.child_by_field_name("name"));
        return match var {
            Some(n) => file.text_lossy(n).into_owned(),
            None => {
                let name = format!("anonymous__{anon}");
                *anon += 1;
                name
            }
        };
    }
    let name = node
        .child_by_field_name("name")
        .map(|n| file.text_lossy(n).into_owned())
        .unwrap_or_default();
    let recv_type = node
        .child_by_field_name(g.receiver_field)
        .and_then(|r| {
            r.named_children()
                .find(|n| crate::kinds::kind_of(n) == g.receiver_param)
        })
        .and_then(|p| p.child_by_field_name(g.type_field));
    match recv_type {
        Some(t) => format!("({}).{name}", go_recv(file, t, g)),
        None => name,
    }
}

/// gocognit's receiver string: `*` for pointers, the bare type name (type
/// arguments dropped), `BADRECV` for anything else.
fn go_recv(file: &ParsedFile, t: Node<'_>, g: &GoNaming) -> String {
    let mut prefix = String::new();
    let mut t = t;
    loop {
        let kind = crate::kinds::kind_of(t);
        let next = if kind == g.pointer {
            prefix.push('*');
            t.named_children().next()
        } else if kind == g.generic {
            t.child_by_field_name(g.type_field)
        } else if kind == g.type_name {
            return format!("{prefix}{}", file.text_lossy(t));
        } else {
            None
        };
        match next {
            Some(i) => t = i,
            None => return format!("{prefix}BADRECV"),
        }
    }
}

fn record_kind(set: &FunctionSet, func: &Function, node: Node<'_>, nested: bool) -> RecordKind {
    match set.kinds {
        Kinds::ByNode(table) => {
            let kind = crate::kinds::kind_of(node);
            table
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or(RecordKind::Function, |(_, r)| *r)
        }
        Kinds::PythonAst => {
            if nested {
                RecordKind::Closure
            } else if func.kind == codethread_lang::FunctionKind::Method {
                RecordKind::Method
            } else {
                RecordKind::Function
            }
        }
    }
}
