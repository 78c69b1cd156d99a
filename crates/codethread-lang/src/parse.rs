//! Parsing bytes into a tree-sitter tree. Parsing never fails on syntax
//! errors: the recovered tree is returned with a count of ERROR/MISSING nodes.

use std::cell::RefCell;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseState, Parser, Tree};

use crate::walk::count_errors;
use crate::{Lang, LangError};

/// A parsed source file: its bytes, language, tree and error count.
#[derive(Debug, Clone)]
pub struct ParsedFile {
    /// The language the file is measured and named as.
    pub lang: Lang,
    /// The grammar the tree was parsed with: `lang` itself, except when a
    /// caller chose another grammar for it ([`LangParseOptions::grammar`])
    /// (rust-code-analysis parses C with its C++ grammar). Node kind ids of
    /// `tree` belong to this grammar.
    pub grammar: Lang,
    /// The exact bytes that were parsed (any encoding; never assumed UTF-8).
    pub source: Vec<u8>,
    /// The concrete syntax tree.
    pub tree: Tree,
    /// Number of ERROR and MISSING nodes in the tree (0 for a clean parse).
    pub parse_errors: usize,
    /// Where the code ends: `source.len()`, except after a halting
    /// statement (PHP `__halt_compiler();`), where the data that follows
    /// is left out of the tree and out of every measure (`docs/lang.md`,
    /// "Where the code ends").
    pub code_end: usize,
    /// The bytes the tree is this file's own when it also holds other
    /// ranges of the file: a chunk of [`crate::ChunkPlan::with_chunk`]
    /// inside a unit is read with the unit's header and closer, whose
    /// functions belong to other chunks (the index leaves them out).
    /// `None`: the whole tree is its own.
    pub own: Option<std::ops::Range<usize>>,
}

impl ParsedFile {
    /// The root node.
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The code part of the source: `source[..code_end]`.
    pub fn code(&self) -> &[u8] {
        self.source.get(..self.code_end).unwrap_or(&self.source)
    }
}

