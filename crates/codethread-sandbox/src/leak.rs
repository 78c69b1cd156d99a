//! Whether an agent's container holds the code it is asked to restore: every line PR0 removed
//! (the original bodies) searched in everything readable from inside a running container —
//! every regular file (all mounts; `/proc`, `/sys` and `/dev` aside), every object of every git
//! store found (loose and packed, reachable or not, decompressed by git inside the container),
//! and the environment and command line of every process. Matching is by substring, for each
//! line as it is and as a JSON string would hold it, so an original body inside a `.jsonl` row
//! or a trajectory is found too. The searched data is streamed out of the container and
//! searched on the host; nothing of the forbidden lines goes into the container.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::process::{Command, Stdio};

use aho_corasick::AhoCorasick;
use serde::Serialize;

use crate::docker::Docker;
use crate::error::SandboxError;

/// Lines a container must not hold: the lines a plain setup diff (PR0, or PR0 + PR1 relative
/// to base) removes, trimmed, of at least `min_len` bytes, that are neither a context or added
/// line of the diff nor found (as a line or inside one) in any file of the setup tree
/// (`tree_files`: the contents of every file the agent is given) — a hit of such a line can
/// only come from the original code, or from code that shares the line with it.
pub fn forbidden_lines<'a>(
    plain_diff: &[u8],
    tree_files: impl IntoIterator<Item = &'a [u8]>,
    min_len: usize,
) -> Vec<Vec<u8>> {
    let mut removed: BTreeSet<Vec<u8>> = BTreeSet::new();
    let mut kept: BTreeSet<Vec<u8>> = BTreeSet::new();
    let mut in_hunk = false;
    for raw in plain_diff.split(|&b| b == b'\n') {
        if raw.starts_with(b"diff --git ") {
            in_hunk = false;
        } else if raw.starts_with(b"@@") {
            in_hunk = true;
        } else if in_hunk {
            match raw.first() {
                Some(b'-') => {
                    removed.insert(trim(&raw[1..]).to_vec());
                }
                Some(b' ') | Some(b'+') => {
                    kept.insert(trim(&raw[1..]).to_vec());
                }
                _ => {}
            }
        }
    }
    let candidates: Vec<Vec<u8>> = removed
        .into_iter()
        .filter(|l| l.len() >= min_len && !kept.contains(l))
        .collect();
    if candidates.is_empty() {
        return candidates;
    }
    // A line that occurs anywhere in what the agent is given (as a line, or inside a longer
    // one) proves nothing when found elsewhere.
    let Ok(ac) = AhoCorasick::new(&candidates) else {
        return candidates;
    };
    let mut seen = vec![false; candidates.len()];
    for f in tree_files {
        for m in ac.find_overlapping_iter(f) {
            seen[m.pattern().as_usize()] = true;
        }
    }
    candidates
        .into_iter()
        .zip(seen)
        .filter(|(_, s)| !s)
        .map(|(l, _)| l)
        .collect()
}

fn trim(b: &[u8]) -> &[u8] {
    let s = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let e = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(s, |e| e + 1);
    &b[s..e.max(s)]
}

/// One place a forbidden line was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hit {
    /// `file:/path`, `git:<store>`, or `proc:environ+cmdline`.
    pub place: String,
    /// The forbidden line.
    pub line: String,
}

/// What [`scan_container`] read and found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LeakReport {
    /// Regular files read.
    pub files: usize,
    /// Bytes of those files.
    pub bytes: u64,
    /// Git object stores dumped.
    pub git_stores: usize,
    /// Every hit, one per place and line.
    pub hits: Vec<Hit>,
}

