//! The function index against the functions the paper's metric tools reported
//! on seven real source trees (`metrics/reference/*.paper.jsonl`, made with
//! Python's `ast`, Go's `go/parser` and rust-code-analysis): every reported
//! function must be indexed with the same first and last line (and, for
//! Python, the same qualified name).

use std::collections::HashMap;

use codethread_lang::{index_functions, parse_path};
use serde_json::Value;

const CORPORA: &[&str] = &[
    "requests", "django", "gin", "cobra", "ripgrep", "express", "lodash",
];

#[test]
fn reference_functions_are_indexed() {
    let Some(root) = codethread_testkit::shared_path("metrics") else {
        return;
    };
    let mut worst = 100.0f64;
    for corpus in CORPORA {
        let base = root.join("corpora").join(corpus);
        // (path, line, end_line) -> qualnames of our functions
        let mut ours: HashMap<(String, u64, u64), Vec<String>> = HashMap::new();
        let (files, errors) = codethread_lang::source_files(&base);
        assert!(errors.is_empty(), "{errors:?}");
        for f in files {
            // Real data: an unreadable or unparsable corpus file is a failure.
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let parsed = parse_path(&f, bytes).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let rel = f
                .strip_prefix(&base)
                .unwrap_or(&f)
                .to_string_lossy()
                .replace('\\', "/");
            for func in index_functions(&parsed) {
                if func.node_kind == "lambda" {
                    continue;
                }
                ours.entry((
                    rel.clone(),
                    func.node.start_line as u64,
                    func.node.end_line as u64,
                ))
                .or_default()
                .push(func.qualname.clone());
            }
        }
        let mut total = 0usize;
        let mut found = 0usize;
        let mut misses = Vec::new();
        for name in [
            format!("{corpus}.paper.jsonl"),
            format!("{corpus}.paper.unjoined.jsonl"),
        ] {
            let text = std::fs::read_to_string(root.join("reference").join(&name))
                .expect("reference file");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let r: Value = serde_json::from_str(line).expect("json");
                let (Some(path), Some(l), Some(e)) = (
                    r["path"].as_str(),
                    r["line"].as_u64(),
                    r["end_line"].as_u64(),
                ) else {
                    continue;
                };
                total += 1;
                let hit = ours.get(&(path.to_string(), l, e));
                let ok = match (hit, r["qualname"].as_str()) {
                    (Some(q), Some(want)) => q.iter().any(|x| x == want),
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                if ok {
                    found += 1;
                } else if misses.len() < 8 {
                    misses.push(format!(
                        "{path}:{l}-{e} {} ours={hit:?}",
                        r["qualname"].as_str().or(r["name"].as_str()).unwrap_or("?")
                    ));
                }
            }
        }
        let pct = 100.0 * found as f64 / total.max(1) as f64;
        worst = worst.min(pct);
        println!("{corpus:10} {found:6}/{total:6} = {pct:7.3}%");
        for m in misses {
            println!("    miss {m}");
        }
    }
    assert!(
        worst >= 99.5,
        "function index agrees with the reference tools on only {worst:.3}% of one corpus"
    );
}
