//! `FlatTree` answers every navigation question exactly as the tree-sitter
//! tree it was built from: kinds, flags, spans, parent, siblings, children,
//! fields, for every node — on small cases in each language (always) and on
//! every file of the shared corpora (when `CODETHREAD_SHARED` is set).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use codethread_lang::tree_sitter::Node;
use codethread_lang::{parse, FlatNode, FlatTree, Lang, ParsedFile};

/// All nodes of the tree-sitter tree in pre-order, with their field names.
fn ts_preorder(file: &ParsedFile) -> Vec<(Node<'_>, Option<&'static str>)> {
    let mut out = Vec::new();
    let mut cursor = file.root().walk();
    'walk: loop {
        out.push((cursor.node(), cursor.field_name()));
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'walk;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

fn same(f: Option<FlatNode<'_>>, t: Option<Node<'_>>) -> bool {
    match (f, t) {
        (None, None) => true,
        (Some(f), Some(t)) => {
            f.byte_range() == t.byte_range()
                && f.kind_id() == t.kind_id()
                && f.is_named() == t.is_named()
        }
        _ => false,
    }
}

fn check(label: &str, file: &ParsedFile) {
    let flat = FlatTree::new(file);
    let ts = ts_preorder(file);
    assert_eq!(flat.len(), ts.len(), "{label}: node count");
    let lang = file
        .grammar
        .ts_language()
        .expect("a parsed file's grammar is built");
    let fields: Vec<&'static str> = (1..=lang.field_count())
        .filter_map(|i| lang.field_name_for_id(u16::try_from(i).ok()?))
        .collect();
    for (f, (t, field)) in flat.root().descendants().zip(&ts) {
        let at = || format!("{label}: {} at {:?}", t.kind(), t.start_position());
        assert_eq!(f.kind(), t.kind(), "{}", at());
        assert_eq!(f.kind_id(), t.kind_id(), "{}", at());
        assert_eq!(f.byte_range(), t.byte_range(), "{}", at());
        assert_eq!(f.start_position(), t.start_position(), "{}", at());
        assert_eq!(f.end_position(), t.end_position(), "{}", at());
        assert_eq!(
            (
                f.is_named(),
                f.is_extra(),
                f.is_missing(),
                f.is_error(),
                f.has_error()
            ),
            (
                t.is_named(),
                t.is_extra(),
                t.is_missing(),
                t.is_error(),
                t.has_error()
            ),
            "{}",
            at()
        );
        assert_eq!(f.field_name(), *field, "{}", at());
        assert_eq!(f.child_count(), t.child_count(), "{}", at());
        assert_eq!(f.named_child_count(), t.named_child_count(), "{}", at());
        assert!(same(f.parent(), t.parent()), "{}: parent", at());
        // tree-sitter's `Node::next_sibling` / `prev_sibling` step over
        // zero-width siblings (the empty `block` error recovery inserts);
        // the flat tree follows the cursor, which does not.
        let zero = |n: Option<FlatNode<'_>>| n.is_some_and(|n| n.start_byte() == n.end_byte());
        if !zero(f.next_sibling()) && !zero(Some(f)) {
            assert!(same(f.next_sibling(), t.next_sibling()), "{}: next", at());
            assert!(
                same(f.next_named_sibling(), t.next_named_sibling()),
                "{}: next named",
                at()
            );
        }
        if !zero(f.prev_sibling()) && !zero(Some(f)) {
            assert!(same(f.prev_sibling(), t.prev_sibling()), "{}: prev", at());
        }
        for i in 0..t.child_count() {
            assert!(same(f.child(i), t.child(i)), "{}: child {i}", at());
        }
        for i in 0..t.named_child_count() {
            assert!(
                same(f.named_child(i), t.named_child(i)),
                "{}: named child {i}",
                at()
            );
        }
        // tree-sitter's `child_by_field_name` resolves fields through the
        // node's production field map (inherited fields by structural child
        // index), the flat tree through the fields the cursor reports. They
        // agree on every node without errors; in an error-recovered subtree
        // they can differ (an ERROR node answers no field at all, a
        // `function_definition` may inherit `parameters` from a misplaced
        // declarator), so lookups are compared on error-free nodes only.
        if t.child_count() > 0 && !t.has_error() {
            for name in &fields {
                assert!(
                    same(f.child_by_field_name(name), t.child_by_field_name(name)),
                    "{}: field {name}",
                    at()
                );
            }
        }
        assert_eq!(f.subtree_end() - f.id(), f.descendants().count());
    }
    for func in codethread_lang::index_functions(file) {
        assert!(
            same(flat.function_node(&func), func.find_node(file)),
            "{label}: node of {}",
            func.qualname
        );
    }
}

#[test]
fn small_cases_in_every_language() {
    let cases: &[(Lang, &str)] = &[
        (Lang::Python, "@d\nclass A(B):\n    def f(self, x=1, *a, **k):\n        '''doc'''\n        return [y for y in x if y] or lambda: (yield)\n\r\n\tif x:\n  pass\n"),
        (Lang::Go, "package p\n\nfunc (s *S) M(a, b int) (err error) {\n\tfor i := range a { go func() { defer f() }() }\n\tswitch x := a.(type) { case int: return }\n}\n"),
        (Lang::Rust, "#[attr]\nimpl<T: Tr> S<T> {\n    pub async fn f(&self) -> Result<(), E> { let c = |x| x?; m!{ a b }; Ok(()) }\n}\nfn broken( {\n"),
        (Lang::JavaScript, "class A extends B { get x() { return a?.b ?? c; } static #p = () => 1; }\nexport default function* g() { yield* [1, `t${x}`]; }\nconst o = { k: function () {}, [m]() {} };\nif (\n"),
        (Lang::TypeScript, "abstract class A<T> implements I { constructor(private x: T) { super(); } m(a?: number): void {} }\nfunction f<T extends keyof U>(x: T): asserts x is string {}\n"),
        (Lang::Tsx, "const C = (p: P) => <div onClick={() => f(p)}>{p.x as any}</div>;\n"),
        (Lang::Python, ""),
        (Lang::Go, "\u{0}\u{ff}garbage ((( {{{"),
    ];
    for (i, (lang, src)) in cases.iter().enumerate() {
        let file = parse(*lang, src.as_bytes()).unwrap();
        check(&format!("case {i} ({lang})"), &file);
    }
    // Non-UTF-8 bytes and a subtree flattened on its own.
    let file = parse(Lang::Python, &b"def f():\n    return b'\xff\xfe'\n"[..]).unwrap();
    check("latin-1 bytes", &file);
    let def = file.root().child(0).unwrap();
    let sub = FlatTree::from_node(Lang::Python, &file.source, def);
    assert_eq!(sub.root().byte_range(), def.byte_range());
    assert!(sub.root().parent().is_none());
    let mut c = sub.root().walk();
    assert!(!c.goto_next_sibling() && !c.goto_parent());
}

#[test]
fn deep_nesting_is_iterative() {
    let src = format!("x = {}1{}\n", "(".repeat(10_000), ")".repeat(10_000));
    let file = parse(Lang::Python, src.as_bytes()).unwrap();
    let flat = FlatTree::new(&file);
    assert!(flat.len() > 10_000);
}

#[test]
fn every_node_of_the_shared_corpora() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    let mut files = 0usize;
    let (paths, errors) = codethread_lang::source_files(&corpora);
    assert!(errors.is_empty(), "{errors:?}");
    for path in paths {
        let lang = Lang::from_path(&path).unwrap();
        // Every 7th file keeps the debug-build test short; the selection is
        // deterministic and covers every corpus.
        let bytes = std::fs::read(&path).unwrap();
        if bytes.len() % 7 != 0 && !is_small(&path) {
            continue;
        }
        let file = parse(lang, bytes).unwrap();
        check(&path.display().to_string(), &file);
        files += 1;
    }
    assert!(files > 100, "only {files} files checked");
}

fn is_small(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.len() < 2_000)
}
