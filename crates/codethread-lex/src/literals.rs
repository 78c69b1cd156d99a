//! Where a file's multi-line literals and comments are: one linear lexical
//! pass, per-language rules as data ([`LexRules`], one row per language in
//! `codethread-lang`), an explicit stack (no
//! recursion however deep interpolations nest).
//!
//! The chunked parse (`codethread_lang::ChunkPlan`) cuts a large file only at
//! lines where the lexer is at the top level: never inside a string, a
//! template literal, a heredoc or a comment that spans lines (a cut inside
//! a `"""` block made tree-sitter's error recovery read the rest of the
//! block as code: thousands of phantom functions). The pass does not
//! decide anything alone: tree-sitter still parses every window and chunk;
//! these spans only say where a cut must not fall and which window
//! children cannot be trusted.
//!
//! What counts: comments (line comments end at the line's end, block
//! comments, Rust's nested ones), strings of every quoting the languages
//! have (Python's triple quotes and prefixes, Rust's raw strings, C++
//! raw strings, Go's and JavaScript's backticks with `${...}`
//! interpolation, Java's text blocks, Ruby's strings, `%`-literals,
//! heredocs and `=begin`/`=end` blocks), character literals (which may
//! hold a quote) and regular-expression literals (which may hold a quote
//! or `/*`), the last found where an operand may start, as the languages'
//! own lexers decide.

/// One quoting of a string literal.
#[derive(Debug, Clone, Copy)]
pub struct Quote {
    /// The opening quote.
    pub open: &'static [u8],
    /// The closing quote.
    pub close: &'static [u8],
    /// A backslash escapes the next byte (a raw Go string has none).
    pub escapes: bool,
    /// A line break inside does not end it (otherwise the literal ends,
    /// unterminated, at the line's end, as the language's lexer ends it).
    pub multiline: bool,
    /// The opener of interpolated code inside (`${`, `#{`), closed by `}`.
    pub interp: Option<&'static [u8]>,
}

/// A quote that closes itself, with escapes and no interpolation.
pub const fn q(open: &'static [u8], multiline: bool) -> Quote {
    Quote {
        open,
        close: open,
        escapes: true,
        multiline,
        interp: None,
    }
}

/// How `'` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chars {
    /// Not a quote of its own (it is one of [`LexRules::quotes`]).
    None,
    /// A character literal on one line (C, Java, Go); after a digit or a
    /// letter it is no quote (C++14 digit separators).
    Simple,
    /// Rust: a character literal, or a lifetime or label (`'a`) when no
    /// closing quote follows the one character.
    Rust,
}

/// How a `/` in operand position is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Regexes {
    /// No regular-expression literal.
    None,
    /// A regular expression on one line (JavaScript, TypeScript).
    OneLine,
    /// A regular expression that may span lines (Ruby).
    MultiLine,
}

/// The lexical rules of one language.
#[derive(Debug, Clone, Copy)]
pub struct LexRules {
    /// Openers of comments that end at the line's end.
    pub line_comments: &'static [&'static [u8]],
    /// Opener, closer, nested.
    pub block_comment: Option<(&'static [u8], &'static [u8], bool)>,
    /// Longest opener first.
    pub quotes: &'static [Quote],
    /// How `'` is read.
    pub chars: Chars,
    /// How a `/` in operand position is read.
    pub regexes: Regexes,
    /// C++ raw strings `R"delim( ... )delim"` (with an encoding prefix).
    pub cpp_raw: bool,
    /// Rust raw strings `r#"..."#` (`br`, `cr` prefixes).
    pub rust_raw: bool,
    /// A backslash before a line break continues a line comment (C, C++).
    pub continued_line_comments: bool,
    /// Ruby: heredocs, `%`-literals, `=begin`/`=end`, `__END__`, `$"`.
    pub ruby: bool,
}

/// The multi-line literals and comments of a file (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Literals {
    /// `[start, end)` of each top-level literal or comment that holds a
    /// line break, in file order, disjoint.
    spans: Vec<(usize, usize)>,
}

impl Literals {
    /// One pass over `src` under a language's `rules`.
    pub fn scan(rules: &LexRules, src: &[u8]) -> Literals {
        Literals {
            spans: Lexer::new(*rules, src).run(),
        }
    }

