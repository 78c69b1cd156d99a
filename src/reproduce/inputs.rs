//! Stage 0: the inputs given as paths (checked before anything runs), the instances, the task
//! types, and the source of pre-images.

use std::collections::BTreeMap;
use std::path::Path;

use codethread_analysis::TaskType;
use codethread_bench::records::Loaded;
use codethread_bench::Benchmark;
use codethread_bench::{load_instances, parse_instances, Instance};
use codethread_chain::SourceSpec;
use codethread_chain::{SnapshotSource, SourceReader};
use codethread_lang::io::read_regular;
use codethread_lang::Lang;

use super::{Diagnostic, ReproduceConfig, ReproduceError, ReproduceSummary};

/// What the run works on.
pub(crate) struct Inputs {
    /// The instances whose pre-images can be read, in file order.
    pub instances: Vec<Instance>,
    /// Task type per instance id: from the task-type file, else by the
    /// paper's rule for the instance's benchmark
    /// ([`codethread_bench::Benchmark::task_type`]).
    pub task_types: BTreeMap<String, TaskType>,
    /// Benchmark name per instance id (the configured one, or the row's).
    pub benchmarks: BTreeMap<String, String>,
    /// Per instance id: its language, which settles ambiguous extensions (`.h`: C or C++).
    pub hints: BTreeMap<String, Option<Lang>>,
}

/// Checks the inputs, reads the instances (rows that cannot be read go to `sum.errors`) and
/// the task types, and fails every instance whose pre-images cannot be read at all, with the
/// real reason (`sum.failed`). `None` when no instance is left.
///
/// # Errors
/// An unusable input path, an unreadable instances or task-type file, no instances.
pub(crate) fn read(
    cfg: &ReproduceConfig,
    sum: &mut ReproduceSummary,
) -> Result<Option<Inputs>, ReproduceError> {
    let limit = cfg.max_file_bytes;
    check_inputs(cfg)?;
    let loaded = read_instances(&cfg.instances, limit)?;
    sum.rejected_rows = loaded.errors.len();
    sum.errors
        .extend(loaded.errors.iter().map(|e| Diagnostic::InstanceRow {
            message: e.to_string(),
        }));
    let instances: Vec<Instance> = loaded.items;
    sum.instances = instances.len();
    if instances.is_empty() {
        return Err(ReproduceError::NoInstances {
            path: cfg.instances.clone(),
        });
    }
    let task_types = load_task_types(cfg.task_types.as_deref(), limit)?;

    // Instances whose pre-images cannot be read at all fail here, with the real reason.
    let unreadable = unreadable_sources(cfg, &instances);
    for i in &instances {
        if let Some(why) = unreadable.get(&i.instance_id) {
            sum.failed.push((i.instance_id.clone(), why.clone()));
        }
    }
    let instances: Vec<Instance> = instances
        .into_iter()
        .filter(|i| !unreadable.contains_key(&i.instance_id))
        .collect();
    if instances.is_empty() {
        return Ok(None);
    }
    let hints = instances
        .iter()
        .map(|i| {
            let l = i.language.as_deref().and_then(Lang::from_name);
            (i.instance_id.clone(), l)
        })
        .collect();
    let (benchmarks, task_types) = labels(cfg, &instances, task_types, sum);
    Ok(Some(Inputs {
        instances,
        task_types,
        benchmarks,
        hints,
    }))
}

/// Each instance's benchmark name and task type, counted in `sum` by the
/// rule that gave it: the configured benchmark name, else the row's
/// benchmark; the task-type file's label, else the paper's rule for the
/// benchmark (SWE-bench: `BF`, FeatBench: `FI`, SWE-bench Pro: its own
/// `issue_specificity` labels).
fn labels(
    cfg: &ReproduceConfig,
    instances: &[Instance],
    mut given: BTreeMap<String, TaskType>,
    sum: &mut ReproduceSummary,
) -> (BTreeMap<String, String>, BTreeMap<String, TaskType>) {
    let mut benchmarks = BTreeMap::new();
    let mut task_types = BTreeMap::new();
    for i in instances {
        let bench = Benchmark::of(i);
        let name = cfg
            .benchmark
            .clone()
            .unwrap_or_else(|| bench.name().to_string());
        *sum.benchmarks.entry(name.clone()).or_default() += 1;
        benchmarks.insert(i.instance_id.clone(), name);
        let (tt, rule) = match given.remove(&i.instance_id) {
            Some(t) => (Some(t), "the --task-types file".to_string()),
            None => match bench.task_type(i) {
                Some((label, rule)) => (TaskType::parse(label), format!("{bench}: {rule}")),
                None => (None, format!("{bench}: no label in the row")),
            },
        };
        *sum.task_type_rules
            .entry((tt.map(|t| t.as_str().to_string()), rule))
            .or_default() += 1;
        if let Some(t) = tt {
            task_types.insert(i.instance_id.clone(), t);
        }
    }
    (benchmarks, task_types)
}

