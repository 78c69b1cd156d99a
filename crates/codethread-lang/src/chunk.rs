//! Parsing a large file in chunks of whole top-level units, so that no
//! tree of the whole file is ever held (issue 19: memory bounded by the
//! input; `docs/lang.md`, "Chunked parsing").
//!
//! tree-sitter's tree costs about 75-95 bytes per node, 40-100x a
//! token-dense input; a file of many small functions is only ever walked
//! one function (one top-level unit) at a time, so its trees need not
//! coexist. [`ChunkPlan::new`] finds where the file's top-level units
//! begin with the grammar itself: it parses a window of about
//! [`ChunkOptions::chunk_bytes`] (cut before a line that starts in column
//! 0 with a letter). From the first root child with a syntax error (or
//! unpaired braces) on, the cut and tree-sitter's error recovery at it may
//! have changed the tree; the chunk ends before the last child ahead of
//! that one that can start a unit (no comment, column 0: recovery may have
//! closed the unit in progress early, leaving the rest of its body as
//! indented top-level statements), and the next window starts there.
//! [`ChunkPlan::with_chunk`] then parses one chunk alone, with
//! tree-sitter's included range over the file's own bytes (node offsets
//! and positions stay the file's), and hands the caller a [`ParsedFile`]
//! whose tree covers that chunk; the tree is dropped before the next chunk
//! is parsed.
//!
//! **Inside a unit** (issue 31, item 3). A window that has grown to four
//! steps over one unit that is a *container* (a class, a namespace, a
//! module, an impl, an include guard or other conditional group, an
//! `extern "C"` block: no function, its members in one list) is cut inside
//! the unit instead: the pass goes down to the unit's member list and cuts
//! between members as it cuts between top-level units, at lines in the
//! members' column. Each chunk inside the unit is parsed with the unit's
//! *header* (its bytes before its first member) and *closer* (after its
//! last member: `}`, `};`, `end`, `#endif`) as further included ranges, so
//! that its members have the ancestors, names and positions they have in
//! the whole file; containers nest (a class in a namespace). The closer is
//! found where the unit ends in a window, or, where error recovery at a cut
//! loses the unit (C++'s namespaces), by reading the file's last lines
//! after a window's first step as the unit's closer
//! ([`ChunkPlan::context`] gives each chunk's ranges): in a language of
//! braces, first the lines that close every brace the window leaves open
//! (200 nested namespaces), then the last one to four lines. A unit whose
//! members hold syntax errors is entered too; its windows trust their
//! children up to the first error, as at the top level.
//!
//! **Minified lines** (item 11). A line that runs on far past the window is
//! cut inside, after a `;` or `}`, and a unit that starts anywhere on a
//! line longer than 4 KiB may start a chunk (not in Python, whose units
//! end where their lines' indentation does).
//!
//! **PHP** (item 11): a file that is one block of code (it starts with
//! `<?php` and holds no `?>` but at its end) is cut in chunks, each read
//! after the file's tag; any other PHP file, and a file with a halting
//! statement (PHP `__halt_compiler();`: the data after it is no code and
//! may hold any bytes), is one chunk.
//!
//! A unit that cannot be cut inside (a function: one 6 MB function, a
//! wrapper function around a whole bundle) and is larger than
//! [`ChunkOptions::max_unit_tokens`] is a typed per-file error
//! ([`LangError::Budget`] with [`BudgetLimit::Unit`]), not unbounded
//! memory; under it, the unit is one chunk. All parses of one file share
//! one budget: six times the [`ParseBudget`] of a whole-file parse of it
//! (the boundary pass, a little over one parse of each byte, and up to
//! four parses of each chunk: the measured grammar, another grammar for
//! the join key, a fallback grammar, the macro-masked bytes).

use std::time::Instant;

use tree_sitter::{Point, Range as TsRange, Tree};

use crate::parse::{
    contains_ignore_case, estimate_tokens, run_parser, BudgetLimit, Input, LangParseOptions,
    Limits, ParseBudget, ParsedFile, Spent,
};
use crate::walk::count_errors;
use crate::{Lang, LangError, PerLang};

/// When and how a file is parsed in chunks ([`ChunkPlan`]).
///
/// The default chunks files of at least 1 MB (10^6 bytes) into chunks of
/// about 16 KiB (a window's trees cost about 150 bytes per byte: 2-4 MB),
/// cuts a large class, namespace or module inside, and refuses a unit that
/// cannot be cut inside (a function) of more than 2,000,000 estimated
/// tokens (about 250 MB of tree-sitter tree: under it, such a unit is
/// parsed whole). [`ChunkOptions::NEVER`] parses every file whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[non_exhaustive]
pub struct ChunkOptions {
    /// Files of at least this many bytes are parsed in chunks; smaller
    /// ones whole (one tree, exactly as [`crate::parse_lang`]).
    /// `usize::MAX`: never chunk.
    pub min_file_bytes: usize,
    /// The size of the window each chunk is found in: a chunk holds the
    /// whole top-level units that begin in about this many bytes (at least
    /// one unit, however large).
    pub chunk_bytes: usize,
    /// The node budget: estimated tokens ([`crate::estimate_tokens`])
    /// allowed in a window that holds no whole unit yet (a unit that
    /// cannot be cut inside: a function). A file with a larger one is
    /// refused ([`BudgetLimit::Unit`]). 0: no limit.
    pub max_unit_tokens: u64,
}

impl ChunkOptions {
    /// Sets [`ChunkOptions::min_file_bytes`].
    pub const fn min_file_bytes(mut self, min_file_bytes: usize) -> Self {
        self.min_file_bytes = min_file_bytes;
        self
    }

    /// Sets [`ChunkOptions::chunk_bytes`].
    pub const fn chunk_bytes(mut self, chunk_bytes: usize) -> Self {
        self.chunk_bytes = chunk_bytes;
        self
    }

    /// Sets [`ChunkOptions::max_unit_tokens`].
    pub const fn max_unit_tokens(mut self, max_unit_tokens: u64) -> Self {
        self.max_unit_tokens = max_unit_tokens;
        self
    }
}

impl ChunkOptions {
    /// The default options ([`ChunkOptions::default`]) as a constant: files
    /// of 1 MB and more are chunked.
    pub const DEFAULT: ChunkOptions = ChunkOptions {
        min_file_bytes: 1_000_000,
        chunk_bytes: 16 * 1024,
        max_unit_tokens: DEFAULT_MAX_UNIT_TOKENS,
    };

    /// Never chunk: every file is parsed whole.
    pub const NEVER: ChunkOptions = ChunkOptions {
        min_file_bytes: usize::MAX,
        chunk_bytes: 16 * 1024,
        max_unit_tokens: DEFAULT_MAX_UNIT_TOKENS,
    };

    /// Whether a file of `bytes` bytes is parsed in chunks.
    pub fn applies(&self, bytes: usize) -> bool {
        bytes >= self.min_file_bytes
    }
}

/// The default node budget ([`ChunkOptions::max_unit_tokens`]).
const DEFAULT_MAX_UNIT_TOKENS: u64 = 2_000_000;

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions::DEFAULT
    }
}

/// One chunk: a byte range of the file and the position of its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chunk {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// Row and byte column of `start`.
    pub start_point: Point,
}

/// Which parses of a chunk [`ChunkPlan::with_chunk`] runs, as
/// [`crate::parse_file`] (`fallbacks`, `tolerant`) or
/// [`crate::parse_lang`] (`grammar`) run them on a whole file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChunkParse {
    /// The grammar (`None`: the file's language's own).
    pub grammar: Option<Lang>,
    /// When the chunk has errors, also try the language's fallback
    /// grammars ([`Lang::fallback_grammars`]) and keep the parse with the
    /// fewest errors (ties keep the first).
    pub fallbacks: bool,
    /// When the chunk still has errors, also parse it with its macros
    /// masked ([`crate::mask_macros`] of the chunk's bytes) and keep that
    /// tree when it has fewer errors ([`crate::tolerant`] on a chunk).
    pub tolerant: bool,
}

impl ChunkParse {
    /// A chunk read as [`crate::parse_file`] reads a file: the file's own
    /// grammar, its fallback grammars when the chunk has errors, then the
    /// macro mask.
    pub const LIKE_PARSE_FILE: ChunkParse = ChunkParse {
        grammar: None,
        fallbacks: true,
        tolerant: true,
    };
}

/// A file cut into chunks of whole top-level units (see the module docs).
#[derive(Debug)]
pub struct ChunkPlan {
    lang: Lang,
    source: Vec<u8>,
    chunks: Vec<Chunk>,
    /// The whole file's preprocessor lines ([`crate::directive_lines`]) when
    /// it is cut in chunks and its language has macro rules: a chunk's
    /// macro mask knows every macro the file defines, not only those the
    /// chunk's own `#define`s name.
    directives: Option<Vec<u8>>,
    /// The file's multi-line literals and comments ([`crate::Literals`]),
    /// found before the boundary pass: no window is cut inside one, and no
    /// window child that starts inside one is trusted.
    literals: crate::Literals,
    /// The units the boundary pass cut inside (module docs): their headers
    /// and closers are read with every chunk inside them.
    containers: Vec<Container>,
    /// Per chunk, the containers it lies in, outermost first (empty for a
    /// chunk of whole top-level units).
    enclosing: Vec<Vec<usize>>,
    /// A PHP file's opening tag (`0..head`), read with every chunk after
    /// the first.
    head: Option<usize>,
    /// Where each line starts, built when a context range needs a position.
    lines: Option<Vec<usize>>,
    /// Each chunk's context, as [`ChunkPlan::with_layout`] was given it.
    given: Option<Vec<Vec<(usize, usize)>>>,
    /// The shared budget's limits, what is left of them, and the deadline.
    ops_left: Option<u64>,
    reads_left: Option<u64>,
    deadline: Option<Instant>,
    /// The whole-file limits, for errors.
    ops_allowed: u64,
    reads_allowed: u64,
    time_allowed_ms: u64,
}

/// A unit the boundary pass cut inside: a class, namespace, module,
/// include guard, `extern` block, impl (any unit that is no function and
/// whose members sit in one list). Each chunk inside it is parsed with its
/// header (the bytes before its first member) and its closer (after its
/// last member) as included ranges, so that the chunk's members have the
/// ancestors, positions and names they have in the whole file.
#[derive(Debug, Clone)]
struct Container {
    /// Where the unit starts.
    start: usize,
    /// Where its first member starts: the header is `start..header_end`.
    header_end: usize,
    /// Its last member's end and its own end (`None` until the boundary
    /// pass meets them).
    closer: Option<(usize, usize)>,
    /// The node kinds from the unit down to its member list.
    path: Vec<u16>,
    /// The column its members start in.
    indent: usize,
}

/// Where a window's tree is read inside its containers
/// ([`ChunkPlan::level_of`]).
struct Level<'t> {
    /// The member list of the innermost container (the root at the top).
    list: tree_sitter::Node<'t>,
    /// The innermost container's node.
    unit: Option<tree_sitter::Node<'t>>,
    /// Where the window's own children start.
    floor: usize,
}

/// What the boundary pass reads of one window.
struct Window {
    /// The children of the level the pass is at (the root's, or the
    /// member list of the innermost container), in order.
    kids: Vec<Child>,
    /// The first unit of the window as a container, when it is one and
    /// the pass asked.
    enter: Option<Container>,
    /// The innermost container ends in the window: its last member's end
    /// and its own end.
    closed: Option<(usize, usize)>,
}

/// One child of a window's root, as the boundary pass compares them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Child {
    kind: u16,
    start: usize,
    end: usize,
    /// A syntax error in it.
    has_error: bool,
    /// The window's root is an ERROR node: no tree of it.
    lost: bool,
    /// Not an extra (a comment) and in column 0: where a chunk may start.
    starts_unit: bool,
    /// A comment, or a kind that belongs to the unit after it (Rust
    /// attributes: `LangSpec::leading_siblings` and the kinds allowed
    /// between them), in column 0.
    attaches: bool,
}

/// How many whole-file budgets a chunked parse shares (module docs).
const BUDGET_SHARES: u64 = 6;

