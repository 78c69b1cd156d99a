//! # codethread-lang
//!
//! The one crate of codethread that knows tree-sitter grammars. It answers one
//! question well: *where is every function, and what are its parts?*
//!
//! - [`Lang`]: Python, Go, Rust, JavaScript, TypeScript, TSX, Java, C, C++,
//!   Ruby and PHP, detected from a file's extension ([`Lang::for_source`]
//!   settles `.h` between C and C++ by a repository hint or the content).
//! - [`parse`]: bytes (any encoding, CRLF, tabs) to a tree-sitter tree. Parsing
//!   never fails on syntax errors: the recovered tree comes back with
//!   [`ParsedFile::parse_errors`], the number of ERROR/MISSING nodes.
//! - [`index_functions`]: every function, method, closure, lambda, arrow and
//!   func literal, with its qualified name (`Class.method`, `outer.inner`, Go
//!   `Type.method` from the receiver, Rust `Type.method` from the impl, JS names
//!   from classes, variables, object keys and assignment targets), kind, parent
//!   and the spans of its whole definition, own node, header and body.
//!
//! - [`FlatTree`]: a parsed tree copied into one pre-order array in a single
//!   cursor walk. tree-sitter pays for hidden-node resolution on every step of
//!   every walk; code that visits a file more than once (the index, then the
//!   metrics walkers) flattens it once and walks the array instead:
//!   [`FlatNode`] answers like `tree_sitter::Node` with O(1) parents and
//!   contiguous subtrees. [`index_flat`] indexes an already flattened tree.
//!
//! - [`io`]: the one place that reads and writes files for every crate: only
//!   regular files, under a size limit, and atomic writes that never follow a
//!   symbolic link.
//!
//! Per-language knowledge lives in data tables (`spec.rs`) read by one generic,
//! iterative walker: deeply nested code cannot overflow the stack.
//!
//! ```
//! use codethread_lang::{index_functions, parse, FunctionKind, Lang};
//!
//! let src = b"class A:\n    @staticmethod\n    def f(x):\n        return x\n";
//! let file = parse(Lang::Python, &src[..]).unwrap();
//! assert_eq!(file.parse_errors, 0);
//! let funcs = index_functions(&file);
//! assert_eq!(funcs[0].qualname, "A.f");
//! assert_eq!(funcs[0].kind, FunctionKind::Method);
//! assert_eq!((funcs[0].span.start_line, funcs[0].node.start_line), (2, 3));
//! ```

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// Safe file input and output for every crate (the `codethread-io` crate,
/// re-exported: `codethread_lang::io::read_regular`, ...).
pub use codethread_io as io;

mod cfamily;
mod chunk;
mod file;
mod files;
mod flat;
mod generated;
mod index;
mod info;
mod kinds;
mod lang;
mod literals;
mod macros;
mod parse;
mod spec;
mod testcode;
mod view;
mod walk;

use std::path::PathBuf;

pub use cfamily::{c_family_hint, headers_hint, looks_like_cpp, tree_hint};
pub use chunk::{Chunk, ChunkOptions, ChunkParse, ChunkPlan};
pub use codethread_lex::literals::Literals;
pub use codethread_lex::preproc::{
    after_group_tail, directive_lines, in_test_block, open_conditions, CallClass, MacroRules,
};
pub use file::{parse_file, ParseOptions};
pub use files::{bytes_label, path_label, source_files, WalkError};
pub use flat::{ByteSpan, Children, FlatCursor, FlatNode, FlatTree};
pub use generated::{generated_banner, BANNER_BYTES, GENERATED_MARKERS};
pub use index::{
    index_flat, index_flat_with, index_functions, join_indexes, occurrences, target_id_for,
    Function, FunctionKind, IndexJoin, IndexOptions, PairingExtra, PairingKey, PairingKeyRef, Span,
    MAX_QUALNAME_SCOPES,
};
pub use info::{Family, LangInfo, PerLang};
pub use kinds::kind_of;
pub use lang::Lang;
pub use literals::scan as scan_literals;
pub use macros::{
    alternative_spans, macro_call_spans, macro_call_spans_in, macro_mask_spans,
    macro_mask_spans_in, macro_rules, mask_macros, mask_macros_in, tolerant,
};
pub use parse::{
    code_end, estimate_tokens, parse, parse_lang, parse_path, parses_on_thread, BudgetLimit,
    LangParseOptions, ParseBudget, ParsedFile,
};
pub use testcode::{test_attribute_at, TestAttributes};
pub use tree_sitter;
pub use walk::{count_errors, first_error, preorder, Preorder};

/// Errors of this crate. Syntax errors are not errors (see
/// [`ParsedFile::parse_errors`]).
#[derive(Debug, thiserror::Error)]
pub enum LangError {
    /// The grammar could not be loaded into the parser (ABI mismatch).
    #[error("cannot load the {lang} grammar: {message}")]
    Grammar {
        /// The language.
        lang: Lang,
        /// tree-sitter's message.
        message: String,
    },
    /// This build of `codethread-lang` does not hold the language's grammar:
    /// its cargo feature is off.
    #[error(
        "the {lang} grammar is not built in: enable the `{feature}` feature of codethread-lang"
    )]
    GrammarNotBuilt {
        /// The language.
        lang: Lang,
        /// The cargo feature that builds it.
        feature: &'static str,
    },
    /// tree-sitter returned no tree (cancelled or timed out).
    #[error("tree-sitter returned no tree for {lang} source")]
    ParseAborted {
        /// The language.
        lang: Lang,
    },
    /// The parse exceeded its [`ParseBudget`]: the file is too costly for
    /// tree-sitter (quadratic error recovery, or a tree far larger than the
    /// file). Callers report it for the file and go on with the others.
    #[error("{lang} parse of {bytes} bytes exceeds the parse budget of {allowed} {limit}")]
    Budget {
        /// The grammar.
        lang: Lang,
        /// The input's size.
        bytes: usize,
        /// The limit exceeded.
        limit: BudgetLimit,
        /// What the budget allowed for this input (in the limit's unit).
        allowed: u64,
    },
    /// The file's extension is not a supported language.
    #[error("{}: unsupported file type", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
    },
}
