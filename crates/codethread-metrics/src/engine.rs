//! The engine: files in, one record per function out (plus file totals).

use std::path::{Path, PathBuf};

use codethread_lang::io::{read_regular, IoError, DEFAULT_MAX_FILE_BYTES};
use codethread_lang::{
    index_flat, FlatNode as Node, FlatTree, Function, Lang, LangError, ParsedFile,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

#[path = "rules/functions.rs"]
mod functions;

pub(crate) use functions::{
    function_set, DeclaratorNaming, FunctionSet, GoNaming, Kinds, Naming, Source,
};

use crate::{lloc, FnCtx, Halstead, Profile};

/// Errors of the metrics engine; each names the file it is about.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// The file (or directory) could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file's extension is not a supported language.
    #[error("{}: unsupported file type (no metrics language for this extension)", path.display())]
    Unsupported {
        /// The file.
        path: PathBuf,
    },
    /// The parser failed (grammar load or aborted parse; syntax errors are
    /// not errors, see [`FunctionMetrics::parse_errors`]).
    #[error("{}: cannot parse: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: LangError,
    },
    /// The file was refused before it was read: not a regular file (FIFO,
    /// device, directory) or larger than the limit (the error names the
    /// file and, for the limit, the flag that raises it).
    #[error(transparent)]
    Refused(#[from] IoError),
    /// The file starts with a UTF-16 byte order mark: refused, not
    /// transcoded (byte offsets and lines would no longer be the file's).
    #[error("{}: UTF-16 text (byte order mark {bom}) is not measured; convert it to UTF-8", path.display())]
    Utf16 {
        /// The file.
        path: PathBuf,
        /// The mark, `FF FE` or `FE FF`.
        bom: &'static str,
    },
    /// The file holds a NUL byte: binary content with a source extension.
    #[error("{}: binary content (NUL byte at offset {offset}) is not measured", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// Offset of the first NUL byte.
        offset: usize,
    },
}

impl MetricsError {
    /// The file or directory the error is about.
    pub fn path(&self) -> &Path {
        match self {
            MetricsError::Read { path, .. }
            | MetricsError::Unsupported { path }
            | MetricsError::Parse { path, .. }
            | MetricsError::Utf16 { path, .. }
            | MetricsError::Binary { path, .. } => path,
            MetricsError::Refused(e) => e.path(),
        }
    }
}

/// Refuse bytes that are not source text: a UTF-16 byte order mark or a NUL
/// byte (see `docs/metrics.md`).
///
/// # Errors
/// [`MetricsError::Utf16`] or [`MetricsError::Binary`] naming `path`.
pub fn check_text(path: &Path, bytes: &[u8]) -> Result<(), MetricsError> {
    let bom = match bytes {
        [0xFF, 0xFE, ..] => Some("FF FE"),
        [0xFE, 0xFF, ..] => Some("FE FF"),
        _ => None,
    };
    if let Some(bom) = bom {
        return Err(MetricsError::Utf16 {
            path: path.to_path_buf(),
            bom,
        });
    }
    if let Some(offset) = bytes.iter().position(|&b| b == 0) {
        return Err(MetricsError::Binary {
            path: path.to_path_buf(),
            offset,
        });
    }
    Ok(())
}

/// Halstead values of one function, as serialized (`n1`, `n2`, `N1`, `N2`,
/// `vocabulary`, `length`, `volume`, `difficulty`, `effort`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct HalsteadValues {
    /// Distinct operators.
    pub n1: u64,
    /// Distinct operands.
    pub n2: u64,
    /// Total operators.
    #[serde(rename = "N1")]
    pub big_n1: u64,
    /// Total operands.
    #[serde(rename = "N2")]
    pub big_n2: u64,
    /// n1 + n2.
    pub vocabulary: u64,
    /// N1 + N2.
    pub length: u64,
    /// length · log2(vocabulary).
    pub volume: f64,
    /// (n1 / 2) · (N2 / n2).
    pub difficulty: f64,
    /// difficulty · volume.
    pub effort: f64,
}

impl From<Halstead> for HalsteadValues {
    fn from(h: Halstead) -> Self {
        HalsteadValues {
            n1: h.n1,
            n2: h.n2,
            big_n1: h.big_n1,
            big_n2: h.big_n2,
            vocabulary: h.vocabulary(),
            length: h.length(),
            volume: h.volume(),
            difficulty: h.difficulty(),
            effort: h.effort(),
        }
    }
}

