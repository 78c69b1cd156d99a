//! The engine: files in, one record per function out (plus file totals).
//! One function per job: bytes ([`analyze_source`]), a parsed tree
//! ([`analyze_parsed`]), one file ([`analyze_file`]), many files
//! ([`analyze_inputs`]), files and directories ([`analyze_paths`]); the
//! settings in one [`AnalyzeOptions`].

use std::path::{Path, PathBuf};

use codethread_lang::io::{read_regular, IoError, DEFAULT_MAX_FILE_BYTES};
use codethread_lang::{ChunkOptions, Lang, LangError, ParseBudget, ParsedFile};
use rayon::prelude::*;

use crate::backend::Backend;
use crate::error::{check_text, MetricsError};
use crate::model::FileMetrics;
use crate::naming::{parse_for_names, NAMING_BUDGET, NO_ID_PARSE_BUDGET, NO_ID_PARSE_FAILED};
use crate::profile::Profile;
use crate::targets::{target_index, NO_ID_UNINDEXED};
use codethread_rules::paper::LizardTables;

/// How to measure: the profile, a repository-level language hint, the file
/// size limit and the parse budgets. `AnalyzeOptions::default()` is the
/// paper profile, no hint, [`DEFAULT_MAX_FILE_BYTES`], the default
/// [`ParseBudget`] and [`NAMING_BUDGET`].
///
/// ```
/// use codethread_metrics::{AnalyzeOptions, Lang, Profile};
///
/// let opts = AnalyzeOptions::new(Profile::Canonical)
///     .with_hint(Some(Lang::Cpp))
///     .with_max_file_bytes(1 << 20);
/// assert_eq!(opts.profile, Profile::Canonical);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct AnalyzeOptions {
    /// The rule set.
    pub profile: Profile,
    /// A repository-level language hint ([`Lang::for_source`]: with
    /// `Some(Lang::Cpp)` every C-family file is C++, with `Some(Lang::C)`
    /// `.c` and `.h` are C; without one `.h` is C++ when its text has a
    /// C++-only construct). Files only; [`analyze_source`] is given its
    /// language.
    pub hint: Option<Lang>,
    /// Files larger than this are refused ([`MetricsError::Refused`]);
    /// only regular files are read ([`codethread_lang::io::read_regular`]).
    pub max_file_bytes: u64,
    /// The budget of the parse the metrics are computed on
    /// ([`LangError::Budget`] in [`MetricsError::Parse`] when exceeded).
    pub budget: ParseBudget,
    /// The budget of the parse that only names the records of a file the
    /// paper profile measures with lizard's token reader (C++, Ruby, PHP);
    /// a file beyond it keeps lizard's names, no target ids and a note.
    pub naming_budget: ParseBudget,
    /// When a file is parsed and measured in chunks of whole top-level
    /// units instead of one tree ([`ChunkOptions`]: files of at least
    /// 1 MB by default; [`ChunkOptions::NEVER`] parses every file whole).
    /// A top-level unit over [`ChunkOptions::max_unit_tokens`] is a
    /// [`MetricsError::Parse`] with [`codethread_lang::BudgetLimit::Unit`]
    /// (for a C++, Ruby or PHP file under the paper profile, whose tree only
    /// names lizard's records: lizard's names and a note).
    pub chunks: ChunkOptions,
}

impl AnalyzeOptions {
    /// Sets [`AnalyzeOptions::profile`].
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions::new(Profile::Paper)
    }
}

impl AnalyzeOptions {
    /// The defaults with `profile`.
    pub fn new(profile: Profile) -> Self {
        AnalyzeOptions {
            profile,
            hint: None,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            budget: ParseBudget::default(),
            naming_budget: NAMING_BUDGET,
            chunks: ChunkOptions::default(),
        }
    }

    /// With chunk options (when files are parsed in chunks).
    #[must_use]
    pub fn with_chunks(self, chunks: ChunkOptions) -> Self {
        AnalyzeOptions { chunks, ..self }
    }

