//! Skeletonizing one parsed file; applying and undoing edits.

use std::fmt;

use codethread_lang::tree_sitter::Node;
use codethread_lang::{
    index_flat, parse, parse_budget, FlatTree, Function, Lang, ParseBudget, ParsedFile,
};
use serde::{Deserialize, Serialize};

use crate::plan::{plan, rules, PlanError, PlanInput, Planned, UnitCache};
use crate::select::{is_overload_stub, Selector};
use crate::SkeletonError;

/// What to do with a file that has ERROR/MISSING nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseErrorPolicy {
    /// Return [`SkeletonError::ParseErrors`]; nothing is skeletonized.
    #[default]
    Refuse,
    /// Skeletonize the selected functions whose subtree holds no error and
    /// that are not inside an ERROR node; report the others in
    /// [`Skeleton::skipped`].
    SkipAffected,
}

/// Options of [`skeletonize`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Keep a Python docstring (the first statement of the body) above the
    /// stub. Default `false`: the docstring goes with the body, as in the
    /// CodeThread paper. Comments before a function are always kept.
    pub keep_docs: bool,
    /// Files with syntax errors.
    pub on_parse_errors: ParseErrorPolicy,
    /// Re-parse the skeleton and fail with [`SkeletonError::Verification`]
    /// when it has more ERROR/MISSING nodes than the original. Default `true`.
    pub verify: bool,
    /// Limits on each tree-sitter parse (the file, the verifying re-parse):
    /// a file beyond them fails with `LangError::Budget` instead of stalling
    /// the batch or exhausting memory. Default [`ParseBudget::default`].
    #[serde(default)]
    pub parse_budget: ParseBudget,
    /// A repository-level language (an instance's `language`, a
    /// `--lang-hint` option) for the functions that choose the grammar from
    /// a path ([`crate::skeletonize_path`], [`crate::skeletonize_dir`]): with
    /// `Lang::Cpp` a `.h` or `.c` file is C++
    /// (`codethread_lang::Lang::for_source`). Default `None`.
    #[serde(default)]
    pub hint: Option<Lang>,
    /// The largest file [`crate::skeletonize_dir`] reads. Default
    /// [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`].
    #[serde(default = "default_max_file_bytes")]
    pub max_file_bytes: u64,
}

fn default_max_file_bytes() -> u64 {
    codethread_lang::io::DEFAULT_MAX_FILE_BYTES
}

impl Default for Options {
    fn default() -> Self {
        Options {
            keep_docs: false,
            on_parse_errors: ParseErrorPolicy::Refuse,
            verify: true,
            parse_budget: ParseBudget::default(),
            hint: None,
            max_file_bytes: default_max_file_bytes(),
        }
    }
}

/// A stub that parses but will not type-check as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Warning {
    /// Rust `-> impl Trait`: `todo!()` gives the opaque type no concrete type
    /// (E0277 / E0720-style errors).
    ImplTraitReturn,
    /// TypeScript constructor of a derived class: TS2377 requires a `super()`
    /// call, which the stub removes.
    DerivedConstructor,
    /// Go: the stub removes the last use of an imported package, and Go
    /// rejects unused imports (`imported and not used`).
    GoUnusedImport,
    /// C++ `constexpr` / `consteval` function: the stub is allowed in its
    /// body (C++14 and later) but is not a constant expression, so a use of
    /// the function in a constant expression (`static_assert`, a template
    /// argument, a `constexpr` variable) no longer compiles.
    ConstexprStub,
    /// C++ function with a deduced return type (`auto f() { ... }` without a
    /// trailing return type): with the stub the type deduces to `void`, so
    /// a use of the result no longer compiles.
    DeducedReturnType,
}