impl ChunkPlan {
    /// Cut `source`, a `lang` file, into chunks under `chunks`, with the
    /// grammar of `options` (the file's own by default) and under
    /// `options.budget` (see the module docs for how it is shared). A file
    /// smaller than [`ChunkOptions::min_file_bytes`], or one with a
    /// halting statement, is one chunk.
    ///
    /// # Errors
    /// [`LangError::Budget`]: the file is denser than the budget's token
    /// limit ([`BudgetLimit::Tokens`]), a top-level unit exceeds
    /// [`ChunkOptions::max_unit_tokens`] ([`BudgetLimit::Unit`]) or the
    /// boundary pass exceeds the shared budget; otherwise as
    /// [`crate::parse`].
    pub fn new(
        lang: Lang,
        source: Vec<u8>,
        options: &LangParseOptions,
        chunks: &ChunkOptions,
    ) -> Result<ChunkPlan, LangError> {
        let grammar = options.grammar.unwrap_or(lang);
        let budget = &options.budget;
        let bytes = source.len();
        crate::parse::check_tokens(budget, grammar, &source)?;
        let mut plan = ChunkPlan::with_budget(lang, source, budget, grammar);
        let halts = crate::spec::spec(lang)
            .defs
            .halt
            .is_some_and(|rule| contains_ignore_case(&plan.source, rule.name.as_bytes()));
        let head = if lang == Lang::Php {
            php_head(&plan.source)
        } else {
            None
        };
        if !chunks.applies(bytes) || halts || !(RULES.get(lang).alone || head.is_some()) {
            plan.chunks.push(Chunk {
                start: 0,
                end: bytes,
                start_point: Point { row: 0, column: 0 },
            });
            return Ok(plan);
        }
        plan.note_directives();
        plan.head = head;
        plan.literals = crate::literals::scan(lang, &plan.source);
        plan.find_chunks(grammar, chunks)?;
        if plan.chunks.len() <= 1 {
            plan.directives = None;
            plan.containers.clear();
            plan.enclosing.clear();
            plan.head = None;
            plan.lines = None;
        }
        Ok(plan)
    }

    /// Keeps the file's preprocessor lines for the macro masks of its
    /// windows and chunks (a language with macro rules).
    fn note_directives(&mut self) {
        if crate::macros::macro_rules(self.lang).is_some() {
            self.directives = Some(codethread_lex::preproc::directive_lines(&self.source));
        }
    }

    /// A plan of `source`, a `lang` file, cut where `starts` say (byte
    /// offsets, ascending; 0 and the offsets past the end are implied or
    /// left out): the chunks of another plan of the same units, such as
    /// those of the file a skeleton was made from, shifted by the edits
    /// before each. Under `options.budget`, shared as [`ChunkPlan::new`]
    /// shares it; no boundary pass. No chunk has a context: see
    /// [`ChunkPlan::with_layout`] for chunks inside a unit.
    ///
    /// # Errors
    /// [`LangError::Budget`] when the file is denser than the budget's
    /// token limit ([`BudgetLimit::Tokens`]).
    pub fn with_starts(
        lang: Lang,
        source: Vec<u8>,
        options: &LangParseOptions,
        starts: &[usize],
    ) -> Result<ChunkPlan, LangError> {
        let layout: Vec<(usize, Vec<(usize, usize)>)> =
            starts.iter().map(|&s| (s, Vec::new())).collect();
        ChunkPlan::with_layout(lang, source, options, &layout)
    }

    /// As [`ChunkPlan::with_starts`], each chunk with the ranges of the
    /// file read with it ([`ChunkPlan::context`] of the plan it was shifted
    /// from: the headers and closers of the units it lies in, a PHP file's
    /// tag). A range that overlaps its chunk, another range or the file's
    /// end is left out.
    ///
    /// # Errors
    /// As [`ChunkPlan::with_starts`].
    pub fn with_layout(
        lang: Lang,
        source: Vec<u8>,
        options: &LangParseOptions,
        layout: &[(usize, Vec<(usize, usize)>)],
    ) -> Result<ChunkPlan, LangError> {
        let grammar = options.grammar.unwrap_or(lang);
        crate::parse::check_tokens(&options.budget, grammar, &source)?;
        let mut plan = ChunkPlan::with_budget(lang, source, &options.budget, grammar);
        let len = plan.source.len();
        // Strictly ascending starts from 0, each with its context; a start
        // not after the one before merges its context into that chunk's.
        let mut entries: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for (start, ctx) in layout {
            let start = *start;
            if start >= len && !entries.is_empty() {
                continue;
            }
            match entries.last_mut() {
                None if start == 0 || start >= len => entries.push((0, ctx.clone())),
                None => {
                    entries.push((0, Vec::new()));
                    entries.push((start, ctx.clone()));
                }
                Some(last) if start <= last.0 => last.1.extend(ctx.iter().copied()),
                Some(_) => entries.push((start, ctx.clone())),
            }
        }
        if entries.is_empty() {
            entries.push((0, Vec::new()));
        }
        let mut point = Point { row: 0, column: 0 };
        let mut given: Vec<Vec<(usize, usize)>> = Vec::with_capacity(entries.len());
        for (i, (pos, ranges)) in entries.iter().enumerate() {
            let pos = *pos;
            let end = entries.get(i + 1).map_or(len, |e| e.0);
            plan.chunks.push(Chunk {
                start: pos,
                end,
                start_point: point,
            });
            let mut ranges = ranges.clone();
            ranges.sort_unstable();
            let mut last = 0usize;
            ranges.retain(|&(s, e)| {
                let keep = s < e && s >= last && e <= len && (e <= pos || s >= end);
                if keep {
                    last = e;
                }
                keep
            });
            given.push(ranges);
            point = advance(point, plan.source.get(pos..end).unwrap_or(&[]));
        }
        if plan.chunks.is_empty() {
            plan.chunks.push(Chunk {
                start: 0,
                end: len,
                start_point: Point { row: 0, column: 0 },
            });
            given.push(Vec::new());
        }
        if given.iter().any(|g| !g.is_empty()) {
            plan.lines = Some(line_starts(&plan.source));
            plan.given = Some(given);
        }
        plan.note_directives();
        Ok(plan)
    }

    fn with_budget(lang: Lang, source: Vec<u8>, budget: &ParseBudget, grammar: Lang) -> ChunkPlan {
        let bytes = source.len();
        let shares = |v: Option<u64>| v.map(|v| v.saturating_mul(BUDGET_SHARES));
        let ops = shares(budget.ops_limit(bytes));
        // As a whole-file parse: the comment runs the scanner reads again
        // are allowed for (`parse::rescan_allowance`).
        let reads = shares(
            budget
                .reads_limit(bytes)
                .map(|l| l.saturating_add(crate::parse::rescan_allowance(grammar, &source))),
        );
        let time = budget.time_limit(bytes).map(|t| {
            t.checked_mul(u32::try_from(BUDGET_SHARES).unwrap_or(1))
                .unwrap_or(t)
        });
        ChunkPlan {
            lang,
            source,
            chunks: Vec::new(),
            directives: None,
            literals: crate::Literals::default(),
            containers: Vec::new(),
            enclosing: Vec::new(),
            head: None,
            lines: None,
            given: None,
            ops_left: ops,
            reads_left: reads,
            deadline: time.and_then(|t| Instant::now().checked_add(t)),
            ops_allowed: ops.unwrap_or(0),
            reads_allowed: reads.unwrap_or(0),
            time_allowed_ms: time.map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        }
    }

    /// The boundary pass (module docs).
    fn find_chunks(&mut self, grammar: Lang, opts: &ChunkOptions) -> Result<(), LangError> {
        let len = self.source.len();
        let mut pos = 0usize;
        let mut point = Point { row: 0, column: 0 };
        let step = opts.chunk_bytes.max(1);
        // The containers the pass is inside, outermost first.
        let mut open: Vec<usize> = Vec::new();
        while pos < len {
            let mut window = step;
            let (end, closes) = loop {
                let cut = self.cut_near(pos.saturating_add(window), step, &open);
                // At the top level the rest of the file is the last chunk;
                // inside a container the pass reads on to its closer.
                if cut >= len && open.is_empty() {
                    break (len, false);
                }
                if opts.max_unit_tokens != 0
                    && unit_tokens(&self.source, pos, cut, &self.literals) > opts.max_unit_tokens
                {
                    return Err(LangError::Budget {
                        lang: grammar,
                        bytes: len,
                        limit: BudgetLimit::Unit,
                        allowed: opts.max_unit_tokens,
                    });
                }
                // The innermost container's closer is known (found by a
                // probe of the file's tail) and the window reaches it: the
                // rest of the container is its last chunk.
                let known = open
                    .last()
                    .and_then(|&k| self.containers.get(k))
                    .and_then(|c| c.closer);
                if let Some((s, e)) = known {
                    if cut >= s {
                        break (e.max(pos + 1).min(len), true);
                    }
                }
                let stuck = window >= step.saturating_mul(STUCK_STEPS);
                // A unit this many steps long is cut inside when it is a
                // container; the file's tail is probed for its closer once
                // per place.
                let enter = window >= step.saturating_mul(ENTER_STEPS);
                let probe = (window == step.saturating_mul(ENTER_STEPS)).then_some(step);
                let read = self.read_window(
                    grammar,
                    Chunk {
                        start: pos,
                        end: cut.min(len),
                        start_point: point,
                    },
                    &open,
                    enter,
                    probe,
                )?;
                // The innermost container ends in the window: the chunk
                // ends with it (its closer is now known).
                if let Some((last, unit_end)) = read.closed {
                    if let Some(&k) = open.last() {
                        self.containers[k].closer = Some((last, unit_end));
                    }
                    break (unit_end.max(pos + 1).min(len), true);
                }
                if cut >= len {
                    // A container that never closes (a file with errors):
                    // the rest is the last chunk.
                    break (len, false);
                }
                let kids = &read.kids;
                // From the first child with a syntax error (or unpaired
                // braces) on, the cut and tree-sitter's error recovery at it
                // may have changed the tree; the children before it are the
                // whole file's.
                let first_error = kids.iter().position(|c| c.has_error).unwrap_or(kids.len());
                // A child that starts inside a multi-line literal or comment
                // is error recovery reading its text as code (a window cut
                // inside a `"""` block): never trusted, nor anything after.
                let in_literal = kids
                    .iter()
                    .position(|c| self.literals.inside(c.start))
                    .unwrap_or(kids.len());
                // A window whose root is an ERROR node trusts only its
                // leading whole units (`read_window`), never the rest,
                // however long it grows. Otherwise an error that stays in a
                // window of 8 steps and more is the file's own.
                let lost = kids.first().is_some_and(|c| c.lost);
                let trusted = if !lost && stuck {
                    kids.len()
                } else {
                    first_error
                }
                .min(in_literal);
                // The chunk ends before the last trusted child that can
                // start a unit: not an extra (a comment), in its level's
                // column. Error recovery at a cut may close the unit in
                // progress early and leave the rest of its body as
                // statements at the top level (indented, in formatted
                // code): the unit goes to the next chunk with them.
                //
                // A unit starts with the children before it that belong to
                // it (Rust attributes, the comments among and before them:
                // the index widens a function's span over them), so the
                // chunk ends before those.
                let trusted = kids.get(..trusted).unwrap_or(&[]);
                // Inside a container, a chunk holds one member at least
                // (not its header alone).
                let floor = open
                    .last()
                    .and_then(|&k| self.containers.get(k))
                    .map_or(pos, |c| c.header_end.max(pos));
                let boundary = (0..trusted.len())
                    .rev()
                    .filter(|&i| trusted[i].starts_unit)
                    .map(|i| {
                        let mut j = i;
                        while j > 0 && trusted[j - 1].attaches {
                            j -= 1;
                        }
                        trusted[j].start
                    })
                    .find(|&b| b > floor && b < cut);
                if let Some(b) = boundary {
                    break (b, false);
                }
                // No whole unit yet. A window grown this far over one unit
                // that is a container: cut inside it (the pass goes on at
                // the same place, one level down).
                if let Some(c) = read.enter {
                    if self.lines.is_none() {
                        self.lines = Some(line_starts(&self.source));
                    }
                    self.containers.push(c);
                    open.push(self.containers.len() - 1);
                    break (pos, false);
                }
                // Otherwise a larger window.
                window = window.saturating_mul(2);
            };
            if end == pos {
                // Entered a container: read the same place again inside it.
                continue;
            }
            self.chunks.push(Chunk {
                start: pos,
                end,
                start_point: point,
            });
            self.enclosing.push(open.clone());
            if closes {
                open.pop();
            }
            point = advance(point, self.source.get(pos..end).unwrap_or(&[]));
            pos = end;
        }
        if self.chunks.is_empty() {
            self.chunks.push(Chunk {
                start: 0,
                end: 0,
                start_point: Point { row: 0, column: 0 },
            });
            self.enclosing.push(Vec::new());
        }
        Ok(())
    }

