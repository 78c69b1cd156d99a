//! lizard's functions as the engine's records.

use std::collections::HashMap;

use codethread_lang::{Function, Lang};

use crate::engine::{assign_occurrences, function_set, totals};
use crate::{FileMetrics, FunctionMetrics, Profile};

use super::LizardLang;

/// The note on every record of a lizard-read language.
pub(crate) const NOT_REPORTED: &str =
    "cognitive/halstead/lloc not reported: the paper used lizard CCN only for this language";

/// The metrics of one file read by lizard's token reader: lizard's functions,
/// names, spans (`line` = the line of the name) and CCN; cognitive, Halstead
/// and LLOC `None` with [`NOT_REPORTED`]. lizard builds no tree, so
/// `parse_errors` is 0. `qualname` is that of the `index` function (when a
/// tree was parsed anyway) whose header holds lizard's line and whose name is
/// lizard's last name part, else lizard's name with `::` written `.`.
pub(crate) fn file_metrics(
    path: &str,
    lang: Lang,
    source: &[u8],
    profile: Profile,
    table: &LizardLang,
    index: Option<&[Function]>,
) -> FileMetrics {
    // (name, header line) -> qualname.
    let mut by_line: HashMap<(&str, usize), &str> = HashMap::new();
    for g in index.unwrap_or(&[]) {
        for line in g.header.start_line..=g.header.end_line.max(g.header.start_line) {
            by_line
                .entry((g.name.as_str(), line))
                .or_insert(g.qualname.as_str());
        }
    }
    let qualname = |name: &str, line: usize| -> String {
        let bare = name.rsplit("::").next().unwrap_or(name);
        let bare = bare.rsplit('.').next().unwrap_or(bare);
        by_line
            .get(&(bare, line))
            .or_else(|| by_line.get(&(name, line)))
            .map_or_else(|| name.replace("::", "."), |q| (*q).to_string())
    };
    let mut records: Vec<FunctionMetrics> = super::read(table, source)
        .into_iter()
        .map(|f| FunctionMetrics {
            path: path.to_string(),
            language: lang,
            qualname: qualname(&f.name, f.start_line),
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
            notes: if f.shortened {
                vec![NOT_REPORTED.to_string(), super::SHORTENED.to_string()]
            } else {
                vec![NOT_REPORTED.to_string()]
            },
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
