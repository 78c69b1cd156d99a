//! Skeletonizing one parsed file; applying and undoing edits.

use codethread_lang::tree_sitter::Node;
use codethread_lang::{
    index_flat, parse, parse_lang, ChunkParse, ChunkPlan, FlatTree, Function, Lang,
    LangParseOptions, ParsedFile,
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
    skeletonize_parts(Parts::Whole(file), selectors, options)
}

/// The trees a skeleton is planned on: the whole file's, or, for a large
/// file ([`Options::chunks`]), one chunk's of whole top-level units at a
/// time ([`ChunkPlan`]), so that no tree of the whole file is held.
enum Parts<'a> {
    Whole(&'a ParsedFile),
    Chunked {
        plan: Box<ChunkPlan>,
        /// How each chunk is parsed (as the whole file would be).
        how: ChunkParse,
    },
}

impl Parts<'_> {
    fn len(&self) -> usize {
        match self {
            Parts::Whole(_) => 1,
            Parts::Chunked { plan, .. } => plan.chunks().len(),
        }
    }

    /// The file's language (its fallback grammar's, for a whole file read
    /// with one).
    fn lang(&self) -> Lang {
        match self {
            Parts::Whole(f) => f.lang,
            Parts::Chunked { plan, .. } => plan.lang(),
        }
    }

    /// Where each part starts (the whole file: one part at 0).
    fn starts(&self) -> Vec<usize> {
        match self {
            Parts::Whole(_) => vec![0],
            Parts::Chunked { plan, .. } => plan.chunks().iter().map(|c| c.start).collect(),
        }
    }

    /// Call `f` with part `i`'s tree (`None`: no such part).
    fn with<T>(
        &mut self,
        i: usize,
        f: impl FnOnce(&ParsedFile) -> T,
    ) -> Result<Option<T>, SkeletonError> {
        match self {
            Parts::Whole(file) => Ok((i == 0).then(|| f(file))),
            Parts::Chunked { plan, how } => Ok(plan.with_chunk(i, how, f)?),
        }
    }

    /// The file's bytes.
    fn source(&self) -> &[u8] {
        match self {
            Parts::Whole(f) => &f.source,
            Parts::Chunked { plan, .. } => plan.source(),
        }
    }
}

/// What the first pass over a file's parts finds: the whole file's index
/// and, per part, where its functions start in it, its language and its
/// error count.
struct Scan {
    funcs: Vec<Function>,
    bases: Vec<usize>,
    langs: Vec<Lang>,
    errors: Vec<usize>,
    first_error: Option<(usize, usize)>,
    /// The whole file's flattened tree, kept for the second pass.
    flat: Option<FlatTree>,
}

fn scan(parts: &mut Parts<'_>) -> Result<Scan, SkeletonError> {
    let n = parts.len();
    let mut join = codethread_lang::IndexJoin::default();
    let mut whole = None;
    let mut out = Scan {
        funcs: Vec::new(),
        bases: Vec::with_capacity(n + 1),
        langs: Vec::with_capacity(n),
        errors: Vec::with_capacity(n),
        first_error: None,
        flat: None,
    };
    for i in 0..n {
        let keep_flat = n == 1;
        // A part the plan does not have (none: `i` is below its count)
        // counts as empty, so that every list stays aligned with the parts.
        let file_lang = parts.lang();
        let (index, lang, errors, first, flat) = parts
            .with(i, |f| {
                let flat = FlatTree::new(f);
                let index = index_flat(f, &flat);
                let first = if f.parse_errors > 0 {
                    codethread_lang::first_error(f.root())
                } else {
                    None
                };
                (
                    index,
                    f.lang,
                    f.parse_errors,
                    first,
                    keep_flat.then_some(flat),
                )
            })?
            .unwrap_or((Vec::new(), file_lang, 0, None, None));
        out.bases.push(join.len());
        if n == 1 {
            whole = Some(index);
        } else {
            join.push(index);
        }
        out.langs.push(lang);
        out.errors.push(errors);
        out.first_error = out.first_error.or(first);
        out.flat = flat;
    }
    out.funcs = match whole {
        Some(index) => index,
        None => join.finish(),
    };
    out.bases.push(out.funcs.len());
    Ok(out)
}

