//! Macro-tolerant parsing of C and C++: a same-length masking pass.
//!
//! tree-sitter does not run the preprocessor, so an object-like macro that
//! expands to an attribute, a storage keyword, nothing, or a namespace brace
//! (`FMT_CONSTEXPR auto f()`, `FMT_API void g()`, a lone `FMT_BEGIN_NAMESPACE`
//! line) sends its error recovery astray, often over a whole class. This pass
//! replaces such identifiers with spaces of the same length before parsing,
//! so every byte offset of the tree is an offset of the original text; the
//! caller keeps the original bytes as `ParsedFile::source`, and stubs are
//! spliced into the original, never into the masked copy.
//!
//! Which identifiers are masked (the rule is in `docs/lang.md`, "Macro
//! masking"):
//! 1. names the file itself `#define`s as object-like macros whose every
//!    definition expands to nothing, to keywords and attributes of
//!    [`MacroRules`], or to namespace braces (`namespace fmt { inline
//!    namespace v10 {` / `}}`);
//! 2. an identifier of the macro shape (upper case, digits and at least one
//!    `_`, not followed by `(`, not defined by the file as anything else) in
//!    declaration-specifier position: after a declaration boundary (`;`, `{`,
//!    `}`, a template header's `>`, a label's `:`, a preprocessor line, a
//!    specifier keyword or another masked name) and before a type and a
//!    declarator (`FMT_CONSTEXPR auto parse(`), or alone on its line between
//!    declarations (`FMT_BEGIN_NAMESPACE`), or between a parameter list and a
//!    body (`void f() FMT_NOEXCEPT {`).
//!
//! An identifier followed directly by a declarator (`MY_TYPE f(`) is a type
//! and is kept. In C++ a masked name with `CONSTEXPR` / `CONSTEVAL` in it is
//! written as that keyword padded with spaces, so a stub of such a function
//! is flagged `constexpr_stub` like one of a real `constexpr` function. The masked parse is used only when the plain one has errors
//! and the masked one has fewer (`codethread_lang::tolerant`).

/// What the masking pass knows of a language (data, read by one scanner).
#[derive(Debug)]
pub struct MacroRules {
    /// Keywords that may stand before a masked name in a declaration
    /// (`static FMT_NOINLINE void f()`).
    pub specifier_keywords: &'static [&'static str],
    /// Words an expansion may consist of for the macro to be neutral.
    pub neutral_words: &'static [&'static str],
    /// Words that take a balanced `( … )` in a neutral expansion
    /// (`__attribute__((always_inline))`, `__declspec(dllexport)`).
    pub neutral_calls: &'static [&'static str],
    /// Keywords that may follow a parameter list before the body.
    pub trailing_keywords: &'static [&'static str],
    /// A masked name containing the first part is written as the keyword
    /// of the second, padded with spaces (`FMT_CONSTEXPR` → `constexpr    `),
    /// so that rules reading the header still see it (the skeleton's
    /// `constexpr_stub` warning). Empty for C, whose grammar has no such
    /// keyword.
    pub keyword_substitutions: &'static [(&'static str, &'static str)],
    /// Whether a parameter's braced default `= {}` (C++) is written `= 0 `
    /// in the parse view: tree-sitter's C++ grammar takes only an
    /// expression after the `=` and leaves a MISSING node there (fmt's
    /// `locale_ref loc = {}`), which keeps the function from being stubbed.
    pub braced_defaults: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Ident,
    Punct(u8),
    /// A preprocessor line (a declaration boundary).
    Directive,
    /// Literal or number.
    Other,
}

#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Tok,
    start: usize,
    end: usize,
    line: usize,
}

/// Tokens outside comments; preprocessor lines are one [`Tok::Directive`]
/// each, and their `#define`s are returned as (name, expansion) spans.
/// A `#define`: name start, name end, expansion start, expansion end.
type Define = (usize, usize, usize, usize);

fn tokenize(src: &[u8]) -> (Vec<Token>, Vec<Define>) {
    let mut toks = Vec::new();
    let defines = lex(src, &mut |t| toks.push(t));
    (toks, defines)
}

/// The preprocessor lines of `src` (with their continuations), one per
/// line: what a chunk of a large file needs to know of the whole file's
/// macros ([`mask_macros_in`]). One pass, no token kept.
pub fn directive_lines(src: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    lex(src, &mut |t| {
        if t.kind == Tok::Directive {
            out.extend_from_slice(&src[t.start..t.end]);
            out.push(b'\n');
        }
    });
    out
}

