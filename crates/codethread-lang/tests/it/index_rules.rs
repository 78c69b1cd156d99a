//! Unit tests of the function index, one per naming/span rule and language.

use codethread_lang::{index_functions, parse, Function, FunctionKind, Lang};

fn idx(lang: Lang, src: &str) -> Vec<Function> {
    let file = parse(lang, src.as_bytes().to_vec()).expect("parse");
    index_functions(&file)
}

fn names(funcs: &[Function]) -> Vec<(String, &'static str)> {
    funcs
        .iter()
        .map(|f| (f.qualname.clone(), f.kind.as_str()))
        .collect()
}

#[test]
fn python_qualnames_kinds_and_spans() {
    let src = "import x\n\n@dec\n@dec2(1)\ndef top(a):\n    def inner():\n        return lambda: 1\n    return inner\n\nclass C:\n    def m(self):  # c\n        pass\n        # trailing comment\n\n    class D:\n        async def n(self):\n            yield 1\n";
    let f = idx(Lang::Python, src);
    let got = names(&f);
    assert_eq!(
        got,
        vec![
            ("top".into(), "function"),
            ("top.inner".into(), "nested"),
            ("top.inner.<anonymous>".into(), "nested"),
            ("C.m".into(), "method"),
            ("C.D.n".into(), "method"),
        ]
    );
    assert_eq!(
        (
            f[0].span.start_line,
            f[0].node.start_line,
            f[0].span.end_line
        ),
        (3, 5, 8)
    );
    assert_eq!(
        f[0].decorators,
        vec!["@dec".to_string(), "@dec2(1)".to_string()]
    );
    assert_eq!(f[1].parent, Some(0));
    assert!(f[2].anonymous);
    // trailing comment is not part of the function (as Python's ast)
    assert_eq!(f[3].node.end_line, 12);
    assert_eq!(f[3].header.end_line, 11);
    assert!(f[4].is_async && f[4].is_generator);
    assert!(
        !f[0].is_generator,
        "yield in nested lambda/def does not count"
    );
}

#[test]
fn python_generator_only_in_own_body() {
    let f = idx(
        Lang::Python,
        "def g():\n    def h():\n        yield 1\n    return h\n",
    );
    assert!(!f[0].is_generator);
    assert!(f[1].is_generator);
}

#[test]
fn go_receivers_and_literals() {
    let src = "package p\n\n// Doc\nfunc (st *ServerType) Map(a int) error {\n\tf := func() {}\n\tf()\n\treturn nil\n}\n\nfunc (l List[T]) Len() int { return 0 }\n\nfunc init() {}\nfunc init() {}\n";
    let f = idx(Lang::Go, src);
    assert_eq!(
        names(&f),
        vec![
            ("ServerType.Map".into(), "method"),
            ("ServerType.Map.<anonymous>".into(), "nested"),
            ("List.Len".into(), "method"),
            ("init".into(), "function"),
            ("init".into(), "function"),
        ]
    );
    assert_eq!(f[0].receiver.as_deref(), Some("(st *ServerType)"));
    assert_eq!(
        f[0].span.start_line, 4,
        "doc comments are not part of the span"
    );
    assert_eq!(
        (f[3].occurrence, f[3].dup_count, f[4].occurrence),
        (1, 2, 2)
    );
    assert_eq!(f[4].target_id("a.go"), "a.go::init#2");
}

#[test]
fn rust_impls_traits_mods_and_attributes() {
    let src = "mod tests {\n    /// doc\n    #[test]\n    // between\n    #[ignore]\n    fn t() {}\n}\nimpl<'a, T> Foo<'a, T> {\n    pub async fn new() -> Self { let c = |x| x; todo!() }\n}\nimpl Service<Request<B>> for &mut Router {\n    fn call(&self) {}\n}\ntrait Tr {\n    fn sig(&self);\n    fn dflt(&self) { fn helper() {} }\n}\n";
    let f = idx(Lang::Rust, src);
    assert_eq!(
        names(&f),
        vec![
            ("tests.t".into(), "function"),
            ("Foo.new".into(), "method"),
            ("Foo.new.<anonymous>".into(), "nested"),
            ("Router.call".into(), "method"),
            ("Tr.dflt".into(), "method"),
            ("Tr.dflt.helper".into(), "nested"),
        ]
    );
    assert_eq!(
        f[0].span.start_line, 3,
        "attributes are spanned, doc comments alone are not"
    );
    assert_eq!(f[0].decorators.len(), 2);
    assert!(f[1].is_async);
    assert_eq!(f[3].impl_trait.as_deref(), Some("Service<Request<B>>"));
    assert_eq!(f[3].impl_type.as_deref(), Some("Router"));
}

