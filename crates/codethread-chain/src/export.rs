//! Exports for harnesses: SWE-bench-compatible datasets for the
//! Implementation Task and for the Follow-On Issue (every upstream column of
//! the instance carried through, checked against what a harness generation
//! needs), the mini-swe-agent layout, and predictions files the unmodified
//! harness grades.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::ChainError;
use crate::fsutil::write_atomic;
use crate::instance::Instance;

/// A generation of the SWE-bench harness, by the dataset fields its
/// `make_test_spec` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HarnessGeneration {
    /// swebench 4.x: specs from its own tables, keyed by `repo` + `version`;
    /// the environment is built at `environment_setup_commit`.
    V4,
    /// swebench 5.x: the row carries its prebuilt `image`, its `eval_script`,
    /// its `log_parser` and its `eval_type`.
    V5,
}

impl HarnessGeneration {
    /// The row fields this generation needs (non-empty strings), beyond the
    /// classic `instance_id`, `repo`, `FAIL_TO_PASS`, `PASS_TO_PASS`.
    pub fn required_fields(self) -> &'static [&'static str] {
        match self {
            HarnessGeneration::V4 => &["version", "environment_setup_commit"],
            HarnessGeneration::V5 => &["image", "eval_script", "log_parser", "eval_type"],
        }
    }
}

impl fmt::Display for HarnessGeneration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HarnessGeneration::V4 => "swebench 4.x",
            HarnessGeneration::V5 => "swebench 5.x",
        })
    }
}

impl FromStr for HarnessGeneration {
    type Err = String;
    /// `4`, `4.x`, `v4`, `5`, `5.x`, `v5`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().trim_start_matches('v').trim_end_matches(".x") {
            "4" => Ok(HarnessGeneration::V4),
            "5" => Ok(HarnessGeneration::V5),
            _ => Err(format!("unknown harness generation {s:?} (4 or 5)")),
        }
    }
}

/// Check that `row` has every field `generation` needs, as a non-empty
/// string; the error names the instance and the first missing field.
pub fn check_harness_row(
    row: &Map<String, Value>,
    generation: HarnessGeneration,
) -> Result<(), ChainError> {
    let id = row
        .get("instance_id")
        .and_then(Value::as_str)
        .unwrap_or("<unknown>");
    for f in generation.required_fields() {
        match row.get(*f) {
            Some(Value::String(v)) if !v.trim().is_empty() => {}
            _ => {
                return Err(ChainError::HarnessField {
                    instance_id: id.to_string(),
                    field: (*f).to_string(),
                    generation: generation.to_string(),
                })
            }
        }
    }
    Ok(())
}

