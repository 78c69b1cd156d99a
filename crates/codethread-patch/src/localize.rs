//! Which files and functions a patch edits, by the rule of
//! `docs/target-rules.md`.

use std::collections::HashMap;
use std::path::Path;

use codethread_lang::{
    index_functions, occurrences, parse_file, ChunkOptions, ChunkParse, ChunkPlan, Function,
    FunctionKind, Lang, LangError, LangParseOptions, PairingExtra, PairingKeyRef, ParseBudget,
    ParsedFile, PerLang, Span,
};
use serde::Serialize;

use crate::apply::{ApplyOptions, FileReport, MemTree};
use crate::error::ApplyError;
use crate::model::{FileOp, Patch};

/// Why a patch could not be localized.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocalizeError {
    /// The patch does not apply to the given pre-images.
    #[error("patch does not apply: {0}")]
    Apply(#[from] ApplyError),
    /// Patch number `index` (0-based) is not a valid diff.
    #[error("patch {index}: {error}")]
    Patch {
        /// Which patch.
        index: usize,
        /// The parse error.
        error: crate::error::ParseError,
    },
    /// A source file could not be parsed at all (grammar failure, not a syntax error).
    #[error("{path}: cannot parse: {message}")]
    Parse {
        /// The file.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// A pre- or post-image of `path` exceeds the parse budget
    /// (`codethread_lang::ParseBudget`): too costly for tree-sitter.
    #[error("{path}: parse of {bytes} bytes exceeds the parse budget of {allowed} {limit}")]
    Budget {
        /// The file.
        path: String,
        /// The image's size.
        bytes: usize,
        /// The limit exceeded.
        limit: codethread_lang::BudgetLimit,
        /// What the budget allowed (in the limit's unit).
        allowed: u64,
    },
}

/// The status of an edited function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FunctionStatus {
    /// Exists before and after (matched by key).
    Modified,
    /// Exists only before (deleted or renamed).
    Removed,
    /// Exists only after (new; not a target).
    Added,
}

/// Why a patch has no target functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NegativeCase {
    /// No `.py/.go/.rs/.js/.mjs/.cjs/.jsx/.ts/.tsx` file touched.
    NonSourceOnly,
    /// Only new functions (and trivial lines) added.
    AddsNewFunctionsOnly,
    /// New functions plus module / impl / class-level code.
    AddsNewFunctionsAndModuleLevelCodeOnly,
    /// Only lines outside any function changed.
    ModuleOrClassLevelChangesOnly,
}

/// One edited function.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EditedFunction {
    /// File path (the new path; the old one for a deleted file).
    pub path: String,
    /// Qualified name (`Class.method`, `outer.inner`, Go `Type.method`, ...).
    pub qualname: String,
    /// Bare name.
    pub name: String,
    /// function / method / nested.
    pub kind: FunctionKind,
    /// Modified, removed or added.
    pub status: FunctionStatus,
    /// Before-span first line (`None` for added).
    pub start: Option<usize>,
    /// Before-span last line.
    pub end: Option<usize>,
    /// After-span first line (`None` for removed).
    pub after_start: Option<usize>,
    /// After-span last line.
    pub after_end: Option<usize>,
    /// Line ending the def header in the before image (after image for added).
    pub header_end: usize,
    /// `-` lines (pre-image numbers) inside the before-span.
    pub changed_lines_before: Vec<usize>,
    /// `+` lines (post-image numbers) inside the after-span.
    pub changed_lines_after: Vec<usize>,
    /// False when every changed line lies inside nested functions.
    pub changed_directly: bool,
    /// Every changed line is blank, comment-only or (Python) docstring.
    pub trivial_only: bool,
    /// A changed line lies between span start and `header_end`.
    pub signature_or_decorator_changed: bool,
    /// Rust trait of a trait impl (part of the matching key).
    pub impl_trait: Option<String>,
    /// JS/TS `get`/`set` (part of the matching key).
    pub accessor: Option<String>,
    /// Rust impl type / class name.
    pub impl_type: Option<String>,
    /// Go receiver text.
    pub receiver: Option<String>,
    /// 1-based rank among same-qualname functions of the file.
    pub occurrence: usize,
    /// Number of same-qualname functions in the file.
    pub dup_count: usize,
    /// Parameter-list part of the pairing key (Java, C, C++; see
    /// [`codethread_lang::Function::params`]).
    pub params: Option<String>,
    /// Ruby singleton method (part of the pairing key).
    pub singleton: bool,
    /// C++ enclosing class with template arguments (part of the pairing key).
    pub class_type: Option<String>,
    /// A modified function whose whole definition is byte for byte the same
    /// after the patch: the patch only moved it (deleted it and added it back
    /// elsewhere). Still a function the patch edits by the line rule; the
    /// chain crate does not stub it. Left out of the JSON when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub moved_unchanged: bool,
}

impl EditedFunction {
    /// `path::qualname`, with `#occurrence` when the qualname is not unique
    /// in its file (the ids of `expected_targets.jsonl`).
    pub fn target_id(&self) -> String {
        if self.dup_count > 1 {
            format!("{}::{}#{}", self.path, self.qualname, self.occurrence)
        } else {
            format!("{}::{}", self.path, self.qualname)
        }
    }
}

/// One edited file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileEdit {
    /// The path (new path; old path for a deletion).
    pub path: String,
    /// Old path when it differs (renames, copies).
    pub old_path: Option<String>,
    /// What the patch does to the file.
    pub op: FileOp,
    /// One of the source extensions of the target rules.
    pub is_source: bool,
    /// Language of the file ([`Lang::name`]: `python`, `go`, `rust`,
    /// `javascript`, `typescript`, `tsx`, `java`, `c`, `cpp`, `ruby`, `php`),
    /// from its extension, the repository hint and, for `.h`, its text
    /// ([`Lang::for_source`]).
    pub language: Option<String>,
    /// Grammar actually used when it differs from `language` (a `.js` file
    /// that parses cleanly only as TypeScript).
    pub grammar: Option<String>,
    /// Binary diff.
    pub binary: bool,
    /// `-` lines, pre-image numbers (where the hunks really applied).
    pub removed_lines: Vec<usize>,
    /// `+` lines, post-image numbers.
    pub added_lines: Vec<usize>,
    /// `-` lines outside every before-image function span.
    pub changed_lines_outside_functions_before: Vec<usize>,
    /// `+` lines outside every after-image function span.
    pub changed_lines_outside_functions_after: Vec<usize>,
    /// Some outside line is not blank / comment / docstring.
    pub nontrivial_outside_functions: bool,
    /// Offset of each hunk (0 = applied where the header said).
    pub hunk_offsets: Vec<isize>,
    /// ERROR/MISSING nodes in the before and after parse.
    pub parse_errors: (usize, usize),
}

