//! The functions the Go tools (lizard, gocognit, go-halstead) report, and
//! how they are named and classified.

use crate::functions::{FunctionSet, GoNaming, Kinds, Naming, Nesting};
use crate::RecordKind;

pub static GO: FunctionSet = FunctionSet {
    node_kinds: &["function_declaration", "method_declaration", "func_literal"],
    naming: Naming::GoTools(&GoNaming {
        literal: "func_literal",
        var_parent: "expression_list",
        var_spec: "var_spec",
        receiver_field: "receiver",
        receiver_param: "parameter_declaration",
        type_field: "type",
        pointer: "pointer_type",
        generic: "generic_type",
        type_name: "type_identifier",
    }),
    kinds: Kinds::ByNode(&[
        ("func_literal", RecordKind::FuncLiteral),
        ("method_declaration", RecordKind::Method),
    ]),
    // lizard reports literals separately; gocognit and go-halstead fold them.
    nesting: Nesting {
        cyclomatic: false,
        cognitive: true,
        halstead: true,
        lloc: false,
    },
    require_body: true,
    bodiless: false,
    grammar: None,
};
