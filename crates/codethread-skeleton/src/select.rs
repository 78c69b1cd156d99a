//! Choosing the target functions of a file.

use std::fmt;
use std::sync::Arc;

use codethread_lang::Function;

/// One way to choose target functions. A list of selectors selects the union
/// of what each selects; then functions inside another selected function are
/// dropped (they go with their enclosing target).
///
/// Name and span selectors consider *named* functions only: anonymous
/// closures, lambdas, arrows, func literals and callbacks are not functions
/// under `docs/target-rules.md` (their lines belong to the enclosing named
/// function, or to module code) and go with an enclosing target.
/// [`Selector::Predicate`] sees every function, anonymous ones included.
/// Functions without a body (Rust trait signatures, TS overloads and abstract
/// methods, Go assembly stubs) and Python `@overload` stubs are never targets.
#[derive(Clone)]
pub enum Selector {
    /// Every named function with a body.
    All,
    /// By qualified name: `Class.method` selects every function with that
    /// qualname; `Class.method#2` only the second in source order (the `#n`
    /// of target ids).
    Qualname(String),
    /// The function whose definition span (`Function::span`) is exactly
    /// `start..end`: one function's identity, as localization indexed it
    /// and as [`crate::Edit::span`] reports it. Unlike [`Selector::Bytes`], it
    /// never picks the functions around or inside it.
    Span {
        /// The span's first byte.
        start: usize,
        /// One past the span's last byte.
        end: usize,
    },
    /// Functions whose definition span overlaps the byte range
    /// `start..end` (end exclusive).
    Bytes {
        /// First byte.
        start: usize,
        /// One past the last byte.
        end: usize,
    },
    /// Functions whose definition span overlaps the 1-based inclusive line
    /// range.
    Lines {
        /// First line (1-based).
        start: usize,
        /// Last line (inclusive).
        end: usize,
    },
    /// Functions for which the predicate is true (anonymous ones included).
    Predicate(Arc<dyn Fn(&Function) -> bool + Send + Sync>),
}

impl fmt::Debug for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::All => f.write_str("All"),
            Selector::Qualname(q) => f.debug_tuple("Qualname").field(q).finish(),
            Selector::Span { start, end } => f
                .debug_struct("Span")
                .field("start", start)
                .field("end", end)
                .finish(),
            Selector::Bytes { start, end } => f
                .debug_struct("Bytes")
                .field("start", start)
                .field("end", end)
                .finish(),
            Selector::Lines { start, end } => f
                .debug_struct("Lines")
                .field("start", start)
                .field("end", end)
                .finish(),
            Selector::Predicate(_) => f.write_str("Predicate(..)"),
        }
    }
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::All => f.write_str("all functions"),
            Selector::Qualname(q) => write!(f, "function {q}"),
            Selector::Span { start, end } => write!(f, "the function at bytes {start}..{end}"),
            Selector::Bytes { start, end } => write!(f, "bytes {start}..{end}"),
            Selector::Lines { start, end } => write!(f, "lines {start}-{end}"),
            Selector::Predicate(_) => f.write_str("predicate"),
        }
    }
}

impl Selector {
    /// A predicate selector.
    pub fn predicate(p: impl Fn(&Function) -> bool + Send + Sync + 'static) -> Selector {
        Selector::Predicate(Arc::new(p))
    }

    /// Whether this selector picks `f` (body and overload checks are made
    /// separately).
    pub fn matches(&self, f: &Function) -> bool {
        match self {
            Selector::Predicate(p) => p(f),
            _ if f.anonymous => false,
            Selector::All => true,
            Selector::Qualname(q) => match split_occurrence(q) {
                (name, Some(n)) => f.qualname == name && f.occurrence == n,
                (name, None) => f.qualname == name,
            },
            Selector::Span { start, end } => f.span.start_byte == *start && f.span.end_byte == *end,
            Selector::Bytes { start, end } => {
                f.span.start_byte < (*end).max(start.saturating_add(1)) && *start < f.span.end_byte
            }
            Selector::Lines { start, end } => {
                f.span.start_line <= *end && *start <= f.span.end_line
            }
        }
    }
}