/// The instance as a SWE-bench row with every upstream column: the classic
/// fields ([`Instance::to_swebench_row`]; test lists as JSON lists, which
/// every harness generation accepts) plus every column the loader did not
/// map (`Instance::extra`, e.g. `image`, `eval_script`, `log_parser`,
/// `eval_type`, `difficulty`), verbatim.
pub fn swebench_row(inst: &Instance) -> Map<String, Value> {
    let mut m = inst.to_swebench_row();
    for (k, v) in &inst.extra {
        if !m.contains_key(k) {
            m.insert(k.clone(), v.clone());
        }
    }
    m
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
pub fn implementation_task_row(
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
/// `problem_statement`, the gold `patch`, the original tests.
pub fn follow_on_row(inst: &Instance, setup_patch: &str, pr1_label: &str) -> Map<String, Value> {
    let mut m = swebench_row(inst);
    m.insert("setup_patch".into(), Value::String(setup_patch.to_string()));
    m.insert("pr1".into(), Value::String(pr1_label.to_string()));
    m.insert("task".into(), Value::String("follow_on".into()));
    m
}

/// Render rows as JSONL.
pub fn to_jsonl<T: serde::Serialize>(rows: &[T]) -> String {
    let mut s = String::new();
    for r in rows {
        if let Ok(line) = serde_json::to_string(r) {
            s.push_str(&line);
            s.push('\n');
        }
    }
    s
}

/// Write rows as JSONL, atomically.
pub fn write_jsonl<T: serde::Serialize>(path: &Path, rows: &[T]) -> Result<(), ChainError> {
    write_atomic(path, to_jsonl(rows).as_bytes())
}

/// A mini-swe-agent style init-patch map: `{instance_id: patch}` applied to
/// the environment before the agent starts (PR0 for the Implementation
/// Task, PR0 + PR1 for the Follow-On Issue). Upstream mini-swe-agent has no
/// option that reads it (only a fork would); its own mechanism is
/// `run.env_startup_command`, which [`write_mini_swe_agent_subset`] serves.
pub fn init_patch_map(patches: &BTreeMap<String, String>) -> Value {
    Value::Object(
        patches
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect(),
    )
}

/// The split `mini-extra swebench --split` names for a subset written by
/// [`write_mini_swe_agent_subset`] (its file is `<split>.jsonl`, which the
/// Hugging Face `datasets` loader maps to this split; mini-swe-agent's
/// default split, `dev`, would not load it).
pub const MINI_SWE_AGENT_SPLIT: &str = "test";

/// Field of a mini-swe-agent row naming the file holding its setup patch
/// (absolute path): the startup command of
/// `integrations/mini-swe-agent/codethread.yaml` applies that file, so the
/// patch never goes through a command line (no argument-length limit).
pub const SETUP_PATCH_FILE_FIELD: &str = "setup_patch_file";

/// Write a dataset in the layout `mini-extra swebench --subset
/// <root>/subset --split test` loads: `<root>/subset/test.jsonl` (one row
/// per instance, the only file in that directory) and
/// `<root>/setup_patches/<instance_id>.patch` (the setup patch bytes,
/// verbatim; empty when there is none), each row's
/// [`SETUP_PATCH_FILE_FIELD`] naming its patch file by absolute path.
/// Returns the subset directory.
pub fn write_mini_swe_agent_subset(
    root: &Path,
    rows: &[(Map<String, Value>, Vec<u8>)],
) -> Result<PathBuf, ChainError> {
    // Below `root`, no directory is passed through a planted link.
    let patches = codethread_lang::io::create_dir_all_nofollow(root, Path::new("setup_patches"))?;
    let abs = std::fs::canonicalize(&patches).map_err(|e| ChainError::io(&patches, e))?;
    let mut out = Vec::new();
    for (row, patch) in rows {
        let id = row
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if id.is_empty() || id.contains(['/', '\\', '\0']) || id == "." || id == ".." {
            return Err(ChainError::Instance {
                instance_id: id.to_string(),
                message: "instance id cannot name a patch file".into(),
            });
        }
        let name = format!("{id}.patch");
        write_atomic(&patches.join(&name), patch)?;
        let mut r = row.clone();
        r.insert(
            SETUP_PATCH_FILE_FIELD.into(),
            Value::String(abs.join(&name).to_string_lossy().into_owned()),
        );
        out.push(r);
    }
    let subset = codethread_lang::io::create_dir_all_nofollow(root, Path::new("subset"))?;
    write_jsonl(&subset.join(format!("{MINI_SWE_AGENT_SPLIT}.jsonl")), &out)?;
    Ok(subset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::parse_instances;

    fn inst(extra: &str) -> Instance {
        let row = format!(
            r#"{{"instance_id":"o__r-1","repo":"o/r","base_commit":"abc","patch":"","FAIL_TO_PASS":"[\"t\"]","PASS_TO_PASS":"[]"{extra}}}"#
        );
        let l = parse_instances(Path::new("rows.jsonl"), &row).expect("parse");
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        l.items.into_iter().next().expect("row")
    }

    #[test]
    fn upstream_columns_are_carried_and_checked() {
        let full = inst(
            r#","version":"1.1","environment_setup_commit":"e","image":"img","eval_script":"s","log_parser":"p","eval_type":"pass_and_fail","difficulty":"<15 min fix""#,
        );
        for row in [
            swebench_row(&full),
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
        // Each 5.x field missing in turn is named, with the instance.
        for missing in HarnessGeneration::V5.required_fields() {
            let mut row = swebench_row(&full);
            row.remove(*missing);
            let e = check_harness_row(&row, HarnessGeneration::V5).expect_err("missing");
            let msg = e.to_string();
            assert!(msg.contains("o__r-1") && msg.contains(missing), "{msg}");
            check_harness_row(&row, HarnessGeneration::V4).expect("4.x unaffected");
        }
        // Classic rows: 4.x needs version + environment_setup_commit.
        let classic = inst(r#","version":"1.1""#);
        let e = check_harness_row(&swebench_row(&classic), HarnessGeneration::V4)
            .expect_err("no environment_setup_commit");
        assert!(
            matches!(e, ChainError::HarnessField { field, .. } if field == "environment_setup_commit")
        );
        let e = check_harness_row(&swebench_row(&inst("")), HarnessGeneration::V4)
            .expect_err("empty version");
        assert!(matches!(e, ChainError::HarnessField { field, .. } if field == "version"));
        assert!(check_harness_row(&swebench_row(&classic), HarnessGeneration::V5).is_err());
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
    fn generations_parse() {
        for (s, g) in [
            ("5", HarnessGeneration::V5),
            ("5.x", HarnessGeneration::V5),
            ("v4", HarnessGeneration::V4),
            ("4.x", HarnessGeneration::V4),
        ] {
            assert_eq!(s.parse::<HarnessGeneration>(), Ok(g));
        }
        assert!("6".parse::<HarnessGeneration>().is_err());
    }
}