thread_local! {
    static PARSERS: RefCell<HashMap<Lang, Parser>> = RefCell::new(HashMap::new());
    /// tree-sitter parses run on this thread ([`parses_on_thread`]).
    static PARSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many tree-sitter parses this thread has run so far (every grammar
/// tried, masked re-parses and halting-statement re-parses included): the
/// measure of `docs/performance.md`'s parses per file. Subtract two
/// readings around a call to count its parses.
pub fn parses_on_thread() -> u64 {
    PARSES.with(std::cell::Cell::get)
}

/// Limits on one parse, proportional to the input with a floor (see
/// `docs/lang.md`, "Parse budget").
///
/// tree-sitter's error recovery is superlinear on some inputs (a long line of
/// unterminated literals re-lexed to its end at each of them) and its tree
/// costs about 150–200 bytes per node, so one hostile file could stall a
/// batch or exhaust memory. A parse
/// that exceeds its budget returns [`LangError::Budget`] instead of a tree;
/// callers report it for that file and go on with the others.
///
/// The work, token and read limits are deterministic (they count
/// tree-sitter's operations, the input's tokens and the bytes its lexer
/// reads); the time limit is wall-clock, checked
/// every 100 parser operations, and generous (about 50× tree-sitter's speed on
/// an idle machine). [`ParseBudget::default`] leaves every file of the test
/// corpora more than 25× headroom on work and about 1.5× on token density;
/// [`ParseBudget::UNLIMITED`] switches every check off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ParseBudget {
    /// Parser operations allowed per input byte. tree-sitter reports progress
    /// every 100 operations (shifts, reductions, recovery steps); ordinary
    /// code needs well under 1 per byte (`docs/lang.md`). 0: no work limit.
    pub ops_per_byte: u64,
    /// Parser operations allowed for any input, however small (the floor).
    pub min_ops: u64,
    /// Estimated tokens allowed per 100 input bytes (see
    /// [`estimate_tokens`]); a denser file is refused before it is parsed,
    /// as its tree would take more than about 100× its size in memory.
    /// 0: no token limit.
    pub tokens_per_100_bytes: u64,
    /// Estimated tokens allowed for any input (the floor): files below it are
    /// parsed whatever their density.
    pub min_tokens: u64,
    /// Wall-clock time allowed per MiB of input. tree-sitter's error
    /// recovery can be quadratic in time at a linear number of operations
    /// (an unterminated `#include "x` on every line of a C++ function), so
    /// the work limit alone does not bound it. Zero: no time limit.
    pub time_per_mib: Duration,
    /// Wall-clock time allowed for any input, however small (the floor).
    pub min_time: Duration,
    /// Bytes the lexer may read per input byte (it reads a byte again on
    /// each re-lex after an error: an unterminated literal on a long line
    /// makes error recovery re-read to the line's end again and again, a
    /// cost the work limit does not see). Deterministic, unlike the time
    /// limit. 0: no read limit.
    pub reads_per_byte: u64,
    /// Bytes the lexer may read for any input, however small (the floor).
    pub min_reads: u64,
}

impl ParseBudget {
    /// No limit at all (tree-sitter runs to the end whatever the input).
    pub const UNLIMITED: ParseBudget = ParseBudget {
        ops_per_byte: 0,
        min_ops: 0,
        tokens_per_100_bytes: 0,
        min_tokens: 0,
        time_per_mib: Duration::ZERO,
        min_time: Duration::ZERO,
        reads_per_byte: 0,
        min_reads: 0,
    };

    /// The work limit for an input of `bytes` bytes (`None`: unlimited).
    pub fn ops_limit(&self, bytes: usize) -> Option<u64> {
        (self.ops_per_byte != 0).then(|| {
            self.ops_per_byte
                .saturating_mul(bytes as u64)
                .max(self.min_ops)
        })
    }

    /// The time limit for an input of `bytes` bytes (`None`: unlimited).
    pub fn time_limit(&self, bytes: usize) -> Option<Duration> {
        if self.time_per_mib.is_zero() && self.min_time.is_zero() {
            return None;
        }
        let share = self.time_per_mib.as_secs_f64() * bytes as f64 / (1024.0 * 1024.0);
        Some(
            Duration::try_from_secs_f64(share)
                .unwrap_or(Duration::MAX)
                .max(self.min_time),
        )
    }

    /// The lexer-read limit for an input of `bytes` bytes (`None`:
    /// unlimited).
    pub fn reads_limit(&self, bytes: usize) -> Option<u64> {
        (self.reads_per_byte != 0).then(|| {
            self.reads_per_byte
                .saturating_mul(bytes as u64)
                .max(self.min_reads)
        })
    }

    /// The token limit for an input of `bytes` bytes (`None`: unlimited).
    pub fn tokens_limit(&self, bytes: usize) -> Option<u64> {
        (self.tokens_per_100_bytes != 0).then(|| {
            (bytes as u64 / 100)
                .saturating_mul(self.tokens_per_100_bytes)
                .max(self.min_tokens)
        })
    }
}

impl Default for ParseBudget {
    /// 64 operations per byte (floor 10 million), 75 tokens per 100 bytes
    /// (floor 100,000 tokens), 10 s per MiB (floor 10 s), 32 lexer reads
    /// per byte (floor 1 million; the 3,931 files of the twelve metrics
    /// corpora need at most 3).
    fn default() -> Self {
        ParseBudget {
            ops_per_byte: 64,
            min_ops: 10_000_000,
            tokens_per_100_bytes: 75,
            min_tokens: 100_000,
            time_per_mib: Duration::from_secs(10),
            min_time: Duration::from_secs(10),
            reads_per_byte: 32,
            min_reads: 1_000_000,
        }
    }
}

/// Which limit of a [`ParseBudget`] a parse exceeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetLimit {
    /// Parser operations ([`ParseBudget::ops_per_byte`], `min_ops`).
    Work,
    /// Estimated tokens ([`ParseBudget::tokens_per_100_bytes`], `min_tokens`).
    Tokens,
    /// Wall-clock time ([`ParseBudget::time_per_mib`], `min_time`).
    Time,
    /// Bytes read by the lexer ([`ParseBudget::reads_per_byte`],
    /// `min_reads`).
    Reads,
    /// Estimated tokens of one top-level unit of a file parsed in chunks
    /// ([`crate::ChunkOptions::max_unit_tokens`], the node budget): the
    /// unit's tree alone would exceed the memory a chunked parse keeps to.
    Unit,
}