#[test]
fn js_names_from_declarations_assignments_keys_and_fields() {
    let src = "export function a() {}\nconst b = () => 1;\nlet c = function named() {};\noptions.unmount = (vnode) => { [1].map(x => x); };\nX.prototype.m = function () {};\nconst obj = { k: function () {}, meth() {}, get g() { return 1; } };\nclass K { f = () => {}; static async *gen() {} constructor() {} }\nObject.assign(P.prototype, { set: function () {} });\n";
    let f = idx(Lang::JavaScript, src);
    assert_eq!(
        names(&f),
        vec![
            ("a".into(), "function"),
            ("b".into(), "function"),
            ("c".into(), "function"),
            ("options.unmount".into(), "function"),
            ("options.unmount.<anonymous>".into(), "nested"),
            ("X.prototype.m".into(), "method"),
            ("obj.k".into(), "method"),
            ("obj.meth".into(), "method"),
            ("obj.g".into(), "method"),
            ("K.f".into(), "method"),
            ("K.gen".into(), "method"),
            ("K.constructor".into(), "method"),
            ("<anonymous>.set".into(), "method"),
        ][..12]
            .iter()
            .cloned()
            .chain([("set".to_string(), "method")])
            .collect::<Vec<_>>()
    );
    assert_eq!(f[2].own_name.as_deref(), Some("named"));
    assert_eq!(f[0].span.start_byte, 0, "export is part of the definition");
    assert_eq!(
        f[1].header.end_byte,
        src.find("=>").map(|i| i + 2).unwrap_or(0)
    );
    assert!(f[10].is_async && f[10].is_generator);
    assert_eq!(f[8].accessor.as_deref(), Some("get"));
}

#[test]
fn ts_signatures_without_body_are_not_functions() {
    let src = "function o(a: string): void;\nfunction o(a: any) {}\ninterface I { m(): void }\nabstract class A { abstract f(): void; g(): number { return 1 } }\n";
    let f = idx(Lang::TypeScript, src);
    assert_eq!(
        names(&f),
        vec![("o".into(), "function"), ("A.g".into(), "method")]
    );
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 10_000;
    let mut src = String::from("def f():\n    x = ");
    src.push_str(&"(".repeat(depth));
    src.push('1');
    src.push_str(&")".repeat(depth));
    src.push('\n');
    let f = idx(Lang::Python, &src);
    assert_eq!(f.len(), 1);
    // Nested functions: qualified names grow with depth, so keep it smaller.
    let depth = 3_000;
    let mut js = String::new();
    for _ in 0..depth {
        js.push_str("function a(){");
    }
    js.push_str(&"}".repeat(depth));
    let f = idx(Lang::JavaScript, &js);
    assert_eq!(f.len(), depth);
    assert_eq!(f[depth - 1].kind, FunctionKind::Nested);
}

#[test]
fn bytes_crlf_tabs_and_errors_are_normal_inputs() {
    let src: &[u8] = b"def f(a):\r\n\tx = '\xff\xfe'\r\n\treturn a\r\n\r\ndef g(:\r\n\tpass\r\n";
    let file = parse(Lang::Python, src.to_vec()).expect("parse");
    assert!(file.parse_errors > 0);
    let f = index_functions(&file);
    assert_eq!(f[0].qualname, "f");
    assert_eq!((f[0].node.start_line, f[0].node.end_line), (1, 3));
    let empty = parse(Lang::Go, Vec::new()).expect("parse");
    assert!(index_functions(&empty).is_empty());
}

#[test]
fn languages_from_paths() {
    assert_eq!(Lang::from_path("a/b.tsx"), Some(Lang::Tsx));
    assert_eq!(Lang::from_path("a/b.mjs"), Some(Lang::JavaScript));
    assert_eq!(Lang::from_path("Makefile"), None);
    for l in Lang::ALL {
        assert_eq!(Lang::from_name(l.name()), Some(l));
    }
}

