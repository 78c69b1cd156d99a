//! Target functions: the existing functions the gold patch edits, by the
//! rule of `docs/target-rules.md`, and the typed reason when there are none.
//!
//! The rule is codethread-patch's [`codethread_patch::localize`] (changed
//! lines from applying the gold patch with git's rules, functions from
//! codethread-lang); this module reads the pre-images from a source, maps
//! the result to chain types and attaches each target's indexed function.

use std::collections::{BTreeMap, HashMap};

use codethread_lang::{parse_file, Function, Lang};
use codethread_patch::KeptImages;
use codethread_patch::MemTree;
use serde::{Deserialize, Serialize};

use crate::error::ChainError;
use crate::source::SourceReader;
use codethread_bench::Instance;

/// Why an instance has no targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoTargets {
    /// The gold patch touches no source file of a supported language.
    NonSourceOnly,
    /// Only new functions (and blank / comment lines) are added.
    AddsNewFunctionsOnly,
    /// New functions plus module / class / impl level code.
    AddsNewFunctionsAndModuleLevelCodeOnly,
    /// Only lines outside any function changed.
    ModuleOrClassLevelChangesOnly,
    /// Every edited function is in a generated file (bison / flex output, a
    /// file whose banner says it is generated): the real edit is in the
    /// generator's source, which no grammar here reads.
    GeneratedFilesOnly,
    /// Every edited function is test code (C / C++ functions under an
    /// `#ifdef *TEST*` block, Rust items marked `#[test]` or under
    /// `#[cfg(test)]`).
    TestCodeOnly,
    /// Every edited function is only moved: deleted and added back byte
    /// for byte elsewhere ([`Target::moved_unchanged`]).
    MovedOnly,
}

impl NoTargets {
    /// The name used in `expected_targets.jsonl`.
    pub fn as_str(self) -> &'static str {
        match self {
            NoTargets::NonSourceOnly => "non_source_only",
            NoTargets::AddsNewFunctionsOnly => "adds_new_functions_only",
            NoTargets::AddsNewFunctionsAndModuleLevelCodeOnly => {
                "adds_new_functions_and_module_level_code_only"
            }
            NoTargets::ModuleOrClassLevelChangesOnly => "module_or_class_level_changes_only",
            NoTargets::GeneratedFilesOnly => "generated_files_only",
            NoTargets::TestCodeOnly => "test_code_only",
            NoTargets::MovedOnly => "moved_only",
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
    /// `modified` (exists after the patch) or `removed` (serialized in lower case).
    pub status: codethread_patch::FunctionStatus,
    /// The function in the pre-image.
    pub function: Function,
    /// The gold patch only moves it: its whole definition is byte for byte
    /// the same after the patch ([`codethread_patch::EditedFunction::moved_unchanged`]).
    /// [`localize_instance`] keeps it; the build does not stub it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moved_unchanged: bool,
}

/// InstanceTargets of one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InstanceTargets {
    /// The instance.
    pub instance_id: String,
    /// Targets in file then source order.
    pub targets: Vec<Target>,
    /// Set iff `targets` is empty.
    pub negative_case: Option<NoTargets>,
    /// Functions the patch adds (`path::qualname`), for information.
    pub added_functions: Vec<String>,
    /// Pre-images of every file the gold patch touches that exists at base.
    #[serde(skip)]
    pub before: BTreeMap<String, Vec<u8>>,
    /// Notes on uncertain matches (duplicates, removed functions, trivial-only
    /// targets, offsets, syntax errors), from codethread-patch.
    pub notes: Vec<String>,
    /// The repository-level language the files were read with
    /// ([`Instance::lang_hint`]); PR0 parses the pre-images the same way.
    pub language_hint: Option<Lang>,
}

impl InstanceTargets {
    /// The target ids.
    pub fn target_ids(&self) -> Vec<String> {
        self.targets.iter().map(|t| t.target_id.clone()).collect()
    }
}

/// A file's function indices by qualname, in file order.
type ByName = HashMap<String, Vec<usize>>;

/// Localize the gold patch of `inst`, reading pre-images from `source`:
/// codethread-patch's [`codethread_patch::localize`] decides the targets;
/// each target is then looked up in codethread-lang's index of the
/// pre-image (same qualname, same first line) for its spans.
pub fn localize_instance(
    inst: &Instance,
    source: &mut dyn SourceReader,
) -> Result<InstanceTargets, ChainError> {
    localize_kept(inst, source).map(|(l, _)| l)
}

