//! SWE-bench Pro (Scale AI): its rows, the files its evaluator reads and
//! the files it writes.
//!
//! Pro's evaluator (`swe_bench_pro_eval.py` of scaleapi/SWE-bench_Pro-os)
//! reads a raw-sample file (CSV or JSONL; `instance_id`, `repo`,
//! `base_commit`, `before_repo_set_cmd`, `selected_test_files_to_run`,
//! `fail_to_pass`, `pass_to_pass`, the last three Python-literal lists it
//! `eval`s) and a patches file (one JSON list of `{instance_id, patch,
//! prefix}`). For each patch it runs, in the image
//! `<user>/sweap-images:<tag>` with the repository at `/app`, the entry
//! script it writes (`create_entryscript`: reset to `base_commit`, `git
//! apply -v` the patch, the last line of `before_repo_set_cmd`, the run
//! script on the selected test files, the parser), and keeps
//! `<output_dir>/<instance_id>/<prefix>_output.json` (`{"tests": [{"name",
//! "status"}]}`) beside `_stdout.log`, `_stderr.log`, `_patch.diff`, and
//! writes `eval_results.json` (`{instance_id: resolved}`, one per instance:
//! a later prefix overwrites an earlier one). An instance is resolved when
//! every test of `fail_to_pass` and `pass_to_pass` has status `PASSED`.
//!
//! This module writes the raw-sample rows ([`raw_sample_row`]) and patches
//! files ([`patches_file`]) of a chain's stacks, and reads the per-instance
//! outputs back as [`InstanceReport`]s the gate reads ([`load_outputs`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::BenchError;
use crate::instance::Instance;
use crate::report::{InstanceReport, ReportSet, TestOutcome, TestsStatus};
use codethread_lang::io::SourceLimits;

/// The Docker Hub user whose `sweap-images` repository holds Pro's images.
pub(crate) const DOCKERHUB_USER: &str = "jefzda";

