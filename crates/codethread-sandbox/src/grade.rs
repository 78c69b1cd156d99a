//! Grading stacks with the real harness: swebench's `run_evaluation` code (swebench >= 5, which
//! runs the images named by the rows' `image` field) on a predictions file, in a working
//! directory where it writes its logs tree as it always does
//! (`logs/run_evaluation/<run_id>/<model>/<instance_id>/{report.json,test_output.txt,...}`),
//! which `chain gate` and `reproduce` read.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use codethread_chain::Chain;
use serde::Serialize;
use serde_json::Value;

use crate::cmd;
use crate::error::SandboxError;
use crate::recipe::GRADE_SCRIPT;
use crate::runtime::{ensure_runtime, RuntimeOptions};
use crate::Event;

/// What [`grade`] runs.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct GradeOptions {
    /// The chain: its instances are the dataset (every upstream column, as the harness reads
    /// it).
    pub chain: PathBuf,
    /// The predictions (a stack from `chain stack`, an agent's `preds.json`, ...), or the
    /// string `gold` for the rows' gold patches.
    pub predictions: PathBuf,
    /// The harness's run id.
    pub run_id: String,
    /// Where the harness runs (its `logs/` tree and run report go here; default
    /// `<chain>/sandbox/grading`).
    pub out: Option<PathBuf>,
    /// A Python with swebench >= 5 and its dependencies.
    pub python: PathBuf,
    /// Instances graded at once.
    pub max_workers: usize,
    /// Seconds one instance's tests may run.
    pub timeout_secs: u64,
    /// The runtime (started, and locked down, before grading).
    pub runtime: RuntimeOptions,
}

impl GradeOptions {
    /// Grade `predictions` on `chain`'s instances with `python`'s swebench as run `run_id`.
    pub fn new(
        chain: impl Into<PathBuf>,
        predictions: impl Into<PathBuf>,
        run_id: impl Into<String>,
        python: impl Into<PathBuf>,
    ) -> Self {
        GradeOptions {
            chain: chain.into(),
            predictions: predictions.into(),
            run_id: run_id.into(),
            out: None,
            python: python.into(),
            max_workers: 2,
            timeout_secs: 1800,
            runtime: RuntimeOptions::default(),
        }
    }

    /// The harness's working directory.
    pub fn out_dir(&self) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| self.chain.join("sandbox").join("grading"))
    }
}

/// What the harness decided.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GradeRun {
    /// The run-level report the harness wrote.
    pub report: PathBuf,
    /// `logs/run_evaluation/<run_id>`: give it to `chain gate --reports` / `reproduce`.
    pub logs: PathBuf,
    /// Resolved instances.
    pub resolved: BTreeSet<String>,
    /// Graded, not resolved.
    pub unresolved: BTreeSet<String>,
    /// Instances the harness could not grade (patch did not apply, container error, ...).
    pub errors: BTreeSet<String>,
    /// Predictions whose stack is empty (equal to the base commit), graded on the unpatched
    /// image.
    pub empty_stacks: BTreeSet<String>,
    /// The harness's output.
    pub log: PathBuf,
}

