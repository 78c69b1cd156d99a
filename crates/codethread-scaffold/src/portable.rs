//! A self-contained Python for images that do not have the one a tool
//! needs: Debian bookworm's Python 3.11, the shared libraries it and its
//! extension modules load, and the dynamic loader that starts it, gathered
//! under one prefix and started through that loader, so it runs in any
//! x86-64 Linux image whatever its C library or Python. SWE-agent's swe-rex
//! runtime ([`crate::swe_agent`]) and the Harbor verifier's grader
//! ([`crate::harbor`]) are made this way from the package registries alone
//! (no registry of images, no download from GitHub).

/// The Dockerfile of a self-contained Python under `prefix` with
/// `requirement` installed (pip, into `<prefix>/site`), built from a Debian
/// bookworm image (`DEBIAN` build argument; `python3-venv` and the CA bundle
/// are installed when missing). The build context holds `wrapper` (copied to
/// `<prefix>/bin/<command>`, the one entry point) and, optionally,
/// `ca-bundle.crt` (the CA bundle pip trusts in this build; in no layer of
/// an image that copies the prefix). `check` is run last (a command line
/// proving the entry point starts). With `sourceless`, the Python code is
/// kept only compiled, without docstrings (the sources deleted), except the
/// packages of `keep_docstrings` (which read their own docstrings), so no
/// readable copy of a library is in the prefix.
#[allow(clippy::too_many_arguments)]
pub(crate) fn dockerfile(
    what: &str,
    prefix: &str,
    requirement: &str,
    wrapper: &str,
    command: &str,
    check: &str,
    sourceless: bool,
    keep_docstrings: &[&str],
) -> String {
    let mut out = format!(
        "# codethread: {what}, self-contained under {prefix} (written by codethread-scaffold):\n\
         # Debian bookworm's Python 3.11, the shared libraries it and its extension modules load,\n\
         # and the dynamic loader that starts it, so it runs in any x86-64 Linux image whatever\n\
         # its libc or Python.\n"
    );
    if sourceless {
        let keep = if keep_docstrings.is_empty() {
            String::new()
        } else {
            format!(
                "; {} keep their docstrings, which they read",
                keep_docstrings.join(", ")
            )
        };
        out.push_str(&format!(
            "# Its Python code is kept only compiled, without docstrings (compileall -b -o 2, the\n\
             # sources deleted{keep}): a readable copy of a library an agent is asked to restore\n\
             # must not be in its image.\n"
        ));
    }
    out.push_str(&format!(
        "ARG DEBIAN=debian:bookworm-slim\n\
         FROM ${{DEBIAN}}\n\
         # ca-bundle.crt, when the build context has it (build_images.sh copies the host's):\n\
         # the CA bundle pip trusts in this build.\n\
         COPY {wrapper} ca-bundle.cr[t] /tmp/ctx/\n\
         RUN set -e; \\\n    \
         mkdir -p {prefix}/bin; cp /tmp/ctx/{wrapper} {prefix}/bin/{command}; \\\n    \
         if [ -s /tmp/ctx/ca-bundle.crt ]; then export PIP_CERT=/tmp/ctx/ca-bundle.crt; fi; \\\n    \
         if ! python3 -c 'import ensurepip, venv' 2>/dev/null || [ ! -s /etc/ssl/certs/ca-certificates.crt ]; then \\\n      \
         apt-get update && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \\\n      \
         && rm -rf /var/lib/apt/lists/*; \\\n    \
         fi; \\\n    \
         python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; \\\n    \
         python3 -m venv /tmp/pip; \\\n    \
         /tmp/pip/bin/pip install -q --no-cache-dir --target {prefix}/site '{requirement}'; \\\n    \
         rm -rf /tmp/pip /tmp/ctx; \\\n    \
         mkdir -p {prefix}/lib; \\\n    \
         cp /usr/bin/python3.11 {prefix}/bin/python3.11; \\\n    \
         cp -a /usr/lib/python3.11 {prefix}/lib/python3.11; \\\n    \
         rm -rf {prefix}/lib/python3.11/test {prefix}/lib/python3.11/idlelib; \\\n    \
         find {prefix}/bin/python3.11 {prefix}/lib/python3.11 {prefix}/site -type f \\\n        \
         \\( -name 'python3.11' -o -name '*.so' -o -name '*.so.*' \\) -exec ldd {{}} + 2>/dev/null \\\n      \
         | awk '$2 == \"=>\" && $3 ~ /^\\// {{ print $3 }} $1 ~ /^\\// && NF > 1 {{ print $1 }}' | sort -u \\\n      \
         | while read -r lib; do cp -L \"$lib\" {prefix}/lib/; done; \\\n    \
         cp -L /lib64/ld-linux-x86-64.so.2 {prefix}/lib/ld-linux-x86-64.so.2; \\\n"
    ));
    if sourceless {
        let exclude: Vec<String> = keep_docstrings.iter().map(|p| format!("/{p}/")).collect();
        let x = if exclude.is_empty() {
            String::new()
        } else {
            format!(" -x '{}'", exclude.join("|"))
        };
        out.push_str(&format!(
            "    python3 -m compileall -q -b -o 2{x} {prefix}/site {prefix}/lib/python3.11 >/dev/null || true; \\\n"
        ));
        for p in keep_docstrings {
            out.push_str(&format!(
                "    python3 -m compileall -q -b {prefix}/site/{p} >/dev/null || true; \\\n"
            ));
        }
        out.push_str(&format!(
            "    find {prefix}/site {prefix}/lib/python3.11 \\( -name '*.py' -o -name '*.pyi' \\) -type f -delete; \\\n    \
             find {prefix}/site {prefix}/lib/python3.11 -name __pycache__ -type d -prune -exec rm -rf {{}} +; \\\n"
        ));
    }
    out.push_str(&format!(
        "    chmod 755 {prefix}/bin/{command}; \\\n    \
         {check}\n"
    ));
    out
}

/// A tag with a hash of what an image is built from: `<repo>:<stem>-<hash>`,
/// so a changed recipe makes a new image instead of reusing an old one.
pub(crate) fn hashed_tag(repo: &str, stem: &str, parts: &[&str]) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(b"\0");
    }
    let hex: String = h
        .finalize()
        .iter()
        .take(4)
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("{repo}:{stem}-{hex}")
}
