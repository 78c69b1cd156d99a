//! Checks of a task statement before an agent sees it: the required
//! sections, and leaks of the code the agent must write.
//!
//! **Sections.** The statement must have a `Task Overview` heading and, per
//! target function, a heading naming it (its qualified or bare name)
//! followed, before the next function's heading, by the headings of
//! the statement's function sections (`Summary`, `Args`, `Returns`, `Raises`,
//! `Implementation Steps`, `Edge Cases`) — the structure the prompt of
//! [`crate::statement::llm_request`] asks for and
//! [`crate::statement::offline_statement`] writes. A heading is a line
//! starting with `#` (any level) or a line that is wholly bold
//! (`**Summary**`), compared without case, `:` and `*`.
//!
//! **Leaks of the original body.** Text is cut into tokens (runs of ASCII
//! letters, digits and `_`; every other non-space byte is one token;
//! backticks are dropped, so Markdown code spans do not hide a copy). The
//! body n-grams of a target are the [`CheckConfig::ngram`]-token windows of
//! its original definition that do not also occur in its signature or its
//! original documentation (those two are given to the agent on purpose).
//! A target is flagged `leak_body` when the statement contains at least
//! [`CheckConfig::body_share`] of its body n-grams, or at least
//! [`CheckConfig::body_min_shared`] of them (a long copied passage of a
//! long body). A body with no body n-gram (shorter than n tokens) is not
//! checked this way.
//!
//! **Leaks of the gold patch.** Every added line of the gold patch (`+`
//! lines of its hunks) is compared, whitespace-collapsed, with the
//! whitespace-collapsed statement; a line contained in the statement is
//! flagged `leak_gold`. Trivial lines are skipped: lines with fewer than
//! [`CheckConfig::gold_min_chars`] non-space characters, lines of
//! punctuation only (braces, brackets, `end`-like closers have no letters…
//! precisely: lines with fewer than 4 ASCII letters or digits), lines that
//! occur in a target's original definition (already in the prompt, so not
//! the solution's own text), and lines contained in a target's signature or
//! original documentation (whitespace-collapsed): PR0 keeps both, so a
//! statement may quote them — a gold line that is a piece of a multi-line
//! signature is not a leak; only body lines are. All added lines are looked
//! up at once (an Aho–Corasick automaton over the lines, walked once over
//! the statement), so the check is linear in the statement plus the patch.

use std::collections::HashSet;

use crate::statement::{TaskContext, FUNCTION_SECTIONS};

/// Thresholds of the leak checks (the defaults are the documented rule).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckConfig {
    /// Tokens per n-gram (default 8).
    pub ngram: usize,
    /// Share of a target's body n-grams found in the statement that flags
    /// it (default 0.2).
    pub body_share: f64,
    /// Number of a target's body n-grams found in the statement that flags
    /// it whatever the share (default 40).
    pub body_min_shared: usize,
    /// Fewest non-space characters of a gold-patch line that is compared
    /// (default 12).
    pub gold_min_chars: usize,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            ngram: 8,
            body_share: 0.2,
            body_min_shared: 40,
            gold_min_chars: 12,
        }
    }
}

/// One problem of a statement.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Flag {
    /// `missing_section`, `missing_function`, `leak_body` or `leak_gold`.
    pub kind: String,
    /// The target concerned, when there is one.
    pub target: Option<String>,
    /// What was found (the section, the share, the line).
    pub detail: String,
}

impl std::fmt::Display for Flag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.target {
            Some(t) => write!(f, "{}: {t}: {}", self.kind, self.detail),
            None => write!(f, "{}: {}", self.kind, self.detail),
        }
    }
}

/// Tokens of `text` (see the module docs).
pub fn tokens(text: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        if b.is_ascii_alphanumeric() || b == b'_' {
            let s = i;
            while i < text.len() && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
                i += 1;
            }
            out.push(&text[s..i]);
        } else {
            if !b.is_ascii_whitespace() && b != b'`' {
                out.push(&text[i..i + 1]);
            }
            i += 1;
        }
    }
    out
}

fn ngrams<'a>(toks: &[&'a [u8]], n: usize) -> HashSet<Vec<&'a [u8]>> {
    if n == 0 || toks.len() < n {
        return HashSet::new();
    }
    toks.windows(n).map(<[&[u8]]>::to_vec).collect()
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn heading(line: &str) -> Option<String> {
    let t = line.trim();
    let h = if t.starts_with('#') {
        t.trim_start_matches('#')
    } else if t.len() > 4 && t.starts_with("**") && t.ends_with("**") {
        t
    } else {
        return None;
    };
    Some(
        h.trim()
            .trim_matches('*')
            .trim()
            .trim_end_matches(':')
            .trim_matches('*')
            .trim()
            .to_lowercase(),
    )
}

