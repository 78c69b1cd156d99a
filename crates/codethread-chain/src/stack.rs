//! Composing stacked patches (PR0, PR1, PR2, ...) into ONE diff against the
//! base commit, which is what the unmodified SWE-bench harness can grade.
//! The layers are applied in order to the base files (each relative to the
//! result of the previous ones) and the result is diffed against base.

use std::collections::BTreeMap;

use codethread_patch::{diff_trees, ApplyOptions, DiffOptions, MemTree};

use crate::error::ChainError;
use crate::gitcli::ScratchRepo;
use crate::source::SourceReader;

/// Paths touched by a patch (old and new names), or a typed error.
pub fn touched_paths(instance_id: &str, patch: &[u8]) -> Result<Vec<String>, ChainError> {
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let p = codethread_patch::parse(patch).map_err(|e| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: format!("cannot parse: {e}"),
    })?;
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
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    let repo = ScratchRepo::new(base).map_err(|e| err(e.to_string()))?;
    for (i, l) in layers.iter().enumerate() {
        if l.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let name = names.get(i).copied().unwrap_or("layer");
        repo.apply(l, false)
            .map_err(|m| err(format!("{name} does not apply: {m}")))?;
    }
    repo.diff_from_base().map_err(|e| err(e.to_string()))
}

/// [`compose_on`] reading the base files from `source`.
pub fn compose(
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
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    // Start from base + patch, then diff back to base.
    let start = ScratchRepo::new(base).map_err(|e| err(e.to_string()))?;
    start
        .apply(patch, false)
        .map_err(|m| err(format!("PR0 does not apply: {m}")))?;
    let mut after: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for p in touched_paths(instance_id, patch)? {
        if let Some(b) = start.read(&p) {
            after.insert(p, b);
        }
    }
    let back = ScratchRepo::new(&after).map_err(|e| err(e.to_string()))?;
    let mut target: BTreeMap<String, Option<Vec<u8>>> = BTreeMap::new();
    for p in touched_paths(instance_id, patch)? {
        target.insert(p.clone(), base.get(&p).cloned());
    }
    back.set_files(&target).map_err(|e| err(e.to_string()))?;
    back.diff_from_base().map_err(|e| err(e.to_string()))
}

/// Check with the real `git apply` that `patch` applies to `base` and that
/// `git apply -R` restores `base` byte for byte.
pub fn check_roundtrip(
    instance_id: &str,
    base: &BTreeMap<String, Vec<u8>>,
    patch: &[u8],
) -> Result<(), ChainError> {
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    let repo = ScratchRepo::new(base).map_err(|e| err(e.to_string()))?;
    repo.apply(patch, false)
        .map_err(|m| err(format!("git apply failed: {m}")))?;
    repo.apply(patch, true)
        .map_err(|m| err(format!("git apply -R failed: {m}")))?;
    for (p, bytes) in base {
        if repo.read(p).as_deref() != Some(bytes.as_slice()) {
            return Err(err(format!("git apply -R did not restore {p}")));
        }
    }
    for p in touched_paths(instance_id, patch)? {
        if !base.contains_key(&p) && repo.read(&p).is_some() {
            return Err(err(format!("git apply -R left {p} behind")));
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
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    let mut parsed = Vec::new();
    let mut kept_names = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        if l.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let name = names.get(i).copied().unwrap_or("layer");
        parsed.push(
            codethread_patch::parse(l).map_err(|e| err(format!("{name} cannot be parsed: {e}")))?,
        );
        kept_names.push(name);
    }
    let refs: Vec<&codethread_patch::Patch> = parsed.iter().collect();
    let combined = codethread_patch::compose(&mem_tree(base), &refs).map_err(|e| match e {
        codethread_patch::ComposeError::Apply { index, error } => err(format!(
            "{} does not apply: {error}",
            kept_names.get(index).copied().unwrap_or("layer")
        )),
        other => err(format!("cannot write the combined diff: {other}")),
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
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    let before = mem_tree(base);
    let mut after = before.clone();
    let parsed =
        codethread_patch::parse(patch).map_err(|e| err(format!("PR0 cannot be parsed: {e}")))?;
    after
        .apply(&parsed, &ApplyOptions::default())
        .map_err(|e| err(format!("PR0 does not apply: {e}")))?;
    let rev = diff_trees(&after, &before, &DiffOptions::default())
        .map_err(|e| err(format!("cannot write the reverse diff: {e}")))?;
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
    let err = |m: String| ChainError::Patch {
        instance_id: instance_id.to_string(),
        message: m,
    };
    if patch.iter().all(u8::is_ascii_whitespace) {
        return Ok(Vec::new());
    }
    let parsed =
        codethread_patch::parse(patch).map_err(|e| err(format!("setup cannot be parsed: {e}")))?;
    let before = mem_tree(base);
    let mut after = before.clone();
    after
        .apply(&parsed, &ApplyOptions::default())
        .map_err(|e| err(format!("setup does not apply: {e}")))?;
    let sealed = diff_trees(
        &before,
        &after,
        &DiffOptions {
            literal: true,
            ..DiffOptions::default()
        },
    )
    .map_err(|e| err(format!("cannot write the sealed setup: {e}")))?;
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
