//! The supported languages and how files map to them.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::info::{Family, LangInfo, LANGS};

/// A language (grammar) codethread can parse.
///
/// JavaScript covers `.js`, `.mjs`, `.cjs` and `.jsx`; TypeScript covers `.ts`,
/// `.mts` and `.cts`; `.tsx` has its own grammar. `.h` (and `.c` in a C++
/// repository) is ambiguous between C and C++: see [`Lang::for_source`].
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
    /// Java (tree-sitter-java).
    Java,
    /// C (tree-sitter-c).
    C,
    /// C++ (tree-sitter-cpp).
    Cpp,
    /// Ruby (tree-sitter-ruby).
    Ruby,
    /// PHP, text outside `<?php` allowed (tree-sitter-php's `LANGUAGE_PHP`).
    Php,
}

impl Lang {
    /// Every supported language.
    pub const ALL: [Lang; Lang::COUNT] = [
        Lang::Python,
        Lang::Go,
        Lang::Rust,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Java,
        Lang::C,
        Lang::Cpp,
        Lang::Ruby,
        Lang::Php,
    ];

    /// The number of languages (the length of [`Lang::ALL`]).
    pub const COUNT: usize = 11;

    /// The language's row of the language table: the one dispatch point
    /// every other per-language method reads.
    pub fn info(self) -> &'static LangInfo {
        &LANGS[self as usize]
    }

    /// Position of the language in [`Lang::ALL`] (a dense index for tables).
    pub fn index(self) -> usize {
        self as usize
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

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
