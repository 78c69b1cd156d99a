//! Doubling benchmark of `localize`, `metrics` and `skeletonize` on
//! adversarial shapes: a new file of many functions, deep nesting, one huge
//! line, nested C++ namespaces each holding a function, functions holding
//! unterminated `#include "x` lines; then `metrics` alone on the nesting shapes of issue 19 (Java local
//! and anonymous classes, C++ namespaces and braces, Ruby blocks and
//! endless defs, PHP blocks). For each tool and shape the input is doubled `--doublings` times
//! from `--base` functions; the table gives bytes, seconds and the time
//! ratio to the previous size (about 2.0 for a linear tool, 4.0 for a
//! quadratic one). Exits 1 when a ratio exceeds `--max-ratio` (default 2.2).
//!
//! ```text
//! cargo run --release --example scaling -- [--base 2000] [--doublings 4] [--max-ratio 2.2] [--nesting-only]
//! ```
//!
//! After each nesting shape a `16x` row gives the time ratio over the whole
//! range expressed per doubling (`(t_last / t_first)^(1/doublings)`).
//!
//! Exit codes (`codethread::exit`): 0 every ratio within the bound, 1 some
//! ratio above it (the whole table is still printed), 2 usage error.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use codethread::exit::ExitOutcome;
use codethread_testkit::adversarial::{
    deep_js, many_python_functions, min_time, new_file_patch, one_line_js,
};

#[derive(Parser)]
#[command(about = "Doubling benchmark of localize, metrics and skeletonize")]
struct Args {
    /// Functions in the smallest input.
    #[arg(long, default_value_t = 2000)]
    base: usize,
    /// How many times the input is doubled.
    #[arg(long, default_value_t = 4)]
    doublings: u32,
    /// Largest acceptable time ratio per doubling.
    #[arg(long, default_value_t = 2.2)]
    max_ratio: f64,
    /// Runs per size (the shortest is kept).
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Only the issue 19 nesting shapes (`metrics`, paper profile).
    #[arg(long)]
    nesting_only: bool,
}

/// The shapes: a name, the file name (its extension picks the language)
/// and a generator taking a function count.
/// A shape's name, its file name and its generator.
type Shape = (&'static str, &'static str, fn(usize) -> String);

const SHAPES: &[Shape] = &[
    ("many functions", "new.py", many_python_functions),
    ("deep nesting", "new.js", deep_js),
    ("one huge line", "new.js", one_line_js),
    ("nested scopes", "new.cpp", nested_namespaces),
    ("unterminated includes", "new.cpp", unterminated_includes),
];

// ---- Issue 19: metrics (paper profile) on deep nesting, one block per
// shape. Java: local and anonymous classes nested in methods (the paper
// walkers); C++, Ruby, PHP: the lizard token reader's block stack and names.
// Measured with the `metrics` tool only.

/// `n` Java methods, each declaring an anonymous class that holds the next.
fn java_anonymous(n: usize) -> String {
    let mut s = String::from("class A {\n");
    for i in 0..n {
        s.push_str(&format!(
            "void m{i}() {{ if (a) {{ b(); }} new Object() {{\n"
        ));
    }
    for _ in 0..n {
        s.push_str("};}\n");
    }
    s.push_str("}\n");
    s
}

/// `n` Java methods, each declaring a local class that holds the next.
fn java_local(n: usize) -> String {
    let mut s = String::from("class A {\n");
    for i in 0..n {
        s.push_str(&format!(
            "void m{i}() {{ int x = a && b ? 1 : 2; class L{i} {{\n"
        ));
    }
    for _ in 0..n {
        s.push_str("}}\n");
    }
    s.push_str("}\n");
    s
}

/// `n` nested C++ namespaces, each holding one function.
fn cpp_namespaces(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!("namespace n{i}{{void f(){{}}\n"));
    }
    for _ in 0..n {
        s.push_str("}\n");
    }
    s
}

/// `n` C++ namespaces nested in each other, each holding one function
/// (issue 19: skeletonize was quadratic in this nesting).
fn nested_namespaces(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&format!(
            "namespace n{i} {{\nint f{i}() {{ return {i}; }}\n"
        ));
    }
    for _ in 0..n {
        s.push_str("}\n");
    }
    s
}

/// `n` C++ functions, each holding two unterminated `#include "x` lines
/// (issue 19: tree-sitter's recovery from them was quadratic; the parser now
/// reads the opening quote as a space, `codethread-lang`'s `view.rs`).
fn unterminated_includes(n: usize) -> String {
    (0..n)
        .map(|i| format!("int f{i}() {{\n#include \"x{i}\n#include \"y{i}\nreturn {i}; }}\n"))
        .collect()
}

/// `n` unclosed C++ braces, each followed by a declaration.
fn cpp_unclosed(n: usize) -> String {
    (0..n).map(|i| format!("{{ x{i} y{i};\n")).collect()
}

/// `n` unclosed Ruby `do` blocks.
fn ruby_unclosed_do(n: usize) -> String {
    (0..n).map(|i| format!("foo{i} do |x| x if a\n")).collect()
}

/// `n` one-line endless Ruby defs.
fn ruby_endless(n: usize) -> String {
    (0..n)
        .map(|i| format!("def f{i}(a) = a && {i}\n"))
        .collect()
}

/// `n` PHP functions whose bodies stay open.
fn php_unclosed(n: usize) -> String {
    let mut s = String::from("<?php\n");
    for i in 0..n {
        s.push_str(&format!("function f{i}($a) {{ if ($a) {{ return 1; }}\n"));
    }
    s
}

