//! The lizard token reader on small constructs of RULES.md ("Java, C, C++,
//! Ruby, PHP — lizard 1.24.3"). Every expected (name, start, end, CCN) row was
//! produced by lizard 1.24.3 itself (`lizard.analyze_file.analyze_source_code`)
//! on the same text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::Lang;
use codethread_metrics::{analyze_source, AnalyzeOptions, Profile};

fn rows(lang: Lang, src: &str) -> Vec<(String, usize, usize, u32)> {
    let f = analyze_source("x", lang, src, &AnalyzeOptions::new(Profile::Paper)).unwrap();
    for r in &f.functions {
        assert_eq!(
            (r.cognitive, r.halstead, r.lloc),
            (None, None, None),
            "{r:?}"
        );
        assert_eq!(
            r.notes[0],
            "cognitive/halstead/lloc not reported: the paper used lizard CCN only for this language"
        );
        // A function lizard finds and the index does not has no target id,
        // and says so.
        assert_eq!(r.target_id.is_none(), r.notes.len() == 2, "{r:?}");
        assert!(
            r.notes[1..].iter().all(|n| n.starts_with("no target_id")),
            "{r:?}"
        );
    }
    assert_eq!(
        (f.totals.cognitive, f.totals.halstead_volume, f.totals.lloc),
        (None, None, None)
    );
    f.functions
        .iter()
        .map(|r| (r.name.clone(), r.line, r.end_line, r.cyclomatic.unwrap()))
        .collect()
}

fn own(v: &[(&str, usize, usize, u32)]) -> Vec<(String, usize, usize, u32)> {
    v.iter()
        .map(|(n, a, b, c)| (n.to_string(), *a, *b, *c))
        .collect()
}

/// Namespaces and classes in names, `operator ==`, `#ifdef`/`#elif` +1,
/// `auto&&` taken back, range-for, ternary; `T&&` and the initializer list in
/// the signature discarded; K&R parameters; lambdas at namespace scope not
/// reported, inside a function counted there; `case` +1, `default` 0.
#[test]
fn cpp_constructs() {
    let src = r##"namespace ns { namespace inner {
struct S {
  bool operator==(const S& o) const { return a && b; }
  void f(int x) {
#ifdef X
    if (x) {}
#elif Y
#endif
    auto&& r = x;
    int y = x > 0 ? 1 : 2;
    for (auto v : w) {}
  }
};
} }
int S::g(T&& t) noexcept : a(x ? 1 : 2) { return t && u; }
int kr(a, b) int a; int b; { while (a) { } return 0; }
auto lam = [](int x) { if (x) return 1; return 0; };
void h() {
  auto l = [&](int x) { if (x) {} };
  switch (x) { case 1: case 2: break; default: break; }
  try { } catch (...) { }
}
"##;
    assert_eq!(
        rows(Lang::Cpp, src),
        own(&[
            ("ns::inner::S::operator ==", 3, 3, 2),
            ("ns::inner::S::f", 4, 12, 6),
            ("S::g", 15, 15, 2),
            ("kr", 16, 16, 2),
            ("h", 18, 22, 5),
        ])
    );
}

/// `self.x`, modifiers, `||=`, `empty?` one token, `?` inside `#{…}`; a
/// `case … end` closes the def early; a line-initial `while` opens a level;
/// a def open at the end of the file is dropped.
#[test]
fn ruby_constructs() {
    let src = r##"class A
  def self.x(a, b = 1)
    return 1 if a
    a ||= b
    v = [1].empty? ? 2 : 3
    "#{a ? 1 : 2}"
  end

  def r
    case x
    when 1 then 2
    end
    unless y
      z
    end
  end

  def later
    while a
      b
    end
  end

  def open_at_eof
    1
"##;
    assert_eq!(
        rows(Lang::Ruby, src),
        own(&[("self.x", 2, 7, 5), ("r", 9, 12, 2), ("later", 18, 22, 2)])
    );
}

/// `?` of a nullable parameter counts (the function opens at `(`); `??`,
/// `?->`, `?:` add 0; `match` +1 whatever its arms; `Class::m`; a top-level
/// closure named after its variable; a heredoc is one token.
#[test]
fn php_constructs() {
    let src = r##"<?php
class C {
    public function __construct(?Foo $f = null, $x = 1) {
        $a = $b ?? $c;
        $d = $e?->f;
        $g = $h ?: 1;
        return match($x) { 1 => 'a', 2 => 'b', default => 'c' };
    }
    public function m($a) { if ($a && $b) { foreach ($a as $v) {} } elseif ($c) {} }
}
$cl = function ($x) { return $x ? 1 : 2; };
function top() { $s = <<<EOT
if ($x) ?
EOT;
  return 1; }
"##;
    assert_eq!(
        rows(Lang::Php, src),
        own(&[
            ("C::__construct", 3, 8, 3),
            ("C::m", 9, 9, 5),
            ("$cl", 11, 11, 2),
            ("top", 12, 15, 1),
        ])
    );
}

/// From a parsed file (the pipeline's path) the records are the same, and a
/// record takes the qualname of the index function it is (the join key of
/// target ids); measured without a tree it is lizard's name with `.`.
#[test]
fn qualnames_from_the_index_when_a_tree_exists() {
    for (lang, src, bare) in [
        (
            Lang::Ruby,
            "class A\n  def x(a)\n    a if a\n  end\nend\n",
            "x",
        ),
        (
            Lang::Php,
            "<?php\nclass C {\n  function m($a) { return $a ? 1 : 2; }\n}\n",
            "m",
        ),
    ] {
        let file = codethread_lang::parse(lang, src).unwrap();
        let parsed = codethread_metrics::analyze_parsed("x", &file, Profile::Paper);
        let plain = analyze_source("x", lang, src, &AnalyzeOptions::new(Profile::Paper)).unwrap();
        let key = |f: &codethread_metrics::FileMetrics| {
            f.functions
                .iter()
                .map(|r| (r.name.clone(), r.line, r.end_line, r.cyclomatic))
                .collect::<Vec<_>>()
        };
        assert_eq!(key(&parsed), key(&plain), "{lang:?}");
        let flat = codethread_lang::FlatTree::new(&file);
        let index = codethread_lang::index_flat(&file, &flat);
        let g = index.iter().find(|g| g.name == bare).unwrap();
        assert_eq!(parsed.functions.len(), 1, "{lang:?}");
        assert_eq!(parsed.functions[0].qualname, g.qualname, "{lang:?}");
        // Read from bytes too, the records are named from the index (the
        // file is parsed for that): class-qualified, with the target id.
        assert_eq!(plain.functions[0].qualname, g.qualname, "{lang:?}");
        assert_eq!(
            plain.functions[0].target_id,
            Some(g.target_id("x")),
            "{lang:?}"
        );
        assert_eq!(
            parsed.functions[0].target_id,
            Some(g.target_id("x")),
            "{lang:?}"
        );
    }
}
