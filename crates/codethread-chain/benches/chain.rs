//! Throughput of the chain stages on the real data (needs CODETHREAD_SHARED):
//! loading SWE-bench Verified (JSONL, 9.5 MB, and parquet), localizing and
//! stubbing the 41 DEV instances, and composing PR0 + PR1 + gold.
#![allow(missing_docs)] // criterion_group! generates an undocumented function

use std::collections::BTreeMap;

use codethread_bench::{load_instances, Instance};
use codethread_chain::SnapshotSource;
use codethread_chain::{compose_on, reverse_on};
use codethread_chain::{localize_instance, InstanceTargets};
use codethread_chain::{make_pr0, Pr0Options};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// (instance id, base files, [PR0, PR1, gold]).
type Stack = (String, BTreeMap<String, Vec<u8>>, Vec<Vec<u8>>);

fn benches(c: &mut Criterion) {
    // SKIPPED when CODETHREAD_SHARED is unset; a missing data set panics.
    let (Some(datasets), Some(dev)) = (
        codethread_testkit::shared_path("swebench/swebench_datasets"),
        codethread_testkit::shared_path("chains/dev"),
    ) else {
        return;
    };
    let verified = datasets.join("SWE-bench_Verified.test.jsonl");
    let bytes = std::fs::metadata(&verified).map(|m| m.len()).unwrap_or(0);
    let mut g = c.benchmark_group("load");
    g.throughput(Throughput::Bytes(bytes));
    g.bench_function("verified_jsonl_500", |b| {
        b.iter(|| load_instances(&verified, Default::default()).map(|l| l.items.len()))
    });
    #[cfg(feature = "parquet")]
    {
        let pq = datasets.join("SWE-bench_Verified.test.parquet");
        g.bench_function("verified_parquet_500", |b| {
            b.iter(|| load_instances(&pq, Default::default()).map(|l| l.items.len()))
        });
    }
    g.finish();

    let insts: Vec<Instance> = load_instances(&dev.join("instances.jsonl"), Default::default())
        .map(|l| l.items)
        .unwrap_or_default();
    let snap = dev.join("files");
    let mut g = c.benchmark_group("dev41");
    g.throughput(Throughput::Elements(insts.len() as u64));
    g.sample_size(10);
    g.bench_function("localize_instance", |b| {
        b.iter(|| {
            let mut s = SnapshotSource::new(&snap);
            insts
                .iter()
                .filter(|i| localize_instance(i, &mut s).is_ok())
                .count()
        })
    });
    let mut s = SnapshotSource::new(&snap);
    let locs: Vec<InstanceTargets> = insts
        .iter()
        .filter_map(|i| localize_instance(i, &mut s).ok())
        .filter(|l| l.negative_case.is_none())
        .collect();
    g.bench_function("pr0_36", |b| {
        b.iter(|| {
            locs.iter()
                .filter(|l| make_pr0(l, &Pr0Options::default()).is_ok())
                .count()
        })
    });
    let stacks: Vec<Stack> = locs
        .iter()
        .filter_map(|l| {
            let pr0 = make_pr0(l, &Pr0Options::default()).ok()?.patch;
            let pr1 = reverse_on(&l.instance_id, &l.before, &pr0).ok()?;
            let gold = insts
                .iter()
                .find(|i| i.instance_id == l.instance_id)?
                .patch
                .as_bytes()
                .to_vec();
            Some((
                l.instance_id.clone(),
                l.before.clone(),
                vec![pr0, pr1, gold],
            ))
        })
        .collect();
    g.bench_function("compose_pr0_pr1_gold_36", |b| {
        b.iter(|| {
            stacks
                .iter()
                .filter(|(id, base, layers)| {
                    let refs: Vec<&[u8]> = layers.iter().map(Vec::as_slice).collect();
                    compose_on(id, base, &refs, &["PR0", "PR1", "PR2"]).is_ok()
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(chain, benches);
criterion_main!(chain);
