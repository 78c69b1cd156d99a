//! Test support shared by the codethread crates: locating the real-data
//! folder named by `CODETHREAD_SHARED`, [`chat_server`], a loopback
//! chat-completions server with injected faults, [`peak_rss`], peak
//! memory measured in a child process, and [`file_shapes`], the large-file
//! shapes the memory suites share.
//!
//! Suites that need the real data call [`shared`] (or [`shared_path`]) first:
//! - `CODETHREAD_SHARED` unset: the function prints a visible `SKIPPED` line
//!   and returns `None`; the test returns early.
//! - set, but the folder or the requested file is missing: the test fails
//!   (panics with the path), so a broken CI setup can never pass silently.
//!
//! ```no_run
//! if let Some(p) = codethread_testkit::shared_path("metrics/reference") {
//!     assert!(p.is_dir());
//! }
//! ```
#![allow(clippy::panic)]

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod chat_server;
pub mod file_shapes;
pub mod llm_shapes;
pub mod peak_rss;

use std::io::Write;
use std::path::{Path, PathBuf};

/// Name of the environment variable that points at the shared data folder.
pub const ENV: &str = "CODETHREAD_SHARED";

/// The shared data folder, or `None` (with a printed skip notice) when
/// `CODETHREAD_SHARED` is unset or empty.
///
/// # Panics
/// When the variable is set but does not name a directory.
pub fn shared() -> Option<PathBuf> {
    match std::env::var_os(ENV) {
        Some(v) if !v.is_empty() => {
            let p = PathBuf::from(v);
            if !p.is_dir() {
                panic!(
                    "{ENV} is set to {} but that is not a directory",
                    p.display()
                );
            }
            Some(p)
        }
        _ => {
            // Written to the stderr handle directly: libtest captures the
            // print macros of passing tests, and a skip must stay visible.
            let test = std::thread::current().name().unwrap_or("?").to_string();
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {test}: {ENV} is not set; this real-data suite did not run"
            );
            None
        }
    }
}

/// A path below the shared folder that must exist when the folder is set.
///
/// # Panics
/// When `CODETHREAD_SHARED` is set but `rel` does not exist below it.
pub fn shared_path(rel: &str) -> Option<PathBuf> {
    let root = shared()?;
    let p = root.join(rel);
    if !p.exists() {
        panic!("{ENV} is set but {} is missing", p.display());
    }
    Some(p)
}

