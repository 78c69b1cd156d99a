//! Cyclomatic complexity: one generic, iterative walker driven by the rule
//! tables of [`rules`] (one table per profile and language).
//!
//! - Node mode: every node whose kind is a decision point (under its
//!   context condition) adds 1; radon's `match` rule is a table entry too.
//! - Token mode: every leaf token whose text is a decision token adds 1
//!   (lizard's Go CCN, `crate::lizard::go`); string and comment subtrees
//!   count as single tokens.
//! - Excluded kinds (nested functions a tool reports on their own) are not
//!   entered; nested-space kinds (rust-code-analysis sums) add the base value.

use codethread_lang::FlatNode as Node;
use codethread_lang::ParsedFile;

use crate::context::FnCtx;
use codethread_rules::cyclomatic as rules;
use codethread_rules::when::Site;
use rules::{CcMode, CcRules, MatchCases, When};

/// Whether the tool gives `func` no value ([`CcRules::unreported`]).
fn unreported(table: &CcRules, func: Node<'_>) -> bool {
    let Some(rule) = table.unreported else {
        return false;
    };
    let mut class_seen = false;
    let mut n = func.parent();
    while let Some(p) = n {
        let kind = crate::kinds::kind_of(p);
        if class_seen && rule.scopes.contains(&kind) {
            return true;
        }
        class_seen |= rule.classes.contains(&kind);
        n = p.parent();
    }
    false
}

/// Cyclomatic complexity of the function at `func` under an explicit rule table.
#[cfg(test)]
pub(crate) fn cyclomatic_with(file: &ParsedFile, func: Node<'_>, table: &CcRules) -> u32 {
    cyclomatic_memo(file, func, table, &mut Memo::default())
}

/// Interior sums of functions already measured in this file: node id → the
/// part of the function's value that its descendants contribute (the walk's
/// total after its root node). A walker of an enclosing function that
/// reaches such a node in the same state the node's own walk started from
/// (no watched ancestor bits, children's parent = the node) adds the sum
/// instead of walking the subtree again: same value, one walk per file for
/// tools whose values include nested functions.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    interior: std::collections::HashMap<usize, u32>,
}

/// Cyclomatic complexity of `ctx`'s function under `table` (`None`: the
/// tool gives it no value, [`CcRules::unreported`]), with a file-wide
/// [`Memo`]; functions must be measured innermost first for the memo to
/// help (the value never depends on it).
pub(crate) fn cyclomatic_memo_ctx(
    ctx: &FnCtx<'_>,
    table: &CcRules,
    memo: &mut Memo,
) -> Option<u32> {
    if unreported(table, ctx.node) {
        return None;
    }
    Some(cyclomatic_memo(ctx.file, ctx.node, table, memo))
}

fn cyclomatic_memo(file: &ParsedFile, func: Node<'_>, table: &CcRules, memo: &mut Memo) -> u32 {
    let scope = match table.scope_field {
        Some(field) => match func.child_by_field_name(field) {
            Some(n) => n,
            None => return table.base,
        },
        None => func,
    };
    if table.mode == CcMode::Tokens {
        // lizard's CCN read from the tree's tokens (Go): in `lizard/`.
        let tokens = crate::lizard::go::TokenCount {
            texts: table.token_texts,
            atomic: table.atomic,
            excluded: table.excluded,
            brace_scope: table.brace_scope.as_ref(),
        };
        return table.base.saturating_add(tokens.count(file, func));
    }
    // Ancestor kinds some decision's condition looks at (`NotInside`): carried
    // down the walk as bits, because `Node::parent` costs O(depth).
    let watched: Vec<&str> = table
        .decisions
        .iter()
        .filter_map(|d| match d.when {
            When::NotInside(kinds) => Some(kinds),
            _ => None,
        })
        .flatten()
        .copied()
        .collect();
    let mut total: u32 = table.base;
    // The scope's parent is the function node when a field is the scope; the
    // function node's own parent never matters (no decision is a function kind).
    let parent = (scope.id() != func.id()).then_some(func);
    let start = Item {
        node: scope,
        parent,
        inside: 0,
    };
    let mut stack: Vec<Item<'_>> = vec![start];
    let mut kids: Vec<Node<'_>> = Vec::new();
    let mut cursor = func.walk();
    // Memoizable: the walk starts at the function node itself.
    let memoize = scope.id() == func.id();
    let mut after_root: Option<u32> = None;
    while let Some(item) = stack.pop() {
        if after_root.is_none() && node_is_after_root(&item, func) {
            after_root = Some(total);
        }
        let node = item.node;
        let kind = crate::kinds::kind_of(node);
        let is_root = node.id() == scope.id() || node.id() == func.id();
        if !is_root {
            if table.excluded.contains(&kind) {
                continue;
            }
            if node.is_named() && table.nested_spaces.contains(&kind) {
                total = total.saturating_add(table.base);
            }
        }
        if table
            .decisions
            .iter()
            .any(|d| d.kind == kind && holds(file, d.when, &item, &watched))
        {
            total = total.saturating_add(1);
        }
        if let Some(m) = &table.match_cases {
            if m.match_kind == kind {
                total = total.saturating_add(match_increment(node, m));
            }
        }
        if table.pruned.contains(&kind) {
            continue;
        }
        let mut inside = item.inside;
        for (bit, w) in watched.iter().enumerate().take(64) {
            if *w == kind {
                inside |= 1u64 << bit;
            }
        }
        if memoize && !is_root && item.inside == 0 {
            if let Some(sum) = memo.interior.get(&node.id()) {
                total = total.saturating_add(*sum);
                continue;
            }
        }
        kids.clear();
        push_children(node, &mut kids, &mut cursor);
        stack.extend(kids.drain(..).map(|n| Item {
            node: n,
            parent: Some(node),
            inside,
        }));
    }
    if memoize {
        let base = after_root.unwrap_or(total);
        memo.interior.insert(func.id(), total.saturating_sub(base));
    }
    total
}