impl Warning {
    /// The warning's `snake_case` name, as in JSON.
    pub fn code(self) -> &'static str {
        match self {
            Warning::ImplTraitReturn => "impl_trait_return",
            Warning::DerivedConstructor => "derived_constructor",
            Warning::GoUnusedImport => "go_unused_import",
            Warning::ConstexprStub => "constexpr_stub",
            Warning::DeducedReturnType => "deduced_return_type",
        }
    }

    /// Whether a file with this stub fails to compile whatever uses the
    /// function: a deduced C++ return type becomes `void` (every use of the
    /// result is an error), Rust `-> impl Trait` has no concrete type, a
    /// TypeScript derived constructor lacks `super()`. The other warnings
    /// compile in a default build (a `constexpr` stub fails only where it is
    /// evaluated at compile time), or are a file-level matter the caller
    /// reports (a Go import left unused, which `goimports` removes).
    pub fn breaks_build(self) -> bool {
        matches!(
            self,
            Warning::ImplTraitReturn | Warning::DerivedConstructor | Warning::DeducedReturnType
        )
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Warning::ImplTraitReturn => {
                "returns `impl Trait`: `todo!()` leaves the opaque type without a concrete type, so the stub does not type-check"
            }
            Warning::DerivedConstructor => {
                "constructor of a derived class: TypeScript requires a super() call (TS2377), which the stub removes"
            }
            Warning::GoUnusedImport => {
                "the stub removes the last use of an imported package; Go rejects unused imports"
            }
            Warning::ConstexprStub => {
                "constexpr/consteval function: the stub is not a constant expression, so compile-time uses of the function no longer compile"
            }
            Warning::DeducedReturnType => {
                "deduced return type: with the stub it deduces to void, so uses of the result no longer compile"
            }
        })
    }
}

/// One body replacement, in the coordinates of the original text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edit {
    /// The function: its qualname, with `#occurrence` when the qualname is not
    /// unique in the file (the target-id convention).
    pub function: String,
    /// 1-based line of the function's own node (the `def` / `fn` / `func`
    /// line, after decorators).
    pub line: usize,
    /// First replaced byte of the original.
    pub start_byte: usize,
    /// One past the last replaced byte of the original.
    pub end_byte: usize,
    /// The text that replaces `start_byte..end_byte`.
    pub replacement: String,
    /// Reasons the stub may not type-check.
    pub warnings: Vec<Warning>,
}

/// Why a selected function was not edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "reason", content = "detail")]
pub enum SkipReason {
    /// No body: Rust trait signature, TS overload / abstract method, Go
    /// assembly stub.
    NoBody,
    /// A Python `@overload` stub.
    Overload,
    /// The body already is exactly the stub.
    AlreadyStub,
    /// A body form no stub can replace (Python lambdas).
    Unsupported(String),
    /// The function touches a syntax error (with
    /// [`ParseErrorPolicy::SkipAffected`]), or its body is not in the
    /// expected shape.
    ParseError(String),
}

/// A selected function that was left as it is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Qualname (with `#occurrence` when not unique).
    pub function: String,
    /// 1-based line of the function's own node.
    pub line: usize,
    /// Why.
    pub reason: SkipReason,
}

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
    let text = apply_edits(src, &edits)?;
    let check_imports = rules(file.lang).rejects_unused_imports;
    let needs_reparse = options.verify || check_imports;
    if needs_reparse && !edits.is_empty() {
        // Re-parsed the way the file was: with the macro mask when it helps.
        // The mask only lowers the error count, and only the count decides
        // (Go, whose imports are checked, has no macro rules): a plain parse
        // that verifies needs no second, masked one.
        let plain = parse_budget(file.lang, text.clone(), &options.parse_budget)?;
        let re = if check_imports || plain.parse_errors > file.parse_errors {
            codethread_lang::tolerant(plain)
        } else {
            plain
        };
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
    let file = parse_budget(lang, source, &options.parse_budget)?;
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
        if file.parse_errors > 0 && found.touches_error {
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
        return plan(&inp, units);
    }
    plan_in_macro(file, &file.source, 0, f, options, units, 0)
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
