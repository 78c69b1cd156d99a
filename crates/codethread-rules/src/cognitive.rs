//! Cognitive-complexity rule types; the tables, one per (tool, language),
//! are in their tools' modules (`super::complexipy`, `super::gocognit`,
//! `super::rca`).
//!
//! The walker in `codethread_metrics::cognitive()` is language-agnostic. It visits nodes in
//! pre-order with an explicit stack; every node carries a *scan mode* (see
//! [`Scan`]) and nesting counters inherited from its parent. A table says, per
//! node kind (and context):
//! - the increment ([`Inc`]): none, flat `+k`, or structural `+1 + nesting`;
//! - how its children are visited ([`Route`]): in which scan mode and whether
//!   they are one nesting level deeper;
//! - function-nesting effects ([`FnNest`]) for nested functions and closures;
//! - and, globally, how boolean operators are counted ([`BoolMode`]), whether
//!   direct recursion counts ([`Recursion`]) and which functions get no value.

pub use super::when::When;

/// How a node's subtree is looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scan {
    /// Every node counts (rust-code-analysis, gocognit).
    All,
    /// Statement context (complexipy): only kinds with a rule count; unknown
    /// kinds are not entered.
    Stmt,
    /// Expression context (complexipy): only kinds with a rule are entered;
    /// boolean operators count here.
    Expr,
    /// Not visited.
    Skip,
}

/// Which children a [`Route`] applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sel {
    /// The child in this field.
    Field(&'static str),
    /// Children of this kind.
    Kind(&'static str),
    /// The n-th named child (0-based).
    Nth(usize),
    /// Any named child.
    AnyNamed,
}

/// How to visit the children selected by `sel`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    /// Selected children.
    pub sel: Sel,
    /// Their scan mode.
    pub scan: Scan,
    /// Extra nesting for them (0 or 1).
    pub nest: u32,
}

/// Shorthand constructor for [`Route`].
pub const fn route(sel: Sel, scan: Scan, nest: u32) -> Route {
    Route { sel, scan, nest }
}

/// The increment a node contributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inc {
    /// Nothing.
    None,
    /// A fixed amount (else, elif, labelled jump).
    Flat(u32),
    /// `1 + nesting` (structural increment).
    Nesting,
}

/// Function-nesting effects of a nested function or closure node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FnNest {
    /// Reset the structural nesting counter to 0.
    pub reset_nesting: bool,
    /// Reset the closure counter to 0.
    pub reset_lambda: bool,
    /// Add 1 to the closure counter.
    pub lambda: bool,
    /// Add 1 to the function-depth counter when an ancestor has one of these kinds.
    pub depth_if_ancestor: &'static [&'static str],
}

/// The rule for one node kind in one context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeRule {
    /// tree-sitter node kind.
    pub kind: &'static str,
    /// Scan modes in which the rule applies (empty = any).
    pub scans: &'static [Scan],
    /// Context condition.
    pub when: When,
    /// Increment.
    pub inc: Inc,
    /// Child routes (first match wins); unmatched children use `rest`.
    pub routes: &'static [Route],
    /// Scan mode of unmatched children; `None` = same as the node's.
    pub rest: Option<Scan>,
    /// Extra nesting for unmatched children.
    pub rest_nest: u32,
    /// Function-nesting effects.
    pub fn_nest: Option<FnNest>,
    /// Reset the boolean-operator sequence here (rust-code-analysis).
    pub bool_reset: bool,
}

impl NodeRule {
    /// A rule with no effect that keeps the scan mode for all children.
    pub const fn base(kind: &'static str) -> NodeRule {
        NodeRule {
            kind,
            scans: &[],
            when: When::Always,
            inc: Inc::None,
            routes: &[],
            rest: None,
            rest_nest: 0,
            fn_nest: None,
            bool_reset: false,
        }
    }
}

