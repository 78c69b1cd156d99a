//! The `metrics`, `skeletonize` and `localize` examples on hostile trees:
//! FIFOs and device links are refused (never read, never a hang), the other
//! files' results are kept, exit codes follow `codethread::exit`, outputs are
//! atomic and never written through planted links, and distinct non-UTF-8
//! names keep distinct outputs. `cargo test` builds the examples; these
//! tests run them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use codethread_testkit::example;

/// Run with a 60 s limit: a hang is a failure, not a stuck test (the
/// output pipes are drained by `wait_with_output` on another thread).
fn run(name: &str, args: &[&std::ffi::OsStr]) -> Output {
    codethread_testkit::deadline::output_within(
        &format!("{name} {args:?}"),
        60,
        Command::new(example(name)).args(args),
    )
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ct-ex-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(unix)]
fn hostile_tree(dir: &Path) {
    use std::os::unix::ffi::OsStrExt;
    std::fs::create_dir_all(dir.join("pkg")).unwrap();
    std::fs::write(dir.join("pkg/a.py"), "def f(x):\n    return x\n").unwrap();
    for (name, body) in [
        (&b"\xff.py"[..], "def g(x):\n    return 1\n"),
        (b"\xfe.py", "def h(x):\n    return 2\n"),
    ] {
        std::fs::write(dir.join(std::ffi::OsStr::from_bytes(name)), body).unwrap();
    }
    assert!(Command::new("mkfifo")
        .arg(dir.join("pkg/pipe.py"))
        .status()
        .unwrap()
        .success());
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.py")).unwrap();
}

