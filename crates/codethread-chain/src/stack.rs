//! Composing stacked patches (PR0, PR1, PR2, ...) into ONE diff against the
//! base commit, which is what the unmodified SWE-bench harness can grade.
//! The layers are applied in order to the base files (each relative to the
//! result of the previous ones) and the result is diffed against base.

use std::collections::BTreeMap;

use codethread_patch::{diff_trees, ApplyOptions, DiffOptions, MemTree};

use crate::error::ChainError;
use crate::gitcli::{GitError, ScratchRepo};
use crate::source::SourceReader;

/// `layer` of `instance_id` as a parsed diff.
fn parse_layer(
    instance_id: &str,
    layer: &str,
    patch: &[u8],
) -> Result<codethread_patch::Patch, ChainError> {
    codethread_patch::parse_patch(patch).map_err(|source| ChainError::PatchParse {
        instance_id: instance_id.to_string(),
        layer: layer.to_string(),
        source,
    })
}

/// A failure of the real git on `layer` of `instance_id`.
fn git_error(instance_id: &str, layer: &str) -> impl Fn(GitError) -> ChainError {
    let (instance_id, layer) = (instance_id.to_string(), layer.to_string());
    move |source| ChainError::GitApply {
        instance_id: instance_id.clone(),
        layer: layer.clone(),
        source,
    }
}

/// `layer` of `instance_id` did not apply by codethread-patch's rules.
fn apply_error(
    instance_id: &str,
    layer: &str,
) -> impl Fn(codethread_patch::ApplyError) -> ChainError {
    let (instance_id, layer) = (instance_id.to_string(), layer.to_string());
    move |source| ChainError::Apply {
        instance_id: instance_id.clone(),
        layer: layer.clone(),
        source,
    }
}

/// A diff of `instance_id` that could not be written.
fn diff_error(
    instance_id: &str,
    what: &'static str,
) -> impl Fn(codethread_patch::CreateError) -> ChainError {
    let instance_id = instance_id.to_string();
    move |source| ChainError::Diff {
        instance_id: instance_id.clone(),
        what,
        source,
    }
}

/// Paths touched by a patch (old and new names), or a typed error.
pub fn touched_paths(instance_id: &str, patch: &[u8]) -> Result<Vec<String>, ChainError> {
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let p = parse_layer(instance_id, "the patch", patch)?;
    Ok(p.touched_paths()
        .into_iter()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .collect())
}

/// Read the base content of every path any layer touches (absent files are
/// left out: patches create them).
pub(crate) fn base_files(
    instance_id: &str,
    base_commit: &str,
    layers: &[&[u8]],
    source: &mut dyn SourceReader,
) -> Result<BTreeMap<String, Vec<u8>>, ChainError> {
    let mut files = BTreeMap::new();
    for l in layers {
        for p in touched_paths(instance_id, l)? {
            if files.contains_key(&p) {
                continue;
            }
            if let Some(bytes) = source.read(instance_id, base_commit, &p)? {
                files.insert(p, bytes);
            }
        }
    }
    Ok(files)
}

/// [`compose_on`] done with the real git instead (scratch repository,
/// `git apply` per layer, `git diff` against base): a cross-check.
pub fn compose_with_git(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    layers: &[&[u8]],
    names: &[&str],
) -> Result<Vec<u8>, ChainError> {
    let repo = ScratchRepo::new(base).map_err(git_error(instance_id, "the base files"))?;
    for (i, l) in layers.iter().enumerate() {
        if l.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let name = names.get(i).copied().unwrap_or("layer");
        repo.apply(l, false)
            .map_err(git_error(instance_id, &format!("{name} does not apply")))?;
    }
    repo.diff_from_base()
        .map_err(git_error(instance_id, "the combined diff"))
}

/// [`compose_on`] reading the base files from `source`.
pub fn compose_layers(
    instance_id: &str,
    base_commit: &str,
    layers: &[&[u8]],
    names: &[&str],
    source: &mut dyn SourceReader,
) -> Result<Vec<u8>, ChainError> {
    let base = base_files(instance_id, base_commit, layers, source)?;
    compose_on(instance_id, &base, layers, names)
}

/// [`reverse_on`] done with the real git (a cross-check).
pub fn reverse_with_git(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    patch: &[u8],
) -> Result<Vec<u8>, ChainError> {
    // Start from base + patch, then diff back to base.
    let start = ScratchRepo::new(base).map_err(git_error(instance_id, "the base files"))?;
    start
        .apply(patch, false)
        .map_err(git_error(instance_id, "PR0 does not apply"))?;
    let mut after: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for p in touched_paths(instance_id, patch)? {
        if let Some(b) = start.read(&p) {
            after.insert(p, b);
        }
    }
    let back = ScratchRepo::new(&after).map_err(git_error(instance_id, "base + PR0"))?;
    let mut target: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
    for p in touched_paths(instance_id, patch)? {
        target.insert(p.clone(), base.get(&p).cloned());
    }
    back.set_files(&target)
        .map_err(git_error(instance_id, "the base files"))?;
    back.diff_from_base()
        .map_err(git_error(instance_id, "the reverse diff"))
}

