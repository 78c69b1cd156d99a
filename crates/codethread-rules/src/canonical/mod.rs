//! Rule tables of the canonical profile (`codethread_metrics::Profile::Canonical`):
//! one rule set (docs/metrics.md, "Canonical profile"), mapped onto each
//! grammar as data. The walker in codethread-metrics' `canonical.rs` reads one
//! [`CanonRules`] value and knows nothing about any language.

pub use super::when::When;

use codethread_lang::Lang;

mod c_family;
mod dynamic;
mod go_rust;
mod js;

/// Cognitive increment of a node (Campbell, Cognitive Complexity 1.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cog {
    /// Nothing.
    None,
    /// Structural: `1 + nesting` (if, loops, switch, catch, ternary).
    Structural,
    /// A fixed amount without nesting (hybrid `else if` / `else`, jumps to
    /// labels, `goto`).
    Flat(u32),
}

/// Which children of a node are one nesting level deeper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nest {
    /// None.
    None,
    /// All.
    All,
    /// The children in these fields.
    Fields(&'static [&'static str]),
    /// All children except those in these fields (an `if`'s `alternative`).
    AllBut(&'static [&'static str]),
}

/// The else branch of an `if` held directly in a field (Go, Java: no else
/// node): the child in `field`, unless its kind is one of `unless` (an
/// `else if`), adds 1 to cognitive complexity and is one level deeper.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElseBranch {
    /// Field of the `if` holding the else branch.
    pub field: &'static str,
    /// Kinds that make the branch an `else if` (counted by their own rule).
    pub unless: &'static [&'static str],
}

/// What one node kind (under a condition) contributes to each metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// tree-sitter node kind (anonymous tokens are named by their text).
    pub kind: &'static str,
    /// Extra condition; the first rule of a kind whose condition holds wins.
    pub when: When,
    /// Cyclomatic decision points (0 or 1).
    pub cc: u32,
    /// Cognitive increment.
    pub cog: Cog,
    /// Cognitive nesting of the children.
    pub nest: Nest,
    /// The else branch held in a field, if any.
    pub else_branch: Option<ElseBranch>,
    /// Logical lines (0, 1, or 2 for a modifier statement `s if c`).
    pub lloc: u32,
    /// The rule is for an anonymous token (`&&`, a guard's `if`), not for a
    /// named node of the same kind name (Ruby's `if` node vs its `if`
    /// keyword).
    pub token: bool,
}

impl Rule {
    /// A rule with no effect.
    pub const fn base(kind: &'static str) -> Rule {
        Rule {
            kind,
            when: When::Always,
            cc: 0,
            cog: Cog::None,
            nest: Nest::None,
            else_branch: None,
            lloc: 0,
            token: false,
        }
    }
}