/// Whether `item` is the first node visited after the walk's root.
fn node_is_after_root(item: &Item<'_>, func: Node<'_>) -> bool {
    item.node.id() != func.id()
}

/// A node to visit with what its conditions need to know about its ancestors.
struct Item<'t> {
    node: Node<'t>,
    /// The parent (`Node::parent` costs O(depth)).
    parent: Option<Node<'t>>,
    /// Bit i: some ancestor has the i-th watched kind.
    inside: u64,
}

/// Push `node`'s children so that they pop in source order (`cursor` is
/// reused across calls: no allocation per node).
fn push_children<'t>(
    node: Node<'t>,
    stack: &mut Vec<Node<'t>>,
    cursor: &mut codethread_lang::FlatCursor<'t>,
) {
    let start = stack.len();
    cursor.reset(node);
    if cursor.goto_first_child() {
        loop {
            stack.push(cursor.node());
            if !cursor.goto_next_sibling() {
                break;
            }
        }
    }
    stack[start..].reverse();
}

fn holds(file: &ParsedFile, when: When, item: &Item<'_>, watched: &[&str]) -> bool {
    // `NotInside` reads the ancestor bits the walk carries.
    let inside = |kinds: &[&str]| {
        watched
            .iter()
            .enumerate()
            .take(64)
            .any(|(bit, w)| kinds.contains(w) && item.inside & (1u64 << bit) != 0)
    };
    when.holds(&Site {
        file,
        node: item.node,
        parent: item.parent,
        // The cyclomatic tables use no field condition; the node's own
        // field is exact (its parent is the tree parent).
        field: item.node.field_name(),
        inside: Some(&inside),
    })
}

/// radon: `max(0, cases − [any irrefutable case])` for one match statement.
fn match_increment(node: Node<'_>, m: &MatchCases) -> u32 {
    let mut cases = 0u32;
    let mut irrefutable = false;
    // Cases are children of the match body (a block); walk two levels.
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        for child in n.named_children() {
            if crate::kinds::kind_of(child) == m.case_kind {
                cases += 1;
                if is_irrefutable(child, m) {
                    irrefutable = true;
                }
            } else if n.id() == node.id() && crate::kinds::kind_of(child) == m.body_kind {
                stack.push(child);
            }
        }
    }
    cases.saturating_sub(u32::from(irrefutable))
}

fn is_irrefutable(case: Node<'_>, m: &MatchCases) -> bool {
    let Some(pattern) = case
        .named_children()
        .find(|c| crate::kinds::kind_of(c) == m.pattern_kind)
    else {
        return false;
    };
    if pattern.child_count() != 1 {
        return false;
    }
    let Some(only) = pattern.child(0) else {
        return false;
    };
    if m.wildcard_leaves.contains(&crate::kinds::kind_of(only)) {
        return true;
    }
    crate::kinds::kind_of(only) == m.capture_kind && only.named_child_count() == 1
}

#[cfg(test)]
mod tests {
    //! One small case per counting rule per language; expected values follow
    //! the tools' rules in `RULES.md` (the disputed-constructs table where it
    //! gives the paper tool's value).
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::backend::cyclomatic;
    use crate::Profile;
    use codethread_lang::{index_functions, parse, Lang};

    /// CC of every function named `name` in `src` (source order).
    pub(crate) fn cc(lang: Lang, src: &str, name: &str) -> Vec<Option<u32>> {
        let file = parse(lang, src.as_bytes().to_vec()).unwrap();
        let funcs = index_functions(&file);
        let flat = codethread_lang::FlatTree::new(&file);
        let mut out = Vec::new();
        for f in funcs.iter().filter(|f| f.name == name) {
            let node = flat.function_node(f).expect("function node");
            let ctx = FnCtx {
                file: &file,
                func: f,
                node,
                index: &funcs,
                profile: Profile::Paper,
            };
            out.push(cyclomatic(&ctx));
        }
        assert!(!out.is_empty(), "no function {name}");
        out
    }

