//! Tidy (issue 20): the invariants `docs/ARCHITECTURE.md` states about the
//! shape of the code, checked against the code itself, in the manner of
//! rust-analyzer's `xtask/src/tidy.rs`:
//!
//! 1. only `codethread-lang` depends on a tree-sitter grammar crate;
//! 2. the crate graph written in ARCHITECTURE.md (the `tidy: crate graph`
//!    block) is the graph of the Cargo.toml files, normal and dev edges;
//! 3. no `match` lists every `Lang` variant outside the files the
//!    `tidy: language matches` block names (and each named file has one);
//! 4. no import circle between the modules of a crate: every `crate::` /
//!    `super::` path is lifted to the two sibling modules below the lowest
//!    common ancestor of its two ends, and that graph has no cycle at any
//!    level.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    codethread_tidy::workspace_root()
}

fn architecture() -> String {
    std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap()
}

/// The fenced block that follows the `<!-- tidy: NAME -->` marker.
fn tidy_block(doc: &str, name: &str) -> Vec<String> {
    let marker = format!("<!-- tidy: {name} -->");
    let at = doc
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/ARCHITECTURE.md has no `{marker}` block"));
    let rest = &doc[at + marker.len()..];
    let open = rest.find("```").expect("a fenced block after the marker");
    let body = &rest[open + 3..];
    let body = &body[body.find('\n').unwrap() + 1..];
    let close = body.find("```").expect("the fenced block closes");
    body[..close]
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

fn metadata() -> serde_json::Value {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn is_grammar(dep: &str) -> bool {
    dep.starts_with("tree-sitter-")
}

#[test]
fn only_the_language_crate_depends_on_grammars() {
    let m = metadata();
    let mut offenders = Vec::new();
    for p in m["packages"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        for d in p["dependencies"].as_array().unwrap() {
            let dep = d["name"].as_str().unwrap();
            if is_grammar(dep) && name != "codethread-lang" {
                offenders.push(format!("{name} -> {dep}"));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "grammar crates outside codethread-lang: {offenders:?}"
    );
}

#[test]
fn the_documented_crate_graph_is_the_cargo_graph() {
    // Lines: `crate -> a, b; dev: c, d` (either side may be empty).
    let mut documented: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in tidy_block(&architecture(), "crate graph") {
        let (name, deps) = line
            .split_once("->")
            .unwrap_or_else(|| panic!("crate graph line without `->`: {line}"));
        let mut set = BTreeSet::new();
        let (normal, dev) = match deps.split_once("dev:") {
            Some((n, d)) => (n.trim_end().trim_end_matches(';'), d),
            None => (deps, ""),
        };
        for (kind, list) in [("", normal), ("dev ", dev)] {
            for d in list.split(',').map(str::trim).filter(|d| !d.is_empty()) {
                set.insert(format!("{kind}{d}"));
            }
        }
        assert!(
            documented.insert(name.trim().to_string(), set).is_none(),
            "{name} twice in the crate graph block"
        );
    }
    let m = metadata();
    let mut actual: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for p in m["packages"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap().to_string();
        let set = actual.entry(name).or_default();
        for d in p["dependencies"].as_array().unwrap() {
            let dep = d["name"].as_str().unwrap();
            if !dep.starts_with("codethread") {
                continue;
            }
            match d["kind"].as_str() {
                Some("dev") => set.insert(format!("dev {dep}")),
                _ => set.insert(dep.to_string()),
            };
        }
    }
    assert_eq!(
        documented, actual,
        "docs/ARCHITECTURE.md's crate graph block differs from the Cargo.toml files"
    );
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The library and facade sources: `crates/*/src` and `src`.
fn source_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut crates: Vec<_> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    crates.sort();
    for c in crates {
        if c.join("src").is_dir() {
            roots.push(c.join("src"));
        }
    }
    roots.push(root().join("src"));
    roots
}

/// `text` with comments, string and character literals blanked (same
/// length, newlines kept), so that scanning sees only code.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.iter_mut().take(to).skip(from) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if b[i] == b'r'
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
            && matches!(b.get(i + 1), Some(b'"' | b'#'))
        {
            let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let start = i + 2 + hashes;
            let end = b[start..]
                .windows(close.len())
                .position(|w| w == close.as_slice())
                .map_or(b.len(), |p| start + p + close.len());
            blank(&mut out, i + 1, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j.min(b.len()));
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}'), else a lifetime.
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch = text[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch)
            };
            match end {
                Some(e) => {
                    blank(&mut out, i + 1, e);
                    i = e + 1;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The byte just past the `}` matching the `{` at `open`.
fn matching_brace(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Starts of the whole word `word` in `code`.
fn words<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = code.as_bytes();
    code.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        (i == 0 || !is_ident(b[i - 1])) && b.get(i + word.len()).is_none_or(|&c| !is_ident(c))
    })
}

fn lang_variants() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("crates/codethread-lang/src/lang.rs")).unwrap();
    let code = code_only(&text);
    let at = code
        .find("pub enum Lang")
        .expect("pub enum Lang in lang.rs");
    let open = at + code[at..].find('{').unwrap();
    let close = matching_brace(code.as_bytes(), open);
    code[open + 1..close - 1]
        .split(',')
        .map(|v| {
            v.split_whitespace()
                .rfind(|w| !w.starts_with('#'))
                .unwrap_or("")
                .to_string()
        })
        .filter(|v| !v.is_empty())
        .collect()
}

/// The `match` blocks of `code` whose arm patterns name every variant.
fn exhaustive_lang_matches(code: &str, variants: &[String]) -> Vec<usize> {
    let b = code.as_bytes();
    let mut found = Vec::new();
    for at in words(code, "match") {
        // The scrutinee ends at the first `{` at bracket depth 0.
        let mut depth = 0i32;
        let mut open = None;
        for (k, &c) in b.iter().enumerate().skip(at + 5) {
            match c {
                b'(' | b'[' => depth += 1,
                b')' | b']' => depth -= 1,
                b'{' if depth == 0 => {
                    open = Some(k);
                    break;
                }
                b';' if depth == 0 => break,
                _ => {}
            }
        }
        let Some(open) = open else { continue };
        let close = matching_brace(b, open);
        // Arm patterns: text at depth 1 from an arm start to its `=>`.
        let mut named = BTreeSet::new();
        let (mut depth, mut in_pattern, mut start) = (0i32, true, open + 1);
        let mut k = open;
        while k < close {
            let c = b[k];
            match c {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => depth -= 1,
                _ => {}
            }
            if depth == 1 && in_pattern && b[k..].starts_with(b"=>") {
                let pattern = &code[start..k];
                for v in variants {
                    if words(pattern, v).next().is_some() {
                        named.insert(v.clone());
                    }
                }
                in_pattern = false;
            } else if depth == 1 && !in_pattern && c == b',' {
                in_pattern = true;
                start = k + 1;
            } else if depth == 1 && !in_pattern && c == b'}' {
                // an arm body in braces ends the arm (no comma needed)
                in_pattern = true;
                start = k + 1;
            }
            k += 1;
        }
        if named.len() == variants.len() {
            found.push(at);
        }
    }
    found
}

fn line_of(code: &str, at: usize) -> usize {
    code[..at].bytes().filter(|&c| c == b'\n').count() + 1
}

/// The check behind the two "lives only in the listed files" invariants:
/// `hits(rel, code)` gives the offsets of what is looked for in one source
/// file (`code` from [`code_only`]); every file with a hit must be in the
/// ARCHITECTURE.md block `block`, and every file listed there must have one.
/// Returns (hits outside the list as `file:line`, listed files without a hit).
fn listed_files_check(
    block: &str,
    hits: impl Fn(&str, &str) -> Vec<usize>,
) -> (Vec<String>, Vec<String>) {
    let listed: BTreeSet<String> = tidy_block(&architecture(), block)
        .into_iter()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect();
    let mut outside = Vec::new();
    let mut seen = BTreeSet::new();
    for src in source_roots() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let rel = f
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let code = code_only(&std::fs::read_to_string(&f).unwrap());
            let found = hits(&rel, &code);
            if found.is_empty() {
                continue;
            }
            seen.insert(rel.clone());
            if !listed.contains(&rel) {
                for h in found {
                    outside.push(format!("{rel}:{}", line_of(&code, h)));
                }
            }
        }
    }
    let stale = listed.difference(&seen).cloned().collect();
    (outside, stale)
}

