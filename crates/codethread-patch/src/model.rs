//! The typed patch model. Every element keeps the raw bytes it was parsed
//! from, so [`Patch::to_bytes`] reproduces the input byte for byte.

use std::borrow::Cow;

/// A parsed patch: zero or more file diffs plus the bytes around them that
/// belong to no file (commit messages, `Index:` lines, signatures).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Patch {
    /// The file diffs, in input order.
    pub files: Vec<FilePatch>,
    /// Bytes after the last file diff that belong to no file, verbatim.
    pub trailer: Vec<u8>,
}

impl Patch {
    /// Writes the patch back; for a parsed patch this is exactly the input.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to(&mut out);
        out
    }

    /// Appends the serialized patch to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        for f in &self.files {
            f.write_to(out);
        }
        out.extend_from_slice(&self.trailer);
    }

    /// Paths touched by the patch (old and new path of every file diff,
    /// `-p1`-stripped), deduplicated and sorted.
    pub fn touched_paths(&self) -> Vec<Vec<u8>> {
        let mut v: Vec<Vec<u8>> = self
            .files
            .iter()
            .flat_map(|f| [f.old_path.clone(), f.new_path.clone()])
            .flatten()
            .collect();
        v.sort();
        v.dedup();
        v
    }
}

/// What a file diff does to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileOp {
    /// Content and/or mode change of an existing file.
    Modify,
    /// A new file (`new file mode`, or `--- /dev/null`).
    Create,
    /// A deleted file (`deleted file mode`, or `+++ /dev/null`).
    Delete,
    /// `rename from` / `rename to`.
    Rename,
    /// `copy from` / `copy to`.
    Copy,
}

/// The kind of one header line of a file diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeaderKind {
    /// `diff --git a/x b/y`.
    DiffGit,
    /// `old mode 100644`.
    OldMode,
    /// `new mode 100755`.
    NewMode,
    /// `deleted file mode 100644`.
    DeletedFileMode,
    /// `new file mode 100644`.
    NewFileMode,
    /// `copy from x`.
    CopyFrom,
    /// `copy to y`.
    CopyTo,
    /// `rename from x` (also the old spelling `rename old x`).
    RenameFrom,
    /// `rename to y` (also the old spelling `rename new y`).
    RenameTo,
    /// `similarity index 90%`.
    Similarity,
    /// `dissimilarity index 10%`.
    Dissimilarity,
    /// `index abc123..def456 100644`.
    Index,
    /// `--- a/x` (or `--- /dev/null`).
    OldFile,
    /// `+++ b/x` (or `+++ /dev/null`).
    NewFile,
    /// `Binary files a/x and b/x differ` (no data).
    BinaryFiles,
    /// `GIT binary patch` and all its data lines (one element, several lines).
    GitBinary,
}

/// One header line (or, for [`HeaderKind::GitBinary`], one block of lines).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderLine {
    /// What the line is.
    pub kind: HeaderKind,
    /// The raw bytes, including the line terminator(s).
    pub raw: Vec<u8>,
}

/// The `index <old>..<new> [mode]` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexLine {
    /// Abbreviated or full blob id of the pre-image.
    pub old: Vec<u8>,
    /// Abbreviated or full blob id of the post-image.
    pub new: Vec<u8>,
    /// File mode when unchanged.
    pub mode: Option<u32>,
}

/// Binary content of a file diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binary {
    /// `Binary files … differ`: git recorded that the file changed but gave no data.
    Marker,
    /// `GIT binary patch`: forward and (optional) reverse data.
    Git {
        /// Pre-image → post-image.
        forward: BinaryHunk,
        /// Post-image → pre-image (git always writes it; may be absent in hand-made patches).
        reverse: Option<BinaryHunk>,
    },
}

/// How a binary hunk encodes its data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryMethod {
    /// The whole post-image, deflated.
    Literal,
    /// A git delta against the pre-image, deflated.
    Delta,
}

/// One `literal N` / `delta N` block of a `GIT binary patch`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryHunk {
    /// Literal or delta.
    pub method: BinaryMethod,
    /// The inflated size announced by the block header.
    pub size: u64,
    /// Decoded (base85, still deflated) bytes.
    pub deflated: Vec<u8>,
}

/// One file's diff.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FilePatch {
    /// Bytes before this file's header that belong to no file, verbatim.
    pub preamble: Vec<u8>,
    /// The header lines, raw, in input order.
    pub header: Vec<HeaderLine>,
    /// Whether the file diff starts with `diff --git`.
    pub is_git: bool,
    /// Path before (`-p1`-stripped, unquoted); `None` for a created file.
    pub old_path: Option<Vec<u8>>,
    /// Path after (`-p1`-stripped, unquoted); `None` for a deleted file.
    pub new_path: Option<Vec<u8>>,
    /// `old mode` or `deleted file mode` or the `index` line's mode.
    pub old_mode: Option<u32>,
    /// `new mode` or `new file mode` or the `index` line's mode.
    pub new_mode: Option<u32>,
    /// Rename / copy similarity in percent.
    pub similarity: Option<u32>,
    /// Dissimilarity in percent (complete rewrites).
    pub dissimilarity: Option<u32>,
    /// Whether `rename from/to` lines are present.
    pub is_rename: bool,
    /// Whether `copy from/to` lines are present.
    pub is_copy: bool,
    /// The `index` line.
    pub index: Option<IndexLine>,
    /// Binary content, if any.
    pub binary: Option<Binary>,
    /// The text hunks.
    pub hunks: Vec<Hunk>,
}

