//! Halstead rule types: which syntax counts as an operator or an operand,
//! per (profile, language). The walkers in codethread-metrics' `halstead.rs` read only these
//! tables; a new profile is a new set of tables. The paper tools' rows are
//! in their tools' modules (`super::radon`, `super::go_halstead`,
//! `super::rca`).

/// The rules of one (profile, language).
#[derive(Debug)]
pub struct HalsteadRules {
    /// Function node kinds for which the tool reports no Halstead value (`None`).
    pub null_for: &'static [&'static str],
    /// How tokens are found and classified.
    pub mode: Mode,
}

/// The counting mode of a tool.
#[derive(Debug)]
pub enum Mode {
    /// A scanner-like token stream over the function body (go-halstead).
    Tokens(&'static TokenRules),
    /// Every syntax node of the function subtree classified by kind
    /// (rust-code-analysis).
    Nodes(&'static NodeRules),
    /// Operators are expression nodes of an abstract syntax tree (radon).
    AstOps(&'static AstOpRules),
}

/// Token-stream rules (go-halstead): every token in the body range is an
/// operator (keyed by its text) unless it is an operand or ignored.
#[derive(Debug)]
pub struct TokenRules {
    /// Field of the function node holding the body block.
    pub body_field: &'static str,
    /// Kind of the body's closing token, excluded from the range.
    pub close_kind: &'static str,
    /// Node kinds that are one token (not split into their leaves).
    pub atomic_kinds: &'static [&'static str],
    /// Kinds whose text is an operand (identifiers and literals).
    pub operand_kinds: &'static [&'static str],
    /// Kinds skipped entirely (comments).
    pub ignored_kinds: &'static [&'static str],
    /// Atomic kinds whose operand text drops carriage returns (Go raw strings).
    pub strip_cr_kinds: &'static [&'static str],
    /// Automatic semicolon insertion.
    pub auto_semicolon: Option<AutoSemicolon>,
}

/// Go's rule: after a line's final token of certain classes a `;` is inserted
/// at the newline (or at the end of the scanned range).
#[derive(Debug)]
pub struct AutoSemicolon {
    /// The operator key of the inserted token.
    pub key: &'static str,
    /// Operator token texts that trigger insertion (operands always trigger).
    pub after_texts: &'static [&'static str],
}

/// How a node kind counts for rust-code-analysis-style counting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeClass {
    /// An operator, keyed by the given name (one key per tool node kind).
    Operator(&'static str),
    /// An operand keyed by its exact source text.
    Operand,
    /// Not counted, but children are visited.
    Unknown,
    /// Not counted and children are not visited (comments that older grammars
    /// kept as one token).
    Opaque,
    /// Counted as several pieces (index into the rules' `splits`).
    Split(usize),
}

/// Node-kind rules (rust-code-analysis).
#[derive(Debug)]
pub struct NodeRules {
    /// `(kind, named)` → operator key.
    pub operators: &'static [(&'static str, bool, &'static str)],
    /// `(kind, named)` counted as operands.
    pub operands: &'static [(&'static str, bool)],
    /// `(kind, named)` neither counted nor descended into.
    pub opaque: &'static [(&'static str, bool)],
    /// Anonymous tokens that are not counted when their parent has one of
    /// these kinds (tokens the tool's older grammar did not expose).
    pub hidden_in: &'static [HiddenIn],
    /// Anonymous tokens today's grammar has where the tool's grammar had
    /// several tokens (JSX `</` was `<` `/`): each counts as the listed pieces.
    pub splits: &'static [(&'static str, &'static [Piece])],
    /// Extra pieces for tokens under given parents.
    pub extra_in: &'static [ExtraIn],
    /// Bytes the tool's hidden punctuation token also took from an operand
    /// glued to it (Rust token trees: `<_0Add` was `<_`, `0`, `Add`).
    pub hidden_glue: &'static [u8],
    /// Constructs the tool's grammar parsed as expressions, so that their
    /// type names were identifiers (operands).
    pub rereads: &'static [Reread],
    /// Named nodes classified by their exact text (words the tool's grammar
    /// lexed as another kind than today's grammar does).
    pub by_text: &'static [ByText],
    /// Upper-case words alone on their line that the tool's grammar read as
    /// one uncounted macro token.
    pub alone_macro: Option<AloneMacro>,
}

