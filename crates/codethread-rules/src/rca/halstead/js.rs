//! JavaScript / TypeScript, profile `paper`: rust-code-analysis 0.0.25.
//!
//! Every node of the function's subtree (nested closures included) is
//! classified by kind: operators are keyed by node kind, operands by their
//! exact source text. `(`, `[`, `{`, `;`, `,`, `.`, `?`, `??` and the
//! `function` keyword are operators (a function expression node counts as one
//! more, distinct operator); `)`, `]`, `}`, `=>`, `...`, `class`, `do` are not
//! counted. Identifiers, property identifiers, strings, numbers, `this`,
//! `super`, `true`/`false`/`null`/`undefined` and the keywords `typeof`,
//! `instanceof`, `void`, `get`, `set` are operands; a member expression is an
//! operand (its whole text) as well as its parts.
//!
//! The tool bundled an older grammar (function expressions were the node kind
//! `function`, today `function_expression`); the tables name today's kinds.

use crate::halstead::{ExtraIn, HalsteadRules, HiddenIn, Mode, NodeRules, Piece};

pub static PAPER_JS: HalsteadRules = HalsteadRules {
    null_for: &[],
    mode: Mode::Nodes(&JS),
};

pub static PAPER_TS: HalsteadRules = HalsteadRules {
    null_for: &[],
    mode: Mode::Nodes(&TS),
};

/// Tokens of today's grammar that were several tokens in the tool's grammar:
/// JSX closing `</` and self-closing `/>` were `<` `/` and `/` `>`; the
/// `static get` of a class getter was `static` `get`.
static JS_SPLITS: &[(&str, &[Piece])] = &[
    ("</", &[Piece::Operator("<"), Piece::Operator("/")]),
    ("/>", &[Piece::Operator("/"), Piece::Operator(">")]),
    ("static get", &[Piece::Operand("get")]),
];

/// `import.meta` was `member_expression(import, ., property_identifier)` with
/// a named `import` node around the keyword: one more operator (the named
/// `import`), the member expression's text and `meta` as operands.
static JS_EXTRA: &[ExtraIn] = &[
    ExtraIn {
        parent: "meta_property",
        token: "import",
        pieces: &[Piece::Operator("import()"), Piece::ParentText],
    },
    ExtraIn {
        parent: "meta_property",
        token: "meta",
        pieces: &[Piece::Operand("meta")],
    },
];

macro_rules! js_operators {
    ($($extra:expr),*) => {
        &[
            ("export", false, "export"),
            ("import", false, "import"),
            ("import", true, "import()"),
            ("extends", false, "extends"),
            (".", false, "."),
            ("from", false, "from"),
            ("(", false, "()"),
            (",", false, ","),
            ("as", false, "as"),
            ("*", false, "*"),
            (">>", false, ">>"),
            (">>>", false, ">>>"),
            (":", false, ":"),
            ("return", false, "return"),
            ("delete", false, "delete"),
            ("throw", false, "throw"),
            ("break", false, "break"),
            ("continue", false, "continue"),
            ("if", false, "if"),
            ("else", false, "else"),
            ("switch", false, "switch"),
            ("case", false, "case"),
            ("default", false, "default"),
            ("async", false, "async"),
            ("for", false, "for"),
            ("in", false, "in"),
            ("of", false, "of"),
            ("while", false, "while"),
            ("try", false, "try"),
            ("catch", false, "catch"),
            ("finally", false, "finally"),
            ("with", false, "with"),
            ("=", false, "="),
            ("@", false, "@"),
            ("&&", false, "&&"),
            ("||", false, "||"),
            ("+", false, "+"),
            ("-", false, "-"),
            ("--", false, "--"),
            ("++", false, "++"),
            ("/", false, "/"),
            ("%", false, "%"),
            ("**", false, "**"),
            ("|", false, "|"),
            ("&", false, "&"),
            ("<<", false, "<<"),
            ("~", false, "~"),
            ("<", false, "<"),
            ("<=", false, "<="),
            ("==", false, "=="),
            ("!=", false, "!="),
            (">=", false, ">="),
            (">", false, ">"),
            ("+=", false, "+="),
            ("!", false, "!"),
            ("!==", false, "!=="),
            ("===", false, "==="),
            ("-=", false, "-="),
            ("*=", false, "*="),
            ("/=", false, "/="),
            ("%=", false, "%="),
            ("**=", false, "**="),
            (">>=", false, ">>="),
            (">>>=", false, ">>>="),
            ("<<=", false, "<<="),
            ("&=", false, "&="),
            ("^", false, "^"),
            ("^=", false, "^="),
            ("|=", false, "|="),
            ("yield", false, "yield"),
            ("[", false, "[]"),
            ("{", false, "{}"),
            ("await", false, "await"),
            ("?", false, "?"),
            ("??", false, "??"),
            ("new", false, "new"),
            ("let", false, "let"),
            ("var", false, "var"),
            ("const", false, "const"),
            ("function", false, "function"),
            ("function_expression", true, "function-expression"),
            (";", false, ";")
            $(, $extra)*
        ]
    };
}

macro_rules! js_operands {
    ($($extra:expr),*) => {
        &[
            ("identifier", true),
            ("property_identifier", true),
            ("member_expression", true),
            ("string", true),
            ("number", true),
            ("true", true),
            ("false", true),
            ("null", true),
            ("undefined", true),
            ("this", true),
            ("super", true),
            ("void", false),
            ("typeof", false),
            ("instanceof", false),
            ("get", false),
            ("set", false)
            $(, $extra)*
        ]
    };
}

static JS: NodeRules = NodeRules {
    operators: js_operators!(),
    operands: js_operands!(),
    opaque: &[("comment", true)],
    hidden_in: &[],
    splits: JS_SPLITS,
    extra_in: JS_EXTRA,
    hidden_glue: &[],
    rereads: &[],
    by_text: &[],
    alone_macro: None,
};

static TS: NodeRules = NodeRules {
    operators: js_operators!(),
    operands: js_operands!(("nested_identifier", true)),
    opaque: &[("comment", true)],
    // `x as const`: the tool's grammar read `const` as a type name.
    hidden_in: &[HiddenIn {
        parent: "as_expression",
        texts: &["const"],
        keep_last: &[],
    }],
    splits: JS_SPLITS,
    extra_in: JS_EXTRA,
    hidden_glue: &[],
    rereads: &[],
    by_text: &[],
    alone_macro: None,
};
