//! FeatBench's conventions beyond its rows (which [`crate::load_instances`] reads in every
//! published shape): the results its evaluator writes, read as harness reports.
//!
//! FeatBench's `EvaluationResultManager` writes `evaluation_results.json`, a JSON list of
//! records `{agent, model, instance_id, success_f2p, success_p2p, success, passed_f2p_tests,
//! passed_p2p_tests, expected_f2p_tests, expected_p2p_tests, ...}`, or `{agent, model,
//! instance_id, success: false, error}` when the agent or the run failed. Its passed lists are
//! already decided by FeatBench's own rule (pytest's `-rA` summary; an id not found exactly is
//! decided by the cases sharing its name up to the first `[`: any failure fails it, all
//! passed or skipped with one pass passes it). [`crate::load_reports`] reads such a file: each
//! record becomes an [`crate::InstanceReport`] with the expected tests it passed under
//! `success` and the others under `failure`, so the PR1 gate keeps a PR1 exactly when every
//! PASS_TO_PASS test passed and no FAIL_TO_PASS test did; a record with `error` is an
//! infrastructure failure. Records that repeat an (agent, instance) pair identically are one
//! report; the paper-era writer appends, so a file can hold several runs — give the gate one
//! run's records (different records for one instance are a conflict, named, never decided by
//! order).

use crate::export::sh_quote;
use std::path::Path;

use serde_json::{Map, Value};

use crate::error::BenchError;
use crate::instance::Instance;

/// One record of FeatBench's `evaluation_results.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct EvaluationRecord {
    /// The instance.
    pub instance_id: String,
    /// Where the record is: `<file>: record <n> (agent <a>, model <m>)`.
    pub whence: String,
    /// The run failed (`error`): the message.
    pub error: Option<String>,
    /// FAIL_TO_PASS tests FeatBench expected.
    pub expected_f2p: Vec<String>,
    /// Those it found passing.
    pub passed_f2p: Vec<String>,
    /// PASS_TO_PASS tests FeatBench expected.
    pub expected_p2p: Vec<String>,
    /// Those it found passing.
    pub passed_p2p: Vec<String>,
    /// FeatBench's own verdict (`success`).
    pub success: bool,
    /// False when the record's `patch_application` (some versions) says the patch failed.
    pub patch_applied: bool,
}

/// Whether `v` is a FeatBench `evaluation_results.json`: a non-empty list of objects, each with
/// an `instance_id` and either the expected test lists or an `error`.
pub(crate) fn is_evaluation_results(v: &Value) -> bool {
    let Value::Array(items) = v else {
        return false;
    };
    !items.is_empty()
        && items.iter().all(|r| {
            r.get("instance_id").is_some_and(Value::is_string)
                && (r.get("expected_f2p_tests").is_some() || r.get("error").is_some())
        })
}

/// The records of a FeatBench `evaluation_results.json` (`records`, from `origin`), identical
/// repeats of a record left out; a record that is not one (a bad id, a list of non-strings) is
/// an error naming the file, the record and the instance.
pub(crate) fn evaluation_records(
    records: &[Value],
    origin: &Path,
) -> Result<Vec<EvaluationRecord>, BenchError> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for (n, r) in records.iter().enumerate() {
        if !seen.insert(r.to_string()) {
            continue;
        }
        let bad = |id: &str, message: String| BenchError::BadField {
            path: origin.to_path_buf(),
            line: 1,
            instance_id: crate::ids::label(id),
            field: format!("record {}", n + 1),
            message,
        };
        let Value::Object(m) = r else {
            return Err(bad("<unknown>", "a record must be an object".into()));
        };
        let id = m
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(why) = crate::ids::id_problem(id) {
            return Err(bad(id, why));
        }
        let list = |k: &str| -> Result<Vec<String>, BenchError> {
            match m.get(k) {
                None | Some(Value::Null) => Ok(Vec::new()),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .ok_or_else(|| bad(id, format!("{k}: an element is not a string")))
                    })
                    .collect(),
                Some(other) => Err(bad(id, format!("{k}: expected a list, found {other}"))),
            }
        };
        let error = m.get("error").filter(|e| !e.is_null()).map(|e| {
            e.as_str()
                .map_or_else(|| e.to_string(), str::to_string)
                .chars()
                .take(300)
                .collect()
        });
        out.push(EvaluationRecord {
            instance_id: id.to_string(),
            whence: format!(
                "{}: record {} (agent {}, model {})",
                origin.display(),
                n + 1,
                m.get("agent").and_then(Value::as_str).unwrap_or("?"),
                m.get("model").and_then(Value::as_str).unwrap_or("?")
            ),
            error,
            expected_f2p: list("expected_f2p_tests")?,
            passed_f2p: list("passed_f2p_tests")?,
            expected_p2p: list("expected_p2p_tests")?,
            passed_p2p: list("passed_p2p_tests")?,
            success: m.get("success").and_then(Value::as_bool).unwrap_or(false),
            patch_applied: !applied_false(m),
        });
    }
    Ok(out)
}

