//! The language table: one [`LangInfo`] row per [`Lang`], the one place that
//! lists what codethread knows about a language outside the walkers' rule
//! tables (names, extensions, comment syntax, grammar, feature, the index
//! spec and the macro rules). Every per-language method of [`Lang`] reads its
//! row through [`Lang::info`], the one dispatch point.
//!
//! Adding a language: a variant of [`Lang`], a row here (the compiler checks
//! that the table has one row per variant, in order), the grammar crate and
//! its feature in `Cargo.toml`, and the tables of the crates that need one.

use std::path::Path;

use tree_sitter::Language;

use crate::macros::{CPP as CPP_MACROS, C_FAMILY};
use crate::spec::{self, LangSpec};
use crate::testcode::{self, TestAttributes};
use crate::Lang;
use codethread_lex::preproc::MacroRules;

/// What codethread knows about one language (one row of the table read by
/// [`Lang::info`]).
#[derive(Debug)]
pub struct LangInfo {
    /// The language of the row.
    pub lang: Lang,
    /// Lower-case name used in outputs ([`Lang::name`]).
    pub name: &'static str,
    /// Other names [`Lang::from_name`] accepts (compared lower-cased).
    pub aliases: &'static [&'static str],
    /// File extensions (without the dot, case-sensitive) that are this
    /// language without a repository hint ([`Lang::from_extension`]).
    pub extensions: &'static [&'static str],
    /// The info string of a Markdown code fence ([`Lang::fence`]).
    pub fence: &'static str,
    /// The line-comment opener ([`Lang::line_comment`]).
    pub line_comment: &'static str,
    /// The cargo feature of codethread-lang that builds the grammar.
    pub feature: &'static str,
    /// The tree-sitter grammar; `None` when the feature is off.
    pub grammar: fn() -> Option<Language>,
    /// Node kinds of comments in the grammar.
    pub comment_kinds: &'static [&'static str],
    /// Node kinds of string literals in the grammar (whole literals, not
    /// their parts).
    pub string_kinds: &'static [&'static str],
    /// The family of related grammars the language belongs to.
    pub family: Family,
    /// Grammars to try, in order, when a file does not parse cleanly.
    pub fallback_grammars: &'static [Lang],
    /// The same-length macro masking rules, for languages with a
    /// preprocessor (C, C++).
    pub macros: Option<&'static MacroRules>,
    /// The attributes that mark test code (Rust `#[test]`, `#[cfg(test)]`;
    /// [`crate::test_attribute_at`]); `None` for a language without them.
    pub test_attributes: Option<&'static TestAttributes>,
    /// The grammar's external scanner reads a run of full-line comments
    /// (`line_comment` lines) again at each of its lines (tree-sitter-python's
    /// indentation scanner looks past them for the next line's indent): the
    /// parse's read limit allows for it (`parse::rescan_allowance`).
    pub rescanned_comment_runs: bool,
    /// The function index's tables (`spec.rs`).
    pub(crate) spec: &'static LangSpec,
}

/// Families of related grammars ([`Lang::is_c_family`], [`Lang::is_js_family`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// No family.
    None,
    /// C and C++ (`.h` is shared; a preprocessor).
    C,
    /// JavaScript, TypeScript and TSX.
    Js,
}

/// A grammar function for a cargo feature: `Some(grammar)` when the feature
/// is on, `None` otherwise.
macro_rules! grammar_fn {
    ($name:ident, $feature:literal, $value:expr) => {
        fn $name() -> Option<Language> {
            #[cfg(feature = $feature)]
            {
                Some($value.into())
            }
            #[cfg(not(feature = $feature))]
            {
                None
            }
        }
    };
}

grammar_fn!(python, "python", tree_sitter_python::LANGUAGE);
grammar_fn!(go, "go", tree_sitter_go::LANGUAGE);
grammar_fn!(rust, "rust", tree_sitter_rust::LANGUAGE);
grammar_fn!(javascript, "javascript", tree_sitter_javascript::LANGUAGE);
grammar_fn!(
    typescript,
    "typescript",
    tree_sitter_typescript::LANGUAGE_TYPESCRIPT
);
grammar_fn!(tsx, "typescript", tree_sitter_typescript::LANGUAGE_TSX);
grammar_fn!(java, "java", tree_sitter_java::LANGUAGE);
grammar_fn!(c, "c", tree_sitter_c::LANGUAGE);
grammar_fn!(cpp, "cpp", tree_sitter_cpp::LANGUAGE);
grammar_fn!(ruby, "ruby", tree_sitter_ruby::LANGUAGE);
grammar_fn!(php, "php", tree_sitter_php::LANGUAGE_PHP);