#[test]
fn rust_item_macro_bodies_are_reparsed() {
    let src = "cfg_rt! {\n    /// doc\n    #[inline]\n    pub fn spawn() {\n        go();\n    }\n}\nimpl Rt {\n    cfg_fs! {\n        fn open(&self) {}\n    }\n}\nfn f() { vec![1]; }\nbroken! { fn ( }\n";
    let f = idx(Lang::Rust, src);
    assert_eq!(
        names(&f),
        vec![
            ("spawn".into(), "function"),
            ("Rt.open".into(), "method"),
            ("f".into(), "function")
        ]
    );
    assert!(f[0].in_macro);
    assert_eq!(
        (
            f[0].span.start_line,
            f[0].node.start_line,
            f[0].span.end_line
        ),
        (3, 4, 6)
    );
    assert_eq!(&src[f[0].body.map_or(0, |b| b.start_byte)..][..1], "{");
    assert_eq!(f[1].impl_type.as_deref(), Some("Rt"));
    let file = parse(Lang::Rust, src.as_bytes().to_vec()).expect("parse");
    assert!(f[0].find_node(&file).is_none());
    assert!(f[2].find_node(&file).is_some());
}

#[test]
fn find_node_round_trips_for_every_function() {
    let cases: [(Lang, &str); 3] = [
        (
            Lang::Python,
            "class C:\n    @d\n    def m(self):\n        pass\n        # trailing\n\n    # more\n",
        ),
        (
            Lang::TypeScript,
            "class K { @dec() m() { return 1; } }\nconst f = () => 2;\n",
        ),
        (Lang::Go, "package p\nfunc f() { g := func() {}; g() }\n"),
    ];
    for (lang, src) in cases {
        let file = parse(lang, src.as_bytes().to_vec()).expect("parse");
        for f in index_functions(&file) {
            let n = f
                .find_node(&file)
                .unwrap_or_else(|| panic!("{lang} {}: node not found", f.qualname));
            assert_eq!(n.kind(), f.node_kind);
            assert!(n.start_byte() <= f.node.start_byte && n.end_byte() >= f.node.end_byte);
        }
    }
}

/// Deeply nested functions keep qualified names of bounded length: the
/// outermost scope, `<N elided>`, then the innermost scopes; shallower names
/// are spelled out in full.
#[test]
fn deep_nesting_caps_qualified_names() {
    use codethread_lang::MAX_QUALNAME_SCOPES;
    let depth = 200;
    let mut src = String::new();
    for i in 0..depth {
        src.push_str(&format!("function f{i}() {{\n"));
    }
    for _ in 0..depth {
        src.push_str("}\n");
    }
    let file =
        codethread_lang::parse(codethread_lang::Lang::JavaScript, src.into_bytes()).expect("parse");
    let funcs = codethread_lang::index_functions(&file);
    assert_eq!(funcs.len(), depth);
    for (i, f) in funcs.iter().enumerate() {
        let parts: Vec<&str> = f.qualname.split('.').collect();
        assert!(parts.len() <= MAX_QUALNAME_SCOPES + 1, "{}", f.qualname);
        assert_eq!(parts.last(), Some(&format!("f{i}").as_str()));
        if i < MAX_QUALNAME_SCOPES + 1 {
            let full: Vec<String> = (0..=i).map(|k| format!("f{k}")).collect();
            assert_eq!(f.qualname, full.join("."));
        } else {
            assert_eq!(parts[0], "f0");
            let elided = i - (MAX_QUALNAME_SCOPES - 1);
            assert_eq!(parts[1], format!("<{elided} elided>"), "{}", f.qualname);
            assert_eq!(parts[2], format!("f{}", i - (MAX_QUALNAME_SCOPES - 2)));
        }
    }
    // Distinct functions keep distinct names.
    let names: std::collections::BTreeSet<&str> =
        funcs.iter().map(|f| f.qualname.as_str()).collect();
    assert_eq!(names.len(), depth);
}

/// The named functions (target rules: not anonymous) as (qualname, kind).
fn named(funcs: &[Function]) -> Vec<(String, &'static str)> {
    funcs
        .iter()
        .filter(|f| !f.anonymous)
        .map(|f| (f.qualname.clone(), f.kind.as_str()))
        .collect()
}

