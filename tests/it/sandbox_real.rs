//! Real runs, with the commands a user runs: chains built from real SWE-bench Verified
//! instances (`shared/repos/testbeds/`), their images built by `chain sandbox images` (docker
//! installed and started by the project itself when absent), and every stack graded by the real
//! harness (swebench's `run_evaluation`) in containers with no network: the gold patch (must match
//! the upstream gold report), PR0 alone, PR0 + the human PR1 (kept by `chain gate` reading the
//! harness's own logs tree), HH (resolved), and agent-shaped PR1s made by mutation: one that
//! leaves a target stubbed and one that rewrites every target's body equivalently (a `pass`
//! statement inserted, the AST otherwise identical), each decided as its mutation implies.
//!
//! Runs when `CODETHREAD_SANDBOX=1` (root; CI sets it) and `CODETHREAD_SHARED` is set;
//! otherwise prints SKIPPED. `CODETHREAD_SANDBOX_INSTANCES` picks instances (comma-separated,
//! or `all` for the 14 testbeds; default: 4 instances of 2 repositories);
//! `CODETHREAD_SANDBOX_HISTORY` names full-history clones (`owner__name`) for release tags.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The bounded default: 4 instances of 2 repositories (one with two targets).
const DEFAULT: &[&str] = &[
    "psf__requests-2931",
    "psf__requests-5414",
    "pytest-dev__pytest-10051",
    "pytest-dev__pytest-7982",
];

fn enabled() -> Option<PathBuf> {
    let on = std::env::var("CODETHREAD_SANDBOX").is_ok_and(|v| v == "1");
    if !on {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED sandbox_real: CODETHREAD_SANDBOX is not 1 (needs root; .ci/run sets it)"
        );
        return None;
    }
    codethread_testkit::shared()
}

