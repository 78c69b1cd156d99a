//! codethread analysis from the command line.
//!
//! ```text
//! analyze logit --csv FILE --outcome COL [--categorical A,B] [--exclude C,D] [--drop-missing] [--firth] [--standardize]
//! analyze tables --results FILE [--reps N] [--seed N] [--markdown]
//! analyze difficulty (--leaderboard FILE [--tol POINTS] | --matrix FILE)
//! analyze report --results FILE --out DIR [--leaderboard FILE] [--iec FILE] [--metrics FILE]
//!                [--edits FILE] [--reps N] [--seed N]
//! analyze large --stats DIR     (regenerate + fit the 1,000,000 × 20 benchmark set, print timings)
//! analyze judge drift export --items DRIFT_ITEMS.jsonl > requests.jsonl
//! analyze judge drift import --items DRIFT_ITEMS.jsonl --answers RESULTS.jsonl --out LABELS.jsonl [--iec-out IEC.jsonl]
//! analyze judge compound export (--items C_ITEMS.jsonl | --drift-labels LABELS.jsonl --aa AA.jsonl [--items-out C_ITEMS.jsonl]) > requests.jsonl
//! analyze judge compound import --items C_ITEMS.jsonl --answers RESULTS.jsonl --out C_LABELS.jsonl [--results OUTCOMES]
//! ```
//! `judge ... export` writes provider-neutral requests (send them with `chain llm export` or
//! `chain llm run --requests`); `judge ... import` reads any engine's result file. Their exit
//! status is 1 when some item has no usable answer (each named on stderr).
//! Each command prints one JSON document (or Markdown with `tables --markdown`). Every input
//! is read only if it is a regular file of at most `--max-file-bytes N` bytes (default 64 MiB).
//!
//! Exit status (`codethread::exit`, see the README): 0 on success; 2 for a usage error or any
//! error (printed on stderr, naming the file, line or column). Each command has one input set,
//! so there is no partial outcome (1).
use clap::{Parser, Subcommand};
use codethread::exit::ExitOutcome;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(about = "CodeThread statistics: logistic regression, tables, difficulty, reports")]
struct Cli {
    /// What to run.
    #[command(subcommand)]
    cmd: Cmd,
    /// Largest input file read, in bytes (larger files are refused, naming them).
    #[arg(long, global = true, default_value_t = codethread::lang::io::DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
}