/// The metrics of one function. A metric is `None` when the profile's tool
/// does not report it for that kind of function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionMetrics {
    /// The file, relative to the directory argument (or as given).
    pub path: String,
    /// The language.
    pub language: Lang,
    /// The name, as the profile's tool names it (Python `f`, Go `(*T).M`,
    /// `anonymous__0`, rust-code-analysis `<anonymous>`).
    pub name: String,
    /// The qualified name under the conventions of `docs/target-rules.md`
    /// (`Class.method`, `outer.inner`, Go `Type.method`, ...), from the
    /// codethread-lang function index: the key that joins a record to a
    /// target id `path::qualname`.
    #[serde(default)]
    pub qualname: String,
    /// The join key: the target id `chain targets` writes and
    /// `codethread_skeleton::Selector::Qualname` reads, `path::qualname`
    /// with `#n` when the qualname is not unique in the file
    /// ([`codethread_lang::Function::target_id`] of the codethread-lang
    /// index of the file, as `chain targets` parses it). `None` (`null`)
    /// only for a record that is no target function under
    /// `docs/target-rules.md`: an anonymous function or a declaration without a
    /// body (paper profile), or a lizard function the index does not have;
    /// such a record says why in [`FunctionMetrics::notes`].
    #[serde(default)]
    pub target_id: Option<String>,
    /// Canonical profile: the `target_id` of the enclosing record whose
    /// cognitive complexity already includes this record's (a nested named
    /// function, counted into its enclosing function as the whitepaper
    /// counts it); file totals of cognitive complexity skip such records.
    /// `None` for outermost functions and under the paper profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nested_in: Option<String>,
    /// The kind, as the profile's reference names it (Python
    /// `function|method|closure`, Go `function|method|func_literal`,
    /// rust-code-analysis `function`).
    pub kind: String,
    /// 1-based first line of the function's own node (decorators, attributes
    /// and doc comments excluded).
    pub line: usize,
    /// 1-based last line of the function's own node.
    pub end_line: usize,
    /// Cyclomatic complexity.
    pub cyclomatic: Option<u32>,
    /// Cognitive complexity.
    pub cognitive: Option<u32>,
    /// Halstead counts and derived values.
    pub halstead: Option<HalsteadValues>,
    /// Logical lines of code.
    pub lloc: Option<u32>,
    /// ERROR / MISSING nodes inside the function (0 for a clean parse).
    pub parse_errors: usize,
    /// Index of the enclosing reported function in [`FileMetrics::functions`].
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<usize>,
    /// 0-based rank among the file's records with the same
    /// `(line, end_line, name)`, in source pre-order: the key the parity
    /// tests use to join records to the reference tools' rows (which name
    /// functions the tool's way). It is *not* the `#n` of target ids (a
    /// 1-based rank among same-qualname functions): join records to targets
    /// on [`FunctionMetrics::target_id`].
    pub occurrence: usize,
    /// Machine-readable remarks on the record, e.g. why a metric is `None`
    /// (`cognitive/halstead/lloc not reported: the paper used lizard CCN
    /// only for this language`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl FunctionMetrics {
    /// The CSV header matching [`FunctionMetrics::csv_row`].
    pub fn csv_header() -> &'static str {
        "path,language,name,qualname,target_id,kind,line,end_line,cyclomatic,cognitive,n1,n2,N1,N2,vocabulary,length,volume,difficulty,effort,lloc,parse_errors,notes"
    }

    /// One CSV row (RFC 4180 quoting; empty fields for `None`; `notes`
    /// joined with `; `).
    pub fn csv_row(&self) -> String {
        fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
            v.map(|x| x.to_string()).unwrap_or_default()
        }
        fn quote(s: &str) -> String {
            if s.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        }
        let h = self.halstead;
        [
            quote(&self.path),
            self.language.name().to_string(),
            quote(&self.name),
            quote(&self.qualname),
            quote(self.target_id.as_deref().unwrap_or_default()),
            quote(&self.kind),
            self.line.to_string(),
            self.end_line.to_string(),
            opt(self.cyclomatic),
            opt(self.cognitive),
            opt(h.map(|h| h.n1)),
            opt(h.map(|h| h.n2)),
            opt(h.map(|h| h.big_n1)),
            opt(h.map(|h| h.big_n2)),
            opt(h.map(|h| h.vocabulary)),
            opt(h.map(|h| h.length)),
            opt(h.map(|h| h.volume)),
            opt(h.map(|h| h.difficulty)),
            opt(h.map(|h| h.effort)),
            opt(self.lloc),
            self.parse_errors.to_string(),
            quote(&self.notes.join("; ")),
        ]
        .join(",")
    }
}

/// Per-file totals. Sums skip `None` values; a metric whose per-function
/// value already includes nested functions (see docs/metrics.md) is summed
/// over outermost records only, so nothing is counted twice. A metric the
/// profile does not report for the language (C++, Ruby, PHP: only lizard's
/// CCN) has no total (`None`), never a 0.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct FileTotals {
    /// Number of function records.
    pub functions: usize,
    /// Sum of cyclomatic complexity.
    pub cyclomatic: u64,
    /// Sum of cognitive complexity (`None`: not reported for the language).
    pub cognitive: Option<u64>,
    /// Sum of Halstead volume (`None`: not reported for the language).
    pub halstead_volume: Option<f64>,
    /// Sum of LLOC (`None`: not reported for the language).
    pub lloc: Option<u64>,
}