/// tree-sitter-mozcpp 0.20.2's `alone_macro` (`/[_A-Z][_A-Z0-9]+\s*\n/`
/// wherever a statement or top-level item may start: `LIBXML_TEST_VERSION`
/// on a line of its own) is one token of no Halstead class; today's grammar
/// reads the word as the type of a declaration that runs on into the next
/// line. A named `kind` node that is the first child of a `parent` node,
/// spelled `[_A-Z][_A-Z0-9]+`, with only white space after it up to the end
/// of its line, is not counted.
#[derive(Debug)]
pub struct AloneMacro {
    /// The word's node kind in today's grammar.
    pub kind: &'static str,
    /// The node it starts.
    pub parent: &'static str,
}

/// A named node of `kind` whose exact source text is one of `texts` counts
/// as `class` instead of its kind's class (tree-sitter-mozcpp 0.20.2 lexes
/// `DWORD`, `HANDLE`, `wchar_t`, … as `primitive_type`, today's grammar reads
/// them as type identifiers).
#[derive(Debug)]
pub struct ByText {
    /// Node kind (named).
    pub kind: &'static str,
    /// The texts.
    pub texts: &'static [&'static str],
    /// Their class.
    pub class: NodeClass,
}

/// A construct today's grammar reads as a type where the tool's older
/// grammar read an expression: inside it every `word` node (a type name) is
/// an operand, as the identifier the tool saw.
#[derive(Debug)]
pub enum Reread {
    /// `a.B.class` (tree-sitter-java 0.20.0: a field access of the
    /// identifiers `a`, `B` and `class`): a `literal` node whose type is a
    /// `scoped` node is not an operand itself; its type names and its
    /// `keyword` token are (`Time.class` stays a class literal).
    QualifiedClassLiteral {
        /// Class literal kind.
        literal: &'static str,
        /// Qualified type kind.
        scoped: &'static str,
        /// The `class` keyword.
        keyword: &'static str,
        /// Type name kind.
        word: &'static str,
    },
    /// `a.B<C> x = e;`, `List<a.B> x;` (tree-sitter-java 0.20.0 chose the
    /// expression `(a.B < C) > (x = e)`): a `declaration` without a
    /// `modifiers` child and with one `declarator`, whose `type_field` is a
    /// `generic` node in which every `arguments` level holds one type made of
    /// `word`, `scoped` and `generic` nodes only, with at least
    /// `min_dots[levels - 1]` qualifying dots (`scoped` nodes; no entry: never).
    /// The thresholds are the old parser's ambiguity resolution as observed
    /// with the tool: one level needs a dot (`List<a.B>`); two and three
    /// levels needed two (`a.b.C<D<E>>`; `a.B<C<D>>` stayed a declaration)
    /// and four stayed declarations, but there the expression also reads the
    /// closing `>>` as one shift operator, which this rule does not
    /// reproduce, so the Java table lists one level only.
    GenericDeclaration {
        /// Local variable declaration kind.
        declaration: &'static str,
        /// Modifiers kind (a modifier keeps the declaration).
        modifiers: &'static str,
        /// Declarator kind (exactly one).
        declarator: &'static str,
        /// Field of the declaration holding the type.
        type_field: &'static str,
        /// Generic type kind.
        generic: &'static str,
        /// Type arguments kind.
        arguments: &'static str,
        /// Qualified type kind.
        scoped: &'static str,
        /// Type name kind.
        word: &'static str,
        /// Dots needed for 1, 2, … levels of type arguments.
        min_dots: &'static [usize],
    },
}

/// One counted piece of a split token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// An operator with this key.
    Operator(&'static str),
    /// An operand with this text.
    Operand(&'static str),
    /// An operand keyed by the source text of the token's parent node.
    ParentText,
}

/// Extra pieces counted for an anonymous token under a given parent (where
/// the tool's grammar had more nodes: `import.meta` was a member expression
/// of a named `import` node and a property `meta`).
#[derive(Debug)]
pub struct ExtraIn {
    /// Parent kind.
    pub parent: &'static str,
    /// Token text.
    pub token: &'static str,
    /// What is counted in addition to the token's own class.
    pub pieces: &'static [Piece],
}

/// Anonymous tokens that the reference grammar folded into an invisible token.
#[derive(Debug)]
pub struct HiddenIn {
    /// Parent kind.
    pub parent: &'static str,
    /// Token texts hidden there.
    pub texts: &'static [&'static str],
    /// Of these texts, the ones still counted when they are the parent's
    /// last child (the `+`/`*`/`?` closing a macro repetition `$(...)+`).
    pub keep_last: &'static [&'static str],
}

