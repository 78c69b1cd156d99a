//! SWE-agent (1.1.0, installed from its public source repository) batches
//! of a chain: `expert_file` instances that start each agent in an image
//! already holding its setup state, the images (the setup image plus a
//! self-contained swe-rex runtime), the paper's limits as a config, and a
//! docker network with no way out (`docs/harness.md` §7).
//!
//! Why each piece is as it is (SWE-agent 1.1.0, swe-rex 1.4.0):
//! - **`expert_file` rows**, not `swe_bench` or `file` rows: only they carry
//!   a whole environment per instance (`env.deployment`, `env.repo`). The
//!   repository is `preexisting` with `repo_name: testbed` (SWE-agent `cd`s
//!   to `/testbed`, and its submit tool needs `ROOT`) and `base_commit:
//!   HEAD`: the image's history is the one setup commit, the original base
//!   commit is not there, and SWE-agent's reset (`git checkout
//!   <base_commit>`) on a retry fails on any other value.
//! - **The runtime**: the docker deployment starts `swerex-remote` from the
//!   image's `PATH`; swe-rex needs Python >= 3.10, which the images of older
//!   repositories do not have (3.9 on Debian bullseye). The runtime image
//!   ([`runtime_dockerfile`]) carries Debian bookworm's Python 3.11 with the
//!   libraries it loads and its own dynamic loader under `/opt/swerex`,
//!   started through that loader ([`SWEREX_REMOTE`]), so it runs in any
//!   x86-64 Linux image whatever its C library, and nothing of it is on
//!   the agent's `PATH` but `swerex-remote`.
//! - **The network**: the deployment talks to `swerex-remote` through a
//!   published port, so `--network none` is impossible; [`AGENT_NETWORK_SCRIPT`]
//!   makes a bridge whose containers reach nothing (no forwarding, no new
//!   connection to the host) while the host's own connections to the
//!   published port get their replies.
//! - **The limits**: [`CONFIG`] sets the paper's per-instance limits (250
//!   model calls, $3), merged after a scaffold config.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::ScaffoldError;
use crate::files::{write_atomic, write_jsonl};
use crate::naming::{setup_image_name, SETUP_PATCH_FILE_FIELD};

/// The swe-rex release the runtime image installs (what SWE-agent 1.1.0
/// was tested with).
pub const SWE_REX_VERSION: &str = "1.4.0";

/// The runtime image every SWE-agent image copies `/opt/swerex` from:
/// `codethread/swe-agent-runtime:swe-rex-<version>-<hash>`, the hash of
/// [`runtime_dockerfile`] and [`SWEREX_REMOTE`], so a changed recipe makes a
/// new image instead of reusing an old one.
pub fn runtime_image() -> String {
    crate::portable::hashed_tag(
        "codethread/swe-agent-runtime",
        &format!("swe-rex-{SWE_REX_VERSION}"),
        &[&runtime_dockerfile(), SWEREX_REMOTE],
    )
}

/// The docker network [`AGENT_NETWORK_SCRIPT`] makes and the rows name.
pub const AGENT_NETWORK: &str = "codethread-agent";

/// The SWE-agent config with the paper's limits, merged after the
/// scaffold's own config; `integrations/swe-agent/codethread.yaml` holds the
/// same text (a test keeps them equal).
pub const CONFIG: &str = r#"# codethread + SWE-agent 1.1.0 (run-batch): merge AFTER the scaffold config:
#
#   sweagent run-batch --config config/default.yaml --config codethread.yaml \
#     --instances.type expert_file --instances.path CHAIN/exports/mini-swe-agent/<task>/swe-agent/instances.jsonl \
#     --agent.model.name <model> --output_dir OUT
#
# The paper's limits: per instance 250 model calls and $3, no total limit.
# SWE-agent enforces them for its LiteLLM models after each call: the 251st
# call raises InstanceCallLimitExceededError and the agent submits what it
# has (exit status `exit_cost`).
agent:
  model:
    per_instance_call_limit: 250
    per_instance_cost_limit: 3.0
    total_cost_limit: 0.0
