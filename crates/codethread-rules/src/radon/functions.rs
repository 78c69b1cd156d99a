//! The functions radon (and complexipy) report for Python, and how they are
//! named and classified.

use crate::functions::{FunctionSet, Kinds, Naming, Nesting};

pub static PYTHON: FunctionSet = FunctionSet {
    node_kinds: &["function_definition"],
    naming: Naming::Radon,
    kinds: Kinds::PythonAst,
    // radon CC excludes closures; complexipy folds them; the span metrics
    // (Halstead, LLOC) cover the nested defs' lines.
    nesting: Nesting {
        cyclomatic: false,
        cognitive: true,
        halstead: true,
        lloc: true,
    },
    require_body: false,
    bodiless: false,
    grammar: None,
};