    /// Whether byte `at` is inside a multi-line literal or comment (after
    /// its first byte, before its end): a line there does not start at the
    /// top level.
    pub fn inside(&self, at: usize) -> bool {
        let i = self.spans.partition_point(|&(s, _)| s < at);
        i > 0 && at < self.spans[i - 1].1
    }

    /// The end of the multi-line literal or comment byte `at` is inside
    /// ([`Literals::inside`]), if it is inside one.
    pub fn end_of(&self, at: usize) -> Option<usize> {
        let i = self.spans.partition_point(|&(s, _)| s < at);
        (i > 0 && at < self.spans[i - 1].1).then(|| self.spans[i - 1].1)
    }

    /// The spans, `[start, end)`, in file order.
    pub fn spans(&self) -> &[(usize, usize)] {
        &self.spans
    }
}

/// What the lexer is inside, innermost last.
#[derive(Debug, Clone)]
enum Frame {
    /// Code: the top level, or interpolated code (`${...}`, `#{...}`)
    /// closed by the `}` that balances its braces.
    Code { braces: u32, interp: bool },
    /// A string of [`Quote`] `q` (index into the rules' quotes).
    Str { q: usize },
    /// A `%`-literal of Ruby: its closer, its opener when the two differ
    /// (nesting counts), whether `#{` interpolates.
    Percent {
        open: u8,
        close: u8,
        depth: u32,
        interp: bool,
    },
    /// A regular expression; `class` inside `[...]`; `close` its closer.
    Regex { class: bool, close: u8 },
    /// A block comment, nested `depth` deep.
    Block { depth: u32 },
}

struct Lexer<'a> {
    r: LexRules,
    src: &'a [u8],
    i: usize,
    stack: Vec<Frame>,
    /// The last byte of code that is not blank (an operand or an
    /// operator), and the word it ends, for the regex rule.
    prev: u8,
    prev_word: (usize, usize),
    /// Start of the current top-level literal.
    open_at: usize,
    spans: Vec<(usize, usize)>,
    /// Ruby heredocs opened on this line: terminator, squiggly/dash.
    heredocs: Vec<(Vec<u8>, bool)>,
}

/// Words after which a `/` starts a regular expression.
const REGEX_AFTER_WORDS: &[&[u8]] = &[
    b"return",
    b"typeof",
    b"instanceof",
    b"in",
    b"of",
    b"new",
    b"delete",
    b"void",
    b"throw",
    b"case",
    b"do",
    b"else",
    b"yield",
    b"await",
    b"when",
    b"if",
    b"unless",
    b"and",
    b"or",
    b"not",
    b"while",
    b"until",
    b"then",
];

impl<'a> Lexer<'a> {
    fn new(r: LexRules, src: &'a [u8]) -> Self {
        Lexer {
            r,
            src,
            i: 0,
            stack: Vec::new(),
            prev: b'\n',
            prev_word: (0, 0),
            open_at: 0,
            spans: Vec::new(),
            heredocs: Vec::new(),
        }
    }

    fn at(&self, s: &[u8]) -> bool {
        self.src.get(self.i..).is_some_and(|r| r.starts_with(s))
    }

    fn byte(&self, k: usize) -> u8 {
        self.src.get(self.i + k).copied().unwrap_or(0)
    }

    /// A literal opens at `start`: at the top level, its span begins.
    fn open(&mut self, start: usize, f: Frame) {
        if self.stack.is_empty() {
            self.open_at = start;
        }
        self.stack.push(f);
    }

    /// The innermost literal closed at `self.i` (one past its end).
    fn close(&mut self) {
        self.stack.pop();
        if self.stack.is_empty() {
            self.end_top(self.i);
        }
    }

    fn end_top(&mut self, end: usize) {
        let start = self.open_at;
        if self.src.get(start..end).is_some_and(|t| t.contains(&b'\n')) {
            self.spans.push((start, end));
        }
        self.prev = b'a';
        self.prev_word = (0, 0);
    }

