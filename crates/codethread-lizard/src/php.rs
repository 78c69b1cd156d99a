//! lizard's PHP reader: functions opened at their `(` (so the signature's
//! conditions count), bodies closed by brace level, `Class::method` names.

use crate::Context;

/// The words the PHP reader acts on.
#[derive(Debug)]
pub struct PhpTable {
    /// Skipped up to the next `;` (`use` statements).
    pub use_word: &'static [u8],
    /// Names the methods after it `Class::m` until its braces close.
    pub class_word: &'static [u8],
    /// As `class_word`, for traits.
    pub trait_word: &'static [u8],
    /// Starts a function (named, or anonymous at once `(`).
    pub function_word: &'static [u8],
    /// Outside functions: its arms (`=>`) add conditions at its `}`.
    pub match_word: &'static [u8],
    /// Outside functions: their `( … )` is skipped.
    pub condition_words: &'static [&'static [u8]],
    /// Not a class name after `class`.
    pub class_name_skip: &'static [&'static [u8]],
    /// Tokens that reset the remembered assignment target.
    pub target_resets: &'static [&'static [u8]],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum S {
    Global,
    Use,
    TraitDecl,
    ClassDecl,
    FunctionName,
    FunctionArgs,
    FunctionArgsContinue,
    ReturnTypeOrBody,
    BodyOrReturnType,
    FunctionBody,
    ConditionExpected,
    ConditionContinue,
    MatchExpression,
    MatchExpressionContinue,
}

/// The running PHP reader.
pub struct Php {
    table: &'static PhpTable,
    s: S,
    function_name: Vec<u8>,
    class_name: Option<Vec<u8>>,
    trait_name: Option<Vec<u8>>,
    in_class: bool,
    in_trait: bool,
    bracket_level: i64,
    brace_level: i64,
    function_brace_level: i64,
    started_function: bool,
    last_tokens: Vec<u8>,
    assignments: Vec<Vec<u8>>,
    in_match: bool,
    match_case_count: i64,
}

fn join(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(a.len() + b.len() + 2);
    v.extend_from_slice(a);
    v.extend_from_slice(b"::");
    v.extend_from_slice(b);
    v
}

impl Php {
    pub(crate) fn new(table: &'static PhpTable) -> Self {
        Php {
            table,
            s: S::Global,
            function_name: Vec::new(),
            class_name: None,
            trait_name: None,
            in_class: false,
            in_trait: false,
            bracket_level: 0,
            brace_level: 0,
            function_brace_level: 0,
            started_function: false,
            last_tokens: Vec::new(),
            assignments: Vec::new(),
            in_match: false,
            match_case_count: 0,
        }
    }

