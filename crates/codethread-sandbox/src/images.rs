//! Per-instance images for the real harness: the repository at the base commit in `/testbed`
//! (a depth-1 clone, so the eval script's `git checkout <base> -- <tests>` works and nothing
//! after the base commit is in it), the instance's environment installed from the package
//! registries per SWE-bench's specification, and the activation the eval scripts expect; each
//! image named as the row's `image` field, so swebench's `run_evaluation`, called by anyone,
//! uses it unmodified. Images are cached: each carries a label with the hash of everything it
//! was built from, and an image whose label matches is reused.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use codethread_bench::Instance;
use codethread_chain::{Chain, GitSource, SourceSpec, TestbedDir};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::cmd;
use crate::docker::{run_from_context, RECIPE_LABEL};
use crate::error::SandboxError;
use crate::recipe::{files_id, sh_quote, ENV_FILES, REPO_FILES};
use crate::runtime::{ensure_rootfs, ensure_runtime, Runtime, RuntimeOptions};
use crate::spec::{
    history_repo, install_steps, plan_env, uses_setuptools_scm, EnvPlan, InstancePlan, SpecTable,
    Unbuildable,
};
use crate::Event;

/// Where the environment specifications come from.
#[derive(Debug, Clone)]
pub enum SpecsFrom {
    /// A table written earlier (`<work>/swebench_specs.json`, or `recipe/specs.py`'s output).
    File(PathBuf),
    /// Ask swebench < 5 through this Python, with this extra `PYTHONPATH` entry.
    Python {
        /// The interpreter.
        python: PathBuf,
        /// A directory holding the `swebench` package (e.g. `pip install --no-deps --target
        /// DIR swebench==4.1.0`).
        pythonpath: Option<PathBuf>,
    },
}

/// What [`build_images`] builds.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ImagesOptions {
    /// The chain directory (`chain build`'s output): its instances get images.
    pub chain: PathBuf,
    /// Where each repository comes from (a git source: `--testbeds`, `--repo` or `--repos`).
    pub source: SourceSpec,
    /// Full-history clones (`owner__name`, ...) for what a depth-1 source lacks: requirement
    /// files at the environment-setup commit, the release tag before the base commit.
    pub history: Option<PathBuf>,
    /// The environment specifications.
    pub specs: SpecsFrom,
    /// Only these instances (default: every built instance of the chain).
    pub only: Option<BTreeSet<String>>,
    /// Working directory: build logs, `images.json`, `swebench_specs.json` (default
    /// `<chain>/sandbox`).
    pub work: Option<PathBuf>,
    /// Rebuild images whose label matches.
    pub force: bool,
    /// The runtime.
    pub runtime: RuntimeOptions,
}

impl ImagesOptions {
    /// Images for the built instances of `chain`, repositories from `source`.
    pub fn new(chain: impl Into<PathBuf>, source: SourceSpec, specs: SpecsFrom) -> Self {
        ImagesOptions {
            chain: chain.into(),
            source,
            history: None,
            specs,
            only: None,
            work: None,
            force: false,
            runtime: RuntimeOptions::default(),
        }
    }

    /// The working directory.
    pub fn work_dir(&self) -> PathBuf {
        self.work
            .clone()
            .unwrap_or_else(|| self.chain.join("sandbox"))
    }
}

/// One instance's image.
#[derive(Debug, Clone, Serialize)]
pub struct ImageOutcome {
    /// The instance.
    pub instance_id: String,
    /// The image (the row's `image` field).
    pub image: String,
    /// The environment image it is built on.
    pub env_image: String,
    /// `built` or `cached`.
    pub status: &'static str,
    /// Seconds spent building it (0 when cached).
    pub seconds: f64,
    /// The plan it was built from.
    pub plan: InstancePlan,
}

