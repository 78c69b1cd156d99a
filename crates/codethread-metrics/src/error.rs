//! Errors of the metrics engine, and the text check every input passes.

use std::path::{Path, PathBuf};

use codethread_lang::io::IoError;
use codethread_lang::LangError;

/// Errors of the metrics engine; each names the file it is about.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MetricsError {
    /// The file (or directory) could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file's extension is not a supported language.
    #[error("{}: unsupported file type (no metrics language for this extension)", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
    },
    /// The parser failed (grammar load or aborted parse; syntax errors are
    /// not errors, see [`FunctionMetrics::parse_errors`](crate::FunctionMetrics::parse_errors)).
    #[error("{}: cannot parse: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: LangError,
    },
    /// The file was refused before it was read: not a regular file (FIFO,
    /// device, directory) or larger than the limit (the error names the
    /// file and, for the limit, the flag that raises it).
    #[error(transparent)]
    Refused(#[from] IoError),
    /// The file starts with a UTF-16 byte order mark: refused, not
    /// transcoded (byte offsets and lines would no longer be the file's).
    #[error("{}: UTF-16 text (byte order mark {bom}) is not measured; convert it to UTF-8", path.display())]
    Utf16 {
        /// The file.
        path: PathBuf,
        /// The mark, `FF FE` or `FE FF`.
        bom: &'static str,
    },
    /// The file holds a NUL byte: binary content with a source extension.
    #[error("{}: binary content (NUL byte at offset {offset}) is not measured", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// Offset of the first NUL byte.
        offset: usize,
    },
}

impl MetricsError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &Path {
        match self {
            MetricsError::Read { path, .. }
            | MetricsError::Unsupported { path }
            | MetricsError::Parse { path, .. }
            | MetricsError::Utf16 { path, .. }
            | MetricsError::Binary { path, .. } => path,
            MetricsError::Refused(e) => e.path(),
        }
    }
}

/// Refuse bytes that are not source text: a UTF-16 byte order mark or a NUL
/// byte (see `docs/metrics.md`).
///
/// # Errors
/// [`MetricsError::Utf16`] or [`MetricsError::Binary`] naming `path`.
pub fn check_text(path: &Path, bytes: &[u8]) -> Result<(), MetricsError> {
    let bom = match bytes {
        [0xFF, 0xFE, ..] => Some("FF FE"),
        [0xFE, 0xFF, ..] => Some("FE FF"),
        _ => None,
    };
    if let Some(bom) = bom {
        return Err(MetricsError::Utf16 {
            path: path.to_path_buf(),
            bom,
        });
    }
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(MetricsError::Binary {
            path: path.to_path_buf(),
            offset,
        });
    }
    Ok(())
}