/// Shorthand: a statement counting one logical line.
pub const fn stmt(kind: &'static str) -> Rule {
    Rule {
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Shorthand: a statement with an initializer condition (see [`When::Init`]).
pub const fn stmt_when(kind: &'static str, when: When) -> Rule {
    Rule {
        when,
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Shorthand: a loop (CC +1, structural, nested body, one logical line).
pub const fn lp(kind: &'static str) -> Rule {
    Rule {
        cc: 1,
        cog: Cog::Structural,
        nest: Nest::All,
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Shorthand: a decision with no other effect (a case label, a short-circuit
/// operator, a comprehension clause).
pub const fn decision(kind: &'static str, when: When, lloc: u32) -> Rule {
    Rule {
        when,
        cc: 1,
        lloc,
        ..Rule::base(kind)
    }
}

/// Shorthand: an anonymous token that is a decision point (a short-circuit
/// operator, a guard's `if`).
pub const fn tok(kind: &'static str, when: When) -> Rule {
    Rule {
        when,
        cc: 1,
        token: true,
        ..Rule::base(kind)
    }
}

/// Shorthand: a function or lambda literal counted in its enclosing function
/// (its body is one nesting level deeper).
pub const fn lambda(kind: &'static str) -> Rule {
    Rule {
        nest: Nest::All,
        ..Rule::base(kind)
    }
}

/// Shorthand: a structural construct (ternary, catch, switch) with `cc`
/// decision points and `lloc` logical lines.
pub const fn structural(kind: &'static str, cc: u32, lloc: u32) -> Rule {
    Rule {
        cc,
        cog: Cog::Structural,
        nest: Nest::All,
        lloc,
        ..Rule::base(kind)
    }
}

/// Shorthand: a jump to a label (`break label`, `goto`): cognitive +1.
pub const fn jump(kind: &'static str, when: When) -> Rule {
    Rule {
        when,
        cog: Cog::Flat(1),
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Shorthand: an `else` node: cognitive +1 (hybrid), body one level deeper.
pub const fn else_node(kind: &'static str, when: When) -> Rule {
    Rule {
        when,
        cog: Cog::Flat(1),
        nest: Nest::All,
        ..Rule::base(kind)
    }
}

/// Shorthand: an `if` (CC +1, structural, every child one level deeper
/// except those in the `alternative` fields (the else branch and any
/// `else if`), one logical line).
pub const fn if_rule(kind: &'static str, alternative: &'static [&'static str]) -> Rule {
    Rule {
        cc: 1,
        cog: Cog::Structural,
        nest: Nest::AllBut(alternative),
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Shorthand: an `else if` node (CC +1, cognitive +1 without nesting, the
/// `body` field one level deeper, one logical line).
pub const fn else_if(kind: &'static str, when: When, body: &'static [&'static str]) -> Rule {
    Rule {
        when,
        cc: 1,
        cog: Cog::Flat(1),
        nest: Nest::Fields(body),
        lloc: 1,
        ..Rule::base(kind)
    }
}

/// Boolean-operator sequences (cognitive) of a grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Booleans {
    /// Binary node kinds.
    pub binary_kinds: &'static [&'static str],
    /// The field holding a binary node's operator token.
    pub operator_field: &'static str,
    /// The fields holding a binary node's left and right operands.
    pub operand_fields: (&'static str, &'static str),
    /// Logical operators whose sequences count (`&&`, `||`, `and`, `or`).
    pub operators: &'static [&'static str],
    /// Parentheses, transparent inside a sequence.
    pub paren_kinds: &'static [&'static str],
}

/// A call form that can be a direct recursive call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallRule {
    /// Call node kind.
    pub kind: &'static str,
    /// Field holding the callee (a name, or a member access).
    pub callee_field: &'static str,
    /// Field of the call holding an explicit receiver (`self.f()` in Ruby,
    /// `$this->f()` in PHP, `this.f()` in Java); the call is recursive only
    /// when there is none or it is one of [`CanonRules::self_names`].
    pub receiver_field: Option<&'static str>,
}

/// The receiver parameter of a method: in the function node's `field`, the
/// first child of kind `param_kind`, whose `name_field` child is the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receiver {
    /// Field of the function node.
    pub field: &'static str,
    /// Parameter kind.
    pub param_kind: &'static str,
    /// Field of the parameter's name.
    pub name_field: &'static str,
}

/// A member access `object.property` as a callee.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Member {
    /// Node kind.
    pub kind: &'static str,
    /// Field of the object.
    pub object_field: &'static str,
    /// Field of the property.
    pub property_field: &'static str,
}

/// Halstead classification of a grammar's tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HalsteadClasses {
    /// Subtrees that are one operand (string literals, PHP `$name`).
    pub atomic_operands: &'static [&'static str],
    /// Named leaves that are operators (type keywords the grammar names,
    /// such as C `primitive_type`).
    pub leaf_operators: &'static [&'static str],
    /// Anonymous tokens that are not counted: the closing half of a bracket
    /// pair (the opening half is the operator) and Ruby's `end`.
    pub ignored: &'static [&'static str],
    /// Code inside an atomic operand (Python f-string and Ruby `#{…}`
    /// interpolations): the literal stays one operand, and the subtrees of
    /// these kinds are walked for decision points, cognitive increments,
    /// nested functions and calls, not for Halstead or LLOC.
    pub interpolations: &'static [&'static str],
}

/// Appendix A of the whitepaper ("compensating usages"): an enclosing
/// function whose top level is only declarations does not make the
/// functions nested in it one nesting level deeper (they still count in its
/// cognitive complexity). A function is declarative when every named
/// statement of its `body_field` is one of `functions` (at least one, at
/// most `max_functions`), a docstring, or one of `others` (`None`: any
/// statement without a cognitive increment of its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Declarative {
    /// Field of the function node holding its body.
    pub body_field: &'static str,
    /// Statement kinds that define a nested function.
    pub functions: &'static [&'static str],
    /// Statements that define a nested function by binding one to a name
    /// (`this.m = function () {…}`, `const m = () => {…}`): such a
    /// statement counts as one of `functions`.
    pub bindings: &'static [Binding],
    /// How many nested functions the exception allows.
    pub max_functions: u32,
    /// The other statement kinds allowed (`None`: any statement that is no
    /// structure with a cognitive increment).
    pub others: Option<&'static [&'static str]>,
    /// A docstring: a statement of kind `.0` whose only named child is of
    /// kind `.1`.
    pub docstring: Option<(&'static str, &'static str)>,
}

