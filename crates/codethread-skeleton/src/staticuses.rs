//! C and C++ reject nothing unused by default, but a project built with
//! `-Werror` (micropython) fails on `-Wunused-function`: a `static`
//! function whose every use lay in the bodies a skeleton stubs is "defined
//! but not used". The stub of the first such body keeps one use
//! (`(void)name;` before the trap), so PR0 builds as the original did. The
//! kept use names a function the file already defines; nothing of the
//! original body is written.

use std::collections::HashMap;

use codethread_lang::{preorder, Function, FunctionKind, ParsedFile};

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

/// Adds a kept use to the first edit that removed the last use of each
/// file-level function with internal linkage. `edits` are sorted and do not
/// overlap. One walk over the tree's leaves.
pub(crate) fn keep_uses(
    file: &ParsedFile,
    funcs: &[Function],
    rules: &StaticUses,
    edits: &mut [Edit],
) {
    let src = &file.source;
    // Every function of the file by name: an overloaded name is skipped.
    let mut named: HashMap<&str, usize> = HashMap::new();
    for f in funcs {
        *named.entry(f.name.as_str()).or_default() += 1;
    }
    let mut wanted: HashMap<&[u8], Vec<(usize, usize)>> = HashMap::new();
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
    if wanted.is_empty() {
        return;
    }
    // Uses outside the function's own definitions, by name.
    let mut uses: HashMap<&[u8], Vec<usize>> = HashMap::new();
    for n in preorder(file.root()) {
        if n.kind() != rules.identifier || n.child_count() != 0 {
            continue;
        }
        let Some(name) = src.get(n.start_byte()..n.end_byte()) else {
            continue;
        };
        if let Some(defs) = wanted.get(name) {
            let at = n.start_byte();
            if !defs.iter().any(|&(s, e)| s <= at && at < e) {
                uses.entry(name).or_default().push(at);
            }
        }
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
    for (name, at) in &uses {
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