fn load_task_types(
    path: Option<&Path>,
    limit: u64,
) -> Result<BTreeMap<String, TaskType>, ReproduceError> {
    let Some(path) = path else {
        return Ok(BTreeMap::new());
    };
    let bytes = read_regular(path, limit)?;
    let bad = |message: String| ReproduceError::TaskTypes {
        path: path.to_path_buf(),
        message,
    };
    let raw: BTreeMap<String, String> =
        serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    let mut out = BTreeMap::new();
    for (id, t) in raw {
        let tt =
            TaskType::parse(&t).ok_or_else(|| bad(format!("{id}: unknown task type {t:?}")))?;
        out.insert(id, tt);
    }
    Ok(out)
}

/// The checks of the inputs given as paths: each must exist, the agent and report trees and a
/// snapshot or repositories directory must be directories, a `--repo` a git repository.
fn check_inputs(cfg: &ReproduceConfig) -> Result<(), ReproduceError> {
    let bad = |path: &Path, message: String| ReproduceError::Input {
        path: path.to_path_buf(),
        message,
    };
    let dir = |path: &Path, what: &str| -> Result<(), ReproduceError> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => Ok(()),
            Ok(_) => Err(bad(path, format!("the {what} is not a directory"))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                Err(bad(path, format!("the {what} does not exist")))
            }
            Err(e) => Err(bad(path, format!("the {what}: {e}"))),
        }
    };
    dir(&cfg.agents, "agent-output directory (--agents)")?;
    dir(&cfg.reports, "harness-report directory (--reports)")?;
    match &cfg.source {
        SourceSpec::Snapshots(d) => dir(d, "snapshot directory (--snapshots)")?,
        SourceSpec::Repos(d) => dir(d, "repositories directory (--repos)")?,
        SourceSpec::Testbeds(d) => dir(d, "testbed directory (--testbeds)")?,
        SourceSpec::Repo(r) => {
            dir(r, "repository (--repo)")?;
            let git =
                r.join(".git").exists() || (r.join("HEAD").is_file() && r.join("objects").is_dir());
            if !git {
                return Err(bad(
                    r,
                    "not a git repository (no .git, and not a bare repository) (--repo)".into(),
                ));
            }
        }
    }
    Ok(())
}

/// Instances whose pre-images cannot be read at all, with the reason: a missing snapshot
/// directory, or no repository for the instance under `--repos`.
fn unreadable_sources(cfg: &ReproduceConfig, instances: &[Instance]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    match &cfg.source {
        SourceSpec::Snapshots(d) => {
            for i in instances {
                let p = d.join(&i.instance_id);
                if !std::fs::metadata(&p).is_ok_and(|m| m.is_dir()) {
                    out.insert(
                        i.instance_id.clone(),
                        format!(
                            "snapshot directory {} is missing (expected {}/before/<path>)",
                            p.display(),
                            p.display()
                        ),
                    );
                }
            }
        }
        SourceSpec::Repos(_) => {
            let mut probe =
                cfg.source
                    .open(codethread_lang::io::SourceLimits::with_max_file_bytes(
                        cfg.max_file_bytes,
                    ));
            for i in instances {
                if let Err(e) = probe.select_repo_for(&i.instance_id, &i.repo) {
                    out.insert(i.instance_id.clone(), e.to_string());
                }
            }
        }
        SourceSpec::Testbeds(d) => {
            for i in instances {
                if codethread_chain::TestbedDir::tree_of(d, &i.instance_id).is_none() {
                    out.insert(
                        i.instance_id.clone(),
                        format!(
                            "no testbed: neither {0}/{1}/testbed nor {0}/{1} is a git work tree",
                            d.display(),
                            i.instance_id
                        ),
                    );
                }
            }
        }
        SourceSpec::Repo(_) => {}
    }
    out
}

/// The source of `cfg`'s pre-images: snapshots read by the chain crate's [`SnapshotSource`]
/// under [`ReproduceConfig::max_file_bytes`] (a link as the file, a FIFO, device or directory,
/// or a file above the limit is an error naming it; a missing file is one the gold patch
/// creates), git through the chain crate.
pub(crate) fn open_source(cfg: &ReproduceConfig) -> Box<dyn SourceReader> {
    match &cfg.source {
        SourceSpec::Snapshots(d) => Box::new(SnapshotSource::new(d).with_limits(
            codethread_lang::io::SourceLimits::with_max_file_bytes(cfg.max_file_bytes),
        )),
        other => other.open(codethread_lang::io::SourceLimits::with_max_file_bytes(
            cfg.max_file_bytes,
        )),
    }
}

/// The instances file: a regular file within the limit (parquet files are checked, then read
/// by the chain crate).
fn read_instances(path: &Path, limit: u64) -> Result<Loaded<Instance>, ReproduceError> {
    let bytes = read_regular(path, limit)?;
    if path.extension().is_some_and(|e| e == "parquet") {
        drop(bytes);
        return Ok(load_instances(
            path,
            codethread_lang::io::SourceLimits::with_max_file_bytes(limit),
        )?);
    }
    let text = String::from_utf8(bytes).map_err(|e| ReproduceError::Input {
        path: path.to_path_buf(),
        message: format!("not UTF-8 text: {}", e.utf8_error()),
    })?;
    Ok(parse_instances(path, &text)?)
}
