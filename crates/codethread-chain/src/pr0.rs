//! PR0: the base commit with every target function's body replaced by a
//! stub (codethread-skeleton), as a git diff written by codethread-patch
//! that plain `git apply` applies at base and `git apply -R` reverses.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::path::Path;

use codethread_patch::{diff_files, DiffOptions, FileChange, KeptImages};
use codethread_skeleton::{
    skeletonize, skeletonize_path, Options, ParseErrorPolicy, Selector, SkeletonError, Warning,
};
use serde::{Deserialize, Serialize};

use crate::error::ChainError;
pub use crate::error::NotStubbed;
use crate::targets::{InstanceTargets, Target};

/// PR0 of one instance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pr0 {
    /// The instance.
    pub instance_id: String,
    /// The diff against base.
    pub patch: Vec<u8>,
    /// The skeleton text of each stubbed file.
    #[serde(skip)]
    pub skeletons: BTreeMap<String, Vec<u8>>,
    /// Target ids whose body was replaced.
    pub stubbed: Vec<String>,
    /// Target ids left unchanged, with the reason.
    pub not_stubbed: Vec<(String, NotStubbed)>,
    /// The 1-based line of each stubbed target's own node (`def`, `fn`,
    /// ...) in PR0, by target id: only targets with a stub of their own (a
    /// target nested in a stubbed one is removed with it and has none).
    #[serde(default)]
    pub lines: BTreeMap<String, usize>,
    /// Warnings of the stubs written (`path::function: code: warning`): the
    /// stub compiles in a default build but may not in every use (a
    /// `constexpr` function used in a constant expression, a Go import left
    /// unused). Stubs known not to compile are never written: those targets
    /// are in [`Pr0::not_stubbed`] with [`NotStubbed::WouldNotCompile`].
    pub warnings: Vec<String>,
}

/// Options for [`make_pr0`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Pr0Options {
    /// Keep Python docstrings above the stubs (the paper removes them).
    pub keep_docs: bool,
}

impl Pr0Options {
    /// Sets [`Pr0Options::keep_docs`].
    pub fn keep_docs(mut self, keep_docs: bool) -> Self {
        self.keep_docs = keep_docs;
        self
    }
}

/// The error itself, without the file name `skeletonize_path` wraps it in
/// (the message names the path already).
fn unwrap_file(e: SkeletonError) -> SkeletonError {
    match e {
        SkeletonError::File { source, .. } => *source,
        e => e,
    }
}

/// Stub the targets of `loc` and write PR0.
///
/// Targets nested in another target go with it. A target the skeleton cannot
/// stub (syntax error around it, no body) or whose stub would not compile
/// ([`Warning::breaks_build`]: a C++ deduced return type, Rust
/// `-> impl Trait`, a TypeScript derived constructor) is listed in
/// [`Pr0::not_stubbed`]; when no target can be stubbed the instance fails,
/// with [`ChainError::NoCompilingStub`] when every target was refused for a
/// stub known not to compile (the pipeline files that as the negative case
/// `no_compiling_stub`).
pub fn make_pr0(loc: &InstanceTargets, opts: &Pr0Options) -> Result<Pr0, ChainError> {
    make_pr0_from(loc, opts, &KeptImages::new())
}