/// The edit set of one patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Localization {
    /// Edited files, in patch order.
    pub files: Vec<FileEdit>,
    /// Target functions: modified and removed.
    pub targets: Vec<EditedFunction>,
    /// Functions that exist only after the patch.
    pub added_functions: Vec<EditedFunction>,
    /// Set when `targets` is empty.
    pub negative_case: Option<NegativeCase>,
    /// Notes on uncertain matches (duplicates, removed functions, trivial-only
    /// targets, offsets, syntax errors).
    pub unsure: Vec<String>,
}

impl Localization {
    /// Target ids (`path::qualname[#n]`) of modified and removed functions.
    pub fn target_ids(&self) -> Vec<String> {
        self.targets.iter().map(EditedFunction::target_id).collect()
    }
}

/// The source extensions of `docs/target-rules.md` for a repository of language
/// `hint` (`None`: no repository language): `.py .go .rs .js .mjs .cjs .jsx
/// .ts .tsx .java .rb .php .c .h .cc .cpp .cxx .hpp .hh .hxx` everywhere, and
/// in a C++ repository also `.h++ .c++ .ipp .inl .tpp`.
pub fn is_source_path(path: &str, hint: Option<Lang>) -> bool {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "py" | "go"
            | "rs"
            | "js"
            | "mjs"
            | "cjs"
            | "jsx"
            | "ts"
            | "tsx"
            | "java"
            | "rb"
            | "php"
            | "c"
            | "h"
            | "cc"
            | "cpp"
            | "cxx"
            | "hpp"
            | "hh"
            | "hxx"
    ) || (hint == Some(Lang::Cpp) && matches!(ext, "h++" | "c++" | "ipp" | "inl" | "tpp"))
}

/// A parsed image with its target-rule functions. No tree is kept: the
/// index and the comment and docstring ranges are taken from the parse (of
/// the whole file, or chunk by chunk for a large one: [`ChunkPlan`]) and
/// the trees dropped, so an image costs a small multiple of its bytes.
struct Image<'s> {
    /// The image's bytes (the caller's: a parse works on its own copy,
    /// dropped with the parse).
    source: &'s [u8],
    /// The language it was read as (a fallback grammar's, when one read it
    /// with fewer errors).
    lang: Lang,
    /// ERROR/MISSING nodes of its parse.
    parse_errors: usize,
    funcs: Vec<Rec>,
    /// Per function: the functions whose nearest named ancestor it is,
    /// in source order (their spans do not nest in each other).
    children: Vec<Vec<usize>>,
    /// The functions with no named ancestor, in source order.
    outermost: Vec<usize>,
    /// Per function: its named descendants exactly [`LISTED_DEPTH`] + 1
    /// levels below it, in source order (see [`Image::lines_in`]).
    cut: Vec<Vec<usize>>,
    /// Comment and docstring byte ranges, by start, with the index of the
    /// innermost range enclosing each (see [`Image::trivial_line`]).
    trivia: Vec<(usize, usize, Option<usize>)>,
    /// Per function: its (recomputed) occurrence, dup count, key
    /// occurrence, and how many functions share its pairing key.
    occ: Vec<(usize, usize, usize, usize)>,
    /// The functions in qualname order (for [`Image::name_count`]).
    by_qualname: Vec<usize>,
    line_starts: Vec<usize>,
}

/// What localization reads of an index entry: a [`Function`] without its
/// node and body spans, decorators, macro and generator flags and
/// occurrence numbers (recomputed over the kept functions), its rarely set
/// fields boxed apart. A third of a [`Function`]'s size: an image of many
/// small functions is held for the whole localization of its file, both
/// images at once.
struct Rec {
    name: String,
    qualname: String,
    kind: FunctionKind,
    span: Span,
    /// The header's last line.
    header_end: usize,
    params: Option<String>,
    singleton: bool,
    /// `None` when every field of it would be empty.
    rare: Option<Box<Rare>>,
}

/// The fields of a [`Rec`] most functions leave empty.
#[derive(Default)]
struct Rare {
    receiver: Option<String>,
    impl_type: Option<String>,
    impl_trait: Option<String>,
    accessor: Option<String>,
    class_type: Option<String>,
    notes: Vec<String>,
}

impl From<Function> for Rec {
    fn from(f: Function) -> Rec {
        let rare = Rare {
            receiver: f.receiver,
            impl_type: f.impl_type,
            impl_trait: f.impl_trait,
            accessor: f.accessor,
            class_type: f.class_type,
            notes: f.notes,
        };
        let empty = rare.receiver.is_none()
            && rare.impl_type.is_none()
            && rare.impl_trait.is_none()
            && rare.accessor.is_none()
            && rare.class_type.is_none()
            && rare.notes.is_empty();
        Rec {
            name: f.name,
            qualname: f.qualname,
            kind: f.kind,
            span: f.span,
            header_end: f.header.end_line,
            params: f.params,
            singleton: f.singleton,
            rare: (!empty).then(|| Box::new(rare)),
        }
    }
}

/// The empty [`Rare`] fields of most functions.
static NO_RARE: Rare = Rare {
    receiver: None,
    impl_type: None,
    impl_trait: None,
    accessor: None,
    class_type: None,
    notes: Vec::new(),
};

impl Rec {
    fn rare(&self) -> &Rare {
        self.rare.as_deref().unwrap_or(&NO_RARE)
    }

    /// As [`Function::pairing_key_ref`].
    fn pairing_key_ref(&self) -> PairingKeyRef<'_> {
        let r = self.rare();
        (
            self.qualname.as_str(),
            (
                r.impl_trait.as_deref(),
                r.accessor.as_deref(),
                self.singleton,
                r.class_type.as_deref(),
            ),
            self.params.as_deref(),
        )
    }

    /// As [`Function::pairing_extra`].
    fn pairing_extra(&self) -> PairingExtra {
        let r = self.rare();
        (
            r.impl_trait.clone(),
            r.accessor.clone(),
            self.singleton,
            r.class_type.clone(),
        )
    }
}

