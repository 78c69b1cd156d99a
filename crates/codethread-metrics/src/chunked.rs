//! Measuring a large file chunk by chunk ([`codethread_lang::ChunkPlan`]):
//! no tree of the whole file is held, only one chunk's at a time, and the
//! records are joined as the whole-file parse joins them (issue 19:
//! memory bounded by the input; `docs/performance.md`, "Memory").
//!
//! Each chunk is parsed as the whole file would be — the grammar the
//! profile's tool reads it with, for the join key the language's own
//! grammar with its fallback grammars and the macro mask — and measured
//! into a part; what spans parts is done once for the file: Go's
//! `anonymous__N` counter and gocognit's top-level names (each chunk's
//! collected, the method rule settled at the end), the canonical
//! profile's recursion cycles and nesting
//! fold, target ids and occurrences, totals. The fallback grammar and the
//! macro mask are chosen per chunk, not per file: a file with parse errors
//! may be read differently from its whole-file parse there.

use codethread_lang::{
    index_flat, ChunkOptions, ChunkParse, ChunkPlan, FlatTree, Function, Lang, LangError,
    LangParseOptions, ParseBudget,
};

use crate::backend::Backend;
use crate::model::FileMetrics;

/// What [`measure`] did with a file.
pub(crate) enum Outcome {
    /// Measured in chunks.
    Measured(FileMetrics),
    /// One chunk: the caller measures the bytes whole (exactly as a file
    /// under the chunk threshold).
    Whole(Vec<u8>),
}

/// Measure `source`, a `lang` file above the chunk threshold of `chunks`,
/// with a tree backend (paper tree tools or canonical) under `budget`;
/// `label` goes into the records.
///
/// # Errors
/// As the whole-file parse: [`LangError::Budget`] (with
/// [`codethread_lang::BudgetLimit::Unit`] for a top-level unit over the
/// node budget) and the grammar errors.
pub(crate) fn measure(
    label: &str,
    lang: Lang,
    source: Vec<u8>,
    backend: Backend,
    budget: &ParseBudget,
    chunks: &ChunkOptions,
) -> Result<Outcome, LangError> {
    let plan = ChunkPlan::new(
        lang,
        source,
        &LangParseOptions::with_budget(*budget),
        chunks,
    )?;
    if plan.chunks().len() <= 1 {
        return Ok(Outcome::Whole(plan.into_source()));
    }
    let mut plan = plan;
    let n = plan.chunks().len();
    // The join key's parse of a chunk (`targets::reparsed_index` on a
    // chunk): the language's own grammar, its fallback grammars when the
    // chunk has errors, then the macro mask.
    let join = ChunkParse::LIKE_PARSE_FILE;
    let want = backend.grammar(lang);
    // Needed apart from the measured tree when the tool reads the language
    // with another grammar (C with the C++ one) or the language has
    // fallback grammars (a chunk with errors may need one).
    let join_apart = want != lang || !lang.fallback_grammars().is_empty();
    let ids_of = |plan: &mut ChunkPlan, i: usize| -> Result<Option<Vec<Function>>, LangError> {
        if !join_apart {
            return Ok(None);
        }
        plan.with_chunk(i, &join, |f| index_flat(f, &FlatTree::new(f)))
    };
    match backend {
        Backend::Tree(t) => {
            let how = ChunkParse {
                grammar: Some(want),
                ..ChunkParse::default()
            };
            let mut state = crate::paper::FileState {
                defer_top_names: crate::cognitive::top_level_decls(t.cognitive).is_some(),
                ..crate::paper::FileState::default()
            };
            // The parts are joined as they come: one growing list of
            // records, never a second copy of it.
            let mut whole: Option<crate::paper::Part> = None;
            for i in 0..n {
                let ids = ids_of(&mut plan, i)?;
                let part = plan.with_chunk(i, &how, |f| {
                    crate::paper::analyze_part(label, f, t, ids, &mut state)
                })?;
                match (&mut whole, part) {
                    (Some(w), Some(p)) => w.absorb(p),
                    (None, p) => whole = p,
                    (_, None) => {}
                }
            }
            Ok(match whole {
                Some(w) => Outcome::Measured(crate::paper::finish(label, lang, t, w)),
                None => Outcome::Whole(plan.into_source()),
            })
        }
        Backend::Canonical(t) => {
            // The canonical profile reads the tree `chain targets` reads:
            // the macro mask where it removes errors.
            let how = ChunkParse {
                grammar: None,
                fallbacks: false,
                tolerant: true,
            };
            let mut whole: Option<crate::canonical::Part> = None;
            for i in 0..n {
                let ids = ids_of(&mut plan, i)?;
                let part = plan.with_chunk(i, &how, |f| {
                    crate::canonical::analyze_part(label, f, t, ids)
                })?;
                match (&mut whole, part) {
                    (Some(w), Some(p)) => w.absorb(p),
                    (None, p) => whole = p,
                    (_, None) => {}
                }
            }
            Ok(match whole {
                Some(w) => Outcome::Measured(crate::canonical::finish(label, lang, w)),
                None => Outcome::Whole(plan.into_source()),
            })
        }
        // lizard reads tokens; its naming parse is chunked by
        // `naming_index`.
        Backend::Lizard(_) => Ok(Outcome::Whole(plan.into_source())),
    }
}

/// The index of a file the paper profile measures with lizard's token
/// reader, chunk by chunk under `budget` (the naming budget: the naming
/// parse of `naming::parse_for_names` on each chunk), as the naming parts
/// lizard's records read ([`crate::lizard::Named`]), each chunk's taken as
/// it comes and numbered over the file at the end (a whole file's
/// [`Function`] records are never held). `Ok(None)`: one chunk, the caller
/// parses it whole.
///
/// # Errors
/// As [`ChunkPlan::new`] and [`ChunkPlan::with_chunk`].
pub(crate) fn naming_index(
    lang: Lang,
    source: &[u8],
    budget: &ParseBudget,
    chunks: &ChunkOptions,
) -> Result<Option<(Vec<crate::lizard::Named>, Errors)>, LangError> {
    let mut plan = ChunkPlan::new(
        lang,
        source.to_vec(),
        &LangParseOptions::with_budget(*budget),
        chunks,
    )?;
    let n = plan.chunks().len();
    if n <= 1 {
        return Ok(None);
    }
    let how = ChunkParse {
        grammar: None,
        fallbacks: false,
        tolerant: true,
    };
    let mut named = Vec::new();
    let mut errors = Errors::default();
    for i in 0..n {
        let part = plan.with_chunk(i, &how, |f| {
            let first = codethread_lang::first_error(f.tree.root_node());
            (index_flat(f, &FlatTree::new(f)), f.parse_errors, first)
        })?;
        if let Some((part, count, first)) = part {
            named.extend(part.into_iter().map(crate::lizard::Named::of));
            errors.count += count;
            errors.first = errors.first.or(first);
        }
    }
    crate::lizard::number(&mut named);
    Ok(Some((named, errors)))
}

/// The syntax errors of a file's naming parse: how many ERROR / MISSING nodes, and where the
/// first is (1-based line and column).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Errors {
    pub(crate) count: usize,
    pub(crate) first: Option<(usize, usize)>,
}