const NESTING_SHAPES: &[Shape] = &[
    ("java anonymous classes", "A.java", java_anonymous),
    ("java local classes", "A.java", java_local),
    ("c++ nested namespaces", "x.cpp", cpp_namespaces),
    ("c++ unclosed braces", "x.cpp", cpp_unclosed),
    ("ruby unclosed do", "x.rb", ruby_unclosed_do),
    ("ruby endless defs", "x.rb", ruby_endless),
    ("php unclosed blocks", "x.php", php_unclosed),
];

/// The doubling rows of the issue 19 shapes (`metrics` only), printed in
/// the main table's format; `Err` on a tool error, `Ok(false)` when some
/// ratio exceeds the bound.
fn run_nesting_shapes(args: &Args) -> Result<bool, String> {
    let mut within = true;
    for &(shape, path, make) in NESTING_SHAPES {
        let mut prev: Option<Duration> = None;
        let mut first: Option<Duration> = None;
        for k in 0..=args.doublings {
            let n = args.base << k;
            let src = make(n);
            let mut err = None;
            let t = min_time(args.runs, || {
                if let Err(e) = run_tool("metrics", path, &src) {
                    err = Some(e);
                }
            });
            if let Some(e) = err {
                return Err(format!("metrics {shape} n={n}: {e}"));
            }
            let ratio = prev.map(|p| t.as_secs_f64() / p.as_secs_f64().max(1e-9));
            if let Some(r) = ratio.filter(|&r| r > args.max_ratio) {
                within = false;
                eprintln!(
                    "over the bound: metrics {shape} n={n}: ratio {r:.2} > {}",
                    args.max_ratio
                );
            }
            println!(
                "| metrics | {shape} | {n} | {} | {:.3} | {:.2} | {} |",
                src.len(),
                t.as_secs_f64(),
                src.len() as f64 / 1e6 / t.as_secs_f64().max(1e-9),
                ratio.map_or("—".to_string(), |r| format!("{r:.2}"))
            );
            prev = Some(t);
            first.get_or_insert(t);
        }
        if let (Some(a), Some(b)) = (first, prev) {
            if args.doublings > 0 {
                let per = (b.as_secs_f64() / a.as_secs_f64().max(1e-9))
                    .powf(1.0 / f64::from(args.doublings));
                println!(
                    "| metrics | {shape} | {}x range | | | | per doubling {per:.2} |",
                    1usize << args.doublings
                );
            }
        }
    }
    Ok(within)
}

// ---- end of the issue 19 shapes.

fn run_tool(tool: &str, path: &str, src: &str) -> Result<(), String> {
    let lang = codethread::lang::Lang::from_path(std::path::Path::new(path))
        .ok_or_else(|| format!("{path}: no language"))?;
    match tool {
        "localize" => {
            let p = codethread::patch::parse_patch(&new_file_patch(path, src))
                .map_err(|e| e.to_string())?;
            codethread::patch::localize(
                &codethread::patch::MemTree::new(),
                &p,
                &codethread::patch::LocalizeOptions::default(),
            )
            .map(|_| ())
            .map_err(|e| e.to_string())
        }
        "metrics" => codethread::metrics::analyze_source(
            path,
            lang,
            src.as_bytes().to_vec(),
            &codethread::metrics::AnalyzeOptions::new(codethread::metrics::Profile::Paper),
        )
        .map(|_| ())
        .map_err(|e| e.to_string()),
        _ => codethread::skeleton::skeletonize_source(
            lang,
            src.as_bytes().to_vec(),
            &[codethread::skeleton::Selector::All],
            &codethread::skeleton::Options::default(),
        )
        .map(|_| ())
        .map_err(|e| e.to_string()),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut outcome = ExitOutcome::Success;
    println!("| tool | shape | functions | bytes | seconds | MB/s | ratio |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let tools: &[&str] = if args.nesting_only {
        &[]
    } else {
        &["localize", "metrics", "skeletonize"]
    };
    for &tool in tools {
        for &(shape, path, make) in SHAPES {
            let mut prev: Option<Duration> = None;
            for k in 0..=args.doublings {
                let n = args.base << k;
                let src = make(n);
                let mut err = None;
                let t = min_time(args.runs, || {
                    if let Err(e) = run_tool(tool, path, &src) {
                        err = Some(e);
                    }
                });
                if let Some(e) = err {
                    eprintln!("error: {tool} {shape} n={n}: {e}");
                    return ExitCode::from(ExitOutcome::Fatal);
                }
                let ratio = prev.map(|p| t.as_secs_f64() / p.as_secs_f64().max(1e-9));
                if ratio.is_some_and(|r| r > args.max_ratio) {
                    outcome = ExitOutcome::Partial;
                    eprintln!(
                        "over the bound: {tool} {shape} n={n}: ratio {:.2} > {}",
                        ratio.unwrap_or_default(),
                        args.max_ratio
                    );
                }
                println!(
                    "| {tool} | {shape} | {n} | {} | {:.3} | {:.2} | {} |",
                    src.len(),
                    t.as_secs_f64(),
                    src.len() as f64 / 1e6 / t.as_secs_f64().max(1e-9),
                    ratio.map_or("—".to_string(), |r| format!("{r:.2}"))
                );
                prev = Some(t);
            }
        }
    }
    // Issue 19 shapes.
    match run_nesting_shapes(&args) {
        Ok(true) => {}
        Ok(false) => outcome = ExitOutcome::Partial,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(ExitOutcome::Fatal);
        }
    }
    ExitCode::from(outcome)
}