/// The patterns searched for each line: as it is, and JSON-escaped when that differs.
fn matcher(forbidden: &[Vec<u8>]) -> Result<(AhoCorasick, Vec<usize>), SandboxError> {
    let mut pats: Vec<Vec<u8>> = Vec::new();
    let mut of: Vec<usize> = Vec::new();
    for (i, l) in forbidden.iter().enumerate() {
        pats.push(l.clone());
        of.push(i);
        let text = String::from_utf8_lossy(l);
        let json = serde_json::to_string(&text).unwrap_or_default();
        let esc = json.as_bytes()[1..json.len().saturating_sub(1).max(1)].to_vec();
        if esc != *l {
            pats.push(esc);
            of.push(i);
        }
    }
    let ac =
        AhoCorasick::new(&pats).map_err(|e| SandboxError::Runtime(format!("leak matcher: {e}")))?;
    Ok((ac, of))
}

/// Scan everything readable in the running container `container` for `forbidden` lines.
pub fn scan_container(
    docker: &Docker,
    container: &str,
    forbidden: &[Vec<u8>],
) -> Result<LeakReport, SandboxError> {
    let mut report = LeakReport::default();
    if forbidden.is_empty() {
        return Ok(report);
    }
    let (ac, of) = matcher(forbidden)?;
    let mut found: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();

    // 1. Every regular file, streamed as a tar archive made inside the container.
    let mut c = docker.command();
    c.args([
        "exec",
        container,
        "tar",
        "-c",
        "-f",
        "-",
        "-C",
        "/",
        "--exclude=./proc",
        "--exclude=./sys",
        "--exclude=./dev",
        "--ignore-failed-read",
        ".",
    ])
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    let mut child = c.spawn().map_err(|e| SandboxError::Spawn {
        program: "docker exec tar".into(),
        source: e,
    })?;
    let stdout = child.stdout.take().expect("piped");
    let scanned = scan_tar(stdout, &ac, &of, &mut found);
    let _ = child.wait();
    let (files, bytes) = scanned?;
    report.files = files;
    report.bytes = bytes;
    if files == 0 {
        return Err(SandboxError::Runtime(format!(
            "container {container}: tar read no file (is tar installed in it?)"
        )));
    }

    // 2. Every git object store (a directory `objects` beside a `HEAD`): all its objects,
    // loose and packed, reachable or not, as `git cat-file` inside the container gives them.
    let stores = String::from_utf8_lossy(&crate::cmd::check(docker.command().args([
        "exec",
        container,
        "sh",
        "-c",
        "find / -xdev -type d -name objects 2>/dev/null | while IFS= read -r d; do p=\"${d%/objects}\"; [ -f \"$p/HEAD\" ] && printf '%s\\n' \"$p\"; done; true",
    ]))?)
    .into_owned();
    for gitdir in stores.lines().filter(|l| !l.trim().is_empty()) {
        let mut c = docker.command();
        c.args([
            "exec",
            container,
            "git",
            &format!("--git-dir={gitdir}"),
            "cat-file",
            "--batch-all-objects",
            "--batch",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
        let mut child = c.spawn().map_err(|e| SandboxError::Spawn {
            program: "docker exec git".into(),
            source: e,
        })?;
        let stdout = child.stdout.take().expect("piped");
        scan_stream(stdout, &ac, &of, &format!("git:{gitdir}"), &mut found);
        if child.wait().is_ok_and(|s| s.success()) {
            report.git_stores += 1;
        }
    }

    // 3. The environment and command line of every process.
    let procs = crate::cmd::capture(docker.command().args([
        "exec",
        container,
        "sh",
        "-c",
        "cat /proc/[0-9]*/environ /proc/[0-9]*/cmdline 2>/dev/null; true",
    ]))?;
    scan_stream(
        procs.stdout.as_slice(),
        &ac,
        &of,
        "proc:environ+cmdline",
        &mut found,
    );

    for (place, lines) in found {
        for i in lines {
            report.hits.push(Hit {
                place: place.clone(),
                line: String::from_utf8_lossy(&forbidden[i]).into_owned(),
            });
        }
    }
    Ok(report)
}

fn scan_stream(
    r: impl Read,
    ac: &AhoCorasick,
    of: &[usize],
    place: &str,
    found: &mut BTreeMap<String, BTreeSet<usize>>,
) {
    for m in ac.stream_find_iter(r).flatten() {
        found
            .entry(place.to_string())
            .or_default()
            .insert(of[m.pattern().as_usize()]);
    }
}

/// Read a tar stream (ustar, GNU long names, pax paths), searching each regular file's bytes.
/// Returns (files, bytes).
fn scan_tar(
    mut r: impl Read,
    ac: &AhoCorasick,
    of: &[usize],
    found: &mut BTreeMap<String, BTreeSet<usize>>,
) -> Result<(usize, u64), SandboxError> {
    let mut files = 0;
    let mut bytes = 0u64;
    let mut long_name: Option<String> = None;
    let mut header = [0u8; 512];
    loop {
        if read_full(&mut r, &mut header)? == 0 || header.iter().all(|&b| b == 0) {
            break;
        }
        let size = tar_size(&header[124..136]).ok_or_else(|| {
            SandboxError::Runtime("the container's tar stream has a bad size field".into())
        })?;
        let kind = header[156];
        let name = match long_name.take() {
            Some(n) => n,
            None => {
                let field = |b: &[u8]| {
                    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
                    String::from_utf8_lossy(&b[..end]).into_owned()
                };
                let (name, prefix) = (field(&header[0..100]), field(&header[345..500]));
                if prefix.is_empty() {
                    name
                } else {
                    format!("{prefix}/{name}")
                }
            }
        };
        let padded = size.div_ceil(512) * 512;
        match kind {
            b'0' | 0 | b'7' => {
                files += 1;
                bytes += size;
                let place = format!("file:/{}", name.trim_start_matches("./"));
                let mut body = (&mut r).take(size);
                scan_stream(&mut body, ac, of, &place, found);
                // Whatever the matcher left unread of the file.
                std::io::copy(&mut body, &mut std::io::sink())
                    .map_err(|e| SandboxError::io("<tar stream>", e))?;
                skip(&mut r, padded - size)?;
            }
            b'L' | b'x' => {
                // A long name (GNU) or pax records, read in bounded steps.
                let mut data = Vec::new();
                (&mut r)
                    .take(size.min(1 << 20))
                    .read_to_end(&mut data)
                    .map_err(|e| SandboxError::io("<tar stream>", e))?;
                skip(&mut r, padded - data.len() as u64)?;
                if kind == b'L' {
                    let end = data.iter().position(|&c| c == 0).unwrap_or(data.len());
                    long_name = Some(String::from_utf8_lossy(&data[..end]).into_owned());
                } else {
                    long_name = pax_path(&data);
                }
            }
            _ => skip(&mut r, padded)?,
        }
    }
    Ok((files, bytes))
}

fn read_full(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, SandboxError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(SandboxError::io("<tar stream>", e)),
        }
    }
    Ok(n)
}

