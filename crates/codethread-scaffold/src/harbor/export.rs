//! Harbor task directories from a built chain (see [`crate::harbor`]).
//!
//! Per task `<out>/<instance_id>.<condition>/`:
//!
//! ```text
//! task.toml                 [task] codethread/<id>.<condition>, separate verifier, collect hooks
//! instruction.md            (single step) the statement the agent gets
//! environment/Dockerfile    FROM the instance image; setup.sh with the sealed patch bind-mounted
//! environment/setup.sh      crate::mini_swe_agent::SETUP_SCRIPT
//! environment/setup.patch   sealed setup (PR0 for implementation / chain, empty for follow_on_human)
//! tests/Dockerfile          the verifier: FROM the instance image (base), uv + swebench, COPY . /tests
//! tests/{test.sh,grade.py,eval.sh,setup.patch,instance.json}
//! solution/{solve.sh,solution.patch}   the oracle: the human PR1 / the gold patch
//! steps/<implement|follow_on>/...      (chain) per-step instruction.md, tests/, solution/, workdir/setup.sh
//! ```
//!
//! and beside the tasks `<out>/dataset.toml` (Harbor's manifest, each task
//! pinned by [`task_digest`]) and, with
//! [`HarborExportOptions::docker_image_template`], `<out>/images.tsv`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde_json::{Map, Value};

use super::{
    GRADE_FEATBENCH_PY, GRADE_PRO_PY, GRADE_PY, MODEL_PATCH, SETUP_REF, STACK_PATCH, STEP1_REF,
    SWEBENCH_PIN, UV_IMAGE,
};
use crate::error::ScaffoldError;
use crate::files::{read, write_in};
use crate::mini_swe_agent::{upstream_image, SETUP_SCRIPT};
use codethread_bench::{check_harness_row, HarnessGeneration};
use codethread_chain::agent_row;
use codethread_chain::{Chain, PR0_SEALED_FILE};

/// What one exported task measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HarborCondition {
    /// The Implementation Task alone: PR0 → PR1, reward = the gate.
    Implementation,
    /// The Follow-On Issue on the human PR1 (HA): base → PR2, reward =
    /// swebench's `resolved`.
    FollowOnHuman,
    /// The AA chain as one two-step task: implement (gate, `min_reward =
    /// 1`) then follow-on (resolved) in the same agent container.
    Chain,
    /// The Follow-On Issue on a given agent's PR1 (a fresh session): the
    /// agent starts at base + PR0 (setup commit) + the agent's PR1 (one
    /// commit on top, as the second step of [`HarborCondition::Chain`]
    /// starts), reward = swebench's `resolved` of PR1 + PR2. Needs
    /// [`HarborExportOptions::agent_pr1`].
    FollowOnAgent,
}

impl HarborCondition {
    /// The conditions exported by default, in export order (those that
    /// need nothing but the chain).
    pub const ALL: [HarborCondition; 3] = [
        HarborCondition::Implementation,
        HarborCondition::FollowOnHuman,
        HarborCondition::Chain,
    ];

    /// Every condition, [`HarborCondition::FollowOnAgent`] (which needs an
    /// agent's PR1 predictions) last.
    pub const EVERY: [HarborCondition; 4] = [
        HarborCondition::Implementation,
        HarborCondition::FollowOnHuman,
        HarborCondition::Chain,
        HarborCondition::FollowOnAgent,
    ];

    /// The name used in task names, directories and `--conditions`.
    pub fn name(self) -> &'static str {
        match self {
            HarborCondition::Implementation => "implementation",
            HarborCondition::FollowOnHuman => "follow_on_human",
            HarborCondition::Chain => "chain",
            HarborCondition::FollowOnAgent => "follow_on_agent",
        }
    }
}

impl fmt::Display for HarborCondition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HarborCondition {
    type Err = String;
    /// `implementation` (`pr1`), `follow_on_human` (`ha`), `chain` (`aa`),
    /// `follow_on_agent` (`fa`, `aa2`, `given`).
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "implementation" | "pr1" | "impl" => Ok(HarborCondition::Implementation),
            "follow_on_human" | "ha" => Ok(HarborCondition::FollowOnHuman),
            "chain" | "aa" => Ok(HarborCondition::Chain),
            "follow_on_agent" | "fa" | "aa2" | "given" => Ok(HarborCondition::FollowOnAgent),
            _ => Err(format!(
                "unknown Harbor condition {s:?} (implementation, follow_on_human, chain, follow_on_agent)"
            )),
        }
    }
}

/// Options of [`export_harbor`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct HarborExportOptions {
    /// The conditions to export (each built instance gets one task per
    /// condition).
    pub conditions: Vec<HarborCondition>,
    /// The agent's time limit per step, seconds.
    pub agent_timeout_sec: f64,
    /// The verifier's time limit per step, seconds.
    pub verifier_timeout_sec: f64,
    /// The image build time limit, seconds.
    pub build_timeout_sec: f64,
    /// The limits every file of the chain is read under.
    pub limits: codethread_lang::io::SourceLimits,
    /// Name every image by this template instead of leaving the builds to
    /// the backend: `{id}` (the instance id, lowercased) and `{role}` (an
    /// [`ImageRole`] name) are replaced, e.g.
    /// `registry.example.org/codethread/{id}:{role}`. Each task then names
    /// its agent image in `[environment].docker_image` and each verifier
    /// image in `[verifier.environment]` / `[steps.verifier.environment]`
    /// (what Harbor's singularity environment needs), and `images.tsv`
    /// lists every image with the directory to build it from. Both
    /// placeholders are required (six distinct images per instance).
    pub docker_image_template: Option<String>,
    /// The image the verifiers copy their grader from (`/opt/codethread-grader`: a
    /// self-contained Python with swebench, [`super::grader_dockerfile`]), instead of
    /// installing it with `uv` from [`UV_IMAGE`] and a CPython download from GitHub
    /// (default). For machines that reach only the package registries: build it with
    /// `integrations/harbor/build_grader.sh` or `chain sandbox harbor-grader`.
    pub grader_image: Option<String>,
    /// The `org/name` of `dataset.toml` (default: `codethread/<name of the
    /// output directory>`, or `codethread/dataset` when that name cannot
    /// be one).
    pub dataset_name: Option<String>,
    /// The agent's PR1 of each instance (relative to base + PR0, as `chain
    /// gate` reads them), for [`HarborCondition::FollowOnAgent`]: only the
    /// PR1s given here are used; an instance without one is an error of
    /// [`HarborExport::errors`] naming it (a skip, never silent).
    pub agent_pr1: Option<AgentPr1>,
    /// A checkout of scaleapi/SWE-bench_Pro-os: SWE-bench Pro instances are
    /// graded by their own `run_scripts/<instance_id>/{run_script.sh,parser.py}`
    /// (and the `ENV` lines of `dockerfiles/`), as Pro's evaluator grades them.
    /// Without it a Pro instance is an error naming it.
    pub pro_scripts: Option<PathBuf>,
}

impl HarborExportOptions {
    /// Sets [`HarborExportOptions::conditions`].
    pub fn conditions(mut self, conditions: Vec<HarborCondition>) -> Self {
        self.conditions = conditions;
        self
    }

    /// Sets [`HarborExportOptions::agent_timeout_sec`].
    pub fn agent_timeout_sec(mut self, agent_timeout_sec: f64) -> Self {
        self.agent_timeout_sec = agent_timeout_sec;
        self
    }

