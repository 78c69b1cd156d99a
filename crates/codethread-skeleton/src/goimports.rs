//! Go rejects unused imports: flag the edits that remove the last use of an
//! imported package.

use std::collections::{HashMap, HashSet};

use codethread_lang::tree_sitter::Node;
use codethread_lang::ParsedFile;

use crate::{Edit, Warning};

/// The names the file's imports bind (alias, else a guess from the path:
/// last element without a `.vN` suffix or `go-` prefix). Blank and dot
/// imports bind nothing checkable.
fn import_names(file: &ParsedFile) -> Vec<String> {
    let src = &file.source;
    let text =
        |n: Node<'_>| String::from_utf8_lossy(src.get(n.byte_range()).unwrap_or(&[])).into_owned();
    let mut names = Vec::new();
    let root = file.root();
    let mut c = root.walk();
    for decl in root
        .children(&mut c)
        .filter(|n| n.kind() == "import_declaration")
    {
        let mut specs = Vec::new();
        let mut c2 = decl.walk();
        for ch in decl.children(&mut c2) {
            match ch.kind() {
                "import_spec" => specs.push(ch),
                "import_spec_list" => {
                    let mut c3 = ch.walk();
                    specs.extend(ch.children(&mut c3).filter(|n| n.kind() == "import_spec"));
                }
                _ => {}
            }
        }
        for spec in specs {
            match spec.child_by_field_name("name") {
                Some(n) if n.kind() == "package_identifier" => names.push(text(n)),
                Some(_) => {}
                None => {
                    let Some(p) = spec.child_by_field_name("path") else {
                        continue;
                    };
                    let path = text(p);
                    let path = path.trim_matches(|c| c == '"' || c == '`');
                    let mut last = path.rsplit('/').next().unwrap_or(path);
                    if let Some((head, v)) = last.rsplit_once('.') {
                        if v.starts_with('v') && v[1..].chars().all(|c| c.is_ascii_digit()) {
                            last = head;
                        }
                    }
                    let last = last.strip_prefix("go-").unwrap_or(last);
                    if !last.is_empty() {
                        names.push(last.replace('-', "_"));
                    }
                }
            }
        }
    }
    names
}

/// Byte positions of package uses (`pkg.X` operands, `pkg.T` types) by name.
fn uses(file: &ParsedFile, names: &HashSet<&str>) -> HashMap<String, Vec<usize>> {
    let src = &file.source;
    let mut out: HashMap<String, Vec<usize>> = HashMap::new();
    for n in codethread_lang::preorder(file.root()) {
        let pkg = match n.kind() {
            "selector_expression" => n
                .child_by_field_name("operand")
                .filter(|o| o.kind() == "identifier"),
            "qualified_type" => n.child_by_field_name("package"),
            _ => None,
        };
        if let Some(p) = pkg {
            let t = src.get(p.byte_range()).unwrap_or(&[]);
            if let Ok(t) = std::str::from_utf8(t) {
                if names.contains(t) {
                    out.entry(t.to_string()).or_default().push(p.start_byte());
                }
            }
        }
    }
    out
}

/// Add [`Warning::GoUnusedImport`] to the edits that remove the last uses
/// of an import.
pub(crate) fn flag_unused_imports(
    original: &ParsedFile,
    skeleton: &ParsedFile,
    edits: &mut [Edit],
) {
    let names = import_names(original);
    if names.is_empty() {
        return;
    }
    let set: HashSet<&str> = names.iter().map(String::as_str).collect();
    let before = uses(original, &set);
    let after = uses(skeleton, &set);
    for (name, positions) in &before {
        if after.get(name).is_some_and(|v| !v.is_empty()) {
            continue;
        }
        for e in edits.iter_mut() {
            if positions
                .iter()
                .any(|&p| e.start_byte <= p && p < e.end_byte)
                && !e.warnings.contains(&Warning::GoUnusedImport)
            {
                e.warnings.push(Warning::GoUnusedImport);
            }
        }
    }
}
