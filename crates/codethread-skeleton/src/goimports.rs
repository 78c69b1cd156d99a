//! Go rejects unused imports: flag the edits that remove the last use of an
//! imported package.

use std::collections::{HashMap, HashSet};

use codethread_lang::tree_sitter::Node;

use crate::{Edit, Warning};

/// The names the file's imports bind (alias, else a guess from the path:
/// last element without a `.vN` suffix or `go-` prefix). Blank and dot
/// imports bind nothing checkable.
fn import_names(root: Node<'_>, src: &[u8], names: &mut Vec<String>) {
    let text =
        |n: Node<'_>| String::from_utf8_lossy(src.get(n.byte_range()).unwrap_or(&[])).into_owned();
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
}

/// Byte positions of package uses (`pkg.X` operands, `pkg.T` types) by name.
fn uses(root: Node<'_>, src: &[u8], names: &[String], out: &mut HashMap<String, Vec<usize>>) {
    if names.is_empty() {
        return;
    }
    let names: HashSet<&str> = names.iter().map(String::as_str).collect();
    for n in codethread_lang::preorder(root) {
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
}

/// The imports of a file and their uses, gathered over its trees (the
/// whole file's, or one chunk's at a time, in file order: Go's imports
/// come before every other declaration).
#[derive(Debug, Default)]
pub(crate) struct ImportUses {
    names: Vec<String>,
    uses: HashMap<String, Vec<usize>>,
}

impl ImportUses {
    /// Adds the imports declared at the top level of the tree under
    /// `root`, then the uses in it of every import seen so far.
    pub(crate) fn add_original(&mut self, root: Node<'_>, src: &[u8]) {
        import_names(root, src, &mut self.names);
        uses(root, src, &self.names, &mut self.uses);
    }

    /// The import names (to look for in the skeleton: [`ImportUses::add_uses`]).
    pub(crate) fn names(&self) -> &[String] {
        &self.names
    }

    /// Adds the uses of `names` in the tree under `root`.
    pub(crate) fn add_uses(&mut self, root: Node<'_>, src: &[u8], names: &[String]) {
        uses(root, src, names, &mut self.uses);
    }
}

/// Add [`Warning::GoUnusedImport`] to the edits that remove the last uses
/// of an import: used in the `original`, unused in the `skeleton`.
pub(crate) fn flag_unused_imports(
    original: &ImportUses,
    skeleton: &ImportUses,
    edits: &mut [Edit],
) {
    for (name, positions) in &original.uses {
        if skeleton.uses.get(name).is_some_and(|v| !v.is_empty()) {
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
