//! rust-code-analysis 0.0.25 `loc.lloc`: Rust, JavaScript, TypeScript, TSX,
//! Java and C.

use crate::lloc::{Conditional, FieldStatement, Statements};

pub static JS_RCA: Statements = Statements {
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

pub static RUST_RCA: Statements = Statements {
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
pub static JAVA_RCA: Statements = Statements {
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
pub static C_RCA: Statements = Statements {
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