/// The metrics of one file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileMetrics {
    /// The file, relative to the directory argument (or as given).
    pub path: String,
    /// The language.
    pub language: Lang,
    /// The profile used.
    pub profile: Profile,
    /// ERROR / MISSING nodes in the whole file.
    pub parse_errors: usize,
    /// 1-based line and column (byte) of the first ERROR / MISSING node:
    /// functions inside such nodes are not found, so a file with errors is
    /// a warning of the `metrics` example, never silently short of records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_error: Option<(usize, usize)>,
    /// One record per reported function, in source pre-order.
    pub functions: Vec<FunctionMetrics>,
    /// File totals.
    pub totals: FileTotals,
}

/// Metrics of an already parsed file. `path` is only copied into the records.
///
/// A tree parsed with another grammar than the one the profile's tool reads
/// the language with (a C file parsed with the C grammar, where the paper
/// profile's rust-code-analysis uses a C++ grammar: see [`parse_for`]) is
/// parsed again with that grammar first, so every caller gets the tool's
/// values.
pub fn analyze_parsed(path: &str, file: &ParsedFile, profile: Profile) -> FileMetrics {
    if profile == Profile::Canonical {
        return crate::canonical::analyze(path, file);
    }
    let want = function_set(profile, file.lang)
        .grammar
        .unwrap_or(file.lang);
    if file.grammar != want {
        if let Ok(reparsed) =
            codethread_lang::parse_with_grammar(file.lang, want, file.source.clone())
        {
            return analyze_tree(path, &reparsed, profile);
        }
    }
    analyze_tree(path, file, profile)
}

/// [`analyze_parsed`] on the tree as given.
fn analyze_tree(path: &str, file: &ParsedFile, profile: Profile) -> FileMetrics {
    let set = function_set(profile, file.lang);
    if let Source::Lizard(table) = set.source {
        // The tree is only used to give the records the index's qualnames
        // and target ids.
        let index = target_index(file, None);
        return crate::lizard::file_metrics(
            path,
            file.lang,
            file.code(),
            profile,
            table,
            Some(&index),
        );
    }
    let flat = FlatTree::new(file);
    let index = codethread_lang::index_flat_with(
        file,
        &flat,
        codethread_lang::IndexOptions {
            keep_bodiless: set.bodiless,
        },
    );
    let mut records: Vec<FunctionMetrics> = Vec::new();
    // Position of each index entry among the records (None: not reported).
    let mut record_of: Vec<Option<usize>> = vec![None; index.len()];
    let mut anonymous_counter = 0usize;
    // rust-code-analysis LLOC is additive over nested functions: computed
    // for the whole file below, in one pass.
    let additive_lloc = crate::lloc::is_additive(profile, file.lang);
    let mut nodes: Vec<Node<'_>> = Vec::new();
    // Index entry of each record.
    let mut funcs: Vec<usize> = Vec::new();
    for (i, func) in index.iter().enumerate() {
        if !set.node_kinds.contains(&func.node_kind) || (set.require_body && func.body.is_none()) {
            continue;
        }
        let Some(node) = flat.function_node(func) else {
            continue;
        };
        let parent_node = node.parent();
        let cand = Candidate {
            node,
            parent: parent_node,
            grandparent: parent_node.and_then(|p| p.parent()),
        };
        let cand = &cand;
        let node = cand.node;
        let ctx = FnCtx {
            file,
            func,
            node,
            index: &index,
            profile,
        };
        let parent = enclosing_record(&index, &record_of, func);
        let name = record_name(set, file, func, cand, &mut anonymous_counter);
        let kind = record_kind(set, func, node, parent.is_some());
        let line = func.node.start_line;
        let end_line = func.node.end_line;
        record_of[i] = Some(records.len());
        nodes.push(node);
        funcs.push(i);
        records.push(FunctionMetrics {
            path: path.to_string(),
            language: file.lang,
            name,
            qualname: func.qualname.clone(),
            kind: kind.to_string(),
            line,
            end_line,
            // Filled in below, innermost functions first.
            cyclomatic: None,
            cognitive: None,
            halstead: None,
            lloc: if additive_lloc { None } else { lloc(&ctx) },
            parse_errors: count_errors(node),
            parent,
            occurrence: 0,
            notes: Vec::new(),
            target_id: None,
            nested_in: None,
        });
    }
    // The join key: ids of the index `chain targets` builds (this one when
    // it is the same; Java lists bodiless declarations, C is read with the
    // C++ grammar here).
    let same = !set.bodiless
        && file.grammar == file.lang
        && (file.parse_errors == 0 || file.lang.fallback_grammars().is_empty());
    let other;
    let ids: &[Function] = if same {
        &index
    } else {
        other = target_index(file, None);
        &other
    };
    let funcs_of: Vec<&Function> = funcs.iter().filter_map(|&i| index.get(i)).collect();
    let constant = constant_notes(profile, file.lang);
    for (r, id) in records
        .iter_mut()
        .zip(match_target_ids(path, &funcs_of, ids))
    {
        match id {
            Ok(id) => r.target_id = Some(id),
            Err(note) => r.notes.push(note.to_string()),
        }
        r.notes.extend(constant.iter().cloned());
    }
    // Cyclomatic, cognitive and Halstead in reverse pre-order, so that a
    // function's walk can reuse the sums of the functions nested in it
    // (values unchanged; see `cyclomatic::Memo`).
    let mut cc_memo = crate::cyclomatic::Memo::default();
    let mut cog_memo = crate::cognitive::Memo::default();
    let mut hal_memo = crate::halstead::Memo::default();
    for ((r, &node), &i) in records.iter_mut().zip(&nodes).zip(&funcs).rev() {
        let Some(func) = index.get(i) else {
            continue;
        };
        let ctx = FnCtx {
            file,
            func,
            node,
            index: &index,
            profile,
        };
        r.cyclomatic = crate::cyclomatic::cyclomatic_memo_ctx(&ctx, &mut cc_memo);
        r.cognitive = crate::cognitive::cognitive_memo_ctx(&ctx, &mut cog_memo);
        r.halstead =
            crate::halstead::halstead_memo_ctx(&ctx, &mut hal_memo).map(HalsteadValues::from);
    }
    if additive_lloc {
        let parents: Vec<Option<usize>> = records.iter().map(|r| r.parent).collect();
        match crate::lloc::lloc_nested_sums(profile, file.lang, &nodes, &parents) {
            Some(values) => {
                for (r, v) in records.iter_mut().zip(values) {
                    r.lloc = Some(v);
                }
            }
            None => {
                for ((r, &node), &i) in records.iter_mut().zip(&nodes).zip(&funcs) {
                    let Some(func) = index.get(i) else {
                        continue;
                    };
                    let ctx = FnCtx {
                        file,
                        func,
                        node,
                        index: &index,
                        profile,
                    };
                    r.lloc = lloc(&ctx);
                }
            }
        }
    }
    assign_occurrences(&mut records);
    let totals = totals(set, &records);
    FileMetrics {
        path: path.to_string(),
        language: file.lang,
        profile,
        parse_errors: file.parse_errors,
        first_error: if file.parse_errors > 0 {
            first_error(flat.root())
        } else {
            None
        },
        functions: records,
        totals,
    }
}