fn skeletonize_parts(
    mut parts: Parts<'_>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    let Scan {
        funcs,
        bases,
        langs,
        errors: part_errors,
        first_error,
        flat: mut whole_flat,
    } = scan(&mut parts)?;
    let lang = match &parts {
        Parts::Whole(f) => f.lang,
        Parts::Chunked { .. } => langs
            .iter()
            .copied()
            .find(|&l| l != parts.lang())
            .unwrap_or(parts.lang()),
    };
    let parse_errors: usize = part_errors.iter().sum();
    if parse_errors > 0 && options.on_parse_errors == ParseErrorPolicy::Refuse {
        let (line, column) = first_error.unwrap_or((1, 1));
        return Err(SkeletonError::ParseErrors {
            lang,
            errors: parse_errors,
            line,
            column,
        });
    }

    // Which selectors match which functions. Names are looked up in one
    // index of the qualnames (a selector per target must not scan every
    // function: N name selectors on a file of N functions stay O(N log N)).
    let mut selected = vec![false; funcs.len()];
    let mut unmatched = Vec::new();
    let names = crate::select::NameIndex::new(&funcs, selectors);
    for sel in selectors {
        let mut any = false;
        match sel {
            Selector::Qualname(q) => {
                for i in names.lookup(&funcs, q) {
                    selected[i] = true;
                    any = true;
                }
            }
            Selector::Span { start, end } => {
                for i in names.at_span(&funcs, *start, *end) {
                    selected[i] = true;
                    any = true;
                }
            }
            _ => {
                for (i, f) in funcs.iter().enumerate() {
                    if sel.matches(f) {
                        selected[i] = true;
                        any = true;
                    }
                }
            }
        }
        if !any && !matches!(sel, Selector::All | Selector::Predicate(_)) {
            unmatched.push(sel.to_string());
        }
    }

    let file_rules = rules(lang);
    let check_imports = file_rules.rejects_unused_imports;
    let mut skipped = Vec::new();
    // A target covers its nested functions.
    let mut covering = vec![false; funcs.len()];
    let mut planned: Vec<(usize, Planned)> = Vec::new();
    let mut units = UnitCache::new();
    let wanted = file_rules
        .static_uses
        .as_ref()
        .map(|r| crate::staticuses::wanted(parts.source(), &funcs, r));
    let mut uses = crate::staticuses::Uses::new();
    let mut imports = crate::goimports::ImportUses::default();
    // The second pass: each part's functions planned on its tree.
    // A part is needed for its selected functions, and by the static-use
    // and import checks, which gather uses over the whole file.
    let every_part = check_imports || wanted.as_ref().is_some_and(|w| !w.is_empty());
    for (part, range) in bases.windows(2).enumerate() {
        let (lo, hi) = (range[0], range[1]);
        let any_selected = selected.get(lo..hi).is_some_and(|s| s.contains(&true));
        if !every_part && !any_selected {
            continue;
        }
        let flat = whole_flat.take();
        parts.with(part, |file| {
            let src = &file.source[..];
            let here = funcs.get(lo..hi).unwrap_or_default();
            let wanted_here = selected.get(lo..hi).unwrap_or_default();
            // Nothing to plan here: only the uses the checks gather.
            let located = if any_selected {
                let flat = flat.unwrap_or_else(|| FlatTree::new(file));
                units.set_tree(file.lang, file.root(), src);
                locate(file, &flat, here, wanted_here)
            } else {
                Vec::new()
            };
            if let (Some(w), Some(r)) = (&wanted, &file_rules.static_uses) {
                crate::staticuses::collect_uses(file.root(), src, r, w, &mut uses);
            }
            if check_imports {
                imports.add_original(file.root(), src);
            }
            for (i, f) in funcs.iter().enumerate().take(hi).skip(lo) {
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
                    span: Some(f.span.start_byte..f.span.end_byte),
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
                    located.get(i - lo).copied().flatten(),
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
        })?;
    }

    let src = parts.source();
    planned.sort_by_key(|(_, p)| (p.start, p.end));
    let mut edits: Vec<Edit> = Vec::with_capacity(planned.len());
    let mut last_end = 0usize;
    for (i, p) in planned {
        let f = &funcs[i];
        if (!edits.is_empty() && p.start < last_end) || p.end > src.len() || p.start > p.end {
            skipped.push(Skipped {
                function: display_id(f),
                line: f.node.start_line,
                span: Some(f.span.start_byte..f.span.end_byte),
                reason: SkipReason::ParseError("body range overlaps another edit".into()),
            });
            continue;
        }
        last_end = p.end;
        edits.push(Edit {
            function: display_id(f),
            line: f.node.start_line,
            span: Some(f.span.start_byte..f.span.end_byte),
            start_byte: p.start,
            end_byte: p.end,
            replacement: p.replacement,
            warnings: p.warnings,
        });
    }
    if let (Some(w), Some(r)) = (&wanted, &file_rules.static_uses) {
        crate::staticuses::keep_uses(src, r, w, &uses, &mut edits);
        // A body that already is the stub with its kept uses (a skeleton
        // skeletonized again) is left alone, as any stub is.
        let (same, changed): (Vec<Edit>, Vec<Edit>) = edits
            .into_iter()
            .partition(|e| src.get(e.start_byte..e.end_byte) == Some(e.replacement.as_bytes()));
        edits = changed;
        skipped.extend(same.into_iter().map(|e| Skipped {
            function: e.function,
            line: e.line,
            span: e.span,
            reason: SkipReason::AlreadyStub,
        }));
    }
    let mut text = apply_edits(src, &edits)?;
    let near = |e: &Edit| e.warnings.contains(&Warning::NearParseError);
    let has_near = edits.iter().any(near);
    if (options.verify || check_imports || has_near) && !edits.is_empty() {
        let original = Original {
            parts: &parts,
            langs: &langs,
            errors: &part_errors,
            import_names: imports.names(),
            check_imports,
            options,
        };
        let mut re = original.reparse(&text, &edits)?;
        // The fallback rule's stubs are checked together, by the one
        // re-parse every skeleton gets. When they add an error, the ones to
        // drop are found by halving the group (each half tested with the
        // stubs accepted so far), within a fixed number of re-parses: never
        // one per function.
        if has_near && re.errors > parse_errors {
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
                    original.reparse(&t, &trial)?.errors <= parse_errors
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
                            span: e.span,
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
            re = original.reparse(&text, &edits)?;
        }
        if check_imports && options.blank_unused_go_imports {
            // Imports the stubs leave unused become blank imports (no
            // syntax to verify: `_ "path"` is an import like any other).
            let blanks = crate::goimports::blank_unused_imports(&imports, &re.imports);
            if !blanks.is_empty() {
                edits.extend(blanks);
                edits.sort_by_key(|e| (e.start_byte, e.end_byte));
                text = apply_edits(src, &edits)?;
            }
        } else if check_imports {
            crate::goimports::flag_unused_imports(&imports, &re.imports, &mut edits);
        }
        if options.verify && re.errors > parse_errors {
            let (line, column) = re.first_error.unwrap_or((1, 1));
            return Err(SkeletonError::Verification {
                before: parse_errors,
                after: re.errors,
                line,
                column,
            });
        }
    }
    Ok(Skeleton {
        lang,
        text,
        edits,
        skipped,
        unmatched,
        parse_errors,
    })
}

