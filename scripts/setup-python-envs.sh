#!/usr/bin/env bash
# Makes the Python environments the real-data suites run the real packages
# in (swebench 5.0.2 with mini-swe-agent 2.4.6 and anthropic 2.15.0;
# swebench 4.1.0; harbor 0.25.0 on Python >= 3.12), each reused when it
# already holds these versions, and prints the variables the tests read.
#
#   eval "$(scripts/setup-python-envs.sh)"
#   CODETHREAD_SHARED=../shared cargo test --workspace
#
# `.ci/run` runs this same script. Progress goes to stderr; stdout is only
# the `export` lines.
set -euo pipefail
cd "$(dirname "$0")/.."
exec 3>&1 1>&2

# Python packages of the harness hand-off suites
# (crates/codethread-chain/tests/it/python_harness.rs): pinned swebench and
# mini-swe-agent from PyPI in a virtual environment, reused when it already
# holds these versions; the tests run it through CODETHREAD_PYTHON.
ci_venv="$PWD/.venv-ci"
venv_ok() {
  MSWEA_SILENT_STARTUP=1 MSWEA_GLOBAL_CONFIG_DIR="$ci_venv/mswea" "$ci_venv/bin/python" -c \
    'import sys, swebench, minisweagent, anthropic; sys.exit((swebench.__version__, minisweagent.__version__, anthropic.__version__) != ("5.0.2", "2.4.6", "2.15.0"))' \
    >/dev/null 2>&1
}
if ! venv_ok; then
  t0=$SECONDS
  python3 -m venv --clear "$ci_venv" 2>/dev/null || {
    apt-get update -qq || true
    apt-get install -y -qq python3-venv
    python3 -m venv --clear "$ci_venv"
  }
  "$ci_venv/bin/pip" install --quiet --disable-pip-version-check swebench==5.0.2 mini-swe-agent==2.4.6 anthropic==2.15.0
  echo "python packages installed in $((SECONDS - t0)) s"
fi


# swebench 4.x in a venv of its own (the two generations cannot share one):
# every dataset file the project writes must pass both make_test_spec's.
ci_venv4="$PWD/.venv-ci4"
if ! "$ci_venv4/bin/python" -c 'import sys, swebench; sys.exit(swebench.__version__ != "4.1.0")' >/dev/null 2>&1; then
  t0=$SECONDS
  python3 -m venv --clear "$ci_venv4"
  "$ci_venv4/bin/pip" install --quiet --disable-pip-version-check swebench==4.1.0
  echo "swebench 4.1.0 installed in $((SECONDS - t0)) s"
fi


# harbor (crates/codethread-chain/tests/it/harbor.rs: `harbor lint` and its Task
# loader on every exported task, its pydantic result models for the import)
# needs Python >= 3.12: the first such interpreter on PATH or under pyenv,
# else one that `uv` provides. Without either the install is skipped with a
# warning, and the harbor suites then fail when CODETHREAD_SHARED is set.
harbor_venv="$PWD/.venv-harbor"
if ! HARBOR_TELEMETRY=0 "$harbor_venv/bin/python" -c \
    'import sys, importlib.metadata as m; sys.exit(m.version("harbor") != "0.25.0")' >/dev/null 2>&1; then
  t0=$SECONDS
  py312=""
  for c in python3.13 python3.12 python3 $(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[2-9]*/bin/python3 2>/dev/null); do
    if command -v "$c" >/dev/null 2>&1 && "$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      py312="$(command -v "$c")"
      break
    fi
  done
  if [ -n "$py312" ]; then
    "$py312" -m venv --clear "$harbor_venv"
    "$harbor_venv/bin/pip" install --quiet --disable-pip-version-check harbor==0.25.0
  elif command -v uv >/dev/null 2>&1; then
    uv venv --quiet --python 3.12 "$harbor_venv"
    uv pip install --quiet --python "$harbor_venv/bin/python" harbor==0.25.0
  else
    echo "warning: no Python >= 3.12 and no uv: harbor not installed (the harbor suites fail with CODETHREAD_SHARED set)" >&2
  fi
  [ -x "$harbor_venv/bin/harbor" ] && echo "harbor 0.25.0 installed in $((SECONDS - t0)) s"
fi



{
  echo "export CODETHREAD_PYTHON=\"$ci_venv/bin/python\""
  echo "export CODETHREAD_PYTHON4=\"$ci_venv4/bin/python\""
  echo "export CODETHREAD_HARBOR_PYTHON=\"$harbor_venv/bin/python\" HARBOR_TELEMETRY=0"
} >&3
