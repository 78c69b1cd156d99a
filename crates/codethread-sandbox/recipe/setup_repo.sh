#!/bin/bash
# Instance layer of a codethread sandbox image, run inside `docker build` (network: host). It does
# what SWE-bench's repository script does (the repository at the base commit in /testbed, chmod,
# activate, pre_install, install, an empty "SWE-bench" commit so `git diff` shows only later
# changes), with the clone replaced by /ctx/testbed: a depth-1 clone whose HEAD is the base commit.
# Also: the newest release tag at or before the base commit (setuptools_scm versions the project
# by it; a depth-1 clone has no tags), and a wheelhouse with the project's build requirements plus
# a pip.conf, so the eval script's `pip install [-e] .` works without network.
# Inputs: /ctx/instance.conf (BASE_COMMIT, INSTALL, PRE_INSTALL, SCM_TAG), /ctx/testbed,
# /ctx/build_requires.py, /ctx/host-ca.crt.
set -euxo pipefail
. /ctx/instance.conf
mkdir -p /testbed
cp -a /ctx/testbed/. /testbed/
chmod -R 777 /testbed
cd /testbed
git config --global --add safe.directory /testbed
test "$(git rev-parse HEAD)" = "$BASE_COMMIT"
if [ -n "${SCM_TAG:-}" ]; then git tag "$SCM_TAG" "$BASE_COMMIT"; fi
export PIP_CERT=/ctx/host-ca.crt REQUESTS_CA_BUNDLE=/ctx/host-ca.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
  PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
source /opt/miniconda3/bin/activate
conda activate testbed
echo "Current environment: $CONDA_DEFAULT_ENV"
eval "${PRE_INSTALL:-}"
eval "$INSTALL"
git config --global user.email setup@swebench.config
git config --global user.name SWE-bench
git commit --allow-empty -am SWE-bench
python /ctx/build_requires.py /testbed > /tmp/build-requires.txt
python -m pip download -q -d /opt/wheelhouse --only-binary=:all: -r /tmp/build-requires.txt
printf '[global]\nno-index = true\nfind-links = /opt/wheelhouse\n' > /opt/miniconda3/envs/testbed/pip.conf
python -m pip freeze --all > /opt/miniconda3/envs/testbed/instance.freeze.txt
conda deactivate
rm -rf /root/.cache /tmp/*
