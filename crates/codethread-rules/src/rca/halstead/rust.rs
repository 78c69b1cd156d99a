//! Rust, profile `paper`: rust-code-analysis 0.0.25.
//!
//! Every node of the function's subtree (nested closures included) is
//! classified by kind: operators are keyed by node kind (so `(`, `[`, `{` are
//! the operators `()`, `[]`, `{}`, and every primitive type is the one
//! operator `primitive_type`), operands by their exact source text.
//! `else`, `break`, `in`, `as`, `::`, `)`, `]`, `}` are not counted; field and
//! type identifiers are not operands. The tool's grammar kept comments as one
//! token and did not expose the punctuation inside macro token trees.

use crate::halstead::{HalsteadRules, HiddenIn, Mode, NodeRules};

pub static PAPER: HalsteadRules = HalsteadRules {
    null_for: &[],
    mode: Mode::Nodes(&RUST),
};

static RUST: NodeRules = NodeRules {
    operators: &[
        ("(", false, "()"),
        ("{", false, "{}"),
        ("[", false, "[]"),
        ("=>", false, "=>"),
        ("+", false, "+"),
        ("*", false, "*"),
        ("async", false, "async"),
        ("await", false, "await"),
        ("continue", false, "continue"),
        ("for", false, "for"),
        ("if", false, "if"),
        ("let", false, "let"),
        ("loop", false, "loop"),
        ("match", false, "match"),
        ("return", false, "return"),
        ("unsafe", false, "unsafe"),
        ("while", false, "while"),
        ("!", false, "!"),
        ("=", false, "="),
        (",", false, ","),
        ("->", false, "->"),
        ("?", false, "?"),
        ("<", false, "<"),
        (">", false, ">"),
        ("&", false, "&"),
        ("mutable_specifier", true, "mut"),
        ("..", false, ".."),
        ("..=", false, "..="),
        ("-", false, "-"),
        ("&&", false, "&&"),
        ("||", false, "||"),
        ("|", false, "|"),
        ("^", false, "^"),
        ("==", false, "=="),
        ("!=", false, "!="),
        ("<=", false, "<="),
        (">=", false, ">="),
        ("<<", false, "<<"),
        (">>", false, ">>"),
        ("/", false, "/"),
        ("%", false, "%"),
        ("+=", false, "+="),
        ("-=", false, "-="),
        ("*=", false, "*="),
        ("/=", false, "/="),
        ("%=", false, "%="),
        ("&=", false, "&="),
        ("|=", false, "|="),
        ("^=", false, "^="),
        ("<<=", false, "<<="),
        (">>=", false, ">>="),
        ("move", false, "move"),
        (".", false, "."),
        ("primitive_type", true, "primitive_type"),
        ("fn", false, "fn"),
        (";", false, ";"),
    ],
    operands: &[
        ("identifier", true),
        ("string_literal", true),
        ("raw_string_literal", true),
        ("integer_literal", true),
        ("float_literal", true),
        ("boolean_literal", true),
        ("self", true),
        ("char_literal", true),
        ("_", false),
    ],
    opaque: &[("line_comment", true), ("block_comment", true)],
    hidden_in: &[
        HiddenIn {
            parent: "token_tree",
            texts: TOKEN_TREE_PUNCTUATION,
            keep_last: &[],
        },
        HiddenIn {
            parent: "token_tree_pattern",
            texts: TOKEN_TREE_PUNCTUATION,
            keep_last: &[],
        },
        HiddenIn {
            parent: "token_repetition",
            texts: TOKEN_TREE_PUNCTUATION,
            keep_last: REPETITION_OPERATORS,
        },
        HiddenIn {
            parent: "token_repetition_pattern",
            texts: TOKEN_TREE_PUNCTUATION,
            keep_last: REPETITION_OPERATORS,
        },
    ],
    splits: &[],
    extra_in: &[],
    // The punctuation regex of the tool's token trees included `_`.
    hidden_glue: b"_",
    rereads: &[],
    by_text: &[],
    alone_macro: None,
};

/// The operator closing a macro repetition: a visible token in the tool's grammar.
static REPETITION_OPERATORS: &[&str] = &["+", "*", "?"];

/// Punctuation inside macro token trees: one invisible token in the tool's grammar.
static TOKEN_TREE_PUNCTUATION: &[&str] = &[
    "+", "-", "*", "/", "%", "^", "!", "&", "|", "&&", "||", "<<", ">>", "+=", "-=", "*=", "/=",
    "%=", "^=", "&=", "|=", "<<=", ">>=", "=", "==", "!=", ">", "<", ">=", "<=", "@", "_", ".",
    "..", "...", "..=", ",", ";", ":", "::", "->", "=>", "#", "?", "~",
];