    /// Sets [`HarborExportOptions::verifier_timeout_sec`].
    pub fn verifier_timeout_sec(mut self, verifier_timeout_sec: f64) -> Self {
        self.verifier_timeout_sec = verifier_timeout_sec;
        self
    }

    /// Sets [`HarborExportOptions::build_timeout_sec`].
    pub fn build_timeout_sec(mut self, build_timeout_sec: f64) -> Self {
        self.build_timeout_sec = build_timeout_sec;
        self
    }

    /// Sets [`HarborExportOptions::limits`].
    pub fn limits(mut self, limits: codethread_lang::io::SourceLimits) -> Self {
        self.limits = limits;
        self
    }

    /// Sets [`HarborExportOptions::docker_image_template`].
    pub fn docker_image_template(mut self, docker_image_template: Option<String>) -> Self {
        self.docker_image_template = docker_image_template;
        self
    }

    /// Sets [`HarborExportOptions::grader_image`].
    pub fn grader_image(mut self, grader_image: Option<String>) -> Self {
        self.grader_image = grader_image;
        self
    }

    /// Sets [`HarborExportOptions::dataset_name`].
    pub fn dataset_name(mut self, dataset_name: Option<String>) -> Self {
        self.dataset_name = dataset_name;
        self
    }

    /// Sets [`HarborExportOptions::agent_pr1`].
    pub fn agent_pr1(mut self, agent_pr1: Option<AgentPr1>) -> Self {
        self.agent_pr1 = agent_pr1;
        self
    }

    /// Sets [`HarborExportOptions::pro_scripts`].
    pub fn pro_scripts(mut self, pro_scripts: Option<PathBuf>) -> Self {
        self.pro_scripts = pro_scripts;
        self
    }
}

/// A task [`export_harbor`] did not write, by design, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarborSkip {
    /// The instance.
    pub instance_id: String,
    /// The condition whose task was not written.
    pub condition: HarborCondition,
    /// Why (names the predictions file).
    pub reason: String,
}

/// The agent PR1s [`HarborCondition::FollowOnAgent`] starts from.
#[derive(Debug, Clone, Default)]
pub struct AgentPr1 {
    /// The predictions file they were read from (named in errors).
    pub source: PathBuf,
    /// PR1 patch by instance id.
    pub patches: BTreeMap<String, Vec<u8>>,
    /// The gate's kept instances (`chain gate`'s `kept: true` rows): when
    /// given, a PR1 of another instance is refused by name.
    pub kept: Option<std::collections::BTreeSet<String>>,
    /// PR1s found unusable by [`AgentPr1::check_applies`] (they do not
    /// apply at base + PR0), with why: each a named skip of the export.
    pub unusable: BTreeMap<String, String>,
}

impl AgentPr1 {
    /// Applies every PR1 on base + PR0 of `chain` (base files from
    /// `source`, as `chain stack` composes a stack) and records each one
    /// that does not apply, or is not UTF-8, in [`AgentPr1::unusable`];
    /// returns how many were checked. Instances the chain did not build are
    /// left to the export (which names them).
    pub fn check_applies(
        &mut self,
        chain: &codethread_chain::Chain,
        source: &mut dyn codethread_chain::SourceReader,
    ) -> usize {
        let mut layer = BTreeMap::new();
        for (id, patch) in &self.patches {
            if patch.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match String::from_utf8(patch.clone()) {
                Ok(text) => {
                    layer.insert(
                        id.clone(),
                        codethread_bench::Prediction {
                            instance_id: id.clone(),
                            model_name_or_path: "agent-pr1".into(),
                            model_patch: text,
                        },
                    );
                }
                Err(_) => {
                    self.unusable
                        .insert(id.clone(), "its PR1 patch is not UTF-8".into());
                }
            }
        }
        let n = layer.len();
        let ids: std::collections::BTreeSet<String> = layer.keys().cloned().collect();
        let (_, outcomes) = codethread_chain::stack(
            chain,
            &[codethread_chain::Layer::Predictions(layer)],
            "agent-pr1",
            source,
            &mut |_, _, _| {},
        );
        for o in outcomes
            .into_iter()
            .filter(|o| ids.contains(&o.instance_id))
        {
            if let Some(e) = o.error {
                self.unusable.insert(
                    o.instance_id,
                    format!("its PR1 does not apply at base + PR0: {e}"),
                );
            }
        }
        n
    }
}

impl Default for HarborExportOptions {
    fn default() -> Self {
        HarborExportOptions {
            conditions: HarborCondition::ALL.to_vec(),
            agent_timeout_sec: 3600.0,
            verifier_timeout_sec: 1800.0,
            build_timeout_sec: 1800.0,
            limits: codethread_lang::io::SourceLimits::default(),
            docker_image_template: None,
            grader_image: None,
            dataset_name: None,
            agent_pr1: None,
            pro_scripts: None,
        }
    }
}

/// What [`export_harbor`] wrote: the task directories (relative to the
/// output root) and one error per instance that got none.
#[derive(Debug, Default)]
pub struct HarborExport {
    /// `(instance_id, condition, task directory)` of every task written.
    pub tasks: Vec<(String, HarborCondition, PathBuf)>,
    /// `(task name, digest)` of every task pinned in `dataset.toml`, in
    /// its order (`sha256:<hex>`, Harbor's content hash of the task
    /// directory, [`task_digest`]).
    pub pinned: Vec<(String, String)>,
    /// The prebuilt images the tasks name (empty without
    /// [`HarborExportOptions::docker_image_template`]), one per image and
    /// task directory using it, in task order.
    pub images: Vec<HarborImage>,
    /// Instances (and conditions) that could not be exported.
    pub errors: Vec<ScaffoldError>,
    /// Tasks not exported by design, each named with why (a
    /// [`HarborCondition::FollowOnAgent`] task of an instance without a
    /// usable agent PR1: none given, not kept by the gate, empty, or not
    /// applying at base + PR0).
    pub skipped: Vec<HarborSkip>,
}

/// Which image of an instance a name of
/// [`HarborExportOptions::docker_image_template`] stands for (`{role}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ImageRole {
    /// The agent's image at PR0 (`environment/` of `implementation` and
    /// `chain`).
    AgentPr0,
    /// The agent's image at base, the human PR1 (`environment/` of
    /// `follow_on_human`).
    AgentBase,
    /// The PR1 gate's verifier (`tests/` of `implementation`,
    /// `steps/implement/tests/` of `chain`).
    VerifierGate,
    /// The Follow-On's verifier on the human PR1 (`tests/` of
    /// `follow_on_human`).
    VerifierHa,
    /// The Follow-On's verifier on the agent's PR1
    /// (`steps/follow_on/tests/` of `chain`, `tests/` of
    /// `follow_on_agent`: grades PR1 + PR2).
    VerifierAa,
    /// The agent's image at PR0 + a given agent's PR1 (`environment/` of
    /// `follow_on_agent`).
    AgentPr1,
}

impl ImageRole {
    /// Every role.
    pub const ALL: [ImageRole; 6] = [
        ImageRole::AgentPr0,
        ImageRole::AgentBase,
        ImageRole::VerifierGate,
        ImageRole::VerifierHa,
        ImageRole::VerifierAa,
        ImageRole::AgentPr1,
    ];

