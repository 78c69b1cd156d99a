//! Java, C, C++, Ruby and PHP skeletons over real code, checked by the
//! languages' own tools.
//!
//! Every function of every file of `shared/metrics/corpora/{gson,jq,fmt,
//! jekyll,carbon}` and of the `before/` images of
//! `shared/chains/dev_multilingual` is stubbed (`--all`, skipping only
//! functions that touch a tree-sitter error), and:
//!
//! - the skeleton has no ERROR/MISSING node the original lacks;
//! - every byte outside the edits is unchanged (walked independently of
//!   `apply_edits`), every edit lies inside its function's node, and
//!   splicing the bodies back restores the original;
//! - a second run makes no edit and is byte-identical;
//! - the real tools accept the skeleton wherever they accept the original:
//!   `ruby -c` (every Ruby file), `php -l` (every PHP file), `javac` on the
//!   whole gson library (with three-line declarations of the errorprone
//!   annotations it imports), `gcc -fsyntax-only -Wall` on every jq file and
//!   `g++ -std=c++17 -fsyntax-only -Wall` on every fmt file, each compiled
//!   inside its own tree (the skeleton's includes are skeletons too);
//! - hand-written standalone Java / C / C++ / Ruby / PHP files with the
//!   constructs the stubs must survive (constructors calling `super(...)`,
//!   enum constant bodies, records, structs returned by value, initializer
//!   lists, function-try-blocks, templates, operators, `constexpr`, endless
//!   and empty Ruby methods, PHP `never` / by-reference / HTML) pass the
//!   tools after stubbing, LF and CRLF, spaces and tabs.
//!
//! A missing tool prints SKIPPED when `CODETHREAD_SHARED` is unset and
//! fails the test when it is set (CI installs them: `.ci/run`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_lang::{parse, Lang, ParsedFile};
use codethread_skeleton::{
    restore, skeletonize, skeletonize_source, Options, ParseErrorPolicy, Selector, Skeleton,
    SkipReason,
};

const NEW_LANGS: [Lang; 5] = [Lang::Java, Lang::C, Lang::Cpp, Lang::Ruby, Lang::Php];

fn opts() -> Options {
    Options::default().on_parse_errors(ParseErrorPolicy::SkipAffected)
}

/// Whether `name` runs. Missing: SKIPPED without `CODETHREAD_SHARED`, a
/// failure with it (CI must have the tool).
fn require_tool(name: &str, args: &[&str]) -> bool {
    let ok = Command::new(name)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        let shared = std::env::var_os(codethread_testkit::ENV).is_some_and(|v| !v.is_empty());
        assert!(
            !shared,
            "`{name}` is not installed but {} is set: the checker gate must run (.ci/run installs it)",
            codethread_testkit::ENV
        );
        eprintln!("SKIPPED: `{name}` is not on this machine; its gate did not run");
    }
    ok
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!(
        "codethread-skeleton-ml-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&p);
    p
}

/// Check the invariants on one skeleton; returns the failures.
/// `Selector::All`, or all named functions but those whose header (the
/// bytes from the node's start through the body opener) contains one of
/// `except`.
fn selector(except: &'static [&'static str], bytes: &[u8]) -> Selector {
    if except.is_empty() {
        return Selector::All;
    }
    let src = std::sync::Arc::new(bytes.to_vec());
    Selector::predicate(move |f| {
        let head = &src[f.header.start_byte..f.header.end_byte];
        !f.anonymous
            && !except
                .iter()
                .any(|w| head.windows(w.len()).any(|x| x == w.as_bytes()))
    })
}

