//! lizard's tokenizer, as data: an ordered list of token rules per language.
//!
//! lizard 1.24.3 splits a file with one regular expression whose alternatives
//! are tried in order at each position (the first that matches wins, not the
//! longest). This module reproduces that alternation with one hand-written
//! matcher per rule kind; a language's table lists the extra rules it puts
//! in front of the common ones (`Rule`), and two table flags switch on the
//! Ruby string-interpolation restart and the PHP `<?php … ?>` code blocks.
//!
//! Every rule is linear: a scan that fails (an unterminated string, comment,
//! `%w(`, heredoc, raw string or regex) is remembered, so a later start in
//! the same region fails at once instead of scanning to the end again.

use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};

/// A token: a slice of the source, or text lizard builds (Ruby's cut
/// interpolated strings, PHP's outside-of-code text).
pub type Tok<'a> = Cow<'a, [u8]>;

/// A token rule a language puts before the common ones (each is one
/// alternative of lizard's token expression).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `#` up to the end of the line (a script-language comment).
    HashComment,
    /// The literal at the start of a line (Ruby `=begin`, `=end`).
    LineStart(&'static [u8]),
    /// Ruby `%q{…}` `%w[…]` `%i<…>` `%(…)` (optional letter of `qQrwiI`);
    /// the `(` form, like lizard's, cannot hold a `>`. `%r!…!` and other
    /// delimiters are not literals.
    Percent,
    /// A word directly followed by `:` (Ruby `key:`), the colon included.
    WordColon,
    /// `$` and a word (Ruby globals, PHP variables).
    Sigil,
    /// A run of dots.
    Dots,
    /// Ruby names: optional `:`, up to two `@`, a word, optional `?`, then
    /// optional `!` (`:sym`, `@@x`, `empty?`, `save!`).
    RubyName,
    /// A `/…/flags` regex literal where an expression may start: at the start
    /// of the text or after one of these bytes, spaces allowed in between
    /// (the spaces become their own tokens).
    Regex(&'static [u8]),
    /// PHP `<<<WORD … WORD` (heredoc) as one token.
    Heredoc,
    /// A fixed string.
    Literal(&'static [u8]),
    /// C++ `R"(…)"` with an optional `u8`/`u`/`U`/`L` prefix (empty delimiter
    /// only).
    RawString,
    /// C/C++ floating literals `1.5e3`, `.5`, `1.`.
    Float,
}

/// The tokenizer part of a language table.
#[derive(Debug)]
pub struct TokenTable {
    /// Rules tried after `/* … */` and before the common rules, in order.
    pub extra: &'static [Rule],
    /// A double-quoted string token holding `#{` is cut there: the part
    /// before it (closed with `"`) and `${` are tokens, tokenizing restarts
    /// inside the interpolation, and after its matching `}` restarts again at
    /// a string that begins with a `"` (Ruby).
    pub interpolation: bool,
    /// Only the text inside `<?php … ?>` (or `<? … ?>`) blocks is code; the
    /// text between blocks is one string token `"…"` (PHP).
    pub code_blocks: bool,
}

/// The combined symbols of lizard's common rules, in its order (so `*` wins
/// over `*=` and `||` over `|=`).
const SYMBOLS: &[&[u8]] = &[
    b"<<=", b">>=", b"||", b"&&", b"===", b"!==", b"==", b"!=", b"<=", b">=", b"->", b"=>", b"++",
    b"--", b"+=", b"-=", b"+", b"-", b"*", b"/", b"*=", b"/=", b"^=", b"&=", b"|=", b"...",
];

/// Length of the `\w` character at `p` (0 when it is not one). Non-ASCII
/// characters are decoded; an invalid UTF-8 byte is not a word character.
fn word_at(s: &[u8], p: usize, end: usize) -> usize {
    let Some(&b) = s.get(p).filter(|_| p < end) else {
        return 0;
    };
    if b < 0x80 {
        return usize::from(b.is_ascii_alphanumeric() || b == b'_');
    }
    match decode(s, p, end) {
        Some((c, n)) if c.is_alphanumeric() => n,
        _ => 0,
    }
}

/// Length of the whitespace (`\s`) character at `p`, 0 if none.
fn space_at(s: &[u8], p: usize, end: usize) -> usize {
    let Some(&b) = s.get(p).filter(|_| p < end) else {
        return 0;
    };
    if b < 0x80 {
        return usize::from(matches!(
            b,
            b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c | 0x1c..=0x1f
        ));
    }
    match decode(s, p, end) {
        Some((c, n)) if c.is_whitespace() => n,
        _ => 0,
    }
}

/// Length of one character at `p` (a UTF-8 sequence, or one invalid byte).
fn char_at(s: &[u8], p: usize, end: usize) -> usize {
    match s.get(p) {
        Some(&b) if b >= 0x80 => decode(s, p, end).map_or(1, |(_, n)| n),
        _ => 1,
    }
}

/// Decode the UTF-8 character at `p`.
pub fn decode(s: &[u8], p: usize, end: usize) -> Option<(char, usize)> {
    let b = *s.get(p)?;
    let n = match b {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let bytes = s.get(p..(p + n).min(end))?;
    let c = std::str::from_utf8(bytes).ok()?.chars().next()?;
    Some((c, n))
}

fn words(s: &[u8], mut p: usize, end: usize) -> usize {
    let start = p;
    loop {
        let n = word_at(s, p, end);
        if n == 0 {
            return p - start;
        }
        p += n;
    }
}

fn digits(s: &[u8], mut p: usize, end: usize, ok: impl Fn(u8) -> bool) -> usize {
    let start = p;
    while p < end && s.get(p).is_some_and(|&b| ok(b)) {
        p += 1;
    }
    p - start
}

/// What a raw scan produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Raw {
    /// `src[s..e]`.
    Span(usize, usize),
    /// A `"` lizard prepends after an interpolation, then `src[s..e]` (the
    /// rest of the string through its closing quote; empty when the string
    /// does not close: the token is then the lone `"`).
    Virtual(usize, usize),
    /// A regex literal with leading spaces: `src[s..m]` spaces, `src[m..e]`
    /// the literal.
    SpacedRegex(usize, usize, usize),
}

/// A failure memo of a scan kind: a scan whose content starts in
/// `(from, until]` fails (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
struct Fail {
    from: usize,
    until: usize,
    set: bool,
}

impl Fail {
    fn hit(&self, c: usize) -> bool {
        self.set && c > self.from && c <= self.until
    }
    fn record(&mut self, from: usize, until: usize) {
        *self = Fail {
            from,
            until,
            set: true,
        };
    }
}

/// Memo of regex scans that failed on one line: (position, in-class) states
/// known to end in failure.
#[derive(Debug, Default)]
struct RegexMemo {
    line_start: usize,
    line_end: usize,
    bits: Vec<u64>,
}

impl RegexMemo {
    fn index(&self, p: usize, class: bool) -> Option<usize> {
        (p >= self.line_start && p < self.line_end)
            .then(|| (p - self.line_start) * 2 + usize::from(class))
    }
    fn known_fail(&self, p: usize, class: bool) -> bool {
        self.index(p, class)
            .and_then(|i| self.bits.get(i / 64).map(|w| w >> (i % 64) & 1 == 1))
            .unwrap_or(false)
    }
    fn mark(&mut self, p: usize, class: bool) {
        if let Some(i) = self.index(p, class) {
            if let Some(w) = self.bits.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
    }
}

/// The tokenizer: raw tokens of lizard's expression, the `#` macro merge of
/// its span reader, and the language's restarts.
pub struct Tokenizer<'a> {
    src: &'a [u8],
    table: &'static TokenTable,
    pos: usize,
    /// Where `\A` and `^` hold and lookbehind stops.
    seg_start: usize,
    /// End of the current text (a PHP code block ends early).
    seg_end: usize,
    /// The segment starts with lizard's prepended `"` (Ruby restart).
    virtual_quote: bool,
    /// That `"` is still to be read.
    virtual_pending: bool,
    out: VecDeque<Tok<'a>>,
    /// Ruby: open `{` (false) and `#{` (true).
    braces: Vec<bool>,
    /// PHP: where the next search for `<?` starts; `None` before the first.
    php_next: usize,
    php_done: bool,
    dq: Fail,
    sq: Fail,
    block: Fail,
    raw: Fail,
    percent: [Fail; 4],
    /// Last successful `"` scan: content start and closing quote.
    dq_last: Option<(usize, usize)>,
    heredoc: HashMap<Vec<u8>, (usize, Option<usize>)>,
    regex: RegexMemo,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `src` (already newline-normalized).
    pub fn new(src: &'a [u8], table: &'static TokenTable) -> Self {
        let mut t = Tokenizer {
            src,
            table,
            pos: 0,
            seg_start: 0,
            seg_end: src.len(),
            virtual_quote: false,
            virtual_pending: false,
            out: VecDeque::new(),
            braces: Vec::new(),
            php_next: 0,
            php_done: !table.code_blocks,
            dq: Fail::default(),
            sq: Fail::default(),
            block: Fail::default(),
            raw: Fail::default(),
            percent: [Fail::default(); 4],
            dq_last: None,
            heredoc: HashMap::new(),
            regex: RegexMemo::default(),
        };
        if table.code_blocks {
            t.seg_end = 0;
            t.pos = 0;
        }
        t
    }

    fn reset_memos(&mut self) {
        self.dq = Fail::default();
        self.sq = Fail::default();
        self.block = Fail::default();
        self.raw = Fail::default();
        self.percent = [Fail::default(); 4];
        self.dq_last = None;
        self.heredoc.clear();
        self.regex = RegexMemo::default();
    }

    /// PHP: open the next code block, queueing the text before it; false
    /// when there is none (the text after the last block is queued).
    fn next_block(&mut self) -> bool {
        if self.php_done {
            return false;
        }
        let s = self.src;
        let from = self.php_next;
        let open = (from..s.len().saturating_sub(1)).find(|&i| s[i] == b'<' && s[i + 1] == b'?');
        let Some(open) = open else {
            if from < s.len() {
                self.out.push_back(quoted_text(&s[from..]));
            }
            self.php_done = true;
            return false;
        };
        if open > from {
            self.out.push_back(quoted_text(&s[from..open]));
        }
        let mut start = open + 2;
        if s.get(start..start + 3) == Some(b"php") {
            start += 3;
        }
        let close = (start..s.len().saturating_sub(1)).find(|&i| s[i] == b'?' && s[i + 1] == b'>');
        match close {
            Some(c) => {
                self.seg_end = c;
                self.php_next = c + 2;
            }
            None => {
                self.seg_end = s.len();
                self.php_next = s.len();
                self.php_done = true;
            }
        }
        self.pos = start;
        self.seg_start = start;
        self.virtual_quote = false;
        self.virtual_pending = false;
        self.reset_memos();
        true
    }

    /// The next token, or `None` at the end.
    pub fn next_token(&mut self) -> Option<Tok<'a>> {
        loop {
            if let Some(t) = self.out.pop_front() {
                return Some(t);
            }
            if self.fill() {
                continue;
            }
            if self.table.code_blocks && self.next_block() {
                continue;
            }
            return self.out.pop_front();
        }
    }

    /// Produce at least one token into `out`; false at the segment end.
    fn fill(&mut self) -> bool {
        let Some(raw) = self.raw_token() else {
            return false;
        };
        let s = self.src;
        // lizard's span reader merges a `#` with what follows on its line.
        if let Raw::Span(a, b) = raw {
            if &s[a..b] == b"#" {
                let mut end = b;
                loop {
                    let Some(next) = self.raw_token() else {
                        self.out.push_back(Cow::Borrowed(&s[a..end]));
                        return true;
                    };
                    let (ns, ne) = match next {
                        Raw::Span(x, y) | Raw::SpacedRegex(x, _, y) => (x, y),
                        Raw::Virtual(..) => {
                            self.out.push_back(Cow::Borrowed(&s[a..end]));
                            self.push_raw(next);
                            return true;
                        }
                    };
                    let text = &s[ns..ne];
                    if contains(text, b"\\\n") || !text.contains(&b'\n') {
                        end = ne;
                    } else {
                        self.out.push_back(Cow::Borrowed(&s[a..end]));
                        self.push_raw(next);
                        return true;
                    }
                }
            }
        }
        self.push_raw(raw);
        true
    }

    /// Queue a raw token after the language's restarts.
    fn push_raw(&mut self, raw: Raw) {
        let s = self.src;
        match raw {
            Raw::SpacedRegex(a, m, e) => {
                // The spaces become `\n` and space-run tokens.
                let mut i = a;
                while i < m {
                    if s[i] == b'\n' {
                        self.out.push_back(Cow::Borrowed(&s[i..i + 1]));
                        i += 1;
                    } else {
                        let j = (i..m).find(|&k| s[k] == b'\n').unwrap_or(m);
                        self.out.push_back(Cow::Borrowed(&s[i..j]));
                        i = j;
                    }
                }
                self.out.push_back(Cow::Borrowed(&s[m..e]));
            }
            Raw::Virtual(a, e) => {
                let mut text = Vec::with_capacity(e - a + 1);
                text.push(b'"');
                text.extend_from_slice(&s[a..e]);
                if self.table.interpolation {
                    if let Some(f) = find(&s[a..e], b"#{") {
                        let mut first = text[..f + 1].to_vec();
                        first.push(b'"');
                        self.interpolate(first, a + f + 2);
                        return;
                    }
                }
                self.out.push_back(Cow::Owned(text));
            }
            Raw::Span(a, e) => {
                let text = &s[a..e];
                if self.table.interpolation {
                    if text == b"{" {
                        self.braces.push(false);
                    } else if text == b"}" {
                        if self.braces.pop() == Some(true) {
                            self.out.push_back(Cow::Borrowed(text));
                            self.pos = e;
                            self.seg_start = e;
                            self.virtual_quote = true;
                            self.virtual_pending = true;
                            return;
                        }
                    } else if text.first() == Some(&b'"') {
                        if let Some(f) = find(text, b"#{") {
                            let mut first = text[..f].to_vec();
                            first.push(b'"');
                            self.interpolate(first, a + f + 2);
                            return;
                        }
                    }
                }
                self.out.push_back(Cow::Borrowed(text));
            }
        }
    }

    fn interpolate(&mut self, first: Vec<u8>, restart: usize) {
        self.out.push_back(Cow::Owned(first));
        self.out.push_back(Cow::Borrowed(b"${"));
        self.braces.push(true);
        self.pos = restart;
        self.seg_start = restart;
        self.virtual_quote = false;
        self.virtual_pending = false;
    }

    /// One alternative of lizard's expression at `pos`.
    fn raw_token(&mut self) -> Option<Raw> {
        let (s, p, end) = (self.src, self.pos, self.seg_end);
        if self.virtual_pending && p == self.seg_start {
            self.virtual_pending = false;
            // The prepended `"` starts a string when it closes.
            return Some(match self.dq_scan(p) {
                Some(e) => {
                    self.pos = e;
                    Raw::Virtual(p, e)
                }
                None => Raw::Virtual(p, p),
            });
        }
        if p >= end {
            return None;
        }
        let raw = self.rule_match(p);
        let e = match raw {
            Raw::Span(_, e) | Raw::SpacedRegex(_, _, e) | Raw::Virtual(_, e) => e,
        };
        debug_assert!(e > p);
        self.pos = e.max(p + 1).min(s.len());
        Some(raw)
    }

    /// The first rule matching at `p` (the last one, any character, always does).
    fn rule_match(&mut self, p: usize) -> Raw {
        let (s, end) = (self.src, self.seg_end);
        let b = s[p];
        let next = s.get(p + 1).copied().filter(|_| p + 1 < end);
        // `/* … */`
        if b == b'/' && next == Some(b'*') {
            if let Some(e) = self.block_comment(p) {
                return Raw::Span(p, e);
            }
        }
        for rule in self.table.extra {
            if let Some(raw) = self.extra_rule(*rule, p) {
                return raw;
            }
        }
        // `(?:\d+')+\d+`, `0x(?:[0-9A-Fa-f]+')+[0-9A-Fa-f]+`, `0b(?:[01]+')+[01]+`
        if b.is_ascii_digit() {
            if let Some(e) = separated(s, p, end, |c| c.is_ascii_digit()) {
                return Raw::Span(p, e);
            }
            if b == b'0' && next == Some(b'x') {
                if let Some(e) = separated(s, p + 2, end, |c| c.is_ascii_hexdigit()) {
                    return Raw::Span(p, e);
                }
            }
            if b == b'0' && next == Some(b'b') {
                if let Some(e) = separated(s, p + 2, end, |c| c == b'0' || c == b'1') {
                    return Raw::Span(p, e);
                }
            }
        }
        let w = words(s, p, end);
        if w > 0 {
            return Raw::Span(p, p + w);
        }
        if b == b'"' {
            if let Some(e) = self.dq_scan(p + 1) {
                return Raw::Span(p, e);
            }
        }
        if b == b'\'' {
            if let Some(e) = self.sq_scan(p + 1) {
                return Raw::Span(p, e);
            }
        }
        if b == b'/' && next == Some(b'/') {
            // `//` through a line end not escaped by `\`.
            let mut i = p + 2;
            while i < end && s[i] != b'\n' {
                if s[i] == b'\\' && s.get(i + 1) == Some(&b'\n') && i + 1 < end {
                    i += 2;
                } else {
                    i += 1;
                }
            }
            return Raw::Span(p, i);
        }
        if b == b'#' {
            return Raw::Span(p, p + 1);
        }
        if (b == b':' && matches!(next, Some(b'=' | b':'))) || (b == b'*' && next == Some(b'*')) {
            return Raw::Span(p, p + 2);
        }
        if b == b'<' {
            if let Some(e) = generic(s, p, end) {
                return Raw::Span(p, e);
            }
        }
        for sym in SYMBOLS {
            if s[p..end].starts_with(sym) {
                return Raw::Span(p, p + sym.len());
            }
        }
        if b == b'\\' && next == Some(b'\n') {
            return Raw::Span(p, p + 2);
        }
        if b == b'\n' {
            return Raw::Span(p, p + 1);
        }
        let mut i = p;
        loop {
            let n = space_at(s, i, end);
            if n == 0 || s[i] == b'\n' {
                break;
            }
            i += n;
        }
        if i > p {
            return Raw::Span(p, i);
        }
        Raw::Span(p, p + char_at(s, p, end).min(end - p).max(1))
    }

    fn extra_rule(&mut self, rule: Rule, p: usize) -> Option<Raw> {
        let (s, end) = (self.src, self.seg_end);
        let b = s[p];
        match rule {
            Rule::HashComment => (b == b'#').then(|| {
                let e = (p..end).find(|&i| s[i] == b'\n').unwrap_or(end);
                Raw::Span(p, e)
            }),
            Rule::LineStart(lit) => {
                let at_line_start = (p == self.seg_start && !self.virtual_quote)
                    || (p > self.seg_start && s[p - 1] == b'\n');
                (at_line_start && s[p..end].starts_with(lit)).then(|| Raw::Span(p, p + lit.len()))
            }
            Rule::Percent => {
                if b != b'%' {
                    return None;
                }
                let mut q = p + 1;
                let is_letter =
                    |c: Option<&u8>| matches!(c, Some(b'q' | b'Q' | b'r' | b'w' | b'i' | b'I'));
                let is_open = |c: Option<&u8>| matches!(c, Some(b'{' | b'[' | b'<' | b'('));
                if q < end && is_letter(s.get(q)) && q + 1 < end && is_open(s.get(q + 1)) {
                    q += 1;
                }
                if q >= end || !is_open(s.get(q)) {
                    return None;
                }
                let (form, close, stop) = match s[q] {
                    b'{' => (0, b'}', b'}'),
                    b'[' => (1, b']', b']'),
                    b'<' => (2, b'>', b'>'),
                    _ => (3, b')', b'>'),
                };
                self.percent_scan(form, q + 1, close, stop)
                    .map(|e| Raw::Span(p, e))
            }
            Rule::WordColon => {
                let w = words(s, p, end);
                (w > 0 && p + w < end && s[p + w] == b':').then(|| Raw::Span(p, p + w + 1))
            }
            Rule::Sigil => {
                if b != b'$' {
                    return None;
                }
                let w = words(s, p + 1, end);
                (w > 0).then(|| Raw::Span(p, p + 1 + w))
            }
            Rule::Dots => (b == b'.').then(|| Raw::Span(p, p + digits(s, p, end, |c| c == b'.'))),
            Rule::RubyName => {
                let mut q = p;
                if s[q] == b':' {
                    q += 1;
                }
                let mut ats = 0;
                while ats < 2 && q < end && s[q] == b'@' {
                    q += 1;
                    ats += 1;
                }
                let w = words(s, q, end);
                if w == 0 {
                    return None;
                }
                q += w;
                if q < end && s[q] == b'?' {
                    q += 1;
                }
                if q < end && s[q] == b'!' {
                    q += 1;
                }
                Some(Raw::Span(p, q))
            }
            Rule::Regex(after) => {
                // `\A`, or lookbehind (the prepended `"` is not in the set).
                let ok = if p == self.seg_start {
                    !self.virtual_quote
                } else {
                    after.contains(&s[p - 1])
                };
                if !ok {
                    return None;
                }
                let mut m = p;
                loop {
                    let n = space_at(s, m, end);
                    if n == 0 {
                        break;
                    }
                    m += n;
                }
                if m >= end || s[m] != b'/' {
                    return None;
                }
                let e = self.regex_scan(m)?;
                Some(if m == p {
                    Raw::Span(p, e)
                } else {
                    Raw::SpacedRegex(p, m, e)
                })
            }
            Rule::Heredoc => {
                if !s[p..end].starts_with(b"<<<") {
                    return None;
                }
                let w = words(s, p + 3, end);
                let mut k = w;
                while k > 0 {
                    // Backtracking: the longest prefix of the word that
                    // occurs again.
                    let at = p + 3 + k;
                    if let Some(f) = self.heredoc_find(p + 3, k, at) {
                        return Some(Raw::Span(p, f + k));
                    }
                    k -= 1;
                    while k > 0 && !s.is_char_boundary_at(p + 3 + k) {
                        k -= 1;
                    }
                }
                None
            }
            Rule::Literal(lit) => s[p..end]
                .starts_with(lit)
                .then(|| Raw::Span(p, p + lit.len())),
            Rule::RawString => {
                let mut q = p;
                if s[q..end].starts_with(b"u8") {
                    q += 2;
                } else if matches!(b, b'u' | b'U' | b'L') {
                    q += 1;
                }
                if !s[q..end].starts_with(b"R\"(") {
                    return None;
                }
                let c = q + 3;
                if self.raw.hit(c) {
                    return None;
                }
                let close = (c..end.saturating_sub(1)).find(|&i| s[i] == b')' && s[i + 1] == b'"');
                match close {
                    Some(i) => Some(Raw::Span(p, i + 2)),
                    None => {
                        self.raw.record(c.saturating_sub(1), end);
                        None
                    }
                }
            }
            Rule::Float => float(s, p, end).map(|e| Raw::Span(p, e)),
        }
    }

    fn block_comment(&mut self, p: usize) -> Option<usize> {
        let (s, end) = (self.src, self.seg_end);
        let c = p + 2;
        if self.block.hit(c) {
            return None;
        }
        match (c..end.saturating_sub(1)).find(|&i| s[i] == b'*' && s[i + 1] == b'/') {
            Some(i) => Some(i + 2),
            None => {
                self.block.record(c - 1, end);
                None
            }
        }
    }

    /// A `"…"` string whose content starts at `c`: the end after the quote.
    fn dq_scan(&mut self, c: usize) -> Option<usize> {
        if self.dq.hit(c) {
            return None;
        }
        if let Some((from, close)) = self.dq_last {
            if c > from && c <= close && c > 0 && self.src[c - 1] == b'}' {
                return Some(close + 1);
            }
        }
        let r = quoted(self.src, c, self.seg_end, b'"');
        match r {
            Some(e) => self.dq_last = Some((c, e - 1)),
            None => self.dq.record(c.saturating_sub(1), self.seg_end),
        }
        r
    }

    fn sq_scan(&mut self, c: usize) -> Option<usize> {
        if self.sq.hit(c) {
            return None;
        }
        let r = quoted(self.src, c, self.seg_end, b'\'');
        if r.is_none() {
            self.sq.record(c.saturating_sub(1), self.seg_end);
        }
        r
    }

    /// A `%` literal: content from `c` to `close`; a `stop` byte (the `>` of
    /// the `(` form) fails it.
    fn percent_scan(&mut self, form: usize, c: usize, close: u8, stop: u8) -> Option<usize> {
        let (s, end) = (self.src, self.seg_end);
        if self.percent[form].hit(c) {
            return None;
        }
        let mut i = c;
        while i < end {
            let b = s[i];
            if b == b'\\' {
                if i + 1 >= end {
                    break;
                }
                i += 2;
                continue;
            }
            if b == close {
                return Some(i + 1);
            }
            if b == stop {
                break;
            }
            i += 1;
        }
        self.percent[form].record(c.saturating_sub(1), i.min(end));
        None
    }

    /// `/…/[a-z]*` from the `/` at `m`: the end, or `None`.
    fn regex_scan(&mut self, m: usize) -> Option<usize> {
        let (s, end) = (self.src, self.seg_end);
        let first = s.get(m + 1).copied().filter(|_| m + 1 < end);
        if matches!(first, Some(b'/' | b'*') | None) {
            return None;
        }
        // (position, in class) states visited by this scan.
        let mut visited: Vec<(usize, bool)> = Vec::new();
        let mut i = m + 1;
        let mut class = false;
        let mut items = 0usize;
        let fail_at;
        loop {
            if self.regex.known_fail(i, class) {
                fail_at = i;
                break;
            }
            visited.push((i, class));
            let Some(&b) = s.get(i).filter(|_| i < end) else {
                fail_at = i;
                break;
            };
            if b == b'\n' || b == b'\r' {
                fail_at = i;
                break;
            }
            if class {
                match b {
                    b'\\' => {
                        if matches!(s.get(i + 1), Some(b'\n' | b'\r') | None) || i + 1 >= end {
                            fail_at = i;
                            break;
                        }
                        i += 2;
                    }
                    b']' => {
                        class = false;
                        items += 1;
                        i += 1;
                    }
                    _ => i += 1,
                }
                continue;
            }
            match b {
                b'/' if items > 0 => {
                    let mut e = i + 1;
                    while e < end && s[e].is_ascii_lowercase() {
                        e += 1;
                    }
                    return Some(e);
                }
                b'\\' => {
                    if matches!(s.get(i + 1), Some(b'\n' | b'\r') | None) || i + 1 >= end {
                        fail_at = i;
                        break;
                    }
                    i += 2;
                    items += 1;
                }
                b'[' => {
                    class = true;
                    i += 1;
                }
                _ => {
                    i += 1;
                    items += 1;
                }
            }
        }
        // An unterminated class fails the whole scan: every state seen fails.
        let _ = fail_at;
        if !visited.is_empty() {
            let known = !self.regex.bits.is_empty()
                && m >= self.regex.line_start
                && m < self.regex.line_end;
            if !known {
                let ls = (0..m).rev().find(|&k| s[k] == b'\n').map_or(0, |k| k + 1);
                let le = (m..end).find(|&k| s[k] == b'\n').unwrap_or(end) + 1;
                self.regex = RegexMemo {
                    line_start: ls,
                    line_end: le,
                    bits: vec![0; ((le - ls) * 2).div_ceil(64)],
                };
            }
            for (p, c) in visited {
                self.regex.mark(p, c);
            }
        }
        None
    }

    /// First occurrence of `src[w..w+k]` at or after `from` (memoized).
    fn heredoc_find(&mut self, w: usize, k: usize, from: usize) -> Option<usize> {
        let (s, end) = (self.src, self.seg_end);
        let needle = &s[w..w + k];
        if let Some(&(searched, found)) = self.heredoc.get(needle) {
            if from >= searched {
                match found {
                    None => return None,
                    Some(f) if f >= from => return Some(f),
                    _ => {}
                }
            }
        }
        let found = if from + k <= end {
            s[from..end]
                .windows(k)
                .position(|x| x == needle)
                .map(|i| from + i)
        } else {
            None
        };
        self.heredoc.insert(needle.to_vec(), (from, found));
        found
    }
}

trait CharBoundary {
    fn is_char_boundary_at(&self, i: usize) -> bool;
}

impl CharBoundary for [u8] {
    fn is_char_boundary_at(&self, i: usize) -> bool {
        self.get(i).is_none_or(|&b| !(0x80..0xc0).contains(&b))
    }
}

fn quoted_text(text: &[u8]) -> Tok<'_> {
    let mut v = Vec::with_capacity(text.len() + 2);
    v.push(b'"');
    v.extend_from_slice(text);
    v.push(b'"');
    Cow::Owned(v)
}