    /// The `{role}` text: `agent-pr0`, `agent-base`, `verifier-gate`,
    /// `verifier-ha`, `verifier-aa`, `agent-pr1`.
    pub fn name(self) -> &'static str {
        match self {
            ImageRole::AgentPr0 => "agent-pr0",
            ImageRole::AgentBase => "agent-base",
            ImageRole::VerifierGate => "verifier-gate",
            ImageRole::VerifierHa => "verifier-ha",
            ImageRole::VerifierAa => "verifier-aa",
            ImageRole::AgentPr1 => "agent-pr1",
        }
    }
}

/// One prebuilt image a task names, and where to build it from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HarborImage {
    /// The image reference written into `task.toml`.
    pub image: String,
    /// What it is.
    pub role: ImageRole,
    /// The instance.
    pub instance_id: String,
    /// The build context (a directory with a `Dockerfile`), relative to the
    /// output root.
    pub context: PathBuf,
}

/// The task name of an instance and condition: `codethread/<id>.<condition>`
/// (what Harbor records as `task_name` in each trial's `result.json`).
pub fn task_name(instance_id: &str, cond: HarborCondition) -> String {
    format!("codethread/{instance_id}.{cond}")
}

/// Whether an instance id can name a task directory and a Harbor package
/// (`org/name`: ASCII letters, digits, `.`, `_`, `-`, not starting with a
/// dot, no `..`).
fn check_id(id: &str) -> Result<(), ScaffoldError> {
    let ok = !id.is_empty()
        && id.len() <= 200
        && id.as_bytes()[0].is_ascii_alphanumeric()
        && !id.contains("..")
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(ScaffoldError::Instance {
            instance_id: id.escape_debug().to_string(),
            message: "instance id cannot name a Harbor task (letters, digits, `._-` only)".into(),
        })
    }
}

