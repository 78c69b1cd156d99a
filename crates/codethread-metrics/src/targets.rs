//! The join key: target ids of records, from the codethread-lang index of
//! the file as `chain targets` builds it.

use codethread_lang::{index_flat, FlatTree, Function, Lang, ParsedFile};

/// The codethread-lang index of `file` as `chain targets` reads the file
/// (`codethread_lang::parse_path_hinted`: the language's own grammar, and
/// for a file with parse errors the fallback grammar with fewer errors), so
/// that [`Function::target_id`] gives the ids of target lists. `flat` is
/// `file`'s flat tree when the caller has one.
pub(crate) fn target_index(file: &ParsedFile, flat: Option<&FlatTree>) -> Vec<Function> {
    if !needs_reparse(file.grammar, file.lang, file.parse_errors) {
        return match flat {
            Some(flat) => index_flat(file, flat),
            None => index_flat(file, &FlatTree::new(file)),
        };
    }
    reparsed_index(file.lang, &file.source)
}

/// Whether the target index of a `lang` file parsed with `grammar` (with
/// `parse_errors`) needs another parse: `chain targets` reads the file with
/// the language's own grammar (C, not the C++ grammar the paper profile
/// reads it with) and, when it has errors, with the fallback grammar with
/// fewer errors.
pub(crate) fn needs_reparse(grammar: Lang, lang: Lang, parse_errors: usize) -> bool {
    !(grammar == lang && (parse_errors == 0 || lang.fallback_grammars().is_empty()))
}

/// The index `chain targets` builds of `source`, a `lang` file, from its
/// own parse (`codethread_lang::parse_file`): the language's grammar, for a
/// file with parse errors the fallback grammar with fewer errors, then the
/// macro mask where it removes errors (`codethread_lang::tolerant`; empty
/// when the parser fails). Every tree it builds is dropped before it
/// returns.
pub(crate) fn reparsed_index(lang: Lang, source: &[u8]) -> Vec<Function> {
    let Ok(first) = codethread_lang::parse(lang, source.to_vec()) else {
        return Vec::new();
    };
    let mut best = first;
    if best.parse_errors > 0 {
        for &lang in best.lang.fallback_grammars() {
            if let Ok(alt) = codethread_lang::parse(lang, best.source.clone()) {
                if alt.parse_errors < best.parse_errors {
                    best = alt;
                }
            }
        }
    }
    let best = codethread_lang::tolerant(best);
    index_flat(&best, &FlatTree::new(&best))
}

/// Whether `f` is a target function under `docs/target-rules.md` (the functions
/// `chain targets` can name): named, with a body.
pub(crate) fn is_target(f: &Function) -> bool {
    !f.anonymous && f.body.is_some()
}

/// Why a record has no target id (a note on the record).
pub(crate) const NO_ID_ANONYMOUS: &str =
    "no target_id: an anonymous function is not a target (`docs/target-rules.md`)";
/// Why a record has no target id: a declaration without a body.
pub(crate) const NO_ID_BODILESS: &str =
    "no target_id: a declaration without a body is not a target (`docs/target-rules.md`)";
/// Why a record has no target id: the index has no such function.
pub(crate) const NO_ID_UNINDEXED: &str =
    "no target_id: the codethread-lang index has no function here (the tool's function list differs)";

/// Where the target ids of `funcs` (functions of an index of the same
/// file, perhaps built with other options or another grammar) are in `ids`
/// (the [`target_index`] of the file): matched on the own node's bytes and
/// qualname, else on its first line and qualname, each id used once.
/// `Err(note)` says why a function has none; [`target_ids_of`] names them.
pub(crate) fn match_target_positions(
    funcs: &[&Function],
    ids: &[Function],
) -> Vec<Result<usize, &'static str>> {
    use std::collections::HashMap;
    let mut by_span: HashMap<(usize, usize, &str), usize> = HashMap::new();
    let mut by_line: HashMap<(usize, &str), Vec<usize>> = HashMap::new();
    for (i, f) in ids.iter().enumerate() {
        if !is_target(f) {
            continue;
        }
        by_span
            .entry((f.node.start_byte, f.node.end_byte, f.qualname.as_str()))
            .or_insert(i);
        by_line
            .entry((f.node.start_line, f.qualname.as_str()))
            .or_default()
            .push(i);
    }
    let mut used = vec![false; ids.len()];
    let mut out: Vec<Result<usize, &'static str>> = Vec::with_capacity(funcs.len());
    // Exact spans first, so that a line match never takes another's id.
    let mut pending: Vec<usize> = Vec::new();
    for (k, f) in funcs.iter().enumerate() {
        if f.anonymous {
            out.push(Err(NO_ID_ANONYMOUS));
            continue;
        }
        if f.body.is_none() {
            out.push(Err(NO_ID_BODILESS));
            continue;
        }
        match by_span.get(&(f.node.start_byte, f.node.end_byte, f.qualname.as_str())) {
            Some(&i) if !used[i] => {
                used[i] = true;
                out.push(Ok(i));
            }
            _ => {
                out.push(Err(NO_ID_UNINDEXED));
                pending.push(k);
            }
        }
    }
    for k in pending {
        let f = funcs[k];
        let hit = by_line
            .get(&(f.node.start_line, f.qualname.as_str()))
            .and_then(|v| v.iter().copied().find(|&i| !used[i]));
        if let Some(i) = hit {
            used[i] = true;
            out[k] = Ok(i);
        }
    }
    out
}

/// The target ids of `positions` in a file's join index whose functions'
/// qualnames are `names`, in file order: [`Function::target_id`] with the
/// occurrence and duplicate count of the whole list (what
/// `codethread_lang::index_flat` gives each function of a whole-file
/// index).
pub(crate) fn target_ids_of(
    path: &str,
    names: &[String],
    positions: &[Result<usize, &'static str>],
) -> Vec<Result<String, &'static str>> {
    let numbers = codethread_lang::occurrences(names.len(), |i| names[i].as_str());
    positions
        .iter()
        .map(|p| {
            let i = (*p)?;
            let q = names.get(i).map_or("", String::as_str);
            let (occ, dups) = numbers.get(i).copied().unwrap_or((1, 1));
            Ok(codethread_lang::target_id_for(path, q, occ, dups))
        })
        .collect()
}
