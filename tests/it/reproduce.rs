//! The main job end to end on the bundled fixtures: chains, gate, stacks,
//! features, tables and regression; the stacked predictions must apply at the
//! base with the real `git apply`, and Table 2's rates must equal the ones
//! counted directly from the harness-style reports.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use codethread::reproduce::{reproduce, ChainStep, Diagnostic, ReproduceConfig};

fn bench() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench")
}

fn git(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs")
}

#[test]
fn reproduce_runs_on_the_fixtures() {
    let out =
        std::env::temp_dir().join(format!("codethread-reproduce-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &out);
    cfg.bootstrap_reps = 200;
    let s = reproduce(&cfg, &mut |_| {}).expect("pipeline runs");
    assert_eq!(s.instances, 41);
    assert_eq!(s.built, 40);
    assert_eq!(s.filtered.len(), 1);
    assert_eq!(s.filtered[0].1, "module_or_class_level_changes_only");
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    assert_eq!(s.models, vec!["scripted-a", "scripted-b", "scripted-c"]);
    // outcomes.csv is the analysis crate's results format: it reads back whole.
    let back =
        codethread::analysis::Results::from_csv_path(&out.join("outcomes.csv"), Default::default())
            .unwrap();
    assert_eq!(back.len(), s.outcomes);
    assert!(s.outcomes > 0);
    assert!(
        !s.warnings.iter().any(|w| w.to_string().contains("stack:")),
        "{:?}",
        s.warnings
    );

    // The report opens with Tables 2, 3 and 4, in that order.
    let md = std::fs::read_to_string(s.report_dir.join("report.md")).unwrap();
    let pos = |h: &str| {
        md.find(h)
            .unwrap_or_else(|| panic!("{h} missing from report.md"))
    };
    assert!(pos("## Table 2") < pos("## Table 3") && pos("## Table 3") < pos("## Table 4"));
    assert!(pos("## Table 4") < pos("## Discordant cohort"));

    // Table 2 against a direct count of the PR2 reports.
    let mut counts: BTreeMap<(String, String), (usize, usize)> = BTreeMap::new();
    for model in &s.models {
        for cond in ["HA", "AA"] {
            let dir = bench()
                .join("reports")
                .join(model)
                .join(format!("pr2_{cond}"));
            for e in std::fs::read_dir(&dir).unwrap() {
                let p = e.unwrap().path().join("report.json");
                let v: serde_json::Value =
                    serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
                let resolved = v.as_object().unwrap().values().next().unwrap()["resolved"]
                    .as_bool()
                    .unwrap();
                let c = counts.entry((model.clone(), cond.to_string())).or_default();
                c.0 += usize::from(resolved);
                c.1 += 1;
            }
        }
    }
    let t2 = std::fs::read_to_string(s.report_dir.join("table2.csv")).unwrap();
    let header: Vec<&str> = t2.lines().next().unwrap().split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("{name} not in {header:?}"))
    };
    let mut seen = 0;
    for line in t2.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let model = cells[col("model")];
        for cond in ["HA", "AA"] {
            let (r, n) = counts[&(model.to_string(), cond.to_string())];
            let want = 100.0 * r as f64 / n as f64;
            let got: f64 = cells[col(&format!("full_{}_rate", cond.to_lowercase()))]
                .parse()
                .unwrap();
            assert!((got - want).abs() < 1e-9, "{model} {cond}: {got} vs {want}");
            seen += 1;
        }
    }
    assert_eq!(seen, 6);

    // Every stacked prediction applies at the base with the real git.
    let mut applied = 0;
    for cond in ["HA", "AA"] {
        for model in &s.models {
            let f = out
                .join("predictions")
                .join(format!("{model}.{cond}.stacked.jsonl"));
            for line in std::fs::read_to_string(&f).unwrap().lines() {
                let v: serde_json::Value = serde_json::from_str(line).unwrap();
                let id = v["instance_id"].as_str().unwrap();
                let patch = v["model_patch"].as_str().unwrap();
                let dir = out.join("git").join(format!("{model}-{cond}-{id}"));
                let before = bench().join("snapshots").join(id).join("before");
                copy_dir(&before, &dir);
                assert!(git(&dir, &["init", "-q"]).status.success());
                std::fs::write(dir.join(".stack.patch"), patch).unwrap();
                let r = git(&dir, &["apply", "--check", ".stack.patch"]);
                assert!(
                    r.status.success(),
                    "{model} {cond} {id}: {}",
                    String::from_utf8_lossy(&r.stderr)
                );
                applied += 1;
            }
        }
    }
    assert_eq!(applied, 2 * 3 * 40);
    let _ = std::fs::remove_dir_all(&out);
}

fn copy_dir(from: &Path, to: &Path) {
    let mut stack = vec![from.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let rel = p.strip_prefix(from).unwrap();
            if p.is_dir() {
                stack.push(p.clone());
                std::fs::create_dir_all(to.join(rel)).unwrap();
            } else {
                std::fs::create_dir_all(to.join(rel).parent().unwrap()).unwrap();
                std::fs::copy(&p, to.join(rel)).unwrap();
            }
        }
    }
}