impl std::fmt::Display for BudgetLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BudgetLimit::Work => "parser operations",
            BudgetLimit::Tokens => "tokens",
            BudgetLimit::Time => "milliseconds",
            BudgetLimit::Reads => "bytes read by the lexer",
            BudgetLimit::Unit => "tokens in one top-level unit",
        })
    }
}

/// An upper estimate of the number of tokens in `source`, in one pass: each
/// maximal run of word bytes (ASCII letters, digits, `_`, `$`, bytes >= 0x80)
/// counts one, every other byte that is not whitespace counts one. Strings and
/// comments count their words, so real code is overestimated, never the
/// reverse for punctuation-dense input (`1,1,1,…` is one token a byte).
pub fn estimate_tokens(source: &[u8]) -> u64 {
    let mut tokens = 0u64;
    let mut in_word = false;
    for &b in source {
        let word = b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
        if word {
            if !in_word {
                tokens += 1;
            }
        } else if !b.is_ascii_whitespace() {
            tokens += 1;
        }
        in_word = word;
    }
    tokens
}

/// The lexer reads a file's comment runs cost its grammar's scanner beyond
/// one read of each byte ([`crate::LangInfo::rescanned_comment_runs`]): each line of a run
/// reads the rest of the run again, in reads of at least [`READ_CHUNK`]
/// bytes. The read limit of a parse is its budget's plus this, so that a
/// comment block is never what refuses a valid file; a run so long that
/// reading it again at each line is too slow is still stopped by the time
/// limit (about 6,000 consecutive comment lines per 10 s).
pub(crate) fn rescan_allowance(grammar: Lang, source: &[u8]) -> u64 {
    let info = grammar.info();
    if !info.rescanned_comment_runs {
        return 0;
    }
    let opener = info
        .line_comment
        .as_bytes()
        .first()
        .copied()
        .unwrap_or(b'#');
    let cost =
        |lines: u64, bytes: u64| lines.saturating_mul(bytes.saturating_add(READ_CHUNK as u64));
    let (mut total, mut lines, mut bytes) = (0u64, 0u64, 0u64);
    for line in source.split(|&b| b == b'\n') {
        let first = line
            .iter()
            .find(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\x0c'));
        if first == Some(&opener) {
            lines += 1;
            bytes += line.len() as u64 + 1;
        } else if lines > 0 {
            total = total.saturating_add(cost(lines, bytes));
            (lines, bytes) = (0, 0);
        }
    }
    total.saturating_add(cost(lines, bytes))
}

/// How [`parse_lang`] reads bytes of a known language.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct LangParseOptions {
    /// Read the bytes with this language's grammar instead of the file's own
    /// and label the result as the file's language ([`ParsedFile::lang`] is
    /// the language given, [`ParsedFile::grammar`] this one): for tools
    /// that read one language with another's grammar (the metrics' paper
    /// profile reads C with the C++ grammar). `None`: the language's own.
    pub grammar: Option<Lang>,
    /// The limits of the parse.
    pub budget: ParseBudget,
}

impl LangParseOptions {
    /// Sets [`LangParseOptions::grammar`].
    pub fn grammar(mut self, grammar: Option<Lang>) -> Self {
        self.grammar = grammar;
        self
    }

