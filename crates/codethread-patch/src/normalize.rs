//! Turning any parsed diff into canonical git form, and composing stacked
//! patches into one.

use crate::apply::{ApplyOptions, MemTree, MODE_FILE};
use crate::create::{diff_trees, DiffOptions};
use crate::error::{ApplyError, CreateError, ParseError};
use crate::model::{FileOp, Patch};
use crate::parse::parse_patch;
use crate::quote::quote_path;

/// Rewrites `patch` in git's format: every file diff gets a
/// `diff --git a/… b/…` line (quoted where git quotes), `new file mode` /
/// `deleted file mode` for `/dev/null` sides of traditional diffs (and
/// `new file mode` for a traditional diff whose hunks all start at `-0,0`),
/// `---`/`+++` lines with `a/`/`b/` prefixes, and its hunks unchanged. Text
/// that belongs to no file diff (commit messages, `Index:` lines,
/// signatures) is dropped. Git file diffs are kept as they are. Use it for
/// diffs without `diff --git` headers (e.g. hand-written PR0 stubbing
/// patches) before handing them to `git apply` or the SWE-bench harness.
pub fn to_git_format(patch: &Patch) -> Result<Patch, ParseError> {
    let mut out = Vec::new();
    for f in &patch.files {
        if f.is_git {
            for h in &f.header {
                out.extend_from_slice(&h.raw);
            }
        } else {
            // A traditional diff whose only pre-image is empty (`@@ -0,0`)
            // creates its file (git's rule for diffs without /dev/null).
            let implicit_create =
                !f.hunks.is_empty() && f.hunks.iter().all(|h| h.old_start == 0 && h.old_len == 0);
            let old = if implicit_create {
                None
            } else {
                f.old_path.as_deref()
            };
            let new = f.new_path.as_deref();
            let name = f.path();
            let a = quote_path(b"a/", old.unwrap_or(name));
            let b = quote_path(b"b/", new.unwrap_or(name));
            out.extend_from_slice(b"diff --git ");
            out.extend_from_slice(&a);
            out.push(b' ');
            out.extend_from_slice(&b);
            out.push(b'\n');
            match if implicit_create {
                FileOp::Create
            } else {
                f.op()
            } {
                FileOp::Create => out.extend_from_slice(
                    format!("new file mode {:o}\n", f.new_mode.unwrap_or(MODE_FILE)).as_bytes(),
                ),
                FileOp::Delete => out.extend_from_slice(
                    format!("deleted file mode {:o}\n", f.old_mode.unwrap_or(MODE_FILE)).as_bytes(),
                ),
                _ => {}
            }
            for (prefix, name, side) in [(&b"--- "[..], old, a), (&b"+++ "[..], new, b)] {
                out.extend_from_slice(prefix);
                match name {
                    Some(_) => {
                        out.extend_from_slice(&side);
                        if side.contains(&b' ') {
                            out.push(b'\t');
                        }
                    }
                    None => out.extend_from_slice(b"/dev/null"),
                }
                out.push(b'\n');
            }
        }
        for h in &f.hunks {
            h.write_to(&mut out);
        }
    }
    // A last line without terminator would swallow nothing but is invalid for git.
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    parse_patch(&out)
}

/// Why stacked patches could not be composed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    /// Patch number `index` (0-based) does not apply on top of the previous ones.
    #[error("patch {index} does not apply on top of the previous ones: {error}")]
    Apply {
        /// Which patch.
        index: usize,
        /// Why.
        error: ApplyError,
    },
    /// Writing the combined diff failed.
    #[error(transparent)]
    Create(#[from] CreateError),
}

/// Applies `patches` one after the other to `base` (git rules) and returns
/// one git diff from `base` to the final state, over the files any of them
/// touched — e.g. PR1 + PR2 stacked into the single patch the SWE-bench
/// harness applies. Files changed and changed back vanish from the result.
pub fn compose(base: &MemTree, patches: &[&Patch]) -> Result<Patch, ComposeError> {
    let mut cur = base.clone();
    let mut touched = std::collections::BTreeSet::new();
    for (index, p) in patches.iter().enumerate() {
        cur.apply(p, &ApplyOptions::default())
            .map_err(|error| ComposeError::Apply { index, error })?;
        touched.extend(p.touched_paths());
    }
    let restrict = |t: &MemTree| MemTree {
        files: t
            .files
            .iter()
            .filter(|(k, _)| touched.contains(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
    };
    Ok(diff_trees(
        &restrict(base),
        &restrict(&cur),
        &DiffOptions::default(),
    )?)
}
