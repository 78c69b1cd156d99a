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
//! A top-level unit larger than [`ChunkOptions::max_unit_tokens`] (the
//! node budget: one 6 MB function) is a typed per-file error
//! ([`LangError::Budget`] with [`BudgetLimit::Unit`]), not unbounded
//! memory. All parses of one file share one budget: six times the
//! [`ParseBudget`] of a whole-file parse of it (the boundary pass, a little
//! over one parse of each byte, and up to four parses of each chunk: the
//! measured grammar, another grammar for the join key, a fallback grammar,
//! the macro-masked bytes).
//!
//! A PHP file is one chunk (its code starts after its `<?php` tag: a
//! chunk from the middle of the file would read as inline HTML), and so is
//! a file with a halting statement (PHP `__halt_compiler();`: the data
//! after it is no code and may hold any bytes).

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
/// about 16 KiB (a window's trees cost about 150 bytes per byte: 2-4 MB)
/// and refuses a top-level unit of more than 250,000 estimated tokens
/// (about 30 MB of tree-sitter tree). [`ChunkOptions::NEVER`] parses every
/// file whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
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
    /// allowed in a window that holds no whole top-level unit yet. A file
    /// with a larger unit is refused ([`BudgetLimit::Unit`]). 0: no limit.
    pub max_unit_tokens: u64,
}

impl ChunkOptions {
    /// Never chunk: every file is parsed whole.
    pub const NEVER: ChunkOptions = ChunkOptions {
        min_file_bytes: usize::MAX,
        chunk_bytes: 16 * 1024,
        max_unit_tokens: 250_000,
    };

    /// Whether a file of `bytes` bytes is parsed in chunks.
    pub fn applies(&self, bytes: usize) -> bool {
        bytes >= self.min_file_bytes
    }
}

impl Default for ChunkOptions {
    fn default() -> Self {
        ChunkOptions {
            min_file_bytes: 1_000_000,
            chunk_bytes: 16 * 1024,
            max_unit_tokens: 250_000,
        }
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
    /// The shared budget's limits, what is left of them, and the deadline.
    ops_left: Option<u64>,
    reads_left: Option<u64>,
    deadline: Option<Instant>,
    /// The whole-file limits, for errors.
    ops_allowed: u64,
    reads_allowed: u64,
    time_allowed_ms: u64,
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

/// Whether a chunk of a file of the language can be parsed alone: PHP's
/// code starts after the file's `<?php` tag (its grammar reads any text
/// before one as inline HTML), so a PHP file is always one chunk.
static CHUNKABLE: PerLang<bool> = PerLang::new([
    (Lang::Python, true),
    (Lang::Go, true),
    (Lang::Rust, true),
    (Lang::JavaScript, true),
    (Lang::TypeScript, true),
    (Lang::Tsx, true),
    (Lang::Java, true),
    (Lang::C, true),
    (Lang::Cpp, true),
    (Lang::Ruby, true),
    (Lang::Php, false),
]);

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
        if !chunks.applies(bytes) || halts || !CHUNKABLE.get(lang) {
            plan.chunks.push(Chunk {
                start: 0,
                end: bytes,
                start_point: Point { row: 0, column: 0 },
            });
            return Ok(plan);
        }
        plan.note_directives();
        plan.literals = crate::Literals::scan(lang, &plan.source);
        plan.find_chunks(grammar, chunks)?;
        if plan.chunks.len() <= 1 {
            plan.directives = None;
        }
        Ok(plan)
    }

    /// Keeps the file's preprocessor lines for the macro masks of its
    /// windows and chunks (a language with macro rules).
    fn note_directives(&mut self) {
        if crate::macros::macro_rules(self.lang).is_some() {
            self.directives = Some(crate::macros::directive_lines(&self.source));
        }
    }