/// [`make_pr0`] on the pre-images as localization read them
/// ([`codethread_patch::localize_keeping`]): a file parsed whole there is
/// stubbed on that tree, so the PR0 step parses no pre-image again (a file
/// not in `images`, or read in chunks, is parsed here).
pub(crate) fn make_pr0_from(
    loc: &InstanceTargets,
    opts: &Pr0Options,
    images: &KeptImages,
) -> Result<Pr0, ChainError> {
    let id = &loc.instance_id;
    // Each file's targets, by their identity: the definition span the
    // localization indexed (no name is parsed back out of a target id).
    let mut by_file: BTreeMap<&str, Vec<&Target>> = BTreeMap::new();
    for t in &loc.targets {
        by_file.entry(t.path.as_str()).or_default().push(t);
    }
    let options = Options::default()
        .keep_docs(opts.keep_docs)
        .on_parse_errors(ParseErrorPolicy::SkipAffected)
        .verify(true)
        .hint(loc.language_hint)
        // Go: an import the stubs leave unused is written as a blank import
        // (the PR0 compiles; the human PR1 restores it).
        .blank_unused_go_imports(true);
    let mut out = Pr0 {
        instance_id: loc.instance_id.clone(),
        patch: Vec::new(),
        skeletons: BTreeMap::new(),
        stubbed: Vec::new(),
        not_stubbed: Vec::new(),
        lines: BTreeMap::new(),
        warnings: Vec::new(),
    };
    for (path, targets) in &by_file {
        let before = loc
            .before
            .get(*path)
            .ok_or_else(|| ChainError::NoPreImage {
                instance_id: id.clone(),
                path: (*path).to_string(),
            })?;
        let span_of = |t: &Target| t.function.span.start_byte..t.function.span.end_byte;
        let id_at: HashMap<Range<usize>, &str> = targets
            .iter()
            .map(|t| (span_of(t), t.target_id.as_str()))
            .collect();
        // The target an edit or skip reports (by its span), or, for what
        // is no target (a Go import made blank), its own name.
        let id_of = |span: &Option<Range<usize>>, function: &str| -> String {
            span.as_ref()
                .and_then(|s| id_at.get(s))
                .map_or_else(|| format!("{path}::{function}"), |id| (*id).to_string())
        };
        let selectors = |keep: &dyn Fn(&Target) -> bool| -> Vec<Selector> {
            targets
                .iter()
                .filter(|t| keep(t))
                .map(|t| Selector::Span {
                    start: t.function.span.start_byte,
                    end: t.function.span.end_byte,
                })
                .collect()
        };
        // Read as the localization read it: on its tree when it parsed the
        // file whole; else (`parse_file` with the instance's language hint;
        // a large file chunk by chunk) by the skeleton.
        let tree = images.get(*path).and_then(|k| k.file.as_ref());
        let run = |sel: &[Selector]| -> Result<codethread_skeleton::Skeleton, ChainError> {
            match tree {
                Some(file) => skeletonize(file, sel, &options),
                None => skeletonize_path(Path::new(path), before.clone(), sel, &options)
                    .map_err(unwrap_file),
            }
            .map_err(|source| ChainError::Skeleton {
                instance_id: id.clone(),
                path: (*path).to_string(),
                source,
            })
        };
        let mut sk = run(&selectors(&|_| true))?;
        // A stub known not to compile is not written: the target is listed in
        // `not_stubbed` with the warning, and the others are planned again.
        let refused: Vec<(Option<Range<usize>>, &str, Warning)> = sk
            .edits
            .iter()
            .filter_map(|e| {
                e.warnings
                    .iter()
                    .find(|w| w.breaks_build())
                    .map(|w| (e.span.clone(), e.function.as_str(), *w))
            })
            .collect();
        if !refused.is_empty() {
            let refused_spans: HashSet<Range<usize>> =
                refused.iter().filter_map(|(s, _, _)| s.clone()).collect();
            for (span, f, w) in &refused {
                out.not_stubbed.push((
                    id_of(span, f),
                    NotStubbed::WouldNotCompile {
                        code: w.code().to_string(),
                        warning: w.to_string(),
                    },
                ));
            }
            sk = run(&selectors(&|t| !refused_spans.contains(&span_of(t))))?;
        }
        let edited: HashSet<Range<usize>> =
            sk.edits.iter().filter_map(|e| e.span.clone()).collect();
        // Each stub's line in PR0: its line in the original, moved by the
        // lines the stubs before it removed.
        let mut edits: Vec<&codethread_skeleton::Edit> = sk.edits.iter().collect();
        edits.sort_by_key(|e| e.start_byte);
        let mut shift: isize = 0;
        for e in edits {
            // An import made blank (`line` 0) is no target.
            if e.line > 0 {
                let line = (e.line as isize + shift).max(1) as usize;
                out.lines.insert(id_of(&e.span, &e.function), line);
            }
            let removed = before
                .get(e.start_byte..e.end_byte)
                .map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
            let added = e.replacement.bytes().filter(|&c| c == b'\n').count();
            shift += added as isize - removed as isize;
        }
        for e in &sk.edits {
            for w in &e.warnings {
                out.warnings.push(format!(
                    "{}: {}: {w}",
                    id_of(&e.span, &e.function),
                    w.code()
                ));
            }
        }
        for s in &sk.skipped {
            out.not_stubbed.push((
                id_of(&s.span, &s.function),
                NotStubbed::Skipped(s.reason.clone()),
            ));
        }
        let not_stubbed: HashSet<&str> = out.not_stubbed.iter().map(|(x, _)| x.as_str()).collect();
        let mut stubbed = Vec::new();
        for t in targets {
            if edited.contains(&span_of(t)) || !not_stubbed.contains(t.target_id.as_str()) {
                // Stubbed, or nested in a stubbed target: removed with it.
                stubbed.push(t.target_id.clone());
            }
        }
        out.stubbed.extend(stubbed);
        if !sk.is_unchanged() {
            out.skeletons.insert((*path).to_string(), sk.text);
        }
    }
    if out.skeletons.is_empty()
        && !out.not_stubbed.is_empty()
        && out
            .not_stubbed
            .iter()
            .all(|(_, why)| why.would_not_compile())
    {
        return Err(ChainError::NoCompilingStub {
            instance_id: id.clone(),
            not_stubbed: out.not_stubbed,
        });
    }
    if out.skeletons.is_empty() {
        return Err(ChainError::NoStub {
            instance_id: id.clone(),
            not_stubbed: out.not_stubbed,
        });
    }
    let changes: Vec<FileChange<'_>> = out
        .skeletons
        .iter()
        .filter_map(|(p, after)| {
            Some(FileChange::new(
                p.as_bytes(),
                Some(loc.before.get(p)?.as_slice()),
                Some(after.as_slice()),
            ))
        })
        .collect();
    let patch =
        diff_files(&changes, &DiffOptions::default()).map_err(|source| ChainError::Diff {
            instance_id: id.clone(),
            what: "PR0",
            source,
        })?;
    out.patch = patch.to_bytes();
    Ok(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod not_stubbed_tests {
    use super::NotStubbed;
    use codethread_skeleton::SkipReason;

    /// The typed reasons print as the summaries always printed them, and only a stub that
    /// would not compile counts as one.
    #[test]
    fn reasons_are_typed_and_print_as_before() {
        let w = NotStubbed::WouldNotCompile {
            code: "cpp_deduced_return".into(),
            warning: "auto return type".into(),
        };
        assert_eq!(
            w.to_string(),
            r#"WouldNotCompile("cpp_deduced_return": auto return type)"#
        );
        assert!(w.would_not_compile());
        let s = NotStubbed::Skipped(SkipReason::ParseError("x".into()));
        assert_eq!(s.to_string(), r#"ParseError("x")"#);
        assert!(!s.would_not_compile());
        assert_eq!(
            NotStubbed::Skipped(SkipReason::NoBody).to_string(),
            "NoBody"
        );
    }
}