    pub(crate) fn step(&mut self, t: &[u8], ctx: &mut Context) {
        let tb = self.table;
        match self.s {
            S::Global => self.global(t, ctx),
            S::Use => {
                if t == b";" {
                    self.s = S::Global;
                }
            }
            S::TraitDecl => {
                if t != b"{" && t != b"(" {
                    self.trait_name = Some(t.to_vec());
                    self.in_trait = true;
                    self.s = S::Global;
                } else if t == b"{" {
                    self.brace_level += 1;
                    self.s = S::Global;
                }
            }
            S::ClassDecl => {
                if !tb.class_name_skip.contains(&t) {
                    self.class_name = Some(t.to_vec());
                    self.in_class = true;
                    self.s = S::Global;
                } else if t == b"{" {
                    self.brace_level += 1;
                    self.s = S::Global;
                }
            }
            S::FunctionName => {
                if t != b"(" {
                    self.function_name = match (&self.class_name, &self.trait_name) {
                        (Some(c), _) if self.in_class && !c.is_empty() => join(c, t),
                        (_, Some(n)) if self.in_trait && !n.is_empty() => join(n, t),
                        _ => t.to_vec(),
                    };
                    self.s = S::FunctionArgs;
                } else {
                    self.function_name = if self.in_class {
                        join(
                            self.class_name.as_deref().unwrap_or(b"None"),
                            b"(anonymous)",
                        )
                    } else if self.in_trait {
                        join(
                            self.trait_name.as_deref().unwrap_or(b"None"),
                            b"(anonymous)",
                        )
                    } else if self.assignments.last().is_some_and(|a| !a.is_empty()) {
                        self.assignments.pop().unwrap_or_default()
                    } else {
                        b"(anonymous)".to_vec()
                    };
                    self.bracket_level = 1;
                    self.s = S::FunctionArgsContinue;
                    ctx.push_new_function(&self.function_name);
                    self.started_function = true;
                }
            }
            S::FunctionArgs => {
                if t == b"(" {
                    self.bracket_level = 1;
                    ctx.push_new_function(&self.function_name);
                    self.started_function = true;
                    self.s = S::FunctionArgsContinue;
                }
            }
            S::FunctionArgsContinue => {
                if t == b"(" {
                    self.bracket_level += 1;
                } else if t == b")" {
                    self.bracket_level -= 1;
                    if self.bracket_level == 0 {
                        self.s = S::ReturnTypeOrBody;
                    }
                } else if t.first() == Some(&b'$') && self.started_function {
                    let mut app = vec![b' '];
                    app.extend_from_slice(t);
                    ctx.add_to_long_name(&app);
                    ctx.parameter(t);
                }
            }
            S::ReturnTypeOrBody => {
                if t == b":" {
                    self.s = S::BodyOrReturnType;
                } else if t == b"{" {
                    self.enter_body();
                } else if t == b";" {
                    if self.started_function {
                        ctx.end_of_function();
                        self.started_function = false;
                    }
                    self.s = S::Global;
                }
            }
            S::BodyOrReturnType => {
                if t == b"{" {
                    self.enter_body();
                }
            }
            S::FunctionBody => {
                if t == b"{" {
                    self.brace_level += 1;
                } else if t == b"}" {
                    self.brace_level -= 1;
                    if self.brace_level == self.function_brace_level {
                        if self.started_function {
                            ctx.end_of_function();
                            self.started_function = false;
                        }
                        self.s = S::Global;
                    }
                }
            }
            S::ConditionExpected | S::MatchExpression => {
                if t == b"(" {
                    self.bracket_level = 1;
                    self.s = if self.s == S::ConditionExpected {
                        S::ConditionContinue
                    } else {
                        S::MatchExpressionContinue
                    };
                }
            }
            S::ConditionContinue | S::MatchExpressionContinue => {
                if t == b"(" {
                    self.bracket_level += 1;
                } else if t == b")" {
                    self.bracket_level -= 1;
                    if self.bracket_level == 0 {
                        self.s = S::Global;
                    }
                }
            }
        }
    }

    fn enter_body(&mut self) {
        self.function_brace_level = self.brace_level;
        self.brace_level += 1;
        self.s = S::FunctionBody;
    }

    fn global(&mut self, t: &[u8], ctx: &mut Context) {
        let tb = self.table;
        if t == tb.use_word {
            self.s = S::Use;
        } else if t == tb.class_word {
            self.s = S::ClassDecl;
        } else if t == tb.trait_word {
            self.s = S::TraitDecl;
        } else if t == tb.function_word {
            self.s = S::FunctionName;
        } else if t == tb.match_word {
            self.in_match = true;
            self.match_case_count = 0;
            self.s = S::MatchExpression;
        } else if tb.condition_words.contains(&t) {
            self.s = S::ConditionExpected;
        } else if t == b"=>" && self.in_match {
            self.match_case_count += 1;
        } else if t == b"}" && self.in_match {
            self.in_match = false;
            if self.match_case_count > 0 {
                ctx.add_condition(self.match_case_count - 1);
            }
            self.match_case_count = 0;
        } else if t == b"=" {
            let target = super::strip(&self.last_tokens).to_vec();
            self.function_name = target.clone();
            self.assignments.push(target);
        } else if t == b"{" {
            self.brace_level += 1;
        } else if t == b"}" {
            self.brace_level -= 1;
            if self.brace_level == 0 {
                if self.in_class {
                    self.in_class = false;
                    self.class_name = None;
                }
                if self.in_trait {
                    self.in_trait = false;
                    self.trait_name = None;
                }
            }
        }
        if !tb.target_resets.contains(&t) {
            self.last_tokens = t.to_vec();
        } else if t != b"=" {
            self.last_tokens.clear();
        }
    }
}
