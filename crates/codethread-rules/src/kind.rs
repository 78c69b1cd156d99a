//! The kind of a function record.

use serde::{Deserialize, Serialize};

/// The kind of a function record, as the profile's reference tool names it
/// (serialized in snake case: `function`, `method`, `closure`,
/// `func_literal`, `nested`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordKind {
    /// A function (every record of rust-code-analysis and lizard but Go's
    /// methods and literals; a top-level function otherwise).
    Function,
    /// A method: directly in a class (Python, canonical) or a Go method
    /// declaration.
    Method,
    /// A Python function defined inside another function (the Python
    /// reference's `closure`).
    Closure,
    /// A Go function literal (lizard's separate record).
    FuncLiteral,
    /// Canonical profile: a function inside another function.
    Nested,
}

impl RecordKind {
    /// The name the reference tool gives it (`function`, `method`,
    /// `closure`, `func_literal`, `nested`).
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Function => "function",
            RecordKind::Method => "method",
            RecordKind::Closure => "closure",
            RecordKind::FuncLiteral => "func_literal",
            RecordKind::Nested => "nested",
        }
    }
}

impl std::fmt::Display for RecordKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<codethread_lang::FunctionKind> for RecordKind {
    fn from(k: codethread_lang::FunctionKind) -> Self {
        match k {
            codethread_lang::FunctionKind::Function => RecordKind::Function,
            codethread_lang::FunctionKind::Method => RecordKind::Method,
            codethread_lang::FunctionKind::Nested => RecordKind::Nested,
        }
    }
}
