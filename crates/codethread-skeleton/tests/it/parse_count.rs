//! Parses per file when fmt's headers are skeletonized as a C++ repository
//! (`Options::hint`): the file's parse (with the macro mask when it has
//! errors) and the verifying re-parse of the skeleton, which takes the
//! masked parse only when the plain one has more errors than the file.
//! Counted with `codethread_lang::parses_on_thread`. Needs
//! `CODETHREAD_SHARED`; prints a table (`-- --nocapture`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use codethread_lang::{parses_on_thread, Lang};
use codethread_skeleton::{skeletonize_path, Options, ParseErrorPolicy, Selector};

#[test]
fn fmt_headers_parse_once_where_the_plain_parse_verifies() {
    let Some(root) = codethread_testkit::shared_path("metrics/corpora/fmt") else {
        return;
    };
    let (files, errors) = codethread_lang::source_files(&root);
    assert!(errors.is_empty(), "{errors:?}");
    let headers: Vec<_> = files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "h"))
        .collect();
    assert!(headers.len() >= 10, "fmt headers: {}", headers.len());
    let options = Options::default()
        .hint(Some(Lang::Cpp))
        .on_parse_errors(ParseErrorPolicy::SkipAffected);
    let (mut total, mut with_errors) = (0u64, 0usize);
    for path in &headers {
        let src = std::fs::read(path).unwrap();
        let rel = path.strip_prefix(&root).unwrap();
        let before = parses_on_thread();
        let sk = skeletonize_path(rel, src, &[Selector::All], &options);
        let n = parses_on_thread() - before;
        let edits = sk.as_ref().map_or(0, |s| s.edits.len());
        let errs = sk.as_ref().map_or(0, |s| s.parse_errors);
        with_errors += usize::from(errs > 0);
        println!(
            "{n} parses  {errs:>3} errors  {edits:>4} edits  {}",
            rel.display()
        );
        // The file's parse, at most one masked parse, the verifying
        // re-parse and at most one masked re-parse.
        assert!((1..=4).contains(&n), "{}: {n} parses", rel.display());
        total += n;
    }
    println!(
        "{} headers ({with_errors} with errors): {total} parses, {:.2} per file",
        headers.len(),
        total as f64 / headers.len() as f64
    );
}