/// The neutral row every language row updates.
const BASE: LangInfo = LangInfo {
    lang: Lang::Python,
    name: "",
    aliases: &[],
    extensions: &[],
    fence: "",
    line_comment: "//",
    feature: "",
    grammar: || None,
    comment_kinds: &["comment"],
    string_kinds: &[],
    family: Family::None,
    fallback_grammars: &[],
    macros: None,
    test_attributes: None,
    rescanned_comment_runs: false,
    spec: &spec::PYTHON,
};

const JS_STRINGS: &[&str] = &["string", "template_string"];
const JS_COMMENTS: &[&str] = &["comment", "html_comment"];

/// One row per [`Lang`] variant, in declaration order.
pub(crate) static LANGS: [LangInfo; Lang::COUNT] = [
    LangInfo {
        lang: Lang::Python,
        name: "python",
        aliases: &["py"],
        extensions: &["py", "pyi"],
        fence: "python",
        line_comment: "#",
        feature: "python",
        grammar: python,
        string_kinds: &["string", "concatenated_string"],
        rescanned_comment_runs: true,
        spec: &spec::PYTHON,
        ..BASE
    },
    LangInfo {
        lang: Lang::Go,
        name: "go",
        aliases: &["golang"],
        extensions: &["go"],
        fence: "go",
        feature: "go",
        grammar: go,
        string_kinds: &["interpreted_string_literal", "raw_string_literal"],
        spec: &spec::GO,
        ..BASE
    },
    LangInfo {
        lang: Lang::Rust,
        name: "rust",
        aliases: &["rs"],
        extensions: &["rs"],
        fence: "rust",
        feature: "rust",
        grammar: rust,
        comment_kinds: &["line_comment", "block_comment"],
        string_kinds: &["string_literal", "raw_string_literal"],
        test_attributes: Some(&testcode::RUST),
        spec: &spec::RUST,
        ..BASE
    },
    LangInfo {
        lang: Lang::JavaScript,
        name: "javascript",
        aliases: &["js", "jsx"],
        extensions: &["js", "mjs", "cjs", "jsx"],
        fence: "javascript",
        feature: "javascript",
        grammar: javascript,
        comment_kinds: JS_COMMENTS,
        string_kinds: JS_STRINGS,
        family: Family::Js,
        fallback_grammars: &[Lang::TypeScript, Lang::Tsx],
        spec: &spec::JAVASCRIPT,
        ..BASE
    },
    LangInfo {
        lang: Lang::TypeScript,
        name: "typescript",
        aliases: &["ts"],
        extensions: &["ts", "mts", "cts"],
        fence: "typescript",
        feature: "typescript",
        grammar: typescript,
        comment_kinds: JS_COMMENTS,
        string_kinds: JS_STRINGS,
        family: Family::Js,
        spec: &spec::TYPESCRIPT,
        ..BASE
    },
    LangInfo {
        lang: Lang::Tsx,
        name: "tsx",
        extensions: &["tsx"],
        fence: "tsx",
        feature: "typescript",
        grammar: tsx,
        comment_kinds: JS_COMMENTS,
        string_kinds: JS_STRINGS,
        family: Family::Js,
        spec: &spec::TYPESCRIPT,
        ..BASE
    },
    LangInfo {
        lang: Lang::Java,
        name: "java",
        extensions: &["java"],
        fence: "java",
        feature: "java",
        grammar: java,
        comment_kinds: &["line_comment", "block_comment"],
        string_kinds: &["string_literal"],
        spec: &spec::JAVA,
        ..BASE
    },
    LangInfo {
        lang: Lang::C,
        name: "c",
        extensions: &["c", "h"],
        fence: "c",
        feature: "c",
        grammar: c,
        string_kinds: &["string_literal", "concatenated_string"],
        family: Family::C,
        macros: Some(&C_FAMILY),
        spec: &spec::C,
        ..BASE
    },
    LangInfo {
        lang: Lang::Cpp,
        name: "cpp",
        aliases: &["c++", "cxx"],
        extensions: &[
            "cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp", "inl", "tpp",
        ],
        fence: "cpp",
        feature: "cpp",
        grammar: cpp,
        string_kinds: &[
            "string_literal",
            "raw_string_literal",
            "concatenated_string",
        ],
        family: Family::C,
        macros: Some(&CPP_MACROS),
        spec: &spec::CPP,
        ..BASE
    },
    LangInfo {
        lang: Lang::Ruby,
        name: "ruby",
        aliases: &["rb"],
        extensions: &["rb"],
        fence: "ruby",
        line_comment: "#",
        feature: "ruby",
        grammar: ruby,
        string_kinds: &["string", "heredoc_body"],
        spec: &spec::RUBY,
        ..BASE
    },
    LangInfo {
        lang: Lang::Php,
        name: "php",
        extensions: &["php"],
        fence: "php",
        feature: "php",
        grammar: php,
        string_kinds: &["string", "encapsed_string", "heredoc", "nowdoc"],
        spec: &spec::PHP,
        ..BASE
    },
];