/// What [`build_images`] did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImagesReport {
    /// `docker info` facts.
    pub runtime: String,
    /// The swebench version the specifications came from.
    pub swebench_specs: String,
    /// Images that exist now.
    pub images: Vec<ImageOutcome>,
    /// Instances this machine cannot build, with the reason.
    pub unbuildable: Vec<Unbuildable>,
    /// Instances whose build failed, with the error (naming the build log).
    pub failed: Vec<(String, String)>,
}

/// Build (or reuse) the image of every built instance of the chain.
pub fn build_images(
    opts: &ImagesOptions,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<ImagesReport, SandboxError> {
    let chain = Chain::open(&opts.chain, codethread_lang::io::SourceLimits::default())?;
    let work = opts.work_dir();
    std::fs::create_dir_all(&work).map_err(|e| SandboxError::io(&work, e))?;
    let table = match &opts.specs {
        SpecsFrom::File(p) => SpecTable::from_file(p)?,
        SpecsFrom::Python { python, pythonpath } => {
            progress(Event::Step("reading swebench's environment specifications"));
            SpecTable::dump(python, pythonpath.as_deref())?
        }
    };
    codethread_lang::io::write_atomic(
        &work.join("swebench_specs.json"),
        &serde_json::to_vec(&table).unwrap_or_default(),
    )?;
    let instances: Vec<&Instance> = chain
        .instances
        .iter()
        .filter(|i| chain.is_built(&i.instance_id))
        .filter(|i| {
            opts.only
                .as_ref()
                .is_none_or(|o| o.contains(&i.instance_id))
        })
        .collect();
    if let Some(only) = &opts.only {
        let known: BTreeSet<&str> = instances.iter().map(|i| i.instance_id.as_str()).collect();
        let unknown: Vec<&str> = only
            .iter()
            .map(String::as_str)
            .filter(|i| !known.contains(i))
            .collect();
        if !unknown.is_empty() {
            return Err(SandboxError::Format {
                path: opts.chain.clone(),
                message: format!("not built in this chain: {}", unknown.join(", ")),
            });
        }
    }
    let mut report = ImagesReport {
        swebench_specs: table.swebench.clone(),
        ..Default::default()
    };
    // Plan every instance first: what cannot be built is known before any build starts.
    let mut plans = Vec::new();
    for inst in &instances {
        match plan_instance(&table, inst, &opts.source, opts.history.as_deref()) {
            Ok(Ok(p)) => plans.push(p),
            Ok(Err(u)) => {
                progress(Event::Unbuildable(&u));
                report.unbuildable.push(u);
            }
            Err(e) => {
                progress(Event::Failed(&inst.instance_id, &e.to_string()));
                report
                    .failed
                    .push((inst.instance_id.clone(), e.to_string()));
            }
        }
    }
    if plans.is_empty() {
        write_report(&work, &report)?;
        return Ok(report);
    }
    let rt = ensure_runtime(&opts.runtime, progress)?;
    report.runtime = rt.summary.clone();
    let mut env_images: BTreeMap<String, Result<String, String>> = BTreeMap::new();
    let total = plans.len();
    for (n, plan) in plans.into_iter().enumerate() {
        progress(Event::Progress {
            done: n,
            total,
            id: &plan.instance_id,
        });
        let key = plan.env.key(&plan.repo);
        let env = match env_images.get(&key) {
            Some(r) => r.clone(),
            None => {
                let r = build_env(&rt, &plan.env, &key, &work, opts.force, progress)
                    .map_err(|e| e.to_string());
                env_images.insert(key.clone(), r.clone());
                r
            }
        };
        let env_image = match env {
            Ok(i) => i,
            Err(e) => {
                let msg = format!("environment {key}: {e}");
                progress(Event::Failed(&plan.instance_id, &msg));
                report.failed.push((plan.instance_id.clone(), msg));
                continue;
            }
        };
        match build_instance(
            &rt,
            &plan,
            &env_image,
            &opts.source,
            &work,
            opts.force,
            progress,
        ) {
            Ok(o) => report.images.push(o),
            Err(e) => {
                progress(Event::Failed(&plan.instance_id, &e.to_string()));
                report
                    .failed
                    .push((plan.instance_id.clone(), e.to_string()));
            }
        }
    }
    progress(Event::Progress {
        done: total,
        total,
        id: "",
    });
    write_report(&work, &report)?;
    Ok(report)
}

fn write_report(work: &Path, report: &ImagesReport) -> Result<(), SandboxError> {
    let mut bytes = serde_json::to_vec_pretty(report).unwrap_or_default();
    bytes.push(b'\n');
    codethread_lang::io::write_atomic(&work.join("images.json"), &bytes)?;
    Ok(())
}

/// The git repository holding the base commit of `instance_id` (of `repo`) in `source`.
pub fn source_repo(
    source: &SourceSpec,
    instance_id: &str,
    repo: &str,
) -> Result<PathBuf, SandboxError> {
    let found =
        match source {
            SourceSpec::Testbeds(d) => TestbedDir::tree_of(d, instance_id),
            SourceSpec::Repo(d) => Some(d.clone()),
            SourceSpec::Repos(d) => history_repo(d, repo),
            SourceSpec::Snapshots(_) => return Err(SandboxError::instance(
                instance_id,
                "images need the repository as git (--testbeds, --repo or --repos), not snapshots",
            )),
        };
    found.ok_or_else(|| {
        SandboxError::instance(
            instance_id,
            format!("no git repository for {repo} in the source"),
        )
    })
}

/// Plan one instance's image: its environment from the specification, its install steps, the
/// release tag setuptools_scm needs.
pub fn plan_instance(
    table: &SpecTable,
    inst: &Instance,
    source: &SourceSpec,
    history: Option<&Path>,
) -> Result<Result<InstancePlan, Unbuildable>, SandboxError> {
    let id = inst.instance_id.as_str();
    let version = inst.version.clone().unwrap_or_default();
    let repo_dir = source_repo(source, id, &inst.repo)?;
    let mut repos = vec![GitSource::new(&repo_dir)];
    let hist_dir = history.and_then(|h| history_repo(h, &inst.repo));
    if let Some(h) = &hist_dir {
        repos.insert(0, GitSource::new(h));
    }
    let mut read_at = |commit: &str, path: &str| -> Result<Option<Vec<u8>>, SandboxError> {
        for g in repos.iter_mut() {
            if g.has_commit(commit)? {
                return Ok(g
                    .read_object(&format!("{commit}:{path}"))?
                    .filter(|(kind, _)| kind == "blob")
                    .map(|(_, b)| b));
            }
        }
        Ok(None)
    };
    let env_setup = inst.environment_setup_commit.clone().or_else(|| {
        inst.extra
            .get("environment_setup_commit")
            .and_then(|v| v.as_str())
            .map(str::to_string)
    });
    let env: EnvPlan = match plan_env(
        table,
        id,
        &inst.repo,
        &version,
        env_setup.as_deref(),
        &mut read_at,
    )? {
        Ok(e) => e,
        Err(u) => return Ok(Err(u)),
    };
    let base = inst.base_commit.clone();
    let mut probe = |f: &str| read_at(&base, f).ok().flatten();
    let scm = uses_setuptools_scm(&mut probe);
    let scm_tag = if scm {
        let described = hist_dir
            .as_ref()
            .and_then(|h| describe(h, &inst.base_commit));
        Some(match described {
            Some(t) => (
                t,
                "the newest tag before the base commit in --history".to_string(),
            ),
            None => (
                version.clone(),
                "the row's version (no tag history: give --history for the release tag)"
                    .to_string(),
            ),
        })
    } else {
        None
    };
    let (pre_install, install) = install_steps(table, &inst.repo, &version);
    Ok(Ok(InstancePlan {
        instance_id: id.to_string(),
        repo: inst.repo.clone(),
        image: codethread_bench::swebench_image(inst)
            .trim_start_matches("docker.io/")
            .to_string(),
        base_commit: inst.base_commit.clone(),
        env,
        pre_install,
        install,
        scm_tag,
    }))
}

/// `git describe --tags --abbrev=0 <commit>` in `repo`.
fn describe(repo: &Path, commit: &str) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["describe", "--tags", "--abbrev=0", commit])
        .output()
        .ok()?;
    let t = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !t.is_empty()).then_some(t)
}

