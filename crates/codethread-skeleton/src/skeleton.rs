//! Skeletonizing one parsed file; applying and undoing edits.

use codethread_lang::tree_sitter::Node;
use codethread_lang::{
    index_flat, parse, parse_lang, FlatTree, Function, Lang, LangParseOptions, ParsedFile,
};

use crate::plan::{plan, rules, PlanError, PlanInput, Planned, UnitCache};
use crate::select::{is_overload_stub, Selector};
use crate::SkeletonError;

use crate::model::{Edit, Options, ParseErrorPolicy, SkipReason, Skipped, Warning};

/// The result of [`skeletonize`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skeleton {
    /// The language the file was parsed as.
    pub lang: Lang,
    /// The skeleton text.
    pub text: Vec<u8>,
    /// The edits, sorted and non-overlapping, in the original's coordinates.
    pub edits: Vec<Edit>,
    /// Selected functions left unchanged, with the reason.
    pub skipped: Vec<Skipped>,
    /// Name and span selectors that selected no function (displayed).
    pub unmatched: Vec<String>,
    /// ERROR/MISSING nodes of the original.
    pub parse_errors: usize,
}

impl Skeleton {
    /// True when nothing was replaced.
    pub fn is_unchanged(&self) -> bool {
        self.edits.is_empty()
    }
}

fn display_id(f: &Function) -> String {
    if f.dup_count > 1 {
        format!("{}#{}", f.qualname, f.occurrence)
    } else {
        f.qualname.clone()
    }
}

