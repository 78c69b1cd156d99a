#!/usr/bin/env bash
# Side-by-side wall time, CPU time and peak RSS on one Python tree (default:
# django from the shared corpora), one tool after another in one run:
#   radon 6.0.1      `radon cc`, `radon hal`, `radon raw` (the paper's CC,
#                    Halstead and LLOC for Python)
#   complexipy 8.3.0 cognitive complexity (the paper's tool for Python
#                    cognitive complexity; Rust, on ruff's parser), no cache
#   lizard 1.24.3    cyclomatic complexity (`lizard -l python`)
#   rust-code-analysis-cli 0.0.25  all its metrics (`-m -O json`), when RCA
#                    names the binary or it is on PATH
#   the codethread-metrics engine  all four metrics, paper profile (the
#                    `jsonl` example, every record written)
#
# usage: benches/radon_compare.sh [TREE]
#   RADON_VENV       venv holding radon==6.0.1, complexipy==8.3.0 and
#                    lizard==1.24.3 (created under /tmp if missing)
#   RCA              rust-code-analysis-cli binary (install: cargo install
#                    rust-code-analysis-cli --version 0.0.25 --locked --root DIR)
#   CARGO_TARGET_DIR as usual.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
tree="${1:-${CODETHREAD_SHARED:?set CODETHREAD_SHARED or pass a tree}/metrics/corpora/django}"
venv="${RADON_VENV:-/tmp/radon-venv}"
if [ ! -x "$venv/bin/radon" ] || [ ! -x "$venv/bin/complexipy" ] || [ ! -x "$venv/bin/lizard" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q radon==6.0.1 complexipy==8.3.0 lizard==1.24.3
fi
rca="${RCA:-$(command -v rust-code-analysis-cli || true)}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
target="${CARGO_TARGET_DIR:-$here/../../target}"
(cd "$here" && cargo build -q --release -p codethread-metrics --example jsonl)
engine="$target/release/examples/jsonl"
bytes=$(find "$tree" -name '*.py' -type f -print0 | xargs -0 cat | wc -c)
echo "tree: $tree ($bytes bytes of Python)"
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

measure() { # label, command...
  local label="$1"; shift
  local log; log="$(mktemp)"
  /usr/bin/time -f "%e %U %S %M" -o "$log" "$@" > /dev/null 2>&1 || true
  # A non-zero exit adds a "Command exited with non-zero status N" line first
  # (complexipy exits 1 on django's deliberate syntax-error fixture).
  read -r wall user sys rss < <(tail -n 1 "$log"); rm -f "$log"
  cpu=$(echo "$user + $sys" | bc -l)
  printf '%-12s wall %8.2f s   cpu %8.2f s   peak RSS %7.1f MB\n' "$label" "$wall" "$cpu" "$(echo "$rss / 1024" | bc -l)"
  echo "$wall $cpu" > "/tmp/.radon_compare_$label"
}

measure radon_cc  "$venv/bin/radon" cc -j "$tree"
measure radon_hal "$venv/bin/radon" hal -f -j "$tree"
measure radon_raw "$venv/bin/radon" raw -j "$tree"
measure complexipy "$venv/bin/complexipy" "$tree" -i -q --output-format json \
  --output "$scratch/complexipy.json" --cache-dir "$scratch/complexipy-cache"
echo "complexipy: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$scratch/complexipy.json" 2>/dev/null || echo '?') functions"
measure lizard    "$venv/bin/lizard" -l python "$tree"
if [ -n "$rca" ] && [ -x "$rca" ]; then
  measure rca     "$rca" -m -O json -p "$tree"
else
  echo "rust-code-analysis-cli: not found (set RCA), skipped"
fi
measure engine    "$engine" "$tree"
read -r ccw ccc < /tmp/.radon_compare_radon_cc
read -r halw halc < /tmp/.radon_compare_radon_hal
read -r raww rawc < /tmp/.radon_compare_radon_raw
read -r engw engc < /tmp/.radon_compare_engine
rm -f /tmp/.radon_compare_*
rw=$(echo "$ccw + $halw + $raww" | bc -l); rc=$(echo "$ccc + $halc + $rawc" | bc -l)
printf 'radon cc+hal+raw: wall %.2f s, cpu %.2f s | engine: wall %.2f s, cpu %.2f s\n' "$rw" "$rc" "$engw" "$engc"
printf 'speedup: wall %.1fx, cpu %.1fx (cpu: robust when the machine is shared)\n' \
  "$(echo "$rw / $engw" | bc -l)" "$(echo "$rc / $engc" | bc -l)"
