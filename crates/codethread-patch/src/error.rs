//! Typed errors. Every variant names the patch line, file and hunk it is about.

use thiserror::Error;

/// Why a patch could not be parsed. Line numbers are 1-based lines of the
/// patch input.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ParseError {
    /// The input holds no file diff at all (empty, or only prose).
    #[error("no file diff found in the input ({bytes} bytes)")]
    NoFiles {
        /// Input length.
        bytes: usize,
    },
    /// A `@@` line that is not `@@ -a[,b] +c[,d] @@`.
    #[error("line {line}: malformed hunk header `{text}`")]
    BadHunkHeader {
        /// Patch line.
        line: usize,
        /// The line (lossy UTF-8).
        text: String,
    },
    /// The hunk ended before its header's line counts were reached.
    #[error("line {line}: hunk starting at line {hunk_line} ends early: {missing_old} pre-image and {missing_new} post-image lines missing")]
    TruncatedHunk {
        /// Patch line where the hunk body stopped.
        line: usize,
        /// Patch line of the hunk header.
        hunk_line: usize,
        /// Pre-image lines still expected.
        missing_old: usize,
        /// Post-image lines still expected.
        missing_new: usize,
    },
    /// More `-`/context or `+`/context lines than the hunk header declares.
    #[error("line {line}: hunk starting at line {hunk_line} has more {which} lines than its header declares")]
    HunkOverflow {
        /// Patch line of the extra line.
        line: usize,
        /// Patch line of the hunk header.
        hunk_line: usize,
        /// `pre-image` or `post-image`.
        which: &'static str,
    },
    /// A hunk with no lines at all (`@@ -0,0 +0,0 @@`).
    #[error("line {line}: empty hunk")]
    EmptyHunk {
        /// Patch line of the hunk header.
        line: usize,
    },
    /// `\ No newline at end of file` where no hunk line precedes it.
    #[error("line {line}: `\\ No newline at end of file` without a preceding hunk line")]
    OrphanNoNewline {
        /// Patch line.
        line: usize,
    },
    /// `--- x` without the `+++ y` line after it.
    #[error("line {line}: `---` line not followed by a `+++` line")]
    MissingNewFileLine {
        /// Patch line of the `---` line.
        line: usize,
    },
    /// A hunk inside a `diff --git` block that has no `---`/`+++` lines.
    #[error("line {line}: hunk without `---`/`+++` file header")]
    HunkWithoutFileHeader {
        /// Patch line of the hunk header.
        line: usize,
    },
    /// The file name could not be determined.
    #[error("line {line}: cannot determine the file name: {reason}")]
    MissingFileName {
        /// Patch line of the file header.
        line: usize,
        /// Why.
        reason: &'static str,
    },
    /// A C-style quoted path that is malformed.
    #[error("line {line}: malformed quoted path")]
    BadQuotedPath {
        /// Patch line.
        line: usize,
    },
    /// A mode that is not octal, or a percentage that is not a number.
    #[error("line {line}: malformed {what}")]
    BadNumber {
        /// Patch line.
        line: usize,
        /// What was malformed (`mode`, `similarity index`, ...).
        what: &'static str,
    },
    /// Malformed `GIT binary patch` data.
    #[error("line {line}: malformed binary patch: {reason}")]
    BadBinary {
        /// Patch line.
        line: usize,
        /// Why.
        reason: &'static str,
    },
}

/// Why a patch could not be applied. Nothing was changed when this is returned.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ApplyError {
    /// A path that is absolute, contains `..`/`.`/empty components, points into
    /// `.git`, or contains a NUL byte.
    #[error("{path}: refused unsafe path ({reason})")]
    UnsafePath {
        /// The path (lossy).
        path: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// The path or one of its parent directories is a symbolic link.
    #[error("{path}: refused to write through symbolic link `{link}`")]
    Symlink {
        /// The path (lossy).
        path: String,
        /// The symlink component (lossy).
        link: String,
    },
    /// The file to modify/delete/rename does not exist.
    #[error("{path}: does not exist (file diff {file})")]
    Missing {
        /// The path (lossy).
        path: String,
        /// 1-based index of the file diff in the patch.
        file: usize,
    },
    /// The file to create (or rename/copy to) already exists.
    #[error("{path}: already exists (file diff {file})")]
    AlreadyExists {
        /// The path (lossy).
        path: String,
        /// 1-based index of the file diff in the patch.
        file: usize,
    },
    /// A hunk's pre-image was not found.
    #[error("{path}: hunk {hunk} (patch line {patch_line}) does not apply; expected at line {expected_line}{detail}")]
    HunkFailed {
        /// The path (lossy).
        path: String,
        /// 1-based hunk index within the file diff.
        hunk: usize,
        /// Patch line of the hunk header.
        patch_line: usize,
        /// Line of the file where the hunk should have applied.
        expected_line: usize,
        /// First mismatching line, when the hunk was tried at its expected position.
        detail: String,
    },
    /// A deletion patch left content in the file.
    #[error("{path}: deletion patch leaves {bytes} bytes in the file")]
    DeleteLeavesContent {
        /// The path (lossy).
        path: String,
        /// Remaining bytes.
        bytes: usize,
    },
    /// `Binary files … differ` carries no data to apply.
    #[error("{path}: binary diff without data cannot be applied")]
    BinaryWithoutData {
        /// The path (lossy).
        path: String,
    },
    /// `GIT binary patch` data that cannot be inflated or does not fit the file.
    #[error("{path}: binary patch failed: {reason}")]
    BinaryFailed {
        /// The path (lossy).
        path: String,
        /// Why.
        reason: String,
    },
    /// The directory the pre-images are read from (or written to) is missing
    /// or not a directory: no file of the patch was looked at.
    #[error("{root}: {message}")]
    Root {
        /// The directory given.
        root: String,
        /// What is wrong with it.
        message: String,
    },
    /// An I/O error in directory mode.
    #[error("{path}: I/O error: {message}")]
    Io {
        /// The path (lossy).
        path: String,
        /// The error text.
        message: String,
    },
}

/// Why a diff could not be created.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CreateError {
    /// Neither a before nor an after image was given.
    #[error("{path}: neither before nor after content given")]
    NothingToDiff {
        /// The path (lossy).
        path: String,
    },
    /// The path is unsafe (see [`ApplyError::UnsafePath`]).
    #[error("{path}: refused unsafe path ({reason})")]
    UnsafePath {
        /// The path (lossy).
        path: String,
        /// Why.
        reason: &'static str,
    },
    /// The produced text did not parse back (an internal bug; reported, not panicked).
    #[error("internal: created diff does not parse: {0}")]
    Internal(#[from] ParseError),
}
