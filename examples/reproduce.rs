//! The main job: the whole CodeThread pipeline on a benchmark directory
//! (default: the bundled `fixtures/bench`), writing a report.
//!
//! `cargo run --release --example reproduce [-- --bench DIR] [--out DIR]`
//! With no input flag at all it runs on the bundled fixtures (`fixtures/bench`, found from
//! the working directory or beside the executable) and `report.md` says so. Real inputs by
//! flags: `--instances` and `--snapshots`, `--repo`/`--repos` or `--testbeds`, with `--agents` and
//! `--reports` (a run missing any of them stops with exit 2 naming what to add: it never
//! falls back to the fixtures' agents); `--task-types`, `--benchmark`, `--max-file-bytes`;
//! `--profile paper|canonical` picks the metric profile of the features (default `paper`).
//! Outputs go to `--out` (default `codethread-reproduce` in the cargo target directory the
//! example was built in).
//!
//! Exit status (`codethread::exit`): 0 when every instance succeeded; 1 when the run finished
//! with per-input failures (an instance that could not be built, a refused or unreadable agent
//! output or report — each on stderr as `error: ...`, the rest written); 2 for a usage or fatal
//! error, including a missing `--agents` / `--reports` / base source (`--snapshots`, `--repo`, `--repos`, `--testbeds`), a `--repo`
//! that is not a git repository, and a run in which no instance succeeded.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use codethread::chain::SourceSpec;
use codethread::exit::ExitOutcome;
use codethread::reproduce::{reproduce, ReproduceConfig};

#[derive(Parser)]
#[command(about = "Run the CodeThread pipeline end to end and write the report")]
struct Args {
    /// Benchmark directory in the layout of fixtures/README.md (instances.jsonl, snapshots/,
    /// agents/, reports/, task_types.json). Without it and without any input flag: the
    /// bundled fixtures/bench.
    #[arg(long)]
    bench: Option<PathBuf>,
    /// Output directory (default: codethread-reproduce in the cargo target directory).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Instances file (default: BENCH/instances.jsonl).
    #[arg(long)]
    instances: Option<PathBuf>,
    /// Snapshot directory `<id>/before/<path>` (default: BENCH/snapshots).
    #[arg(long, conflicts_with_all = ["repo", "repos", "testbeds"])]
    snapshots: Option<PathBuf>,
    /// One git repository holding every instance's base commit.
    #[arg(long, conflicts_with = "repos")]
    repo: Option<PathBuf>,
    /// A directory of git repositories named after the benchmark repos.
    #[arg(long, conflicts_with = "testbeds")]
    repos: Option<PathBuf>,
    /// A directory of per-instance git trees at their base commits (`<id>/testbed` or `<id>`).
    #[arg(long)]
    testbeds: Option<PathBuf>,
    /// Agent outputs: trees `<model>/{pr1,pr2_HA,pr2_AA}/<id>/<path>`, or predictions
    /// files `<model>/{pr1,pr2_HA,pr2_AA}.jsonl` (e.g. `chain harbor-import`'s
    /// `OUT/reproduce/agents`).
    #[arg(long)]
    agents: Option<PathBuf>,
    /// Harness reports `<model>/{pr1,pr2_HA,pr2_AA}/...`.
    #[arg(long)]
    reports: Option<PathBuf>,
    /// `{instance_id: task type}` JSON (BF, FI, RF, FI+RF): overrides the
    /// paper's rule (SWE-bench Verified, Lite and Multilingual: BF;
    /// FeatBench: FI; SWE-bench Pro: its own issue_specificity labels).
    #[arg(long)]
    task_types: Option<PathBuf>,
    /// Benchmark name the tables give every instance (default: each
    /// instance's benchmark, told from its row: SWE-bench Verified,
    /// SWE-bench Multilingual, SWE-bench Pro, FeatBench, ...).
    #[arg(long)]
    benchmark: Option<String>,
    /// Bootstrap resamples per Δ (`--reps`, as `analyze` calls it, is the same setting).
    #[arg(long, alias = "reps", default_value_t = 2000)]
    bootstrap: usize,
    /// Bootstrap seed.
    #[arg(long, default_value_t = 20_240_405)]
    seed: u64,
    /// Largest input file read, in bytes (larger files are refused, naming them).
    #[arg(long, default_value_t = codethread::lang::io::DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Compounding-judge labels (JSONL, from `analyze judge compound import`): report the
    /// compounding table on the HA-wins cohort (OUT/judge/compounding.md).
    #[arg(long)]
    judge_labels: Option<PathBuf>,
    /// Drift-judge labels (JSONL, from `analyze judge drift import`): the IEC feature is the
    /// judge's where it labelled a chain (agreement with the static detector in
    /// OUT/judge/iec_agreement.json).
    #[arg(long)]
    drift_labels: Option<PathBuf>,
    /// Metric profile of the features: `paper` (the paper's tools) or `canonical`.
    #[arg(long, default_value = "paper", value_parser = parse_profile)]
    profile: codethread::metrics::Profile,
}

fn parse_profile(s: &str) -> Result<codethread::metrics::Profile, String> {
    codethread::metrics::Profile::from_name(s)
        .ok_or_else(|| format!("unknown profile {s:?} (known: paper, canonical)"))
}

/// `fixtures/bench` below the working directory or beside the executable
/// (`<repo>/target/<profile>/examples/reproduce`).
fn bundled_fixtures() -> Option<PathBuf> {
    let rel = std::path::Path::new("fixtures/bench");
    if rel.join("instances.jsonl").is_file() {
        return Some(rel.to_path_buf());
    }
    let exe = std::env::current_exe().ok()?;
    exe.ancestors()
        .map(|d| d.join(rel))
        .find(|p| p.join("instances.jsonl").is_file())
}

