//! Files that are not regular source text get a typed error naming them and
//! never hang, exhaust memory or hide the other files: FIFOs and devices
//! inside a walked tree, files over the size limit, UTF-16, binary content
//! with a source extension; a file the parser gave up on reports where.
//! Distinct non-UTF-8 names keep distinct labels.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread_metrics::{analyze_paths, AnalyzeOptions, FileMetrics, MetricsError, Profile};

type Results = Vec<Result<FileMetrics, MetricsError>>;

/// Run `f` on another thread and fail (instead of hanging) after 60 s.
fn within_a_minute(f: impl FnOnce() -> Results + Send + 'static) -> Results {
    codethread_testkit::deadline::within("a special file read as if it were a file", 60, f)
}

fn tree(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ct-metrics-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pkg/good.py"), "def f(x):\n    return x\n").unwrap();
    std::fs::write(dir.join("z_good.js"), "function g() { return 1; }\n").unwrap();
    dir
}

fn mkfifo(path: &Path) {
    assert!(
        codethread_testkit::deadline::mkfifo(path),
        "mkfifo {}",
        path.display()
    );
}

fn split(results: Results) -> (Vec<FileMetrics>, Vec<MetricsError>) {
    let mut ok = Vec::new();
    let mut err = Vec::new();
    for r in results {
        match r {
            Ok(f) => ok.push(f),
            Err(e) => err.push(e),
        }
    }
    (ok, err)
}

fn assert_good_kept(ok: &[FileMetrics]) {
    let labels: Vec<&str> = ok.iter().map(|f| f.path.as_str()).collect();
    assert!(labels.contains(&"pkg/good.py"), "{labels:?}");
    assert!(labels.contains(&"z_good.js"), "{labels:?}");
}

