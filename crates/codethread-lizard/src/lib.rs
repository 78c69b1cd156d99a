//! A lizard-compatible token reader (lizard 1.24.3): the function list,
//! names, spans and CCN that lizard reports for C and C++, Ruby and PHP,
//! with no parser and no dependency. codethread-metrics turns its readings
//! into the paper profile's records for those languages.
//!
//! ```
//! use codethread_lizard::{read, tables};
//!
//! let src = b"namespace ns {\nint f(int a) {\n  if (a && a > 1) return 1;\n  return 0;\n}\n}\n";
//! let funcs = read(&tables::CPP, src);
//! assert_eq!(funcs.len(), 1);
//! assert_eq!(funcs[0].name, "ns::f");
//! assert_eq!((funcs[0].start_line, funcs[0].end_line), (2, 5));
//! assert_eq!(funcs[0].ccn, 3); // 1 + `if` + `&&`
//! ```
//!
//! lizard does not parse. It tokenizes (`tokens.rs`, rules per language),
//! runs each token through the same fixed pipeline (drop spaces / the C
//! preprocessor pass, comments, line counting, conditions) and feeds it to
//! the language's reader state machine (`clike.rs`, `ruby.rs`, `php.rs`),
//! which opens and closes functions in a shared context (`Context`). Every
//! per-language choice is a field of a [`LizardLang`] table ([`tables`]);
//! the pipeline and the context are one generic engine.
//!
//! CCN = 1 + each condition token met while a function is current. Where
//! lizard's block pairing goes wrong (see `docs/metrics.md`), so does this
//! reader, on purpose: the reference values are lizard's.

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod clike;
pub mod php;
pub mod ruby;
pub mod tables;
pub mod tokens;

use tokens::{Tok, TokenTable, Tokenizer};

/// How comments are recognized (after tokenizing).
#[derive(Debug, Clone, Copy)]
pub enum Comments {
    /// Tokens starting with `/*` or `//`; the comment text follows them.
    Slash,
    /// Tokens starting with `#`; the text is stripped of `#`s and spaces,
    /// and a `lizard forgive` directive is normalized.
    Hash,
}

/// The pass between tokenizing and comments.
#[derive(Debug, Clone, Copy)]
pub enum Preprocess {
    /// Drop space tokens (newlines stay).
    Plain,
    /// The C preprocessor pass: also glue `~` to the next token, drop
    /// `#directive` tokens (a `#if`, `#ifdef` or `#elif` adds 1 to the
    /// current function; `#include x` becomes the tokens `#include`, `x`),
    /// keeping their continuation lines as newlines.
    CLike,
}

/// The reader state machine a language uses.
#[derive(Debug, Clone, Copy)]
pub enum Machine {
    /// C/C++ functions, names with namespaces, nesting by braces, rvalue
    /// references taken back.
    CLike(&'static clike::CLikeTable),
    /// `def … end` block pairing.
    Rubylike(&'static ruby::RubyTable),
    /// PHP functions opened at `(`, classes and traits.
    Php(&'static php::PhpTable),
}

/// One language of the lizard reader.
#[derive(Debug)]
pub struct LizardLang {
    /// Tokenizer rules.
    pub tokens: &'static TokenTable,
    /// Tokens that add 1 to the current function's CCN.
    pub conditions: &'static [&'static [u8]],
    /// Comment recognition.
    pub comments: Comments,
    /// The pass before comments.
    pub preprocess: Preprocess,
    /// The reader.
    pub machine: Machine,
}

/// One function lizard reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LizardFunction {
    /// lizard's `name` (`ns::S::f`, `operator ==`, `self.x`, `Class::m`),
    /// shortened by [`MAX_NAME_SCOPES`] and [`MAX_NAME_BYTES`].
    pub name: String,
    /// Line of the function's name (1-based).
    pub start_line: usize,
    /// Line of the token that closed it.
    pub end_line: usize,
    /// CCN.
    pub ccn: i64,
    /// The name is not lizard's whole name (see [`SHORTENED`]).
    pub shortened: bool,
}

/// At most this many enclosing scopes (namespaces, classes, functions)
/// prefix a name, as for `codethread_lang` qualified names
/// (`MAX_QUALNAME_SCOPES`): deeper, the name keeps the outermost scope, one
/// `<N elided>::` component and the 30 innermost scopes.
pub const MAX_NAME_SCOPES: usize = 32;

/// A name (and a long name) keeps at most its first this many bytes (cut
/// back to a character boundary), then [`CUT_MARK`].
pub const MAX_NAME_BYTES: usize = 1024;

/// Written after a name cut at [`MAX_NAME_BYTES`].
pub const CUT_MARK: &str = "<cut>";

/// The note on a record whose name is shortened.
pub const SHORTENED: &str = "name shortened: over 32 scopes or 1024 bytes";

/// A byte string of which only the first [`MAX_NAME_BYTES`] are kept; the
/// last byte of the whole string is remembered (lizard's long-name spacing
/// looks at it).
#[derive(Debug, Clone, Default)]
struct Capped {
    bytes: Vec<u8>,
    /// Bytes were dropped.
    cut: bool,
    /// Some bytes were elided or dropped on the way here.
    shortened: bool,
    last: Option<u8>,
}

impl Capped {
    fn from_slice(b: &[u8]) -> Self {
        let mut c = Capped::default();
        c.push(b);
        c
    }