fn skip(r: &mut impl Read, n: u64) -> Result<(), SandboxError> {
    std::io::copy(&mut r.take(n), &mut std::io::sink())
        .map(|_| ())
        .map_err(|e| SandboxError::io("<tar stream>", e))
}

/// A tar size field: octal digits, or GNU base-256 (high bit set).
fn tar_size(f: &[u8]) -> Option<u64> {
    if f[0] & 0x80 != 0 {
        let mut v: u64 = u64::from(f[0] & 0x7f);
        for &b in &f[1..] {
            v = v.checked_mul(256)?.checked_add(u64::from(b))?;
        }
        return Some(v);
    }
    let s: String = f
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as char)
        .collect();
    let s = s.trim();
    if s.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(s, 8).ok()
}

/// The `path` record of pax extended-header data (`<len> path=<value>\n` records).
fn pax_path(data: &[u8]) -> Option<String> {
    let mut rest = data;
    while !rest.is_empty() {
        let sp = rest.iter().position(|&c| c == b' ')?;
        let len: usize = std::str::from_utf8(&rest[..sp]).ok()?.parse().ok()?;
        if len == 0 || len > rest.len() {
            return None;
        }
        let rec = &rest[sp + 1..len];
        if let Some(v) = rec.strip_prefix(b"path=") {
            let v = v.strip_suffix(b"\n").unwrap_or(v);
            return Some(String::from_utf8_lossy(v).into_owned());
        }
        rest = &rest[len..];
    }
    None
}

