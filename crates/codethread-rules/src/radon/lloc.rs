//! radon 6.0.1 `raw.analyze` logical lines for Python.

use crate::lloc::LogicalLines;

pub static PYTHON_RADON: LogicalLines = LogicalLines {
    atomic: &["string"],
    comments: &["comment"],
    continuations: &["line_continuation"],
    open: &["(", "[", "{"],
    close: &[")", "]", "}"],
    split: ";",
    colon: ":",
};