    fn one(lang: Lang, src: &str, name: &str) -> u32 {
        cc(lang, src, name)[0].unwrap()
    }

    // ---- Python: radon -------------------------------------------------
    #[test]
    fn radon_straight_line_is_one() {
        assert_eq!(
            one(Lang::Python, "def f():\n    x = 1\n    return x\n", "f"),
            1
        );
    }

    #[test]
    fn radon_if_elif_ternary() {
        let src = "def f(a, b):\n    if a:\n        x = 1 if b else 2\n    elif b:\n        pass\n    else:\n        pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 4);
    }

    #[test]
    fn radon_boolean_operators_count_per_operator() {
        assert_eq!(
            one(
                Lang::Python,
                "def f():\n    return a and b and c or d\n",
                "f"
            ),
            4
        );
        assert_eq!(
            one(Lang::Python, "def f():\n    g = lambda: a or b\n", "f"),
            2
        );
    }

    #[test]
    fn radon_loop_else_counts_twice() {
        // Disputed-constructs table, "Python loop with else": radon 6.
        let src = "def f(xs):\n    for x in xs:\n        if x:\n            break\n    else:\n        pass\n    while xs:\n        xs.pop()\n    else:\n        pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 6);
    }

    #[test]
    fn radon_try_two_excepts_else_finally() {
        // Table: radon 4.
        let src = "def f():\n    try:\n        g()\n    except A:\n        pass\n    except B:\n        pass\n    else:\n        pass\n    finally:\n        pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 4);
    }

    #[test]
    fn radon_ignores_except_star_handlers_and_their_else() {
        // radon counts handlers and `else` of `Try` only; `except*` is `TryStar`.
        let src = "def f(a):\n    try:\n        pass\n    except* E:\n        pass\n    else:\n        if a:\n            pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 2);
    }

    #[test]
    fn radon_with_adds_nothing_assert_adds_one_and_is_not_entered() {
        // Table: `with` + `assert` → radon 2.
        let src = "def f(p):\n    with open(p) as fh:\n        assert fh\n";
        assert_eq!(one(Lang::Python, src, "f"), 2);
        // radon's visit_Assert does not visit the assertion's expressions.
        assert_eq!(
            one(
                Lang::Python,
                "def f():\n    assert a and [x for x in y if x]\n",
                "f"
            ),
            2
        );
    }

    #[test]
    fn radon_match_cases_minus_wildcard() {
        // Table: match with `case _` (3 cases) → radon 3.
        let src = "def f(x):\n    match x:\n        case 1:\n            pass\n        case 2:\n            pass\n        case _:\n            pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 3);
        // A bare capture is irrefutable too; guards add nothing.
        let src = "def f(x):\n    match x:\n        case 1:\n            pass\n        case y if y:\n            pass\n";
        assert_eq!(one(Lang::Python, src, "f"), 2);
    }

    #[test]
    fn radon_comprehensions_count_generators_and_ifs() {
        let src = "def f(y):\n    return [z for x in y if x for z in x]\n";
        assert_eq!(one(Lang::Python, src, "f"), 4);
    }

    #[test]
    fn radon_nested_defs_classes_and_signature_are_not_counted() {
        let src = "def f(x=a if b else c):\n    def g():\n        if a:\n            pass\n    class K:\n        def m(self):\n            if b:\n                pass\n    return g\n";
        assert_eq!(one(Lang::Python, src, "f"), 1);
        assert_eq!(one(Lang::Python, src, "g"), 2);
    }

    #[test]
    fn radon_reports_no_methods_of_nested_or_local_classes() {
        // radon's cc_visit lists the methods of module-level classes only.
        let src = "class A:\n    def m(self, x):\n        def inner():\n            return x or 1\n        return inner\n    class B:\n        def n(self, x):\n            if x:\n                return 1\n\ndef f():\n    class C:\n        def g(self):\n            return 1\n    return C\n";
        assert_eq!(cc(Lang::Python, src, "m"), vec![Some(1)]);
        assert_eq!(cc(Lang::Python, src, "inner"), vec![Some(2)]);
        assert_eq!(cc(Lang::Python, src, "n"), vec![None]);
        assert_eq!(cc(Lang::Python, src, "g"), vec![None]);
        assert_eq!(cc(Lang::Python, src, "f"), vec![Some(1)]);
    }

