//! Statement checks (`llm::check`): the offline statements of every real
//! DEV instance pass; a statement with a pasted original body or a pasted
//! gold-patch line is flagged.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_bench::load_instances;
use codethread_chain::check::{check_statement, CheckConfig};
use codethread_chain::localize_instance;
use codethread_chain::offline_statement;
use codethread_chain::task_context;
use codethread_chain::SnapshotSource;

#[test]
fn dev_offline_statements_pass_and_pasted_code_is_flagged() {
    let Some(dev) = codethread_testkit::shared_path("chains/dev") else {
        return;
    };
    let insts =
        load_instances(&dev.join("instances.jsonl"), Default::default()).expect("instances");
    let mut src = SnapshotSource::new(dev.join("files"));
    let cfg = CheckConfig::default();
    let (mut checked, mut body_flagged, mut gold_flagged, mut gold_checked) = (0, 0, 0, 0);
    for inst in &insts.items {
        let Ok(loc) = localize_instance(inst, &mut src) else {
            continue;
        };
        if loc.targets.is_empty() {
            continue;
        }
        let Ok(pr0) = codethread_chain::make_pr0(&loc, &Default::default()) else {
            continue;
        };
        let ctx = task_context(inst, &loc, &pr0);
        if ctx.targets.is_empty() {
            continue;
        }
        let s = offline_statement(&ctx);
        let flags = check_statement(&ctx, &s, inst.patch.as_bytes(), &cfg);
        assert!(flags.is_empty(), "{}: {:?}", inst.instance_id, flags);
        checked += 1;
        // The original body pasted under the first function.
        let pasted = format!("{s}\n{}\n", ctx.targets[0].original_source);
        let f = check_statement(&ctx, &pasted, inst.patch.as_bytes(), &cfg);
        if f.iter().any(|f| f.kind == "leak_body") {
            body_flagged += 1;
        } else {
            // Only a body too short for one body n-gram may pass.
            let toks = codethread_chain::check::tokens(ctx.targets[0].original_source.as_bytes());
            assert!(
                toks.len() < 40,
                "{}: pasted body not flagged: {f:?}",
                inst.instance_id
            );
        }
        // The longest non-trivial added line of the gold patch pasted.
        let originals: Vec<String> = ctx
            .targets
            .iter()
            .flat_map(|t| {
                t.original_source
                    .lines()
                    .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            })
            .collect();
        let line = inst
            .patch
            .lines()
            .filter(|l| l.starts_with('+') && !l.starts_with("+++ "))
            .map(|l| l[1..].split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| l.len() >= 20 && !originals.contains(l))
            .max_by_key(|l| l.len());
        if let Some(line) = line {
            gold_checked += 1;
            let pasted = format!("{s}\nHint: write `{line}` somewhere.\n");
            let f = check_statement(&ctx, &pasted, inst.patch.as_bytes(), &cfg);
            assert!(
                f.iter().any(|f| f.kind == "leak_gold"),
                "{}: gold line not flagged: {line}",
                inst.instance_id
            );
            gold_flagged += 1;
        }
    }
    println!("dev: {checked} offline statements pass; pasted body flagged in {body_flagged}, pasted gold line flagged in {gold_flagged}/{gold_checked}");
    assert!(checked >= 30, "{checked}");
    assert!(body_flagged * 10 >= checked * 9, "{body_flagged}/{checked}");
}

fn ctx_with(
    signature: &str,
    docstring: Option<&str>,
    original: &str,
) -> codethread_chain::TaskContext {
    codethread_chain::TaskContext {
        instance_id: "o__r-1".into(),
        repo: "o/r".into(),
        language: "python".into(),
        targets: vec![codethread_chain::TargetInfo {
            path: "m.py".into(),
            target_id: "m.py::Box.resize".into(),
            qualname: "Box.resize".into(),
            name: "resize".into(),
            kind: "method".into(),
            start_line: 1,
            end_line: 6,
            pr0_line: 1,
            signature: signature.into(),
            docstring: docstring.map(str::to_string),
            original_source: original.into(),
        }],
    }
}

/// A statement may quote the signature (PR0 keeps it) and the original
/// documentation: gold-patch lines that are pieces of them (a re-wrapped
/// multi-line signature, a parameter line) are not `leak_gold`; a body line
/// of the gold patch still is.
#[test]
fn quoting_the_signature_is_not_a_gold_leak() {
    let signature =
        "def resize(self, width: int,\n           height: int, keep_ratio: bool = False) -> None:";
    let original = format!("{signature}\n    \"\"\"Resize the box in place.\"\"\"\n    self.w = width\n    self.h = height\n");
    let ctx = ctx_with(signature, Some("Resize the box in place."), &original);
    // The gold patch re-wraps the signature one parameter per line, and
    // adds a body line.
    let gold = "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,6 @@\n-def resize(self, width: int,\n-           height: int, keep_ratio: bool = False) -> None:\n+def resize(\n+    self, width: int, height: int, keep_ratio: bool = False\n+) -> None:\n+def resize(self, width: int, height: int, keep_ratio: bool = False) -> None:\n+    ratio = self.w / max(self.h, 1)\n";
    let cfg = CheckConfig::default();
    let statement = format!(
        "## Task Overview\nImplement `Box.resize`.\n\n```python\n{signature}\n```\n\nResize the box in place.\n"
    );
    let flags = codethread_chain::check::check_leaks(&ctx, &statement, gold.as_bytes(), &cfg);
    assert!(
        !flags.iter().any(|f| f.kind == "leak_gold"),
        "the quoted signature was flagged: {flags:?}"
    );
    // Quoted on one line (as some writers do), still no leak.
    let one_line = statement.replace('\n', " ");
    let flags = codethread_chain::check::check_leaks(&ctx, &one_line, gold.as_bytes(), &cfg);
    assert!(!flags.iter().any(|f| f.kind == "leak_gold"), "{flags:?}");
    // A body line of the gold patch is a leak.
    let leaky = format!("{statement}\nFirst compute `ratio = self.w / max(self.h, 1)`.\n");
    let flags = codethread_chain::check::check_leaks(&ctx, &leaky, gold.as_bytes(), &cfg);
    let gold_flags: Vec<_> = flags.iter().filter(|f| f.kind == "leak_gold").collect();
    assert_eq!(gold_flags.len(), 1, "{flags:?}");
    assert!(gold_flags[0].detail.contains("ratio = self.w"), "{flags:?}");
}