impl FilePatch {
    /// Whether the diff moves a submodule pointer (a gitlink: mode
    /// `160000`, hunks of `Subproject commit <sha>`), which names a commit
    /// of another repository, not a file.
    pub fn is_gitlink(&self) -> bool {
        self.old_mode == Some(0o160000) || self.new_mode == Some(0o160000)
    }

    /// What the diff does to the file.
    pub fn op(&self) -> FileOp {
        match (&self.old_path, &self.new_path) {
            (None, _) => FileOp::Create,
            (_, None) => FileOp::Delete,
            _ if self.is_rename => FileOp::Rename,
            _ if self.is_copy => FileOp::Copy,
            _ => FileOp::Modify,
        }
    }

    /// The path the diff is about: the new path, or the old one for a deletion.
    pub fn path(&self) -> &[u8] {
        self.new_path
            .as_deref()
            .or(self.old_path.as_deref())
            .unwrap_or_default()
    }

    /// The path as (lossy) UTF-8, for messages and JSON.
    pub fn path_lossy(&self) -> String {
        String::from_utf8_lossy(self.path()).into_owned()
    }

    /// Appends the serialized file diff to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.preamble);
        for h in &self.header {
            out.extend_from_slice(&h.raw);
        }
        for h in &self.hunks {
            h.write_to(out);
        }
    }

    /// Number of `+` lines and `-` lines over all hunks.
    pub fn line_counts(&self) -> (usize, usize) {
        let mut add = 0;
        let mut del = 0;
        for h in &self.hunks {
            for l in &h.lines {
                match l.kind {
                    LineKind::Add => add += 1,
                    LineKind::Remove => del += 1,
                    LineKind::Context => {}
                }
            }
        }
        (add, del)
    }
}

/// The kind of a hunk line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineKind {
    /// ` ` (or an empty line, which git accepts as empty context).
    Context,
    /// `-`.
    Remove,
    /// `+`.
    Add,
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HunkLine {
    /// Context, removal or addition.
    pub kind: LineKind,
    /// The raw line as in the patch, prefix and line terminator included.
    pub raw: Vec<u8>,
    /// The raw `\ No newline at end of file` line following it, if any.
    pub no_newline: Option<Vec<u8>>,
}

impl HunkLine {
    /// The file line this patch line stands for: without the prefix, with its
    /// line terminator unless followed by a no-newline marker.
    pub fn content(&self) -> &[u8] {
        if self.raw.first() == Some(&b'\n') {
            return &self.raw; // empty context line written without its space
        }
        let body = self.raw.get(1..).unwrap_or_default();
        if self.no_newline.is_some() {
            body.strip_suffix(b"\n").unwrap_or(body)
        } else {
            body
        }
    }
}

/// One `@@ -a,b +c,d @@` hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    /// Start line in the pre-image (1-based; 0 for an empty pre-image).
    pub old_start: usize,
    /// Number of pre-image lines (context + removed).
    pub old_len: usize,
    /// Start line in the post-image.
    pub new_start: usize,
    /// Number of post-image lines (context + added).
    pub new_len: usize,
    /// The raw `@@ … @@ section` line, terminator included.
    pub header_raw: Vec<u8>,
    /// 1-based line number of the hunk header in the parsed input (0 when unknown).
    pub patch_line: usize,
    /// The lines.
    pub lines: Vec<HunkLine>,
}

impl Hunk {
    /// The text after the closing `@@` (git's function context), without the terminator.
    pub fn section(&self) -> Cow<'_, [u8]> {
        let h = &self.header_raw;
        let body = h.get(2..).unwrap_or_default();
        match body.windows(2).position(|w| w == b"@@") {
            Some(p) => {
                let rest = &body[p + 2..];
                let rest = rest.strip_suffix(b"\n").unwrap_or(rest);
                let rest = rest.strip_prefix(b" ").unwrap_or(rest);
                Cow::Borrowed(rest)
            }
            None => Cow::Borrowed(&[]),
        }
    }

    /// Appends the serialized hunk to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.header_raw);
        for l in &self.lines {
            out.extend_from_slice(&l.raw);
            if let Some(m) = &l.no_newline {
                out.extend_from_slice(m);
            }
        }
    }

    /// Number of leading context lines (before the first change).
    pub fn leading_context(&self) -> usize {
        self.lines
            .iter()
            .take_while(|l| l.kind == LineKind::Context)
            .count()
    }

    /// Number of trailing context lines (after the last change).
    pub fn trailing_context(&self) -> usize {
        self.lines
            .iter()
            .rev()
            .take_while(|l| l.kind == LineKind::Context)
            .count()
    }

    /// 1-based pre-image line numbers of the `-` lines, taking the hunk
    /// header at face value.
    pub fn removed_lines(&self) -> Vec<usize> {
        self.numbered(LineKind::Remove)
    }

    /// 1-based post-image line numbers of the `+` lines, taking the hunk
    /// header at face value.
    pub fn added_lines(&self) -> Vec<usize> {
        self.numbered(LineKind::Add)
    }

    fn numbered(&self, want: LineKind) -> Vec<usize> {
        let mut old = self.old_start.max(1);
        let mut new = self.new_start.max(1);
        let mut out = Vec::new();
        for l in &self.lines {
            match l.kind {
                LineKind::Context => {
                    old += 1;
                    new += 1;
                }
                LineKind::Remove => {
                    if want == LineKind::Remove {
                        out.push(old);
                    }
                    old += 1;
                }
                LineKind::Add => {
                    if want == LineKind::Add {
                        out.push(new);
                    }
                    new += 1;
                }
            }
        }
        out
    }
}