/// What [`check_image`] found for one image.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImageCheck {
    /// The image.
    pub image: String,
    /// Forbidden lines searched.
    pub forbidden: usize,
    /// What the scan read and found.
    pub report: LeakReport,
    /// The hits that are this repository's own code ([`own_code`]): what an agent must never
    /// see. The other hits are lines other code shares with the original (the standard
    /// library, another release of the project vendored by a tool).
    pub own: Vec<Hit>,
}

/// The hits of `report` in the repository's own code: the work tree `workdir` (tracked or
/// not), any git store, a process's environment or command line, or a copy of a file the setup
/// changes (a path ending in `/<changed path>`, e.g. the package in site-packages; a copy
/// under a tool's `_vendor/` directory is another release, not this one).
pub fn own_code(report: &LeakReport, workdir: &str, changed: &[String]) -> Vec<Hit> {
    let root = format!("file:{}/", workdir.trim_end_matches('/'));
    report
        .hits
        .iter()
        .filter(|h| {
            h.place.starts_with(&root)
                || h.place.starts_with("git:")
                || h.place.starts_with("proc:")
                || (!h.place.contains("/_vendor/")
                    && changed.iter().any(|c| h.place.ends_with(&format!("/{c}"))))
        })
        .cloned()
        .collect()
}

/// The paths a diff changes (`+++ b/<path>` lines; `diff --git` names for binary ones).
fn changed_paths(diff: &[u8]) -> Vec<String> {
    let mut out = BTreeSet::new();
    for l in diff.split(|&b| b == b'\n') {
        if let Some(p) = l.strip_prefix(b"+++ b/") {
            out.insert(String::from_utf8_lossy(p).trim_end().to_string());
        } else if let Some(rest) = l.strip_prefix(b"diff --git a/") {
            let rest = String::from_utf8_lossy(rest);
            if let Some((a, _)) = rest.split_once(" b/") {
                out.insert(a.to_string());
            }
        }
    }
    out.into_iter().collect()
}

/// Start a container of `image` (no network) and search everything readable in it
/// ([`scan_container`]) for the lines `plain_diff` removes that the intended setup tree
/// (`setup_tree`: every file the agent is meant to be given) does not hold. The forbidden lines
/// never come from the container itself, so a setup that was not applied is found, not
/// excused.
pub fn check_image(
    docker: &Docker,
    image: &str,
    workdir: &str,
    plain_diff: &[u8],
    setup_tree: &[Vec<u8>],
    min_len: usize,
) -> Result<ImageCheck, SandboxError> {
    let forbidden = forbidden_lines(plain_diff, setup_tree.iter().map(Vec::as_slice), min_len);
    let container = start_idle(docker, image)?;
    let r = scan_container(docker, &container, &forbidden);
    stop(docker, &container);
    let report = r?;
    let own = own_code(&report, workdir, &changed_paths(plain_diff));
    Ok(ImageCheck {
        image: image.to_string(),
        forbidden: forbidden.len(),
        report,
        own,
    })
}

/// The files an agent is meant to be given: the repository at `commit` (read with `git
/// archive` from `repo`) with the plain setup diff applied.
pub fn setup_tree(
    repo: &std::path::Path,
    commit: &str,
    plain_diff: &[u8],
) -> Result<Vec<Vec<u8>>, SandboxError> {
    let mut c = Command::new("git");
    c.arg("-C")
        .arg(repo)
        .args(["archive", "--format=tar", commit])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = c.spawn().map_err(|e| SandboxError::Spawn {
        program: "git archive".into(),
        source: e,
    })?;
    let mut stdout = child.stdout.take().expect("piped");
    let mut tree = codethread_patch::MemTree::new();
    let read = tar_files(&mut stdout, &mut |name, bytes| {
        tree.insert(name.into_bytes(), bytes)
    });
    // The archive's end-of-archive padding: read it, or git dies writing it.
    let _ = std::io::copy(&mut stdout, &mut std::io::sink());
    let status = child.wait().map_err(|e| SandboxError::io(repo, e))?;
    read?;
    if !status.success() || tree.files.is_empty() {
        return Err(SandboxError::Runtime(format!(
            "git archive {commit} in {} gave no tree",
            repo.display()
        )));
    }
    let patch = codethread_patch::parse_patch(plain_diff)
        .map_err(|e| SandboxError::Runtime(format!("the setup diff does not parse: {e}")))?;
    tree.apply(&patch, &codethread_patch::ApplyOptions::default())
        .map_err(|e| {
            SandboxError::Runtime(format!("the setup diff does not apply at {commit}: {e}"))
        })?;
    Ok(tree.files.into_values().map(|f| f.content).collect())
}