"#;

/// The Dockerfile of [`runtime_image`]: swe-rex in a self-contained Python
/// under `/opt/swerex` (`crate::portable`), its code kept only compiled
/// without docstrings (swe-rex depends on requests and the standard
/// library; bashlex keeps its docstrings, which are its grammar). Built
/// from a Debian bookworm image (`DEBIAN` build argument) with the wheels
/// from PyPI.
pub fn runtime_dockerfile() -> String {
    crate::portable::dockerfile(
        "the swe-rex runtime of SWE-agent's docker deployment",
        "/opt/swerex",
        "swe-rex==1.4.0",
        "swerex-remote",
        "swerex-remote",
        "/opt/swerex/bin/swerex-remote --help >/dev/null",
        true,
        &["bashlex"],
    )
}

/// `/opt/swerex/bin/swerex-remote`: starts swe-rex's server in the
/// runtime's Python through the runtime's own loader and libraries
/// (`--library-path` holds for that process only: the shells it starts run
/// the image's own programs with the image's libraries), isolated (`-I`)
/// from the image's `PYTHONPATH` and user site.
pub const SWEREX_REMOTE: &str = r#"#!/bin/sh
# codethread: swe-rex's server in the self-contained runtime under /opt/swerex.
exec /opt/swerex/lib/ld-linux-x86-64.so.2 --library-path /opt/swerex/lib \
  /opt/swerex/bin/python3.11 -I -c '
import sys
sys.path.insert(0, "/opt/swerex/site")
sys.argv[0] = "swerex-remote"
from swerex.server import main
sys.exit(main())
' "$@"
"#;

/// The Dockerfile of an instance's SWE-agent image: its setup image
/// (`BASE`), the runtime copied from [`runtime_image`] (`RUNTIME`), and the two Python
/// packages SWE-agent's default editing tools (`edit_anthropic`) install
/// with the agent shell's `pip` at every start — installed here, because
/// the agent's container has no network (a repository Python too old for
/// their wheels leaves a note in the build log; that tool bundle then
/// cannot start). `PIP_NO_INDEX=0` overrides an image whose pip config
/// allows only a local wheelhouse (the environments `codethread-sandbox`
/// builds) for this one install.
pub const IMAGE_DOCKERFILE: &str = r#"# codethread: an agent's setup image with the swe-rex runtime SWE-agent's docker
# deployment starts (written by codethread-scaffold).
ARG RUNTIME
ARG BASE
FROM ${RUNTIME} AS runtime
FROM ${BASE}
COPY --from=runtime /opt/swerex /opt/swerex
RUN --mount=type=bind,source=.,target=/codethread-ctx \
    mkdir -p /usr/local/bin && ln -sf /opt/swerex/bin/swerex-remote /usr/local/bin/swerex-remote \
 && swerex-remote --help >/dev/null \
 && if [ -s /codethread-ctx/ca-bundle.crt ]; then export PIP_CERT=/codethread-ctx/ca-bundle.crt; fi \
 && AGENT_PIP="$(bash -c 'source /root/.bashrc >/dev/null 2>&1; command -v pip' || true)" \
 && if [ -n "$AGENT_PIP" ]; then \
      PIP_NO_INDEX=0 "$AGENT_PIP" install -q --no-cache-dir 'tree-sitter==0.21.3' 'tree-sitter-languages==1.10.2' \
      || echo "codethread: tree-sitter not installed for the agent's Python"; \
    fi
"#;