#[cfg(unix)]
#[test]
fn metrics_refuses_special_files_and_keeps_the_rest() {
    let dir = tmp("metrics");
    let src = dir.join("src");
    hostile_tree(&src);
    let out_file = dir.join("out.jsonl");
    let o = run(
        "metrics",
        &[os("--out"), out_file.as_os_str(), src.as_os_str()],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pipe.py") && err.contains("zero.py"), "{err}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    let paths: Vec<String> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["path"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    let distinct: std::collections::BTreeSet<&String> = paths.iter().collect();
    assert_eq!(distinct.len(), 3, "non-UTF-8 names collapsed: {paths:?}");
    // No temporary file left beside the output.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".ct-tmp-"))
        .collect();
    assert!(left.is_empty());

    // UTF-16, binary, and a file the parser gives up on: each named, exit 1.
    let odd = dir.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("good.py"), "def f():\n    pass\n").unwrap();
    std::fs::write(odd.join("u16.py"), b"\xff\xfed\x00e\x00f\x00").unwrap();
    std::fs::write(odd.join("blob.js"), b"\x00\x01\x02").unwrap();
    let deep: String = (0..800)
        .map(|i| format!("{}def f{i}():\n", " ".repeat(i)))
        .collect::<String>()
        + &" ".repeat(800)
        + "pass\n";
    std::fs::write(odd.join("deep.py"), deep).unwrap();
    let o = run("metrics", &[odd.as_os_str()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    for n in ["u16.py", "blob.js", "deep.py"] {
        assert!(err.contains(n), "{n} not reported: {err}");
    }
    // Nothing measurable at all: exit 2.
    let o = run("metrics", &[odd.join("u16.py").as_os_str()]);
    assert_eq!(o.status.code(), Some(2));
    // Every file fine: exit 0.
    let o = run("metrics", &[src.join("pkg/a.py").as_os_str()]);
    assert_eq!(o.status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn skeletonize_refuses_special_files_and_never_writes_through_links() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tmp("skel");
    let src = dir.join("src");
    hostile_tree(&src);
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let outside = dir.join("outside.txt");
    std::fs::write(&outside, "keep me\n").unwrap();
    // A link planted where an output file goes, and one as a directory.
    std::os::unix::fs::symlink(&outside, out.join(std::ffi::OsStr::from_bytes(b"\xff.py")))
        .unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere"), out.join("pkg")).unwrap();
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    let edits = dir.join("edits.jsonl");
    let o = run(
        "skeletonize",
        &[
            os("--all"),
            os("--out"),
            out.as_os_str(),
            os("--edits"),
            edits.as_os_str(),
            src.as_os_str(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pipe.py") && err.contains("zero.py"), "{err}");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me\n");
    assert!(std::fs::read_dir(dir.join("elsewhere"))
        .unwrap()
        .next()
        .is_none());
    // The two non-UTF-8 names: two distinct files, the link replaced.
    let ff = out.join(std::ffi::OsStr::from_bytes(b"\xff.py"));
    let fe = out.join(std::ffi::OsStr::from_bytes(b"\xfe.py"));
    assert!(!std::fs::symlink_metadata(&ff)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&ff).unwrap().contains("def g"));
    assert!(std::fs::read_to_string(&fe).unwrap().contains("def h"));
    let labels: std::collections::BTreeSet<String> = std::fs::read_to_string(&edits)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["path"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(
        labels.contains(r#""\xff.py""#) && labels.contains(r#""\xfe.py""#),
        "{labels:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn localize_refuses_special_files_and_keeps_the_other_patch() {
    let dir = tmp("loc");
    let before = dir.join("before");
    std::fs::create_dir_all(&before).unwrap();
    std::fs::write(before.join("m.py"), "def f(x):\n    return x\n").unwrap();
    let good = dir.join("good.patch");
    std::fs::write(
        &good,
        "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x\n+    return x + 1\n",
    )
    .unwrap();
    let fifo = dir.join("pipe.patch");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let o = run(
        "localize",
        &[os("--before"), before.as_os_str(), good.as_os_str()],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = run(
        "localize",
        &[
            os("--before"),
            before.as_os_str(),
            good.as_os_str(),
            fifo.as_os_str(),
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("pipe.patch"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["localizations"].as_array().unwrap().len(), 1);
    assert_eq!(v["localizations"][0]["targets"][0]["qualname"], "f");
    // A pre-image that is a FIFO: that patch fails, named; alone it is fatal.
    std::fs::remove_file(before.join("m.py")).unwrap();
    assert!(Command::new("mkfifo")
        .arg(before.join("m.py"))
        .status()
        .unwrap()
        .success());
    let o = run(
        "localize",
        &[os("--before"), before.as_os_str(), good.as_os_str()],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("m.py"), "{err}");
    // A huge announced hunk: a typed error, not an abort.
    let absurd = dir.join("absurd.patch");
    std::fs::write(
        &absurd,
        "--- a/m.py\n+++ b/m.py\n@@ -1,4294967297 +1,1 @@\n-x\n+y\n",
    )
    .unwrap();
    let o = run(
        "localize",
        &[os("--before"), before.as_os_str(), absurd.as_os_str()],
    );
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `kill -9` in the middle of a run leaves the old EDITS file or none,
/// never a truncated last line (it is committed only at the end).
#[cfg(unix)]
#[test]
fn skeletonize_killed_leaves_no_truncated_edits() {
    let dir = tmp("kill");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    let body = codethread_testkit::adversarial::many_python_functions(400);
    for i in 0..60 {
        std::fs::write(src.join(format!("m{i}.py")), &body).unwrap();
    }
    let edits = dir.join("edits.jsonl");
    std::fs::write(&edits, "{\"old\": true}\n").unwrap();
    for delay in [30u64, 120, 400] {
        let mut child = Command::new(example("skeletonize"))
            .args([os("--all"), os("--out"), dir.join("out").as_os_str()])
            .args([os("--edits"), edits.as_os_str(), src.as_os_str()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let text = std::fs::read_to_string(&edits).unwrap();
        assert!(text.ends_with('\n'), "truncated after {delay} ms");
        for l in text.lines() {
            serde_json::from_str::<serde_json::Value>(l)
                .unwrap_or_else(|e| panic!("after {delay} ms: {e}: {l}"));
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