    // ---- Go: lizard (token based) ----------------------------------------
    #[test]
    fn lizard_counts_condition_tokens() {
        let src = "package p\nfunc f(a, b bool) {\n\tif a && b {\n\t} else if a || b {\n\t}\n\tswitch {\n\tcase a:\n\tcase b:\n\tdefault:\n\t}\n\tfor {\n\t}\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 8);
    }

    #[test]
    fn lizard_select_cases_and_strings() {
        let src = "package p\nfunc f(c chan int) {\n\tselect {\n\tcase <-c:\n\tcase c <- 1:\n\tdefault:\n\t}\n\ts := \"if && case\"\n\t_ = s // if\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 3);
    }

    #[test]
    fn lizard_func_literals_are_reported_alone() {
        let src = "package p\nfunc f() {\n\tg := func() {\n\t\tif a {\n\t\t}\n\t}\n\t_ = g\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 1);
        assert_eq!(cc(Lang::Go, src, "<anonymous>")[0], Some(2));
    }

    #[test]
    fn lizard_body_starts_at_first_brace_not_after_interface() {
        // `struct{}` in the result type ends lizard's function early.
        let src = "package p\nfunc f() <-chan struct{} {\n\tif a {\n\t\treturn nil\n\t}\n\treturn nil\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 1);
        let src = "package p\nfunc f() interface{} {\n\tif a {\n\t\treturn 1\n\t}\n\treturn 2\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 2);
    }

    #[test]
    fn lizard_else_holding_if() {
        // Table, "Go else { if … }": lizard 4.
        let src = "package p\nfunc f(a, b, c bool) {\n\tif a {\n\t} else {\n\t\tif b {\n\t\t\tif c {\n\t\t\t}\n\t\t}\n\t}\n}\n";
        assert_eq!(one(Lang::Go, src, "f"), 4);
    }

    // ---- Rust: rust-code-analysis 0.0.25 ---------------------------------
    #[test]
    fn rca_rust_match_arms_and_guards() {
        // Table: 3-arm match with a guard → RCA 5.
        let src = "fn f(x: i32, y: bool) -> i32 {\n    match x {\n        1 if y => 1,\n        2 => 2,\n        _ => 3,\n    }\n}\n";
        assert_eq!(one(Lang::Rust, src, "f"), 5);
    }

    #[test]
    fn rca_rust_question_marks_and_loops() {
        let src = "fn f<T: ?Sized>(x: &T) -> R {\n    let a = g()?;\n    loop { break }\n    while a {}\n    for y in z {}\n    h()?\n}\n";
        assert_eq!(one(Lang::Rust, src, "f"), 7);
    }

    #[test]
    fn rca_rust_macro_operators_are_not_counted_keywords_are() {
        let src = "fn f() {\n    assert!(a && b || x?);\n    println!(\"{}\", if c { 1 } else { 2 });\n}\n";
        assert_eq!(one(Lang::Rust, src, "f"), 2);
    }

    #[test]
    fn rca_rust_sums_include_closures() {
        let src = "fn f() {\n    let c = |x: bool| if x { 1 } else { 2 };\n}\n";
        assert_eq!(one(Lang::Rust, src, "f"), 3);
        assert_eq!(cc(Lang::Rust, src, "<anonymous>")[0], Some(2));
    }

    // ---- JavaScript / TypeScript: rust-code-analysis 0.0.25 --------------
    #[test]
    fn rca_js_decisions() {
        let src = "function f(a = 1) {\n  if (a && b || c ?? d) {}\n  for (;;) {}\n  for (const x of y) {}\n  while (a) {}\n  do {} while (b);\n  switch (a) { case 1: break; default: }\n  try {} catch (e) {}\n  a &&= b; a?.b;\n  return a ? 1 : 2;\n}\n";
        assert_eq!(one(Lang::JavaScript, src, "f"), 11);
        assert_eq!(one(Lang::TypeScript, src, "f"), 11);
    }

    #[test]
    fn rca_js_sums_include_callbacks() {
        let src = "function f(x) {\n  return x.map((y) => (y ? 1 : 2));\n}\n";
        assert_eq!(one(Lang::JavaScript, src, "f"), 3);
        assert_eq!(cc(Lang::JavaScript, src, "<anonymous>")[0], Some(2));
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 10_000;
        let mut src = String::from("function f(a) {\n");
        for _ in 0..depth {
            src.push_str("if (a) {\n");
        }
        for _ in 0..depth {
            src.push('}');
        }
        src.push_str("\n}\n");
        let file = parse(Lang::JavaScript, src.into_bytes()).unwrap();
        let flat = codethread_lang::FlatTree::new(&file);
        let root = flat.root();
        let func = root.named_child(0).unwrap();
        let v = cyclomatic_with(
            &file,
            func,
            codethread_rules::paper::paper(Lang::JavaScript)
                .tree()
                .unwrap()
                .cyclomatic,
        );
        assert!(v > 1);
    }
}
