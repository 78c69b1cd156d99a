//! Applying patches to an in-memory tree with git's rules (or GNU patch's
//! fuzz, on request). All-or-nothing: on error nothing is changed.

use std::collections::BTreeMap;

use crate::binary;
use crate::error::ApplyError;
use crate::model::*;
use crate::safety::check_path;

/// Regular file mode.
pub const MODE_FILE: u32 = 0o100644;
/// Executable file mode.
pub const MODE_EXEC: u32 = 0o100755;
/// Symbolic link mode.
pub const MODE_SYMLINK: u32 = 0o120000;

/// How to apply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApplyOptions {
    /// Apply the patch in reverse (`git apply -R`).
    pub reverse: bool,
    /// GNU `patch --fuzz N`: when a hunk does not match exactly, retry with
    /// up to `fuzz` leading and trailing context lines ignored (and without
    /// git's match-at-start/end rule). 0 (the default) = git's exact rules.
    pub fuzz: usize,
    /// `git apply --unidiff-zero`: do not infer "must match at start/end"
    /// from missing context (for `-U0` patches).
    pub unidiff_zero: bool,
}

impl ApplyOptions {
    /// Sets [`ApplyOptions::reverse`].
    pub fn reverse(mut self, reverse: bool) -> Self {
        self.reverse = reverse;
        self
    }

    /// Sets [`ApplyOptions::fuzz`].
    pub fn fuzz(mut self, fuzz: usize) -> Self {
        self.fuzz = fuzz;
        self
    }

    /// Sets [`ApplyOptions::unidiff_zero`].
    pub fn unidiff_zero(mut self, unidiff_zero: bool) -> Self {
        self.unidiff_zero = unidiff_zero;
        self
    }
}

/// One file of a [`MemTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeFile {
    /// The bytes.
    pub content: Vec<u8>,
    /// Git mode (`0o100644`, `0o100755`, `0o120000`).
    pub mode: u32,
}

/// An in-memory file tree keyed by `/`-separated relative paths (bytes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemTree {
    /// The files.
    pub files: BTreeMap<Vec<u8>, TreeFile>,
}

impl MemTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces a regular file.
    pub fn insert(&mut self, path: impl Into<Vec<u8>>, content: impl Into<Vec<u8>>) {
        self.files.insert(
            path.into(),
            TreeFile {
                content: content.into(),
                mode: MODE_FILE,
            },
        );
    }

    /// The content of a file.
    pub fn get(&self, path: &[u8]) -> Option<&[u8]> {
        self.files.get(path).map(|f| f.content.as_slice())
    }

    /// Applies `patch`; on error the tree is unchanged.
    pub fn apply(&mut self, patch: &Patch, opts: &ApplyOptions) -> Result<ApplyReport, ApplyError> {
        let (overlay, report) = apply_with(&|p: &[u8]| self.files.get(p).cloned(), patch, opts)?;
        for (path, f) in overlay {
            match f {
                Some(f) => {
                    self.files.insert(path, f);
                }
                None => {
                    self.files.remove(&path);
                }
            }
        }
        Ok(report)
    }
}

/// Where a hunk landed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HunkReport {
    /// 1-based line (in the file as it was when this hunk was applied) where
    /// the hunk's pre-image started.
    pub applied_at: usize,
    /// Lines between the position named by the hunk header and the real one.
    pub offset: isize,
    /// Context lines ignored at each end (0 unless [`ApplyOptions::fuzz`]).
    pub fuzz: usize,
}

/// What happened to one file diff.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FileReport {
    /// Create / modify / delete / rename / copy (after reversal, if any).
    pub op: FileOp,
    /// The path read, `None` for a created file: as it is when UTF-8,
    /// otherwise quoted with `\xNN` escapes ([`codethread_lang::bytes_label`]),
    /// so distinct names stay distinct.
    pub old_path: Option<String>,
    /// The path written, `None` for a deleted file (labelled as `old_path`).
    pub new_path: Option<String>,
    /// Per-hunk placement.
    pub hunks: Vec<HunkReport>,
    /// 1-based numbers, in the pre-image, of the lines the patch removed
    /// (where the hunks really applied, offsets included).
    pub removed_lines: Vec<usize>,
    /// 1-based numbers, in the post-image, of the lines the patch added.
    pub added_lines: Vec<usize>,
}