/// The fix commit an instance id names: `instance_<org>__<repo>-<sha>-v…`.
pub(crate) fn fix_commit(instance_id: &str) -> Option<&str> {
    let rest = instance_id.strip_prefix("instance_")?;
    let (_, tail) = rest.split_once("__")?;
    // `<repo>-<sha>-v<hash|nan>`: the 40-hex part.
    tail.split('-')
        .find(|p| p.len() == 40 && p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The image tag of an instance: the row's `dockerhub_tag`, else Pro's rule
/// (`helper_code/image_uri.py`): `<org>.<repo>-<id without instance_>`,
/// lowercased org and repo, `-vnan` dropped (element-web's own spellings
/// kept), at most 128 characters.
pub(crate) fn image_tag(inst: &Instance) -> String {
    if let Some(t) = inst.extra.get("dockerhub_tag").and_then(Value::as_str) {
        if !t.trim().is_empty() {
            return t.to_string();
        }
    }
    let repo = inst.repo.to_lowercase();
    let (base, mut name) = repo.split_once('/').unwrap_or((repo.as_str(), ""));
    let mut hsh = inst
        .instance_id
        .strip_prefix("instance_")
        .unwrap_or(&inst.instance_id)
        .to_string();
    let element = base.contains("element-hq") && name.contains("element-web");
    if inst.instance_id
        == "instance_element-hq__element-web-ec0f940ef0e8e3b61078f145f34dc40d1938e6c5-vnan"
    {
        name = "element-web";
    } else if element {
        name = "element";
        if let Some(h) = hsh.strip_suffix("-vnan") {
            hsh = h.to_string();
        }
    } else if let Some(h) = hsh.strip_suffix("-vnan") {
        hsh = h.to_string();
    }
    let mut tag = format!("{base}.{name}-{hsh}");
    tag.truncate(tag.char_indices().nth(128).map_or(tag.len(), |(i, _)| i));
    tag
}

/// The image Pro's evaluator runs an instance in.
pub fn image(inst: &Instance) -> String {
    format!("{DOCKERHUB_USER}/sweap-images:{}", image_tag(inst))
}

/// The paper's task type of a Pro instance from Pro's own
/// `issue_specificity` labels (`major_bug`, `core_feat`,
/// `refactoring_enh`, ...): a feature label (`*_feat`) gives `FI`, `FI+RF`
/// with an enhancement label (`*_enh`: refactoring, performance, code
/// quality); enhancements alone `RF`; bug labels alone (`*_bug`) `BF`.
/// `None` without labels.
pub fn task_type(inst: &Instance) -> Option<&'static str> {
    let labels = labels(inst.extra.get("issue_specificity")?);
    let has = |suffix: &str| labels.iter().any(|l| l.ends_with(suffix));
    match (has("_feat"), has("_enh"), has("_bug")) {
        (true, true, _) => Some("FI+RF"),
        (true, false, _) => Some("FI"),
        (false, true, _) => Some("RF"),
        (false, false, true) => Some("BF"),
        _ => None,
    }
}

/// A label list as Pro stores it: a list, or a string holding a JSON or
/// Python-literal list.
fn labels(v: &Value) -> Vec<String> {
    crate::instance::decode_tests(v).unwrap_or_default()
}

/// A list as the Python literal Pro's evaluator `eval`s (a JSON list of
/// strings is one).
fn py_list(items: &[String]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".into())
}

/// The test files an instance's Pro run selects: the row's
/// `selected_test_files_to_run`, else its `Test Files`
/// (`instance_info.txt`), else the files of its test patch.
pub(crate) fn selected_test_files(inst: &Instance) -> Vec<String> {
    for k in ["selected_test_files_to_run", "Test Files"] {
        if let Some(v) = inst.extra.get(k) {
            if let Ok(l) = crate::instance::decode_tests(v) {
                if !l.is_empty() {
                    return l;
                }
            }
        }
    }
    let mut files: Vec<String> = inst
        .test_patch
        .lines()
        .filter_map(|l| l.strip_prefix("diff --git a/"))
        .filter_map(|l| l.split(" b/").next())
        .map(str::to_string)
        .collect();
    files.dedup();
    files
}

/// The command Pro's entry script runs after applying the patch (the last
/// line of `before_repo_set_cmd`): the row's, else `git checkout <fix> --
/// <test files>` (the fix commit's tests, as Pro's own commands set them).
pub fn before_repo_set_cmd(inst: &Instance) -> String {
    if let Some(c) = inst
        .extra
        .get("before_repo_set_cmd")
        .and_then(Value::as_str)
    {
        if !c.trim().is_empty() {
            return c.to_string();
        }
    }
    let files = selected_test_files(inst);
    match fix_commit(&inst.instance_id) {
        Some(fix) if !files.is_empty() => format!(
            "git reset --hard {base}\ngit clean -fd\ngit checkout {base}\ngit checkout {fix} -- {}",
            files.join(" "),
            base = inst.base_commit
        ),
        _ => String::new(),
    }
}

/// The problem statement Pro gives an agent
/// (`helper_code/create_problem_statement.py`): the issue, then its
/// requirements and the interfaces it introduces, when the row has them.
pub(crate) fn task_statement(inst: &Instance, problem_statement: &str) -> String {
    match (&inst.requirements, &inst.interface) {
        (None, None) => problem_statement.to_string(),
        (r, i) => format!(
            "{problem_statement}\n\nRequirements:\n{}\n\nNew interfaces introduced:\n{}",
            r.as_deref().unwrap_or(""),
            i.as_deref().unwrap_or("")
        ),
    }
}

/// The raw-sample row of an instance that Pro's evaluator reads: every
/// column it reads (Python-literal lists where it `eval`s them), every
/// upstream column of the row, and `problem_statement` given (the
/// Implementation Task's statement, or the issue).
pub fn raw_sample_row(inst: &Instance, problem_statement: &str) -> Map<String, Value> {
    let mut m = Map::new();
    for (k, v) in &inst.extra {
        m.insert(k.clone(), v.clone());
    }
    m.insert("instance_id".into(), json!(inst.instance_id));
    m.insert("repo".into(), json!(inst.repo));
    m.insert("base_commit".into(), json!(inst.base_commit));
    m.insert("patch".into(), json!(inst.patch));
    m.insert("test_patch".into(), json!(inst.test_patch));
    m.insert("problem_statement".into(), json!(problem_statement));
    m.insert(
        "requirements".into(),
        json!(inst.requirements.clone().unwrap_or_default()),
    );
    m.insert(
        "interface".into(),
        json!(inst.interface.clone().unwrap_or_default()),
    );
    if let Some(l) = &inst.language {
        m.insert("repo_language".into(), json!(l));
    }
    m.insert("fail_to_pass".into(), json!(py_list(&inst.fail_to_pass)));
    m.insert("pass_to_pass".into(), json!(py_list(&inst.pass_to_pass)));
    m.insert(
        "selected_test_files_to_run".into(),
        json!(py_list(&selected_test_files(inst))),
    );
    m.insert(
        "before_repo_set_cmd".into(),
        json!(before_repo_set_cmd(inst)),
    );
    m.insert("dockerhub_tag".into(), json!(image_tag(inst)));
    m.remove("Test Files");
    m
}

/// A patches file Pro's evaluator reads: one JSON list of `{instance_id,
/// patch, prefix}`.
pub fn patches_file(patches: &[(String, String)], prefix: &str) -> String {
    let rows: Vec<Value> = patches
        .iter()
        .map(|(id, p)| json!({"instance_id": id, "patch": p, "prefix": prefix}))
        .collect();
    let mut s = serde_json::to_string_pretty(&rows).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}

/// A report made from the per-test statuses Pro's parser wrote, decided
/// by the instance's own lists as Pro's evaluator decides (`PASSED` only):
/// each listed test under `success` when it passed, under `failure` when it
/// did not or is missing.
pub(crate) fn report_from_statuses(
    inst: &Instance,
    statuses: &BTreeMap<String, String>,
) -> InstanceReport {
    let split = |tests: &[String]| {
        let mut o = TestOutcome::default();
        for t in tests {
            if statuses.get(t).is_some_and(|s| s == "PASSED") {
                o.success.push(t.clone());
            } else {
                o.failure.push(t.clone());
            }
        }
        o
    };
    let f2p = split(&inst.fail_to_pass);
    let p2p = split(&inst.pass_to_pass);
    let resolved = f2p.failure.is_empty() && p2p.failure.is_empty();
    InstanceReport {
        instance_id: inst.instance_id.clone(),
        patch_is_none: false,
        patch_exists: true,
        patch_successfully_applied: !statuses.is_empty(),
        resolved,
        tests_status: (!statuses.is_empty()).then_some(TestsStatus {
            fail_to_pass: f2p,
            pass_to_pass: p2p,
            ..TestsStatus::default()
        }),
        harness_note: None,
    }
}

/// Parse one `<prefix>_output.json` of Pro's parser: test name -> status.
pub(crate) fn parse_output(
    path: &Path,
    bytes: &[u8],
) -> Result<BTreeMap<String, String>, BenchError> {
    let v: Value = serde_json::from_slice(bytes).map_err(|e| BenchError::json(path, 0, &e))?;
    let tests = v
        .get("tests")
        .and_then(Value::as_array)
        .ok_or_else(|| BenchError::Format {
            path: path.to_path_buf(),
            message: "not an output of Pro's parser: no `tests` list".into(),
        })?;
    let mut out = BTreeMap::new();
    for t in tests {
        let (Some(name), Some(status)) = (
            t.get("name").and_then(Value::as_str),
            t.get("status").and_then(Value::as_str),
        ) else {
            return Err(BenchError::Format {
                path: path.to_path_buf(),
                message: "a test without `name` and `status`".into(),
            });
        };
        // A test reported twice passed if any report says so: Pro's evaluator
        // takes the set of names with status `PASSED` (its parsers keep one
        // result per name, so this only matters for hand-made outputs).
        let e = out
            .entry(name.to_string())
            .or_insert_with(|| status.to_string());
        if status == "PASSED" {
            *e = status.to_string();
        }
    }
    Ok(out)
}

/// Whether `dir` is laid out as Pro's evaluator writes its output
/// directory: an `eval_results.json`, or a subdirectory holding a
/// `*_output.json`.
pub fn is_output_dir(dir: &Path) -> bool {
    if dir.join("eval_results.json").is_file() {
        return true;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return false;
    };
    rd.filter_map(Result::ok).take(1000).any(|e| {
        e.file_type().is_ok_and(|t| t.is_dir())
            && std::fs::read_dir(e.path()).is_ok_and(|mut r| {
                r.any(|f| {
                    f.is_ok_and(|f| f.file_name().to_string_lossy().ends_with("_output.json"))
                })
            })
    })
}

/// The reports of Pro's output directory `dir` for the stack whose patches
/// carried `prefix` (`<dir>/<instance_id>/<prefix>_output.json`): each
/// decided by its instance's lists (`report_from_statuses`). An instance
/// directory without that output (the evaluator found no `output.json`:
/// the tests did not run or the parser failed) is a report without tests;
/// outputs of other prefixes are counted in [`ReportSet::ignored`], and so
/// are instances not in `instances`; `eval_results.json`, which holds one
/// resolved flag per instance whatever the prefix, is never evidence for
/// the gate (named in [`ReportSet::errors`] when it is the only file).
/// Unreadable files are errors, the others still read; links are not
/// followed.
pub fn load_outputs(
    dir: &Path,
    prefix: &str,
    instances: &BTreeMap<String, &Instance>,
    limits: SourceLimits,
) -> ReportSet {
    let mut set = ReportSet::default();
    let (subdirs, problems) = codethread_lang::io::subdirs_nofollow(dir);
    set.errors
        .extend(problems.into_iter().map(BenchError::File));
    let want = format!("{prefix}_output.json");
    for name in subdirs {
        let Some(id) = name.to_str().map(str::to_string) else {
            set.ignored += 1;
            continue;
        };
        let Some(inst) = instances.get(&id) else {
            set.ignored += 1;
            continue;
        };
        let path: PathBuf = dir.join(&id).join(&want);
        match codethread_lang::io::read_below_nofollow(
            dir,
            &Path::new(&id).join(&want),
            limits.max_file_bytes,
        ) {
            Ok(Some(bytes)) => match parse_output(&path, &bytes) {
                Ok(statuses) => {
                    set.reports
                        .insert(id.clone(), report_from_statuses(inst, &statuses));
                }
                Err(e) => set.errors.push(e),
            },
            Ok(None) => {
                // Outputs of other prefixes only: not this stack's.
                let others = std::fs::read_dir(dir.join(&id)).is_ok_and(|r| {
                    r.filter_map(Result::ok)
                        .any(|f| f.file_name().to_string_lossy().ends_with("_output.json"))
                });
                let ran = dir.join(&id).join(format!("{prefix}_patch.diff")).is_file();
                if ran {
                    set.reports.insert(
                        id.clone(),
                        InstanceReport {
                            instance_id: id.clone(),
                            patch_is_none: false,
                            patch_exists: true,
                            patch_successfully_applied: false,
                            resolved: false,
                            tests_status: None,
                            harness_note: None,
                        },
                    );
                } else if others {
                    set.ignored += 1;
                }
            }
            Err(e) => set.errors.push(BenchError::File(e)),
        }
    }
    if set.reports.is_empty() && dir.join("eval_results.json").is_file() {
        set.errors.push(BenchError::Format {
            path: dir.join("eval_results.json"),
            message: format!(
                "holds one resolved flag per instance, not the tests: the gate reads <instance_id>/{want}"
            ),
        });
    }
    set
}

/// The line an evaluation script prints before and after each of its
/// stages (`>>>>> codethread pro run_script rc=N`, `... parser rc=N`).
pub(crate) const MARKER: &str = ">>>>> codethread pro";

/// The files the verifier keeps beside its log (under
/// `$CODETHREAD_VERIFIER_DIR`, default `/logs/verifier`): the run script's
/// stdout and stderr and the parser's output, named as Pro's evaluator
/// names them with the prefix `pro`.
pub(crate) const OUTPUT_FILES: [&str; 3] = ["pro_stdout.log", "pro_stderr.log", "pro_output.json"];

/// An instance's files of a checkout of scaleapi/SWE-bench_Pro-os, as Pro's
/// evaluator reads them: the run script and the parser
/// (`run_scripts/<instance_id>/`), and the `ENV` lines of its base and
/// instance Dockerfiles (`dockerfiles/{base,instance}_dockerfile/<instance_id>/`),
/// which its entry script exports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProScripts {
    /// `run_script.sh`.
    pub run_script: Vec<u8>,
    /// `parser.py`.
    pub parser: Vec<u8>,
    /// The entry script's `export` lines, in Pro's order (base, then
    /// instance); empty when the checkout has no Dockerfiles for the instance.
    pub exports: Vec<String>,
}

