//! lizard's functions as the engine's records.

use codethread_lang::Lang;

use crate::engine::{assign_occurrences, function_set, totals};
use crate::{FileMetrics, FunctionMetrics, Profile};

use super::LizardLang;

/// The note on every record of a lizard-read language.
pub(crate) const NOT_REPORTED: &str =
    "cognitive/halstead/lloc not reported: the paper used lizard CCN only for this language";

/// The metrics of one file read by lizard's token reader: lizard's functions,
/// names, spans (`line` = the line of the name) and CCN; cognitive, Halstead
/// and LLOC `None` with [`NOT_REPORTED`]. No tree is built, so
/// `parse_errors` is 0.
pub(crate) fn file_metrics(
    path: &str,
    lang: Lang,
    source: &[u8],
    profile: Profile,
    table: &LizardLang,
) -> FileMetrics {
    let mut records: Vec<FunctionMetrics> = super::read(table, source)
        .into_iter()
        .map(|f| FunctionMetrics {
            path: path.to_string(),
            language: lang,
            qualname: f.name.replace("::", "."),
            name: f.name,
            kind: "function".to_string(),
            line: f.start_line,
            end_line: f.end_line.max(f.start_line),
            cyclomatic: Some(u32::try_from(f.ccn.max(0)).unwrap_or(u32::MAX)),
            cognitive: None,
            halstead: None,
            lloc: None,
            parse_errors: 0,
            parent: None,
            occurrence: 0,
            notes: vec![NOT_REPORTED.to_string()],
        })
        .collect();
    // lizard appends a function when it ends; records go in source order
    // (stable: same-line functions keep lizard's order).
    records.sort_by_key(|r| r.line);
    assign_occurrences(&mut records);
    let totals = totals(function_set(profile, lang), &records);
    FileMetrics {
        path: path.to_string(),
        language: lang,
        profile,
        parse_errors: 0,
        first_error: None,
        functions: records,
        totals,
    }
}
