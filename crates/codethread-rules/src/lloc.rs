//! LLOC rule types, per (profile, language); the tables are in their tools'
//! modules (`super::radon`, `super::lizard`, `super::rca`).
//!
//! Each table parameterizes one of three generic counters in `lloc.rs`:
//! - [`LlocRule::LogicalLines`]: radon's token-based logical lines (Python).
//! - [`LlocRule::CodeLines`]: lizard's NLOC, lines holding code (Go).
//! - [`LlocRule::Statements`]: rust-code-analysis's statement count by node
//!   kind (JavaScript, TypeScript, Rust).
//!
//! A new language adds tables to its tool's module and names them in its
//! [`super::paper`] row; no walker changes.

/// radon `raw.analyze` logical lines, reproduced from tree-sitter leaves.
#[derive(Debug)]
pub struct LogicalLines {
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
pub struct CodeLines {
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
pub struct Conditional {
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
pub struct FieldStatement {
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
pub struct Statements {
    /// Kinds that count 1 each.
    pub kinds: &'static [&'static str],
    /// Kinds that count 1 under an ancestor condition.
    pub conditional: Option<Conditional>,
    /// Fields that count as statements (grammar-version differences).
    pub fields: &'static [FieldStatement],
}

/// How a profile counts LLOC for a language.
#[derive(Debug)]
pub enum LlocRule {
    /// Token-based logical lines (radon raw).
    LogicalLines(&'static LogicalLines),
    /// Lines holding code (lizard NLOC).
    CodeLines(&'static CodeLines),
    /// Statement count (rust-code-analysis).
    Statements(&'static Statements),
}
