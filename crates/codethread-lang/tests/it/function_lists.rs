//! The index's functions (target rules: named, with a body) against the
//! function lists of the reference tools on the five Java / C / C++ / Ruby /
//! PHP corpora: lizard 1.24.3 on all five, rust-code-analysis 0.0.25 (RCA)
//! on gson, jq and fmt (`shared/metrics/reference/<corpus>.<tool>.jsonl`,
//! sources in `shared/metrics/corpora/<corpus>/`).
//!
//! Functions are joined by (path, line) with each tool's line convention
//! (`shared/metrics/RULES.md`): lizard's `start_line` is the line of the
//! function's NAME (here: the first line from the definition's own node
//! through its header holding the bare name, `operator` for operators); RCA's
//! is the first line of the node (Java: the first annotation or modifier, the
//! index's span start; C/C++: the first declaration specifier, the
//! `function_definition` node without its `template <...>` header, the
//! index's own-node start). Every difference is put in one documented class
//! (`docs/lang.md`, "Function lists against lizard and RCA"); a difference of
//! no class fails the test. The table is printed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::Path;

use codethread_lang::{index_functions, source_files, Function, Lang};
use serde_json::Value;

/// One function of the index, with its join lines.
struct Ours {
    path: String,
    f: Function,
    /// lizard's convention.
    name_line: usize,
}

/// One reference function.
struct Ref {
    path: String,
    name: Option<String>,
    start: usize,
    end: usize,
}

/// A parsed corpus file: line ranges of its error nodes' innermost
/// enclosing nodes are looked up per reference function.
struct FileInfo {
    source: Vec<u8>,
    file: codethread_lang::ParsedFile,
}

/// C and C++ keywords (a reference "function" named by one is an
/// error-recovery artefact of the tool; the target rules drop them).
const KEYWORDS: &[&str] = &[
    "if", "else", "switch", "case", "for", "while", "do", "return", "sizeof", "catch",
];

/// Node kinds of string literals and heredocs, where a tool's token reader
/// can mistake text for code.
const STRING_KINDS: &[&str] = &[
    "heredoc_body",
    "heredoc_content",
    "string",
    "string_content",
    "string_literal",
];

fn line_text(src: &[u8], line: usize) -> &[u8] {
    src.split(|b| *b == b'\n')
        .nth(line.wrapping_sub(1))
        .unwrap_or(&[])
}

fn contains_word(hay: &[u8], needle: &str) -> bool {
    let n = needle.as_bytes();
    if n.is_empty() || hay.len() < n.len() {
        return false;
    }
    (0..=hay.len() - n.len()).any(|i| &hay[i..i + n.len()] == n)
}

fn name_line(src: &[u8], f: &Function) -> usize {
    let key = if f.name.starts_with("operator") {
        "operator"
    } else {
        f.name.as_str()
    };
    let last = f.header.end_line.max(f.node.start_line);
    (f.node.start_line..=last)
        .find(|&l| contains_word(line_text(src, l), key))
        .unwrap_or(f.node.start_line)
}

/// The innermost node holding lines `a..=b` (walking down from the root).
fn innermost<'t>(
    file: &'t codethread_lang::ParsedFile,
    a: usize,
    b: usize,
) -> codethread_lang::tree_sitter::Node<'t> {
    let mut node = file.root();
    'down: loop {
        let mut c = node.walk();
        for child in node.children(&mut c) {
            let (s, e) = (child.start_position().row + 1, child.end_position().row + 1);
            if s <= a && b <= e && child.is_named() {
                node = child;
                continue 'down;
            }
        }
        return node;
    }
}

/// Whether a node of one of `kinds` starts on lines `a..=b`.
fn has_def_node(
    file: &codethread_lang::ParsedFile,
    kinds: &HashSet<&str>,
    a: usize,
    b: usize,
) -> bool {
    let mut cursor = file.root().walk();
    loop {
        let n = cursor.node();
        let (s, e) = (n.start_position().row + 1, n.end_position().row + 1);
        if (a..=b).contains(&s) && kinds.contains(n.kind()) {
            return true;
        }
        // Descend only into nodes overlapping the lines.
        if s <= b && e >= a && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

fn load_refs(path: &Path) -> Vec<Ref> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("json");
            Ref {
                path: v["path"].as_str().unwrap_or_default().to_string(),
                name: v["name"].as_str().map(str::to_string),
                start: v["start_line"].as_u64().unwrap_or(0) as usize,
                end: v["end_line"].as_u64().unwrap_or(0) as usize,
            }
        })
        .collect()
}

