//! Compiler / parser gates with the real toolchains, where they are on the
//! machine (each gate prints a SKIPPED line when its tool is absent):
//!
//! - Python: `compile()` of every skeleton whose original compiles, plus an
//!   independent `ast` check that every surviving function keeps its
//!   sync/async and generator kind;
//! - JavaScript: `node --check`;
//! - Rust: `rustfmt --check` reports no parse error for a skeleton whose
//!   original has none (formatting differences are ignored);
//! - Go: `gofmt -e`.
//!
//! Skeletons come from `skeletonize_dir` (`--all`) over the real corpora and
//! the DEV instances' `before/` files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use codethread_skeleton::{skeletonize_dir, Options, ParseErrorPolicy, Selector};

fn tool(name: &str, arg: &str) -> bool {
    let ok = Command::new(name)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("SKIPPED: `{name}` is not on this machine; its gate did not run");
    }
    ok
}

/// Write `orig/` and `skel/` trees for every supported file under `root`;
/// returns relative paths (only files that skeletonized) with the number of
/// edits.
fn write_trees(root: &Path, out: &Path, keep_docs: bool) -> Vec<(PathBuf, usize)> {
    let opts = Options::default()
        .keep_docs(keep_docs)
        .on_parse_errors(ParseErrorPolicy::SkipAffected);
    let outcomes = skeletonize_dir(root, &[Selector::All], &opts).unwrap();
    let mut rels = Vec::new();
    for o in outcomes {
        let sk = o.result.unwrap_or_else(|e| panic!("{e}"));
        for (dir, bytes) in [("orig", &o.source), ("skel", &sk.text)] {
            let p = out.join(dir).join(&o.rel_path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, bytes).unwrap();
        }
        rels.push((o.rel_path, sk.edits.len()));
    }
    rels
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("codethread-skeleton-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    p
}

const PY_CHECK: &str = r#"
import ast, sys
def kinds(tree):
    out = []
    def gen(fn):
        stack = list(ast.iter_child_nodes(fn))
        # decorators, defaults and annotations are evaluated outside
        stack = [n for n in fn.body]
        while stack:
            n = stack.pop()
            if isinstance(n, (ast.Yield, ast.YieldFrom)):
                return True
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            stack.extend(ast.iter_child_nodes(n))
        return False
    def walk(node, prefix):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)):
                q = prefix + ch.name
                out.append((q, isinstance(ch, ast.AsyncFunctionDef), gen(ch)))
                walk(ch, q + ".")
            elif isinstance(ch, ast.ClassDef):
                walk(ch, prefix + ch.name + ".")
            else:
                walk(ch, prefix)
    walk(tree, "")
    return out
orig, skel = sys.argv[1], sys.argv[2]
checked = skipped = funcs = 0
bad = []
for rel in sys.stdin.read().split("\n"):
    if not rel:
        continue
    try:
        o = ast.parse(open(orig + "/" + rel, "rb").read())
        compile(o, rel, "exec")
    except (SyntaxError, ValueError):
        skipped += 1
        continue
    try:
        s = ast.parse(open(skel + "/" + rel, "rb").read())
        compile(s, rel, "exec")
    except (SyntaxError, ValueError) as e:
        bad.append(f"{rel}: {e}")
        continue
    checked += 1
    ko = {}
    for q, a, g in kinds(o):
        ko.setdefault(q, []).append((a, g))
    for q, a, g in kinds(s):
        funcs += 1
        if (a, g) not in ko.get(q, []):
            bad.append(f"{rel}: {q} async={a} generator={g} not in original {ko.get(q)}")
print(f"python: {checked} skeletons compile; {skipped} originals do not compile (skipped); {funcs} surviving functions kept their kind")
for b in bad[:30]:
    print("FAIL", b)
sys.exit(1 if bad else 0)
"#;

#[test]
fn python_compile_gate() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    if !tool("python3", "--version") {
        return;
    }
    for keep_docs in [false, true] {
        for sub in ["requests", "django"] {
            let out = tmp(&format!("py-{sub}-{keep_docs}"));
            let rels = write_trees(&corpora.join(sub), &out, keep_docs);
            let list: Vec<String> = rels
                .iter()
                .filter(|(r, _)| r.extension().is_some_and(|e| e == "py"))
                .map(|(r, _)| r.display().to_string())
                .collect();
            assert!(list.len() > 10);
            let mut child = Command::new("python3")
                .args(["-c", PY_CHECK])
                .arg(out.join("orig"))
                .arg(out.join("skel"))
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(list.join("\n").as_bytes())
                .unwrap();
            let res = child.wait_with_output().unwrap();
            let text = String::from_utf8_lossy(&res.stdout);
            println!("{sub} keep_docs={keep_docs}: {text}");
            assert!(res.status.success(), "{text}");
            let _ = std::fs::remove_dir_all(&out);
        }
    }
}