/// Adversarial source shapes for scaling tests and benchmarks: each
/// generator's output grows linearly with `n`, so a tool that is linear (or
/// O(n log n)) in its input takes about twice the time for `2n`.
pub mod adversarial {
    /// `n` small Python functions (docstring, comment, body) in one file.
    pub fn many_python_functions(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "def func_{i}(a, b):\n    \"\"\"Doc.\"\"\"\n    x = a + b  # sum\n    if x > {i}:\n        return x\n    return -x\n\n"
            ));
        }
        s
    }

    /// `n` JavaScript functions nested in each other, one per line.
    pub fn deep_js(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!("function f{i}(a) {{ if (a) {{ a = a + {i}; }}\n"));
        }
        s.push_str("return 1;\n");
        for _ in 0..n {
            s.push_str("}\n");
        }
        s
    }

    /// `n` JavaScript functions, all on one line.
    pub fn one_line_js(n: usize) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&format!(
                "function g{i}(a, b) {{ if (a > b) {{ return a - {i}; }} return b + {i}; }} "
            ));
        }
        s.push('\n');
        s
    }

    /// `n` nested openers around a leaf, then `n` closers, one per line:
    /// `open(i)` for depth `i`, `leaf`, then `close` `n` times. Any language
    /// with block syntax: `nested(n, |i| format!("if (x{i}) {{"), "y();", "}")`.
    pub fn nested(n: usize, open: impl Fn(usize) -> String, leaf: &str, close: &str) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&open(i));
            s.push('\n');
        }
        s.push_str(leaf);
        s.push('\n');
        for _ in 0..n {
            s.push_str(close);
            s.push('\n');
        }
        s
    }

    /// `item(0) .. item(n-1)` concatenated, separated by `sep` (`"\n"` for
    /// one function per line, `" "` for one huge line).
    pub fn repeated(n: usize, sep: &str, item: impl Fn(usize) -> String) -> String {
        let mut s = String::new();
        for i in 0..n {
            s.push_str(&item(i));
            s.push_str(sep);
        }
        s
    }

    /// A `git diff` creating `path` with `content`.
    pub fn new_file_patch(path: &str, content: &str) -> Vec<u8> {
        let lines: Vec<&str> = content.split_inclusive('\n').collect();
        let mut p = format!(
            "diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{} @@\n",
            lines.len()
        );
        for l in lines {
            p.push('+');
            p.push_str(l);
        }
        p.into_bytes()
    }

    /// The shortest of `runs` wall-clock times of `f` (the least disturbed
    /// by other processes).
    pub fn min_time(runs: usize, mut f: impl FnMut()) -> std::time::Duration {
        (0..runs.max(1))
            .map(|_| {
                let t = std::time::Instant::now();
                f();
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    }

    /// Time `f(n)` and `f(4n)` and fail when the larger input takes 10 or
    /// more times as long (a linear tool takes about 4 times, a quadratic
    /// one 16). `n` is first doubled until `f(n)` takes at least 40 ms (so
    /// that timer noise does not decide), and a failed comparison is
    /// measured again up to three times (so that another process's burst of
    /// load does not decide; a quadratic tool fails every time). Returns the
    /// two times of the last comparison.
    pub fn assert_subquadratic(
        what: &str,
        n: usize,
        mut f: impl FnMut(usize),
    ) -> (std::time::Duration, std::time::Duration) {
        // Warm up caches (parsers are cached per thread).
        f(n / 4 + 1);
        let mut n = n.max(1);
        for _ in 0..4 {
            if min_time(1, || f(n)) >= std::time::Duration::from_millis(40) {
                break;
            }
            n *= 2;
        }
        let mut last = (std::time::Duration::ZERO, std::time::Duration::ZERO, 0.0);
        for _ in 0..3 {
            let small = min_time(3, || f(n));
            let large = min_time(3, || f(4 * n));
            let ratio = large.as_secs_f64() / small.as_secs_f64().max(1e-6);
            if ratio < 10.0 {
                return (small, large);
            }
            last = (small, large, ratio);
        }
        let (small, large, ratio) = last;
        panic!(
            "{what}: 4x input (n = {n}) took {ratio:.1}x the time ({small:?} -> {large:?}), three times: worse than linear"
        );
    }
}

/// Helpers for the special-file and hang tests: run code or a process with
/// a deadline (a blocking read fails the test instead of hanging the suite)
/// and make a FIFO.
pub mod deadline {
    use std::path::Path;
    use std::process::{Command, Output, Stdio};
    use std::time::Duration;

    /// Run `f` on another thread; panic naming `what` when it has not
    /// returned within `secs` seconds.
    pub fn within<T: Send + 'static>(
        what: &str,
        secs: u64,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(secs))
            .unwrap_or_else(|_| panic!("{what}: no answer within {secs} s (hangs)"))
    }

    /// Run `cmd` (stdin closed, stdout and stderr captured) with a deadline:
    /// the process is killed and the test panics, naming `what`, when it has
    /// not exited within `secs` seconds.
    pub fn output_within(what: &str, secs: u64, cmd: &mut Command) -> Output {
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{what}: cannot start: {e}"));
        let pid = child.id();
        let (tx, rx) = std::sync::mpsc::channel();
        // The pipes are drained while waiting, so a chatty process cannot block.
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        match rx.recv_timeout(Duration::from_secs(secs)) {
            Ok(out) => out.unwrap_or_else(|e| panic!("{what}: {e}")),
            Err(_) => {
                let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
                panic!("{what}: no exit within {secs} s (hangs)");
            }
        }
    }

    /// Make a FIFO at `path` with the `mkfifo` command; `false` when it could
    /// not (no such command, or not a Unix system).
    pub fn mkfifo(path: &Path) -> bool {
        Command::new("mkfifo")
            .arg(path)
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// Run `git -C dir ARGS` with a fixed identity, no signing and no line-ending
/// conversion (tests compare bytes); panics with git's stderr when it fails.
/// Returns stdout.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.autocrlf=false",
        ])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("git {args:?}: cannot run: {e}"));
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The example binary `name` that `cargo test` built for the running test
/// binary: `target/<profile>/examples/<name>` or, when only hashed copies
/// exist, the newest `<name>-<hash>` there.
///
/// # Panics
/// When no such file exists (the message names the directory).
pub fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("current_exe: {e}"));
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| panic!("{} has no grandparent", exe.display()))
        .join("examples");
    let exact = format!("{name}{}", std::env::consts::EXE_SUFFIX);
    let prefix = format!("{name}-");
    std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            (n == exact || (n.starts_with(&prefix) && !n.contains('.')))
                && e.file_type().is_ok_and(|t| t.is_file())
        })
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .max()
        .map(|(_, p)| p)
        .unwrap_or_else(|| {
            panic!(
                "{name} not built in {} (cargo test builds the examples, or `cargo build --example {name}`)",
                dir.display()
            )
        })
}

/// The Python interpreters of the harness suites (swebench, mini-swe-agent,
/// Harbor): which one, and whether it has the pinned packages.
pub mod python {
    use std::path::PathBuf;
    use std::process::Command;