/// Check with the real `git apply` that `patch` applies to `base` and that
/// `git apply -R` restores `base` byte for byte.
pub fn check_roundtrip(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    patch: &[u8],
) -> Result<(), ChainError> {
    let repo = ScratchRepo::new(base).map_err(git_error(instance_id, "the base files"))?;
    repo.apply(patch, false)
        .map_err(git_error(instance_id, "git apply failed"))?;
    repo.apply(patch, true)
        .map_err(git_error(instance_id, "git apply -R failed"))?;
    let not_reversible = |path: &str, left_behind| ChainError::NotReversible {
        instance_id: instance_id.to_string(),
        path: path.to_string(),
        left_behind,
    };
    for (p, bytes) in base {
        if repo.read(p).as_deref() != Some(bytes.as_slice()) {
            return Err(not_reversible(p, false));
        }
    }
    for p in touched_paths(instance_id, patch)? {
        if !base.contains_key(&p) && repo.read(&p).is_some() {
            return Err(not_reversible(&p, true));
        }
    }
    Ok(())
}

fn mem_tree(base: &BTreeMap<String, Vec<u8>>) -> MemTree {
    let mut t = MemTree::new();
    for (p, b) in base {
        t.insert(p.as_bytes().to_vec(), b.clone());
    }
    t
}

/// Apply `layers` in order to `base` in memory and return the combined
/// diff against base ([`codethread_patch::compose`]: git's rules, re-diffed
/// over the touched files; empty when the layers cancel out, e.g. PR0
/// followed by the human PR1). `names` label the layers in errors (`PR0`,
/// `PR1`, ...); empty layers are skipped.
pub fn compose_on(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    layers: &[&[u8]],
    names: &[&str],
) -> Result<Vec<u8>, ChainError> {
    let mut parsed = Vec::new();
    let mut kept_names = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        if l.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let name = names.get(i).copied().unwrap_or("layer");
        parsed.push(parse_layer(instance_id, name, l)?);
        kept_names.push(name);
    }
    let refs: Vec<&codethread_patch::Patch> = parsed.iter().collect();
    let combined = codethread_patch::compose(&mem_tree(base), &refs).map_err(|e| match e {
        codethread_patch::ComposeError::Apply { index, error } => apply_error(
            instance_id,
            kept_names.get(index).copied().unwrap_or("layer"),
        )(error),
        source => ChainError::Compose {
            instance_id: instance_id.to_string(),
            source,
        },
    })?;
    Ok(combined.to_bytes())
}

/// The reverse of `patch` relative to base + `patch` (what `git apply -R`
/// does), as a diff written by codethread-patch: the human PR1 is the
/// reverse of PR0.
pub fn reverse_on(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    patch: &[u8],
) -> Result<Vec<u8>, ChainError> {
    let before = mem_tree(base);
    let mut after = before.clone();
    let parsed = parse_layer(instance_id, "PR0", patch)?;
    after
        .apply(&parsed, &ApplyOptions::default())
        .map_err(apply_error(instance_id, "PR0"))?;
    let rev = diff_trees(&after, &before, &DiffOptions::default())
        .map_err(diff_error(instance_id, "the reverse diff"))?;
    Ok(rev.to_bytes())
}

/// The sealed form of `patch` on `base`: the same change written as
/// forward-only `GIT binary patch` literals ([`DiffOptions::literal`]), so
/// it holds the post-image of every file it touches and nothing of the
/// pre-image but its blob id. This is what an agent-side setup gets (PR0 for
/// the Implementation Task, PR0 + PR1 for a Follow-On on an agent's PR1):
/// applied with `git apply` at base it gives the same tree as `patch`, and
/// neither it nor `git apply -R` can restore the original bodies PR0
/// removed. Empty when `patch` is empty.
pub fn seal_on(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    patch: &[u8],
) -> Result<Vec<u8>, ChainError> {
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let parsed = parse_layer(instance_id, "setup", patch)?;
    let before = mem_tree(base);
    let mut after = before.clone();
    after
        .apply(&parsed, &ApplyOptions::default())
        .map_err(apply_error(instance_id, "setup"))?;
    let sealed = diff_trees(&before, &after, &DiffOptions::default().literal(true))
        .map_err(diff_error(instance_id, "the sealed setup"))?;
    Ok(sealed.to_bytes())
}

/// [`seal_on`] reading the base files from `source`.
pub fn seal(
    instance_id: &str,
    base_commit: &str,
    patch: &[u8],
    source: &mut dyn SourceReader,
) -> Result<Vec<u8>, ChainError> {
    let base = base_files(instance_id, base_commit, &[patch], source)?;
    seal_on(instance_id, &base, patch)
}
