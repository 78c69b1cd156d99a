//! What an instance's image holds, planned from SWE-bench's own environment specifications
//! (`MAP_REPO_VERSION_TO_SPECS` of swebench < 5, whose harness still built images): the Python,
//! the packages, the install command, with conda replaced by a venv of the Debian release that
//! ships that Python. An instance this machine cannot build gets the reason, never a guess.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cmd;
use crate::error::SandboxError;
use crate::runtime::{suite_for_python, Suite, SUITES};

/// The environment specifications of swebench, as `recipe/specs.py` prints them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct SpecTable {
    /// The swebench version they were read from.
    pub swebench: String,
    /// `repo -> version -> spec` (`MAP_REPO_VERSION_TO_SPECS`).
    pub specs: BTreeMap<String, BTreeMap<String, Value>>,
    /// `repo -> candidate requirement file paths` (`MAP_REPO_TO_REQS_PATHS`).
    #[serde(default)]
    pub reqs_paths: BTreeMap<String, Vec<String>>,
    /// `repo -> command run before pre_install` (`MAP_REPO_TO_INSTALL`).
    #[serde(default)]
    pub repo_install: BTreeMap<String, String>,
    /// `[package, replacement or null]` applied to requirement files (`REPLACE_REQ_PACKAGES`).
    #[serde(default)]
    pub replace_req_packages: Vec<(String, Option<String>)>,
}

/// The script that prints a [`SpecTable`].
pub const SPECS_SCRIPT: &str = include_str!("../recipe/specs.py");

impl SpecTable {
    /// Read a table written by [`SpecTable::dump`] (or by `recipe/specs.py`).
    pub fn from_file(path: &Path) -> Result<SpecTable, SandboxError> {
        let bytes = codethread_lang::io::read_regular(path, 256 << 20)?;
        serde_json::from_slice(&bytes).map_err(|e| SandboxError::Format {
            path: path.to_path_buf(),
            message: format!("not a specification table: {e}"),
        })
    }

    /// Ask swebench: run `recipe/specs.py` with `python` (`PYTHONPATH` extended by
    /// `pythonpath`, e.g. a `pip install --target` directory of `swebench==4.1.0`).
    pub fn dump(python: &Path, pythonpath: Option<&Path>) -> Result<SpecTable, SandboxError> {
        let mut c = Command::new(python);
        c.args(["-c", SPECS_SCRIPT]);
        if let Some(p) = pythonpath {
            let mut paths = vec![p.to_path_buf()];
            if let Some(old) = std::env::var_os("PYTHONPATH") {
                paths.extend(std::env::split_paths(&old));
            }
            c.env(
                "PYTHONPATH",
                std::env::join_paths(paths).map_err(|e| SandboxError::Specs(e.to_string()))?,
            );
        }
        let out = cmd::check(&mut c).map_err(|e| {
            SandboxError::Specs(format!(
                "{e}\n(the specifications come from swebench < 5, e.g. `pip install --no-deps --target DIR swebench==4.1.0` and --specs-pythonpath DIR)"
            ))
        })?;
        serde_json::from_slice(&out)
            .map_err(|e| SandboxError::Specs(format!("{} printed no table: {e}", python.display())))
    }

    /// The spec of `repo` at `version`.
    pub fn spec(&self, repo: &str, version: &str) -> Option<&Value> {
        self.specs.get(repo)?.get(version)
    }
}

/// An instance's environment layer: everything installed before the repository.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EnvPlan {
    /// The Debian release (its Python is the spec's).
    pub suite: &'static str,
    /// The spec's Python, `major.minor`.
    pub python: String,
    /// The spec's conda packages, installed with pip (`name=1.2` as `name==1.2.*`; an
    /// unpinned package that changed what the upstream gold run reports is pinned, see
    /// [`UNPINNED_PINS`]).
    pub conda_packages: Vec<String>,
    /// The requirement file SWE-bench assembles from the repository at the
    /// environment-setup commit, when the spec says `packages: requirements.txt`.
    pub requirements: Option<String>,
    /// The spec's `pip_packages`.
    pub pip_packages: Vec<String>,
    /// Whether the image serves an httpbin.org stand-in (repositories whose tests call it).
    pub httpbin: bool,
}