    fn push(&mut self, b: &[u8]) {
        let Some(&last) = b.last() else {
            return;
        };
        self.last = Some(last);
        if self.cut {
            return;
        }
        let room = MAX_NAME_BYTES.saturating_sub(self.bytes.len());
        if b.len() <= room {
            self.bytes.extend_from_slice(b);
            return;
        }
        // Cut on a character boundary (the text is UTF-8 after `normalize`).
        let mut k = room;
        while k > 0 && (0x80..0xc0).contains(&b[k]) {
            k -= 1;
        }
        self.bytes.extend_from_slice(&b[..k]);
        self.cut = true;
        self.shortened = true;
    }

    /// Append another capped string (its kept bytes, then its cut).
    fn push_capped(&mut self, o: &Capped) {
        self.push(&o.bytes);
        self.shortened |= o.shortened;
        if o.cut && !self.cut {
            self.cut = true;
            self.shortened = true;
        }
        if o.last.is_some() {
            self.last = o.last;
        }
    }

    /// The flags, without the bytes.
    fn clone_empty(&self) -> Capped {
        Capped {
            bytes: Vec::new(),
            cut: self.cut,
            shortened: self.shortened,
            last: self.last,
        }
    }

    fn shrink(&mut self) {
        self.bytes.shrink_to_fit();
    }

    fn is_empty(&self) -> bool {
        self.last.is_none()
    }

    fn into_string(self) -> String {
        let mut s = String::from_utf8(self.bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        if self.cut {
            s.push_str(CUT_MARK);
        }
        s
    }
}

#[derive(Debug, Clone)]
struct Func {
    name: Capped,
    long_name: Capped,
    start_line: usize,
    end_line: usize,
    ccn: i64,
    /// Referenced by more than `current` (confirmed, stacked, nested or
    /// listed): its slot is never reused.
    anchored: bool,
    /// Nesting levels naming it (its name is part of the scope prefix).
    nest_refs: u32,
}

#[derive(Debug, Clone)]
enum Nest {
    Bare,
    Namespace(Vec<u8>),
    Function(usize),
}

/// lizard's file-information builder: the current function, the functions
/// waiting under it, the nesting stack and the list of finished functions.
///
/// lizard names a new function by joining the names of every nesting level
/// (`with_namespace`), and finds the enclosing function by scanning the
/// stack: both O(depth) per token. Here the levels that add to names
/// (`parts`) and the function levels (`fn_levels`) are kept on their own
/// stacks and the scope prefix is cached until a level that adds to it is
/// pushed, popped or renamed, so each token costs O(1) plus the (capped)
/// name it builds.
pub(crate) struct Context {
    funcs: Vec<Func>,
    current: usize,
    stacked: Vec<usize>,
    nesting: Vec<Nest>,
    /// Indices in `nesting` of the levels with a non-empty name part.
    parts: Vec<usize>,
    /// Function indices of the `Nest::Function` levels, innermost last.
    fn_levels: Vec<usize>,
    /// `with_namespace("")`, when valid.
    prefix: Option<Capped>,
    pending: Option<usize>,
    list: Vec<usize>,
    forgive: bool,
    forgive_global: bool,
    /// Current line (1-based).
    line: usize,
    /// The current token starts a line (or holds a newline).
    newline: bool,
}

const GLOBAL: usize = 0;

impl Context {
    fn new() -> Self {
        Context {
            funcs: vec![Func {
                name: Capped::from_slice(b"*global*"),
                long_name: Capped::from_slice(b"*global*"),
                start_line: 0,
                end_line: 0,
                ccn: 1,
                anchored: true,
                nest_refs: 0,
            }],
            current: GLOBAL,
            stacked: Vec::new(),
            nesting: Vec::new(),
            parts: Vec::new(),
            fn_levels: Vec::new(),
            prefix: None,
            pending: None,
            list: Vec::new(),
            forgive: false,
            forgive_global: false,
            line: 1,
            newline: true,
        }
    }

