//! Errors of the skeletonizer.

use std::path::PathBuf;

use codethread_lang::{Lang, LangError};

/// Everything that can go wrong while skeletonizing or splicing.
#[derive(Debug, thiserror::Error)]
pub enum SkeletonError {
    /// The file has ERROR/MISSING nodes and the policy is
    /// [`crate::ParseErrorPolicy::Refuse`].
    #[error("{lang} source does not parse cleanly: {errors} ERROR/MISSING node(s), first at line {line}, column {column}")]
    ParseErrors {
        /// The language it was parsed as.
        lang: Lang,
        /// Number of ERROR/MISSING nodes.
        errors: usize,
        /// 1-based line of the first one.
        line: usize,
        /// 1-based column (byte) of the first one.
        column: usize,
    },
    /// Parsing failed (grammar, unsupported file type).
    #[error(transparent)]
    Lang(#[from] LangError),
    /// The skeleton parses worse than the original: a stub broke the syntax.
    /// Never expected; reported instead of returning broken output.
    #[error("the skeleton has {after} ERROR/MISSING node(s) where the original has {before}; first at line {line}, column {column} of the skeleton")]
    Verification {
        /// Errors in the original.
        before: usize,
        /// Errors in the skeleton.
        after: usize,
        /// 1-based line of the first error in the skeleton.
        line: usize,
        /// 1-based column (byte) of the first error in the skeleton.
        column: usize,
    },
    /// An edit's range does not lie inside the text.
    #[error("edit {index} ({function}) covers bytes {start}..{end} but the text has {len} bytes")]
    EditOutOfBounds {
        /// Position of the edit in the list.
        index: usize,
        /// The edit's function.
        function: String,
        /// Start of the range.
        start: usize,
        /// End of the range.
        end: usize,
        /// Length of the text.
        len: usize,
    },
    /// Two edits overlap or are out of order.
    #[error("edit {index} ({function}) starts at byte {start}, before the previous edit ends ({previous_end})")]
    EditsOverlap {
        /// Position of the edit in the list.
        index: usize,
        /// The edit's function.
        function: String,
        /// Start of its range.
        start: usize,
        /// End of the previous edit.
        previous_end: usize,
    },
    /// While restoring, the skeleton does not hold an edit's replacement where
    /// expected (the skeleton was changed since).
    #[error("edit {index} ({function}): the skeleton does not hold the stub at byte {at}")]
    StubNotFound {
        /// Position of the edit in the list.
        index: usize,
        /// The edit's function.
        function: String,
        /// Byte offset in the skeleton.
        at: usize,
    },
    /// Reading a file or directory failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A file of a batch was refused before it was read: not a regular file
    /// (FIFO, device, directory) or larger than the limit.
    #[error(transparent)]
    Refused(#[from] codethread_lang::io::IoError),
    /// An error about one file of a batch.
    #[error("{}: {source}", path.display())]
    File {
        /// The file (as given, or relative to the batch root).
        path: PathBuf,
        /// What went wrong.
        source: Box<SkeletonError>,
    },
}
