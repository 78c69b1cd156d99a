//! Throughput of the metrics engine against its floor: tree-sitter parsing
//! plus one walk over every node.
//!
//! `cargo run --release -p codethread-metrics --example throughput -- [--profile paper|canonical] [--engine-only N] DIR...`
//!
//! `--engine-only N` runs only the `engine` stage, N times, and reports the
//! best run (for before/after comparisons on a busy machine).
//!
//! For each directory (e.g. `$CODETHREAD_SHARED/metrics/corpora/django`) all
//! supported files are loaded into memory first, then, on one thread:
//! 1. `parse`: tree-sitter parse only (with the grammar the profile reads the
//!    language with, [`codethread_metrics::parse_for`]: C with the C++ one);
//! 2. `parse+walk`: parse and one cursor walk over every node;
//! 3. `parse+flatten`: parse and building the flat tree the engine walks;
//! 4. `engine`: parse and the full engine (function index, cyclomatic,
//!    cognitive, Halstead, LLOC) — [`codethread_metrics::analyze_parsed`];
//! 5. stages alone on pre-parsed trees: `flatten` (the [`FlatTree`] every
//!    later stage reads), `index`, and each metric;
//! 6. `engine (rayon)`: the full engine over all files on all cores.
//!
//! Throughput is MB of source per second of this thread's CPU time (so
//! other processes on the machine do not skew it); wall time is printed too.
#![allow(missing_docs, clippy::unwrap_used)]

use std::path::PathBuf;
use std::time::Instant;

use codethread_lang::{index_flat, FlatTree, Lang, ParsedFile};
use codethread_metrics::{
    analyze_parsed, cognitive, collect_inputs, cyclomatic, halstead, lloc, parse_for, FnCtx,
    Profile,
};
use rayon::prelude::*;