/// The outcome of a successful application.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct ApplyReport {
    /// One entry per file diff, in patch order.
    pub files: Vec<FileReport>,
}

/// Overlay of changes: `None` = deleted.
pub(crate) type Overlay = BTreeMap<Vec<u8>, Option<TreeFile>>;

/// Applies `patch` against files looked up with `base`, returning the changed
/// files (without touching anything) and the report.
pub(crate) fn apply_with(
    base: &dyn Fn(&[u8]) -> Option<TreeFile>,
    patch: &Patch,
    opts: &ApplyOptions,
) -> Result<(Overlay, ApplyReport), ApplyError> {
    let mut overlay: Overlay = BTreeMap::new();
    let mut report = ApplyReport::default();
    let get = |overlay: &Overlay, p: &[u8]| -> Option<TreeFile> {
        match overlay.get(p) {
            Some(v) => v.clone(),
            None => base(p),
        }
    };
    for (fi, fp) in patch.files.iter().enumerate() {
        let fileno = fi + 1;
        let (src, dst, src_mode, dst_mode) = if opts.reverse {
            (&fp.new_path, &fp.old_path, fp.new_mode, fp.old_mode)
        } else {
            (&fp.old_path, &fp.new_path, fp.old_mode, fp.new_mode)
        };
        let _ = src_mode;
        for p in [src, dst].into_iter().flatten() {
            check_path(p).map_err(|reason| ApplyError::UnsafePath {
                path: codethread_lang::bytes_label(p),
                reason,
            })?;
            // Never write through a symlink held in the tree.
            symlink_ancestor_check(&|q: &[u8]| get(&overlay, q), p)?;
        }
        // A submodule pointer (mode 160000, `Subproject commit ...`) names a
        // commit of another repository, no file of this tree: `git apply`
        // records it in the index only, and the tree of files is unchanged.
        if fp.is_gitlink() {
            let label = |p: &Option<Vec<u8>>| p.as_deref().map(codethread_lang::bytes_label);
            report.files.push(FileReport {
                op: fp.op(),
                old_path: label(src),
                new_path: label(dst),
                hunks: Vec::new(),
                removed_lines: Vec::new(),
                added_lines: Vec::new(),
            });
            continue;
        }
        // Reversing a copy makes its source the destination, which exists:
        // refused, as `git apply -R` refuses it ("already exists").
        let is_copy = fp.is_copy;
        // git: a traditional (non-git) diff with no pre-image lines whose
        // file does not exist creates it, even without `/dev/null`.
        let src_missing = src.as_ref().is_some_and(|s| get(&overlay, s).is_none());
        let implicit_create = src_missing
            && !fp.is_git
            && !opts.reverse
            && !fp.hunks.is_empty()
            && fp.hunks.iter().all(|h| h.old_len == 0);
        let src = if implicit_create { &None } else { src };
        let op = match (src, dst) {
            (None, _) => FileOp::Create,
            (_, None) => FileOp::Delete,
            _ if fp.is_rename => FileOp::Rename,
            _ if is_copy => FileOp::Copy,
            _ => FileOp::Modify,
        };
        let display =
            codethread_lang::bytes_label(dst.as_deref().or(src.as_deref()).unwrap_or_default());
        let old = match src {
            Some(s) => Some(get(&overlay, s).ok_or_else(|| ApplyError::Missing {
                path: codethread_lang::bytes_label(s),
                file: fileno,
            })?),
            None => None,
        };
        if let Some(d) = dst {
            let must_be_absent = matches!(op, FileOp::Create | FileOp::Rename | FileOp::Copy)
                && Some(d) != src.as_ref();
            if must_be_absent && get(&overlay, d).is_some() {
                return Err(ApplyError::AlreadyExists {
                    path: codethread_lang::bytes_label(d),
                    file: fileno,
                });
            }
        }
        let old_content: &[u8] = old.as_ref().map_or(&[], |f| f.content.as_slice());
        if let Some(f) = &old {
            if f.mode == MODE_SYMLINK
                && dst_mode != Some(MODE_SYMLINK)
                && !matches!(op, FileOp::Delete)
            {
                return Err(ApplyError::Symlink {
                    path: display.clone(),
                    link: display.clone(),
                });
            }
        }
        let (new_content, hunks, removed, added) = if let Some(bin) = &fp.binary {
            let c = apply_binary(bin, fp, old_content, opts.reverse, &display)?;
            (c, Vec::new(), Vec::new(), Vec::new())
        } else {
            apply_hunks(old_content, &fp.hunks, opts, &display)?
        };
        let mode = dst_mode
            .or(old.as_ref().map(|f| f.mode))
            .unwrap_or(MODE_FILE);
        match (op, dst) {
            (FileOp::Delete, _) | (_, None) => {
                if !new_content.is_empty() {
                    return Err(ApplyError::DeleteLeavesContent {
                        path: display,
                        bytes: new_content.len(),
                    });
                }
                if let Some(s) = src {
                    overlay.insert(s.clone(), None);
                }
            }
            (_, Some(d)) => {
                if op == FileOp::Rename {
                    if let Some(s) = src {
                        overlay.insert(s.clone(), None);
                    }
                }
                overlay.insert(
                    d.clone(),
                    Some(TreeFile {
                        content: new_content,
                        mode,
                    }),
                );
            }
        }
        report.files.push(FileReport {
            op,
            old_path: src.as_deref().map(codethread_lang::bytes_label),
            new_path: dst.as_deref().map(codethread_lang::bytes_label),
            hunks,
            removed_lines: removed,
            added_lines: added,
        });
    }
    Ok((overlay, report))
}

