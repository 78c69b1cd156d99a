//! Writing git-compatible diffs from before/after contents.

use imara_diff::{Algorithm, Diff, InternedInput};

use crate::apply::{split_keep, MemTree, MODE_FILE};
use crate::binary::{blob_id, deflate, encode_base85_lines};
use crate::error::CreateError;
use crate::model::Patch;
use crate::parse::parse_patch;
use crate::quote::quote_path;
use crate::safety::check_path;

/// Options for [`diff_files`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DiffOptions {
    /// Context lines around each change (git's default 3).
    pub context: usize,
    /// Write `index <old>..<new>` lines with abbreviated blob ids (git does).
    pub index: bool,
    /// Write every changed pre-existing file as a forward-only
    /// `GIT binary patch` literal (the new contents, deflated and
    /// base85-encoded, with the full blob ids of both sides and no reverse
    /// block), also for text. Such a patch holds nothing of the pre-image
    /// but its blob id, so the old contents cannot be read back from it;
    /// `git apply` still checks the pre-image by its id and applies it
    /// (`git apply -R` cannot). CodeThread's sealed setup patches
    /// (PR0 without the original bodies) are written this way.
    pub literal: bool,
}

impl DiffOptions {
    /// Sets [`DiffOptions::context`].
    pub fn context(mut self, context: usize) -> Self {
        self.context = context;
        self
    }

    /// Sets [`DiffOptions::index`].
    pub fn index(mut self, index: bool) -> Self {
        self.index = index;
        self
    }

    /// Sets [`DiffOptions::literal`].
    pub fn literal(mut self, literal: bool) -> Self {
        self.literal = literal;
        self
    }
}

impl Default for DiffOptions {
    fn default() -> Self {
        Self {
            context: 3,
            index: true,
            literal: false,
        }
    }
}

/// One file to diff: `before == None` creates it, `after == None` deletes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileChange<'a> {
    /// Repository-relative path, `/`-separated.
    pub path: &'a [u8],
    /// Pre-image (`None`: file is created).
    pub before: Option<&'a [u8]>,
    /// Post-image (`None`: file is deleted).
    pub after: Option<&'a [u8]>,
    /// Git mode before (default `0o100644`).
    pub old_mode: Option<u32>,
    /// Git mode after (default: `old_mode`, else `0o100644`).
    pub new_mode: Option<u32>,
}

impl<'a> FileChange<'a> {
    /// A regular-file change.
    pub fn new(path: &'a [u8], before: Option<&'a [u8]>, after: Option<&'a [u8]>) -> Self {
        Self {
            path,
            before,
            after,
            old_mode: None,
            new_mode: None,
        }
    }
}

/// Git's binary heuristic: a NUL byte in the first 8000 bytes.
pub fn is_binary(content: &[u8]) -> bool {
    content.iter().take(8000).any(|&b| b == 0)
}

