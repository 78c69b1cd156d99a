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
