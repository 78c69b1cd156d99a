//! lizard's C/C++ reader: three state machines fed each token in turn —
//! function recognition (names, parameters, signature, body), the nesting
//! stack (braces, namespaces, classes) and the rvalue-reference take-back.

use crate::Context;

/// The words the C-family reader acts on.
#[derive(Debug)]
pub struct CLikeTable {
    /// Keywords opening a named scope (`struct`, `class`, `namespace`, `union`).
    pub scope_words: &'static [&'static [u8]],
    /// Tokens that end a scope name (the name is the tokens before the first one).
    pub scope_name_stops: &'static [&'static [u8]],
    /// Qualifiers after the parameter list that join the long name.
    pub qualifiers: &'static [&'static [u8]],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum S {
    Global,
    Function,
    TemplateInName,
    Operator,
    OperatorNext,
    NameWithSpace,
    Dec,
    DecToImp,
    Throw,
    Throws,
    Noexcept,
    TrailingReturn,
    OldCParams,
    InitList,
    OneInit,
    InitValue1,
    InitValue2,
    Imp,
    Attribute,
    LambdaCheck,
    LambdaParams,
    LambdaParamList,
    LambdaBody,
    LambdaBodySkip,
    LambdaCapture,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum N {
    Global,
    Dot,
    ReadNamespace,
    ReadNamespaceName,
    TemplateDecl,
    ReadAttribute,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum R {
    Global,
    AfterAndAnd,
    Typedef,
}

/// The running C/C++ reader.
pub struct CLike {
    table: &'static CLikeTable,
    s: S,
    s_br: i64,
    s_rut: usize,
    bracket_stack: Vec<u8>,
    /// K&R candidate tokens, concatenated, and where each ends.
    saved: Saved,
    n: N,
    n_br: i64,
    /// The scope name read so far (tokens before the first stop token).
    scope_name: Vec<u8>,
    scope_name_done: bool,
    r: R,
    r_rut_andand: i64,
}

/// Tokens kept for a replay, in one buffer.
#[derive(Debug, Default)]
struct Saved {
    bytes: Vec<u8>,
    ends: Vec<usize>,
}

impl Saved {
    fn push(&mut self, t: &[u8]) {
        self.bytes.extend_from_slice(t);
        self.ends.push(self.bytes.len());
    }
}

fn one_of(t: &[u8], set: &[u8]) -> bool {
    t.len() == 1 && set.contains(&t[0])
}

/// `token[0].isalpha()`, or `_`, or (with `tilde`) `~`.
fn starts_alpha(t: &[u8], tilde: bool) -> bool {
    match t.first() {
        Some(&b) if b < 0x80 => b.is_ascii_alphabetic() || b == b'_' || (tilde && b == b'~'),
        Some(_) => super::tokens::decode(t, 0, t.len()).is_some_and(|(c, _)| c.is_alphabetic()),
        None => false,
    }
}

fn spaced(t: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(t.len() + 1);
    v.push(b' ');
    v.extend_from_slice(t);
    v
}

impl CLike {
    pub(crate) fn new(table: &'static CLikeTable) -> Self {
        CLike {
            table,
            s: S::Global,
            s_br: 0,
            s_rut: 0,
            bracket_stack: Vec::new(),
            saved: Saved::default(),
            n: N::Global,
            n_br: 0,
            scope_name: Vec::new(),
            scope_name_done: false,
            r: R::Global,
            r_rut_andand: 0,
        }
    }

    pub(crate) fn step(&mut self, t: &[u8], ctx: &mut Context) {
        self.states(t, ctx);
        self.nesting(t, ctx);
        self.rvalue(t, ctx);
    }

    fn try_new_function(&mut self, name: &[u8], ctx: &mut Context) {
        ctx.try_new_function(name);
        self.s = if name == b"operator" {
            S::Operator
        } else {
            S::Function
        };
    }

    fn next(&mut self, s: S, t: &[u8], ctx: &mut Context) {
        self.s = s;
        self.states(t, ctx);
    }

    /// `read_inside_brackets_then`: the bracket count after `t`.
    fn count(br: &mut i64, t: &[u8], open: u8, close: u8) -> i64 {
        if one_of(t, &[open]) {
            *br += 1;
        } else if one_of(t, &[close]) {
            *br -= 1;
        }
        *br
    }

    fn states(&mut self, t: &[u8], ctx: &mut Context) {
        match self.s {
            S::Global => {
                if starts_alpha(t, true) {
                    self.try_new_function(t, ctx);
                } else if t == b"[" {
                    self.s = S::LambdaCheck;
                }
            }
            S::Function => self.function(t, ctx),
            S::TemplateInName => {
                let br = Self::count(&mut self.s_br, t, b'<', b'>');
                ctx.add_to_function_name(t);
                if br == 0 {
                    self.s = S::Function;
                }
            }
            S::Operator => {
                if t != b"(" {
                    self.s = S::OperatorNext;
                }
                ctx.add_to_function_name(&spaced(t));
            }
            S::OperatorNext => {
                if t == b"(" {
                    self.function(t, ctx);
                } else if one_of(t, b";{}") {
                    self.next(S::Global, t, ctx);
                } else {
                    ctx.add_to_function_name(&spaced(t));
                }
            }
            S::NameWithSpace => {
                self.s = if t == b"operator" {
                    S::Operator
                } else {
                    S::Function
                };
                ctx.add_to_function_name(t);
            }
            S::Dec => {
                let br = Self::count(&mut self.s_br, t, b'(', b')');
                self.dec(t, ctx);
                if br == 0 {
                    self.s = S::DecToImp;
                }
            }
            S::DecToImp => self.dec_to_imp(t, ctx),
            S::Throw => {
                if Self::count(&mut self.s_br, t, b'(', b')') == 0 {
                    self.s = S::DecToImp;
                }
            }
            S::Throws | S::TrailingReturn => {
                if one_of(t, b";{") {
                    self.s = S::DecToImp;
                    self.dec_to_imp(t, ctx);
                    self.s_rut = 0;
                } else {
                    self.s_rut += 1;
                }
            }
            S::Noexcept => {
                // `noexcept(…)` is skipped like `throw(…)`.
                self.s = if t == b"(" { S::Throw } else { S::DecToImp };
                self.states(t, ctx);
            }
            S::OldCParams => self.old_c_params(t, ctx),
            S::InitList => {
                self.s = S::OneInit;
                if t == b"{" {
                    self.entering_imp(t, ctx);
                }
            }
            S::OneInit => {
                if one_of(t, b"({") {
                    self.s = if t == b"(" {
                        S::InitValue1
                    } else {
                        S::InitValue2
                    };
                    self.states(t, ctx);
                    self.s_rut = 0;
                } else {
                    self.s_rut += 1;
                }
            }
            S::InitValue1 => {
                if Self::count(&mut self.s_br, t, b'(', b')') == 0 {
                    self.s = S::InitList;
                }
            }
            S::InitValue2 => {
                if Self::count(&mut self.s_br, t, b'{', b'}') == 0 {
                    self.s = S::InitList;
                }
            }
            S::Imp => {
                if Self::count(&mut self.s_br, t, b'{', b'}') == 0 {
                    self.s = S::Global;
                }
            }
            S::Attribute => {
                if Self::count(&mut self.s_br, t, b'[', b']') == 0 {
                    self.s = S::DecToImp;
                }
            }
            S::LambdaCheck => {
                self.s = if t == b"]" {
                    S::LambdaParams
                } else if t == b"[" {
                    S::Attribute
                } else {
                    S::LambdaCapture
                };
            }
            S::LambdaParams => {
                if t == b"(" {
                    self.bracket_stack.push(b'(');
                    self.s = S::LambdaParamList;
                } else {
                    self.s = S::LambdaBody;
                    self.states(t, ctx);
                }
            }
            S::LambdaParamList => {
                let top = self.bracket_stack.last().copied();
                if t == b"(" {
                    self.bracket_stack.push(b'(');
                } else if t == b")" {
                    if top == Some(b'(') {
                        self.bracket_stack.pop();
                        if self.bracket_stack.is_empty() {
                            self.s = S::LambdaBody;
                        }
                    }
                } else if t == b"<" || t == b"[" {
                    self.bracket_stack.push(t[0]);
                } else if (t == b">" && top == Some(b'<')) || (t == b"]" && top == Some(b'[')) {
                    self.bracket_stack.pop();
                }
            }
            S::LambdaBody => {
                if t == b"{" {
                    self.bracket_stack.push(b'{');
                    self.s = S::LambdaBodySkip;
                } else if one_of(t, b";,)") {
                    self.s = S::Global;
                    self.states(t, ctx);
                }
            }
            S::LambdaBodySkip => {
                if t == b"{" {
                    self.bracket_stack.push(b'{');
                } else if t == b"}" && self.bracket_stack.last() == Some(&b'{') {
                    self.bracket_stack.pop();
                    if self.bracket_stack.is_empty() {
                        self.s = S::Global;
                    }
                }
            }
            S::LambdaCapture => {
                if t == b"]" {
                    self.s = S::LambdaParams;
                }
            }
        }
    }

    fn function(&mut self, t: &[u8], ctx: &mut Context) {
        if t == b"(" {
            self.next(S::Dec, t, ctx);
        } else if t == b"::" {
            ctx.add_to_function_name(t);
            self.s = S::NameWithSpace;
        } else if t == b"<" {
            self.next(S::TemplateInName, t, ctx);
        } else {
            self.next(S::Global, t, ctx);
        }
    }

    fn dec(&mut self, t: &[u8], ctx: &mut Context) {
        if one_of(t, b"(<") {
            self.bracket_stack.push(t[0]);
        } else if one_of(t, b")>") {
            if self.bracket_stack.pop().is_none() {
                self.s = S::Global;
            }
        } else if self.bracket_stack.len() == 1 {
            if t != b"void" {
                ctx.parameter(t);
            }
            return;
        }
        ctx.add_to_long_name(t);
    }

    fn dec_to_imp(&mut self, t: &[u8], ctx: &mut Context) {
        if self.table.qualifiers.contains(&t) {
            ctx.add_to_long_name(&spaced(t));
        } else if t == b"throw" {
            self.s = S::Throw;
        } else if t == b"throws" {
            self.s = S::Throws;
        } else if t == b"->" {
            self.s = S::TrailingReturn;
        } else if t == b"noexcept" {
            self.s = S::Noexcept;
        } else if t == b"(" {
            let operator = ctx.long_name_is(b"operator");
            ctx.try_new_function_from_long_name();
            self.s = if operator { S::Operator } else { S::Function };
            self.function(t, ctx);
        } else if t == b"{" {
            self.entering_imp(t, ctx);
        } else if t == b":" {
            self.s = S::InitList;
        } else if t == b"[" {
            self.s = S::Attribute;
            self.states(t, ctx);
        } else if !starts_alpha(t, false) {
            self.s = S::Global;
            self.states(t, ctx);
        } else {
            self.s = S::OldCParams;
            self.saved = Saved::default();
            self.saved.push(t);
        }
    }

    fn entering_imp(&mut self, t: &[u8], ctx: &mut Context) {
        ctx.confirm_new_function();
        self.next(S::Imp, t, ctx);
    }

    fn old_c_params(&mut self, t: &[u8], ctx: &mut Context) {
        self.saved.push(t);
        if t == b";" {
            self.saved = Saved::default();
            self.s = S::DecToImp;
        } else if t == b"{" {
            if self.saved.ends.len() == 2 {
                self.saved = Saved::default();
                self.dec_to_imp(t, ctx);
                return;
            }
            self.replay(ctx);
        } else if t == b"(" {
            self.replay(ctx);
        }
    }

    fn replay(&mut self, ctx: &mut Context) {
        self.s = S::Global;
        let saved = std::mem::take(&mut self.saved);
        let mut start = 0;
        for &end in &saved.ends {
            self.states(&saved.bytes[start..end], ctx);
            start = end;
        }
    }

    fn nesting(&mut self, t: &[u8], ctx: &mut Context) {
        match self.n {
            N::Global => {
                if t == b"template" {
                    self.n = N::TemplateDecl;
                } else if t == b"." {
                    self.n = N::Dot;
                } else if self.table.scope_words.contains(&t) {
                    self.n = N::ReadNamespace;
                } else if t == b"{" {
                    ctx.add_bare_nesting();
                } else if t == b"}" {
                    ctx.pop_nesting();
                }
            }
            N::Dot => self.n = N::Global,
            N::ReadNamespace => {
                self.n = if t == b"[" {
                    N::ReadAttribute
                } else {
                    N::ReadNamespaceName
                };
                self.nesting(t, ctx);
            }
            N::ReadNamespaceName => {
                if one_of(t, b")({;") {
                    self.n = N::Global;
                    let name = std::mem::take(&mut self.scope_name);
                    self.scope_name_done = false;
                    if t == b"{" {
                        ctx.add_namespace(name);
                    }
                } else if !self.scope_name_done {
                    if self.table.scope_name_stops.contains(&t) {
                        self.scope_name_done = true;
                    } else {
                        self.scope_name.extend_from_slice(t);
                    }
                }
            }
            N::TemplateDecl => {
                if Self::count(&mut self.n_br, t, b'<', b'>') == 0 {
                    self.n = N::Global;
                }
            }
            N::ReadAttribute => {
                if Self::count(&mut self.n_br, t, b'[', b']') == 0 {
                    self.n = N::ReadNamespace;
                }
            }
        }
    }

    fn rvalue(&mut self, t: &[u8], ctx: &mut Context) {
        match self.r {
            R::Global => {
                if t == b"&&" {
                    self.r = R::AfterAndAnd;
                } else if t == b"typedef" {
                    self.r = R::Typedef;
                    self.r_rut_andand = 0;
                }
            }
            R::AfterAndAnd => {
                if one_of(t, b"=;{})") {
                    if t == b"=" {
                        ctx.add_condition(-1);
                    }
                    self.r = R::Global;
                }
            }
            R::Typedef => {
                if t == b";" {
                    ctx.add_condition(-self.r_rut_andand);
                    self.r_rut_andand = 0;
                    self.r = R::Global;
                } else if t == b"&&" {
                    self.r_rut_andand += 1;
                }
            }
        }
    }
}
