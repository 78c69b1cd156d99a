//! mini-swe-agent (PyPI `mini-swe-agent`, 2.4.6) datasets of a chain: the
//! rows `mini-extra swebench --subset DIR --split test` loads, with the
//! sealed setup patch each instance applies before the agent starts, and
//! per-instance images that hold that setup state
//! (`docs/harness.md` §6).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codethread_chain::agent_row;
use serde_json::{Map, Value};

use crate::error::ScaffoldError;
use crate::files::write_atomic;
use crate::naming::{setup_image_name, SETUP_PATCH_FILE_FIELD};

/// The split `mini-extra swebench --split` names for a subset written by
/// [`write_mini_swe_agent_subset`] (its file is `<split>.jsonl`, which the
/// Hugging Face `datasets` loader maps to this split; mini-swe-agent's
/// default split, `dev`, would not load it).
pub const MINI_SWE_AGENT_SPLIT: &str = "test";

/// The setup an agent's sandbox runs before the agent starts, as a POSIX
/// shell script run in the repository (`/testbed`) with the sealed setup
/// patch as `$1` (absent or empty: nothing to apply). It applies the patch
/// to the work tree and the index, then replaces the history by one commit
/// holding exactly the files git tracked (`git ls-files`, added with `-f`
/// so a tracked file that `.gitignore` matches is kept), so neither `git
/// log`, `git show` nor the object store holds the original of a stubbed
/// function, and removes the untracked `__pycache__` directories (compiled
/// copies of the original code). With `CODETHREAD_SCRUB_COPIES=1` (what
/// the image builds set; never in a `local` run, which must not touch the
/// host) it also finds every other copy of a file the patch changes on the
/// container's file system — the same blob as the original, e.g. the
/// package a non-editable `pip install .` put in site-packages, or an
/// in-tree `build/lib/` — and overwrites it with the setup's version,
/// removing its compiled `__pycache__` twin.
/// `integrations/mini-swe-agent/codethread.yaml` holds the same lines (a
/// test keeps them equal) and each instance's Docker environment runs this
/// file.
pub const SETUP_SCRIPT: &str = r#"set -e
patch_file="$1"
if [ -n "$patch_file" ] && [ -s "$patch_file" ]; then
  olds="$(mktemp)"
  git apply --numstat "$patch_file" | cut -f3- | while IFS= read -r p; do
    if [ -f "$p" ]; then printf '%s %s\n' "$(git hash-object -- "$p")" "$p"; fi
  done > "$olds"
  git update-index -q --refresh > /dev/null 2>&1 || true
  git apply --index --whitespace=nowarn "$patch_file"
  if [ "${CODETHREAD_SCRUB_COPIES:-0}" = 1 ]; then
    while read -r h p; do
      [ -f "$p" ] || continue
      name="$(basename -- "$p")"
      find / -xdev -type f -name "$name" ! -path "$PWD/$p" ! -path '/codethread-setup/*' 2>/dev/null |
        while IFS= read -r c; do
          # The repository's own file seen through a link (/testbed -> /app) is no copy.
          [ "$(readlink -f -- "$c")" = "$(readlink -f -- "$p")" ] && continue
          if [ "$(git hash-object -- "$c")" = "$h" ]; then
            cat -- "$p" > "$c"
            rm -f "$(dirname -- "$c")/__pycache__/${name%.*}".*.pyc
          fi
        done
    done < "$olds"
  fi
  rm -f "$olds"
fi
tracked="$(mktemp)"
git ls-files -z > "$tracked"
rm -rf .git
git -c init.defaultBranch=main init -q
if [ -s "$tracked" ]; then
  git --literal-pathspecs add -f --pathspec-from-file="$tracked" --pathspec-file-nul
fi
rm -f "$tracked"
git -c user.name=codethread -c user.email=codethread@localhost -c commit.gpgsign=false \
  commit -q --allow-empty --no-verify -m "codethread setup"
find . -name .git -prune -o -type d -name __pycache__ -exec sh -c \
  'for d do git --literal-pathspecs ls-files --error-unmatch -- "$d" >/dev/null 2>&1 || rm -rf "$d"; done' sh {} +
"#;

/// The image mini-swe-agent would start an instance in
/// (`image_name` / `docker_image` of the row, else the SWE-bench image
/// named after the instance id), which each per-instance environment
/// starts `FROM`.
pub(crate) fn upstream_image(row: &Map<String, Value>) -> String {
    for k in ["image_name", "docker_image"] {
        if let Some(Value::String(s)) = row.get(k) {
            if !s.trim().is_empty() {
                return s.clone();
            }
        }
    }
    let id = row
        .get("instance_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    format!(
        "docker.io/swebench/sweb.eval.x86_64.{}:latest",
        id.replace("__", "_1776_")
    )
    .to_lowercase()
}

