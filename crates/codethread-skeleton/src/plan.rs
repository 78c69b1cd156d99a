//! The edit engine: for one function node, the byte range of its body to
//! replace and the stub text that replaces it.
//!
//! Everything outside the returned range is kept byte for byte, including the
//! opener (`:`, `{`, `=>`) and a comment that ends the opener line. The stub's
//! indentation and line ending are read from the file, so a second run finds
//! exactly the stub and plans an identical (no-op) edit.

use codethread_lang::tree_sitter::Node;
use codethread_lang::Lang;

use crate::text::{
    eol_near, first_inner_line_indent, fix_end, fix_start, indent_unit, line_indent,
    only_indent_before,
};
use crate::Warning;

/// The statement that replaces a Python body.
pub const PYTHON_STUB: &str = "raise NotImplementedError";
/// The unreachable statement that keeps a Python generator a generator.
pub const PYTHON_YIELD: &str = "yield";
/// The statement that replaces a Go body.
pub const GO_STUB: &str = "panic(\"not implemented\")";
/// The expression that replaces a Rust body.
pub const RUST_STUB: &str = "todo!()";
/// The statement that replaces a JavaScript / TypeScript body.
pub const JS_STUB: &str = "throw new Error(\"not implemented\");";

/// What replaces a JavaScript / TypeScript expression body (arrow functions):
/// a braced body holding [`JS_STUB`].
const JS_EXPR_STUB: &str = "{ throw new Error(\"not implemented\"); }";

/// How a language's bodies look: the indented block after a `:` line, or a
/// `{ ... }` block (possibly an expression instead).
#[derive(Debug)]
pub(crate) enum BodyForm {
    /// Python: statements in an indented block. Only function kinds in
    /// `statement_kinds` have one (a lambda's body is an expression).
    Indented {
        /// Function node kinds whose body is a statement block.
        statement_kinds: &'static [&'static str],
    },
    /// Go, Rust, JS/TS: a `{ ... }` block of one of `block_kinds`, or, where
    /// `expr_stub` is set, an expression body replaced by `expr_stub`.
    Braced {
        /// Body node kinds that are `{ ... }` blocks.
        block_kinds: &'static [&'static str],
        /// What replaces an expression body (closures, arrows); `None`: the
        /// language has no expression bodies.
        expr_stub: Option<&'static str>,
    },
}

/// Per-language knowledge of the stubbing engine, as data.
#[derive(Debug)]
pub(crate) struct StubRules {
    /// The stub statement.
    pub stub: &'static str,
    /// Indentation unit used when neither the body nor the file shows one.
    pub default_unit: &'static str,
    /// The body's form.
    pub form: BodyForm,
    /// Comment node kinds.
    pub comment_kinds: &'static [&'static str],
    /// Decorated `@overload` stubs exist (Python) and are never targets.
    pub overload_stubs: bool,
    /// Unused imports are compile errors (Go): flag stubs that remove the
    /// last use of an import.
    pub rejects_unused_imports: bool,
}

static PYTHON_RULES: StubRules = StubRules {
    stub: PYTHON_STUB,
    default_unit: "    ",
    form: BodyForm::Indented {
        statement_kinds: &["function_definition"],
    },
    comment_kinds: &["comment"],
    overload_stubs: true,
    rejects_unused_imports: false,
};

static GO_RULES: StubRules = StubRules {
    stub: GO_STUB,
    default_unit: "\t",
    form: BodyForm::Braced {
        block_kinds: &["block"],
        expr_stub: None,
    },
    comment_kinds: &["comment"],
    overload_stubs: false,
    rejects_unused_imports: true,
};

