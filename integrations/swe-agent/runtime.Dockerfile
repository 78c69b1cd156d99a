# codethread: the swe-rex runtime of SWE-agent's docker deployment, self-contained under /opt/swerex (written by codethread-scaffold):
# Debian bookworm's Python 3.11, the shared libraries it and its extension modules load,
# and the dynamic loader that starts it, so it runs in any x86-64 Linux image whatever
# its libc or Python.
# Its Python code is kept only compiled, without docstrings (compileall -b -o 2, the
# sources deleted; bashlex keep their docstrings, which they read): a readable copy of a library an agent is asked to restore
# must not be in its image.
ARG DEBIAN=debian:bookworm-slim
FROM ${DEBIAN}
# ca-bundle.crt, when the build context has it (build_images.sh copies the host's):
# the CA bundle pip trusts in this build.
COPY swerex-remote ca-bundle.cr[t] /tmp/ctx/
RUN set -e; \
    mkdir -p /opt/swerex/bin; cp /tmp/ctx/swerex-remote /opt/swerex/bin/swerex-remote; \
    if [ -s /tmp/ctx/ca-bundle.crt ]; then export PIP_CERT=/tmp/ctx/ca-bundle.crt; fi; \
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null || [ ! -s /etc/ssl/certs/ca-certificates.crt ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
      && rm -rf /var/lib/apt/lists/*; \
    fi; \
    python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; \
    python3 -m venv /tmp/pip; \
    /tmp/pip/bin/pip install -q --no-cache-dir --target /opt/swerex/site 'swe-rex==1.4.0'; \
    rm -rf /tmp/pip /tmp/ctx; \
    mkdir -p /opt/swerex/lib; \
    cp /usr/bin/python3.11 /opt/swerex/bin/python3.11; \
    cp -a /usr/lib/python3.11 /opt/swerex/lib/python3.11; \
    rm -rf /opt/swerex/lib/python3.11/test /opt/swerex/lib/python3.11/idlelib; \
    find /opt/swerex/bin/python3.11 /opt/swerex/lib/python3.11 /opt/swerex/site -type f \
        \( -name 'python3.11' -o -name '*.so' -o -name '*.so.*' \) -exec ldd {} + 2>/dev/null \
      | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && NF > 1 { print $1 }' | sort -u \
      | while read -r lib; do cp -L "$lib" /opt/swerex/lib/; done; \
    cp -L /lib64/ld-linux-x86-64.so.2 /opt/swerex/lib/ld-linux-x86-64.so.2; \
    python3 -m compileall -q -b -o 2 -x '/bashlex/' /opt/swerex/site /opt/swerex/lib/python3.11 >/dev/null || true; \
    python3 -m compileall -q -b /opt/swerex/site/bashlex >/dev/null || true; \
    find /opt/swerex/site /opt/swerex/lib/python3.11 \( -name '*.py' -o -name '*.pyi' \) -type f -delete; \
    find /opt/swerex/site /opt/swerex/lib/python3.11 -name __pycache__ -type d -prune -exec rm -rf {} +; \
    chmod 755 /opt/swerex/bin/swerex-remote; \
    /opt/swerex/bin/swerex-remote --help >/dev/null