fn check(
    name: &str,
    file: &ParsedFile,
    sk: &Skeleton,
    except: &'static [&'static str],
) -> Vec<String> {
    let src = &file.source[..];
    let mut bad = Vec::new();
    match restore(&sk.text, &sk.edits, src) {
        Ok(r) if r == src => {}
        Ok(_) => bad.push(format!("{name}: restore differs from the original")),
        Err(e) => bad.push(format!("{name}: restore failed: {e}")),
    }
    let (mut o, mut s) = (0usize, 0usize);
    for e in &sk.edits {
        let gap = e.start_byte - o;
        if sk.text.get(s..s + gap) != src.get(o..e.start_byte) {
            bad.push(format!("{name}: bytes before edit {} changed", e.function));
        }
        s += gap + e.replacement.len();
        o = e.end_byte;
    }
    if sk.text.get(s..) != src.get(o..) {
        bad.push(format!("{name}: bytes after the last edit changed"));
    }
    let re = parse(file.lang, sk.text.clone()).unwrap();
    if re.parse_errors > file.parse_errors {
        bad.push(format!(
            "{name}: skeleton has {} ERROR/MISSING, original {}",
            re.parse_errors, file.parse_errors
        ));
    }
    let funcs = codethread_lang::index_functions(file);
    for e in &sk.edits {
        let inside = funcs.iter().any(|f| {
            f.node.start_line == e.line
                && f.node.start_byte < e.start_byte
                && f.find_node(file)
                    .is_some_and(|n| e.end_byte <= n.end_byte())
        });
        if !inside {
            bad.push(format!(
                "{name}: edit {} lies outside its function",
                e.function
            ));
        }
    }
    // Idempotent, but for one case (`docs/skeleton.md`, invariants): the
    // stubs change tree-sitter's error recovery, so the skeleton's index may
    // see or select a function near an error the first run neither stubbed
    // nor skipped (fmt's `color.h` `vprint`, whose recovered header held
    // `FMT_CONSTEXPR` in the original), which the fallback rule then stubs,
    // flagged `near_parse_error`.
    let skipped_first: std::collections::BTreeSet<&str> =
        sk.skipped.iter().map(|k| k.function.as_str()).collect();
    let unseen = |e: &codethread_skeleton::Edit| {
        e.warnings == [codethread_skeleton::Warning::NearParseError]
            && !skipped_first.contains(e.function.as_str())
    };
    match skeletonize(&re, &[selector(except, &re.source)], &opts()) {
        Ok(s2) if s2.edits.iter().all(unseen) && (!s2.edits.is_empty() || s2.text == sk.text) => {}
        Ok(s2) => bad.push(format!(
            "{name}: second run made {} edits, first {:?}",
            s2.edits.len(),
            s2.edits.first()
        )),
        Err(e) => bad.push(format!("{name}: second run failed: {e}")),
    }
    bad
}

#[derive(Default, Debug)]
struct Counts {
    files: usize,
    with_parse_errors: usize,
    functions: usize,
    stubbed: usize,
    skipped: BTreeMap<String, usize>,
}

/// Skeletonize every new-language file under `root` (C-family files as
/// `hint` when given), check the invariants, and write `orig/` and `skel/`
/// trees under `out` when given.
fn run_tree(label: &str, root: &Path, hint: Option<Lang>, out: Option<&Path>) -> Counts {
    run_tree_except(label, root, hint, out, &[])
}

/// [`run_tree`], leaving out the functions whose header (the bytes from the
/// node's start through the body opener) contains one of `except`.
fn run_tree_except(
    label: &str,
    root: &Path,
    hint: Option<Lang>,
    out: Option<&Path>,
    except: &'static [&'static str],
) -> Counts {
    let (files, errors) = codethread_lang::source_files(root);
    assert!(errors.is_empty(), "{errors:?}");
    let mut c = Counts::default();
    let mut bad = Vec::new();
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let Some(lang) = Lang::for_source(&p, &bytes, hint) else {
            continue;
        };
        if !NEW_LANGS.contains(&lang) {
            continue;
        }
        let rel = p.strip_prefix(root).unwrap().to_path_buf();
        let name = format!("{label}/{}", rel.display());
        let file = parse(lang, bytes.clone()).unwrap();
        let sk = match skeletonize(&file, &[selector(except, &bytes)], &opts()) {
            Ok(s) => s,
            Err(e) => {
                bad.push(format!("{name}: {e}"));
                continue;
            }
        };
        bad.extend(check(&name, &file, &sk, except));
        c.files += 1;
        c.with_parse_errors += usize::from(file.parse_errors > 0);
        c.functions += codethread_lang::index_functions(&file)
            .iter()
            .filter(|f| !f.anonymous)
            .count();
        c.stubbed += sk.edits.len();
        for s in &sk.skipped {
            let key = format!("{:?}", s.reason);
            let key = key.split('(').next().unwrap_or(&key).to_string();
            *c.skipped.entry(key).or_default() += 1;
        }
        if let Some(out) = out {
            for (dir, b) in [("orig", &bytes), ("skel", &sk.text)] {
                let q = out.join(dir).join(&rel);
                std::fs::create_dir_all(q.parent().unwrap()).unwrap();
                std::fs::write(&q, b).unwrap();
            }
        }
    }
    println!(
        "{label}: {} files ({} with tree-sitter errors), {} named functions, {} stubbed, skipped {:?}",
        c.files, c.with_parse_errors, c.functions, c.stubbed, c.skipped
    );
    for b in bad.iter().take(20) {
        println!("FAIL {b}");
    }
    assert!(bad.is_empty(), "{label}: {} failures", bad.len());
    c
}

