//! Parsing a file: its language from the path, the bytes and a repository
//! hint, the fallback grammars, and for C and C++ the macro mask. Above
//! both `parse` (one grammar, one tree) and `macros` (which re-parses
//! masked bytes), so neither needs the other's caller.

use crate::parse::{parse_lang, LangParseOptions, ParseBudget, ParsedFile};
use crate::{Lang, LangError};

/// How [`parse_file`] reads a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseOptions {
    /// A repository-level language (an instance's `language` field, a
    /// `--lang-hint` option): the language comes from [`Lang::for_source`]
    /// (with hint C++, every C-family file is C++).
    pub hint: Option<Lang>,
    /// The budget of each grammar tried (a fallback grammar that exceeds it
    /// is not chosen).
    pub budget: ParseBudget,
}

impl ParseOptions {
    /// Sets [`ParseOptions::hint`].
    pub fn hint(mut self, hint: Option<Lang>) -> Self {
        self.hint = hint;
        self
    }

    /// Sets [`ParseOptions::budget`].
    pub fn budget(mut self, budget: ParseBudget) -> Self {
        self.budget = budget;
        self
    }
}

impl ParseOptions {
    /// The default options with a language `hint`.
    pub fn with_hint(hint: Option<Lang>) -> Self {
        ParseOptions {
            hint,
            ..ParseOptions::default()
        }
    }
}

/// Parse a file choosing the grammar from its path, its bytes and
/// [`ParseOptions::hint`] ([`Lang::for_source`]: a `.h` file is C++ when its
/// text has a C++-only construct, or with hint C++). A file with errors is
/// also read with the language's fallback grammars (JavaScript files: the
/// TypeScript and TSX grammars, as Flow-typed sources parse cleanly only as
/// TypeScript) and the parse with the fewest ERROR/MISSING nodes is kept
/// (ties keep the first); a C or C++ file with errors is then also parsed
/// with its attribute-like macros masked ([`crate::tolerant`]) and the tree
/// with fewer errors is kept, over the original bytes.
///
/// # Errors
/// As [`crate::parse_path`].
pub fn parse_file(
    path: &std::path::Path,
    source: impl Into<Vec<u8>>,
    options: &ParseOptions,
) -> Result<ParsedFile, LangError> {
    let budget = &LangParseOptions::with_budget(options.budget);
    let source = source.into();
    let lang =
        Lang::for_source(path, &source, options.hint).ok_or_else(|| LangError::Unsupported {
            path: path.to_path_buf(),
        })?;
    let first = parse_lang(lang, source, budget)?;
    if first.parse_errors == 0 {
        return Ok(first);
    }
    let mut best = first;
    for &lang in best.lang.fallback_grammars() {
        let alt = match parse_lang(lang, best.source.clone(), budget) {
            Ok(alt) => alt,
            Err(LangError::Budget { .. }) => continue,
            Err(e) => return Err(e),
        };
        if alt.parse_errors < best.parse_errors {
            best = alt;
        }
    }
    Ok(crate::macros::tolerant(best))
}