/// How boolean operators are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolMode {
    /// Not counted (rust-code-analysis 0.0.25 for Java, which has no
    /// cognitive rules).
    None,
    /// rust-code-analysis: per function space, the first `&&`/`||` token of a
    /// sequence adds 1 and becomes the sequence's operator; any later operator
    /// different from it adds 1. A unary expression sets the sequence operator
    /// to itself. Sequences reset at structural increments and `reset_kinds`.
    RcaSequence {
        /// Nodes whose direct operator children are looked at.
        binary_kinds: &'static [&'static str],
        /// Boolean operator tokens.
        operators: &'static [&'static str],
        /// Unary nodes ("not" in rust-code-analysis's terms).
        unary_kinds: &'static [&'static str],
        /// Nodes that reset the sequence.
        reset_kinds: &'static [&'static str],
    },
    /// gocognit: the in-order logical operators of a maximal binary-expression
    /// tree (parentheses break it) add 1 each time the operator changes.
    Chain {
        /// Binary expression kind.
        binary_kind: &'static str,
        /// Field holding the operator.
        operator_field: &'static str,
        /// Logical operators.
        operators: &'static [&'static str],
    },
    /// complexipy: a boolean-operator expression adds 1, plus 1 for every
    /// nested operand with a different operator, walked the way complexipy's
    /// `count_different_childs_type` walks it (unary operators included).
    Complexipy {
        /// Boolean operator kind (`a and b`).
        bool_kind: &'static str,
        /// Field holding the operator token.
        operator_field: &'static str,
        /// Unary operator kinds (`not x`, `-x`).
        unary_kinds: &'static [&'static str],
        /// Field holding a unary operator's operand.
        operand_field: &'static str,
        /// Parentheses (transparent).
        paren_kind: &'static str,
    },
}

/// Direct-recursion increments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recursion {
    /// None.
    None,
    /// +1 when at least one call of the function by its bare name exists
    /// (complexipy); `skip` subtrees are not searched.
    Once {
        /// Call node kind.
        call_kind: &'static str,
        /// Field of the callee.
        function_field: &'static str,
        /// Bare-name kind.
        ident_kind: &'static str,
        /// Not searched.
        skip: &'static [&'static str],
    },
    /// +1 per call by bare name (gocognit). For `method_kinds` the call counts
    /// only when no top-level declaration of that name exists in the file
    /// (gocognit compares resolved objects, and method names resolve to none).
    Each {
        /// Call node kind.
        call_kind: &'static str,
        /// Field of the callee.
        function_field: &'static str,
        /// Bare-name kind.
        ident_kind: &'static str,
        /// Method declaration kinds.
        method_kinds: &'static [&'static str],
        /// Top-level declaration kinds and the kinds of their name-bearing specs.
        toplevel_decls: &'static [&'static str],
        /// Local declarations `(kind, field)` inside the function: a name
        /// declared there (directly or in a list) shadows the function, so a
        /// bare call of it is not recursion (go/parser resolves it locally).
        shadowing: &'static [(&'static str, &'static str)],
    },
}

/// The cognitive rules of one tool for one language.
#[derive(Debug, Clone, Copy)]
pub struct CogRules {
    /// The tool reproduced (documentation; read by tests and callers).
    #[allow(dead_code)]
    pub tool: &'static str,
    /// Scan mode of the function node itself.
    pub start: Scan,
    /// Node rules (first matching rule per node wins).
    pub nodes: &'static [NodeRule],
    /// Boolean operators.
    pub booleans: BoolMode,
    /// Named kinds that open a new boolean-sequence scope (rust-code-analysis spaces).
    pub spaces: &'static [&'static str],
    /// Direct recursion.
    pub recursion: Recursion,
    /// The tool gives no value for functions of these kinds.
    pub null_kinds: &'static [&'static str],
    /// The tool gives no value for functions nested in one of these kinds.
    pub null_inside: &'static [&'static str],
    /// Nesting is computed from the file root (rust-code-analysis keeps one
    /// nesting map per file, so a closure's own value depends on its context).
    pub context_nesting: bool,
}

impl CogRules {
    /// No node rule, boolean rule or recursion rule: every function's value
    /// is 0 whatever its subtree holds.
    #[inline]
    pub fn counts_nothing(&self) -> bool {
        self.nodes.is_empty()
            && matches!(self.booleans, BoolMode::None)
            && matches!(self.recursion, Recursion::None)
    }
}

/// A rule for `kind` with the defaults of [`NodeRule::base`].
pub const fn all(kind: &'static str) -> NodeRule {
    NodeRule::base(kind)
}