fn symlink_ancestor_check(
    get: &dyn Fn(&[u8]) -> Option<TreeFile>,
    path: &[u8],
) -> Result<(), ApplyError> {
    for (i, &b) in path.iter().enumerate() {
        if b == b'/' {
            if let Some(f) = get(&path[..i]) {
                let reason_link = codethread_lang::bytes_label(&path[..i]);
                if f.mode == MODE_SYMLINK {
                    return Err(ApplyError::Symlink {
                        path: codethread_lang::bytes_label(path),
                        link: reason_link,
                    });
                }
                return Err(ApplyError::Io {
                    path: codethread_lang::bytes_label(path),
                    message: format!("`{reason_link}` is a file, not a directory"),
                });
            }
        }
    }
    Ok(())
}

fn apply_binary(
    bin: &Binary,
    fp: &FilePatch,
    old: &[u8],
    reverse: bool,
    path: &str,
) -> Result<Vec<u8>, ApplyError> {
    let fail = |reason: String| ApplyError::BinaryFailed {
        path: path.to_string(),
        reason,
    };
    let (forward, rev) = match bin {
        Binary::Marker => {
            return Err(ApplyError::BinaryWithoutData {
                path: path.to_string(),
            })
        }
        Binary::Git { forward, reverse } => (forward, reverse),
    };
    let hunk = if reverse {
        rev.as_ref()
            .ok_or_else(|| fail("no reverse binary hunk".into()))?
    } else {
        forward
    };
    // With a full index line, check the pre-image is the one the patch was made from.
    if let Some(ix) = &fp.index {
        let want = if reverse { &ix.new } else { &ix.old };
        if want.len() == 40
            && want.iter().any(|&b| b != b'0')
            && binary::blob_id(old).as_bytes() != want.as_slice()
        {
            return Err(fail(
                "pre-image does not match the patch's index line".into(),
            ));
        }
    }
    if hunk.method == BinaryMethod::Literal && hunk.size > binary::MAX_BINARY_BYTES {
        return Err(fail(format!(
            "announced size {} exceeds the limit of {} bytes",
            hunk.size,
            binary::MAX_BINARY_BYTES
        )));
    }
    let data = binary::inflate(
        &hunk.deflated,
        match hunk.method {
            BinaryMethod::Literal => hunk.size,
            BinaryMethod::Delta => hunk
                .size
                .max(1 << 20)
                .saturating_mul(4)
                .min(binary::MAX_BINARY_BYTES),
        },
    )
    .map_err(fail)?;
    match hunk.method {
        BinaryMethod::Literal => {
            if data.len() as u64 != hunk.size {
                return Err(fail("literal size mismatch".into()));
            }
            Ok(data)
        }
        BinaryMethod::Delta => binary::apply_delta(old, &data).map_err(fail),
    }
}

/// Where a line of the working image came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Line n (1-based) of the pre-image.
    Before(usize),
    /// Added by a hunk.
    Added,
}

