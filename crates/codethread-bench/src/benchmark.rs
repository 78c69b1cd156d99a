//! Which benchmark an instance belongs to, told from its row, and the
//! conventions of that benchmark's harness that do not depend on the row's
//! shape: the name reports give it, the task type the paper gives its
//! instances, the image and directory its harness runs in.
//!
//! The paper's rule for task types is fixed per benchmark: SWE-bench
//! Verified and Multilingual (and Lite, full SWE-bench, Multi-SWE-bench)
//! are bug fixes (`BF`); FeatBench is feature implementation (`FI`);
//! SWE-bench Pro carries its own labels per instance
//! ([`crate::pro::task_type`]).

use serde::{Deserialize, Serialize};

use crate::instance::{DatasetFormat, Instance};

/// A repository-level benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[non_exhaustive]
pub enum Benchmark {
    /// SWE-bench Verified (500 human-validated instances of 12 Python
    /// repositories; its rows carry `difficulty`).
    SweBenchVerified,
    /// SWE-bench (full or Lite): the 12 Python repositories, no
    /// `difficulty`.
    SweBench,
    /// SWE-bench Multilingual (9 languages, 41 repositories).
    SweBenchMultilingual,
    /// Multi-SWE-bench (`org` / `repo`, `fix_patch`).
    MultiSweBench,
    /// SWE-bench Pro (Scale AI; `fail_to_pass`, `requirements`,
    /// `interface`).
    SweBenchPro,
    /// FeatBench (feature implementation; per-file patch objects).
    FeatBench,
}

/// The twelve repositories of SWE-bench (Verified, Lite and full).
pub(crate) const SWE_BENCH_REPOS: [&str; 12] = [
    "astropy/astropy",
    "django/django",
    "matplotlib/matplotlib",
    "mwaskom/seaborn",
    "pallets/flask",
    "psf/requests",
    "pydata/xarray",
    "pylint-dev/pylint",
    "pytest-dev/pytest",
    "scikit-learn/scikit-learn",
    "sphinx-doc/sphinx",
    "sympy/sympy",
];

impl Benchmark {
    /// Every benchmark.
    pub const ALL: [Benchmark; 6] = [
        Benchmark::SweBenchVerified,
        Benchmark::SweBench,
        Benchmark::SweBenchMultilingual,
        Benchmark::MultiSweBench,
        Benchmark::SweBenchPro,
        Benchmark::FeatBench,
    ];