/// Parse `source` as `lang` with the grammar `profile`'s tool reads it with
/// (the language's own, except C under [`Profile::Paper`]:
/// rust-code-analysis parses C with a C++ grammar, so the tree is
/// tree-sitter-cpp's while [`ParsedFile::lang`] stays C). Analysing the
/// result with [`analyze_parsed`] reproduces the tool.
///
/// # Errors
/// As [`codethread_lang::parse`].
pub fn parse_for(
    profile: Profile,
    lang: Lang,
    source: impl Into<Vec<u8>>,
) -> Result<ParsedFile, LangError> {
    let grammar = function_set(profile, lang).grammar.unwrap_or(lang);
    let file = codethread_lang::parse_with_grammar(lang, grammar, source)?;
    // The canonical profile reads the tree `chain targets` reads (C/C++
    // macros masked where that removes errors: `codethread_lang::tolerant`),
    // so its ids join the targets; the paper profile keeps the reference
    // tools' plain parse.
    Ok(match profile {
        Profile::Canonical => codethread_lang::tolerant(file),
        Profile::Paper => file,
    })
}

/// Parse `source` as `lang` (see [`parse_for`]) and compute its metrics.
///
/// # Errors
/// [`MetricsError::Parse`] when the parser fails (never for syntax errors).
pub fn analyze_source(
    path: &str,
    lang: Lang,
    source: impl Into<Vec<u8>>,
    profile: Profile,
) -> Result<FileMetrics, MetricsError> {
    let source = source.into();
    if let Source::Lizard(table) = function_set(profile, lang).source {
        return Ok(lizard_with_index(path, lang, source, profile, table));
    }
    let file = parse_for(profile, lang, source).map_err(|source| MetricsError::Parse {
        path: PathBuf::from(path),
        source,
    })?;
    Ok(analyze_parsed(path, &file, profile))
}

/// Read, parse and measure one file; `label` is the path written into the
/// records.
///
/// # Errors
/// [`MetricsError::Unsupported`] for an extension with no language,
/// [`MetricsError::Read`] when the file cannot be read, and
/// [`MetricsError::Parse`] when the parser fails.
pub fn analyze_file(
    path: &Path,
    label: &str,
    profile: Profile,
) -> Result<FileMetrics, MetricsError> {
    analyze_file_limited(path, label, profile, DEFAULT_MAX_FILE_BYTES)
}

/// [`analyze_file`] reading at most `max_file_bytes` (only regular files
/// are read: [`codethread_lang::io::read_regular`]).
///
/// # Errors
/// As [`analyze_file`]; [`MetricsError::Refused`] for a file that is not
/// regular or too large, [`MetricsError::Utf16`] and
/// [`MetricsError::Binary`] for bytes that are not source text.
pub fn analyze_file_limited(
    path: &Path,
    label: &str,
    profile: Profile,
    max_file_bytes: u64,
) -> Result<FileMetrics, MetricsError> {
    analyze_file_hinted(path, label, profile, max_file_bytes, None)
}