#[derive(Subcommand)]
enum Cmd {
    /// Fit a logistic regression (statsmodels-exact MLE, or Firth) and print one JSON object.
    Logit {
        /// The data: a CSV with a header row, one row per observation, numeric cells except in
        /// `--categorical` columns (e.g. `resolved,d_cc_pr1,lang`); docs/analysis.md, "Logistic regression".
        #[arg(long)]
        csv: PathBuf,
        /// The 0/1 outcome column (e.g. `resolved`); every other column not excluded is a regressor.
        #[arg(long)]
        outcome: String,
        /// Comma-separated categorical columns (dummy-coded drop-first, sorted levels).
        #[arg(long, value_delimiter = ',')]
        categorical: Vec<String>,
        /// Comma-separated columns to leave out (ids, labels).
        #[arg(long, value_delimiter = ',')]
        exclude: Vec<String>,
        /// Drop rows with a missing cell (empty, NA, NaN, null) instead of failing.
        #[arg(long)]
        drop_missing: bool,
        /// Firth's penalized likelihood instead of the MLE (finite estimates under separation).
        #[arg(long)]
        firth: bool,
        /// Rescale continuous regressors to mean 0, sd 1 first (dummies and the outcome unchanged).
        #[arg(long)]
        standardize: bool,
    },
    /// Tables 2 and 3 and the discordant cohort from a results CSV / JSONL.
    Tables {
        /// PR2 outcomes: CSV with a header `benchmark,model,condition,instance,resolved` (optional
        /// `task_type`; `resolved` 0/1, true/false or yes/no), or JSONL of objects with those keys;
        /// one row per (benchmark, model, condition, instance); docs/analysis.md, "Results model".
        #[arg(long)]
        results: PathBuf,
        /// Bootstrap replicates of each confidence interval.
        #[arg(long, default_value_t = 2000)]
        reps: usize,
        /// Seed of the bootstrap (each cell's stream is derived from it and the cell's key).
        #[arg(long, default_value_t = 20240405)]
        seed: u64,
        /// Print Markdown tables instead of JSON.
        #[arg(long)]
        markdown: bool,
    },
    /// Published vs computed resolve rates and leave-one-out difficulty of a leaderboard file.
    Difficulty {
        /// Leaderboard JSON (runs with published rates + per-instance flags).
        #[arg(long, required_unless_present = "matrix")]
        leaderboard: Option<PathBuf>,
        /// Or a wide CSV matrix: instance id, then one 0/1 column per model.
        #[arg(long, conflicts_with = "leaderboard")]
        matrix: Option<PathBuf>,
        /// Largest difference, in percentage points, between a published and a computed rate
        /// that still agrees.
        #[arg(long, default_value_t = 0.1)]
        tol: f64,
    },
    /// Write the Markdown / CSV / SVG report.
    Report {
        /// PR2 outcomes, as `tables --results` reads them (docs/analysis.md, "Results model").
        #[arg(long)]
        results: PathBuf,
        /// Output directory (created): report.md, the CSV tables and the SVG figures.
        #[arg(long)]
        out: PathBuf,
        /// Leaderboard JSON for leave-one-out difficulty (`runs` with published rates and
        /// `per_instance` flags, as `difficulty --leaderboard` reads it).
        #[arg(long)]
        leaderboard: Option<PathBuf>,
        /// IEC flags: JSONL of `{"instance_id": .., "iec": 0|1}` (optional `model`, `benchmark`),
        /// e.g. the `--iec-out` of `judge drift import`; the static detector is not run here.
        #[arg(long)]
        iec: Option<PathBuf>,
        /// Metric values per stage (JSONL).
        #[arg(long)]
        metrics: Option<PathBuf>,
        /// PR2 edit sets (JSONL).
        #[arg(long)]
        edits: Option<PathBuf>,
        /// Bootstrap replicates of each confidence interval.
        #[arg(long, default_value_t = 2000)]
        reps: usize,
        /// Seed of the bootstrap.
        #[arg(long, default_value_t = 20240405)]
        seed: u64,
    },
    /// The LLM judges: requests out, labels in (`docs/analysis.md`, "LLM judges").
    Judge {
        /// Which judge.
        #[command(subcommand)]
        which: JudgeCmd,
    },
    /// Regenerate and fit the large benchmark set of shared/stats; print timings and memory.
    Large {
        /// The statistics reference directory (`shared/stats`: `data/f_large_manifest.json` and
        /// the CSVs it names).
        #[arg(long)]
        stats: PathBuf,
    },
}

#[derive(Subcommand)]
enum JudgeCmd {
    /// The PR1 drift judge.
    Drift {
        /// Export requests or import answers.
        #[command(subcommand)]
        act: DriftAct,
    },
    /// The PR2 compounding judge.
    Compound {
        /// Export requests or import answers.
        #[command(subcommand)]
        act: CompoundAct,
    },
}

