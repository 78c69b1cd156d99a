//! The worked examples of G. Ann Campbell, "Cognitive Complexity"
//! (SonarSource, v1.5, 2021), transcribed from the whitepaper's body
//! (Java) and its Appendix C, under the canonical profile: each gives the
//! published total.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, AnalyzeOptions, Profile};

fn cog(lang: Lang, src: &str, name: &str) -> (u32, u32) {
    let file = analyze_source("t", lang, src, &AnalyzeOptions::new(Profile::Canonical)).unwrap();
    let f = file
        .functions
        .iter()
        .find(|f| f.name == name || f.name.starts_with(&format!("{name}(")))
        .unwrap_or_else(|| panic!("no function {name}: {:?}", file.functions));
    (f.cognitive.unwrap(), f.cyclomatic.unwrap())
}

#[test]
fn sum_of_primes_is_7_cyclomatic_4() {
    let src = "class A {\n  int sumOfPrimes(int max) {\n    int total = 0;\n    OUT: for (int i = 1; i <= max; ++i) {\n      for (int j = 2; j < i; ++j) {\n        if (i % j == 0) {\n          continue OUT;\n        }\n      }\n      total += i;\n    }\n    return total;\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "sumOfPrimes"), (7, 4));
}

#[test]
fn get_words_is_1_cyclomatic_4() {
    let src = "class A {\n  String getWords(int number) {\n    switch (number) {\n      case 1:\n        return \"one\";\n      case 2:\n        return \"a couple\";\n      case 3:\n        return \"a few\";\n      default:\n        return \"lots\";\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "getWords"), (1, 4));
}

#[test]
fn nesting_under_try_and_catch_is_9() {
    let src = "class A {\n  void myMethod() {\n    try {\n      if (condition1) {\n        for (int i = 0; i < 10; i++) {\n          while (condition2) { }\n        }\n      }\n    } catch (ExcepType1 | ExcepType2 e) {\n      if (condition2) { }\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "myMethod").0, 9);
}

#[test]
fn a_lambda_raises_nesting_without_increment_2() {
    let src = "class A {\n  void myMethod2() {\n    Runnable r = () -> {\n      if (condition1) { }\n    };\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "myMethod2").0, 2);
}

#[test]
fn if_else_if_else_is_hybrid_3() {
    // `if` +1, `else if` +1, `else` +1: no nesting increment for the hybrids.
    let src = "class A {\n  void m() {\n    if (a) {\n      x();\n    } else if (b) {\n      y();\n    } else {\n      z();\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m"), (3, 3));
}

#[test]
fn nested_if_inside_else_gets_nesting() {
    // `if` +1, `else` +1, nested `if` +2.
    let src =
        "class A {\n  void m() {\n    if (a) {\n    } else {\n      if (b) { }\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m").0, 4);
}

#[test]
fn sequences_of_like_boolean_operators() {
    // The whitepaper: `if (a && b && c || d || e && f)` = if +1, three sequences +3.
    let src = "class A {\n  void m() {\n    if (a && b && c || d || e && f) { }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m"), (4, 7));
    // `a && !(b && c)`: two sequences.
    let src = "class A {\n  void m() {\n    if (a && !(b && c)) { }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m").0, 3);
    // A plain sequence is +1 however long.
    let src = "class A {\n  boolean m() {\n    return a && b && c && d;\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m"), (1, 4));
}

#[test]
fn recursion_adds_one_per_method() {
    let src = "class A {\n  int fact(int n) {\n    if (n <= 1) {\n      return 1;\n    }\n    return n * fact(n - 1);\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "fact"), (2, 2));
    // "a fundamental increment for each method in a recursion cycle": two
    // self-calls are one method, +1.
    let src = "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n";
    assert_eq!(cog(Lang::Python, src, "fib"), (2, 2));
    let src = "package p\nfunc (t *T) walk(n int) int {\n\treturn t.walk(n-1) + t.walk(n-2)\n}\n";
    assert_eq!(cog(Lang::Go, src, "walk").0, 1);
}

#[test]
fn indirect_recursion_adds_one_to_each_method_of_the_cycle() {
    // isEven -> isOdd -> isEven: both +1; a function outside the cycle
    // that calls into it gets nothing.
    let src = "class A {\n  boolean isEven(int n) { return n == 0 || isOdd(n - 1); }\n  boolean isOdd(int n) { return n != 0 && isEven(n - 1); }\n  boolean check(int n) { return isEven(n); }\n}\n";
    assert_eq!(cog(Lang::Java, src, "isEven").0, 2);
    assert_eq!(cog(Lang::Java, src, "isOdd").0, 2);
    assert_eq!(cog(Lang::Java, src, "check").0, 0);
    // Three methods through `self`, in Python.
    let src = "class P:\n    def a(self):\n        return self.b()\n\n    def b(self):\n        return self.c()\n\n    def c(self):\n        return self.a()\n\n    def d(self):\n        return self.a()\n";
    for (name, want) in [("a", 1), ("b", 1), ("c", 1), ("d", 0)] {
        assert_eq!(cog(Lang::Python, src, name).0, want, "{name}");
    }
    // A call through another object is not resolved.
    let src = "class T {\n  depth() { return this.left.depth(); }\n}\n";
    assert_eq!(cog(Lang::JavaScript, src, "depth").0, 0);
}

