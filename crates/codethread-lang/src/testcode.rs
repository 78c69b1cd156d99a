//! Test code marked by attributes: an item whose own attributes, or an
//! enclosing item's, say it is compiled or run only as a test (Rust
//! `#[test]`, `#[tokio::test]`, `#[cfg(test)] mod tests { … }`). The rules
//! are data ([`TestAttributes`], one optional row per language in
//! `info.rs`); [`test_attribute_at`] is the one reader. C and C++ test code
//! is marked by the preprocessor instead (`crate::in_test_block`).

use crate::parse::ParsedFile;

/// Which attributes mark test code in a language.
#[derive(Debug)]
pub struct TestAttributes {
    /// Node kind of an attribute written before an item (Rust
    /// `attribute_item`).
    pub attribute_kind: &'static str,
    /// Attribute paths whose last segment marks a test item (`test`:
    /// `#[test]`, `#[tokio::test(flavor = "multi_thread")]`).
    pub test_names: &'static [&'static str],
    /// The conditional-compilation attribute and the predicate that holds
    /// only when tests are built (`cfg`, `test`): `#[cfg(test)]`, and
    /// `#[cfg(all(test, …))]`; `any(test, …)` and `not(test)` are not
    /// test-only.
    pub cfg: Option<(&'static str, &'static str)>,
    /// Opener and closer of an attribute's text (`#[`, `]`; `#![` is an
    /// inner attribute of its enclosing item and never read here).
    pub delimiters: (&'static str, &'static str),
}

/// Rust's attributes.
pub(crate) const RUST: TestAttributes = TestAttributes {
    attribute_kind: "attribute_item",
    test_names: &["test"],
    cfg: Some(("cfg", "test")),
    delimiters: ("#[", "]"),
};

/// The attribute that marks the item around byte `at` of `file` (the item
/// itself or any item enclosing it) as test code, as written (spaces
/// collapsed); `None` when there is none or the language has no such rule.
/// Walks from the innermost node at `at` up to the root, reading the
/// attributes written directly before each ancestor (comments between them
/// skipped): iterative, O(depth × attributes).
pub fn test_attribute_at(file: &ParsedFile, at: usize) -> Option<String> {
    let rules = file.lang.info().test_attributes?;
    let mut node = file.root().descendant_for_byte_range(at, at);
    let comments = file.lang.info().comment_kinds;
    while let Some(n) = node {
        let mut prev = n.prev_sibling();
        while let Some(p) = prev {
            if p.kind() == rules.attribute_kind {
                let text = p.utf8_text(&file.source).unwrap_or("");
                if let Some(t) = marks_test(rules, text) {
                    return Some(t);
                }
            } else if !comments.contains(&p.kind()) {
                break;
            }
            prev = p.prev_sibling();
        }
        node = n.parent();
    }
    None
}

/// `Some(text)` when one attribute's text marks test code under `rules`.
fn marks_test(rules: &TestAttributes, text: &str) -> Option<String> {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let inner = compact
        .strip_prefix(rules.delimiters.0)?
        .strip_suffix(rules.delimiters.1)?;
    let path_end = inner.find(['(', '=']).unwrap_or(inner.len());
    let (path, args) = inner.split_at(path_end);
    let last = path.rsplit("::").next().unwrap_or(path);
    if rules.test_names.contains(&last) {
        return Some(compact);
    }
    let (cfg, predicate) = rules.cfg?;
    if path != cfg {
        return None;
    }
    let body = args.strip_prefix('(')?.strip_suffix(')')?;
    let test_only = body == predicate
        || body
            .strip_prefix("all(")
            .and_then(|b| b.strip_suffix(')'))
            .is_some_and(|all| top_level(all).any(|p| p == predicate));
    test_only.then_some(compact)
}

/// The comma-separated items of `s` at parenthesis depth 0.
fn top_level(s: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    let mut start = 0;
    let mut items = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&s[start..]);
    items.into_iter()
}

#[cfg(test)]
#[cfg(feature = "rust")]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::{parse, Lang};

    fn at(src: &str, needle: &str) -> Option<String> {
        let f = parse(Lang::Rust, src.as_bytes().to_vec()).unwrap();
        test_attribute_at(&f, src.find(needle).unwrap())
    }

    #[test]
    fn rust_test_items_and_cfg_test_modules() {
        let src = "fn lib() {}\n#[test]\nfn t() {}\n#[tokio::test(flavor = \"multi_thread\")]\n// why\nasync fn u() {}\n#[cfg(test)]\nmod tests {\n    fn helper() { let x = 1; }\n    mod deep { fn d() {} }\n}\n#[cfg(all(test, unix))]\nfn a() {}\n#[cfg(any(test, feature = \"x\"))]\nfn b() {}\n#[cfg(not(test))]\nfn c() {}\n#[inline]\n#[test]\nfn two() {}\nimpl S {\n    #[test]\n    fn m() {}\n    fn n() {}\n}\n";
        assert_eq!(at(src, "fn lib"), None);
        assert_eq!(at(src, "fn t()").as_deref(), Some("#[test]"));
        assert_eq!(
            at(src, "async fn u").as_deref(),
            Some("#[tokio::test(flavor=\"multi_thread\")]")
        );
        assert_eq!(at(src, "let x").as_deref(), Some("#[cfg(test)]"));
        assert_eq!(at(src, "fn d()").as_deref(), Some("#[cfg(test)]"));
        assert_eq!(at(src, "fn a()").as_deref(), Some("#[cfg(all(test,unix))]"));
        assert_eq!(at(src, "fn b()"), None);
        assert_eq!(at(src, "fn c()"), None);
        assert_eq!(at(src, "fn two").as_deref(), Some("#[test]"));
        assert_eq!(at(src, "fn m()").as_deref(), Some("#[test]"));
        assert_eq!(at(src, "fn n()"), None);
    }

    #[test]
    fn languages_without_a_rule_answer_none() {
        let f = parse(Lang::Python, b"@test\ndef t():\n    pass\n".to_vec()).unwrap();
        assert_eq!(test_attribute_at(&f, 8), None);
    }
}
