//! Agents' images on this machine: the SWE-agent batch of an agent-side subset
//! (codethread-scaffold's `swe_agent`, written under `<subset>/swe-agent/` by every chain
//! build and `chain stack --follow-on-mini`) built with the batch's own `build_images.sh`,
//! its swe-rex runtime made from the Debian bookworm base image of [`crate::runtime`]
//! (no registry of images needed), and the batch's agent network set up.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde::Serialize;

use crate::error::SandboxError;
use crate::runtime::{ensure_rootfs, ensure_runtime, RuntimeOptions, SUITES};
use crate::{cmd, Event};

/// What [`build_swe_agent_images`] builds.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct SweAgentOptions {
    /// The batch directory (`<subset>/swe-agent`, holding `build_images.sh` and
    /// `instances.jsonl`), or the subset directory above it.
    pub batch: PathBuf,
    /// Also make the agents' network (`agent_network.sh`: a bridge whose containers reach
    /// nothing; needs root).
    pub network: bool,
    /// Working directory: the build log and the debootstrap tree when a base image is made
    /// (default `<batch>/work`).
    pub work: Option<PathBuf>,
    /// The runtime.
    pub runtime: RuntimeOptions,
}

impl SweAgentOptions {
    /// Build the SWE-agent images of `batch` and make its network.
    pub fn new(batch: impl Into<PathBuf>) -> Self {
        SweAgentOptions {
            batch: batch.into(),
            network: true,
            work: None,
            runtime: RuntimeOptions::default(),
        }
    }
}

/// What [`build_swe_agent_images`] did.
#[derive(Debug, Clone, Serialize)]
pub struct SweAgentImages {
    /// The batch directory.
    pub batch: PathBuf,
    /// Each instance and its image (all exist now).
    pub images: Vec<(String, String)>,
    /// The Debian bookworm image the runtime was built from.
    pub debian_image: String,
    /// The docker network the rows name, when it was set up here.
    pub network: Option<String>,
    /// Seconds the builds took.
    pub seconds: f64,
    /// The build log.
    pub log: PathBuf,
}

/// Build the images of a SWE-agent batch with its `build_images.sh` (the runtime from this
/// machine's bookworm base image), check that every image its `instances.jsonl` names exists,
/// and make the network the rows name.
pub fn build_swe_agent_images(
    opts: &SweAgentOptions,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<SweAgentImages, SandboxError> {
    // A subset directory has its own (mini-swe-agent) build_images.sh: its batch is below.
    let batch = if opts
        .batch
        .join("swe-agent")
        .join("instances.jsonl")
        .is_file()
    {
        opts.batch.join("swe-agent")
    } else {
        opts.batch.clone()
    };
    let script = batch.join("build_images.sh");
    let rows_path = batch.join("instances.jsonl");
    if !script.is_file() || !rows_path.is_file() {
        return Err(SandboxError::Format {
            path: opts.batch.clone(),
            message: "not a SWE-agent batch (no build_images.sh and instances.jsonl; chain \
                      builds write one under each exports/mini-swe-agent/<task>/swe-agent)"
                .into(),
        });
    }
    let images = crate::leak::image_rows(&rows_path, codethread_lang::io::SourceLimits::default())?;
    let work = opts.work.clone().unwrap_or_else(|| batch.join("work"));
    std::fs::create_dir_all(&work).map_err(|e| SandboxError::io(&work, e))?;
    let rt = ensure_runtime(&opts.runtime, progress)?;
    let bookworm = SUITES
        .iter()
        .copied()
        .find(|s| s.name == "bookworm")
        .ok_or_else(|| SandboxError::Runtime("no bookworm suite".into()))?;
    let debian = ensure_rootfs(&rt, bookworm, &work, progress)?;
    let log = work.join("build_images.log");
    progress(Event::Step(&format!(
        "building the swe-rex runtime and {} SWE-agent images (log {})",
        images.len(),
        log.display()
    )));
    let t = Instant::now();
    let mut c = Command::new("sh");
    c.arg(&script)
        .arg(rt.docker.bin())
        .env("CODETHREAD_DEBIAN_IMAGE", &debian)
        .env("DOCKER_BUILDKIT", "1");
    cmd::run_logged(&mut c, &log)?;
    let seconds = t.elapsed().as_secs_f64();
    for (id, image) in &images {
        if !rt.docker.image_exists(image) {
            return Err(SandboxError::instance(
                id,
                format!("{image} does not exist after {}", script.display()),
            ));
        }
        progress(Event::Image {
            id,
            image,
            built: true,
            seconds: seconds / images.len().max(1) as f64,
        });
    }
    let network = if opts.network {
        let net_log = work.join("agent_network.log");
        let mut c = Command::new("sh");
        c.arg(batch.join("agent_network.sh"))
            .env("PATH", path_with(rt.docker.bin()));
        cmd::run_logged(&mut c, &net_log)?;
        Some("codethread-agent".to_string())
    } else {
        None
    };
    Ok(SweAgentImages {
        batch,
        images,
        debian_image: debian,
        network,
        seconds,
        log,
    })
}

/// `PATH` with the directory of the docker client first (the batch's scripts call `docker`).
fn path_with(docker: &Path) -> std::ffi::OsString {
    let mut dirs: Vec<PathBuf> = docker.parent().map(Path::to_path_buf).into_iter().collect();
    if let Some(p) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&p));
    }
    std::env::join_paths(dirs).unwrap_or_default()
}

