//! The local container runtime: Debian's `docker.io` installed with apt-get when absent, the
//! daemon started in the background, graded containers cut off from every network, and the
//! base images made from Debian packages with `debootstrap` (no registry of images is needed).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::cmd;
use crate::docker::Docker;
use crate::error::SandboxError;
use crate::Event;

/// The storage driver the daemon is started with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StorageDriver {
    /// `overlay2` when a probe overlay mount works on this machine, else `vfs`.
    #[default]
    Auto,
    /// `overlay2`.
    Overlay2,
    /// `vfs`: works everywhere (every layer a full copy).
    Vfs,
}

impl StorageDriver {
    /// The driver's name for `dockerd --storage-driver`.
    pub fn name(self) -> &'static str {
        match self {
            StorageDriver::Auto => "auto",
            StorageDriver::Overlay2 => "overlay2",
            StorageDriver::Vfs => "vfs",
        }
    }

    /// Parse `auto`, `overlay2` or `vfs`.
    pub fn from_name(s: &str) -> Option<StorageDriver> {
        match s {
            "auto" => Some(StorageDriver::Auto),
            "overlay2" => Some(StorageDriver::Overlay2),
            "vfs" => Some(StorageDriver::Vfs),
            _ => None,
        }
    }
}

/// How the runtime is set up.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RuntimeOptions {
    /// The docker client to use (default: [`Docker::detect`]).
    pub docker: Option<PathBuf>,
    /// Install `docker.io` and `debootstrap` with apt-get when they are missing (needs root).
    pub install: bool,
    /// Start `dockerd` when no daemon answers (needs root).
    pub start_daemon: bool,
    /// The daemon's storage driver when it is started here.
    pub storage_driver: StorageDriver,
    /// Drop everything containers on the default bridge send to the host or beyond (iptables
    /// `DOCKER-USER` and `INPUT` rules), so graded tests run without network as on an offline
    /// machine. Image builds use the host's network and are unaffected.
    pub lockdown: bool,
    /// The Debian mirror for `debootstrap` (default: the one apt uses here).
    pub mirror: Option<String>,
    /// Where the daemon's log goes when it is started here.
    pub log_dir: PathBuf,
}

impl Default for RuntimeOptions {
    fn default() -> Self {
        RuntimeOptions {
            docker: None,
            install: true,
            start_daemon: true,
            storage_driver: StorageDriver::Auto,
            lockdown: true,
            mirror: None,
            log_dir: std::env::temp_dir().join("codethread-sandbox"),
        }
    }
}

/// A usable runtime.
#[derive(Debug, Clone)]
pub struct Runtime {
    /// The client.
    pub docker: Docker,
    /// `docker info` facts.
    pub summary: String,
    /// The Debian mirror base images are made from.
    pub mirror: String,
}

/// Packages apt-get installs for the runtime.
const RUNTIME_PACKAGES: &[&str] = &["docker.io", "debootstrap"];