    /// With a repository-level language hint.
    #[must_use]
    pub fn with_hint(self, hint: Option<Lang>) -> Self {
        AnalyzeOptions { hint, ..self }
    }

    /// With a file size limit.
    #[must_use]
    pub fn with_max_file_bytes(self, max_file_bytes: u64) -> Self {
        AnalyzeOptions {
            max_file_bytes,
            ..self
        }
    }

    /// With the budget of the measured parse.
    #[must_use]
    pub fn with_budget(self, budget: ParseBudget) -> Self {
        AnalyzeOptions { budget, ..self }
    }

    /// With the budget of the naming parse.
    #[must_use]
    pub fn with_naming_budget(self, naming_budget: ParseBudget) -> Self {
        AnalyzeOptions {
            naming_budget,
            ..self
        }
    }
}

/// Metrics of an already parsed file. `path` is only copied into the records.
///
/// A tree parsed with another grammar than the one the profile's tool reads
/// the language with (a C file parsed with the C grammar, where the paper
/// profile's rust-code-analysis uses a C++ grammar: see [`parse_for`]) is
/// parsed again with that grammar first, so every caller gets the tool's
/// values. Under the paper profile a C++, Ruby or PHP tree only names
/// lizard's records.
pub fn analyze_parsed(path: &str, file: &ParsedFile, profile: Profile) -> FileMetrics {
    let backend = Backend::of(profile, file.lang);
    match backend {
        Backend::Canonical(t) => crate::canonical::analyze(path, file, t),
        Backend::Lizard(l) => {
            // The tree only gives the records the index's qualnames and
            // target ids.
            let index = crate::lizard::named(target_index(file, None));
            crate::lizard::file_metrics(
                path,
                file.lang,
                file.code(),
                profile,
                l.reader,
                Some(&index),
            )
        }
        Backend::Tree(t) => {
            let want = backend.grammar(file.lang);
            if file.grammar != want {
                // The join key's index before the tool's tree (one extra
                // tree at a time).
                let ids = crate::targets::reparsed_index(file.lang, &file.source);
                if let Ok(reparsed) = codethread_lang::parse_lang(
                    file.lang,
                    file.source.clone(),
                    &codethread_lang::LangParseOptions::default().grammar(Some(want)),
                ) {
                    return crate::paper::analyze_tree(path, &reparsed, t, Some(ids));
                }
            }
            crate::paper::analyze_tree(path, file, t, None)
        }
    }
}

/// Parse `source` as `lang` with the grammar `profile`'s tool reads it with
/// (the language's own, except C under [`Profile::Paper`]:
/// rust-code-analysis parses C with a C++ grammar, so the tree is
/// tree-sitter-cpp's while [`ParsedFile::lang`] stays C), under the default
/// [`ParseBudget`]. Analysing the result with [`analyze_parsed`] reproduces
/// the tool.
///
/// # Errors
/// As [`codethread_lang::parse`].
pub fn parse_for(
    profile: Profile,
    lang: Lang,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    parse_budgeted(profile, lang, source.into(), &ParseBudget::default())
}

/// [`parse_for`] under `budget`.
fn parse_budgeted(
    profile: Profile,
    lang: Lang,
    source: Vec<u8>,
    budget: &ParseBudget,
) -> Result<ParsedFile, LangError> {
    let grammar = Backend::of(profile, lang).grammar(lang);
    let file = codethread_lang::parse_lang(
        lang,
        source,
        &codethread_lang::LangParseOptions::default()
            .grammar(Some(grammar))
            .budget(*budget),
    )?;
    // The canonical profile reads the tree `chain targets` reads (C/C++
    // macros masked where that removes errors: `codethread_lang::tolerant`),
    // so its ids join the targets; the paper profile keeps the reference
    // tools' plain parse.
    Ok(match profile {
        Profile::Canonical => codethread_lang::tolerant(file),
        Profile::Paper => file,
    })
}