/// A string body from `c` closed by `q` (`\` escapes any byte): the end
/// after the quote, `None` when it does not close before `end`.
fn quoted(s: &[u8], c: usize, end: usize, q: u8) -> Option<usize> {
    let mut i = c;
    while i < end {
        let b = s[i];
        if b == b'\\' {
            if i + 1 >= end {
                return None;
            }
            i += 2;
        } else if b == q {
            return Some(i + 1);
        } else {
            i += 1;
        }
    }
    None
}

/// `(?:D+')+D+` from `p`: the end, or `None`.
fn separated(s: &[u8], p: usize, end: usize, ok: impl Fn(u8) -> bool + Copy) -> Option<usize> {
    let mut i = p;
    let mut groups = 0;
    loop {
        let n = digits(s, i, end, ok);
        if n == 0 {
            return None;
        }
        i += n;
        if i + 1 < end && s[i] == b'\'' && ok(s[i + 1]) {
            groups += 1;
            i += 1;
            continue;
        }
        return (groups > 0).then_some(i);
    }
}

/// `\d*\.\d+(?:[eE][-+]?\d+)?` or `\d+\.(?:\d+)?(?:[eE][-+]?\d+)?`.
fn float(s: &[u8], p: usize, end: usize) -> Option<usize> {
    let d = |i| digits(s, i, end, |c: u8| c.is_ascii_digit());
    let exponent = |i: usize| -> usize {
        if i < end && matches!(s[i], b'e' | b'E') {
            let mut j = i + 1;
            if j < end && matches!(s[j], b'+' | b'-') {
                j += 1;
            }
            let n = d(j);
            if n > 0 {
                return j + n;
            }
        }
        i
    };
    let lead = d(p);
    let dot = p + lead;
    if dot < end && s[dot] == b'.' {
        let frac = d(dot + 1);
        if frac > 0 {
            return Some(exponent(dot + 1 + frac));
        }
        if lead > 0 {
            return Some(exponent(dot + 1));
        }
    }
    None
}

/// lizard's generic-wildcard token `<…?…>`: after `<`, the text up to the
/// first `<` or `>` is a `>` and holds a `?`, and the text before that `>`
/// is only word characters, spaces, `,`, `.` and `?`.
fn generic(s: &[u8], p: usize, end: usize) -> Option<usize> {
    let mut i = p + 1;
    let mut question = false;
    while i < end {
        match s[i] {
            b'<' => return None,
            b'>' => return (question && i > p + 1).then_some(i + 1),
            b'?' => question = true,
            b',' | b'.' => {}
            _ => {
                let n = word_at(s, i, end).max(space_at(s, i, end));
                if n == 0 {
                    return None;
                }
                i += n;
                continue;
            }
        }
        i += 1;
    }
    None
}

pub(crate) fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

pub(crate) fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}