/// Make the runtime usable: install, start, lock down, as `opts` allow.
pub fn ensure_runtime(
    opts: &RuntimeOptions,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<Runtime, SandboxError> {
    let missing: Vec<&str> = RUNTIME_PACKAGES
        .iter()
        .copied()
        .filter(|p| match *p {
            "docker.io" => {
                !cmd::on_path("dockerd") || Docker::detect(opts.docker.as_deref()).is_err()
            }
            other => !cmd::on_path(other),
        })
        .collect();
    if !missing.is_empty() {
        if !opts.install {
            return Err(SandboxError::Runtime(format!(
                "{} not installed (apt-get install {})",
                missing.join(", "),
                missing.join(" ")
            )));
        }
        progress(Event::Step(&format!(
            "apt-get install {}",
            missing.join(" ")
        )));
        let log = opts.log_dir.join("apt-get.log");
        cmd::run_logged(
            Command::new("apt-get")
                .arg("update")
                .env("DEBIAN_FRONTEND", "noninteractive"),
            &log,
        )?;
        cmd::run_logged(
            Command::new("apt-get")
                .args(["install", "-y", "--no-install-recommends"])
                .args(&missing)
                .env("DEBIAN_FRONTEND", "noninteractive"),
            &log,
        )?;
    }
    let docker = Docker::detect(opts.docker.as_deref())?;
    if !docker.server_ok() {
        if !opts.start_daemon {
            return Err(SandboxError::Runtime(
                "no docker daemon answers (start dockerd, or let the sandbox start it)".into(),
            ));
        }
        start_daemon(opts, progress)?;
        let deadline = Instant::now() + Duration::from_secs(90);
        while !docker.server_ok() {
            if Instant::now() > deadline {
                let log = opts.log_dir.join("dockerd.log");
                return Err(SandboxError::Command {
                    command: "dockerd".into(),
                    status: "no answer after 90 s".into(),
                    tail: cmd::tail_of(&log, 20),
                    log: Some(log),
                });
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    if opts.lockdown {
        lockdown()?;
    }
    let summary = docker.server_summary()?;
    progress(Event::Step(&format!("docker: {summary}")));
    Ok(Runtime {
        docker,
        summary,
        mirror: opts.mirror.clone().unwrap_or_else(apt_mirror),
    })
}

fn start_daemon(
    opts: &RuntimeOptions,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<(), SandboxError> {
    let driver = match opts.storage_driver {
        StorageDriver::Auto => {
            if overlay_works() {
                "overlay2"
            } else {
                "vfs"
            }
        }
        d => d.name(),
    };
    progress(Event::Step(&format!(
        "starting dockerd --storage-driver={driver}"
    )));
    std::fs::create_dir_all(&opts.log_dir).map_err(|e| SandboxError::io(&opts.log_dir, e))?;
    let log_path = opts.log_dir.join("dockerd.log");
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .map_err(|e| SandboxError::io(&log_path, e))?;
    let err = log
        .try_clone()
        .map_err(|e| SandboxError::io(&log_path, e))?;
    use std::os::unix::process::CommandExt;
    // Its own process group: the daemon outlives this process and is not sent its signals.
    Command::new("dockerd")
        .arg(format!("--storage-driver={driver}"))
        // No container-to-container traffic on the default bridge.
        .arg("--icc=false")
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|e| SandboxError::Spawn {
            program: "dockerd".into(),
            source: e,
        })?;
    Ok(())
}

/// Whether an overlay mount works here (as root).
fn overlay_works() -> bool {
    let base = std::env::temp_dir().join(format!("codethread-ovl-{}", std::process::id()));
    let dirs = ["l", "u", "w", "m"].map(|d| base.join(d));
    if dirs.iter().any(|d| std::fs::create_dir_all(d).is_err()) {
        return false;
    }
    let opts = format!(
        "lowerdir={},upperdir={},workdir={}",
        dirs[0].display(),
        dirs[1].display(),
        dirs[2].display()
    );
    let ok = Command::new("mount")
        .args(["-t", "overlay", "overlay", "-o", &opts])
        .arg(&dirs[3])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        let _ = Command::new("umount").arg(&dirs[3]).status();
    }
    let _ = std::fs::remove_dir_all(&base);
    ok
}

/// Containers on the default bridge (`docker0`) and on user-defined bridges (`br-*`: the
/// networks Docker Compose makes, e.g. for Harbor's trials) reach nothing but themselves:
/// packets to be forwarded and packets to the host are dropped, so a connection attempt times
/// out as on a machine without network (requests' connect-timeout tests rely on it).
/// Idempotent.
fn lockdown() -> Result<(), SandboxError> {
    if !cmd::on_path("iptables") {
        return Err(SandboxError::Runtime(
            "iptables is not installed: graded containers would have network (install iptables, or turn lockdown off)".into(),
        ));
    }
    for (chain, rule) in [
        ("DOCKER-USER", ["-i", "docker0", "-j", "DROP"]),
        ("INPUT", ["-i", "docker0", "-j", "DROP"]),
        ("DOCKER-USER", ["-i", "br-+", "-j", "DROP"]),
        ("INPUT", ["-i", "br-+", "-j", "DROP"]),
    ] {
        let present = Command::new("iptables")
            .arg("-C")
            .arg(chain)
            .args(rule)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !present {
            cmd::check(Command::new("iptables").args(["-I", chain, "1"]).args(rule))?;
        }
    }
    Ok(())
}

/// The Debian mirror apt uses here (`/etc/apt/sources.list`, `sources.list.d/*.list` and
/// `*.sources`), else `http://deb.debian.org/debian`.
pub fn apt_mirror() -> String {
    let mut files = vec![PathBuf::from("/etc/apt/sources.list")];
    if let Ok(rd) = std::fs::read_dir("/etc/apt/sources.list.d") {
        let mut more: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
        more.sort();
        files.extend(more);
    }
    for f in files {
        let Ok(text) = codethread_lang::io::read_regular_to_string(&f, 1 << 20) else {
            continue;
        };
        if let Some(m) = mirror_in(&text) {
            return m;
        }
    }
    "http://deb.debian.org/debian".into()
}

/// The first Debian (not security) archive URI of a sources file, one-line or deb822 format.
fn mirror_in(text: &str) -> Option<String> {
    for line in text.lines() {
        let line = line.trim();
        let uri = if let Some(rest) = line.strip_prefix("deb ") {
            rest.split_whitespace()
                .find(|w| w.starts_with("http://") || w.starts_with("https://"))
        } else if let Some(rest) = line.strip_prefix("URIs:") {
            rest.split_whitespace().next()
        } else {
            None
        };
        if let Some(u) = uri {
            if !u.contains("security") {
                return Some(u.trim_end_matches('/').to_string());
            }
        }
    }
    None
}

/// A Debian release a base image is made from, with the Python 3 it ships.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Suite {
    /// The release's code name.
    pub name: &'static str,
    /// The `major.minor` of its `python3`.
    pub python: &'static str,
}

/// The releases base images are made from. Each ships one Python 3; an instance whose
/// specification names another Python cannot be built here (the upstream images install it with
/// conda, which cannot be downloaded on these machines).
pub const SUITES: &[Suite] = &[
    Suite {
        name: "bullseye",
        python: "3.9",
    },
    Suite {
        name: "bookworm",
        python: "3.11",
    },
    Suite {
        name: "trixie",
        python: "3.13",
    },
];

/// The release whose `python3` is `python` (`major.minor`).
pub fn suite_for_python(python: &str) -> Option<Suite> {
    SUITES.iter().copied().find(|s| s.python == python)
}

/// What a base image holds besides `minbase`: what the harness and the eval scripts call (git
/// for apply/checkout/diff, patch for the harness's fallback `patch --batch --fuzz=5`, python3
/// and venv for the testbed environment, the CA bundle for pip during builds, procps, and tini
/// as PID 1 so `docker stop` returns at once).
pub const ROOTFS_PACKAGES: &str = "ca-certificates,git,patch,python3,python3-venv,procps,tini";

/// The name of the base image of `suite`: the tag carries a hash of the package list, so a
/// changed list makes a new image instead of reusing an old one.
pub fn rootfs_image(suite: Suite) -> String {
    let mut h = Sha256::new();
    h.update(ROOTFS_PACKAGES.as_bytes());
    h.update(b"\0layout 2\0");
    h.update(suite.name.as_bytes());
    let hex = crate::hex(&h.finalize());
    format!("codethread/sweb-rootfs:{}-{}", suite.name, &hex[..8])
}

/// Make (once) the base image of `suite` with `debootstrap --variant=minbase` from the mirror:
/// the file system with an empty `/testbed` as working directory, imported with `docker
/// import`. Returns the image name.
pub fn ensure_rootfs(
    rt: &Runtime,
    suite: Suite,
    work: &Path,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<String, SandboxError> {
    let image = rootfs_image(suite);
    if rt.docker.image_exists(&image) {
        return Ok(image);
    }
    progress(Event::Step(&format!(
        "debootstrap {} from {} (a few minutes, once)",
        suite.name, rt.mirror
    )));
    let dir = work.join(format!("rootfs-{}", suite.name));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| SandboxError::io(&dir, e))?;
    }
    let log = work.join(format!("debootstrap-{}.log", suite.name));
    cmd::run_logged(
        Command::new("debootstrap")
            .arg("--variant=minbase")
            .arg(format!("--include={ROOTFS_PACKAGES}"))
            .arg(suite.name)
            .arg(&dir)
            .arg(&rt.mirror),
        &log,
    )?;
    // Trim what no image needs: apt caches and lists, documentation, other locales.
    for sub in [
        "var/cache/apt/archives",
        "var/lib/apt/lists",
        "usr/share/doc",
        "usr/share/man",
        "usr/share/info",
    ] {
        let p = dir.join(sub);
        if let Ok(rd) = std::fs::read_dir(&p) {
            for e in rd.flatten() {
                let path = e.path();
                let _ = if path.is_dir() && !path.is_symlink() {
                    std::fs::remove_dir_all(&path)
                } else {
                    std::fs::remove_file(&path)
                };
            }
        }
    }
    std::fs::create_dir_all(dir.join("testbed")).map_err(|e| SandboxError::io(&dir, e))?;
    let mut tar = Command::new("tar")
        .arg("--numeric-owner")
        .arg("-C")
        .arg(&dir)
        .args(["-c", "."])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| SandboxError::Spawn {
            program: "tar".into(),
            source: e,
        })?;
    let stdout = tar.stdout.take().expect("piped");
    let mut import = rt.docker.command();
    import.args([
        "import",
        "-c",
        "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "-c",
        "WORKDIR /testbed/",
        "-c",
        "CMD [\"/bin/bash\"]",
        "-",
        &image,
    ]);
    let out = import
        .stdin(stdout)
        .output()
        .map_err(|e| SandboxError::Spawn {
            program: "docker import".into(),
            source: e,
        })?;
    let tar_ok = tar.wait().is_ok_and(|s| s.success());
    let _ = std::fs::remove_dir_all(&dir);
    if !out.status.success() || !tar_ok {
        return Err(SandboxError::Command {
            command: format!("tar -C {} -c . | docker import - {image}", dir.display()),
            status: out.status.to_string(),
            log: None,
            tail: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(image)
}

/// The `docker compose version` line, when Docker Compose v2 answers.
pub fn compose_version(docker: &Docker) -> Option<String> {
    let o = Command::new(docker.bin())
        .args(["compose", "version"])
        .output()
        .ok()?;
    let line = String::from_utf8_lossy(&o.stdout).trim().to_string();
    (o.status.success() && !line.is_empty()).then_some(line)
}

/// Where the docker client finds its plugins (Debian's docker.io and upstream builds both look
/// here).
const CLI_PLUGINS: &str = "/usr/libexec/docker/cli-plugins";

/// Make `docker compose` (v2, what Harbor's docker environment drives) answer: Debian bookworm
/// ships only Compose v1, trixie's `docker-compose` package is the v2 plugin (a Go binary that
/// needs libc6 >= 2.34). With `install`, that package is fetched with apt from the mirror
/// (trixie's signed lists in a private apt state under `work`, nothing of the system's apt
/// configuration changed) and its plugin copied to `/usr/libexec/docker/cli-plugins`.
/// Returns the version line.
pub fn ensure_compose(
    rt: &Runtime,
    install: bool,
    work: &Path,
    progress: &mut dyn FnMut(Event<'_>),
) -> Result<String, SandboxError> {
    if let Some(v) = compose_version(&rt.docker) {
        return Ok(v);
    }
    if !install {
        return Err(SandboxError::Runtime(
            "docker compose (v2) does not answer and installing is off".into(),
        ));
    }
    progress(Event::Step(
        "installing Docker Compose v2 from Debian trixie's docker-compose package",
    ));
    let dir = work.join("compose-apt");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| SandboxError::io(&dir, e))?;
    }
    for sub in [
        "lists/partial",
        "cache/archives/partial",
        "parts",
        "download",
        "x",
    ] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| SandboxError::io(&d, e))?;
    }
    let sources = dir.join("sources.list");
    codethread_lang::io::write_atomic(
        &sources,
        format!("deb {} trixie main\n", rt.mirror).as_bytes(),
    )?;
    let apt = |args: &[&str]| {
        let mut c = Command::new("apt-get");
        c.arg("-q")
            .arg("-o")
            .arg(format!("Dir::Etc::SourceList={}", sources.display()))
            .arg("-o")
            .arg(format!(
                "Dir::Etc::SourceParts={}",
                dir.join("parts").display()
            ))
            .arg("-o")
            .arg(format!("Dir::State::Lists={}", dir.join("lists").display()))
            .arg("-o")
            .arg(format!("Dir::Cache={}", dir.join("cache").display()))
            .args(args)
            .current_dir(dir.join("download"));
        c
    };
    let log = work.join("compose-install.log");
    cmd::run_logged(&mut apt(&["update"]), &log)?;
    cmd::run_logged(&mut apt(&["download", "docker-compose"]), &log)?;
    let deb = std::fs::read_dir(dir.join("download"))
        .map_err(|e| SandboxError::io(dir.join("download"), e))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "deb"))
        .ok_or_else(|| {
            SandboxError::Runtime(format!(
                "apt-get download docker-compose gave no package (log {})",
                log.display()
            ))
        })?;
    cmd::run_logged(
        Command::new("dpkg-deb")
            .arg("-x")
            .arg(&deb)
            .arg(dir.join("x")),
        &log,
    )?;
    let plugin = dir.join("x/usr/libexec/docker/cli-plugins/docker-compose");
    std::fs::create_dir_all(CLI_PLUGINS).map_err(|e| SandboxError::io(CLI_PLUGINS, e))?;
    let dest = Path::new(CLI_PLUGINS).join("docker-compose");
    let tmp = Path::new(CLI_PLUGINS).join(".docker-compose.codethread");
    std::fs::copy(&plugin, &tmp).map_err(|e| SandboxError::io(&plugin, e))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| SandboxError::io(&tmp, e))?;
    }
    std::fs::rename(&tmp, &dest).map_err(|e| SandboxError::io(&dest, e))?;
    compose_version(&rt.docker).ok_or_else(|| {
        SandboxError::Runtime(format!(
            "docker compose does not answer after installing {} (log {})",
            deb.display(),
            log.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrors_of_both_source_formats() {
        assert_eq!(
            mirror_in("# c\ndeb [arch=amd64] http://mirror.example/debian bookworm main\n")
                .as_deref(),
            Some("http://mirror.example/debian")
        );
        assert_eq!(
            mirror_in("Types: deb\nURIs: http://security.debian.org/debian-security\n"),
            None
        );
        assert_eq!(
            mirror_in("Types: deb\nURIs: https://deb.example/debian/\nSuites: bookworm\n")
                .as_deref(),
            Some("https://deb.example/debian")
        );
    }

    #[test]
    fn suites_by_python() {
        assert_eq!(suite_for_python("3.9").map(|s| s.name), Some("bullseye"));
        assert_eq!(suite_for_python("3.11").map(|s| s.name), Some("bookworm"));
        assert_eq!(suite_for_python("3.6"), None);
        assert_ne!(
            rootfs_image(SUITES[0]),
            rootfs_image(SUITES[1]),
            "one image per release"
        );
    }
}