/// A docker network for SWE-agent's docker deployment with no way out;
/// `integrations/swe-agent/agent_network.sh` holds the same text.
pub const AGENT_NETWORK_SCRIPT: &str = r#"#!/bin/sh
# codethread: a docker network for SWE-agent's docker deployment with no way out.
#
# swe-rex's docker deployment talks HTTP to `swerex-remote` in the container
# through a published port (`docker run -p <free port>:8000`), so the
# container cannot run with `--network none`, and an `--internal` network gets
# no published ports. This makes a user-defined bridge `codethread-agent`
# (interface ct-agent0, no container-to-container traffic) and drops, for that
# interface only, everything its containers send to be forwarded (internet,
# other networks) and every new connection from a container to the host, while
# the replies to connections the host opened (to the published port) pass.
# Idempotent; run as root. Undo: sh agent_network.sh --down
set -eu
NET=codethread-agent
IF=ct-agent0
if [ "${1:-}" = --down ]; then
  iptables -D DOCKER-USER -i $IF -j DROP 2>/dev/null || true
  iptables -D INPUT -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT 2>/dev/null || true
  iptables -D INPUT -i $IF -j DROP 2>/dev/null || true
  docker network rm $NET >/dev/null 2>&1 || true
  exit 0
fi
docker network inspect $NET >/dev/null 2>&1 || docker network create \
  -o com.docker.network.bridge.name=$IF \
  -o com.docker.network.bridge.enable_icc=false $NET >/dev/null
iptables -N DOCKER-USER 2>/dev/null || true
iptables -C DOCKER-USER -i $IF -j DROP 2>/dev/null || iptables -I DOCKER-USER 1 -i $IF -j DROP
iptables -C INPUT -i $IF -j DROP 2>/dev/null || iptables -I INPUT 1 -i $IF -j DROP
iptables -C INPUT -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT 2>/dev/null \
  || iptables -I INPUT 1 -i $IF -m conntrack --ctstate ESTABLISHED,RELATED -j ACCEPT
echo "network $NET ($IF) ready"
"#;

/// How [`expert_rows`] starts each instance's container.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ExpertOptions {
    /// Extra `docker run` arguments (default: `--network codethread-agent`).
    pub docker_args: Vec<String>,
    /// Seconds the deployment waits for `swerex-remote` to answer.
    pub startup_timeout: f64,
}

impl ExpertOptions {
    /// Sets [`ExpertOptions::docker_args`].
    pub fn docker_args(mut self, docker_args: Vec<String>) -> Self {
        self.docker_args = docker_args;
        self
    }

    /// Sets [`ExpertOptions::startup_timeout`].
    pub fn startup_timeout(mut self, startup_timeout: f64) -> Self {
        self.startup_timeout = startup_timeout;
        self
    }
}

impl Default for ExpertOptions {
    fn default() -> Self {
        ExpertOptions {
            docker_args: vec!["--network".into(), AGENT_NETWORK.into()],
            startup_timeout: 180.0,
        }
    }
}

/// The SWE-agent image of an instance whose setup image is tagged for
/// `task`: `codethread/<task>-swe-agent:<id>`.
pub fn swe_agent_image_name(task: &str, instance_id: &str) -> String {
    setup_image_name(&format!("{task}-swe-agent"), instance_id)
}

/// SWE-agent `expert_file` rows of agent rows (`images_subset` rows of a
/// mini-swe-agent subset: each names in `image` the image its agent starts
/// in, which holds the setup state). Only the instance id and the task
/// statement are carried over: nothing of the original code is in a row.
/// A row without an id or a statement, or one that still needs a setup
/// patch applied, is an error naming the instance.
pub fn expert_rows(
    rows: &[(Map<String, Value>, String)],
    opts: &ExpertOptions,
) -> Result<Vec<Value>, ScaffoldError> {
    let mut out = Vec::with_capacity(rows.len());
    for (row, image) in rows {
        let id = row
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if let Some(why) = codethread_bench::ids::id_problem(id) {
            return Err(ScaffoldError::Instance {
                instance_id: codethread_bench::ids::label(id),
                message: format!("not a SWE-agent instance id: {why}"),
            });
        }
        let Some(text) = row.get("problem_statement").and_then(Value::as_str) else {
            return Err(ScaffoldError::Instance {
                instance_id: id.to_string(),
                message: "no problem_statement: nothing for the agent to do".into(),
            });
        };
        if row
            .get(SETUP_PATCH_FILE_FIELD)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
        {
            return Err(ScaffoldError::Instance {
                instance_id: id.to_string(),
                message: format!(
                    "{SETUP_PATCH_FILE_FIELD} is set: the row's image does not hold its setup"
                ),
            });
        }
        out.push(json!({
            "env": {
                "deployment": {
                    "type": "docker",
                    "image": image,
                    "pull": "never",
                    "docker_args": opts.docker_args,
                    "startup_timeout": opts.startup_timeout,
                },
                "repo": {"type": "preexisting", "repo_name": "testbed", "base_commit": "HEAD"},
                "post_startup_commands": [],
            },
            "problem_statement": {"type": "text", "id": id, "text": text, "extra_fields": {}},
        }));
    }
    Ok(out)
}

