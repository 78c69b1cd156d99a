//! The backend of a (profile, language), chosen once: the paper tools' tree
//! walkers, lizard's token reader, or the canonical walker. Nothing below
//! this module looks at the profile.
//!
//! The public per-metric walkers ([`cyclomatic()`], [`cognitive()`],
//! [`halstead()`], [`lloc()`]) dispatch here.

use codethread_lang::Lang;

use crate::canonical;
use crate::context::FnCtx;
use crate::halstead::Halstead;
use crate::profile::Profile;
use codethread_rules::canonical::CanonRules;
use codethread_rules::paper::{paper, LizardTables, PaperTables, TreeTables};

/// How one (profile, language) is measured.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Backend {
    /// A paper tool read from the tree (radon, complexipy, lizard, gocognit,
    /// go-halstead, rust-code-analysis): the per-metric walkers.
    Tree(&'static TreeTables),
    /// lizard 1.24.3's token reader (the paper profile's C++, Ruby, PHP).
    Lizard(&'static LizardTables),
    /// The canonical profile's one-pass walker.
    Canonical(&'static CanonRules),
}

impl Backend {
    /// The backend of `profile` for `lang`.
    pub(crate) fn of(profile: Profile, lang: Lang) -> Backend {
        match profile {
            Profile::Canonical => Backend::Canonical(codethread_rules::canonical::rules(lang)),
            Profile::Paper => match paper(lang) {
                PaperTables::Tree(t) => Backend::Tree(t),
                PaperTables::Lizard(l) => Backend::Lizard(l),
            },
        }
    }

    /// The grammar the backend's tool reads `lang` with (the language's
    /// own, except C under the paper profile: rust-code-analysis reads C
    /// with a C++ grammar).
    pub(crate) fn grammar(self, lang: Lang) -> Lang {
        match self {
            Backend::Tree(t) => t.functions.grammar.unwrap_or(lang),
            Backend::Lizard(_) | Backend::Canonical(_) => lang,
        }
    }
}

/// Cyclomatic complexity of one function under `ctx.profile`.
///
/// `None` for the functions the profile's tool does not report (radon: the
/// methods of nested and local classes, docs/metrics.md), and under the
/// paper profile for C++, Ruby and PHP, whose CCN is lizard's token
/// reader's (the engine gives it; a tree walker cannot).
pub fn cyclomatic(ctx: &FnCtx<'_>) -> Option<u32> {
    match Backend::of(ctx.profile, ctx.file.lang) {
        Backend::Tree(t) => {
            crate::cyclomatic::cyclomatic_memo_ctx(ctx, t.cyclomatic, &mut Default::default())
        }
        Backend::Lizard(_) => None,
        Backend::Canonical(t) => Some(canonical::own_values(ctx, t).cyclomatic),
    }
}

/// Cognitive complexity of one function under `ctx.profile`; `None` when the
/// profile's tool gives no value for this kind of function (complexipy for
/// nested defs, gocognit for Go function literals; the paper profile's C++,
/// Ruby and PHP). Under the canonical profile the value depends on the
/// whole file (nested functions, recursion cycles), so the file is measured.
pub fn cognitive(ctx: &FnCtx<'_>) -> Option<u32> {
    match Backend::of(ctx.profile, ctx.file.lang) {
        Backend::Tree(t) => {
            crate::cognitive::cognitive_memo_ctx(ctx, t.cognitive, &mut Default::default())
        }
        Backend::Lizard(_) => None,
        Backend::Canonical(t) => Some(canonical::values_ctx(ctx, t).cognitive),
    }
}

/// Halstead counts of one function under `ctx.profile` (`None` where the
/// profile's tool reports none: rust-code-analysis's unnamed spaces, the
/// paper profile's C++, Ruby and PHP).
pub fn halstead(ctx: &FnCtx<'_>) -> Option<Halstead> {
    match Backend::of(ctx.profile, ctx.file.lang) {
        Backend::Tree(t) => crate::halstead::halstead_node(t.halstead, &ctx.file.source, ctx.node),
        Backend::Lizard(_) => None,
        Backend::Canonical(t) => Some(canonical::own_values(ctx, t).halstead),
    }
}

/// LLOC of one function; `None` when the profile's tool does not report it.
///
/// - Python (paper): radon `raw.analyze(...).lloc` over the function's own
///   lines: one per logical line, `;` splits, a piece with a `:` that is not
///   its last token counts 2, comments and blank lines 0.
/// - Go (paper): lizard NLOC, lines holding code, signature included, lines of
///   nested func literals excluded (they are reported on their own).
/// - JavaScript / TypeScript / Rust / Java / C (paper): rust-code-analysis
///   `loc.lloc`, statements by node kind, nested functions included.
/// - C++, Ruby, PHP (paper): `None` (lizard's CCN only).
pub fn lloc(ctx: &FnCtx<'_>) -> Option<u32> {
    match Backend::of(ctx.profile, ctx.file.lang) {
        Backend::Tree(t) => Some(crate::lloc::lloc_with(ctx, &t.lloc)),
        Backend::Lizard(_) => None,
        Backend::Canonical(t) => Some(canonical::own_values(ctx, t).lloc),
    }
}