static RUST_RULES: StubRules = StubRules {
    stub: RUST_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["block"],
        expr_stub: Some(RUST_STUB),
    },
    comment_kinds: &["line_comment", "block_comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

static JS_RULES: StubRules = StubRules {
    stub: JS_STUB,
    default_unit: "  ",
    form: BodyForm::Braced {
        block_kinds: &["statement_block"],
        expr_stub: Some(JS_EXPR_STUB),
    },
    comment_kinds: &["comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

/// The statement that replaces a Java body.
pub const JAVA_STUB: &str = "throw new UnsupportedOperationException(\"not implemented\");";
/// The statement that replaces a C or C++ body (a GCC/Clang builtin: no
/// header needed, and it does not return, so non-void functions stay valid).
pub const C_STUB: &str = "__builtin_trap();";
/// The statement that replaces a Ruby body.
pub const RUBY_STUB: &str = "raise NotImplementedError";
/// The statement that replaces a PHP body.
pub const PHP_STUB: &str = "throw new \\LogicException('not implemented');";

static JAVA_RULES: StubRules = StubRules {
    stub: JAVA_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["block", "constructor_body"],
        expr_stub: None,
    },
    comment_kinds: &["line_comment", "block_comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

static C_RULES: StubRules = StubRules {
    stub: C_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["compound_statement"],
        expr_stub: None,
    },
    comment_kinds: &["comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

static RUBY_RULES: StubRules = StubRules {
    stub: RUBY_STUB,
    default_unit: "  ",
    form: BodyForm::Braced {
        block_kinds: &["body_statement"],
        expr_stub: None,
    },
    comment_kinds: &["comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

static PHP_RULES: StubRules = StubRules {
    stub: PHP_STUB,
    default_unit: "    ",
    form: BodyForm::Braced {
        block_kinds: &["compound_statement"],
        expr_stub: None,
    },
    comment_kinds: &["comment"],
    overload_stubs: false,
    rejects_unused_imports: false,
};

/// The stubbing rules of a language.
pub(crate) fn rules(lang: Lang) -> &'static StubRules {
    match lang {
        Lang::Python => &PYTHON_RULES,
        Lang::Go => &GO_RULES,
        Lang::Rust => &RUST_RULES,
        Lang::JavaScript | Lang::TypeScript | Lang::Tsx => &JS_RULES,
        Lang::Java => &JAVA_RULES,
        Lang::C | Lang::Cpp => &C_RULES,
        Lang::Ruby => &RUBY_RULES,
        Lang::Php => &PHP_RULES,
    }
}

/// The stub statement of a language.
pub fn stub_statement(lang: Lang) -> &'static str {
    rules(lang).stub
}

/// A planned replacement, in the coordinates of the whole file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Planned {
    pub start: usize,
    pub end: usize,
    pub replacement: String,
    pub warnings: Vec<Warning>,
}

/// Why a function cannot be planned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PlanError {
    /// No body node.
    NoBody,
    /// A body form that no stub can replace (Python lambda).
    Unsupported(&'static str),
    /// The body is not in the expected shape (recovered parse).
    Malformed(&'static str),
    /// The function touches a syntax error.
    Affected(String),
}

/// What the engine needs to know about one function.
pub(crate) struct PlanInput<'a, 't> {
    pub lang: Lang,
    /// The whole file.
    pub src: &'a [u8],
    /// Added to node positions to get file positions (non-zero for nodes of
    /// a re-parsed macro body).
    pub off: usize,
    /// The function node.
    pub node: Node<'t>,
    pub is_generator: bool,
    pub keep_docs: bool,
}

/// Lazily computed file-wide indentation unit.
pub(crate) struct UnitCache {
    unit: Option<String>,
}

impl UnitCache {
    pub(crate) fn new() -> Self {
        UnitCache { unit: None }
    }

    fn get(&mut self, src: &[u8], lang: Lang) -> &str {
        self.unit
            .get_or_insert_with(|| indent_unit(src, rules(lang).default_unit))
    }
}

/// Plan the body replacement of one function.
pub(crate) fn plan(inp: &PlanInput<'_, '_>, units: &mut UnitCache) -> Result<Planned, PlanError> {
    let body = inp
        .node
        .child_by_field_name("body")
        .ok_or(PlanError::NoBody)?;
    if body.is_missing() || body.byte_range().is_empty() {
        return Err(PlanError::NoBody);
    }
    let mut warnings = Vec::new();
    collect_warnings(inp, &mut warnings);
    let r = rules(inp.lang);
    let mut planned = match r.form {
        BodyForm::Indented { statement_kinds } => {
            if !statement_kinds.contains(&inp.node.kind()) {
                return Err(PlanError::Unsupported(
                    "a Python lambda body is an expression; no statement can replace it",
                ));
            }
            plan_python(inp, body)?
        }
        BodyForm::Braced { block_kinds, .. } if body_is_braced(inp, body, block_kinds) => {
            plan_braces(inp, body, units)?
        }
        BodyForm::Braced {
            expr_stub: Some(stub),
            ..
        } => Planned {
            start: inp.off + body.start_byte(),
            end: inp.off + body.end_byte(),
            replacement: stub.to_string(),
            warnings: Vec::new(),
        },
        BodyForm::Braced {
            expr_stub: None, ..
        } => return Err(PlanError::Malformed("body without braces")),
    };
    planned.warnings = warnings;
    Ok(planned)
}

fn body_is_braced(inp: &PlanInput<'_, '_>, body: Node<'_>, block_kinds: &[&str]) -> bool {
    block_kinds.contains(&body.kind()) && inp.src.get(inp.off + body.start_byte()) == Some(&b'{')
}

fn is_comment(lang: Lang, n: Node<'_>) -> bool {
    rules(lang).comment_kinds.contains(&n.kind())
}

/// `{ ... }` bodies (Go, Rust, JS/TS): replace what lies between the braces,
/// keeping a comment that ends the opener line.
fn plan_braces(
    inp: &PlanInput<'_, '_>,
    body: Node<'_>,
    units: &mut UnitCache,
) -> Result<Planned, PlanError> {
    let src = inp.src;
    let off = inp.off;
    let n = body.child_count();
    let open = body.child(0).ok_or(PlanError::Malformed("empty block"))?;
    let close = body
        .child(n.saturating_sub(1))
        .ok_or(PlanError::Malformed("empty block"))?;
    if n < 2 || open.kind() != "{" || close.kind() != "}" || close.is_missing() {
        return Err(PlanError::Malformed("block without its braces"));
    }
    let open_row = open.start_position().row;
    let stub = stub_statement(inp.lang);
    let multiline = close.start_position().row > open_row;
    if !multiline {
        return Ok(Planned {
            start: off + open.end_byte(),
            end: off + close.start_byte(),
            replacement: format!(" {stub} "),
            warnings: Vec::new(),
        });
    }
    // Keep comments on the opener line when nothing else follows them there.
    let mut kept_end = open.end_byte();
    let mut i = 1;
    let mut last_comment_end = None;
    while i + 1 < n {
        let Some(c) = body.child(i) else { break };
        if c.start_position().row != open_row {
            break;
        }
        if !is_comment(inp.lang, c) {
            last_comment_end = None;
            break;
        }
        last_comment_end = Some(c.end_byte());
        i += 1;
    }
    if let Some(e) = last_comment_end {
        // Only when the next token starts on a later line.
        let next_row = body.child(i).map_or(usize::MAX, |c| c.start_position().row);
        if next_row > open_row {
            kept_end = e;
        }
    }
    let start = fix_start(src, off + kept_end);
    let end = off + close.start_byte();
    let eol = eol_near(src, start);
    let close_indent = line_indent(src, end);
    let inner = match first_inner_line_indent(src, start, end) {
        Some(ind) if ind.len() > close_indent.len() && ind.starts_with(close_indent.as_str()) => {
            ind
        }
        _ => {
            let unit = if close_indent.ends_with('\t') {
                "\t".to_string()
            } else {
                units.get(src, inp.lang).to_string()
            };
            format!("{close_indent}{unit}")
        }
    };
    let eol = eol.as_str();
    Ok(Planned {
        start,
        end,
        replacement: format!("{eol}{inner}{stub}{eol}{close_indent}"),
        warnings: Vec::new(),
    })
}

/// The docstring statement of a Python block: a first statement that is a
/// plain (not f-) string literal.
fn python_docstring<'t>(lang: Lang, block: Node<'t>, src: &[u8], off: usize) -> Option<Node<'t>> {
    let mut c = block.walk();
    let first = block
        .named_children(&mut c)
        .find(|n| !is_comment(lang, *n))?;
    if first.kind() != "expression_statement" || first.named_child_count() != 1 {
        return None;
    }
    let lit = first.named_child(0)?;
    let string = match lit.kind() {
        "string" => lit,
        "concatenated_string" => lit.named_child(0)?,
        _ => return None,
    };
    let text = src.get(off + string.start_byte()..off + string.end_byte())?;
    let prefix_len = text.iter().take_while(|b| b.is_ascii_alphabetic()).count();
    if text[..prefix_len]
        .iter()
        .any(|b| matches!(b, b'f' | b'F' | b'b' | b'B'))
    {
        return None;
    }
    Some(first)
}

/// Python: replace the block after the `:` line (one-line bodies in place),
/// keeping a comment on the `def` line.
fn plan_python(inp: &PlanInput<'_, '_>, body: Node<'_>) -> Result<Planned, PlanError> {
    let src = inp.src;
    let off = inp.off;
    let node = inp.node;
    // The `:` opener: the last anonymous child before the body.
    let mut colon = None;
    let mut c = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut c).collect();
    for ch in &children {
        if ch.start_byte() >= body.start_byte() {
            break;
        }
        if ch.kind() == ":" {
            colon = Some(*ch);
        }
    }
    let colon = colon.ok_or(PlanError::Malformed("def without ':'"))?;
    let opener_row = colon.start_position().row;
    let mut bc = body.walk();
    let stmts: Vec<Node<'_>> = body.children(&mut bc).collect();
    let first_stmt = stmts
        .iter()
        .find(|n| n.is_named() && !is_comment(inp.lang, **n))
        .copied()
        .ok_or(PlanError::Malformed("block without a statement"))?;
    let doc = if inp.keep_docs {
        python_docstring(inp.lang, body, src, off)
    } else {
        None
    };
    let gen = inp.is_generator;

    if body.start_position().row == opener_row {
        // One-line body: `def f(): return 1  # comment`.
        let last = stmts
            .iter()
            .rev()
            .find(|n| !is_comment(inp.lang, **n))
            .copied()
            .ok_or(PlanError::Malformed("block without a statement"))?;
        let end = off + last.end_byte();
        let (start, mut replacement) = match doc {
            Some(d) => (off + d.end_byte(), format!("; {PYTHON_STUB}")),
            None => (off + body.start_byte(), PYTHON_STUB.to_string()),
        };
        if gen {
            replacement.push_str("; ");
            replacement.push_str(PYTHON_YIELD);
        }
        return Ok(Planned {
            start,
            end: end.max(start),
            replacement,
            warnings: Vec::new(),
        });
    }

    // Multi-line body. Keep the `:` line, with a trailing comment on it.
    let mut kept_end = colon.end_byte();
    for ch in &children {
        if ch.start_byte() >= body.start_byte() {
            break;
        }
        if ch.start_byte() >= colon.end_byte()
            && is_comment(inp.lang, *ch)
            && ch.start_position().row == opener_row
        {
            kept_end = ch.end_byte();
        }
    }
    if !only_indent_before(src, off + first_stmt.start_byte()) {
        return Err(PlanError::Malformed(
            "first statement does not start its line",
        ));
    }
    let indent = line_indent(src, off + first_stmt.start_byte());
    // Trailing comments dedented below the body belong to the enclosing code.
    let body_col = first_stmt.start_position().column;
    let last_kept = stmts
        .iter()
        .rev()
        .find(|n| !(is_comment(inp.lang, **n) && n.start_position().column < body_col))
        .copied()
        .unwrap_or(first_stmt);
    let end = fix_end(src, off + last_kept.end_byte());
    let start = match doc {
        Some(d) => off + d.end_byte(),
        None => fix_start(src, off + kept_end),
    };
    // The ending of the `:` line, or of the docstring's line.
    let eol: &str = eol_near(src, start).as_str();
    let mut replacement = format!("{eol}{indent}{PYTHON_STUB}");
    if gen {
        replacement.push_str(eol);
        replacement.push_str(&indent);
        replacement.push_str(PYTHON_YIELD);
    }
    Ok(Planned {
        start,
        end: end.max(start),
        replacement,
        warnings: Vec::new(),
    })
}

/// Warnings for stubs that parse but cannot type-check.
fn collect_warnings(inp: &PlanInput<'_, '_>, out: &mut Vec<Warning>) {
    let node = inp.node;
    match inp.lang {
        Lang::Rust => {
            if let Some(ret) = node.child_by_field_name("return_type") {
                if subtree_has_kind(ret, "abstract_type") {
                    out.push(Warning::ImplTraitReturn);
                }
            }
        }
        Lang::TypeScript | Lang::Tsx
            if node.kind() == "method_definition" && is_derived_constructor(inp) =>
        {
            out.push(Warning::DerivedConstructor);
        }
        _ => {}
    }
}

fn is_derived_constructor(inp: &PlanInput<'_, '_>) -> bool {
    let node = inp.node;
    let Some(name) = node.child_by_field_name("name") else {
        return false;
    };
    let name_text = inp
        .src
        .get(inp.off + name.start_byte()..inp.off + name.end_byte())
        .unwrap_or(&[]);
    if name_text != b"constructor" {
        return false;
    }
    let Some(class) = node.parent().and_then(|p| p.parent()) else {
        return false;
    };
    let mut c = class.walk();
    let derived = class
        .children(&mut c)
        .filter(|n| n.kind() == "class_heritage")
        .any(|h| {
            let mut c2 = h.walk();
            let found = h.children(&mut c2).any(|n| n.kind() == "extends_clause");
            found
        });
    derived
}

/// Iterative search for a node kind below (and including) `root`.
fn subtree_has_kind(root: Node<'_>, kind: &str) -> bool {
    let mut cursor = root.walk();
    loop {
        if cursor.node().kind() == kind {
            return true;
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == root.id() {
                return false;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expression_body_stubs_hold_the_statement_stub() {
        assert_eq!(JS_EXPR_STUB, format!("{{ {JS_STUB} }}"));
        for lang in Lang::ALL {
            let r = rules(lang);
            assert_eq!(stub_statement(lang), r.stub);
            if let BodyForm::Braced {
                expr_stub: Some(e), ..
            } = r.form
            {
                assert!(e.contains(r.stub), "{lang:?}: {e}");
            }
        }
    }
}
