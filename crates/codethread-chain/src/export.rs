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
pub(crate) fn swebench_row(inst: &Instance) -> Map<String, Value> {
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
/// `problem_statement`, the gold `patch`, the original tests.
pub(crate) fn follow_on_row(
    inst: &Instance,
    setup_patch: &str,
    pr1_label: &str,
) -> Map<String, Value> {
    let mut m = swebench_row(inst);
    m.insert("setup_patch".into(), Value::String(setup_patch.to_string()));
    m.insert("pr1".into(), Value::String(pr1_label.to_string()));
    m.insert("task".into(), Value::String("follow_on".into()));
    m
}

/// Render rows as JSONL.
pub(crate) fn to_jsonl<T: serde::Serialize>(rows: &[T]) -> String {
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
pub(crate) const SETUP_PATCH_FILE_FIELD: &str = "setup_patch_file";

/// Fields of a chain row that hold original code (the gold patch, the
/// human PR1, PR0 as a plain diff, whose removed lines are the original
/// bodies): left out of every agent-side row
/// ([`write_mini_swe_agent_subset`]), with their `_b64` twins.
pub const AGENT_HIDDEN_FIELDS: &[&str] = &[
    "patch",
    "gold_patch",
    "pr1_human_patch",
    "pr0_patch",
    "setup_patch",
];

/// The setup an agent's sandbox runs before the agent starts, as a POSIX
/// shell script run in the repository (`/testbed`) with the sealed setup
/// patch as `$1` (absent or empty: nothing to apply). It applies the patch
/// to the work tree and the index, then replaces the history by one commit
/// holding exactly the files git tracked (`git ls-files`, added with `-f`
/// so a tracked file that `.gitignore` matches is kept), so neither `git
/// log`, `git show` nor the object store holds the original of a stubbed
/// function, and removes the untracked `__pycache__` directories (compiled
/// copies of the original code). `integrations/mini-swe-agent/codethread.yaml`
/// holds the same lines (a test keeps them equal) and each instance's
/// Docker environment runs this file.
pub const SETUP_SCRIPT: &str = r#"set -e
patch_file="$1"
if [ -n "$patch_file" ] && [ -s "$patch_file" ]; then
  git apply --index --whitespace=nowarn "$patch_file"
fi
tracked="$(mktemp)"
git ls-files -z > "$tracked"
rm -rf .git
git -c init.defaultBranch=main init -q
if [ -s "$tracked" ]; then
  git --literal-pathspecs add -f --pathspec-from-file="$tracked" --pathspec-file-nul
fi
rm -f "$tracked"
git -c user.name=codethread -c user.email=codethread@localhost -c commit.gpgsign=false \
  commit -q --allow-empty --no-verify -m "codethread setup"
find . -name .git -prune -o -type d -name __pycache__ -exec sh -c \
  'for d do git --literal-pathspecs ls-files --error-unmatch -- "$d" >/dev/null 2>&1 || rm -rf "$d"; done' sh {} +
"#;

/// The image mini-swe-agent would start an instance in
/// (`image_name` / `docker_image` of the row, else the SWE-bench image
/// named after the instance id), which each per-instance environment
/// starts `FROM`.
pub(crate) fn upstream_image(row: &Map<String, Value>) -> String {
    for k in ["image_name", "docker_image"] {
        if let Some(Value::String(s)) = row.get(k) {
            if !s.trim().is_empty() {
                return s.clone();
            }
        }
    }
    let id = row
        .get("instance_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    format!(
        "docker.io/swebench/sweb.eval.x86_64.{}:latest",
        id.replace("__", "_1776_")
    )
    .to_lowercase()
}

/// The tag of an instance's setup image: `codethread/<task>:<id>`, each part
/// reduced to the characters Docker references allow (a tag longer than
/// 128 characters keeps its head and a hash of the whole id).
pub(crate) fn setup_image_name(task: &str, instance_id: &str) -> String {
    let clean = |s: &str, lower: bool| -> String {
        s.chars()
            .map(|c| {
                let c = if lower { c.to_ascii_lowercase() } else { c };
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                    c
                } else {
                    '-'
                }
            })
            .collect()
    };
    let mut repo = clean(task, true).trim_matches(['.', '-', '_']).to_string();
    if repo.is_empty() {
        repo = "setup".into();
    }
    let mut tag = clean(instance_id, false)
        .trim_start_matches(['.', '-'])
        .to_string();
    if tag.is_empty() || tag.len() > 128 {
        use sha2::Digest;
        let h = sha2::Sha256::digest(instance_id.as_bytes());
        let hex: String = h.iter().take(8).map(|b| format!("{b:02x}")).collect();
        tag = format!("{}-{hex}", &tag[..tag.len().min(111)]);
    }
    format!("codethread/{repo}:{tag}")
}

/// An instance's Docker build context: `FROM` the image the agent would
/// start in, the setup run with the sealed patch bind-mounted for that one
/// step only (`RUN --mount`, BuildKit), so no layer keeps the patch.
fn dockerfile(from: &str) -> String {
    setup_dockerfile(from, "the setup state of one instance", "")
}

/// The one Dockerfile of an agent's setup state, for the mini-swe-agent
/// environments here and the Harbor tasks (`harbor::export`): `FROM` the
/// instance image, the setup run with the sealed patch bind-mounted for that
/// step only. `what` is the comment line's subject; `then` is appended to
/// the setup command (empty: nothing).
pub(crate) fn setup_dockerfile(from: &str, what: &str, then: &str) -> String {
    format!(
        "# syntax=docker/dockerfile:1.4\n\
         # codethread: {what} (written by codethread-chain).\n\
         FROM {from}\n\
         WORKDIR /testbed\n\
         RUN --mount=type=bind,source=.,target=/codethread-setup \\\n    \
         sh /codethread-setup/setup.sh /codethread-setup/setup.patch{then}\n"
    )
}

/// The row an agent-side dataset gets: every field of `row` except
/// [`AGENT_HIDDEN_FIELDS`] (and their `_b64` twins).
pub(crate) fn agent_row(row: &Map<String, Value>) -> Map<String, Value> {
    let mut r = row.clone();
    for f in AGENT_HIDDEN_FIELDS {
        r.remove(*f);
        r.remove(&format!("{f}_b64"));
    }
    r
}

/// Write a dataset in the layout `mini-extra swebench --subset
/// <root>/subset --split test` loads, for an agent that must not see the
/// original code. Each row pairs the chain row with its sealed setup patch
/// (`seal_on`: PR0, or PR0 + PR1, as forward-only literals).
///
/// - `<root>/subset/test.jsonl`: one agent row per instance (the fields
///   holding original code left out), its `setup_patch_file` field
///   naming `<root>/setup_patches/<instance_id>.patch` (absolute path; empty
///   file when there is nothing to set up), which
///   `integrations/mini-swe-agent/codethread.yaml` applies before the agent
///   starts (local environment, or a sandbox that sees only that one file).
/// - `<root>/environments/<instance_id>/{Dockerfile,setup.sh,setup.patch}`
///   and `<root>/build_images.sh`: per-instance images that hold the setup
///   state (built [`SETUP_SCRIPT`], history hidden, the patch in no layer),
///   and `<root>/images_subset/test.jsonl`, the same rows naming those images
///   (`image_name`) with nothing left to apply: what docker, podman or
///   singularity runs use, with no mount at all.
///
/// Returns the subset directory.
pub fn write_mini_swe_agent_subset(
    root: &Path,
    rows: &[(Map<String, Value>, Vec<u8>)],
) -> Result<PathBuf, ChainError> {
    // Below `root`, no directory is passed through a planted link.
    let patches = codethread_lang::io::create_dir_all_nofollow(root, Path::new("setup_patches"))?;
    let abs = std::fs::canonicalize(&patches).map_err(|e| ChainError::io(&patches, e))?;
    let task = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut image_rows = Vec::new();
    let mut build = String::from(
        "#!/bin/sh\n# Build the per-instance setup images of this subset (written by codethread-chain):\n\
         #   sh build_images.sh [docker|podman]\nset -e\ncd \"$(dirname \"$0\")/environments\"\n\
         engine=\"${1:-docker}\"\n",
    );
    for (row, patch) in rows {
        let id = row
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // The loaders refuse such ids per row (`ids`); rows built by hand
        // are checked by the same rule.
        if let Some(why) = crate::ids::id_problem(id) {
            return Err(ChainError::Instance {
                instance_id: crate::ids::label(id),
                message: format!("instance id cannot name a patch file: {why}"),
            });
        }
        let name = format!("{id}.patch");
        write_atomic(&patches.join(&name), patch)?;
        let env = codethread_lang::io::create_dir_all_nofollow(
            root,
            &Path::new("environments").join(id),
        )?;
        write_atomic(&env.join("setup.patch"), patch)?;
        write_atomic(&env.join("setup.sh"), SETUP_SCRIPT.as_bytes())?;
        let from = upstream_image(row);
        if from.is_empty() || from.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ChainError::Instance {
                instance_id: id.to_string(),
                message: format!(
                    "image name {:?} cannot be written into a Dockerfile",
                    from.escape_debug().to_string()
                ),
            });
        }
        write_atomic(&env.join("Dockerfile"), dockerfile(&from).as_bytes())?;
        let image = setup_image_name(&task, id);
        build.push_str(&format!(
            "\"$engine\" build -t '{image}' '{}'\n",
            id.replace('\'', "'\\''")
        ));
        let mut r = agent_row(row);
        r.insert(
            SETUP_PATCH_FILE_FIELD.into(),
            Value::String(abs.join(&name).to_string_lossy().into_owned()),
        );
        let mut ir = r.clone();
        ir.insert(SETUP_PATCH_FILE_FIELD.into(), Value::String(String::new()));
        ir.insert("image_name".into(), Value::String(image));
        out.push(r);
        image_rows.push(ir);
    }
    write_atomic(&root.join("build_images.sh"), build.as_bytes())?;
    let images = codethread_lang::io::create_dir_all_nofollow(root, Path::new("images_subset"))?;
    write_jsonl(
        &images.join(format!("{MINI_SWE_AGENT_SPLIT}.jsonl")),
        &image_rows,
    )?;
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
        // Classic rows: 4.x needs a version (environment_setup_commit is optional).
        let classic = inst(r#","version":"1.1""#);
        check_harness_row(&swebench_row(&classic), HarnessGeneration::V4)
            .expect("no environment_setup_commit is fine for 4.x");
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