    /// The ranges read with a chunk `start..end` inside the containers
    /// `enclosing` (outermost first): the PHP tag, the headers that end
    /// before it, the known closers that start after it; in file order.
    fn context_ranges(&self, start: usize, end: usize, enclosing: &[usize]) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        if let Some(h) = self.head {
            if start >= h && h > 0 {
                out.push((0, h));
            }
        }
        for &k in enclosing {
            if let Some(c) = self.containers.get(k) {
                if c.header_end <= start && c.start < c.header_end {
                    out.push((c.start, c.header_end));
                }
            }
        }
        for &k in enclosing.iter().rev() {
            if let Some((s, e)) = self.containers.get(k).and_then(|c| c.closer) {
                if s >= end && e > s {
                    out.push((s, e));
                }
            }
        }
        // In file order, none overlapping another or the chunk.
        let mut last = 0usize;
        out.retain(|&(s, e)| {
            let keep = s >= last && (e <= start || s >= end);
            if keep {
                last = e;
            }
            keep
        });
        out
    }

    /// A parse of `window` with `context`; when it has errors and the
    /// file's language has macro rules, also with the macros the whole file
    /// defines masked, kept (with the masked bytes) when it reads better: a
    /// window is read as its chunk will be (`with_chunk`'s tolerant parse).
    fn parse_masked(
        &mut self,
        grammar: Lang,
        window: Chunk,
        context: &[(usize, usize)],
    ) -> Result<(Tree, Option<Vec<u8>>), LangError> {
        let Chunk {
            start,
            end,
            start_point,
        } = window;
        let tree = self.parse_range(grammar, None, start, end, start_point, context)?;
        if !tree.root_node().has_error() || grammar != self.lang {
            return Ok((tree, None));
        }
        let Some(directives) = &self.directives else {
            return Ok((tree, None));
        };
        let text = self.source.get(start..end).unwrap_or(&[]);
        let Some(masked) = crate::macros::mask_macros_in(self.lang, text, Some(directives)) else {
            return Ok((tree, None));
        };
        let alt = self.parse_range(grammar, Some(&masked), start, end, start_point, context)?;
        if count_errors(alt.root_node()) < count_errors(tree.root_node()) {
            Ok((alt, Some(masked)))
        } else {
            Ok((tree, None))
        }
    }

    /// The level a window's tree is read at inside the containers `open`
    /// (outermost first): the member list of the innermost one (found from
    /// the root along each container's path), the innermost unit's node,
    /// and where the window's own children start (after the headers).
    /// `None`: the tree does not hold them (error recovery at the cut).
    fn level_of<'t>(
        &self,
        root: tree_sitter::Node<'t>,
        start: usize,
        open: &[usize],
    ) -> Option<Level<'t>> {
        let mut level = Level {
            list: root,
            unit: None,
            floor: start,
        };
        for &k in open {
            let c = self.containers.get(k)?;
            let u = child_at(level.list, c.start, c.path.first().copied())?;
            level.list = member_list(u, &c.path)?;
            level.unit = Some(u);
            level.floor = level.floor.max(c.header_end);
        }
        Some(level)
    }

    /// Where the boundary pass cuts a window that should end near `at`
    /// inside the containers `open` ([`unit_cut`] at their members' column).
    fn cut_near(&self, at: usize, step: usize, open: &[usize]) -> usize {
        let indent = open
            .last()
            .and_then(|&k| self.containers.get(k))
            .map_or(0, |c| c.indent);
        unit_cut(
            &self.source,
            at,
            step,
            RULES.get(self.lang).closers,
            &self.literals,
            indent,
        )
    }

    /// A unit the window at `start` cannot be read as (error recovery at
    /// the cut made it an ERROR: C++'s namespaces) may be one that the
    /// file's last lines close (a file of one unit: issue 31, item 3).
    /// The lines before the innermost known closer (or the file's end)
    /// that close every brace the window leaves open ([`open_braces`],
    /// [`closing_lines`]; languages of braces), then each of the last one
    /// to four lines there, are tried as its closer, read after the
    /// first `step` bytes or so of the window (cut as windows are); a tree
    /// without errors in which the window's first unit runs into those
    /// lines makes it a container whose closer is known.
    fn probe_tail(
        &mut self,
        grammar: Lang,
        start: usize,
        step: usize,
        start_point: Point,
        open: &[usize],
    ) -> Result<Option<Container>, LangError> {
        // Python's units close with no token of their own: nothing to find.
        if RULES.get(self.lang).offside {
            return Ok(None);
        }
        let end = self.cut_near(start.saturating_add(step), step, open);
        let limit = open
            .last()
            .and_then(|&k| self.containers.get(k))
            .and_then(|c| c.closer)
            .map_or(self.source.len(), |(s, _)| s);
        if self.lines.is_none() {
            self.lines = Some(line_starts(&self.source));
        }
        // Where the lines before `limit` start, last first (blank ones
        // skipped).
        let mut tails = Vec::new();
        let mut at = limit;
        while tails.len() < 4 && at > end {
            let line = self.source[..at.saturating_sub(1)]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if line <= end {
                break;
            }
            if !self.source[line..at].iter().all(u8::is_ascii_whitespace) {
                tails.push(line);
            }
            at = line;
        }
        // In a language of braces, the lines that close every brace the
        // window leaves open (nested namespaces: one closer per level, more
        // than four lines) are tried first.
        let rules = RULES.get(self.lang);
        let mut brace_first = false;
        if !rules.offside && rules.closers.is_empty() {
            // Counted from the level's first member: the open containers'
            // headers are closed by their known closers.
            let floor = open
                .last()
                .and_then(|&k| self.containers.get(k))
                .map_or(start, |c| c.header_end.max(start));
            let closing = open_braces(&self.source, floor, end, &self.literals).and_then(|d| {
                closing_lines(
                    &self.source,
                    end,
                    limit,
                    d,
                    step.saturating_mul(ENTER_STEPS),
                )
            });
            if let Some(t) = closing {
                tails.retain(|&x| x != t);
                tails.insert(0, t);
                brace_first = true;
            }
        }
        let spec = crate::spec::spec(grammar);
        for (i, tail) in tails.into_iter().enumerate() {
            let mut ctx = self.context_ranges(start, end, open);
            ctx.retain(|&(s, _)| s < end);
            ctx.push((tail, limit));
            ctx.extend(
                self.context_ranges(start, limit, open)
                    .into_iter()
                    .filter(|&(s, _)| s >= limit),
            );
            let at = Chunk {
                start,
                end,
                start_point,
            };
            let (tree, _) = self.parse_masked(grammar, at, &ctx)?;
            let root = tree.root_node();
            // Errors may be the window's (a member cut short, a file's
            // own); not in the tail, which must close the unit.
            if root.is_error() {
                continue;
            }
            let Some(Level {
                list: level, floor, ..
            }) = self.level_of(root, start, open)
            else {
                // The closing lines counted from the braces close too few or
                // too many units (a brace in a one-line regex): the line
                // tails are tried. Otherwise the containers the pass is in
                // are lost and no tail will find them.
                if i == 0 && brace_first {
                    continue;
                }
                return Ok(None);
            };
            let mut cursor = level.walk();
            let first = level
                .children(&mut cursor)
                .find(|c| c.start_byte() >= floor && c.is_named() && !c.is_extra());
            let Some(u) = first.filter(|u| u.end_byte() > tail) else {
                continue;
            };
            let Some(mut c) = container_of(spec, u) else {
                continue;
            };
            let Some(m) = member_list(u, &c.path) else {
                continue;
            };
            // The tail holds no error, and closes the unit with a token of
            // its own, nothing after it but tokens and comments.
            let mut in_tail = crate::walk::preorder(root)
                .filter(|n| n.end_byte() > tail && n.start_byte() >= tail.min(u.end_byte()));
            if in_tail.any(|n| n.is_error() || n.is_missing())
                || !closes_with_token(u, m)
                || root_after_errs(u)
            {
                continue;
            }
            let last = members(m).last().map_or(tail, |n| unit_end(*n));
            c.closer = Some((last.max(tail), unit_end(u)));
            return Ok(Some(c));
        }
        Ok(None)
    }

    /// The byte ranges read with chunk `i` besides its own bytes (module
    /// docs): the PHP tag before it, the headers and closers of the units
    /// it lies in; in file order. Empty for a chunk of whole top-level
    /// units of a language without a tag.
    pub fn context(&self, i: usize) -> Vec<(usize, usize)> {
        if let Some(given) = &self.given {
            return given.get(i).cloned().unwrap_or_default();
        }
        match (self.chunks.get(i), self.enclosing.get(i)) {
            (Some(c), Some(enc)) => self.context_ranges(c.start, c.end, enc),
            (Some(c), None) => self.context_ranges(c.start, c.end, &[]),
            _ => Vec::new(),
        }
    }

    /// Parse `window` (inside the containers `open`) and read its level's
    /// children, the tree dropped.
    fn read_window(
        &mut self,
        grammar: Lang,
        window: Chunk,
        open: &[usize],
        want_enter: bool,
        probe: Option<usize>,
    ) -> Result<Window, LangError> {
        let Chunk {
            start,
            end,
            start_point,
        } = window;
        let ctx = self.context_ranges(start, end, open);
        // With the macros masked, a unit's masked leading macro (`API int
        // f(...)`) is blanks: the unit starts at its line's start.
        let (tree, view) = self.parse_masked(grammar, window, &ctx)?;
        let root = tree.root_node();
        let spec = crate::spec::spec(grammar);
        // The level: the root, or the member list of the innermost
        // container.
        let Some(Level {
            list: level,
            unit,
            floor,
        }) = self.level_of(root, start, open)
        else {
            // Not the tree the container was cut by (error recovery at the
            // cut lost it): nothing trusted; a unit the file's tail closes
            // may still be entered.
            drop(tree);
            let enter = match probe {
                Some(step) if want_enter => {
                    self.probe_tail(grammar, start, step, start_point, open)?
                }
                _ => None,
            };
            return Ok(Window {
                kids: Vec::new(),
                enter,
                closed: None,
            });
        };
        let indent = open
            .last()
            .and_then(|&k| self.containers.get(k))
            .map_or(0, |c| c.indent);
        // The innermost container closes in the window.
        let closed = unit.and_then(|u| {
            // At the file's end a unit that ends with its own closing
            // token closes there, errors inside it or not (they are the
            // file's own: no cut is left).
            let at_end = end >= self.source.len();
            let closes = u.end_byte() <= end
                && ((at_end && closes_with_token(u, level))
                    || (!u.has_error()
                        && (at_end
                            || u.next_sibling().is_some_and(|n| !n.is_extra())
                            || closes_with_token(u, level))));
            if !closes {
                return None;
            }
            // After the last member and the `;` that closes it.
            let last = members(level).last().map_or(u.end_byte(), |n| unit_end(*n));
            Some((last.min(u.end_byte()), unit_end(u)))
        });
        // A root that is itself an ERROR node (tree-sitter-ruby's recovery
        // from a `def` cut before its `end`) may still hold whole units
        // before the cut, then loose tokens and parts: only a function,
        // scope or wrapper of the language's spec is trusted there (not a
        // leaf, not a Python decorator split from its class), nor anything
        // after the first other child.
        let lost = level.is_error();
        let source = &self.source;
        // Where a child starts in its level's column of the file: at its
        // own first byte, or (masked view) at its line's column `indent`
        // when everything before it on the line is a masked macro and
        // blanks.
        let unit_start = |c: tree_sitter::Node<'_>, long: bool| -> Option<usize> {
            let col = c.start_position().column;
            if col == indent || long {
                return Some(c.start_byte());
            }
            let v = view.as_deref()?;
            let line = c.start_byte().checked_sub(col)?;
            let blank = v
                .get(line.checked_sub(start)?..c.start_byte() - start)
                .is_some_and(|b| b.iter().all(|&x| x == b' ' || x == b'\t'));
            let word = source
                .get(line + indent)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_');
            (blank && word && col > indent).then_some(line + indent)
        };
        let mut lines = LineSweep::new(source);
        // Python's units end where their lines' indentation does: never
        // cut inside a line.
        let minified_ok = !RULES.get(grammar).offside;
        let mut cursor = level.walk();
        let mut kids = Vec::new();
        for c in level.children(&mut cursor) {
            // The context's nodes (a header, the PHP tag) and a level's
            // own tokens (`{`, `}`) are not the window's children.
            if c.start_byte() < floor || (!c.is_named() && !c.is_extra() && level != root) {
                continue;
            }
            let long = minified_ok && lines.long_line(c.start_byte(), LONG_LINE);
            let at = unit_start(c, long);
            kids.push(Child {
                kind: c.kind_id(),
                start: if c.is_extra() {
                    c.start_byte()
                } else {
                    at.unwrap_or(c.start_byte())
                },
                end: c.end_byte(),
                lost,
                has_error: (lost && !is_unit(spec, c))
                    || c.has_error()
                    || c.is_error()
                    || c.is_missing()
                    || !braces_balance(c),
                starts_unit: !c.is_extra() && at.is_some(),
                attaches: (c.start_position().column == indent || long)
                    && (c.is_extra()
                        || spec.leading_siblings.contains(&c.kind())
                        || spec.between_siblings.contains(&c.kind())),
            });
        }
        let mut closed_early = false;
        let enter = if want_enter {
            let first = {
                let mut cursor = level.walk();
                let found = level
                    .children(&mut cursor)
                    .find(|c| c.start_byte() >= floor && c.is_named() && !c.is_extra());
                found
            };
            // The only unit of the window (nothing after it but comments),
            // or one that runs into the cut's errors.
            let alone = |u: &tree_sitter::Node<'_>| {
                let mut next = u.next_sibling();
                while let Some(n) = next {
                    if !n.is_extra() {
                        return false;
                    }
                    next = n.next_sibling();
                }
                true
            };
            // A container that is neither: it reads as closed by the
            // closers of the units around it (nested C++ namespaces: the
            // next level's `}` closes it); the file's tail may close it.
            closed_early = first
                .filter(|u| !(u.has_error() || alone(u)))
                .and_then(|u| container_of(spec, u))
                .is_some();
            first
                .filter(|u| u.has_error() || alone(u))
                .and_then(|u| container_of(spec, u))
        } else {
            None
        };
        let lost_level = level.is_error() || kids.first().is_some_and(|c| c.has_error);
        let enter = match enter {
            // Its closer is looked for at once (the file's tail): the
            // chunks inside it are then read with it, also in a file whose
            // syntax errors keep the pass from seeing the unit close.
            Some(mut c) => {
                if let Some(step) = probe {
                    if let Some(p) = self.probe_tail(grammar, start, step, start_point, open)? {
                        if p.start == c.start && p.path == c.path {
                            c.closer = p.closer;
                        }
                    }
                }
                Some(c)
            }
            // The level lost to error recovery at the cut, or its first unit
            // a container read as closed early: the file's tail may still
            // close it.
            None if want_enter && (lost_level || closed_early) => match probe {
                Some(step) => self.probe_tail(grammar, start, step, start_point, open)?,
                None => None,
            },
            None => None,
        };
        Ok(Window {
            kids,
            enter,
            closed,
        })
    }

    /// The file's language.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The file's bytes.
    pub fn source(&self) -> &[u8] {
        &self.source
    }

    /// The chunks, in file order; they cover the file.
    pub fn chunks(&self) -> &[Chunk] {
        &self.chunks
    }

    /// The file's bytes back.
    pub fn into_source(self) -> Vec<u8> {
        self.source
    }

    /// Parse chunk `i` as `how` says and call `f` with it: a
    /// [`ParsedFile`] holding the whole file's bytes and a tree of the
    /// chunk alone (its `parse_errors` are the chunk's; its `code_end` is
    /// the file's length; its `lang` is the file's, or the language of the
    /// fallback grammar that read the chunk best, as [`crate::parse_file`]
    /// gives it). The tree is dropped when `f` returns.
    ///
    /// # Errors
    /// [`LangError::Budget`] when the file's shared budget is spent;
    /// otherwise as [`crate::parse`]. A chunk index out of range parses
    /// nothing and gives `Ok(None)`.
    pub fn with_chunk<T>(
        &mut self,
        i: usize,
        how: &ChunkParse,
        f: impl FnOnce(&ParsedFile) -> T,
    ) -> Result<Option<T>, LangError> {
        let Some(chunk) = self.chunks.get(i).copied() else {
            return Ok(None);
        };
        let grammar = how.grammar.unwrap_or(self.lang);
        let ctx = self.context(i);
        let tree = self.parse_range(
            grammar,
            None,
            chunk.start,
            chunk.end,
            chunk.start_point,
            &ctx,
        )?;
        let mut best = (grammar, count_errors(tree.root_node()), tree);
        if best.1 > 0 && how.fallbacks {
            for &alt in grammar.fallback_grammars() {
                let tree = match self.parse_range(
                    alt,
                    None,
                    chunk.start,
                    chunk.end,
                    chunk.start_point,
                    &ctx,
                ) {
                    Ok(t) => t,
                    Err(LangError::Budget { .. }) => continue,
                    Err(e) => return Err(e),
                };
                let errors = count_errors(tree.root_node());
                if errors < best.1 {
                    best = (alt, errors, tree);
                }
            }
        }
        if best.1 > 0 && how.tolerant && best.0 == self.lang {
            let text = self.source.get(chunk.start..chunk.end).unwrap_or(&[]);
            if let Some(masked) =
                crate::macros::mask_macros_in(self.lang, text, self.directives.as_deref())
            {
                if let Ok(tree) = self.parse_range(
                    best.0,
                    Some(&masked),
                    chunk.start,
                    chunk.end,
                    chunk.start_point,
                    &ctx,
                ) {
                    let errors = count_errors(tree.root_node());
                    if errors < best.1 {
                        best = (best.0, errors, tree);
                    }
                }
            }
        }
        let (grammar, parse_errors, tree) = best;
        let code_end = self.source.len();
        // As `parse_file`: a tree of a fallback grammar is read as that
        // grammar's language (JavaScript read as TypeScript); a tree of the
        // measured grammar (`how.grammar`: C read as C++) keeps the file's.
        let lang = if how.grammar.is_none() && grammar != self.lang {
            grammar
        } else {
            self.lang
        };
        let file = ParsedFile {
            lang,
            grammar,
            source: std::mem::take(&mut self.source),
            tree,
            parse_errors,
            code_end,
            own: (!ctx.is_empty()).then_some(chunk.start..chunk.end),
        };
        let out = f(&file);
        self.source = file.source;
        Ok(Some(out))
    }

    /// One parse of `start..end` with `grammar` (of `text`, that range's
    /// bytes, when given: the masked bytes), with the `context` ranges of
    /// the file read with it, under the shared budget.
    fn parse_range(
        &mut self,
        grammar: Lang,
        text: Option<&[u8]>,
        start: usize,
        end: usize,
        start_point: Point,
        context: &[(usize, usize)],
    ) -> Result<Tree, LangError> {
        let own = self.source.get(start..end).unwrap_or(&[]);
        let text = text.unwrap_or(own);
        let view = crate::view::parser_view(grammar, text);
        let text = view.as_deref().unwrap_or(text);
        let mut ctx_bytes: Vec<(TsRange, std::borrow::Cow<'_, [u8]>)> =
            Vec::with_capacity(context.len());
        for &(s, e) in context {
            let bytes = self.source.get(s..e).unwrap_or(&[]);
            let (sp, ep) = (self.point_of(s), self.point_of(e));
            let viewed = crate::view::parser_view(grammar, bytes);
            ctx_bytes.push((
                TsRange {
                    start_byte: s,
                    end_byte: e,
                    start_point: sp,
                    end_point: ep,
                },
                viewed.map_or(std::borrow::Cow::Borrowed(bytes), std::borrow::Cow::Owned),
            ));
        }
        let ctx: Vec<(TsRange, &[u8])> = ctx_bytes.iter().map(|(r, b)| (*r, &**b)).collect();
        let input = Input {
            text,
            base: start,
            range: Some(TsRange {
                start_byte: start,
                end_byte: end,
                start_point,
                end_point: advance(start_point, text),
            }),
            context: &ctx,
        };
        let limits = Limits {
            ops: self.ops_left,
            deadline: self.deadline,
            reads: self.reads_left,
        };
        let mut spent = Spent::default();
        let result = run_parser(grammar, &input, &limits, &mut spent);
        self.ops_left = self.ops_left.map(|l| l.saturating_sub(spent.ops));
        self.reads_left = self.reads_left.map(|l| l.saturating_sub(spent.reads));
        let bytes = self.source.len();
        let (ops, reads, ms) = (self.ops_allowed, self.reads_allowed, self.time_allowed_ms);
        result.map_err(|e| {
            e.into_error(&|limit| LangError::Budget {
                lang: grammar,
                bytes,
                limit,
                allowed: match limit {
                    BudgetLimit::Work => ops,
                    BudgetLimit::Reads => reads,
                    _ => ms,
                },
            })
        })
    }

    /// The row and byte column of offset `at` (from the line index, built
    /// on first use).
    fn point_of(&self, at: usize) -> Point {
        match &self.lines {
            Some(lines) => {
                let row = lines.partition_point(|&s| s <= at).saturating_sub(1);
                let col = at - lines.get(row).copied().unwrap_or(0);
                Point { row, column: col }
            }
            None => crate::parse::point_at(&self.source, at),
        }
    }
}