/// Run `cmd(tree, rel)` for every file of `orig/` with one of `exts`; where
/// the original passes, the skeleton must pass too. Prints the counts.
fn gate(
    label: &str,
    out: &Path,
    exts: &[&str],
    cmd: impl Fn(&Path, &Path) -> Command,
) -> (usize, usize) {
    let (files, _) = codethread_lang::source_files(&out.join("orig"));
    let (mut pass, mut skipped) = (0, 0);
    let mut bad = Vec::new();
    for p in files {
        if !p
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            continue;
        }
        let rel = p.strip_prefix(out.join("orig")).unwrap().to_path_buf();
        let run = |tree: &str| {
            let o = cmd(&out.join(tree), &rel).output().unwrap();
            (
                o.status.success(),
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                ),
            )
        };
        if !run("orig").0 {
            skipped += 1;
            continue;
        }
        let (ok, msg) = run("skel");
        if ok {
            pass += 1;
        } else {
            bad.push(format!("{}: {}", rel.display(), first_lines(&msg, 6)));
        }
    }
    println!(
        "{label}: {pass} skeletons pass; {} fail; {skipped} originals fail the check themselves (skipped)",
        bad.len()
    );
    for b in bad.iter().take(10) {
        println!("FAIL {b}");
    }
    assert!(bad.is_empty(), "{label}: {} skeletons fail", bad.len());
    assert!(pass > 0, "{label}: nothing checked");
    (pass, skipped)
}

fn first_lines(s: &str, n: usize) -> String {
    s.lines().take(n).collect::<Vec<_>>().join("\n")
}

fn corpus(name: &str) -> Option<PathBuf> {
    codethread_testkit::shared_path(&format!("metrics/corpora/{name}"))
}

