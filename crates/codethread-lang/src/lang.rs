//! The supported languages and how files map to them.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// A language (grammar) codethread can parse.
///
/// JavaScript covers `.js`, `.mjs`, `.cjs` and `.jsx`; TypeScript covers `.ts`,
/// `.mts` and `.cts`; `.tsx` has its own grammar.
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
}

impl Lang {
    /// Every supported language.
    pub const ALL: [Lang; 6] = [
        Lang::Python,
        Lang::Go,
        Lang::Rust,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
    ];

    /// The language of a file, from its extension; `None` when unsupported.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Lang> {
        let ext = path.as_ref().extension()?.to_str()?;
        Lang::from_extension(ext)
    }

    /// The language for a file extension (without the dot, case-sensitive).
    pub fn from_extension(ext: &str) -> Option<Lang> {
        Some(match ext {
            "py" | "pyi" => Lang::Python,
            "go" => Lang::Go,
            "rs" => Lang::Rust,
            "js" | "mjs" | "cjs" | "jsx" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            _ => return None,
        })
    }

    /// Lower-case name used in outputs: `python`, `go`, `rust`, `javascript`,
    /// `typescript`, `tsx`.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::Go => "go",
            Lang::Rust => "rust",
            Lang::JavaScript => "javascript",
            Lang::TypeScript => "typescript",
            Lang::Tsx => "tsx",
        }
    }

    /// Parse a name produced by [`Lang::name`] (also accepts `js`, `ts`, `py`, `rs`).
    pub fn from_name(name: &str) -> Option<Lang> {
        Some(match name.to_ascii_lowercase().as_str() {
            "python" | "py" => Lang::Python,
            "go" | "golang" => Lang::Go,
            "rust" | "rs" => Lang::Rust,
            "javascript" | "js" | "jsx" => Lang::JavaScript,
            "typescript" | "ts" => Lang::TypeScript,
            "tsx" => Lang::Tsx,
            _ => return None,
        })
    }

    /// True for the JavaScript family (JavaScript, TypeScript, TSX).
    pub fn is_js_family(self) -> bool {
        matches!(self, Lang::JavaScript | Lang::TypeScript | Lang::Tsx)
    }

    /// Grammars to try, in order, when a file of this language does not parse
    /// cleanly: Flow-typed JavaScript parses only as TypeScript or TSX.
    pub fn fallback_grammars(self) -> &'static [Lang] {
        match self {
            Lang::JavaScript => &[Lang::TypeScript, Lang::Tsx],
            _ => &[],
        }
    }

    /// The tree-sitter grammar.
    pub fn ts_language(self) -> tree_sitter::Language {
        match self {
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Go => tree_sitter_go::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Lang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
        }
    }
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
