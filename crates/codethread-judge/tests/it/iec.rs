//! Static IEC detector on small human / agent pairs in every language.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use codethread_judge::iec::{detect_iec, ContractChange};
use codethread_lang::Lang;

fn run(lang: Lang, h: &str, a: &str, t: &str) -> codethread_judge::iec::IecReport {
    detect_iec(lang, h.as_bytes(), a.as_bytes(), &[t.to_string()]).unwrap()
}

#[test]
fn python_changed_exception_type() {
    let h = "class A:\n    def f(self, x):\n        if x < 0:\n            raise ValueError('neg')\n        return x\n";
    let a = "class A:\n    def f(self, x):\n        if x < 0:\n            raise TypeError('neg')\n        return x\n";
    let r = run(Lang::Python, h, a, "A.f");
    assert!(r.flag);
    let c = &r.functions[0].changes;
    assert!(
        c.contains(&ContractChange::RaiseAdded("TypeError".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.contains(&ContractChange::RaiseRemoved("ValueError".into(), 1)),
        "{c:?}"
    );
}

#[test]
fn python_same_contract_different_body_is_not_flagged() {
    let h = "def f(x, y=None):\n    if x is None:\n        raise ValueError('x')\n    total = 0\n    for i in range(x):\n        total += i\n    return total\n";
    let a = "def f(x, y=None):\n    if x is None:\n        raise ValueError('missing x')\n    return sum(range(x))\n";
    let r = run(Lang::Python, h, a, "f");
    assert!(!r.flag, "{:?}", r.functions);
}

#[test]
fn python_guard_removed_and_getattr_default() {
    let h = "def f(obj, name):\n    if not name:\n        raise KeyError(name)\n    return getattr(obj, name)\n";
    let a = "def f(obj, name):\n    return getattr(obj, name, None)\n";
    let r = run(Lang::Python, h, a, "f");
    assert!(r.flag);
    let c = &r.functions[0].changes;
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::GuardRemoved(g) if g.starts_with("not name"))),
        "{c:?}"
    );
    assert!(
        c.iter().any(|x| matches!(x, ContractChange::DefaultChanged(k, h, a) if k == "getattr(obj, name)" && h == &vec!["<none>".to_string()] && a == &vec!["None".to_string()])),
        "{c:?}"
    );
}

#[test]
fn python_parameter_default_changed() {
    let r = run(
        Lang::Python,
        "def f(x, n=10):\n    return x[:n]\n",
        "def f(x, n=None):\n    return x[:n]\n",
        "f",
    );
    assert!(r.flag);
}

#[test]
fn javascript_throw_and_nullish_default() {
    let h = "function g(a, b) {\n  if (a == null) { throw new TypeError('a'); }\n  const v = b ?? 1;\n  return a + v;\n}\n";
    let a = "function g(a, b) {\n  const v = b ?? 0;\n  return a + v;\n}\n";
    let r = run(Lang::JavaScript, h, a, "g");
    let c = &r.functions[0].changes;
    assert!(
        c.contains(&ContractChange::RaiseRemoved("TypeError".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::GuardRemoved(_))),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::DefaultChanged(k, _, _) if k == "b ??")),
        "{c:?}"
    );
}

#[test]
fn typescript_param_default() {
    let h = "export function g(a: number, b: number = 2): number { return a * b; }\n";
    let a = "export function g(a: number, b: number = 3): number { return a * b; }\n";
    assert!(run(Lang::TypeScript, h, a, "g").flag);
    assert!(!run(Lang::TypeScript, h, h, "g").flag);
}