impl EnvPlan {
    /// A short stable name of the layer: `<repo name>-py<python>-<hash of every input>`.
    pub fn key(&self, repo: &str) -> String {
        let mut h = Sha256::new();
        h.update(serde_json::to_vec(self).unwrap_or_default());
        h.update(crate::recipe::files_id(crate::recipe::ENV_FILES).as_bytes());
        let name = repo.rsplit('/').next().unwrap_or(repo).to_lowercase();
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        format!(
            "{name}-py{}-{}",
            self.python,
            &crate::hex(&h.finalize())[..12]
        )
    }

    /// The suite.
    pub fn suite(&self) -> Suite {
        SUITES
            .iter()
            .copied()
            .find(|s| s.name == self.suite)
            .expect("plans name known suites")
    }
}

/// Conda packages the specs leave unpinned whose newest release changes what the harness
/// reports: pinned to the release under which the upstream gold report was reproduced here.
pub const UNPINNED_PINS: &[(&str, &str)] = &[("pytest", "8.3.3")];

/// Repositories whose test suites call httpbin.org (old requests releases do, directly).
pub const HTTPBIN_REPOS: &[&str] = &["psf/requests"];

/// Everything an instance's image is built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InstancePlan {
    /// The instance.
    pub instance_id: String,
    /// The repository (`owner/name`).
    pub repo: String,
    /// The image name (the row's `image` field, as the harness looks it up).
    pub image: String,
    /// The base commit.
    pub base_commit: String,
    /// The environment layer.
    pub env: EnvPlan,
    /// Commands before the install (`MAP_REPO_TO_INSTALL`, then the spec's `pre_install`).
    pub pre_install: Vec<String>,
    /// The spec's install command.
    pub install: String,
    /// A tag created at the base commit (setuptools_scm versions the project by its newest
    /// tag; a depth-1 clone has none), with where it came from.
    pub scm_tag: Option<(String, String)>,
}

/// Why an instance cannot be built here.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unbuildable {
    /// The instance.
    pub instance_id: String,
    /// The reason.
    pub reason: String,
}

/// Reads a file of the repository at a commit: `Ok(None)` when it is not there.
pub type ReadAt<'a> = dyn FnMut(&str, &str) -> Result<Option<Vec<u8>>, SandboxError> + 'a;

