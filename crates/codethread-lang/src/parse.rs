//! Parsing bytes into a tree-sitter tree. Parsing never fails on syntax
//! errors: the recovered tree is returned with a count of ERROR/MISSING nodes.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser, Tree};

use crate::{Lang, LangError};

/// A parsed source file: its bytes, language, tree and error count.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The language the file is measured and named as.
    pub lang: Lang,
    /// The grammar the tree was parsed with: `lang` itself, except when a
    /// caller chose another grammar for it with [`parse_with_grammar`]
    /// (rust-code-analysis parses C with its C++ grammar). Node kind ids of
    /// `tree` belong to this grammar.
    pub grammar: Lang,
    /// The exact bytes that were parsed (any encoding; never assumed UTF-8).
    pub source: Vec<u8>,
    /// The concrete syntax tree.
    pub tree: Tree,
    /// Number of ERROR and MISSING nodes in the tree (0 for a clean parse).
    pub parse_errors: usize,
}

impl ParsedFile {
    /// The root node.
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The bytes a node covers.
    pub fn text(&self, node: impl crate::ByteSpan) -> &[u8] {
        self.source.get(node.byte_span()).unwrap_or(&[])
    }

    /// The text of a node as a string (lossy for non-UTF-8 bytes).
    pub fn text_lossy(&self, node: impl crate::ByteSpan) -> std::borrow::Cow<'_, str> {
        String::from_utf8_lossy(self.text(node))
    }
}

thread_local! {
    static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::new());
}

/// Parse `source` as `lang`.
///
/// Uses one cached parser per language per thread, so it is cheap to call from
/// rayon workers. Syntax errors are not errors: see [`ParsedFile::parse_errors`].
///
/// # Errors
/// [`LangError::Grammar`] if the grammar cannot be loaded (ABI mismatch) and
/// [`LangError::ParseAborted`] if tree-sitter returns no tree.
pub fn parse(lang: Lang, source: impl Into<Vec<u8>>) -> Result<ParsedFile, LangError> {
    parse_with_grammar(lang, lang, source)
}

/// Parse `source` with the grammar of `grammar` and label the result as
/// `lang` ([`ParsedFile::lang`] is `lang`, [`ParsedFile::grammar`] is
/// `grammar`): for tools that read one language with another language's
/// grammar. `parse_with_grammar(l, l, s)` is [`parse`].
///
/// # Errors
/// As [`parse`].
pub fn parse_with_grammar(
    lang: Lang,
    grammar: Lang,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    let source = source.into();
    let tree = PARSERS.with(|cell| -> Result<Tree, LangError> {
        let mut map = cell.borrow_mut();
        let lang = grammar;
        let parser = match map.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = Parser::new();
                p.set_language(&lang.ts_language())
                    .map_err(|e| LangError::Grammar {
                        lang,
                        message: e.to_string(),
                    })?;
                v.insert(p)
            }
        };
        parser.reset();
        parser
            .parse(&source, None)
            .ok_or(LangError::ParseAborted { lang })
    })?;
    let parse_errors = count_errors(tree.root_node());
    Ok(ParsedFile {
        lang,
        grammar,
        source,
        tree,
        parse_errors,
    })
}

/// Parse a file's bytes choosing the language from its path.
///
/// # Errors
/// [`LangError::Unsupported`] when the extension is not a supported language,
/// otherwise as [`parse`].
pub fn parse_path(
    path: &std::path::Path,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    let lang = Lang::from_path(path).ok_or_else(|| LangError::Unsupported {
        path: path.to_path_buf(),
    })?;
    parse(lang, source)
}

/// Count ERROR and MISSING nodes below (and including) `root`, iteratively.
pub fn count_errors(root: Node<'_>) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        // Only descend into subtrees that contain errors.
        if node.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}

/// Parse a file choosing the grammar from its path; for JavaScript files
/// (`.js`, `.mjs`, `.cjs`, `.jsx`) also try the TypeScript and TSX grammars
/// and keep the parse with the fewest ERROR/MISSING nodes (Flow-typed sources
/// parse cleanly only as TypeScript). Ties keep the JavaScript parse. A `.h`
/// file is C++ when its text has a C++-only construct ([`Lang::for_source`]
/// without a hint).
///
/// # Errors
/// As [`parse_path`].
pub fn parse_path_best(
    path: &std::path::Path,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    parse_path_hinted(path, source, None)
}

/// [`parse_path_best`] with a repository-level language `hint` (an
/// instance's `language` field, a `--lang-hint` option): the language comes
/// from [`Lang::for_source`] (with hint C++, every C-family file is C++).
/// A C or C++ file with errors is also parsed with its attribute-like
/// macros masked ([`crate::tolerant`]); the tree with fewer errors is kept,
/// over the original bytes.
///
/// # Errors
/// As [`parse_path`].
pub fn parse_path_hinted(
    path: &std::path::Path,
    source: impl Into<Vec<u8>>,
    hint: Option<Lang>,
) -> Result<ParsedFile, LangError> {
    let source = source.into();
    let lang = Lang::for_source(path, &source, hint).ok_or_else(|| LangError::Unsupported {
        path: path.to_path_buf(),
    })?;
    let first = parse(lang, source)?;
    if first.parse_errors == 0 {
        return Ok(first);
    }
    let mut best = first;
    for &lang in best.lang.fallback_grammars() {
        let alt = parse(lang, best.source.clone())?;
        if alt.parse_errors < best.parse_errors {
            best = alt;
        }
    }
    Ok(crate::macros::tolerant(best))
}