/// Whether `s` is a Docker image reference Harbor's backends pull:
/// `[host[:port]/]path[:tag]`, each path component lowercase
/// (`[a-z0-9]+` joined by `.`, `_`, `__` or dashes), the tag
/// `[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}`, at most 255 characters before it.
fn check_image_ref(s: &str) -> Result<(), String> {
    let (name, tag) = match s.rfind(':') {
        Some(i) if !s[i..].contains('/') => (&s[..i], Some(&s[i + 1..])),
        _ => (s, None),
    };
    if let Some(tag) = tag {
        let b = tag.as_bytes();
        let ok = !b.is_empty()
            && b.len() <= 128
            && (b[0].is_ascii_alphanumeric() || b[0] == b'_')
            && b.iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'));
        if !ok {
            return Err(format!("tag {tag:?} is not a Docker tag"));
        }
    }
    if name.is_empty() || name.len() > 255 {
        return Err("the name is empty or longer than 255 characters".into());
    }
    let mut parts: Vec<&str> = name.split('/').collect();
    if parts.len() > 1 && (parts[0].contains(['.', ':']) || parts[0] == "localhost") {
        let host = parts.remove(0);
        let (h, port) = host.split_once(':').unwrap_or((host, "0"));
        let ok = !h.is_empty()
            && h.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-'))
            && !port.is_empty()
            && port.bytes().all(|c| c.is_ascii_digit());
        if !ok {
            return Err(format!("registry {host:?} is not a host[:port]"));
        }
    }
    for p in parts {
        // [a-z0-9]+ ((\.|_|__|-+) [a-z0-9]+)*
        let b = p.as_bytes();
        let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
        let mut ok = !b.is_empty() && alnum(b[0]) && alnum(b[b.len() - 1]);
        let mut i = 0;
        while ok && i < b.len() {
            if alnum(b[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && !alnum(b[i]) {
                i += 1;
            }
            let sep = &p[start..i];
            ok = matches!(sep, "." | "_" | "__") || sep.bytes().all(|c| c == b'-');
        }
        if !ok {
            return Err(format!(
                "path component {p:?} is not lowercase letters and digits joined by `.`, `_`, `__` or `-`"
            ));
        }
    }
    Ok(())
}

/// `template` with `{id}` (lowercased: Docker repositories are lowercase)
/// and `{role}` replaced, checked to be an image reference.
fn render_image(template: &str, id: &str, role: ImageRole) -> Result<String, ScaffoldError> {
    let image = template
        .replace("{id}", &id.to_ascii_lowercase())
        .replace("{role}", role.name());
    check_image_ref(&image).map_err(|why| ScaffoldError::Instance {
        instance_id: id.to_string(),
        message: format!(
            "--docker-image-template {template:?} gives {image:?}, not an image reference: {why}"
        ),
    })?;
    Ok(image)
}

/// Harbor's task content hash (`harbor dataset add`, `harbor sync`,
/// `harbor publish`: harbor 0.25.0's `Packager.compute_content_hash`) of
/// the task directory `task`, as `sha256:<hex>`: the SHA-256 of one line
/// `<path>\0<sha256 hex of the file>\n` per file, sorted by path — the
/// files `task.toml`, `instruction.md`, `README.md`, `trajectory.json` and
/// every file below `environment/`, `tests/`, `solution/` and `steps/`,
/// less Harbor's default ignores (`__pycache__/`, `*.pyc`, `.DS_Store`,
/// `*.swp`, `*.swo`, `*~`). The directory is read without following links;
/// a symbolic link, a `.gitignore` or `.harborignore` (which would change
/// Harbor's selection), a name that is not UTF-8 or a file over
/// `limits.max_file_bytes` is an error naming it.
pub fn task_digest(
    task: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<String, ScaffoldError> {
    use sha2::{Digest, Sha256};
    let limit = limits.max_file_bytes;
    let refuse = |path: PathBuf, why: &str| ScaffoldError::Format {
        path,
        message: format!("cannot pin the task in dataset.toml: {why}"),
    };
    let first = |errs: Vec<codethread_lang::io::IoError>| {
        errs.into_iter()
            .next()
            .map(ScaffoldError::from)
            .unwrap_or_else(|| refuse(task.to_path_buf(), "unreadable"))
    };
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    if std::fs::symlink_metadata(task.join(".gitignore")).is_ok() {
        return Err(refuse(task.join(".gitignore"), "Harbor would filter by it"));
    }
    for single in [
        "task.toml",
        "instruction.md",
        "README.md",
        "trajectory.json",
    ] {
        let p = task.join(single);
        match std::fs::symlink_metadata(&p) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(ScaffoldError::io(&p, e)),
            Ok(_) => files.push((
                single.to_string(),
                codethread_lang::io::read_regular_nofollow(&p, limit)?,
            )),
        }
    }
    for dir in ["environment", "tests", "solution", "steps"] {
        let Some(d) = codethread_lang::io::dir_below_nofollow(task, Path::new(dir))? else {
            continue;
        };
        for f in codethread_lang::io::read_tree_nofollow(&d, limit).map_err(first)? {
            let Ok(rel) = String::from_utf8(f.rel) else {
                return Err(refuse(d.clone(), "a file name is not UTF-8"));
            };
            let name = rel.rsplit('/').next().unwrap_or(&rel);
            if name == ".harborignore" {
                return Err(refuse(d.join(&rel), "Harbor would filter by it"));
            }
            let ignored = rel.split('/').any(|c| c == "__pycache__")
                || name == ".DS_Store"
                || [".pyc", ".swp", ".swo", "~"]
                    .iter()
                    .any(|s| name.ends_with(s));
            if !ignored {
                files.push((format!("{dir}/{rel}"), f.bytes));
            }
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut outer = Sha256::new();
    for (rel, bytes) in &files {
        let inner = Sha256::digest(bytes);
        outer.update(rel.as_bytes());
        outer.update(b"\0");
        outer.update(hex(&inner).as_bytes());
        outer.update(b"\n");
    }
    Ok(format!("sha256:{}", hex(&outer.finalize())))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `name` is a Harbor package name (`org/name`, each
/// `[A-Za-z0-9][A-Za-z0-9._-]*`, no `..`).
fn is_package_name(name: &str) -> bool {
    let part = |p: &str| {
        p.as_bytes().first().is_some_and(u8::is_ascii_alphanumeric)
            && p.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
    };
    !name.contains("..")
        && name
            .split_once('/')
            .is_some_and(|(o, n)| part(o) && part(n))
}

/// The dataset's `org/name`: the option, or `codethread/<out's name>`.
fn dataset_name(out: &Path, opts: &HarborExportOptions) -> Result<String, ScaffoldError> {
    if let Some(n) = &opts.dataset_name {
        if !is_package_name(n) {
            return Err(ScaffoldError::Format {
                path: out.join("dataset.toml"),
                message: format!(
                    "dataset name {n:?} is not `org/name` (letters, digits, `._-`, not starting with a dot, no `..`)"
                ),
            });
        }
        return Ok(n.clone());
    }
    let derived = out
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| format!("codethread/{n}"))
        .filter(|n| is_package_name(n));
    Ok(derived.unwrap_or_else(|| "codethread/dataset".into()))
}

/// `dataset.toml` as Harbor 0.25.0 writes it (`harbor init --dataset`,
/// then `harbor dataset add` of each task: `DatasetManifest.to_toml`), under
/// a header of comment lines.
fn dataset_toml(name: &str, description: &str, tasks: &[(String, String)]) -> String {
    let mut t = format!(
        "# Harbor dataset manifest for {name}, written by codethread-chain (chain harbor).\n\
         # Each task is pinned by its content hash; after editing a task: harbor sync DIR\n\n"
    );
    t.push_str(&format!(
        "[dataset]\nname = {}\nversion = \"1.0.0\"\ndescription = {}\nauthors = []\nkeywords = []\n\n",
        toml_str(name),
        toml_str(description)
    ));
    if tasks.is_empty() {
        t.push_str("tasks = []\n");
    }
    for (task, digest) in tasks {
        t.push_str(&format!(
            "[[tasks]]\nname = {}\ndigest = {}\n\n",
            toml_str(task),
            toml_str(digest)
        ));
    }
    t
}

/// A TOML basic string.
fn toml_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c if c.is_control() => o.push_str(&format!("\\u{:04X}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The collect hook of a step: the agent's work as a diff against `base`
/// (a ref of the agent's repository), written atomically to
/// `/logs/artifacts/<name>` for each `(name, base)`.
fn collect_command(diffs: &[(&str, &str)]) -> String {
    let mut c = String::from("set -e; mkdir -p /logs/artifacts; cd /testbed; git add -A");
    for (name, base) in diffs {
        c.push_str(&format!(
            "; git diff --cached --binary {base} > /logs/artifacts/.{name}.tmp; mv /logs/artifacts/.{name}.tmp /logs/artifacts/{name}"
        ));
    }
    c
}

/// The agent's image: the setup (sealed patch bind-mounted for that one
/// step, [`SETUP_SCRIPT`]) and the setup commit kept under [`SETUP_REF`].
fn agent_dockerfile(g: &Grading) -> String {
    crate::mini_swe_agent::setup_dockerfile(
        &g.from,
        &g.prepare,
        "the agent's setup state of one instance",
        &format!(" && git update-ref {SETUP_REF} HEAD"),
    )
}

/// The verifier's image: the instance image at base (full history, what
/// the row's `eval_script` expects), swebench installed beside it in its
/// own Python (with `uv`, or copied from `grader`: [`HarborExportOptions::grader_image`]),
/// the tests directory baked in at `/tests`.
fn verifier_dockerfile(from: &str, prepare: &str, grader: Option<&str>) -> String {
    match grader {
        Some(g) => format!(
            "# codethread: the verifier of one step (written by codethread-chain). Build context: this directory.\n\
             FROM {g} AS grader\n\
             FROM {from}\n\
             {prepare}\
             COPY --from=grader /opt/codethread-grader /opt/codethread-grader\n\
             COPY . /tests\n\
             WORKDIR /testbed\n"
        ),
        None => format!(
            "# codethread: the verifier of one step (written by codethread-chain). Build context: this directory.\n\
             FROM {UV_IMAGE} AS uv\n\
             FROM {from}\n\
             {prepare}\
             COPY --from=uv /uv /usr/local/bin/uv\n\
             ENV UV_PYTHON_INSTALL_DIR=/opt/codethread-python\n\
             RUN uv venv --python 3.12 /opt/codethread-grader && \\\n    \
             uv pip install --python /opt/codethread-grader/bin/python {SWEBENCH_PIN}\n\
             COPY . /tests\n\
             WORKDIR /testbed\n"
        ),
    }
}

/// The verifier script of one step: `mode` is `gate` or `resolve`, `patch`
/// the collected diff it grades (relative to the setup state).
fn test_sh(mode: &str, patch: &str) -> String {
    format!(
        r#"#!/bin/bash
# codethread: grade one step (written by codethread-chain). Runs in the separate
# verifier container: the instance image at base, swebench in /opt/codethread-grader.
# The directories can be moved (to grade recorded logs outside a container).
set -u
GRADER="${{CODETHREAD_GRADER_PYTHON:-/opt/codethread-grader/bin/python}}"
TESTS="${{CODETHREAD_TESTS_DIR:-/tests}}"
REPO="${{CODETHREAD_REPO_DIR:-/testbed}}"
ARTIFACTS="${{CODETHREAD_ARTIFACTS_DIR:-/logs/artifacts}}"
OUT="${{CODETHREAD_VERIFIER_DIR:-/logs/verifier}}"
PATCH="$ARTIFACTS/{patch}"
mkdir -p "$OUT"
log="$OUT/test_output.txt"
: > "$log"
status=applied
cd "$REPO" || status=setup_failed
if [ "$status" = applied ] && [ -s "$TESTS/setup.patch" ]; then
  git apply --whitespace=nowarn "$TESTS/setup.patch" >> "$OUT/apply.log" 2>&1 || status=setup_failed
fi
if [ "$status" = applied ]; then
  if [ ! -f "$PATCH" ]; then
    status=no_diff
  elif [ ! -s "$PATCH" ]; then
    status=empty_patch
  elif ! {{ git apply --verbose "$PATCH" || git apply --verbose --reject "$PATCH" || patch --batch --fuzz=5 -p1 -i "$PATCH"; }} >> "$OUT/apply.log" 2>&1; then
    status=patch_failed_to_apply
  fi
fi
if [ "$status" = applied ]; then
  bash "$TESTS/eval.sh" > "$log" 2>&1
fi
exec "$GRADER" "$TESTS/grade.py" {mode} "$TESTS/instance.json" "$status" "$log" "$OUT"
"#
    )
}

/// The oracle's script: apply `solution.patch` in the repository.
const SOLVE_SH: &str = "#!/bin/bash\n# codethread: the oracle (written by codethread-chain): the reference change of this step.\n\
set -e\ncd /testbed\nif [ -s /solution/solution.patch ]; then\n  git apply --whitespace=nowarn /solution/solution.patch\nfi\n";

/// The second step's setup: the first step's work committed under
/// [`STEP1_REF`], so the second step's diff is PR2 alone.
fn step2_setup_sh() -> String {
    format!(
        "#!/bin/sh\n# codethread: commit the implementation step's work (written by codethread-chain).\n\
         set -e\ncd /testbed\ngit add -A\n\
         git -c user.name=codethread -c user.email=codethread@localhost -c commit.gpgsign=false \\\n  \
         commit -q --allow-empty --no-verify -m \"codethread: implementation step\"\n\
         git update-ref {STEP1_REF} HEAD\n"
    )
}

/// The file of `environment/` holding the agent's PR1 (follow_on_agent).
pub const AGENT_PR1_FILE: &str = "agent_pr1.patch";

/// The follow_on_agent image's second setup script: the agent's PR1
/// applied on the setup commit and committed under [`STEP1_REF`] (the
/// state the chain's second step starts from), nothing else kept.
fn agent_pr1_setup_sh() -> String {
    let step1 = format!("git update-ref {STEP1_REF} HEAD");
    [
        "#!/bin/sh",
        "# codethread: commit a given agent's PR1 on the setup commit (written by codethread-chain).",
        "set -e",
        "cd /testbed",
        "if [ -s \"$1\" ]; then",
        "  git apply --index --whitespace=nowarn \"$1\"",
        "fi",
        "git -c user.name=codethread -c user.email=codethread@localhost -c commit.gpgsign=false \\",
        "  commit -q --allow-empty --no-verify -m \"codethread: implementation step\"",
        &step1,
        "",
    ]
    .join("\n")
}

/// The instruction text of a step.
fn instruction(statement: &str) -> String {
    let mut s = String::from(
        "The repository is checked out at /testbed. Make your changes there; they are graded by the \
         repository's own tests.\n\n",
    );
    s.push_str(statement.trim_end());
    s.push('\n');
    s
}

/// The verifier's copy of the row: the agent-side row (no original code)
/// with an empty gold `patch` (the grader never reads it).
fn verifier_row(row: &Map<String, Value>) -> Vec<u8> {
    let mut r = agent_row(row);
    r.insert("patch".into(), Value::String(String::new()));
    serde_json::to_vec_pretty(&Value::Object(r)).unwrap_or_default()
}

fn str_field<'a>(row: &'a Map<String, Value>, f: &str) -> &'a str {
    row.get(f).and_then(Value::as_str).unwrap_or_default()
}

/// One step's tests directory under `task/<rel>`.
fn write_tests(
    task: &Path,
    rel: &Path,
    row: &Map<String, Value>,
    setup_patch: &[u8],
    (mode, patch): (&str, &str),
    grader: Option<&str>,
    g: &Grading,
) -> Result<(), ScaffoldError> {
    let docker = verifier_dockerfile(&g.from, &g.prepare, grader);
    let test = test_sh(mode, patch);
    let (grade, eval) = match &g.native {
        Some(n) => (n.grade, n.eval.as_str()),
        None => (GRADE_PY, str_field(row, "eval_script")),
    };
    let row_bytes = verifier_row(row);
    let mut files: Vec<(&str, &[u8])> = vec![
        ("Dockerfile", docker.as_bytes()),
        ("test.sh", test.as_bytes()),
        ("grade.py", grade.as_bytes()),
        ("eval.sh", eval.as_bytes()),
        ("setup.patch", setup_patch),
        ("instance.json", &row_bytes),
    ];
    if let Some(n) = &g.native {
        files.extend(n.files.iter().map(|(name, b)| (*name, b.as_slice())));
    }
    for (name, bytes) in files {
        write_in(task, &rel.join(name), bytes)?;
    }
    Ok(())
}

fn write_solution(task: &Path, rel: &Path, patch: &[u8]) -> Result<(), ScaffoldError> {
    write_in(task, &rel.join("solve.sh"), SOLVE_SH.as_bytes())?;
    write_in(task, &rel.join("solution.patch"), patch)?;
    Ok(())
}

/// The instance's rows of the chain's two harness exports, by id.
fn read_rows(
    path: &Path,
    limits: codethread_lang::io::SourceLimits,
) -> Result<BTreeMap<String, Map<String, Value>>, ScaffoldError> {
    let text = codethread_bench::records::decode_text(read(path, limits)?);
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Object(m)) => {
                let id = str_field(&m, "instance_id").to_string();
                out.insert(id, m);
            }
            Ok(_) => {
                return Err(ScaffoldError::Format {
                    path: path.to_path_buf(),
                    message: format!("line {}: not a JSON object", n + 1),
                })
            }
            Err(e) => return Err(ScaffoldError::json(path, n, &e)),
        }
    }
    Ok(out)
}

/// The `task.toml` of a task.
struct TomlTask<'a> {
    id: &'a str,
    cond: HarborCondition,
    repo: &'a str,
    opts: &'a HarborExportOptions,
    /// `[environment].docker_image` (with a template).
    agent_image: Option<&'a str>,
}

impl TomlTask<'_> {
    fn head(&self) -> String {
        let mut t = String::from("schema_version = \"1.4\"\nsource = \"codethread\"\n");
        if self.cond == HarborCondition::Chain {
            t.push_str("multi_step_reward_strategy = \"final\"\n");
        }
        t.push_str(&format!(
            "\n[task]\nname = {}\ndescription = {}\nkeywords = [\"codethread\", {}]\n",
            toml_str(&task_name(self.id, self.cond)),
            toml_str(&format!(
                "CodeThread {} of {} ({})",
                self.cond, self.id, self.repo
            )),
            toml_str(self.cond.name()),
        ));
        t.push_str(&format!(
            "\n[metadata]\ninstance_id = {}\ncondition = {}\nrepo = {}\n",
            toml_str(self.id),
            toml_str(self.cond.name()),
            toml_str(self.repo)
        ));
        t.push_str(&format!(
            "\n[environment]\nbuild_timeout_sec = {:.1}\nworkdir = \"/testbed\"\n",
            self.opts.build_timeout_sec
        ));
        if let Some(image) = self.agent_image {
            t.push_str(&format!("docker_image = {}\n", toml_str(image)));
        }
        t
    }

    /// The verifier's own prebuilt image (`table` is `verifier` or
    /// `steps.verifier`): Harbor then runs it without building `tests/`
    /// and without uploading the tests (they are baked in at `/tests`).
    fn verifier_env(&self, table: &str, image: Option<&str>) -> String {
        match image {
            None => String::new(),
            Some(image) => format!(
                "\n[{table}.environment]\nbuild_timeout_sec = {:.1}\nworkdir = \"/testbed\"\ndocker_image = {}\n",
                self.opts.build_timeout_sec,
                toml_str(image)
            ),
        }
    }

    fn single(&self, collect: &str, verifier_image: Option<&str>) -> String {
        let mut t = self.head();
        t.push_str(&format!(
            "\n[agent]\ntimeout_sec = {:.1}\n\n[verifier]\nenvironment_mode = \"separate\"\ntimeout_sec = {:.1}\n{}\n[[verifier.collect]]\ncommand = {}\n",
            self.opts.agent_timeout_sec,
            self.opts.verifier_timeout_sec,
            self.verifier_env("verifier", verifier_image),
            toml_str(collect)
        ));
        t
    }

    fn steps(&self, steps: &[(&str, Option<f64>, String, Option<String>)]) -> String {
        let mut t = self.head();
        t.push_str("\n[verifier]\nenvironment_mode = \"separate\"\n");
        for (name, min_reward, collect, verifier_image) in steps {
            t.push_str(&format!("\n[[steps]]\nname = {}\n", toml_str(name)));
            if let Some(m) = min_reward {
                t.push_str(&format!("min_reward = {m:.1}\n"));
            }
            t.push_str(&format!(
                "\n[steps.agent]\ntimeout_sec = {:.1}\n\n[steps.verifier]\nenvironment_mode = \"separate\"\ntimeout_sec = {:.1}\n{}\n[[steps.verifier.collect]]\ncommand = {}\n",
                self.opts.agent_timeout_sec,
                self.opts.verifier_timeout_sec,
                self.verifier_env("steps.verifier", verifier_image.as_deref()),
                toml_str(collect)
            ));
        }
        t
    }
}