/// [`analyze_file_limited`] with a repository-level language `hint`
/// ([`Lang::for_source`]: with `Some(Lang::Cpp)` every C-family file is
/// C++, with `Some(Lang::C)` `.c` and `.h` are C; without one `.h` is C++
/// when its text has a C++-only construct).
///
/// # Errors
/// As [`analyze_file_limited`].
pub fn analyze_file_hinted(
    path: &Path,
    label: &str,
    profile: Profile,
    max_file_bytes: u64,
    hint: Option<Lang>,
) -> Result<FileMetrics, MetricsError> {
    let lang = Lang::from_path(path).ok_or_else(|| MetricsError::Unsupported {
        path: path.to_path_buf(),
    })?;
    let bytes = read_regular(path, max_file_bytes).map_err(|e| match e {
        // An operating-system error is a read error, as before.
        IoError::Io { path, source } => MetricsError::Read { path, source },
        refused => MetricsError::Refused(refused),
    })?;
    check_text(path, &bytes)?;
    let lang = Lang::for_source(path, &bytes, hint).unwrap_or(lang);
    if let Source::Lizard(table) = function_set(profile, lang).source {
        // lizard reads tokens, not a tree; the tree only names the records.
        return Ok(lizard_with_index(label, lang, bytes, profile, table));
    }
    let file = parse_for(profile, lang, bytes).map_err(|source| MetricsError::Parse {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(analyze_parsed(label, &file, profile))
}

/// lizard's records of `source`, named (class-qualified `qualname`,
/// `target_id`) from the codethread-lang index of the file as `chain
/// targets` parses it ([`parse_for_names`]). A file the parser cannot read
/// within its budget gets lizard's names, no target ids and a note.
fn lizard_with_index(
    path: &str,
    lang: Lang,
    source: Vec<u8>,
    profile: Profile,
    table: &'static crate::lizard::LizardLang,
) -> FileMetrics {
    // Data after a halting statement (PHP `__halt_compiler();`) is not
    // code: neither lizard's reader nor the naming parse sees it.
    let mut source = source;
    source.truncate(codethread_lang::code_end(lang, &source));
    match parse_for_names(lang, &source) {
        Some(file) => {
            let index = target_index(&file, None);
            crate::lizard::file_metrics(path, lang, &source, profile, table, Some(&index))
        }
        None => {
            let mut m = crate::lizard::file_metrics(path, lang, &source, profile, table, None);
            for r in &mut m.functions {
                if let Some(n) = r.notes.iter_mut().find(|n| *n == NO_ID_UNINDEXED) {
                    *n = NO_ID_PARSE_BUDGET.to_string();
                }
            }
            m
        }
    }
}

/// tree-sitter operations allowed per source byte (plus
/// [`NAME_PARSE_BASE_OPS`]) when a file of a lizard language is parsed only
/// to name its records. Every file of the fmt, jekyll and carbon corpora
/// parses within it (`tests/join_targets.rs`); error recovery on
/// adversarial input (a line of a million unterminated strings) is
/// superlinear, and lizard's token reader is linear, so the names must not
/// cost more than the measurement.
const NAME_PARSE_OPS_PER_BYTE: u64 = 16;
/// The budget's constant part (small files), in operations and in bytes
/// read.
const NAME_PARSE_BASE_OPS: u64 = 1_000_000;
/// Bytes the lexer may read per source byte (it reads a byte again on each
/// re-lex after an error).
const NAME_PARSE_READS_PER_BYTE: u64 = 32;
/// Bytes handed to the lexer per read.
const NAME_PARSE_CHUNK: usize = 4096;

/// Why a record has no target id: its file was not parsed within the
/// budget of [`parse_for_names`].
pub(crate) const NO_ID_PARSE_BUDGET: &str = "no target_id: the file could not be parsed within the naming budget (16 tree-sitter operations and 32 bytes read per byte); names are lizard's";

thread_local! {
    static NAME_PARSERS: std::cell::RefCell<std::collections::HashMap<Lang, codethread_lang::tree_sitter::Parser>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// `codethread_lang::parse(lang, source)` (the grammar `chain targets`
/// reads a C++, Ruby or PHP file with: these languages have no fallback
/// grammar), cancelled deterministically after
/// `NAME_PARSE_BASE_OPS + NAME_PARSE_OPS_PER_BYTE * len` parser operations
/// (tree-sitter's progress callback, called every 100 operations). `None`
/// when cancelled or when the grammar cannot be loaded.
pub(crate) fn parse_for_names(lang: Lang, source: &[u8]) -> Option<ParsedFile> {
    let budget = NAME_PARSE_BASE_OPS
        .saturating_add(NAME_PARSE_OPS_PER_BYTE.saturating_mul(source.len() as u64))
        / 100;
    let tree = NAME_PARSERS.with(|cell| {
        let mut map = cell.borrow_mut();
        let parser = match map.entry(lang) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut p = codethread_lang::tree_sitter::Parser::new();
                p.set_language(&lang.ts_language()?).ok()?;
                v.insert(p)
            }
        };
        parser.reset();
        let len = source.len();
        let read_budget = NAME_PARSE_BASE_OPS
            .saturating_add(NAME_PARSE_READS_PER_BYTE.saturating_mul(len as u64));
        let served = std::cell::Cell::new(0u64);
        let exhausted = std::cell::Cell::new(false);
        let mut checks = 0u64;
        let mut progress = |_: &codethread_lang::tree_sitter::ParseState| -> bool {
            checks = checks.saturating_add(1);
            checks > budget || exhausted.get()
        };
        let options =
            codethread_lang::tree_sitter::ParseOptions::new().progress_callback(&mut progress);
        // The lexer reads through this callback, in chunks: the bytes it
        // has read bound its work (an unterminated literal on a long line
        // makes error recovery re-lex to the line's end again and again).
        let mut read = |i: usize, _| -> &[u8] {
            if i >= len || exhausted.get() {
                return &[];
            }
            let end = i.saturating_add(NAME_PARSE_CHUNK).min(len);
            let total = served.get().saturating_add((end - i) as u64);
            if total > read_budget {
                exhausted.set(true);
                return &[];
            }
            served.set(total);
            &source[i..end]
        };
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        if tree.is_none() || exhausted.get() {
            // A cancelled parse leaves state behind: the next one starts anew.
            parser.reset();
            return None;
        }
        tree
    })?;
    let parse_errors = codethread_lang::count_errors(tree.root_node());
    // Named as `chain targets` names them: with the macro mask where it
    // removes errors (lizard's values do not depend on this tree).
    Some(codethread_lang::tolerant(ParsedFile {
        lang,
        grammar: lang,
        source: source.to_vec(),
        tree,
        parse_errors,
        // The caller cut the source at the end of its code.
        code_end: source.len(),
    }))
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
    profile: Profile,
) -> Vec<Result<FileMetrics, MetricsError>> {
    analyze_inputs_limited(inputs, profile, DEFAULT_MAX_FILE_BYTES)
}

/// [`analyze_inputs`] reading files of at most `max_file_bytes`.
pub fn analyze_inputs_limited(
    inputs: &[Input],
    profile: Profile,
    max_file_bytes: u64,
) -> Vec<Result<FileMetrics, MetricsError>> {
    analyze_inputs_hinted(inputs, profile, max_file_bytes, None)
}

/// [`analyze_inputs_limited`] with a repository-level language hint
/// ([`analyze_file_hinted`]).
pub fn analyze_inputs_hinted(
    inputs: &[Input],
    profile: Profile,
    max_file_bytes: u64,
    hint: Option<Lang>,
) -> Vec<Result<FileMetrics, MetricsError>> {
    inputs
        .par_iter()
        .map(|i| analyze_file_hinted(&i.path, &i.label, profile, max_file_bytes, hint))
        .collect()
}

/// [`collect_inputs`] then [`analyze_inputs`]: walk errors first, then one
/// result per file in deterministic order.
pub fn analyze_paths(
    roots: &[PathBuf],
    profile: Profile,
) -> Vec<Result<FileMetrics, MetricsError>> {
    analyze_paths_limited(roots, profile, DEFAULT_MAX_FILE_BYTES)
}

/// [`analyze_paths`] reading files of at most `max_file_bytes`.
pub fn analyze_paths_limited(
    roots: &[PathBuf],
    profile: Profile,
    max_file_bytes: u64,
) -> Vec<Result<FileMetrics, MetricsError>> {
    analyze_paths_hinted(roots, profile, max_file_bytes, None)
}

/// [`analyze_paths_limited`] with a repository-level language hint
/// ([`analyze_file_hinted`]).
pub fn analyze_paths_hinted(
    roots: &[PathBuf],
    profile: Profile,
    max_file_bytes: u64,
    hint: Option<Lang>,
) -> Vec<Result<FileMetrics, MetricsError>> {
    let (inputs, errors) = collect_inputs(roots);
    let mut out: Vec<Result<FileMetrics, MetricsError>> = errors.into_iter().map(Err).collect();
    out.extend(analyze_inputs_hinted(
        &inputs,
        profile,
        max_file_bytes,
        hint,
    ));
    out
}

/// A tree node of a reported kind, with its parent and grandparent.
#[derive(Clone, Copy)]
struct Candidate<'t> {
    node: Node<'t>,
    parent: Option<Node<'t>>,
    grandparent: Option<Node<'t>>,
}

