//! The C and C++ macro rules ([`MacroRules`] data, read by
//! `codethread-lex`'s masking pass) and the masking entry points by
//! language: the pass itself is in `codethread_lex::preproc`; the rule of
//! which identifiers are masked is in `docs/lang.md`, "Macro masking".
//! The masked parse is used only when the plain one has errors and the
//! masked one has fewer ([`tolerant`]).

use codethread_lex::preproc::{CallClass, MacroRules};

use crate::{parse, Lang, ParsedFile};

pub(crate) static C_FAMILY: MacroRules = MacroRules {
    specifier_keywords: &[
        "static",
        "inline",
        "constexpr",
        "consteval",
        "constinit",
        "extern",
        "virtual",
        "explicit",
        "friend",
        "const",
        "volatile",
        "register",
        "thread_local",
        "_Thread_local",
        "__inline",
        "__inline__",
        "__forceinline",
        "typedef",
        "template",
        "public",
        "private",
        "protected",
    ],
    neutral_words: &[
        "static",
        "inline",
        "constexpr",
        "consteval",
        "constinit",
        "extern",
        "virtual",
        "explicit",
        "noexcept",
        "__inline",
        "__inline__",
        "__forceinline",
        "_Noreturn",
        "noreturn",
        "restrict",
        "__restrict",
        "__restrict__",
        "__cdecl",
        "__stdcall",
        "__fastcall",
        "__vectorcall",
        "override",
        "final",
    ],
    neutral_calls: &[
        "__attribute__",
        "__attribute",
        "__declspec",
        "alignas",
        "_Alignas",
        "noexcept",
        "throw",
        "__pragma",
        "_Pragma",
    ],
    trailing_keywords: &["override", "final", "noexcept", "const", "throw"],
    keyword_substitutions: &[],
    braced_defaults: false,
};

pub(crate) static CPP: MacroRules = MacroRules {
    keyword_substitutions: &[("CONSTEXPR", "constexpr"), ("CONSTEVAL", "consteval")],
    braced_defaults: true,
    ..C_FAMILY
};

/// The masking rules of a language, if it has a preprocessor.
pub fn macro_rules(lang: Lang) -> Option<&'static MacroRules> {
    lang.info().macros
}

/// The spans (start, end) of the identifiers to mask in `src`, in order
/// (`codethread_lex::preproc::macro_mask_spans_in` with the language's
/// rules; none for a language without them).
pub fn macro_mask_spans(lang: Lang, src: &[u8]) -> Vec<(usize, usize)> {
    macro_mask_spans_in(lang, src, None)
}

/// [`macro_mask_spans`] of `src`, a part of a larger file, with the names
/// that file defines taken from `defines` (its `directive_lines`).
pub fn macro_mask_spans_in(lang: Lang, src: &[u8], defines: Option<&[u8]>) -> Vec<(usize, usize)> {
    macro_rules(lang).map_or_else(Vec::new, |r| {
        codethread_lex::preproc::macro_mask_spans_in(r, src, defines)
    })
}

/// The spans of function-like macro calls to blank
/// (`codethread_lex::preproc::macro_call_spans_in` with the language's
/// rules).
pub fn macro_call_spans(lang: Lang, src: &[u8]) -> Vec<(usize, usize, CallClass)> {
    macro_call_spans_in(lang, src, None)
}

/// [`macro_call_spans`] of `src`, a part of a larger file whose directive
/// lines are `defines`.
pub fn macro_call_spans_in(
    lang: Lang,
    src: &[u8],
    defines: Option<&[u8]>,
) -> Vec<(usize, usize, CallClass)> {
    macro_rules(lang).map_or_else(Vec::new, |r| {
        codethread_lex::preproc::macro_call_spans_in(r, src, defines)
    })
}

/// The preprocessor alternatives to blank
/// (`codethread_lex::preproc::alternative_spans`); none for a language
/// without macro rules.
pub fn alternative_spans(lang: Lang, src: &[u8]) -> Vec<(usize, usize)> {
    if macro_rules(lang).is_none() {
        return Vec::new();
    }
    codethread_lex::preproc::alternative_spans(src)
}

/// `src` masked for the parser (`codethread_lex::preproc::mask_macros_in`
/// with the language's rules), or `None` when nothing is masked.
pub fn mask_macros(lang: Lang, src: &[u8]) -> Option<Vec<u8>> {
    mask_macros_in(lang, src, None)
}

/// [`mask_macros`] of `src`, a part of a larger file whose directive lines
/// are `defines`: the macros masked are those the whole file defines.
pub fn mask_macros_in(lang: Lang, src: &[u8], defines: Option<&[u8]>) -> Option<Vec<u8>> {
    codethread_lex::preproc::mask_macros_in(macro_rules(lang)?, src, defines)
}

/// The tolerant parse: `file` itself when it has no error or its language
/// has no macro rules; otherwise the parse of the masked text, labelled
/// with the original bytes, when that has fewer ERROR/MISSING nodes.
///
/// A grammar that cannot load or a parse that aborts keeps `file`.
pub fn tolerant(file: ParsedFile) -> ParsedFile {
    if file.parse_errors == 0 || file.lang != file.grammar {
        return file;
    }
    let Some(masked) = mask_macros(file.lang, &file.source) else {
        return file;
    };
    match parse(file.lang, masked) {
        Ok(mut alt) if alt.parse_errors < file.parse_errors => {
            alt.source = file.source;
            alt
        }
        _ => file,
    }
}

#[cfg(test)]
mod chain_tests {
    /// Issue 31: a chain of empty defines three and more deep is neutral to
    /// its end (two passes stopped at the second link).
    #[test]
    fn neutral_define_chains_are_followed() {
        let src = b"#define A\n#define B A\n#define C B\n#define D C\n#define E D\nE int f(void) { return 1; }\n";
        let spans = super::macro_mask_spans(crate::Lang::C, src);
        let at = src.windows(6).position(|w| w == b"E int ").unwrap_or(0);
        assert!(spans.contains(&(at, at + 1)), "{spans:?}");
    }
}