/// Every regular file of a tar stream, whole (a work tree's files, bounded by the archive).
fn tar_files(mut r: impl Read, each: &mut dyn FnMut(String, Vec<u8>)) -> Result<(), SandboxError> {
    let mut header = [0u8; 512];
    let mut long_name: Option<String> = None;
    loop {
        if read_full(&mut r, &mut header)? == 0 || header.iter().all(|&b| b == 0) {
            return Ok(());
        }
        let size = tar_size(&header[124..136])
            .ok_or_else(|| SandboxError::Runtime("bad tar size field".into()))?;
        let padded = size.div_ceil(512) * 512;
        let kind = header[156];
        let mut data = Vec::new();
        (&mut r)
            .take(size.min(256 << 20))
            .read_to_end(&mut data)
            .map_err(|e| SandboxError::io("<tar stream>", e))?;
        skip(&mut r, padded - data.len() as u64)?;
        match kind {
            b'0' | 0 | b'7' => {
                let name = long_name.take().unwrap_or_else(|| {
                    let end = header[..100].iter().position(|&c| c == 0).unwrap_or(100);
                    String::from_utf8_lossy(&header[..end]).into_owned()
                });
                each(name, data);
            }
            b'L' => {
                let end = data.iter().position(|&c| c == 0).unwrap_or(data.len());
                long_name = Some(String::from_utf8_lossy(&data[..end]).into_owned());
            }
            b'x' => long_name = pax_path(&data),
            _ => {}
        }
    }
}

/// Start a container of `image` that stays up (`sleep`), without network, and return its id.
pub fn start_idle(docker: &Docker, image: &str) -> Result<String, SandboxError> {
    let out = crate::cmd::check(docker.command().args([
        "run",
        "-d",
        "--rm",
        "--network",
        "none",
        "--entrypoint",
        "sleep",
        image,
        "3600",
    ]))?;
    Ok(String::from_utf8_lossy(&out).trim().to_string())
}

/// Stop and remove a container (errors ignored: it may be gone).
pub fn stop(docker: &Docker, container: &str) {
    let _ = Command::new(docker.bin())
        .args(["rm", "-f", container])
        .output();
}

/// What [`check_chain`] checks.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LeakOptions {
    /// The chain directory.
    pub chain: std::path::PathBuf,
    /// What names the images (default: the chain's `exports/mini-swe-agent/implementation`):
    /// an agent-side subset directory (its `images_subset/test.jsonl`), a SWE-agent batch
    /// directory (its `instances.jsonl`), or either file itself; rows are `images_subset` rows
    /// (`instance_id`, `image_name`) or SWE-agent `expert_file` rows (`problem_statement.id`,
    /// `env.deployment.image`).
    pub subset: Option<std::path::PathBuf>,
    /// Plain setup diffs relative to the base commit, as a predictions file (a `chain stack`
    /// output: PR0 + PR1 for a Follow-On on agent PR1s); default: each instance's PR0.
    pub setups: Option<std::path::PathBuf>,
    /// Shortest forbidden line, in bytes after trimming.
    pub min_len: usize,
    /// Where the repositories come from (a git source): the intended setup tree is the base
    /// commit with the setup applied.
    pub source: codethread_chain::SourceSpec,
    /// The runtime.
    pub runtime: crate::RuntimeOptions,
}