    fn cur(&mut self) -> &mut Func {
        let i = self.current.min(self.funcs.len() - 1);
        &mut self.funcs[i]
    }

    /// lizard's name part of nesting level `k` (`ns::`, `f.`, or nothing).
    fn push_part(&self, out: &mut Capped, k: usize) {
        match self.nesting.get(k) {
            Some(Nest::Namespace(s)) if !s.is_empty() => {
                out.push(s);
                out.push(b"::");
            }
            Some(Nest::Function(f)) => {
                if let Some(f) = self.funcs.get(*f) {
                    out.push_capped(&f.name);
                    out.push(b".");
                }
            }
            _ => {}
        }
    }

    /// The scope prefix of a name started now: every level's part, or the
    /// outermost, `<N elided>::` and the 30 innermost when there are more
    /// than [`MAX_NAME_SCOPES`].
    fn scope_prefix(&mut self) -> &Capped {
        if self.prefix.is_none() {
            let mut out = Capped::default();
            let n = self.parts.len();
            if n <= MAX_NAME_SCOPES {
                for &k in &self.parts {
                    self.push_part(&mut out, k);
                }
            } else {
                let keep = MAX_NAME_SCOPES - 2;
                self.push_part(&mut out, self.parts[0]);
                out.push(format!("<{} elided>::", n - 1 - keep).as_bytes());
                out.shortened = true;
                for &k in &self.parts[n - keep..] {
                    self.push_part(&mut out, k);
                }
            }
            self.prefix = Some(out);
        }
        self.prefix.get_or_insert_with(Capped::default)
    }

    fn with_namespace(&mut self, name: &Capped) -> Capped {
        let prefix = self.scope_prefix();
        let mut full = Capped {
            bytes: Vec::with_capacity(prefix.bytes.len() + name.bytes.len()),
            ..prefix.clone_empty()
        };
        full.bytes.extend_from_slice(&prefix.bytes);
        full.push_capped(name);
        full
    }

    /// The function at `current` is renamed: a cached prefix holding its
    /// name is stale.
    fn renamed(&mut self) {
        if self.funcs[self.current.min(self.funcs.len() - 1)].nest_refs > 0 {
            self.prefix = None;
        }
    }

    pub(crate) fn try_new_function(&mut self, name: &[u8]) {
        self.new_function(&Capped::from_slice(name));
    }

    fn new_function(&mut self, name: &Capped) {
        let full = self.with_namespace(name);
        let f = Func {
            long_name: full.clone(),
            name: full,
            start_line: self.line,
            end_line: self.line,
            ccn: 1,
            anchored: false,
            nest_refs: 0,
        };
        if self.current != GLOBAL && !self.funcs[self.current].anchored {
            self.funcs[self.current] = f;
        } else {
            self.funcs.push(f);
            self.current = self.funcs.len() - 1;
        }
    }

    /// A new candidate named by the current function's long name (a second
    /// parameter list: `f(a)(b)`).
    pub(crate) fn try_new_function_from_long_name(&mut self) {
        let long = self.funcs[self.current.min(self.funcs.len() - 1)]
            .long_name
            .clone();
        self.new_function(&long);
    }

    /// The current function's long name is `what`.
    pub(crate) fn long_name_is(&self, what: &[u8]) -> bool {
        let f = &self.funcs[self.current.min(self.funcs.len() - 1)];
        !f.long_name.cut && f.long_name.bytes == what
    }