/// A record whose `patch_application` (some FeatBench versions) says the patch did not apply.
fn applied_false(m: &Map<String, Value>) -> bool {
    match m.get("patch_application") {
        Some(Value::Bool(b)) => !b,
        Some(Value::String(s)) => {
            let s = s.to_ascii_lowercase();
            s.contains("fail") || s == "false"
        }
        _ => false,
    }
}

/// The registry path of FeatBench's per-repository images:
/// `ghcr.io/kndy666/featbench_<owner>_<name>:<number>` (lower case).
pub(crate) const IMAGE_REPOSITORY: &str = "ghcr.io/kndy666/featbench_";

/// The pytest plugins FeatBench's commands use, pinned (releases for pytest >= 7), as
/// [`environment`] installs them in FeatBench's images.
pub(crate) const PYTEST_PLUGINS: &str = "pytest-timeout==2.3.1 pytest-xdist==3.6.1";

/// The marker lines [`eval_script`] prints around each pytest run, and the
/// plugins it found: `>>>>> codethread featbench <what>`. The Harbor grader
/// (`codethread-scaffold`'s `grade_featbench.py`) reads the output by them.
pub const MARKER: &str = ">>>>> codethread featbench";

/// FeatBench's limit on one pytest command line: longer lists of ids run in
/// batches of [`BATCH`] ids.
pub(crate) const MAX_COMMAND_CHARS: usize = 100_000;

/// The ids of one batch when a list is longer than `MAX_COMMAND_CHARS`.
pub const BATCH: usize = 250;

/// FeatBench's pytest options of the FAIL_TO_PASS run (after `python3 -m pytest`), without
/// the plugin options [`eval_script`] adds when the environment has the plugin.
pub(crate) const F2P_ARGS: &str = "-q -rA --tb=no -p no:pretty";

/// Where FeatBench's evaluator has an instance's repository: `/workdir/swap/<name>`
/// (`<name>` = the last part of `repo`).
pub fn repo_dir(inst: &Instance) -> String {
    let name = inst.repo.rsplit('/').next().unwrap_or(&inst.repo);
    format!("/workdir/swap/{name}")
}

/// FeatBench's image of an instance, `ghcr.io/kndy666/featbench_<owner>_<name>:<number>` (lower
/// case; `<number>` is the row's `number`, else the digits after the id's last `-`), or `None`
/// when the row gives no PR number. These images hold the environment, not the repository
/// (FeatBench mounts a clone at [`repo_dir`]).
pub fn native_image(inst: &Instance) -> Option<String> {
    let number = match inst.extra.get("number") {
        Some(Value::Number(n)) => n.as_u64().map(|n| n.to_string()),
        Some(Value::String(s)) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            Some(s.clone())
        }
        _ => None,
    }
    .or_else(|| {
        let tail = inst.instance_id.rsplit('-').next()?;
        (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit())).then(|| tail.to_string())
    })?;
    let (owner, name) = inst.repo.split_once('/')?;
    Some(format!("{IMAGE_REPOSITORY}{owner}_{name}:{number}").to_lowercase())
}

/// Where a FeatBench instance is graded: an image that holds the repository, and the Dockerfile
/// lines that make one from FeatBench's own image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatBenchEnvironment {
    /// The image to start `FROM`.
    pub image: String,
    /// The repository's directory (`/testbed` for an image given by the row, else
    /// [`repo_dir`]).
    pub repo_dir: String,
    /// Dockerfile lines after `FROM` that complete the image (empty when the row names an
    /// image that already holds the repository at `/testbed`).
    pub prepare: String,
}

