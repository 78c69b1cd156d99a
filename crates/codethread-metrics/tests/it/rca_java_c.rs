//! rust-code-analysis 0.0.25 rules for Java and C (`Profile::Paper`), one
//! small case per rule. Expected values are the tool's documented behaviour
//! (RULES.md of the shared reference set, "Java, C — rust-code-analysis
//! 0.0.25"); the parity test checks the same rules on gson and jq.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, parse_for, AnalyzeOptions, FunctionMetrics, Profile};

fn run(lang: Lang, src: &str) -> Vec<FunctionMetrics> {
    let name = if lang == Lang::Java { "A.java" } else { "a.c" };
    analyze_source(name, lang, src, &AnalyzeOptions::new(Profile::Paper))
        .unwrap()
        .functions
}

fn one(lang: Lang, src: &str) -> FunctionMetrics {
    let fs = run(lang, src);
    assert_eq!(fs.len(), 1, "{fs:#?}");
    fs.into_iter().next().unwrap()
}

fn n1_big(f: &FunctionMetrics) -> (u64, u64) {
    let h = f.halstead.unwrap();
    (h.n1, h.big_n1)
}

#[test]
fn c_is_read_with_the_cpp_grammar_and_stays_c() {
    let file = parse_for(Profile::Paper, Lang::C, &b"int f(void) { return 0; }\n"[..]).unwrap();
    assert_eq!((file.lang, file.grammar), (Lang::C, Lang::Cpp));
    let f = one(Lang::C, "static int\nf(void)\n{\n  return 0;\n}\n");
    // `line` is the first declaration specifier's line.
    assert_eq!((f.name.as_str(), f.line, f.end_line), ("f", 1, 5));
    assert_eq!(f.language, Lang::C);
    assert_eq!(f.kind, codethread_metrics::RecordKind::Function);
}

#[test]
fn c_names_come_from_the_declarator() {
    let f = one(Lang::C, "static char **g(int a) { return 0; }\n");
    assert_eq!(f.name, "g");
}

#[test]
fn c_cyclomatic_tokens() {
    // if, for, while (also of do-while), case, ternary, && and ||; default,
    // goto and do add nothing.
    let f = one(
        Lang::C,
        "int f(int a) {\n  if (a && a || a) a = a ? 1 : 2;\n  for (;;) {}\n  do {} while (a);\n  \
         switch (a) { case 1: break; default: break; }\n  goto L;\n L: return 0;\n}\n",
    );
    assert_eq!(f.cyclomatic, Some(1 + 1 + 2 + 1 + 1 + 1 + 1));
}

#[test]
fn c_struct_specifiers_are_spaces() {
    // Every struct specifier is a space of the tool (also a type reference),
    // and a nested space adds its own base 1 to the sum.
    let f = one(Lang::C, "struct S *f(struct S *p) { return p; }\n");
    assert_eq!(f.cyclomatic, Some(3));
}

#[test]
fn c_cognitive_boolean_sequence_resets_only_at_structures() {
    let f = one(
        Lang::C,
        "void f(int a, int x, int y) { x = a && a; y = a && a; }\n",
    );
    assert_eq!(f.cognitive, Some(1));
    let f = one(
        Lang::C,
        "void f(int a, int x, int y) { x = a && a; if (a) {} y = a && a; }\n",
    );
    assert_eq!(f.cognitive, Some(3));
    // A unary expression becomes the sequence's operator: both `&&` differ.
    let f = one(
        Lang::C,
        "void f(int a, int x, int y) { y = !a; x = a && a; y = a && a; }\n",
    );
    assert_eq!(f.cognitive, Some(2));
}

#[test]
fn c_cognitive_structures() {
    // if +1, else-if through its else +1, nested for +2, goto +1; the
    // ternary adds nothing.
    let f = one(
        Lang::C,
        "void f(int a) {\n  if (a) { for (;;) {} } else if (a) {}\n  a = a ? 1 : 2;\n  goto L;\n L: ;\n}\n",
    );
    assert_eq!(f.cognitive, Some(1 + 2 + 1 + 1));
}

