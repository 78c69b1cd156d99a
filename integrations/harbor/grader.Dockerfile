# codethread: the grader of Harbor verifiers (swebench), self-contained under /opt/codethread-grader (written by codethread-scaffold):
# Debian bookworm's Python 3.11, the shared libraries it and its extension modules load,
# and the dynamic loader that starts it, so it runs in any x86-64 Linux image whatever
# its libc or Python.
ARG DEBIAN=debian:bookworm-slim
FROM ${DEBIAN}
# ca-bundle.crt, when the build context has it (build_images.sh copies the host's):
# the CA bundle pip trusts in this build.
COPY grader-python ca-bundle.cr[t] /tmp/ctx/
RUN set -e; \
    mkdir -p /opt/codethread-grader/bin; cp /tmp/ctx/grader-python /opt/codethread-grader/bin/python; \
    if [ -s /tmp/ctx/ca-bundle.crt ]; then export PIP_CERT=/tmp/ctx/ca-bundle.crt; fi; \
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null || [ ! -s /etc/ssl/certs/ca-certificates.crt ]; then \
      apt-get update && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
      && rm -rf /var/lib/apt/lists/*; \
    fi; \
    python3 -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; \
    python3 -m venv /tmp/pip; \
    /tmp/pip/bin/pip install -q --no-cache-dir --target /opt/codethread-grader/site 'swebench==5.0.2'; \
    rm -rf /tmp/pip /tmp/ctx; \
    mkdir -p /opt/codethread-grader/lib; \
    cp /usr/bin/python3.11 /opt/codethread-grader/bin/python3.11; \
    cp -a /usr/lib/python3.11 /opt/codethread-grader/lib/python3.11; \
    rm -rf /opt/codethread-grader/lib/python3.11/test /opt/codethread-grader/lib/python3.11/idlelib; \
    find /opt/codethread-grader/bin/python3.11 /opt/codethread-grader/lib/python3.11 /opt/codethread-grader/site -type f \
        \( -name 'python3.11' -o -name '*.so' -o -name '*.so.*' \) -exec ldd {} + 2>/dev/null \
      | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// && NF > 1 { print $1 }' | sort -u \
      | while read -r lib; do cp -L "$lib" /opt/codethread-grader/lib/; done; \
    cp -L /lib64/ld-linux-x86-64.so.2 /opt/codethread-grader/lib/ld-linux-x86-64.so.2; \
    chmod 755 /opt/codethread-grader/bin/python; \
    echo 'import swebench.harness.grading' > /tmp/check.py && /opt/codethread-grader/bin/python /tmp/check.py && rm /tmp/check.py