/// The metrics of `source`, the bytes of a `lang` file; `path` is written
/// into the records. `opts.hint` and `opts.max_file_bytes` do not apply
/// (no file is read).
///
/// # Errors
/// [`MetricsError::Parse`] when the parser fails or exceeds `opts.budget`
/// (never for syntax errors).
pub fn analyze_source(
    path: &str,
    lang: Lang,
    source: impl Into<Vec<u8>>,
    opts: &AnalyzeOptions,
) -> Result<FileMetrics, MetricsError> {
    measure_bytes(Path::new(path), path, lang, source.into(), opts)
}

/// Bytes of a file (`path` names it in errors) to records labelled `label`.
fn measure_bytes(
    path: &Path,
    label: &str,
    lang: Lang,
    source: Vec<u8>,
    opts: &AnalyzeOptions,
) -> Result<FileMetrics, MetricsError> {
    let backend = Backend::of(opts.profile, lang);
    if let Backend::Lizard(l) = backend {
        // lizard reads tokens, not a tree; the tree only names the records.
        return Ok(lizard_with_index(label, lang, source, l, opts));
    }
    let parse_error = |source| MetricsError::Parse {
        path: path.to_path_buf(),
        source,
    };
    let source = if opts.chunks.applies(source.len()) {
        match crate::chunked::measure(label, lang, source, backend, &opts.budget, &opts.chunks)
            .map_err(parse_error)?
        {
            crate::chunked::Outcome::Measured(m) => return Ok(m),
            crate::chunked::Outcome::Whole(source) => source,
        }
    } else {
        source
    };
    // A tool that reads the language with another grammar (C with the C++
    // one) gets its records' join key from the language's own parse: that
    // index is built, and its tree dropped, before the tool's tree exists.
    let ids = match backend {
        Backend::Tree(_) if backend.grammar(lang) != lang => {
            Some(crate::targets::reparsed_index(lang, &source))
        }
        _ => None,
    };
    let file = parse_budgeted(opts.profile, lang, source, &opts.budget).map_err(parse_error)?;
    Ok(match (backend, ids) {
        (Backend::Tree(t), Some(ids)) => crate::paper::analyze_tree(label, &file, t, Some(ids)),
        _ => analyze_parsed(label, &file, opts.profile),
    })
}

/// Read, parse and measure one file; `label` is the path written into the
/// records. Only regular files of at most `opts.max_file_bytes` are read;
/// the language comes from the path and, for `.h`, `opts.hint` and the text
/// ([`Lang::for_source`]).
///
/// # Errors
/// [`MetricsError::Unsupported`] for an extension with no language,
/// [`MetricsError::Read`] when the file cannot be read,
/// [`MetricsError::Refused`] for a file that is not regular or too large,
/// [`MetricsError::Utf16`] and [`MetricsError::Binary`] for bytes that are
/// not source text, and [`MetricsError::Parse`] when the parser fails.
pub fn analyze_file(
    path: &Path,
    label: &str,
    opts: &AnalyzeOptions,
) -> Result<FileMetrics, MetricsError> {
    let lang = Lang::from_path(path).ok_or_else(|| MetricsError::Unsupported {
        path: path.to_path_buf(),
    })?;
    let bytes = read_regular(path, opts.max_file_bytes).map_err(|e| match e {
        // An operating-system error is a read error, as before.
        IoError::Io { path, source } => MetricsError::Read { path, source },
        refused => MetricsError::Refused(refused),
    })?;
    check_text(path, &bytes)?;
    let lang = Lang::for_source(path, &bytes, opts.hint).unwrap_or(lang);
    measure_bytes(path, label, lang, bytes, opts)
}