/// The cargo target directory the example runs from (`<target>/<profile>/examples/<exe>`),
/// else the working directory.
fn default_out() -> PathBuf {
    let from_exe = std::env::current_exe().ok().and_then(|exe| {
        let examples = exe.parent()?;
        (examples.file_name()? == "examples")
            .then(|| examples.parent()?.parent().map(|t| t.to_path_buf()))?
    });
    from_exe
        .unwrap_or_else(|| PathBuf::from("."))
        .join("codethread-reproduce")
}

fn main() -> ExitCode {
    let a = Args::parse();
    let data_flags = a.instances.is_some()
        || a.snapshots.is_some()
        || a.repo.is_some()
        || a.repos.is_some()
        || a.testbeds.is_some()
        || a.agents.is_some()
        || a.reports.is_some();
    let (bench, fixtures) = match (&a.bench, data_flags) {
        (Some(b), _) => (Some(b.clone()), false),
        (None, false) => match bundled_fixtures() {
            Some(b) => (Some(b), true),
            None => {
                eprintln!("error: no input given and no bundled fixtures/bench found (run from the repository, or give --bench DIR, or --instances with --snapshots/--repo/--repos/--testbeds, --agents and --reports)");
                return ExitCode::from(ExitOutcome::Fatal);
            }
        },
        (None, true) => {
            // Real inputs: each one named; nothing falls back to the fixtures.
            let mut missing = Vec::new();
            if a.instances.is_none() {
                missing.push("--instances FILE (the benchmark rows)");
            }
            if a.snapshots.is_none()
                && a.repo.is_none()
                && a.repos.is_none()
                && a.testbeds.is_none()
            {
                missing.push(
                    "--snapshots DIR, --repo GIT, --repos DIR or --testbeds DIR (the base files)",
                );
            }
            if a.agents.is_none() {
                missing
                    .push("--agents DIR (agent outputs <model>/{pr1,pr2_HA,pr2_AA}/<id>/<path> or <model>/{pr1,pr2_HA,pr2_AA}.jsonl)");
            }
            if a.reports.is_none() {
                missing.push("--reports DIR (harness reports <model>/{pr1,pr2_HA,pr2_AA}/...)");
            }
            if !missing.is_empty() {
                eprintln!(
                    "error: real inputs need more to reproduce the study; add:\n  {}\n(to build chains alone, without agents: `cargo run --release --example chain -- build`; to run on the bundled fixtures: no input flag, or --bench fixtures/bench)",
                    missing.join("\n  ")
                );
                return ExitCode::from(ExitOutcome::Fatal);
            }
            (None, false)
        }
    };
    let out = a.out.clone().unwrap_or_else(default_out);
    let mut cfg = match &bench {
        Some(b) => ReproduceConfig::for_bench_dir(b, &out),
        None => ReproduceConfig::for_bench_dir(std::path::Path::new("."), &out),
    };
    cfg.bundled_fixtures = fixtures;
    if bench.is_none() {
        // Real inputs: each instance's benchmark and task type from its row.
        cfg.benchmark = None;
        cfg.task_types = None;
    }
    if let Some(p) = a.instances {
        cfg.instances = p;
    }
    if let Some(p) = a.snapshots {
        cfg.source = SourceSpec::Snapshots(p);
    } else if let Some(p) = a.repo {
        cfg.source = SourceSpec::Repo(p);
    } else if let Some(p) = a.repos {
        cfg.source = SourceSpec::Repos(p);
    } else if let Some(p) = a.testbeds {
        cfg.source = SourceSpec::Testbeds(p);
    }
    if let Some(p) = a.agents {
        cfg.agents = p;
    }
    if let Some(p) = a.reports {
        cfg.reports = p;
    }
    if a.task_types.is_some() {
        cfg.task_types = a.task_types;
    }
    if let Some(b) = a.benchmark {
        cfg.benchmark = Some(b);
    }
    cfg.bootstrap_reps = a.bootstrap;
    cfg.seed = a.seed;
    cfg.max_file_bytes = a.max_file_bytes;
    cfg.judge_labels = a.judge_labels;
    cfg.drift_labels = a.drift_labels;
    cfg.profile = a.profile;
    match reproduce(&cfg, &mut |stage| eprintln!("reproduce: {stage}")) {
        Ok(s) => {
            for w in &s.warnings {
                eprintln!("warning: {w}");
            }
            eprintln!(
                "instances {}, chains built {}, negative cases {}, failed {}, models {}, PR2 outcomes {}, discordant {}",
                s.instances,
                s.built,
                s.filtered.len(),
                s.failed.len(),
                s.models.len(),
                s.outcomes,
                s.discordant
            );
            if let Some(t) = &s.compounding {
                eprintln!("compounding (judge labels):\n{}", t.to_markdown());
            }
            for e in &s.errors {
                eprintln!("error: {e}");
            }
            for (id, e) in &s.failed {
                eprintln!("failed: {id}: {e}");
            }
            let outcome = s.outcome();
            if outcome == ExitOutcome::Fatal {
                eprintln!(
                    "error: no instance succeeded ({} failed)",
                    s.failed.len() + s.rejected_rows
                );
            } else {
                println!("{}", s.report_dir.join("report.md").display());
            }
            ExitCode::from(outcome)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(ExitOutcome::Fatal)
        }
    }
}