/// Whether `node` is a whole unit of the language's spec: a function, a
/// scope or a wrapper of one (a decorated definition), with children.
fn is_unit(spec: &crate::spec::LangSpec, node: tree_sitter::Node<'_>) -> bool {
    let kind = node.kind();
    node.child_count() != 0
        && (spec.functions.iter().any(|r| r.kind == kind)
            || spec.scopes.iter().any(|r| r.kind == kind)
            || spec.span_wrappers.contains(&kind))
}

/// Whether the `{` (or interpolation-opening `#{`, `${`) and `}` tokens
/// of `node`'s subtree pair up (missing
/// ones inserted by error recovery not counted). A top-level unit that
/// error recovery closed early at a window's cut (its body going on past
/// the cut) leaves one open: such a child is treated as one with an error.
fn braces_balance(node: tree_sitter::Node<'_>) -> bool {
    let mut depth = 0i64;
    for n in crate::walk::preorder(node) {
        if n.child_count() != 0 || n.is_missing() || n.is_named() {
            continue;
        }
        // An interpolation opens with its own token (Ruby `#{`, JS `${`)
        // and closes with `}`.
        match n.kind() {
            "}" => depth -= 1,
            k if k.ends_with('{') => depth += 1,
            _ => {}
        }
    }
    depth == 0
}

/// Windows grown to this many [`ChunkOptions::chunk_bytes`] take their
/// syntax errors as the file's own.
const STUCK_STEPS: usize = 8;

/// A window grown to this many [`ChunkOptions::chunk_bytes`] over one unit
/// that is a container is cut inside the unit (its trees then cost a few
/// steps' worth, not the unit's).
const ENTER_STEPS: usize = 4;

