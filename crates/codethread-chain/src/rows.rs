//! The rows of a chain's datasets: the Implementation Task and the
//! Follow-On Issue, each the benchmark's own row (every upstream column,
//! [`codethread_bench::swebench_row`]) with the chain's fields, and the
//! agent-side form of a row, which holds none of the original code.

use std::collections::BTreeMap;

use codethread_bench::{swebench_row, Benchmark, Instance};
use serde_json::{Map, Value};

/// Fields of a chain row that hold original code (the gold patch, the
/// human PR1, PR0 as a plain diff, whose removed lines are the original
/// bodies): left out of every agent-side row
/// (`codethread_scaffold::mini_swe_agent::write_mini_swe_agent_subset`), with their `_b64` twins.
pub const AGENT_HIDDEN_FIELDS: &[&str] = &[
    "patch",
    "gold_patch",
    "pr1_human_patch",
    "pr0_patch",
    "setup_patch",
    // FeatBench's per-file objects of the gold and test patches.
    "patch_files",
    "test_patch_files",
];

/// The row an agent-side dataset gets: every field of `row` except
/// [`AGENT_HIDDEN_FIELDS`] (and their `_b64` twins).
pub fn agent_row(row: &Map<String, Value>) -> Map<String, Value> {
    let mut r = row.clone();
    for f in AGENT_HIDDEN_FIELDS {
        r.remove(*f);
        r.remove(&format!("{f}_b64"));
    }
    r
}

/// A row of the Implementation Task dataset: the instance at its base
/// commit with every upstream column ([`swebench_row`]), PR0 as setup patch
/// (`setup_patch`, also `pr0_patch`), the task statement as
/// `problem_statement`, the original `test_patch` and test lists (the gate
/// runs them), the original issue kept as `original_problem_statement`, and
/// the target ids.
///
/// `patch` (what the harness's `--predictions_path gold` grades, at
/// `base_commit`) is the human PR1 expressed against base: PR0 + human PR1,
/// which is empty (the human PR1 restores base), so `--gold` never grades a
/// wrong tree (the harness skips it as an empty patch; base passes the gate
/// by construction). The human PR1 relative to base + PR0 is in
/// `pr1_human_patch`; the issue's own fix in `gold_patch`.
pub(crate) fn implementation_task_row(
    inst: &Instance,
    pr0: &str,
    human_pr1: &str,
    statement: &str,
    targets: &[String],
) -> Map<String, Value> {
    let mut m = swebench_row(inst);
    m.insert(
        "original_problem_statement".into(),
        Value::String(inst.problem_statement.clone()),
    );
    m.insert(
        "problem_statement".into(),
        Value::String(statement.to_string()),
    );
    m.insert("patch".into(), Value::String(String::new()));
    m.insert(
        "pr1_human_patch".into(),
        Value::String(human_pr1.to_string()),
    );
    m.insert("setup_patch".into(), Value::String(pr0.to_string()));
    m.insert("pr0_patch".into(), Value::String(pr0.to_string()));
    m.insert("gold_patch".into(), Value::String(inst.patch.clone()));
    m.insert("targets".into(), Value::from(targets.to_vec()));
    m.insert("task".into(), Value::String("implementation".into()));
    m
}

/// A row of the Follow-On Issue dataset on top of a given PR1 (every
/// upstream column, [`swebench_row`]): `setup_patch` = PR0 + PR1 combined into one diff against base (empty for
/// the human PR1, which restores base), the original issue as
/// `problem_statement` in the words the benchmark's own agent runs use
/// ([`Benchmark::agent_statement`]: SWE-bench Pro's adds the requirements
/// and interfaces, and the row keeps the bare issue as
/// `original_problem_statement`), the gold `patch`, the original tests.
pub(crate) fn follow_on_row(
    inst: &Instance,
    setup_patch: &str,
    pr1_label: &str,
) -> Map<String, Value> {
    let mut m = swebench_row(inst);
    let statement = Benchmark::of(inst).agent_statement(inst);
    if statement != inst.problem_statement {
        m.insert(
            "original_problem_statement".into(),
            Value::String(inst.problem_statement.clone()),
        );
        m.insert("problem_statement".into(), Value::String(statement));
    }
    m.insert("setup_patch".into(), Value::String(setup_patch.to_string()));
    m.insert("pr1".into(), Value::String(pr1_label.to_string()));
    m.insert("task".into(), Value::String("follow_on".into()));
    m
}