    /// Sets [`LangParseOptions::budget`].
    pub fn budget(mut self, budget: ParseBudget) -> Self {
        self.budget = budget;
        self
    }
}

impl LangParseOptions {
    /// The default options under `budget`.
    pub fn with_budget(budget: ParseBudget) -> Self {
        LangParseOptions {
            grammar: None,
            budget,
        }
    }
}

/// Parse `source` as `lang` with the default [`LangParseOptions`] (the
/// language's own grammar, the default [`ParseBudget`]).
///
/// Uses one cached parser per language per thread, so it is cheap to call from
/// rayon workers. Syntax errors are not errors: see [`ParsedFile::parse_errors`].
///
/// # Errors
/// [`LangError::GrammarNotBuilt`] if this build left the grammar out,
/// [`LangError::Grammar`] if the grammar cannot be loaded (ABI mismatch),
/// [`LangError::Budget`] if the parse exceeds the budget and
/// [`LangError::ParseAborted`] if tree-sitter returns no tree.
pub fn parse(lang: Lang, source: impl Into<Vec<u8>>) -> Result<ParsedFile, LangError> {
    parse_lang(lang, source, &LangParseOptions::default())
}

/// Parse `source` as `lang` with `options` (another language's grammar, a
/// budget); `parse_lang(l, s, &LangParseOptions::default())` is [`parse`].
///
/// # Errors
/// As [`parse`].
pub fn parse_lang(
    lang: Lang,
    source: impl Into<Vec<u8>>,
    options: &LangParseOptions,
) -> Result<ParsedFile, LangError> {
    let grammar = options.grammar.unwrap_or(lang);
    let budget = &options.budget;
    let source = source.into();
    let bytes = source.len();
    check_tokens(budget, grammar, &source)?;
    let ops_limit = budget.ops_limit(bytes);
    let time_limit = budget.time_limit(bytes);
    let deadline = time_limit.and_then(|t| Instant::now().checked_add(t));
    let reads_limit = budget
        .reads_limit(bytes)
        .map(|l| l.saturating_add(rescan_allowance(grammar, &source)));
    let limits = Limits {
        ops: ops_limit,
        deadline,
        reads: reads_limit,
    };
    let over = |limit: BudgetLimit| LangError::Budget {
        lang: grammar,
        bytes,
        limit,
        allowed: match limit {
            BudgetLimit::Work => ops_limit.unwrap_or(0),
            BudgetLimit::Reads => reads_limit.unwrap_or(0),
            _ => time_limit.map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        },
    };
    // What the parser reads: the file's bytes, or a same-length view of
    // them (`view.rs`: an unterminated `#include "x` line).
    let view = crate::view::parser_view(grammar, &source);
    let text = view.as_deref().unwrap_or(&source);
    let whole = Input {
        text,
        base: 0,
        range: None,
        context: &[],
    };
    let mut spent = Spent::default();
    let mut tree =
        run_parser(grammar, &whole, &limits, &mut spent).map_err(|e| e.into_error(&over))?;
    let mut code_end = source.len();
    if let Some(end) = halt_end(grammar, &source, &tree) {
        // The data after the halting statement is no code: parse again
        // with only the code in the tree.
        let code = Input {
            text,
            base: 0,
            range: Some(tree_sitter::Range {
                start_byte: 0,
                end_byte: end,
                start_point: tree_sitter::Point { row: 0, column: 0 },
                end_point: point_at(source.as_slice(), end),
            }),
            context: &[],
        };
        tree = run_parser(grammar, &code, &limits, &mut spent).map_err(|e| e.into_error(&over))?;
        code_end = end;
    }
    let parse_errors = count_errors(tree.root_node());
    Ok(ParsedFile {
        lang,
        grammar,
        source,
        tree,
        parse_errors,
        code_end,
        own: None,
    })
}