/// Skeletonize a parsed file: replace the bodies of the selected functions
/// by stubs.
///
/// # Errors
/// [`SkeletonError::ParseErrors`] for a file with syntax errors under
/// [`ParseErrorPolicy::Refuse`]; [`SkeletonError::Verification`] if the
/// skeleton would parse worse than the original (with `verify`).
pub fn skeletonize(
    file: &ParsedFile,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    if file.parse_errors > 0 && options.on_parse_errors == ParseErrorPolicy::Refuse {
        let (line, column) = codethread_lang::first_error(file.root()).unwrap_or((1, 1));
        return Err(SkeletonError::ParseErrors {
            lang: file.lang,
            errors: file.parse_errors,
            line,
            column,
        });
    }
    let flat = FlatTree::new(file);
    let funcs = index_flat(file, &flat);
    let src = &file.source[..];

    // Which selectors match which functions.
    let mut selected = vec![false; funcs.len()];
    let mut unmatched = Vec::new();
    for sel in selectors {
        let mut any = false;
        for (i, f) in funcs.iter().enumerate() {
            if sel.matches(f) {
                selected[i] = true;
                any = true;
            }
        }
        if !any && !matches!(sel, Selector::All | Selector::Predicate(_)) {
            unmatched.push(sel.to_string());
        }
    }

    let located = locate(file, &flat, &funcs, &selected);
    drop(flat);
    let mut skipped = Vec::new();
    // A target covers its nested functions.
    let mut covering = vec![false; funcs.len()];
    let mut planned: Vec<(usize, Planned)> = Vec::new();
    let mut units = UnitCache::for_file(file.lang, file.root(), src);
    for (i, f) in funcs.iter().enumerate() {
        let covered = f
            .parent
            .is_some_and(|p| covering.get(p).copied().unwrap_or(false));
        if covered {
            covering[i] = true;
            continue;
        }
        if !selected[i] {
            continue;
        }
        let skip = |reason| Skipped {
            function: display_id(f),
            line: f.node.start_line,
            reason,
        };
        // Without a body span, the engine still looks for a body the
        // grammar puts in no field, or an empty body the grammar omits
        // (`StubRules`); it reports `NoBody` when there is none. Macro
        // bodies are only re-parsed for functions with a body.
        if f.body.is_none() && f.in_macro {
            skipped.push(skip(SkipReason::NoBody));
            continue;
        }
        if rules(file.lang).overload_stubs && is_overload_stub(f) {
            skipped.push(skip(SkipReason::Overload));
            continue;
        }
        match plan_function(
            file,
            f,
            located.get(i).copied().flatten(),
            options,
            &mut units,
        ) {
            Ok(p) => {
                covering[i] = true;
                if src.get(p.start..p.end) == Some(p.replacement.as_bytes()) {
                    skipped.push(skip(SkipReason::AlreadyStub));
                } else {
                    planned.push((i, p));
                }
            }
            Err(e) => {
                let reason = match e {
                    PlanError::NoBody => SkipReason::NoBody,
                    PlanError::Unsupported(m) => SkipReason::Unsupported(m.to_string()),
                    PlanError::Malformed(m) => SkipReason::ParseError(m.to_string()),
                    PlanError::Affected(m) => SkipReason::ParseError(m),
                };
                skipped.push(skip(reason));
            }
        }
    }

    planned.sort_by_key(|(_, p)| (p.start, p.end));
    let mut edits: Vec<Edit> = Vec::with_capacity(planned.len());
    let mut last_end = 0usize;
    for (i, p) in planned {
        let f = &funcs[i];
        if (!edits.is_empty() && p.start < last_end) || p.end > src.len() || p.start > p.end {
            skipped.push(Skipped {
                function: display_id(f),
                line: f.node.start_line,
                reason: SkipReason::ParseError("body range overlaps another edit".into()),
            });
            continue;
        }
        last_end = p.end;
        edits.push(Edit {
            function: display_id(f),
            line: f.node.start_line,
            start_byte: p.start,
            end_byte: p.end,
            replacement: p.replacement,
            warnings: p.warnings,
        });
    }
    if let Some(rules) = rules(file.lang).static_uses {
        crate::staticuses::keep_uses(file, &funcs, &rules, &mut edits);
        // A body that already is the stub with its kept uses (a skeleton
        // skeletonized again) is left alone, as any stub is.
        let (same, changed): (Vec<Edit>, Vec<Edit>) = edits
            .into_iter()
            .partition(|e| src.get(e.start_byte..e.end_byte) == Some(e.replacement.as_bytes()));
        edits = changed;
        skipped.extend(same.into_iter().map(|e| Skipped {
            function: e.function,
            line: e.line,
            reason: SkipReason::AlreadyStub,
        }));
    }
    let mut text = apply_edits(src, &edits)?;
    let check_imports = rules(file.lang).rejects_unused_imports;
    let near = |e: &Edit| e.warnings.contains(&Warning::NearParseError);
    let has_near = edits.iter().any(near);
    if (options.verify || check_imports || has_near) && !edits.is_empty() {
        let mut re = reparse(file, &text, check_imports, options)?;
        // The fallback rule's stubs are checked together, by the one
        // re-parse every skeleton gets. When they add an error, the ones to
        // drop are found by halving the group (each half tested with the
        // stubs accepted so far), within a fixed number of re-parses: never
        // one per function.
        if has_near && re.parse_errors > file.parse_errors {
            let (mut kept, near_edits): (Vec<Edit>, Vec<Edit>) =
                edits.into_iter().partition(|e| !near(e));
            let mut groups = vec![near_edits];
            let mut budget = NEAR_ERROR_REPARSES;
            let mut first = true;
            while let Some(mut group) = groups.pop() {
                let fits = if first {
                    // The whole group was just tested.
                    first = false;
                    false
                } else if budget == 0 {
                    false
                } else {
                    budget -= 1;
                    let mut trial: Vec<Edit> = kept.iter().chain(group.iter()).cloned().collect();
                    trial.sort_by_key(|e| (e.start_byte, e.end_byte));
                    let t = apply_edits(src, &trial)?;
                    reparse(file, &t, check_imports, options)?.parse_errors <= file.parse_errors
                };
                if fits {
                    kept.append(&mut group);
                } else if group.len() > 1 && budget > 0 {
                    let back = group.split_off(group.len() / 2);
                    groups.push(back);
                    groups.push(group);
                } else {
                    for e in group {
                        skipped.push(Skipped {
                            function: e.function,
                            line: e.line,
                            reason: SkipReason::ParseError(
                                "the function touches an ERROR/MISSING node, and its stub adds a syntax error"
                                    .into(),
                            ),
                        });
                    }
                }
            }
            kept.sort_by_key(|e| (e.start_byte, e.end_byte));
            edits = kept;
            text = apply_edits(src, &edits)?;
            re = reparse(file, &text, check_imports, options)?;
        }
        if check_imports {
            crate::goimports::flag_unused_imports(file, &re, &mut edits);
        }
        if options.verify && re.parse_errors > file.parse_errors {
            let (line, column) = codethread_lang::first_error(re.root()).unwrap_or((1, 1));
            return Err(SkeletonError::Verification {
                before: file.parse_errors,
                after: re.parse_errors,
                line,
                column,
            });
        }
    }
    Ok(Skeleton {
        lang: file.lang,
        text,
        edits,
        skipped,
        unmatched,
        parse_errors: file.parse_errors,
    })
}