/// A mini-swe-agent style init-patch map: `{instance_id: patch}` applied to
/// the environment before the agent starts (PR0 for the Implementation
/// Task, PR0 + PR1 for the Follow-On Issue). Upstream mini-swe-agent has no
/// option that reads it (only a fork would); its own mechanism is
/// `run.env_startup_command`, which `codethread_scaffold`'s `write_mini_swe_agent_subset` serves.
pub fn init_patch_map(patches: &BTreeMap<String, String>) -> Value {
    Value::Object(
        patches
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use codethread_bench::{check_harness_row, parse_instances, HarnessGeneration};
    use std::path::Path;

    fn inst(extra: &str) -> Instance {
        let row = format!(
            r#"{{"instance_id":"o__r-1","repo":"o/r","base_commit":"abc","patch":"","FAIL_TO_PASS":"[\"t\"]","PASS_TO_PASS":"[]"{extra}}}"#
        );
        let l = parse_instances(Path::new("rows.jsonl"), &row).expect("parse");
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        l.items.into_iter().next().expect("row")
    }

    #[test]
    fn a_pro_follow_on_row_gives_the_agent_pros_own_statement() {
        // Pro's agents read the issue, its requirements and the interfaces
        // it introduces (helper_code/create_problem_statement.py).
        let row = r#"{"instance_id":"instance_o__r-1","repo":"o/r","base_commit":"abc","patch":"","fail_to_pass":"['t']","pass_to_pass":"[]","repo_language":"python","problem_statement":"Issue.","requirements":"- Must x.","interface":"No new interfaces are introduced."}"#;
        let l = parse_instances(Path::new("pro.jsonl"), row).expect("parse");
        let pro = l.items.into_iter().next().expect("row");
        let fo = follow_on_row(&pro, "", "human");
        assert_eq!(
            fo.get("problem_statement").and_then(Value::as_str),
            Some("Issue.\n\nRequirements:\n- Must x.\n\nNew interfaces introduced:\nNo new interfaces are introduced.")
        );
        assert_eq!(
            fo.get("original_problem_statement").and_then(Value::as_str),
            Some("Issue.")
        );
        // Other benchmarks: the issue as it is, no extra column.
        let swe = inst(r#","problem_statement":"Issue.""#);
        let fo = follow_on_row(&swe, "", "human");
        assert_eq!(
            fo.get("problem_statement").and_then(Value::as_str),
            Some("Issue.")
        );
        assert!(!fo.contains_key("original_problem_statement"));
    }

    #[test]
    fn chain_rows_carry_every_upstream_column() {
        let full = inst(
            r#","version":"1.1","image":"img","eval_script":"s","log_parser":"p","eval_type":"pass_and_fail","difficulty":"<15 min fix""#,
        );
        for row in [
            implementation_task_row(&full, "pr0", "pr1", "stmt", &[]),
            follow_on_row(&full, "", "human"),
        ] {
            for (k, v) in [
                ("image", "img"),
                ("eval_script", "s"),
                ("log_parser", "p"),
                ("eval_type", "pass_and_fail"),
                ("difficulty", "<15 min fix"),
            ] {
                assert_eq!(row.get(k).and_then(Value::as_str), Some(v), "{k}");
            }
            check_harness_row(&row, HarnessGeneration::V4).expect("4.x");
            check_harness_row(&row, HarnessGeneration::V5).expect("5.x");
        }
    }

    #[test]
    fn implementation_gold_is_against_base() {
        let i = inst(r#","version":"1""#);
        let row = implementation_task_row(&i, "PR0", "HUMAN_PR1", "stmt", &[]);
        // PR0 + human PR1 = base: the gold against base is empty.
        assert_eq!(row.get("patch").and_then(Value::as_str), Some(""));
        assert_eq!(
            row.get("pr1_human_patch").and_then(Value::as_str),
            Some("HUMAN_PR1")
        );
    }

    #[test]
    fn agent_rows_hold_no_original_code() {
        let i = inst(r#","version":"1""#);
        let mut row = implementation_task_row(&i, "PR0", "HUMAN_PR1", "stmt", &[]);
        row.insert("setup_patch_b64".into(), Value::from("eA=="));
        let a = agent_row(&row);
        for f in AGENT_HIDDEN_FIELDS {
            assert!(!a.contains_key(*f), "{f}");
            assert!(!a.contains_key(&format!("{f}_b64")), "{f}_b64");
        }
        assert_eq!(
            a.get("problem_statement").and_then(Value::as_str),
            Some("stmt")
        );
    }
}