/// Where a window that should end near `at` ends: before the first line
/// in `at..at + scan` that begins, after `indent` blanks (the column the
/// level's units start in: 0 at the top level), with a letter, `_` or `@`
/// (where units begin in every supported language: a cut there rarely
/// falls inside a unit), not with one of `closers` and not inside a
/// multi-line literal or comment (`literals`), else at the first line end
/// after `at` that is not inside one (the file's end when there is none).
/// A line that runs on far past the window (minified code) is cut inside,
/// after its first `;` or `}` from `at` on.
fn unit_cut(
    source: &[u8],
    at: usize,
    scan: usize,
    closers: &[&str],
    literals: &crate::Literals,
    indent: usize,
) -> usize {
    let limit = at.saturating_add(scan).min(source.len());
    // A line that runs on past two windows (only that far is looked at:
    // a minified line is not read to its end for each window).
    let horizon = limit.saturating_add(scan).min(source.len());
    let runs_on = horizon < source.len()
        && !source
            .get(at.saturating_sub(1).min(horizon)..horizon)
            .unwrap_or(&[])
            .contains(&b'\n');
    if runs_on {
        let from = at.min(limit);
        let inside = source
            .get(from..limit)
            .unwrap_or(&[])
            .iter()
            .position(|&b| b == b';' || b == b'}')
            .map(|i| from + i + 1)
            .filter(|&p| !literals.inside(p));
        if let Some(p) = inside {
            return p;
        }
    }
    let mut first = line_end_at(source, at);
    // Never inside a multi-line literal or comment: after it.
    while let Some(end) = literals.end_of(first) {
        first = line_end_at(source, end.max(first + 1));
    }
    let mut line = first;
    while line < limit {
        if literals.inside(line) {
            // Inside a multi-line literal or comment: not where the lexer
            // is at the top level.
            line = line_end_at(source, line + 1);
            continue;
        }
        let rest = source.get(line..).unwrap_or_default();
        let lead = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let rest = if lead == indent {
            rest.get(lead..).unwrap_or_default()
        } else {
            &[]
        };
        let starts = rest
            .first()
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b'@');
        let closes = closers.iter().any(|w| {
            rest.starts_with(w.as_bytes())
                && !rest
                    .get(w.len())
                    .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
        });
        if starts && !closes {
            return line;
        }
        line = line_end_at(source, line + 1);
    }
    first
}

/// A line longer than this many bytes (minified code) may be cut inside:
/// a unit that starts anywhere on it can start a chunk.
const LONG_LINE: usize = 4096;

/// Whether the lines that children start on are long, for children met in
/// file order: each byte is looked at a bounded number of times.
struct LineSweep<'a> {
    source: &'a [u8],
    /// The stretch last looked at, `[start, end)`, and whether its line is
    /// long.
    known: (usize, usize, bool),
}

impl<'a> LineSweep<'a> {
    fn new(source: &'a [u8]) -> Self {
        LineSweep {
            source,
            known: (0, 0, false),
        }
    }

    /// Whether the line holding `at` is longer than `limit` bytes.
    fn long_line(&mut self, at: usize, limit: usize) -> bool {
        let (s, e, long) = self.known;
        if s <= at && at < e {
            return long;
        }
        let src = self.source;
        let ahead = src
            .get(at..at.saturating_add(limit).min(src.len()))
            .unwrap_or(&[]);
        let Some(nl) = ahead.iter().position(|&b| b == b'\n') else {
            // No line end within `limit` bytes (or the file ends first).
            let end = at + ahead.len();
            let long = end < src.len() || ahead.len() >= limit;
            self.known = (at, end.max(at + 1), long);
            return long;
        };
        let end = at + nl + 1;
        let back_from = at.saturating_sub(limit);
        let behind = src.get(back_from..at).unwrap_or(&[]);
        let long = match behind.iter().rposition(|&b| b == b'\n') {
            Some(i) => end - (back_from + i + 1) > limit,
            None => back_from > 0 || end > limit,
        };
        self.known = (at, end, long);
        long
    }
}