    pub(crate) fn confirm_new_function(&mut self) {
        self.pending = Some(self.current);
        let f = self.cur();
        f.anchored = true;
        f.ccn = 1;
    }

    pub(crate) fn push_new_function(&mut self, name: &[u8]) {
        self.funcs[self.current].anchored = true;
        self.stacked.push(self.current);
        self.try_new_function(name);
        self.confirm_new_function();
    }

    pub(crate) fn add_condition(&mut self, inc: i64) {
        self.cur().ccn += inc;
    }

    pub(crate) fn add_to_long_name(&mut self, app: &[u8]) {
        let f = self.cur();
        let alpha = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphabetic() || b >= 0x80);
        if !f.long_name.is_empty() && alpha(f.long_name.last) && alpha(app.first().copied()) {
            f.long_name.push(b" ");
        }
        f.long_name.push(app);
    }

    pub(crate) fn add_to_function_name(&mut self, app: &[u8]) {
        self.renamed();
        let f = self.cur();
        f.name.push(app);
        f.long_name.push(app);
    }

    pub(crate) fn parameter(&mut self, token: &[u8]) {
        let mut app = Vec::with_capacity(token.len() + 1);
        app.push(b' ');
        app.extend_from_slice(token);
        self.add_to_long_name(&app);
    }

    pub(crate) fn end_of_function(&mut self) {
        if !self.forgive && (self.current != GLOBAL || !self.forgive_global) {
            let f = &mut self.funcs[self.current];
            f.anchored = true;
            // Kept until the end: no slack.
            f.name.shrink();
            f.long_name.shrink();
            self.list.push(self.current);
        }
        self.forgive = false;
        self.current = self.stacked.pop().unwrap_or(GLOBAL);
    }

    fn push_nest(&mut self, n: Nest) {
        let part = match &n {
            Nest::Bare => false,
            Nest::Namespace(s) => !s.is_empty(),
            Nest::Function(f) => {
                if let Some(f) = self.funcs.get_mut(*f) {
                    f.nest_refs += 1;
                }
                self.fn_levels.push(*f);
                true
            }
        };
        if part {
            self.parts.push(self.nesting.len());
            self.prefix = None;
        }
        self.nesting.push(n);
    }

    pub(crate) fn add_bare_nesting(&mut self) {
        let n = match self.pending.take() {
            Some(f) => Nest::Function(f),
            None => Nest::Bare,
        };
        self.push_nest(n);
    }

    pub(crate) fn add_namespace(&mut self, name: Vec<u8>) {
        self.pending = None;
        self.push_nest(Nest::Namespace(name));
    }

    pub(crate) fn pop_nesting(&mut self) {
        self.pending = None;
        let Some(top) = self.nesting.pop() else {
            return;
        };
        if self.parts.last() == Some(&self.nesting.len()) {
            self.parts.pop();
            self.prefix = None;
        }
        if let Nest::Function(f) = top {
            self.fn_levels.pop();
            if let Some(f) = self.funcs.get_mut(f) {
                f.nest_refs = f.nest_refs.saturating_sub(1);
            }
            let end = self.funcs[self.current].end_line;
            self.end_of_function();
            self.current = self.fn_levels.last().copied().unwrap_or(GLOBAL);
            self.cur().end_line = end;
        }
    }

