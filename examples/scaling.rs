//! Doubling benchmark of `localize`, `metrics` and `skeletonize` on
//! adversarial shapes: a new file of many functions, deep nesting, one huge
//! line, nested C++ namespaces each holding a function. For each tool and
//! shape the input is doubled `--doublings` times from `--base` functions;
//! the table gives bytes, seconds and the time ratio to the previous size
//! (about 2.0 for a linear tool, 4.0 for a quadratic one). Exits 1 when a
//! ratio exceeds `--max-ratio` (default 2.2).
//!
//! ```text
//! cargo run --release --example scaling -- [--base 2000] [--doublings 4] [--max-ratio 2.2]
//! ```
//!
//! Exit codes (`codethread::exit`): 0 every ratio within the bound, 1 some
//! ratio above it (the whole table is still printed), 2 usage error.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use codethread::exit::Outcome;
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
];

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

fn run_tool(tool: &str, path: &str, src: &str) -> Result<(), String> {
    let lang = codethread::lang::Lang::from_path(std::path::Path::new(path))
        .ok_or_else(|| format!("{path}: no language"))?;
    match tool {
        "localize" => {
            let p =
                codethread::patch::parse(&new_file_patch(path, src)).map_err(|e| e.to_string())?;
            codethread::patch::localize(&codethread::patch::MemTree::new(), &p)
                .map(|_| ())
                .map_err(|e| e.to_string())
        }
        "metrics" => codethread::metrics::analyze_source(
            path,
            lang,
            src.as_bytes().to_vec(),
            codethread::metrics::Profile::Paper,
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
    let mut outcome = Outcome::Success;
    println!("| tool | shape | functions | bytes | seconds | MB/s | ratio |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    for tool in ["localize", "metrics", "skeletonize"] {
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
                    return ExitCode::from(Outcome::Fatal);
                }
                let ratio = prev.map(|p| t.as_secs_f64() / p.as_secs_f64().max(1e-9));
                if ratio.is_some_and(|r| r > args.max_ratio) {
                    outcome = Outcome::Partial;
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
    ExitCode::from(outcome)
}
