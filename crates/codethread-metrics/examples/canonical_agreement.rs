//! Agreement of the canonical profile with the tools that implement the
//! same definitions, on the shared corpora.
//!
//! `cargo run --release -p codethread-metrics --example canonical_agreement -- [--lizard-dir DIR] [--show N] [CORPUS...]`
//! (`--show N`: print up to N disagreeing functions per comparison on stderr)
//!
//! For every corpus of `$CODETHREAD_SHARED/metrics/corpora/` (or the ones
//! named), the canonical records are joined to the reference records by
//! (path, first line), else by (path, last line) when that is unique, and
//! the percentage of joined functions with the same value is printed:
//! - cognitive against complexipy (Python), gocognit (Go) and
//!   rust-code-analysis (JavaScript, TypeScript, Rust, Java, C), read from
//!   `reference/<corpus>.paper.jsonl` (rust-code-analysis's Java cognitive is
//!   always 0: printed, but it measures nothing);
//! - cyclomatic against lizard's CCN: `reference/<corpus>.lizard.jsonl` when
//!   it exists, the paper reference when its cyclomatic tool is lizard (Go),
//!   else `<lizard-dir>/<corpus>.lizard.jsonl` (lines of `path`,
//!   `start_line`, `end_line`, `ccn`, written by running lizard 1.24.3).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use codethread_metrics::{analyze_paths, AnalyzeOptions, FunctionMetrics, Profile};

/// One reference value: (path, first line, last line, value, tool).
struct Ref {
    path: String,
    line: u64,
    end_line: u64,
    value: u64,
    tool: String,
}

fn read_jsonl(p: &Path) -> Vec<serde_json::Value> {
    let Ok(text) = std::fs::read_to_string(p) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn num(v: &serde_json::Value, keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| {
        let x = v.get(*k)?;
        x.as_u64().or_else(|| x.as_f64().map(|f| f as u64))
    })
}

fn refs(rows: &[serde_json::Value], metric: &str, tool_filter: &dyn Fn(&str) -> bool) -> Vec<Ref> {
    rows.iter()
        .filter_map(|r| {
            let tool = r
                .get("tools")
                .and_then(|t| t.get(metric))
                .and_then(|t| t.as_str())
                .unwrap_or("lizard 1.24.3 CCN")
                .to_string();
            if !tool_filter(&tool) {
                return None;
            }
            let value = match metric {
                "cyclomatic" => num(r, &["ccn", "cyclomatic"]),
                _ => num(r, &["cognitive"]),
            }?;
            Some(Ref {
                path: r.get("path")?.as_str()?.to_string(),
                line: num(r, &["line", "start_line"])?,
                end_line: num(r, &["end_line"])?,
                value,
                tool,
            })
        })
        .collect()
}

/// (joined, agreeing) of `refs` against the canonical records.
fn agree(
    refs: &[Ref],
    records: &[FunctionMetrics],
    value: &dyn Fn(&FunctionMetrics) -> u64,
    show: usize,
) -> (usize, usize) {
    let mut shown = 0usize;
    let mut by_start: HashMap<(&str, u64), Vec<&FunctionMetrics>> = HashMap::new();
    let mut by_end: HashMap<(&str, u64), Vec<&FunctionMetrics>> = HashMap::new();
    for r in records {
        by_start
            .entry((r.path.as_str(), r.line as u64))
            .or_default()
            .push(r);
        by_end
            .entry((r.path.as_str(), r.end_line as u64))
            .or_default()
            .push(r);
    }
    let mut joined = 0;
    let mut same = 0;
    for x in refs {
        let hit = by_start
            .get(&(x.path.as_str(), x.line))
            .filter(|v| v.len() == 1)
            .or_else(|| {
                by_end
                    .get(&(x.path.as_str(), x.end_line))
                    .filter(|v| v.len() == 1)
            })
            .and_then(|v| v.first());
        if let Some(r) = hit {
            joined += 1;
            if value(r) == x.value {
                same += 1;
            } else if shown < show {
                shown += 1;
                eprintln!(
                    "  {}:{} {} canonical {} {} {}",
                    x.path,
                    x.line,
                    r.qualname,
                    value(r),
                    x.tool.split_whitespace().next().unwrap_or(""),
                    x.value
                );
            }
        }
    }
    (joined, same)
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

fn main() {
    let shared = PathBuf::from(std::env::var("CODETHREAD_SHARED").expect("CODETHREAD_SHARED"));
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut lizard_dir: Option<PathBuf> = None;
    let mut show = 0usize;
    if let Some(i) = args.iter().position(|a| a == "--show") {
        show = args.get(i + 1).and_then(|n| n.parse().ok()).unwrap_or(0);
        args.drain(i..(i + 2).min(args.len()));
    }
    if let Some(i) = args.iter().position(|a| a == "--lizard-dir") {
        lizard_dir = args.get(i + 1).map(PathBuf::from);
        args.drain(i..(i + 2).min(args.len()));
    }
    let corpora_dir = shared.join("metrics/corpora");
    let mut corpora: Vec<String> = if args.is_empty() {
        std::fs::read_dir(&corpora_dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    } else {
        args
    };
    corpora.sort();
    println!(
        "| corpus | functions | cognitive tool | joined | agree | CC vs lizard joined | agree |"
    );
    println!("|---|---|---|---|---|---|---|");
    for corpus in corpora {
        let dir = corpora_dir.join(&corpus);
        let mut records: Vec<FunctionMetrics> = Vec::new();
        for f in analyze_paths(&[dir], &AnalyzeOptions::new(Profile::Canonical))
            .into_iter()
            .flatten()
        {
            records.extend(f.functions);
        }
        let paper = read_jsonl(&shared.join(format!("metrics/reference/{corpus}.paper.jsonl")));
        let cog = refs(&paper, "cognitive", &|t| {
            t.contains("complexipy") || t.contains("gocognit") || t.contains("rust-code-analysis")
        });
        let cog_tool = cog
            .first()
            .map(|r| r.tool.split_whitespace().next().unwrap_or("").to_string())
            .unwrap_or_else(|| "-".to_string());
        let (cj, ca) = agree(
            &cog,
            &records,
            &|r| u64::from(r.cognitive.unwrap_or(0)),
            show,
        );
        let mut liz = read_jsonl(&shared.join(format!("metrics/reference/{corpus}.lizard.jsonl")));
        let lizard_refs = if !liz.is_empty() {
            refs(&liz, "cyclomatic", &|_| true)
        } else {
            let from_paper = refs(&paper, "cyclomatic", &|t| t.contains("lizard"));
            if !from_paper.is_empty() {
                from_paper
            } else {
                liz = lizard_dir
                    .as_ref()
                    .map(|d| read_jsonl(&d.join(format!("{corpus}.lizard.jsonl"))))
                    .unwrap_or_default();
                refs(&liz, "cyclomatic", &|_| true)
            }
        };
        let (lj, la) = agree(
            &lizard_refs,
            &records,
            &|r| u64::from(r.cyclomatic.unwrap_or(0)),
            show,
        );
        println!(
            "| {corpus} | {} | {cog_tool} | {cj} | {} | {lj} | {} |",
            records.len(),
            pct(ca, cj),
            pct(la, lj)
        );
    }
}
