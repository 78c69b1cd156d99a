//! Target functions: the existing functions the gold patch edits, by the
//! rule of `TARGET_RULES.md`, and the typed reason when there are none.
//!
//! Changed lines come from applying the gold patch in memory with
//! codethread-patch (git's rules, real offsets); functions and their spans
//! from codethread-lang's index of the pre- and post-images.

use std::collections::{BTreeMap, BTreeSet};

use codethread_lang::{index_functions, parse_path_best, Function, Lang};
use codethread_patch::{ApplyOptions, FileOp, MemTree};
use serde::{Deserialize, Serialize};

use crate::error::ChainError;
use crate::instance::Instance;
use crate::source::SourceReader;

/// Why an instance has no targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NegativeCase {
    /// The gold patch touches no source file of a supported language.
    NonSourceOnly,
    /// Only new functions (and blank / comment lines) are added.
    AddsNewFunctionsOnly,
    /// New functions plus module / class / impl level code.
    AddsNewFunctionsAndModuleLevelCodeOnly,
    /// Only lines outside any function changed.
    ModuleOrClassLevelChangesOnly,
}

impl NegativeCase {
    /// The name used in `expected_targets.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            NegativeCase::NonSourceOnly => "non_source_only",
            NegativeCase::AddsNewFunctionsOnly => "adds_new_functions_only",
            NegativeCase::AddsNewFunctionsAndModuleLevelCodeOnly => {
                "adds_new_functions_and_module_level_code_only"
            }
            NegativeCase::ModuleOrClassLevelChangesOnly => "module_or_class_level_changes_only",
        }
    }
}

/// One target function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// Repository path (pre-image).
    pub path: String,
    /// `path::qualname[#n]`.
    pub target_id: String,
    /// `modified` (exists after the patch) or `removed`.
    pub status: String,
    /// The function in the pre-image.
    pub function: Function,
}

/// Localization of one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Localization {
    /// The instance.
    pub instance_id: String,
    /// Targets in file then source order.
    pub targets: Vec<Target>,
    /// Set iff `targets` is empty.
    pub negative_case: Option<NegativeCase>,
    /// Functions the patch adds (`path::qualname`), for information.
    pub added_functions: Vec<String>,
    /// Pre-images of every file the gold patch touches that exists at base.
    #[serde(skip)]
    pub before: BTreeMap<String, Vec<u8>>,
    /// Notes (parse errors in a pre-image, files that could not be indexed).
    pub notes: Vec<String>,
}

impl Localization {
    /// The target ids.
    pub fn target_ids(&self) -> Vec<String> {
        self.targets.iter().map(|t| t.target_id.clone()).collect()
    }
}

fn is_target_source(path: &str) -> bool {
    matches!(
        path.rsplit('.').next(),
        Some("py" | "go" | "rs" | "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx")
    ) && path.contains('.')
}

/// Functions under `TARGET_RULES.md`: named, with a body.
fn real_functions(path: &str, bytes: &[u8], notes: &mut Vec<String>) -> Option<Vec<Function>> {
    Lang::from_path(path)?;
    match parse_path_best(std::path::Path::new(path), bytes.to_vec()) {
        Ok(file) => {
            if file.parse_errors > 0 {
                notes.push(format!("{path}: {} parse error node(s)", file.parse_errors));
            }
            Some(
                index_functions(&file)
                    .into_iter()
                    .filter(|f| !f.anonymous && f.body.is_some())
                    .collect(),
            )
        }
        Err(e) => {
            notes.push(format!("{path}: {e}"));
            None
        }
    }
}

fn line_text(bytes: &[u8], line: usize) -> &[u8] {
    bytes
        .split(|b| *b == b'\n')
        .nth(line.saturating_sub(1))
        .unwrap_or(&[])
}

/// Blank or comment-only line.
fn trivial(path: &str, line: &[u8]) -> bool {
    let t = String::from_utf8_lossy(line);
    let t = t.trim();
    if t.is_empty() {
        return true;
    }
    if path.ends_with(".py") {
        t.starts_with('#')
    } else {
        t.starts_with("//") || t.starts_with("/*") || t.starts_with('*') || t.starts_with("*/")
    }
}