/// How many more re-parses the fallback rule may spend finding the stubs
/// near syntax errors that add one, when together they do.
const NEAR_ERROR_REPARSES: usize = 16;

/// The skeleton's text re-parsed the way the file was: with the macro mask
/// when it helps. The mask only lowers the error count, and only the count
/// decides (Go, whose imports are checked, has no macro rules): a plain
/// parse that verifies needs no second, masked one.
fn reparse(
    file: &ParsedFile,
    text: &[u8],
    check_imports: bool,
    options: &Options,
) -> Result<ParsedFile, SkeletonError> {
    let plain = parse_lang(
        file.lang,
        text.to_vec(),
        &LangParseOptions::with_budget(options.parse_budget),
    )?;
    Ok(if check_imports || plain.parse_errors > file.parse_errors {
        codethread_lang::tolerant(plain)
    } else {
        plain
    })
}

/// Parse `source` as `lang` and skeletonize it.
///
/// # Errors
/// As [`parse`] and [`skeletonize`].
pub fn skeletonize_source(
    lang: Lang,
    source: impl Into<Vec<u8>>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    let file = parse_lang(
        lang,
        source,
        &LangParseOptions::with_budget(options.parse_budget),
    )?;
    skeletonize(&file, selectors, options)
}

/// True when `node` has an error inside or lies inside an ERROR node.
fn touches_error(node: Node<'_>) -> bool {
    if node.has_error() {
        return true;
    }
    let mut cur = node.parent();
    while let Some(p) = cur {
        if p.is_error() {
            return true;
        }
        cur = p.parent();
    }
    false
}

/// A function's node in tree-sitter's tree, found by [`locate`].
#[derive(Clone, Copy)]
struct Located<'t> {
    node: Node<'t>,
    /// The node has an ERROR/MISSING node inside or lies inside an ERROR node.
    touches_error: bool,
    grandparent: Option<Node<'t>>,
}