/// The nearest enclosing function that is itself reported.
fn enclosing_record(
    index: &[Function],
    record_of: &[Option<usize>],
    func: &Function,
) -> Option<usize> {
    let mut p = func.parent;
    while let Some(i) = p {
        if let Some(r) = record_of.get(i).copied().flatten() {
            return Some(r);
        }
        p = index.get(i).and_then(|f| f.parent);
    }
    None
}

fn record_name(
    set: &FunctionSet,
    file: &ParsedFile,
    func: &Function,
    cand: &Candidate<'_>,
    anon: &mut usize,
) -> String {
    let node = cand.node;
    match set.naming {
        Naming::Radon => {
            let own = node
                .child_by_field_name("name")
                .map(|n| file.text_lossy(n).into_owned())
                .unwrap_or_else(|| func.name.clone());
            match (&func.kind, &func.impl_type) {
                (codethread_lang::FunctionKind::Method, Some(class)) => format!("{class}.{own}"),
                _ => own,
            }
        }
        Naming::Rca { from_parent } => rca_name(file, cand, from_parent),
        Naming::RcaDeclarator(d) => declarator_name(file, node, d),
        Naming::GoTools(g) => go_name(file, cand, g, anon),
    }
}

fn rca_name(
    file: &ParsedFile,
    cand: &Candidate<'_>,
    from_parent: &[(&'static str, &'static str)],
) -> String {
    if let Some(n) = cand.node.child_by_field_name("name") {
        return file.text_lossy(n).into_owned();
    }
    if let Some(p) = cand.parent {
        let kind = crate::kinds::kind_of(p);
        let field = from_parent
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, f)| *f);
        if let Some(n) = field.and_then(|f| p.child_by_field_name(f)) {
            return file.text_lossy(n).into_owned();
        }
    }
    "<anonymous>".to_string()
}