/// Localize the gold patch of `inst`, reading pre-images from `source`.
pub fn localize(
    inst: &Instance,
    source: &mut dyn SourceReader,
) -> Result<Localization, ChainError> {
    let perr = |m: String| ChainError::Patch {
        instance_id: inst.instance_id.clone(),
        message: m,
    };
    if inst.patch.trim().is_empty() {
        return Err(perr("the instance has no gold patch".into()));
    }
    source.select_repo(&inst.repo)?;
    let patch = codethread_patch::parse(inst.patch.as_bytes())
        .map_err(|e| perr(format!("gold patch cannot be parsed: {e}")))?;
    let mut before: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut tree = MemTree::new();
    for p in patch.touched_paths() {
        let p = String::from_utf8_lossy(&p).into_owned();
        if let Some(bytes) = source.read(&inst.instance_id, &inst.base_commit, &p)? {
            tree.insert(p.as_bytes().to_vec(), bytes.clone());
            before.insert(p, bytes);
        }
    }
    let mut after_tree = tree.clone();
    let report = after_tree
        .apply(&patch, &ApplyOptions::default())
        .map_err(|e| perr(format!("gold patch does not apply at base: {e}")))?;
    let mut loc = Localization {
        instance_id: inst.instance_id.clone(),
        targets: Vec::new(),
        negative_case: None,
        added_functions: Vec::new(),
        before: BTreeMap::new(),
        notes: Vec::new(),
    };
    let mut any_source = false;
    let mut nontrivial_outside = false;
    for fr in &report.files {
        let old = fr.old_path.clone();
        let new = fr.new_path.clone();
        let path_for_lang = new.clone().or(old.clone()).unwrap_or_default();
        if !is_target_source(&path_for_lang) {
            continue;
        }
        any_source = true;
        let before_bytes = old.as_ref().and_then(|p| before.get(p)).cloned();
        let after_bytes = new
            .as_ref()
            .and_then(|p| after_tree.get(p.as_bytes()))
            .map(<[u8]>::to_vec);
        let bf = match (&old, &before_bytes) {
            (Some(p), Some(b)) => real_functions(p, b, &mut loc.notes).unwrap_or_default(),
            _ => Vec::new(),
        };
        let af = match (&new, &after_bytes) {
            (Some(p), Some(b)) if fr.op != FileOp::Delete => {
                real_functions(p, b, &mut loc.notes).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let removed: BTreeSet<usize> = fr.removed_lines.iter().copied().collect();
        let added: BTreeSet<usize> = fr.added_lines.iter().copied().collect();
        let after_by_key: BTreeMap<_, &Function> = af.iter().map(|f| (f.match_key(), f)).collect();
        let before_keys: BTreeSet<_> = bf.iter().map(|f| f.match_key()).collect();
        let path = old.clone().unwrap_or_default();
        for f in &bf {
            let hit_before = removed.iter().any(|l| f.span.contains_line(*l));
            let after_f = after_by_key.get(&f.match_key());
            let hit_after = after_f.is_some_and(|a| added.iter().any(|l| a.span.contains_line(*l)));
            if hit_before || hit_after {
                loc.targets.push(Target {
                    path: path.clone(),
                    target_id: f.target_id(&path),
                    status: if after_f.is_some() {
                        "modified"
                    } else {
                        "removed"
                    }
                    .into(),
                    function: f.clone(),
                });
            }
        }
        let new_path = new.clone().unwrap_or_default();
        for f in &af {
            if !before_keys.contains(&f.match_key()) {
                loc.added_functions
                    .push(format!("{new_path}::{}", f.qualname));
            }
        }
        // Changed lines outside every function span.
        for l in &removed {
            if !bf.iter().any(|f| f.span.contains_line(*l)) {
                if let Some(b) = &before_bytes {
                    if !trivial(&path, line_text(b, *l)) {
                        nontrivial_outside = true;
                    }
                }
            }
        }
        for l in &added {
            if !af.iter().any(|f| f.span.contains_line(*l)) {
                if let Some(b) = &after_bytes {
                    if !trivial(&new_path, line_text(b, *l)) {
                        nontrivial_outside = true;
                    }
                }
            }
        }
    }
    if loc.targets.is_empty() {
        loc.negative_case = Some(if !any_source {
            NegativeCase::NonSourceOnly
        } else if !loc.added_functions.is_empty() {
            if nontrivial_outside {
                NegativeCase::AddsNewFunctionsAndModuleLevelCodeOnly
            } else {
                NegativeCase::AddsNewFunctionsOnly
            }
        } else {
            NegativeCase::ModuleOrClassLevelChangesOnly
        });
    }
    loc.before = before;
    Ok(loc)
}
