//! The naming parse of files the paper profile measures with lizard's
//! token reader: the tree only names the records (`qualname`, `target_id`).

use codethread_lang::{Lang, LangError, ParseBudget, ParsedFile};

/// The default budget of the naming parse
/// ([`crate::AnalyzeOptions::naming_budget`]): 16 tree-sitter operations
/// and 32 bytes read by the lexer per source byte (each with a floor of
/// 10^6), the default token and time limits. Every file of the fmt, jekyll
/// and carbon corpora parses within it (`tests/it/join_targets.rs`); error
/// recovery on adversarial input (a line of a million unterminated strings)
/// is superlinear, and lizard's token reader is linear, so the names must
/// not cost more than the measurement.
pub const NAMING_BUDGET: ParseBudget = ParseBudget {
    ops_per_byte: 16,
    min_ops: 1_000_000,
    reads_per_byte: 32,
    min_reads: 1_000_000,
    tokens_per_100_bytes: 75,
    min_tokens: 100_000,
    time_per_mib: std::time::Duration::from_secs(10),
    min_time: std::time::Duration::from_secs(10),
};

/// Why a record has no target id: its file was not parsed within the
/// naming budget.
pub(crate) const NO_ID_PARSE_BUDGET: &str = "no target_id: the file could not be parsed within the naming budget (AnalyzeOptions::naming_budget); names are lizard's";

/// Why a record has no target id: its file could not be parsed at all (a
/// grammar left out of the build).
pub(crate) const NO_ID_PARSE_FAILED: &str =
    "no target_id: the file could not be parsed (grammar not available); names are lizard's";

/// `source` (already cut at the end of its code) parsed as `chain targets`
/// parses a C++, Ruby or PHP file (these languages have no fallback
/// grammar), under `budget`, with the macro mask where it removes errors
/// (lizard's values do not depend on this tree).
///
/// # Errors
/// As [`codethread_lang::parse_lang`]: [`LangError::Budget`] when the
/// parse exceeds `budget`.
pub(crate) fn parse_for_names(
    lang: Lang,
    source: &[u8],
    budget: &ParseBudget,
) -> Result<ParsedFile, LangError> {
    codethread_lang::parse_lang(
        lang,
        source.to_vec(),
        &codethread_lang::LangParseOptions::with_budget(*budget),
    )
    .map(codethread_lang::tolerant)
}