/// What [`build_harbor_grader`] did.
#[derive(Debug, Clone, Serialize)]
pub struct HarborGrader {
    /// The grader image (`chain harbor --grader-image`).
    pub image: String,
    /// Built now (else it existed).
    pub built: bool,
    /// The `docker compose version` line Harbor's docker environment will use.
    pub compose: String,
}

/// Make what a Harbor run with its docker environment needs on this machine: the grader image
/// the verifiers copy swebench from (codethread-scaffold's `harbor::grader_dockerfile`, built
/// from this machine's bookworm base image; export with `chain harbor --grader-image`), and
/// Docker Compose v2 ([`crate::runtime::ensure_compose`]).
pub fn build_harbor_grader(
    runtime: &RuntimeOptions,
    work: &Path,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<HarborGrader, SandboxError> {
    use codethread_scaffold::harbor::{grader_dockerfile, grader_image, GRADER_PYTHON};
    std::fs::create_dir_all(work).map_err(|e| SandboxError::io(work, e))?;
    let rt = ensure_runtime(runtime, progress)?;
    let compose = crate::runtime::ensure_compose(&rt, runtime.install, work, progress)?;
    let image = grader_image();
    let built = !rt.docker.image_exists(&image);
    if built {
        let bookworm = SUITES
            .iter()
            .copied()
            .find(|s| s.name == "bookworm")
            .ok_or_else(|| SandboxError::Runtime("no bookworm suite".into()))?;
        let debian = ensure_rootfs(&rt, bookworm, work, progress)?;
        progress(Event::Step(&format!("building {image} from {debian}")));
        let ctx = work.join("harbor-grader");
        std::fs::create_dir_all(&ctx).map_err(|e| SandboxError::io(&ctx, e))?;
        for (name, bytes) in [
            ("Dockerfile", grader_dockerfile().into_bytes()),
            ("grader-python", GRADER_PYTHON.as_bytes().to_vec()),
            ("ca-bundle.crt", crate::images::host_ca()),
        ] {
            codethread_lang::io::write_atomic(&ctx.join(name), &bytes)?;
        }
        let t = Instant::now();
        let mut c = rt.docker.command();
        c.args(["build", "--network", "host", "--build-arg"])
            .arg(format!("DEBIAN={debian}"))
            .args(["-t", &image])
            .arg(&ctx)
            .env("DOCKER_BUILDKIT", "1");
        cmd::run_logged(&mut c, &work.join("harbor-grader.log"))?;
        progress(Event::Image {
            id: "harbor-grader",
            image: &image,
            built: true,
            seconds: t.elapsed().as_secs_f64(),
        });
    }
    Ok(HarborGrader {
        image,
        built,
        compose,
    })
}
