//! codethread-patch: parse, apply, create and localize unified / git diffs.

mod apply;
mod binary;
mod create;
pub mod error;
mod fs;
pub mod model;
mod parse;
pub mod quote;
mod safety;

pub use apply::{
    ApplyOptions, ApplyReport, FileReport, HunkReport, MemTree, TreeFile, MODE_EXEC, MODE_FILE, MODE_SYMLINK,
};
pub use binary::blob_id;
pub use create::{diff_files, diff_trees, is_binary, DiffOptions, FileChange};
pub use error::{ApplyError, CreateError, ParseError};
pub use fs::apply_to_dir;
pub use model::*;
pub use parse::parse;
pub use safety::check_path;
