//! Peak memory of one measurement, taken in a child process: the test
//! binary re-runs itself on its `child` test with [`CHILD_ENV`] set to a
//! spec, the child does the work between [`rss_kb`] and [`report`], and
//! [`measure`] reads the growth of the child's peak RSS (`VmHWM`) over its
//! RSS before the work. Every other test in one process would raise the
//! same peak, hence a process per measurement. Linux (`/proc/self/status`);
//! [`available`] says whether it can be read.

use std::process::Command;

/// The variable that makes the `child` test measure (its value: the spec).
pub const CHILD_ENV: &str = "CODETHREAD_MEM_CHILD";

/// A field of `/proc/self/status` in kB (`"VmRSS:"`, `"VmHWM:"`).
pub fn status_kb(field: &str) -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Whether peak RSS can be read here (prints `SKIPPED` when not).
pub fn available() -> bool {
    let ok = status_kb("VmHWM:").is_some();
    if !ok {
        println!("SKIPPED: no /proc/self/status");
    }
    ok
}

/// In the `child` test: the spec to measure, when this process is a child.
pub fn child_spec() -> Option<String> {
    std::env::var(CHILD_ENV).ok()
}

/// The child's RSS in kB now (before the work).
pub fn rss_kb() -> u64 {
    status_kb("VmRSS:").unwrap_or(0)
}

/// In the child, after the work: prints the growth of the peak over
/// `before_kb` and the input's size for [`measure`].
pub fn report(before_kb: u64, input: usize) {
    let peak = status_kb("VmHWM:").unwrap_or(0);
    println!("GROWTH_KB {} INPUT {input}", peak.saturating_sub(before_kb));
}

/// Runs the `child` test of this test binary on `spec`: the peak RSS
/// growth in bytes and the input's size.
///
/// # Panics
/// When the child fails or reports nothing (its output in the message).
pub fn measure(spec: &str) -> (f64, f64) {
    let exe = std::env::current_exe().unwrap_or_else(|e| panic!("current_exe: {e}"));
    let out = Command::new(exe)
        .args(["--exact", "child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, spec)
        .output()
        .unwrap_or_else(|e| panic!("{spec}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{spec}: {text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let at = text
        .find("GROWTH_KB")
        .unwrap_or_else(|| panic!("{spec}: no report in {text}"));
    let f: Vec<&str> = text[at..].split_whitespace().collect();
    let number = |i: usize| -> f64 {
        f.get(i)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{spec}: bad report in {text}"))
    };
    (number(1) * 1024.0, number(3))
}