/// The functions under the target rules (named, with a body) of an
/// image's index, taken one part at a time (the whole index, or one
/// chunk's): each as a [`Rec`] with its nearest named ancestor among them.
#[derive(Default)]
struct Kept {
    funcs: Vec<Rec>,
    up: Vec<Option<usize>>,
}

impl Kept {
    /// Takes the next part's index (in file order; parents index into it).
    fn push(&mut self, index: Vec<Function>) {
        let mut map: Vec<Option<usize>> = vec![None; index.len()];
        let mut named_up: Vec<Option<usize>> = vec![None; index.len()];
        for (i, f) in index.into_iter().enumerate() {
            // Parents come before their nested functions.
            let up = f
                .parent
                .filter(|&p| p < i)
                .and_then(|p| map.get(p).copied().flatten().or(named_up[p]));
            named_up[i] = up;
            if !f.anonymous && f.body.is_some() {
                map[i] = Some(self.funcs.len());
                self.funcs.push(Rec::from(f));
                self.up.push(up);
            }
        }
    }
}

/// What one parse of an image gives [`Image::new`]: the language read,
/// the error count, the index, the trivia ranges and (when asked for) the
/// image as it was read.
type Parsed = (
    Lang,
    usize,
    Kept,
    Vec<(usize, usize, Option<usize>)>,
    Option<KeptImage>,
);

/// A pre-image as [`localize_keeping`] read it, kept so that a caller
/// building on the localization (stubbing its targets) reads the file from
/// this one parse instead of parsing it again.
#[derive(Debug, Clone)]
pub struct KeptImage {
    /// Every function of the image's index ([`index_functions`]; for an
    /// image read in chunks, the chunks' indexes joined as
    /// [`codethread_lang::join_indexes`] joins them), anonymous ones
    /// included, in file order.
    pub functions: Vec<Function>,
    /// The image's tree when it was parsed whole; `None` for an image read in
    /// chunks ([`LocalizeOptions::chunks`]), whose whole tree was never held.
    pub file: Option<ParsedFile>,
}

/// The pre-images a localization read, by path (the pre-image's path: the
/// old path of a renamed file).
pub type KeptImages = std::collections::BTreeMap<String, KeptImage>;

/// Parse an image as [`parse_file`] does (fallback grammars, then the macro
/// mask) and take its index and trivia: whole, or, for an image of at
/// least `chunks.min_file_bytes`, one chunk of whole top-level units at a
/// time (the indexes joined as `codethread_lang::join_indexes` joins them, the trivia
/// ranges concatenated: a comment never spans two units).
fn parse_image(
    path: &str,
    source: &[u8],
    hint: Option<Lang>,
    budget: &ParseBudget,
    chunks: &ChunkOptions,
    keep: bool,
) -> Result<Parsed, LangError> {
    let whole = |source: Vec<u8>| -> Result<Parsed, LangError> {
        let file = parse_file(
            Path::new(path),
            source,
            &codethread_lang::ParseOptions::default()
                .hint(hint)
                .budget(*budget),
        )?;
        let index = index_functions(&file);
        let trivia = trivia_ranges(&file, true);
        let (lang, errors) = (file.lang, file.parse_errors);
        let image = keep.then(|| KeptImage {
            functions: index.clone(),
            file: Some(file),
        });
        let mut kept = Kept::default();
        kept.push(index);
        Ok((lang, errors, kept, trivia, image))
    };
    if !chunks.applies(source.len()) {
        return whole(source.to_vec());
    }
    let lang =
        Lang::for_source(Path::new(path), source, hint).ok_or_else(|| LangError::Unsupported {
            path: Path::new(path).to_path_buf(),
        })?;
    let mut plan = ChunkPlan::new(
        lang,
        source.to_vec(),
        &LangParseOptions::with_budget(*budget),
        chunks,
    )?;
    let n = plan.chunks().len();
    if n <= 1 {
        return whole(plan.into_source());
    }
    let how = ChunkParse::LIKE_PARSE_FILE;
    let mut kept = Kept::default();
    let mut trivia: Vec<(usize, usize, Option<usize>)> = Vec::new();
    let mut errors = 0usize;
    let mut read_as = lang;
    let mut parts: Vec<Vec<Function>> = Vec::new();
    for i in 0..n {
        // A chunk inside a unit is read with the unit's header and closer
        // (`ChunkPlan::context`): what lies there is another chunk's.
        let own = plan
            .chunks()
            .get(i)
            .map_or(0..usize::MAX, |c| c.start..c.end);
        let part = plan.with_chunk(i, &how, |f| {
            let base = trivia.len();
            let ranges = trivia_ranges(f, i == 0);
            // Indexes of the chunk's own ranges, for the `up` links.
            let mut kept_at: Vec<Option<usize>> = Vec::with_capacity(ranges.len());
            let mut next = base;
            for &(s, e, _) in &ranges {
                if own.contains(&s) || (s == e && s == own.end) {
                    kept_at.push(Some(next));
                    next += 1;
                } else {
                    kept_at.push(None);
                }
            }
            trivia.extend(
                ranges
                    .into_iter()
                    .enumerate()
                    .filter_map(|(k, (s, e, up))| {
                        kept_at[k]?;
                        Some((s, e, up.and_then(|u| kept_at.get(u).copied().flatten())))
                    }),
            );
            errors += f.parse_errors;
            if read_as == lang {
                read_as = f.lang;
            }
            // The chunk's own functions (`ParsedFile::own`).
            index_functions(f)
        })?;
        if let Some(part) = part {
            if keep {
                parts.push(part.clone());
            }
            kept.push(part);
        }
    }
    let image = keep.then(|| KeptImage {
        functions: codethread_lang::join_indexes(parts),
        file: None,
    });
    Ok((read_as, errors, kept, trivia, image))
}