impl LeakOptions {
    /// Check the Implementation Task images of `chain`, repositories from `source`.
    pub fn new(chain: impl Into<std::path::PathBuf>, source: codethread_chain::SourceSpec) -> Self {
        LeakOptions {
            source,
            chain: chain.into(),
            subset: None,
            setups: None,
            min_len: 8,
            runtime: crate::RuntimeOptions::default(),
        }
    }
}

/// What [`check_chain`] found.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LeakRun {
    /// Each checked instance.
    pub checked: Vec<(String, ImageCheck)>,
    /// Instances that could not be checked, with the error.
    pub failed: Vec<(String, String)>,
}

impl LeakRun {
    /// Hits over every image.
    pub fn hits(&self) -> usize {
        self.checked.iter().map(|(_, c)| c.report.hits.len()).sum()
    }

    /// Hits of the repository's own code over every image ([`own_code`]).
    pub fn own_hits(&self) -> usize {
        self.checked.iter().map(|(_, c)| c.own.len()).sum()
    }
}

/// `(instance id, image)` of each row of an agent-side rows file: `images_subset` rows
/// (`instance_id`, `image_name`) or SWE-agent `expert_file` rows (`problem_statement.id`,
/// `env.deployment.image`); a row of neither shape is an error naming the file and line.
pub fn image_rows(
    rows_path: &std::path::Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<Vec<(String, String)>, SandboxError> {
    let text = codethread_lang::io::read_regular_to_string(rows_path, limits.max_file_bytes)?;
    let mut images = Vec::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| SandboxError::Format {
                path: rows_path.to_path_buf(),
                message: format!("line {}: {e}", n + 1),
            })?;
        let named = match (v["instance_id"].as_str(), v["image_name"].as_str()) {
            (Some(id), Some(img)) => Some((id, img)),
            _ => v["problem_statement"]["id"]
                .as_str()
                .zip(v["env"]["deployment"]["image"].as_str()),
        };
        let Some((id, img)) = named else {
            return Err(SandboxError::Format {
                path: rows_path.to_path_buf(),
                message: format!(
                    "line {}: no instance_id / image_name (or SWE-agent problem_statement.id / env.deployment.image)",
                    n + 1
                ),
            });
        };
        images.push((id.to_string(), img.to_string()));
    }
    Ok(images)
}

