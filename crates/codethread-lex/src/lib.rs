//! # codethread-lex
//!
//! Grammar-free lexical passes over source bytes, each one linear scan
//! with an explicit stack, driven by per-language rules as data (the rows
//! live in `codethread-lang`, the only crate that knows languages):
//!
//! - [`literals`]: where a file's multi-line literals and comments are, so
//!   that a large file is cut into chunks only where the lexer is at the
//!   top level;
//! - [`preproc`]: the C and C++ preprocessor as tree-sitter needs it: the
//!   same-length macro mask that lets the grammar parse
//!   `FMT_CONSTEXPR auto f()`, the preprocessor conditions open at a byte,
//!   test-only branches, the directive lines of a file;
//! - [`ppexpr`]: `#if` expressions evaluated over `defined(…)`, integers
//!   and the C operators.
//!
//! ```
//! use codethread_lex::literals::{q, Chars, LexRules, Literals, Regexes};
//! // A language with `#` comments and one quote that may span lines.
//! const QUOTES: &[codethread_lex::literals::Quote] = &[q(b"\"", true)];
//! let rules = LexRules {
//!     line_comments: &[b"#"],
//!     block_comment: None,
//!     quotes: QUOTES,
//!     chars: Chars::None,
//!     regexes: Regexes::None,
//!     cpp_raw: false,
//!     rust_raw: false,
//!     continued_line_comments: false,
//!     ruby: false,
//! };
//! let src = b"a = \"x\ny\" # c\nb = 1\n";
//! let lits = Literals::scan(&rules, src);
//! assert_eq!(lits.spans(), &[(4, 9)]);
//! assert!(lits.inside(6) && !lits.inside(14));
//!
//! assert_eq!(codethread_lex::ppexpr::eval(b"defined(A) && !defined(B)", &|n| n == b"B"), None);
//! ```

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod literals;
pub mod ppexpr;
pub mod preproc;
