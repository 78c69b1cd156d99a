//! Throughput of `--all` skeletonizing over django (18 MB of Python), next
//! to the floor it is measured against: tree-sitter parse + one cursor walk
//! over every node. Single-threaded; criterion reports MB/s (bytes of
//! source per second).
//!
//! `CODETHREAD_SHARED=/path/to/shared cargo bench -p codethread-skeleton`
//! (without the variable the benchmark prints SKIPPED and does nothing).
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use codethread_lang::{index_functions, parse, Lang};
use codethread_skeleton::{skeletonize, Options, ParseErrorPolicy, Selector};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn python_files(root: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if Lang::from_path(&p) == Some(Lang::Python) {
                out.push(std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

fn walk_count(file: &codethread_lang::ParsedFile) -> usize {
    let mut c = file.root().walk();
    let mut n = 0usize;
    loop {
        n += 1;
        if c.goto_first_child() {
            continue;
        }
        loop {
            if c.goto_next_sibling() {
                break;
            }
            if !c.goto_parent() {
                return n;
            }
        }
    }
}

fn bench(c: &mut Criterion) {
    let Some(root) = codethread_testkit::shared_path("metrics/corpora/django") else {
        return;
    };
    let files = python_files(&root);
    let bytes: usize = files.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group("django");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("parse+walk", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|s| walk_count(&parse(Lang::Python, s.clone()).unwrap()))
                .sum::<usize>()
        })
    });
    g.bench_function("parse+index", |b| {
        b.iter(|| {
            files
                .iter()
                .map(|s| index_functions(&parse(Lang::Python, s.clone()).unwrap()).len())
                .sum::<usize>()
        })
    });
    for (name, verify) in [("skeletonize", false), ("skeletonize+verify", true)] {
        let opts = Options::default()
            .verify(verify)
            .on_parse_errors(ParseErrorPolicy::SkipAffected);
        g.bench_function(name, |b| {
            b.iter(|| {
                files
                    .iter()
                    .map(|s| {
                        let f = parse(Lang::Python, s.clone()).unwrap();
                        skeletonize(&f, &[Selector::All], &opts)
                            .unwrap()
                            .edits
                            .len()
                    })
                    .sum::<usize>()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