/// An instance's Docker build context: `FROM` the image the agent would
/// start in, the setup run with the sealed patch bind-mounted for that one
/// step only (`RUN --mount`, BuildKit), so no layer keeps the patch.
fn dockerfile(from: &str, prepare: &str) -> String {
    setup_dockerfile(from, prepare, "the setup state of one instance", "")
}

/// The one Dockerfile of an agent's setup state, for the mini-swe-agent
/// environments here and the Harbor tasks (`harbor::export`): `FROM` the
/// instance image (completed by the Dockerfile lines `prepare`: empty, or
/// e.g. FeatBench's repository clone), the setup run with the sealed patch
/// bind-mounted for that step only. `what` is the comment line's subject;
/// `then` is appended to the setup command (empty: nothing).
pub(crate) fn setup_dockerfile(from: &str, prepare: &str, what: &str, then: &str) -> String {
    // No `# syntax=` line: it makes BuildKit pull a frontend image from a
    // registry; the built-in frontend (Docker 20.10 and later) has `--mount`.
    format!(
        "# codethread: {what} (written by codethread-chain).\n\
         FROM {from}\n\
         {prepare}\
         WORKDIR /testbed\n\
         RUN --mount=type=bind,source=.,target=/codethread-setup \\\n    \
         CODETHREAD_SCRUB_COPIES=1 sh /codethread-setup/setup.sh /codethread-setup/setup.patch{then}\n"
    )
}

/// Write a dataset in the layout `mini-extra swebench --subset
/// <root>/subset --split test` loads, for an agent that must not see the
/// original code. Each row pairs the chain row with its sealed setup patch
/// (`seal_on`: PR0, or PR0 + PR1, as forward-only literals).
///
/// - `<root>/subset/test.jsonl`: one agent row per instance (the fields
///   holding original code left out), its `setup_patch_file` field
///   naming `<root>/setup_patches/<instance_id>.patch` (absolute path; empty
///   file when there is nothing to set up), which
///   `integrations/mini-swe-agent/codethread.yaml` applies before the agent
///   starts (local environment, or a sandbox that sees only that one file).
/// - `<root>/environments/<instance_id>/{Dockerfile,setup.sh,setup.patch}`
///   and `<root>/build_images.sh`: per-instance images that hold the setup
///   state (built [`SETUP_SCRIPT`], history hidden, the patch in no layer),
///   and `<root>/images_subset/test.jsonl`, the same rows naming those images
///   (`image_name`) with nothing left to apply: what docker, podman or
///   singularity runs use, with no mount at all.
/// - `<root>/swe-agent/`: the same instances as a SWE-agent batch
///   ([`crate::swe_agent::write_swe_agent_batch`]).
///
/// Returns the subset directory.
pub fn write_mini_swe_agent_subset(
    root: &Path,
    rows: &[(Map<String, Value>, Vec<u8>)],
) -> Result<PathBuf, ScaffoldError> {
    write_subset(root, rows, &BTreeMap::new())
}