/// Where each line of `source` starts.
fn line_starts(source: &[u8]) -> Vec<usize> {
    std::iter::once(0)
        .chain(
            source
                .iter()
                .enumerate()
                .filter(|&(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        )
        .collect()
}

/// A PHP file's opening tag, when the file is one block of PHP code: it
/// starts with `<?php` and a blank, and closes PHP mode nowhere but at its
/// end (a chunk of it read after the tag reads as the whole file reads it).
/// A `?>` inside a string, a heredoc or nowdoc, or a block comment does not
/// close PHP mode (PHP's lexer); one in a line comment does.
fn php_head(source: &[u8]) -> Option<usize> {
    let tag = source.get(..5)?;
    if !tag.eq_ignore_ascii_case(b"<?php") || !source.get(5)?.is_ascii_whitespace() {
        return None;
    }
    let trimmed = source.trim_ascii_end();
    let end = trimmed
        .strip_suffix(b"?>")
        .map_or(trimmed.len(), <[u8]>::len);
    match php_close_tag(source, 5, end) {
        None => Some(5),
        Some(_) => None,
    }
}

/// The first `?>` of `source[from..end]` that closes PHP mode: outside
/// strings, heredocs and nowdocs and block comments (PHP's lexer). A file
/// this scan cannot follow (an unterminated string or heredoc) is reported
/// as closing at `end`, so it is read whole.
fn php_close_tag(source: &[u8], from: usize, end: usize) -> Option<usize> {
    let b = source.get(..end)?;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'?' if b.get(i + 1) == Some(&b'>') => return Some(i),
            q @ (b'\'' | b'"' | b'`') => {
                // A quoted string: `\` escapes the next byte.
                let mut j = i + 1;
                loop {
                    match b.get(j) {
                        None => return Some(end),
                        Some(&c) if c == q => break,
                        Some(b'\\') => j += 2,
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let Some(close) = b[i + 2..].windows(2).position(|w| w == b"*/") else {
                    return Some(end);
                };
                i += 2 + close + 2;
            }
            b'#' | b'/' if b[i] == b'#' || b.get(i + 1) == Some(&b'/') => {
                // A line comment: it ends at the line's end or at `?>`.
                if b[i] == b'#' && b.get(i + 1) == Some(&b'[') {
                    // An attribute (`#[...]`), not a comment.
                    i += 2;
                    continue;
                }
                while i < b.len() && b[i] != b'\n' {
                    if b[i] == b'?' && b.get(i + 1) == Some(&b'>') {
                        return Some(i);
                    }
                    i += 1;
                }
            }
            b'<' if b[i..].starts_with(b"<<<") => {
                // A heredoc or nowdoc: `<<<ID`, `<<<"ID"` or `<<<'ID'`, up to
                // a line that starts (after blanks) with ID.
                let mut j = i + 3;
                while matches!(b.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
                let quoted = matches!(b.get(j), Some(b'"' | b'\''));
                j += usize::from(quoted);
                let id_start = j;
                while b
                    .get(j)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c >= 0x80)
                {
                    j += 1;
                }
                let id = &b[id_start..j];
                if id.is_empty() {
                    i += 3;
                    continue;
                }
                // The body starts on the next line.
                let Some(nl) = b[j..].iter().position(|&c| c == b'\n') else {
                    return Some(end);
                };
                let mut k = j + nl + 1;
                loop {
                    if k >= b.len() {
                        return Some(end);
                    }
                    let line_end = b[k..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(b.len(), |p| k + p);
                    let line = b[k..line_end].trim_ascii_start();
                    if line.starts_with(id)
                        && !line
                            .get(id.len())
                            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c >= 0x80)
                    {
                        i = line_end.min(b.len());
                        break;
                    }
                    k = line_end + 1;
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// Node kinds that hold top-level declarations without being a scope of
/// the language's spec: the C preprocessor's conditional groups (an
/// include guard), C++'s `extern "C" { }`, TypeScript's namespaces and
/// ambient modules.
const BLOCKS: &[&str] = &[
    "preproc_ifdef",
    "preproc_if",
    "linkage_specification",
    "internal_module",
    "module",
];

/// The fields a container's member list is found under, tried in order
/// from the unit down (a class's `body`, a decorated or exported
/// definition's `definition` / `declaration`, a C++ declaration's `type`).
const DESCEND: &[&str] = &["body", "definition", "declaration", "type"];

/// The member list under `u` along `path` (the kinds from `u` down).
fn member_list<'t>(u: tree_sitter::Node<'t>, path: &[u16]) -> Option<tree_sitter::Node<'t>> {
    if path.first() != Some(&u.kind_id()) {
        return None;
    }
    let mut m = u;
    for &kind in path.get(1..).unwrap_or(&[]) {
        m = descend(m, m.id() == u.id()).filter(|n| n.kind_id() == kind)?;
    }
    Some(m)
}

/// One step down from a unit towards its member list: the child under
/// one of the [`DESCEND`] fields, else a wrapper's only named child that
/// starts where it does, from the unit itself (`first`: TypeScript's
/// `namespace N {}` is a statement that holds the namespace).
fn descend(m: tree_sitter::Node<'_>, first: bool) -> Option<tree_sitter::Node<'_>> {
    DESCEND
        .iter()
        .find_map(|f| m.child_by_field_name(f))
        .or_else(|| {
            (first && m.named_child_count() == 1)
                .then(|| m.named_child(0))
                .flatten()
                .filter(|c| c.start_byte() == m.start_byte() && !c.is_extra())
        })
        .filter(|n| !n.is_missing())
}

/// The members of a member list: its named children under no field (or
/// the field `member`).
fn members(m: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut out = Vec::new();
    let mut cursor = m.walk();
    if cursor.goto_first_child() {
        loop {
            let n = cursor.node();
            // JavaScript names its class members' field `member`; other
            // fields are the header's (a name, a condition) or an `#else`.
            let field = cursor.field_name();
            if n.is_named() && !n.is_missing() && matches!(field, None | Some("member")) {
                out.push(n);
            }
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    out
}

/// Where unit `u` ends with the `;` tokens of its parent that close it
/// (the `;` after a C++ class's `}`), not the parent's own closer (its
/// last token, under a parent that is not the root).
fn unit_end(u: tree_sitter::Node<'_>) -> usize {
    let mut end = u.end_byte();
    let mut next = u.next_sibling();
    let nested = u.parent().is_some_and(|p| p.parent().is_some());
    while let Some(n) = next {
        if n.is_named() || n.is_extra() || n.is_missing() || n.kind() != ";" {
            break;
        }
        if nested && n.next_sibling().is_none() {
            break;
        }
        end = n.end_byte();
        next = n.next_sibling();
    }
    end
}

/// Whether a sibling after `u` (up to the root) is or holds an error.
fn root_after_errs(u: tree_sitter::Node<'_>) -> bool {
    let mut n = Some(u);
    while let Some(x) = n {
        let mut next = x.next_sibling();
        while let Some(y) = next {
            if y.has_error() || y.is_error() || y.is_missing() {
                return true;
            }
            next = y.next_sibling();
        }
        n = x.parent();
    }
    false
}

/// The child of `level` that starts at `start` (of kind `kind`).
fn child_at(
    level: tree_sitter::Node<'_>,
    start: usize,
    kind: Option<u16>,
) -> Option<tree_sitter::Node<'_>> {
    let mut cursor = level.walk();
    let found = level
        .children(&mut cursor)
        .find(|c| c.start_byte() == start && Some(c.kind_id()) == kind);
    found
}

/// Whether the unit `u` (member list `m`) ends with a token of its own
/// that closes it (`}`, `end`, `#endif`, `};`), present in the text.
fn closes_with_token(u: tree_sitter::Node<'_>, m: tree_sitter::Node<'_>) -> bool {
    let closing = |n: tree_sitter::Node<'_>| {
        n.child_count()
            .checked_sub(1)
            .and_then(|i| n.child(i))
            .is_some_and(|c| !c.is_named() && !c.is_missing())
    };
    closing(u) || closing(m)
}

/// `u` as a container the boundary pass can cut inside: no function (nor
/// a function on the way down to its members) with a member list and a
/// header before its first member.
fn container_of(spec: &crate::spec::LangSpec, u: tree_sitter::Node<'_>) -> Option<Container> {
    let is_function = |n: tree_sitter::Node<'_>| spec.functions.iter().any(|r| r.kind == n.kind());
    if is_function(u) {
        return None;
    }
    let mut path = vec![u.kind_id()];
    let mut m = u;
    for _ in 0..=DESCEND.len() {
        let Some(n) = descend(m, m.id() == u.id()) else {
            break;
        };
        if is_function(n) {
            return None;
        }
        path.push(n.kind_id());
        m = n;
    }
    // A scope of the language's spec on the way (a class, a namespace, a
    // module, an impl), or a block of declarations that is none: an
    // include guard or other conditional group, an `extern "C"` block, a
    // TypeScript namespace.
    let mut on_path = std::iter::successors(Some(m), |n| {
        (n.id() != u.id()).then(|| n.parent()).flatten()
    });
    if !on_path.any(|n| {
        let kind = n.kind();
        spec.scopes.iter().any(|r| r.kind == kind) || BLOCKS.contains(&kind)
    }) {
        return None;
    }
    let list = members(m);
    let first = *list.first()?;
    if first.start_byte() <= u.start_byte() {
        return None;
    }
    // A unit with syntax errors among its members is cut inside as well
    // (a class with broken members was parsed whole, at 170x the file):
    // the windows inside it trust their children up to the first error,
    // as at the top level, and each chunk's errors are recovered from in
    // that chunk (the file's whole-file reading may recover differently).
    // The members' column: the last member's that is no comment (a
    // class's first may be an access specifier, outdented).
    let indent = list
        .iter()
        .rev()
        .find(|n| !n.is_extra())
        .unwrap_or(&first)
        .start_position()
        .column;
    Some(Container {
        start: u.start_byte(),
        header_end: first.start_byte(),
        closer: None,
        path,
        indent,
    })
}

/// The braces one line of code opens and closes (`line` holds no line
/// break): outside its strings (closed on the line) and its `//` or
/// one-line `/* */` comments. A quote that does not close on the line
/// (a Rust lifetime, a character) is no string.
fn line_braces(line: &[u8]) -> (usize, usize) {
    let (mut opens, mut closes) = (0, 0);
    let mut i = 0;
    while let Some(&b) = line.get(i) {
        match b {
            b'{' => opens += 1,
            b'}' => closes += 1,
            b'/' if line.get(i + 1) == Some(&b'/') => break,
            b'/' if line.get(i + 1) == Some(&b'*') => {
                match line
                    .get(i + 2..)
                    .and_then(|r| r.windows(2).position(|w| w == b"*/"))
                {
                    Some(k) => i += k + 3,
                    None => break,
                }
            }
            b'"' | b'\'' | b'`' => {
                let mut j = i + 1;
                while let Some(&c) = line.get(j) {
                    if c == b'\\' {
                        j += 2;
                        continue;
                    }
                    if c == b {
                        break;
                    }
                    j += 1;
                }
                if j < line.len() {
                    i = j;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (opens, closes)
}

/// The braces `source[start..end]` leaves open (its multi-line literals
/// and comments skipped, each line read by [`line_braces`]); `None` when
/// more close than open.
fn open_braces(
    source: &[u8],
    start: usize,
    end: usize,
    literals: &crate::Literals,
) -> Option<usize> {
    let spans = literals.spans();
    let mut k = spans.partition_point(|&(_, e)| e <= start);
    let mut depth = 0usize;
    let mut at = start;
    while at < end {
        // Skip a multi-line literal or comment at or around `at`.
        if let Some(&(s, e)) = spans.get(k) {
            if s <= at {
                at = e.max(at + 1);
                k += 1;
                continue;
            }
        }
        let next_span = spans.get(k).map_or(end, |&(s, _)| s.min(end));
        let line_end = source
            .get(at..next_span)
            .and_then(|r| r.iter().position(|&b| b == b'\n'))
            .map_or(next_span, |p| at + p);
        let (opens, closes) = line_braces(source.get(at..line_end).unwrap_or(&[]));
        depth = (depth + opens).checked_sub(closes)?;
        at = line_end + 1;
    }
    Some(depth)
}

/// Where the lines before `limit` that close `depth` braces start: a run
/// of lines that hold only closing braces (with `;`, `)`, commas and
/// comments) or nothing, at most `max_bytes` long and after `end`.
fn closing_lines(
    source: &[u8],
    end: usize,
    limit: usize,
    depth: usize,
    max_bytes: usize,
) -> Option<usize> {
    if depth == 0 {
        return None;
    }
    let mut closed = 0usize;
    let mut at = limit.min(source.len());
    while at > end && limit - at <= max_bytes {
        let line = source
            .get(..at.saturating_sub(1))?
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if line <= end {
            return None;
        }
        let text = source.get(line..at)?;
        let code = text
            .windows(2)
            .position(|w| w == b"//" || w == b"/*")
            .map_or(text, |p| &text[..p]);
        if !code
            .iter()
            .all(|&b| matches!(b, b'}' | b';' | b')' | b',') || b.is_ascii_whitespace())
        {
            return None;
        }
        closed += line_braces(text).1;
        if closed >= depth {
            return (closed == depth).then_some(line);
        }
        at = line;
    }
    None
}

/// The estimated tokens ([`estimate_tokens`]) of `source[start..end]`, a
/// multi-line literal or comment counted as the one token it is.
fn unit_tokens(source: &[u8], start: usize, end: usize, literals: &crate::Literals) -> u64 {
    let spans = literals.spans();
    let mut i = spans.partition_point(|&(_, e)| e <= start);
    let mut pos = start;
    let mut tokens = 0u64;
    while pos < end {
        match spans.get(i) {
            Some(&(s, e)) if s < end => {
                if s > pos {
                    tokens += estimate_tokens(source.get(pos..s).unwrap_or(&[]));
                }
                tokens += 1;
                pos = e.max(pos);
                i += 1;
            }
            _ => {
                tokens += estimate_tokens(source.get(pos..end).unwrap_or(&[]));
                break;
            }
        }
    }
    tokens
}

/// How the boundary pass reads a language (per-language rules as data).
#[derive(Debug, Clone, Copy)]
struct ChunkRules {
    /// A chunk of a file can be parsed alone. Not PHP: its code starts
    /// after the file's `<?php` tag (its grammar reads any text before one
    /// as inline HTML); a PHP file that is one block of code is read with
    /// its tag ([`php_head`]), any other is one chunk.
    alone: bool,
    /// Units end where their lines' indentation does (the off-side rule):
    /// no unit has a closing token, and no line is cut inside.
    offside: bool,
    /// Words that close a unit at the start of a line (Ruby's `end`): a
    /// window cut before one ends inside the unit it closes, so none is
    /// cut there.
    closers: &'static [&'static str],
}

/// A language of braces.
const BRACES: ChunkRules = ChunkRules {
    alone: true,
    offside: false,
    closers: &[],
};

static RULES: PerLang<ChunkRules> = PerLang::new([
    (
        Lang::Python,
        ChunkRules {
            offside: true,
            ..BRACES
        },
    ),
    (Lang::Go, BRACES),
    (Lang::Rust, BRACES),
    (Lang::JavaScript, BRACES),
    (Lang::TypeScript, BRACES),
    (Lang::Tsx, BRACES),
    (Lang::Java, BRACES),
    (Lang::C, BRACES),
    (Lang::Cpp, BRACES),
    (
        Lang::Ruby,
        ChunkRules {
            closers: &["end"],
            ..BRACES
        },
    ),
    (
        Lang::Php,
        ChunkRules {
            alone: false,
            ..BRACES
        },
    ),
]);

/// One past the newline that ends the line holding byte `at - 1` (the
/// file's end when there is none): windows end at line ends.
fn line_end_at(source: &[u8], at: usize) -> usize {
    let from = at.saturating_sub(1).min(source.len());
    source
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
        .map_or(source.len(), |i| from + i + 1)
}

/// The position after `text`, starting at `point` (rows at `\n`, columns
/// in bytes, as tree-sitter counts them).
fn advance(point: Point, text: &[u8]) -> Point {
    match text.iter().rposition(|&b| b == b'\n') {
        Some(last) => Point {
            row: point.row + text.iter().filter(|&&b| b == b'\n').count(),
            column: text.len() - last - 1,
        },
        None => Point {
            row: point.row,
            column: point.column + text.len(),
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::{parse, FlatTree};

    fn small(bytes: usize) -> ChunkOptions {
        ChunkOptions {
            min_file_bytes: 0,
            chunk_bytes: bytes,
            max_unit_tokens: 250_000,
        }
    }

    fn c_functions(n: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "int f{i}(int a, int b) {{ int x = a + b * {i}; if (x > b) return x - a; return b; }}\n"
            ));
        }
        s.into_bytes()
    }

    /// Every node of the whole file's tree that lies within one chunk is
    /// in that chunk's tree, node for node, and nothing else is (a chunk
    /// inside a unit also holds the unit's header and closer, which lie in
    /// no chunk of their own then); the functions indexed chunk by chunk
    /// are the whole file's. Gives the number of chunks.
    fn same_nodes(lang: Lang, src: Vec<u8>, opts: ChunkOptions) -> usize {
        let whole = parse(lang, src.clone()).unwrap();
        assert_eq!(whole.parse_errors, 0, "{lang}: the whole file has errors");
        let want_fns: Vec<(String, usize, usize)> = crate::index_functions(&whole)
            .into_iter()
            .map(|f| (f.qualname, f.span.start_byte, f.span.end_byte))
            .collect();
        let mut plan = ChunkPlan::new(lang, src, &LangParseOptions::default(), &opts).unwrap();
        let ranges: Vec<(usize, usize)> = plan.chunks().iter().map(|c| (c.start, c.end)).collect();
        let within = |s: usize, e: usize| {
            let i = ranges.partition_point(|&(cs, _)| cs <= s);
            i > 0 && e <= ranges[i - 1].1 && s < ranges[i - 1].1
        };
        let show = |n: &crate::FlatNode<'_>| {
            format!(
                "{} {:?} {:?}",
                n.kind(),
                n.start_position(),
                n.end_position()
            )
        };
        let flat = FlatTree::new(&whole);
        let want: Vec<String> = flat
            .root()
            .descendants()
            .skip(1)
            .filter(|n| within(n.start_byte(), n.end_byte()) && n.start_byte() < n.end_byte())
            .map(|n| show(&n))
            .collect();
        let mut got = Vec::new();
        let mut got_fns = Vec::new();
        for (i, &(cs, ce)) in ranges.iter().enumerate() {
            let enclosing = plan.enclosing.get(i).cloned().unwrap_or_default();
            let containers = plan.containers.clone();
            plan.with_chunk(i, &ChunkParse::default(), |f| {
                assert_eq!(f.parse_errors, 0, "{lang}: chunk {i} at {cs}");
                // The nodes from each enclosing container down to its
                // member list: the whole file's span more of them.
                let mut path_nodes = std::collections::HashSet::new();
                let mut level = f.tree.root_node();
                for &k in &enclosing {
                    let c = &containers[k];
                    let u = child_at(level, c.start, c.path.first().copied()).unwrap();
                    let whole_in_chunk = c.start >= cs && c.closer.is_some_and(|(_, e)| e <= ce);
                    if whole_in_chunk {
                        break;
                    }
                    let mut n = Some(u);
                    for &kind in &c.path[1..] {
                        if let Some(x) = n {
                            path_nodes.insert((x.kind_id(), x.start_byte(), x.end_byte()));
                        }
                        // An empty member list (a chunk of the closer
                        // alone) has no node.
                        n = n.and_then(|x| {
                            descend(x, x.id() == u.id()).filter(|x| x.kind_id() == kind)
                        });
                    }
                    match n {
                        Some(x) => {
                            path_nodes.insert((x.kind_id(), x.start_byte(), x.end_byte()));
                            level = x;
                        }
                        None => break,
                    }
                }
                let flat = FlatTree::new(f);
                got.extend(
                    flat.root()
                        .descendants()
                        .skip(1)
                        .filter(|n| {
                            n.start_byte() >= cs
                                && n.end_byte() <= ce
                                && n.start_byte() < n.end_byte()
                                && !path_nodes.contains(&(
                                    n.kind_id(),
                                    n.start_byte(),
                                    n.end_byte(),
                                ))
                        })
                        .map(|n| show(&n)),
                );
                got_fns.extend(
                    crate::index_functions(f)
                        .into_iter()
                        .map(|g| (g.qualname, g.span.start_byte, g.span.end_byte)),
                );
            })
            .unwrap();
        }
        let first = got.iter().zip(&want).position(|(a, b)| a != b);
        assert!(
            first.is_none() && got.len() == want.len(),
            "{lang}: {} nodes vs {}; first difference at {first:?}: {:?} vs {:?}",
            got.len(),
            want.len(),
            first.and_then(|i| got.get(i.saturating_sub(2)..i + 2)),
            first.and_then(|i| want.get(i.saturating_sub(2)..i + 2)),
        );
        assert_eq!(got_fns, want_fns, "{lang}: functions");
        plan.chunks().len()
    }

    /// Issue 31, item 3: a file that is one top-level unit (a class, a
    /// namespace, an include guard, a module, an impl), or units nested in
    /// one another, is cut inside the unit: each chunk is read with the
    /// unit's header and closer, and reads as the whole file does.
    #[test]
    fn one_unit_files_are_cut_inside_the_unit() {
        let many = |f: &dyn Fn(usize) -> String| (0..300).map(f).collect::<String>();
        let cases: Vec<(Lang, String)> = vec![
            (Lang::Python, format!("import os\n\n\n@decorated\nclass A(Base):\n    \"\"\"Doc.\"\"\"\n\n{}\n", many(&|i| format!("    def f{i}(self, a):\n        if a:\n            return {i}\n        return a\n\n")))),
            (Lang::Python, format!("class A:\n    class B:\n{}\n    def tail(self):\n        return 0\n\n\ndef after():\n    return 1\n", many(&|i| format!("        def f{i}(self, a):\n            return a + {i}\n\n")))),
            (Lang::Java, format!("package p;\n\npublic class A extends B {{\n{}}}\n", many(&|i| format!("    /** Doc {i}. */\n    @Override\n    public int f{i}(int a) {{\n        return a + {i};\n    }}\n\n")))),
            (Lang::C, format!("#ifndef X_H\n#define X_H\n\n{}#endif\n", many(&|i| format!("static int f{i}(int a)\n{{\n    return a + {i};\n}}\n\n")))),
            (Lang::Cpp, format!("namespace outer {{\nnamespace inner {{\n\n{}}}  // namespace inner\n}}  // namespace outer\n", many(&|i| format!("int f{i}(int a) {{\n  return a + {i};\n}}\n\n")))),
            (Lang::Cpp, format!("class A {{\n public:\n{}}};\n\nint after() {{ return 0; }}\n", many(&|i| format!("  int f{i}(int a) {{\n    return a + {i};\n  }}\n")))),
            (Lang::Cpp, format!("namespace a {{\nclass B {{\n public:\n{}}};\n}}  // namespace a\n", many(&|i| format!("  int f{i}(int a) {{ return a + {i}; }}\n")))),
            (Lang::Ruby, format!("module M\n  class C < Base\n{}  end\nend\n", many(&|i| format!("    def f{i}(a)\n      a + {i}\n    end\n\n")))),
            (Lang::Rust, format!("mod m {{\n    impl A {{\n{}    }}\n}}\n", many(&|i| format!("        fn f{i}(&self, a: u32) -> u32 {{\n            a + {i}\n        }}\n")))),
            (Lang::JavaScript, format!("export class A {{\n{}}}\n", many(&|i| format!("  f{i}(a) {{\n    return a + {i};\n  }}\n")))),
            (Lang::TypeScript, format!("namespace N {{\n{}}}\n", many(&|i| format!("  export function f{i}(a: number): number {{\n    return a + {i};\n  }}\n")))),
            (Lang::Php, format!("<?php\n\nnamespace App;\n\nclass A\n{{\n{}}}\n", many(&|i| format!("    public function f{i}($a)\n    {{\n        return $a + {i};\n    }}\n\n")))),
        ];
        for (lang, src) in cases {
            let n = same_nodes(lang, src.into_bytes(), small(1_000));
            assert!(n > 10, "{lang}: {n} chunks");
        }
    }

    /// A class whose members hold syntax errors of the file's own (JS, TS,
    /// Java, C++, PHP) is cut inside like any other (it was parsed whole):
    /// every chunk lies in the class, and the functions indexed chunk by
    /// chunk are the whole file's, errors recovered member by member.
    #[test]
    fn a_container_with_broken_members_is_cut_inside() {
        let many = |f: &dyn Fn(usize) -> String| (0..1_500).map(f).collect::<String>();
        let cases: Vec<(Lang, String)> = vec![
            (
                Lang::JavaScript,
                format!(
                    "class A {{\n{}}}\n",
                    many(&|i| format!(
                        "  m{i}(a, b) {{\n    return a + {i};\n  }}\n  p{i} = = 3;\n"
                    ))
                ),
            ),
            (
                Lang::TypeScript,
                format!(
                    "export class A {{\n{}}}\n",
                    many(&|i| format!(
                        "  m{i}(a: number): number {{\n    return a + {i};\n  }}\n  q{i}: = ;\n"
                    ))
                ),
            ),
            (
                Lang::Java,
                format!(
                    "class A {{\n{}}}\n",
                    many(&|i| format!(
                        "  int m{i}(int a) {{\n    return a + {i};\n  }}\n  int q{i} = = 3;\n"
                    ))
                ),
            ),
            (
                Lang::Cpp,
                format!(
                    "namespace a {{\n{}}}\n",
                    many(&|i| format!(
                        "int m{i}(int a) {{\n  return a + {i};\n}}\nint q{i} = = 3;\n"
                    ))
                ),
            ),
        ];
        for (lang, src) in cases {
            let whole = parse(lang, src.clone().into_bytes()).unwrap();
            assert!(whole.parse_errors > 0, "{lang}");
            let want: Vec<String> = crate::index_functions(&whole)
                .into_iter()
                .map(|f| f.qualname)
                .collect();
            assert!(want.len() >= 1_500, "{lang}: {} functions", want.len());
            let mut plan = ChunkPlan::new(
                lang,
                src.into_bytes(),
                &LangParseOptions::default(),
                &small(1_000),
            )
            .unwrap();
            let n = plan.chunks().len();
            // Windows of eight steps where every member has an error.
            assert!(n > 5, "{lang}: {n} chunks");
            // Every chunk but the file's last line (after the class) lies in it.
            assert!(
                plan.enclosing.iter().take(n - 1).all(|e| e.len() == 1),
                "{lang}: a chunk outside the unit"
            );
            let mut got = Vec::new();
            for i in 0..n {
                let part = plan
                    .with_chunk(i, &ChunkParse::default(), crate::index_functions)
                    .unwrap();
                got.extend(part.unwrap_or_default().into_iter().map(|f| f.qualname));
            }
            assert_eq!(got, want, "{lang}");
        }
    }

    /// Units nested deeper than the four lines the tail probe tries (200
    /// C++ namespaces, Rust modules, TypeScript namespaces, C++ classes in
    /// namespaces): the lines that close every brace the window leaves open
    /// are tried first, and each level is cut inside (they were parsed
    /// whole, at 80x the file).
    #[test]
    fn deeply_nested_units_are_cut_inside() {
        let many = |f: &dyn Fn(usize) -> String| (0..1_500).map(f).collect::<String>();
        let nest = |depth: usize,
                    open: &dyn Fn(usize) -> String,
                    close: &dyn Fn(usize) -> String,
                    body: String| {
            let mut s: String = (0..depth).map(open).collect();
            s.push_str(&body);
            s.extend((0..depth).rev().map(close));
            s
        };
        let cases: Vec<(Lang, String, usize)> = vec![
            (
                Lang::Cpp,
                nest(
                    200,
                    &|i| format!("namespace n{i} {{\n"),
                    &|i| format!("}}  // namespace n{i}\n"),
                    many(&|i| format!("int f{i}(int a) {{\n  return a + {i};\n}}\n\n")),
                ),
                200,
            ),
            (
                Lang::Cpp,
                nest(
                    7,
                    &|i| format!("namespace n{i} {{\n"),
                    &|_| "}\n".to_string(),
                    format!(
                        "class A {{\n public:\n{}}};\n",
                        many(&|i| format!("  int f{i}(int a) {{ return a + {i}; }}\n"))
                    ),
                ),
                8,
            ),
            (
                Lang::Rust,
                nest(
                    30,
                    &|i| format!("{}mod m{i} {{\n", "    ".repeat(i)),
                    &|i| format!("{}}}\n", "    ".repeat(i)),
                    many(&|i| {
                        format!(
                            "{}fn f{i}(a: u32) -> u32 {{\n{}    a + {i}\n{}}}\n",
                            " ".repeat(120),
                            " ".repeat(120),
                            " ".repeat(120)
                        )
                    }),
                ),
                30,
            ),
            (
                Lang::TypeScript,
                nest(
                    12,
                    &|i| format!("namespace N{i} {{\n"),
                    &|_| "}\n".to_string(),
                    many(&|i| {
                        format!(
                            "export function f{i}(a: number): number {{\n  return a + {i};\n}}\n"
                        )
                    }),
                ),
                12,
            ),
            (
                Lang::Java,
                nest(
                    9,
                    &|i| format!("class C{i} {{\n"),
                    &|_| "}\n".to_string(),
                    many(&|i| format!("int f{i}(int a) {{\n  return a + {i};\n}}\n")),
                ),
                9,
            ),
        ];
        for (lang, src, depth) in cases {
            // Windows that hold every header (3 KB of them at depth 200).
            let opts = small(4_000);
            let plan = ChunkPlan::new(
                lang,
                src.clone().into_bytes(),
                &LangParseOptions::default(),
                &opts,
            )
            .unwrap();
            let deepest = plan.enclosing.iter().map(Vec::len).max().unwrap_or(0);
            assert_eq!(deepest, depth, "{lang}: cut {deepest} levels deep");
            let n = same_nodes(lang, src.into_bytes(), opts);
            assert!(n > 10, "{lang}: {n} chunks");
        }
    }

    /// A function in a unit's header (an arrow in a class's `extends`) is
    /// the first chunk's alone: the chunks after it, read with the header,
    /// leave it out of their index (it was counted once per chunk).
    #[test]
    fn a_function_in_a_header_is_indexed_once() {
        let body: String = (0..600)
            .map(|i| format!("  f{i}(a) {{\n    return a + {i};\n  }}\n"))
            .collect();
        let src = format!("class A extends mix(() => {{ return 1; }}) {{\n{body}}}\n");
        let n = same_nodes(Lang::JavaScript, src.into_bytes(), small(1_000));
        assert!(n > 10, "{n} chunks");
    }

    /// Issue 31, item 11: PHP files (read after their opening tag) and
    /// minified files of one long line are cut in chunks too.
    #[test]
    fn php_and_one_line_files_are_chunked() {
        let many = |f: &dyn Fn(usize) -> String| (0..300).map(f).collect::<String>();
        let cases: Vec<(Lang, String)> = vec![
            (
                Lang::Php,
                format!(
                    "<?php\n\n{}",
                    many(&|i| format!("function f{i}($a) {{\n    return $a + {i};\n}}\n\n"))
                ),
            ),
            (
                Lang::JavaScript,
                many(&|i| {
                    format!(
                        "function f{i}(a){{if(a){{return \"x;}}\"+a}}return {i}}}var v{i}=/;}}/g;"
                    )
                }),
            ),
            (
                Lang::C,
                many(&|i| {
                    format!("int f{i}(int a){{if(a)return {i};return a;}}static const char*s{i}=\"}};\";")
                }),
            ),
            (
                Lang::Java,
                format!(
                    "class A{{{}}}",
                    (0..2000)
                        .map(|i| format!("int f{i}(int a){{return a+{i};}}"))
                        .collect::<String>()
                ),
            ),
        ];
        for (lang, src) in cases {
            let n = same_nodes(lang, src.into_bytes(), small(1_000));
            assert!(n > 10, "{lang}: {n} chunks");
        }
    }

    /// Issue 31: a PHP file whose `?>` stand in strings, heredocs, nowdocs
    /// and block comments is one block of code and is chunked; a `?>` in
    /// code or in a line comment closes PHP mode, and such a file is not.
    #[test]
    fn php_close_tags_in_strings_do_not_end_the_block() {
        let fun = |i: usize| {
            format!(
                "function f{i}($a) {{\n    $s = '?>' . \"?>\" . `echo ?>`;\n    /* ?> */\n    $h = <<<EOT\n  a ?> b\n  EOT;\n    $n = <<<'NOW'\nx ?> y\nNOW;\n    return $a + {i};\n}}\n\n"
            )
        };
        let src = format!("<?php\n\n{}", (0..300).map(fun).collect::<String>());
        assert_eq!(php_head(src.as_bytes()), Some(5));
        let n = same_nodes(Lang::Php, src.into_bytes(), small(1_000));
        assert!(n > 10, "{n} chunks");
        for closing in [
            "<?php\n$a = 1; ?>\n<p>html</p>\n<?php $b = 2;\n",
            "<?php\n$a = 1; // done ?> <p>html</p>\n",
            "<?php\n$a = 1; # done ?> <p>html</p>\n",
            "<?php\n$s = 'unterminated ?>\n",
            "<?php\n/* unterminated ?>\n",
            "<?php\n$h = <<<EOT\nno end ?>\n",
        ] {
            assert_eq!(php_head(closing.as_bytes()), None, "{closing:?}");
        }
        // Only a trailing `?>` (and blanks after it) is allowed.
        assert_eq!(
            php_head(b"<?php\n$a = ['#[x]' => 1];\n#[Attr]\nfunction f() {}\n?>\n"),
            Some(5)
        );
    }

    /// Issue 31: a chunk of a C or C++ file masks the macros the whole file
    /// defines, not only those its own `#define`s name: every chunk of a
    /// file of `API int f(...)` functions reads as the whole file does (the
    /// chunks after the first once had an error per function).
    #[test]
    fn chunks_mask_the_macros_the_whole_file_defines() {
        for (lang, head) in [
            (
                Lang::C,
                "#define API __attribute__((visibility(\"default\")))\n#define CALL\n\n",
            ),
            (
                Lang::Cpp,
                "#define API __attribute__((visibility(\"default\")))\n#define CALL\n\n",
            ),
        ] {
            let mut src = String::from(head);
            for i in 0..400 {
                src.push_str(&format!(
                    "API int CALL f{i}(int a)\n{{\n    return a + {i};\n}}\n\n"
                ));
            }
            let src = src.into_bytes();
            let whole = crate::parse_file(
                std::path::Path::new(if lang == Lang::C { "x.c" } else { "x.cc" }),
                src.clone(),
                &crate::ParseOptions::default(),
            )
            .unwrap();
            assert_eq!(whole.parse_errors, 0, "{lang}: whole file");
            let want: Vec<(String, usize)> = crate::index_functions(&whole)
                .into_iter()
                .map(|f| (f.qualname, f.span.start_byte))
                .collect();
            assert_eq!(want.len(), 400, "{lang}");
            let mut plan =
                ChunkPlan::new(lang, src, &LangParseOptions::default(), &small(2_000)).unwrap();
            assert!(
                plan.chunks().len() > 10,
                "{lang}: {} chunks",
                plan.chunks().len()
            );
            let mut got = Vec::new();
            for i in 0..plan.chunks().len() {
                plan.with_chunk(i, &ChunkParse::LIKE_PARSE_FILE, |f| {
                    assert_eq!(f.parse_errors, 0, "{lang}: chunk {i}");
                    got.extend(
                        crate::index_functions(f)
                            .into_iter()
                            .map(|f| (f.qualname, f.span.start_byte)),
                    );
                })
                .unwrap();
            }
            assert_eq!(got, want, "{lang}");
        }
    }

    /// Issue 31: a multi-line literal or comment longer than many windows
    /// is never cut: every chunk reads as the whole file does (a cut inside
    /// a `"""` block once gave thousands of phantom functions), in every
    /// language's long literals and comments.
    #[test]
    fn long_literals_and_comments_are_never_cut() {
        let fns = |f: &dyn Fn(usize) -> String| (0..150).map(f).collect::<String>();
        let body = |f: &dyn Fn(usize) -> String| (0..400).map(f).collect::<String>();
        let py = |i: usize| format!("def f{i}(a):\n    return a + {i}\n\n\n");
        let js = |i: usize| format!("function f{i}(a) {{\n  return a + {i};\n}}\n");
        let c = |i: usize| format!("int f{i}(int a) {{\n  return a + {i};\n}}\n");
        let go = |i: usize| format!("func f{i}(a int) int {{\n\treturn a + {i}\n}}\n");
        let rs = |i: usize| format!("fn f{i}(a: i32) -> i32 {{\n    a + {i}\n}}\n");
        let rb = |i: usize| format!("def f{i}(a)\n  a + {i}\nend\n");
        let java = |i: usize| format!("  int f{i}(int a) {{\n    return a + {i};\n  }}\n");
        let cases: Vec<(Lang, String)> = vec![
            (Lang::Python, format!("{}X = \"\"\"\n{}\"\"\"\n\n\n{}", fns(&py), body(&py), fns(&py))),
            (Lang::Python, format!("{}# {}\n{}", fns(&py), body(&|i| format!("comment {i}\n# ")), fns(&py))),
            (Lang::JavaScript, format!("{}const X = `\n{}`;\n{}", fns(&js), body(&js), fns(&js))),
            (Lang::JavaScript, format!("{}/*\n{}*/\n{}", fns(&js), body(&js), fns(&js))),
            (Lang::C, format!("{}/*\n{}*/\n{}", fns(&c), body(&c), fns(&c))),
            (Lang::Cpp, format!("{}const char *s = R\"x(\n{})x\";\n{}", fns(&c), body(&c), fns(&c))),
            (Lang::Go, format!("package m\n{}/*\n{}*/\nvar X = `\n{}`\n{}", fns(&go), body(&go), body(&go), fns(&go))),
            (Lang::Rust, format!("{}const X: &str = r#\"\n{}\"#;\n/* /*\n{}*/ */\n{}", fns(&rs), body(&rs), body(&rs), fns(&rs))),
            (Lang::Ruby, format!("{}X = %q{{\n{}}}\nY = <<~EOS\n{}EOS\n{}", fns(&rb), body(&rb), body(&rb), fns(&rb))),
            (Lang::Java, format!("class A {{\n{}}}\nclass B {{\n  String s = \"\"\"\n{}\"\"\";\n}}\nclass C {{\n{}}}\n", fns(&java), body(&java), fns(&java))),
        ];
        for (lang, src) in cases {
            let n = same_nodes(lang, src.into_bytes(), small(1_000));
            // Java: three classes, three units at most.
            assert!(
                n >= if lang == Lang::Java { 2 } else { 4 },
                "{lang}: {n} chunks"
            );
        }
    }

    /// Ruby methods with string interpolation (`#{x}` closes with `}`),
    /// JS template literals (`${x}`), Rust attributes and doc comments
    /// above functions, Python decorators: each file is cut into many
    /// chunks (a window cut before a Ruby `end` has an ERROR root; an
    /// interpolation's `}` once made every unit look unbalanced, and the
    /// windows grew to 8 steps), and a chunk never starts between a unit
    /// and the attributes or comments that belong to it.
    #[test]
    fn units_with_interpolation_attributes_and_decorators_chunk_whole() {
        let rb: String = (0..300)
            .map(|i| format!("def f{i}(x)\n  return 1 if x\n  \"#{{x}}\" =~ /a[b]c/\nend\n"))
            .collect();
        let n = same_nodes(Lang::Ruby, rb.into_bytes(), small(1_000));
        assert!(n > 10, "ruby: {n} chunks");
        let js: String = (0..300)
            .map(|i| format!("function f{i}(x) {{\n  return `a${{x}}b${{x + {i}}}`;\n}}\n"))
            .collect();
        let n = same_nodes(Lang::JavaScript, js.into_bytes(), small(1_000));
        assert!(n > 10, "js: {n} chunks");
        // Every chunk after the first starts at the unit's own lines.
        let starts_with = |lang: Lang, src: String, head: &[u8]| {
            let src = src.into_bytes();
            let plan = ChunkPlan::new(
                lang,
                src.clone(),
                &LangParseOptions::default(),
                &small(1_000),
            )
            .unwrap();
            assert!(
                plan.chunks().len() > 10,
                "{lang}: {} chunks",
                plan.chunks().len()
            );
            for c in plan.chunks().iter().skip(1) {
                assert!(
                    src[c.start..].starts_with(head),
                    "{lang}: chunk at {}",
                    c.start
                );
            }
        };
        let rs: String = (0..300)
            .map(|i| {
                format!("/// Doc {i}.\n#[inline]\n#[allow(dead_code)]\nfn f{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n")
            })
            .collect();
        starts_with(Lang::Rust, rs, b"/// Doc");
        let py: String = (0..300)
            .map(|i| {
                format!("@dec({i})\n@other\nclass C{i}:\n    def m(self):\n        return {i}\n\n")
            })
            .collect();
        starts_with(Lang::Python, py, b"@dec(");
    }

    /// A unit that cannot be cut inside (a bundle's wrapper function) and
    /// is under the node budget is one chunk, parsed whole, on one line or
    /// on many; over the budget it is the typed refusal.
    #[test]
    fn a_function_unit_is_one_chunk_under_the_budget() {
        let body: String = (0..3000)
            .map(|i| format!("function f{i}(a){{return a+{i}}}"))
            .collect();
        let lines = body.replace("}function", "}\nfunction");
        for src in [
            format!("(function(){{{body}}})();\n"),
            format!("(function () {{\n{lines}\n}})();\n"),
        ] {
            let mut plan = ChunkPlan::new(
                Lang::JavaScript,
                src.clone().into_bytes(),
                &LangParseOptions::default(),
                &small(1_000),
            )
            .unwrap();
            assert_eq!(plan.chunks().len(), 1);
            let errors = plan
                .with_chunk(0, &ChunkParse::default(), |f| f.parse_errors)
                .unwrap();
            assert_eq!(errors, Some(0));
            let tight = ChunkOptions {
                max_unit_tokens: 5_000,
                ..small(1_000)
            };
            let err = ChunkPlan::new(
                Lang::JavaScript,
                src.into_bytes(),
                &LangParseOptions::default(),
                &tight,
            )
            .unwrap_err();
            assert!(
                matches!(
                    err,
                    LangError::Budget {
                        limit: BudgetLimit::Unit,
                        ..
                    }
                ),
                "{err:?}"
            );
        }
    }

    #[test]
    fn chunks_give_the_whole_files_nodes() {
        let n = same_nodes(Lang::C, c_functions(200), small(2_000));
        assert!(n > 5, "{n} chunks");
        let py: String = (0..200)
            .map(|i| format!("def f{i}(a):\n    if a:\n        return {i}\n    return a\n\n"))
            .collect();
        assert!(same_nodes(Lang::Python, py.into_bytes(), small(1_000)) > 5);
        let go: String = std::iter::once("package p\n".to_string())
            .chain((0..200).map(|i| format!("func f{i}(a int) int {{\n\treturn a + {i}\n}}\n")))
            .collect();
        assert!(same_nodes(Lang::Go, go.into_bytes(), small(1_000)) > 5);
        // Below the threshold: one chunk.
        assert_eq!(
            same_nodes(Lang::C, c_functions(50), ChunkOptions::default()),
            1
        );
    }

    #[test]
    fn a_unit_over_the_node_budget_is_a_typed_error() {
        let mut s = String::from("int f(int a) {\n");
        while s.len() < 200_000 {
            s.push_str("  a = a + 1;\n");
        }
        s.push_str("}\nint g(void) { return 0; }\n");
        let opts = ChunkOptions {
            min_file_bytes: 0,
            chunk_bytes: 4_096,
            max_unit_tokens: 20_000,
        };
        let err = ChunkPlan::new(Lang::C, s.into_bytes(), &LangParseOptions::default(), &opts)
            .unwrap_err();
        assert!(
            matches!(
                err,
                LangError::Budget {
                    limit: BudgetLimit::Unit,
                    allowed: 20_000,
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn positions_and_lines() {
        let p = advance(Point { row: 2, column: 3 }, b"ab\ncde");
        assert_eq!((p.row, p.column), (3, 3));
        assert_eq!(line_end_at(b"ab\ncd\nef", 4), 6);
        assert_eq!(line_end_at(b"ab\ncd", 4), 5);
    }
}