fn declarator_name(file: &ParsedFile, node: Node<'_>, d: &DeclaratorNaming) -> String {
    let text = |n: Node<'_>| file.text_lossy(n).into_owned();
    if let Some(cast) = node
        .children()
        .find(|c| crate::kinds::kind_of(c) == d.operator_cast)
    {
        return text(cast);
    }
    let Some(declarator) = node.child_by_field_name(d.field) else {
        return String::new();
    };
    // The first function declarator in pre-order (the declarator itself
    // included); its subtree is a contiguous range of the flat tree.
    let found = declarator
        .descendants()
        .find(|n| d.function_declarators.contains(&crate::kinds::kind_of(n)));
    found
        .and_then(|f| f.children().next())
        .filter(|c| d.name_kinds.contains(&crate::kinds::kind_of(c)))
        .map(text)
        .unwrap_or_default()
}

fn go_name(file: &ParsedFile, cand: &Candidate<'_>, g: &GoNaming, anon: &mut usize) -> String {
    let node = cand.node;
    if crate::kinds::kind_of(node) == g.literal {
        // lizard names `var x [T] = func...` after the variable.
        let var = cand
            .parent
            .filter(|p| crate::kinds::kind_of(p) == g.var_parent)
            .and(cand.grandparent)
            .filter(|p| crate::kinds::kind_of(p) == g.var_spec)
            .and_then(|p| p.child_by_field_name("name"));
        return match var {
            Some(n) => file.text_lossy(n).into_owned(),
            None => {
                let name = format!("anonymous__{anon}");
                *anon += 1;
                name
            }
        };
    }
    let name = node
        .child_by_field_name("name")
        .map(|n| file.text_lossy(n).into_owned())
        .unwrap_or_default();
    let recv_type = node
        .child_by_field_name(g.receiver_field)
        .and_then(|r| {
            r.named_children()
                .find(|n| crate::kinds::kind_of(n) == g.receiver_param)
        })
        .and_then(|p| p.child_by_field_name(g.type_field));
    match recv_type {
        Some(t) => format!("({}).{name}", go_recv(file, t, g)),
        None => name,
    }
}

/// gocognit's receiver string: `*` for pointers, the bare type name (type
/// arguments dropped), `BADRECV` for anything else.
fn go_recv(file: &ParsedFile, t: Node<'_>, g: &GoNaming) -> String {
    let mut prefix = String::new();
    let mut t = t;
    loop {
        let kind = crate::kinds::kind_of(t);
        let next = if kind == g.pointer {
            prefix.push('*');
            t.named_children().next()
        } else if kind == g.generic {
            t.child_by_field_name(g.type_field)
        } else if kind == g.type_name {
            return format!("{prefix}{}", file.text_lossy(t));
        } else {
            None
        };
        match next {
            Some(i) => t = i,
            None => return format!("{prefix}BADRECV"),
        }
    }
}

