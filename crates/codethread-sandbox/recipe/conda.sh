# conda stand-in (codethread sandbox). Real conda cannot be downloaded here; the SWE-bench eval
# scripts only run `source /opt/miniconda3/bin/activate` and `conda activate testbed`, so this
# provides exactly that: a `conda` shell function whose `activate NAME` activates the Python venv at
# /opt/miniconda3/envs/NAME and sets CONDA_DEFAULT_ENV/CONDA_PREFIX like conda does. `deactivate`,
# `info --envs`/`env list` are supported; anything else fails loudly. Safe under `set -u`.
_CONDA_ROOT=/opt/miniconda3
export CONDA_EXE="$_CONDA_ROOT/bin/conda"
export CONDA_SHLVL="${CONDA_SHLVL:-0}"
conda() {
  local cmd="${1:-}"
  case "$cmd" in
    activate)
      local env="${2:-base}"
      if [ "$env" = base ]; then
        if [ -n "${VIRTUAL_ENV:-}" ] && command -v deactivate >/dev/null 2>&1; then deactivate; fi
        export CONDA_DEFAULT_ENV=base CONDA_PREFIX="$_CONDA_ROOT"
        case ":$PATH:" in *":$_CONDA_ROOT/bin:"*) ;; *) export PATH="$_CONDA_ROOT/bin:$PATH";; esac
        return 0
      fi
      local prefix="$_CONDA_ROOT/envs/$env"
      case "$env" in /*) prefix="$env";; esac
      if [ ! -f "$prefix/bin/activate" ]; then
        echo "EnvironmentNameNotFound: Could not find conda environment: $env" >&2; return 1
      fi
      if [ -n "${VIRTUAL_ENV:-}" ] && command -v deactivate >/dev/null 2>&1; then deactivate; fi
      VIRTUAL_ENV_DISABLE_PROMPT=1 . "$prefix/bin/activate"
      export CONDA_DEFAULT_ENV="$env" CONDA_PREFIX="$prefix" CONDA_SHLVL=$((CONDA_SHLVL + 1))
      export CONDA_PROMPT_MODIFIER="($env) "
      ;;
    deactivate)
      if [ -n "${VIRTUAL_ENV:-}" ] && command -v deactivate >/dev/null 2>&1; then deactivate; fi
      export CONDA_DEFAULT_ENV=base CONDA_PREFIX="$_CONDA_ROOT"
      ;;
    info|env)
      echo "# conda environments (codethread stand-in):"
      local d; for d in "$_CONDA_ROOT"/envs/*/; do [ -d "$d" ] && echo "$(basename "$d")  $d"; done
      ;;
    *)
      echo "conda stand-in: unsupported command: conda $*" >&2; return 1;;
  esac
}