/// A statement that binds a function to a name ([`Declarative::bindings`]):
/// a statement of kind `statement` with a named child of kind `binder`
/// whose `value_field` is one of `values`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Binding {
    /// Statement kind (`expression_statement`, `lexical_declaration`).
    pub statement: &'static str,
    /// Kind of the statement's child that binds (`assignment_expression`,
    /// `variable_declarator`).
    pub binder: &'static str,
    /// Field of the binder holding the bound value.
    pub value_field: &'static str,
    /// Value kinds that are functions.
    pub values: &'static [&'static str],
}

/// A function form whose body may be an expression (`x => x + 1`, Python
/// `lambda`, Ruby `def a = …`, a Rust closure): such a body counts the
/// logical line of the equivalent `return` statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExprBody {
    /// Function node kind.
    pub kind: &'static str,
    /// Field holding the body.
    pub body_field: &'static str,
    /// Body kinds that are statement blocks (counted statement by
    /// statement, not as one expression).
    pub block_kinds: &'static [&'static str],
    /// Not counted when the node is the measured function itself (a kind
    /// whose expression body already counts as a statement there).
    pub skip_root: bool,
}

/// The canonical rules for one grammar.
#[derive(Debug, Clone, Copy)]
pub struct CanonRules {
    /// Node rules (first matching rule per node wins).
    pub rules: &'static [Rule],
    /// Boolean-operator sequences.
    pub booleans: Booleans,
    /// Call forms (direct recursion).
    pub calls: &'static [CallRule],
    /// Member accesses that name the function itself when the object is one
    /// of `self_names`.
    pub members: &'static [Member],
    /// Callee kinds that are a bare name.
    pub name_kinds: &'static [&'static str],
    /// The texts of the current object (`self`, `this`, `$this`).
    pub self_names: &'static [&'static str],
    /// Where a method names its receiver (Go `func (t *T) m()`): that name
    /// is a self name too.
    pub receiver: Option<Receiver>,
    /// Statement lists whose every named child is one logical line, unless
    /// that child has a rule with logical lines of its own or is one of
    /// `clause_kinds` (Ruby: statements are not wrapped in a statement node).
    pub statement_lists: &'static [&'static str],
    /// Kinds never counted as statements of a `statement_lists` list
    /// (`else`, `rescue`, `ensure` clauses).
    pub clause_kinds: &'static [&'static str],
    /// Halstead classes.
    pub halstead: HalsteadClasses,
    /// The declarative-function exception of cognitive nesting, if the
    /// whitepaper makes one for the language.
    pub declarative: Option<Declarative>,
    /// Function forms with expression bodies.
    pub expression_bodies: &'static [ExprBody],
}

/// Closing brackets (not counted by Halstead: a pair is one operator).
pub const CLOSERS: &[&str] = &[")", "]", "}"];

/// One row per language (`codethread_lang::PerLang`: a missing or
/// misplaced row is a compile error).
static RULES: codethread_lang::PerLang<&CanonRules> = codethread_lang::PerLang::new([
    (Lang::Python, &dynamic::PYTHON),
    (Lang::Go, &go_rust::GO),
    (Lang::Rust, &go_rust::RUST),
    (Lang::JavaScript, &js::JS),
    (Lang::TypeScript, &js::JS),
    (Lang::Tsx, &js::JS),
    (Lang::Java, &c_family::JAVA),
    (Lang::C, &c_family::C_CPP),
    (Lang::Cpp, &c_family::C_CPP),
    (Lang::Ruby, &dynamic::RUBY),
    (Lang::Php, &dynamic::PHP),
]);

/// The canonical rules for `lang`.
#[inline]
pub fn rules(lang: Lang) -> &'static CanonRules {
    RULES.get(lang)
}

impl Rule {
    /// The same rule under another condition.
    pub const fn with_when(self, when: When) -> Rule {
        Rule { when, ..self }
    }
}

impl Rule {
    /// The same rule with an else branch held in a field.
    pub const fn with_else(self, else_branch: ElseBranch) -> Rule {
        Rule {
            else_branch: Some(else_branch),
            ..self
        }
    }
}