/// The [`ProScripts`] of `instance_id` in the checkout `root`. The id must
/// pass the id rule ([`crate::ids::id_problem`]); no link on the way is
/// followed and only regular files of at most `limits.max_file_bytes` are
/// read.
///
/// # Errors
/// A bad id is [`BenchError::Format`] naming it; a missing `run_script.sh` or `parser.py` is
/// [`BenchError::Format`] naming the file; unreadable files are
/// [`BenchError::File`].
pub fn load_scripts(
    root: &Path,
    instance_id: &str,
    limits: SourceLimits,
) -> Result<ProScripts, BenchError> {
    if let Some(p) = crate::ids::id_problem(instance_id) {
        return Err(BenchError::Format {
            path: root.to_path_buf(),
            message: format!(
                "instance {}: {p}: no run scripts are read for it",
                crate::ids::label(instance_id)
            ),
        });
    }
    let read = |rel: PathBuf| {
        codethread_lang::io::read_below_nofollow(root, &rel, limits.max_file_bytes)
            .map_err(BenchError::File)
    };
    let scripts = Path::new("run_scripts").join(instance_id);
    let need = |name: &str| -> Result<Vec<u8>, BenchError> {
        read(scripts.join(name))?.ok_or_else(|| BenchError::Format {
            path: root.join(&scripts).join(name),
            message: "missing: SWE-bench Pro's evaluator reads it for this instance (give a checkout of scaleapi/SWE-bench_Pro-os)".into(),
        })
    };
    let run_script = need("run_script.sh")?;
    let parser = need("parser.py")?;
    let mut exports = Vec::new();
    for kind in ["base_dockerfile", "instance_dockerfile"] {
        let rel = Path::new("dockerfiles")
            .join(kind)
            .join(instance_id)
            .join("Dockerfile");
        if let Some(bytes) = read(rel)? {
            exports.extend(env_exports(&String::from_utf8_lossy(&bytes)));
        }
    }
    Ok(ProScripts {
        run_script,
        parser,
        exports,
    })
}

