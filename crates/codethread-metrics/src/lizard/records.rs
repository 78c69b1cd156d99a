//! lizard's functions as the engine's records.

use codethread_lang::{Function, Lang};

use crate::model::{assign_occurrences, totals, FileMetrics, FunctionMetrics};
use crate::profile::Profile;
use crate::targets::{is_target, NO_ID_UNINDEXED};
use codethread_rules::functions::Nesting;

use super::LizardLang;

/// The note on every record of a lizard-read language.
pub(crate) const NOT_REPORTED: &str =
    "cognitive/halstead/lloc not reported: the paper used lizard CCN only for this language";

/// What naming lizard's records reads of an index function (a fraction of
/// a [`Function`]: a large file's whole index is held while lizard reads
/// it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// The function's own name.
    pub name: String,
    /// Its qualname.
    pub qualname: String,
    /// First and last line of its header.
    pub header: (usize, usize),
    /// A target under the target rules (named, with a body).
    pub target: bool,
    /// Its occurrence among the file's functions of its qualname, and how
    /// many there are.
    pub occurrence: usize,
    pub dup_count: usize,
}

impl Named {
    /// As [`Function::target_id`].
    fn target_id(&self, path: &str) -> String {
        codethread_lang::target_id_for(path, &self.qualname, self.occurrence, self.dup_count)
    }

    /// The naming part of `f`, its occurrence numbers as the index has them.
    pub(crate) fn of(f: Function) -> Named {
        Named {
            target: is_target(&f),
            header: (f.header.start_line, f.header.end_line),
            occurrence: f.occurrence,
            dup_count: f.dup_count,
            name: f.name,
            qualname: f.qualname,
        }
    }
}

/// The naming parts of a whole file's index (see [`Named::of`]).
pub(crate) fn named(index: Vec<Function>) -> Vec<Named> {
    index.into_iter().map(Named::of).collect()
}

/// Occurrences and counts by qualname over the whole file, in file order
/// (as `codethread_lang::join_indexes` counts them): for indexes taken
/// chunk by chunk.
pub(crate) fn number(named: &mut [Named]) {
    let numbers = codethread_lang::occurrences(named.len(), |i| named[i].qualname.as_str());
    for (g, (occurrence, dup_count)) in named.iter_mut().zip(numbers) {
        g.occurrence = occurrence;
        g.dup_count = dup_count;
    }
}

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
    index: Option<&[Named]>,
) -> FileMetrics {
    // (name, header line, index function) of every header line of a
    // target, sorted: the functions of one (name, line) in source order.
    let index = index.unwrap_or(&[]);
    // Names compared as the tools spell them apart: without whitespace
    // (lizard's `operator ==` is the index's `operator==`) and without a
    // leading `&` (PHP's by-reference `function &name()`).
    let spelled = |n: &str| -> String {
        n.trim_start_matches('&')
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    };
    let names: Vec<String> = index.iter().map(|g| spelled(&g.name)).collect();
    let mut by_line: Vec<(&str, usize, usize)> = Vec::new();
    // Every header line of a target: a record whose name the reader spells
    // its own way still joins the one target whose header holds its line.
    let mut at_line: Vec<(usize, usize)> = Vec::new();
    for (i, g) in index.iter().enumerate() {
        if !g.target {
            continue;
        }
        for line in g.header.0..=g.header.1.max(g.header.0) {
            by_line.push((names[i].as_str(), line, i));
            at_line.push((line, i));
        }
    }
    by_line.sort_unstable();
    at_line.sort_unstable();
    let mut used = vec![false; index.len()];
    let read = super::read(table, source);
    // First every record by name: the index function (each taken once) whose
    // header holds lizard's line and whose name is lizard's last name part.
    let mut hits: Vec<Option<usize>> = read
        .iter()
        .map(|f| {
            let name = spelled(&f.name);
            let bare = name.rsplit("::").next().unwrap_or(&name);
            let bare = bare.rsplit('.').next().unwrap_or(bare);
            let hit = [bare, name.as_str()]
                .iter()
                .flat_map(|n| {
                    let from = by_line.partition_point(|&(m, l, _)| (m, l) < (*n, f.start_line));
                    by_line
                        .get(from..)
                        .unwrap_or_default()
                        .iter()
                        .take_while(move |&&(m, l, _)| (m, l) == (*n, f.start_line))
                        .map(|&(_, _, i)| i)
                })
                .find(|&i| !used[i]);
            if let Some(i) = hit {
                used[i] = true;
            }
            hit
        })
        .collect();
    // Then a record the reader names its own way: the only target left whose
    // header holds its line.
    for (f, hit) in read.iter().zip(hits.iter_mut()) {
        if hit.is_some() {
            continue;
        }
        let from = at_line.partition_point(|&(l, _)| l < f.start_line);
        let mut free = at_line
            .get(from..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&(l, _)| l == f.start_line)
            .map(|&(_, i)| i)
            .filter(|&i| !used[i]);
        if let (Some(i), None) = (free.next(), free.next()) {
            used[i] = true;
            *hit = Some(i);
        }
    }
    let mut records: Vec<FunctionMetrics> = read
        .into_iter()
        .zip(hits)
        .map(|(f, hit)| {
            let hit = hit.and_then(|i| index.get(i));
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
                kind: codethread_rules::RecordKind::Function,
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