#[test]
fn java_rules() {
    let src = "class Outer {\n  /** doc */\n  @Override\n  public void m(int a, /*c*/ String[] b) {\n    Runnable r = (Runnable) (new Runnable() { public void run() {} });\n    foo(new Runnable() { public void run() {} });\n    Runnable l = () -> {};\n  }\n  abstract void n();\n  Outer(int x) { }\n  record R(int a) { R { } }\n  enum E { IDENTITY { String translateName(Field f) { return f; } }, Y; }\n  static final T LONG = new T() { void write() {} };\n  void m(long a) { class L { void q() {} } }\n  interface I { default void d() {} void e(); }\n  static { }\n}\n";
    let f = idx(Lang::Java, src);
    assert_eq!(
        named(&f),
        vec![
            ("Outer.m".into(), "method"),
            ("Outer.m.r.run".into(), "nested"),
            ("Outer.m.run".into(), "nested"),
            ("Outer.Outer".into(), "method"),
            ("Outer.R.R".into(), "method"),
            ("Outer.E.IDENTITY.translateName".into(), "method"),
            ("Outer.LONG.write".into(), "method"),
            ("Outer.m".into(), "method"),
            ("Outer.m.L.q".into(), "nested"),
            ("Outer.I.d".into(), "method"),
        ]
    );
    let m = &f[0];
    // Span from the first annotation (the Javadoc is not in it); header at `{`.
    assert_eq!(
        (m.span.start_line, m.span.end_line, m.header.end_line),
        (3, 8, 4)
    );
    assert_eq!(m.params.as_deref(), Some("(int a,String[]b)"));
    assert_eq!((m.occurrence, m.dup_count), (1, 2));
    assert!(f
        .iter()
        .any(|g| g.qualname == "Outer.m.run" && !g.notes.is_empty()));
    assert!(f.iter().all(|g| g.qualname != "Outer.n"), "bodiless method");
}

#[test]
fn c_rules() {
    let src = "static int *f(int a, char **b) { return 0; }\nint (*g(void))(int) { return 0; }\n#ifdef X\nvoid w(void) { }\n#else\nvoid w(int x) { }\n#endif\nint main(void) { int y; YY_BEGIN switch (y) { case 1: break; } }\nvoid outer(void) { void inner(void) {} }\nint kr(a) int a; { return a; }\nint proto(void);\n";
    let f = idx(Lang::C, src);
    assert_eq!(
        named(&f),
        vec![
            ("f".into(), "function"),
            ("g".into(), "function"),
            ("w".into(), "function"),
            ("w".into(), "function"),
            ("main".into(), "function"),
            ("outer".into(), "function"),
            ("outer.inner".into(), "nested"),
            ("kr".into(), "function"),
        ]
    );
    assert_eq!(f[0].params.as_deref(), Some("(int a,char**b)"));
    assert_eq!(f[1].params.as_deref(), Some("(void)"));
    assert_eq!(
        (f[2].occurrence, f[3].occurrence, f[3].dup_count),
        (1, 2, 2)
    );
    assert!(!f[7].notes.is_empty(), "K&R definitions are noted");
}

#[test]
fn cpp_rules() {
    let src = "namespace a::b {\ntemplate <typename T>\nstruct formatter<tuple_join_view<Char, T...>, Char> {\n  template <typename C>\n  auto parse(C& ctx) const -> int { return 0; }\n  operator bool() const { return true; }\n  friend bool operator==(A x, A y) { return true; }\n  A() = default;\n  virtual void v() = 0;\n};\n}\nnamespace { void anon() {} }\nextern \"C\" { int cfun(void) { return 0; } }\ntemplate <typename T> A<T>::~A() {}\nvoid A::B::f() try { } catch (...) { }\nint operator\"\"_a(const char* s) { return 0; }\nX::operator const char*() const { return 0; }\nauto l = [](int x) { return x; };\n";
    let f = idx(Lang::Cpp, src);
    assert_eq!(
        named(&f),
        vec![
            ("a.b.formatter.parse".into(), "method"),
            ("a.b.formatter.operator bool".into(), "method"),
            ("a.b.formatter.operator==".into(), "method"),
            ("anon".into(), "function"),
            ("cfun".into(), "function"),
            ("A.~A".into(), "method"),
            ("A.B.f".into(), "method"),
            ("operator\"\"_a".into(), "function"),
            ("X.operator const char*".into(), "method"),
        ]
    );
    let parse_fn = &f[0];
    // The span starts at the `template` header, the header ends at `{`.
    assert_eq!((parse_fn.span.start_line, parse_fn.header.end_line), (4, 5));
    assert_eq!(parse_fn.params.as_deref(), Some("(C&ctx)const"));
    assert_eq!(
        parse_fn.class_type.as_deref(),
        Some("formatter<tuple_join_view<Char,T...>,Char>")
    );
    assert_eq!(f[2].span.start_line, 7, "friend starts the span");
}

