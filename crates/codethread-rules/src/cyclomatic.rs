//! Cyclomatic-complexity rule types; the tables, one per (tool, language),
//! are in their tools' modules (`super::radon`, `super::lizard`,
//! `super::rca`).
//!
//! The walker in `codethread_metrics::cyclomatic()` knows nothing about any language: it
//! reads one [`CcRules`] value. Each table reproduces one tool's counting
//! rules as documented in `RULES.md` of the shared reference set.

pub use super::when::When;

/// How the walker visits the function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CcMode {
    /// Count syntax nodes (named or anonymous) by kind ([`CcRules::decisions`]).
    Nodes,
    /// Count leaf tokens by their exact text ([`CcRules::token_texts`]), the way a
    /// token-based tool (lizard) does; [`CcRules::atomic`] subtrees are one token.
    Tokens,
}

/// One decision point: every node of `kind` (when `when` holds) adds 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// tree-sitter node kind (keyword tokens are anonymous nodes named by their text).
    pub kind: &'static str,
    /// Extra condition.
    pub when: When,
}

/// radon's `match` rule: `cases − [some case is irrefutable]`, never below 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchCases {
    /// The match statement's kind.
    pub match_kind: &'static str,
    /// A case's kind (a child of the match, or of its body).
    pub case_kind: &'static str,
    /// The kind of the match's body, whose children are searched for cases too.
    pub body_kind: &'static str,
    /// The kind of a case's pattern node.
    pub pattern_kind: &'static str,
    /// A pattern whose only child is one of these leaves is irrefutable (`_`).
    pub wildcard_leaves: &'static [&'static str],
    /// A pattern whose only child is this kind holding exactly one identifier
    /// is an irrefutable capture (`case x:`).
    pub capture_kind: &'static str,
}

/// Token mode: where a token-based tool thinks the function ends (defined
/// beside lizard's Go token count).
/// Where a token-based tool thinks the function ends. lizard's Go
/// reader takes the first `{` after the parameter list that does not follow
/// `interface` as the body, so a result type `<-chan struct{}` ends the
/// "function" at `struct{}`'s closing brace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BraceScope {
    /// Field of the function node after which the body brace is looked for.
    pub after_field: &'static str,
    /// Opening token.
    pub open: &'static str,
    /// Closing token.
    pub close: &'static str,
    /// An opening token right after one of these does not open the body.
    pub not_after: &'static [&'static str],
}

/// The cyclomatic rules of one tool for one language.
#[derive(Debug, Clone, Copy)]
pub struct CcRules {
    /// The tool these rules reproduce (documentation; read by tests and callers).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// Node or token counting.
    pub mode: CcMode,
    /// The value of a function with no decision point.
    pub base: u32,
    /// Count only inside this field of the function node (radon walks `body` only).
    pub scope_field: Option<&'static str>,
    /// Decision points (node mode).
    pub decisions: &'static [Decision],
    /// Decision tokens by exact text (token mode).
    pub token_texts: &'static [&'static str],
    /// Token mode: subtrees that are a single token (strings, comments).
    pub atomic: &'static [&'static str],
    /// Nested nodes whose subtree is not part of this function (reported alone).
    pub excluded: &'static [&'static str],
    /// Nodes counted as decisions but not entered (radon's `visit_Assert`
    /// does not visit the assertion's expressions).
    pub pruned: &'static [&'static str],
    /// Nested named nodes that each add `base` (rust-code-analysis sums nested spaces).
    pub nested_spaces: &'static [&'static str],
    /// radon's `match` handling.
    pub match_cases: Option<MatchCases>,
    /// Token mode: the token range the tool counts.
    pub brace_scope: Option<BraceScope>,
    /// Functions the tool gives no value: those with an ancestor of a
    /// [`Unreported::classes`] kind that itself has an ancestor of a
    /// [`Unreported::scopes`] kind.
    pub unreported: Option<Unreported>,
}

/// Functions a tool does not report: radon's `cc_visit` lists a class's
/// methods only for classes at module level, so methods of classes nested in
/// a class or defined in a function (and everything inside them) get no value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unreported {
    /// Class kinds.
    pub classes: &'static [&'static str],
    /// Kinds that make an enclosed class nested or local.
    pub scopes: &'static [&'static str],
}