fn record(lang: Lang, src: &str, name: &str) -> codethread_metrics::FunctionMetrics {
    let file = analyze_source("t", lang, src, &AnalyzeOptions::new(Profile::Canonical)).unwrap();
    file.functions
        .into_iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

#[test]
fn appendix_a_python_decorator_is_1() {
    // "a function may contain only a nested function and a return
    // statement": the nested function is counted at nesting 0.
    let src = "def a_decorator(a, b):\n    def inner(func):\n        if condition:\n            print(b)\n        func()\n    return inner\n";
    assert_eq!(cog(Lang::Python, src, "a_decorator").0, 1);
    let inner = record(Lang::Python, src, "inner");
    assert_eq!(inner.cognitive, Some(1));
    assert_eq!(inner.nested_in.as_deref(), Some("t::a_decorator"));
    let file = analyze_source(
        "t",
        Lang::Python,
        src,
        &AnalyzeOptions::new(Profile::Canonical),
    )
    .unwrap();
    // The nested record is not counted twice in the file total.
    assert_eq!(file.totals.cognitive, Some(1));
    // Not a decorator (a statement besides the def and the return): the
    // nested function is one level deeper.
    let src = "def outer(a):\n    x = 1\n    def inner(func):\n        if condition:\n            print(a)\n    return inner\n";
    assert_eq!(cog(Lang::Python, src, "outer").0, 2);
    assert_eq!(record(Lang::Python, src, "inner").cognitive, Some(1));
}

#[test]
fn appendix_a_javascript_declarative_and_non_declarative_functions() {
    // Declarative: only declarations at the top level, the nested function
    // is not nested one level deeper (if +1).
    let src = "function ns() {\n  var foo;\n  function myFun() {\n    if (a) {\n      x();\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::JavaScript, src, "ns").0, 1);
    // Non-declarative: a structure at the top level; the nested function
    // is at nesting 1 (if +1, nested if +2).
    let src = "function ns() {\n  var foo;\n  if (c) {\n    y();\n  }\n  function myFun() {\n    if (a) {\n      x();\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::JavaScript, src, "ns").0, 3);
    assert_eq!(record(Lang::JavaScript, src, "myFun").cognitive, Some(1));
    let file = analyze_source(
        "t",
        Lang::JavaScript,
        src,
        &AnalyzeOptions::new(Profile::Canonical),
    )
    .unwrap();
    assert_eq!(file.totals.cognitive, Some(3));
}

#[test]
fn appendix_a_javascript_functions_bound_in_a_declarative_function() {
    // The whitepaper's own shape: an outer function that declares a
    // variable and binds a function to a member; the bound function's
    // `if` is at nesting 0 (+1).
    for lang in [Lang::JavaScript, Lang::TypeScript] {
        let src = "function Obj() {\n  var foo;\n  bar.myFun = function (a) {\n    if (a) {\n      x();\n    }\n  };\n}\n";
        assert_eq!(cog(lang, src, "Obj").0, 1, "{lang:?}");
        // Methods bound through `this` and through `const`, and an arrow.
        let src = "function Obj() {\n  this.a = function () {\n    if (p) { x(); }\n  };\n  const b = () => {\n    while (q) { y(); }\n  };\n  let c = 1, d = function* () { if (r) { yield 1; } };\n}\n";
        assert_eq!(cog(lang, src, "Obj").0, 3, "{lang:?}");
        // A structure at the top level: not declarative, the bound
        // function is one level deeper (if +1, nested if +2).
        let src = "function Obj() {\n  if (c) { y(); }\n  this.a = function () {\n    if (p) { x(); }\n  };\n}\n";
        assert_eq!(cog(lang, src, "Obj").0, 3, "{lang:?}");
        // No function at the top level: nothing to exempt; the callback's
        // `if` is one level deeper.
        let src =
            "function f() {\n  var x = 1;\n  g(function () {\n    if (p) { x(); }\n  });\n}\n";
        assert_eq!(cog(lang, src, "f").0, 2, "{lang:?}");
    }
}

#[test]
fn nested_functions_count_one_level_deeper_where_they_are_defined() {
    // Rust: `fn inner` inside a loop of `outer`: loop +1, inner's `if` at
    // nesting 2 (loop + function) = +3.
    let src = "fn outer(xs: &[i32]) {\n    for x in xs {\n        fn inner(y: i32) {\n            if y > 0 {\n                g(y);\n            }\n        }\n        inner(*x);\n    }\n}\n";
    assert_eq!(cog(Lang::Rust, src, "outer").0, 4);
    assert_eq!(record(Lang::Rust, src, "inner").cognitive, Some(1));
    // A nested function that recurses carries its +1 into the outer one.
    let src = "def outer(n):\n    x = 0\n    def walk(k):\n        return walk(k - 1)\n    return walk(n)\n";
    assert_eq!(cog(Lang::Python, src, "outer").0, 1);
}

#[test]
fn recursion_through_the_receiver_counts() {
    // Go names its receiver: `t.depth()` inside `(t *T) depth` is recursion,
    // as `self.depth()` (Python, Rust) and `this.depth()` (Java, JS) are.
    let src = "package p\nfunc (t *T) depth(n int) int {\n\tif n == 0 {\n\t\treturn 0\n\t}\n\treturn 1 + t.depth(n-1)\n}\n";
    assert_eq!(cog(Lang::Go, src, "depth"), (2, 2));
    let src = "class T:\n    def depth(self, n):\n        if n == 0:\n            return 0\n        return 1 + self.depth(n - 1)\n";
    assert_eq!(cog(Lang::Python, src, "depth"), (2, 2));
    let src = "class T {\n  depth(n) {\n    if (n === 0) {\n      return 0;\n    }\n    return 1 + this.depth(n - 1);\n  }\n}\n";
    assert_eq!(cog(Lang::JavaScript, src, "depth"), (2, 2));
}

#[test]
fn ternary_is_structural_with_nesting() {
    let src = "class A {\n  int m(int a) {\n    if (a > 0) {\n      return a > 1 ? 1 : 2;\n    }\n    return 0;\n  }\n}\n";
    // `if` +1, ternary +2 (nesting 1).
    assert_eq!(cog(Lang::Java, src, "m"), (3, 3));
}

#[test]
fn try_finally_and_early_return_add_nothing() {
    let src = "class A {\n  int m() {\n    try {\n      return 1;\n    } finally {\n      g();\n    }\n  }\n}\n";
    assert_eq!(cog(Lang::Java, src, "m"), (0, 1));
}

#[test]
fn labelled_jumps_and_goto_add_one() {
    let src = "int f(int a) {\n  if (a) {\n    goto out;\n  }\nout:\n  return 0;\n}\n";
    assert_eq!(cog(Lang::C, src, "f"), (2, 2));
}

// ---- Appendix C ------------------------------------------------------------

#[test]
fn appendix_c_add_version_is_35() {
    // Appendix C, `addVersion` (Java): loops, try/catch nesting, a
    // `synchronized` block that adds no nesting, `&&` sequences.
    let src = r#"class A {
  private void addVersion(final Entry entry, final Transaction txn)
      throws PersistitInterruptedException, RollbackException {
    final TransactionIndex ti = _persistit.getTransactionIndex();
    while (true) {
      try {
        synchronized (this) {
          if (frst != null) {
            if (frst.getVersion() > entry.getVersion()) {
              throw new RollbackException();
            }
            if (txn.isActive()) {
              for (Entry e = frst; e != null; e = e.getPrevious()) {
                final long version = e.getVersion();
                final long depends = ti.wwDependency(version, txn.getTransactionStatus(), 0);
                if (depends == TIMED_OUT) {
                  throw new WWRetryException(version);
                }
                if (depends != 0 && depends != ABORTED) {
                  throw new RollbackException();
                }
              }
            }
          }
          entry.setPrevious(frst);
          frst = entry;
          break;
        }
      } catch (final WWRetryException re) {
        try {
          final long depends = _persistit.getTransactionIndex()
              .wwDependency(re.getVersionHandle(), txn.getTransactionStatus(), SharedResource.DEFAULT_MAX_WAIT_TIME);
          if (depends != 0 && depends != ABORTED) {
            throw new RollbackException();
          }
        } catch (final InterruptedException ie) {
          throw new PersistitInterruptedException(ie);
        }
      } catch (final InterruptedException ie) {
        throw new PersistitInterruptedException(ie);
      }
    }
  }
}
"#;
    assert_eq!(cog(Lang::Java, src, "addVersion").0, 35);
}