/// An unreadable agent output (here a dangling symlink, never followed) costs
/// that chain a per-input error; the run and every other instance go on.
#[cfg(unix)]
#[test]
fn an_unreadable_agent_output_is_a_warning_not_a_failed_run() {
    let tmp = std::env::temp_dir().join(format!(
        "codethread-reproduce-badagent-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    let agents = tmp.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let bad = agents.join("scripted-a/pr1/fixtures__bounded-1");
    assert!(bad.is_dir(), "fixture layout changed: {}", bad.display());
    std::os::unix::fs::symlink(tmp.join("nowhere"), bad.join("dangling.py")).unwrap();
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &tmp.join("out"));
    cfg.agents = agents;
    cfg.bootstrap_reps = 50;
    let s = reproduce(&cfg, &mut |_| {}).expect("the run survives a bad agent file");
    assert!(
        s.errors.iter().any(|w| matches!(
            w,
            Diagnostic::AgentOutput {
                step: ChainStep::Pr1,
                ..
            }
        ) && w
            .to_string()
            .starts_with("scripted-a fixtures__bounded-1: pr1:")
            && w.to_string().contains("dangling.py")),
        "{:?}",
        s.errors
    );
    assert_eq!(s.outcome(), codethread::exit::ExitOutcome::Partial);
    assert_eq!(s.models, vec!["scripted-a", "scripted-b", "scripted-c"]);
    assert!(s.outcomes > 0);
    let _ = std::fs::remove_dir_all(&tmp);
}

#[test]
fn reproduce_names_the_metric_profile_of_its_features() {
    let out = std::env::temp_dir().join(format!(
        "codethread-reproduce-profile-test-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&out);
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &out);
    cfg.bootstrap_reps = 20;
    cfg.profile = codethread::metrics::Profile::Canonical;
    let s = reproduce(&cfg, &mut |_| {}).expect("pipeline runs");
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    let md = std::fs::read_to_string(s.report_dir.join("report.md")).unwrap();
    assert!(
        md.contains("use the `canonical` metric profile"),
        "report.md does not name the profile"
    );
    assert!(
        md.contains("The profile measures every metric of every language."),
        "report.md does not say what the canonical profile measures"
    );
    let _ = std::fs::remove_dir_all(&out);
    // The paper profile: every (language, metric) it does not measure.
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &out);
    cfg.bootstrap_reps = 20;
    let s = reproduce(&cfg, &mut |_| {}).expect("pipeline runs");
    let md = std::fs::read_to_string(s.report_dir.join("report.md")).unwrap();
    for (lang, metric, _) in codethread::metrics::unmeasured(codethread::metrics::Profile::Paper) {
        let line = format!("- {}, {metric}: ", lang.name());
        assert!(md.contains(&line), "report.md does not list {line}");
    }
    assert!(
        md.contains("- java, cognitive: cognitive is a constant 0"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// Issue 19: agent trees keep file names as bytes. Two non-UTF-8 names that
/// differ (`\xff.py`, `\xfe.py`) were both read as `\u{fffd}.py`, one file's
/// content lost; now the agent's PR1 holds both files.
#[cfg(unix)]
#[test]
fn non_utf8_agent_file_names_stay_distinct() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = std::env::temp_dir().join(format!(
        "codethread-reproduce-nonutf8-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    let agents = tmp.join("agents");
    copy_dir(&bench().join("agents"), &agents);
    let dir = agents.join("scripted-a/pr1/fixtures__bounded-1");
    assert!(dir.is_dir(), "fixture layout changed: {}", dir.display());
    for (name, body) in [
        (&b"\xff.py"[..], "first_of_two = 1\n"),
        (&b"\xfe.py"[..], "second_of_two = 2\n"),
        (&b"sub\xff/\xfe\xfe.py"[..], "third_of_three = 3\n"),
    ] {
        let p = dir.join(std::ffi::OsStr::from_bytes(name));
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
    let mut cfg = ReproduceConfig::for_bench_dir(&bench(), &tmp.join("out"));
    cfg.agents = agents;
    cfg.bootstrap_reps = 20;
    let s = reproduce(&cfg, &mut |_| {}).expect("pipeline runs");
    assert!(s.failed.is_empty(), "{:?}", s.failed);
    let preds = std::fs::read_to_string(tmp.join("out/predictions/scripted-a.pr1.jsonl")).unwrap();
    let patch = preds
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["instance_id"] == "fixtures__bounded-1")
        .map(|v| v["model_patch"].as_str().unwrap().to_string())
        .expect("the PR1 of fixtures__bounded-1");
    for body in [
        "first_of_two = 1",
        "second_of_two = 2",
        "third_of_three = 3",
    ] {
        assert!(patch.contains(&format!("+{body}")), "{body} lost:\n{patch}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
