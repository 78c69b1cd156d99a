//! CodeThread chains from the command line: targets, PR0 patches, a full
//! chain build, the PR1 gate, and stacked predictions for the SWE-bench
//! harness. Thin: every subcommand is one `codethread::chain` call.
//!
//! ```text
//! cargo run --release --example chain -- targets --instances I.jsonl --snapshots DIR
//! cargo run --release --example chain -- pr0 --instances I.jsonl --snapshots DIR --out PATCHES
//! cargo run --release --example chain -- build --instances I.jsonl --repos REPOS --out CHAIN
//! cargo run --release --example chain -- gate --chain CHAIN --predictions PR1.jsonl --reports LOGS
//! cargo run --release --example chain -- requests --chain CHAIN --format openai --model gpt-4o > batch.jsonl
//! cargo run --release --example chain -- stack --chain CHAIN --repos REPOS --pr1 PR1.jsonl --pr2 PR2.jsonl --out P.jsonl
//! cargo run --release --example chain -- harbor --chain CHAIN --out DATASET [--conditions implementation,chain]
//! cargo run --release --example chain -- harbor-import --job jobs/NAME --out IMPORTED
//! cargo run --release --example chain -- llm export --chain CHAIN --format openai-batch --model M > batch.jsonl
//! cargo run --release --example chain -- llm run --chain CHAIN --endpoint http://127.0.0.1:8000/v1 --model M --out RUN
//! cargo run --release --example chain -- llm import --chain CHAIN --output RUN/output.jsonl --answers-out answers.jsonl
//! ```
//!
//! Exit status (`codethread::exit`, the same for every subcommand): **0**
//! every input succeeded; **1** finished with per-input failures (a skipped
//! instance row, an unloadable prediction, answer or report, a failed or
//! unstackable instance, a damaged `llm_request.json`): the good results
//! are written and each failure is on stderr; **2** usage or fatal error
//! (an unreadable input file, an unwritable output, or inputs given and
//! none succeeded). Every file read is a regular file of at most
//! `--max-file-bytes` (default 64 MiB): a FIFO or device is refused, never
//! read.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use codethread::bench::load_instances;
use codethread::bench::load_predictions;
use codethread::bench::write_jsonl;
use codethread::bench::HarnessGeneration;
use codethread::chain::ChainError;
use codethread::chain::Pr0Options;
use codethread::chain::{self, Chain, SourceSpec};
use codethread::exit::{from_counts, ExitOutcome};
use codethread::lang::io::{SourceLimits, DEFAULT_MAX_FILE_BYTES};
use codethread::llm::printable_id;
use codethread::llm::Cache;
use codethread::llm::{self, JobOutcome, Progress, RunnerOptions};
use codethread::llm::{batch_line, read_batch_output, BatchFormat, GenParams};
use codethread::llm::{import_answers, LlmRequest};
use codethread::scaffold::mini_swe_agent::write_mini_swe_agent_subset;

#[derive(Parser)]
#[command(about = "CodeThread chains: targets, PR0, build, gate, stack")]
struct Cli {
    /// Largest input file read, in bytes (larger files are refused).
    #[arg(long, global = true, default_value_t = DEFAULT_MAX_FILE_BYTES)]
    max_file_bytes: u64,
    /// Repository language for instances without a `language` field (`cpp`,
    /// `C++`, `java`, ...): with `cpp`, every C-family file is C++.
    #[arg(long, global = true, value_name = "LANG", value_parser = parse_lang)]
    lang_hint: Option<codethread::lang::Lang>,
    /// What to run.
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Args, Clone)]
struct Src {
    /// Snapshot directory: <dir>/<instance_id>/before/<path>.
    #[arg(long)]
    snapshots: Option<PathBuf>,
    /// One git repository holding every instance's base commit.
    #[arg(long)]
    repo: Option<PathBuf>,
    /// A directory of git repositories named owner__name (or owner/name, name).
    #[arg(long)]
    repos: Option<PathBuf>,
    /// A directory of per-instance git trees at their base commits: <dir>/<id>/testbed or
    /// <dir>/<id> (shared/repos/testbeds/<id>.testbed.tar.gz unpacked into <dir>/<id>).
    #[arg(long)]
    testbeds: Option<PathBuf>,
}

impl Src {
    /// Whether any source flag was given.
    fn given(&self) -> bool {
        self.snapshots.is_some()
            || self.repo.is_some()
            || self.repos.is_some()
            || self.testbeds.is_some()
    }

