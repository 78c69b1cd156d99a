//! codethread-lang (being written).
mod lang;
mod parse;
pub use lang::Lang;
pub use parse::{count_errors, parse, parse_path, ParsedFile};
/// Errors.
#[derive(Debug, thiserror::Error)]
pub enum LangError {
    /// Grammar.
    #[error("cannot load the {lang} grammar: {message}")]
    Grammar { lang: Lang, message: String },
    /// Aborted.
    #[error("tree-sitter returned no tree for {lang} source")]
    ParseAborted { lang: Lang },
    /// Unsupported.
    #[error("{}: unsupported file type", path.display())]
    Unsupported { path: std::path::PathBuf },
}