/// Write the SWE-agent batch of an agent-side subset under `<root>/swe-agent/`:
/// `instances.jsonl` ([`expert_rows`], each naming its SWE-agent image),
/// `build_images.sh` (builds [`runtime_image`] once, then each instance's
/// image `FROM` its setup image, which `<root>/build_images.sh` builds),
/// the two Dockerfiles, [`SWEREX_REMOTE`], [`CONFIG`] and
/// [`AGENT_NETWORK_SCRIPT`]. `image_rows` are the subset's `images_subset`
/// rows (setup image in `image_name`). Returns the directory.
pub fn write_swe_agent_batch(
    root: &Path,
    image_rows: &[Map<String, Value>],
) -> Result<PathBuf, ScaffoldError> {
    let dir = codethread_lang::io::create_dir_all_nofollow(root, Path::new("swe-agent"))?;
    let task = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let runtime = runtime_image();
    let mut build = format!(
        "#!/bin/sh\n# Build the SWE-agent images of this batch (written by codethread-scaffold):\n\
         #   sh build_images.sh [docker|podman|PATH-TO-CLIENT]\n\
         # Each is an instance's setup image (../build_images.sh builds those) with the\n\
         # swe-rex runtime of {runtime}, built once from a Debian bookworm\n\
         # image: $CODETHREAD_DEBIAN_IMAGE (default debian:bookworm-slim). The builds fetch\n\
         # from PyPI (--network host); the agents' containers run on the network\n\
         # agent_network.sh makes.\n\
         # The CA bundle pip trusts in the builds: $CODETHREAD_CA_BUNDLE, else the host's.\n\
         set -e\ncd \"$(dirname \"$0\")\"\nengine=\"${{1:-docker}}\"\nexport DOCKER_BUILDKIT=1\n\
         ca=\"${{CODETHREAD_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}}\"\n\
         if [ -s \"$ca\" ]; then cp -- \"$ca\" ca-bundle.crt; else rm -f ca-bundle.crt; fi\n\
         \"$engine\" image inspect '{runtime}' >/dev/null 2>&1 || \"$engine\" build --network host \\\n  \
         --build-arg \"DEBIAN=${{CODETHREAD_DEBIAN_IMAGE:-debian:bookworm-slim}}\" \\\n  \
         -t '{runtime}' -f runtime.Dockerfile .\n"
    );
    let mut pairs = Vec::with_capacity(image_rows.len());
    for row in image_rows {
        let id = row
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let Some(setup) = row.get("image_name").and_then(Value::as_str) else {
            return Err(ScaffoldError::Instance {
                instance_id: codethread_bench::ids::label(id),
                message: "no image_name: not an images_subset row".into(),
            });
        };
        // Image names reach a shell line single-quoted; ids are checked by
        // expert_rows below, before anything is written.
        if setup.is_empty()
            || setup
                .chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '\'')
        {
            return Err(ScaffoldError::Instance {
                instance_id: codethread_bench::ids::label(id),
                message: format!(
                    "image name {:?} cannot be built from",
                    setup.escape_debug().to_string()
                ),
            });
        }
        let image = swe_agent_image_name(&task, id);
        build.push_str(&format!(
            "\"$engine\" build --network host --build-arg 'BASE={setup}' --build-arg 'RUNTIME={runtime}' \\\n  \
             -t '{image}' -f Dockerfile .\n"
        ));
        pairs.push((row.clone(), image));
    }
    let rows = expert_rows(&pairs, &ExpertOptions::default())?;
    write_jsonl(&dir.join("instances.jsonl"), &rows)?;
    write_atomic(&dir.join("build_images.sh"), build.as_bytes())?;
    write_atomic(
        &dir.join("runtime.Dockerfile"),
        runtime_dockerfile().as_bytes(),
    )?;
    write_atomic(&dir.join("Dockerfile"), IMAGE_DOCKERFILE.as_bytes())?;
    write_atomic(&dir.join("swerex-remote"), SWEREX_REMOTE.as_bytes())?;
    write_atomic(&dir.join("codethread.yaml"), CONFIG.as_bytes())?;
    write_atomic(
        &dir.join("agent_network.sh"),
        AGENT_NETWORK_SCRIPT.as_bytes(),
    )?;
    Ok(dir)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn row(id: &str, statement: Option<&str>) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("instance_id".into(), id.into());
        if let Some(s) = statement {
            m.insert("problem_statement".into(), s.into());
        }
        m.insert(
            "image_name".into(),
            format!("codethread/implementation:{id}").into(),
        );
        m.insert(SETUP_PATCH_FILE_FIELD.into(), "".into());
        m.insert("patch".into(), "the original".into());
        m
    }

    #[test]
    fn rows_carry_only_id_statement_and_image() {
        let r = expert_rows(
            &[(row("a__b-1", Some("Implement f.")), "img:1".into())],
            &ExpertOptions::default(),
        )
        .unwrap();
        let text = serde_json::to_string(&r).unwrap();
        assert!(!text.contains("the original"), "{text}");
        assert_eq!(r[0]["env"]["repo"]["base_commit"], "HEAD");
        assert_eq!(r[0]["env"]["repo"]["repo_name"], "testbed");
        assert_eq!(r[0]["env"]["deployment"]["image"], "img:1");
        assert_eq!(r[0]["env"]["deployment"]["pull"], "never");
        assert_eq!(r[0]["problem_statement"]["id"], "a__b-1");
        assert_eq!(
            r[0]["env"]["deployment"]["docker_args"],
            json!(["--network", AGENT_NETWORK])
        );
    }

    #[test]
    fn refuses_rows_that_would_start_wrong() {
        let e = expert_rows(
            &[(row("a__b-1", None), "i".into())],
            &ExpertOptions::default(),
        );
        assert!(e.unwrap_err().to_string().contains("a__b-1"));
        let mut r = row("a__b-2", Some("s"));
        r.insert(SETUP_PATCH_FILE_FIELD.into(), "/x/a.patch".into());
        let e = expert_rows(&[(r, "i".into())], &ExpertOptions::default());
        assert!(e.unwrap_err().to_string().contains("setup_patch_file"));
        let e = expert_rows(
            &[(row("../x", Some("s")), "i".into())],
            &ExpertOptions::default(),
        );
        assert!(e.is_err());
    }

    #[test]
    fn batch_files_are_written() {
        let tmp =
            codethread_lang::io::create_temp_dir_in(&std::env::temp_dir(), "swe-agent").unwrap();
        let root = tmp.join("implementation");
        std::fs::create_dir(&root).unwrap();
        let out = write_swe_agent_batch(&root, &[row("a__b-1", Some("s"))]).unwrap();
        let build = std::fs::read_to_string(out.join("build_images.sh")).unwrap();
        assert!(
            build.contains("'BASE=codethread/implementation:a__b-1'"),
            "{build}"
        );
        assert!(
            build.contains("-t 'codethread/implementation-swe-agent:a__b-1'"),
            "{build}"
        );
        let rows = std::fs::read_to_string(out.join("instances.jsonl")).unwrap();
        assert!(rows.contains("codethread/implementation-swe-agent:a__b-1"));
        assert_eq!(
            std::fs::read_to_string(out.join("codethread.yaml")).unwrap(),
            CONFIG
        );
        let mut bad = row("a__b-2", Some("s"));
        bad.insert("image_name".into(), "x' ; rm -rf /".into());
        assert!(write_swe_agent_batch(&root, &[bad]).is_err());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
