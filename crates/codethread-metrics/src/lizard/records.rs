//! lizard's functions as the engine's records.

use std::collections::HashMap;

use codethread_lang::{Function, Lang};

use crate::model::Nesting;
use crate::model::{assign_occurrences, totals, FileMetrics, FunctionMetrics};
use crate::profile::Profile;
use crate::targets::{is_target, NO_ID_UNINDEXED};

use super::LizardLang;

/// The note on every record of a lizard-read language.
pub(crate) const NOT_REPORTED: &str =
    "cognitive/halstead/lloc not reported: the paper used lizard CCN only for this language";

/// The metrics of one file read by lizard's token reader: lizard's functions,
/// names, spans (`line` = the line of the name) and CCN; cognitive, Halstead
/// and LLOC `None` with [`NOT_REPORTED`]. lizard builds no tree, so
/// `parse_errors` is 0. `qualname` and `target_id` are those of the `index`
/// function (the file's codethread-lang index, as `chain targets` builds it)
/// whose header holds lizard's line and whose name is lizard's last name
/// part, each index function taken once; without one, lizard's name with
/// `::` written `.`, no target id and a note.
pub(crate) fn file_metrics(
    path: &str,
    lang: Lang,
    source: &[u8],
    profile: Profile,
    table: &LizardLang,
    index: Option<&[Function]>,
) -> FileMetrics {
    // (name, header line) -> index functions, in source order.
    let mut by_line: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
    let index = index.unwrap_or(&[]);
    for (i, g) in index.iter().enumerate() {
        if !is_target(g) {
            continue;
        }
        for line in g.header.start_line..=g.header.end_line.max(g.header.start_line) {
            by_line.entry((g.name.as_str(), line)).or_default().push(i);
        }
    }
    let mut used = vec![false; index.len()];
    // The index function of a lizard function (each taken once): its header
    // holds lizard's line and its name is lizard's last name part.
    let mut find = |name: &str, line: usize| -> Option<usize> {
        let bare = name.rsplit("::").next().unwrap_or(name);
        let bare = bare.rsplit('.').next().unwrap_or(bare);
        let hit = [bare, name]
            .iter()
            .filter_map(|n| by_line.get(&(*n, line)))
            .flat_map(|v| v.iter().copied())
            .find(|&i| !used[i]);
        if let Some(i) = hit {
            used[i] = true;
        }
        hit
    };
    let mut records: Vec<FunctionMetrics> = super::read(table, source)
        .into_iter()
        .map(|f| {
            let hit = find(&f.name, f.start_line).and_then(|i| index.get(i));
            let mut notes = vec![NOT_REPORTED.to_string()];
            if hit.is_none() {
                notes.push(NO_ID_UNINDEXED.to_string());
            }
            if f.shortened {
                notes.push(super::SHORTENED.to_string());
            }
            FunctionMetrics {
                path: path.to_string(),
                language: lang,
                qualname: hit.map_or_else(|| f.name.replace("::", "."), |g| g.qualname.clone()),
                target_id: hit.map(|g| g.target_id(path)),
                nested_in: None,
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
                notes,
            }
        })
        .collect();
    // lizard appends a function when it ends; records go in source order
    // (stable: same-line functions keep lizard's order).
    records.sort_by_key(|r| r.line);
    assign_occurrences(&mut records);
    // lizard counts a nested def only in its own record; only CCN is
    // reported.
    let nesting = Nesting {
        cyclomatic: false,
        cognitive: false,
        halstead: false,
        lloc: false,
    };
    let totals = totals(nesting, false, &records);
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
