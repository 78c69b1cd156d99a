//! Go, profile `paper`: the paper's go-halstead tool.
//!
//! It runs Go's scanner over the bytes from the body's `{` up to (not
//! including) its `}`: every operator, delimiter or keyword token is an
//! operator keyed by its text, including the semicolons Go inserts
//! automatically at line ends (and at the end of the range); identifiers and
//! literals are operands keyed by their text. Comments are skipped. Function
//! literals get no record of their own (they are counted inside the
//! enclosing declaration).

use crate::halstead::{AutoSemicolon, HalsteadRules, Mode, TokenRules};

pub static PAPER: HalsteadRules = HalsteadRules {
    null_for: &["func_literal"],
    mode: Mode::Tokens(&TOKENS),
};

static TOKENS: TokenRules = TokenRules {
    body_field: "body",
    close_kind: "}",
    atomic_kinds: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ],
    operand_kinds: &[
        // identifiers (Go's scanner: IDENT, which includes nil/true/false/iota/_)
        "identifier",
        "field_identifier",
        "type_identifier",
        "package_identifier",
        "label_name",
        "blank_identifier",
        "nil",
        "true",
        "false",
        "iota",
        // literals
        "int_literal",
        "float_literal",
        "imaginary_literal",
        "rune_literal",
        "interpreted_string_literal",
        "raw_string_literal",
    ],
    ignored_kinds: &["comment"],
    strip_cr_kinds: &["raw_string_literal"],
    auto_semicolon: Some(AutoSemicolon {
        key: ";",
        after_texts: &[
            "break",
            "continue",
            "fallthrough",
            "return",
            "++",
            "--",
            ")",
            "]",
            "}",
        ],
    }),
};
