//! The supported languages and how files map to them.

use serde::{Deserialize, Serialize};

/// A language (grammar) codethread can parse.
///
/// JavaScript covers `.js`, `.mjs`, `.cjs` and `.jsx`; TypeScript covers `.ts`,
/// `.mts` and `.cts`; `.tsx` has its own grammar. `.h` (and `.c` in a C++
/// repository) is ambiguous between C and C++: see [`Lang::for_source`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Python 3 (tree-sitter-python).
    Python,
    /// Go (tree-sitter-go).
    Go,
    /// Rust (tree-sitter-rust).
    Rust,
    /// JavaScript, including JSX (tree-sitter-javascript).
    JavaScript,
    /// TypeScript without JSX (tree-sitter-typescript).
    TypeScript,
    /// TypeScript with JSX (tree-sitter-typescript's tsx grammar).
    Tsx,
    /// Java (tree-sitter-java).
    Java,
    /// C (tree-sitter-c).
    C,
    /// C++ (tree-sitter-cpp).
    Cpp,
    /// Ruby (tree-sitter-ruby).
    Ruby,
    /// PHP, text outside `<?php` allowed (tree-sitter-php's `LANGUAGE_PHP`).
    Php,
}

impl Lang {
    /// Every supported language.
    pub const ALL: [Lang; Lang::COUNT] = [
        Lang::Python,
        Lang::Go,
        Lang::Rust,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
        Lang::Ruby,
        Lang::Php,
    ];

    /// The number of languages (the length of [`Lang::ALL`]).
    pub const COUNT: usize = 11;

    /// Position of the language in [`Lang::ALL`] (a dense index for tables).
    pub fn index(self) -> usize {
        self as usize
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
