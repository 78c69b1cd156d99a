//! Targets on the real DEV pack must equal the independently built
//! expected_targets.jsonl (`docs/target-rules.md`).

use std::collections::BTreeMap;

use codethread_bench::load_instances;
use codethread_chain::localize_instance;
use codethread_chain::SnapshotSource;
use serde_json::Value;

#[test]
fn dev_targets_match_expected() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    targets_match(&dev, 41);
}

/// The Java / C / C++ / Ruby / PHP pack: each instance's `language` flows
/// into localization as the hint (fmtlib/fmt's `.h` files are C++).
#[test]
fn dev_multilingual_targets_match_expected() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev_multilingual") else {
        return;
    };
    targets_match(&dev, 25);
}

fn targets_match(dev: &std::path::Path, count: usize) {
    let insts =
        load_instances(&dev.join("instances.jsonl"), Default::default()).expect("instances");
    assert!(insts.errors.is_empty());
    let expected: BTreeMap<String, Value> =
        std::fs::read_to_string(dev.join("expected_targets.jsonl"))
            .expect("expected")
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| Some((v["instance_id"].as_str()?.to_string(), v)))
            .collect();
    assert_eq!(expected.len(), count);
    let mut src = SnapshotSource::new(dev.join("files"));
    let (mut equal, mut sure_mismatch) = (0, Vec::new());
    let mut report = String::new();
    for inst in &insts.items {
        let e = &expected[&inst.instance_id];
        let mut want: Vec<String> = e["target_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str().map(str::to_string))
            .collect();
        want.sort();
        let want_neg = e["negative_case"].as_str().map(str::to_string);
        let unsure = e["unsure"].as_array().is_some_and(|a| !a.is_empty());
        let (mut got, got_neg) = match localize_instance(inst, &mut src) {
            Ok(l) => (
                l.target_ids(),
                l.negative_case.map(|n| n.as_str().to_string()),
            ),
            Err(err) => (vec![format!("ERROR {err}")], None),
        };
        got.sort();
        if got == want && got_neg == want_neg {
            equal += 1;
        } else {
            report.push_str(&format!(
                "{} (unsure={unsure}):\n  want {want:?} {want_neg:?}\n  got  {got:?} {got_neg:?}\n",
                inst.instance_id
            ));
            if !unsure {
                sure_mismatch.push(inst.instance_id.clone());
            }
        }
    }
    let mut by_lang: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for inst in &insts.items {
        let lang = inst.language.clone().unwrap_or_else(|| "-".into());
        let row = by_lang.entry(lang).or_default();
        row.1 += 1;
        if !report.contains(&format!("{} (unsure=", inst.instance_id)) {
            row.0 += 1;
        }
    }
    println!("dev targets: {equal}/{} equal\n{report}", insts.items.len());
    for (lang, (same, n)) in &by_lang {
        println!("  {lang:<10} {same}/{n}");
    }
    assert!(
        sure_mismatch.is_empty(),
        "mismatches on sure instances: {sure_mismatch:?}\n{report}"
    );
    assert!(
        equal * 10 >= insts.items.len() * 9,
        "{equal}/{count}\n{report}"
    );
}

/// Every PR0 of the DEV pack applies to before/ with the real `git apply`,
/// `git apply -R` restores it, and the skeleton files parse (no more
/// ERROR/MISSING nodes than the originals).
#[test]
fn dev_pr0_roundtrips_with_git() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    pr0_roundtrips(&dev, 41, 5, 0);
}

/// The same on the Java / C / C++ / Ruby / PHP pack (3 negative cases).
#[test]
fn dev_multilingual_pr0_roundtrips_with_git() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev_multilingual") else {
        return;
    };
    pr0_roundtrips(&dev, 25, 3, 2);
}