/// Plan the environment of `repo` at `version` from `table`. `read_at(commit, path)` reads the
/// repository's files (the requirement files at the environment-setup commit).
pub fn plan_env(
    table: &SpecTable,
    instance_id: &str,
    repo: &str,
    version: &str,
    env_setup_commit: Option<&str>,
    read_at: &mut ReadAt<'_>,
) -> Result<Result<EnvPlan, Unbuildable>, SandboxError> {
    let no = |reason: String| {
        Ok(Err(Unbuildable {
            instance_id: instance_id.to_string(),
            reason,
        }))
    };
    let Some(spec) = table.spec(repo, version) else {
        return no(format!(
            "swebench {} has no specification for {repo} {version}",
            table.swebench
        ));
    };
    let python = spec
        .get("python")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(suite) = suite_for_python(&python) else {
        return no(format!(
            "needs Python {python}; the base images here are Debian releases, which ship {} (the upstream images install other Pythons with conda, which cannot be downloaded on this machine)",
            SUITES
                .iter()
                .map(|s| format!("{} ({})", s.python, s.name))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    };
    let packages = spec.get("packages").and_then(Value::as_str).unwrap_or("");
    let mut conda_packages = Vec::new();
    let mut requirements = None;
    match packages.trim() {
        "" => {}
        "environment.yml" => {
            return no("its specification installs a conda environment.yml (conda cannot be downloaded on this machine)".into());
        }
        "requirements.txt" => {
            let Some(commit) = env_setup_commit.filter(|c| !c.is_empty()) else {
                return no("its specification installs requirements.txt, and the row has no environment_setup_commit".into());
            };
            match requirements_at(table, repo, commit, read_at)? {
                Some(r) => requirements = Some(r),
                None => {
                    return no(format!(
                        "its specification installs requirements.txt from {repo} at {commit}, which the source cannot read (none of {:?} there; give --history DIR with a clone holding that commit)",
                        table.reqs_paths.get(repo).cloned().unwrap_or_default()
                    ))
                }
            }
        }
        list => {
            for p in list.split_whitespace() {
                match conda_to_pip(p) {
                    Some(p) => conda_packages.push(p),
                    None => return no(format!("conda package spec {p:?} has no pip equivalent")),
                }
            }
        }
    }
    let pip_packages = match spec.get("pip_packages") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        Some(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        _ => Vec::new(),
    };
    Ok(Ok(EnvPlan {
        suite: suite.name,
        python,
        conda_packages,
        requirements,
        pip_packages,
        httpbin: HTTPBIN_REPOS.contains(&repo),
    }))
}

/// A conda package spec as pip reads it: `name` (pinned by [`UNPINNED_PINS`] when listed),
/// `name=1.2` → `name==1.2.*`, `name==1.2`, `name>=1.2` unchanged. `None` for what pip cannot
/// read (channels, build strings).
pub fn conda_to_pip(spec: &str) -> Option<String> {
    if spec.contains("::") || spec.matches('=').count() > 2 || spec.contains(' ') {
        return None;
    }
    let name_end = spec
        .find(|c: char| "=<>!~".contains(c))
        .unwrap_or(spec.len());
    let (name, rest) = spec.split_at(name_end);
    if name.is_empty() {
        return None;
    }
    if rest.is_empty() {
        return Some(
            match UNPINNED_PINS
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
            {
                Some((n, v)) => format!("{n}=={v}"),
                None => name.to_string(),
            },
        );
    }
    if let Some(v) = rest.strip_prefix('=') {
        if !v.starts_with('=') {
            if v.contains('=') || v.is_empty() {
                return None;
            }
            return Some(if v.ends_with('*') {
                format!("{name}=={v}")
            } else {
                format!("{name}=={v}.*")
            });
        }
    }
    Some(spec.to_string())
}

/// The requirement file SWE-bench assembles for `repo` at `commit` (the rule of swebench's
/// `get_requirements_by_commit` and `clean_requirements`): the first of the repository's
/// candidate paths that exists; its `-r` includes inlined first, lines starting with `-e .`,
/// `#` or `.[test` dropped; then packages replaced or removed as `REPLACE_REQ_PACKAGES` says.
pub fn requirements_at(
    table: &SpecTable,
    repo: &str,
    commit: &str,
    read_at: &mut ReadAt<'_>,
) -> Result<Option<String>, SandboxError> {
    let Some(paths) = table.reqs_paths.get(repo) else {
        return Ok(None);
    };
    let mut found = None;
    for p in paths {
        if let Some(bytes) = read_at(commit, p)? {
            found = Some((p.clone(), String::from_utf8_lossy(&bytes).into_owned()));
            break;
        }
    }
    let Some((path, text)) = found else {
        return Ok(None);
    };
    let dir = match path.rfind('/') {
        Some(i) => &path[..i],
        None => "",
    };
    let excluded = |l: &str| {
        let t = l.trim();
        t.starts_with("-e .") || t.starts_with('#') || t.starts_with(".[test")
    };
    let mut original = Vec::new();
    let mut additional: Vec<String> = Vec::new();
    for line in text.split('\n') {
        if let Some(rest) = line.trim().strip_prefix("-r") {
            let name = rest.trim();
            let inc = if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            };
            if let Some(bytes) = read_at(commit, &normalize(&inc))? {
                for l in String::from_utf8_lossy(&bytes).split('\n') {
                    if !excluded(l) {
                        additional.push(l.to_string());
                    }
                }
            }
        } else if !excluded(line) {
            original.push(line);
        }
    }
    additional.push(original.join("\n"));
    let mut all = additional.join("\n");
    for (pkg, replacement) in &table.replace_req_packages {
        all = replace_package(&all, pkg, replacement.as_deref());
    }
    Ok(Some(all))
}

/// `a/b/../c` → `a/c`, `a/./b` → `a/b` (paths inside the repository).
fn normalize(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                out.pop();
            }
            p => out.push(p),
        }
    }
    out.join("/")
}