#[test]
fn exhaustive_language_matches_live_in_the_listed_files() {
    let variants = lang_variants();
    assert!(variants.len() >= 11, "Lang variants read: {variants:?}");
    let (outside, stale) = listed_files_check("language matches", |_, code| {
        exhaustive_lang_matches(code, &variants)
    });
    assert!(
        outside.is_empty(),
        "a match over every Lang variant outside the files ARCHITECTURE.md lists \
         (make it a table row, or list the file with a reason): {outside:?}"
    );
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md lists files without a match over every Lang variant: {stale:?}"
    );
}

/// A crate's module tree read from `mod` declarations, from `lib.rs`.
fn module_files(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut mods = BTreeMap::new();
    let lib = if src.join("lib.rs").is_file() {
        src.join("lib.rs")
    } else {
        return mods;
    };
    let mut stack = vec![(Vec::<String>::new(), lib)];
    while let Some((path, file)) = stack.pop() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let code = code_only(&text);
        let dir = file.parent().unwrap().to_path_buf();
        let is_mod_rs = path.is_empty()
            || file
                .file_name()
                .is_some_and(|n| n == "mod.rs" || n == "lib.rs");
        let child_dir = if is_mod_rs {
            dir.clone()
        } else {
            dir.join(file.file_stem().unwrap())
        };
        for at in words(&code, "mod") {
            let rest = &code[at + 3..];
            let name: String = rest
                .trim_start()
                .bytes()
                .take_while(|&c| is_ident(c))
                .map(char::from)
                .collect();
            let after = rest.trim_start()[name.len()..].trim_start();
            if name.is_empty() || !after.starts_with(';') {
                continue; // inline module: part of this file
            }
            // A `#[path = "..."]` attribute just before the declaration.
            let before = &text[..at];
            let line_start = before.rfind('\n').map_or(0, |p| p + 1);
            let attrs = &text[before[..line_start.saturating_sub(1)]
                .rfind('\n')
                .map_or(0, |p| p + 1)..at];
            let mut child = child_dir.join(format!("{name}.rs"));
            if !child.is_file() {
                child = child_dir.join(&name).join("mod.rs");
            }
            if let Some(p) = attrs.find("#[path = \"") {
                let q = &attrs[p + 10..];
                child = dir.join(&q[..q.find('"').unwrap()]);
            }
            if child.is_file() {
                let mut p = path.clone();
                p.push(name);
                stack.push((p, child));
            }
        }
        mods.insert(path, file);
    }
    mods
}

