//! codethread-patch: parse, apply, create and localize unified / git diffs.

mod apply;
mod binary;
mod create;
pub mod error;
mod fs;
mod jaccard;
mod localize;
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
pub use jaccard::{file_set, function_set, jaccard, jaccard_of, jaccard_opt, similarity, PatchSimilarity};
pub use localize::{
    is_source_path, localize, EditedFunction, FileEdit, FunctionStatus, Localization, LocalizeError, NegativeCase,
};