/// How many more re-parses the fallback rule may spend finding the stubs
/// near syntax errors that add one, when together they do.
const NEAR_ERROR_REPARSES: usize = 16;

/// The original file as a skeleton of it is re-parsed: part by part, each
/// with the language it was read as.
struct Original<'p, 'a> {
    parts: &'p Parts<'a>,
    langs: &'p [Lang],
    errors: &'p [usize],
    import_names: &'p [String],
    check_imports: bool,
    options: &'p Options,
}

/// What a skeleton's re-parse tells: its error count, where its first
/// added error is, and (Go) the uses of the file's imports in it.
struct Reparsed {
    errors: usize,
    first_error: Option<(usize, usize)>,
    imports: crate::goimports::ImportUses,
}

impl Original<'_, '_> {
    /// Re-parse `text`, the original with `edits` applied, the way the
    /// file was read: with the macro mask when it helps (the mask only
    /// lowers the error count, and only the count decides; Go, whose
    /// imports are checked, has no macro rules). A chunked file's skeleton
    /// is parsed in the same chunks, shifted by the edits before each: the
    /// edits lie inside functions, inside the chunks' units.
    fn reparse(&self, text: &[u8], edits: &[Edit]) -> Result<Reparsed, SkeletonError> {
        let mut out = Reparsed {
            errors: 0,
            first_error: None,
            imports: crate::goimports::ImportUses::default(),
        };
        let budget = LangParseOptions::with_budget(self.options.parse_budget);
        let mut take = |i: usize, file: &ParsedFile| {
            let before = self.errors.get(i).copied().unwrap_or(0);
            if file.parse_errors > before && out.first_error.is_none() {
                out.first_error = codethread_lang::first_error(file.root());
            }
            out.errors += file.parse_errors;
            if self.check_imports {
                out.imports
                    .add_uses(file.root(), &file.source, self.import_names);
            }
        };
        match self.parts {
            Parts::Whole(file) => {
                let plain = parse_lang(file.lang, text.to_vec(), &budget)?;
                let re = if self.check_imports || plain.parse_errors > file.parse_errors {
                    codethread_lang::tolerant(plain)
                } else {
                    plain
                };
                take(0, &re);
            }
            Parts::Chunked { plan, .. } => {
                // Each chunk start, and the ranges read with it (the
                // headers and closers of the units it lies in), shifted by
                // the edits wholly before them; a start inside an edit is
                // dropped (its chunks read as one), as is such a range.
                let mut written_before = Vec::with_capacity(edits.len() + 1);
                let mut removed_before = Vec::with_capacity(edits.len() + 1);
                let (mut written, mut removed) = (0usize, 0usize);
                written_before.push(0);
                removed_before.push(0);
                for ed in edits {
                    written += ed.replacement.len();
                    removed += ed.end_byte.saturating_sub(ed.start_byte);
                    written_before.push(written);
                    removed_before.push(removed);
                }
                let shift = |at: usize| -> Option<usize> {
                    let k = edits.partition_point(|ed| ed.end_byte <= at);
                    if edits.get(k).is_some_and(|ed| ed.start_byte < at) {
                        return None;
                    }
                    Some((at + written_before[k]).saturating_sub(removed_before[k]))
                };
                let mut layout: Vec<(usize, Vec<(usize, usize)>)> =
                    Vec::with_capacity(plan.chunks().len());
                for (i, chunk) in plan.chunks().iter().enumerate() {
                    let Some(start) = shift(chunk.start) else {
                        continue;
                    };
                    let ctx = plan
                        .context(i)
                        .into_iter()
                        .filter_map(|(s, e)| Some((shift(s)?, shift(e)?)))
                        .collect();
                    layout.push((start, ctx));
                }
                let mut re = ChunkPlan::with_layout(plan.lang(), text.to_vec(), &budget, &layout)?;
                let merged = re.chunks().len() != self.errors.len();
                // A chunk no edit touches is the original's, byte for byte:
                // its parse is the original's (unless its import uses are
                // wanted).
                let originals = self.parts.starts();
                let mut unchanged = 0usize;
                let mut edited = vec![false; originals.len()];
                for ed in edits {
                    let i = originals.partition_point(|&s| s <= ed.start_byte);
                    if let Some(e) = i.checked_sub(1).and_then(|i| edited.get_mut(i)) {
                        *e = true;
                    }
                }
                for i in 0..re.chunks().len() {
                    if !merged && !self.check_imports && !edited.get(i).copied().unwrap_or(true) {
                        unchanged += self.errors.get(i).copied().unwrap_or(0);
                        continue;
                    }
                    let how = ChunkParse {
                        grammar: self.langs.get(i).copied().filter(|_| !merged),
                        fallbacks: false,
                        tolerant: true,
                    };
                    re.with_chunk(i, &how, |f| take(if merged { usize::MAX } else { i }, f))?;
                }
                out.errors += unchanged;
            }
        }
        Ok(out)
    }
}

