//! Minimal pre- and post-images consistent with a patch, for tests and
//! benchmarks where the repository is not at hand.

use crate::apply::{MemTree, TreeFile, MODE_FILE};
use crate::model::{LineKind, Patch};

/// Builds, for every text file diff, the smallest pre-image that holds each
/// hunk's context and `-` lines at the line its header names (the gaps filled
/// with distinct filler lines), and the matching post-image (hunk context and
/// `+` lines with the same fillers). Applying the patch to the first tree
/// must give the second: a check of the hunk headers and counts, and a
/// workload for benchmarks. Binary diffs are skipped; file diffs on the same
/// path after the first are skipped.
pub fn synthesize_images(patch: &Patch) -> (MemTree, MemTree) {
    let mut before = MemTree::new();
    let mut after = MemTree::new();
    for (fi, f) in patch.files.iter().enumerate() {
        if f.binary.is_some() {
            continue;
        }
        let taken =
            |t: &MemTree, p: &Option<Vec<u8>>| p.as_ref().is_some_and(|p| t.files.contains_key(p));
        if taken(&before, &f.old_path) || taken(&after, &f.new_path) || taken(&after, &f.old_path) {
            continue;
        }
        let mut pre = Vec::new();
        let mut post = Vec::new();
        let mut cur = 1usize;
        for (hi, h) in f.hunks.iter().enumerate() {
            let start = if h.old_len == 0 {
                h.old_start + 1
            } else {
                h.old_start
            };
            while cur < start {
                let filler = format!("<codethread filler {fi}.{hi}.{cur}>\n");
                pre.extend_from_slice(filler.as_bytes());
                post.extend_from_slice(filler.as_bytes());
                cur += 1;
            }
            for l in &h.lines {
                match l.kind {
                    LineKind::Context => {
                        pre.extend_from_slice(l.content());
                        post.extend_from_slice(l.content());
                    }
                    LineKind::Remove => pre.extend_from_slice(l.content()),
                    LineKind::Add => post.extend_from_slice(l.content()),
                }
            }
            cur += h.old_len;
        }
        let mode = |m: Option<u32>| m.unwrap_or(MODE_FILE);
        if let Some(p) = &f.old_path {
            before.files.insert(
                p.clone(),
                TreeFile {
                    content: pre,
                    mode: mode(f.old_mode),
                },
            );
            if !f.is_copy {
                // Renamed/modified: the old path no longer holds the pre-image
                // unless it is also the new path (set below).
            } else {
                after.files.insert(p.clone(), before.files[p].clone());
            }
        }
        if let Some(p) = &f.new_path {
            after.files.insert(
                p.clone(),
                TreeFile {
                    content: post,
                    mode: mode(f.new_mode.or(f.old_mode)),
                },
            );
        }
    }
    (before, after)
}