/// Grade `opts.predictions` with the harness. Progress: the number of instances whose
/// `report.json` exists, polled while the harness runs.
pub fn grade(
    opts: &GradeOptions,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<GradeRun, SandboxError> {
    let chain = Chain::open(&opts.chain, codethread_lang::io::SourceLimits::default())?;
    let out = opts.out_dir();
    std::fs::create_dir_all(&out).map_err(|e| SandboxError::io(&out, e))?;
    let out = std::fs::canonicalize(&out).map_err(|e| SandboxError::io(&out, e))?;
    let dataset = out.join("dataset.jsonl");
    let rows: Vec<_> = chain
        .instances
        .iter()
        .map(codethread_bench::swebench_row)
        .collect();
    codethread_lang::io::write_atomic(&dataset, codethread_bench::to_jsonl(&rows).as_bytes())?;
    let preds = if opts.predictions.as_os_str() == "gold" {
        PathBuf::from("gold")
    } else {
        std::fs::canonicalize(&opts.predictions)
            .map_err(|e| SandboxError::io(&opts.predictions, e))?
    };
    let wanted = predicted(&preds, &chain)?;
    if opts.run_id.is_empty() || opts.run_id.contains(['/', '\\']) || opts.run_id.starts_with('.') {
        return Err(SandboxError::Format {
            path: preds,
            message: format!("run id {:?} must be a plain name", opts.run_id),
        });
    }
    ensure_runtime(&opts.runtime, progress)?;
    let log = out.join(format!("grade-{}.log", opts.run_id));
    let log_file = std::fs::File::create(&log).map_err(|e| SandboxError::io(&log, e))?;
    let err_file = log_file
        .try_clone()
        .map_err(|e| SandboxError::io(&log, e))?;
    let stdout_path = out.join(format!("grade-{}.out", opts.run_id));
    let stdout_file =
        std::fs::File::create(&stdout_path).map_err(|e| SandboxError::io(&stdout_path, e))?;
    progress(Event::Step(&format!(
        "grading {} predictions with swebench (run {})",
        wanted.len(),
        opts.run_id
    )));
    // The harness runs in `out`: a relative interpreter path is taken from here.
    let python = if opts.python.is_relative() && opts.python.components().count() > 1 {
        std::env::current_dir()
            .map_err(|e| SandboxError::io(".", e))?
            .join(&opts.python)
    } else {
        opts.python.clone()
    };
    let mut c = Command::new(&python);
    c.current_dir(&out)
        .args(["-c", GRADE_SCRIPT])
        .arg(&dataset)
        .arg(&preds)
        .arg(&opts.run_id)
        .arg(opts.max_workers.max(1).to_string())
        .arg(opts.timeout_secs.to_string())
        .stdin(Stdio::null())
        .stdout(stdout_file)
        .stderr(err_file);
    // The script reads its arguments after `-c`: argv[0] is "-c".
    let mut child = c.spawn().map_err(|e| SandboxError::Spawn {
        program: opts.python.display().to_string(),
        source: e,
    })?;
    let logs = out.join("logs").join("run_evaluation").join(&opts.run_id);
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| SandboxError::io(&log, e))? {
            break s;
        }
        let done = count_reports(&logs, &wanted);
        progress(Event::Progress {
            done,
            total: wanted.len(),
            id: &opts.run_id,
        });
        std::thread::sleep(Duration::from_millis(500));
    };
    if !status.success() {
        return Err(SandboxError::Command {
            command: format!(
                "{} grade.py (swebench run_evaluation)",
                opts.python.display()
            ),
            status: status.to_string(),
            tail: cmd::tail_of(&log, 25),
            log: Some(log),
        });
    }
    let printed = codethread_lang::io::read_regular_to_string(&stdout_path, 64 << 20)?;
    let summary: Value = printed
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .ok_or_else(|| SandboxError::Format {
            path: stdout_path.clone(),
            message: "the grading script printed no summary".into(),
        })?;
    let report = out.join(summary["report"].as_str().unwrap_or_default());
    let rep: Value =
        serde_json::from_slice(&codethread_lang::io::read_regular(&report, 256 << 20)?).map_err(
            |e| SandboxError::Format {
                path: report.clone(),
                message: e.to_string(),
            },
        )?;
    let ids = |k: &str| -> BTreeSet<String> {
        rep[k]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    Ok(GradeRun {
        resolved: ids("resolved_ids"),
        unresolved: ids("unresolved_ids"),
        errors: ids("error_ids"),
        empty_stacks: summary["empty_stacks"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        report,
        logs,
        log,
    })
}

/// `(model directory, instance)` pairs of a predictions file (or of the chain's gold rows).
fn predicted(preds: &Path, chain: &Chain) -> Result<Vec<(String, String)>, SandboxError> {
    if preds.as_os_str() == "gold" {
        return Ok(chain
            .instances
            .iter()
            .map(|i| ("gold".to_string(), i.instance_id.clone()))
            .collect());
    }
    let loaded =
        codethread_bench::load_predictions(preds, codethread_lang::io::SourceLimits::default())
            .map_err(|e| SandboxError::Format {
                path: preds.to_path_buf(),
                message: e.to_string(),
            })?;
    if let Some(e) = loaded.errors.first() {
        return Err(SandboxError::Format {
            path: preds.to_path_buf(),
            message: format!(
                "{} unreadable prediction(s), first: {e}",
                loaded.errors.len()
            ),
        });
    }
    let known: BTreeSet<&str> = chain
        .instances
        .iter()
        .map(|i| i.instance_id.as_str())
        .collect();
    let unknown: Vec<&str> = loaded
        .items
        .iter()
        .map(|p| p.instance_id.as_str())
        .filter(|i| !known.contains(i))
        .collect();
    if !unknown.is_empty() {
        return Err(SandboxError::Format {
            path: preds.to_path_buf(),
            message: format!(
                "predictions for instances not in the chain: {}",
                unknown.join(", ")
            ),
        });
    }
    Ok(loaded
        .items
        .iter()
        .map(|p| {
            (
                p.model_name_or_path.replace('/', "__"),
                p.instance_id.clone(),
            )
        })
        .collect())
}

fn count_reports(logs: &Path, wanted: &[(String, String)]) -> usize {
    wanted
        .iter()
        .filter(|(m, i)| logs.join(m).join(i).join("report.json").is_file())
        .count()
}