#[test]
fn function_lists_match_lizard_and_rca_up_to_documented_classes() {
    let Some(corpora) = codethread_testkit::shared_path("metrics/corpora") else {
        return;
    };
    let Some(reference) = codethread_testkit::shared_path("metrics/reference") else {
        return;
    };
    let corpus_list = [
        ("gson", Lang::Java, true),
        ("jq", Lang::C, true),
        ("fmt", Lang::Cpp, true),
        ("jekyll", Lang::Ruby, false),
        ("carbon", Lang::Php, false),
    ];
    let mut table: BTreeMap<(String, &str), BTreeMap<&'static str, usize>> = BTreeMap::new();
    let mut unclassified: Vec<String> = Vec::new();
    for (corpus, lang, has_rca) in corpus_list {
        let root = corpora.join(corpus);
        let (paths, errors) = source_files(&root);
        assert!(errors.is_empty(), "{errors:?}");
        let mut ours: Vec<Ours> = Vec::new();
        // First lines of every indexed function (anonymous, bodiless too).
        let mut all_starts: HashMap<String, Vec<usize>> = HashMap::new();
        let mut files: HashMap<String, FileInfo> = HashMap::new();
        for p in paths {
            let rel = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let source = std::fs::read(&p).unwrap();
            // The plain parse, without the C/C++ macro mask of
            // `parse_file`: the tools read the text as written, and the
            // classes below describe tree-sitter's own recovery. (With the
            // mask, fmt gains the gmock `NiceMock` / `NaggyMock` constructors
            // and loses `fstring`'s in base.h: docs/lang.md.)
            let Some(file_lang) = Lang::for_source(&p, &source, Some(lang)) else {
                continue;
            };
            let file = codethread_lang::parse(file_lang, source.clone()).unwrap();
            if file.lang != lang && !(lang == Lang::C && file.lang == Lang::Cpp) {
                continue;
            }
            for f in index_functions(&file) {
                all_starts
                    .entry(rel.clone())
                    .or_default()
                    .push(f.node.start_line);
                if f.anonymous || !f.has_body() {
                    continue;
                }
                let name_line = name_line(&source, &f);
                ours.push(Ours {
                    path: rel.clone(),
                    f,
                    name_line,
                });
            }
            files.insert(rel, FileInfo { source, file });
        }
        let mut tools: Vec<(&str, Vec<Ref>)> = vec![(
            "lizard",
            load_refs(&reference.join(format!("{corpus}.lizard.jsonl"))),
        )];
        if has_rca {
            tools.push((
                "rca",
                load_refs(&reference.join(format!("{corpus}.rca.jsonl"))),
            ));
        }
        let key = |tool: &str, o: &Ours| -> (String, usize) {
            let line = match (tool, lang) {
                ("lizard", _) => o.name_line,
                (_, Lang::Java) => o.f.span.start_line,
                _ => o.f.node.start_line,
            };
            (o.path.clone(), line)
        };
        // Spans of every tool's functions per file, and the node kinds the
        // index reads as definitions in this corpus.
        let mut spans: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (_, refs) in &tools {
            for r in refs {
                spans
                    .entry(r.path.as_str())
                    .or_default()
                    .push((r.start, r.end));
            }
        }
        let def_kinds: HashSet<&str> = ours.iter().map(|o| o.f.node_kind).collect();
        let sets: Vec<HashSet<(String, usize)>> = tools
            .iter()
            .map(|(_, refs)| refs.iter().map(|r| (r.path.clone(), r.start)).collect())
            .collect();
        for (ti, (tool, refs)) in tools.iter().enumerate() {
            let row = table.entry((corpus.to_string(), tool)).or_default();
            let other = sets.iter().enumerate().find(|(i, _)| *i != ti);
            let ours_at: HashSet<(String, usize)> = ours.iter().map(|o| key(tool, o)).collect();
            let mut by_file: HashMap<&str, Vec<&Ref>> = HashMap::new();
            for r in refs {
                by_file.entry(r.path.as_str()).or_default().push(r);
            }
            let mut ours_by_file: HashMap<&str, Vec<&Ours>> = HashMap::new();
            for o in &ours {
                ours_by_file.entry(o.path.as_str()).or_default().push(o);
            }
            *row.entry("index functions").or_default() += ours.len();
            *row.entry("reference functions").or_default() += refs.len();
            for o in &ours {
                if sets[ti].contains(&key(tool, o)) {
                    *row.entry("matched").or_default() += 1;
                    continue;
                }
                let other_tool = other.map(|(i, _)| tools[i].0);
                let class = if other
                    .is_some_and(|(_, s)| s.contains(&key(other_tool.unwrap_or(""), o)))
                {
                    "index only: the other reference tool has it at the same place"
                } else if !o.f.notes.is_empty() {
                    "index only: tree-sitter error recovery around the definition (index notes)"
                } else if o.f.name.len() > 1
                    && o.f
                        .name
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                {
                    "index only: macro call + block read as a definition (all-caps name)"
                } else if files.get(&o.path).is_some_and(|i| {
                    let t = i
                        .source
                        .get(o.f.span.start_byte..o.f.span.end_byte)
                        .unwrap_or(&[]);
                    t.windows(3)
                        .any(|w| w[0] == b'%' && w[1] == b'r' && !b"{[(<".contains(&w[2]))
                        || contains_word(t, "<<~")
                        || contains_word(t, "<<-")
                }) && tool == &"lizard"
                {
                    "index only: a Ruby `%r!...!` regex or heredoc in the function confuses lizard"
                } else if o.f.node_kind == "compact_constructor_declaration" {
                    "index only: compact record constructor (unknown to both tools)"
                } else if spans.get(o.path.as_str()).is_some_and(|rs| {
                    rs.iter()
                        .any(|&(a, b)| a < o.f.span.start_line && b >= o.f.span.end_line)
                }) {
                    "index only: inside a reference function's span (folded into it, or a span run past its end)"
                } else if ours_by_file.get(o.path.as_str()).is_some_and(|v| {
                    v.iter().any(|o2| {
                        o2.f.span.start_line < o.f.span.start_line
                            && by_file.get(o.path.as_str()).is_some_and(|rs| {
                                rs.iter().any(|r| {
                                    (r.path.clone(), r.start) == key(tool, o2)
                                        && r.end != o2.f.span.end_line
                                })
                            })
                    })
                }) {
                    "index only: the tool's block pairing diverged earlier in the file (a function it reports at an index start line ends elsewhere)"
                } else if spans.get(o.path.as_str()).is_none_or(|rs| {
                    rs.iter()
                        .all(|&(a, _)| a.abs_diff(o.f.span.start_line) > 20)
                }) {
                    "index only: no function of either tool within 20 lines (the tools lost the surrounding scope)"
                } else {
                    unclassified.push(format!(
                        "{corpus} {tool}: index only {}:{} {}",
                        o.path,
                        key(tool, o).1,
                        o.f.qualname
                    ));
                    "UNCLASSIFIED"
                };
                *row.entry(class).or_default() += 1;
            }
            for r in refs {
                if ours_at.contains(&(r.path.clone(), r.start)) {
                    continue;
                }
                let info = files.get(&r.path);
                let src: &[u8] = info.map_or(&[], |i| i.source.as_slice());
                let text: Vec<u8> = (r.start..=r.end.max(r.start))
                    .flat_map(|l| line_text(src, l).to_vec())
                    .collect();
                let inside: Vec<&&Ours> = ours_by_file
                    .get(r.path.as_str())
                    .map(|v| {
                        v.iter()
                            .filter(|o| {
                                o.f.span.start_line <= r.start && r.start <= o.f.span.end_line
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                let node = info.map(|i| innermost(&i.file, r.start, r.end.max(r.start)));
                let last = r
                    .name
                    .as_deref()
                    .map(|n| n.rsplit("::").next().unwrap_or(n));
                let class = if info.is_none() {
                    "reference only: file not read as this language by the index"
                } else if text.trim_ascii_end().ends_with(b";")
                    && (!text.contains(&b'{') || contains_word(&text, "default"))
                {
                    "reference only: bodiless declaration (interface / abstract method)"
                } else if last.is_some_and(|n| KEYWORDS.contains(&n)) {
                    "reference only: keyword-named error-recovery artefact (the target rules drop these)"
                } else if node.is_some_and(|n| STRING_KINDS.contains(&n.kind())) {
                    "reference only: text inside a string or heredoc read as code (lizard)"
                } else if inside.iter().any(|o| !o.f.notes.is_empty())
                    || node.is_some_and(|n| n.is_error() || (n.parent().is_some() && n.has_error()))
                {
                    "reference only: tree-sitter error recovery differs (definition swallowed or inside an erroneous region)"
                } else if ours_by_file.get(r.path.as_str()).is_some_and(|v| {
                    v.iter().any(|o| {
                        r.start < o.f.span.start_line
                            && o.f.span.end_line <= r.end
                            && (contains_word(line_text(src, r.start), "new ")
                                || last.is_some_and(|n| {
                                    let parts: Vec<&str> = o.f.qualname.split('.').collect();
                                    parts[..parts.len() - 1].contains(&n)
                                }))
                    })
                }) {
                    "reference only: a Java enum constant or `new T() { ... }` with a body reported as one function (lizard)"
                } else if last
                    .is_some_and(|n| contains_word(line_text(src, r.start), &format!("@{n}(")))
                    || (!text.contains(&b'{') && {
                        let prev = line_text(src, r.start.saturating_sub(1));
                        prev.trim_ascii_start().starts_with(b"@") && prev.contains(&b'(')
                    })
                {
                    "reference only: a Java annotation with arguments read as a function, or makes the annotated field one (lizard)"
                } else if contains_word(&text, "= default") || contains_word(&text, "= delete") {
                    "reference only: `= default` / `= delete` definition (no body; the target rules exclude it)"
                } else if r.name.is_none()
                    && ["struct ", "class ", "namespace ", "union "]
                        .iter()
                        .any(|w| contains_word(line_text(src, r.start), w))
                {
                    "reference only: a struct / class / namespace head read as a nameless function (RCA's mozcpp recovery from a macro word)"
                } else if info.is_some_and(|i| {
                    let b = r.end.max(r.start);
                    !has_def_node(&i.file, &def_kinds, r.start.saturating_sub(1), b)
                }) {
                    "reference only: no definition node in tree-sitter's tree there (error recovery, macros such as `TEST(a, b) {`, preprocessor lines inside an initializer; Java: an annotated field lizard reads as a function)"
                } else if all_starts.get(r.path.as_str()).is_none_or(|v| {
                    !v.iter()
                        .any(|&l| r.start.saturating_sub(1) <= l && l <= r.end.max(r.start))
                }) {
                    "reference only: tree-sitter's definition node there is no function by the target rules (no function declarator after a macro word, keyword name, or no body)"
                } else if !inside.is_empty() {
                    "reference only: inside an index function (macro loop or nested construct the tool reads as a function)"
                } else {
                    unclassified.push(format!(
                        "{corpus} {tool}: reference only {}:{} {:?} (to {}); innermost node {:?}",
                        r.path,
                        r.start,
                        r.name,
                        r.end,
                        node.map(|n| (
                            n.kind(),
                            n.start_position().row + 1,
                            n.end_position().row + 1
                        ))
                    ));
                    "UNCLASSIFIED"
                };
                if std::env::var_os("FUNCTION_LISTS_EXAMPLES").is_some() {
                    println!(
                        "{corpus} {tool} {class}: {}:{} {:?}",
                        r.path, r.start, r.name
                    );
                }
                *row.entry(class).or_default() += 1;
            }
        }
    }
    for ((corpus, tool), row) in &table {
        println!("== {corpus} / {tool}");
        for (class, n) in row {
            println!("  {n:6}  {class}");
        }
    }
    for u in &unclassified {
        println!("UNCLASSIFIED {u}");
    }
    assert!(
        unclassified.is_empty(),
        "{} differences of no class",
        unclassified.len()
    );
}