    /// The interpreter named by the environment variable `var` (when set
    /// and not empty), else `default`.
    pub fn from_env(var: &str, default: impl Into<PathBuf>) -> PathBuf {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| default.into())
    }

    /// The installed versions of `want`'s distributions, space-separated, as
    /// `python` reports them after importing each module; `Err` with the
    /// last line of its stderr (or why it cannot run).
    fn versions(python: &PathBuf, want: &[(&str, &str, &str)]) -> Result<String, String> {
        let pairs: Vec<String> = want
            .iter()
            .map(|(module, dist, _)| format!("({module:?}, {dist:?})"))
            .collect();
        let script = format!(
            "import importlib, importlib.metadata as m\nw = [{}]\nfor mod, _ in w:\n    importlib.import_module(mod)\nprint(' '.join(m.version(d) for _, d in w))",
            pairs.join(", ")
        );
        let out = Command::new(python)
            .args(["-c", &script])
            .env("MSWEA_SILENT_STARTUP", "1")
            .env(
                "MSWEA_GLOBAL_CONFIG_DIR",
                std::env::temp_dir().join("ct-mswea-probe"),
            )
            .env("HARBOR_TELEMETRY", "0")
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            let err = String::from_utf8_lossy(&out.stderr);
            Err(err.lines().last().unwrap_or("").to_string())
        }
    }

    /// `python` when it imports every `(module, distribution, version)` of
    /// `want` at exactly that version. Otherwise: without
    /// `CODETHREAD_SHARED` a visible `SKIPPED` line and `None`; with it set
    /// a panic naming the interpreter, what it has, and `hint` (how CI
    /// installs it), so a broken CI setup never passes silently.
    pub fn require(python: PathBuf, want: &[(&str, &str, &str)], hint: &str) -> Option<PathBuf> {
        let expected: Vec<&str> = want.iter().map(|(_, _, v)| *v).collect();
        let expected = expected.join(" ");
        let got = versions(&python, want);
        if got.as_deref() == Ok(expected.as_str()) {
            return Some(python);
        }
        let names: Vec<String> = want.iter().map(|(_, d, v)| format!("{d} {v}")).collect();
        let why = format!(
            "{} has no {} (got {got:?}); {hint}. Make the environments with `eval \"$(scripts/setup-python-envs.sh)\"` (what .ci/run runs)",
            python.display(),
            names.join(" and ")
        );
        if std::env::var_os(crate::ENV).is_some_and(|v| !v.is_empty()) {
            panic!("CODETHREAD_SHARED is set but {why}");
        }
        let test = std::thread::current().name().unwrap_or("?").to_string();
        eprintln!("SKIPPED {test}: {why}");
        None
    }
}

/// Appends `v` as an unsigned LEB128 varint (seven bits a byte, low bits
/// first): the Thrift compact protocol's varint and git's delta header size.
pub fn leb128(mut v: u64, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A Parquet file (Thrift compact footer written by hand) with no rows whose
/// schema is a chain of `depth` groups ending in an INT32 leaf: the shape
/// that overflowed the `parquet` crate's recursive schema conversion.
pub fn parquet_nested(depth: usize) -> Vec<u8> {
    parquet_nested_encoded(depth, &[0x15, 2])
}

/// [`parquet_nested`] with each group's `num_children` field written as the
/// given bytes (field header and value): the encodings a reader must decode
/// exactly as the `parquet` crate does (a 64-bit varint the crate truncates
/// to `i32`, a long-form field id it truncates to `i16`).
pub fn parquet_nested_encoded(depth: usize, num_children: &[u8]) -> Vec<u8> {
    let mut f = vec![0x15, 2]; // version = 1
    f.push(0x19); // schema: list<struct>
    f.push(0xfc);
    leb128(depth as u64 + 1, &mut f);
    for i in 0..=depth {
        if i == depth {
            f.extend_from_slice(&[0x15, 2]); // type = INT32
            f.extend_from_slice(&[0x25, 0]); // repetition_type = REQUIRED
            f.extend_from_slice(&[0x18, 1, b'x']); // name
        } else {
            if i > 0 {
                f.extend_from_slice(&[0x35, 0]); // repetition_type (field 3) = REQUIRED
                f.extend_from_slice(&[0x18, 1, b'g']); // name (field 4)
            } else {
                f.extend_from_slice(&[0x48, 1, b'g']); // name
            }
            f.extend_from_slice(num_children); // num_children = 1
        }
        f.push(0);
    }
    f.extend_from_slice(&[0x16, 0]); // num_rows = 0
    f.extend_from_slice(&[0x19, 0x0c]); // row_groups: empty
    f.push(0);
    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(&f);
    file.extend_from_slice(&(f.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    file
}