/// The material of one instance's tasks.
struct Material {
    id: String,
    repo: String,
    impl_row: Map<String, Value>,
    ha_row: Map<String, Value>,
    pr0_sealed: Vec<u8>,
    human_pr1: Vec<u8>,
    gold: Vec<u8>,
    /// The agent's PR1 (follow_on_agent), or why there is none.
    agent_pr1: Result<Vec<u8>, String>,
    /// Where and how its steps run and are graded.
    grading: Grading,
}

/// Where an instance's steps run and how they are graded: the image the
/// agent's and the verifiers' images start `FROM`, the Dockerfile lines
/// that complete it, and (FeatBench, SWE-bench Pro) the benchmark's own
/// grading, which replaces the row's `eval_script` and swebench's grading
/// ([`GRADE_PY`]).
struct Grading {
    from: String,
    prepare: String,
    native: Option<NativeGrading>,
}

/// A benchmark's own grading in a verifier: its grader (`tests/grade.py`),
/// its evaluation script (`tests/eval.sh`) and the files beside them.
struct NativeGrading {
    grade: &'static str,
    eval: String,
    files: Vec<(&'static str, Vec<u8>)>,
}

impl Grading {
    /// The grading of `inst` with its chain rows: FeatBench's evaluation for
    /// a FeatBench instance (its image, or the one the row names), Pro's for
    /// a SWE-bench Pro instance (its image, its run script and parser from
    /// `opts.pro_scripts`), else swebench's with the row's own image and
    /// `eval_script` (checked here).
    fn of(
        inst: &codethread_bench::Instance,
        impl_row: &Map<String, Value>,
        ha_row: &Map<String, Value>,
        opts: &HarborExportOptions,
    ) -> Result<Grading, ScaffoldError> {
        use codethread_bench::Benchmark;
        let fail = |message: String| ScaffoldError::Instance {
            instance_id: inst.instance_id.clone(),
            message,
        };
        let bench = Benchmark::of(inst);
        if matches!(bench, Benchmark::FeatBench | Benchmark::SweBenchPro)
            && inst.fail_to_pass.is_empty()
        {
            return Err(fail(format!(
                "FAIL_TO_PASS is empty: nothing to grade by {bench}'s rules"
            )));
        }
        let g = match bench {
            Benchmark::FeatBench => {
                let env = codethread_bench::featbench::environment(inst).ok_or_else(|| {
                    fail("no image: the row names none and has no PR number (`number`) for FeatBench's".into())
                })?;
                Grading {
                    native: Some(NativeGrading {
                        grade: GRADE_FEATBENCH_PY,
                        eval: codethread_bench::featbench::eval_script(inst, &env.repo_dir),
                        files: Vec::new(),
                    }),
                    from: env.image,
                    prepare: env.prepare,
                }
            }
            Benchmark::SweBenchPro => {
                let root = opts.pro_scripts.as_deref().ok_or_else(|| {
                    fail("SWE-bench Pro grades with each instance's own run_script.sh and parser.py: give a checkout of scaleapi/SWE-bench_Pro-os (--pro-scripts)".into())
                })?;
                let scripts =
                    codethread_bench::pro::load_scripts(root, &inst.instance_id, opts.limits)
                        .map_err(|e| fail(e.to_string()))?;
                let env = bench.environment(inst);
                Grading {
                    native: Some(NativeGrading {
                        grade: GRADE_PRO_PY,
                        eval: codethread_bench::pro::eval_script(inst, &scripts, &env.workdir),
                        files: vec![
                            ("run_script.sh", scripts.run_script),
                            ("parser.py", scripts.parser),
                        ],
                    }),
                    prepare: codethread_bench::testbed_link(&env.workdir),
                    from: env.image,
                }
            }
            _ => {
                check_harness_row(impl_row, HarnessGeneration::V5)?;
                check_harness_row(ha_row, HarnessGeneration::V5)?;
                Grading {
                    from: upstream_image(impl_row),
                    prepare: String::new(),
                    native: None,
                }
            }
        };
        if g.from.is_empty() || g.from.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(fail(format!(
                "image name {:?} cannot be written into a Dockerfile",
                g.from
            )));
        }
        Ok(g)
    }
}

