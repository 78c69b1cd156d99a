//! LLOC rule tables, per (profile, language).
//!
//! Each table parameterizes one of three generic counters in `lloc.rs`:
//! - [`LlocRule::LogicalLines`]: radon's token-based logical lines (Python).
//! - [`LlocRule::CodeLines`]: lizard's NLOC, lines holding code (Go).
//! - [`LlocRule::Statements`]: rust-code-analysis's statement count by node
//!   kind (JavaScript, TypeScript, Rust).
//!
//! A new language adds tables here and names them in its
//! [`super::paper`] row; no walker
//! changes.

/// radon `raw.analyze` logical lines, reproduced from tree-sitter leaves.
#[derive(Debug)]
pub(crate) struct LogicalLines {
    /// Node kinds read as one token (the tokenizer's STRING).
    pub atomic: &'static [&'static str],
    /// Comment kinds (ignored, as radon drops COMMENT tokens).
    pub comments: &'static [&'static str],
    /// Backslash line-continuation kinds (join the next line).
    pub continuations: &'static [&'static str],
    /// Bracket openers and closers (a logical line ends at depth 0).
    pub open: &'static [&'static str],
    /// Bracket closers.
    pub close: &'static [&'static str],
    /// The token splitting a logical line into pieces (`;`).
    pub split: &'static str,
    /// The token making a piece count 2 unless it ends the piece (`:`).
    pub colon: &'static str,
}

/// lizard NLOC: lines of the function that hold a token, signature included;
/// lines of nested functions belong to them.
#[derive(Debug)]
pub(crate) struct CodeLines {
    /// Node kinds read as one token (strings, runes).
    pub atomic: &'static [&'static str],
    /// Comment kinds (not code).
    pub comments: &'static [&'static str],
    /// Nested function kinds lizard reports separately (their lines are theirs).
    pub nested: &'static [&'static str],
    /// lizard ends a function at the closing brace of the first `{` after
    /// its parameters: when the field (the result type) holds a node of this
    /// kind (`struct{...}`), the function's lines stop at that node's end.
    pub truncate_at: Option<(&'static str, &'static str)>,
}

/// A node kind counted only when no ancestor of `ancestors` lies between it
/// and the nearest `stop` ancestor (rust-code-analysis's
/// `count_specific_ancestors`).
#[derive(Debug)]
pub(crate) struct Conditional {
    /// The counted kinds.
    pub kinds: &'static [&'static str],
    /// Ancestors that suppress the count.
    pub ancestors: &'static [&'static str],
    /// Where the ancestor search stops.
    pub stop: &'static [&'static str],
}

/// A field of a node that counts 1 unless it holds one of `unless` (the old
/// grammar wrapped it in a statement node, today's grammar does not).
#[derive(Debug)]
pub(crate) struct FieldStatement {
    /// Parent node kind.
    pub parent: &'static str,
    /// Field names.
    pub fields: &'static [&'static str],
    /// Kinds that are counted by themselves (or not at all).
    pub unless: &'static [&'static str],
}

/// rust-code-analysis `loc.lloc`: statements by node kind, nested functions
/// included.
#[derive(Debug)]
pub(crate) struct Statements {
    /// Kinds that count 1 each.
    pub kinds: &'static [&'static str],
    /// Kinds that count 1 under an ancestor condition.
    pub conditional: Option<Conditional>,
    /// Fields that count as statements (grammar-version differences).
    pub fields: &'static [FieldStatement],
}

/// How a profile counts LLOC for a language.
#[derive(Debug)]
pub(crate) enum LlocRule {
    /// Token-based logical lines (radon raw).
    LogicalLines(&'static LogicalLines),
    /// Lines holding code (lizard NLOC).
    CodeLines(&'static CodeLines),
    /// Statement count (rust-code-analysis).
    Statements(&'static Statements),
}

pub(crate) static PYTHON_RADON: LogicalLines = LogicalLines {
    atomic: &["string"],
    comments: &["comment"],
    continuations: &["line_continuation"],
    open: &["(", "[", "{"],
    close: &[")", "]", "}"],
    split: ";",
    colon: ":",
};

pub(crate) static GO_LIZARD: CodeLines = CodeLines {
    atomic: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ],
    comments: &["comment"],
    nested: &["func_literal"],
    truncate_at: Some(("result", "struct_type")),
};

pub(crate) static JS_RCA: Statements = Statements {
    kinds: &[
        "expression_statement",
        "export_statement",
        "import_statement",
        "statement_block",
        "if_statement",
        "switch_statement",
        "for_statement",
        "for_in_statement",
        "while_statement",
        "do_statement",
        "try_statement",
        "with_statement",
        "break_statement",
        "continue_statement",
        "debugger_statement",
        "return_statement",
        "throw_statement",
        "empty_statement",
        "statement_identifier",
    ],
    conditional: None,
    // rust-code-analysis 0.0.25's grammar wrapped a `for (init; cond; ...)`
    // expression initializer and condition in `expression_statement`.
    fields: &[FieldStatement {
        parent: "for_statement",
        fields: &["initializer", "condition"],
        unless: &[
            "lexical_declaration",
            "variable_declaration",
            "empty_statement",
            "expression_statement",
        ],
    }],
};

pub(crate) static RUST_RCA: Statements = Statements {
    kinds: &[
        "expression_statement",
        "empty_statement",
        "let_declaration",
        "assignment_expression",
        "compound_assignment_expr",
    ],
    conditional: None,
    fields: &[],
};

/// rust-code-analysis 0.0.25 `loc.lloc` for Java: statements, and local
/// variable declarations outside a `for` header. Try-with-resources,
/// `synchronized`, labeled statements and blocks count 0.
pub(crate) static JAVA_RCA: Statements = Statements {
    kinds: &[
        "assert_statement",
        "break_statement",
        "continue_statement",
        "do_statement",
        "enhanced_for_statement",
        "expression_statement",
        "for_statement",
        "if_statement",
        "return_statement",
        "switch_expression",
        "throw_statement",
        "try_statement",
        "while_statement",
    ],
    conditional: Some(Conditional {
        kinds: &["local_variable_declaration"],
        ancestors: &["for_statement"],
        stop: &["block"],
    }),
    fields: &[],
};

/// rust-code-analysis 0.0.25 `loc.lloc` for C, read with its C++ grammar:
/// statements, each `case`/`default` label, and the label identifier of a
/// `goto` or labeled statement (so both count 2); declarations outside an
/// `if`/`while`/`for` header. `do … while`, range-for and blocks count 0.
/// An `alignas(N)` qualifier counts 1 (the tool's grammar read it as a call
/// statement).
pub(crate) static C_RCA: Statements = Statements {
    kinds: &[
        "while_statement",
        "switch_statement",
        "case_statement",
        "if_statement",
        "for_statement",
        "return_statement",
        "break_statement",
        "continue_statement",
        "goto_statement",
        "throw_statement",
        "try_statement",
        "expression_statement",
        "labeled_statement",
        "statement_identifier",
        // The tool's grammar had no `alignas`: `alignas(32) T x;` was a call
        // statement `alignas(32)` (its `;` missing) before the declaration.
        "alignas_qualifier",
    ],
    conditional: Some(Conditional {
        kinds: &["declaration"],
        ancestors: &["while_statement", "for_statement", "if_statement"],
        stop: &["compound_statement"],
    }),
    fields: &[],
};