/// Writes a git diff (`diff --git a/… b/…`, 3 lines of context by default,
/// `\ No newline at end of file` markers, new/deleted files, mode changes,
/// `GIT binary patch` for binary content) for `changes`, and returns it
/// parsed. Unchanged files produce nothing; the result may hold no files
/// (then [`Patch::files`] is empty and [`Patch::to_bytes`] is empty).
/// `git apply` accepts every diff this writes.
pub fn diff_files(changes: &[FileChange<'_>], opts: &DiffOptions) -> Result<Patch, CreateError> {
    let mut out = Vec::new();
    for c in changes {
        write_file_diff(c, opts, &mut out)?;
    }
    if out.is_empty() {
        return Ok(Patch::default());
    }
    Ok(parse_patch(&out)?)
}

/// [`diff_files`] for every path present in either tree.
pub fn diff_trees(
    before: &MemTree,
    after: &MemTree,
    opts: &DiffOptions,
) -> Result<Patch, CreateError> {
    let mut paths: Vec<&Vec<u8>> = before.files.keys().chain(after.files.keys()).collect();
    paths.sort();
    paths.dedup();
    let changes: Vec<FileChange<'_>> = paths
        .into_iter()
        .map(|p| {
            let b = before.files.get(p);
            let a = after.files.get(p);
            FileChange {
                path: p,
                before: b.map(|f| f.content.as_slice()),
                after: a.map(|f| f.content.as_slice()),
                old_mode: b.map(|f| f.mode),
                new_mode: a.map(|f| f.mode),
            }
        })
        .collect();
    diff_files(&changes, opts)
}

fn short(id: &str) -> &str {
    id.get(..7).unwrap_or(id)
}

const ZERO_ID: &str = "0000000000000000000000000000000000000000";

fn write_file_diff(
    c: &FileChange<'_>,
    opts: &DiffOptions,
    out: &mut Vec<u8>,
) -> Result<(), CreateError> {
    let path_lossy = || String::from_utf8_lossy(c.path).into_owned();
    check_path(c.path).map_err(|reason| CreateError::UnsafePath {
        path: path_lossy(),
        reason,
    })?;
    let old_mode = c.old_mode.unwrap_or(MODE_FILE);
    let new_mode = c.new_mode.or(c.old_mode).unwrap_or(MODE_FILE);
    let (before, after) = match (c.before, c.after) {
        (None, None) => return Err(CreateError::NothingToDiff { path: path_lossy() }),
        (b, a) => (b, a),
    };
    if before == after && (before.is_none() || old_mode == new_mode) {
        return Ok(());
    }
    let a_name = quote_path(b"a/", c.path);
    let b_name = quote_path(b"b/", c.path);
    let mut head = Vec::new();
    head.extend_from_slice(b"diff --git ");
    head.extend_from_slice(&a_name);
    head.push(b' ');
    head.extend_from_slice(&b_name);
    head.push(b'\n');
    let b_bytes = before.unwrap_or_default();
    let a_bytes = after.unwrap_or_default();
    // A sealed (literal) diff of a pre-existing file never writes its old
    // lines; a created file has none to hide.
    let sealed = opts.literal && before.is_some();
    let binary = sealed || is_binary(b_bytes) || is_binary(a_bytes);
    let old_id = if before.is_some() {
        blob_id(b_bytes)
    } else {
        ZERO_ID.to_string()
    };
    let new_id = if after.is_some() {
        blob_id(a_bytes)
    } else {
        ZERO_ID.to_string()
    };
    let (oid, nid) = if binary {
        (old_id.as_str(), new_id.as_str())
    } else {
        (short(&old_id), short(&new_id))
    };
    match (before, after) {
        (None, _) => {
            head.extend_from_slice(format!("new file mode {new_mode:o}\n").as_bytes());
            if opts.index || binary {
                head.extend_from_slice(format!("index {oid}..{nid}\n").as_bytes());
            }
        }
        (_, None) => {
            head.extend_from_slice(format!("deleted file mode {old_mode:o}\n").as_bytes());
            if opts.index || binary {
                head.extend_from_slice(format!("index {oid}..{nid}\n").as_bytes());
            }
        }
        _ => {
            if old_mode != new_mode {
                head.extend_from_slice(
                    format!("old mode {old_mode:o}\nnew mode {new_mode:o}\n").as_bytes(),
                );
            }
            if (opts.index || binary) && b_bytes != a_bytes {
                if old_mode == new_mode {
                    head.extend_from_slice(format!("index {oid}..{nid} {old_mode:o}\n").as_bytes());
                } else {
                    head.extend_from_slice(format!("index {oid}..{nid}\n").as_bytes());
                }
            }
        }
    }
    out.extend_from_slice(&head);
    if b_bytes == a_bytes {
        // Mode change only, or an empty file created/deleted: header alone.
        return Ok(());
    }
    let minus = if before.is_some() {
        a_name.clone()
    } else {
        b"/dev/null".to_vec()
    };
    let plus = if after.is_some() {
        b_name.clone()
    } else {
        b"/dev/null".to_vec()
    };
    if binary {
        out.extend_from_slice(b"GIT binary patch\n");
        // The reverse block (the pre-image) is left out of a sealed diff.
        let blocks: &[&[u8]] = if sealed {
            &[a_bytes]
        } else {
            &[a_bytes, b_bytes]
        };
        for data in blocks {
            out.extend_from_slice(format!("literal {}\n", data.len()).as_bytes());
            encode_base85_lines(&deflate(data), out);
        }
        return Ok(());
    }
    for (prefix, name) in [(&b"--- "[..], &minus), (&b"+++ "[..], &plus)] {
        out.extend_from_slice(prefix);
        out.extend_from_slice(name);
        if name.contains(&b' ') {
            out.push(b'\t');
        }
        out.push(b'\n');
    }
    write_hunks(b_bytes, a_bytes, opts.context, out);
    Ok(())
}

/// Above this many lines (both sides together) the line diff is first cut
/// at anchors ([`line_changes`]); below it, one histogram diff of the whole
/// file, as always.
const ANCHOR_LINES: usize = 20_000;

/// The histogram diff of `old` and `new` (imara-diff, with its line
/// post-processing), as changed ranges `(old start, old end, new start, new
/// end)` shifted by `at`.
fn histogram(
    old: &[&[u8]],
    new: &[&[u8]],
    at: (usize, usize),
) -> Vec<(usize, usize, usize, usize)> {
    if old == new {
        return Vec::new();
    }
    let mut input: InternedInput<&[u8]> = InternedInput::default();
    input.update_before(old.iter().copied());
    input.update_after(new.iter().copied());
    let mut diff = Diff::compute(Algorithm::Histogram, &input);
    diff.postprocess_lines(&input);
    diff.hunks()
        .map(|h| {
            (
                at.0 + h.before.start as usize,
                at.0 + h.before.end as usize,
                at.1 + h.after.start as usize,
                at.1 + h.after.end as usize,
            )
        })
        .collect()
}

/// The changed line ranges of `old` → `new`. A large file is first cut at
/// anchors: lines that occur once on each side, the longest run of them in
/// the same order on both (patience diff's anchors, O(n log n)); each piece
/// between two anchors gets its own histogram diff. The histogram diff of a
/// whole file is quadratic when its edits are many and evenly spread (a
/// patch that edits every function: 4x the lines took 15x the time), as its
/// recursion peels one piece at a time.
fn line_changes(old: &[&[u8]], new: &[&[u8]]) -> Vec<(usize, usize, usize, usize)> {
    if old.len() + new.len() <= ANCHOR_LINES {
        return histogram(old, new, (0, 0));
    }
    // Occurrences on each side, and the position on the new side.
    let mut seen: std::collections::HashMap<&[u8], (u32, u32, usize)> =
        std::collections::HashMap::with_capacity(old.len());
    for l in old {
        let e = seen.entry(l).or_insert((0, 0, 0));
        e.0 = e.0.saturating_add(1);
    }
    for (j, l) in new.iter().enumerate() {
        if let Some(e) = seen.get_mut(l) {
            e.1 = e.1.saturating_add(1);
            e.2 = j;
        }
    }
    let pairs: Vec<(usize, usize)> = old
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let &(a, b, j) = seen.get(l)?;
            (a == 1 && b == 1).then_some((i, j))
        })
        .collect();
    // The longest increasing run of new positions (patience sorting).
    let mut tails: Vec<usize> = Vec::new();
    let mut back: Vec<Option<usize>> = vec![None; pairs.len()];
    for (k, &(_, j)) in pairs.iter().enumerate() {
        let at = tails.partition_point(|&t| pairs[t].1 < j);
        back[k] = at.checked_sub(1).map(|p| tails[p]);
        if at == tails.len() {
            tails.push(k);
        } else {
            tails[at] = k;
        }
    }
    let mut anchors = Vec::with_capacity(tails.len());
    let mut k = tails.last().copied();
    while let Some(x) = k {
        anchors.push(pairs[x]);
        k = back[x];
    }
    anchors.reverse();
    let mut out = Vec::new();
    let (mut a, mut b) = (0, 0);
    for (i, j) in anchors {
        out.extend(histogram(&old[a..i], &new[b..j], (a, b)));
        (a, b) = (i + 1, j + 1);
    }
    out.extend(histogram(&old[a..], &new[b..], (a, b)));
    out
}