/// Field names the AST-operator walker reads.
#[derive(Debug)]
pub struct AstFields {
    /// A function's name.
    pub name: &'static str,
    /// A function's body.
    pub body: &'static str,
    /// The definition inside a decorated wrapper.
    pub definition: &'static str,
    /// The operator token of binary, unary, boolean and augmented nodes.
    pub operator: &'static str,
    /// Left operand.
    pub left: &'static str,
    /// Right operand.
    pub right: &'static str,
    /// Operand of unary and `not` nodes.
    pub argument: &'static str,
    /// Operator tokens of a comparison chain.
    pub operators: &'static str,
}

/// AST-operator rules (radon's `h_visit`).
#[derive(Debug)]
pub struct AstOpRules {
    /// The grammar's field names.
    pub fields: AstFields,
    /// Function-definition kinds: only their body is visited, under a new
    /// operand context named after the function.
    pub function_kinds: &'static [&'static str],
    /// Wrapper kind holding decorators; decorators of a wrapped function are skipped.
    pub decorated_kind: &'static str,
    /// Decorator kind.
    pub decorator_kind: &'static str,
    /// Binary operator nodes (`left`, `operator`, `right` fields).
    pub binary_kinds: &'static [&'static str],
    /// Unary operator nodes (`operator`, `argument` fields).
    pub unary_kinds: &'static [&'static str],
    /// `not x` nodes (`argument` field); operator named by `not_name`.
    pub not_kind: &'static str,
    /// Operator name of `not`.
    pub not_name: &'static str,
    /// Boolean operator nodes (left-nested chains of one operator are one operator).
    pub bool_kind: &'static str,
    /// Comparison chains (`operators` field children).
    pub compare_kind: &'static str,
    /// Augmented assignments (`left`, `operator`, `right`).
    pub augassign_kind: &'static str,
    /// Grouping parentheses, looked through for operands.
    pub paren_kind: &'static str,
    /// Single-child wrappers looked through for operands (annotation `type` nodes).
    pub wrapper_kinds: &'static [&'static str],
    /// Binary operators the grammar gives another node kind (annotation
    /// unions `A | B`): `(kind, operator name)`, operands are the named children.
    pub union_kinds: &'static [(&'static str, &'static str)],
    /// Attribute-like nodes whose operand is their last identifier child
    /// (annotation `a.B`).
    pub member_kinds: &'static [&'static str],
    /// `match` pattern nodes: a `-` token before a number there is a unary
    /// minus (`UnaryOp(USub)`), as in Python's AST.
    pub pattern_kinds: &'static [&'static str],
    /// Pattern node `[-] number (+|-) imaginary`: a binary operator.
    pub complex_pattern_kind: &'static str,
    /// `print >> x` that the grammar reads as a Python 2 print statement
    /// (kind of the `>> x` part, the name on its left): Python 3's AST has
    /// `BinOp(Name(print), RShift, x)`.
    pub chevron: (&'static str, &'static str),
    /// Token text → AST operator name, for binary operators and augmented
    /// assignments (with the trailing `=` removed).
    pub binary_ops: &'static [(&'static str, &'static str)],
    /// Token text → AST operator name, unary.
    pub unary_ops: &'static [(&'static str, &'static str)],
    /// Token text → AST operator name, boolean.
    pub bool_ops: &'static [(&'static str, &'static str)],
    /// Token text (whitespace-normalised) → AST operator name, comparisons.
    pub compare_ops: &'static [(&'static str, &'static str)],
    /// Names: operands keyed by their text.
    pub name_kinds: &'static [&'static str],
    /// Attribute access: operand keyed by the text of this field.
    pub attribute: (&'static str, &'static str),
    /// Integer literal kinds.
    pub int_kinds: &'static [&'static str],
    /// Float literal kinds.
    pub float_kinds: &'static [&'static str],
    /// String literal kinds (and concatenations of them).
    pub string_kinds: &'static [&'static str],
    /// Concatenated-string kinds.
    pub concat_string_kinds: &'static [&'static str],
    /// `(kind, constant)` for keyword constants.
    pub keyword_constants: &'static [(&'static str, KeywordConst)],
}

/// Keyword constants of the AST mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeywordConst {
    /// `True` (equal to 1).
    True,
    /// `False` (equal to 0).
    False,
    /// `None`.
    None,
    /// `...`.
    Ellipsis,
}