/// [`localize_instance`], with the pre-images as it read them
/// ([`codethread_patch::localize_keeping`]): the PR0 step stubs the targets
/// on these trees, so a pre-image is parsed once for localization and PR0
/// together.
pub(crate) fn localize_kept(
    inst: &Instance,
    source: &mut dyn SourceReader,
) -> Result<(InstanceTargets, KeptImages), ChainError> {
    let id = &inst.instance_id;
    if inst.patch.trim().is_empty() {
        return Err(ChainError::NoGoldPatch {
            instance_id: id.clone(),
        });
    }
    source.select_repo_for(&inst.instance_id, &inst.repo)?;
    let patch = codethread_patch::parse_patch(inst.patch.as_bytes()).map_err(|source| {
        ChainError::PatchParse {
            instance_id: id.clone(),
            layer: "gold patch".into(),
            source,
        }
    })?;
    let mut tree = MemTree::new();
    for p in patch.touched_paths() {
        let p = String::from_utf8_lossy(&p).into_owned();
        if let Some(bytes) = source.read(&inst.instance_id, &inst.base_commit, &p)? {
            tree.insert(p.into_bytes(), bytes);
        }
    }
    let hint = inst.lang_hint();
    let (l, images) = codethread_patch::localize_keeping(
        &tree,
        &patch,
        &codethread_patch::LocalizeOptions::with_hint(hint),
    )
    .map_err(|e| match e {
        codethread_patch::LocalizeError::Apply(source) => ChainError::Apply {
            instance_id: id.clone(),
            layer: "gold patch".into(),
            source,
        },
        source => ChainError::Localize {
            instance_id: id.clone(),
            source,
        },
    })?;
    // The pre-images move out of the tree (keys are UTF-8: inserted from Strings).
    let before: BTreeMap<String, Vec<u8>> = tree
        .files
        .into_iter()
        .map(|(p, f)| (String::from_utf8_lossy(&p).into_owned(), f.content))
        .collect();
    // Pre-image path of each edited file (renames read the old path).
    let old_path: BTreeMap<&str, &str> = l
        .files
        .iter()
        .map(|f| {
            (
                f.path.as_str(),
                f.old_path.as_deref().unwrap_or(f.path.as_str()),
            )
        })
        .collect();
    // Each pre-image's functions under `docs/target-rules.md` (named, with
    // a body) as localization indexed them, and their indices by qualname
    // in file order (one lookup per target, never a scan of the file).
    let mut index: BTreeMap<String, (Vec<&Function>, ByName)> = BTreeMap::new();
    let mut targets = Vec::new();
    for t in &l.targets {
        let path = old_path
            .get(t.path.as_str())
            .copied()
            .unwrap_or(t.path.as_str())
            .to_string();
        let (funcs, by_name) = index.entry(path.clone()).or_insert_with(|| {
            let funcs: Vec<&Function> = images
                .get(&path)
                .map(|k| {
                    k.functions
                        .iter()
                        .filter(|f| !f.anonymous && f.body.is_some())
                        .collect()
                })
                .unwrap_or_default();
            let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
            for (i, f) in funcs.iter().enumerate() {
                by_name.entry(f.qualname.clone()).or_default().push(i);
            }
            (funcs, by_name)
        });
        let same_name = by_name.get(&t.qualname).map(Vec::as_slice).unwrap_or(&[]);
        let f = same_name
            .iter()
            .map(|&i| funcs[i])
            .find(|f| Some(f.span.start_line) == t.start)
            .or_else(|| {
                same_name
                    .get(t.occurrence.saturating_sub(1))
                    .map(|&i| funcs[i])
            })
            .ok_or_else(|| ChainError::TargetNotIndexed {
                instance_id: id.clone(),
                target: t.target_id(),
            })?;
        let target_id = if t.path == path {
            t.target_id()
        } else {
            f.target_id(&path)
        };
        targets.push(Target {
            path,
            target_id,
            status: match t.status {
                codethread_patch::FunctionStatus::Removed => {
                    codethread_patch::FunctionStatus::Removed
                }
                _ => codethread_patch::FunctionStatus::Modified,
            },
            function: f.clone(),
            moved_unchanged: t.moved_unchanged,
        });
    }
    let negative_case = l.negative_case.map(|n| match n {
        codethread_patch::NegativeCase::NonSourceOnly => NoTargets::NonSourceOnly,
        codethread_patch::NegativeCase::AddsNewFunctionsOnly => NoTargets::AddsNewFunctionsOnly,
        codethread_patch::NegativeCase::AddsNewFunctionsAndModuleLevelCodeOnly => {
            NoTargets::AddsNewFunctionsAndModuleLevelCodeOnly
        }
        codethread_patch::NegativeCase::ModuleOrClassLevelChangesOnly => {
            NoTargets::ModuleOrClassLevelChangesOnly
        }
    });
    Ok((
        InstanceTargets {
            instance_id: inst.instance_id.clone(),
            negative_case,
            added_functions: l.added_functions.iter().map(|f| f.target_id()).collect(),
            notes: l.unsure.clone(),
            targets,
            before,
            language_hint: hint,
        },
        images,
    ))
}