/// The work and time limits of one parse.
pub(crate) struct Limits {
    pub(crate) ops: Option<u64>,
    pub(crate) deadline: Option<Instant>,
    /// Bytes the lexer may read.
    pub(crate) reads: Option<u64>,
}

/// What one parse used of its [`Limits`] (a chunked parse shares one
/// budget between its parses: `chunk.rs`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Spent {
    /// Parser operations (counted in the progress callback's steps of 100).
    pub(crate) ops: u64,
    /// Bytes handed to the lexer.
    pub(crate) reads: u64,
}

/// The bytes one parse reads: `text` holds the bytes from file offset
/// `base` on; `range`, when given, is the part of the file the parser
/// reads (tree-sitter's included range: node offsets and positions stay
/// the file's).
pub(crate) struct Input<'a> {
    pub(crate) text: &'a [u8],
    pub(crate) base: usize,
    pub(crate) range: Option<tree_sitter::Range>,
    /// Other ranges of the file read with `range` (a chunk's context: the
    /// headers and closers of the units it lies in, a PHP file's opening
    /// tag), each with its bytes; in file order, none overlapping `range`.
    pub(crate) context: &'a [(tree_sitter::Range, &'a [u8])],
}

impl Input<'_> {
    /// The bytes at file offset `at`, up to the end of the range they are
    /// in (empty outside every range).
    fn bytes_at(&self, at: usize) -> &[u8] {
        if let Some(i) = at.checked_sub(self.base) {
            if i < self.text.len() {
                return self.text.get(i..).unwrap_or(&[]);
            }
        }
        self.context
            .iter()
            .find(|(r, _)| r.start_byte <= at && at < r.end_byte)
            .and_then(|(r, b)| b.get(at - r.start_byte..))
            .unwrap_or(&[])
    }
}

/// Bytes handed to the lexer per read under a read limit.
const READ_CHUNK: usize = 4096;

/// Why [`run_parser`] gave no tree.
pub(crate) enum RunError {
    Lang(LangError),
    Over(BudgetLimit),
    Aborted(Lang),
}

impl RunError {
    pub(crate) fn into_error(self, over: &impl Fn(BudgetLimit) -> LangError) -> LangError {
        match self {
            RunError::Lang(e) => e,
            RunError::Over(limit) => over(limit),
            RunError::Aborted(lang) => LangError::ParseAborted { lang },
        }
    }
}

/// The token-density check before any parse: a source whose estimated
/// tokens exceed `budget`'s limit for its size is refused, naming `grammar`.
pub(crate) fn check_tokens(
    budget: &ParseBudget,
    grammar: Lang,
    source: &[u8],
) -> Result<(), LangError> {
    let bytes = source.len();
    match budget.tokens_limit(bytes) {
        Some(limit) if estimate_tokens(source) > limit => Err(LangError::Budget {
            lang: grammar,
            bytes,
            limit: BudgetLimit::Tokens,
            allowed: limit,
        }),
        _ => Ok(()),
    }
}