/// The gold-line lookup gives the substring answers of a direct search on
/// varied shapes (overlapping lines, lines that are prefixes and suffixes of
/// one another, repeats), in gold-patch order.
#[test]
fn gold_lookup_matches_a_direct_search() {
    let ctx = ctx_with("def f():", None, "def f():\n    return 0\n");
    let cfg = CheckConfig::default();
    let lines = [
        "return compute(alpha, beta)",
        "compute(alpha, beta) + gamma",
        "alpha_beta_gamma_delta",
        "beta_gamma_delta",
        "alpha_beta_gamma",
        "aaaaaaaaaaaaaaaa",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        "return compute(alpha, beta)",
        "nothing like this appears",
    ];
    let gold: String = std::iter::once("--- a/m.py\n+++ b/m.py\n@@ -1 +1,9 @@\n".to_string())
        .chain(lines.iter().map(|l| format!("+    {l}\n")))
        .collect();
    for statement in [
        "x = return compute(alpha, beta) + gamma; alpha_beta_gamma_delta",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa beta_gamma_delta",
        "a b c",
        "",
    ] {
        let got: Vec<String> =
            codethread_chain::check::check_leaks(&ctx, statement, gold.as_bytes(), &cfg)
                .into_iter()
                .filter(|f| f.kind == "leak_gold")
                .map(|f| {
                    f.detail
                        .trim_start_matches("gold patch line in the statement: ")
                        .to_string()
                })
                .collect();
        let mut want: Vec<String> = Vec::new();
        for l in lines {
            if statement.contains(l) && !want.iter().any(|w| w == l) {
                want.push(l.to_string());
            }
        }
        assert_eq!(got, want, "{statement:?}");
    }
}

/// Issue 31: a target nested in a stubbed target is folded into it (never a
/// separate function to write with its own signature and docstring), and
/// each statement line number is the stub's line in PR0 (earlier stubs in
/// the file shift it).
#[test]
fn nested_targets_fold_into_their_enclosing_target() {
    let dir = std::env::temp_dir().join(format!("ct-fold-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let before = "def a():\n    x = 1\n    y = 2\n    return x + y\n\n\ndef outer(v):\n    def inner(w):\n        \"\"\"Twice w.\"\"\"\n        return w * 2\n    return inner(v) + 1\n";
    let after = before
        .replace("x = 1", "x = 3")
        .replace("return w * 2", "return w * 3");
    let f = dir.join("o__r-1/before/m.py");
    std::fs::create_dir_all(f.parent().unwrap()).unwrap();
    std::fs::write(&f, before).unwrap();
    let gold = codethread_patch::diff_files(
        &[codethread_patch::FileChange::new(
            b"m.py",
            Some(before.as_bytes()),
            Some(after.as_bytes()),
        )],
        &Default::default(),
    )
    .unwrap()
    .to_bytes();
    let row = serde_json::json!({"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc",
        "patch": String::from_utf8(gold).unwrap(), "FAIL_TO_PASS": ["t"], "PASS_TO_PASS": []});
    let inst = codethread_bench::parse_instances(std::path::Path::new("r.jsonl"), &row.to_string())
        .unwrap()
        .items
        .remove(0);
    let loc = localize_instance(&inst, &mut SnapshotSource::new(&dir)).unwrap();
    let ids = loc.target_ids();
    assert!(ids.contains(&"m.py::outer.inner".to_string()), "{ids:?}");
    let pr0 = codethread_chain::make_pr0(&loc, &Default::default()).unwrap();
    let ctx = task_context(&inst, &loc, &pr0);
    let names: Vec<&str> = ctx.targets.iter().map(|t| t.qualname.as_str()).collect();
    assert_eq!(names, ["a", "outer"]);
    // `a`'s three body lines became one stub line: `outer` moved up by two.
    let stubbed = String::from_utf8(pr0.skeletons["m.py"].clone()).unwrap();
    let outer_line = stubbed
        .lines()
        .position(|l| l.starts_with("def outer"))
        .unwrap()
        + 1;
    assert_eq!(ctx.targets[1].pr0_line, outer_line);
    assert_eq!(outer_line, 5);
    let s = offline_statement(&ctx);
    assert!(s.contains("`outer` at m.py line 5"), "{s}");
    assert!(!s.contains("inner") && !s.contains("Twice w"), "{s}");
    let _ = std::fs::remove_dir_all(&dir);
}