    /// The name reports give it (`SWE-bench Verified`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Benchmark::SweBenchVerified => "SWE-bench Verified",
            Benchmark::SweBench => "SWE-bench",
            Benchmark::SweBenchMultilingual => "SWE-bench Multilingual",
            Benchmark::MultiSweBench => "Multi-SWE-bench",
            Benchmark::SweBenchPro => "SWE-bench Pro",
            Benchmark::FeatBench => "FeatBench",
        }
    }

    /// A benchmark by its name or a short form (`verified`, `lite`, `full`,
    /// `multilingual`, `multi-swe-bench`, `pro`, `featbench`;
    /// case-insensitive, `-`, `_` and spaces ignored).
    pub fn from_name(s: &str) -> Option<Benchmark> {
        let k: String = s
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        Some(match k.as_str() {
            "swebenchverified" | "verified" => Benchmark::SweBenchVerified,
            "swebench" | "swebenchlite" | "lite" | "swebenchfull" | "full" => Benchmark::SweBench,
            "swebenchmultilingual" | "multilingual" => Benchmark::SweBenchMultilingual,
            "multiswebench" => Benchmark::MultiSweBench,
            "swebenchpro" | "pro" => Benchmark::SweBenchPro,
            "featbench" => Benchmark::FeatBench,
            _ => return None,
        })
    }

    /// The benchmark of an instance, from its row: the row shape (Pro,
    /// FeatBench, Multi-SWE-bench), else a SWE-bench row's repository (one
    /// of the twelve: Verified when the row has `difficulty`, which only
    /// Verified's rows carry; any other repository: Multilingual).
    pub fn of(inst: &Instance) -> Benchmark {
        match inst.source_format {
            DatasetFormat::SweBenchPro | DatasetFormat::SweBenchProInfo => Benchmark::SweBenchPro,
            DatasetFormat::FeatBench => Benchmark::FeatBench,
            DatasetFormat::MultiSweBench => Benchmark::MultiSweBench,
            DatasetFormat::SweBench | DatasetFormat::SweBenchLists => {
                if let Some(b) = inst
                    .extra
                    .get("benchmark")
                    .and_then(|v| v.as_str())
                    .and_then(Benchmark::from_name)
                {
                    return b;
                }
                if SWE_BENCH_REPOS.contains(&inst.repo.as_str()) {
                    if inst.extra.contains_key("difficulty") {
                        Benchmark::SweBenchVerified
                    } else {
                        Benchmark::SweBench
                    }
                } else {
                    Benchmark::SweBenchMultilingual
                }
            }
        }
    }

    /// The paper's task type of an instance (`BF`, `FI`, `RF`, `FI+RF`) and
    /// the rule that gave it; `None` when the benchmark's own label is
    /// missing from the row (SWE-bench Pro without `issue_specificity`).
    pub fn task_type(self, inst: &Instance) -> Option<(&'static str, &'static str)> {
        match self {
            Benchmark::SweBenchVerified
            | Benchmark::SweBench
            | Benchmark::SweBenchMultilingual
            | Benchmark::MultiSweBench => {
                Some(("BF", "the paper's rule: SWE-bench instances are bug fixes"))
            }
            Benchmark::FeatBench => Some((
                "FI",
                "the paper's rule: FeatBench instances are feature implementations",
            )),
            Benchmark::SweBenchPro => crate::pro::task_type(inst)
                .map(|t| (t, "SWE-bench Pro's own label (issue_specificity)")),
        }
    }

    /// The statement this benchmark's own agent runs give an agent for the
    /// instance's issue: SWE-bench Pro appends the row's requirements and
    /// the interfaces the fix introduces (its
    /// `helper_code/create_problem_statement.py`); the others give the
    /// issue as it is.
    pub fn agent_statement(self, inst: &Instance) -> String {
        match self {
            Benchmark::SweBenchPro => crate::pro::task_statement(inst, &inst.problem_statement),
            _ => inst.problem_statement.clone(),
        }
    }

    /// Where its harness runs an instance: the image and the directory
    /// holding the repository.
    pub fn environment(self, inst: &Instance) -> Environment {
        match self {
            Benchmark::SweBenchPro => Environment {
                image: crate::pro::image(inst),
                workdir: "/app".into(),
            },
            Benchmark::FeatBench => match crate::featbench::environment(inst) {
                Some(e) => Environment {
                    image: e.image,
                    workdir: e.repo_dir,
                },
                None => Environment {
                    image: swebench_image(inst),
                    workdir: "/testbed".into(),
                },
            },
            _ => Environment {
                image: swebench_image(inst),
                workdir: "/testbed".into(),
            },
        }
    }
}

/// Dockerfile lines that give an image the repository at `/testbed` when it holds it elsewhere
/// (SWE-bench Pro's `/app`): a link, made where `/testbed` does not exist or is an empty
/// directory (which a `WORKDIR /testbed` of the image's own build leaves behind).
pub fn testbed_link(workdir: &str) -> String {
    if workdir == "/testbed" {
        String::new()
    } else {
        format!("RUN rmdir /testbed 2>/dev/null; [ -e /testbed ] || ln -s {workdir} /testbed\n")
    }
}

/// Where an agent's environment of an instance starts: an image and the Dockerfile lines after
/// `FROM` that complete it, so that the repository is at `/testbed` (where codethread's setup
/// and collect steps, and the scaffolds' configurations, work).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentBase {
    /// The image to start `FROM`.
    pub image: String,
    /// Dockerfile lines after `FROM` (empty when the image has the repository at `/testbed`).
    pub prepare: String,
}

impl Benchmark {
    /// The agent's base of an instance of this benchmark, or `None` when the SWE-bench image
    /// named by the row serves as it is. SWE-bench Pro: its image with `/testbed` a link to
    /// `/app`; FeatBench: its image completed as [`crate::featbench::environment`] says.
    pub fn agent_base(self, inst: &Instance) -> Option<AgentBase> {
        match self {
            Benchmark::SweBenchPro => {
                let env = self.environment(inst);
                Some(AgentBase {
                    prepare: testbed_link(&env.workdir),
                    image: env.image,
                })
            }
            Benchmark::FeatBench => crate::featbench::environment(inst).map(|e| AgentBase {
                image: e.image,
                prepare: e.prepare,
            }),
            _ => None,
        }
    }
}

impl std::fmt::Display for Benchmark {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The image and the repository directory a benchmark's harness runs an
/// instance in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Environment {
    /// The image reference (the row's own `image_name` / `docker_image` /
    /// `image` when it names one).
    pub image: String,
    /// The repository's directory in it (`/testbed`, Pro's `/app`, FeatBench's
    /// `/workdir/swap/<name>`).
    pub workdir: String,
}