#[derive(Clone, Copy)]
struct ImgLine<'a> {
    text: &'a [u8],
    patched: bool,
    origin: Origin,
}

/// Splits into lines, terminators kept; a last line without `\n` is kept too.
pub(crate) fn split_keep(content: &[u8]) -> Vec<&[u8]> {
    let mut v = Vec::with_capacity(content.len() / 32 + 1);
    let mut s = 0;
    for (i, &b) in content.iter().enumerate() {
        if b == b'\n' {
            v.push(&content[s..=i]);
            s = i + 1;
        }
    }
    if s < content.len() {
        v.push(&content[s..]);
    }
    v
}

type HunkResult = (Vec<u8>, Vec<HunkReport>, Vec<usize>, Vec<usize>);

fn apply_hunks(
    old: &[u8],
    hunks: &[Hunk],
    opts: &ApplyOptions,
    path: &str,
) -> Result<HunkResult, ApplyError> {
    let mut img: Vec<ImgLine<'_>> = split_keep(old)
        .into_iter()
        .enumerate()
        .map(|(i, text)| ImgLine {
            text,
            patched: false,
            origin: Origin::Before(i + 1),
        })
        .collect();
    let mut reports = Vec::with_capacity(hunks.len());
    let mut removed = Vec::new();
    for (hi, h) in hunks.iter().enumerate() {
        // Pre- and post-image of the hunk in the chosen direction. Post lines
        // carry the index of the pre line they keep (context) or None (added).
        // `old_len`/`new_len` are claims of the header: reserve by the lines held.
        let mut pre: Vec<&[u8]> = Vec::with_capacity(h.old_len.min(h.lines.len()));
        let mut post: Vec<(&[u8], Option<usize>)> =
            Vec::with_capacity(h.new_len.min(h.lines.len()));
        for l in &h.lines {
            let c = l.content();
            let kind = match (l.kind, opts.reverse) {
                (LineKind::Remove, true) => LineKind::Add,
                (LineKind::Add, true) => LineKind::Remove,
                (k, _) => k,
            };
            match kind {
                LineKind::Context => {
                    post.push((c, Some(pre.len())));
                    pre.push(c);
                }
                LineKind::Remove => pre.push(c),
                LineKind::Add => post.push((c, None)),
            }
        }
        let (oldpos, newpos) = if opts.reverse {
            (h.new_start, h.old_start)
        } else {
            (h.old_start, h.new_start)
        };
        let leading = h.leading_context();
        let trailing = h.trailing_context();
        let pos = newpos.saturating_sub(1);
        let mut found = None;
        for f in 0..=opts.fuzz {
            // An all-context hunk counts its lines as both leading and trailing.
            let lead_cut = f.min(leading);
            let trail_cut = f.min(trailing).min(pre.len() - lead_cut);
            if f > 0 && lead_cut == 0 && trail_cut == 0 && f > leading.max(trailing) {
                break;
            }
            let (mb, me) = if f == 0 {
                (
                    oldpos == 0 || (oldpos == 1 && !opts.unidiff_zero),
                    !opts.unidiff_zero && trailing == 0,
                )
            } else {
                (false, false)
            };
            let p = &pre[lead_cut..pre.len() - trail_cut];
            if let Some(at) = find_pos(&img, p, pos + lead_cut, mb, me) {
                found = Some((at, f, lead_cut, trail_cut));
                break;
            }
        }
        let Some((at, fuzz, lead_cut, trail_cut)) = found else {
            return Err(ApplyError::HunkFailed {
                path: path.to_string(),
                hunk: hi + 1,
                patch_line: h.patch_line,
                expected_line: pos + 1,
                detail: mismatch_detail(&img, &pre, pos),
            });
        };
        let pre_used = pre.len() - lead_cut - trail_cut;
        let post_used: Vec<(&[u8], Option<usize>)> = post
            .iter()
            .filter(|(_, k)| k.is_none_or(|k| k >= lead_cut && k < pre.len() - trail_cut))
            .copied()
            .collect();
        // Record removed pre-image lines (the matched lines not kept): one
        // flag per line of the hunk, never a search per line (a hunk that
        // spans the whole file, as when every function's edit merges into
        // one, was quadratic in its lines).
        let mut kept = vec![false; pre_used];
        for k in post_used
            .iter()
            .filter_map(|(_, k)| k.map(|k| k - lead_cut))
        {
            if let Some(slot) = kept.get_mut(k) {
                *slot = true;
            }
        }
        for (k, &keep) in kept.iter().enumerate() {
            if !keep {
                if let Origin::Before(n) = img[at + k].origin {
                    removed.push(n);
                }
            }
        }
        let new_lines: Vec<ImgLine<'_>> = post_used
            .iter()
            .map(|&(text, k)| match k {
                Some(k) => ImgLine {
                    text: img[at + k - lead_cut].text,
                    patched: true,
                    origin: img[at + k - lead_cut].origin,
                },
                None => ImgLine {
                    text,
                    patched: true,
                    origin: Origin::Added,
                },
            })
            .collect();
        img.splice(at..at + pre_used, new_lines);
        reports.push(HunkReport {
            applied_at: at + 1,
            offset: at as isize - (pos + lead_cut) as isize,
            fuzz,
        });
    }
    let mut out = Vec::with_capacity(old.len() + 64);
    let mut added = Vec::new();
    for (i, l) in img.iter().enumerate() {
        out.extend_from_slice(l.text);
        if l.origin == Origin::Added {
            added.push(i + 1);
        }
    }
    removed.sort_unstable();
    Ok((out, reports, removed, added))
}