fn record_kind(set: &FunctionSet, func: &Function, node: Node<'_>, nested: bool) -> &'static str {
    match set.kinds {
        Kinds::ByNode(table) => {
            let kind = crate::kinds::kind_of(node);
            table
                .iter()
                .find(|(k, _)| *k == kind)
                .map_or("function", |(_, r)| *r)
        }
        Kinds::PythonAst => {
            if nested {
                "closure"
            } else if func.kind == codethread_lang::FunctionKind::Method {
                "method"
            } else {
                "function"
            }
        }
    }
}

pub(crate) fn assign_occurrences(records: &mut [FunctionMetrics]) {
    let mut seen: std::collections::HashMap<(usize, usize, String), usize> =
        std::collections::HashMap::new();
    for r in records.iter_mut() {
        let n = seen
            .entry((r.line, r.end_line, r.name.clone()))
            .or_insert(0);
        r.occurrence = *n;
        *n += 1;
    }
}

pub(crate) fn totals(set: &FunctionSet, records: &[FunctionMetrics]) -> FileTotals {
    let mut t = FileTotals {
        functions: records.len(),
        ..FileTotals::default()
    };
    let nest = set.nesting;
    let (mut cognitive, mut volume, mut lloc) = (0u64, 0f64, 0u64);
    for r in records {
        let outer = r.parent.is_none();
        if outer || !nest.cyclomatic {
            t.cyclomatic += u64::from(r.cyclomatic.unwrap_or(0));
        }
        if outer || !nest.cognitive {
            cognitive += u64::from(r.cognitive.unwrap_or(0));
        }
        if outer || !nest.halstead {
            volume += r.halstead.map_or(0.0, |h| h.volume);
        }
        if outer || !nest.lloc {
            lloc += u64::from(r.lloc.unwrap_or(0));
        }
    }
    // The tree walkers report every metric; lizard's reader only CCN.
    let all = matches!(set.source, Source::Tree);
    t.cognitive = all.then_some(cognitive);
    t.halstead_volume = all.then_some(volume);
    t.lloc = all.then_some(lloc);
    t
}

/// ERROR and MISSING nodes in the subtree of `node` (a contiguous range of
/// the flat tree; only subtrees flagged with errors are scanned).
/// 1-based line and column of the first ERROR / MISSING node in pre-order.
pub(crate) fn first_error(root: Node<'_>) -> Option<(usize, usize)> {
    if !root.has_error() {
        return None;
    }
    root.descendants()
        .find(|n| n.is_error() || n.is_missing())
        .map(|n| {
            let p = n.start_position();
            (p.row + 1, p.column + 1)
        })
}

pub(crate) fn count_errors(node: Node<'_>) -> usize {
    if !node.has_error() {
        return 0;
    }
    node.descendants()
        .filter(|n| n.is_error() || n.is_missing())
        .count()
}

/// The codethread-lang index of `file` as `chain targets` reads the file
/// (`codethread_lang::parse_path_hinted`: the language's own grammar, and
/// for a file with parse errors the fallback grammar with fewer errors), so
/// that [`Function::target_id`] gives the ids of target lists. `flat` is
/// `file`'s flat tree when the caller has one.
pub(crate) fn target_index(file: &ParsedFile, flat: Option<&FlatTree>) -> Vec<Function> {
    let natural = file.grammar == file.lang
        && (file.parse_errors == 0 || file.lang.fallback_grammars().is_empty());
    if natural {
        return match flat {
            Some(flat) => index_flat(file, flat),
            None => index_flat(file, &FlatTree::new(file)),
        };
    }
    let Ok(first) = codethread_lang::parse(file.lang, file.source.clone()) else {
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

/// The target ids of `funcs` (functions of an index of the same file,
/// perhaps built with other options or another grammar) in `ids` (the
/// [`target_index`] of the file): matched on the own node's bytes and
/// qualname, else on its first line and qualname, each id used once.
/// `Err(note)` says why a function has none.
pub(crate) fn match_target_ids(
    path: &str,
    funcs: &[&Function],
    ids: &[Function],
) -> Vec<Result<String, &'static str>> {
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
    let mut out: Vec<Result<String, &'static str>> = Vec::with_capacity(funcs.len());
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
                out.push(Ok(ids[i].target_id(path)));
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
            out[k] = Ok(ids[i].target_id(path));
        }
    }
    out
}

/// The (profile, language, metric) values a profile does not measure, and
/// why: either the record holds `null` (the paper used only lizard's CCN
/// for C++, Ruby and PHP) or the reference tool reports a constant
/// (rust-code-analysis 0.0.25 gives every Java function cognitive 0; the
/// record keeps the tool's 0, as the parity tests require, with a note).
/// `report.md` lists them; the canonical profile measures every metric of
/// every language.
pub const UNMEASURED: &[(Profile, Lang, &str, &str)] = &[
    (
        Profile::Paper,
        Lang::Java,
        "cognitive",
        JAVA_COGNITIVE_CONSTANT,
    ),
    (Profile::Paper, Lang::Cpp, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Cpp, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Cpp, "lloc", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Ruby, "lloc", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "cognitive", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "halstead", LIZARD_ONLY),
    (Profile::Paper, Lang::Php, "lloc", LIZARD_ONLY),
];

const LIZARD_ONLY: &str = "null: the paper used lizard CCN only for this language";

/// The entries of [`UNMEASURED`] for `profile`: (language, metric, why).
pub fn unmeasured(profile: Profile) -> Vec<(Lang, &'static str, &'static str)> {
    UNMEASURED
        .iter()
        .filter(|(p, ..)| *p == profile)
        .map(|&(_, l, m, why)| (l, m, why))
        .collect()
}

/// Notes on every record of a (profile, language) whose value of some
/// metric is a constant of the reference tool ([`UNMEASURED`] entries that
/// are not nulls; the nulls carry their own note).
pub(crate) fn constant_notes(profile: Profile, lang: Lang) -> Vec<String> {
    UNMEASURED
        .iter()
        .filter(|(p, l, _, why)| *p == profile && *l == lang && *why != LIZARD_ONLY)
        .map(|(.., why)| (*why).to_string())
        .collect()
}

/// The note on every Java record of the paper profile.
pub const JAVA_COGNITIVE_CONSTANT: &str = "cognitive is a constant 0, not a measurement: rust-code-analysis 0.0.25 has no Java cognitive rules";