/// The named functions of a file by qualname and by span (sorted indices),
/// each built only when some selector is a [`Selector::Qualname`] or a
/// [`Selector::Span`]: such a selector finds its functions by binary search
/// instead of a scan of the file.
pub(crate) struct NameIndex {
    /// Indices of the named functions, sorted by qualname, then index.
    order: Vec<usize>,
    /// Indices of the named functions, sorted by span, then index.
    spans: Vec<usize>,
}

impl NameIndex {
    pub(crate) fn new(funcs: &[Function], selectors: &[Selector]) -> NameIndex {
        let mut order = Vec::new();
        if selectors.iter().any(|s| matches!(s, Selector::Qualname(_))) {
            order = (0..funcs.len()).filter(|&i| !funcs[i].anonymous).collect();
            order.sort_by(|&a, &b| funcs[a].qualname.cmp(&funcs[b].qualname).then(a.cmp(&b)));
        }
        let mut spans = Vec::new();
        if selectors.iter().any(|s| matches!(s, Selector::Span { .. })) {
            spans = (0..funcs.len()).filter(|&i| !funcs[i].anonymous).collect();
            spans.sort_by_key(|&i| (funcs[i].span.start_byte, funcs[i].span.end_byte, i));
        }
        NameIndex { order, spans }
    }

    /// The functions a [`Selector::Span`] of `start..end` matches, in file
    /// order.
    pub(crate) fn at_span<'a>(
        &'a self,
        funcs: &'a [Function],
        start: usize,
        end: usize,
    ) -> impl Iterator<Item = usize> + 'a {
        let key = |i: usize| (funcs[i].span.start_byte, funcs[i].span.end_byte);
        let lo = self.spans.partition_point(|&i| key(i) < (start, end));
        self.spans[lo..]
            .iter()
            .copied()
            .take_while(move |&i| key(i) == (start, end))
    }

    /// The functions a [`Selector::Qualname`] of `q` matches, in file order
    /// (as [`Selector::matches`] decides: the name, and the `#n` occurrence
    /// when given).
    pub(crate) fn lookup<'a>(
        &'a self,
        funcs: &'a [Function],
        q: &'a str,
    ) -> impl Iterator<Item = usize> + 'a {
        let (name, occurrence) = split_occurrence(q);
        let lo = self
            .order
            .partition_point(|&i| funcs[i].qualname.as_str() < name);
        self.order[lo..]
            .iter()
            .copied()
            .take_while(move |&i| funcs[i].qualname == name)
            .filter(move |&i| occurrence.is_none_or(|n| funcs[i].occurrence == n))
    }
}

/// `A.b#2` → (`A.b`, Some(2)); `A.b` → (`A.b`, None). A `#` not followed by
/// a number is part of the name.
pub fn split_occurrence(id: &str) -> (&str, Option<usize>) {
    if let Some((name, n)) = id.rsplit_once('#') {
        if let Ok(n) = n.parse::<usize>() {
            return (name, Some(n));
        }
    }
    (id, None)
}

/// True for Python `@overload` / `@typing.overload` stubs.
pub(crate) fn is_overload_stub(f: &Function) -> bool {
    f.decorators.iter().any(|d| {
        let d = d.trim().trim_start_matches('@').trim();
        let head = d.split('(').next().unwrap_or(d).trim();
        head == "overload" || head.ends_with(".overload")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn occurrence_suffix() {
        assert_eq!(split_occurrence("A.b#2"), ("A.b", Some(2)));
        assert_eq!(split_occurrence("A.b"), ("A.b", None));
        assert_eq!(split_occurrence("A.#x"), ("A.#x", None));
    }
}