/// The nodes of the `wanted` functions (not in macros), in one pre-order
/// cursor walk over tree-sitter's tree: each function's node is picked on
/// the flat tree (the innermost node of its kind covering its own span, as
/// [`Function::find_node`]), whose ids are the same walk's pre-order
/// indices. Looking each node up from the root instead
/// (`descendant_for_byte_range`, `Node::parent`) costs the nesting depth per
/// function: quadratic for nested scopes that each hold a function.
fn locate<'t>(
    file: &'t ParsedFile,
    flat: &FlatTree,
    funcs: &[Function],
    wanted: &[bool],
) -> Vec<Option<Located<'t>>> {
    let mut out: Vec<Option<Located<'t>>> = vec![None; funcs.len()];
    let mut want: Vec<(usize, usize)> = funcs
        .iter()
        .enumerate()
        .filter(|(i, f)| wanted.get(*i).copied().unwrap_or(false) && !f.in_macro)
        .filter_map(|(i, f)| flat.function_node(f).map(|n| (n.id(), i)))
        .collect();
    if want.is_empty() {
        return out;
    }
    want.sort_unstable();
    let mut next = 0usize;
    // Ancestors of the cursor's node, and how many of them are ERROR nodes.
    let mut stack: Vec<Node<'t>> = Vec::new();
    let mut errors_open = 0usize;
    let mut cursor = file.root().walk();
    let mut id = 0usize;
    'walk: loop {
        let node = cursor.node();
        while let Some(&(wid, i)) = want.get(next) {
            if wid > id {
                break;
            }
            if wid == id {
                out[i] = Some(Located {
                    node,
                    touches_error: node.has_error() || errors_open > 0,
                    grandparent: stack
                        .len()
                        .checked_sub(2)
                        .and_then(|k| stack.get(k))
                        .copied(),
                });
            }
            next += 1;
        }
        if next >= want.len() {
            break;
        }
        id += 1;
        if cursor.goto_first_child() {
            if node.is_error() {
                errors_open += 1;
            }
            stack.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            let Some(up) = stack.pop() else {
                break 'walk;
            };
            if up.is_error() {
                errors_open -= 1;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// Find the function's node (re-parsing macro bodies for functions found
/// inside item macros) and plan its edit.
fn plan_function(
    file: &ParsedFile,
    f: &Function,
    located: Option<Located<'_>>,
    options: &Options,
    units: &mut UnitCache,
) -> Result<Planned, PlanError> {
    if !f.in_macro {
        // The innermost node of the function's kind covering its own span
        // (`Function::node` may end before the node's trailing comments).
        let found = match located {
            Some(l) => l,
            None => {
                let node = f
                    .find_node(file)
                    .ok_or(PlanError::Malformed("function node not found"))?;
                Located {
                    node,
                    touches_error: touches_error(node),
                    grandparent: node.parent().and_then(|p| p.parent()),
                }
            }
        };
        let node = found.node;
        let near_error = file.parse_errors > 0 && found.touches_error;
        if near_error && !braced_clean_body(node, f) {
            return Err(PlanError::Affected(
                "the function touches an ERROR/MISSING node".into(),
            ));
        }
        let inp = PlanInput {
            lang: file.lang,
            src: &file.source,
            off: 0,
            grandparent: found.grandparent,
            node,
            body: f.body.map(|b| (b.start_byte, b.end_byte)),
            is_generator: f.is_generator,
            keep_docs: options.keep_docs,
        };
        let mut p = plan(&inp, units)?;
        if near_error {
            // Checked with every such stub of the file by the skeleton's
            // re-parse (`skeletonize`).
            p.warnings.push(Warning::NearParseError);
        }
        return Ok(p);
    }
    plan_in_macro(file, &file.source, 0, f, options, units, 0)
}

/// The fallback rule for a function that touches a syntax error (its stub
/// is then checked by the skeleton's re-parse, with all such stubs): its body
/// (the node spanning [`Function::body`]) opens and closes with real brace
/// tokens (not MISSING) and holds no error itself, so the error lies in the
/// header or around the function, and replacing the body between those
/// braces cannot swallow it.
fn braced_clean_body(node: Node<'_>, f: &Function) -> bool {
    let Some(b) = f.body else {
        return false;
    };
    let mut cursor = node.walk();
    let body = node
        .children(&mut cursor)
        .find(|c| c.start_byte() == b.start_byte && c.end_byte() == b.end_byte);
    let Some(body) = body else {
        return false;
    };
    let (Some(open), Some(close)) = (
        body.child(0),
        body.child(body.child_count().saturating_sub(1)),
    ) else {
        return false;
    };
    !body.has_error()
        && open.kind() == "{"
        && close.kind() == "}"
        && !open.is_missing()
        && !close.is_missing()
}

/// How deeply macro bodies are re-parsed to find a function's node.
const MAX_MACRO_DEPTH: usize = 4;

/// Functions of Rust item macros (`cfg_rt! { fn ... }`) have no node in the
/// file's tree: re-parse the innermost macro body holding the function and
/// look again, with positions shifted by `off`.
fn plan_in_macro(
    sub: &ParsedFile,
    whole: &[u8],
    off: usize,
    f: &Function,
    options: &Options,
    units: &mut UnitCache,
    depth: usize,
) -> Result<Planned, PlanError> {
    if depth > MAX_MACRO_DEPTH || f.node.start_byte < off {
        return Err(PlanError::Malformed("macro body not found"));
    }
    let (s, e) = (f.node.start_byte - off, f.node.end_byte.saturating_sub(off));
    let root = sub.root();
    // The node itself, when this tree has it.
    if let Some(mut n) = root.descendant_for_byte_range(s, e) {
        loop {
            if n.kind() == f.node_kind && n.start_byte() == s {
                if touches_error(n) {
                    return Err(PlanError::Affected(
                        "the function touches an ERROR/MISSING node".into(),
                    ));
                }
                let inp = PlanInput {
                    lang: sub.lang,
                    src: whole,
                    off,
                    grandparent: n.parent().and_then(|p| p.parent()),
                    node: n,
                    body: f.body.and_then(|b| {
                        Some((b.start_byte.checked_sub(off)?, b.end_byte.checked_sub(off)?))
                    }),
                    is_generator: f.is_generator,
                    keep_docs: options.keep_docs,
                };
                return plan(&inp, units);
            }
            match n.parent() {
                Some(p) => n = p,
                None => break,
            }
        }
    }
    // Otherwise: the innermost token tree around it, re-parsed as items.
    let mut tt = root
        .descendant_for_byte_range(s, e)
        .ok_or(PlanError::Malformed("macro body not found"))?;
    while tt.kind() != "token_tree" || tt.start_byte() >= s || tt.end_byte() < e {
        tt = tt
            .parent()
            .ok_or(PlanError::Malformed("macro body not found"))?;
    }
    if touches_error(tt) {
        return Err(PlanError::Affected(
            "the macro holding the function touches an ERROR/MISSING node".into(),
        ));
    }
    let inner_start = tt.start_byte() + 1;
    let inner_end = tt.end_byte().saturating_sub(1).max(inner_start);
    let inner = sub
        .source
        .get(inner_start..inner_end)
        .ok_or(PlanError::Malformed("macro body not found"))?;
    let reparsed = parse(sub.lang, inner.to_vec())
        .map_err(|_| PlanError::Malformed("macro body does not parse"))?;
    plan_in_macro(
        &reparsed,
        whole,
        off + inner_start,
        f,
        options,
        units,
        depth + 1,
    )
}

/// Apply edits (sorted, non-overlapping, in `original`'s coordinates) to
/// `original`: the skeleton.
///
/// # Errors
/// [`SkeletonError::EditOutOfBounds`] and [`SkeletonError::EditsOverlap`].
pub fn apply_edits(original: &[u8], edits: &[Edit]) -> Result<Vec<u8>, SkeletonError> {
    check_edits(original.len(), edits)?;
    let mut out = Vec::with_capacity(original.len());
    let mut at = 0;
    for e in edits {
        out.extend_from_slice(&original[at..e.start_byte]);
        out.extend_from_slice(e.replacement.as_bytes());
        at = e.end_byte;
    }
    out.extend_from_slice(&original[at..]);
    Ok(out)
}

fn check_edits(len: usize, edits: &[Edit]) -> Result<(), SkeletonError> {
    let mut prev_end = 0;
    for (index, e) in edits.iter().enumerate() {
        if e.start_byte > e.end_byte || e.end_byte > len {
            return Err(SkeletonError::EditOutOfBounds {
                index,
                function: e.function.clone(),
                start: e.start_byte,
                end: e.end_byte,
                len,
            });
        }
        if e.start_byte < prev_end {
            return Err(SkeletonError::EditsOverlap {
                index,
                function: e.function.clone(),
                start: e.start_byte,
                previous_end: prev_end,
            });
        }
        prev_end = e.end_byte;
    }
    Ok(())
}

/// Undo every edit: splice the original bytes back into the skeleton. The
/// result equals `original` whenever the skeleton is unchanged outside the
/// stubs.
///
/// # Errors
/// As [`restore_selected`].
pub fn restore(skeleton: &[u8], edits: &[Edit], original: &[u8]) -> Result<Vec<u8>, SkeletonError> {
    restore_selected(skeleton, edits, original, |_| true)
}

/// Undo the edits for which `which` is true (e.g. restore some targets' human
/// bodies and leave the other stubs), splicing the original bytes back.
///
/// # Errors
/// [`SkeletonError::EditOutOfBounds`] / [`SkeletonError::EditsOverlap`] for
/// edits that do not fit `original`, [`SkeletonError::StubNotFound`] when the
/// skeleton does not hold an edit's replacement where the edits place it.
pub fn restore_selected(
    skeleton: &[u8],
    edits: &[Edit],
    original: &[u8],
    which: impl Fn(&Edit) -> bool,
) -> Result<Vec<u8>, SkeletonError> {
    check_edits(original.len(), edits)?;
    let mut out = Vec::with_capacity(original.len());
    let mut at = 0usize; // position in the skeleton
    let mut delta: isize = 0; // skeleton position - original position
    for (index, e) in edits.iter().enumerate() {
        let skel_start = e.start_byte as isize + delta;
        let stub_end = skel_start + e.replacement.len() as isize;
        let (Ok(ss), Ok(se)) = (usize::try_from(skel_start), usize::try_from(stub_end)) else {
            return Err(SkeletonError::StubNotFound {
                index,
                function: e.function.clone(),
                at: 0,
            });
        };
        if ss < at || skeleton.get(ss..se) != Some(e.replacement.as_bytes()) {
            return Err(SkeletonError::StubNotFound {
                index,
                function: e.function.clone(),
                at: ss,
            });
        }
        out.extend_from_slice(&skeleton[at..ss]);
        if which(e) {
            out.extend_from_slice(&original[e.start_byte..e.end_byte]);
        } else {
            out.extend_from_slice(e.replacement.as_bytes());
        }
        at = se;
        delta += e.replacement.len() as isize - (e.end_byte - e.start_byte) as isize;
    }
    out.extend_from_slice(skeleton.get(at..).unwrap_or(&[]));
    Ok(out)
}