impl<'s> Image<'s> {
    fn new(
        path: &str,
        source: &'s [u8],
        hint: Option<Lang>,
        budget: &ParseBudget,
        chunks: &ChunkOptions,
        keep: Option<&mut KeptImages>,
    ) -> Result<Image<'s>, LocalizeError> {
        let (lang, parse_errors, kept, trivia, image) =
            parse_image(path, source, hint, budget, chunks, keep.is_some()).map_err(
                |e| match e {
                    LangError::Budget {
                        bytes,
                        limit,
                        allowed,
                        ..
                    } => LocalizeError::Budget {
                        path: path.to_string(),
                        bytes,
                        limit,
                        allowed,
                    },
                    e => LocalizeError::Parse {
                        path: path.to_string(),
                        message: e.to_string(),
                    },
                },
            )?;
        if let (Some(images), Some(mut image)) = (keep, image) {
            // Trees are kept up to KEPT_TREE_SOURCE_BYTES of source in all
            // (a tree takes tens of times its source): beyond, only the
            // index is kept and the caller parses that file again.
            let held: usize = images
                .values()
                .filter_map(|k| k.file.as_ref().map(|f| f.source.len()))
                .sum();
            if held.saturating_add(source.len()) > KEPT_TREE_SOURCE_BYTES {
                image.file = None;
            }
            images.entry(path.to_string()).or_insert(image);
        }
        let Kept { mut funcs, up } = kept;
        funcs.shrink_to_fit();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); funcs.len()];
        let mut outermost = Vec::new();
        for (k, u) in up.iter().enumerate() {
            match *u {
                Some(p) => children[p].push(k),
                None => outermost.push(k),
            }
        }
        // The ancestor LISTED_DEPTH + 1 levels up of each function (O(that)
        // per function).
        let mut cut: Vec<Vec<usize>> = vec![Vec::new(); funcs.len()];
        for k in 0..funcs.len() {
            let mut a = up[k];
            for _ in 0..LISTED_DEPTH {
                a = a.and_then(|p| up[p]);
            }
            if let Some(a) = a {
                cut[a].push(k);
            }
        }
        // Occurrences and counts from sorted orders of the functions, not
        // from hash maps of their keys (`codethread_lang::occurrences`).
        let occ: Vec<(usize, usize, usize, usize)> =
            occurrences(funcs.len(), |i| funcs[i].qualname.as_str())
                .into_iter()
                .zip(occurrences(funcs.len(), |i| funcs[i].pairing_key_ref()))
                .map(|((n, dup), (k, key_dups))| (n, dup, k, key_dups))
                .collect();
        let mut by_qualname: Vec<usize> = (0..funcs.len()).collect();
        by_qualname.sort_by(|&a, &b| funcs[a].qualname.cmp(&funcs[b].qualname));
        let mut line_starts = vec![0];
        for (i, &b) in source.iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        Ok(Image {
            source,
            lang,
            parse_errors,
            funcs,
            children,
            outermost,
            cut,
            trivia,
            occ,
            by_qualname,
            line_starts,
        })
    }

    /// Step-1 pairing key: the function's [`PairingKey`] and the n-th
    /// occurrence of that key.
    fn key(&self, i: usize) -> (PairingKeyRef<'_>, usize) {
        (self.funcs[i].pairing_key_ref(), self.occ[i].2)
    }

    /// How many functions of the image share function `i`'s step-1 key.
    fn key_dups(&self, i: usize) -> usize {
        self.occ[i].3
    }

    /// How many functions of the image have qualname `q`: two binary
    /// searches.
    fn name_count(&self, q: &str) -> usize {
        let name = |k: &usize| self.funcs[*k].qualname.as_str();
        let a = self.by_qualname.partition_point(|k| name(k) < q);
        let b = self.by_qualname.partition_point(|k| name(k) <= q);
        b.saturating_sub(a)
    }

    /// Whether one of `set` (functions in source order whose spans do not
    /// nest) contains `line`: a binary search, as their start and end
    /// lines both grow along the list.
    fn any_contains(&self, set: &[usize], line: usize) -> bool {
        let n = set.partition_point(|&k| self.funcs[k].span.start_line <= line);
        n.checked_sub(1)
            .and_then(|i| set.get(i))
            .is_some_and(|&k| self.funcs[k].span.end_line >= line)
    }

    /// The lines of `lines` (sorted) inside function `k`, leaving out those
    /// inside functions nested more than [`LISTED_DEPTH`] named levels
    /// below it: every line is then listed by at most that many enclosing
    /// functions, so the lists grow with the input, whatever the nesting.
    fn lines_in(&self, lines: &[usize], k: usize) -> Vec<usize> {
        let span = &self.funcs[k].span;
        let Some(cut) = self.cut.get(k).filter(|c| !c.is_empty()) else {
            return in_span(lines, span);
        };
        let mut out = Vec::new();
        let mut from = span.start_line;
        for &c in cut {
            let s = &self.funcs[c].span;
            if s.start_line > from {
                out.extend_from_slice(in_lines(lines, from, s.start_line - 1));
            }
            from = from.max(s.end_line + 1);
        }
        if from <= span.end_line {
            out.extend_from_slice(in_lines(lines, from, span.end_line));
        }
        out
    }

    fn in_any_function(&self, line: usize) -> bool {
        self.any_contains(&self.outermost, line)
    }

    /// Lines of `lines` inside a named function nested in function `i`.
    fn in_nested(&self, i: usize, line: usize) -> bool {
        self.any_contains(&self.children[i], line)
    }

    /// Blank, comment-only, or (Python) docstring line: its first to last
    /// non-blank byte lie in the innermost comment or docstring holding its
    /// first non-blank byte.
    fn trivial_line(&self, line: usize) -> bool {
        let src = self.source;
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return true;
        };
        let end = self.line_starts.get(line).copied().unwrap_or(src.len());
        let text = &src[start..end];
        let Some(first) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
            return true;
        };
        let last = text
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .unwrap_or(first);
        let (a, b) = (start + first, start + last + 1);
        let mut at = self
            .trivia
            .partition_point(|&(s, _, _)| s <= a)
            .checked_sub(1);
        while let Some(i) = at {
            let Some(&(_, e, up)) = self.trivia.get(i) else {
                return false;
            };
            if e > a {
                return e >= b;
            }
            at = up;
        }
        false
    }
}

