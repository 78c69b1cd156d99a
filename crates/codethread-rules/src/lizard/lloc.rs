//! lizard 1.24.3 NLOC for Go.

use crate::lloc::CodeLines;

pub static GO_LIZARD: CodeLines = CodeLines {
    atomic: &[
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ],
    comments: &["comment"],
    nested: &["func_literal"],
    truncate_at: Some(("result", "struct_type")),
};
