//! The record model: what the engine returns for a file and for each of
//! its functions, and the file totals.

use codethread_lang::Lang;
use codethread_rules::functions::Nesting;
use codethread_rules::RecordKind;
use serde::{Deserialize, Serialize};

use crate::profile::Profile;

/// Halstead base counts of one function.
///
/// ```
/// use codethread_metrics::Halstead;
/// let h = Halstead { n1: 2, n2: 3, big_n1: 4, big_n2: 6 };
/// assert_eq!(h.vocabulary(), 5);
/// assert_eq!(h.length(), 10);
/// assert!((h.volume() - 10.0 * 5f64.log2()).abs() < 1e-12);
/// assert!((h.difficulty() - 2.0).abs() < 1e-12);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Halstead {
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
}

impl Halstead {
    /// n1 + n2.
    pub fn vocabulary(&self) -> u64 {
        self.n1 + self.n2
    }
    /// N1 + N2.
    pub fn length(&self) -> u64 {
        self.big_n1 + self.big_n2
    }
    /// length · log2(vocabulary) (0 when the vocabulary is 0).
    pub fn volume(&self) -> f64 {
        let n = self.vocabulary();
        if n == 0 {
            0.0
        } else {
            self.length() as f64 * (n as f64).log2()
        }
    }
    /// (n1 / 2) · (N2 / n2) (0 when n2 is 0).
    pub fn difficulty(&self) -> f64 {
        if self.n2 == 0 {
            0.0
        } else {
            (self.n1 as f64 / 2.0) * (self.big_n2 as f64 / self.n2 as f64)
        }
    }
    /// difficulty · volume.
    pub fn effort(&self) -> f64 {
        self.difficulty() * self.volume()
    }
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
    /// rust-code-analysis `function`; the canonical profile
    /// `function|method|nested`).
    pub kind: RecordKind,
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
            quote(self.kind.as_str()),
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

/// Number each record among the file's records with the same
/// `(line, end_line, name)` ([`FunctionMetrics::occurrence`]).
pub(crate) fn assign_occurrences(records: &mut [FunctionMetrics]) {
    // Counted on borrowed keys, written back in a second pass.
    let occurrences: Vec<usize> = {
        let mut seen: std::collections::HashMap<(usize, usize, &str), usize> =
            std::collections::HashMap::new();
        records
            .iter()
            .map(|r| {
                let n = seen
                    .entry((r.line, r.end_line, r.name.as_str()))
                    .or_insert(0);
                *n += 1;
                *n - 1
            })
            .collect()
    };
    for (r, o) in records.iter_mut().zip(occurrences) {
        r.occurrence = o;
    }
}

/// The file totals of `records`: a metric whose values include nested
/// functions (`nesting`) is summed over outermost records only; `all`:
/// every metric is reported (else only cyclomatic, lizard's CCN, has a
/// total).
pub(crate) fn totals(nesting: Nesting, all: bool, records: &[FunctionMetrics]) -> FileTotals {
    let mut t = FileTotals {
        functions: records.len(),
        ..FileTotals::default()
    };
    let nest = nesting;
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
    t.cognitive = all.then_some(cognitive);
    t.halstead_volume = all.then_some(volume);
    t.lloc = all.then_some(lloc);
    t
}