#[cfg(unix)]
#[test]
fn fifos_and_devices_are_refused_not_read() {
    let dir = tree("special");
    mkfifo(&dir.join("pkg/pipe.py"));
    mkfifo(&dir.join("pipe.go"));
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.py")).unwrap();
    std::os::unix::fs::symlink("/dev/null", dir.join("null.rs")).unwrap();
    let d = dir.clone();
    let (ok, err) = split(within_a_minute(move || {
        analyze_paths(&[d], &AnalyzeOptions::new(Profile::Paper))
    }));
    assert_good_kept(&ok);
    assert_eq!(err.len(), 4, "{err:?}");
    for e in &err {
        assert!(matches!(e, MetricsError::Refused(_)), "{e}");
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
    let named: Vec<String> = err.iter().map(|e| e.path().display().to_string()).collect();
    for n in ["pipe.py", "pipe.go", "zero.py", "null.rs"] {
        assert!(named.iter().any(|p| p.ends_with(n)), "{n} in {named:?}");
    }
    // A FIFO named explicitly as an argument, too.
    let fifo = dir.join("pipe.go");
    let (ok, err) = split(within_a_minute(move || {
        analyze_paths(&[fifo], &AnalyzeOptions::new(Profile::Paper))
    }));
    assert!(ok.is_empty());
    assert_eq!(err.len(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_over_the_limit_are_refused() {
    let dir = tree("limit");
    std::fs::write(dir.join("big.py"), "x = 1\n".repeat(1000)).unwrap();
    let (ok, err) = split(analyze_paths(
        std::slice::from_ref(&dir),
        &AnalyzeOptions::new(Profile::Paper).with_max_file_bytes(1000),
    ));
    assert_good_kept(&ok);
    assert_eq!(err.len(), 1, "{err:?}");
    assert!(err[0].to_string().contains("big.py"), "{}", err[0]);
    assert!(
        err[0].to_string().contains("--max-file-bytes"),
        "{}",
        err[0]
    );
    // Raised limit: measured.
    let (ok, err) = split(analyze_paths(
        std::slice::from_ref(&dir),
        &AnalyzeOptions::new(Profile::Paper).with_max_file_bytes(10_000),
    ));
    assert!(err.is_empty(), "{err:?}");
    assert_eq!(ok.len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn utf16_and_binary_sources_are_typed_errors() {
    let dir = tree("text");
    let utf16 = |bom: [u8; 2], le: bool| {
        let mut v = bom.to_vec();
        for u in "def f(x):\n    return x\n".encode_utf16() {
            v.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        v
    };
    std::fs::write(dir.join("le.py"), utf16([0xFF, 0xFE], true)).unwrap();
    std::fs::write(dir.join("be.py"), utf16([0xFE, 0xFF], false)).unwrap();
    // UTF-16 without a mark has NUL bytes: binary.
    let mut nomark = utf16([0, 0], true);
    nomark.drain(..2);
    std::fs::write(dir.join("nomark.js"), nomark).unwrap();
    std::fs::write(dir.join("blob.go"), b"\x7fELF\x02\x01\x01\x00\x00\x00func").unwrap();
    std::fs::write(dir.join("late.rs"), b"fn f() {}\n// \x00\n").unwrap();
    let (ok, err) = split(analyze_paths(
        std::slice::from_ref(&dir),
        &AnalyzeOptions::new(Profile::Paper),
    ));
    assert_good_kept(&ok);
    assert_eq!(
        ok.len(),
        2,
        "{:?}",
        ok.iter().map(|f| &f.path).collect::<Vec<_>>()
    );
    let by_name = |n: &str| {
        err.iter()
            .find(|e| e.path().ends_with(n))
            .unwrap_or_else(|| panic!("no error for {n}: {err:?}"))
    };
    assert!(matches!(
        by_name("le.py"),
        MetricsError::Utf16 { bom: "FF FE", .. }
    ));
    assert!(matches!(
        by_name("be.py"),
        MetricsError::Utf16 { bom: "FE FF", .. }
    ));
    assert!(matches!(
        by_name("nomark.js"),
        MetricsError::Binary { offset: 1, .. }
    ));
    assert!(matches!(
        by_name("blob.go"),
        MetricsError::Binary { offset: 7, .. }
    ));
    assert!(matches!(by_name("late.rs"), MetricsError::Binary { .. }));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Python nested deeper than tree-sitter's indentation scanner follows: the
/// parser gives up on the inner functions. The file still gives records, and
/// says where the errors start (what the example prints as a warning).
#[test]
fn parser_giving_up_is_reported() {
    for depth in [600usize, 1000, 3000] {
        let mut src = String::new();
        for i in 0..depth {
            src.push_str(&" ".repeat(i));
            src.push_str(&format!("def f{i}():\n"));
        }
        src.push_str(&" ".repeat(depth));
        src.push_str("return 1\n");
        let m = codethread_metrics::analyze_source(
            "deep.py",
            codethread_lang::Lang::Python,
            src.into_bytes(),
            &AnalyzeOptions::new(Profile::Paper),
        )
        .unwrap();
        if m.functions.len() < depth {
            assert!(
                m.parse_errors > 0,
                "{depth}: records dropped without errors"
            );
            let (line, _) = m.first_error.expect("position of the first error");
            assert!(line >= 1 && line <= depth + 1, "{depth}: line {line}");
        }
    }
}

#[cfg(unix)]
#[test]
fn distinct_non_utf8_names_keep_distinct_labels() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tree("names");
    for name in [&b"\xff.py"[..], b"\xfe.py", b"\xef\xbf\xbd.py"] {
        std::fs::write(
            dir.join(std::ffi::OsStr::from_bytes(name)),
            "def f(x):\n    return x\n",
        )
        .unwrap();
    }
    let (ok, err) = split(analyze_paths(
        std::slice::from_ref(&dir),
        &AnalyzeOptions::new(Profile::Paper),
    ));
    assert!(err.is_empty(), "{err:?}");
    let labels: std::collections::BTreeSet<&str> = ok.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(labels.len(), 5, "{labels:?}");
    assert!(labels.contains(r#""\xff.py""#), "{labels:?}");
    assert!(labels.contains(r#""\xfe.py""#), "{labels:?}");
    assert!(labels.contains("\u{fffd}.py"), "{labels:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
