//! Parses per target file on the PR0 path (issue 32), counted with
//! `codethread_lang::parses_on_thread` on the bundled fixture instances
//! (`fixtures/bench`: eleven languages). InstanceTargets reads each pre-image
//! and post-image once; the PR0 step stubs the targets on localization's
//! tree of the pre-image, so it parses nothing but the skeleton (the
//! verifying re-parse, and the macro-masked one where the plain re-parse has
//! more errors than the file). Before, the PR0 step parsed each pre-image
//! two to three times more (a lookup of the targets by name, Rust's test
//! attributes, the skeleton's own parse). Prints a table with
//! `-- --nocapture`.

use std::collections::BTreeSet;
use std::path::Path;

use codethread_bench::load_instances;
use codethread_chain::{localize_instance, pr0_batch, Pr0Options, Pr0Status, SnapshotSource};
use codethread_lang::parses_on_thread;

#[test]
fn the_pr0_step_parses_no_pre_image_again() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bench");
    let instances = load_instances(&root.join("instances.jsonl"), Default::default())
        .expect("fixture instances")
        .items;
    let out = codethread_chain::lang::io::create_temp_dir_in(&std::env::temp_dir(), "ct-parses")
        .expect("temp dir");
    let mut source = SnapshotSource::new(root.join("snapshots"));
    let (mut files, mut pr0_step, mut built) = (0usize, 0u64, 0usize);
    for inst in &instances {
        let before = parses_on_thread();
        let Ok(loc) = localize_instance(inst, &mut source) else {
            continue;
        };
        let localizing = parses_on_thread() - before;
        let before = parses_on_thread();
        let res = pr0_batch(
            std::slice::from_ref(inst),
            &mut source,
            &out,
            &Pr0Options::default(),
            true,
            &mut |_, _, _| {},
        );
        let whole = parses_on_thread() - before;
        let Some((_, Ok(Pr0Status::Written { path }))) = res.into_iter().next() else {
            continue;
        };
        // The PR0 path localizes again (the same parses), then stubs.
        let step = whole - localizing;
        let patch = std::fs::read_to_string(&path).expect("pr0 patch");
        let stubbed =
            patch.matches("\ndiff --git ").count() + usize::from(patch.starts_with("diff --git "));
        let target_files: BTreeSet<&str> = loc.targets.iter().map(|t| t.path.as_str()).collect();
        println!(
            "{:<32} {} target files, {stubbed} stubbed: localization {localizing} parses, PR0 step {step}",
            inst.instance_id,
            target_files.len()
        );
        assert!(
            stubbed >= 1,
            "{}: an empty PR0 was written",
            inst.instance_id
        );
        // One verifying re-parse per stubbed file, and at most one masked
        // re-parse (C and C++ files with macro errors): never a parse of a
        // pre-image.
        assert!(
            step as usize <= 2 * stubbed,
            "{}: the PR0 step made {step} parses for {stubbed} stubbed files",
            inst.instance_id
        );
        files += target_files.len();
        pr0_step += step;
        built += 1;
    }
    assert!(built >= 25, "only {built} fixture instances gave a PR0");
    println!(
        "{built} instances, {files} target files: {pr0_step} parses in the PR0 step ({:.2} per target file, plus localization's one of the pre-image)",
        pr0_step as f64 / files as f64
    );
    let _ = std::fs::remove_dir_all(&out);
}
