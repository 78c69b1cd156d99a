//! lizard 1.24.3's readings as records: the token reader of
//! [`codethread_lizard`] (the function list, names, spans and CCN that
//! lizard reports for C++, Ruby and PHP) turned into this crate's records
//! (`records.rs`), and (`go.rs`) lizard's Go CCN, counted over the tree's
//! tokens.

pub(crate) mod go;
mod records;

pub(crate) use codethread_lizard::*;
pub(crate) use records::{file_metrics, named, number, Named};