/// Parse `source` as `lang` and skeletonize it. A file of at least
/// [`Options::chunks`]`.min_file_bytes` is parsed in chunks of whole
/// top-level units, one tree at a time.
///
/// # Errors
/// As [`parse`] and [`skeletonize`].
pub fn skeletonize_source(
    lang: Lang,
    source: impl Into<Vec<u8>>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    let source = source.into();
    let parse_options = LangParseOptions::with_budget(options.parse_budget);
    if options.chunks.applies(source.len()) {
        let plan = ChunkPlan::new(lang, source, &parse_options, &options.chunks)?;
        if plan.chunks().len() > 1 {
            let how = ChunkParse::default();
            let plan = Box::new(plan);
            return skeletonize_parts(Parts::Chunked { plan, how }, selectors, options);
        }
        let file = parse_lang(lang, plan.into_source(), &parse_options)?;
        return skeletonize(&file, selectors, options);
    }
    let file = parse_lang(lang, source, &parse_options)?;
    skeletonize(&file, selectors, options)
}

/// Skeletonize `source`, a file of `lang` read as [`codethread_lang::parse_file`]
/// reads it (fallback grammars, then the macro mask), in chunks of whole
/// top-level units when it is large ([`Options::chunks`]). `None`: one
/// chunk, the caller parses it whole.
pub(crate) fn skeletonize_chunked(
    lang: Lang,
    source: Vec<u8>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Result<Skeleton, Vec<u8>>, SkeletonError> {
    let parse_options = LangParseOptions::with_budget(options.parse_budget);
    let plan = ChunkPlan::new(lang, source, &parse_options, &options.chunks)?;
    if plan.chunks().len() <= 1 {
        return Ok(Err(plan.into_source()));
    }
    let how = ChunkParse::LIKE_PARSE_FILE;
    let plan = Box::new(plan);
    skeletonize_parts(Parts::Chunked { plan, how }, selectors, options).map(Ok)
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