/// Paths of a `use` tree (`a::{b, c::d as e, *}`) below a prefix.
fn expand_use(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    let mut parts = Vec::new();
    let b = tree.as_bytes();
    let (mut depth, mut start) = (0, 0);
    for (k, &c) in b.iter().enumerate() {
        match c {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => {
                parts.push(&tree[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&tree[start..]);
    for part in parts {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        if let Some(open) = part.find('{') {
            let head = part[..open].trim().trim_end_matches("::");
            let mut p = prefix.to_vec();
            p.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            let inner = &part[open + 1..part.rfind('}').unwrap_or(part.len())];
            expand_use(inner, &p, out);
        } else {
            let head = part.split(" as ").next().unwrap();
            let mut p = prefix.to_vec();
            p.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "*" && *s != "self")
                    .map(String::from),
            );
            out.push(p);
        }
    }
}

/// Every `crate::…` / `super::…` path a module's code names, as absolute
/// module-path segments.
fn referenced_paths(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut raw = Vec::new();
    for at in words(code, "use") {
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        expand_use(&code[at + 3..at + end], &[], &mut raw);
    }
    let b = code.as_bytes();
    for head in ["crate", "super"] {
        for at in words(code, head) {
            let mut k = at;
            let mut segs = Vec::new();
            loop {
                let s = k;
                while k < b.len() && is_ident(b[k]) {
                    k += 1;
                }
                segs.push(code[s..k].to_string());
                if b[k..].starts_with(b"::") && b.get(k + 2).is_some_and(|&c| is_ident(c)) {
                    k += 2;
                } else {
                    break;
                }
            }
            raw.push(segs);
        }
    }
    let mut out = Vec::new();
    for segs in raw {
        let mut it = segs.into_iter().peekable();
        let mut abs: Vec<String> = match it.peek().map(String::as_str) {
            Some("crate") => {
                it.next();
                Vec::new()
            }
            Some("super") => module.to_vec(),
            _ => continue,
        };
        while it.peek().is_some_and(|s| s == "super") {
            it.next();
            abs.pop();
        }
        abs.extend(it);
        out.push(abs);
    }
    out
}

/// Cuts `#[cfg(test)] mod name { … }` blocks (their `super::` is the file).
fn without_test_modules(code: &str) -> String {
    let mut out = code.to_string();
    let mut from = 0;
    while let Some(p) = out[from..].find("#[cfg(test)]") {
        let at = from + p;
        let mut rest = out[at + 12..].trim_start();
        // Further attributes (`#[allow(...)]`) between it and the module.
        while rest.starts_with("#[") {
            let close = rest.find(']').map_or(rest.len(), |c| c + 1);
            rest = rest[close..].trim_start();
        }
        let trimmed = rest;
        let body = trimmed.strip_prefix("pub ").unwrap_or(trimmed);
        if let Some(after_mod) = body.strip_prefix("mod ") {
            let name_len = after_mod.bytes().take_while(|&c| is_ident(c)).count();
            if after_mod[name_len..].trim_start().starts_with('{') {
                let open = out.len() - after_mod[name_len..].trim_start().len();
                let close = matching_brace(out.as_bytes(), open);
                let blanked: String = out[at..close]
                    .chars()
                    .map(|c| if c == '\n' { '\n' } else { ' ' })
                    .collect();
                out.replace_range(at..close, &blanked);
            }
        }
        from = at + 12;
    }
    out
}

#[test]
fn no_import_circle_between_modules_of_a_crate() {
    let mut report = Vec::new();
    for src in source_roots() {
        let mods = module_files(&src);
        // Names the crate root re-exports (`pub use lang::Lang;`), mapped to
        // the module that defines them, so `crate::Lang` is an edge to `lang`.
        let mut reexports: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if let Some(lib) = mods.get(&Vec::new()) {
            let code = code_only(&std::fs::read_to_string(lib).unwrap());
            for at in words(&code, "use") {
                let Some(end) = code[at..].find(';') else {
                    continue;
                };
                let mut paths = Vec::new();
                expand_use(&code[at + 3..at + end], &[], &mut paths);
                for p in paths {
                    let p: Vec<String> = p
                        .into_iter()
                        .filter(|s| s != "crate" && s != "self")
                        .collect();
                    if let (Some(name), Some(first)) = (p.last(), p.first()) {
                        if p.len() >= 2 && mods.contains_key(&vec![first.clone()]) {
                            reexports.insert(name.clone(), vec![first.clone()]);
                        }
                    }
                }
            }
        }
        // edges between siblings, with one example reference each
        let mut edges: BTreeMap<Vec<String>, BTreeMap<Vec<String>, String>> = BTreeMap::new();
        for (module, file) in &mods {
            let code = without_test_modules(&code_only(&std::fs::read_to_string(file).unwrap()));
            for path in referenced_paths(module, &code) {
                let Some(mut target) = (0..=path.len())
                    .rev()
                    .map(|k| path[..k].to_vec())
                    .find(|p| mods.contains_key(p))
                else {
                    continue;
                };
                if target.is_empty() {
                    match path.first().and_then(|n| reexports.get(n)) {
                        Some(m) => target = m.clone(),
                        None => continue,
                    }
                }
                let common = module
                    .iter()
                    .zip(&target)
                    .take_while(|(a, b)| a == b)
                    .count();
                if common == module.len() || common == target.len() {
                    continue; // an ancestor or a descendant
                }
                let (a, b) = (module[..=common].to_vec(), target[..=common].to_vec());
                let rel = file.strip_prefix(root()).unwrap().display().to_string();
                edges
                    .entry(a)
                    .or_default()
                    .entry(b)
                    .or_insert_with(|| format!("{rel} names {}", path.join("::")));
            }
        }
        // A cycle: a node that reaches itself.
        let mut reported = BTreeSet::new();
        for start in edges.keys() {
            let mut parent: BTreeMap<Vec<String>, Vec<String>> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start.clone()]);
            let mut cycle = None;
            while let Some(n) = queue.pop_front() {
                for next in edges
                    .get(&n)
                    .map(|m| m.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    if &next == start {
                        cycle = Some(n.clone());
                        break;
                    }
                    if !parent.contains_key(&next) {
                        parent.insert(next.clone(), n.clone());
                        queue.push_back(next);
                    }
                }
                if cycle.is_some() {
                    break;
                }
            }
            let Some(last) = cycle else { continue };
            let mut nodes = vec![last.clone()];
            let mut n = last;
            while &n != start {
                n = parent[&n].clone();
                nodes.push(n.clone());
            }
            nodes.reverse();
            let key: BTreeSet<_> = nodes.iter().cloned().collect();
            if !reported.insert(key) {
                continue;
            }
            let mut lines = Vec::new();
            for (i, a) in nodes.iter().enumerate() {
                let b = &nodes[(i + 1) % nodes.len()];
                lines.push(format!(
                    "  {} -> {}: {}",
                    a.join("::"),
                    b.join("::"),
                    edges[a][b]
                ));
            }
            report.push(format!(
                "{}: circle\n{}",
                src.strip_prefix(root()).unwrap().display(),
                lines.join("\n")
            ));
        }
    }
    assert!(report.is_empty(), "import circles:\n{}", report.join("\n"));
}