/// A line `pkg[<>=!~]...` (or `pkg` alone) replaced by `replacement`, or removed with its
/// newline when there is none.
fn replace_package(text: &str, pkg: &str, replacement: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let (line, nl, next) = match rest.find('\n') {
            Some(i) => (&rest[..i], true, &rest[i + 1..]),
            None => (rest, false, ""),
        };
        let matches = line.strip_prefix(pkg).is_some_and(|after| {
            after.is_empty() || after.chars().next().is_some_and(|c| "<>=!~".contains(c))
        });
        if matches {
            if let Some(r) = replacement {
                out.push_str(r);
                if nl {
                    out.push('\n');
                }
            }
        } else {
            out.push_str(line);
            if nl {
                out.push('\n');
            }
        }
        rest = next;
    }
    out
}

/// Whether the project versions itself with setuptools_scm (so an image needs a tag).
pub fn uses_setuptools_scm(read: &mut dyn FnMut(&str) -> Option<Vec<u8>>) -> bool {
    ["pyproject.toml", "setup.cfg", "setup.py"].iter().any(|f| {
        read(f).is_some_and(|b| {
            [&b"setuptools_scm"[..], b"setuptools-scm"]
                .iter()
                .any(|n| b.windows(n.len()).any(|w| w == *n))
        })
    })
}

