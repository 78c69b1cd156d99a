//! The files images are built from, compiled in: shell and Python scripts run inside `docker
//! build` (`recipe/` in this crate's source). They are data; the Rust side decides what goes
//! into each build context.

use sha2::{Digest, Sha256};

/// Files of an environment layer's build context.
pub(crate) const ENV_FILES: &[(&str, &str)] = &[
    ("setup_env.sh", include_str!("../recipe/setup_env.sh")),
    ("conda.sh", include_str!("../recipe/conda.sh")),
    ("activate", include_str!("../recipe/activate")),
    ("conda", include_str!("../recipe/conda")),
    ("entrypoint.sh", include_str!("../recipe/entrypoint.sh")),
    (
        "sweb_local_ca.py",
        include_str!("../recipe/sweb_local_ca.py"),
    ),
    (
        "httpbin_serve.py",
        include_str!("../recipe/httpbin_serve.py"),
    ),
    (
        "httpbin-requirements.txt",
        include_str!("../recipe/httpbin-requirements.txt"),
    ),
];

/// Files of an instance layer's build context.
pub(crate) const REPO_FILES: &[(&str, &str)] = &[
    ("setup_repo.sh", include_str!("../recipe/setup_repo.sh")),
    (
        "build_requires.py",
        include_str!("../recipe/build_requires.py"),
    ),
];

/// The grading driver (`recipe/grade.py`).
pub(crate) const GRADE_SCRIPT: &str = include_str!("../recipe/grade.py");

/// A hash of files: a changed recipe makes new images instead of reusing old ones.
pub(crate) fn files_id(files: &[(&str, &str)]) -> String {
    let mut h = Sha256::new();
    for (name, body) in files {
        h.update(name.as_bytes());
        h.update([0]);
        h.update(body.as_bytes());
        h.update([0]);
    }
    crate::hex(&h.finalize())
}

/// Shell single-quoting: `'...'` with every `'` as `'\''` (codethread-bench's).
pub(crate) use codethread_bench::sh_quote;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_survives_the_shell() {
        let nasty = "a 'b' $HOME `x` \"y\"\nz";
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("printf %s {}", sh_quote(nasty))])
            .output()
            .expect("test");
        assert_eq!(String::from_utf8_lossy(&out.stdout), nasty);
    }
}
