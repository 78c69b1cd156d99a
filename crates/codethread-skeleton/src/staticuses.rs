//! C and C++ reject nothing unused by default, but a project built with
//! `-Werror` (micropython) fails on `-Wunused-function`: a `static`
//! function whose every use lay in the bodies a skeleton stubs is "defined
//! but not used". The stub of the first such body keeps one use
//! (`(void)name;` before the trap), so PR0 builds as the original did. The
//! kept use names a function the file already defines; nothing of the
//! original body is written.

use std::collections::HashMap;

use codethread_lang::tree_sitter::Node;
use codethread_lang::{preorder, Function, FunctionKind};

use crate::plan::StaticUses;
use crate::Edit;

/// Whether a header word gives internal linkage under `rules`, and no
/// word exempts it.
fn internal(header: &[u8], rules: &StaticUses) -> bool {
    let words = header
        .split(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_ascii_lowercase());
    let mut linkage = false;
    for w in words {
        let has = |needle: &str| w.windows(needle.len()).any(|x| x == needle.as_bytes());
        if rules.exempt.iter().any(|e| has(e)) {
            return false;
        }
        linkage |= has(rules.linkage);
    }
    linkage
}

/// The file-level functions with internal linkage whose last use a stub
/// may keep, by name, with their definitions' spans (see [`keep_uses`]).
pub(crate) type Wanted<'f> = HashMap<&'f [u8], Vec<(usize, usize)>>;

/// The uses found so far of the [`Wanted`] names outside their own
/// definitions, by name.
pub(crate) type Uses<'f> = HashMap<&'f [u8], Vec<usize>>;

/// The functions of `funcs` (the whole file's index) whose last use a stub
/// may keep: file-level, not a template, the only function of its name,
/// with a header word of internal linkage.
pub(crate) fn wanted<'f>(src: &[u8], funcs: &'f [Function], rules: &StaticUses) -> Wanted<'f> {
    // Every function of the file by name: an overloaded name is skipped.
    let mut named: HashMap<&str, usize> = HashMap::new();
    for f in funcs {
        *named.entry(f.name.as_str()).or_default() += 1;
    }
    let mut wanted: Wanted<'f> = HashMap::new();
    for f in funcs {
        // From the start of the definition's line: a masked specifier
        // macro (`STATIC`) stands before the node.
        let line_start = src
            .get(..f.span.start_byte)
            .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
            .map_or(0, |i| i + 1);
        let header = src.get(line_start..f.header.end_byte).unwrap_or(&[]);
        // A template names no single function to take (`(void)f;` does not
        // compile for it), nor does an overloaded name (below).
        let template = src
            .get(f.span.start_byte..f.header.end_byte)
            .is_some_and(|h| h.windows(8).any(|w| w == b"template"));
        if f.kind == FunctionKind::Function
            && !f.anonymous
            && f.parent.is_none()
            && !template
            && named.get(f.name.as_str()) == Some(&1)
            && internal(header, rules)
        {
            wanted
                .entry(f.name.as_bytes())
                .or_default()
                .push((f.span.start_byte, f.span.end_byte));
        }
    }
    wanted
}

/// Adds to `uses` the uses of the `wanted` names in the tree under `root`
/// (the whole file's, or one chunk's) outside their own definitions: one
/// walk over the tree's leaves.
pub(crate) fn collect_uses<'f>(
    root: Node<'_>,
    src: &[u8],
    rules: &StaticUses,
    wanted: &Wanted<'f>,
    uses: &mut Uses<'f>,
) {
    if wanted.is_empty() {
        return;
    }
    for n in preorder(root) {
        if n.kind() != rules.identifier || n.child_count() != 0 {
            continue;
        }
        let Some(name) = src.get(n.start_byte()..n.end_byte()) else {
            continue;
        };
        if let Some((&key, defs)) = wanted.get_key_value(name) {
            let at = n.start_byte();
            if !defs.iter().any(|&(s, e)| s <= at && at < e) {
                uses.entry(key).or_default().push(at);
            }
        }
    }
}

/// Adds a kept use to the first edit that removed the last use of each
/// [`Wanted`] function, given all its `uses` ([`collect_uses`] over the
/// file's trees). `edits` are sorted and do not overlap.
pub(crate) fn keep_uses(
    src: &[u8],
    rules: &StaticUses,
    wanted: &Wanted<'_>,
    uses: &Uses<'_>,
    edits: &mut [Edit],
) {
    if wanted.is_empty() {
        return;
    }
    let depth = conditional_depths(src);
    let depth_at = |at: usize| -> usize {
        let i = depth.partition_point(|&(p, _)| p <= at);
        i.checked_sub(1).map_or(0, |k| depth[k].1)
    };
    let edit_at = |at: usize| -> Option<usize> {
        let i = edits.partition_point(|e| e.end_byte <= at);
        edits
            .get(i)
            .filter(|e| e.start_byte <= at && at < e.end_byte)
            .map(|_| i)
    };
    let mut names: Vec<(&[u8], usize)> = Vec::new();
    for (&name, at) in uses {
        let inside: Option<Vec<usize>> = at.iter().map(|&a| edit_at(a)).collect();
        let Some(first) = inside.and_then(|v| v.into_iter().min()) else {
            continue;
        };
        // Kept only where the name is surely declared and the use surely
        // compiled: the definition before the stub, and definition, uses
        // and stub outside every preprocessor group (a use under `#if`
        // that the build leaves out left the function unused already).
        let defs = &wanted[name];
        let stub_at = edits[first].start_byte;
        let plain = defs.len() == 1
            && defs.iter().all(|&(s, _)| s < stub_at && depth_at(s) == 0)
            && depth_at(stub_at) == 0
            && at.iter().all(|&a| depth_at(a) == 0);
        if plain {
            names.push((name, first));
        }
    }
    names.sort_unstable();
    for (name, i) in names {
        let Some(e) = edits.get_mut(i) else { continue };
        let Ok(name) = std::str::from_utf8(name) else {
            continue;
        };
        let keep = rules.keep.replace("{}", name);
        let at = e
            .replacement
            .find(|c: char| !c.is_whitespace())
            .unwrap_or(e.replacement.len());
        e.replacement.insert_str(at, &keep);
    }
}

/// Where the preprocessor group depth changes: (first byte after a
/// directive line, depth from there on). `#if`, `#ifdef`, `#ifndef` open a
/// group, `#endif` closes one; one pass over the lines.
fn conditional_depths(src: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = 0usize;
    while start < src.len() {
        let end = src[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |i| start + i + 1);
        let line = &src[start..end];
        let t = line.trim_ascii_start();
        if let Some(rest) = t.strip_prefix(b"#") {
            let word: Vec<u8> = rest
                .trim_ascii_start()
                .iter()
                .take_while(|b| b.is_ascii_alphabetic())
                .copied()
                .collect();
            match word.as_slice() {
                b"if" | b"ifdef" | b"ifndef" => {
                    depth += 1;
                    out.push((end, depth));
                }
                b"endif" => {
                    depth = depth.saturating_sub(1);
                    out.push((end, depth));
                }
                _ => {}
            }
        }
        start = end;
    }
    out
}