#[test]
fn c_lloc_statements() {
    // Labeled statement and goto count 2 each (with their label
    // identifier); do-while itself 0; a declaration in a for header 0.
    let f = one(
        Lang::C,
        "void f(int a) {\n  int b = 1;\n L: a++;\n  goto L;\n  do { a--; } while (a);\n  \
         for (int i = 0; i < a; i++) {}\n  switch (a) { case 1: break; default: ; }\n}\n",
    );
    // decl 1; `L: a++;` 2 + 1; goto 2; `a--;` 1; for 1; switch 1 + case 1 +
    // break 1 + default 1 + `;` 1.
    assert_eq!(f.lloc, Some(1 + 3 + 2 + 1 + 1 + 5));
}

#[test]
fn c_halstead_minus_assign_is_not_an_operator() {
    let plus = one(Lang::C, "void f(int x) { x += 1; }\n");
    let minus = one(Lang::C, "void f(int x) { x -= 1; }\n");
    assert_eq!(n1_big(&plus).1, n1_big(&minus).1 + 1);
    // Character literals are not operands.
    let ch = one(Lang::C, "void f(int x) { x = 'a'; }\n");
    let num = one(Lang::C, "void f(int x) { x = 97; }\n");
    let (a, b) = (ch.halstead.unwrap(), num.halstead.unwrap());
    assert_eq!(a.big_n2 + 1, b.big_n2);
}

#[test]
fn c_halstead_tool_grammar_primitive_types() {
    // tree-sitter-mozcpp lexes HANDLE as a primitive type: `int` and
    // `HANDLE` are one operator, and HANDLE is no operand.
    let f = one(Lang::C, "int f(void) { HANDLE h; return 0; }\n");
    let g = one(Lang::C, "int f(void) { int h; return 0; }\n");
    assert_eq!(f.halstead.unwrap(), g.halstead.unwrap());
}

#[test]
fn java_function_spaces() {
    let src = "interface I {\n  int f();\n}\nclass A {\n  @Override\n  public void m() {\n    \
               Runnable r = new Runnable() {\n      public void run() { if (x) {} }\n    };\n    \
               Runnable q = () -> { if (y) {} };\n  }\n}\n";
    let fs = run(Lang::Java, src);
    let names: Vec<(&str, usize)> = fs.iter().map(|f| (f.name.as_str(), f.line)).collect();
    // The bodiless interface method is a space; the lambda is not; the
    // anonymous class's method is, nested in `m`; `m` starts at its
    // annotation.
    assert_eq!(names, [("f", 2), ("m", 5), ("run", 8)]);
    assert_eq!((fs[0].cyclomatic, fs[0].lloc), (Some(1), Some(0)));
    // m: 1 + run's space 1 + run's if + the lambda's if.
    assert_eq!(fs[1].cyclomatic, Some(4));
    assert_eq!(fs[2].cyclomatic, Some(2));
    assert_eq!(fs[2].parent, Some(1));
    // m: two declarations, run's if, the lambda's if.
    assert_eq!((fs[1].lloc, fs[2].lloc), (Some(4), Some(1)));
    // rust-code-analysis 0.0.25 has no Java cognitive rules.
    assert!(fs.iter().all(|f| f.cognitive == Some(0)));
}

#[test]
fn java_halstead_operators_are_node_kinds() {
    // `int` and `long` are the one operator `integral_type`.
    let a = one(
        Lang::Java,
        "class A { void f() { int a = 1; long b = 2; } }\n",
    );
    let b = one(
        Lang::Java,
        "class A { void f() { int a = 1; int b = 2; } }\n",
    );
    assert_eq!(n1_big(&a), n1_big(&b));
    // Every method invocation is an occurrence of one operator, whatever
    // the method.
    let c = one(Lang::Java, "class A { void f() { g(); h(); } }\n");
    let d = one(Lang::Java, "class A { void f() { g(); g(); } }\n");
    assert_eq!(n1_big(&c), n1_big(&d));
    // `true`/`false` are neither operators nor operands.
    let e = one(Lang::Java, "class A { void f() { x = true; } }\n");
    let h = e.halstead.unwrap();
    assert_eq!(h.big_n2, 2); // f, x
}

#[test]
fn java_lloc_statements() {
    // A for header's declaration is not counted; try-with-resources,
    // synchronized, labeled statements and blocks count 0.
    let f = one(
        Lang::Java,
        "class A { void f() {\n  for (int i = 0; i < 2; i++) { a(); }\n  \
         try (R r = r()) { b(); }\n  synchronized (this) { c(); }\n  L: while (x) { break L; }\n} }\n",
    );
    // for 1 + a() 1; b() 1 (+ the resource 0); c() 1; while 1 + break 1.
    assert_eq!(f.lloc, Some(2 + 1 + 1 + 2));
}