    /// A plan of `source`, a `lang` file, cut where `starts` say (byte
    /// offsets, ascending; 0 and the offsets past the end are implied or
    /// left out): the chunks of another plan of the same units, such as
    /// those of the file a skeleton was made from, shifted by the edits
    /// before each. Under `options.budget`, shared as [`ChunkPlan::new`]
    /// shares it; no boundary pass.
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
        let grammar = options.grammar.unwrap_or(lang);
        crate::parse::check_tokens(&options.budget, grammar, &source)?;
        let mut plan = ChunkPlan::with_budget(lang, source, &options.budget, grammar);
        let len = plan.source.len();
        let mut pos = 0usize;
        let mut point = Point { row: 0, column: 0 };
        for &end in starts.iter().chain(std::iter::once(&len)) {
            if end <= pos || end > len {
                continue;
            }
            plan.chunks.push(Chunk {
                start: pos,
                end,
                start_point: point,
            });
            point = advance(point, plan.source.get(pos..end).unwrap_or(&[]));
            pos = end;
        }
        if plan.chunks.is_empty() {
            plan.chunks.push(Chunk {
                start: 0,
                end: len,
                start_point: Point { row: 0, column: 0 },
            });
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
        while pos < len {
            let mut window = step;
            let end = loop {
                let cut = unit_cut(
                    &self.source,
                    pos.saturating_add(window),
                    step,
                    CLOSERS.get(self.lang),
                    &self.literals,
                );
                if cut >= len {
                    break len;
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
                // From the first child with a syntax error (or unpaired
                // braces) on, the cut and tree-sitter's error recovery at it
                // may have changed the tree; the children before it are the
                // whole file's.
                let kids = self.root_children(grammar, pos, cut, point)?;
                let first_error = kids.iter().position(|c| c.has_error).unwrap_or(kids.len());
                // A child that starts inside a multi-line literal or comment
                // is error recovery reading its text as code (a window cut
                // inside a `"""` block): never trusted, nor anything after.
                let in_literal = kids
                    .iter()
                    .position(|c| self.literals.inside(c.start))
                    .unwrap_or(kids.len());
                // A window whose root is an ERROR node trusts only its
                // leading whole units (`root_children`), never the rest,
                // however long it grows. Otherwise an error that stays in a
                // window of 8 steps and more is the file's own.
                let lost = kids.first().is_some_and(|c| c.lost);
                let trusted = if !lost && window >= step.saturating_mul(STUCK_STEPS) {
                    kids.len()
                } else {
                    first_error
                }
                .min(in_literal);
                // The chunk ends before the last trusted child that can
                // start a unit: not an extra (a comment), in column 0. Error
                // recovery at a cut may close the unit in progress early
                // and leave the rest of its body as statements at the top
                // level (indented, in formatted code): the unit goes to the
                // next chunk with them.
                //
                // A unit starts with the children before it that belong to
                // it (Rust attributes, the comments among and before them:
                // the index widens a function's span over them), so the
                // chunk ends before those.
                let trusted = kids.get(..trusted).unwrap_or(&[]);
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
                    .find(|&b| b > pos && b < cut);
                if let Some(b) = boundary {
                    break b;
                }
                // No whole unit yet: a larger window.
                window = window.saturating_mul(2);
            };
            self.chunks.push(Chunk {
                start: pos,
                end,
                start_point: point,
            });
            point = advance(point, self.source.get(pos..end).unwrap_or(&[]));
            pos = end;
        }
        if self.chunks.is_empty() {
            self.chunks.push(Chunk {
                start: 0,
                end: 0,
                start_point: Point { row: 0, column: 0 },
            });
        }
        Ok(())
    }

    /// The root's children of a parse of `start..end`, the tree dropped.
    fn root_children(
        &mut self,
        grammar: Lang,
        start: usize,
        end: usize,
        start_point: Point,
    ) -> Result<Vec<Child>, LangError> {
        let mut tree = self.parse_range(grammar, None, start, end, start_point)?;
        // With the macros masked, a unit's masked leading macro (`API int
        // f(...)`) is blanks: the unit starts at its line's start.
        let mut view: Option<Vec<u8>> = None;
        // A window of a language with macros that has errors is read as its
        // chunk will be: with the macros the whole file defines masked, when
        // that reads better (`with_chunk`'s tolerant parse).
        if tree.root_node().has_error() && grammar == self.lang {
            if let Some(directives) = &self.directives {
                let text = self.source.get(start..end).unwrap_or(&[]);
                if let Some(masked) =
                    crate::macros::mask_macros_in(self.lang, text, Some(directives))
                {
                    let alt = self.parse_range(grammar, Some(&masked), start, end, start_point)?;
                    if count_errors(alt.root_node()) < count_errors(tree.root_node()) {
                        tree = alt;
                        view = Some(masked);
                    }
                }
            }
        }
        let root = tree.root_node();
        // A root that is itself an ERROR node (tree-sitter-ruby's recovery
        // from a `def` cut before its `end`) may still hold whole units
        // before the cut, then loose tokens and parts: only a function,
        // scope or wrapper of the language's spec is trusted there (not a
        // leaf, not a Python decorator split from its class), nor anything
        // after the first other child.
        let lost = root.is_error();
        let spec = crate::spec::spec(grammar);
        let mut cursor = root.walk();
        let source = &self.source;
        // Where a child starts in column 0 of the file: at its own first
        // byte, or (masked view) at its line's start when everything before
        // it on the line is a masked macro that starts in column 0.
        let unit_start = |c: tree_sitter::Node<'_>| -> Option<usize> {
            let col = c.start_position().column;
            if col == 0 {
                return Some(c.start_byte());
            }
            let v = view.as_deref()?;
            let line = c.start_byte().checked_sub(col)?;
            let blank = v
                .get(line - start..c.start_byte() - start)
                .is_some_and(|b| b.iter().all(|&x| x == b' '));
            let word = source
                .get(line)
                .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_');
            (blank && word).then_some(line)
        };
        let kids = root
            .children(&mut cursor)
            .map(|c| Child {
                kind: c.kind_id(),
                start: if c.is_extra() {
                    c.start_byte()
                } else {
                    unit_start(c).unwrap_or(c.start_byte())
                },
                end: c.end_byte(),
                lost,
                has_error: (lost && !is_unit(spec, c))
                    || c.has_error()
                    || c.is_error()
                    || c.is_missing()
                    || !braces_balance(c),
                starts_unit: !c.is_extra() && unit_start(c).is_some(),
                attaches: c.start_position().column == 0
                    && (c.is_extra()
                        || spec.leading_siblings.contains(&c.kind())
                        || spec.between_siblings.contains(&c.kind())),
            })
            .collect();
        Ok(kids)
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
        let tree = self.parse_range(grammar, None, chunk.start, chunk.end, chunk.start_point)?;
        let mut best = (grammar, count_errors(tree.root_node()), tree);
        if best.1 > 0 && how.fallbacks {
            for &alt in grammar.fallback_grammars() {
                let tree =
                    match self.parse_range(alt, None, chunk.start, chunk.end, chunk.start_point) {
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
        };
        let out = f(&file);
        self.source = file.source;
        Ok(Some(out))
    }

    /// One parse of `start..end` with `grammar` (of `text`, that range's
    /// bytes, when given: the masked bytes), under the shared budget.
    fn parse_range(
        &mut self,
        grammar: Lang,
        text: Option<&[u8]>,
        start: usize,
        end: usize,
        start_point: Point,
    ) -> Result<Tree, LangError> {
        let own = self.source.get(start..end).unwrap_or(&[]);
        let text = text.unwrap_or(own);
        let view = crate::view::parser_view(grammar, text);
        let text = view.as_deref().unwrap_or(text);
        let input = Input {
            text,
            base: start,
            range: Some(TsRange {
                start_byte: start,
                end_byte: end,
                start_point,
                end_point: advance(start_point, text),
            }),
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

/// Where a window that should end near `at` ends: before the first line
/// in `at..at + scan` that begins in column 0 with a letter, `_` or `@`
/// (where top-level units begin in every supported language: a cut there
/// rarely falls inside a unit), not with one of `closers` and not inside a
/// multi-line literal or comment (`literals`), else at the first line end
/// after `at` that is not inside one (the file's end when there is none).
fn unit_cut(
    source: &[u8],
    at: usize,
    scan: usize,
    closers: &[&str],
    literals: &crate::Literals,
) -> usize {
    let mut first = line_end_at(source, at);
    // Never inside a multi-line literal or comment: after it.
    while let Some(end) = literals.end_of(first) {
        first = line_end_at(source, end.max(first + 1));
    }
    let limit = at.saturating_add(scan).min(source.len());
    let mut line = first;
    while line < limit {
        if literals.inside(line) {
            // Inside a multi-line literal or comment: not where the lexer
            // is at the top level.
            line = line_end_at(source, line + 1);
            continue;
        }
        let rest = source.get(line..).unwrap_or_default();
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

/// Words that close a unit at the start of a line (Ruby's `end`): a window
/// cut before one ends inside the unit it closes, so none is cut there.
static CLOSERS: PerLang<&[&str]> = PerLang::new([
    (Lang::Python, &[]),
    (Lang::Go, &[]),
    (Lang::Rust, &[]),
    (Lang::JavaScript, &[]),
    (Lang::TypeScript, &[]),
    (Lang::Tsx, &[]),
    (Lang::Java, &[]),
    (Lang::C, &[]),
    (Lang::Cpp, &[]),
    (Lang::Ruby, &["end"]),
    (Lang::Php, &[]),
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

    /// Every chunk's root children are the whole file's, node for node.
    fn same_nodes(lang: Lang, src: Vec<u8>, opts: ChunkOptions) -> usize {
        let whole = parse(lang, src.clone()).unwrap();
        let flat = FlatTree::new(&whole);
        let want: Vec<String> = flat
            .root()
            .descendants()
            .skip(1)
            .map(|n| {
                format!(
                    "{} {:?} {:?}",
                    n.kind(),
                    n.start_position(),
                    n.end_position()
                )
            })
            .collect();
        let mut plan = ChunkPlan::new(lang, src, &LangParseOptions::default(), &opts).unwrap();
        let mut got = Vec::new();
        for i in 0..plan.chunks().len() {
            plan.with_chunk(i, &ChunkParse::default(), |f| {
                assert_eq!(f.parse_errors, 0);
                let flat = FlatTree::new(f);
                got.extend(flat.root().descendants().skip(1).map(|n| {
                    format!(
                        "{} {:?} {:?}",
                        n.kind(),
                        n.start_position(),
                        n.end_position()
                    )
                }));
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
        plan.chunks().len()
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