// The table holds one row per variant, at the variant's index.
const _: () = {
    let mut i = 0;
    while i < Lang::COUNT {
        assert!(LANGS[i].lang as usize == i, "LANGS rows out of order");
        assert!(Lang::ALL[i] as usize == i, "Lang::ALL out of order");
        i += 1;
    }
};

/// One value per [`Lang`], for the language tables of other crates (stub
/// rules, detector tables): built from rows `(Lang, value)` in the order of
/// [`Lang::ALL`], which [`PerLang::new`] checks (in a `static`, at compile
/// time), so a table cannot miss a language or give one two rows, and a
/// lookup is an index, not a `match`.
///
/// ```
/// use codethread_lang::{Lang, PerLang};
/// static HASH_COMMENT: PerLang<bool> = PerLang::new([
///     (Lang::Python, true), (Lang::Go, false), (Lang::Rust, false),
///     (Lang::JavaScript, false), (Lang::TypeScript, false), (Lang::Tsx, false),
///     (Lang::Java, false), (Lang::C, false), (Lang::Cpp, false),
///     (Lang::Ruby, true), (Lang::Php, false),
/// ]);
/// assert!(*HASH_COMMENT.get(Lang::Ruby));
/// ```
#[derive(Debug)]
pub struct PerLang<T: 'static>([(Lang, T); Lang::COUNT]);

impl<T> PerLang<T> {
    /// The table of `rows`.
    ///
    /// # Panics
    /// When a row is out of order (in a `static`: a compile error).
    pub const fn new(rows: [(Lang, T); Lang::COUNT]) -> Self {
        let mut i = 0;
        while i < Lang::COUNT {
            assert!(
                rows[i].0 as usize == i,
                "PerLang rows must follow Lang::ALL"
            );
            i += 1;
        }
        PerLang(rows)
    }

    /// The value of `lang`.
    pub fn get(&self, lang: Lang) -> &T {
        &self.0[lang as usize].1
    }
}

