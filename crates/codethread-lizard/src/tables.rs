//! The lizard reader's language tables (lizard 1.24.3's rules as data).

use crate::clike::CLikeTable;
use crate::php::PhpTable;
use crate::ruby::RubyTable;
use crate::tokens::{Rule, TokenTable};
use crate::{Comments, LizardLang, Machine, Preprocess};

/// C and C++ (lizard's `.c .cpp .cc .cxx .h .hh .hpp` reader).
pub static CPP: LizardLang = LizardLang {
    tokens: &TokenTable {
        extra: &[Rule::RawString, Rule::Float],
        interpolation: false,
        code_blocks: false,
    },
    conditions: &[
        b"if", b"for", b"while", b"catch", b"&&", b"||", b"case", b"?",
    ],
    comments: Comments::Slash,
    preprocess: Preprocess::CLike,
    machine: Machine::CLike(&CLikeTable {
        scope_words: &[b"struct", b"class", b"namespace", b"union"],
        scope_name_stops: &[b"<", b":", b"final", b"[", b"extends", b"implements"],
        qualifiers: &[b"const", b"&", b"&&"],
    }),
};

/// Ruby.
pub static RUBY: LizardLang = LizardLang {
    tokens: &TokenTable {
        extra: &[
            Rule::HashComment,
            Rule::LineStart(b"=begin"),
            Rule::LineStart(b"=end"),
            Rule::Percent,
            Rule::WordColon,
            Rule::Sigil,
            Rule::Dots,
            Rule::RubyName,
            Rule::Regex(b"=,({[?:!&|;"),
        ],
        interpolation: true,
        code_blocks: false,
    },
    conditions: &[
        b"if", b"elsif", b"elseif", b"until", b"for", b"while", b"rescue", b"ensure", b"when",
        b"and", b"or", b"||", b"&&", b"?",
    ],
    comments: Comments::Hash,
    preprocess: Preprocess::Plain,
    machine: Machine::Rubylike(&RubyTable {
        def: b"def",
        it: b"it",
        block_end: b"end",
        closers: &[b"end", b"}"],
        openers: &[b"begin", b"do", b"class", b"module", b"{", b"${"],
        loops: &[b"while", b"for"],
        conditionals: &[b"if", b"unless"],
        then: b"then",
        doc: (b"=begin", b"=end"),
    }),
};

/// PHP.
pub static PHP: LizardLang = LizardLang {
    tokens: &TokenTable {
        extra: &[
            Rule::Sigil,
            Rule::Heredoc,
            Rule::Literal(b"??="),
            Rule::Literal(b"??"),
            Rule::Literal(b"?->"),
            Rule::Literal(b"?:"),
        ],
        interpolation: false,
        code_blocks: true,
    },
    conditions: &[
        b"if", b"elseif", b"for", b"foreach", b"while", b"catch", b"match", b"&&", b"||", b"case",
        b"?",
    ],
    comments: Comments::Slash,
    preprocess: Preprocess::Plain,
    machine: Machine::Php(&PhpTable {
        use_word: b"use",
        class_word: b"class",
        trait_word: b"trait",
        function_word: b"function",
        match_word: b"match",
        condition_words: &[b"if", b"switch", b"for", b"foreach", b"while", b"catch"],
        class_name_skip: &[b"{", b"(", b"extends", b"implements"],
        target_resets: &[b"=", b";", b"{", b"}", b"(", b")", b","],
    }),
};
