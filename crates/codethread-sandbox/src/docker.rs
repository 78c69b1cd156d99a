//! The docker command-line client: which binary, whether it builds with BuildKit, and the few
//! calls the sandbox makes (info, image labels, build, import, run).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cmd;
use crate::error::SandboxError;

/// How images are built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Builder {
    /// BuildKit: the build context is bind-mounted into the `RUN` step, so nothing of it is
    /// copied into a layer (with the `vfs` storage driver every layer is a full copy).
    BuildKit,
    /// The classic builder: the context is copied in, used, and removed in one step.
    Classic,
}

/// A docker client binary.
#[derive(Debug, Clone)]
pub struct Docker {
    bin: PathBuf,
    builder: Builder,
}

/// The label every sandbox image carries: the hash of everything it was built from.
pub const RECIPE_LABEL: &str = "org.codethread.recipe";

impl Docker {
    /// The client to use: `explicit` if given, else `/usr/bin/docker` (Debian's `docker.io`,
    /// which builds with BuildKit without the buildx plugin) when it exists, else `docker` on
    /// `PATH`. Fails when there is none.
    pub fn detect(explicit: Option<&Path>) -> Result<Docker, SandboxError> {
        let bin =
            match explicit {
                Some(p) => p.to_path_buf(),
                None if cmd::on_path("/usr/bin/docker") => PathBuf::from("/usr/bin/docker"),
                None if cmd::on_path("docker") => PathBuf::from("docker"),
                None => return Err(SandboxError::Runtime(
                    "no docker client (install Debian's docker.io, or let the sandbox install it)"
                        .into(),
                )),
            };
        let mut d = Docker {
            bin,
            builder: Builder::Classic,
        };
        d.builder = d.probe_builder();
        Ok(d)
    }

    /// The client binary.
    pub fn bin(&self) -> &Path {
        &self.bin
    }

    /// How this client builds images.
    pub fn builder(&self) -> Builder {
        self.builder
    }

    /// A command running this client.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.bin);
        if self.builder == Builder::BuildKit {
            c.env("DOCKER_BUILDKIT", "1");
        }
        c
    }

    /// Clients before 23.0 carry BuildKit; later ones need the buildx plugin for it.
    fn probe_builder(&self) -> Builder {
        let version = Command::new(&self.bin)
            .args(["version", "--format", "{{.Client.Version}}"])
            .output()
            .ok()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        let major: u32 = version
            .split('.')
            .next()
            .and_then(|m| m.parse().ok())
            .unwrap_or(0);
        if (18..23).contains(&major) {
            return Builder::BuildKit;
        }
        let buildx = Command::new(&self.bin)
            .args(["buildx", "version"])
            .output()
            .is_ok_and(|o| o.status.success());
        if buildx {
            Builder::BuildKit
        } else {
            Builder::Classic
        }
    }

    /// Whether the daemon answers.
    pub fn server_ok(&self) -> bool {
        Command::new(&self.bin)
            .args(["info", "--format", "{{.ServerVersion}}"])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// `docker info` facts: storage driver, server version, cgroup version.
    pub fn server_summary(&self) -> Result<String, SandboxError> {
        let out = cmd::check(self.command().args([
            "info",
            "--format",
            "driver={{.Driver}} server={{.ServerVersion}} cgroup={{.CgroupVersion}}",
        ]))?;
        Ok(String::from_utf8_lossy(&out).trim().to_string())
    }

    /// The value of label `key` on `image`, or `None` when the image does not exist or has
    /// no such label.
    pub fn image_label(&self, image: &str, key: &str) -> Option<String> {
        let out = Command::new(&self.bin)
            .args([
                "image",
                "inspect",
                "--format",
                &format!("{{{{index .Config.Labels \"{key}\"}}}}"),
                image,
            ])
            .output()
            .ok()?;
        if !out.status.success() {
            return None;
        }
        let v = String::from_utf8_lossy(&out.stdout).trim().to_string();
        (!v.is_empty() && v != "<no value>").then_some(v)
    }

    /// Whether `image` exists locally.
    pub fn image_exists(&self, image: &str) -> bool {
        Command::new(&self.bin)
            .args(["image", "inspect", "--format", "{{.Id}}", image])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// Build `dockerfile` (text) with build context `ctx` as `tag`, output to `log`. The build
    /// runs with the host's network (`--network host`): builds fetch packages from the
    /// registries; graded containers are started by the harness without it.
    pub fn build(
        &self,
        ctx: &Path,
        dockerfile: &str,
        tag: &str,
        log: &Path,
    ) -> Result<(), SandboxError> {
        let df = ctx.join("Dockerfile.codethread");
        std::fs::write(&df, dockerfile).map_err(|e| SandboxError::io(&df, e))?;
        let mut c = self.command();
        c.args(["build", "--network", "host", "-f"])
            .arg(&df)
            .args(["-t", tag]);
        if self.builder == Builder::BuildKit {
            c.args(["--progress", "plain"]);
        }
        c.arg(ctx);
        cmd::run_logged(&mut c, log)
    }

    /// Remove `image` (its tag); errors are ignored (it may not exist).
    pub fn remove_image(&self, image: &str) {
        let _ = Command::new(&self.bin).args(["rmi", "-f", image]).output();
    }
}

/// The `RUN` step of a Dockerfile that executes `script` from the build context at `/ctx`:
/// bind-mounted under BuildKit, copied in and removed again with the classic builder.
pub(crate) fn run_from_context(builder: Builder, script: &str, env: &str) -> String {
    match builder {
        Builder::BuildKit => {
            format!("RUN --mount=type=bind,target=/ctx {env} bash /ctx/{script}\n")
        }
        Builder::Classic => format!("COPY . /ctx\nRUN {env} bash /ctx/{script} && rm -rf /ctx\n"),
    }
}
