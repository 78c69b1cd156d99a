//! Release readiness (issue 24): the declared `rust-version` is true for
//! the locked dependency graph, and every publishable crate carries the
//! metadata and files a registry user needs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

fn version_tuple(v: &str) -> Vec<u64> {
    v.split('.')
        .map(|p| p.parse::<u64>().unwrap_or(0))
        .collect()
}

fn metadata() -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(root)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// No locked dependency (normal, build or dev, any target) needs a newer
/// Rust than the workspace's `rust-version`, and every workspace crate
/// declares that version.
#[test]
fn rust_version_covers_the_locked_graph() {
    let m = metadata();
    let members: Vec<&str> = m["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let resolved: Vec<&str> = m["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    let mut ours = None;
    let mut worst = (Vec::new(), String::new());
    for p in m["packages"].as_array().unwrap() {
        let id = p["id"].as_str().unwrap();
        let rv = p["rust_version"].as_str();
        if members.contains(&id) {
            let rv = rv.unwrap_or_else(|| panic!("{} declares no rust-version", p["name"]));
            match &ours {
                None => ours = Some(rv.to_string()),
                Some(o) => assert_eq!(o, rv, "{}", p["name"]),
            }
        } else if resolved.contains(&id) {
            if let Some(rv) = rv {
                let t = version_tuple(rv);
                if t > worst.0 {
                    worst = (t, format!("{} {} needs {rv}", p["name"], p["version"]));
                }
            }
        }
    }
    let ours = ours.expect("workspace members");
    assert!(
        version_tuple(&ours) >= worst.0,
        "rust-version {ours} is too old: {}",
        worst.1
    );
}

/// Each publishable crate: description, license, readme, keywords and
/// categories in its manifest, and README.md plus both license texts in its
/// directory (a package holds only its own directory).
#[test]
fn publishable_crates_carry_their_metadata_and_files() {
    let m = metadata();
    let members: Vec<&str> = m["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let mut n = 0;
    for p in m["packages"].as_array().unwrap() {
        if !members.contains(&p["id"].as_str().unwrap()) || p["publish"] == serde_json::json!([]) {
            continue;
        }
        let name = p["name"].as_str().unwrap();
        for k in ["description", "license", "readme"] {
            assert!(
                p[k].as_str().is_some_and(|s| !s.is_empty()),
                "{name}: no {k}"
            );
        }
        if name != "codethread" {
            for k in ["keywords", "categories"] {
                assert!(
                    p[k].as_array().is_some_and(|a| !a.is_empty()),
                    "{name}: no {k}"
                );
            }
        }
        let dir = Path::new(p["manifest_path"].as_str().unwrap())
            .parent()
            .unwrap();
        for f in ["README.md", "LICENSE-MIT", "LICENSE-APACHE"] {
            assert!(dir.join(f).is_file(), "{name}: no {f}");
        }
        // Dev-dependencies on workspace crates carry a version, so the
        // packaged manifest keeps them and the packaged tests compile.
        for d in p["dependencies"].as_array().unwrap() {
            if d["path"].is_string() {
                assert_ne!(
                    d["req"], "*",
                    "{name}: path dependency {} without a version",
                    d["name"]
                );
            }
        }
        n += 1;
    }
    assert!(n >= 8, "{n} publishable crates");
}

/// The normal (non-dev) dependency crates of `package` built with `args`.
fn tree(package: &str, args: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO"))
        .args([
            "tree",
            "--offline",
            "-e",
            "normal",
            "--prefix",
            "none",
            "-f",
            "{p}",
            "-p",
            package,
        ])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo tree");
    assert!(
        out.status.success(),
        "cargo tree -p {package} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn features_leave_out_grammars_and_the_http_client() {
    let grammars = |deps: &[String]| -> Vec<String> {
        let mut g: Vec<String> = deps
            .iter()
            .filter(|d| d.starts_with("tree-sitter-") && *d != "tree-sitter-language")
            .cloned()
            .collect();
        g.sort();
        g.dedup();
        g
    };
    // Statistics only: the tree-sitter runtime, no grammar.
    let analysis = tree("codethread-analysis", &["--no-default-features"]);
    assert_eq!(grammars(&analysis), Vec::<String>::new(), "{analysis:?}");
    // The statistics alone: no tree-sitter at all, no HTTP client.
    let stats = tree("codethread-stats", &[]);
    for heavy in ["tree-sitter", "ureq", "codethread-lang"] {
        assert!(!stats.iter().any(|d| d == heavy), "{heavy} in {stats:?}");
    }
    // Chains without the online runner, parquet or grammars.
    let chain = tree("codethread-chain", &["--no-default-features"]);
    for heavy in ["ureq", "rustls", "ring", "parquet"] {
        assert!(!chain.iter().any(|d| d == heavy), "{heavy} in {chain:?}");
    }
    assert_eq!(grammars(&chain), Vec::<String>::new());
    // One grammar for a Python-only user of the metrics.
    let metrics = tree(
        "codethread-metrics",
        &[
            "--no-default-features",
            "--features",
            "codethread-lang/python",
        ],
    );
    assert_eq!(grammars(&metrics), vec!["tree-sitter-python".to_string()]);
    // The defaults hold all eleven languages' grammars and the runner.
    let full = tree("codethread-chain", &[]);
    assert_eq!(grammars(&full).len(), 10, "{:?}", grammars(&full));
    assert!(full.iter().any(|d| d == "ureq"));
}

/// No Python environment or build output is tracked (a committed 721 MiB
/// `.venv-harbor` once went into the package and the history).
#[test]
fn no_virtual_environment_or_build_output_is_tracked() {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run git ls-files");
    if !out.status.success() {
        eprintln!("SKIPPED: not a git checkout");
        return;
    }
    let bad: Vec<String> = out
        .stdout
        .split(|&b| b == 0)
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .filter(|p| {
            let first = p.split('/').next().unwrap_or("");
            first.starts_with(".venv") || first == "target" || p.contains("/site-packages/")
        })
        .take(5)
        .collect();
    assert!(
        bad.is_empty(),
        "tracked environment or build files: {bad:?}"
    );
}