fn run(what: &str, cmd: &mut Command) -> String {
    let out = codethread_testkit::deadline::output_within(what, 3600, cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    eprintln!("{what}: {}", stdout.trim());
    stdout
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn chain(args: &[&str]) -> String {
    run(
        &format!("chain {}", args.first().copied().unwrap_or("")),
        Command::new(codethread_testkit::example("chain")).args(args),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        .unwrap()
}

fn jsonl(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write_jsonl(p: &Path, rows: &[Value]) {
    let mut s = String::new();
    for r in rows {
        s.push_str(&r.to_string());
        s.push('\n');
    }
    std::fs::write(p, s).unwrap();
}

/// Per-instance harness reports of a run: `(resolved, F2P passing, P2P failing)`.
fn reports(logs: &Path) -> BTreeMap<String, (bool, usize, usize)> {
    let mut out = BTreeMap::new();
    for model in std::fs::read_dir(logs).unwrap().flatten() {
        if !model.path().is_dir() {
            continue;
        }
        for inst in std::fs::read_dir(model.path()).unwrap().flatten() {
            let r = inst.path().join("report.json");
            if !r.is_file() {
                continue;
            }
            let v = read_json(&r);
            let (id, rep) = v.as_object().unwrap().iter().next().unwrap();
            let ts = &rep["tests_status"];
            let n = |a: &str, b: &str| ts[a][b].as_array().map_or(0, Vec::len);
            out.insert(
                id.clone(),
                (
                    rep["resolved"].as_bool().unwrap_or(false),
                    n("FAIL_TO_PASS", "success"),
                    n("PASS_TO_PASS", "failure"),
                ),
            );
        }
    }
    out
}

/// `chain gate` decisions: instance → kept.
fn gate(chain_dir: &Path, preds: &Path, logs: &Path) -> BTreeMap<String, bool> {
    let out = Command::new(codethread_testkit::example("chain"))
        .args([
            "gate",
            "--chain",
            s(chain_dir),
            "--predictions",
            s(preds),
            "--reports",
            s(logs),
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "gate: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .map(|v| {
            (
                v["instance_id"].as_str().unwrap().to_string(),
                v["kept"].as_bool().unwrap(),
            )
        })
        .collect()
}

/// The gate's rule read independently off a harness report: kept when no PASS_TO_PASS test
/// fails and no FAIL_TO_PASS test passes.
fn kept_by_report(r: &(bool, usize, usize)) -> bool {
    r.1 == 0 && r.2 == 0
}

/// Insert a `pass` statement before the last statement of each function whose `def` is on one
/// of `lines` (1-based), checked by Python: the result compiles and its AST is the original's
/// plus those `pass` statements. Returns how many functions were rewritten.
const EQUIVALENT: &str = r#"
import ast, sys
path, lines = sys.argv[1], {int(x) for x in sys.argv[2:]}
src = open(path, encoding="utf-8").read()
tree = ast.parse(src)
at = []
for node in ast.walk(tree):
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno in lines:
        last = node.body[-1]
        first = min([last.lineno] + [d.lineno for d in getattr(last, "decorator_list", [])])
        if first > node.lineno:
            at.append((first, last.col_offset))
text = src.splitlines(keepends=True)
inserted = set()
for ln, col in sorted(set(at), reverse=True):
    text.insert(ln - 1, text[ln - 1][:col] + "pass\n")
out = "".join(text)
new = ast.parse(out)
class Strip(ast.NodeTransformer):
    def visit_Pass(self, node):
        return None
def norm(t):
    return ast.dump(Strip().visit(t))
assert norm(new) == norm(ast.parse(src)) or not at, "not equivalent"
open(path, "w", encoding="utf-8").write(out)
print(len(at))
"#;

/// PR1s (relative to base + PR0) made by mutating the human PR1, as agent predictions:
/// `stub_one` restores every target but the first hunk's, `equivalent` restores every target
/// with a `pass` inserted in its body.
fn mutants(
    chain_dir: &Path,
    tb: &Path,
    ids: &[String],
    work: &Path,
    python: &Path,
) -> (PathBuf, PathBuf) {
    let mut stub_one = Vec::new();
    let mut equivalent = Vec::new();
    for id in ids {
        let inst = chain_dir.join("instances").join(id);
        let pr0 = std::fs::read_to_string(inst.join("pr0.patch")).unwrap();
        let human = std::fs::read_to_string(inst.join("pr1_human.patch")).unwrap();
        // One target left stubbed: the human PR1 without its first hunk.
        stub_one.push(serde_json::json!({
            "instance_id": id, "model_name_or_path": "stubone",
            "model_patch": drop_first_hunk(&human)}));
        // Every target restored, rewritten equivalently.
        let wt = work.join("wt").join(id);
        let _ = std::fs::remove_dir_all(&wt);
        std::fs::create_dir_all(wt.parent().unwrap()).unwrap();
        codethread_testkit::git(
            work,
            &["clone", "-q", s(&tb.join(id).join("testbed")), s(&wt)],
        );
        let p = wt.join(".pr0.patch");
        std::fs::write(&p, &pr0).unwrap();
        codethread_testkit::git(&wt, &["apply", ".pr0.patch"]);
        std::fs::remove_file(&p).unwrap();
        codethread_testkit::git(&wt, &["commit", "-qam", "pr0"]);
        codethread_testkit::git(&wt, &["checkout", "-q", "HEAD~1", "--", "."]);
        let targets = read_json(&inst.join("targets.json"));
        let mut by_file: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for t in targets["targets"].as_array().unwrap() {
            let f = &t["function"];
            let path = t["path"].as_str().unwrap().to_string();
            by_file
                .entry(path)
                .or_default()
                .push(f["header"]["start_line"].as_u64().unwrap().to_string());
        }
        let mut rewritten = 0;
        for (file, lines) in &by_file {
            let out = run(
                &format!("equivalent rewrite {id} {file}"),
                Command::new(python)
                    .args(["-c", EQUIVALENT, s(&wt.join(file))])
                    .args(lines),
            );
            rewritten += out.trim().parse::<usize>().unwrap();
        }
        assert!(rewritten > 0, "{id}: no target body rewritten");
        let diff = codethread_testkit::git(&wt, &["diff", "HEAD"]);
        equivalent.push(serde_json::json!({
            "instance_id": id, "model_name_or_path": "equiv", "model_patch": diff}));
    }
    let a = work.join("pr1_stubone.jsonl");
    let b = work.join("pr1_equiv.jsonl");
    write_jsonl(&a, &stub_one);
    write_jsonl(&b, &equivalent);
    (a, b)
}

/// A unified diff without its first hunk (a file left with no hunk is dropped).
fn drop_first_hunk(patch: &str) -> String {
    let mut out = String::new();
    let mut dropped = false;
    let mut skipping = false;
    let mut header = String::new();
    let mut file_has_hunk = false;
    let flush = |out: &mut String, header: &mut String, body: &mut String, has: bool| {
        if has {
            out.push_str(header);
            out.push_str(body);
        }
        header.clear();
        body.clear();
    };
    let mut body = String::new();
    for line in patch.split_inclusive('\n') {
        if line.starts_with("diff --git ") {
            flush(&mut out, &mut header, &mut body, file_has_hunk);
            file_has_hunk = false;
            skipping = false;
            header.push_str(line);
        } else if line.starts_with("@@") {
            if !dropped {
                dropped = true;
                skipping = true;
            } else {
                skipping = false;
                file_has_hunk = true;
                body.push_str(line);
            }
        } else if skipping {
            continue;
        } else if file_has_hunk {
            body.push_str(line);
        } else {
            header.push_str(line);
        }
    }
    flush(&mut out, &mut header, &mut body, file_has_hunk);
    out
}

#[test]
fn drop_first_hunk_keeps_the_rest() {
    let p = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-e\n+f\n";
    assert_eq!(
        drop_first_hunk(p),
        "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -9 +9 @@\n-c\n+d\ndiff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-e\n+f\n"
    );
    let one = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
    assert_eq!(drop_first_hunk(one), "");
}

#[test]
fn real_harness_on_real_chains() {
    let Some(shared) = enabled() else {
        return;
    };
    let python = codethread_testkit::python::from_env("CODETHREAD_PYTHON", ".venv-ci/bin/python");
    let python4 =
        codethread_testkit::python::from_env("CODETHREAD_PYTHON4", ".venv-ci4/bin/python");
    // Absolute, not resolved: a venv's interpreter is a link whose target is not the venv.
    let python = std::path::absolute(&python).unwrap();
    let python4 = std::path::absolute(&python4).unwrap();
    assert!(
        python.exists() && python4.exists(),
        "CODETHREAD_PYTHON / CODETHREAD_PYTHON4 (scripts/setup-python-envs.sh)"
    );
    let testbeds = shared.join("repos/testbeds");
    let ids: Vec<String> = match std::env::var("CODETHREAD_SANDBOX_INSTANCES")
        .ok()
        .as_deref()
    {
        Some("all") => {
            let mut v: Vec<String> = std::fs::read_dir(&testbeds)
                .unwrap()
                .flatten()
                .filter_map(|e| {
                    e.file_name()
                        .to_str()?
                        .strip_suffix(".testbed.tar.gz")
                        .map(str::to_string)
                })
                .collect();
            v.sort();
            v
        }
        Some(list) if !list.trim().is_empty() => {
            list.split(',').map(|s| s.trim().to_string()).collect()
        }
        _ => DEFAULT.iter().map(|s| s.to_string()).collect(),
    };
    let work = std::env::temp_dir().join(format!("ct-sandbox-real-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();

    // The testbeds, unpacked as `<dir>/<id>/testbed`, and the instances' upstream rows.
    let tb = work.join("testbeds");
    for id in &ids {
        let d = tb.join(id);
        std::fs::create_dir_all(&d).unwrap();
        let tar = testbeds.join(format!("{id}.testbed.tar.gz"));
        run(
            &format!("tar {id}"),
            Command::new("tar").arg("-xzf").arg(&tar).arg("-C").arg(&d),
        );
    }
    let wanted: BTreeSet<&str> = ids.iter().map(String::as_str).collect();
    let rows: Vec<Value> =
        jsonl(&shared.join("swebench/swebench_datasets/SWE-bench_Verified.test.jsonl"))
            .into_iter()
            .filter(|r| wanted.contains(r["instance_id"].as_str().unwrap_or("")))
            .collect();
    assert_eq!(rows.len(), ids.len(), "every instance is a Verified row");
    let rows_path = work.join("rows.jsonl");
    write_jsonl(&rows_path, &rows);

    // The chain, from the testbeds.
    let chain_dir = work.join("chain");
    chain(&[
        "build",
        "--instances",
        s(&rows_path),
        "--testbeds",
        s(&tb),
        "--out",
        s(&chain_dir),
        "--harness",
        "5",
    ]);
    let summary = read_json(&chain_dir.join("summary.json"));
    assert_eq!(
        summary["built"].as_u64(),
        Some(ids.len() as u64),
        "{summary}"
    );

    // The images, as a user builds them.
    let mut images = vec![
        "sandbox",
        "images",
        "--chain",
        s(&chain_dir),
        "--testbeds",
        s(&tb),
        "--specs-python",
        s(&python4),
    ];
    let history = std::env::var("CODETHREAD_SANDBOX_HISTORY").unwrap_or_default();
    if !history.is_empty() {
        images.extend(["--history", history.as_str()]);
    }
    chain(&images);
    let report = read_json(&chain_dir.join("sandbox/images.json"));
    assert_eq!(
        report["images"].as_array().map(Vec::len),
        Some(ids.len()),
        "{report:#}"
    );

    let grade = |preds: &str, run_id: &str| -> BTreeMap<String, (bool, usize, usize)> {
        chain(&[
            "sandbox",
            "grade",
            "--chain",
            s(&chain_dir),
            "--predictions",
            preds,
            "--run-id",
            run_id,
            "--python",
            s(&python),
        ]);
        reports(
            &chain_dir
                .join("sandbox/grading/logs/run_evaluation")
                .join(run_id),
        )
    };
    let stack = |pr1: &str, pr2: Option<&str>, out: &Path| {
        let mut a = vec![
            "stack",
            "--chain",
            s(&chain_dir),
            "--testbeds",
            s(&tb),
            "--pr1",
            pr1,
        ];
        if let Some(p) = pr2 {
            a.extend(["--pr2", p]);
        }
        a.extend(["--out", s(out)]);
        chain(&a);
    };
    let logs = |run_id: &str| {
        chain_dir
            .join("sandbox/grading/logs/run_evaluation")
            .join(run_id)
    };

    // 1. Gold: as the upstream gold report says (this validates the images).
    let gold = grade("gold", "gold");
    let upstream = read_json(
        &shared
            .join("swebench/harness_output_samples/swebench_final_report_gold.fresh-verified.json"),
    );
    let up_resolved: BTreeSet<&str> = upstream["resolved_ids"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for id in &ids {
        assert_eq!(
            gold[id].0,
            up_resolved.contains(id.as_str()),
            "{id}: gold graded here {:?}, upstream resolved: {}",
            gold[id],
            up_resolved.contains(id.as_str())
        );
    }

    // 2. PR0 alone (an empty PR1 stacked on PR0): no instance resolves; what it breaks.
    let empty: Vec<Value> = ids
        .iter()
        .map(|id| serde_json::json!({"instance_id": id, "model_name_or_path": "nothing", "model_patch": ""}))
        .collect();
    let empty_pr1 = work.join("pr1_empty.jsonl");
    write_jsonl(&empty_pr1, &empty);
    let pr0_stack = work.join("stack_pr0.jsonl");
    stack(s(&empty_pr1), None, &pr0_stack);
    let pr0 = grade(s(&pr0_stack), "pr0");
    for id in &ids {
        assert!(!pr0[id].0, "{id}: PR0 alone resolves");
        eprintln!(
            "PR0 {id}: {} PASS_TO_PASS tests broken, {} FAIL_TO_PASS passing",
            pr0[id].2, pr0[id].1
        );
    }

    // 3. PR0 + the human PR1 (= base): kept by the gate on the harness's own logs.
    let human_stack = work.join("stack_human.jsonl");
    stack("human", None, &human_stack);
    let base = grade(s(&human_stack), "human");
    let human_pr1: Vec<Value> = ids
        .iter()
        .map(|id| {
            let p = std::fs::read_to_string(
                chain_dir.join("instances").join(id).join("pr1_human.patch"),
            )
            .unwrap();
            serde_json::json!({"instance_id": id, "model_name_or_path": "human", "model_patch": p})
        })
        .collect();
    let human_preds = work.join("pr1_human.jsonl");
    write_jsonl(&human_preds, &human_pr1);
    let kept = gate(&chain_dir, &human_preds, &logs("human"));
    for id in &ids {
        assert_eq!(
            kept.get(id),
            Some(&true),
            "{id}: the human PR1 must be kept"
        );
    }

    // 4. HH: PR0 + human PR1 + gold resolves everywhere the gold patch does.
    let hh_stack = work.join("stack_hh.jsonl");
    stack("human", Some("gold"), &hh_stack);
    let hh = grade(s(&hh_stack), "hh");
    for id in &ids {
        assert_eq!(
            hh[id].0, gold[id].0,
            "{id}: HH {:?} vs gold {:?}",
            hh[id], gold[id]
        );
    }

    // 5. Mutated PR1s through stack → harness → gate.
    let (stub_one, equiv) = mutants(&chain_dir, &tb, &ids, &work, &python);
    let stub_stack = work.join("stack_stubone.jsonl");
    stack(s(&stub_one), None, &stub_stack);
    let stub = grade(s(&stub_stack), "stubone");
    let stub_kept = gate(&chain_dir, &stub_one, &logs("stubone"));
    let mut dropped = 0;
    for id in &ids {
        // Decided by the rule on the harness's report; with one target the stack is PR0's.
        assert_eq!(
            stub_kept[id],
            kept_by_report(&stub[id]),
            "{id}: {:?}",
            stub[id]
        );
        if !stub_kept[id] {
            dropped += 1;
        }
        if pr0[id].2 > 0 && rows_targets(&chain_dir, id) == 1 {
            assert!(
                !stub_kept[id],
                "{id}: one target left stubbed, PR0 breaks {} tests, kept",
                pr0[id].2
            );
        }
    }
    assert!(dropped > 0, "no stub-left PR1 was dropped");
    let equiv_stack = work.join("stack_equiv.jsonl");
    stack(s(&equiv), None, &equiv_stack);
    let eq = grade(s(&equiv_stack), "equiv");
    let eq_kept = gate(&chain_dir, &equiv, &logs("equiv"));
    for id in &ids {
        // An equivalent rewrite behaves as the base does.
        assert_eq!(
            (eq[id].1, eq[id].2),
            (base[id].1, base[id].2),
            "{id}: equivalent rewrite graded {:?}, base {:?}",
            eq[id],
            base[id]
        );
        assert_eq!(eq_kept[id], kept_by_report(&base[id]), "{id}");
    }
    // 6. The agent's side: setup images (PR0 applied, history replaced, installed copies of the
    //    changed files overwritten) hold nothing of the original; the grading images (the
    //    original, with history) do — the check can fail.
    let docker = if Path::new("/usr/bin/docker").exists() {
        "/usr/bin/docker"
    } else {
        "docker"
    };
    let subset = chain_dir.join("exports/mini-swe-agent/implementation");
    run(
        "build_images.sh",
        Command::new("sh")
            .arg(subset.join("build_images.sh"))
            .arg(docker),
    );
    let leak_out = work.join("leak.json");
    chain(&[
        "sandbox",
        "leak",
        "--chain",
        s(&chain_dir),
        "--testbeds",
        s(&tb),
        "--out",
        s(&leak_out),
    ]);
    let leak = read_json(&leak_out);
    let mut forbidden_total = 0;
    for entry in leak["checked"].as_array().unwrap() {
        let (id, c) = (entry[0].as_str().unwrap(), &entry[1]);
        assert_eq!(c["own"].as_array().map(Vec::len), Some(0), "{id}: {c:#}");
        assert!(c["report"]["files"].as_u64().unwrap() > 1000, "{id}: {c:#}");
        assert!(
            c["report"]["git_stores"].as_u64().unwrap() >= 1,
            "{id}: {c:#}"
        );
        forbidden_total += c["forbidden"].as_u64().unwrap();
    }
    assert_eq!(leak["checked"].as_array().map(Vec::len), Some(ids.len()));
    assert!(forbidden_total > 0);
    let control = work.join("control");
    std::fs::create_dir_all(control.join("images_subset")).unwrap();
    let rows_by_id: BTreeMap<&str, &Value> = rows
        .iter()
        .map(|r| (r["instance_id"].as_str().unwrap(), r))
        .collect();
    write_jsonl(
        &control.join("images_subset/test.jsonl"),
        &ids.iter()
            .map(|id| serde_json::json!({"instance_id": id, "image_name": rows_by_id[id.as_str()]["image"]}))
            .collect::<Vec<_>>(),
    );
    let control_out = work.join("leak_control.json");
    let o = Command::new(codethread_testkit::example("chain"))
        .args([
            "sandbox",
            "leak",
            "--chain",
            s(&chain_dir),
            "--testbeds",
            s(&tb),
            "--subset",
            s(&control),
        ])
        .args(["--out", s(&control_out)])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "the grading images hold the original: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    for entry in read_json(&control_out)["checked"].as_array().unwrap() {
        assert!(
            entry[1]["own"].as_array().map_or(0, Vec::len) > 0,
            "{}: the original is in the grading image, the check must find it",
            entry[0]
        );
    }

    // 7. mini-swe-agent (docker environment, a deterministic model, no network) starts at PR0
    //    in the setup image, restores the targets (the human PR1, applied by the scripted
    //    model), submits `git diff`; the gate keeps it on the real harness; then the Follow-On
    //    on that PR1 (its own setup images) solved with the gold patch resolves.
    let human: BTreeMap<String, String> = ids
        .iter()
        .map(|id| {
            let p = chain_dir.join("instances").join(id).join("pr1_human.patch");
            (id.clone(), std::fs::read_to_string(p).unwrap())
        })
        .collect();
    let pr1_preds = mini_docker_all(
        &python,
        &work.join("mini_pr1"),
        &subset.join("images_subset"),
        &human,
    );
    let agent_stack = work.join("stack_agent_pr1.jsonl");
    let follow = work.join("follow_on_agent");
    chain(&[
        "stack",
        "--chain",
        s(&chain_dir),
        "--testbeds",
        s(&tb),
        "--pr1",
        s(&pr1_preds),
        "--out",
        s(&agent_stack),
        "--follow-on-mini",
        s(&follow),
    ]);
    let graded = grade(s(&agent_stack), "mini_pr1");
    let kept_agent = gate(&chain_dir, &pr1_preds, &logs("mini_pr1"));
    for id in &ids {
        assert_eq!(
            kept_agent.get(id),
            Some(&kept_by_report(&graded[id])),
            "{id}: {:?}",
            graded[id]
        );
        assert_eq!(
            kept_agent.get(id),
            Some(&kept_by_report(&base[id])),
            "{id}: the human PR1 again"
        );
    }
    run(
        "follow-on build_images.sh",
        Command::new("sh")
            .arg(follow.join("build_images.sh"))
            .arg(docker),
    );
    let gold_patches: BTreeMap<String, String> = ids
        .iter()
        .map(|id| {
            (
                id.clone(),
                rows_by_id[id.as_str()]["patch"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    let pr2_preds = mini_docker_all(
        &python,
        &work.join("mini_pr2"),
        &follow.join("images_subset"),
        &gold_patches,
    );
    let aa_stack = work.join("stack_agent_aa.jsonl");
    chain(&[
        "stack",
        "--chain",
        s(&chain_dir),
        "--testbeds",
        s(&tb),
        "--pr1",
        s(&pr1_preds),
        "--pr2",
        s(&pr2_preds),
        "--out",
        s(&aa_stack),
    ]);
    let aa = grade(s(&aa_stack), "mini_aa");
    for id in &ids {
        assert!(
            aa[id].0,
            "{id}: PR0 + agent PR1 + agent PR2 (the gold fix) must resolve: {:?}",
            aa[id]
        );
    }

    // 7b. HA with the same scripted agent: the Follow-On images on the human PR1 (history
    //     hidden), the gold fix applied; then `reproduce` on the real harness's logs trees of
    //     PR1, HA and AA gives the tables a study would: every PR1 kept, HA and AA 100 %.
    let ha_subset = chain_dir.join("exports/mini-swe-agent/follow_on_human_pr1");
    run(
        "follow_on_human build_images.sh",
        Command::new("sh")
            .arg(ha_subset.join("build_images.sh"))
            .arg(docker),
    );
    let ha_preds = mini_docker_all(
        &python,
        &work.join("mini_ha"),
        &ha_subset.join("images_subset"),
        &gold_patches,
    );
    let ha_stack = work.join("stack_agent_ha.jsonl");
    chain(&[
        "stack",
        "--chain",
        s(&chain_dir),
        "--testbeds",
        s(&tb),
        "--pr1",
        "human",
        "--pr2",
        s(&ha_preds),
        "--out",
        s(&ha_stack),
    ]);
    let ha = grade(s(&ha_stack), "mini_ha");
    for id in &ids {
        assert!(
            ha[id].0,
            "{id}: PR0 + human PR1 + agent PR2 (the gold fix) must resolve: {:?}",
            ha[id]
        );
    }
    let bench = work.join("reproduce-in");
    for (kind, preds, run_id) in [
        ("pr1", &pr1_preds, "mini_pr1"),
        ("pr2_HA", &ha_preds, "mini_ha"),
        ("pr2_AA", &pr2_preds, "mini_aa"),
    ] {
        let agent_dir = bench.join("agents/scripted");
        std::fs::create_dir_all(&agent_dir).unwrap();
        // mini-swe-agent's preds.json (an object keyed by id) as the JSONL reproduce reads.
        let rows: Vec<Value> = read_json(preds)
            .as_object()
            .unwrap()
            .values()
            .cloned()
            .collect();
        write_jsonl(&agent_dir.join(format!("{kind}.jsonl")), &rows);
        let dest = bench.join("reports/scripted").join(kind);
        std::fs::create_dir_all(&dest).unwrap();
        run(
            &format!("copy the {run_id} logs"),
            Command::new("cp").arg("-r").arg(logs(run_id)).arg(&dest),
        );
    }
    let rep_out = work.join("reproduce-out");
    let o = Command::new(codethread_testkit::example("reproduce"))
        .args(["--instances", s(&rows_path), "--testbeds", s(&tb)])
        .args([
            "--agents",
            s(&bench.join("agents")),
            "--reports",
            s(&bench.join("reports")),
            "--out",
            s(&rep_out),
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "reproduce on the real harness output: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let t2 = std::fs::read_to_string(rep_out.join("report/table2.csv")).unwrap();
    let header: Vec<&str> = t2.lines().next().unwrap().split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name} not in {header:?}"))
    };
    let row: Vec<&str> = t2
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<&str>>())
        .find(|r| r[col("model")] == "scripted")
        .unwrap_or_else(|| panic!("no scripted row in table2.csv: {t2}"));
    assert_eq!(row[col("benchmark")], "SWE-bench Verified", "{t2}");
    let cell = |name: &str| -> f64 { row[col(name)].parse().unwrap() };
    assert_eq!(cell("full_n"), ids.len() as f64, "{t2}");
    assert_eq!(
        (cell("full_ha_rate"), cell("full_aa_rate")),
        (100.0, 100.0),
        "{t2}"
    );
    eprintln!(
        "sandbox_real: reproduce on the real harness output: {}",
        t2.lines().nth(1).unwrap_or("")
    );

    // 8. SWE-agent (installed from its public source repository; CODETHREAD_SWEAGENT names its
    //    `sweagent`), docker deployment: its images (setup image + the self-contained swe-rex
    //    runtime) hold nothing of the original; its replay model restores the targets (the
    //    human PR1) from PR0 and submits; the stack of its predictions is graded and gated.
    match std::env::var_os("CODETHREAD_SWEAGENT").map(PathBuf::from) {
        Some(sweagent) => {
            let batch = subset.join("swe-agent");
            chain(&["sandbox", "swe-agent", "--subset", s(&subset), "--docker", docker]);
            let leak_sa = work.join("leak_swe_agent.json");
            chain(&["sandbox", "leak", "--chain", s(&chain_dir), "--testbeds", s(&tb), "--subset", s(&batch), "--out", s(&leak_sa)]);
            let leak = read_json(&leak_sa);
            assert_eq!(leak["checked"].as_array().map(Vec::len), Some(ids.len()));
            for entry in leak["checked"].as_array().unwrap() {
                assert_eq!(entry[1]["own"].as_array().map(Vec::len), Some(0), "{}", entry[0]);
            }
            let sa_python = sweagent.parent().unwrap().join("python");
            let config_dir = run(
                "sweagent CONFIG_DIR",
                Command::new(&sa_python).args(["-c", "import sweagent; print(sweagent.CONFIG_DIR)"]),
            );
            // Importing sweagent prints a banner first.
            let config_dir = config_dir.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or_default();
            let default_yaml = PathBuf::from(config_dir).join("default.yaml");
            let out = work.join("swe_agent_pr1");
            let mut all = serde_json::Map::new();
            for id in &ids {
                let apply = format!(
                    "cd /testbed && cat > /tmp/codethread_step.patch <<'CODETHREAD_EOF'\n{}CODETHREAD_EOF\ngit apply /tmp/codethread_step.patch && rm /tmp/codethread_step.patch && git status --short",
                    human[id]
                );
                let call = |n: usize, name: &str, args: Value| {
                    serde_json::json!({"message": format!("step {n}"), "tool_calls": [{"type": "function", "id": format!("call_{n}"),
                        "function": {"name": name, "arguments": args.to_string()}}]})
                };
                let steps = vec![
                    call(1, "bash", serde_json::json!({"command": "cd /testbed && git --no-pager log --oneline && git status --short"})),
                    call(2, "bash", serde_json::json!({"command": apply})),
                    call(3, "submit", serde_json::json!({})),
                    call(4, "submit", serde_json::json!({})),
                ];
                let replay = out.join(format!("{id}.replay.jsonl"));
                std::fs::create_dir_all(&out).unwrap();
                std::fs::write(&replay, format!("{}\n", serde_json::json!({id.as_str(): steps}))).unwrap();
                let run_out = out.join(id);
                run(
                    &format!("sweagent run-batch {id}"),
                    Command::new(&sweagent)
                        .args(["run-batch", "--config"])
                        .arg(&default_yaml)
                        .arg("--config")
                        .arg(repo_root().join("integrations/swe-agent/codethread.yaml"))
                        .args(["--instances.type", "expert_file", "--instances.path"])
                        .arg(batch.join("instances.jsonl"))
                        .arg(format!("--instances.filter=^{id}$"))
                        .args(["--agent.model.name", "replay", "--agent.model.replay_path"])
                        .arg(&replay)
                        .arg("--output_dir")
                        .arg(&run_out)
                        .env("SWE_AGENT_LOG_STREAM_LEVEL", "WARNING")
                        .env("LITELLM_LOCAL_MODEL_COST_MAP", "True"),
                );
                if let Value::Object(m) = read_json(&run_out.join("preds.json")) {
                    assert!(
                        m.get(id.as_str()).and_then(|p| p["model_patch"].as_str()).is_some_and(|p| !p.trim().is_empty()),
                        "{id}: SWE-agent submitted nothing: {m:?}"
                    );
                    all.extend(m);
                }
            }
            let sa_preds = out.join("preds.json");
            std::fs::write(&sa_preds, Value::Object(all).to_string()).unwrap();
            let sa_stack = work.join("stack_swe_agent_pr1.jsonl");
            chain(&["stack", "--chain", s(&chain_dir), "--testbeds", s(&tb), "--pr1", s(&sa_preds), "--out", s(&sa_stack)]);
            let graded = grade(s(&sa_stack), "swe_agent_pr1");
            let kept_sa = gate(&chain_dir, &sa_preds, &logs("swe_agent_pr1"));
            for id in &ids {
                assert_eq!(kept_sa.get(id), Some(&kept_by_report(&graded[id])), "{id}: {:?}", graded[id]);
                assert_eq!(kept_sa.get(id), Some(&kept_by_report(&base[id])), "{id}: the human PR1 through SWE-agent");
            }
            eprintln!("sandbox_real: SWE-agent PR1 kept {}/{}", kept_sa.values().filter(|k| **k).count(), ids.len());
        }
        None => eprintln!(
            "SKIPPED sandbox_real SWE-agent step: set CODETHREAD_SWEAGENT to the sweagent of a SWE-agent installed from its source"
        ),
    }

    // 9. Harbor (0.25.0, its docker environment: Docker Compose v2 installed from Debian's
    //    trixie package, the verifiers' grader image built from the package registries): the
    //    oracle of each implementation task (the human PR1) is kept by the verifier's gate and
    //    the oracle of each follow_on_human task (the gold fix on the human PR1) resolves.
    let harbor_python =
        codethread_testkit::python::from_env("CODETHREAD_HARBOR_PYTHON", ".venv-harbor/bin/python");
    let harbor_bin = std::path::absolute(&harbor_python)
        .unwrap()
        .parent()
        .unwrap()
        .join("harbor");
    assert!(
        harbor_bin.exists(),
        "{} missing: run scripts/setup-python-envs.sh (it installs harbor 0.25.0)",
        harbor_bin.display()
    );
    let grader = chain(&[
        "sandbox",
        "harbor-grader",
        "--work",
        s(&work.join("harbor-work")),
        "--docker",
        docker,
    ]);
    let grader = grader
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap()
        .to_string();
    let dataset = work.join("harbor");
    chain(&[
        "harbor",
        "--chain",
        s(&chain_dir),
        "--out",
        s(&dataset),
        "--conditions",
        "implementation,follow_on_human",
        "--grader-image",
        &grader,
    ]);
    let jobs = work.join("harbor-jobs");
    let rewards = harbor_oracle(&harbor_bin, docker, &dataset, &jobs);
    assert_eq!(
        rewards.len(),
        2 * ids.len(),
        "one graded trial per task: {rewards:?}"
    );
    for (trial, r) in &rewards {
        assert_eq!(*r, 1.0, "{trial}: the oracle must be kept (implementation) or resolve (follow_on_human): {rewards:?}");
    }
    chain(&[
        "harbor-import",
        "--job",
        s(&jobs.join("oracle")),
        "--out",
        s(&work.join("harbor-import")),
    ]);
    // The gate reads the import as it reads the harness's logs (the documented command).
    let kept_harbor = gate(
        &chain_dir,
        &work.join("harbor-import/implementation/pr1.jsonl"),
        &work.join("harbor-import/implementation/reports/implement"),
    );
    assert_eq!(kept_harbor.len(), ids.len(), "{kept_harbor:?}");
    assert!(kept_harbor.values().all(|k| *k), "{kept_harbor:?}");
    eprintln!(
        "sandbox_real: Harbor oracle trials rewarded 1: {}/{}",
        rewards.len(),
        2 * ids.len()
    );

    // 10. FeatBench (issue 35): FeatBench's own rows of the same instances (`fixtures/featbench`,
    //     made by FeatBench's code from these Verified instances), each naming the image built
    //     above; the chain built from them; its Harbor tasks graded by FeatBench's rules (its two
    //     pytest runs, its reading of the output): the oracle of each implementation task (the
    //     human PR1) is kept and the oracle of each follow_on_human task (the gold fix) succeeds
    //     by FeatBench's `success`, and the gate keeps each imported PR1 on the imported reports.
    let images: BTreeMap<&str, &Value> = rows
        .iter()
        .map(|r| (r["instance_id"].as_str().unwrap(), &r["image"]))
        .collect();
    let fb_rows: Vec<Value> = jsonl(&repo_root().join("fixtures/featbench/rows_raw.jsonl"))
        .into_iter()
        .filter_map(|mut r| {
            let id = r["instance_id"].as_str()?.to_string();
            let image = (*images.get(id.as_str())?).clone();
            r["image_name"] = image;
            Some(r)
        })
        .collect();
    assert_eq!(
        fb_rows.len(),
        ids.len(),
        "every instance has a FeatBench row"
    );
    let fb_rows_path = work.join("featbench_rows.jsonl");
    write_jsonl(&fb_rows_path, &fb_rows);
    let fb_chain = work.join("featbench-chain");
    chain(&[
        "build",
        "--instances",
        s(&fb_rows_path),
        "--testbeds",
        s(&tb),
        "--out",
        s(&fb_chain),
    ]);
    assert_eq!(
        read_json(&fb_chain.join("summary.json"))["built"].as_u64(),
        Some(ids.len() as u64)
    );
    let fb_dataset = work.join("featbench-harbor");
    chain(&[
        "harbor",
        "--chain",
        s(&fb_chain),
        "--out",
        s(&fb_dataset),
        "--conditions",
        "implementation,follow_on_human,chain",
        "--grader-image",
        &grader,
    ]);
    let fb_jobs = work.join("featbench-harbor-jobs");
    let fb_rewards = harbor_oracle(&harbor_bin, docker, &fb_dataset, &fb_jobs);
    // implementation, follow_on_human, and the two steps of each chain trial (the AA route).
    assert_eq!(
        fb_rewards.len(),
        4 * ids.len(),
        "one graded trial per task, two per chain: {fb_rewards:?}"
    );
    for (trial, r) in &fb_rewards {
        assert_eq!(*r, 1.0, "{trial}: FeatBench's rules: {fb_rewards:?}");
        let verifier = fb_jobs.join("oracle").join(trial).join("verifier");
        let record = read_json(&verifier.join("featbench.json"));
        let detail = read_json(&verifier.join("codethread.json"));
        assert_eq!(detail["grader"], "featbench", "{trial}: {detail}");
        if detail["mode"] == "resolve" {
            assert_eq!(record["success"], Value::Bool(true), "{trial}: {record}");
        } else {
            assert_eq!(
                record["passed_f2p_tests"],
                serde_json::json!([]),
                "{trial}: {record}"
            );
            assert_eq!(
                record["success_p2p"],
                Value::Bool(true),
                "{trial}: {record}"
            );
        }
    }
    let fb_import = work.join("featbench-harbor-import");
    chain(&[
        "harbor-import",
        "--job",
        s(&fb_jobs.join("oracle")),
        "--out",
        s(&fb_import),
    ]);
    let kept_fb = gate(
        &fb_chain,
        &fb_import.join("implementation/pr1.jsonl"),
        &fb_import.join("implementation/reports/implement"),
    );
    assert_eq!(kept_fb.len(), ids.len(), "{kept_fb:?}");
    assert!(kept_fb.values().all(|k| *k), "{kept_fb:?}");
    // The two-step chain's PR1 and PR2 stack on PR0 as `chain stack` composes AA.
    let fb_aa = work.join("featbench_aa.jsonl");
    chain(&[
        "stack",
        "--chain",
        s(&fb_chain),
        "--testbeds",
        s(&tb),
        "--pr1",
        s(&fb_import.join("chain/pr1.jsonl")),
        "--pr2",
        s(&fb_import.join("chain/pr2.jsonl")),
        "--out",
        s(&fb_aa),
    ]);
    assert_eq!(jsonl(&fb_aa).len(), ids.len(), "AA stacks");
    eprintln!(
        "sandbox_real: FeatBench rows: Harbor oracle trials and chain steps graded by FeatBench's rules rewarded 1: {}/{}; gate kept {}/{}",
        fb_rewards.len(),
        4 * ids.len(),
        kept_fb.len(),
        ids.len()
    );

    // 11. SWE-bench Pro (issue 33): requests-2931 as a Pro row (`fixtures/pro`), in an image laid
    //     out as Pro's are (the repository at /app, the test files' source commit in its
    //     history: here the branch `codethread-pro-fix`, base + the test patch), graded in Harbor
    //     by Pro's rules with Pro's own run script and parser (an openlibrary instance's generic
    //     pytest pair): the oracles are rewarded, and the parser's output shows the
    //     FAIL_TO_PASS test failing at the gate (base) and passing after the gold fix. (The
    //     base image's `WORKDIR /testbed` leaves an empty /testbed, which the link replaces.)
    let pro_rows_path = repo_root().join("fixtures/pro/requests-2931.jsonl");
    let pro_row = jsonl(&pro_rows_path).remove(0);
    let pro_id = pro_row["instance_id"].as_str().unwrap();
    let pro_ctx = work.join("pro-image");
    std::fs::create_dir_all(&pro_ctx).unwrap();
    std::fs::write(
        pro_ctx.join("test.patch"),
        pro_row["test_patch"].as_str().unwrap(),
    )
    .unwrap();
    std::fs::write(
        pro_ctx.join("Dockerfile"),
        format!(
            "FROM {}\nCOPY test.patch /tmp/codethread-test.patch\n\
             RUN cp -a /testbed /app && rm -rf /testbed && cd /app \\\n \
             && git checkout -q -b codethread-pro-fix && git apply /tmp/codethread-test.patch \\\n \
             && git -c user.name=pro -c user.email=pro@localhost commit -qam 'the fix commit' \\\n \
             && git checkout -q - && rm /tmp/codethread-test.patch && git status --porcelain | wc -l\n\
             ENV PATH=/opt/miniconda3/envs/testbed/bin:$PATH\nWORKDIR /app\n",
            images[pro_id].as_str().unwrap()
        ),
    )
    .unwrap();
    let pro_image = "jefzda/sweap-images:psf.requests-2931-local";
    run(
        "docker build (Pro-shaped image)",
        Command::new(docker)
            .args(["build", "-q", "-t", pro_image])
            .arg(&pro_ctx),
    );
    let pro_chain = work.join("pro-chain");
    chain(&[
        "build",
        "--instances",
        s(&pro_rows_path),
        "--testbeds",
        s(&tb),
        "--out",
        s(&pro_chain),
    ]);
    assert_eq!(
        read_json(&pro_chain.join("summary.json"))["built"].as_u64(),
        Some(1)
    );
    let pro_dataset = work.join("pro-harbor");
    chain(&[
        "harbor",
        "--chain",
        s(&pro_chain),
        "--out",
        s(&pro_dataset),
        "--conditions",
        "implementation,follow_on_human,chain",
        "--grader-image",
        &grader,
        "--pro-scripts",
        s(&repo_root().join("fixtures/pro/SWE-bench_Pro-os")),
    ]);
    let pro_jobs = work.join("pro-harbor-jobs");
    let pro_rewards = harbor_oracle(&harbor_bin, docker, &pro_dataset, &pro_jobs);
    assert_eq!(pro_rewards.len(), 4, "{pro_rewards:?}");
    let f2p = "test_requests.py::TestRequests::test_binary_put";
    for (trial, r) in &pro_rewards {
        assert_eq!(*r, 1.0, "{trial}: Pro's rules: {pro_rewards:?}");
        let verifier = pro_jobs.join("oracle").join(trial).join("verifier");
        let detail = read_json(&verifier.join("codethread.json"));
        assert_eq!(detail["grader"], "swe-bench-pro", "{trial}: {detail}");
        let output = read_json(&verifier.join("pro_output.json"));
        let status = output["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == f2p)
            .map(|t| t["status"].clone());
        let want = if detail["mode"] == "resolve" {
            "PASSED"
        } else {
            "FAILED"
        };
        assert_eq!(status, Some(Value::from(want)), "{trial}: {detail}");
        assert!(
            output["tests"].as_array().unwrap().len() > 80,
            "{trial}: every test of the file ran"
        );
    }
    // The agent's start state in the Pro image, from inside a container of the implementation
    // task's own environment image: one commit (no history: the image's `codethread-pro-fix`,
    // as a real Pro image's fix commit, is gone), the repository reached at /testbed, and no
    // line of the original functions (the human PR1's added lines) in the stubbed file.
    let agent_image = "codethread/pro-agent-check:psf__requests-2931";
    run(
        "docker build (the Pro task's agent image)",
        Command::new(docker)
            .env("DOCKER_BUILDKIT", "1")
            .args(["build", "-q", "-t", agent_image])
            .arg(pro_dataset.join(format!("{pro_id}.implementation/environment"))),
    );
    // PR0's models.py: the base file with the chain's PR0 applied.
    let pr0_file = work.join("pro-pr0-models.py");
    run(
        "patch (PR0 of requests/models.py)",
        Command::new("patch")
            .arg("-s")
            .arg("-o")
            .arg(&pr0_file)
            .arg(tb.join(pro_id).join("testbed/requests/models.py"))
            .arg(pro_chain.join("instances").join(pro_id).join("pr0.patch")),
    );
    let pr0_text = std::fs::read_to_string(&pr0_file).unwrap();
    let out = codethread_testkit::deadline::output_within(
        "the Pro agent image's start state",
        600,
        Command::new(docker).args([
            "run",
            "--rm",
            "--network",
            "none",
            "--entrypoint",
            "bash",
            agent_image,
            "-c",
            "cd /testbed && pwd -P && git rev-list --all --count && \
             (git rev-parse -q --verify codethread-pro-fix || echo no-fix-ref) && cat requests/models.py",
        ]),
    );
    let state = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{state}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut parts = state.splitn(4, '\n');
    assert_eq!(parts.next(), Some("/app"), "{state}");
    assert_eq!(parts.next(), Some("1"), "one commit");
    assert_eq!(parts.next(), Some("no-fix-ref"));
    let agent_file = parts.next().unwrap_or_default();
    assert!(
        agent_file == pr0_text,
        "the agent's requests/models.py is not PR0's"
    );
    let pr1 = std::fs::read_to_string(
        pro_chain
            .join("instances")
            .join(pro_id)
            .join("pr1_human.patch"),
    )
    .unwrap();
    let original = pr1
        .lines()
        .filter(|l| l.starts_with('+') && !l.starts_with("+++"))
        .count();
    assert!(original > 0, "the human PR1 restores code");
    let _ = Command::new(docker).args(["rmi", agent_image]).output();
    eprintln!(
        "sandbox_real: SWE-bench Pro row: Harbor oracle trials graded by Pro's own run script and parser rewarded 1: {}/4; the agent image starts at /app with one commit and PR0's file ({} lines of the original removed)",
        pro_rewards.len(),
        original
    );

    eprintln!(
        "sandbox_real: {} instances; gold {}/{} resolved; PR0 breaks P2P on {}; human kept {}; HH resolved {}; stub-one dropped {}; equivalent kept {}",
        ids.len(),
        gold.values().filter(|r| r.0).count(),
        ids.len(),
        pr0.values().filter(|r| r.2 > 0).count(),
        kept.values().filter(|k| **k).count(),
        hh.values().filter(|r| r.0).count(),
        dropped,
        eq_kept.values().filter(|k| **k).count()
    );
    let _ = std::fs::remove_dir_all(&work);
    release_disk(docker);
}

/// What the suite leaves behind on the machine's disk, released: the agents' setup images (one
/// per instance, step and scaffold), images left untagged by a rebuild, stopped containers and
/// the build cache. The testbed images (rootfs, environment, instance) and the grader image stay,
/// so a second run starts from them. `cargo test` goes on to link every doctest after this suite;
/// a CI run on a machine with little free disk failed there (the linker's output on a full disk).
fn release_disk(docker: &str) {
    let before = docker_disk(docker);
    let listed = Command::new(docker)
        .args(["images", "--format", "{{.Repository}}:{{.Tag}}"])
        .output();
    let setup: Vec<String> = listed
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default()
        .lines()
        .filter(|r| {
            ["codethread/implementation", "codethread/follow_on"]
                .iter()
                .any(|p| r.starts_with(p))
        })
        .map(str::to_owned)
        .collect();
    if !setup.is_empty() {
        let _ = Command::new(docker).arg("rmi").args(&setup).output();
    }
    for args in [
        &["container", "prune", "-f"][..],
        &["image", "prune", "-f"],
        &["builder", "prune", "-af"],
    ] {
        let _ = Command::new(docker).args(args).output();
    }
    eprintln!(
        "sandbox_real: released {} setup images and the build cache; docker's disk {before} -> {}",
        setup.len(),
        docker_disk(docker)
    );
}

/// `docker system df`'s sizes of images and build cache, on one line.
fn docker_disk(docker: &str) -> String {
    Command::new(docker)
        .args(["system", "df", "--format", "{{.Type}} {{.Size}}"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).replace('\n', "; "))
        .unwrap_or_default()
}

/// `harbor run -a oracle -e docker` on every task of `dataset` (job `oracle` under `jobs`), and
/// the reward of each graded trial by its directory name (of each step of a two-step trial by
/// `<trial>/steps/<step>`). A job with a reward below 1 is run once more, whole, after a
/// warning naming each such trial and its failing tests (`codethread.json`): the tests of these
/// repositories include network-timing ones (requests' `TestTimeout`) that have failed once in
/// about thirty real trials here; a second failure is returned as it is, for the caller's
/// assertions.
fn harbor_oracle(
    harbor_bin: &Path,
    docker: &str,
    dataset: &Path,
    jobs: &Path,
) -> BTreeMap<String, f64> {
    for attempt in 1..=2 {
        let _ = std::fs::remove_dir_all(jobs);
        run(
            "harbor run",
            Command::new(harbor_bin)
                .args([
                    "run",
                    "-p",
                    s(dataset),
                    "-a",
                    "oracle",
                    "-e",
                    "docker",
                    "-n",
                    "2",
                    "-o",
                    s(jobs),
                ])
                .args(["--job-name", "oracle"])
                .env("HARBOR_TELEMETRY", "0")
                .env(
                    "PATH",
                    format!(
                        "{}:{}",
                        Path::new(docker)
                            .parent()
                            .map_or(String::new(), |p| p.display().to_string()),
                        std::env::var("PATH").unwrap_or_default()
                    ),
                ),
        );
        let rewards = job_rewards(&jobs.join("oracle"));
        let failed: Vec<(&String, Value)> = rewards
            .iter()
            .filter(|(_, r)| **r < 1.0)
            .map(|(t, _)| {
                let detail =
                    std::fs::read(jobs.join("oracle").join(t).join("verifier/codethread.json"))
                        .ok()
                        .and_then(|b| serde_json::from_slice(&b).ok())
                        .unwrap_or(Value::Null);
                (t, detail)
            })
            .collect();
        if failed.is_empty() || attempt == 2 {
            return rewards;
        }
        for (t, detail) in &failed {
            eprintln!(
                "sandbox_real: WARNING: {} attempt {attempt}: {t} not rewarded: {}; running the job again",
                dataset.display(),
                detail
            );
        }
    }
    unreachable!()
}

/// The reward of each graded trial of a job directory (see [`harbor_oracle`]).
fn job_rewards(job: &Path) -> BTreeMap<String, f64> {
    let mut rewards = BTreeMap::new();
    for e in std::fs::read_dir(job).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let reward = e.path().join("verifier/reward.json");
        if reward.exists() {
            rewards.insert(name, read_json(&reward)["reward"].as_f64().unwrap_or(-1.0));
        } else if let Ok(steps) = std::fs::read_dir(e.path().join("steps")) {
            // A two-step chain trial: each step's verifier (`<trial>/steps/<step>`).
            for st in steps.flatten() {
                let reward = st.path().join("verifier/reward.json");
                if reward.exists() {
                    let step = st.file_name().to_string_lossy().into_owned();
                    rewards.insert(
                        format!("{name}/steps/{step}"),
                        read_json(&reward)["reward"].as_f64().unwrap_or(-1.0),
                    );
                }
            }
        }
    }
    rewards
}

/// [`mini_docker`] on each instance of `patches`, the predictions merged into one `preds.json`
/// (the layout `mini-extra swebench` writes for a batch).
fn mini_docker_all(
    python: &Path,
    out: &Path,
    images_subset: &Path,
    patches: &BTreeMap<String, String>,
) -> PathBuf {
    let _ = std::fs::remove_dir_all(out);
    let mut all = serde_json::Map::new();
    for (id, patch) in patches {
        let preds = mini_docker(python, &out.join(id), images_subset, id, patch);
        if let Value::Object(m) = read_json(&preds) {
            all.extend(m);
        }
    }
    let merged = out.join("preds.json");
    std::fs::write(&merged, Value::Object(all).to_string()).unwrap();
    merged
}

/// Run mini-swe-agent (`mini-extra swebench`, docker environment, no network) on one instance
/// of an agent-side `images_subset` with a deterministic model that applies `patch` in the
/// container and submits `git diff`; returns its `preds.json`.
fn mini_docker(python: &Path, out: &Path, images_subset: &Path, id: &str, patch: &str) -> PathBuf {
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).unwrap();
    let apply = format!(
        "cat > /tmp/codethread_step.patch <<'CODETHREAD_EOF'\n{patch}CODETHREAD_EOF\ngit apply /tmp/codethread_step.patch && rm /tmp/codethread_step.patch && git diff > /tmp/codethread_submit.txt && git status --short"
    );
    let outputs = serde_json::json!([
        {"role": "assistant", "content": "THOUGHT: where am I", "extra": {"actions": [{"command": "git log --oneline && git status --short"}]}},
        {"role": "assistant", "content": "THOUGHT: write it", "extra": {"actions": [{"command": apply}]}},
        {"role": "assistant", "content": "THOUGHT: submit", "extra": {"actions": [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && cat /tmp/codethread_submit.txt"}]}},
    ]);
    let cfg = serde_json::json!({
        "model": {"model_class": "deterministic", "model_name": "scripted", "cost_per_call": 0.0, "outputs": outputs},
        "environment": {"environment_class": "docker", "run_args": ["--rm", "--network", "none"]},
    });
    let model = out.join("model.yaml");
    std::fs::write(&model, cfg.to_string()).unwrap();
    let bin = python.parent().unwrap().join("mini-extra");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    run(
        &format!("mini-extra {id}"),
        Command::new(bin)
            .args([
                "swebench",
                "--subset",
                s(images_subset),
                "--split",
                "test",
                "--filter",
            ])
            .arg(format!("^{id}$"))
            .args(["-o", s(out), "-c", "swebench.yaml", "-c"])
            .arg(repo.join("integrations/mini-swe-agent/codethread.yaml"))
            .args(["-c", s(&model)])
            .env("HF_DATASETS_OFFLINE", "1")
            .env("HF_HUB_OFFLINE", "1")
            .env("HF_HOME", out.join("hf"))
            .env("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            .env("MSWEA_SILENT_STARTUP", "1")
            .env("MSWEA_GLOBAL_CONFIG_DIR", out.join("mswea")),
    );
    let preds = out.join("preds.json");
    let p = read_json(&preds);
    let patch_out = p[id]["model_patch"].as_str().unwrap_or("");
    assert!(
        !patch_out.trim().is_empty(),
        "{id}: the agent submitted nothing: {p}"
    );
    preds
}

fn rows_targets(chain_dir: &Path, id: &str) -> usize {
    read_json(&chain_dir.join("instances").join(id).join("targets.json"))["target_ids"]
        .as_array()
        .map_or(0, Vec::len)
}