/// Run `check` on each original; where it passes, it must pass on the
/// skeleton too.
fn per_file_gate(label: &str, root: &Path, ext: &[&str], check: impl Fn(&Path) -> (bool, String)) {
    let out = tmp(label);
    let rels = write_trees(root, &out, false);
    let (mut checked, mut skipped, mut edits) = (0, 0, 0);
    let mut bad = Vec::new();
    for (rel, n) in &rels {
        if !rel.extension().is_some_and(|e| ext.iter().any(|x| e == *x)) {
            continue;
        }
        if !check(&out.join("orig").join(rel)).0 {
            skipped += 1;
            continue;
        }
        checked += 1;
        edits += n;
        let (ok, msg) = check(&out.join("skel").join(rel));
        if !ok {
            bad.push(format!("{}: {msg}", rel.display()));
        }
    }
    println!("{label}: {checked} skeletons ({edits} stubs) pass; {skipped} originals fail the check themselves (skipped)");
    for b in bad.iter().take(20) {
        println!("FAIL {b}");
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(bad.is_empty(), "{label}: {} failures", bad.len());
    assert!(checked > 0, "{label}: nothing checked");
}

#[test]
fn javascript_node_check_gate() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    if !tool("node", "--version") {
        return;
    }
    for sub in ["express", "lodash"] {
        per_file_gate(
            &format!("node-{sub}"),
            &corpora.join(sub),
            &["js", "mjs", "cjs"],
            |p| {
                let o = Command::new("node").arg("--check").arg(p).output().unwrap();
                (
                    o.status.success(),
                    String::from_utf8_lossy(&o.stderr).into_owned(),
                )
            },
        );
    }
}

#[test]
fn rust_rustfmt_parse_gate() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    if !tool("rustfmt", "--version") {
        return;
    }
    per_file_gate("rustfmt-ripgrep", &corpora.join("ripgrep"), &["rs"], |p| {
        // `--check` exits 1 for formatting differences too; only
        // `error` lines on stderr are parse failures.
        let o = Command::new("rustfmt")
            .args(["--check", "--edition", "2021"])
            .arg(p)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        (!err.contains("error"), err)
    });
}

#[test]
fn go_gofmt_gate() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    // An empty file is no Go source to every gofmt (Go 1.19's exits 2 on `/dev/null`, which
    // made this gate print SKIPPED on a machine that has gofmt): probe with a valid one.
    let probe = std::env::temp_dir().join(format!("ct-gofmt-probe-{}.go", std::process::id()));
    std::fs::write(&probe, "package p\n").unwrap();
    let have = tool("gofmt", probe.to_str().unwrap());
    let _ = std::fs::remove_file(&probe);
    if !have {
        return;
    }
    for sub in ["gin", "cobra"] {
        per_file_gate(&format!("gofmt-{sub}"), &corpora.join(sub), &["go"], |p| {
            let o = Command::new("gofmt")
                .arg("-e")
                .arg("-l")
                .arg(p)
                .output()
                .unwrap();
            (
                o.status.success(),
                String::from_utf8_lossy(&o.stderr).into_owned(),
            )
        });
    }
}

/// `tsc`: `CODETHREAD_TSC` (a TypeScript compiler, e.g. from `npm install
/// typescript`), else `tsc` on the PATH; `None` (SKIPPED) without one.
fn tsc() -> Option<PathBuf> {
    let t = std::env::var_os("CODETHREAD_TSC")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("tsc"));
    if Command::new(&t)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        Some(t)
    } else {
        println!(
            "SKIPPED: no TypeScript compiler (CODETHREAD_TSC or tsc); the tsc gate did not run"
        );
        None
    }
}

/// Issue 33: a TypeScript function with no declared return type keeps the
/// type its callers see: every function of a module stubbed, its callers
/// (not stubbed) still pass `tsc --noEmit --strict` (a throw-only stub is
/// inferred `never`: `Property 'double' does not exist on type 'never'`).
#[test]
fn typescript_callers_type_check_against_stubs() {
    let Some(tsc) = tsc() else { return };
    let base = r#"export class Box {
  private items: number[] = [];
  constructor(n: number) { this.items = [n]; }
  get size() { return this.items.length; }
  set size(v: number) { this.items.length = v; }
  first() { return this.items[0]; }
  typed(): number { return this.items.length; }
  *gen() { yield 1; }
}
export function make(x: number) { return { x, double: () => x * 2 }; }
export const arrow = (s: string) => s.toUpperCase();
export async function later() { return "done"; }
"#;
    let user = r#"import { Box, make, arrow, later } from "./base";
const b = new Box(1);
b.size = 2;
export const n: number = b.first() + b.size + b.typed();
const m = make(2);
export const d: number = m.double() + m.x;
export const u: string = arrow("a").toLowerCase();
later().then((s) => s.length);
for (const v of b.gen()) { const w: number = v; console.log(w); }
"#;
    let sk = codethread_skeleton::skeletonize_source(
        codethread_lang::Lang::TypeScript,
        base.as_bytes().to_vec(),
        &[Selector::All],
        &Options::default(),
    )
    .unwrap();
    assert!(sk.edits.len() >= 8, "{:?}", sk.edits);
    let d = tmp("tsc");
    for (name, text) in [("orig", base.as_bytes()), ("skel", &sk.text[..])] {
        let dir = d.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("base.ts"), text).unwrap();
        std::fs::write(dir.join("user.ts"), user).unwrap();
        let out = Command::new(&tsc)
            .args([
                "--noEmit",
                "--strict",
                "--target",
                "es2020",
                "--lib",
                "es2020,dom",
            ])
            .arg(dir.join("base.ts"))
            .arg(dir.join("user.ts"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: tsc: {}{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(text)
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}