#[test]
fn the_circle_detector_sees_circles_and_grouped_imports() {
    let mut out = Vec::new();
    expand_use("crate::{a::{b, c as d}, e::*, self}", &[], &mut out);
    let names: Vec<String> = out.iter().map(|p| p.join("::")).collect();
    assert_eq!(names, ["crate::a::b", "crate::a::c", "crate::e", "crate"]);
    let code =
        code_only("use super::x; // crate::not_this\nlet s = \"crate::nor_this\"; crate::y::z();");
    let paths = referenced_paths(&["m".into(), "n".into()], &code);
    let names: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert!(names.contains(&"m::x".to_string()), "{names:?}");
    assert!(names.contains(&"y::z".to_string()), "{names:?}");
    assert!(
        !names
            .iter()
            .any(|n| n.contains("not_this") || n.contains("nor_this")),
        "{names:?}"
    );
    let variants: Vec<String> = ["A", "B"].map(String::from).to_vec();
    let code = code_only("fn f(l: L) -> u8 { match l { L::A => 1, L::B => { 2 } } }");
    assert_eq!(exhaustive_lang_matches(&code, &variants).len(), 1);
    let code = code_only("fn f(l: L) -> u8 { match l { L::A => 1, _ => 2 } }");
    assert!(exhaustive_lang_matches(&code, &variants).is_empty());
}