#[test]
fn appendix_c_overridden_symbol_from_is_19() {
    // Appendix C, `overriddenSymbolFrom` (Java): the final ternary is +1 at
    // nesting 0, `&& !x` is one sequence.
    let src = r#"class A {
  @Nullable
  private MethodJavaSymbol overriddenSymbolFrom(ClassJavaType classType) {
    if (classType.isUnknown()) {
      return Symbols.unknownMethodSymbol;
    }
    boolean unknownFound = false;
    List<JavaSymbol> symbols = classType.getSymbol().members().lookup(name);
    for (JavaSymbol overrideSymbol : symbols) {
      if (overrideSymbol.isKind(JavaSymbol.MTH) && !overrideSymbol.isStatic()) {
        MethodJavaSymbol methodJavaSymbol = (MethodJavaSymbol) overrideSymbol;
        if (canOverride(methodJavaSymbol)) {
          Boolean overriding = checkOverridingParameters(methodJavaSymbol, classType);
          if (overriding == null) {
            if (!unknownFound) {
              unknownFound = true;
            }
          } else if (overriding) {
            return methodJavaSymbol;
          }
        }
      }
    }
    if (unknownFound) {
      return Symbols.unknownMethodSymbol;
    }
    return null;
  }
}
"#;
    // The whitepaper's version ends in `return unknownFound ? unknown : null`
    // (+1, nesting 0); written as an `if` it is the same +1.
    assert_eq!(cog(Lang::Java, src, "overriddenSymbolFrom").0, 19);
    let ternary = src.replace(
        "    if (unknownFound) {\n      return Symbols.unknownMethodSymbol;\n    }\n    return null;\n",
        "    return unknownFound ? Symbols.unknownMethodSymbol : null;\n",
    );
    assert_eq!(cog(Lang::Java, &ternary, "overriddenSymbolFrom").0, 19);
}