#[test]
fn go_panic_and_error_returns() {
    let h = "package p\n\nfunc (s *S) Get(k string) (int, error) {\n\tif k == \"\" {\n\t\treturn 0, errors.New(\"empty\")\n\t}\n\treturn s.m[k], nil\n}\n";
    let a = "package p\n\nfunc (s *S) Get(k string) (int, error) {\n\tif k == \"\" {\n\t\tpanic(\"empty\")\n\t}\n\treturn s.m[k], nil\n}\n";
    let r = run(Lang::Go, h, a, "S.Get");
    assert!(r.functions[0].in_human && r.functions[0].in_agent, "{r:?}");
    let c = &r.functions[0].changes;
    assert!(
        c.contains(&ContractChange::RaiseAdded("panic:panic".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.contains(&ContractChange::RaiseRemoved("error:errors.New".into(), 1)),
        "{c:?}"
    );
}

#[test]
fn rust_panic_macro_and_unwrap_or() {
    let h = "impl S {\n    fn get(&self, i: usize) -> u8 {\n        self.v.get(i).copied().unwrap_or(0)\n    }\n}\n";
    let a = "impl S {\n    fn get(&self, i: usize) -> u8 {\n        if i >= self.v.len() {\n            panic!(\"out of range\");\n        }\n        self.v.get(i).copied().unwrap_or(1)\n    }\n}\n";
    let r = run(Lang::Rust, h, a, "S.get");
    let c = &r.functions[0].changes;
    assert!(
        c.contains(&ContractChange::RaiseAdded("panic:panic".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.iter().any(|x| matches!(x, ContractChange::GuardAdded(_))),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::DefaultChanged(..))),
        "{c:?}"
    );
}

#[test]
fn missing_function_is_reported_not_flagged() {
    let r = run(
        Lang::Python,
        "def f():\n    pass\n",
        "def g():\n    pass\n",
        "f",
    );
    assert!(!r.flag);
    assert!(r.functions[0].in_human && !r.functions[0].in_agent);
}

#[test]
fn non_utf8_and_crlf_sources() {
    let h = b"def f(x):\r\n    # \xff\xfe\r\n    if x is None:\r\n        raise ValueError('x')\r\n    return x\r\n";
    let a = b"def f(x):\r\n    return x\r\n";
    let r = detect_iec(Lang::Python, h, a, &["f".to_string()]).unwrap();
    assert!(r.flag);
}

#[test]
fn flow_typed_javascript_is_read_with_the_typescript_grammar() {
    // Flow annotations (`x: ?number`, `: Promise<void>`) are not JavaScript:
    // the JS grammar garbles the function; both sides fall back to TS.
    let h = "// @flow\nexport function load(x: ?number, cb: (e: Error) => void): Promise<void> {\n  if (x == null) {\n    throw new TypeError('x');\n  }\n  return go(x);\n}\n";
    let a = "// @flow\nexport function load(x: ?number, cb: (e: Error) => void): Promise<void> {\n  if (x == null) {\n    throw new RangeError('x');\n  }\n  return go(x);\n}\n";
    let js = codethread_lang::parse(Lang::JavaScript, h.as_bytes()).unwrap();
    assert!(js.parse_errors > 0, "the case must not parse as JavaScript");
    let r = run(Lang::JavaScript, h, a, "load");
    let f = &r.functions[0];
    assert!(f.in_human && f.in_agent, "{f:?}");
    assert!(r.flag);
    assert!(
        f.changes
            .contains(&ContractChange::RaiseAdded("RangeError".into(), 1)),
        "{:?}",
        f.changes
    );
    assert!(!run(Lang::JavaScript, h, h, "load").flag);
}

#[test]
fn comments_are_not_arguments_or_raised_values() {
    // Rust comments are `line_comment` / `block_comment`, JS ones `comment`:
    // a comment in a defaulting call's argument list changes no default.
    let h = "impl S {\n    fn get(&self, i: usize) -> u8 {\n        self.v.get(i).copied().unwrap_or(0)\n    }\n}\n";
    let a = "impl S {\n    fn get(&self, i: usize) -> u8 {\n        self.v.get(i).copied().unwrap_or(/* none */ 0)\n    }\n}\n";
    let r = run(Lang::Rust, h, a, "S.get");
    assert!(!r.flag, "{:?}", r.functions);
    let h = "function f(m, k) {\n  return m.get(k, 1);\n}\n";
    let a = "function f(m, k) {\n  return m.get(k, /* fallback */ 1);\n}\n";
    let r = run(Lang::JavaScript, h, a, "f");
    assert!(!r.flag, "{:?}", r.functions);
    // ... and a comment before the thrown value does not hide its type.
    let h = "function f(x) {\n  if (!x) {\n    throw /* bad */ new TypeError('x');\n  }\n  return x;\n}\n";
    let a = "function f(x) {\n  if (!x) {\n    throw /* bad */ new RangeError('x');\n  }\n  return x;\n}\n";
    let r = run(Lang::JavaScript, h, a, "f");
    let c = &r.functions[0].changes;
    assert!(
        c.contains(&ContractChange::RaiseAdded("RangeError".into(), 1)),
        "{c:?}"
    );
}

fn changes(lang: Lang, h: &str, a: &str, t: &str) -> Vec<ContractChange> {
    let r = run(lang, h, a, t);
    assert!(
        r.functions[0].in_human && r.functions[0].in_agent,
        "{t} not found: {:?}",
        r.functions
    );
    r.functions[0].changes.clone()
}

#[test]
fn java_throw_throws_and_require_non_null() {
    let h = "class A {\n  int f(String s, int n) throws IOException {\n    Objects.requireNonNull(s, \"s\");\n    if (n < 0) throw new IllegalArgumentException(\"n\");\n    return n;\n  }\n}\n";
    let a = "class A {\n  int f(String s, int n) {\n    if (n < 0) throw new IllegalStateException(\"n\");\n    return n;\n  }\n}\n";
    let c = changes(Lang::Java, h, a, "A.f");
    for want in [
        ContractChange::RaiseRemoved("throws:IOException".into(), 1),
        ContractChange::RaiseRemoved("panic:Objects.requireNonNull".into(), 1),
        ContractChange::RaiseRemoved("IllegalArgumentException".into(), 1),
        ContractChange::RaiseAdded("IllegalStateException".into(), 1),
    ] {
        assert!(c.contains(&want), "{want:?} not in {c:?}");
    }
    // Same contract, different body: nothing.
    let b = "class A {\n  int f(String s, int n) throws IOException {\n    Objects.requireNonNull(s, \"s\");\n    if (n < 0) throw new IllegalArgumentException(\"negative\");\n    int m = n;\n    return m;\n  }\n}\n";
    assert!(changes(Lang::Java, h, b, "A.f").is_empty());
}

#[test]
fn c_error_returns_assert_and_guards() {
    let h =
        "int f(char *p, int n) {\n  if (p == NULL) return -1;\n  assert(n > 0);\n  return n;\n}\n";
    let a = "int f(char *p, int n) {\n  return n;\n}\n";
    let c = changes(Lang::C, h, a, "f");
    assert!(
        c.contains(&ContractChange::RaiseRemoved("error-return:-1".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.contains(&ContractChange::RaiseRemoved("panic:assert".into(), 1)),
        "{c:?}"
    );
    assert!(
        c.iter().any(|x| matches!(x, ContractChange::GuardRemoved(g) if g.contains("p == NULL") && g.ends_with("return -1"))),
        "{c:?}"
    );
    let same = "int f(char *p, int n) {\n  if (p == NULL) return -1;\n  assert(n > 0);\n  int m = n;\n  return m;\n}\n";
    assert!(changes(Lang::C, h, same, "f").is_empty());
}

#[test]
fn cpp_throw_and_default_argument() {
    let h = "struct A { int f(int x, int k = 3); };\nint A::f(int x, int k) { if (x < 0) throw std::invalid_argument(\"x\"); return x + k; }\nint g(int x, int k = 3) { return x * k; }\n";
    let a = "struct A { int f(int x, int k = 3); };\nint A::f(int x, int k) { return x + k; }\nint g(int x, int k = 4) { return x * k; }\n";
    let c = changes(Lang::Cpp, h, a, "A.f");
    assert!(
        c.contains(&ContractChange::RaiseRemoved(
            "std.invalid_argument".into(),
            1
        )) || c.contains(&ContractChange::RaiseRemoved(
            "std::invalid_argument".into(),
            1
        )),
        "{c:?}"
    );
    let c = changes(Lang::Cpp, h, a, "g");
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::DefaultChanged(k, _, _) if k == "param k")),
        "{c:?}"
    );
}

#[test]
fn ruby_raise_fail_guards_and_defaults() {
    let h = "class A\n  def f(x, y = 2)\n    raise ArgumentError, \"x\" if x.nil?\n    fail \"bad\" unless y\n    x + y\n  end\nend\n";
    let a = "class A\n  def f(x, y = 3)\n    raise TypeError.new(\"x\") if x.nil?\n    x + y\n  end\nend\n";
    let c = changes(Lang::Ruby, h, a, "A.f");
    for want in [
        ContractChange::RaiseRemoved("ArgumentError".into(), 1),
        ContractChange::RaiseAdded("TypeError".into(), 1),
        ContractChange::RaiseRemoved("<message>".into(), 1),
    ] {
        assert!(c.contains(&want), "{want:?} not in {c:?}");
    }
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::GuardRemoved(g) if g.starts_with("unless y"))),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::DefaultChanged(k, _, _) if k == "param y")),
        "{c:?}"
    );
}

#[test]
fn php_throw_guard_and_null_coalescing_default() {
    let h = "<?php\nclass A {\n  public function f($x, int $n = 2) {\n    if ($x === null) { throw new \\InvalidArgumentException('x'); }\n    return $x['k'] ?? $n;\n  }\n}\n";
    let a = "<?php\nclass A {\n  public function f($x, int $n = 2) {\n    return $x['k'] ?? 0;\n  }\n}\n";
    let c = changes(Lang::Php, h, a, "A.f");
    assert!(
        c.contains(&ContractChange::RaiseRemoved(
            "\\InvalidArgumentException".into(),
            1
        )),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::GuardRemoved(_))),
        "{c:?}"
    );
    assert!(
        c.iter()
            .any(|x| matches!(x, ContractChange::DefaultChanged(k, _, _) if k.contains("??"))),
        "{c:?}"
    );
}