/// Check every image of an agent-side subset: started without network, searched for the
/// lines its setup removed from the original ([`check_image`]).
pub fn check_chain(
    opts: &LeakOptions,
    progress: &mut dyn FnMut(crate::Event<'_>),
) -> Result<LeakRun, SandboxError> {
    let limits = codethread_lang::io::SourceLimits::default();
    let chain = codethread_chain::Chain::open(&opts.chain, limits)?;
    let subset = opts.subset.clone().unwrap_or_else(|| {
        opts.chain
            .join("exports")
            .join("mini-swe-agent")
            .join("implementation")
    });
    let rows_path = if subset.is_dir() {
        let mini = subset.join("images_subset").join("test.jsonl");
        let swe_agent = subset.join("instances.jsonl");
        if !mini.exists() && swe_agent.exists() {
            swe_agent
        } else {
            mini
        }
    } else {
        subset
    };
    let images = image_rows(&rows_path, limits)?;
    let setups: BTreeMap<String, Vec<u8>> = match &opts.setups {
        Some(p) => codethread_bench::load_patch_predictions(p, limits)
            .map_err(|e| SandboxError::Format {
                path: p.clone(),
                message: e.to_string(),
            })?
            .items
            .into_iter()
            .map(|p| (p.instance_id, p.model_patch))
            .collect(),
        None => BTreeMap::new(),
    };
    let rt = crate::ensure_runtime(&opts.runtime, progress)?;
    let mut run = LeakRun::default();
    let total = images.len();
    for (n, (id, image)) in images.iter().enumerate() {
        progress(crate::Event::Progress { done: n, total, id });
        let diff = match setups.get(id) {
            Some(d) => Ok(d.clone()),
            None if opts.setups.is_some() => Err(SandboxError::instance(
                id,
                "no setup diff in the setups file",
            )),
            None => chain.read_pr0(id).map_err(SandboxError::from),
        };
        let checked = diff.and_then(|d| {
            let inst = chain
                .instances
                .iter()
                .find(|i| &i.instance_id == id)
                .ok_or_else(|| SandboxError::instance(id, "not an instance of the chain"))?;
            let repo = crate::images::source_repo(&opts.source, id, &inst.repo)?;
            let tree = setup_tree(&repo, &inst.base_commit, &d)?;
            check_image(&rt.docker, image, "/testbed", &d, &tree, opts.min_len)
        });
        match checked {
            Ok(c) => run.checked.push((id.clone(), c)),
            Err(e) => {
                progress(crate::Event::Failed(id, &e.to_string()));
                run.failed.push((id.clone(), e.to_string()));
            }
        }
    }
    progress(crate::Event::Progress {
        done: total,
        total,
        id: "",
    });
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_lines_are_removed_lines_found_nowhere_else() {
        let diff = b"diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,4 +1,2 @@\n def f(x):\n-    y = compute(x) * 2\n-    return y\n+    raise NotImplementedError\n";
        let tree: Vec<&[u8]> = vec![b"def g():\n    return y\n"];
        let f = forbidden_lines(diff, tree, 8);
        assert_eq!(f, vec![b"y = compute(x) * 2".to_vec()]);
    }

    #[test]
    fn tar_streams_are_searched_file_by_file() {
        // A real archive made by the host's tar: one plain file, one with a long name.
        let dir = std::env::temp_dir().join(format!("ct-leak-{}", std::process::id()));
        let long = "d/".repeat(60) + "x.py";
        std::fs::create_dir_all(dir.join(std::path::Path::new(&long).parent().expect("dir")))
            .expect("test");
        std::fs::write(dir.join("a.txt"), "nothing here\n").expect("test");
        std::fs::write(dir.join(&long), "    y = compute(x) * 2\n").expect("test");
        let out = Command::new("tar")
            .arg("-C")
            .arg(&dir)
            .args(["-c", "-f", "-", "."])
            .output()
            .expect("tar");
        let (ac, of) = matcher(&[b"y = compute(x) * 2".to_vec()]).expect("matcher");
        let mut found = BTreeMap::new();
        let (files, _) = scan_tar(out.stdout.as_slice(), &ac, &of, &mut found).expect("scan");
        assert_eq!(files, 2);
        assert_eq!(found.keys().collect::<Vec<_>>(), [&format!("file:/{long}")]);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn own_code_is_the_repository_git_processes_and_installed_copies() {
        let hit = |p: &str| Hit {
            place: p.into(),
            line: "x".into(),
        };
        let report = LeakReport {
            hits: vec![
                hit("file:/testbed/build/lib/requests/models.py"),
                hit("git:/testbed/.git"),
                hit("proc:environ+cmdline"),
                hit("file:/venv/site-packages/requests/models.py"),
                hit("file:/venv/site-packages/pip/_vendor/requests/models.py"),
                hit("file:/usr/lib/python3.9/urllib/parse.py"),
            ],
            ..Default::default()
        };
        let own = own_code(&report, "/testbed", &["requests/models.py".into()]);
        assert_eq!(own.len(), 4);
        assert_eq!(
            changed_paths(b"diff --git a/x/y.py b/x/y.py\n--- a/x/y.py\n+++ b/x/y.py\n"),
            ["x/y.py"]
        );
    }

    #[test]
    fn json_escaped_copies_are_found() {
        let (ac, of) = matcher(&[br#"raise ValueError("no")"#.to_vec()]).expect("matcher");
        let mut found = BTreeMap::new();
        scan_stream(
            &br#"{"patch": "-    raise ValueError(\"no\")\n"}"#[..],
            &ac,
            &of,
            "x",
            &mut found,
        );
        assert_eq!(found.len(), 1);
    }
}