    fn run(mut self) -> Vec<(usize, usize)> {
        let n = self.src.len();
        while self.i < n {
            match self.stack.last().cloned() {
                None => self.code(None),
                Some(Frame::Code { braces, interp }) => self.code(Some((braces, interp))),
                Some(Frame::Str { q }) => self.string(q),
                Some(Frame::Percent {
                    open,
                    close,
                    depth,
                    interp,
                }) => self.percent(open, close, depth, interp),
                Some(Frame::Regex { class, close }) => self.regex(class, close),
                Some(Frame::Block { depth }) => self.block(depth),
            }
        }
        if !self.stack.is_empty() {
            // Unterminated at the end of the file: to the end.
            self.end_top(n);
        }
        self.spans
    }

    /// One step of code. `inner`: the interpolation's brace depth.
    fn code(&mut self, inner: Option<(u32, bool)>) {
        let c = self.src[self.i];
        let start = self.i;
        // Ruby: at a line's start, `=begin` blocks and `__END__`.
        if self.r.ruby && inner.is_none() && (start == 0 || self.src[start - 1] == b'\n') {
            if self.at(b"=begin") && !self.byte(6).is_ascii_alphanumeric() {
                let end = find_line(self.src, start, b"=end").unwrap_or(self.src.len());
                self.i = end;
                self.open_at = start;
                self.end_top(end);
                return;
            }
            if self.at(b"__END__") && matches!(self.byte(7), b'\n' | b'\r' | 0) {
                self.open_at = start;
                self.i = self.src.len();
                self.end_top(self.src.len());
                return;
            }
        }
        if c == b'\n' {
            self.i += 1;
            if !self.heredocs.is_empty() && inner.is_none() {
                self.heredoc_bodies(start);
            }
            self.prev_after_newline();
            return;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            self.i += 1;
            return;
        }
        for lc in self.r.line_comments {
            if self.at(lc) {
                let mut j = self.i;
                while j < self.src.len() && self.src[j] != b'\n' {
                    if self.r.continued_line_comments
                        && self.src[j] == b'\\'
                        && self.src.get(j + 1) == Some(&b'\n')
                    {
                        j += 1;
                    }
                    j += 1;
                }
                if inner.is_none() {
                    self.open_at = start;
                    self.end_top(j);
                    self.prev = b'\n';
                }
                self.i = j;
                return;
            }
        }
        if let Some((open, _, _)) = self.r.block_comment {
            if self.at(open) {
                self.i += open.len();
                let prev = self.prev;
                self.open(start, Frame::Block { depth: 1 });
                if inner.is_some() {
                    self.prev = prev;
                }
                return;
            }
        }
        if self.r.cpp_raw && self.raw_cpp(start) {
            return;
        }
        if self.r.rust_raw && self.raw_rust(start) {
            return;
        }
        if let Some(k) = self.r.quotes.iter().position(|q| self.at(q.open)) {
            self.i += self.r.quotes[k].open.len();
            self.open(start, Frame::Str { q: k });
            return;
        }
        if c == b'\'' && self.r.chars != Chars::None {
            self.char_literal();
            return;
        }
        if self.r.ruby && self.ruby_special(start) {
            return;
        }
        if c == b'/' && self.r.regexes != Regexes::None && self.operand_position() {
            self.i += 1;
            self.open(
                start,
                Frame::Regex {
                    class: false,
                    close: b'/',
                },
            );
            return;
        }
        if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            let s = self.i;
            while self.i < self.src.len()
                && (self.src[self.i].is_ascii_alphanumeric()
                    || self.src[self.i] == b'_'
                    || self.src[self.i] >= 0x80)
            {
                self.i += 1;
            }
            self.prev = b'a';
            self.prev_word = (s, self.i);
            return;
        }
        if let Some((braces, interp)) = inner {
            match c {
                b'{' => self.set_braces(braces + 1, interp),
                b'}' if braces == 0 => {
                    // The interpolation ends: back in its string.
                    self.i += 1;
                    self.stack.pop();
                    return;
                }
                b'}' => self.set_braces(braces - 1, interp),
                _ => {}
            }
        }
        self.prev = c;
        self.prev_word = (0, 0);
        self.i += 1;
    }

    fn set_braces(&mut self, braces: u32, interp: bool) {
        if let Some(Frame::Code { braces: b, .. }) = self.stack.last_mut() {
            *b = braces;
            let _ = interp;
        }
    }

    fn prev_after_newline(&mut self) {
        // A line break ends a statement in Python, Go, Ruby, JavaScript
        // (mostly): what follows is an operand position.
        self.prev = b'\n';
        self.prev_word = (0, 0);
    }

    /// Whether a `/` here starts a regular expression: after an operator,
    /// an opening bracket, a line's start or a keyword, not after an
    /// operand (a name, a number, a closing bracket).
    fn operand_position(&self) -> bool {
        match self.prev {
            b'a' => {
                let (s, e) = self.prev_word;
                let w = self.src.get(s..e).unwrap_or(&[]);
                if !w.is_empty() && REGEX_AFTER_WORDS.contains(&w) {
                    return true;
                }
                // Ruby reads `foo /re/` (a space before, none after) as a
                // call with a regular expression, `foo / x` as a division.
                self.r.ruby
                    && self.i > 0
                    && self.src[self.i - 1] == b' '
                    && !matches!(self.byte(1), b' ' | b'=' | b'\n')
            }
            b')' | b']' | b'}' | b'"' | b'\'' | b'`' => false,
            _ => true,
        }
    }

    fn string(&mut self, k: usize) {
        let q = self.r.quotes[k];
        let c = self.src[self.i];
        if q.escapes && c == b'\\' {
            self.i = (self.i + 2).min(self.src.len());
            return;
        }
        if self.at(q.close) {
            self.i += q.close.len();
            self.close();
            return;
        }
        if let Some(interp) = q.interp {
            if self.at(interp) {
                self.i += interp.len();
                self.stack.push(Frame::Code {
                    braces: 0,
                    interp: true,
                });
                self.prev = b'(';
                return;
            }
        }
        if c == b'\n' && !q.multiline {
            // Unterminated on its line: the language's lexer ends it here.
            self.close();
            return;
        }
        self.i += 1;
    }

    fn percent(&mut self, open: u8, close: u8, depth: u32, interp: bool) {
        let c = self.src[self.i];
        if c == b'\\' {
            self.i = (self.i + 2).min(self.src.len());
            return;
        }
        if interp && self.at(b"#{") {
            self.i += 2;
            self.stack.push(Frame::Code {
                braces: 0,
                interp: true,
            });
            return;
        }
        self.i += 1;
        if c == close {
            if depth <= 1 {
                self.close();
            } else if let Some(Frame::Percent { depth: d, .. }) = self.stack.last_mut() {
                *d -= 1;
            }
        } else if c == open && open != close {
            if let Some(Frame::Percent { depth: d, .. }) = self.stack.last_mut() {
                *d += 1;
            }
        }
    }

    fn regex(&mut self, class: bool, close: u8) {
        let c = self.src[self.i];
        self.i += 1;
        match c {
            b'\\' => self.i = self.i.saturating_add(1).min(self.src.len()),
            b'[' => self.set_class(true),
            b']' => self.set_class(false),
            b'\n' if self.r.regexes == Regexes::OneLine => {
                // Not a regular expression after all: it ends here.
                self.close();
            }
            _ if c == close && !class => {
                while self.i < self.src.len() && self.src[self.i].is_ascii_alphabetic() {
                    self.i += 1;
                }
                self.close();
            }
            _ => {}
        }
    }

    fn set_class(&mut self, v: bool) {
        if let Some(Frame::Regex { class, .. }) = self.stack.last_mut() {
            *class = v;
        }
    }

    fn block(&mut self, depth: u32) {
        let (open, close, nested) = self.r.block_comment.unwrap_or((b"/*", b"*/", false));
        if self.at(close) {
            self.i += close.len();
            if depth <= 1 {
                let inner = self.stack.len() > 1;
                self.stack.pop();
                if !inner {
                    self.end_top(self.i);
                    self.prev = b'\n';
                }
            } else if let Some(Frame::Block { depth: d }) = self.stack.last_mut() {
                *d -= 1;
            }
            return;
        }
        if nested && self.at(open) {
            self.i += open.len();
            if let Some(Frame::Block { depth: d }) = self.stack.last_mut() {
                *d += 1;
            }
            return;
        }
        self.i += 1;
    }

    /// `'` in code: a character literal on its line, or (Rust) a lifetime.
    fn char_literal(&mut self) {
        let start = self.i;
        if self.r.chars == Chars::Simple && start > 0 && self.src[start - 1].is_ascii_alphanumeric()
        {
            // A C++14 digit separator (`1'000`).
            self.i += 1;
            return;
        }
        let mut j = start + 1;
        if self.src.get(j) == Some(&b'\\') {
            j += 2;
            while j < self.src.len()
                && self.src[j] != b'\''
                && self.src[j] != b'\n'
                && j - start < 16
            {
                j += 1;
            }
        } else {
            // One character (UTF-8: up to four bytes).
            j += self.src.get(j).map_or(1, |&b| utf8_len(b));
        }
        if self.src.get(j) == Some(&b'\'') {
            self.i = j + 1;
            self.prev = b'a';
        } else {
            // A lifetime or label (Rust), or a lone quote: nothing opens.
            self.i = start + 1;
        }
    }

    /// C++ `R"delim( ... )delim"` with its prefixes.
    fn raw_cpp(&mut self, start: usize) -> bool {
        let mut j = self.i;
        for p in [&b"u8R"[..], b"uR", b"UR", b"LR", b"R"] {
            if self.src[j..].starts_with(p) && self.src.get(j + p.len()) == Some(&b'"') {
                // Not the end of a longer name (`FOOR"`).
                if j > 0 && (self.src[j - 1].is_ascii_alphanumeric() || self.src[j - 1] == b'_') {
                    return false;
                }
                j += p.len() + 1;
                let d0 = j;
                while j < self.src.len() && self.src[j] != b'(' && j - d0 <= 16 {
                    if matches!(self.src[j], b' ' | b')' | b'\\' | b'\n') {
                        return false;
                    }
                    j += 1;
                }
                if self.src.get(j) != Some(&b'(') {
                    return false;
                }
                let mut closer = vec![b')'];
                closer.extend_from_slice(&self.src[d0..j]);
                closer.push(b'"');
                let end =
                    find(self.src, j + 1, &closer).map_or(self.src.len(), |k| k + closer.len());
                self.open_at = start;
                self.i = end;
                self.end_top(end);
                return true;
            }
        }
        false
    }

    /// Rust `r"..."`, `r#"..."#`, `br##"..."##`, `cr"..."`.
    fn raw_rust(&mut self, start: usize) -> bool {
        let mut j = self.i;
        if start > 0 && (self.src[start - 1].is_ascii_alphanumeric() || self.src[start - 1] == b'_')
        {
            return false;
        }
        if matches!(self.src.get(j), Some(b'b' | b'c')) {
            j += 1;
        }
        if self.src.get(j) != Some(&b'r') {
            return false;
        }
        j += 1;
        let h0 = j;
        while self.src.get(j) == Some(&b'#') {
            j += 1;
        }
        if self.src.get(j) != Some(&b'"') {
            return false;
        }
        let hashes = j - h0;
        let mut closer = vec![b'"'];
        closer.extend(std::iter::repeat_n(b'#', hashes));
        let end = find(self.src, j + 1, &closer).map_or(self.src.len(), |k| k + closer.len());
        self.open_at = start;
        self.i = end;
        self.end_top(end);
        true
    }

    /// Ruby's heredoc openers, `%`-literals and `$"`-style globals.
    fn ruby_special(&mut self, start: usize) -> bool {
        let c = self.src[self.i];
        if c == b'$' && matches!(self.byte(1), b'"' | b'\'' | b'`' | b'/' | b'\\') {
            self.i += 2;
            self.prev = b'a';
            return true;
        }
        if c == b'?'
            && self.prev != b'a'
            && matches!(self.byte(1), b'"' | b'\'' | b'`')
            && !self.byte(2).is_ascii_alphanumeric()
        {
            // A character literal `?"`.
            self.i += 2;
            self.prev = b'a';
            return true;
        }
        if c == b'<' && self.byte(1) == b'<' {
            let mut j = self.i + 2;
            let squiggly = matches!(self.src.get(j), Some(b'~' | b'-'));
            if squiggly {
                j += 1;
            }
            let quote = self
                .src
                .get(j)
                .copied()
                .filter(|b| matches!(b, b'"' | b'\'' | b'`'));
            if quote.is_some() {
                j += 1;
            }
            let w0 = j;
            while j < self.src.len() && (self.src[j].is_ascii_alphanumeric() || self.src[j] == b'_')
            {
                j += 1;
            }
            let word = &self.src[w0..j];
            let upper = word
                .first()
                .is_some_and(|b| b.is_ascii_uppercase() || *b == b'_');
            let closed = quote.is_none_or(|q| self.src.get(j) == Some(&q));
            if !word.is_empty() && closed && (quote.is_some() || squiggly || upper) {
                self.heredocs.push((word.to_vec(), squiggly));
                self.i = j + usize::from(quote.is_some());
                self.prev = b'a';
                return true;
            }
            return false;
        }
        if c == b'%' && self.operand_position_ruby_percent() {
            let kind = self.byte(1);
            let (skip, delim) = if b"qQwWiIrsx".contains(&kind) {
                (2, self.byte(2))
            } else {
                (1, kind)
            };
            if delim == 0 || delim.is_ascii_alphanumeric() || delim.is_ascii_whitespace() {
                return false;
            }
            let close = match delim {
                b'(' => b')',
                b'[' => b']',
                b'{' => b'}',
                b'<' => b'>',
                d => d,
            };
            let interp = !matches!(kind, b'q' | b'w' | b'i' | b's');
            self.i += skip + 1;
            if kind == b'r' {
                self.open(
                    start,
                    Frame::Regex {
                        class: false,
                        close,
                    },
                );
            } else {
                self.open(
                    start,
                    Frame::Percent {
                        open: delim,
                        close,
                        depth: 1,
                        interp,
                    },
                );
            }
            return true;
        }
        false
    }

    fn operand_position_ruby_percent(&self) -> bool {
        let kind = self.byte(1);
        if b"qQwWiIrsx".contains(&kind) && !self.byte(2).is_ascii_alphanumeric() {
            // `%q(`: a literal unless an operand stands right before it
            // with no space (`x%q` is rare enough).
            return self.prev != b'a' || self.src.get(self.i.wrapping_sub(1)) == Some(&b' ');
        }
        self.operand_position() && self.prev != b'a'
    }

    /// After the line break at `nl`: the bodies of the heredocs opened on
    /// the line that ended, each up to its terminator line.
    fn heredoc_bodies(&mut self, nl: usize) {
        let docs = std::mem::take(&mut self.heredocs);
        let mut at = self.i;
        for (word, squiggly) in docs {
            let mut line = at;
            loop {
                if line >= self.src.len() {
                    at = self.src.len();
                    break;
                }
                let end = self.src[line..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(self.src.len(), |k| line + k);
                let text = &self.src[line..end];
                let text = text.strip_suffix(b"\r").unwrap_or(text);
                let text = if squiggly { trim_start(text) } else { text };
                if text == word.as_slice() {
                    at = (end + 1).min(self.src.len());
                    break;
                }
                line = end + 1;
            }
        }
        self.open_at = nl;
        self.end_top(at);
        self.i = at;
    }
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xf0..=0xff => 4,
        0xe0..=0xef => 3,
        0xc0..=0xdf => 2,
        _ => 1,
    }
}

fn trim_start(s: &[u8]) -> &[u8] {
    let k = s.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &s[k..]
}

/// The first occurrence of `needle` in `src` at or after `from`.
fn find(src: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || from >= src.len() {
        return None;
    }
    let first = needle[0];
    let mut i = from;
    while i < src.len() {
        let k = src[i..].iter().position(|&b| b == first)?;
        i += k;
        if src[i..].starts_with(needle) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// One past the end of the first line at or after `from` that starts with
/// `word` (and then a break or a blank), or `None`.
fn find_line(src: &[u8], from: usize, word: &[u8]) -> Option<usize> {
    let mut line = src[from..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|k| from + k + 1)?;
    while line < src.len() {
        let end = src[line..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |k| line + k);
        let text = &src[line..end];
        if text.starts_with(word) && text.get(word.len()).is_none_or(|b| b.is_ascii_whitespace()) {
            return Some((end + 1).min(src.len()));
        }
        line = end + 1;
    }
    None
}