/// The install steps of the instance: `MAP_REPO_TO_INSTALL`, `pre_install`, `install`.
pub fn install_steps(table: &SpecTable, repo: &str, version: &str) -> (Vec<String>, String) {
    let spec = table.spec(repo, version);
    let mut pre: Vec<String> = table.repo_install.get(repo).cloned().into_iter().collect();
    if let Some(Value::Array(a)) = spec.and_then(|s| s.get("pre_install")) {
        pre.extend(a.iter().filter_map(Value::as_str).map(str::to_string));
    }
    let install = spec
        .and_then(|s| s.get("install"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    (pre, install)
}

/// A directory of full-history clones (`owner__name`, `owner/name` or `name`) holding
/// environment-setup commits and release tags that depth-1 testbeds lack.
pub fn history_repo(dir: &Path, repo: &str) -> Option<PathBuf> {
    let name = repo.rsplit('/').next().unwrap_or(repo);
    [
        dir.join(repo.replace('/', "__")),
        dir.join(repo),
        dir.join(name),
    ]
    .into_iter()
    .find(|c| c.join(".git").exists() || c.join("HEAD").is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conda_specs_as_pip_reads_them() {
        assert_eq!(conda_to_pip("numpy=1.19").as_deref(), Some("numpy==1.19.*"));
        assert_eq!(
            conda_to_pip("numpy==1.19.2").as_deref(),
            Some("numpy==1.19.2")
        );
        assert_eq!(
            conda_to_pip("cython>=0.29").as_deref(),
            Some("cython>=0.29")
        );
        assert_eq!(conda_to_pip("pytest").as_deref(), Some("pytest==8.3.3"));
        assert_eq!(conda_to_pip("scipy").as_deref(), Some("scipy"));
        assert_eq!(conda_to_pip("conda-forge::gxx"), None);
        assert_eq!(conda_to_pip("=1.2"), None);
    }

    fn table(paths: &[&str], replace: &[(&str, Option<&str>)]) -> SpecTable {
        SpecTable {
            reqs_paths: [(
                "o/r".to_string(),
                paths.iter().map(|s| s.to_string()).collect(),
            )]
            .into(),
            replace_req_packages: replace
                .iter()
                .map(|(a, b)| (a.to_string(), b.map(str::to_string)))
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn requirement_files_are_assembled_as_swebench_does() {
        let files: BTreeMap<&str, &str> = [
            (
                "requirements/dev.txt",
                "-r docs.txt\n-e .\n# c\npytest==7\ntypes-pkg_resources==0.1\nx\n",
            ),
            ("requirements/docs.txt", "sphinx==4\n# doc\n.[test]\n"),
        ]
        .into();
        let mut read = |c: &str, p: &str| -> Result<Option<Vec<u8>>, SandboxError> {
            assert_eq!(c, "abc");
            Ok(files.get(p).map(|s| s.as_bytes().to_vec()))
        };
        let t = table(
            &["requirements.txt", "requirements/dev.txt"],
            &[
                ("types-pkg_resources", Some("types-setuptools")),
                ("x", None),
            ],
        );
        let r = requirements_at(&t, "o/r", "abc", &mut read)
            .expect("test")
            .expect("test");
        // The include first (its excluded lines dropped, its trailing empty line kept), then
        // the file's own lines.
        assert_eq!(r, "sphinx==4\n\npytest==7\ntypes-setuptools\n");
        let none =
            requirements_at(&table(&["nope.txt"], &[]), "o/r", "abc", &mut read).expect("test");
        assert_eq!(none, None);
    }

    #[test]
    fn setuptools_scm_is_seen_in_either_spelling() {
        let files: BTreeMap<&str, &str> = [("pyproject.toml", "[tool.setuptools_scm]\n")].into();
        assert!(uses_setuptools_scm(&mut |f| files
            .get(f)
            .map(|s| s.as_bytes().to_vec())));
        let files: BTreeMap<&str, &str> =
            [("setup.cfg", "setup_requires = setuptools-scm\n")].into();
        assert!(uses_setuptools_scm(&mut |f| files
            .get(f)
            .map(|s| s.as_bytes().to_vec())));
        let files: BTreeMap<&str, &str> = [("setup.py", "setup(version='1.0')\n")].into();
        assert!(!uses_setuptools_scm(&mut |f| files
            .get(f)
            .map(|s| s.as_bytes().to_vec())));
    }

    #[test]
    fn unplannable_specs_say_why() {
        let mut specs = BTreeMap::new();
        specs.insert(
            "o/r".to_string(),
            [
                ("1".to_string(), serde_json::json!({"python": "3.6", "install": "x"})),
                ("2".to_string(), serde_json::json!({"python": "3.9", "packages": "environment.yml"})),
                ("3".to_string(), serde_json::json!({"python": "3.9", "packages": "pytest numpy=1.2", "pip_packages": ["a==1"], "install": "pip install ."})),
            ]
            .into(),
        );
        let t = SpecTable {
            swebench: "4.1.0".into(),
            specs,
            ..Default::default()
        };
        let mut read = |_: &str, _: &str| -> Result<Option<Vec<u8>>, SandboxError> { Ok(None) };
        let r = plan_env(&t, "i", "o/r", "1", None, &mut read).expect("test");
        assert!(r
            .expect_err("unbuildable")
            .reason
            .contains("needs Python 3.6"));
        let r = plan_env(&t, "i", "o/r", "2", None, &mut read).expect("test");
        assert!(r
            .expect_err("unbuildable")
            .reason
            .contains("environment.yml"));
        let r = plan_env(&t, "i", "o/r", "9", None, &mut read).expect("test");
        assert!(r
            .expect_err("unbuildable")
            .reason
            .contains("no specification for o/r 9"));
        let p = plan_env(&t, "i", "o/r", "3", None, &mut read)
            .expect("test")
            .expect("test");
        assert_eq!(p.suite, "bullseye");
        assert_eq!(p.conda_packages, ["pytest==8.3.3", "numpy==1.2.*"]);
        assert_eq!(p.pip_packages, ["a==1"]);
        assert!(p.key("o/r").starts_with("r-py3.9-"));
    }
}
