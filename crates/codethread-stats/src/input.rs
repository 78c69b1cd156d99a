//! The one file reader of the analysis crates: every input goes through
//! [`codethread_io::read_regular`] under the caller's [`SourceLimits`]
//! (a FIFO, device or directory is refused, never read; a larger file is an
//! error naming it and the limit).

use std::path::Path;

use codethread_io::SourceLimits;

use crate::error::Result;

/// The bytes of `path`: a regular file of at most `limits.max_file_bytes`;
/// an error names the path.
pub fn read(path: &Path, limits: SourceLimits) -> Result<Vec<u8>> {
    Ok(codethread_io::read_regular(path, limits.max_file_bytes)?)
}