/// [`write_mini_swe_agent_subset`], each instance of `bases` starting from its
/// [`codethread_bench::AgentBase`] (SWE-bench Pro's and FeatBench's images) instead of the
/// image its row names.
fn write_subset(
    root: &Path,
    rows: &[(Map<String, Value>, Vec<u8>)],
    bases: &BTreeMap<String, codethread_bench::AgentBase>,
) -> Result<PathBuf, ScaffoldError> {
    // Below `root`, no directory is passed through a planted link.
    let patches = codethread_lang::io::create_dir_all_nofollow(root, Path::new("setup_patches"))?;
    let abs = std::fs::canonicalize(&patches).map_err(|e| ScaffoldError::io(&patches, e))?;
    let task = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Vec::new();
    let mut image_rows = Vec::new();
    let mut build = String::from(
        "#!/bin/sh\n# Build the per-instance setup images of this subset (written by codethread-chain):\n\
         #   sh build_images.sh [docker|podman|PATH-TO-CLIENT]\n\
         # (the Dockerfiles bind-mount the setup with RUN --mount: BuildKit)\n\
         set -e\ncd \"$(dirname \"$0\")/environments\"\n\
         engine=\"${1:-docker}\"\nexport DOCKER_BUILDKIT=1\n",
    );
    for (row, patch) in rows {
        let id = row
            .get("instance_id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        // The loaders refuse such ids per row (`ids`); rows built by hand
        // are checked by the same rule.
        if let Some(why) = codethread_bench::ids::id_problem(id) {
            return Err(ScaffoldError::Instance {
                instance_id: codethread_bench::ids::label(id),
                message: format!("instance id cannot name a patch file: {why}"),
            });
        }
        let name = format!("{id}.patch");
        write_atomic(&patches.join(&name), patch)?;
        let env = codethread_lang::io::create_dir_all_nofollow(
            root,
            &Path::new("environments").join(id),
        )?;
        write_atomic(&env.join("setup.patch"), patch)?;
        write_atomic(&env.join("setup.sh"), SETUP_SCRIPT.as_bytes())?;
        let (from, prepare) = match bases.get(id) {
            Some(b) => (b.image.clone(), b.prepare.clone()),
            None => (upstream_image(row), String::new()),
        };
        if from.is_empty() || from.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ScaffoldError::Instance {
                instance_id: id.to_string(),
                message: format!(
                    "image name {:?} cannot be written into a Dockerfile",
                    from.escape_debug().to_string()
                ),
            });
        }
        write_atomic(
            &env.join("Dockerfile"),
            dockerfile(&from, &prepare).as_bytes(),
        )?;
        let image = setup_image_name(&task, id);
        build.push_str(&format!(
            "\"$engine\" build -t '{image}' '{}'\n",
            id.replace('\'', "'\\''")
        ));
        let mut r = agent_row(row);
        r.insert(
            SETUP_PATCH_FILE_FIELD.into(),
            Value::String(abs.join(&name).to_string_lossy().into_owned()),
        );
        let mut ir = r.clone();
        ir.insert(SETUP_PATCH_FILE_FIELD.into(), Value::String(String::new()));
        ir.insert("image_name".into(), Value::String(image));
        out.push(r);
        image_rows.push(ir);
    }
    write_atomic(&root.join("build_images.sh"), build.as_bytes())?;
    let images = codethread_lang::io::create_dir_all_nofollow(root, Path::new("images_subset"))?;
    crate::files::write_jsonl(
        &images.join(format!("{MINI_SWE_AGENT_SPLIT}.jsonl")),
        &image_rows,
    )?;
    crate::swe_agent::write_swe_agent_batch(root, &image_rows)?;
    let subset = codethread_lang::io::create_dir_all_nofollow(root, Path::new("subset"))?;
    crate::files::write_jsonl(&subset.join(format!("{MINI_SWE_AGENT_SPLIT}.jsonl")), &out)?;
    Ok(subset)
}

/// The two mini-swe-agent datasets of a built chain, made from its exports:
/// `exports/mini-swe-agent/implementation` (each instance set up from its
/// sealed PR0, `instances/<id>/pr0_sealed.patch`) and
/// `exports/mini-swe-agent/follow_on_human_pr1` (nothing to set up: the
/// human PR1 restores base). Each instance's image starts from its
/// benchmark's agent base ([`codethread_bench::Benchmark::agent_base`]:
/// SWE-bench Pro's image with `/testbed` a link to its `/app`, FeatBench's
/// completed with the repository), else from the SWE-bench image its row
/// names. Returns the two subset directories.
pub fn write_chain_subsets(chain: &codethread_chain::Chain) -> Result<Vec<PathBuf>, ScaffoldError> {
    let mut out = Vec::new();
    // SWE-bench Pro's images hold the repository at /app, FeatBench's none: each agent image
    // starts from the benchmark's own base (`Benchmark::agent_base`).
    let bases: BTreeMap<String, codethread_bench::AgentBase> = chain
        .instances
        .iter()
        .filter_map(|i| {
            let b = codethread_bench::Benchmark::of(i).agent_base(i)?;
            Some((i.instance_id.clone(), b))
        })
        .collect();
    for (export, rel, sealed) in [
        (
            "exports/implementation_task.jsonl",
            "exports/mini-swe-agent/implementation",
            true,
        ),
        (
            "exports/follow_on_human_pr1.jsonl",
            "exports/mini-swe-agent/follow_on_human_pr1",
            false,
        ),
    ] {
        let path = chain.dir.join(export);
        let text = codethread_bench::records::read_text(&path, chain.limits)?;
        let mut rows = Vec::new();
        for r in codethread_bench::records::split_records(&path, &text, &[])? {
            let Value::Object(row) = r.value? else {
                return Err(ScaffoldError::Format {
                    path: path.clone(),
                    message: format!("line {}: a row must be a JSON object", r.line),
                });
            };
            let id = row
                .get("instance_id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            if let Some(why) = codethread_bench::ids::id_problem(&id) {
                return Err(ScaffoldError::Instance {
                    instance_id: codethread_bench::ids::label(&id),
                    message: format!("{}: line {}: {why}", path.display(), r.line),
                });
            }
            let setup = if sealed {
                crate::files::read(
                    &chain
                        .dir
                        .join("instances")
                        .join(&id)
                        .join(codethread_chain::PR0_SEALED_FILE),
                    chain.limits,
                )?
            } else {
                Vec::new()
            };
            rows.push((row, setup));
        }
        // The chain directory's own subdirectories: a planted link is refused.
        let root = codethread_lang::io::create_dir_all_nofollow(&chain.dir, Path::new(rel))?;
        out.push(write_subset(&root, &rows, &bases)?);
    }
    Ok(out)
}