/// The section flags of `statement` (see the module docs).
pub(crate) fn check_sections(ctx: &TaskContext, statement: &str) -> Vec<Flag> {
    let heads: Vec<String> = statement.lines().filter_map(heading).collect();
    let mut flags = Vec::new();
    if !heads.iter().any(|h| h == "task overview") {
        flags.push(Flag {
            kind: "missing_section".into(),
            target: None,
            detail: "Task Overview".into(),
        });
    }
    let sections: Vec<String> = FUNCTION_SECTIONS.iter().map(|s| s.to_lowercase()).collect();
    let is_section = |h: &str| sections.iter().any(|s| s == h) || h == "task overview";
    // Where each target's heading is.
    let mut starts: Vec<(usize, usize)> = Vec::new();
    for (ti, t) in ctx.targets.iter().enumerate() {
        let q = t.qualname.to_lowercase();
        let n = t.name.to_lowercase();
        let at = heads
            .iter()
            .enumerate()
            .filter(|(_, h)| !is_section(h))
            .filter(|(i, _)| !starts.iter().any(|(_, s)| s == i))
            .find(|(_, h)| h.contains(&q))
            .or_else(|| {
                heads
                    .iter()
                    .enumerate()
                    .filter(|(_, h)| !is_section(h))
                    .filter(|(i, _)| !starts.iter().any(|(_, s)| s == i))
                    .find(|(_, h)| h.contains(&n))
            })
            .map(|(i, _)| i);
        match at {
            Some(i) => starts.push((ti, i)),
            None => flags.push(Flag {
                kind: "missing_function".into(),
                target: Some(t.target_id.clone()),
                detail: "no heading names it".into(),
            }),
        }
    }
    let mut bounds: Vec<usize> = starts.iter().map(|(_, s)| *s).collect();
    bounds.sort_unstable();
    for (ti, s) in &starts {
        let end = bounds
            .iter()
            .find(|b| **b > *s)
            .copied()
            .unwrap_or(heads.len());
        let block = &heads[s + 1..end];
        for (sec, low) in FUNCTION_SECTIONS.iter().zip(&sections) {
            if !block.iter().any(|h| h == low) {
                flags.push(Flag {
                    kind: "missing_section".into(),
                    target: Some(ctx.targets[*ti].target_id.clone()),
                    detail: (*sec).to_string(),
                });
            }
        }
    }
    flags
}

/// The leak flags of `statement` against the original bodies of `ctx` and
/// the added lines of `gold_patch` (see the module docs).
pub fn check_leaks(
    ctx: &TaskContext,
    statement: &str,
    gold_patch: &[u8],
    cfg: &CheckConfig,
) -> Vec<Flag> {
    let mut flags = Vec::new();
    let st_toks = tokens(statement.as_bytes());
    let st_grams = ngrams(&st_toks, cfg.ngram);
    for t in &ctx.targets {
        let body_toks = tokens(t.original_source.as_bytes());
        let mut allowed_text = t.signature.clone();
        if let Some(d) = &t.docstring {
            allowed_text.push('\n');
            allowed_text.push_str(d);
        }
        let allowed_toks = tokens(allowed_text.as_bytes());
        let allowed = ngrams(&allowed_toks, cfg.ngram);
        let body: HashSet<Vec<&[u8]>> = ngrams(&body_toks, cfg.ngram)
            .into_iter()
            .filter(|g| !allowed.contains(g))
            .collect();
        if body.is_empty() {
            continue;
        }
        let shared = body.iter().filter(|g| st_grams.contains(*g)).count();
        let share = shared as f64 / body.len() as f64;
        if share >= cfg.body_share || shared >= cfg.body_min_shared {
            flags.push(Flag {
                kind: "leak_body".into(),
                target: Some(t.target_id.clone()),
                detail: format!(
                    "{shared} of {} body {}-grams ({:.0}%) are in the statement",
                    body.len(),
                    cfg.ngram,
                    share * 100.0
                ),
            });
        }
    }
    let st = collapse(statement);
    let originals: HashSet<String> = ctx
        .targets
        .iter()
        .flat_map(|t| t.original_source.lines().map(collapse).collect::<Vec<_>>())
        .collect();
    // What the agent is given on purpose: signatures and documentation
    // (collapsed, one per line: a collapsed gold line never holds `\n`).
    let mut given = String::new();
    for t in &ctx.targets {
        given.push_str(&collapse(&t.signature));
        given.push('\n');
        if let Some(d) = &t.docstring {
            given.push_str(&collapse(d));
            given.push('\n');
        }
    }
    let text = String::from_utf8_lossy(gold_patch);
    let mut seen = HashSet::new();
    let mut candidates: Vec<String> = Vec::new();
    for line in text.lines() {
        let Some(added) = line.strip_prefix('+') else {
            continue;
        };
        if line.starts_with("+++ ") {
            continue;
        }
        let l = collapse(added);
        let nonspace = l.chars().filter(|c| !c.is_whitespace()).count();
        let alnum = l.bytes().filter(u8::is_ascii_alphanumeric).count();
        if nonspace < cfg.gold_min_chars || alnum < 4 || originals.contains(&l) {
            continue;
        }
        if seen.insert(l.clone()) {
            candidates.push(l);
        }
    }
    let ac = Automaton::new(candidates.iter().map(String::as_bytes));
    let in_statement = ac.occurring(st.as_bytes());
    let in_given = ac.occurring(given.as_bytes());
    for (i, l) in candidates.iter().enumerate() {
        if in_statement[i] && !in_given[i] {
            flags.push(Flag {
                kind: "leak_gold".into(),
                target: None,
                detail: format!("gold patch line in the statement: {l}"),
            });
        }
    }
    flags
}