/// The environment of a FeatBench instance. A row that names an image (`image_name`,
/// `docker_image` or `image`: e.g. the SWE-bench image of an instance converted from SWE-bench)
/// is taken as holding the repository at `/testbed` at the base commit. Otherwise FeatBench's
/// image ([`native_image`]) is completed as FeatBench's evaluator completes it at run time: the
/// repository cloned at [`repo_dir`] and checked out at the base commit, `/testbed` a link to it
/// (where codethread's setup and collect steps work), and the pytest plugins its commands use
/// installed (`PYTEST_PLUGINS`). `None`: no image can be named (no PR number).
pub fn environment(inst: &Instance) -> Option<FeatBenchEnvironment> {
    for k in ["image_name", "docker_image", "image"] {
        if let Some(s) = inst.extra.get(k).and_then(Value::as_str) {
            if !s.trim().is_empty() {
                return Some(FeatBenchEnvironment {
                    image: s.to_string(),
                    repo_dir: "/testbed".into(),
                    prepare: String::new(),
                });
            }
        }
    }
    let image = native_image(inst)?;
    let dir = repo_dir(inst);
    let url = format!("https://github.com/{}.git", inst.repo);
    let prepare = format!(
        "RUN git clone -q {url} {dir} \\\n    \
         && git -C {dir} checkout -q {base} \\\n    \
         && ln -s {dir} /testbed \\\n    \
         && python3 -m pip install -q {PYTEST_PLUGINS}\n",
        url = sh_quote(&url),
        dir = sh_quote(&dir),
        base = sh_quote(&inst.base_commit),
    );
    Some(FeatBenchEnvironment {
        image,
        repo_dir: dir,
        prepare,
    })
}

/// The files a unified diff writes (`+++ b/<path>`), and those it creates (`--- /dev/null`).
fn diff_files(patch: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut created = false;
    for line in patch.lines() {
        if line.starts_with("diff --git ") {
            created = false;
        } else if line == "--- /dev/null" {
            created = true;
        } else if let Some(p) = line.strip_prefix("+++ b/") {
            let p = p.trim_end_matches('\t').to_string();
            if !out.iter().any(|(q, _)| *q == p) {
                out.push((p, created));
            }
        }
    }
    out
}

/// Whether pytest can be given `id` as a node id: its brackets balance and a parameter list
/// ends it. SWE-bench's lists hold ids cut at the first space (`test_x[a-(b,`), which pytest
/// would refuse as "not found", running nothing.
fn runnable(id: &str) -> bool {
    let mut depth = 0i64;
    for c in id.chars() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0 && (!id.contains('[') || id.ends_with(']')) && !id.contains(char::is_whitespace)
}

/// What a run passes to pytest: the ids themselves (`ids`) when each is [`runnable`], else
/// the files they are in (`files`, first-seen order), as FeatBench's later evaluator runs
/// them; either way each expected id is then decided by name from the output.
fn run_args(ids: &[String]) -> (&'static str, Vec<String>) {
    if ids.iter().all(|i| runnable(i)) {
        return ("ids", ids.to_vec());
    }
    let mut files: Vec<String> = Vec::new();
    for id in ids {
        let f = id.split("::").next().unwrap_or(id).to_string();
        if !files.contains(&f) {
            files.push(f);
        }
    }
    ("files", files)
}

/// The ids of a list in the pytest commands FeatBench runs: one command while the joined ids
/// stay within [`MAX_COMMAND_CHARS`], else batches of [`BATCH`].
fn batches(ids: &[String]) -> Vec<&[String]> {
    let len: usize = ids.iter().map(|i| i.len() + 1).sum();
    if ids.is_empty() {
        Vec::new()
    } else if len <= MAX_COMMAND_CHARS {
        vec![ids]
    } else {
        ids.chunks(BATCH).collect()
    }
}