/// What marks a target as test code, if anything: a C / C++ function in
/// a test-only preprocessor block ([`codethread_lang::in_test_block`]), or
/// an item of a language whose attributes mark tests (Rust `#[test]`,
/// `#[tokio::test]`, an item or enclosing `mod` under `#[cfg(test)]`:
/// [`codethread_lang::test_attribute_at`]).
fn test_code(
    t: &Target,
    bytes: &[u8],
    hint: Option<Lang>,
    images: &KeptImages,
    parsed: &mut BTreeMap<String, Option<codethread_lang::ParsedFile>>,
) -> Option<String> {
    let at = t.function.span.start_byte;
    let lang = Lang::for_source(&t.path, bytes, hint)?;
    if lang.is_c_family() {
        return codethread_lang::in_test_block(bytes, at).then(|| {
            format!(
                "under {}",
                codethread_lang::open_conditions(bytes, at).join(" && ")
            )
        });
    }
    lang.info().test_attributes?;
    // InstanceTargets's tree of the file; a file it read in chunks is parsed
    // once here.
    let file = match images.get(&t.path).and_then(|k| k.file.as_ref()) {
        Some(file) => file,
        None => parsed
            .entry(t.path.clone())
            .or_insert_with(|| {
                parse_file(
                    std::path::Path::new(&t.path),
                    bytes.to_vec(),
                    &codethread_lang::ParseOptions::with_hint(hint),
                )
                .ok()
            })
            .as_ref()?,
    };
    // The function's own node: its attributes are the siblings before it.
    codethread_lang::test_attribute_at(file, t.function.node.start_byte)
        .map(|a| format!("marked {a}"))
}

/// Remove the functions the gold patch edits that are never stubbed: those
/// in generated files (bison / flex output, a generated banner:
/// [`codethread_lang::generated_banner`]) and C / C++ functions in
/// test-only preprocessor blocks ([`codethread_lang::in_test_block`]), items
/// attributes mark as tests (Rust `#[test]`, `#[cfg(test)]`), and functions
/// the patch only moves ([`Target::moved_unchanged`]). Each removal is noted
/// in [`InstanceTargets::notes`]; when nothing is left the localization gets
/// [`NoTargets::GeneratedFilesOnly`] (or [`NoTargets::TestCodeOnly`],
/// [`NoTargets::MovedOnly`]). [`localize_instance`] itself keeps them (it
/// answers which functions the gold patch edits, `docs/target-rules.md`);
/// `pipeline::build` applies this before PR0.
pub(crate) fn drop_non_targets(loc: &mut InstanceTargets, images: &KeptImages) {
    let hint = loc.language_hint;
    let before = &loc.before;
    let notes = &mut loc.notes;
    let mut why = None;
    let mut kept = Vec::with_capacity(loc.targets.len());
    let mut parsed = BTreeMap::new();
    for t in std::mem::take(&mut loc.targets) {
        let bytes = before.get(&t.path).map(Vec::as_slice).unwrap_or(&[]);
        if let Some((marker, generator)) = codethread_lang::generated_banner(bytes) {
            notes.push(format!(
                "{}: not a target: {} is generated ({generator}: \"{marker}\"); the edit belongs in its source",
                t.target_id, t.path
            ));
            why = Some(NoTargets::GeneratedFilesOnly);
            continue;
        }
        if let Some(mark) = test_code(&t, bytes, hint, images, &mut parsed) {
            notes.push(format!("{}: not a target: test code ({mark})", t.target_id));
            why = why.or(Some(NoTargets::TestCodeOnly));
            continue;
        }
        if t.moved_unchanged {
            notes.push(format!(
                "{}: not a target: the gold patch only moves it (its definition is unchanged)",
                t.target_id
            ));
            why = why.or(Some(NoTargets::MovedOnly));
            continue;
        }
        kept.push(t);
    }
    if kept.is_empty() && loc.negative_case.is_none() {
        loc.negative_case = why;
    }
    loc.targets = kept;
}