/// The images one task names, and where each is built from (relative to
/// the task directory): the agent's first.
fn task_images(cond: HarborCondition) -> Vec<(ImageRole, &'static str)> {
    match cond {
        HarborCondition::Implementation => vec![
            (ImageRole::AgentPr0, "environment"),
            (ImageRole::VerifierGate, "tests"),
        ],
        HarborCondition::FollowOnHuman => vec![
            (ImageRole::AgentBase, "environment"),
            (ImageRole::VerifierHa, "tests"),
        ],
        HarborCondition::Chain => vec![
            (ImageRole::AgentPr0, "environment"),
            (ImageRole::VerifierGate, "steps/implement/tests"),
            (ImageRole::VerifierAa, "steps/follow_on/tests"),
        ],
        HarborCondition::FollowOnAgent => vec![
            (ImageRole::AgentPr1, "environment"),
            (ImageRole::VerifierAa, "tests"),
        ],
    }
}

fn write_task(
    out: &Path,
    m: &Material,
    cond: HarborCondition,
    opts: &HarborExportOptions,
) -> Result<(PathBuf, Vec<HarborImage>), ScaffoldError> {
    let agent_pr1: &[u8] = match (cond, &m.agent_pr1) {
        (HarborCondition::FollowOnAgent, Ok(p)) => p,
        (HarborCondition::FollowOnAgent, Err(why)) => {
            return Err(ScaffoldError::Instance {
                instance_id: m.id.clone(),
                message: format!("follow_on_agent skipped: {why}"),
            })
        }
        _ => b"",
    };
    let rel = PathBuf::from(format!("{}.{cond}", m.id));
    let grader = opts.grader_image.as_deref();
    let mut images = Vec::new();
    if let Some(template) = &opts.docker_image_template {
        for (role, context) in task_images(cond) {
            images.push(HarborImage {
                image: render_image(template, &m.id, role)?,
                role,
                instance_id: m.id.clone(),
                context: rel.join(context),
            });
        }
    }
    let image = |i: usize| images.get(i).map(|h| h.image.clone());
    let task = codethread_lang::io::create_dir_all_nofollow(out, &rel)?;
    let agent_image = image(0);
    let toml = TomlTask {
        id: &m.id,
        cond,
        repo: &m.repo,
        opts,
        agent_image: agent_image.as_deref(),
    };
    let setup: &[u8] = match cond {
        HarborCondition::FollowOnHuman => b"",
        _ => &m.pr0_sealed,
    };
    let env = Path::new("environment");
    let dockerfile = if cond == HarborCondition::FollowOnAgent {
        write_in(&task, &env.join(AGENT_PR1_FILE), agent_pr1)?;
        write_in(
            &task,
            &env.join("agent_pr1.sh"),
            agent_pr1_setup_sh().as_bytes(),
        )?;
        crate::mini_swe_agent::setup_dockerfile(
            &m.grading.from,
            &m.grading.prepare,
            "the agent's setup state of one instance: PR0, then an agent's PR1",
            &format!(
                " && git update-ref {SETUP_REF} HEAD && sh /codethread-setup/agent_pr1.sh /codethread-setup/{AGENT_PR1_FILE}"
            ),
        )
    } else {
        agent_dockerfile(&m.grading)
    };
    write_in(&task, &env.join("Dockerfile"), dockerfile.as_bytes())?;
    write_in(&task, &env.join("setup.sh"), SETUP_SCRIPT.as_bytes())?;
    write_in(&task, &env.join("setup.patch"), setup)?;
    let first_collect = collect_command(&[(MODEL_PATCH, SETUP_REF)]);
    match cond {
        HarborCondition::Implementation | HarborCondition::FollowOnHuman => {
            let (row, mode, solution) = if cond == HarborCondition::Implementation {
                (&m.impl_row, "gate", &m.human_pr1)
            } else {
                (&m.ha_row, "resolve", &m.gold)
            };
            write_in(
                &task,
                Path::new("task.toml"),
                toml.single(&first_collect, image(1).as_deref()).as_bytes(),
            )?;
            write_in(
                &task,
                Path::new("instruction.md"),
                instruction(str_field(row, "problem_statement")).as_bytes(),
            )?;
            write_tests(
                &task,
                Path::new("tests"),
                row,
                setup,
                (mode, MODEL_PATCH),
                grader,
                &m.grading,
            )?;
            write_solution(&task, Path::new("solution"), solution)?;
        }
        HarborCondition::Chain => {
            let second_collect =
                collect_command(&[(MODEL_PATCH, STEP1_REF), (STACK_PATCH, SETUP_REF)]);
            write_in(
                &task,
                Path::new("task.toml"),
                toml.steps(&[
                    ("implement", Some(1.0), first_collect, image(1)),
                    ("follow_on", None, second_collect, image(2)),
                ])
                .as_bytes(),
            )?;
            let s1 = Path::new("steps/implement");
            write_in(
                &task,
                &s1.join("instruction.md"),
                instruction(str_field(&m.impl_row, "problem_statement")).as_bytes(),
            )?;
            write_tests(
                &task,
                &s1.join("tests"),
                &m.impl_row,
                setup,
                ("gate", MODEL_PATCH),
                grader,
                &m.grading,
            )?;
            write_solution(&task, &s1.join("solution"), &m.human_pr1)?;
            let s2 = Path::new("steps/follow_on");
            write_in(
                &task,
                &s2.join("instruction.md"),
                instruction(str_field(&m.ha_row, "problem_statement")).as_bytes(),
            )?;
            write_in(
                &task,
                &s2.join("workdir/setup.sh"),
                step2_setup_sh().as_bytes(),
            )?;
            write_tests(
                &task,
                &s2.join("tests"),
                &m.ha_row,
                setup,
                ("resolve", STACK_PATCH),
                grader,
                &m.grading,
            )?;
            write_solution(&task, &s2.join("solution"), &m.gold)?;
        }
        HarborCondition::FollowOnAgent => {
            // As the chain's second step: PR2 against the agent's PR1
            // commit, PR1 + PR2 against the setup commit (what is graded).
            let collect = collect_command(&[(MODEL_PATCH, STEP1_REF), (STACK_PATCH, SETUP_REF)]);
            write_in(
                &task,
                Path::new("task.toml"),
                toml.single(&collect, image(1).as_deref()).as_bytes(),
            )?;
            write_in(
                &task,
                Path::new("instruction.md"),
                instruction(str_field(&m.ha_row, "problem_statement")).as_bytes(),
            )?;
            write_tests(
                &task,
                Path::new("tests"),
                &m.ha_row,
                setup,
                ("resolve", STACK_PATCH),
                grader,
                &m.grading,
            )?;
            // The oracle: the gold patch on the agent's PR1 (it may not
            // apply: the PR1 is the agent's, not the human's).
            write_solution(&task, Path::new("solution"), &m.gold)?;
        }
    }
    Ok((rel, images))
}