/// lizard's records of `source`, named (class-qualified `qualname`,
/// `target_id`) from the codethread-lang index of the file as `chain
/// targets` parses it, under `opts.naming_budget`. A file the parser
/// cannot read within it gets lizard's names, no target ids and a note.
fn lizard_with_index(
    path: &str,
    lang: Lang,
    source: Vec<u8>,
    l: &'static LizardTables,
    opts: &AnalyzeOptions,
) -> FileMetrics {
    // Data after a halting statement (PHP `__halt_compiler();`) is not
    // code: neither lizard's reader nor the naming parse sees it.
    let mut source = source;
    source.truncate(codethread_lang::code_end(lang, &source));
    let profile = opts.profile;
    // Above the chunk threshold the naming parse goes chunk by chunk.
    let index = if opts.chunks.applies(source.len()) {
        crate::chunked::naming_index(lang, &source, &opts.naming_budget, &opts.chunks).transpose()
    } else {
        None
    };
    let index = match index {
        Some(index) => index,
        None => parse_for_names(lang, &source, &opts.naming_budget).map(|f| {
            let errors = crate::chunked::Errors {
                count: f.parse_errors,
                first: codethread_lang::first_error(f.tree.root_node()),
            };
            (crate::lizard::named(target_index(&f, None)), errors)
        }),
    };
    match index {
        Ok((index, errors)) => {
            // lizard's reader sees no syntax: the file's errors are those of its naming parse
            // (the grammar, macro-masked as the canonical profile reads it), so `--strict`
            // and the warnings see a broken C++, Ruby or PHP file too.
            let mut m =
                crate::lizard::file_metrics(path, lang, &source, profile, l.reader, Some(&index));
            m.parse_errors = errors.count;
            m.first_error = errors.first;
            m
        }
        Err(e) => {
            let note = match e {
                LangError::Budget { .. } => NO_ID_PARSE_BUDGET,
                _ => NO_ID_PARSE_FAILED,
            };
            let mut m = crate::lizard::file_metrics(path, lang, &source, profile, l.reader, None);
            for r in &mut m.functions {
                if let Some(n) = r.notes.iter_mut().find(|n| *n == NO_ID_UNINDEXED) {
                    *n = note.to_string();
                }
            }
            m
        }
    }
}

/// A file to measure and the path to write into its records.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Input {
    /// The file on disk.
    pub path: PathBuf,
    /// The label: relative to the directory argument (no leading `./`), or
    /// the file argument as given.
    pub label: String,
}

/// Expand files and directories into the supported source files below them.
///
/// Directories are walked recursively (iteratively; symbolic links to
/// directories are not followed; dot-files are included) and keep only files
/// of a supported language; a file named explicitly is always kept (an
/// unsupported one fails later, with its path). Inputs come back sorted by
/// label within each argument, arguments in the order given.
pub fn collect_inputs(roots: &[PathBuf]) -> (Vec<Input>, Vec<MetricsError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for root in roots {
        let (files, walk_errors) = codethread_lang::source_files(root);
        errors.extend(walk_errors.into_iter().map(|e| MetricsError::Read {
            path: e.path,
            source: e.source,
        }));
        if !root.is_dir() {
            inputs.extend(files.into_iter().map(|path| Input {
                path,
                label: codethread_lang::path_label(root),
            }));
            continue;
        }
        let mut found: Vec<Input> = files
            .into_iter()
            .map(|path| {
                let rel = path.strip_prefix(root).unwrap_or(&path);
                let label = codethread_lang::path_label(rel);
                Input { path, label }
            })
            .collect();
        found.sort();
        inputs.extend(found);
    }
    (inputs, errors)
}

/// Measure every input in parallel (rayon); results come back in input
/// order, one per input, errors included (one bad file never hides the rest).
pub fn analyze_inputs(
    inputs: &[Input],
    opts: &AnalyzeOptions,
) -> Vec<Result<FileMetrics, MetricsError>> {
    inputs
        .par_iter()
        .map(|i| analyze_file(&i.path, &i.label, opts))
        .collect()
}

/// [`collect_inputs`] then [`analyze_inputs`]: walk errors first, then one
/// result per file in deterministic order.
pub fn analyze_paths(
    roots: &[PathBuf],
    opts: &AnalyzeOptions,
) -> Vec<Result<FileMetrics, MetricsError>> {
    let (inputs, errors) = collect_inputs(roots);
    let mut out: Vec<Result<FileMetrics, MetricsError>> = errors.into_iter().map(Err).collect();
    out.extend(analyze_inputs(&inputs, opts));
    out
}
