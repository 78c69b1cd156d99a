//! The lexical rules of every language ([`LexRules`] data, read by
//! `codethread-lex`'s one literal scanner): where a file's multi-line
//! literals and comments are, so that a large file is cut only at the top
//! level ([`crate::ChunkPlan`]).

use codethread_lex::literals::{q, Chars, LexRules, Literals, Quote, Regexes};

use crate::{Lang, PerLang};

const C_QUOTES: &[Quote] = &[q(b"\"", false)];
const C_LIKE: LexRules = LexRules {
    line_comments: &[b"//"],
    block_comment: Some((b"/*", b"*/", false)),
    quotes: C_QUOTES,
    chars: Chars::Simple,
    regexes: Regexes::None,
    cpp_raw: false,
    rust_raw: false,
    continued_line_comments: true,
    ruby: false,
};
const JS_QUOTES: &[Quote] = &[
    Quote {
        open: b"`",
        close: b"`",
        escapes: true,
        multiline: true,
        interp: Some(b"${"),
    },
    q(b"\"", false),
    q(b"'", false),
];
const JS: LexRules = LexRules {
    line_comments: &[b"//"],
    block_comment: Some((b"/*", b"*/", false)),
    quotes: JS_QUOTES,
    chars: Chars::None,
    regexes: Regexes::OneLine,
    cpp_raw: false,
    rust_raw: false,
    continued_line_comments: false,
    ruby: false,
};

/// The rules of every language (PHP is never cut: its rules are unused).
static RULES: PerLang<LexRules> = PerLang::new([
    (
        Lang::Python,
        LexRules {
            line_comments: &[b"#"],
            block_comment: None,
            quotes: &[
                q(b"\"\"\"", true),
                q(b"'''", true),
                q(b"\"", false),
                q(b"'", false),
            ],
            chars: Chars::None,
            regexes: Regexes::None,
            cpp_raw: false,
            rust_raw: false,
            continued_line_comments: false,
            ruby: false,
        },
    ),
    (
        Lang::Go,
        LexRules {
            quotes: &[
                Quote {
                    open: b"`",
                    close: b"`",
                    escapes: false,
                    multiline: true,
                    interp: None,
                },
                q(b"\"", false),
            ],
            continued_line_comments: false,
            ..C_LIKE
        },
    ),
    (
        Lang::Rust,
        LexRules {
            block_comment: Some((b"/*", b"*/", true)),
            quotes: &[q(b"\"", true)],
            chars: Chars::Rust,
            rust_raw: true,
            continued_line_comments: false,
            ..C_LIKE
        },
    ),
    (Lang::JavaScript, JS),
    (Lang::TypeScript, JS),
    (Lang::Tsx, JS),
    (
        Lang::Java,
        LexRules {
            quotes: &[q(b"\"\"\"", true), q(b"\"", false)],
            continued_line_comments: false,
            ..C_LIKE
        },
    ),
    (Lang::C, C_LIKE),
    (
        Lang::Cpp,
        LexRules {
            cpp_raw: true,
            ..C_LIKE
        },
    ),
    (
        Lang::Ruby,
        LexRules {
            line_comments: &[b"#"],
            block_comment: None,
            quotes: &[
                Quote {
                    open: b"\"",
                    close: b"\"",
                    escapes: true,
                    multiline: true,
                    interp: Some(b"#{"),
                },
                Quote {
                    open: b"`",
                    close: b"`",
                    escapes: true,
                    multiline: true,
                    interp: Some(b"#{"),
                },
                q(b"'", true),
            ],
            chars: Chars::None,
            regexes: Regexes::MultiLine,
            cpp_raw: false,
            rust_raw: false,
            continued_line_comments: false,
            ruby: true,
        },
    ),
    (Lang::Php, C_LIKE),
]);

/// The multi-line literals and comments of `src` as a `lang` file: one
/// linear pass ([`Literals::scan`] with the language's rules).
pub fn scan(lang: Lang, src: &[u8]) -> Literals {
    Literals::scan(RULES.get(lang), src)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    /// The spans' texts.
    fn spans(lang: Lang, src: &str) -> Vec<String> {
        scan(lang, src.as_bytes())
            .spans()
            .iter()
            .map(|&(s, e)| src[s..e].to_string())
            .collect()
    }

    #[test]
    fn multi_line_literals_of_every_language() {
        let py = "x = 1\ns = \"\"\"\ndef f():\n    pass\n\"\"\"\nt = r'''a\nb''' # c\nu = \"#\" + '\"'\ndef g(): pass\n";
        assert_eq!(
            spans(Lang::Python, py),
            ["\"\"\"\ndef f():\n    pass\n\"\"\"", "'''a\nb'''"]
        );
        let js =
            "const a = `x\n${f(`y\n`)}\n`;\nconst r = /\\/*[/*]/g;\nfunction f() {}\n/* c\n*/\n";
        assert_eq!(
            spans(Lang::JavaScript, js),
            ["`x\n${f(`y\n`)}\n`", "/* c\n*/"]
        );
        let c = "char q = '\"';\nint x = 1'000;\n/* a\nb */\n// x \\\ny\nconst char *s = R\"d(\n)\"\n)d\";\n";
        assert_eq!(
            spans(Lang::Cpp, c),
            ["/* a\nb */", "// x \\\ny", "R\"d(\n)\"\n)d\""]
        );
        let go = "var s = `a\n\"b`\nvar r = '`'\n";
        assert_eq!(spans(Lang::Go, go), ["`a\n\"b`"]);
        let rs = "fn f<'a>(x: &'a str) -> char { '\"' }\nconst S: &str = r#\"a\n\"#;\n/* a /* b */\n c */\nlet s = \"x\ny\";\n";
        assert_eq!(
            spans(Lang::Rust, rs),
            ["r#\"a\n\"#", "/* a /* b */\n c */", "\"x\ny\""]
        );
        let java = "String s = \"\"\"\n  a\n  \"\"\";\nchar c = '\"';\n";
        assert_eq!(spans(Lang::Java, java), ["\"\"\"\n  a\n  \"\"\""]);
        let rb = "x = <<~EOS\n  def f\n  end\n  EOS\ny = %q{a\n{b}\n}\n=begin\ndef g\n=end\nz = \"#{\"a\n\"}\"\n";
        assert_eq!(
            spans(Lang::Ruby, rb),
            [
                "\n  def f\n  end\n  EOS\n",
                "%q{a\n{b}\n}",
                "=begin\ndef g\n=end\n",
                "\"#{\"a\n\"}\""
            ]
        );
    }

    #[test]
    fn inside_means_after_the_first_byte() {
        let src = "a\n\"\"\"\nb\n\"\"\"\nc\n";
        let l = scan(Lang::Python, src.as_bytes());
        assert!(!l.inside(2)); // the line the literal opens on
        assert!(l.inside(6)); // `b`
        assert!(!l.inside(12)); // `c`
    }

    #[test]
    fn deep_interpolation_needs_no_recursion() {
        let n = 100_000;
        let src = format!("{}{}", "`${".repeat(n), "}`".repeat(n));
        let l = scan(Lang::JavaScript, src.as_bytes());
        assert!(l.spans().is_empty());
    }
}