/// Pro's rule for the entry script's exports: every Dockerfile line that,
/// trimmed, starts with `ENV`, that first `ENV` replaced by `export`.
pub(crate) fn env_exports(dockerfile: &str) -> Vec<String> {
    dockerfile
        .split('\n')
        .map(str::trim)
        .filter(|l| l.starts_with("ENV"))
        .map(|l| format!("export{}", &l["ENV".len()..]))
        .collect()
}

/// The verifier's evaluation script of an instance: what Pro's entry script
/// (`create_entryscript`) runs after `git apply` of the patch, in the
/// repository at `workdir` — its exports, the last line of
/// `before_repo_set_cmd` (the fix commit's test files checked out), the run
/// script on the selected test files joined by `,` (unquoted, as Pro pastes
/// them), and the parser, with the run script and parser read from
/// `$CODETHREAD_TESTS_DIR` (default `/tests`) and their outputs written to
/// `$CODETHREAD_VERIFIER_DIR` (default `/logs/verifier`) as
/// `OUTPUT_FILES`. Each stage's exit status is printed after `MARKER`;
/// like Pro's, the script goes on after a failed stage.
pub fn eval_script(inst: &Instance, scripts: &ProScripts, workdir: &str) -> String {
    let before = before_repo_set_cmd(inst);
    let checkout = before.trim().rsplit('\n').next().unwrap_or_default();
    let selected = selected_test_files(inst).join(",");
    let [stdout, stderr, output] = OUTPUT_FILES;
    let mut s = String::from(
        "#!/bin/bash\n# codethread: SWE-bench Pro's entry script from the patch on (create_entryscript of\n\
         # scaleapi/SWE-bench_Pro-os's swe_bench_pro_eval.py), written by codethread-bench.\n",
    );
    for e in &scripts.exports {
        s.push_str(e);
        s.push('\n');
    }
    s.push_str(&format!(
        "CODETHREAD_TESTS=\"${{CODETHREAD_TESTS_DIR:-/tests}}\"\n\
         CODETHREAD_OUT=\"${{CODETHREAD_VERIFIER_DIR:-/logs/verifier}}\"\n\
         mkdir -p \"$CODETHREAD_OUT\"\n\
         cd {workdir}\n\
         {checkout}\n\
         echo \"{MARKER} checkout rc=$?\"\n\
         bash \"$CODETHREAD_TESTS/run_script.sh\" {selected} > \"$CODETHREAD_OUT/{stdout}\" 2> \"$CODETHREAD_OUT/{stderr}\"\n\
         echo \"{MARKER} run_script rc=$?\"\n\
         python \"$CODETHREAD_TESTS/parser.py\" \"$CODETHREAD_OUT/{stdout}\" \"$CODETHREAD_OUT/{stderr}\" \"$CODETHREAD_OUT/{output}\"\n\
         echo \"{MARKER} parser rc=$?\"\n",
        workdir = if workdir
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/_.-".contains(&b))
        {
            workdir.to_string()
        } else {
            crate::sh_quote(workdir)
        },
    ));
    s
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn inst(row: Value) -> Instance {
        crate::instance::parse_instances(Path::new("pro.jsonl"), &row.to_string())
            .expect("rows")
            .items
            .remove(0)
    }

    #[test]
    fn image_tags_follow_pros_rule() {
        let i = inst(
            json!({"instance_id": "instance_NodeBB__NodeBB-04998908ba6721d64eba79ae3b65a351dcfbc5b5-vnan",
            "repo": "NodeBB/NodeBB", "base_commit": "b", "patch": "", "fail_to_pass": "[]", "pass_to_pass": "[]"}),
        );
        assert_eq!(
            image(&i),
            "jefzda/sweap-images:nodebb.nodebb-NodeBB__NodeBB-04998908ba6721d64eba79ae3b65a351dcfbc5b5"
        );
        assert_eq!(
            fix_commit(&i.instance_id),
            Some("04998908ba6721d64eba79ae3b65a351dcfbc5b5")
        );
        let e = inst(
            json!({"instance_id": "instance_element-hq__element-web-1234567890123456789012345678901234567890-vnan",
            "repo": "element-hq/element-web", "base_commit": "b", "patch": "", "fail_to_pass": "[]", "pass_to_pass": "[]"}),
        );
        assert_eq!(
            image_tag(&e),
            "element-hq.element-element-hq__element-web-1234567890123456789012345678901234567890"
        );
        let t = inst(
            json!({"instance_id": "instance_a__b-x", "repo": "a/b", "base_commit": "b", "patch": "",
            "fail_to_pass": "[]", "pass_to_pass": "[]", "dockerhub_tag": "given-tag"}),
        );
        assert_eq!(image_tag(&t), "given-tag");
    }

    #[test]
    fn outputs_are_decided_by_the_instance_lists() {
        let i = inst(
            json!({"instance_id": "instance_a__b-1", "repo": "a/b", "base_commit": "b", "patch": "",
            "fail_to_pass": "['t1', 't2']", "pass_to_pass": "['p1']"}),
        );
        let out =
            br#"{"tests": [{"name": "t1", "status": "PASSED"}, {"name": "t2", "status": "FAILED"},
            {"name": "p1", "status": "PASSED"}, {"name": "other", "status": "FAILED"}]}"#;
        let s = parse_output(Path::new("x_output.json"), out).unwrap();
        let r = report_from_statuses(&i, &s);
        assert!(!r.resolved);
        let ts = r.tests_status.unwrap();
        assert_eq!(ts.fail_to_pass.success, ["t1"]);
        assert_eq!(ts.fail_to_pass.failure, ["t2"]);
        assert_eq!(ts.pass_to_pass.success, ["p1"]);
        assert!(parse_output(Path::new("x"), b"{}").is_err());
        // Twice, once passed: passed, as Pro's `{name for x in tests if x["status"] == "PASSED"}`.
        let twice =
            br#"{"tests": [{"name": "t2", "status": "FAILED"}, {"name": "t2", "status": "PASSED"},
            {"name": "t1", "status": "PASSED"}, {"name": "t1", "status": "ERROR"}]}"#;
        let s = parse_output(Path::new("x_output.json"), twice).unwrap();
        assert_eq!((s["t1"].as_str(), s["t2"].as_str()), ("PASSED", "PASSED"));
    }

    #[test]
    fn info_files_are_rows() {
        let text = "Instance ID: instance_a__b-1\nRepository: a/b\nBase Commit: abc\nTest Files: [\"t/x.py\"]\nFAIL_TO_PASS: [\"t/x.py::a\"]\nPASS_TO_PASS: []\n";
        let m = crate::instance::info_row(text).unwrap();
        let i =
            crate::instance::instance_from_map(m, None, Path::new("instance_info.txt"), 1).unwrap();
        assert_eq!(i.fail_to_pass, ["t/x.py::a"]);
        assert_eq!(selected_test_files(&i), ["t/x.py"]);
        let row = raw_sample_row(&i, "stmt");
        assert_eq!(row["fail_to_pass"], "[\"t/x.py::a\"]");
        assert_eq!(row["selected_test_files_to_run"], "[\"t/x.py\"]");
    }

    #[test]
    fn run_scripts_are_read_as_pros_evaluator_reads_them() {
        let root = std::env::temp_dir().join(format!("ct-pro-scripts-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let id = "instance_a__b-0123456789012345678901234567890123456789-vnan";
        let scripts = root.join("run_scripts").join(id);
        std::fs::create_dir_all(&scripts).unwrap();
        let i = inst(
            json!({"instance_id": id, "repo": "a/b", "base_commit": "b", "patch": "",
            "fail_to_pass": "['t/x.py::a']", "pass_to_pass": "[]",
            "selected_test_files_to_run": "[\"t/x.py\", \"t/y.py\"]",
            "before_repo_set_cmd": "git reset --hard b\ngit checkout FIX -- t/x.py t/y.py\n"}),
        );
        // Without the scripts, the error names the missing file.
        let e = load_scripts(&root, id, SourceLimits::default()).unwrap_err();
        assert!(e.to_string().contains("run_script.sh"), "{e}");
        std::fs::write(scripts.join("run_script.sh"), "echo run\n").unwrap();
        std::fs::write(scripts.join("parser.py"), "print()\n").unwrap();
        let docker = root.join("dockerfiles/instance_dockerfile").join(id);
        std::fs::create_dir_all(&docker).unwrap();
        std::fs::write(
            docker.join("Dockerfile"),
            "FROM x\n  ENV PYTEST_ADDOPTS=\"-v\"\nENV LC_ALL POSIX\nRUN ENV=1\n",
        )
        .unwrap();
        let s = load_scripts(&root, id, SourceLimits::default()).unwrap();
        assert_eq!(s.run_script, b"echo run\n");
        // Pro's rule, including its reading of `ENV A b` (an export that sets nothing).
        assert_eq!(
            s.exports,
            ["export PYTEST_ADDOPTS=\"-v\"", "export LC_ALL POSIX"]
        );
        let script = eval_script(&i, &s, "/app");
        let lines: Vec<&str> = script.lines().collect();
        assert!(lines.contains(&"cd /app"), "{script}");
        assert!(
            lines.contains(&"git checkout FIX -- t/x.py t/y.py"),
            "{script}"
        );
        assert!(
            script.contains("run_script.sh\" t/x.py,t/y.py > "),
            "{script}"
        );
        // Ids that leave the directory are refused before any read.
        for bad in ["../x", "a/b", ""] {
            assert!(load_scripts(&root, bad, SourceLimits::default()).is_err());
        }
        let _ = std::fs::remove_dir_all(&root);
    }
}
