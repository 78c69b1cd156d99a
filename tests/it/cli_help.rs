//! Every option of every example (every subcommand, recursively) has help
//! text, and the subcommands that read a user's own files name a page
//! that describes the format (issue 24: 18 options had none).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::Command;

use codethread_testkit::example;

fn help(bin: &PathBuf, path: &[String]) -> String {
    let out = Command::new(bin).args(path).arg("--help").output().unwrap();
    assert!(
        out.status.success(),
        "{} {path:?} --help failed",
        bin.display()
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Sections of clap's long help: ("Commands" | "Options" | "Arguments", entries),
/// each entry its first line and the lines of text that belong to it.
fn entries(text: &str, section: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            inside = line.trim_end_matches(':') == section;
            continue;
        }
        if !inside || line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if indent <= 6 && (line.trim_start().starts_with('-') || section != "Options") {
            // An entry: flags (or a name), then its text after two spaces.
            let t = line.trim();
            let (head, rest) = match t.find("  ") {
                Some(i) => (t[..i].to_string(), t[i..].trim().to_string()),
                None => (t.to_string(), String::new()),
            };
            out.push((head, rest));
        } else if let Some(last) = out.last_mut() {
            last.1.push(' ');
            last.1.push_str(line.trim());
        }
    }
    out
}

/// The help text without clap's `[default: ..]`, `[possible values: ..]`, `[aliases: ..]` notes.
fn prose(body: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in body.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

fn check(
    bin_name: &str,
    bin: &PathBuf,
    path: Vec<String>,
    missing: &mut Vec<String>,
    seen: &mut usize,
) {
    let text = help(bin, &path);
    for (head, body) in entries(&text, "Options") {
        *seen += 1;
        if head.starts_with("-h, --help") || head.starts_with("-V, --version") {
            continue;
        }
        if prose(&body).is_empty() {
            missing.push(format!("{bin_name} {} {head}", path.join(" ")));
        }
    }
    for (head, body) in entries(&text, "Arguments") {
        *seen += 1;
        if body.trim().is_empty() {
            missing.push(format!("{bin_name} {} {head}", path.join(" ")));
        }
    }
    for (name, body) in entries(&text, "Commands") {
        let name = name.split_whitespace().next().unwrap_or("").to_string();
        if name == "help" {
            continue;
        }
        if body.trim().is_empty() {
            missing.push(format!("{bin_name} {} (subcommand {name})", path.join(" ")));
        }
        let mut p = path.clone();
        p.push(name);
        check(bin_name, bin, p, missing, seen);
    }
}

#[test]
fn every_option_of_every_example_has_help_text() {
    let mut missing = Vec::new();
    let mut seen = 0;
    for name in [
        "metrics",
        "skeletonize",
        "localize",
        "chain",
        "analyze",
        "reproduce",
    ] {
        let bin = example(name);
        check(name, &bin, Vec::new(), &mut missing, &mut seen);
    }
    assert!(
        seen > 100,
        "only {seen} options and arguments found: the help parser is off"
    );
    assert!(
        missing.is_empty(),
        "{} without help text:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

/// Options that take a user's file say what it must hold, or name the page that does.
#[test]
fn input_files_are_described_where_the_option_is() {
    let cases: &[(&str, &[&str], &str)] = &[
        ("analyze", &["tables"], "--results"),
        ("analyze", &["logit"], "--csv"),
        ("chain", &["build"], "--instances"),
        ("chain", &["gate"], "--reports"),
        ("metrics", &[], "--profile"),
    ];
    for (bin, path, flag) in cases {
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let text = help(&example(bin), &path);
        let e = entries(&text, "Options");
        let (_, body) = e
            .iter()
            .find(|(h, _)| h.split([',', ' ', '=']).any(|w| w == *flag))
            .unwrap_or_else(|| panic!("{bin} {path:?}: no {flag} in\n{text}"));
        assert!(
            body.contains("docs/")
                || body.contains("e.g.")
                || body.contains(':')
                || body.contains("one of"),
            "{bin} {path:?} {flag}: the help says nothing of the format: {body:?}"
        );
    }
}
