//! Skeletonizing files and directory trees.

use std::path::{Path, PathBuf};

use codethread_lang::io::{read_regular, IoError, DEFAULT_MAX_FILE_BYTES};
use codethread_lang::{parse_path_hinted_budget, Lang};
use rayon::prelude::*;

use crate::{skeletonize, Options, Selector, Skeleton, SkeletonError};

/// The outcome for one file of [`skeletonize_dir`].
#[derive(Debug)]
pub struct FileOutcome {
    /// Path relative to the root given to [`skeletonize_dir`] (the file name
    /// itself when the root is a file).
    pub rel_path: PathBuf,
    /// The file's bytes as read.
    pub source: Vec<u8>,
    /// The skeleton, or why there is none (errors name the file).
    pub result: Result<Skeleton, SkeletonError>,
}

/// Skeletonize one file's bytes, choosing the grammar from `path` (for
/// `.js`-family files the JavaScript, TypeScript or TSX grammar with the
/// fewest errors, as the target rules do).
///
/// # Errors
/// [`SkeletonError::File`] naming `path`, wrapping the parse or skeleton
/// error.
pub fn skeletonize_path(
    path: &Path,
    source: impl Into<Vec<u8>>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    skeletonize_path_hinted(path, source, None, selectors, options)
}

/// [`skeletonize_path`] with a repository-level language `hint` (an
/// instance's `language`, a `--lang-hint` option): with `Lang::Cpp` a `.h`
/// or `.c` file is C++ (`codethread_lang::Lang::for_source`).
///
/// # Errors
/// As [`skeletonize_path`].
pub fn skeletonize_path_hinted(
    path: &Path,
    source: impl Into<Vec<u8>>,
    hint: Option<Lang>,
    selectors: &[Selector],
    options: &Options,
) -> Result<Skeleton, SkeletonError> {
    let wrap = |e: SkeletonError| SkeletonError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    };
    let file = parse_path_hinted_budget(path, source, hint, &options.parse_budget)
        .map_err(|e| wrap(e.into()))?;
    skeletonize(&file, selectors, options).map_err(wrap)
}

/// Every supported source file under `root` (a file or a directory, walked
/// by [`codethread_lang::source_files`]), sorted; the first path that could
/// not be read is the error.
fn source_files(root: &Path) -> Result<Vec<PathBuf>, SkeletonError> {
    let (files, errors) = codethread_lang::source_files(root);
    match errors.into_iter().next() {
        Some(e) => Err(SkeletonError::Io {
            path: e.path,
            source: e.source,
        }),
        None => Ok(files),
    }
}

/// Skeletonize every supported source file under `root` in parallel. One
/// outcome per file, in path order; a bad file never loses the others.
/// Files are read with [`codethread_lang::io::read_regular`] and
/// [`DEFAULT_MAX_FILE_BYTES`]; see [`skeletonize_dir_limited`].
///
/// # Errors
/// [`SkeletonError::Io`] when `root` or a directory below it cannot be read.
pub fn skeletonize_dir(
    root: &Path,
    selectors: &[Selector],
    options: &Options,
) -> Result<Vec<FileOutcome>, SkeletonError> {
    skeletonize_dir_limited(root, selectors, options, DEFAULT_MAX_FILE_BYTES)
}

/// [`skeletonize_dir`] reading files of at most `max_file_bytes`. Only
/// regular files are read: a FIFO, device or oversized file is an outcome
/// with [`SkeletonError::Refused`] (naming it) and an empty `source`, never
/// a hang.
///
/// # Errors
/// [`SkeletonError::Io`] when `root` or a directory below it cannot be read.
pub fn skeletonize_dir_limited(
    root: &Path,
    selectors: &[Selector],
    options: &Options,
    max_file_bytes: u64,
) -> Result<Vec<FileOutcome>, SkeletonError> {
    skeletonize_dir_hinted(root, selectors, options, max_file_bytes, None)
}

/// [`skeletonize_dir_limited`] with a repository-level language `hint` (see
/// [`skeletonize_path_hinted`]).
///
/// # Errors
/// As [`skeletonize_dir_limited`].
pub fn skeletonize_dir_hinted(
    root: &Path,
    selectors: &[Selector],
    options: &Options,
    max_file_bytes: u64,
    hint: Option<Lang>,
) -> Result<Vec<FileOutcome>, SkeletonError> {
    let files = source_files(root)?;
    let is_file = !root.is_dir();
    Ok(files
        .par_iter()
        .map(|path| {
            let rel_path = if is_file {
                path.file_name()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| path.clone())
            } else {
                path.strip_prefix(root).unwrap_or(path).to_path_buf()
            };
            match read_regular(path, max_file_bytes) {
                Ok(source) => {
                    let result = skeletonize_path_hinted(
                        &rel_path,
                        source.clone(),
                        hint,
                        selectors,
                        options,
                    );
                    FileOutcome {
                        rel_path,
                        source,
                        result,
                    }
                }
                Err(e) => FileOutcome {
                    result: Err(match e {
                        IoError::Io { path, source } => SkeletonError::Io { path, source },
                        refused => SkeletonError::Refused(refused),
                    }),
                    rel_path,
                    source: Vec::new(),
                },
            }
        })
        .collect())
}