/// Export every built instance of the chain at `chain_dir` as Harbor tasks
/// under `out` (a local dataset: `harbor run -p <out>`). The rows come
/// from the chain's harness exports (`exports/implementation_task.jsonl`,
/// `exports/follow_on_human_pr1.jsonl`) and must carry what swebench 5.x
/// grades with (`image`, `eval_script`, `log_parser`, `eval_type`: build
/// with `--harness 5`); an instance without them, or whose files cannot be
/// read, is one error in [`HarborExport::errors`], the others are written.
pub fn export_harbor(
    chain_dir: &Path,
    out: &Path,
    opts: &HarborExportOptions,
) -> Result<HarborExport, ScaffoldError> {
    let chain = Chain::open(chain_dir, opts.limits)?;
    let impl_rows = read_rows(
        &chain_dir.join("exports/implementation_task.jsonl"),
        opts.limits,
    )?;
    let ha_rows = read_rows(
        &chain_dir.join("exports/follow_on_human_pr1.jsonl"),
        opts.limits,
    )?;
    if opts.conditions.contains(&HarborCondition::FollowOnAgent) && opts.agent_pr1.is_none() {
        return Err(ScaffoldError::Format {
            path: out.to_path_buf(),
            message: "condition follow_on_agent needs the agent's PR1 predictions (--agent-pr1)"
                .into(),
        });
    }
    if let Some(g) = &opts.grader_image {
        if g.is_empty() || g.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ScaffoldError::Format {
                path: out.to_path_buf(),
                message: format!(
                    "grader image {:?} cannot be written into a Dockerfile",
                    g.escape_debug().to_string()
                ),
            });
        }
    }
    std::fs::create_dir_all(out).map_err(|e| ScaffoldError::io(out, e))?;
    let name = dataset_name(out, opts)?;
    if let Some(t) = &opts.docker_image_template {
        if !(t.contains("{id}") && t.contains("{role}")) {
            return Err(ScaffoldError::Format {
                path: out.to_path_buf(),
                message: format!(
                    "--docker-image-template {t:?} must contain {{id}} and {{role}} (six images per instance)"
                ),
            });
        }
    }
    let mut res = HarborExport::default();
    // image -> (instance, role): two instances must not share a name.
    let mut image_owner: BTreeMap<String, (String, ImageRole)> = BTreeMap::new();
    let mut conds = opts.conditions.clone();
    conds.sort();
    conds.dedup();
    for inst in &chain.instances {
        let id = &inst.instance_id;
        if !chain.is_built(id) {
            continue;
        }
        let material = (|| -> Result<Material, ScaffoldError> {
            check_id(id)?;
            let missing = |what: &str| ScaffoldError::Instance {
                instance_id: id.clone(),
                message: format!("no row in exports/{what}.jsonl"),
            };
            let impl_row = impl_rows
                .get(id)
                .cloned()
                .ok_or_else(|| missing("implementation_task"))?;
            let ha_row = ha_rows
                .get(id)
                .cloned()
                .ok_or_else(|| missing("follow_on_human_pr1"))?;
            let grading = Grading::of(inst, &impl_row, &ha_row, opts)?;
            let dir = chain_dir.join("instances").join(id);
            Ok(Material {
                id: id.clone(),
                repo: inst.repo.clone(),
                pr0_sealed: read(&dir.join(PR0_SEALED_FILE), opts.limits)?,
                human_pr1: chain.read_human_pr1(id)?,
                gold: codethread_bench::carry::take_bytes(&ha_row, "patch")
                    .map_err(|message| ScaffoldError::Instance {
                        instance_id: id.clone(),
                        message: format!("exports/follow_on_human_pr1.jsonl: {message}"),
                    })?
                    .unwrap_or_default(),
                agent_pr1: agent_pr1_of(opts.agent_pr1.as_ref(), id),
                impl_row,
                ha_row,
                grading,
            })
        })();
        let m = match material {
            Ok(m) => m,
            Err(e) => {
                res.errors.push(e);
                continue;
            }
        };
        for &c in &conds {
            if let (HarborCondition::FollowOnAgent, Err(why)) = (c, &m.agent_pr1) {
                res.skipped.push(HarborSkip {
                    instance_id: id.clone(),
                    condition: c,
                    reason: why.clone(),
                });
                continue;
            }
            let written = write_task(out, &m, c, opts).and_then(|(rel, images)| {
                for i in &images {
                    let owner = image_owner
                        .entry(i.image.clone())
                        .or_insert_with(|| (id.clone(), i.role));
                    if *owner != (id.clone(), i.role) {
                        return Err(ScaffoldError::Instance {
                            instance_id: id.clone(),
                            message: format!(
                                "image {} would also be the {} image of {}",
                                i.image,
                                owner.1.name(),
                                owner.0
                            ),
                        });
                    }
                }
                let digest = task_digest(&out.join(&rel), opts.limits)?;
                Ok((rel, images, digest))
            });
            match written {
                Ok((rel, images, digest)) => {
                    res.pinned.push((task_name(id, c), digest));
                    res.images.extend(images);
                    res.tasks.push((id.clone(), c, rel));
                }
                Err(e) => res.errors.push(e),
            }
        }
    }
    // The order of `harbor init`'s scan: by task directory (the task name
    // is `codethread/<directory>`).
    res.pinned.sort();
    let description = format!(
        "CodeThread chains as Harbor tasks ({}), exported by codethread-chain",
        conds
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(", ")
    );
    write_in(
        out,
        Path::new("dataset.toml"),
        dataset_toml(&name, &description, &res.pinned).as_bytes(),
    )?;
    if opts.docker_image_template.is_some() {
        let mut lines = String::from("# image\tbuild context (relative to this directory)\n");
        let mut seen = std::collections::BTreeSet::new();
        for i in &res.images {
            if seen.insert(i.image.clone()) {
                lines.push_str(&format!("{}\t{}\n", i.image, i.context.display()));
            }
        }
        write_in(out, Path::new(IMAGES_FILE), lines.as_bytes())?;
    }
    Ok(res)
}