    fn spec(&self) -> Result<SourceSpec, String> {
        for (flag, d) in [
            ("--snapshots", &self.snapshots),
            ("--repo", &self.repo),
            ("--repos", &self.repos),
            ("--testbeds", &self.testbeds),
        ] {
            if let Some(d) = d {
                if !d.is_dir() {
                    return Err(format!("{flag} {}: no such directory", d.display()));
                }
            }
        }
        match (&self.snapshots, &self.repo, &self.repos, &self.testbeds) {
            (Some(d), None, None, None) => Ok(SourceSpec::Snapshots(d.clone())),
            (None, Some(d), None, None) => Ok(SourceSpec::Repo(d.clone())),
            (None, None, Some(d), None) => Ok(SourceSpec::Repos(d.clone())),
            (None, None, None, Some(d)) => Ok(SourceSpec::Testbeds(d.clone())),
            _ => Err("give exactly one of --snapshots, --repo, --repos, --testbeds".into()),
        }
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Target functions per instance, as JSONL on stdout.
    Targets {
        /// Instances: SWE-bench Verified / Multilingual / Pro or FeatBench rows (JSON, JSONL or
        /// parquet) with at least instance_id, repo, base_commit, patch and the two test lists
        /// (FAIL_TO_PASS and PASS_TO_PASS, or Pro's fail_to_pass and pass_to_pass);
        /// docs/chain.md §1.
        #[arg(long)]
        instances: PathBuf,
        #[command(flatten)]
        src: Src,
    },
    /// Write <out>/<instance_id>.patch (PR0) per instance with targets.
    Pr0 {
        /// Instances, as `targets --instances` reads them (docs/chain.md §1).
        #[arg(long)]
        instances: PathBuf,
        #[command(flatten)]
        src: Src,
        /// Output directory of the PR0 patches (created).
        #[arg(long)]
        out: PathBuf,
        /// Keep Python docstrings above the stubs.
        #[arg(long)]
        keep_docs: bool,
        /// Rewrite patches that exist.
        #[arg(long)]
        force: bool,
    },
    /// Build a chain directory: PR0, human PR1, statements, LLM requests, exports.
    Build {
        /// Instances, as `targets --instances` reads them: SWE-bench-style rows (JSON, JSONL or
        /// parquet) with instance_id, repo, base_commit, patch, test_patch, FAIL_TO_PASS and
        /// PASS_TO_PASS; docs/chain.md §1.
        #[arg(long)]
        instances: PathBuf,
        #[command(flatten)]
        src: Src,
        /// The chain directory to write (created; re-runs skip finished instances).
        #[arg(long)]
        out: PathBuf,
        /// Model answers (statements) to import instead of the offline statement.
        #[arg(long)]
        answers: Option<PathBuf>,
        /// Keep Python docstrings above the stubs.
        #[arg(long)]
        keep_docs: bool,
        /// Rebuild instances finished in an earlier run.
        #[arg(long)]
        force: bool,
        /// Fail instances whose rows lack a field this harness generation
        /// needs (4: version, environment_setup_commit optional; 5: image,
        /// eval_script, log_parser, eval_type). Repeatable.
        #[arg(long)]
        harness: Vec<HarnessGeneration>,
    },
    /// Keep or drop PR1s from harness reports (JSONL decisions on stdout).
    Gate {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        /// The PR1 predictions that were graded.
        #[arg(long)]
        predictions: PathBuf,
        /// Harness outputs: directories (logs/run_evaluation/...), report.json
        /// files, run_instance.log files, run-level reports (<model>.<run_id>.json).
        #[arg(long, required = true, num_args = 1..)]
        reports: Vec<PathBuf>,
        /// Where base files come from (optional): with it, a PR1 whose stack
        /// PR0 + PR1 is empty is found by composing the stack.
        #[command(flatten)]
        src: Src,
        /// Base of the stack's model name, as given to `chain stack --model`
        /// (default: the predictions' model_name_or_path). Below a report
        /// directory only `<run_id>/<NAME>__PR1/<id>/` reports are read.
        #[arg(long)]
        model: Option<String>,
        /// Read only the reports of this harness run (`--run_id`) below a
        /// report directory.
        #[arg(long)]
        run_id: Option<String>,
    },
    /// The statement writer's chat requests of a chain, as JSONL on stdout.
    Requests {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        /// neutral | openai | anthropic
        #[arg(long, default_value = "neutral")]
        format: String,
        /// Model name written into provider requests.
        #[arg(long, default_value = "")]
        model: String,
        /// max_tokens for Anthropic requests.
        #[arg(long, default_value_t = 4096)]
        max_tokens: u32,
    },
    /// Real runs on this machine: per-instance images for the real harness, stacks graded by it.
    Sandbox {
        /// Which sandbox step.
        #[command(subcommand)]
        cmd: SandboxCmd,
    },
    /// The LLM stages: batch files for engines, an online runner, result import.
    Llm {
        /// Which LLM stage.
        #[command(subcommand)]
        cmd: LlmCmd,
    },
    /// Combine PR0 + PR1 (+ PR2 ...) into one prediction per instance against base_commit.
    Stack {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        #[command(flatten)]
        src: Src,
        /// PR1: a predictions file (prefix `base:` when its patches are relative
        /// to base_commit rather than to base + PR0), or `human`.
        #[arg(long)]
        pr1: String,
        /// Later PRs in order: predictions files, or `gold` for the gold patch.
        #[arg(long = "pr2", num_args = 0..)]
        later: Vec<String>,
        /// Base of the output's model_name_or_path (default: from the last
        /// predictions file); the stage is appended: <model>__PR1 for PR1
        /// alone, <model>__HA / __AA / ... with follow-ons.
        #[arg(long)]
        model: Option<String>,
        /// Output predictions (JSONL).
        #[arg(long)]
        out: PathBuf,
        /// The output's format: `swebench` (JSONL predictions the SWE-bench
        /// harness grades) or `pro` (the JSON list of {instance_id, patch,
        /// prefix} SWE-bench Pro's evaluator reads, the prefix being the
        /// stack's model name).
        #[arg(long, default_value = "swebench")]
        format: String,
        /// Also write the Follow-On Issue dataset on top of PR1 here (JSONL).
        #[arg(long)]
        follow_on: Option<PathBuf>,
        /// Also write it in the mini-swe-agent layout under this directory
        /// (DIR/subset/test.jsonl + DIR/setup_patches/; load with
        /// `mini-extra swebench --subset DIR/subset --split test`).
        #[arg(long)]
        follow_on_mini: Option<PathBuf>,
    },
    /// Export the chain's built instances as Harbor tasks (a local dataset: `harbor run -p OUT`).
    /// SWE-bench rows need swebench 5.x's columns (`build --harness 5`); FeatBench chains are
    /// graded by FeatBench's own rules in FeatBench's images (docs/harbor.md, "FeatBench").
    Harbor {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        /// Output dataset directory (one task directory per instance and condition).
        #[arg(long)]
        out: PathBuf,
        /// Conditions: implementation (PR1, reward = the gate), follow_on_human
        /// (HA), chain (AA as one two-step task), follow_on_agent (aa2, given: the
        /// Follow-On on the agent PR1s of --agent-pr1, a fresh session). Default: the
        /// first three, and follow_on_agent too with --agent-pr1.
        #[arg(long, num_args = 1.., value_delimiter = ',')]
        conditions: Vec<String>,
        /// The agent's PR1 predictions (relative to base + PR0, as `gate` reads them)
        /// for follow_on_agent, e.g. IMPORTED/implementation/pr1.jsonl of `chain harbor-import`.
        #[arg(long, alias = "pr1-predictions")]
        agent_pr1: Option<PathBuf>,
        /// `gate`'s decisions (its JSONL output: instance_id, kept): only kept PR1s are used.
        #[arg(long)]
        kept: Option<PathBuf>,
        /// Where base files come from (optional, with --agent-pr1): each PR1 is then
        /// applied at base + PR0 and one that does not apply is a named skip.
        #[command(flatten)]
        src: Src,
        /// Name prebuilt images in each task (for singularity): `{id}` and `{role}`
        /// replaced, e.g. 'registry.example.org/codethread/{id}:{role}'; writes OUT/images.tsv.
        #[arg(long)]
        docker_image_template: Option<String>,
        /// org/name of OUT/dataset.toml (default: codethread/<OUT's name>).
        #[arg(long)]
        dataset_name: Option<String>,
        /// The image the verifiers copy swebench from (`chain sandbox harbor-grader` builds
        /// it from the package registries alone), instead of uv from ghcr.io and a CPython
        /// download from GitHub.
        #[arg(long)]
        grader_image: Option<String>,
        /// A checkout of scaleapi/SWE-bench_Pro-os: SWE-bench Pro instances are graded by
        /// their own run_scripts/<instance_id>/{run_script.sh,parser.py}, as Pro's evaluator
        /// grades them (required for Pro chains).
        #[arg(long)]
        pro_scripts: Option<PathBuf>,
    },
    /// Read a Harbor job's trials (result.json + collected diffs) into
    /// predictions and report trees that `gate` and `stack` read, and into
    /// `OUT/reproduce/{agents,reports}`, which `reproduce` reads.
    HarborImport {
        /// The job directory (`jobs/<name>`).
        #[arg(long)]
        job: PathBuf,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// model_name_or_path of the predictions (default: the trial's agent/model).
        #[arg(long)]
        model: Option<String>,
    },
}

/// Where the requests come from: a chain's statement requests, or a file
/// of provider-neutral requests (e.g. `analyze judge drift export`).
#[derive(Args, Clone)]
struct ReqSrc {
    /// A chain directory (its statement requests).
    #[arg(long)]
    chain: Option<PathBuf>,
    /// Provider-neutral requests (JSONL `{custom_id, messages, metadata}`).
    #[arg(long, conflicts_with = "chain")]
    requests: Option<PathBuf>,
}

#[derive(Args, Clone)]
struct Gen {
    /// Model name written into every request.
    #[arg(long)]
    model: String,
    /// Largest answer in tokens (max_completion_tokens in OpenAI / vLLM bodies,
    /// max_tokens in Anthropic params).
    #[arg(long, default_value_t = 4096)]
    max_tokens: u32,
    /// Sampling temperature in [0, 2], written only when given (OpenAI / vLLM;
    /// refused for anthropic-batch, whose params have no sampling field).
    #[arg(long)]
    temperature: Option<f64>,
}

impl Gen {
    fn params(&self) -> GenParams {
        GenParams {
            model: self.model.clone(),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        }
    }
}

#[derive(Subcommand)]
enum LlmCmd {
    /// Write the requests as a batch file (OpenAI Batch / vllm run-batch, or Anthropic Message Batches).
    Export {
        #[command(flatten)]
        src: ReqSrc,
        /// openai-batch | anthropic-batch
        #[arg(long)]
        format: BatchFormat,
        #[command(flatten)]
        gen: Gen,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Send the requests to an OpenAI-compatible /v1/chat/completions endpoint;
    /// answers are cached under OUT/cache, the results written to OUT/output.jsonl.
    Run {
        #[command(flatten)]
        src: ReqSrc,
        /// Base URL (e.g. http://127.0.0.1:8000/v1) or the full .../chat/completions URL.
        #[arg(long)]
        endpoint: String,
        #[command(flatten)]
        gen: Gen,
        /// Output directory (cache and output.jsonl).
        #[arg(long)]
        out: PathBuf,
        /// Requests in flight at most.
        #[arg(long, default_value_t = 8)]
        concurrency: usize,
        /// Timeout of one request, in seconds.
        #[arg(long, default_value_t = 600.0)]
        timeout: f64,
        /// Attempts per request.
        #[arg(long, default_value_t = 6)]
        max_attempts: u32,
        /// Stop after this many HTTP requests (a budget; re-run to go on).
        #[arg(long)]
        max_requests: Option<usize>,
        /// Environment variable holding the API key (never written anywhere).
        #[arg(long)]
        api_key_env: Option<String>,
    },
    /// Read an engine's result file (OpenAI / vLLM batch output, Anthropic results,
    /// `llm run` output, plain answers): failures per instance on stderr, answers as
    /// `{custom_id, content}` JSONL for `chain build --answers`.
    Import {
        #[command(flatten)]
        src: ReqSrc,
        /// The result file.
        #[arg(long)]
        output: PathBuf,
        /// Where to write the answers (default: stdout).
        #[arg(long)]
        answers_out: Option<PathBuf>,
    },
}

/// The requests of a source, and the number of unusable ones (each on stderr).
fn requests_of(
    src: &ReqSrc,
    lim: SourceLimits,
) -> Result<(Vec<LlmRequest>, usize), Box<dyn std::error::Error>> {
    match (&src.chain, &src.requests) {
        (Some(c), None) => {
            let mut failed = 0;
            let mut out = Vec::new();
            for (_, r) in codethread::chain::chain_requests(&Chain::open(c, lim)?) {
                match r {
                    Ok(r) => out.push(r),
                    Err(e) => {
                        failed += 1;
                        eprintln!("error: {e}");
                    }
                }
            }
            Ok((out, failed))
        }
        (None, Some(p)) => {
            let l = codethread::llm::load_requests(p, lim)?;
            for w in &l.warnings {
                eprintln!("warning: {w}");
            }
            for e in &l.errors {
                eprintln!("unusable request: {e}");
            }
            Ok((l.items, l.errors.len()))
        }
        _ => Err("give one of --chain, --requests".into()),
    }
}

fn write_lines(
    out: Option<&Path>,
    lines: &[serde_json::Value],
) -> Result<(), Box<dyn std::error::Error>> {
    let mut text = String::new();
    for l in lines {
        text.push_str(&serde_json::to_string(l)?);
        text.push('\n');
    }
    match out {
        Some(p) => codethread::lang::io::write_atomic(p, text.as_bytes())?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

fn llm(cmd: LlmCmd, lim: SourceLimits) -> Result<ExitOutcome, Box<dyn std::error::Error>> {
    match cmd {
        LlmCmd::Export {
            src,
            format,
            gen,
            out,
        } => {
            gen.params().check(format)?;
            let (reqs, mut failed) = requests_of(&src, lim)?;
            let mut lines = Vec::new();
            for r in &reqs {
                match batch_line(format, r, &gen.params()) {
                    Ok(l) => lines.push(l),
                    Err(e) => {
                        failed += 1;
                        eprintln!("error: {e}");
                    }
                }
            }
            write_lines(out.as_deref(), &lines)?;
            Ok(from_counts(lines.len(), failed))
        }
        LlmCmd::Run {
            src,
            endpoint,
            gen,
            out,
            concurrency,
            timeout,
            max_attempts,
            max_requests,
            api_key_env,
        } => {
            gen.params().check(BatchFormat::OpenaiBatch)?;
            let timeout = llm::seconds_option("--timeout", timeout)?;
            let (reqs, failed) = requests_of(&src, lim)?;
            let jobs = codethread::llm::jobs(&reqs, &gen.params());
            let cache = Cache::open(&out.join("cache"))?.with_limits(lim);
            let opts = RunnerOptions::default()
                .endpoint(endpoint)
                .concurrency(concurrency)
                .timeout(timeout)
                .max_attempts(max_attempts)
                .max_requests(max_requests)
                .api_key_env(api_key_env);
            let b = bar(jobs.len());
            let s = llm::run(&jobs, &opts, &cache, &mut |p| match p {
                Progress::Done {
                    done, custom_id, ..
                } => {
                    if let Some(b) = &b {
                        b.set_position(*done as u64);
                        b.set_message(printable_id(custom_id));
                    }
                }
                Progress::Retry {
                    custom_id,
                    attempt,
                    wait,
                    reason,
                } => {
                    let m = format!(
                        "retry {} after attempt {attempt} ({reason}) in {wait:.1?}",
                        printable_id(custom_id)
                    );
                    match &b {
                        Some(b) => b.println(m),
                        None => eprintln!("{m}"),
                    }
                }
            })?;
            if let Some(b) = &b {
                b.finish_and_clear();
            }
            let lines = llm::output_lines(&jobs, &cache, &s);
            write_lines(Some(&out.join("output.jsonl")), &lines)?;
            for (id, o) in &s.outcomes {
                if let JobOutcome::Failed {
                    attempts,
                    code,
                    message,
                } = o
                {
                    eprintln!(
                        "failed: {}: {code} after {attempts} attempts: {message}",
                        printable_id(id)
                    );
                }
            }
            let (cached, answered, bad, not_sent) = s.counts();
            eprintln!(
                "answered {answered}, from the cache {cached}, failed {bad}, not sent {not_sent}; {} HTTP requests in {:.1?}",
                s.http_requests, s.elapsed
            );
            Ok(from_counts(cached + answered, failed + bad + not_sent))
        }
        LlmCmd::Import {
            src,
            output,
            answers_out,
        } => {
            let expected: Option<Vec<String>> = if src.chain.is_some() || src.requests.is_some() {
                Some(
                    requests_of(&src, lim)?
                        .0
                        .into_iter()
                        .map(|r| r.custom_id)
                        .collect(),
                )
            } else {
                None
            };
            let o = read_batch_output(&output, expected.as_deref(), lim)?;
            for w in &o.warnings {
                eprintln!("warning: {w}");
            }
            for f in &o.failures {
                eprintln!(
                    "no answer: {}:{}: {}: {} {}",
                    output.display(),
                    f.line,
                    printable_id(&f.instance_id),
                    printable_id(&f.kind),
                    printable_id(&f.message)
                );
            }
            for e in &o.errors {
                eprintln!("unreadable: {e}");
            }
            for id in &o.unknown {
                eprintln!("unknown custom_id: {} was not requested", printable_id(id));
            }
            for id in &o.missing {
                eprintln!(
                    "missing: {} has no line in {}",
                    printable_id(id),
                    output.display()
                );
            }
            let lines: Vec<serde_json::Value> = o
                .answers
                .iter()
                .map(|a| serde_json::json!({"custom_id": a.instance_id, "content": a.content}))
                .collect();
            write_lines(answers_out.as_deref(), &lines)?;
            let failed: std::collections::BTreeSet<&str> = o
                .failures
                .iter()
                .map(|f| f.instance_id.as_str())
                .chain(o.unknown.iter().map(String::as_str))
                .chain(o.missing.iter().map(String::as_str))
                .collect();
            Ok(from_counts(o.answers.len(), failed.len() + o.errors.len()))
        }
    }
}

fn bar(total: usize) -> Option<indicatif::ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(total as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    })
}

fn progress(b: &Option<indicatif::ProgressBar>) -> impl FnMut(usize, usize, &str) + '_ {
    move |done, _total, id| {
        if let Some(b) = b {
            b.set_position(done as u64);
            b.set_message(id.to_string());
        }
    }
}

/// Instances of a file and the number of rows that could not be used (each
/// reported on stderr).
/// `hint` (`--lang-hint`) fills the `language` of instances without one.
fn instances(
    path: &Path,
    hint: Option<codethread::lang::Lang>,
    lim: SourceLimits,
) -> Result<(Vec<codethread::bench::Instance>, usize), ChainError> {
    let mut l = load_instances(path, lim)?;
    if let Some(hint) = hint {
        for inst in l.items.iter_mut().filter(|i| i.language.is_none()) {
            inst.language = Some(hint.name().to_string());
        }
    }
    for w in &l.warnings {
        eprintln!("warning: {w}");
    }
    for e in &l.errors {
        eprintln!("skipped row: {e}");
    }
    Ok((l.items, l.errors.len()))
}

fn parse_lang(s: &str) -> Result<codethread::lang::Lang, String> {
    codethread::lang::Lang::from_name(s).ok_or_else(|| format!("unknown language `{s}`"))
}

fn run(cli: Cli) -> Result<ExitOutcome, Box<dyn std::error::Error>> {
    let lim = SourceLimits::with_max_file_bytes(cli.max_file_bytes);
    let hint = cli.lang_hint;
    let mut stdout = std::io::stdout().lock();
    match cli.cmd {
        Cmd::Targets { instances: i, src } => {
            let (insts, mut failed) = instances(&i, hint, lim)?;
            let spec = src.spec()?;
            let b = bar(insts.len());
            let res = chain::targets_batch(&insts, spec.open(lim).as_mut(), &mut progress(&b));
            let mut ok = 0;
            for r in res {
                match r {
                    Ok(line) => {
                        ok += 1;
                        writeln!(stdout, "{}", serde_json::to_string(&line)?)?
                    }
                    Err(e) => {
                        failed += 1;
                        eprintln!("error: {e}");
                    }
                }
            }
            Ok(from_counts(ok, failed))
        }
        Cmd::Pr0 {
            instances: i,
            src,
            out,
            keep_docs,
            force,
        } => {
            let (insts, mut failed) = instances(&i, hint, lim)?;
            let spec = src.spec()?;
            let b = bar(insts.len());
            let res = chain::pr0_batch(
                &insts,
                spec.open(lim).as_mut(),
                &out,
                &Pr0Options::default().keep_docs(keep_docs),
                force,
                &mut progress(&b),
            );
            let mut ok = 0;
            for (id, r) in res {
                match r {
                    Ok(s) => {
                        ok += 1;
                        writeln!(
                            stdout,
                            "{}",
                            serde_json::json!({"instance_id": id, "result": s})
                        )?
                    }
                    Err(e) => {
                        failed += 1;
                        eprintln!("error: {e}");
                    }
                }
            }
            Ok(from_counts(ok, failed))
        }
        Cmd::Build {
            instances: i,
            src,
            out,
            answers,
            keep_docs,
            force,
            harness,
        } => {
            let (insts, mut failed) = instances(&i, hint, lim)?;
            let spec = src.spec()?;
            let mut ans = BTreeMap::new();
            if let Some(a) = answers {
                let l = import_answers(&a, lim)?;
                for w in &l.warnings {
                    eprintln!("warning: {w}");
                }
                for e in &l.errors {
                    eprintln!("unusable answer: {e}");
                }
                failed += l.errors.len();
                ans = l
                    .items
                    .into_iter()
                    .map(|a| (a.instance_id, a.content))
                    .collect();
            }
            let opts = chain::BuildOptions::default()
                .out(out)
                .pr0(Pr0Options::default().keep_docs(keep_docs))
                .answers(ans)
                .force(force)
                .harness(harness)
                .limits(lim);
            let b = bar(insts.len());
            let s = codethread::scaffold::build(
                &insts,
                spec.open(lim).as_mut(),
                &opts,
                &mut progress(&b),
            )?;
            for (id, why) in &s.rebuilt {
                eprintln!("rebuilt {id}: {why}");
            }
            for w in &s.warnings {
                eprintln!("warning: {w}");
            }
            for o in &s.outcomes {
                match &o.status {
                    chain::BuildStatus::Failed { error } => eprintln!("failed: {error}"),
                    // Imported statements with missing sections or leaks: flagged, never silent.
                    chain::BuildStatus::Built {
                        statement_warnings, ..
                    } if !o.cached => {
                        for w in statement_warnings {
                            eprintln!("statement flagged: {}: {w}", o.instance_id);
                        }
                    }
                    _ => {}
                }
            }
            for id in &s.unused_answers {
                eprintln!("unused answer: {id} is not an instance of this build");
            }
            failed += s.failed + s.unused_answers.len();
            writeln!(
                stdout,
                "built {} filtered {} failed {} (from earlier runs: {}, rebuilt: {}, answers imported: {})",
                s.built,
                s.filtered,
                s.failed,
                s.cached,
                s.rebuilt.len(),
                s.answers_imported
            )?;
            Ok(from_counts(s.built + s.filtered, failed))
        }
        Cmd::Gate {
            chain,
            predictions,
            reports,
            src,
            model,
            run_id,
        } => {
            let chain = Chain::open(&chain, lim)?;
            let preds = load_predictions(&predictions, lim)?;
            for w in &preds.warnings {
                eprintln!("warning: {w}");
            }
            // Predictions that cannot be loaded are named and counted, never dropped silently.
            for e in &preds.errors {
                eprintln!("unloadable prediction: {e}");
            }
            let mut source = if src.given() {
                Some(src.spec()?.open(lim))
            } else {
                None
            };
            let run = chain::gate_run(
                &chain,
                &preds.items,
                &reports,
                &chain::GateRunOptions::default()
                    .model(model)
                    .run_id(run_id)
                    .limits(lim),
                source
                    .as_deref_mut()
                    .map(|s| s as &mut dyn codethread::chain::SourceReader),
            );
            for w in &run.warnings {
                eprintln!("warning: {w}");
            }
            for p in &run.problems {
                eprintln!("{p}");
            }
            let failed = preds.errors.len() + run.problems.len();
            let d = run.decisions;
            for x in &d {
                // One JSON shape for a decision, as `reproduce`'s gate files.
                writeln!(stdout, "{}", serde_json::to_string(x)?)?;
            }
            eprintln!(
                "kept {} of {} ({} unloadable or unreadable inputs)",
                d.iter().filter(|x| x.kept).count(),
                d.len(),
                failed
            );
            Ok(from_counts(d.len(), failed))
        }
        Cmd::Requests {
            chain,
            format,
            model,
            max_tokens,
        } => {
            let f = match format.as_str() {
                "neutral" => chain::RequestFormat::Neutral,
                "openai" => chain::RequestFormat::Openai,
                "anthropic" => chain::RequestFormat::Anthropic,
                other => {
                    return Err(
                        format!("unknown --format {other:?} (neutral, openai, anthropic)").into(),
                    )
                }
            };
            let (mut ok, mut failed) = (0, 0);
            for (_, r) in chain::llm_requests(&Chain::open(&chain, lim)?, f, &model, max_tokens) {
                match r {
                    Ok(r) => {
                        ok += 1;
                        writeln!(stdout, "{}", serde_json::to_string(&r)?)?;
                    }
                    Err(e) => {
                        failed += 1;
                        eprintln!("error: {e}");
                    }
                }
            }
            Ok(from_counts(ok, failed))
        }
        Cmd::Llm { cmd } => llm(cmd, lim),
        Cmd::Sandbox { cmd } => sandbox(cmd),
        Cmd::Harbor {
            chain,
            out,
            conditions,
            docker_image_template,
            dataset_name,
            grader_image,
            agent_pr1,
            kept,
            src,
            pro_scripts,
        } => {
            let mut opts = codethread::scaffold::harbor::HarborExportOptions::default()
                .limits(lim)
                .docker_image_template(docker_image_template)
                .dataset_name(dataset_name)
                .grader_image(grader_image)
                .pro_scripts(pro_scripts);
            let mut unloadable = 0;
            if let Some(path) = agent_pr1 {
                let preds = codethread::bench::load_patch_predictions(&path, lim)?;
                for w in &preds.warnings {
                    eprintln!("warning: {w}");
                }
                for e in &preds.errors {
                    eprintln!("unloadable prediction: {e}");
                }
                unloadable += preds.errors.len();
                let kept = match kept {
                    None => None,
                    Some(k) => Some(gate_kept(&k, lim)?),
                };
                let mut given = codethread::scaffold::harbor::AgentPr1 {
                    source: path,
                    patches: preds
                        .items
                        .into_iter()
                        .map(|p| (p.instance_id, p.model_patch))
                        .collect(),
                    kept,
                    ..Default::default()
                };
                if src.given() {
                    let mut source = src.spec()?.open(lim);
                    let n = given.check_applies(&Chain::open(&chain, lim)?, source.as_mut());
                    eprintln!(
                        "agent PR1s: {n} checked at base + PR0, {} do not apply",
                        given.unusable.len()
                    );
                }
                opts.agent_pr1 = Some(given);
                if conditions.is_empty() {
                    opts.conditions = codethread::scaffold::harbor::HarborCondition::EVERY.to_vec();
                }
            } else if kept.is_some() {
                return Err("--kept needs --agent-pr1".into());
            }
            if !conditions.is_empty() {
                opts.conditions = conditions
                    .iter()
                    .map(|c| c.parse())
                    .collect::<Result<Vec<_>, String>>()?;
            }
            let r = codethread::scaffold::harbor::export_harbor(&chain, &out, &opts)?;
            for e in &r.errors {
                eprintln!("not exported: {e}");
            }
            for k in &r.skipped {
                eprintln!("skipped: {}.{}: {}", k.instance_id, k.condition, k.reason);
            }
            let mut per: std::collections::BTreeMap<&str, usize> = Default::default();
            for t in &r.tasks {
                *per.entry(t.1.name()).or_default() += 1;
            }
            let per: Vec<String> = per.iter().map(|(c, n)| format!("{c} {n}")).collect();
            writeln!(
                stdout,
                "wrote {} Harbor tasks under {} ({}; dataset.toml pins {}, {} prebuilt image names), {} skipped, {} instances failed",
                r.tasks.len(),
                out.display(),
                per.join(", "),
                r.pinned.len(),
                r.images.len(),
                r.skipped.len(),
                r.errors.len()
            )?;
            Ok(from_counts(r.tasks.len(), r.errors.len() + unloadable))
        }
        Cmd::HarborImport { job, out, model } => {
            let r =
                codethread::scaffold::harbor::import_harbor_job(&job, &out, model.as_deref(), lim)?;
            let mut bad = 0;
            for o in r.problems() {
                bad += 1;
                eprintln!(
                    "{} {}{}: {}: {}",
                    o.trial,
                    o.instance_id.as_deref().unwrap_or("?"),
                    o.step
                        .as_deref()
                        .map(|s| format!(" step {s}"))
                        .unwrap_or_default(),
                    o.outcome,
                    o.message.as_deref().unwrap_or("")
                );
            }
            writeln!(
                stdout,
                "imported {} trial steps ({} not graded cleanly) into {}",
                r.outcomes.len(),
                bad,
                out.display()
            )?;
            Ok(from_counts(r.outcomes.len() - bad, bad))
        }
        Cmd::Stack {
            chain,
            src,
            pr1,
            later,
            model,
            out,
            format,
            follow_on,
            follow_on_mini,
        } => {
            let chain = Chain::open(&chain, lim)?;
            let specs: Vec<chain::LayerSpec> = std::iter::once(&pr1)
                .chain(later.iter())
                .map(|a| a.parse().unwrap_or(chain::LayerSpec::Human))
                .collect();
            let mut source = src.spec()?.open(lim);
            let b = bar(chain.instances.len());
            let run = chain::stack_run(
                &chain,
                &specs,
                model,
                source.as_mut(),
                lim,
                &mut progress(&b),
            )?;
            for w in &run.warnings {
                eprintln!("warning: {w}");
            }
            for p in &run.problems {
                eprintln!("{p}");
            }
            let unloadable = run.problems.len();
            let (model, layers, preds, outcomes) =
                (run.model, run.layers, run.predictions, run.outcomes);
            match format.as_str() {
                "swebench" => write_jsonl(&out, &preds)?,
                "pro" => {
                    let patches: Vec<(String, String)> = preds
                        .iter()
                        .map(|p| {
                            (
                                p.instance_id.clone(),
                                String::from_utf8_lossy(&p.model_patch).into_owned(),
                            )
                        })
                        .collect();
                    codethread::lang::io::write_atomic(
                        &out,
                        codethread::bench::pro::patches_file(&patches, &model).as_bytes(),
                    )?;
                }
                other => return Err(format!("unknown --format {other:?} (swebench, pro)").into()),
            }
            if follow_on.is_some() || follow_on_mini.is_some() {
                if let Some(first) = layers.first() {
                    let (rows, fo_outcomes) =
                        chain::follow_on_rows(&chain, first, &model, source.as_mut());
                    // A stack that failed is reported below; a setup that
                    // could not be sealed is reported here.
                    for o in &fo_outcomes {
                        if let Some(e) = &o.error {
                            if !outcomes
                                .iter()
                                .any(|s| s.instance_id == o.instance_id && s.error.is_some())
                            {
                                eprintln!("no follow-on row: {e}");
                            }
                        }
                    }
                    if let Some(fo) = follow_on {
                        let plain: Vec<_> = rows.iter().map(|r| &r.row).collect();
                        write_jsonl(&fo, &plain)?;
                    }
                    if let Some(dir) = follow_on_mini {
                        // The agent's sandbox gets the sealed setup only.
                        let with_patches: Vec<_> = rows
                            .iter()
                            .map(|r| (r.row.clone(), r.sealed_setup.clone()))
                            .collect();
                        write_mini_swe_agent_subset(&dir, &with_patches)?;
                    }
                }
            }
            for o in &outcomes {
                for w in &o.warnings {
                    eprintln!("warning: {w}");
                }
            }
            let failed: Vec<_> = outcomes.iter().filter_map(|o| o.error.as_ref()).collect();
            for e in &failed {
                eprintln!("not stacked: {e}");
            }
            writeln!(
                stdout,
                "stacked {} predictions, {} failed, {} unloadable or unknown predictions",
                preds.len(),
                failed.len(),
                unloadable
            )?;
            Ok(from_counts(preds.len(), failed.len() + unloadable))
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(o) => ExitCode::from(o),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(ExitOutcome::Fatal)
        }
    }
}

// Parsed once per process: the size of the largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum SandboxCmd {
    /// Build (or reuse) the image of every built instance: the repository at the base commit in
    /// /testbed, the environment per swebench's specification, named as the row's `image`
    /// field. Installs and starts docker when absent (root); docs/sandbox.md.
    Images {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        #[command(flatten)]
        src: Src,
        /// Full-history clones (owner__name) for requirement files at the
        /// environment_setup_commit and release tags a depth-1 source lacks.
        #[arg(long)]
        history: Option<PathBuf>,
        /// A specification table written earlier (<work>/swebench_specs.json).
        #[arg(long, conflicts_with = "specs_python")]
        specs: Option<PathBuf>,
        /// A Python that imports swebench < 5 (its environment specifications).
        #[arg(long)]
        specs_python: Option<PathBuf>,
        /// A PYTHONPATH entry holding that swebench (pip install --no-deps --target DIR swebench==4.1.0).
        #[arg(long)]
        specs_pythonpath: Option<PathBuf>,
        /// Only this instance (repeatable).
        #[arg(long = "instance")]
        instances: Vec<String>,
        /// Working directory: build logs, images.json (default CHAIN/sandbox).
        #[arg(long)]
        work: Option<PathBuf>,
        /// Rebuild images whose recipe label matches.
        #[arg(long)]
        force: bool,
        /// Never install packages with apt-get.
        #[arg(long)]
        no_install: bool,
        /// Never start dockerd.
        #[arg(long)]
        no_start: bool,
        /// dockerd's storage driver when it is started here: auto, overlay2, vfs.
        #[arg(long, default_value = "auto")]
        storage_driver: String,
        /// Leave the default bridge's network open to graded containers.
        #[arg(long)]
        no_lockdown: bool,
        /// The docker client binary.
        #[arg(long)]
        docker: Option<PathBuf>,
        /// The Debian mirror for debootstrap (default: the one apt uses).
        #[arg(long)]
        mirror: Option<String>,
    },
    /// Check that agents' images hold nothing of the code they restore: each image of an
    /// agent-side subset started without network, every file, git object and process
    /// environment searched for the lines its setup removed. Exit 1 when the repository's own
    /// code is found (work tree, git, processes, installed copies); lines other code shares
    /// with it are counted and kept in --out.
    Leak {
        /// The chain directory (from `build`).
        #[arg(long)]
        chain: PathBuf,
        #[command(flatten)]
        src: Src,
        /// What names the images (default CHAIN/exports/mini-swe-agent/implementation): an
        /// agent-side subset (its images_subset/test.jsonl; build them with its
        /// build_images.sh), a SWE-agent batch (SUBSET/swe-agent: its instances.jsonl), or
        /// either file.
        #[arg(long)]
        subset: Option<PathBuf>,
        /// Setup diffs relative to base as predictions (a `chain stack` output, for a
        /// Follow-On on agent PR1s); default: each instance's PR0.
        #[arg(long)]
        setups: Option<PathBuf>,
        /// Shortest forbidden line (bytes, trimmed).
        #[arg(long, default_value_t = 8)]
        min_len: usize,
        /// Write the full report (JSON) here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// The docker client binary.
        #[arg(long)]
        docker: Option<PathBuf>,
    },
    /// Build the SWE-agent images of an agent-side subset (its swe-agent/build_images.sh, the
    /// swe-rex runtime made from this machine's Debian bookworm base image) and the network
    /// its rows name (no way out); then `sweagent run-batch --instances.type expert_file
    /// --instances.path SUBSET/swe-agent/instances.jsonl`.
    SweAgent {
        /// The subset (e.g. CHAIN/exports/mini-swe-agent/implementation) or its swe-agent
        /// directory.
        #[arg(long)]
        subset: PathBuf,
        /// Do not make the agents' network (it needs root and iptables).
        #[arg(long)]
        no_network: bool,
        /// The docker client binary.
        #[arg(long)]
        docker: Option<PathBuf>,
    },
    /// What Harbor's docker environment needs here: Docker Compose v2 (installed from Debian
    /// trixie's package when missing) and the grader image the verifiers copy swebench from
    /// (built from this machine's Debian bookworm base image); prints the image for
    /// `chain harbor --grader-image`.
    HarborGrader {
        /// Working directory (logs, the build context).
        #[arg(long, default_value = "codethread-sandbox-work")]
        work: PathBuf,
        /// The docker client binary.
        #[arg(long)]
        docker: Option<PathBuf>,
    },
    /// Grade a predictions file (a stack, an agent's preds.json, or `gold`) with swebench's
    /// run_evaluation in the images; its logs tree is kept for `chain gate --reports` and
    /// `reproduce`.
    Grade {
        /// The chain directory (from `build`): its rows are the dataset.
        #[arg(long)]
        chain: PathBuf,
        /// Predictions file, or `gold`.
        #[arg(long)]
        predictions: PathBuf,
        /// The harness run id.
        #[arg(long)]
        run_id: String,
        /// The harness's working directory (default CHAIN/sandbox/grading).
        #[arg(long)]
        out: Option<PathBuf>,
        /// A Python with swebench >= 5 (default: $CODETHREAD_PYTHON, else python3).
        #[arg(long)]
        python: Option<PathBuf>,
        /// Instances graded at once.
        #[arg(long, default_value_t = 2)]
        max_workers: usize,
        /// Seconds one instance's tests may run.
        #[arg(long, default_value_t = 1800)]
        timeout: u64,
    },
}

