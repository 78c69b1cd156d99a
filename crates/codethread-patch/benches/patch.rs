//! Throughput of parse, apply, create and localize on real patches:
//! the 800 gold patches of SWE-bench Verified (500) + Multilingual (300),
//! applied to pre-images synthesized from their own hunks (the repositories
//! are not at hand), and the 41 chains/dev instances with real pre-images.
//! Needs `CODETHREAD_SHARED`; without it the bench prints a notice and exits.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Duration;

use codethread_patch::{
    diff_trees, localize, parse_patch, synthesize_images, ApplyOptions, DiffOptions, MemTree, Patch,
};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

// The integration tests' helpers: the same tree loader.
#[path = "../tests/it/common/mod.rs"]
mod common;
use common::{dev_instances, load_tree, read_jsonl};

fn gold_patches(root: &Path) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    for name in [
        "SWE-bench_Verified.test.jsonl",
        "SWE-bench_Multilingual.test.jsonl",
    ] {
        for row in read_jsonl(&root.join("swebench/swebench_datasets").join(name)) {
            v.push(row["patch"].as_str().unwrap().as_bytes().to_vec());
        }
    }
    v
}

fn bench(c: &mut Criterion) {
    let Some(root) = codethread_testkit::shared() else {
        return;
    };
    let texts = gold_patches(&root);
    assert_eq!(texts.len(), 800);
    let bytes: usize = texts.iter().map(Vec::len).sum();
    let patches: Vec<Patch> = texts.iter().map(|t| parse_patch(t).unwrap()).collect();
    let images: Vec<(MemTree, MemTree)> = patches.iter().map(synthesize_images).collect();

    let mut g = c.benchmark_group("swebench_800_gold");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|t| parse_patch(t).map(|p| p.files.len()).unwrap_or(0))
                .sum::<usize>()
        })
    });
    g.bench_function("apply", |b| {
        b.iter(|| {
            let mut n = 0;
            for (p, (pre, _)) in patches.iter().zip(&images) {
                let mut t = pre.clone();
                n += t
                    .apply(p, &ApplyOptions::default())
                    .map(|r| r.files.len())
                    .unwrap_or(0);
            }
            n
        })
    });
    g.bench_function("parse_and_apply", |b| {
        b.iter(|| {
            let mut n = 0;
            for (text, (pre, _)) in texts.iter().zip(&images) {
                let p = parse_patch(text).unwrap();
                let mut t = pre.clone();
                n += t
                    .apply(&p, &ApplyOptions::default())
                    .map(|r| r.files.len())
                    .unwrap_or(0);
            }
            n
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| patches.iter().map(|p| p.to_bytes().len()).sum::<usize>())
    });
    g.finish();

    // Real pre-images: the 41 dev instances.
    let dev = root.join("chains/dev");
    let mut dev_cases = Vec::new();
    for (row, files) in dev_instances(&dev) {
        let patch = parse_patch(row["patch"].as_str().unwrap().as_bytes()).unwrap();
        dev_cases.push((
            patch,
            load_tree(&files.join("before")),
            load_tree(&files.join("after")),
        ));
    }
    let src_bytes: usize = dev_cases
        .iter()
        .map(|(_, b, _)| b.files.values().map(|f| f.content.len()).sum::<usize>())
        .sum();
    let mut g = c.benchmark_group("dev_41");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(src_bytes as u64));
    g.bench_function("apply", |b| {
        b.iter(|| {
            dev_cases
                .iter()
                .map(|(p, before, _)| {
                    before
                        .clone()
                        .apply(p, &ApplyOptions::default())
                        .map(|r| r.files.len())
                        .unwrap_or(0)
                })
                .sum::<usize>()
        })
    });
    g.bench_function("create", |b| {
        b.iter(|| {
            dev_cases
                .iter()
                .map(|(_, before, after)| {
                    diff_trees(before, after, &DiffOptions::default())
                        .map(|p| p.files.len())
                        .unwrap_or(0)
                })
                .sum::<usize>()
        })
    });
    // The share of localize spent in codethread-lang: parse + index every
    // source pre- and post-image.
    g.bench_function("lang_parse_index_only", |b| {
        b.iter(|| {
            let mut n = 0;
            for (p, before, after) in &dev_cases {
                for f in &p.files {
                    for (tree, path) in [(before, &f.old_path), (after, &f.new_path)] {
                        let Some(path) = path else { continue };
                        let name = String::from_utf8_lossy(path).into_owned();
                        if !codethread_patch::is_source_path(&name, None) {
                            continue;
                        }
                        if let Some(src) = tree.get(path) {
                            let parsed = codethread_lang::parse_file(
                                Path::new(&name),
                                src.to_vec(),
                                &codethread_lang::ParseOptions::default(),
                            )
                            .unwrap();
                            n += codethread_lang::index_functions(&parsed).len();
                        }
                    }
                }
            }
            n
        })
    });
    g.bench_function("localize", |b| {
        b.iter(|| {
            dev_cases
                .iter()
                .map(|(p, before, _)| {
                    localize(before, p, &codethread_patch::LocalizeOptions::default())
                        .map(|l| l.targets.len())
                        .unwrap_or(0)
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