#[test]
fn appendix_c_to_regexp_is_20() {
    // Appendix C, `toRegexp` (JavaScript): an else-if chain with nested
    // ifs, `else` branches and `&&`/`||` sequences.
    let src = r#"function toRegexp(antPattern, directorySeparator) {
  const escapedDirectorySeparator = '\\' + directorySeparator;
  const sb = ['^'];
  let i = antPattern.startsWith('/') || antPattern.startsWith('\\') ? 1 : 0;
  while (i < antPattern.length) {
    const ch = antPattern.charAt(i);
    if (SPECIAL_CHARS.indexOf(ch) !== -1) {
      sb.push('\\', ch);
    } else if (ch === '*') {
      if (i + 1 < antPattern.length && antPattern.charAt(i + 1) === '*') {
        if (i + 2 < antPattern.length && isSlash(antPattern.charAt(i + 2))) {
          sb.push('(?:.*', escapedDirectorySeparator, '|)');
          i += 2;
        } else {
          sb.push('.*');
          i += 1;
        }
      } else {
        sb.push('[^', escapedDirectorySeparator, ']*?');
      }
    } else if (ch === '?') {
      sb.push('[^', escapedDirectorySeparator, ']');
    } else if (isSlash(ch)) {
      sb.push(escapedDirectorySeparator);
    } else {
      sb.push(ch);
    }
    i++;
  }
  sb.push('$');
  return sb.join('');
}
"#;
    assert_eq!(cog(Lang::JavaScript, src, "toRegexp").0, 20);
}

#[test]
fn interpolated_code_counts_its_decisions_and_the_literal_stays_one_operand() {
    // A conditional inside an f-string or a Ruby `#{…}` is a decision
    // point and a structural increment; the literal is still one Halstead
    // operand, and the interpolation holds no statement.
    let cases = [
        (
            Lang::Python,
            "def f(a, b):\n    return f\"{a if b else 0}\"\n",
            "def f(a, b):\n    return f\"{abcdefghijklm}\"\n",
        ),
        (
            Lang::Ruby,
            "def f(a, b)\n  return \"#{b ? a : 0}\"\nend\n",
            "def f(a, b)\n  return \"#{abcdefghijklm}\"\nend\n",
        ),
    ];
    for (lang, with, without) in cases {
        let w = record(lang, with, "f");
        let o = record(lang, without, "f");
        assert_eq!((w.cyclomatic, w.cognitive), (Some(2), Some(1)), "{lang:?}");
        assert_eq!((o.cyclomatic, o.cognitive), (Some(1), Some(0)), "{lang:?}");
        assert_eq!(w.halstead, o.halstead, "{lang:?}");
        assert_eq!((w.lloc, o.lloc), (Some(1), Some(1)), "{lang:?}");
    }
    // Nested interpolations: the inner conditional is one level deeper.
    let src = "def f(a, b)\n  \"#{a ? \"#{b ? 1 : 2}\" : 3}\"\nend\n";
    let r = record(Lang::Ruby, src, "f");
    assert_eq!((r.cyclomatic, r.cognitive), (Some(3), Some(3)));
    let src = "def f(a, b):\n    return f\"{f'{1 if b else 2}' if a else 3}\"\n";
    let r = record(Lang::Python, src, "f");
    assert_eq!((r.cyclomatic, r.cognitive), (Some(3), Some(3)));
}
