//! lizard's Ruby-like reader: `def … end` pairing by nested block levels.
//!
//! lizard runs one state machine per block level, each a clone started at
//! a block-opening word and left at its `end` (or `}`); a token goes down
//! the chain of open levels and the answers come back up. This is the same
//! machine with the levels as an explicit stack (any nesting depth), so a
//! token is offered to the innermost level and the exits unwind outward.

use crate::Context;

/// The words the Ruby-like reader acts on.
#[derive(Debug)]
pub struct RubyTable {
    /// Starts a function.
    pub def: &'static [u8],
    /// Starts a test-style block function named after the token before its
    /// `do` / `{` (`it "…" do`).
    pub it: &'static [u8],
    /// The block end (`end`): a loop whose body is empty opens no level.
    pub block_end: &'static [u8],
    /// Close the current level.
    pub closers: &'static [&'static [u8]],
    /// Open a level (unless right after a `.`).
    pub openers: &'static [&'static [u8]],
    /// Open a level only at the start of a line, at the next line or `do`.
    pub loops: &'static [&'static [u8]],
    /// Open a level at the start of a line; elsewhere only with `then`.
    pub conditionals: &'static [&'static [u8]],
    /// The `then` of `conditionals`.
    pub then: &'static [u8],
    /// Opens and closes an embedded document whose tokens are skipped
    /// for block pairing (they still count as conditions).
    pub doc: (&'static [u8], &'static [u8]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum S {
    Global,
    Def,
    It,
    DefContinue,
    DefClassMethod,
    DefParameters,
    If,
    ForWhile,
    EmbeddedDoc,
    /// The next level is running.
    Child,
}

#[derive(Debug, Clone, Copy)]
struct Level {
    state: S,
    saved: S,
    /// On return of the child level: end the function, back to `Global`.
    callback: bool,
    /// Has seen a token (its last token is the previous one).
    seen: bool,
    to_exit: bool,
}

impl Level {
    fn new() -> Self {
        Level {
            state: S::Global,
            saved: S::Global,
            callback: false,
            seen: false,
            to_exit: false,
        }
    }
}

/// The running Ruby-like reader.
pub struct Ruby {
    table: &'static RubyTable,
    levels: Vec<Level>,
    /// The previous token.
    prev: Vec<u8>,
}

impl Ruby {
    pub(crate) fn new(table: &'static RubyTable) -> Self {
        Ruby {
            table,
            levels: vec![Level::new()],
            prev: Vec::new(),
        }
    }

    pub(crate) fn step(&mut self, t: &[u8], ctx: &mut Context) {
        let d = self.levels.len() - 1;
        let mut r = self.call(d, t, ctx);
        for i in (0..d).rev() {
            // Every outer level has seen a token (it ran the one that opened
            // its child) and is not exiting (an exiting level is removed by
            // its parent at once): once the answer is `false`, the rest of
            // the unwinding changes nothing, so it stops there instead of
            // walking the whole stack per token (lizard's chain of levels).
            if !r && self.levels[i].seen && !self.levels[i].to_exit {
                break;
            }
            r = self.unwind(i, r, ctx);
        }
        self.prev.clear();
        self.prev.extend_from_slice(t);
    }

    /// After level `i`'s state answered `r` for the token.
    fn unwind(&mut self, i: usize, r: bool, ctx: &mut Context) -> bool {
        if r {
            self.levels.truncate(i + 1);
            let l = &mut self.levels[i];
            l.state = l.saved;
            if std::mem::take(&mut l.callback) {
                ctx.end_of_function();
                l.state = S::Global;
            }
        }
        let l = &mut self.levels[i];
        l.seen = true;
        l.to_exit
    }

    /// Level `i` takes the token (through its child when it has one).
    fn call(&mut self, i: usize, t: &[u8], ctx: &mut Context) -> bool {
        let r = match self.levels[i].state {
            S::Child if i + 1 < self.levels.len() => self.call(i + 1, t, ctx),
            S::Child => false,
            s => self.run(i, s, t, ctx),
        };
        self.unwind(i, r, ctx)
    }

    fn last_is(&self, i: usize, what: &[u8]) -> bool {
        self.levels[i].seen && self.prev == what
    }

    fn is_newline(&self, i: usize, ctx: &Context) -> bool {
        ctx.newline || self.last_is(i, b";")
    }

    fn sub_level(&mut self, i: usize, callback: bool, token: Option<&[u8]>, ctx: &mut Context) {
        let l = &mut self.levels[i];
        l.saved = l.state;
        l.callback = callback;
        l.state = S::Child;
        self.levels.truncate(i + 1);
        self.levels.push(Level::new());
        if let Some(t) = token {
            self.call(i, t, ctx);
        }
    }

    fn run(&mut self, i: usize, s: S, t: &[u8], ctx: &mut Context) -> bool {
        let tb = self.table;
        match s {
            S::Global => {
                if tb.closers.contains(&t) {
                    self.levels[i].to_exit = true;
                } else if t == tb.def {
                    self.levels[i].state = S::Def;
                } else if t == tb.it {
                    self.levels[i].state = S::It;
                } else if tb.openers.contains(&t) && !self.last_is(i, b".") {
                    self.sub_level(i, false, None, ctx);
                } else if tb.loops.contains(&t) {
                    if self.is_newline(i, ctx) {
                        self.levels[i].state = S::ForWhile;
                    }
                } else if tb.conditionals.contains(&t) {
                    if self.is_newline(i, ctx) {
                        self.sub_level(i, false, None, ctx);
                    } else {
                        self.levels[i].state = S::If;
                    }
                } else if t == tb.doc.0 {
                    let l = &mut self.levels[i];
                    l.saved = l.state;
                    l.callback = false;
                    l.state = S::EmbeddedDoc;
                }
                false
            }
            S::Def => {
                if t == b"(" {
                    ctx.push_new_function(b"(anonymous)");
                    self.levels[i].state = S::DefParameters;
                } else {
                    ctx.push_new_function(t);
                    self.levels[i].state = S::DefContinue;
                }
                false
            }
            S::It => {
                if t == b"do" || t == b"{" {
                    let name = self.prev.clone();
                    ctx.push_new_function(&name);
                    self.levels[i].state = S::DefContinue;
                }
                false
            }
            S::DefContinue => {
                if t == b"." {
                    ctx.add_to_function_name(t);
                    self.levels[i].state = S::DefClassMethod;
                } else if t == b"(" {
                    self.levels[i].state = S::DefParameters;
                } else {
                    self.sub_level(i, true, Some(t), ctx);
                }
                false
            }
            S::DefClassMethod => {
                ctx.add_to_function_name(t);
                self.levels[i].state = S::DefContinue;
                false
            }
            S::DefParameters => {
                if t == b")" {
                    self.levels[i].state = S::DefContinue;
                    ctx.add_to_long_name(b" )");
                } else {
                    ctx.parameter(t);
                }
                false
            }
            S::If => {
                if self.is_newline(i, ctx) {
                    // Re-read at the same level; its answer is dropped.
                    self.levels[i].state = S::Global;
                    self.call(i, t, ctx);
                    return false;
                }
                if t == tb.then {
                    self.levels[i].state = S::Global;
                    self.sub_level(i, false, None, ctx);
                }
                false
            }
            S::ForWhile => {
                if self.is_newline(i, ctx) || t == b"do" {
                    self.levels[i].state = S::Global;
                    if t != tb.block_end {
                        self.sub_level(i, false, None, ctx);
                    }
                }
                false
            }
            S::EmbeddedDoc => t == tb.doc.1,
            S::Child => false,
        }
    }
}