#[derive(Subcommand)]
enum DriftAct {
    /// One request per drift item (JSONL of `judge::DriftItem`), on stdout.
    Export {
        /// Drift items: JSONL of `judge::DriftItem` (benchmark, model, instance_id, language,
        /// targets with human and agent code), as `chain` writes them; docs/analysis.md, "LLM judges".
        #[arg(long)]
        items: PathBuf,
    },
    /// Read the judge's answers; write labels (and IEC flags); print counts and Cohen's κ
    /// against the static detector.
    Import {
        /// The drift items the requests were made from (as `export --items`).
        #[arg(long)]
        items: PathBuf,
        /// The engine's result file (any shape `chain llm import` reads).
        #[arg(long)]
        answers: PathBuf,
        /// Drift records (JSONL).
        #[arg(long)]
        out: PathBuf,
        /// IEC flags as `report --iec` reads them (JSONL).
        #[arg(long)]
        iec_out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum CompoundAct {
    /// One request per drifted target, on stdout.
    Export {
        /// Compounding items (JSONL of `judge::CompoundItem`).
        #[arg(long, conflicts_with_all = ["drift_labels", "aa"])]
        items: Option<PathBuf>,
        /// Or: drift records (from `judge drift import`) ...
        #[arg(long, requires = "aa")]
        drift_labels: Option<PathBuf>,
        /// ... joined with the AA chains' PR2 (JSONL of `judge::AaPr2`).
        #[arg(long, requires = "drift_labels")]
        aa: Option<PathBuf>,
        /// Write the joined items here (for `import`).
        #[arg(long)]
        items_out: Option<PathBuf>,
    },
    /// Read the judge's answers; write labels; print the compounding table (on the HA-wins
    /// cohort of `--results`; every label when absent).
    Import {
        /// The compounding items the requests were made from (`export --items`, or its
        /// `--items-out`).
        #[arg(long)]
        items: PathBuf,
        /// The engine's result file (any shape `chain llm import` reads).
        #[arg(long)]
        answers: PathBuf,
        /// Compounding labels (JSONL), written here.
        #[arg(long)]
        out: PathBuf,
        /// PR2 outcomes (CSV or JSONL, as `tables` reads them).
        #[arg(long)]
        results: Option<PathBuf>,
    },
}

/// Read a JSONL file of judge items (bad lines on stderr, counted).
fn items<T: serde::de::DeserializeOwned>(
    p: &std::path::Path,
    limit: u64,
) -> Result<(Vec<T>, usize), String> {
    let b = codethread::lang::io::read_regular(p, limit).map_err(|e| e.to_string())?;
    let (items, errs) = codethread_judge::judge::load_items::<T>(&p.display().to_string(), &b);
    for e in &errs {
        eprintln!("unusable item: {e}");
    }
    Ok((items, errs.len()))
}

use codethread::llm::printable_id;

fn jsonl<T: serde::Serialize>(rows: &[T]) -> Result<String, String> {
    let mut s = String::new();
    for r in rows {
        s.push_str(&json(r)?);
        s.push('\n');
    }
    Ok(s)
}

/// Answers by custom_id from an engine's result file; failures on stderr, counted.
fn answers(
    p: &std::path::Path,
    ids: &[String],
    limit: u64,
) -> Result<(std::collections::BTreeMap<String, String>, usize), String> {
    let o = codethread::llm::read_batch_output(p, Some(ids), limits(limit))
        .map_err(|e| e.to_string())?;
    for f in &o.failures {
        eprintln!(
            "no answer: {}: {} {}",
            printable_id(&f.instance_id),
            printable_id(&f.kind),
            printable_id(&f.message)
        );
    }
    for e in &o.errors {
        eprintln!("unreadable: {e}");
    }
    for id in &o.unknown {
        eprintln!("unknown custom_id: {}", printable_id(id));
    }
    let bad = o.failures.len() + o.errors.len() + o.unknown.len();
    Ok((
        o.answers
            .into_iter()
            .map(|a| (a.instance_id, a.content))
            .collect(),
        bad,
    ))
}

fn report_import<T>(imp: &codethread_judge::judge::Imported<T>) -> usize {
    for (id, e) in &imp.errors {
        eprintln!("bad answer: {}: {}", printable_id(id), printable_id(e));
    }
    for id in &imp.missing {
        eprintln!("missing: {} has no answer", printable_id(id));
    }
    imp.errors.len() + imp.missing.len()
}

/// The `custom_id` of each item's judge request (answers are matched back by it).
fn request_ids<T>(items: &[T], request: impl Fn(&T) -> codethread::llm::LlmRequest) -> Vec<String> {
    items.iter().map(|i| request(i).custom_id).collect()
}

fn judge(cmd: JudgeCmd, limit: u64) -> Result<(String, usize, usize), String> {
    use codethread_judge::judge as j;
    let write = |p: &std::path::Path, s: &str| {
        codethread::lang::io::write_atomic(p, s.as_bytes()).map_err(|e| e.to_string())
    };
    match cmd {
        JudgeCmd::Drift {
            act: DriftAct::Export { items: p },
        } => {
            let (its, bad) = items::<j::DriftItem>(&p, limit)?;
            let reqs: Vec<_> = its.iter().map(j::drift_request).collect();
            Ok((jsonl(&reqs)?.trim_end().to_string(), reqs.len(), bad))
        }
        JudgeCmd::Drift {
            act:
                DriftAct::Import {
                    items: p,
                    answers: a,
                    out,
                    iec_out,
                },
        } => {
            let (its, bad_items) = items::<j::DriftItem>(&p, limit)?;
            let ids = request_ids(&its, j::drift_request);
            let (ans, bad_lines) = answers(&a, &ids, limit)?;
            let imp = j::import_drift(&its, &ans);
            let bad = bad_items + bad_lines + report_import(&imp);
            write(&out, &jsonl(&imp.labels)?)?;
            let judge_iec = j::iec_from_labels(&imp.labels);
            if let Some(p) = iec_out {
                let rows: Vec<_> = judge_iec
                    .iter()
                    .map(|((b, m, i), f)| serde_json::json!({"benchmark": b, "model": m, "instance": i, "iec": f}))
                    .collect();
                write(&p, &jsonl(&rows)?)?;
            }
            let detector: std::collections::BTreeMap<_, _> = its
                .iter()
                .filter_map(|i| {
                    Some((
                        (i.benchmark.clone(), i.model.clone(), i.instance_id.clone()),
                        j::static_iec(i)?,
                    ))
                })
                .collect();
            let summary = serde_json::json!({
                "items": its.len(),
                "labelled": imp.labels.len(),
                "iec": judge_iec.values().filter(|f| **f).count(),
                "agreement_with_static_detector": j::agreement(&judge_iec, &detector),
            });
            Ok((summary.to_string(), imp.labels.len(), bad))
        }
        JudgeCmd::Compound {
            act:
                CompoundAct::Export {
                    items: p,
                    drift_labels,
                    aa,
                    items_out,
                },
        } => {
            let (its, bad) = match (p, drift_labels, aa) {
                (Some(p), _, _) => items::<j::CompoundItem>(&p, limit)?,
                (None, Some(d), Some(a)) => {
                    let (drift, b1) = items::<j::DriftRecord>(&d, limit)?;
                    let (aa, b2) = items::<j::AaPr2>(&a, limit)?;
                    (j::compound_items(&drift, &j::aa_map(&aa)), b1 + b2)
                }
                _ => return Err("give --items, or --drift-labels with --aa".into()),
            };
            if let Some(o) = items_out {
                write(&o, &jsonl(&its)?)?;
            }
            let reqs: Vec<_> = its.iter().map(j::compound_request).collect();
            Ok((jsonl(&reqs)?.trim_end().to_string(), reqs.len(), bad))
        }
        JudgeCmd::Compound {
            act:
                CompoundAct::Import {
                    items: p,
                    answers: a,
                    out,
                    results,
                },
        } => {
            let (its, bad_items) = items::<j::CompoundItem>(&p, limit)?;
            let ids = request_ids(&its, j::compound_request);
            let (ans, bad_lines) = answers(&a, &ids, limit)?;
            let imp = j::import_compound(&its, &ans);
            let bad = bad_items + bad_lines + report_import(&imp);
            write(&out, &jsonl(&imp.labels)?)?;
            let cohort = match results {
                Some(r) => {
                    let res = if r.extension().is_some_and(|e| e == "jsonl") {
                        codethread_analysis::Results::from_jsonl_path(&r, limits(limit))
                    } else {
                        codethread_analysis::Results::from_csv_path(&r, limits(limit))
                    }
                    .map_err(|e| e.to_string())?;
                    codethread_analysis::features::ha_wins_cohort(&res)
                }
                None => imp
                    .labels
                    .iter()
                    .map(|l| (l.benchmark.clone(), l.model.clone(), l.instance.clone()))
                    .collect(),
            };
            let t = j::compounding_table(&imp.labels, &cohort);
            Ok((json(&t)?, imp.labels.len(), bad))
        }
    }
}

fn run(cli: Cli) -> Result<String, String> {
    use codethread_analysis as ca;
    let lim = limits(cli.max_file_bytes);
    match cli.cmd {
        Cmd::Logit {
            csv,
            outcome,
            categorical,
            exclude,
            drop_missing,
            firth,
            standardize,
        } => {
            let opts = codethread_stats::LogitOptions::default().firth(firth);
            let fit = codethread_stats::fit_csv(
                &csv,
                &outcome,
                &categorical,
                &exclude,
                standardize,
                drop_missing,
                &opts,
                lim,
            )
            .map_err(|e| e.to_string())?;
            Ok(fit.to_json())
        }
        Cmd::Tables {
            results,
            reps,
            seed,
            markdown,
        } => {
            let t = ca::report::tables_from_file(&results, reps, seed, lim)
                .map_err(|e| e.to_string())?;
            if markdown {
                Ok(ca::report::markdown(&t, None, None, &[]))
            } else {
                json(&t)
            }
        }
        Cmd::Difficulty {
            leaderboard,
            matrix,
            tol,
        } => {
            let report = match (leaderboard, matrix) {
                (Some(l), _) => ca::leaderboard::difficulty_report(&l, tol, lim),
                (None, Some(m)) => ca::leaderboard::matrix_difficulty_report(&m, lim),
                (None, None) => return Err("give --leaderboard or --matrix".into()),
            };
            json(&report.map_err(|e| e.to_string())?)
        }
        Cmd::Report {
            results,
            out,
            leaderboard,
            iec,
            metrics,
            edits,
            reps,
            seed,
        } => {
            let req = ca::report::ReportRequest {
                results,
                out,
                leaderboard,
                iec,
                metrics,
                edits,
                bootstrap_reps: reps,
                seed,
                limits: lim,
            };
            let files = ca::report::report_from_files(&req).map_err(|e| e.to_string())?;
            json(&files)
        }
        Cmd::Judge { .. } => Err("judge is run by main".into()),
        Cmd::Large { stats } => {
            let limit = cli.max_file_bytes;
            let read = |p: PathBuf| {
                codethread::lang::io::read_regular(&p, limit).map_err(|e| e.to_string())
            };
            let manifest = read(stats.join("data/f_large_manifest.json"))?;
            let head = read(stats.join("data/f_large_head.csv")).ok();
            json(
                &codethread_stats::synth::benchmark_large(&manifest, head.as_deref())
                    .map_err(|e| e.to_string())?,
            )
        }
    }
}

/// The input limits of `--max-file-bytes N`.
fn limits(max_file_bytes: u64) -> codethread_analysis::SourceLimits {
    codethread_analysis::SourceLimits::with_max_file_bytes(max_file_bytes)
}

fn json<T: serde::Serialize>(v: &T) -> Result<String, String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// Print `s` and a newline on stdout. A reader that closed the pipe (`| head`) took what it
/// wanted: that ends the output quietly instead of panicking as `println!` does. False when
/// stdout failed otherwise (said on stderr).
fn print_out(s: &str) -> bool {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{s}").and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: writing stdout: {e}");
            false
        }
        _ => true,
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Cmd::Judge { which } = cli.cmd {
        return match judge(which, cli.max_file_bytes) {
            Ok((s, ok, bad)) => {
                if !s.is_empty() && !print_out(&s) {
                    return ExitCode::from(ExitOutcome::Fatal);
                }
                ExitCode::from(codethread::exit::from_counts(ok, bad))
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(ExitOutcome::Fatal)
            }
        };
    }
    match run(cli) {
        Ok(s) if print_out(&s) => ExitCode::from(ExitOutcome::Success),
        Ok(_) => ExitCode::from(ExitOutcome::Fatal),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(ExitOutcome::Fatal)
        }
    }
}