/// The byte ranges of a file's comments and docstrings (the nodes the
/// trivial-line rule looks for), sorted by start, each with the index of the
/// innermost range enclosing it: one walk of the tree, so that every line is
/// then looked up in O(log n). `module_start`: the tree begins at the
/// file's start, so a string opening it can be the module's docstring (a
/// later chunk's first statement is none).
fn trivia_ranges(file: &ParsedFile, module_start: bool) -> Vec<(usize, usize, Option<usize>)> {
    let comment_kinds = file.lang.comment_kinds();
    let docstring = *DOCSTRINGS.get(file.lang);
    let string_kinds = file.lang.info().string_kinds;
    let mut out: Vec<(usize, usize, Option<usize>)> = Vec::new();
    // Ranges still open at the walk's position (a pre-order walk meets
    // enclosing ranges first).
    let mut open: Vec<usize> = Vec::new();
    let mut ancestors = Vec::new();
    let mut cursor = file.root().walk();
    loop {
        let node = cursor.node();
        if comment_kinds.contains(&node.kind())
            || docstring
                .is_some_and(|d| is_docstring(d, string_kinds, node, &ancestors, module_start))
        {
            let (s, e) = (node.start_byte(), node.end_byte());
            while open.last().is_some_and(|&i| out[i].1 <= s) {
                open.pop();
            }
            out.push((s, e, open.last().copied()));
            open.push(out.len() - 1);
        }
        if cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
            ancestors.pop();
        }
    }
}

/// A docstring: a string literal statement that is the first statement of
/// the module or of a body owned by a function or class (the string
/// literal kinds are the grammar's, [`codethread_lang::LangInfo::string_kinds`]).
struct DocstringRule {
    /// The statement kind holding the literal alone.
    statement_kind: &'static str,
    /// The module (file) kind.
    module_kind: &'static str,
    /// The body block kind.
    block_kind: &'static str,
    /// Kinds whose body block can open with a docstring.
    owner_kinds: &'static [&'static str],
}

static PYTHON_DOCSTRING: DocstringRule = DocstringRule {
    statement_kind: "expression_statement",
    module_kind: "module",
    block_kind: "block",
    owner_kinds: &["function_definition", "class_definition"],
};

/// Which lines of a language are trivial besides blank and comment lines
/// (comment kinds are the grammar's, [`Lang::comment_kinds`]): docstrings,
/// where the language has them. One row per language.
static DOCSTRINGS: PerLang<Option<&DocstringRule>> = PerLang::new([
    (Lang::Python, Some(&PYTHON_DOCSTRING)),
    (Lang::Go, None),
    (Lang::Rust, None),
    (Lang::JavaScript, None),
    (Lang::TypeScript, None),
    (Lang::Tsx, None),
    (Lang::Java, None),
    (Lang::C, None),
    (Lang::Cpp, None),
    (Lang::Ruby, None),
    (Lang::Php, None),
]);

/// Whether `node` is a docstring; `ancestors` are its ancestors, innermost
/// last (tree-sitter's `parent()` walks down from the root, which a
/// per-node call cannot afford on a wide file).
fn is_docstring(
    rule: &DocstringRule,
    string_kinds: &[&str],
    node: codethread_lang::tree_sitter::Node<'_>,
    ancestors: &[codethread_lang::tree_sitter::Node<'_>],
    module_start: bool,
) -> bool {
    if !string_kinds.contains(&node.kind()) {
        return false;
    }
    let up = |k: usize| {
        ancestors
            .len()
            .checked_sub(k)
            .and_then(|i| ancestors.get(i))
    };
    let Some(&stmt) = up(1) else {
        return false;
    };
    if stmt.kind() != rule.statement_kind || stmt.named_child_count() != 1 {
        return false;
    }
    let Some(&block) = up(2) else {
        return false;
    };
    let first = block.named_child(0).is_some_and(|c| c.id() == stmt.id());
    let kind = block.kind();
    first
        && ((kind == rule.module_kind && module_start)
            || (kind == rule.block_kind
                && up(3).is_some_and(|p| rule.owner_kinds.contains(&p.kind()))))
}

/// How many named levels of nested functions a function's changed-line
/// lists reach into ([`codethread_lang::MAX_QUALNAME_SCOPES`]): lines deeper
/// inside it are listed by the deeper functions only. Real code never nests
/// that deep; the bound keeps the output linear in the input.
pub const LISTED_DEPTH: usize = codethread_lang::MAX_QUALNAME_SCOPES;

/// The lines of `lines` (sorted) from `first` to `last`: two binary searches.
fn in_lines(lines: &[usize], first: usize, last: usize) -> &[usize] {
    let a = lines.partition_point(|&l| l < first);
    let b = lines.partition_point(|&l| l <= last);
    lines.get(a..b.max(a)).unwrap_or_default()
}

/// The lines of `lines` (sorted) inside `span`.
fn in_span(lines: &[usize], span: &Span) -> Vec<usize> {
    in_lines(lines, span.start_line, span.end_line).to_vec()
}

/// Whether `lines` (sorted) has a line inside `span`.
fn hits(lines: &[usize], span: &Span) -> bool {
    let a = lines.partition_point(|&l| l < span.start_line);
    lines.get(a).is_some_and(|&l| l <= span.end_line)
}

/// `lines` sorted and without repeats (the report's are already).
fn sorted_lines(lines: &[usize]) -> std::borrow::Cow<'_, [usize]> {
    if lines.windows(2).all(|w| w[0] < w[1]) {
        std::borrow::Cow::Borrowed(lines)
    } else {
        let mut v = lines.to_vec();
        v.sort_unstable();
        v.dedup();
        std::borrow::Cow::Owned(v)
    }
}

