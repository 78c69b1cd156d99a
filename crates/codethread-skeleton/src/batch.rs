//! Skeletonizing files and directory trees.

use std::path::{Path, PathBuf};

use codethread_lang::io::{read_regular, IoError};
use codethread_lang::{parse_file, Lang, LangError};
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

/// Skeletonize one file's bytes, choosing the grammar from `path` and
/// [`Options::hint`] (`codethread_lang::parse_file`: for `.js`-family files
/// the JavaScript, TypeScript or TSX grammar with the fewest errors, as the
/// target rules do; with hint `Lang::Cpp` a `.h` or `.c` file is C++). A
/// file of at least [`Options::chunks`]`.min_file_bytes` is parsed, and
/// its skeleton re-parsed, in chunks of whole top-level units, one tree at
/// a time.
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
    let wrap = |e: SkeletonError| SkeletonError::File {
        path: path.to_path_buf(),
        source: Box::new(e),
    };
    let mut source = source.into();
    if options.chunks.applies(source.len()) {
        let lang = Lang::for_source(path, &source, options.hint).ok_or_else(|| {
            wrap(SkeletonError::Lang(LangError::Unsupported {
                path: path.to_path_buf(),
            }))
        })?;
        match crate::skeleton::skeletonize_chunked(lang, source, selectors, options) {
            Ok(Ok(sk)) => return Ok(sk),
            Ok(Err(whole)) => source = whole,
            Err(e) => return Err(wrap(e)),
        }
    }
    let file = parse_file(
        path,
        source,
        &codethread_lang::ParseOptions::default()
            .hint(options.hint)
            .budget(options.parse_budget),
    )
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

/// Skeletonize every supported source file under `root` in parallel (each
/// as [`skeletonize_path`] with [`Options::hint`]). One outcome per file, in
/// path order; a bad file never loses the others. Files are read with
/// [`codethread_lang::io::read_regular`] up to [`Options::max_file_bytes`]:
/// only regular files are read, a FIFO, device or oversized file is an
/// outcome with [`SkeletonError::Refused`] (naming it) and an empty
/// `source`, never a hang.
///
/// # Errors
/// [`SkeletonError::Io`] when `root` or a directory below it cannot be read.
pub fn skeletonize_dir(
    root: &Path,
    selectors: &[Selector],
    options: &Options,
) -> Result<Vec<FileOutcome>, SkeletonError> {
    let max_file_bytes = options.max_file_bytes;
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
                    let result = skeletonize_path(&rel_path, source.clone(), selectors, options);
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