/// The tokenizer behind [`tokenize`]: each token to `emit`, the
/// `#define`s returned.
fn lex(src: &[u8], emit: &mut dyn FnMut(Token)) -> Vec<Define> {
    let mut defines = Vec::new();
    let n = src.len();
    let mut i = 0;
    let mut line = 0usize;
    let mut line_start = true;
    while i < n {
        let c = src[i];
        if c == b'\n' {
            line += 1;
            line_start = true;
            i += 1;
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' || c == b'\x0c' || c == b'\x0b' {
            i += 1;
            continue;
        }
        if c == b'\\' && src.get(i + 1) == Some(&b'\n') {
            i += 2;
            line += 1;
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            while i < n && src[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < n && !(src[i] == b'*' && src.get(i + 1) == Some(&b'/')) {
                line += usize::from(src[i] == b'\n');
                i += 1;
            }
            i = (i + 2).min(n);
            continue;
        }
        if c == b'#' && line_start {
            let start = i;
            // The logical line, with continuations; comments end nothing.
            let mut j = i;
            while j < n && src[j] != b'\n' {
                if src[j] == b'\\' && src.get(j + 1) == Some(&b'\n') {
                    j += 1;
                    line += 1;
                } else if src[j] == b'/' && src.get(j + 1) == Some(&b'*') {
                    j += 2;
                    while j < n && !(src[j] == b'*' && src.get(j + 1) == Some(&b'/')) {
                        line += usize::from(src[j] == b'\n');
                        j += 1;
                    }
                    j = j.saturating_add(1).min(n.saturating_sub(1));
                }
                j += 1;
            }
            let end = j.min(n);
            if let Some(d) = define_of(src, start, end) {
                defines.push(d);
            }
            emit(Token {
                kind: Tok::Directive,
                start,
                end,
                line,
            });
            i = end;
            continue;
        }
        line_start = false;
        let start = i;
        if c == b'_' || c.is_ascii_alphabetic() {
            while i < n && (src[i] == b'_' || src[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            // Raw string: R"delim( … )delim" (with an encoding prefix).
            let word = &src[start..i];
            if src.get(i) == Some(&b'"') && matches!(word, b"R" | b"u8R" | b"uR" | b"UR" | b"LR") {
                i = skip_raw_string(src, i, &mut line);
                emit(Token {
                    kind: Tok::Other,
                    start,
                    end: i,
                    line,
                });
                continue;
            }
            emit(Token {
                kind: Tok::Ident,
                start,
                end: i,
                line,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && src.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            while i < n
                && (src[i].is_ascii_alphanumeric()
                    || src[i] == b'.'
                    || src[i] == b'_'
                    || (src[i] == b'\'' && src.get(i + 1).is_some_and(u8::is_ascii_alphanumeric))
                    || ((src[i] == b'+' || src[i] == b'-')
                        && matches!(src[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            emit(Token {
                kind: Tok::Other,
                start,
                end: i,
                line,
            });
            continue;
        }
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < n && src[i] != c && src[i] != b'\n' {
                if src[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(n);
            emit(Token {
                kind: Tok::Other,
                start,
                end: i,
                line,
            });
            continue;
        }
        i += 1;
        emit(Token {
            kind: Tok::Punct(c),
            start,
            end: i,
            line,
        });
    }
    defines
}

fn skip_raw_string(src: &[u8], quote: usize, line: &mut usize) -> usize {
    let n = src.len();
    let mut j = quote + 1;
    while j < n && src[j] != b'(' && src[j] != b'\n' && j - quote <= 17 {
        j += 1;
    }
    if src.get(j) != Some(&b'(') {
        return (quote + 1).min(n);
    }
    let delim = &src[quote + 1..j];
    let mut k = j + 1;
    while k < n {
        if src[k] == b')'
            && src[k + 1..].starts_with(delim)
            && src.get(k + 1 + delim.len()) == Some(&b'"')
        {
            return k + delim.len() + 2;
        }
        *line += usize::from(src[k] == b'\n');
        k += 1;
    }
    n
}

/// `#define NAME expansion` (object-like only): name start/end, expansion
/// start/end.
fn define_of(src: &[u8], start: usize, end: usize) -> Option<Define> {
    let s = &src[start..end];
    let mut i = 1;
    let ws = |b: u8| b == b' ' || b == b'\t';
    while i < s.len() && ws(s[i]) {
        i += 1;
    }
    if !s[i..].starts_with(b"define") {
        return None;
    }
    i += 6;
    if i >= s.len() || !ws(s[i]) {
        return None;
    }
    while i < s.len() && ws(s[i]) {
        i += 1;
    }
    let ns = i;
    while i < s.len() && (s[i] == b'_' || s[i].is_ascii_alphanumeric()) {
        i += 1;
    }
    if i == ns || s.get(i) == Some(&b'(') {
        return None;
    }
    Some((start + ns, start + i, start + i, end))
}

/// Whether an expansion consists only of neutral words, calls, attributes
/// `[[…]]`, names in `known` (sorted), or namespace braces.
fn neutral_expansion(text: &[u8], rules: &MacroRules, known: &[&[u8]]) -> bool {
    let (toks, _) = tokenize(text);
    let word = |t: &Token| &text[t.start..t.end];
    let mut i = 0;
    while i < toks.len() {
        let t = toks[i];
        match t.kind {
            Tok::Ident => {
                let w = word(&t);
                if rules.neutral_calls.iter().any(|c| c.as_bytes() == w)
                    && matches!(
                        toks.get(i + 1),
                        Some(Token {
                            kind: Tok::Punct(b'('),
                            ..
                        })
                    )
                {
                    i = skip_balanced(&toks, i + 1, b'(', b')');
                    continue;
                }
                if w == b"namespace" {
                    // namespace [NAME] {
                    let mut j = i + 1;
                    if matches!(
                        toks.get(j),
                        Some(Token {
                            kind: Tok::Ident,
                            ..
                        })
                    ) {
                        j += 1;
                    }
                    if !matches!(
                        toks.get(j),
                        Some(Token {
                            kind: Tok::Punct(b'{'),
                            ..
                        })
                    ) {
                        return false;
                    }
                    i = j + 1;
                    continue;
                }
                if !(w == b"inline"
                    || rules.neutral_words.iter().any(|k| k.as_bytes() == w)
                    || known.binary_search(&w).is_ok())
                {
                    return false;
                }
                i += 1;
            }
            Tok::Punct(b'[')
                if matches!(
                    toks.get(i + 1),
                    Some(Token {
                        kind: Tok::Punct(b'['),
                        ..
                    })
                ) =>
            {
                i = skip_balanced(&toks, i, b'[', b']');
            }
            Tok::Punct(b'}') => i += 1,
            _ => return false,
        }
    }
    // Closing braces only, or no brace at all, or openings only.
    let opens = toks.iter().any(|t| t.kind == Tok::Punct(b'{'));
    let closes = toks.iter().any(|t| t.kind == Tok::Punct(b'}'));
    !(opens && closes)
}

fn skip_balanced(toks: &[Token], open_at: usize, open: u8, close: u8) -> usize {
    let mut depth = 0usize;
    let mut j = open_at;
    while j < toks.len() {
        match toks[j].kind {
            Tok::Punct(c) if c == open => depth += 1,
            Tok::Punct(c) if c == close => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    toks.len()
}

/// For every `open` token, the index just past its matching `close` (as
/// [`skip_balanced`] finds it), or `toks.len()` when it is never closed;
/// `usize::MAX` for other tokens. One pass with a stack, so a file of many
/// unclosed `NAME(` calls costs linear time, not one rescan per call.
fn balanced_closes(toks: &[Token], open: u8, close: u8) -> Vec<usize> {
    let mut out = vec![usize::MAX; toks.len()];
    let mut stack: Vec<usize> = Vec::new();
    for (j, t) in toks.iter().enumerate() {
        match t.kind {
            Tok::Punct(c) if c == open => {
                out[j] = toks.len();
                stack.push(j);
            }
            Tok::Punct(c) if c == close => {
                if let Some(o) = stack.pop() {
                    out[o] = j + 1;
                }
            }
            _ => {}
        }
    }
    out
}

fn macro_shaped(w: &[u8]) -> bool {
    w.len() >= 3
        && w[0].is_ascii_uppercase()
        && w.contains(&b'_')
        && w.iter()
            .all(|&b| b == b'_' || b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// `macro_mask_spans` of `src`, a part of a larger file, with the names
/// that file defines taken from `defines` (its [`directive_lines`]) instead
/// of from `src` alone: a chunk of a large file masks the macros the whole
/// file defines, wherever their `#define` is.
pub fn macro_mask_spans_in(
    rules: &MacroRules,
    src: &[u8],
    defines: Option<&[u8]>,
) -> Vec<(usize, usize)> {
    let (toks, local) = tokenize(src);
    let (dsrc, defines) = match defines {
        Some(d) => (d, tokenize(d).1),
        None => (src, local),
    };
    // Names the file defines, neutral only if every definition is neutral
    // (each pass lets a neutral macro be defined by one found neutral in the
    // pass before: passes until nothing changes, at most
    // NEUTRAL_CHAIN_PASSES, a chain of defines that deep).
    let mut neutral: Vec<&[u8]> = Vec::new();
    let mut other: Vec<&[u8]> = Vec::new();
    for _ in 0..NEUTRAL_CHAIN_PASSES {
        let before = neutral.len();
        let mut n2: Vec<&[u8]> = Vec::new();
        let mut o2: Vec<&[u8]> = Vec::new();
        for &(ns, ne, es, ee) in &defines {
            let name = &dsrc[ns..ne];
            if neutral_expansion(&dsrc[es..ee], rules, &neutral) {
                n2.push(name);
            } else {
                o2.push(name);
            }
        }
        o2.sort_unstable();
        o2.dedup();
        n2.retain(|n| o2.binary_search(n).is_err());
        n2.sort_unstable();
        n2.dedup();
        neutral = n2;
        other = o2;
        if neutral.len() == before {
            break;
        }
    }
    let word = |t: &Token| &src[t.start..t.end];
    let is_ident = |t: Option<&Token>| t.is_some_and(|t| t.kind == Tok::Ident);
    let mut masked = vec![false; toks.len()];
    let mut out = Vec::new();
    for k in 0..toks.len() {
        let t = toks[k];
        if t.kind != Tok::Ident {
            continue;
        }
        let w = word(&t);
        let next = toks.get(k + 1);
        if neutral.binary_search(&w).is_ok() {
            masked[k] = true;
            out.push((t.start, t.end));
            continue;
        }
        if !macro_shaped(w)
            || other.binary_search(&w).is_ok()
            || matches!(
                next,
                Some(Token {
                    kind: Tok::Punct(b'('),
                    ..
                })
            )
        {
            continue;
        }
        let prev = k.checked_sub(1).map(|p| (p, toks[p]));
        let boundary = match prev {
            None => true,
            Some((p, pt)) => {
                masked[p]
                    || match pt.kind {
                        Tok::Directive => true,
                        Tok::Punct(b';' | b'{' | b'}') => true,
                        Tok::Punct(b'>') => {
                            !(p > 0
                                && toks[p - 1].kind == Tok::Punct(b'-')
                                && toks[p - 1].end == pt.start)
                        }
                        Tok::Punct(b':') => !(p > 0 && toks[p - 1].kind == Tok::Punct(b':')),
                        Tok::Ident => rules
                            .specifier_keywords
                            .iter()
                            .any(|s| s.as_bytes() == word(&pt)),
                        _ => false,
                    }
            }
        };
        let lone =
            prev.is_none_or(|(_, pt)| pt.line < t.line) && next.is_none_or(|nt| nt.line > t.line);
        let hit = if boundary && lone {
            // Between declarations: what follows starts a declaration.
            match next {
                None => true,
                Some(nt) => matches!(
                    nt.kind,
                    Tok::Ident | Tok::Directive | Tok::Punct(b'[' | b'~')
                ),
            }
        } else if boundary && is_ident(next) {
            // A type, then a declarator: `FMT_API void f(`, `X auto g(`; a
            // name written as a keyword (`FMT_CONSTEXPR`) is never a type,
            // so it also stands before a constructor (`FMT_CONSTEXPR
            // write_int_data(`).
            let keyword = rules
                .keyword_substitutions
                .iter()
                .any(|(part, _)| w.windows(part.len()).any(|x| x == part.as_bytes()));
            let after = toks.get(k + 2);
            match after.map(|a| a.kind) {
                Some(Tok::Punct(b'(')) if keyword => true,
                Some(Tok::Ident) => true,
                Some(Tok::Punct(b'*' | b'&' | b'<')) => true,
                Some(Tok::Punct(b':')) => {
                    toks.get(k + 3).is_some_and(|x| x.kind == Tok::Punct(b':'))
                }
                _ => false,
            }
        } else {
            // Between a parameter list and a body.
            let after_params = prev.is_some_and(|(_, pt)| {
                pt.kind == Tok::Punct(b')')
                    || (pt.kind == Tok::Ident
                        && rules
                            .trailing_keywords
                            .iter()
                            .any(|s| s.as_bytes() == word(&pt)))
            });
            after_params
                && next.is_some_and(|nt| {
                    nt.kind == Tok::Punct(b'{')
                        || (nt.kind == Tok::Ident
                            && rules
                                .trailing_keywords
                                .iter()
                                .any(|s| s.as_bytes() == word(nt)))
                })
        };
        if hit {
            masked[k] = true;
            out.push((t.start, t.end));
        }
    }
    out
}

/// How deep a chain of neutral defines is followed (`#define A`, `#define
/// B A`, `#define C B`, ...): one pass over the defines per link.
const NEUTRAL_CHAIN_PASSES: usize = 8;

/// How an invocation of a function-like macro is written in the parse view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallClass {
    /// A template parameter with a default (`FMT_ENABLE_IF(…)`, whose
    /// expansion ends in `= 0`), written `int=0` padded with spaces.
    TemplateParam,
    /// A declaration specifier or attribute (an expansion of neutral words,
    /// attributes or nothing), or a statement-like invocation alone on its
    /// line with no `;` after it (`FMT_MSC_WARNING(suppress : 6102)`):
    /// spaces.
    Blank,
}

/// `#define NAME(params) expansion` (function-like only): name start/end,
/// expansion start/end.
fn fn_define_of(src: &[u8], start: usize, end: usize) -> Option<Define> {
    let s = &src[start..end];
    let ws = |b: u8| b == b' ' || b == b'\t';
    let mut i = 1;
    while i < s.len() && ws(s[i]) {
        i += 1;
    }
    if !s.get(i..)?.starts_with(b"define") {
        return None;
    }
    i += 6;
    while i < s.len() && ws(s[i]) {
        i += 1;
    }
    let ns = i;
    while i < s.len() && (s[i] == b'_' || s[i].is_ascii_alphanumeric()) {
        i += 1;
    }
    if i == ns || s.get(i) != Some(&b'(') {
        return None;
    }
    let ne = i;
    let close = s[i..].iter().position(|&b| b == b')')? + i;
    Some((start + ns, start + ne, start + close + 1, end))
}

/// The class of a function-like macro's expansion, if it has one.
fn call_class_of(text: &[u8], rules: &MacroRules) -> Option<CallClass> {
    let (toks, _) = tokenize(text);
    let n = toks.len();
    if n >= 2
        && toks[n - 2].kind == Tok::Punct(b'=')
        && matches!(toks[n - 1].kind, Tok::Other | Tok::Ident)
    {
        // `= 0` not part of `==`, `<=`, `>=`, `!=`.
        let p = toks[n - 2];
        let joined = n >= 3
            && toks[n - 3].end == p.start
            && matches!(toks[n - 3].kind, Tok::Punct(b'=' | b'<' | b'>' | b'!'));
        if !joined {
            return Some(CallClass::TemplateParam);
        }
    }
    if neutral_expansion(text, rules, &[]) {
        return Some(CallClass::Blank);
    }
    None
}

/// `macro_call_spans` of `src`, a part of a larger file, with the
/// function-like macros that file defines taken from `defines` (its
/// [`directive_lines`]), as [`macro_mask_spans_in`].
pub fn macro_call_spans_in(
    rules: &MacroRules,
    src: &[u8],
    defines: Option<&[u8]>,
) -> Vec<(usize, usize, CallClass)> {
    let (toks, _) = tokenize(src);
    let dtoks;
    let (dsrc, directives): (&[u8], &[Token]) = match defines {
        Some(d) => {
            dtoks = tokenize(d).0;
            (d, &dtoks)
        }
        None => (src, &toks),
    };
    // Function-like defines of the file: name -> class (None: other).
    let mut defined: Vec<(&[u8], Option<CallClass>)> = directives
        .iter()
        .filter(|t| t.kind == Tok::Directive)
        .filter_map(|t| fn_define_of(dsrc, t.start, t.end))
        .map(|(ns, ne, es, ee)| (&dsrc[ns..ne], call_class_of(&dsrc[es..ee], rules)))
        .collect();
    defined.sort_by(|a, b| a.0.cmp(b.0));
    let mut classes: Vec<(&[u8], Option<CallClass>)> = Vec::new();
    for (name, class) in defined {
        match classes.last_mut() {
            Some(last) if last.0 == name => {
                if last.1 != class {
                    last.1 = None;
                }
            }
            _ => classes.push((name, class)),
        }
    }
    let word = |t: &Token| &src[t.start..t.end];
    let closes = balanced_closes(&toks, b'(', b')');
    let close_of = |at: usize| closes.get(at).copied().filter(|&c| c != usize::MAX);
    let mut out = Vec::new();
    // Angle depth inside a `template <` header (0: outside).
    let mut angle = 0usize;
    let mut k = 0;
    while k < toks.len() {
        let t = toks[k];
        match t.kind {
            Tok::Punct(b'<') if angle > 0 => angle += 1,
            Tok::Punct(b'<')
                if k > 0 && toks[k - 1].kind == Tok::Ident && word(&toks[k - 1]) == b"template" =>
            {
                angle = 1;
            }
            Tok::Punct(b'>') if angle > 0 => angle -= 1,
            Tok::Punct(b'(') if angle > 0 => {
                k = close_of(k).unwrap_or(toks.len());
                continue;
            }
            Tok::Punct(b';' | b'{' | b'}') => angle = 0,
            _ => {}
        }
        let is_call =
            t.kind == Tok::Ident && toks.get(k + 1).is_some_and(|n| n.kind == Tok::Punct(b'('));
        if !is_call {
            k += 1;
            continue;
        }
        let w = word(&t);
        let known = classes
            .binary_search_by(|c| c.0.cmp(w))
            .ok()
            .map(|i| classes[i].1);
        if known == Some(None) || (known.is_none() && !macro_shaped(w)) {
            k += 1;
            continue;
        }
        let close = close_of(k + 1).unwrap_or(toks.len());
        let Some(last) = close.checked_sub(1).map(|c| toks[c]) else {
            k += 1;
            continue;
        };
        if last.kind != Tok::Punct(b')') {
            k += 1;
            continue;
        }
        let prev = k.checked_sub(1).map(|p| toks[p]);
        let next = toks.get(close);
        let in_params = angle == 1
            && prev.is_some_and(|p| matches!(p.kind, Tok::Punct(b'<' | b',')))
            && next.is_some_and(|n| matches!(n.kind, Tok::Punct(b',' | b'>')));
        let lone = prev.is_none_or(|p| {
            p.line < t.line && matches!(p.kind, Tok::Directive | Tok::Punct(b';' | b'{' | b'}'))
        }) && next.is_none_or(|n| {
            n.line > last.line
                && (matches!(n.kind, Tok::Directive | Tok::Punct(b'}' | b'[' | b'~'))
                    || (n.kind == Tok::Ident))
        });
        // A file-scope statement that is only a call of a macro the file
        // does not define (`STATIC MP_DEFINE_CONST_OBJ_TYPE(…);`, which
        // expands to a definition): it starts at column 0 after a
        // declaration boundary, only upper-case words stand before the
        // call on its line, and `;` follows it. Blanked from the first word
        // through the `;`.
        let upper = |u: &Token| {
            u.kind == Tok::Ident && {
                let w = word(u);
                w.len() >= 2
                    && w.iter()
                        .all(|&b| b == b'_' || b.is_ascii_uppercase() || b.is_ascii_digit())
            }
        };
        let mut first = k;
        while first > 0 && toks[first - 1].line == t.line && upper(&toks[first - 1]) {
            first -= 1;
        }
        let head = toks[first];
        let at_column_0 = head.start == 0 || src.get(head.start - 1) == Some(&b'\n');
        let after_boundary = first == 0 || {
            let p = toks[first - 1];
            p.line < t.line && matches!(p.kind, Tok::Directive | Tok::Punct(b';' | b'{' | b'}'))
        };
        let semi = next.filter(|n| n.kind == Tok::Punct(b';')).copied();
        if let Some(semi) = semi.filter(|_| known.is_none() && at_column_0 && after_boundary) {
            out.push((head.start, semi.end, CallClass::Blank));
            k = close + 1;
            continue;
        }
        let class = match known {
            Some(Some(CallClass::TemplateParam)) | None if in_params => {
                Some(CallClass::TemplateParam)
            }
            Some(Some(CallClass::Blank)) | None if lone => Some(CallClass::Blank),
            _ => None,
        };
        if let Some(class) = class {
            out.push((t.start, last.end, class));
            k = close;
            continue;
        }
        k += 1;
    }
    out
}

/// The spans of conditional groups with no `#else` whose only text is a
/// neutral expansion (attributes, specifier keywords), as
/// `#if X` / `__attribute__((no_sanitize("undefined")))` / `#endif`
/// between a template header and its declaration, where the grammar
/// accepts no preprocessor line: from the `#if` line to the `#endif` line,
/// blanked in the parse view. One pass over the tokens.
fn conditional_attribute_spans(src: &[u8], rules: &MacroRules) -> Vec<(usize, usize)> {
    let (toks, _) = tokenize(src);
    let mut out = Vec::new();
    let mut k = 0;
    while k < toks.len() {
        let t = toks[k];
        let opens = t.kind == Tok::Directive
            && matches!(
                directive_word(&src[t.start..t.end]),
                b"if" | b"ifdef" | b"ifndef"
            );
        if !opens {
            k += 1;
            continue;
        }
        let Some(j) = (k + 1..toks.len()).find(|&j| toks[j].kind == Tok::Directive) else {
            break;
        };
        let end = toks[j];
        if j > k + 1
            && directive_word(&src[end.start..end.end]) == b"endif"
            && neutral_expansion(&src[toks[k + 1].start..toks[j - 1].end], rules, &[])
        {
            out.push((t.start, end.end));
            k = j + 1;
            continue;
        }
        k = j;
    }
    out
}

/// The byte offsets of the `{` of every empty braced default `= {}`
/// directly in a parenthesized list and followed by `,` or `)` (a
/// parameter's default argument): tokens are tracked with one stack of the
/// open brackets, in one pass.
fn braced_default_spans(src: &[u8]) -> Vec<usize> {
    let (toks, _) = tokenize(src);
    let mut open: Vec<u8> = Vec::new();
    let mut out = Vec::new();
    let punct = |k: usize, c: u8| toks.get(k).is_some_and(|t| t.kind == Tok::Punct(c));
    for (k, t) in toks.iter().enumerate() {
        match t.kind {
            Tok::Punct(c @ (b'(' | b'[' | b'{')) => open.push(c),
            Tok::Punct(b')' | b']' | b'}') => {
                open.pop();
            }
            Tok::Punct(b'=')
                if open.last() == Some(&b'(')
                    && punct(k + 1, b'{')
                    && punct(k + 2, b'}')
                    && (punct(k + 3, b',') || punct(k + 3, b')'))
                    && toks[k + 2].start == toks[k + 1].end
                    && !(k > 0 && toks[k - 1].end == t.start && toks[k - 1].kind != Tok::Ident) =>
            {
                out.push(toks[k + 1].start);
            }
            _ => {}
        }
    }
    out
}

/// The directive word of a preprocessor line (`#  ifdef X` gives `ifdef`).
fn directive_word(line: &[u8]) -> &[u8] {
    let mut i = usize::from(line.first() == Some(&b'#'));
    while i < line.len() && (line[i] == b' ' || line[i] == b'\t') {
        i += 1;
    }
    let s = i;
    while i < line.len() && line[i].is_ascii_alphabetic() {
        i += 1;
    }
    &line[s..i]
}

/// Whether a conditional's opening line is negated (`#ifndef X`,
/// `#if !defined(X)`, `#if !X`): its first branch is what a build without
/// the named macros compiles.
fn negated_opening(line: &[u8]) -> bool {
    let w = directive_word(line);
    if w == b"ifndef" {
        return true;
    }
    if w != b"if" {
        return false;
    }
    let pos = line
        .windows(2)
        .position(|x| x == b"if")
        .map_or(line.len(), |p| p + 2);
    line[pos..]
        .iter()
        .find(|b| !matches!(b, b' ' | b'\t' | b'('))
        == Some(&b'!')
}

/// The spans of the preprocessor alternatives of one construct: a
/// conditional group (`#if`/`#ifdef`/`#ifndef` … `#else` … `#endif`, with
/// any `#elif`s) with an `#else` whose every branch opens (or closes) the
/// same nonzero number of braces, as two headers of one function written
/// `#ifdef WIN32 int umain(…) { #else int main(…) { #endif body }` (jq's
/// `src/main.c`). The branch a default build compiles is kept (the
/// `#else` branch, or the first one when the group opens negated:
/// `#ifndef X`, `#if !defined(X)`); every other branch and the group's
/// directive lines are returned, to be blanked, so the parser sees one
/// function. Outermost such groups only; one pass over the tokens.
pub fn alternative_spans(src: &[u8]) -> Vec<(usize, usize)> {
    let (toks, _) = tokenize(src);
    alternatives_of(src, &toks)
}

fn alternatives_of(src: &[u8], toks: &[Token]) -> Vec<(usize, usize)> {
    /// An open group: the token index of each branch's directive and the
    /// brace delta of each branch.
    struct Group {
        branches: Vec<usize>,
        deltas: Vec<i64>,
        has_else: bool,
    }
    let mut stack: Vec<Group> = Vec::new();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut covered_to = 0usize;
    for (k, t) in toks.iter().enumerate() {
        match t.kind {
            Tok::Punct(c @ (b'{' | b'}')) => {
                // Nested groups count towards each enclosing branch.
                let d = if c == b'{' { 1 } else { -1 };
                for g in stack.iter_mut() {
                    if let Some(x) = g.deltas.last_mut() {
                        *x += d;
                    }
                }
            }
            Tok::Directive => {
                let w = directive_word(&src[t.start..t.end]);
                match w {
                    b"if" | b"ifdef" | b"ifndef" => stack.push(Group {
                        branches: vec![k],
                        deltas: vec![0],
                        has_else: false,
                    }),
                    b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                        if let Some(g) = stack.last_mut() {
                            g.branches.push(k);
                            g.deltas.push(0);
                            g.has_else |= w == b"else";
                        }
                    }
                    b"endif" => {
                        let Some(g) = stack.pop() else { continue };
                        let first = g.deltas[0];
                        let open = toks[g.branches[0]];
                        if !g.has_else
                            || first == 0
                            || g.deltas.iter().any(|&d| d != first)
                            || open.start < covered_to
                        {
                            continue;
                        }
                        let keep = if negated_opening(&src[open.start..open.end]) {
                            0
                        } else {
                            g.branches.len() - 1
                        };
                        // Drop spans of inner groups this one covers.
                        while out.last().is_some_and(|&(s, _)| s >= open.start) {
                            out.pop();
                        }
                        for (b, &at) in g.branches.iter().enumerate() {
                            let d = toks[at];
                            let branch_end =
                                g.branches.get(b + 1).map_or(t.start, |&n| toks[n].start);
                            if b == keep {
                                out.push((d.start, d.end));
                            } else {
                                out.push((d.start, branch_end));
                            }
                        }
                        out.push((t.start, t.end));
                        covered_to = t.end;
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }
    out
}

/// Where a stub that would start at `start` (just after a body's `{`) must
/// start so that it removes no preprocessor line closing or continuing a
/// group opened before the `{`: after the `#endif` (and an `#else` branch
/// up to it) that directly follow the opener line, as in jq's
/// `int main(…) {` / `#endif`. `start` itself when none follows; never
/// beyond `end`. Reads only the lines it skips.
pub fn after_group_tail(src: &[u8], start: usize, end: usize) -> usize {
    let end = end.min(src.len());
    let mut result = start;
    let Some(nl) = src
        .get(start..end)
        .and_then(|s| s.iter().position(|&b| b == b'\n'))
    else {
        return start;
    };
    let mut i = start + nl + 1;
    let mut in_alt = false;
    let mut depth = 0usize;
    while i < end {
        let line_end = src[i..end]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(end, |p| i + p);
        let line = &src[i..line_end];
        let t = line
            .iter()
            .position(|b| !matches!(b, b' ' | b'\t' | b'\r'))
            .map_or(&line[line.len()..], |p| &line[p..]);
        if t.first() == Some(&b'#') {
            let w = directive_word(t);
            match w {
                b"if" | b"ifdef" | b"ifndef" if in_alt => depth += 1,
                b"endif" if depth > 0 => depth -= 1,
                b"endif" => {
                    in_alt = false;
                    result = if line_end > 0 && src[line_end - 1] == b'\r' {
                        line_end - 1
                    } else {
                        line_end
                    };
                }
                b"else" | b"elif" | b"elifdef" | b"elifndef" if depth == 0 => in_alt = true,
                _ if in_alt => {}
                _ => break,
            }
        } else if !t.is_empty() && !in_alt {
            break;
        }
        i = line_end + 1;
    }
    if in_alt {
        // An alternative that never closes before the body's end: keep all.
        return start;
    }
    result
}

/// `mask_macros` of `src`, a part of a larger file whose
/// [`directive_lines`] are `defines`: the macros masked are those the whole
/// file defines ([`macro_mask_spans_in`], [`macro_call_spans_in`]), as in a
/// parse of the whole file.
pub fn mask_macros_in(rules: &MacroRules, src: &[u8], defines: Option<&[u8]>) -> Option<Vec<u8>> {
    let spans = macro_mask_spans_in(rules, src, defines);
    let alts = alternative_spans(src);
    let calls = macro_call_spans_in(rules, src, defines);
    let attrs = conditional_attribute_spans(src, rules);
    let braced = if rules.braced_defaults {
        braced_default_spans(src)
    } else {
        Vec::new()
    };
    if spans.is_empty()
        && alts.is_empty()
        && calls.is_empty()
        && attrs.is_empty()
        && braced.is_empty()
    {
        return None;
    }
    let mut out = src.to_vec();
    for at in braced {
        // `{}` becomes `0 ` (both bytes are the braces, adjacent).
        if let Some(b) = out.get_mut(at..at + 2) {
            b.copy_from_slice(b"0 ");
        }
    }
    for (s, e) in attrs {
        for b in &mut out[s..e] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    for &(s, e, class) in &calls {
        for b in &mut out[s..e] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
        if class == CallClass::TemplateParam {
            // `int=0` in the first five bytes that are not line breaks.
            let mut put = b"int=0".iter();
            for b in &mut out[s..e] {
                if *b == b' ' {
                    match put.next() {
                        Some(&c) => *b = c,
                        None => break,
                    }
                }
            }
        }
    }
    for (s, e) in alts {
        for b in &mut out[s..e] {
            if *b != b'\n' && *b != b'\r' {
                *b = b' ';
            }
        }
    }
    for (s, e) in spans {
        let name = &src[s..e];
        let kw = rules
            .keyword_substitutions
            .iter()
            .find(|(part, _)| name.windows(part.len()).any(|w| w == part.as_bytes()))
            .map(|(_, k)| k.as_bytes())
            .filter(|k| k.len() <= name.len());
        out[s..e].fill(b' ');
        if let Some(k) = kw {
            out[s..s + k.len()].copy_from_slice(k);
        }
    }
    Some(out)
}

/// The conditions of the preprocessor groups open at byte `at` of a C or
/// C++ source, outermost first: `#ifdef X` gives `defined(X)`, `#ifndef X`
/// `!defined(X)`, `#if E` / `#elif E` the text `E`; an `#else` branch is
/// the negation `!(…)` of the branch it follows. One linear scan of the
/// preprocessor lines before `at`.
pub fn open_conditions(src: &[u8], at: usize) -> Vec<String> {
    let (toks, _) = tokenize(&src[..at.min(src.len())]);
    let mut stack: Vec<String> = Vec::new();
    for t in toks.iter().filter(|t| t.kind == Tok::Directive) {
        let line = String::from_utf8_lossy(&src[t.start + 1..t.end]).replace("\\\n", " ");
        let line = line.trim_start();
        let (word, rest) = line
            .split_once(|c: char| c.is_whitespace())
            .unwrap_or((line, ""));
        let rest = rest.trim().to_string();
        match word {
            "ifdef" => stack.push(format!("defined({rest})")),
            "ifndef" => stack.push(format!("!defined({rest})")),
            "if" => stack.push(rest),
            "elif" | "elifdef" | "elifndef" => {
                if let Some(top) = stack.last_mut() {
                    *top = format!("!({top}) && {rest}");
                }
            }
            "else" => {
                if let Some(top) = stack.last_mut() {
                    *top = format!("!({top})");
                }
            }
            "endif" => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack
}

/// Whether a C or C++ function starting at byte `at` is test-only code: an
/// open preprocessor group's current branch is compiled only when a macro
/// with `TEST` in its name is defined (`#ifdef REDIS_TEST`, `#if
/// defined(FOO_TESTS) && X`, `#elif defined(BAR_TEST)`: its condition is
/// false whatever else is defined when no such macro is, as
/// the preprocessor-expression evaluator reads it); an `#ifndef` or `#else` branch never counts.
pub fn in_test_block(src: &[u8], at: usize) -> bool {
    let (toks, _) = tokenize(&src[..at.min(src.len())]);
    let no_tests = |name: &[u8]| name.windows(4).any(|w| w == b"TEST");
    // Per open group: whether its current branch is test-only.
    let mut stack: Vec<bool> = Vec::new();
    for t in toks.iter().filter(|t| t.kind == Tok::Directive) {
        let line: Vec<u8> = src[t.start + 1..t.end]
            .iter()
            .map(|&b| if b == b'\\' || b == b'\n' { b' ' } else { b })
            .collect();
        let l = {
            let k = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
            &line[k..]
        };
        let w = l
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .unwrap_or(l.len());
        let (word, rest) = l.split_at(w);
        let test_only = |cond: &[u8]| crate::ppexpr::eval(cond, &no_tests) == Some(false);
        match word {
            b"ifdef" => stack.push(test_only(&[b"defined ".as_slice(), rest].concat())),
            b"if" => stack.push(test_only(rest)),
            b"ifndef" => stack.push(false),
            b"elif" | b"elifdef" => {
                let cond = if word == b"elifdef" {
                    [b"defined ".as_slice(), rest].concat()
                } else {
                    rest.to_vec()
                };
                if let Some(top) = stack.last_mut() {
                    *top = test_only(&cond);
                }
            }
            b"elifndef" | b"else" => {
                if let Some(top) = stack.last_mut() {
                    *top = false;
                }
            }
            b"endif" => {
                stack.pop();
            }
            _ => {}
        }
    }
    stack.iter().any(|&t| t)
}

#[cfg(test)]
mod test_block_tests {
    use super::in_test_block;

    /// Issue 31: `#elif defined(X_TESTS)` (and every other way of writing
    /// a branch only a test build compiles) marks test code; a branch a
    /// build without tests may compile does not.
    #[test]
    fn test_only_branches_are_read_as_conditions() {
        let f = "int f(void) { return 1; }\n";
        for (open, test_only) in [
            ("#ifdef REDIS_TEST", true),
            ("#if defined(FOO_TESTS)", true),
            ("#if defined(FOO_TESTS) && !defined(NDEBUG)", true),
            ("#if REDIS_TEST", true),
            ("#if 0\n#elif defined(X_TESTS)", true),
            ("#if defined(A)\n#elif defined(X_TESTS)", true),
            ("#if defined(A)\n#elifdef X_TEST", true),
            ("#ifndef REDIS_TEST", false),
            ("#ifdef REDIS_TEST\n#else", false),
            ("#if defined(A) || defined(X_TEST)", false),
            ("#if !defined(X_TEST)", false),
            ("#ifdef REDIS_TEST\n#elifndef OTHER_TEST", false),
            ("#if defined(A)", false),
        ] {
            let src = format!("{open}\n{f}#endif\n");
            let at = src.find("int f").unwrap_or(0);
            assert_eq!(in_test_block(src.as_bytes(), at), test_only, "{open}");
        }
    }
}