/// Which of a set of byte patterns occur in a text: an Aho–Corasick
/// automaton (trie + failure links) walked once over the text; the states
/// reached are marked and the marks pushed up the failure links (every
/// state's failure target is a suffix of it), so a pattern occurs exactly
/// when its end state is marked. Time and memory linear in the patterns
/// plus the text, whatever their shapes (no per-match work).
struct Automaton {
    /// `(state, byte) -> state`.
    next: std::collections::HashMap<(u32, u8), u32>,
    /// Children of each state, for the breadth-first pass.
    children: Vec<Vec<(u8, u32)>>,
    fail: Vec<u32>,
    /// States in breadth-first order (non-decreasing depth).
    order: Vec<u32>,
    /// End state of each pattern.
    ends: Vec<u32>,
}

impl Automaton {
    fn new<'a>(patterns: impl Iterator<Item = &'a [u8]>) -> Automaton {
        let mut a = Automaton {
            next: std::collections::HashMap::new(),
            children: vec![Vec::new()],
            fail: vec![0],
            order: Vec::new(),
            ends: Vec::new(),
        };
        for p in patterns {
            let mut s = 0u32;
            for &b in p {
                s = match a.next.get(&(s, b)) {
                    Some(&t) => t,
                    None => {
                        let t = a.children.len() as u32;
                        a.children.push(Vec::new());
                        a.fail.push(0);
                        a.children[s as usize].push((b, t));
                        a.next.insert((s, b), t);
                        t
                    }
                };
            }
            a.ends.push(s);
        }
        let mut queue = std::collections::VecDeque::from([0u32]);
        while let Some(u) = queue.pop_front() {
            a.order.push(u);
            for i in 0..a.children[u as usize].len() {
                let (b, v) = a.children[u as usize][i];
                a.fail[v as usize] = if u == 0 {
                    0
                } else {
                    a.step(a.fail[u as usize], b)
                };
                queue.push_back(v);
            }
        }
        a
    }

    /// The state after reading `b` in state `s` (following failure links).
    fn step(&self, mut s: u32, b: u8) -> u32 {
        loop {
            if let Some(&t) = self.next.get(&(s, b)) {
                return t;
            }
            if s == 0 {
                return 0;
            }
            s = self.fail[s as usize];
        }
    }

    /// Per pattern: whether it occurs in `text`.
    fn occurring(&self, text: &[u8]) -> Vec<bool> {
        let mut mark = vec![false; self.fail.len()];
        mark[0] = true;
        let mut s = 0u32;
        for &b in text {
            s = self.step(s, b);
            mark[s as usize] = true;
        }
        for &v in self.order.iter().rev() {
            if mark[v as usize] {
                mark[self.fail[v as usize] as usize] = true;
            }
        }
        self.ends.iter().map(|&e| mark[e as usize]).collect()
    }
}

/// Every check: sections, then leaks.
pub fn check_statement(
    ctx: &TaskContext,
    statement: &str,
    gold_patch: &[u8],
    cfg: &CheckConfig,
) -> Vec<Flag> {
    let mut f = check_sections(ctx, statement);
    f.extend(check_leaks(ctx, statement, gold_patch, cfg));
    f
}
