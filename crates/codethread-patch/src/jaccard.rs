//! Jaccard similarity of two patches' edit sets (the paper's J^file and J^func).

use std::collections::BTreeSet;
use std::hash::Hash;

use serde::Serialize;

use crate::localize::Localization;
use crate::model::Patch;

/// |A ∩ B| / |A ∪ B|; **1.0 when both sets are empty** (two patches that
/// edit nothing agree completely; this keeps J(A, A) = 1 for every A and
/// 1 − J a metric). Use [`jaccard_opt`] to tell that case apart.
pub fn jaccard<T: Ord>(a: &BTreeSet<T>, b: &BTreeSet<T>) -> f64 {
    jaccard_opt(a, b).unwrap_or(1.0)
}

/// Like [`jaccard`], but `None` when both sets are empty.
pub fn jaccard_opt<T: Ord>(a: &BTreeSet<T>, b: &BTreeSet<T>) -> Option<f64> {
    let inter = a.intersection(b).count();
    let union = a.len() + b.len() - inter;
    (union > 0).then(|| inter as f64 / union as f64)
}

/// Every path a patch touches (old and new paths, `-p1`-stripped, lossy UTF-8).
pub fn file_set(patch: &Patch) -> BTreeSet<String> {
    patch
        .touched_paths()
        .into_iter()
        .map(|p| String::from_utf8_lossy(&p).into_owned())
        .collect()
}

/// The edited functions of a localization as target ids
/// (`path::qualname[#n]`): modified and removed functions, plus added ones
/// when `include_added`.
pub fn function_set(loc: &Localization, include_added: bool) -> BTreeSet<String> {
    let mut s: BTreeSet<String> = loc.targets.iter().map(|t| t.target_id()).collect();
    if include_added {
        s.extend(loc.added_functions.iter().map(|t| t.target_id()));
    }
    s
}

/// J^file and J^func of two patches on the same base.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PatchSimilarity {
    /// Jaccard over touched file paths.
    pub file: f64,
    /// Jaccard over edited functions (modified + removed + added).
    pub func: f64,
    /// Jaccard over target functions only (modified + removed).
    pub func_targets: f64,
}

/// Both Jaccards of two localized patches.
pub fn similarity(a: (&Patch, &Localization), b: (&Patch, &Localization)) -> PatchSimilarity {
    PatchSimilarity {
        file: jaccard(&file_set(a.0), &file_set(b.0)),
        func: jaccard(&function_set(a.1, true), &function_set(b.1, true)),
        func_targets: jaccard(&function_set(a.1, false), &function_set(b.1, false)),
    }
}

/// The edit sets of one or two patches against the same pre-image directory,
/// and their Jaccards when there are two.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditSets {
    /// Per patch: touched files.
    pub files: Vec<BTreeSet<String>>,
    /// Per patch: the localization (targets, added functions, file details).
    pub localizations: Vec<Localization>,
    /// J^file / J^func of the first two patches.
    pub similarity: Option<PatchSimilarity>,
}

/// Parses one patch (number `index`, for errors), loads its pre-images from
/// `before` (safely, files of at most [`crate::LocalizeOptions::max_file_bytes`],
/// see [`crate::load_for_patch`]) and localizes it with `options`: one input of
/// [`edit_sets_in_dir`], for callers that keep the other patches' results
/// when one fails.
///
/// # Errors
/// [`crate::LocalizeError`] for a patch that does not parse, a pre-image that
/// cannot be read, or a patch that does not apply.
pub fn localize_in_dir(
    before: &std::path::Path,
    text: &[u8],
    index: usize,
    options: &crate::LocalizeOptions,
) -> Result<(crate::Patch, Localization), crate::localize::LocalizeError> {
    use crate::localize::LocalizeError;
    let p = crate::parse_patch(text).map_err(|error| LocalizeError::Patch { index, error })?;
    let tree = crate::fs::load_for_patch(before, &p, options.max_file_bytes)?;
    let loc = crate::localize::localize(&tree, &p, options)?;
    Ok((p, loc))
}

/// The [`EditSets`] of patches already localized (the similarity of the
/// first two).
pub fn edit_sets_of(localized: Vec<(crate::Patch, Localization)>) -> EditSets {
    let similarity = match (localized.first(), localized.get(1)) {
        (Some((a, la)), Some((b, lb))) => Some(similarity((a, la), (b, lb))),
        _ => None,
    };
    let files = localized.iter().map(|(p, _)| file_set(p)).collect();
    EditSets {
        files,
        localizations: localized.into_iter().map(|(_, l)| l).collect(),
        similarity,
    }
}

/// Parses each patch, loads its pre-images from `before` (safely, see
/// [`crate::load_for_patch`]), localizes it, and compares the first two.
pub fn edit_sets_in_dir(
    before: &std::path::Path,
    patches: &[&[u8]],
) -> Result<EditSets, crate::localize::LocalizeError> {
    use crate::localize::LocalizeError;
    let mut parsed = Vec::with_capacity(patches.len());
    let mut locs = Vec::with_capacity(patches.len());
    for (index, text) in patches.iter().enumerate() {
        let p = crate::parse_patch(text).map_err(|error| LocalizeError::Patch { index, error })?;
        let tree =
            crate::fs::load_for_patch(before, &p, codethread_lang::io::DEFAULT_MAX_FILE_BYTES)?;
        locs.push(crate::localize::localize(
            &tree,
            &p,
            &crate::LocalizeOptions::default(),
        )?);
        parsed.push(p);
    }
    let similarity = match (parsed.first(), parsed.get(1), locs.first(), locs.get(1)) {
        (Some(a), Some(b), Some(la), Some(lb)) => Some(similarity((a, la), (b, lb))),
        _ => None,
    };
    Ok(EditSets {
        files: parsed.iter().map(file_set).collect(),
        localizations: locs,
        similarity,
    })
}

/// Convenience: Jaccard of two iterables.
pub fn jaccard_of<T: Ord + Hash, I: IntoIterator<Item = T>>(a: I, b: I) -> f64 {
    let a: BTreeSet<T> = a.into_iter().collect();
    let b: BTreeSet<T> = b.into_iter().collect();
    jaccard(&a, &b)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    #[test]
    fn properties() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<BTreeSet<_>>();
        assert_eq!(jaccard(&s(&[]), &s(&[])), 1.0);
        assert_eq!(jaccard_opt(&s(&[]), &s(&[])), None);
        assert_eq!(jaccard(&s(&["a"]), &s(&[])), 0.0);
        assert_eq!(jaccard(&s(&["a", "b"]), &s(&["b", "c"])), 1.0 / 3.0);
        assert_eq!(jaccard(&s(&["a", "b"]), &s(&["b", "a"])), 1.0);
        assert_eq!(jaccard_of(["x", "y", "z"], ["z", "w", "y"]), 0.5);
    }
}