/// CPU time of the calling thread in seconds (Linux `schedstat`, ns
/// resolution; falls back to `stat` clock ticks).
fn thread_cpu() -> f64 {
    if let Ok(s) = std::fs::read_to_string("/proc/thread-self/schedstat") {
        if let Some(ns) = s
            .split_whitespace()
            .next()
            .and_then(|v| v.parse::<f64>().ok())
        {
            return ns / 1e9;
        }
    }
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    // utime and stime are fields 14 and 15 (1-based) of the whole line.
    let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
        return 0.0;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

struct Timer {
    wall: Instant,
    cpu: f64,
}

impl Timer {
    fn start() -> Self {
        Timer {
            wall: Instant::now(),
            cpu: thread_cpu(),
        }
    }
    fn stop(&self) -> (f64, f64) {
        (self.wall.elapsed().as_secs_f64(), thread_cpu() - self.cpu)
    }
}

fn report(label: &str, mb: f64, (wall, cpu): (f64, f64), floor: Option<f64>) {
    let rate = if cpu > 0.0 { mb / cpu } else { f64::INFINITY };
    let rel = floor.map_or(String::new(), |f| {
        format!("  ({:.0}% of parse+walk)", 100.0 * rate / f)
    });
    println!("  {label:<16} cpu {cpu:>7.2} s  wall {wall:>7.2} s  {rate:>8.2} MB/s{rel}");
}

fn walk_all(file: &ParsedFile) -> usize {
    let mut cursor = file.root().walk();
    let mut n = 0usize;
    loop {
        n += usize::from(cursor.node().kind_id() != u16::MAX);
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return n;
            }
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut profile = Profile::Paper;
    if let Some(i) = args.iter().position(|a| a == "--profile") {
        let name = args.get(i + 1).cloned().unwrap_or_default();
        profile = Profile::from_name(&name).unwrap_or_else(|| {
            eprintln!("unknown profile {name:?} (known: paper, canonical)");
            std::process::exit(2);
        });
        args.drain(i..(i + 2).min(args.len()));
    }
    // `--engine-only N`: only the `engine` stage, N times, the best run.
    let mut engine_only: Option<usize> = None;
    if let Some(i) = args.iter().position(|a| a == "--engine-only") {
        let n = args
            .get(i + 1)
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| {
                eprintln!("--engine-only takes a repeat count");
                std::process::exit(2);
            });
        engine_only = Some(n);
        args.drain(i..(i + 2).min(args.len()));
    }
    let dirs: Vec<PathBuf> = args.into_iter().map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: throughput [--profile paper|canonical] DIR...");
        std::process::exit(2);
    }
    for dir in dirs {
        let (inputs, errors) = collect_inputs(std::slice::from_ref(&dir));
        for e in errors {
            eprintln!("skipped: {e}");
        }
        let files: Vec<(Lang, Vec<u8>)> = inputs
            .iter()
            .filter_map(|i| {
                // The language as the engine chooses it (`.h` by its content).
                let src = std::fs::read(&i.path).ok()?;
                Some((Lang::for_source(&i.path, &src, None)?, src))
            })
            .collect();
        let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
        let mb = bytes as f64 / 1e6;
        println!("{}: {} files, {:.2} MB", dir.display(), files.len(), mb);
        if let Some(n) = engine_only {
            let mut best: Option<(f64, f64)> = None;
            for _ in 0..n.max(1) {
                let t = Timer::start();
                for (lang, src) in &files {
                    let f = parse_for(profile, *lang, src.clone()).unwrap();
                    std::hint::black_box(analyze_parsed("x", &f, profile).functions.len());
                }
                let r = t.stop();
                if best.is_none_or(|b| r.1 < b.1) {
                    best = Some(r);
                }
            }
            if let Some(b) = best {
                report("engine (best)", mb, b, None);
            }
            continue;
        }

        let t = Timer::start();
        for (lang, src) in &files {
            std::hint::black_box(parse_for(profile, *lang, src.clone()).unwrap());
        }
        report("parse", mb, t.stop(), None);

        let t = Timer::start();
        let mut nodes = 0usize;
        for (lang, src) in &files {
            let f = parse_for(profile, *lang, src.clone()).unwrap();
            nodes += walk_all(&f);
        }
        let floor_times = t.stop();
        let floor = mb / floor_times.1.max(1e-9);
        report("parse+walk", mb, floor_times, None);
        println!("  ({nodes} nodes)");

        let t = Timer::start();
        let mut flat_nodes = 0usize;
        for (lang, src) in &files {
            let f = parse_for(profile, *lang, src.clone()).unwrap();
            flat_nodes += FlatTree::new(&f).len();
        }
        report("parse+flatten", mb, t.stop(), Some(floor));
        std::hint::black_box(flat_nodes);

        let t = Timer::start();
        let mut records = 0usize;
        for (lang, src) in &files {
            let f = parse_for(profile, *lang, src.clone()).unwrap();
            records += analyze_parsed("x", &f, profile).functions.len();
        }
        report("engine", mb, t.stop(), Some(floor));
        println!("  ({records} function records)");

        // Stages alone, on trees parsed beforehand.
        let parsed: Vec<ParsedFile> = files
            .iter()
            .map(|(lang, src)| parse_for(profile, *lang, src.clone()).unwrap())
            .collect();
        let t = Timer::start();
        let flats: Vec<FlatTree> = parsed.iter().map(FlatTree::new).collect();
        report("  flatten", mb, t.stop(), None);
        let t = Timer::start();
        let indexes: Vec<_> = parsed
            .iter()
            .zip(&flats)
            .map(|(file, flat)| index_flat(file, flat))
            .collect();
        report("  index", mb, t.stop(), None);
        type Metric = fn(&FnCtx<'_>) -> u64;
        let stages: [(&str, Metric); 4] = [
            ("  cyclomatic", |c| u64::from(cyclomatic(c).unwrap_or(0))),
            ("  cognitive", |c| u64::from(cognitive(c).unwrap_or(0))),
            ("  halstead", |c| halstead(c).map_or(0, |h| h.n1)),
            ("  lloc", |c| u64::from(lloc(c).unwrap_or(0))),
        ];
        // Function nodes found once, outside the timed loops.
        let nodes: Vec<Vec<_>> = flats
            .iter()
            .zip(&indexes)
            .map(|(flat, index)| index.iter().map(|f| flat.function_node(f)).collect())
            .collect();
        for (label, metric) in stages {
            let t = Timer::start();
            let mut sum = 0u64;
            for ((file, index), nodes) in parsed.iter().zip(&indexes).zip(&nodes) {
                for (func, node) in index.iter().zip(nodes) {
                    let Some(node) = *node else {
                        continue;
                    };
                    let ctx = FnCtx {
                        file,
                        func,
                        node,
                        index,
                        profile,
                    };
                    sum = sum.wrapping_add(metric(&ctx));
                }
            }
            std::hint::black_box(sum);
            report(label, mb, t.stop(), None);
        }
        drop(nodes);
        drop(flats);
        drop(parsed);

        let wall = Instant::now();
        let n: usize = files
            .par_iter()
            .map(|(lang, src)| {
                let f = parse_for(profile, *lang, src.clone()).unwrap();
                analyze_parsed("x", &f, profile).functions.len()
            })
            .sum();
        let w = wall.elapsed().as_secs_f64();
        println!(
            "  engine (rayon)   wall {w:>7.2} s  {:>8.2} MB/s  ({n} records, {} threads)",
            mb / w,
            rayon::current_num_threads()
        );
    }
}