/// PR0 of every instance of `dev` applies with the real `git apply` and
/// `git apply -R` restores the base; at most `max_no_pr0` instances (all of
/// whose targets hold parse errors) get no PR0.
fn pr0_roundtrips(dev: &std::path::Path, count: usize, negatives: usize, max_no_pr0: usize) {
    use codethread_chain::{check_roundtrip, compose_on, compose_with_git, reverse_on};
    use codethread_chain::{make_pr0, Pr0Options};
    let insts =
        load_instances(&dev.join("instances.jsonl"), Default::default()).expect("instances");
    let mut src = SnapshotSource::new(dev.join("files"));
    let (mut built, mut negative, mut no_pr0) = (0, 0, 0);
    for inst in &insts.items {
        let loc = localize_instance(inst, &mut src).expect("localize");
        if loc.negative_case.is_some() {
            negative += 1;
            continue;
        }
        // A target the skeleton cannot stub must be one the index itself
        // flags (definition inside an ERROR node or holding parse errors):
        // the skeleton skips those; an instance whose every target is such
        // has no PR0.
        let flagged = |id: &str| {
            loc.targets
                .iter()
                .any(|t| t.target_id == id && !t.function.notes.is_empty())
        };
        let pr0 = match make_pr0(&loc, &Pr0Options::default()) {
            Ok(p) => p,
            // Every target's stub known not to compile: filtered as
            // `no_compiling_stub` by the pipeline.
            Err(e @ codethread_chain::ChainError::NoCompilingStub { .. }) => {
                println!("{}: no PR0 (no compiling stub): {e}", inst.instance_id);
                no_pr0 += 1;
                continue;
            }
            Err(e) if loc.targets.iter().all(|t| flagged(&t.target_id)) => {
                println!(
                    "{}: no PR0 (every target has parse errors): {e}",
                    inst.instance_id
                );
                no_pr0 += 1;
                continue;
            }
            Err(e) => panic!("{e}"),
        };
        for (id, why) in &pr0.not_stubbed {
            // Or its stub would not compile (a deduced C++ return type).
            assert!(
                flagged(id) || why.would_not_compile(),
                "{}: {id} not stubbed: {why}",
                inst.instance_id
            );
            println!("{}: {id} not stubbed: {why}", inst.instance_id);
        }
        check_roundtrip(&inst.instance_id, &loc.before, &pr0.patch)
            .unwrap_or_else(|e| panic!("{e}"));
        for (path, text) in &pr0.skeletons {
            let lang = codethread_lang::Lang::from_path(path).expect("lang");
            let orig = codethread_lang::parse_file(
                std::path::Path::new(path),
                loc.before[path].clone(),
                &codethread_lang::ParseOptions::with_hint(inst.lang_hint()),
            )
            .expect("parse");
            // Parsed as the original was (C/C++: with the macro mask when
            // that has fewer errors).
            let sk = codethread_lang::tolerant(
                codethread_lang::parse(orig.lang, text.clone()).expect("parse"),
            );
            assert!(
                sk.parse_errors <= orig.parse_errors,
                "{}: {path} ({lang:?}) skeleton has {} errors",
                inst.instance_id,
                sk.parse_errors
            );
        }
        // Human PR1 = reverse of PR0: PR0 + PR1 composes to nothing, and the
        // in-memory composition agrees with git's on PR0 + PR1 + gold.
        let pr1 = reverse_on(&inst.instance_id, &loc.before, &pr0.patch).expect("reverse");
        let none = compose_on(
            &inst.instance_id,
            &loc.before,
            &[&pr0.patch, &pr1],
            &["PR0", "PR1"],
        )
        .expect("compose");
        assert!(none.is_empty(), "{}", inst.instance_id);
        let layers: [&[u8]; 3] = [&pr0.patch, &pr1, inst.patch.as_bytes()];
        let mem = compose_on(
            &inst.instance_id,
            &loc.before,
            &layers,
            &["PR0", "PR1", "PR2"],
        )
        .expect("compose");
        let git = compose_with_git(
            &inst.instance_id,
            &loc.before,
            &layers,
            &["PR0", "PR1", "PR2"],
        )
        .expect("git compose");
        // Both must turn base into the gold post-image.
        for combined in [&mem, &git] {
            let repo = codethread_chain::ScratchRepo::new(&loc.before).expect("repo");
            repo.apply(combined, false)
                .expect("combined applies with git");
            let after_dir = dev.join("files").join(&inst.instance_id).join("after");
            for p in codethread_chain::touched_paths(&inst.instance_id, inst.patch.as_bytes())
                .expect("paths")
            {
                assert_eq!(
                    repo.read(&p),
                    std::fs::read(after_dir.join(&p)).ok(),
                    "{} {p}",
                    inst.instance_id
                );
            }
        }
        built += 1;
    }
    println!("dev PR0: {built} built and round-tripped with git, {negative} negative cases");
    println!("  {no_pr0} without PR0 (every target has parse errors)");
    assert!(no_pr0 <= max_no_pr0, "{no_pr0} instances without PR0");
    assert_eq!(built + negative + no_pr0, count);
    assert_eq!(negative, negatives);
}

/// Test code is never a target of a built chain (`docs/target-rules.md`,
/// "What the build stubs"), though localization lists it: the real Rust
/// instances whose gold patches edit a `#[test]` function (axum-1119's
/// `test_replace_trailing_slash`, coreutils-6575's `tests.test_had_reset`
/// in its `#[cfg(test)] mod tests`) build chains without them and say why
/// in their notes (the innermost mark is named; a helper under
/// `#[cfg(test)]` alone is `codethread-lang`'s `testcode` unit test).
#[test]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
fn rust_test_functions_are_localized_but_never_stubbed() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let insts =
        load_instances(&dev.join("instances.jsonl"), Default::default()).expect("instances");
    let cases = [
        (
            "tokio-rs__axum-1119",
            "axum/src/routing/mod.rs::test_replace_trailing_slash",
            "#[test]",
        ),
        (
            "uutils__coreutils-6575",
            "src/uu/cksum/src/cksum.rs::tests.test_had_reset",
            "#[test]",
        ),
    ];
    let picked: Vec<_> = insts
        .items
        .iter()
        .filter(|i| cases.iter().any(|c| c.0 == i.instance_id))
        .cloned()
        .collect();
    assert_eq!(picked.len(), 2);
    let out = codethread_chain::lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-rs-tests")
        .unwrap();
    let mut src = SnapshotSource::new(dev.join("files"));
    let built = codethread_chain::build(
        &picked,
        &mut src,
        &codethread_chain::BuildOptions::default().out(out.clone()),
        &mut |_, _, _| {},
    )
    .unwrap();
    for (id, test_fn, mark) in cases {
        let inst = picked.iter().find(|i| i.instance_id == id).unwrap();
        let l = localize_instance(inst, &mut SnapshotSource::new(dev.join("files"))).unwrap();
        assert!(
            l.target_ids().iter().any(|t| t == test_fn),
            "{id}: localized"
        );
        let o = built.outcomes.iter().find(|o| o.instance_id == id).unwrap();
        let codethread_chain::BuildStatus::Built { targets, .. } = &o.status else {
            panic!("{id}: {:?}", o.status)
        };
        assert!(!targets.iter().any(|t| t == test_fn), "{id}: {targets:?}");
        assert_eq!(targets.len() + 1, l.target_ids().len(), "{id}: {targets:?}");
        let notes =
            std::fs::read_to_string(out.join("instances").join(id).join("targets.json")).unwrap();
        assert!(
            notes.contains(&format!(
                "{test_fn}: not a target: test code (marked {mark}"
            )),
            "{id}: {notes}"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}