/// Issue 32: every public options struct of the libraries is
/// `#[non_exhaustive]` (a new option never breaks a user who builds one),
/// so users build it from `Default` with its setters.
#[test]
fn options_structs_are_non_exhaustive() {
    let mut bad = Vec::new();
    let mut seen = 0;
    for dir in source_roots() {
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            for (i, l) in lines.iter().enumerate() {
                let Some(rest) = l.strip_prefix("pub struct ") else {
                    continue;
                };
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.ends_with("Options") {
                    continue;
                }
                seen += 1;
                // The attributes and doc lines right above the struct.
                let marked = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                    .any(|l| l.trim() == "#[non_exhaustive]");
                if !marked {
                    bad.push(format!(
                        "{}:{}: {name}",
                        f.strip_prefix(root()).unwrap_or(&f).display(),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(seen >= 20, "only {seen} options structs found");
    assert!(
        bad.is_empty(),
        "options structs without #[non_exhaustive] (add it, with setters):\n{}",
        bad.join("\n")
    );
}

/// `code` (from [`code_only`]) with every `#[cfg(test)]` item blanked: test
/// code may use `std::fs` freely.
fn without_test_items(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let at = from + p;
        let Some(open) = code[at..].find('{').map(|o| at + o) else {
            break;
        };
        let end = matching_brace(code.as_bytes(), open).min(out.len());
        for c in out.iter_mut().take(end).skip(at) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Invariant 11: library code reads and writes files through
/// `codethread_lang::io` (regular files only, under a limit, written
/// atomically and never through a link). A direct `std::fs` read or write,
/// `File::open`/`create` or `OpenOptions` lives only in the files
/// ARCHITECTURE.md lists, each with its reason.
#[test]
fn direct_file_io_lives_in_the_listed_files() {
    let calls = [
        "fs::read(",
        "fs::read_to_string(",
        "fs::write(",
        "File::open(",
        "File::create(",
        "OpenOptions::new(",
    ];
    let (outside, stale) = listed_files_check("direct file io", |rel, code| {
        if rel == "crates/codethread-io/src/lib.rs" || rel.starts_with("crates/codethread-testkit/")
        {
            return Vec::new();
        }
        let code = without_test_items(code);
        calls
            .iter()
            .flat_map(|c| code.match_indices(c).map(|(i, _)| i))
            .collect()
    });
    assert!(
        outside.is_empty(),
        "direct file I/O outside the files ARCHITECTURE.md lists (use codethread_lang::io, \
         or list the file with a reason): {outside:?}"
    );
    assert!(
        stale.is_empty(),
        "ARCHITECTURE.md lists files without direct file I/O: {stale:?}"
    );
}