/// The SWE-bench image of an instance: the row's `image_name`,
/// `docker_image` or `image` when it has one, else
/// `docker.io/swebench/sweb.eval.x86_64.<id>:latest` (`__` as `_1776_`,
/// lowercase), the name swebench 5.x gives its instance images.
pub fn swebench_image(inst: &Instance) -> String {
    for k in ["image_name", "docker_image", "image"] {
        if let Some(s) = inst.extra.get(k).and_then(|v| v.as_str()) {
            if !s.trim().is_empty() {
                return s.to_string();
            }
        }
    }
    format!(
        "docker.io/swebench/sweb.eval.x86_64.{}:latest",
        inst.instance_id.replace("__", "_1776_")
    )
    .to_lowercase()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use serde_json::json;

    fn inst(row: serde_json::Value) -> Instance {
        crate::instance::parse_instances(std::path::Path::new("r.jsonl"), &row.to_string())
            .expect("rows")
            .items
            .remove(0)
    }

    /// Issue 37: the benchmark from the row, and the paper's task type.
    #[test]
    fn benchmarks_and_task_types_come_from_the_rows() {
        let base = |extra: serde_json::Value| {
            let mut r = json!({"instance_id": "a__b-1", "repo": "psf/requests", "base_commit": "c",
                "patch": "", "FAIL_TO_PASS": "[]", "PASS_TO_PASS": "[]"});
            for (k, v) in extra.as_object().expect("object") {
                r[k] = v.clone();
            }
            inst(r)
        };
        let verified = base(json!({"difficulty": "<15 min fix"}));
        assert_eq!(Benchmark::of(&verified), Benchmark::SweBenchVerified);
        assert_eq!(Benchmark::of(&base(json!({}))), Benchmark::SweBench);
        let ml = base(json!({"repo": "fmtlib/fmt", "FAIL_TO_PASS": ["t"]}));
        assert_eq!(Benchmark::of(&ml), Benchmark::SweBenchMultilingual);
        assert_eq!(Benchmark::of(&ml).task_type(&ml).map(|t| t.0), Some("BF"));
        let named = base(json!({"benchmark": "SWE-bench Pro"}));
        assert_eq!(Benchmark::of(&named), Benchmark::SweBenchPro);
        let pro = |spec: &str| {
            inst(
                json!({"instance_id": "instance_a__b-1", "repo": "a/b", "base_commit": "c",
                "patch": "", "fail_to_pass": "[]", "pass_to_pass": "[]", "issue_specificity": spec}),
            )
        };
        for (spec, want) in [
            ("['major_bug', 'edge_case_bug']", Some("BF")),
            ("['core_feat']", Some("FI")),
            ("['core_feat', 'refactoring_enh']", Some("FI+RF")),
            ("['performance_enh']", Some("RF")),
            ("[]", None),
        ] {
            let p = pro(spec);
            assert_eq!(Benchmark::of(&p), Benchmark::SweBenchPro);
            assert_eq!(Benchmark::of(&p).task_type(&p).map(|t| t.0), want, "{spec}");
        }
        let fb = inst(
            json!({"instance_id": "o__r-1", "repo": "o/r", "base_commit": "c",
            "patch": [{"filename": "a.py", "patch": "@@ -1 +1 @@\n-a\n+b"}],
            "FAIL_TO_PASS": "t1", "PASS_TO_PASS": ""}),
        );
        assert_eq!(Benchmark::of(&fb), Benchmark::FeatBench);
        assert_eq!(Benchmark::of(&fb).task_type(&fb).map(|t| t.0), Some("FI"));
        let base = Benchmark::of(&fb).agent_base(&fb).unwrap();
        assert!(
            base.prepare.contains("ln -s '/workdir/swap/r' /testbed"),
            "{base:?}"
        );
        let p = pro("['core_feat']");
        let base = Benchmark::of(&p).agent_base(&p).unwrap();
        assert!(base.image.starts_with("jefzda/sweap-images:"), "{base:?}");
        assert_eq!(
            base.prepare,
            "RUN rmdir /testbed 2>/dev/null; [ -e /testbed ] || ln -s /app /testbed\n"
        );
        assert_eq!(Benchmark::of(&verified).agent_base(&verified), None);
        let env = Benchmark::of(&fb).environment(&fb);
        assert_eq!(
            (env.image.as_str(), env.workdir.as_str()),
            ("ghcr.io/kndy666/featbench_o_r:1", "/workdir/swap/r")
        );
        for b in Benchmark::ALL {
            assert_eq!(Benchmark::from_name(b.name()), Some(b));
        }
        assert_eq!(
            Benchmark::of(&verified).environment(&verified).workdir,
            "/testbed"
        );
    }
}
