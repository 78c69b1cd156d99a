//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use codethread_patch::MemTree;

/// One JSON object per line.
pub fn read_jsonl(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Every regular file below `dir`, as a tree keyed by `/`-joined relative paths.
pub fn load_tree(dir: &Path) -> MemTree {
    assert!(dir.is_dir(), "{} is not a directory", dir.display());
    let mut t = MemTree::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let p = e.path();
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                t.insert(rel.into_bytes(), std::fs::read(&p).unwrap());
            }
        }
    }
    t
}

/// Writes every file of `t` below `dir`.
pub fn write_tree(t: &MemTree, dir: &Path) {
    for (p, f) in &t.files {
        let full = dir.join(String::from_utf8_lossy(p).as_ref());
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(&full, &f.content).unwrap();
    }
}

/// The dev instances: (instance row, instance files folder).
pub fn dev_instances(dev: &Path) -> Vec<(serde_json::Value, PathBuf)> {
    read_jsonl(&dev.join("instances.jsonl"))
        .into_iter()
        .map(|row| {
            let id = row["instance_id"].as_str().unwrap().to_string();
            (row, dev.join("files").join(id))
        })
        .collect()
}

/// Runs git with `args` in `dir`; returns (success, stderr).
pub fn git(dir: &Path, args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