fn label_hash(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
        h.update([0]);
    }
    crate::hex(&h.finalize())[..16].to_string()
}

/// A fresh build context directory under `work`.
fn context_dir(work: &Path, name: &str) -> Result<PathBuf, SandboxError> {
    let d = work.join("ctx").join(name);
    if d.exists() {
        std::fs::remove_dir_all(&d).map_err(|e| SandboxError::io(&d, e))?;
    }
    std::fs::create_dir_all(&d).map_err(|e| SandboxError::io(&d, e))?;
    Ok(d)
}

fn write(dir: &Path, name: &str, body: &[u8]) -> Result<(), SandboxError> {
    let p = dir.join(name);
    std::fs::write(&p, body).map_err(|e| SandboxError::io(&p, e))
}

/// The host's CA bundle, for pip inside builds (`PIP_CERT`); empty when the host has none.
pub(crate) fn host_ca() -> Vec<u8> {
    codethread_lang::io::read_regular(Path::new("/etc/ssl/certs/ca-certificates.crt"), 16 << 20)
        .unwrap_or_default()
}

fn build_env(
    rt: &Runtime,
    env: &EnvPlan,
    key: &str,
    work: &Path,
    force: bool,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<String, SandboxError> {
    let rootfs = ensure_rootfs(rt, env.suite(), work, progress)?;
    let rootfs_id = image_id(rt, &rootfs)?;
    let image = format!("codethread/sweb-env:{key}");
    let hash = label_hash(&[
        key.as_bytes(),
        rootfs_id.as_bytes(),
        files_id(ENV_FILES).as_bytes(),
    ]);
    if !force && rt.docker.image_label(&image, RECIPE_LABEL).as_deref() == Some(hash.as_str()) {
        return Ok(image);
    }
    progress(Event::Step(&format!("building environment {image}")));
    let ctx = context_dir(work, &format!("env-{key}"))?;
    for (name, body) in ENV_FILES {
        write(&ctx, name, body.as_bytes())?;
    }
    let lines = |v: &[String]| {
        let mut s = v.join("\n");
        if !s.is_empty() {
            s.push('\n');
        }
        s
    };
    write(&ctx, "conda.txt", lines(&env.conda_packages).as_bytes())?;
    write(&ctx, "pip.txt", lines(&env.pip_packages).as_bytes())?;
    write(
        &ctx,
        "requirements.txt",
        env.requirements.as_deref().unwrap_or("").as_bytes(),
    )?;
    write(
        &ctx,
        "env.conf",
        format!(
            "PYTHON={}\nHTTPBIN={}\n",
            sh_quote(&env.python),
            u8::from(env.httpbin)
        )
        .as_bytes(),
    )?;
    write(&ctx, "host-ca.crt", &host_ca())?;
    let dockerfile = format!(
        "FROM {rootfs}\nENV TZ=Etc/UTC\n{}ENTRYPOINT [\"/usr/bin/tini\", \"--\", \"/usr/local/bin/sweb-entrypoint\"]\nLABEL {RECIPE_LABEL}={hash} org.codethread.env={key}\n",
        run_from_context(rt.docker.builder(), "setup_env.sh", "")
    );
    let log = work.join("logs").join(format!("env-{key}.log"));
    let _ = std::fs::remove_file(&log);
    let r = rt.docker.build(&ctx, &dockerfile, &image, &log);
    let _ = std::fs::remove_dir_all(&ctx);
    r.map(|()| image)
}

fn image_id(rt: &Runtime, image: &str) -> Result<String, SandboxError> {
    let out = cmd::check(
        rt.docker
            .command()
            .args(["image", "inspect", "--format", "{{.Id}}", image]),
    )?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

fn build_instance(
    rt: &Runtime,
    plan: &InstancePlan,
    env_image: &str,
    source: &SourceSpec,
    work: &Path,
    force: bool,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<ImageOutcome, SandboxError> {
    let env_id = image_id(rt, env_image)?;
    let plan_json = serde_json::to_vec(plan).unwrap_or_default();
    let hash = label_hash(&[
        &plan_json,
        env_id.as_bytes(),
        files_id(REPO_FILES).as_bytes(),
    ]);
    let outcome = |status, seconds| ImageOutcome {
        instance_id: plan.instance_id.clone(),
        image: plan.image.clone(),
        env_image: env_image.to_string(),
        status,
        seconds,
        plan: plan.clone(),
    };
    if !force && rt.docker.image_label(&plan.image, RECIPE_LABEL).as_deref() == Some(hash.as_str())
    {
        progress(Event::Image {
            id: &plan.instance_id,
            image: &plan.image,
            built: false,
            seconds: 0.0,
        });
        return Ok(outcome("cached", 0.0));
    }
    let started = Instant::now();
    let ctx = context_dir(work, &format!("instance-{}", plan.instance_id))?;
    for (name, body) in REPO_FILES {
        write(&ctx, name, body.as_bytes())?;
    }
    write(&ctx, "host-ca.crt", &host_ca())?;
    let conf = format!(
        "BASE_COMMIT={}\nINSTALL={}\nPRE_INSTALL={}\nSCM_TAG={}\n",
        sh_quote(&plan.base_commit),
        sh_quote(&plan.install),
        sh_quote(&plan.pre_install.join("\n")),
        sh_quote(plan.scm_tag.as_ref().map(|t| t.0.as_str()).unwrap_or("")),
    );
    write(&ctx, "instance.conf", conf.as_bytes())?;
    let repo = source_repo(source, &plan.instance_id, &plan.repo)?;
    clone_at(&repo, &plan.base_commit, &ctx.join("testbed"))?;
    let dockerfile = format!(
        "FROM {env_image}\n{}LABEL {RECIPE_LABEL}={hash} org.codethread.instance={}\n",
        run_from_context(rt.docker.builder(), "setup_repo.sh", ""),
        plan.instance_id
    );
    let log = work.join("logs").join(format!("{}.log", plan.instance_id));
    let _ = std::fs::remove_file(&log);
    let r = rt.docker.build(&ctx, &dockerfile, &plan.image, &log);
    let _ = std::fs::remove_dir_all(&ctx);
    r?;
    let seconds = started.elapsed().as_secs_f64();
    progress(Event::Image {
        id: &plan.instance_id,
        image: &plan.image,
        built: true,
        seconds,
    });
    Ok(outcome("built", seconds))
}

/// A depth-1 clone of `repo` at `commit` in `dest`: only that commit's objects, no remote, no
/// other ref.
pub fn clone_at(repo: &Path, commit: &str, dest: &Path) -> Result<(), SandboxError> {
    let abs = std::fs::canonicalize(repo).map_err(|e| SandboxError::io(repo, e))?;
    std::fs::create_dir_all(dest).map_err(|e| SandboxError::io(dest, e))?;
    let git = |args: &[&str]| -> Result<(), SandboxError> {
        cmd::check(Command::new("git").arg("-C").arg(dest).args(args)).map(|_| ())
    };
    git(&["init", "-q"])?;
    let url = format!("file://{}", abs.display());
    git(&["fetch", "-q", "--no-tags", "--depth", "1", &url, commit])?;
    git(&["checkout", "-q", "-B", "main", "FETCH_HEAD"])?;
    // The fetch leaves FETCH_HEAD naming the source; nothing else points outside.
    let _ = std::fs::remove_file(dest.join(".git").join("FETCH_HEAD"));
    Ok(())
}
