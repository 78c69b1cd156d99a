//! Exports for harnesses: SWE-bench-compatible datasets for the
//! Implementation Task and for the Follow-On Issue (every upstream column of
//! the instance carried through, checked against what a harness generation
//! needs), the mini-swe-agent layout, and predictions files the unmodified
//! harness grades.

use std::fmt;
use std::path::Path;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::error::BenchError;
use crate::files::write_atomic;
use crate::instance::Instance;

/// `s` as one single-quoted shell word (every `'` written `'\''`), for the scripts harnesses
/// and images run.
pub fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// A generation of the SWE-bench harness, by the dataset fields its
/// `make_test_spec` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HarnessGeneration {
    /// swebench 4.x: specs from its own tables, keyed by `repo` + `version`;
    /// a Python environment is built at `environment_setup_commit` when the
    /// row has one, else at `base_commit`.
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
            // 4.x builds the environment from its own spec tables by
            // `repo` + `version`; `environment_setup_commit` is optional
            // (its Python specs fall back to `base_commit`, the other
            // languages never read it).
            HarnessGeneration::V4 => &["version"],
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
) -> Result<(), BenchError> {
    let id = row
        .get("instance_id")
        .and_then(Value::as_str)
        .unwrap_or("<unknown>");
    for f in generation.required_fields() {
        match row.get(*f) {
            Some(Value::String(v)) if !v.trim().is_empty() => {}
            _ => {
                return Err(BenchError::HarnessField {
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
pub fn write_jsonl<T: serde::Serialize>(path: &Path, rows: &[T]) -> Result<(), BenchError> {
    write_atomic(path, to_jsonl(rows).as_bytes())
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
        {
            let row = swebench_row(&full);
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
        // Classic rows: 4.x needs a version (environment_setup_commit is optional).
        let classic = inst(r#","version":"1.1""#);
        check_harness_row(&swebench_row(&classic), HarnessGeneration::V4)
            .expect("no environment_setup_commit is fine for 4.x");
        let e = check_harness_row(&swebench_row(&inst("")), HarnessGeneration::V4)
            .expect_err("empty version");
        assert!(matches!(e, BenchError::HarnessField { field, .. } if field == "version"));
        assert!(check_harness_row(&swebench_row(&classic), HarnessGeneration::V5).is_err());
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