/// git's `find_pos`: try `line`, then alternately further forward and
/// backward (nearest first).
fn find_pos(
    img: &[ImgLine<'_>],
    pre: &[&[u8]],
    line: usize,
    match_beginning: bool,
    match_end: bool,
) -> Option<usize> {
    let n = img.len();
    let mut line = if match_beginning {
        0
    } else if match_end {
        n.saturating_sub(pre.len())
    } else {
        line
    };
    if match_end && pre.len() > n {
        return None;
    }
    if line > n {
        line = n;
    }
    let try_at = |at: usize| -> bool {
        if match_beginning && at != 0 {
            return false;
        }
        if match_end && at + pre.len() != n {
            return false;
        }
        if at + pre.len() > n {
            return false;
        }
        pre.iter().enumerate().all(|(k, p)| {
            let l = &img[at + k];
            !l.patched && l.text == *p
        })
    };
    if match_beginning || match_end {
        // Only one position can satisfy the anchor.
        return try_at(line).then_some(line);
    }
    let (mut back, mut fwd) = (line, line);
    if try_at(line) {
        return Some(line);
    }
    loop {
        let can_fwd = fwd < n;
        let can_back = back > 0;
        if !can_fwd && !can_back {
            return None;
        }
        if can_fwd {
            fwd += 1;
            if try_at(fwd) {
                return Some(fwd);
            }
        }
        if can_back {
            back -= 1;
            if try_at(back) {
                return Some(back);
            }
        }
    }
}

fn mismatch_detail(img: &[ImgLine<'_>], pre: &[&[u8]], pos: usize) -> String {
    for (k, p) in pre.iter().enumerate() {
        match img.get(pos + k) {
            None => {
                return format!(
                    "; file ends at line {} but hunk needs line {}",
                    img.len(),
                    pos + k + 1
                )
            }
            Some(l) if l.text != *p => {
                return format!(
                    "; line {} is {:?}, hunk expects {:?}",
                    pos + k + 1,
                    String::from_utf8_lossy(l.text),
                    String::from_utf8_lossy(p)
                )
            }
            _ => {}
        }
    }
    String::new()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::parse_patch;

    fn tree(files: &[(&str, &str)]) -> MemTree {
        let mut t = MemTree::new();
        for (p, c) in files {
            t.insert(p.as_bytes(), c.as_bytes());
        }
        t
    }

    #[test]
    fn offset_and_report() {
        // git: a hunk starting at line 1 must match at the start of the file.
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n").expect("parse");
        let mut t = tree(&[("f", "x\ny\na\nb\nc\nz\n")]);
        assert!(t.apply(&p, &ApplyOptions::default()).is_err());
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -2,3 +2,3 @@\n a\n-b\n+B\n c\n").expect("parse");
        let r = t.apply(&p, &ApplyOptions::default()).expect("apply");
        assert_eq!(t.get(b"f"), Some(&b"x\ny\na\nB\nc\nz\n"[..]));
        assert_eq!(r.files[0].hunks[0].offset, 1);
        assert_eq!(r.files[0].removed_lines, vec![4]);
        assert_eq!(r.files[0].added_lines, vec![4]);
        // Reverse brings it back.
        t.apply(
            &p,
            &ApplyOptions {
                reverse: true,
                ..Default::default()
            },
        )
        .expect("reverse");
        assert_eq!(t.get(b"f"), Some(&b"x\ny\na\nb\nc\nz\n"[..]));
    }

    #[test]
    fn nearest_first() {
        // Context matches at lines 1 and 7; header says 5: 7 is nearer (offset +2 vs -4).
        // (Checked with git 2.47: "Hunk #1 succeeded at 7 (offset 2 lines).")
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -5,3 +5,3 @@\n a\n-b\n+X\n 5\n").expect("parse");
        let mut t = tree(&[("f", "a\nb\n5\n1\n2\n3\n4\na\nb\n5\n")]);
        t.apply(&p, &ApplyOptions::default()).expect("apply");
        assert_eq!(t.get(b"f"), Some(&b"a\nb\n5\n1\n2\n3\n4\na\nX\n5\n"[..]));
    }

    #[test]
    fn whitespace_and_eol_are_exact_and_all_or_nothing() {
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-x\n+y\n").expect("parse");
        let mut t = tree(&[("f", "a\nb\n"), ("g", "x \n")]);
        let before = t.clone();
        let e = t.apply(&p, &ApplyOptions::default()).unwrap_err();
        assert!(
            matches!(&e, ApplyError::HunkFailed { path, hunk: 1, patch_line: 9, .. } if path == "g"),
            "{e}"
        );
        assert_eq!(t, before, "nothing applied");
        let mut t = tree(&[("f", "a\r\nb\r\n")]);
        assert!(t.apply(&p, &ApplyOptions::default()).is_err());
    }

    #[test]
    fn no_newline_at_eof() {
        let p = parse_patch(
            b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n",
        )
        .expect("parse");
        let mut t = tree(&[("f", "a\nb")]);
        t.apply(&p, &ApplyOptions::default()).expect("apply");
        assert_eq!(t.get(b"f"), Some(&b"a\nb\n"[..]));
        let mut t = tree(&[("f", "a\nb\n")]);
        assert!(
            t.apply(&p, &ApplyOptions::default()).is_err(),
            "file has a newline the patch says is absent"
        );
    }

    #[test]
    fn end_anchor_without_trailing_context() {
        // No trailing context: git requires the hunk to match at the end of file.
        // (Checked with git 2.47: with `@@ -1,2` it must also match at the start.)
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@\n a\n b\n+c\n").expect("parse");
        let mut t = tree(&[("f", "a\nb\nz\n")]);
        assert!(t.apply(&p, &ApplyOptions::default()).is_err());
        let mut t = tree(&[("f", "q\na\nb\n")]);
        t.apply(&p, &ApplyOptions::default())
            .expect("matches at end");
        assert_eq!(t.get(b"f"), Some(&b"q\na\nb\nc\n"[..]));
    }

    #[test]
    fn fuzz_option() {
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n a\n b\n-c\n+C\n d\n e\n")
            .expect("parse");
        let mut t = tree(&[("f", "A\nb\nc\nd\nE\n")]);
        assert!(t.apply(&p, &ApplyOptions::default()).is_err());
        let r = t
            .apply(
                &p,
                &ApplyOptions {
                    fuzz: 1,
                    ..Default::default()
                },
            )
            .expect("fuzz 1");
        assert_eq!(t.get(b"f"), Some(&b"A\nb\nC\nd\nE\n"[..]));
        assert_eq!(r.files[0].hunks[0].fuzz, 1);
    }

    #[test]
    fn all_context_hunk_with_fuzz() {
        // Found by the fuzz driver: every line is both leading and trailing context.
        let p = parse_patch(b"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n b\n").expect("parse");
        let mut t = tree(&[("f", "x\na\nc\n")]);
        assert!(t
            .apply(
                &p,
                &ApplyOptions {
                    fuzz: 2,
                    ..Default::default()
                }
            )
            .is_ok());
        assert_eq!(t.get(b"f"), Some(&b"x\na\nc\n"[..]));
    }

    #[test]
    fn create_delete_rename() {
        let p = parse_patch(b"diff --git a/n b/n\nnew file mode 100755\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+hi\ndiff --git a/d b/d\ndeleted file mode 100644\n--- a/d\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\ndiff --git a/r b/s\nsimilarity index 100%\nrename from r\nrename to s\n").expect("parse");
        let mut t = tree(&[("d", "x\n"), ("r", "keep\n")]);
        t.apply(&p, &ApplyOptions::default()).expect("apply");
        assert_eq!(t.files.get(&b"n"[..]).map(|f| f.mode), Some(MODE_EXEC));
        assert!(t.get(b"d").is_none());
        assert!(t.get(b"r").is_none());
        assert_eq!(t.get(b"s"), Some(&b"keep\n"[..]));
        // Creating an existing file fails; deleting a missing one too.
        assert!(matches!(
            t.apply(&p, &ApplyOptions::default()),
            Err(ApplyError::AlreadyExists { .. })
        ));
        t.apply(
            &p,
            &ApplyOptions {
                reverse: true,
                ..Default::default()
            },
        )
        .expect("reverse");
        assert_eq!(t, tree(&[("d", "x\n"), ("r", "keep\n")]));
    }

    #[test]
    fn unsafe_paths_refused() {
        for bad in [
            "../../etc/x",
            ".git/hooks/pre-commit",
            "a/../../b",
            "sub/.GIT/config",
        ] {
            let text = format!("--- /dev/null\n+++ b/{bad}\n@@ -0,0 +1 @@\n+x\n");
            let p = parse_patch(text.as_bytes()).expect("parse");
            let mut t = MemTree::new();
            let e = t.apply(&p, &ApplyOptions::default()).unwrap_err();
            assert!(matches!(e, ApplyError::UnsafePath { .. }), "{bad}: {e}");
        }
        // An absolute path can only come from a hand-built model (parsing strips `/`).
        let mut p = parse_patch(b"--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+x\n").expect("parse");
        p.files[0].new_path = Some(b"/etc/passwd".to_vec());
        assert!(matches!(
            MemTree::new().apply(&p, &ApplyOptions::default()),
            Err(ApplyError::UnsafePath {
                reason: "absolute path",
                ..
            })
        ));
        let mut t = MemTree::new();
        t.files.insert(
            b"link".to_vec(),
            TreeFile {
                content: b"/etc".to_vec(),
                mode: MODE_SYMLINK,
            },
        );
        let p =
            parse_patch(b"--- /dev/null\n+++ b/link/passwd\n@@ -0,0 +1 @@\n+x\n").expect("parse");
        assert!(matches!(
            t.apply(&p, &ApplyOptions::default()),
            Err(ApplyError::Symlink { .. })
        ));
    }
}

#[cfg(test)]
mod gitlink_tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use crate::{parse_patch, ApplyOptions, MemTree};

    /// Issue 33: a gold patch that moves a submodule pointer (vuls) applies
    /// in memory as `git apply` applies it in a work tree: the pointer is no
    /// file of the tree and is left alone, the other files change; the
    /// reverse restores them.
    #[test]
    fn submodule_pointers_are_no_files() {
        let patch = b"diff --git a/integration b/integration\nindex d97bf531..b40375c4 160000\n--- a/integration\n+++ b/integration\n@@ -1 +1 @@\n-Subproject commit d97bf5311446396efd134fd812e51da5ad0df15a\n+Subproject commit b40375c4df717d13626da9a78dbc56591336eb92\ndiff --git a/m.go b/m.go\nindex 1..2 100644\n--- a/m.go\n+++ b/m.go\n@@ -1 +1 @@\n-package a\n+package b\n";
        let p = parse_patch(patch).unwrap();
        assert!(p.files[0].is_gitlink());
        assert!(!p.files[1].is_gitlink());
        let mut t = MemTree::new();
        t.insert(b"m.go".to_vec(), b"package a\n".to_vec());
        let r = t.apply(&p, &ApplyOptions::default()).unwrap();
        assert_eq!(r.files.len(), 2);
        assert_eq!(t.get(b"m.go").unwrap(), b"package b\n");
        assert!(t.get(b"integration").is_none());
        t.apply(
            &p,
            &ApplyOptions {
                reverse: true,
                ..ApplyOptions::default()
            },
        )
        .unwrap();
        assert_eq!(t.get(b"m.go").unwrap(), b"package a\n");
    }
}