/// The script that grades one FeatBench instance the way FeatBench's evaluator does, for a
/// repository at `repo_dir` that already holds the change to grade: the test files the row's
/// test patch touches are reset to the base commit and the test patch applied; then FeatBench's
/// two pytest runs, each id a quoted shell word (FeatBench passes them unquoted, which breaks
/// on ids with brackets, quotes or spaces: a documented deviation):
///
/// ```text
/// FAIL_TO_PASS: python3 -m pytest -q -rA --tb=no -p no:pretty --timeout=5 --continue-on-collection-errors --timeout-method=signal IDS
/// PASS_TO_PASS: python3 -m pytest -q -rA --tb=no -p no:pretty --timeout=5 --continue-on-collection-errors --timeout-method=thread -n auto IDS
/// ```
///
/// each under `timeout 1200`, in batches of `BATCH` ids past `MAX_COMMAND_CHARS`. A list
/// holding an id pytest cannot take as a node id (cut at a space, as SWE-bench's lists have
/// them) runs the files of its ids instead (`mode=files`), as FeatBench's later evaluator
/// does; each id is decided by name from the output either way. The
/// timeout and xdist options are given when the environment has the plugin (FeatBench installs
/// both at run time; [`environment`] installs them in its images); the script prints which it
/// found (`>>>>> codethread featbench plugins timeout=1 xdist=1`). An image with SWE-bench's
/// `/opt/miniconda3/bin/activate` runs in its `testbed` environment. Each run's output sits
/// between `>>>>> codethread featbench f2p start mode=ids|files` / `... end rc=N` lines (`p2p` likewise); an
/// empty PASS_TO_PASS list runs nothing.
pub fn eval_script(inst: &Instance, repo_dir: &str) -> String {
    let base = sh_quote(&inst.base_commit);
    let mut s = String::new();
    s.push_str("#!/bin/bash\n");
    s.push_str(&format!(
        "# codethread: FeatBench's evaluation of {} (written by codethread-bench).\n",
        inst.instance_id.replace('\n', " ")
    ));
    s.push_str("set -u\n");
    s.push_str("if [ -f /opt/miniconda3/bin/activate ]; then\n  source /opt/miniconda3/bin/activate\n  conda activate testbed\nfi\n");
    s.push_str(&format!("cd {} || exit 1\n", sh_quote(repo_dir)));
    s.push_str("git config --global --add safe.directory \"$PWD\" 2>/dev/null\n");
    for (file, created) in diff_files(&inst.test_patch) {
        let f = sh_quote(&file);
        if created {
            s.push_str(&format!("rm -f -- {f}\n"));
        } else {
            s.push_str(&format!("git checkout -q {base} -- {f} || rm -f -- {f}\n"));
        }
    }
    if !inst.test_patch.trim().is_empty() {
        let mut delim = String::from("EOF_CODETHREAD_FEATBENCH");
        while inst.test_patch.lines().any(|l| l == delim) {
            delim.push('_');
        }
        s.push_str(&format!("git apply --verbose - <<'{delim}'\n"));
        s.push_str(&inst.test_patch);
        if !inst.test_patch.ends_with('\n') {
            s.push('\n');
        }
        s.push_str(&delim);
        s.push('\n');
    }
    s.push_str(
        "T=0; python3 -c 'import pytest_timeout' 2>/dev/null && T=1\n\
         X=0; python3 -c 'import xdist' 2>/dev/null && X=1\n",
    );
    s.push_str(&format!("echo \"{MARKER} plugins timeout=$T xdist=$X\"\n"));
    s.push_str("F2P_OPTS=(); P2P_OPTS=()\n");
    s.push_str("if [ \"$T\" = 1 ]; then F2P_OPTS+=(--timeout=5); P2P_OPTS+=(--timeout=5); fi\n");
    s.push_str("F2P_OPTS+=(--continue-on-collection-errors); P2P_OPTS+=(--continue-on-collection-errors)\n");
    s.push_str("if [ \"$T\" = 1 ]; then F2P_OPTS+=(--timeout-method=signal); P2P_OPTS+=(--timeout-method=thread); fi\n");
    s.push_str("if [ \"$X\" = 1 ]; then P2P_OPTS+=(-n auto); fi\n");
    for (what, opts, ids) in [
        ("f2p", "F2P_OPTS", &inst.fail_to_pass),
        ("p2p", "P2P_OPTS", &inst.pass_to_pass),
    ] {
        let (mode, args) = run_args(ids);
        for batch in batches(&args) {
            s.push_str(&format!("echo \"{MARKER} {what} start mode={mode}\"\n"));
            s.push_str(&format!(
                "timeout 1200 python3 -m pytest {F2P_ARGS} \"${{{opts}[@]}}\""
            ));
            for id in batch {
                s.push_str(" \\\n  ");
                s.push_str(&sh_quote(id));
            }
            s.push_str(" 2>&1\n");
            s.push_str(&format!("echo \"{MARKER} {what} end rc=$?\"\n"));
        }
    }
    s
}