#[allow(clippy::too_many_arguments)]
fn edited(
    path: &str,
    img: &Image<'_>,
    i: usize,
    status: FunctionStatus,
    before: Option<(&Image<'_>, usize)>,
    after: Option<(&Image<'_>, usize)>,
    removed: &[usize],
    added: &[usize],
) -> EditedFunction {
    let f = &img.funcs[i];
    let cb = before
        .map(|(im, k)| im.lines_in(removed, k))
        .unwrap_or_default();
    let ca = after
        .map(|(im, k)| im.lines_in(added, k))
        .unwrap_or_default();
    let direct_b = before.is_some_and(|(im, k)| cb.iter().any(|&l| !im.in_nested(k, l)));
    let direct_a = after.is_some_and(|(im, k)| ca.iter().any(|&l| !im.in_nested(k, l)));
    let triv_b = before.is_none_or(|(im, _)| cb.iter().all(|&l| im.trivial_line(l)));
    let triv_a = after.is_none_or(|(im, _)| ca.iter().all(|&l| im.trivial_line(l)));
    let sig_b = before.is_some_and(|(im, k)| {
        let g = &im.funcs[k];
        cb.iter()
            .any(|&l| l >= g.span.start_line && l <= g.header_end)
    });
    let sig_a = after.is_some_and(|(im, k)| {
        let g = &im.funcs[k];
        ca.iter()
            .any(|&l| l >= g.span.start_line && l <= g.header_end)
    });
    let (occurrence, dup_count, _, _) = img.occ[i];
    EditedFunction {
        path: path.to_string(),
        qualname: f.qualname.clone(),
        name: f.name.clone(),
        kind: f.kind,
        status,
        start: before.map(|(im, k)| im.funcs[k].span.start_line),
        end: before.map(|(im, k)| im.funcs[k].span.end_line),
        after_start: after.map(|(im, k)| im.funcs[k].span.start_line),
        after_end: after.map(|(im, k)| im.funcs[k].span.end_line),
        header_end: f.header_end,
        changed_directly: direct_b || direct_a,
        trivial_only: triv_b && triv_a && !(cb.is_empty() && ca.is_empty()),
        signature_or_decorator_changed: sig_b || sig_a,
        changed_lines_before: cb,
        changed_lines_after: ca,
        impl_trait: f.rare().impl_trait.clone(),
        accessor: f.rare().accessor.clone(),
        impl_type: f.rare().impl_type.clone(),
        receiver: f.rare().receiver.clone(),
        occurrence,
        dup_count,
        params: f.params.clone(),
        singleton: f.singleton,
        class_type: f.rare().class_type.clone(),
        moved_unchanged: match (before, after) {
            (Some((ib, i)), Some((ia, k))) => {
                let (b, a) = (&ib.funcs[i].span, &ia.funcs[k].span);
                ib.source.get(b.start_byte..b.end_byte) == ia.source.get(a.start_byte..a.end_byte)
            }
            _ => false,
        },
    }
}

/// How [`localize`] reads a patch's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct LocalizeOptions {
    /// The repository's language (an instance's `language` field): decides
    /// which files are sources and their grammar ([`is_source_path`],
    /// [`Lang::for_source`]; with hint C++ every C-family file is C++).
    /// Default `None`.
    pub hint: Option<Lang>,
    /// The budget of every image's parse: an image beyond it fails the
    /// localization with [`LocalizeError::Budget`] naming the file.
    /// Default [`ParseBudget::default`].
    pub budget: ParseBudget,
    /// The largest pre-image [`crate::localize_in_dir`] reads. Default
    /// [`codethread_lang::io::DEFAULT_MAX_FILE_BYTES`].
    pub max_file_bytes: u64,
    /// Which images are parsed in chunks of whole top-level units, one
    /// tree at a time ([`ChunkPlan`]: memory a small multiple of the
    /// image). Default [`ChunkOptions::default`] (images of 1 MB and more);
    /// [`ChunkOptions::NEVER`] parses every image whole.
    pub chunks: ChunkOptions,
}

impl LocalizeOptions {
    /// Sets [`LocalizeOptions::hint`].
    pub fn hint(mut self, hint: Option<Lang>) -> Self {
        self.hint = hint;
        self
    }

    /// Sets [`LocalizeOptions::budget`].
    pub fn budget(mut self, budget: ParseBudget) -> Self {
        self.budget = budget;
        self
    }

    /// Sets [`LocalizeOptions::max_file_bytes`].
    pub fn max_file_bytes(mut self, max_file_bytes: u64) -> Self {
        self.max_file_bytes = max_file_bytes;
        self
    }

    /// Sets [`LocalizeOptions::chunks`].
    pub fn chunks(mut self, chunks: ChunkOptions) -> Self {
        self.chunks = chunks;
        self
    }
}

impl Default for LocalizeOptions {
    fn default() -> Self {
        LocalizeOptions {
            hint: None,
            budget: ParseBudget::default(),
            max_file_bytes: codethread_lang::io::DEFAULT_MAX_FILE_BYTES,
            chunks: ChunkOptions::default(),
        }
    }
}

impl LocalizeOptions {
    /// The default options with a repository language `hint`.
    pub fn with_hint(hint: Option<Lang>) -> Self {
        LocalizeOptions {
            hint,
            ..LocalizeOptions::default()
        }
    }
}

/// Localizes `patch` against the pre-images in `before` (at least every file
/// the patch reads). The patch is applied with git's rules to get the
/// post-images and the real changed line numbers; pre- and post-images of
/// source files are indexed with `codethread_lang::index_functions`, read as
/// `options` says.
pub fn localize(
    before: &MemTree,
    patch: &Patch,
    options: &LocalizeOptions,
) -> Result<Localization, LocalizeError> {
    localize_in(before, patch, options, None)
}

/// How much source [`localize_keeping`] keeps trees of, in all: 2 MB (a
/// tree takes tens of times its source, so a patch over many large files
/// would otherwise hold all their trees at once).
pub const KEPT_TREE_SOURCE_BYTES: usize = 2_000_000;

/// [`localize`], keeping every source pre-image as it was read
/// ([`KeptImage`]: its index, and its tree when parsed whole, up to
/// [`KEPT_TREE_SOURCE_BYTES`] of source in all), so that a caller that goes
/// on to stub the targets parses no pre-image again (a file whose tree was
/// not kept is parsed again).
pub fn localize_keeping(
    before: &MemTree,
    patch: &Patch,
    options: &LocalizeOptions,
) -> Result<(Localization, KeptImages), LocalizeError> {
    let mut images = KeptImages::new();
    let l = localize_in(before, patch, options, Some(&mut images))?;
    Ok((l, images))
}

fn localize_in(
    before: &MemTree,
    patch: &Patch,
    options: &LocalizeOptions,
    mut keep: Option<&mut KeptImages>,
) -> Result<Localization, LocalizeError> {
    // The post-images of the files the patch writes (the tree's other
    // files are not copied).
    let (overlay, report) = crate::apply::apply_with(
        &|p: &[u8]| before.files.get(p).cloned(),
        patch,
        &ApplyOptions::default(),
    )?;
    let mut after = MemTree::new();
    after.files = overlay
        .into_iter()
        .filter_map(|(path, f)| f.map(|f| (path, f)))
        .collect();
    let mut out = Localization {
        files: Vec::new(),
        targets: Vec::new(),
        added_functions: Vec::new(),
        negative_case: None,
        unsure: Vec::new(),
    };
    for (fp, fr) in patch.files.iter().zip(&report.files) {
        localize_file(
            before,
            &after,
            fp,
            fr,
            options,
            keep.as_deref_mut(),
            &mut out,
        )?;
    }
    if out.targets.is_empty() {
        let sources: Vec<&FileEdit> = out.files.iter().filter(|f| f.is_source).collect();
        out.negative_case = Some(if sources.is_empty() {
            NegativeCase::NonSourceOnly
        } else if out.added_functions.is_empty() {
            NegativeCase::ModuleOrClassLevelChangesOnly
        } else if sources.iter().any(|f| f.nontrivial_outside_functions) {
            NegativeCase::AddsNewFunctionsAndModuleLevelCodeOnly
        } else {
            NegativeCase::AddsNewFunctionsOnly
        });
    }
    Ok(out)
}

fn localize_file(
    before: &MemTree,
    after: &MemTree,
    fp: &crate::model::FilePatch,
    fr: &FileReport,
    options: &LocalizeOptions,
    keep: Option<&mut KeptImages>,
    out: &mut Localization,
) -> Result<(), LocalizeError> {
    let (hint, budget, chunks) = (options.hint, &options.budget, &options.chunks);
    let path = fr
        .new_path
        .clone()
        .or_else(|| fr.old_path.clone())
        .unwrap_or_default();
    // Look files up by the patch's byte paths (the report's are labels:
    // UTF-8 as it is, other names quoted with `\xNN` escapes).
    let old_bytes = fr.old_path.as_ref().and(fp.old_path.as_deref());
    let new_bytes = fr.new_path.as_ref().and(fp.new_path.as_deref());
    // The language comes from the name's own bytes, never from its label.
    let name_of = |bytes: Option<&[u8]>, label: &str| match bytes {
        Some(b) => String::from_utf8_lossy(b).into_owned(),
        None => label.to_string(),
    };
    let is_source = is_source_path(&name_of(new_bytes.or(old_bytes), &path), hint);
    let mut fe = FileEdit {
        path: path.clone(),
        old_path: fr.old_path.clone().filter(|p| *p != path),
        op: fr.op,
        is_source,
        language: None,
        grammar: None,
        binary: fp.binary.is_some(),
        removed_lines: fr.removed_lines.clone(),
        added_lines: fr.added_lines.clone(),
        changed_lines_outside_functions_before: Vec::new(),
        changed_lines_outside_functions_after: Vec::new(),
        nontrivial_outside_functions: false,
        hunk_offsets: fr.hunks.iter().map(|h| h.offset).collect(),
        parse_errors: (0, 0),
    };
    if fe.hunk_offsets.iter().any(|&o| o != 0) {
        out.unsure.push(format!(
            "note: git apply used line offsets {:?} for {path} (changed lines shifted accordingly)",
            fe.hunk_offsets
                .iter()
                .filter(|&&o| o != 0)
                .collect::<Vec<_>>()
        ));
    }
    if !is_source || fp.binary.is_some() {
        out.files.push(fe);
        return Ok(());
    }
    let img_b = match &fr.old_path {
        Some(p) => before
            .get(old_bytes.unwrap_or(p.as_bytes()))
            .map(|src| Image::new(&name_of(old_bytes, p), src, hint, budget, chunks, keep))
            .transpose()?,
        None => None,
    };
    let img_a = match &fr.new_path {
        Some(p) => after
            .get(new_bytes.unwrap_or(p.as_bytes()))
            .or_else(|| before.get(new_bytes.unwrap_or(p.as_bytes())))
            .map(|src| Image::new(&name_of(new_bytes, p), src, hint, budget, chunks, None))
            .transpose()?,
        None => None,
    };
    // The file's language: by extension, hint and (for `.h`) content, as
    // the image was parsed before a grammar fallback.
    let ext_lang = img_b
        .as_ref()
        .or(img_a.as_ref())
        .and_then(|im| Lang::for_source(Path::new(&path), im.source, hint))
        .or_else(|| Lang::from_path(Path::new(&path)));
    fe.language = ext_lang.map(|l| l.name().to_string());
    if let Some(used) = img_b.as_ref().or(img_a.as_ref()).map(|im| im.lang) {
        if Some(used) != ext_lang {
            fe.grammar = Some(used.name().to_string());
            out.unsure.push(format!(
                "{path}: parsed with tree-sitter-{} grammar instead of {}",
                used.name(),
                ext_lang.map_or("?", |l| l.name())
            ));
        }
    }
    fe.parse_errors = (
        img_b.as_ref().map_or(0, |im| im.parse_errors),
        img_a.as_ref().map_or(0, |im| im.parse_errors),
    );
    if fe.parse_errors.0 + fe.parse_errors.1 > 0 {
        out.unsure.push(format!(
            "{path}: parsed with {} / {} syntax errors (before / after)",
            fe.parse_errors.0, fe.parse_errors.1
        ));
    }
    let removed = &*sorted_lines(&fr.removed_lines);
    let added = &*sorted_lines(&fr.added_lines);
    // Pair before/after functions. Step 1: equal pairing key (qualname,
    // extra, parameter list) and n-th occurrence of that key. Step 2: the
    // functions still unpaired with equal (qualname, extra), in source
    // order (a function whose parameter list changed).
    let after_by_key: HashMap<_, usize> = img_a
        .as_ref()
        .map(|im| (0..im.funcs.len()).map(|k| (im.key(k), k)).collect())
        .unwrap_or_default();
    let n_before = img_b.as_ref().map_or(0, |im| im.funcs.len());
    let mut matched_after = vec![false; img_a.as_ref().map_or(0, |im| im.funcs.len())];
    let mut pair: Vec<Option<usize>> = vec![None; n_before];
    let mut by_position = vec![false; n_before];
    if let (Some(ib), Some(_)) = (&img_b, &img_a) {
        for (i, p) in pair.iter_mut().enumerate() {
            if let Some(&k) = after_by_key.get(&ib.key(i)) {
                *p = Some(k);
                matched_after[k] = true;
            }
        }
    }
    if let (Some(ib), Some(ia)) = (&img_b, &img_a) {
        let mut left: HashMap<(&str, PairingExtra), std::collections::VecDeque<usize>> =
            HashMap::new();
        for (k, f) in ia.funcs.iter().enumerate() {
            if !matched_after[k] {
                left.entry((f.qualname.as_str(), f.pairing_extra()))
                    .or_default()
                    .push_back(k);
            }
        }
        for i in 0..n_before {
            if pair[i].is_some() {
                continue;
            }
            let f = &ib.funcs[i];
            if let Some(k) = left
                .get_mut(&(f.qualname.as_str(), f.pairing_extra()))
                .and_then(|q| q.pop_front())
            {
                pair[i] = Some(k);
                matched_after[k] = true;
                by_position[i] = true;
            }
        }
    }
    // Step 3: a function still unpaired whose whole definition is in the after-image byte for
    // byte, under the same name, as a function still unpaired (its enclosing class or module
    // was renamed, or it moved into another scope): the same function, unchanged. It pairs
    // with the first such after-function in source order and is flagged `moved_unchanged`
    // (never stubbed), instead of counting as removed. Candidates are bucketed by name and
    // length, so bytes are compared only between definitions of equal length.
    let mut by_scope = vec![false; n_before];
    if let (Some(ib), Some(ia)) = (&img_b, &img_a) {
        let mut left: HashMap<(&str, usize), Vec<usize>> = HashMap::new();
        for (k, f) in ia.funcs.iter().enumerate() {
            if !matched_after[k] {
                left.entry((f.name.as_str(), f.span.end_byte - f.span.start_byte))
                    .or_default()
                    .push(k);
            }
        }
        for i in 0..n_before {
            if pair[i].is_some() {
                continue;
            }
            let f = &ib.funcs[i];
            let bytes = ib.source.get(f.span.start_byte..f.span.end_byte);
            let Some(cands) = left.get_mut(&(f.name.as_str(), f.span.end_byte - f.span.start_byte))
            else {
                continue;
            };
            let found = cands.iter().position(|&k| {
                let g = &ia.funcs[k];
                bytes.is_some() && ia.source.get(g.span.start_byte..g.span.end_byte) == bytes
            });
            if let Some(at) = found {
                let k = cands.remove(at);
                pair[i] = Some(k);
                matched_after[k] = true;
                by_scope[i] = true;
            }
        }
    }
    if let Some(ib) = &img_b {
        for i in 0..ib.funcs.len() {
            let a = img_a.as_ref().and_then(|ia| pair[i].map(|k| (ia, k)));
            let hit_b = hits(removed, &ib.funcs[i].span);
            let hit_a = a.is_some_and(|(ia, k)| hits(added, &ia.funcs[k].span));
            let status = if a.is_some() {
                FunctionStatus::Modified
            } else {
                FunctionStatus::Removed
            };
            if !(hit_b || hit_a || status == FunctionStatus::Removed) {
                continue;
            }
            let e = edited(&path, ib, i, status, Some((ib, i)), a, removed, added);
            let id = e.target_id();
            let f = &ib.funcs[i];
            let key_dups = ib.key_dups(i).max(a.map_or(1, |(ia, k)| ia.key_dups(k)));
            if by_position[i] {
                let after_count = img_a.as_ref().map_or(0, |ia| ia.name_count(&f.qualname));
                if e.dup_count > 1 || after_count > 1 {
                    out.unsure.push(format!(
                        "{id}: qualname occurs {} times in before, {after_count} times in after; \
                         matched before/after by position among same-named functions after the \
                         parameter list changed",
                        e.dup_count
                    ));
                }
            } else if f.params.is_some() && key_dups > 1 {
                out.unsure.push(format!(
                    "{id}: qualname occurs {} times in file; matched before/after by parameter \
                     list, then occurrence order",
                    e.dup_count
                ));
            } else if f.params.is_none() && e.dup_count > 1 {
                out.unsure.push(format!(
                    "{id}: qualname occurs {} times in file; matched before/after by occurrence order",
                    e.dup_count
                ));
            }
            for note in &f.rare().notes {
                out.unsure.push(format!("{id}: before: {note}"));
            }
            if let Some((ia, k)) = a {
                for note in &ia.funcs[k].rare().notes {
                    out.unsure.push(format!("{id}: after: {note}"));
                }
            }
            if status == FunctionStatus::Removed {
                out.unsure
                    .push(format!("{id}: only in before: deleted or renamed"));
            }
            if e.trivial_only {
                out.unsure.push(format!(
                    "{id} counts as target only through blank/comment/docstring line changes"
                ));
            }
            if by_scope[i] {
                if let Some((ia, k)) = a {
                    out.unsure.push(format!(
                        "{id}: unchanged under another scope after the patch ({}): moved, not edited",
                        ia.funcs[k].qualname
                    ));
                }
            }
            out.targets.push(e);
        }
    }
    if let Some(ia) = &img_a {
        for (k, &matched) in matched_after.iter().enumerate() {
            if !matched {
                out.added_functions.push(edited(
                    &path,
                    ia,
                    k,
                    FunctionStatus::Added,
                    None,
                    Some((ia, k)),
                    removed,
                    added,
                ));
            }
        }
    }
    fe.changed_lines_outside_functions_before = match &img_b {
        Some(ib) => removed
            .iter()
            .copied()
            .filter(|&l| !ib.in_any_function(l))
            .collect(),
        None => Vec::new(),
    };
    fe.changed_lines_outside_functions_after = match &img_a {
        Some(ia) => added
            .iter()
            .copied()
            .filter(|&l| !ia.in_any_function(l))
            .collect(),
        None => Vec::new(),
    };
    fe.nontrivial_outside_functions = img_b.as_ref().is_some_and(|ib| {
        fe.changed_lines_outside_functions_before
            .iter()
            .any(|&l| !ib.trivial_line(l))
    }) || img_a.as_ref().is_some_and(|ia| {
        fe.changed_lines_outside_functions_after
            .iter()
            .any(|&l| !ia.trivial_line(l))
    });
    out.files.push(fe);
    Ok(())
}