#[test]
fn ruby_jekyll_and_dev_ruby_c() {
    let Some(root) = corpus("jekyll") else { return };
    let out = tmp("jekyll");
    let c = run_tree("jekyll", &root, None, Some(&out));
    assert!(c.stubbed > 500, "{c:?}");
    if require_tool("ruby", &["--version"]) {
        gate("ruby -c jekyll", &out, &["rb"], |tree, rel| {
            let mut c = Command::new("ruby");
            c.arg("-c").arg(tree.join(rel));
            c
        });
    }
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn php_carbon_and_dev_php_l() {
    let Some(root) = corpus("carbon") else { return };
    let out = tmp("carbon");
    let c = run_tree("carbon", &root, None, Some(&out));
    assert!(c.stubbed > 500, "{c:?}");
    if require_tool("php", &["--version"]) {
        gate("php -l carbon", &out, &["php"], |tree, rel| {
            let mut c = Command::new("php");
            c.arg("-l").arg(tree.join(rel));
            c
        });
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Declarations of the annotations gson and its extras import (errorprone,
/// `javax.annotation.PostConstruct`; their only compile-time dependencies),
/// so the library compiles without Maven: (package, name, declaration).
const JAVA_SHIMS: &[(&str, &str, &str)] = &[
    (
        "com.google.errorprone.annotations",
        "CanIgnoreReturnValue",
        "public @interface CanIgnoreReturnValue {}",
    ),
    (
        "com.google.errorprone.annotations",
        "CheckReturnValue",
        "public @interface CheckReturnValue {}",
    ),
    (
        "com.google.errorprone.annotations",
        "InlineMe",
        "public @interface InlineMe { String replacement(); String[] imports() default {}; String[] staticImports() default {}; }",
    ),
    (
        "javax.annotation",
        "PostConstruct",
        "public @interface PostConstruct {}",
    ),
];

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let (files, _) = codethread_lang::source_files(dir);
    out.extend(
        files
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "java"))
            .filter(|p| p.file_name().is_some_and(|n| n != "module-info.java")),
    );
}

#[test]
fn java_gson_javac() {
    let Some(root) = corpus("gson") else { return };
    let out = tmp("gson");
    let c = run_tree("gson", &root, None, Some(&out));
    assert!(c.stubbed > 1000, "{c:?}");
    if !require_tool("javac", &["--version"]) {
        return;
    }
    for (package, name, body) in JAVA_SHIMS {
        let dir = out.join("shims").join(package.replace('.', "/"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(format!("{name}.java")),
            format!("package {package};\n{body}\n"),
        )
        .unwrap();
    }
    let mut results = Vec::new();
    for tree in ["orig", "skel"] {
        let mut srcs = Vec::new();
        for sub in [
            "gson/src/main/java",
            "gson/src/main/java-templates",
            "extras/src/main/java",
        ] {
            java_files(&out.join(tree).join(sub), &mut srcs);
        }
        java_files(&out.join("shims"), &mut srcs);
        let classes = out.join(format!("classes-{tree}"));
        let o = Command::new("javac")
            .arg("-nowarn")
            .arg("-d")
            .arg(&classes)
            .args(&srcs)
            .output()
            .unwrap();
        let msg = String::from_utf8_lossy(&o.stderr).into_owned();
        println!(
            "javac gson {tree}: {} files, {}",
            srcs.len(),
            if o.status.success() {
                "compiles".to_string()
            } else {
                first_lines(&msg, 20)
            }
        );
        results.push((o.status.success(), msg));
    }
    assert!(
        results[0].0,
        "the original gson does not compile: {}",
        results[0].1
    );
    assert!(results[1].0, "the gson skeleton does not compile");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn c_jq_gcc() {
    let Some(root) = corpus("jq") else { return };
    let out = tmp("jq");
    let c = run_tree("jq", &root, Some(Lang::C), Some(&out));
    assert!(c.stubbed > 500, "{c:?}");
    if !require_tool("gcc", &["--version"]) {
        return;
    }
    let (pass, _) = gate("gcc -fsyntax-only -Wall jq", &out, &["c"], |tree, rel| {
        let mut c = Command::new("gcc");
        c.args(["-fsyntax-only", "-Wall"])
            .arg("-I")
            .arg(tree.join("src"))
            .arg("-I")
            .arg(tree.join("vendor/decNumber"))
            .arg(tree.join(rel));
        c
    });
    assert!(pass >= 20, "{pass}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn cpp_fmt_gxx() {
    let Some(root) = corpus("fmt") else { return };
    // Every function for the tree-sitter checks.
    let all = run_tree("fmt", &root, Some(Lang::Cpp), None);
    assert!(all.stubbed > 2000, "{all:?}");
    // The compiler gate leaves out the functions fmt evaluates at compile
    // time (`constexpr`, `consteval`, and the FMT_CONSTEXPR / FMT_CONSTEVAL
    // macros that expand to them): no stub body is a constant expression
    // (the `constexpr_stub` warning), so their compile-time uses could not
    // compile with any stub.
    let out = tmp("fmt");
    let c = run_tree_except(
        "fmt (without constexpr/consteval)",
        &root,
        Some(Lang::Cpp),
        Some(&out),
        &["constexpr", "consteval", "CONSTEXPR", "CONSTEVAL"],
    );
    assert!(c.stubbed > 1000, "{c:?}");
    if !require_tool("g++", &["--version"]) {
        return;
    }
    gate(
        "g++ -std=c++17 -fsyntax-only -Wall fmt",
        &out,
        &["cc", "h"],
        |tree, rel| {
            let mut c = Command::new("g++");
            c.args(["-std=c++17", "-fsyntax-only", "-Wall"])
                .arg("-I")
                .arg(tree.join("include"))
                .arg("-I")
                .arg(tree.join("test/gtest"))
                .arg(tree.join(rel));
            c
        },
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn dev_multilingual_before_images() {
    let Some(files) = codethread_testkit::shared_path("chains/dev_multilingual/files") else {
        return;
    };
    let (mut total, mut stubbed) = (0, 0);
    let out = tmp("dev");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&files)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for inst in dirs {
        let id = inst.file_name().unwrap().to_string_lossy().into_owned();
        let before = inst.join("before");
        if !before.is_dir() {
            continue;
        }
        // fmt is a C++ repository: its `.h` files are C++ (`docs/target-rules.md`).
        let hint = id.starts_with("fmtlib__").then_some(Lang::Cpp);
        let c = run_tree(&id, &before, hint, Some(&out.join(&id)));
        total += c.files;
        stubbed += c.stubbed;
    }
    println!("dev_multilingual: {total} before files, {stubbed} stubs");
    assert!(total >= 25 && stubbed > 100, "{total} {stubbed}");
    let mut checked = 0;
    for (tool, args, ext) in [("ruby", &["-c"][..], "rb"), ("php", &["-l"][..], "php")] {
        if !require_tool(tool, &["--version"]) {
            continue;
        }
        let (dirs, _) = codethread_lang::source_files(&out);
        for p in dirs {
            let s = p.to_string_lossy().into_owned();
            if !s.contains("/orig/") || !s.ends_with(&format!(".{ext}")) {
                continue;
            }
            let skel = PathBuf::from(s.replacen("/orig/", "/skel/", 1));
            let ok = |f: &Path| {
                Command::new(tool)
                    .args(args)
                    .arg(f)
                    .output()
                    .unwrap()
                    .status
                    .success()
            };
            if ok(&p) {
                assert!(ok(&skel), "{tool} {args:?} fails on the skeleton of {s}");
                checked += 1;
            }
        }
    }
    println!("dev_multilingual: {checked} Ruby / PHP skeletons pass ruby -c / php -l");
    let _ = std::fs::remove_dir_all(&out);
}

const JAVA_SAMPLE: &str = r#"package sample;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

abstract class Base {
    protected final int x;

    Base(int x) {
        this.x = x;
    }

    abstract int f();
}

final class Derived extends Base implements Comparable<Derived> {
    private final String name;
    private final List<String> items;

    /** Javadoc stays. */
    Derived(int x, String name) { // the parent first
        // a comment before the call
        super(x);
        this.name = Objects.requireNonNull(name);
        this.items = new ArrayList<>();
    }

    Derived(String name) { this(name.length(), name); }

    @Override
    int f() {
        return x * 2;
    }

    @Override public int compareTo(Derived o) { return Integer.compare(x, o.x); }

    static <T extends Comparable<T>> T max(List<T> xs) {
        T best = null;
        for (T t : xs) {
            if (best == null || t.compareTo(best) > 0) {
                best = t;
            }
        }
        return best;
    }

    Iterator<String> iterator() {
        return new Iterator<String>() {
            int i = 0;
            @Override public boolean hasNext() { return i < items.size(); }
            @Override public String next() { return items.get(i++); }
        };
    }

    @SuppressWarnings("unchecked")
    <T> T[] empty(int n) {
        return (T[]) new Object[n];
    }
}

enum Op {
    ADD("+") {
        @Override
        int apply(int a, int b) {
            return a + b;
        }
    },
    MUL("*") { @Override int apply(int a, int b) { return a * b; } };

    private final String sym;

    Op(String sym) {
        this.sym = sym;
    }

    abstract int apply(int a, int b);

    String sym() { return sym; }
}

record Point(int x, int y) {
    Point {
        if (x < 0) {
            throw new IllegalArgumentException("x");
        }
    }

    Point(int v) {
        this(v, v);
    }

    double norm() { return Math.sqrt(x * x + y * y); }

    static Point origin() { return new Point(0, 0); }
}

interface Shape {
    double area();

    default String describe() {
        return "area " + area();
    }

    static Shape unit() { return () -> 1.0; }

    private int helper() { return 1; }
}

@interface Marker {
    String value() default "";
}

class Outer {
    private final int k;

    Outer() {
        super();
        k = 1;
    }

    class Inner extends Base {
        Inner() { super(3); }

        int f() { return k; }
    }

    int local() {
        class Local {
            int g() { return 2; }
        }
        return new Local().g();
    }

    void io() throws java.io.IOException {
        throw new java.io.IOException();
    }

    synchronized char c() { return 'x'; }

    static { System.setProperty("a", "b"); }
}
"#;

const C_SAMPLE: &str = r#"#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct point {
    int x, y;
};

typedef struct node {
    struct node *next;
    int value;
} node_t;

union num { int i; double d; };

static struct point make_point(int x, int y) {
    struct point p = { x, y };
    return p;
}

static node_t *push(node_t *head, int v)
{
    node_t *n = malloc(sizeof *n);
    if (!n)
        return head;
    n->next = head;
    n->value = v;
    return n;
}

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }

/* A function returning a function pointer. */
int (*pick(int which))(int, int) {
    return which ? add : sub;
}

static inline int sq(int x) { return x * x; }

double avg(const double *xs, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) {
        s += xs[i];
    }
    return n ? s / n : 0;
}

int sum(int n, ...) {
    va_list ap;
    int s = 0;
    va_start(ap, n);
    while (n--)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

union num half(union num v) { v.d /= 2; return v; }

const char *name_of(int k) {
    switch (k) {
    case 0: return "zero";
    default: return "many";
    }
}

_Noreturn void die(const char *m) {
    fprintf(stderr, "%s\n", m);
    exit(1);
}

void empty(void) {}

#ifdef USE_ONE
int cond(void) { return 1; }
#else
int cond(void) { return 0; }
#endif

int main(int argc, char **argv) {
    node_t *h = push(NULL, argc);
    struct point p = make_point(1, 2);
    (void)argv;
    printf("%d %d %d %d\n", h->value, p.x, pick(1)(2, 3), sq(cond()));
    return 0;
}
"#;

const CPP_SAMPLE: &str = r#"#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace geo {

struct Base {
    explicit Base(int id) : id_(id) {}
    virtual ~Base() = default;
    virtual double area() const = 0;
    int id() const { return id_; }

  protected:
    int id_;
};

class Circle final : public Base {
  public:
    Circle(int id, double r)
        : Base(id), r_(r), name_("circle") {
        if (r < 0) {
            throw std::invalid_argument("r");
        }
    }
    Circle(const Circle&) = default;
    Circle& operator=(const Circle&) = delete;
    double area() const override { return 3.14159 * r_ * r_; }
    bool operator==(const Circle& o) const { return r_ == o.r_; }
    explicit operator bool() const { return r_ > 0; }
    const std::string& name() const& { return name_; }
    static constexpr double pi() { return 3.14159; }
    friend bool same(const Circle& a, const Circle& b) { return a.r_ == b.r_; }

  private:
    const double r_;
    std::string name_;
};

template <typename T>
class Stack {
  public:
    Stack() try : items_() {
        items_.reserve(4);
    } catch (...) {
        throw;
    }
    void push(T v) { items_.push_back(std::move(v)); }
    T& top() { return items_.back(); }
    template <typename F>
    auto map(F f) const -> Stack<decltype(f(std::declval<T>()))>;
    T operator[](std::size_t i) const { return items_[i]; }

  private:
    std::vector<T> items_;
};

template <typename T>
template <typename F>
auto Stack<T>::map(F f) const -> Stack<decltype(f(std::declval<T>()))> {
    Stack<decltype(f(std::declval<T>()))> out;
    for (const auto& x : items_) out.push(f(x));
    return out;
}

template <>
inline int& Stack<int>::top() { return items_.front(); }

constexpr int square(int x) { return x * x; }
template <typename T> constexpr T twice(T x) { return x + x; }
int& global_ref() { static int g = 0; return g; }
std::unique_ptr<Base> make(int id) { return std::make_unique<Circle>(id, 1.0); }

int checked(int x)
try {
    if (x < 0) throw std::runtime_error("neg");
    return x;
} catch (const std::runtime_error& e) {
    return -1;
} catch (...) {
    return -2;
}

inline auto deduced_unused() { return 1; }

}  // namespace geo

namespace {
int hidden(int a) { return a; }
}

extern "C" int c_api(int x) { return geo::square(hidden(x)); }

struct Point { int x, y; };
Point operator+(Point a, Point b) { return {a.x + b.x, a.y + b.y}; }

int main() {
    geo::Stack<int> s;
    s.push(1);
    auto lam = [](int a) { return a + 1; };
    return lam(geo::checked(s.top())) == 0;
}
"#;

const RUBY_SAMPLE: &str = r#"# frozen_string_literal: true

module Shapes
  class Circle < Struct.new(:r)
    def initialize(r) # keep me
      super
      @r = r
    end

    def area = 3.14 * r * r

    def self.unit(n = 1) = new(n)

    def empty; end

    def empty2
    end

    def with_rescue(x)
      Integer(x)
    rescue ArgumentError => e
      warn e.message
      nil
    else
      1
    ensure
      @done = true
    end

    def heredoc
      <<~TEXT
        r = #{r}
        end
      TEXT
    end

    private def secret(a, *rest, key: 1, **opts, &blk)
      blk&.call(a, rest, key, opts)
    end

    def one_line(a) a + 1 end

    def semi; 1; end

    def ==(other) = other.is_a?(Circle) && other.r == r

    def valid? = r.positive?

    class << self
      def build(*args)
        new(*args)
      end
    end
  end

  def self.registry
    @registry ||= {}
  end
end

def top_level(x)
  def nested_in(y)
    y * 2
  end
  nested_in(x)
end
"#;

const PHP_SAMPLE: &str = r#"<?php
declare(strict_types=1);

namespace App\Models;

use Closure;

interface HasName
{
    public function name(): string;
}

abstract class Model implements HasName
{
    abstract protected function table(): string;

    public function __construct(private readonly int $id, protected array $attrs = [])
    {
        $this->boot();
    }

    public function name(): string { return static::class; }

    public function fail(): never
    {
        throw new \RuntimeException('x');
    }

    public function nothing(): void {}

    public function &attrs(): array
    {
        return $this->attrs;
    }

    public static function make(mixed ...$args): static
    {
        return new static(...$args);
    }

    public function rows(): \Generator
    {
        foreach ($this->attrs as $k => $v) {
            yield $k => $v;
        }
    }

    private function boot(): void
    {
        $f = function () use (&$x) { return 1; };
        $g = fn ($y) => $y + 1;
        ?><p>inline html</p><?php
        $doc = <<<EOT
  heredoc {$this->id}
  EOT;
    }
}

trait Greets
{
    public function greet(): string { return 'hi'; }
}

enum Suit: string
{
    case Hearts = 'H';

    public function label(): string
    {
        return ucfirst($this->name);
    }
}

if (! function_exists('App\Models\helper')) {
    function helper($x)
    {
        function inner_helper() { return 2; }
        return $x;
    }
}

$anon = new class {
    public function run(): int { return 1; }
};
?>
<p>footer</p>
</body></html>
"#;

/// A template: mostly HTML, functions between `<?php` blocks, a body that
/// leaves PHP and comes back.
const PHP_HTML_SAMPLE: &str = r#"<!DOCTYPE html>
<html>
<head><title><?php echo title(); ?></title></head>
<body>
<?php function title() { return 'T'; } ?>
<ul>
<?php function items(array $xs) { ?>
  <?php foreach ($xs as $x): ?>
    <li><?= htmlspecialchars($x) ?></li>
  <?php endforeach; ?>
<?php } ?>
</ul>
<?php
function footer(): void
{
    ?>
    <footer>bye</footer>
    <?php
}
?>
</body>
</html>
"#;

/// The sample as it is, with CRLF line endings, and with tab indentation
/// (leading groups of four spaces, or two for Ruby, become tabs).
fn variants(src: &str, unit: &str) -> Vec<(&'static str, String)> {
    let tabs: String = src
        .split_inclusive('\n')
        .map(|l| {
            let n = l.len() - l.trim_start_matches(' ').len();
            let k = n / unit.len();
            format!("{}{}", "\t".repeat(k), &l[k * unit.len()..])
        })
        .collect();
    vec![
        ("lf", src.to_string()),
        ("crlf", src.replace('\n', "\r\n")),
        ("tabs", tabs),
    ]
}

/// Stub every function of `src` and check the invariants; returns the
/// skeleton.
fn stub_sample(lang: Lang, name: &str, src: &str) -> Skeleton {
    let sk = skeletonize_source(lang, src, &[Selector::All], &Options::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let file = parse(lang, src).unwrap();
    assert_eq!(file.parse_errors, 0, "{name}: the sample does not parse");
    let bad = check(name, &file, &sk, &[]);
    assert!(bad.is_empty(), "{bad:?}");
    assert!(!sk.edits.is_empty(), "{name}");
    // Every named function is stubbed, except those without a body.
    for s in &sk.skipped {
        assert!(
            s.reason == SkipReason::NoBody,
            "{name}: {} (line {}) not stubbed: {:?}",
            s.function,
            s.line,
            s.reason
        );
    }
    if src.contains("\r\n") {
        let text = String::from_utf8_lossy(&sk.text);
        assert_eq!(
            text.matches('\n').count(),
            text.matches("\r\n").count(),
            "{name}: bare LF in a CRLF skeleton"
        );
    }
    sk
}

/// Warnings of a checker's output other than the `-Wunused-*` ones a stub
/// causes by design (a static helper whose callers were all stubbed).
fn new_warnings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.contains("warning:") && !l.contains("-Wunused"))
        .map(str::to_string)
        .collect()
}

fn sample_gate(
    label: &str,
    lang: Lang,
    src: &str,
    unit: &str,
    file_name: &str,
    tool: &str,
    args: &[&str],
) {
    let mut stubs = 0;
    let dir = tmp(&format!("sample-{label}"));
    let have = require_tool(tool, &["--version"]);
    let mut checked = 0;
    for (variant, text) in variants(src, unit) {
        let sk = stub_sample(lang, &format!("{label} {variant}"), &text);
        stubs += sk.edits.len();
        if !have {
            continue;
        }
        for (tree, bytes) in [("orig", text.as_bytes()), ("skel", &sk.text[..])] {
            let d = dir.join(variant).join(tree);
            std::fs::create_dir_all(&d).unwrap();
            let p = d.join(file_name);
            std::fs::write(&p, bytes).unwrap();
            let o = Command::new(tool)
                .args(args)
                .arg(&p)
                .current_dir(&d)
                .output()
                .unwrap();
            let err = format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                o.status.success(),
                "{label} {variant} {tree}: {tool} fails:\n{err}\n{}",
                String::from_utf8_lossy(bytes)
            );
            let warnings = new_warnings(&err);
            assert!(
                warnings.is_empty(),
                "{label} {variant} {tree}: {warnings:?}"
            );
        }
        checked += 1;
    }
    println!("{label}: {stubs} stubs in 3 variants (LF, CRLF, tabs); {checked} skeletons pass {tool} {args:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn java_sample_javac() {
    sample_gate(
        "java sample",
        Lang::Java,
        JAVA_SAMPLE,
        "    ",
        "Sample.java",
        "javac",
        &["-Xlint:all", "-Xlint:-options", "-d", "classes"],
    );
}

#[test]
fn c_sample_gcc() {
    sample_gate(
        "c sample",
        Lang::C,
        C_SAMPLE,
        "    ",
        "sample.c",
        "gcc",
        &["-std=c11", "-fsyntax-only", "-Wall"],
    );
}

#[test]
fn cpp_sample_gxx() {
    sample_gate(
        "c++ sample",
        Lang::Cpp,
        CPP_SAMPLE,
        "    ",
        "sample.cpp",
        "g++",
        &["-std=c++17", "-fsyntax-only", "-Wall"],
    );
}

#[test]
fn ruby_sample_ruby_c() {
    sample_gate(
        "ruby sample",
        Lang::Ruby,
        RUBY_SAMPLE,
        "  ",
        "sample.rb",
        "ruby",
        &["-wc"],
    );
}

#[test]
fn php_sample_php_l() {
    sample_gate(
        "php sample",
        Lang::Php,
        PHP_SAMPLE,
        "    ",
        "sample.php",
        "php",
        &["-l"],
    );
    sample_gate(
        "php html sample",
        Lang::Php,
        PHP_HTML_SAMPLE,
        "    ",
        "template.php",
        "php",
        &["-l"],
    );
}