fn write_hunks(before: &[u8], after: &[u8], context: usize, out: &mut Vec<u8>) {
    let old = split_keep(before);
    let new = split_keep(after);
    let changes = line_changes(&old, &new);
    let mut i = 0;
    while i < changes.len() {
        // Group changes separated by at most 2*context unchanged lines.
        let mut j = i;
        while j + 1 < changes.len() && changes[j + 1].0 - changes[j].1 <= 2 * context {
            j += 1;
        }
        let lead = context.min(changes[i].0);
        let (os, ns) = (changes[i].0 - lead, changes[i].2 - lead);
        let trail = context.min(old.len() - changes[j].1);
        let (oe, ne) = (changes[j].1 + trail, changes[j].3 + trail);
        let range = |start: usize, len: usize| -> String {
            let s = if len == 0 { start } else { start + 1 };
            if len == 1 {
                format!("{s}")
            } else {
                format!("{s},{len}")
            }
        };
        out.extend_from_slice(
            format!("@@ -{} +{} @@\n", range(os, oe - os), range(ns, ne - ns)).as_bytes(),
        );
        let emit = |out: &mut Vec<u8>, prefix: u8, line: &[u8]| {
            out.push(prefix);
            out.extend_from_slice(line);
            if !line.ends_with(b"\n") {
                out.extend_from_slice(b"\n\\ No newline at end of file\n");
            }
        };
        let mut o = os;
        for &(bs, be, as_, ae) in &changes[i..=j] {
            while o < bs {
                emit(out, b' ', old[o]);
                o += 1;
            }
            for line in &old[bs..be] {
                emit(out, b'-', line);
            }
            for line in &new[as_..ae] {
                emit(out, b'+', line);
            }
            o = be;
        }
        while o < oe {
            emit(out, b' ', old[o]);
            o += 1;
        }
        i = j + 1;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::apply::ApplyOptions;

    fn check(before: &str, after: &str) -> String {
        let p = diff_files(
            &[FileChange::new(
                b"f.txt",
                Some(before.as_bytes()),
                Some(after.as_bytes()),
            )],
            &DiffOptions::default(),
        )
        .expect("diff");
        let mut t = MemTree::new();
        t.insert(&b"f.txt"[..], before.as_bytes());
        t.apply(&p, &ApplyOptions::default()).expect("applies");
        assert_eq!(t.get(b"f.txt"), Some(after.as_bytes()));
        String::from_utf8(p.to_bytes()).expect("utf8")
    }

    #[test]
    fn hunk_headers_like_git() {
        let before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n16\n";
        let after = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n12\n13\n14\nfifteen\n16\n";
        let d = check(before, after);
        assert!(
            d.contains("@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"),
            "{d}"
        );
        assert!(
            d.contains("@@ -12,5 +12,5 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n"),
            "{d}"
        );
        assert!(d.starts_with("diff --git a/f.txt b/f.txt\nindex "), "{d}");
        // Close changes merge into one hunk.
        let d = check("a\nb\nc\nd\ne\nf\ng\nh\n", "A\nb\nc\nd\ne\nf\ng\nH\n");
        assert_eq!(d.matches("@@ -").count(), 1, "{d}");
        assert!(d.contains("@@ -1,8 +1,8 @@\n"), "{d}");
    }

    #[test]
    fn no_newline_and_single_lines() {
        let d = check("a", "b");
        assert!(
            d.ends_with(
                "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n"
            ),
            "{d}"
        );
        let d = check("a\nb", "a\nb\n");
        assert!(d.contains("-b\n\\ No newline at end of file\n+b\n"), "{d}");
        check("", "x\n");
        check("x\n", "");
        check("a\r\nb\r\n", "a\nb\r\n");
    }

    #[test]
    fn create_delete_mode_binary() {
        let p = diff_files(
            &[
                FileChange::new(b"new file.txt", None, Some(b"x\n")),
                FileChange::new(b"gone", Some(b"y\n"), None),
                FileChange::new(b"empty", None, Some(b"")),
                FileChange {
                    path: b"run.sh",
                    before: Some(b"#!\n"),
                    after: Some(b"#!\n"),
                    old_mode: Some(0o100644),
                    new_mode: Some(0o100755),
                },
                FileChange::new(b"bin", Some(b"\0\x01\x02"), Some(b"\0\x01\x03\x04")),
                FileChange::new(b"same", Some(b"s\n"), Some(b"s\n")),
            ],
            &DiffOptions::default(),
        )
        .expect("diff");
        assert_eq!(p.files.len(), 5);
        let text = String::from_utf8_lossy(&p.to_bytes()).into_owned();
        assert!(text.contains("+++ b/new file.txt\t\n"), "{text}");
        let mut t = MemTree::new();
        t.insert(&b"gone"[..], &b"y\n"[..]);
        t.insert(&b"run.sh"[..], &b"#!\n"[..]);
        t.insert(&b"bin"[..], &b"\0\x01\x02"[..]);
        t.apply(&p, &ApplyOptions::default()).expect("apply");
        assert_eq!(t.get(b"new file.txt"), Some(&b"x\n"[..]));
        assert_eq!(t.get(b"empty"), Some(&b""[..]));
        assert!(t.get(b"gone").is_none());
        assert_eq!(t.files.get(&b"run.sh"[..]).map(|f| f.mode), Some(0o100755));
        assert_eq!(t.get(b"bin"), Some(&b"\0\x01\x03\x04"[..]));
        t.apply(
            &p,
            &ApplyOptions {
                reverse: true,
                ..Default::default()
            },
        )
        .expect("reverse");
        assert_eq!(t.get(b"bin"), Some(&b"\0\x01\x02"[..]));
    }

    #[test]
    fn refuses_unsafe_paths() {
        let e = diff_files(
            &[FileChange::new(b"../x", None, Some(b"a"))],
            &DiffOptions::default(),
        );
        assert!(matches!(e, Err(CreateError::UnsafePath { .. })));
    }

    #[test]
    fn literal_diffs_hold_no_old_line_and_apply() {
        let before = b"def f():\n    return secret_original_body\n\ndef g():\n    pass\n";
        let after = b"def f():\n    raise NotImplementedError\n\ndef g():\n    pass\n";
        let sealed = DiffOptions {
            literal: true,
            ..DiffOptions::default()
        };
        let p = diff_files(
            &[
                FileChange::new(b"m.py", Some(before), Some(after)),
                FileChange::new(b"gone.py", Some(b"old_gone_line\n"), None),
                FileChange::new(b"new.py", None, Some(b"created\n")),
            ],
            &sealed,
        )
        .expect("diff");
        let text = p.to_bytes();
        // Not one old line, in any encoding the patch uses as text.
        for old in [&b"secret_original_body"[..], b"old_gone_line", b"def g"] {
            assert!(!text.windows(old.len()).any(|w| w == old), "{old:?}");
        }
        assert!(text.windows(8).any(|w| w == b"literal "));
        let mut t = MemTree::new();
        t.insert(&b"m.py"[..], &before[..]);
        t.insert(&b"gone.py"[..], &b"old_gone_line\n"[..]);
        t.apply(&p, &ApplyOptions::default()).expect("applies");
        assert_eq!(t.get(b"m.py"), Some(&after[..]));
        assert!(t.get(b"gone.py").is_none());
        assert_eq!(t.get(b"new.py"), Some(&b"created\n"[..]));
        // The pre-image is checked by its blob id: another base is refused.
        let mut other = MemTree::new();
        other.insert(&b"m.py"[..], &b"def f():\n    return 2\n"[..]);
        other.insert(&b"gone.py"[..], &b"old_gone_line\n"[..]);
        assert!(other.apply(&p, &ApplyOptions::default()).is_err());
        // Without the reverse block nothing can restore the pre-image.
        assert!(t
            .apply(
                &p,
                &ApplyOptions {
                    reverse: true,
                    ..Default::default()
                },
            )
            .is_err());
    }
}