/// The agent's PR1 of `id`, or why follow_on_agent has none.
fn agent_pr1_of(given: Option<&AgentPr1>, id: &str) -> Result<Vec<u8>, String> {
    let Some(a) = given else {
        return Err("no agent PR1 predictions given".into());
    };
    let patch = a
        .patches
        .get(id)
        .ok_or_else(|| format!("no PR1 prediction in {}", a.source.display()))?;
    if let Some(kept) = &a.kept {
        if !kept.contains(id) {
            return Err(format!(
                "its PR1 in {} was not kept by the gate",
                a.source.display()
            ));
        }
    }
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Err(format!(
            "its PR1 in {} is an empty patch",
            a.source.display()
        ));
    }
    if let Some(why) = a.unusable.get(id) {
        return Err(format!("{why} ({})", a.source.display()));
    }
    Ok(patch.clone())
}

/// The list of prebuilt images written beside `dataset.toml` with
/// [`HarborExportOptions::docker_image_template`]: one line per image,
/// `<image>\t<build context>` (the context relative to the dataset,
/// the first task directory using the image), after one comment line.
pub const IMAGES_FILE: &str = "images.tsv";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_dockerfile_is_the_chain_setup_dockerfile_plus_the_setup_ref() {
        // The bytes the Harbor export wrote before the two Dockerfiles had one source.
        let want = "# codethread: the agent's setup state of one instance (written by codethread-chain).\n\
FROM img:1\n\
WORKDIR /testbed\n\
RUN --mount=type=bind,source=.,target=/codethread-setup \\\n    \
CODETHREAD_SCRUB_COPIES=1 sh /codethread-setup/setup.sh /codethread-setup/setup.patch && git update-ref refs/codethread/setup HEAD\n";
        let g = Grading {
            from: "img:1".into(),
            prepare: String::new(),
            native: None,
        };
        assert_eq!(agent_dockerfile(&g), want);
        let chain = crate::mini_swe_agent::setup_dockerfile("img:1", "", "x", "");
        let harbor = agent_dockerfile(&g);
        let tail = format!(" && git update-ref {SETUP_REF} HEAD\n");
        assert_eq!(
            chain.lines().skip(1).collect::<Vec<_>>(),
            harbor
                .strip_suffix(&tail)
                .map(|h| h.lines().skip(1).collect::<Vec<_>>())
                .unwrap_or_default()
        );
    }

    #[test]
    fn conditions_parse_and_name() {
        for c in HarborCondition::EVERY {
            assert_eq!(c.name().parse::<HarborCondition>(), Ok(c));
        }
        assert_eq!("AA".parse(), Ok(HarborCondition::Chain));
        assert!("hh".parse::<HarborCondition>().is_err());
    }

    #[test]
    fn toml_strings_escape() {
        assert_eq!(toml_str("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }

    #[test]
    fn image_references_are_checked() {
        for good in [
            "ubuntu:22.04",
            "registry.example.org:5000/codethread/django__django-11099:verifier-gate",
            "localhost/a-b/c.d:Tag_1",
            "docker.io/swebench/sweb.eval.x86_64.django_1776_django-11099:latest",
        ] {
            check_image_ref(good).unwrap_or_else(|e| panic!("{good}: {e}"));
        }
        for bad in [
            "",
            "Upper/case:x",
            "a//b",
            "a/b:",
            "a/b:-x",
            "a b",
            "/abs/path.sif",
            "reg.io:port/x",
            "a/-b",
            "a/b_",
        ] {
            assert!(check_image_ref(bad).is_err(), "{bad:?}");
        }
        let t = "reg.io/ct/{id}:{role}";
        assert_eq!(
            render_image(t, "BurntSushi__ripgrep-2209", ImageRole::AgentPr0).expect("valid"),
            "reg.io/ct/burntsushi__ripgrep-2209:agent-pr0"
        );
        let e =
            render_image("reg.io/{id}/{role}:x y", "a", ImageRole::VerifierAa).expect_err("space");
        assert!(e.to_string().contains("instance a"), "{e}");
    }

    #[test]
    fn package_names() {
        assert!(is_package_name("codethread/harbor-dev_multilingual"));
        for bad in ["x", "/x", "a/", "a/.b", "a/b/c", "a/b..c", "a/b c"] {
            assert!(!is_package_name(bad), "{bad}");
        }
    }

    #[test]
    fn ids_that_cannot_name_a_task_are_refused() {
        for bad in ["", ".x", "a/b", "a..b", "a b", "é"] {
            assert!(check_id(bad).is_err(), "{bad:?}");
        }
        check_id("django__django-11099").expect("ok");
    }
}
