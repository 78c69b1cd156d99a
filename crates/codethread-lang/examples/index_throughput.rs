//! Throughput of parsing alone vs parsing + the function index, over the
//! files below each path given (e.g. the corpora in `shared/metrics/corpora`).
//!
//! `cargo run --release -p codethread-lang --example index_throughput -- DIR...`

use std::path::{Path, PathBuf};
use std::time::Instant;

use codethread_lang::{index_functions, parse_path};

fn files(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let (paths, _) = codethread_lang::source_files(root);
    paths
        .into_iter()
        .filter_map(|p| Some((std::fs::read(&p).ok()?, p)))
        .map(|(b, p)| (p, b))
        .collect()
}

fn main() {
    for root in std::env::args().skip(1).map(PathBuf::from) {
        let fs = files(&root);
        let bytes: usize = fs.iter().map(|(_, b)| b.len()).sum();
        let mb = bytes as f64 / 1e6;
        let t = Instant::now();
        let mut parsed = Vec::new();
        for (p, b) in &fs {
            if let Ok(f) = parse_path(p, b.clone()) {
                parsed.push(f);
            }
        }
        let parse_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut n = 0;
        for f in &parsed {
            n += index_functions(f).len();
        }
        let index_s = t.elapsed().as_secs_f64();
        println!(
            "{}: {} files, {:.1} MB, {} functions; parse {:.2} s ({:.1} MB/s), index {:.2} s ({:.1} MB/s), parse+index {:.1} MB/s",
            root.display(),
            fs.len(),
            mb,
            n,
            parse_s,
            mb / parse_s,
            index_s,
            mb / index_s,
            mb / (parse_s + index_s)
        );
    }
}