fn sandbox(cmd: SandboxCmd) -> Result<ExitOutcome, Box<dyn std::error::Error>> {
    use codethread::sandbox::{self as sb, Event};
    let bar = bar(0);
    let mut on = |e: Event<'_>| match e {
        Event::Step(s) => match &bar {
            Some(b) => b.println(s),
            None => eprintln!("{s}"),
        },
        Event::Progress { done, total, id } => {
            if let Some(b) = &bar {
                b.set_length(total as u64);
                b.set_position(done as u64);
                b.set_message(id.to_string());
            }
        }
        Event::Image {
            id,
            image,
            built,
            seconds,
        } => {
            let line = if built {
                format!("{id}: built {image} in {seconds:.1}s")
            } else {
                format!("{id}: {image} (cached)")
            };
            match &bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        Event::Unbuildable(u) => eprintln!("unbuildable {}: {}", u.instance_id, u.reason),
        Event::Failed(id, why) => eprintln!("failed {id}: {why}"),
        _ => {}
    };
    match cmd {
        SandboxCmd::Images {
            chain,
            src,
            history,
            specs,
            specs_python,
            specs_pythonpath,
            instances,
            work,
            force,
            no_install,
            no_start,
            storage_driver,
            no_lockdown,
            docker,
            mirror,
        } => {
            let specs = match (specs, specs_python) {
                (Some(f), _) => sb::SpecsFrom::File(f),
                (None, Some(python)) => sb::SpecsFrom::Python {
                    python,
                    pythonpath: specs_pythonpath,
                },
                (None, None) => return Err("give --specs FILE or --specs-python PY".into()),
            };
            let mut o = sb::ImagesOptions::new(chain, src.spec()?, specs);
            o.history = history;
            o.only = (!instances.is_empty()).then(|| instances.into_iter().collect());
            o.work = work;
            o.force = force;
            o.runtime.install = !no_install;
            o.runtime.start_daemon = !no_start;
            o.runtime.storage_driver =
                sb::StorageDriver::from_name(&storage_driver).ok_or_else(|| {
                    format!("--storage-driver {storage_driver}: auto, overlay2 or vfs")
                })?;
            o.runtime.lockdown = !no_lockdown;
            o.runtime.docker = docker;
            o.runtime.mirror = mirror;
            o.runtime.log_dir = o.work_dir().join("logs");
            let r = sb::build_images(&o, &mut on)?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            let built = r.images.iter().filter(|i| i.status == "built").count();
            println!(
                "{} images ({built} built, {} cached), {} unbuildable, {} failed; report {}",
                r.images.len(),
                r.images.len() - built,
                r.unbuildable.len(),
                r.failed.len(),
                o.work_dir().join("images.json").display()
            );
            Ok(from_counts(
                r.images.len(),
                r.unbuildable.len() + r.failed.len(),
            ))
        }
        SandboxCmd::Leak {
            chain,
            src,
            subset,
            setups,
            min_len,
            out,
            docker,
        } => {
            let mut o = sb::leak::LeakOptions::new(chain, src.spec()?);
            o.subset = subset;
            o.setups = setups;
            o.min_len = min_len;
            o.runtime.docker = docker;
            let r = sb::leak::check_chain(&o, &mut on)?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            for (id, c) in &r.checked {
                println!(
                    "{id}: {} forbidden lines, {} files ({} MB), {} git stores: {} hits of its own code, {} lines shared with other code",
                    c.forbidden,
                    c.report.files,
                    c.report.bytes >> 20,
                    c.report.git_stores,
                    c.own.len(),
                    c.report.hits.len() - c.own.len()
                );
                for h in &c.own {
                    println!("  LEAK {} {}", h.place, h.line);
                }
            }
            if let Some(p) = out {
                codethread::lang::io::write_atomic(&p, &serde_json::to_vec_pretty(&r)?)?;
            }
            // A leak is a finding (exit 1), an image that could not be checked a failure.
            let checked = from_counts(r.checked.len(), r.failed.len());
            Ok(if r.own_hits() > 0 {
                ExitOutcome::Partial.worst(checked)
            } else {
                checked
            })
        }
        SandboxCmd::SweAgent {
            subset,
            no_network,
            docker,
        } => {
            let mut o = sb::SweAgentOptions::new(subset);
            o.network = !no_network;
            o.runtime.docker = docker;
            let r = sb::build_swe_agent_images(&o, &mut on)?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            println!(
                "chain sandbox: {} SWE-agent images in {:.1}s (runtime from {}); network: {}; rows {}",
                r.images.len(),
                r.seconds,
                r.debian_image,
                r.network.as_deref().unwrap_or("not set up"),
                r.batch.join("instances.jsonl").display()
            );
            Ok(ExitOutcome::Success)
        }
        SandboxCmd::HarborGrader { work, docker } => {
            let mut rt = sb::RuntimeOptions::default();
            rt.docker = docker;
            let g = sb::agents::build_harbor_grader(&rt, &work, &mut on)?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            eprintln!(
                "chain sandbox: grader {} ({}); {}",
                g.image,
                if g.built { "built" } else { "cached" },
                g.compose
            );
            println!("{}", g.image);
            Ok(ExitOutcome::Success)
        }
        SandboxCmd::Grade {
            chain,
            predictions,
            run_id,
            out,
            python,
            max_workers,
            timeout,
        } => {
            let python = python
                .or_else(|| std::env::var_os("CODETHREAD_PYTHON").map(PathBuf::from))
                .unwrap_or_else(|| PathBuf::from("python3"));
            let mut o = sb::GradeOptions::new(chain, predictions, run_id, python);
            o.out = out;
            o.max_workers = max_workers;
            o.timeout_secs = timeout;
            o.runtime.log_dir = o.out_dir().join("runtime");
            let r = sb::grade(&o, &mut on)?;
            if let Some(b) = &bar {
                b.finish_and_clear();
            }
            println!(
                "resolved {} unresolved {} errors {} (empty stacks graded unpatched: {}); report {}; logs {}",
                r.resolved.len(),
                r.unresolved.len(),
                r.errors.len(),
                r.empty_stacks.len(),
                r.report.display(),
                r.logs.display()
            );
            Ok(from_counts(
                r.resolved.len() + r.unresolved.len(),
                r.errors.len(),
            ))
        }
    }
}

/// The instances `chain gate` kept (`{"instance_id", "kept": true}` rows of
/// its output); a line that is not such a row is an error naming file and line.
fn gate_kept(
    path: &std::path::Path,
    lim: codethread::lang::io::SourceLimits,
) -> Result<std::collections::BTreeSet<String>, Box<dyn std::error::Error>> {
    let text = String::from_utf8(codethread::lang::io::read_regular_nofollow(
        path,
        lim.max_file_bytes,
    )?)
    .map_err(|_| format!("{}: not UTF-8", path.display()))?;
    let mut kept = std::collections::BTreeSet::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
        let (Some(id), Some(k)) = (
            v.get("instance_id").and_then(|x| x.as_str()),
            v.get("kept").and_then(|x| x.as_bool()),
        ) else {
            return Err(format!(
                "{} line {}: not a gate decision (instance_id, kept)",
                path.display(),
                n + 1
            )
            .into());
        };
        if k {
            kept.insert(id.to_string());
        }
    }
    Ok(kept)
}