/// One tree-sitter parse of `input` with the thread's cached parser of
/// `grammar`, under `limits`; what it used is added to `spent`.
pub(crate) fn run_parser(
    grammar: Lang,
    input: &Input<'_>,
    limits: &Limits,
    spent: &mut Spent,
) -> Result<Tree, RunError> {
    let source = input.text;
    let base = input.base;
    let mut exceeded: Option<BudgetLimit> = None;
    let tree = PARSERS.with(|cell| -> Result<Option<Tree>, RunError> {
        let mut map = cell.borrow_mut();
        let lang = grammar;
        let parser = match map.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = Parser::new();
                let language =
                    lang.ts_language()
                        .ok_or(RunError::Lang(LangError::GrammarNotBuilt {
                            lang,
                            feature: lang.feature(),
                        }))?;
                p.set_language(&language).map_err(|e| {
                    RunError::Lang(LangError::Grammar {
                        lang,
                        message: e.to_string(),
                    })
                })?;
                v.insert(p)
            }
        };
        parser.reset();
        PARSES.with(|n| n.set(n.get().saturating_add(1)));
        let restricted = match input.range {
            Some(range) => {
                let mut ranges: Vec<tree_sitter::Range> =
                    input.context.iter().map(|(r, _)| *r).collect();
                ranges.push(range);
                ranges.sort_by_key(|r| r.start_byte);
                parser.set_included_ranges(&ranges).is_ok()
            }
            None => false,
        };
        let read_over = std::cell::Cell::new(false);
        let mut calls = 0u64;
        let served = std::cell::Cell::new(0u64);
        let tree = if base == 0
            && input.context.is_empty()
            && limits.ops.is_none()
            && limits.deadline.is_none()
            && limits.reads.is_none()
        {
            parser.parse(source, None)
        } else {
            // tree-sitter calls back every 100 operations; returning true
            // stops it.
            let max_calls = limits.ops.map(|l| l / 100);
            let mut progress = |_: &ParseState| -> bool {
                calls += 1;
                if read_over.get() {
                    return true;
                }
                if max_calls.is_some_and(|m| calls > m) {
                    exceeded = Some(BudgetLimit::Work);
                    return true;
                }
                if limits.deadline.is_some_and(|d| Instant::now() > d) {
                    exceeded = Some(BudgetLimit::Time);
                    return true;
                }
                false
            };
            // The lexer reads through this callback; under a read limit in
            // chunks, so that the bytes it has read bound its work.
            let mut read = |at: usize, _| -> &[u8] {
                // File offset `at` is byte `at - base` of the text, or of
                // a context range's bytes.
                let rest = input.bytes_at(at);
                let Some(limit) = limits.reads else {
                    return rest;
                };
                if rest.is_empty() || read_over.get() {
                    return &[];
                }
                let end = READ_CHUNK.min(rest.len());
                let total = served.get().saturating_add(end as u64);
                if total > limit {
                    read_over.set(true);
                    return &[];
                }
                served.set(total);
                rest.get(..end).unwrap_or(&[])
            };
            parser.parse_with_options(
                &mut read,
                None,
                Some(tree_sitter::ParseOptions::new().progress_callback(&mut progress)),
            )
        };
        if read_over.get() {
            exceeded = Some(BudgetLimit::Reads);
        }
        spent.ops = spent.ops.saturating_add(calls.saturating_mul(100));
        spent.reads = spent.reads.saturating_add(served.get());
        // A stopped parse keeps its state for resuming: drop it; the next
        // parse of this thread reads the whole input again.
        parser.reset();
        if restricted {
            // An empty list restores the default (the whole input).
            let _ = parser.set_included_ranges(&[]);
        }
        Ok(tree)
    })?;
    match (tree, exceeded) {
        // A parse that ran out of bytes to read saw a truncated input: no
        // tree of the file.
        (_, Some(BudgetLimit::Reads)) => Err(RunError::Over(BudgetLimit::Reads)),
        (Some(tree), _) => Ok(tree),
        (None, Some(limit)) => Err(RunError::Over(limit)),
        (None, None) => Err(RunError::Aborted(grammar)),
    }
}

/// The row and column (in bytes) of offset `at`.
pub(crate) fn point_at(source: &[u8], at: usize) -> tree_sitter::Point {
    let head = source.get(..at).unwrap_or(source);
    let row = head.iter().filter(|&&b| b == b'\n').count();
    let column = head
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(head.len(), |p| head.len() - p - 1);
    tree_sitter::Point { row, column }
}

/// Where the code of `source` ends for `lang` (see
/// [`ParsedFile::code_end`]), for readers that do not keep a tree (the
/// lizard-compatible token reader): `source.len()` unless the language has
/// a halt rule and the source holds the halting call, in which case the
/// source is parsed (under the default [`ParseBudget`]; a failed parse
/// keeps the whole source).
pub fn code_end(lang: Lang, source: &[u8]) -> usize {
    let Some(rule) = crate::spec::spec(lang).defs.halt else {
        return source.len();
    };
    if !contains_ignore_case(source, rule.name.as_bytes()) {
        return source.len();
    }
    parse(lang, source.to_vec()).map_or(source.len(), |f| f.code_end)
}

