//! Go rejects unused imports: an import whose last use a stub removes is
//! written as a blank import (`_ "path"`, or the alias replaced by `_`), so
//! the file still compiles and the package's `init` still runs; the human
//! PR1 (the reverse of the stubs) restores the import as it was.

use std::collections::{HashMap, HashSet};

use codethread_lang::tree_sitter::Node;

use crate::{Edit, Warning};

/// The names the file's imports bind (alias, else a guess from the path:
/// last element without a `.vN` suffix or `go-` prefix). Blank and dot
/// imports bind nothing checkable.
fn import_names(root: Node<'_>, src: &[u8], names: &mut Vec<String>, specs_out: &mut Vec<Spec>) {
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
            let path_node = spec.child_by_field_name("path");
            match spec.child_by_field_name("name") {
                Some(n) if n.kind() == "package_identifier" => {
                    names.push(text(n));
                    if let Some(p) = path_node {
                        specs_out.push(Spec {
                            name: text(n),
                            alias: Some((n.start_byte(), n.end_byte())),
                            path_start: p.start_byte(),
                            path: text(p),
                        });
                    }
                }
                Some(_) => {}
                None => {
                    let Some(p) = path_node else {
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
                        specs_out.push(Spec {
                            name: last.replace('-', "_"),
                            alias: None,
                            path_start: p.start_byte(),
                            path: path.to_string(),
                        });
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
    specs: Vec<Spec>,
}

/// One import that binds a name: the name, its alias's bytes when it has
/// one, where its path starts, the path's text.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    name: String,
    alias: Option<(usize, usize)>,
    path_start: usize,
    path: String,
}

impl ImportUses {
    /// Adds the imports declared at the top level of the tree under
    /// `root`, then the uses in it of every import seen so far.
    pub(crate) fn add_original(&mut self, root: Node<'_>, src: &[u8]) {
        import_names(root, src, &mut self.names, &mut self.specs);
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

/// The edits that make each import the stubs leave unused a blank import:
/// used in the `original`, unused in the `skeleton` (its alias replaced by
/// `_`, or `_ ` written before its path). `import "C"` (cgo) is never
/// touched: it is no package.
pub(crate) fn blank_unused_imports(original: &ImportUses, skeleton: &ImportUses) -> Vec<Edit> {
    let mut out = Vec::new();
    for spec in &original.specs {
        let used_before = original.uses.get(&spec.name).is_some_and(|v| !v.is_empty());
        let used_after = skeleton.uses.get(&spec.name).is_some_and(|v| !v.is_empty());
        if !used_before || used_after || spec.path.trim_matches(|c| c == '"' || c == '`') == "C" {
            continue;
        }
        let (start, end, replacement) = match spec.alias {
            Some((s, e)) => (s, e, "_".to_string()),
            None => (spec.path_start, spec.path_start, "_ ".to_string()),
        };
        out.push(Edit {
            function: format!("import {}", spec.path),
            line: 0,
            span: None,
            start_byte: start,
            end_byte: end,
            replacement,
            warnings: Vec::new(),
        });
    }
    out
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
