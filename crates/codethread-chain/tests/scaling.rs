//! The statement leak check (`llm::check::check_leaks`, run by `chain build
//! --answers` on every imported statement) is linear in the gold patch plus
//! the statement: 4x both must take well under 16x (quadratic) the time.
//! Small sizes, so this runs in a debug build.

use codethread_chain::check::{check_leaks, CheckConfig};
use codethread_chain::TaskContext;
use codethread_testkit::adversarial::assert_subquadratic;
use codethread_testkit::llm_shapes::gold_lines_and_statement;

#[test]
fn gold_leak_check_is_linear() {
    let ctx = TaskContext {
        instance_id: "o__r-1".into(),
        repo: "o/r".into(),
        language: "python".into(),
        targets: vec![],
    };
    let cfg = CheckConfig::default();
    assert_subquadratic("gold leak check", 2000, |n| {
        let (gold, statement) = gold_lines_and_statement(n);
        let flags = check_leaks(&ctx, &statement, gold.as_bytes(), &cfg);
        assert_eq!(flags.len(), n.div_ceil(10));
    });
}

/// Issue 31: localizing a gold patch that edits every function of a file
/// and stubbing them all (PR0) is linear in the functions: each target is
/// found by one lookup, never by a scan of the file per target.
#[test]
fn every_function_a_target_is_linear() {
    use codethread_chain::{localize_instance, make_pr0, Pr0Options, SnapshotSource};
    use codethread_testkit::adversarial::many_python_functions;
    let dir = std::env::temp_dir().join(format!("ct-chain-scaling-{}", std::process::id()));
    assert_subquadratic("PR0 with every function a target", 3000, |n| {
        let before = many_python_functions(n);
        let after = before.replace("    return -x\n", "    return -x - 1\n");
        let file = dir.join("o__r-1/before/m.py");
        std::fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        std::fs::write(&file, &before).expect("write");
        let gold = codethread_patch::diff_files(
            &[codethread_patch::FileChange::new(
                b"m.py",
                Some(before.as_bytes()),
                Some(after.as_bytes()),
            )],
            &codethread_patch::DiffOptions::default(),
        )
        .expect("diff")
        .to_bytes();
        let row = serde_json::json!({
            "instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
            "patch": String::from_utf8(gold).expect("utf-8"),
            "FAIL_TO_PASS": ["t"], "PASS_TO_PASS": []
        });
        let inst =
            codethread_bench::parse_instances(std::path::Path::new("r.jsonl"), &row.to_string())
                .expect("row")
                .items
                .remove(0);
        let loc = localize_instance(&inst, &mut SnapshotSource::new(&dir)).expect("localize");
        assert_eq!(loc.targets.len(), n);
        let pr0 = make_pr0(&loc, &Pr0Options::default()).expect("pr0");
        assert_eq!(pr0.stubbed.len(), n);
    });
    let _ = std::fs::remove_dir_all(&dir);
}