/// Whether `hay` holds `needle`, ASCII case-insensitively.
pub(crate) fn contains_ignore_case(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty()
        && hay
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Where the code of `source` ends under the grammar's halt rule
/// ([`crate::spec`]: PHP `__halt_compiler();`): the end of the first
/// top-level halting statement, when bytes follow it. Only the root's
/// children are looked at (the call halts only at the outermost scope).
fn halt_end(grammar: Lang, source: &[u8], tree: &Tree) -> Option<usize> {
    let rule = crate::spec::spec(grammar).defs.halt?;
    let name = rule.name.as_bytes();
    // Cheap pre-check: no occurrence of the name, no halt.
    if !contains_ignore_case(source, name) {
        return None;
    }
    let root = tree.root_node();
    let mut c = root.walk();
    for stmt in root.children(&mut c) {
        if stmt.kind() != rule.statement {
            continue;
        }
        let Some(call) = stmt.named_child(0) else {
            continue;
        };
        if call.kind() != rule.call {
            continue;
        }
        let Some(f) = call.child_by_field_name(rule.function_field) else {
            continue;
        };
        let text = source.get(f.start_byte()..f.end_byte()).unwrap_or(&[]);
        if text.eq_ignore_ascii_case(name) {
            let mut end = stmt.end_byte();
            // `__halt_compiler();` ends at its `;`; without one, at the closer.
            let terminated = end > 0 && source.get(end - 1) == Some(&b';');
            if let Some(closer) = rule.closer.filter(|_| !terminated) {
                let rest = source.get(end..).unwrap_or(&[]);
                let pad = rest
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                    .count();
                if rest
                    .get(pad..)
                    .is_some_and(|r| r.starts_with(closer.as_bytes()))
                {
                    end += pad + closer.len();
                }
            }
            return (end < source.len()).then_some(end);
        }
    }
    None
}

/// Parse a file's bytes choosing the language from its path.
///
/// # Errors
/// [`LangError::Unsupported`] when the extension is not a supported language,
/// otherwise as [`parse`].
pub fn parse_path(
    path: &std::path::Path,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    let lang = Lang::from_path(path).ok_or_else(|| LangError::Unsupported {
        path: path.to_path_buf(),
    })?;
    parse(lang, source)
}

#[cfg(test)]
mod rescan_tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Issue 31: valid Python with long runs of comment lines (a function's
    /// 250-line comment block, a module's) parses under the default budget;
    /// the lexer's read limit grows by what the indentation scanner reads
    /// again, not a fixed 32 reads per byte.
    #[test]
    fn comment_runs_do_not_exhaust_the_read_budget() {
        for k in [200usize, 400, 1_600] {
            let line = |i: usize, indent: &str| {
                format!("{indent}# comment line number {i} with some more words\n")
            };
            let mut f = String::from("def f():\n    x = 1\n");
            f.extend((0..k).map(|i| line(i, "    ")));
            f.push_str("    return x\n");
            let mut m = String::from("x = 1\n");
            m.extend((0..k).map(|i| line(i, "")));
            m.push_str("y = 2\n");
            for src in [f, m] {
                let p = parse_lang(Lang::Python, src.into_bytes(), &LangParseOptions::default());
                assert_eq!(
                    p.map(|p| p.parse_errors).map_err(|e| e.to_string()),
                    Ok(0),
                    "{k}"
                );
            }
        }
        assert_eq!(rescan_allowance(Lang::Go, b"// a\n// b\n"), 0);
        let two = rescan_allowance(Lang::Python, b"# a\n# b\nx = 1\n");
        assert_eq!(two, 2 * (8 + READ_CHUNK as u64));
    }
}