#[test]
fn ruby_rules() {
    let src = "module M\n  class A::B\n    # c\n    def x(a,\n          b = 1)\n      1\n    end\n    def empty; end\n    def self.y; end\n    def Foo.z; end\n    class << self\n      def w; end\n    end\n    private def p = 1\n    private_class_method def self.q\n    end\n  end\n  included do\n    def in_block; end\n  end\nend\ndef top\n  def nested; end\nend\n";
    let f = idx(Lang::Ruby, src);
    assert_eq!(
        named(&f),
        vec![
            ("M.A.B.x".into(), "method"),
            ("M.A.B.empty".into(), "method"),
            ("M.A.B.y".into(), "method"),
            ("M.A.B.Foo.z".into(), "method"),
            ("M.A.B.w".into(), "method"),
            ("M.A.B.p".into(), "method"),
            ("M.A.B.q".into(), "method"),
            ("M.<anonymous>.in_block".into(), "method"),
            ("top".into(), "function"),
            ("top.nested".into(), "nested"),
        ]
    );
    let by = |q: &str| f.iter().find(|g| g.qualname == q).expect(q);
    assert_eq!(
        (by("M.A.B.x").span.start_line, by("M.A.B.x").header.end_line),
        (4, 5)
    );
    assert!(
        by("M.A.B.empty").has_body(),
        "empty methods are definitions"
    );
    let singletons: Vec<bool> = ["M.A.B.x", "M.A.B.y", "M.A.B.Foo.z", "M.A.B.w", "M.A.B.q"]
        .iter()
        .map(|q| by(q).singleton)
        .collect();
    assert_eq!(singletons, vec![false, true, true, true, true]);
    assert_eq!(
        by("M.A.B.q").decorators,
        vec!["private_class_method".to_string()]
    );
    assert_eq!(by("M.A.B.p").span.start_line, 14);
}

#[test]
fn php_rules() {
    let src = "<?php\nnamespace App;\nif (! function_exists('f')) {\n    /** doc */\n    function f($x) { function inner() {} return 1; }\n}\nclass A {\n    #[Pure]\n    public static function m(int $a): string {\n        $c = function () use ($a) { return 1; };\n        return '';\n    }\n    abstract protected function n();\n}\ntrait T { function t() {} }\nenum E: string { case X = 'x'; public function label(): string { return 'l'; } }\n$o = new class { public function anon() {} };\n";
    let f = idx(Lang::Php, src);
    assert_eq!(
        named(&f),
        vec![
            ("f".into(), "function"),
            ("f.inner".into(), "nested"),
            ("A.m".into(), "method"),
            ("T.t".into(), "method"),
            ("E.label".into(), "method"),
            ("anon".into(), "method"),
        ]
    );
    let m = f.iter().find(|g| g.qualname == "A.m").expect("A.m");
    assert_eq!((m.span.start_line, m.header.end_line), (8, 9));
    assert!(f
        .iter()
        .any(|g| g.anonymous && g.qualname == "A.m.<anonymous>"));
}

#[test]
fn deep_five_language_constructs_do_not_overflow() {
    let depth = 10_000;
    // A 10,000-deep parenthesized declarator chain.
    let c = format!(
        "int {}f{}(void) {{ return 0; }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let f = idx(Lang::C, &c);
    assert_eq!(named(&f), vec![("f".into(), "function")]);
    // An anonymous class named through 10,000 parentheses.
    let java = format!(
        "class A {{ Runnable r = {}new Runnable() {{ public void run() {{}} }}{}; }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let f = idx(Lang::Java, &java);
    assert_eq!(named(&f), vec![("A.r.run".into(), "method")]);
    // 3,000 nested namespaces and Ruby modules (names grow with depth).
    let n = 3_000;
    let cpp = format!(
        "{}void g() {{}}{}",
        "namespace a { ".repeat(n),
        "}".repeat(n)
    );
    let f = idx(Lang::Cpp, &cpp);
    assert_eq!(f.len(), 1);
    let rb = format!(
        "{}def g; end\n{}",
        "module M\n".repeat(n),
        "end\n".repeat(n)
    );
    let f = idx(Lang::Ruby, &rb);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].kind, FunctionKind::Method);
}