    fn add_nloc(&mut self, count: usize) {
        let line = self.line;
        self.cur().end_line = line;
        self.newline = count > 0;
    }
}

/// The running state machine of a file.
enum Running {
    CLike(Box<clike::CLike>),
    Ruby(ruby::Ruby),
    Php(Box<php::Php>),
}

impl Running {
    fn step(&mut self, t: &[u8], ctx: &mut Context) {
        match self {
            Running::CLike(m) => m.step(t, ctx),
            Running::Ruby(m) => m.step(t, ctx),
            Running::Php(m) => m.step(t, ctx),
        }
    }
}

/// The text lizard reads (`lizard_ext.auto_read`): UTF-8 without a byte
/// order mark and with universal newlines (`\r\n` and `\r` are `\n`); a file
/// that is not valid UTF-8 is decoded with the invalid bytes dropped and
/// its newlines (and a mark) left as they are.
fn normalize(src: &[u8]) -> Vec<u8> {
    if std::str::from_utf8(src).is_err() {
        let mut out = Vec::with_capacity(src.len());
        for chunk in src.utf8_chunks() {
            out.extend_from_slice(chunk.valid().as_bytes());
        }
        return out;
    }
    let src = src.strip_prefix(b"\xef\xbb\xbf").unwrap_or(src);
    let mut out = Vec::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if b == b'\r' {
            out.push(b'\n');
            if src.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
        } else {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// Python's `str.isspace` on a token (every character whitespace).
fn is_space(t: &[u8]) -> bool {
    if t.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < t.len() {
        let b = t[i];
        if b < 0x80 {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f) {
                return false;
            }
            i += 1;
        } else {
            match tokens::decode(t, i, t.len()) {
                Some((c, n)) if c.is_whitespace() => i += n,
                _ => return false,
            }
        }
    }
    true
}

/// Lines after the first of Python's `str.splitlines`.
fn extra_lines(t: &[u8]) -> usize {
    let mut breaks = 0usize;
    let mut ends_with_break = false;
    let mut i = 0;
    while i < t.len() {
        let (is_break, n) = match t[i] {
            b'\n' | 0x0b | 0x0c | 0x1c..=0x1e => (true, 1),
            b'\r' => (true, if t.get(i + 1) == Some(&b'\n') { 2 } else { 1 }),
            0xc2 if t.get(i + 1) == Some(&0x85) => (true, 2),
            0xe2 if t.get(i + 1) == Some(&0x80) && matches!(t.get(i + 2), Some(0xa8 | 0xa9)) => {
                (true, 3)
            }
            _ => (false, 1),
        };
        if is_break {
            breaks += 1;
        }
        ends_with_break = is_break;
        i += n;
    }
    let lines = breaks + usize::from(!t.is_empty() && !ends_with_break);
    lines.saturating_sub(1)
}

fn strip(t: &[u8]) -> &[u8] {
    let start = t
        .iter()
        .position(|&b| !b.is_ascii_whitespace())
        .unwrap_or(t.len());
    let end = t
        .iter()
        .rposition(|&b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &t[start..end.max(start)]
}

/// The token pipeline of one file.
struct Pipeline<'l> {
    lang: &'l LizardLang,
    ctx: Context,
    machine: Running,
    tilde: bool,
    /// A line break came before the current token.
    after_newline: bool,
    stopped: bool,
}

impl Pipeline<'_> {
    /// The preprocessing pass.
    fn pre(&mut self, t: Tok<'_>) {
        match self.lang.preprocess {
            Preprocess::Plain => {
                if t.as_ref() == b"\n" || !is_space(&t) {
                    self.comment(&t);
                }
            }
            Preprocess::CLike => {
                if t.as_ref() == b"~" {
                    self.tilde = true;
                } else if self.tilde {
                    self.tilde = false;
                    let mut g = Vec::with_capacity(t.len() + 1);
                    g.push(b'~');
                    g.extend_from_slice(&t);
                    self.comment(&g);
                } else if t.as_ref() == b"\n" || !is_space(&t) {
                    match directive(&t) {
                        Some((word, rest)) => {
                            if matches!(word, b"if" | b"ifdef" | b"elif") {
                                self.ctx.add_condition(1);
                            } else if word == b"include" {
                                self.comment(b"#include");
                                self.comment(if rest.is_empty() { b"\"\"" } else { rest });
                            }
                            for _ in 0..rest.iter().filter(|&&b| b == b'\n').count() {
                                self.comment(b"\n");
                            }
                        }
                        None => self.comment(&t),
                    }
                }
            }
        }
    }

    /// The comment pass.
    fn comment(&mut self, t: &[u8]) {
        if self.stopped {
            return;
        }
        let comment: Option<Vec<u8>> = match self.lang.comments {
            Comments::Slash => {
                (t.starts_with(b"/*") || t.starts_with(b"//")).then(|| t[2..].to_vec())
            }
            Comments::Hash => t.first().filter(|&&b| b == b'#').map(|_| {
                let lead = t.iter().position(|&b| b != b'#').unwrap_or(t.len());
                let s = strip(&t[lead..]);
                if s.starts_with(b"lizard forgive global")
                    || s.starts_with(b"#lizard forgive global")
                {
                    b"#lizard forgive global".to_vec()
                } else if s.starts_with(b"lizard forgive") || s.starts_with(b"#lizard forgive") {
                    b"#lizard forgive".to_vec()
                } else {
                    s.to_vec()
                }
            }),
        };
        let Some(c) = comment else {
            self.line(t);
            return;
        };
        for _ in 0..extra_lines(&c) {
            self.line(b"\n");
        }
        let s = strip(&c);
        if s.starts_with(b"#lizard forgive global") {
            self.ctx.forgive_global = true;
        } else if s.starts_with(b"#lizard forgives(") {
            // Only warnings are forgiven.
        } else if s.starts_with(b"#lizard forgive") {
            self.ctx.forgive = true;
        }
        if tokens::contains(&c, b"GENERATED CODE") {
            self.stopped = true;
        }
    }

    /// Line counting, conditions, then the reader.
    fn line(&mut self, t: &[u8]) {
        if t == b"\n" {
            self.ctx.line += 1;
            self.after_newline = true;
            return;
        }
        let count = t.iter().filter(|&&b| b == b'\n').count();
        self.ctx.line += count;
        self.ctx.add_nloc(count + usize::from(self.after_newline));
        self.after_newline = false;
        if self.lang.conditions.contains(&t) {
            self.ctx.add_condition(1);
        }
        self.machine.step(t, &mut self.ctx);
    }
}

/// `#\s*(\w+)\s*(.*)`: the directive word and the rest.
fn directive(t: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = t.strip_prefix(b"#")?;
    let skip_space = |s: &[u8]| -> usize {
        let mut i = 0;
        while i < s.len() {
            let n = if s[i] < 0x80 {
                usize::from(is_space(&s[i..i + 1]))
            } else {
                match tokens::decode(s, i, s.len()) {
                    Some((c, n)) if c.is_whitespace() => n,
                    _ => 0,
                }
            };
            if n == 0 {
                break;
            }
            i += n;
        }
        i
    };
    let a = skip_space(rest);
    let rest = &rest[a..];
    let mut w = 0;
    while w < rest.len() {
        let b = rest[w];
        if b < 0x80 {
            if !(b.is_ascii_alphanumeric() || b == b'_') {
                break;
            }
            w += 1;
        } else {
            match tokens::decode(rest, w, rest.len()) {
                Some((c, n)) if c.is_alphanumeric() => w += n,
                _ => break,
            }
        }
    }
    if w == 0 {
        return None;
    }
    let word = &rest[..w];
    let after = &rest[w..];
    let b = skip_space(after);
    Some((word, &after[b..]))
}

/// Every function lizard 1.24.3 reports for `src`, in its emission order.
pub fn read(lang: &LizardLang, src: &[u8]) -> Vec<LizardFunction> {
    let text = normalize(src);
    let mut tz = Tokenizer::new(&text, lang.tokens);
    let machine = match lang.machine {
        Machine::CLike(t) => Running::CLike(Box::new(clike::CLike::new(t))),
        Machine::Rubylike(t) => Running::Ruby(ruby::Ruby::new(t)),
        Machine::Php(t) => Running::Php(Box::new(php::Php::new(t))),
    };
    let mut p = Pipeline {
        lang,
        ctx: Context::new(),
        machine,
        tilde: false,
        after_newline: true,
        stopped: false,
    };
    while let Some(t) = tz.next_token() {
        p.pre(t);
        if p.stopped {
            break;
        }
    }
    let mut ctx = p.ctx;
    let mut out = Vec::with_capacity(ctx.list.len());
    // Listings left per function: its name is moved out at the last one.
    let mut left = vec![0u32; ctx.funcs.len()];
    for &i in &ctx.list {
        if let Some(n) = left.get_mut(i) {
            *n += 1;
        }
    }
    for &i in &ctx.list {
        let (Some(f), Some(n)) = (ctx.funcs.get_mut(i), left.get_mut(i)) else {
            continue;
        };
        *n -= 1;
        let name = if *n == 0 {
            f.long_name = Capped::default();
            std::mem::take(&mut f.name)
        } else {
            f.name.clone()
        };
        out.push(LizardFunction {
            shortened: name.shortened,
            name: name.into_string(),
            start_line: f.start_line,
            end_line: f.end_line,
            ccn: f.ccn,
        });
    }
    out
}