#[test]
fn c_halstead_tool_grammar_words() {
    // tree-sitter-mozcpp's alone_macro: an upper-case word alone on its
    // line has no Halstead class (today's grammar reads it as a type).
    let a = one(Lang::C, "void f(int x) {\n  SOME_MACRO\n  x = 1;\n}\n");
    let b = one(Lang::C, "void f(int x) {\n  x = 1;\n}\n");
    assert_eq!(a.halstead.unwrap(), b.halstead.unwrap());
    // On the same line as code it is a type name (an operand) for both.
    let c = one(Lang::C, "void f(int x) {\n  SOME_TYPE y = 1;\n}\n");
    assert_eq!(c.halstead.unwrap().big_n2, b.halstead.unwrap().big_n2 + 1);
    // C++'s alternative token `not` is the identifier `not` in C code.
    let d = one(
        Lang::C,
        "void f(void) {\n  int not;\n  not = 1;\n  if (not) {}\n}\n",
    );
    let e = one(
        Lang::C,
        "void f(void) {\n  int yes;\n  yes = 1;\n  if (yes) {}\n}\n",
    );
    assert_eq!(d.halstead.unwrap(), e.halstead.unwrap());
}

#[test]
fn java_halstead_tool_grammar_rereads() {
    // tree-sitter-java 0.20.0 read a qualified class literal as field
    // accesses: `a`, `B` and `class` are operands, the literal is not.
    let q = one(Lang::Java, "class A { void f() { g(a.B.class); } }\n");
    let h = q.halstead.unwrap();
    // f, g, a, B, class
    assert_eq!((h.big_n2, h.n2), (5, 5));
    // `Time.class` stays a class literal: one operand, `Time` an operator.
    let s = one(Lang::Java, "class A { void f() { g(Time.class); } }\n");
    let h = s.halstead.unwrap();
    assert_eq!((h.big_n2, h.n2), (3, 3));
    // `a.B<C> x = e();` was the expression `(a.B < C) > (x = e())`: its
    // type names are operands; a modifier keeps the declaration.
    let e = one(Lang::Java, "class A { void f() { a.B<C> x = e(); } }\n");
    let d = one(
        Lang::Java,
        "class A { void f() { final a.B<C> x = e(); } }\n",
    );
    let (he, hd) = (e.halstead.unwrap(), d.halstead.unwrap());
    // f, a, B, C, x, e
    assert_eq!(he.big_n2, 6);
    // f, x, e; the three type names are the one `type_identifier` operator
    // (plus `final`).
    assert_eq!(hd.big_n2, 3);
    assert_eq!(hd.big_n1, he.big_n1 + 3 + 1);
}

#[test]
fn c_tree_from_the_c_grammar_is_measured_as_the_tool_reads_it() {
    // analyze_parsed re-reads a C tree parsed with the C grammar with the
    // C++ grammar the paper profile's tool uses: same records either way.
    let src = "int f(int a) {\n  HANDLE h;\n  if (a && a) return 1;\n  return 0;\n}\n";
    let own = codethread_lang::parse(Lang::C, src.as_bytes().to_vec()).unwrap();
    assert_eq!(own.grammar, Lang::C);
    let a = codethread_metrics::analyze_parsed("a.c", &own, Profile::Paper);
    let b = analyze_source("a.c", Lang::C, src, &AnalyzeOptions::new(Profile::Paper)).unwrap();
    assert_eq!(a.functions, b.functions);
}

#[test]
fn c_alignas_was_a_call_statement_for_the_tool() {
    // The tool's grammar had no `alignas`: `alignas(32) T out;` was the call
    // statement `alignas(32)` (its `;` missing, but counted) and `T out;`.
    let a = one(
        Lang::C,
        "void f(void) {\n  alignas(32) T out;\n  g(&out);\n}\n",
    );
    let b = one(Lang::C, "void f(void) {\n  T out;\n  g(&out);\n}\n");
    let (ha, hb) = (a.halstead.unwrap(), b.halstead.unwrap());
    // `(` and `;` more operators; `alignas` and `32` more operands.
    assert_eq!((ha.n1, ha.big_n1), (hb.n1, hb.big_n1 + 2));
    assert_eq!((ha.n2, ha.big_n2), (hb.n2 + 2, hb.big_n2 + 2));
    assert_eq!((a.lloc, b.lloc), (Some(3), Some(2)));
}