impl Lang {
    /// The language's row of the language table: the one dispatch point
    /// every other per-language method reads.
    pub fn info(self) -> &'static LangInfo {
        &LANGS[self as usize]
    }

    /// The language of a file, from its extension; `None` when unsupported.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Lang> {
        let ext = path.as_ref().extension()?.to_str()?;
        Lang::from_extension(ext)
    }

    /// The language for a file extension (without the dot, case-sensitive),
    /// without a repository-level hint ([`LangInfo::extensions`]): `.c` and
    /// `.h` are C; `.cc .cpp .cxx .c++ .hpp .hh .hxx .h++ .ipp .inl .tpp` are
    /// C++ (`docs/target-rules.md`). [`Lang::for_source`] refines `.h` by
    /// content and by a hint.
    pub fn from_extension(ext: &str) -> Option<Lang> {
        LANGS
            .iter()
            .find(|i| i.extensions.contains(&ext))
            .map(|i| i.lang)
    }

    /// The language of a file from its name, its bytes and an optional
    /// repository-level language (`hint`: an instance's `language` field, a
    /// `--lang-hint` option).
    ///
    /// The extension decides, except for the C family:
    /// - with hint [`Lang::Cpp`] (a repository SWE-bench labels C++), every C
    ///   or C++ extension, `.c` and `.h` included, is C++;
    /// - with hint [`Lang::C`], `.c` and `.h` are C;
    /// - without a C-family hint, `.c` is C and `.h` is C++ when its text has a
    ///   C++-only construct outside comments and strings (see
    ///   [`looks_like_cpp`](crate::looks_like_cpp)), else C.
    ///
    /// ```
    /// use codethread_lang::Lang;
    /// assert_eq!(Lang::for_source("a.h", b"int f(void);", None), Some(Lang::C));
    /// assert_eq!(Lang::for_source("a.h", b"namespace x { class A; }", None), Some(Lang::Cpp));
    /// assert_eq!(Lang::for_source("a.c", b"int x;", Some(Lang::Cpp)), Some(Lang::Cpp));
    /// ```
    pub fn for_source(path: impl AsRef<Path>, source: &[u8], hint: Option<Lang>) -> Option<Lang> {
        let path = path.as_ref();
        let ext = path.extension()?.to_str()?;
        let lang = Lang::from_extension(ext)?;
        if !lang.is_c_family() {
            return Some(lang);
        }
        Some(match hint {
            Some(Lang::Cpp) => Lang::Cpp,
            Some(Lang::C) if lang == Lang::C => Lang::C,
            _ if ext == "h" && crate::cfamily::looks_like_cpp(source) => Lang::Cpp,
            _ => lang,
        })
    }

    /// Lower-case name used in outputs: `python`, `go`, `rust`, `javascript`,
    /// `typescript`, `tsx`, `java`, `c`, `cpp`, `ruby`, `php`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Parse a name produced by [`Lang::name`] (also accepts the
    /// [`LangInfo::aliases`] `js`, `ts`, `py`, `rs`, `c++`, `rb`, ..., and
    /// the `language` values of SWE-bench Multilingual and Multi-SWE-bench:
    /// `C++`, `Java`, `PHP`, ...; case-insensitive, trimmed).
    pub fn from_name(name: &str) -> Option<Lang> {
        let name = name.trim().to_ascii_lowercase();
        LANGS
            .iter()
            .find(|i| i.name == name || i.aliases.contains(&name.as_str()))
            .map(|i| i.lang)
    }

    /// The info string of a Markdown code fence for this language's code
    /// (`python`, `go`, `rust`, `javascript`, `typescript`, `tsx`, `java`, `c`,
    /// `cpp`, `ruby`, `php`).
    pub fn fence(self) -> &'static str {
        self.info().fence
    }

    /// The line-comment opener (`#` for Python and Ruby, `//` otherwise; PHP
    /// also has `#`, C has `//` since C99).
    pub fn line_comment(self) -> &'static str {
        self.info().line_comment
    }

    /// Node kinds of comments in the language's grammar.
    pub fn comment_kinds(self) -> &'static [&'static str] {
        self.info().comment_kinds
    }

    /// True for C and C++.
    pub fn is_c_family(self) -> bool {
        self.info().family == Family::C
    }

    /// True for the JavaScript family (JavaScript, TypeScript, TSX).
    pub fn is_js_family(self) -> bool {
        self.info().family == Family::Js
    }

    /// Grammars to try, in order, when a file of this language does not parse
    /// cleanly: Flow-typed JavaScript parses only as TypeScript or TSX.
    pub fn fallback_grammars(self) -> &'static [Lang] {
        self.info().fallback_grammars
    }

    /// The tree-sitter grammar, or `None` when this build of the crate left
    /// the language's grammar out (its cargo feature, [`Lang::feature`], is
    /// off). Parsing such a language is [`crate::LangError::GrammarNotBuilt`].
    pub fn ts_language(self) -> Option<tree_sitter::Language> {
        (self.info().grammar)()
    }

    /// True when this build holds the language's grammar.
    pub fn grammar_built(self) -> bool {
        self.ts_language().is_some()
    }

    /// The cargo feature of this crate that builds the language's grammar
    /// (all are on by default; TypeScript and TSX share `typescript`).
    pub fn feature(self) -> &'static str {
        self.info().feature
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// Every node kind a row names exists in its grammar (a misspelt kind
    /// would silently match nothing).
    #[test]
    fn row_kinds_exist_in_their_grammar() {
        for info in &LANGS {
            let Some(g) = (info.grammar)() else { continue };
            for &kind in info.comment_kinds.iter().chain(info.string_kinds) {
                assert_ne!(
                    g.id_for_node_kind(kind, true),
                    0,
                    "{}: no node kind {kind}",
                    info.name
                );
            }
        }
    }

    #[test]
    fn names_and_extensions_are_unique() {
        let mut names: Vec<&str> = LANGS
            .iter()
            .flat_map(|i| std::iter::once(i.name).chain(i.aliases.iter().copied()))
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n, "a name or alias names two languages");
        let mut exts: Vec<&str> = LANGS
            .iter()
            .flat_map(|i| i.extensions.iter().copied())
            .collect();
        let n = exts.len();
        exts.sort_unstable();
        exts.dedup();
        assert_eq!(exts.len(), n, "an extension names two languages");
    }
}
