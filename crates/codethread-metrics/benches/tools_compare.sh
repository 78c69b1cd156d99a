#!/usr/bin/env bash
# Side-by-side wall time, CPU time and peak RSS, in one run on the same files:
# the codethread-metrics engine (paper profile, all functions, all metrics)
# against lizard 1.24.3 (`lizard --csv`) and rust-code-analysis-cli 0.0.25
# (`-m -O json`), the tools the paper used for these languages, and a
# tree-sitter parse + one cursor walk of every file (the floor), over the
# Java, C, C++, Ruby and PHP corpora of the shared reference set.
#
# usage: benches/tools_compare.sh [CORPUS...]      (default: gson jq fmt jekyll carbon)
#   CODETHREAD_SHARED  the shared data (corpora under metrics/corpora/)
#   LIZARD_VENV        venv holding lizard==1.24.3 (created under /tmp if missing)
#   RCA                rust-code-analysis-cli 0.0.25 binary (skipped when absent;
#                      install: cargo install rust-code-analysis-cli --version 0.0.25 --locked --root DIR)
#   RUNS               runs per tool (default 3; the best wall and CPU are kept)
#   CARGO_TARGET_DIR   as usual.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
shared="${CODETHREAD_SHARED:?set CODETHREAD_SHARED}"
venv="${LIZARD_VENV:-/tmp/lizard-venv}"
runs="${RUNS:-3}"
if [ ! -x "$venv/bin/lizard" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q lizard==1.24.3
fi
rca="${RCA:-$(command -v rust-code-analysis-cli || true)}"
target="${CARGO_TARGET_DIR:-$here/../../target}"
(cd "$here" && cargo build -q --release -p codethread-metrics --example jsonl --example throughput)
engine="$target/release/examples/jsonl"
corpora=("$@"); [ ${#corpora[@]} -gt 0 ] || corpora=(gson jq fmt jekyll carbon)
echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); runs per tool: $runs (best kept)"

# best "wall cpu rss_mb" over $runs runs of a command (run in the corpus dir);
# a fast command is run REPEAT times per measurement (REPEAT=K before the
# call) and its time divided by K, since /usr/bin/time counts in 10 ms steps.
best() {
  local dir="$1"; shift
  local k="${REPEAT:-1}"
  local bw=999999 bc=999999 br=0 log
  log="$(mktemp)"
  for _ in $(seq "$runs"); do
    (cd "$dir" && /usr/bin/time -f "%e %U %S %M" -o "$log" \
      bash -c 'k=$1; shift; for _ in $(seq "$k"); do "$@" > /dev/null 2>&1 || true; done' _ "$k" "$@") || true
    read -r w u s m < "$log"
    w=$(echo "$w / $k" | bc -l)
    c=$(echo "($u + $s) / $k" | bc -l)
    (( $(echo "$w < $bw" | bc -l) )) && bw=$w
    (( $(echo "$c < $bc" | bc -l) )) && bc=$c
    (( m > br )) && br=$m
  done
  rm -f "$log"
  echo "$bw $bc $(echo "$br / 1024" | bc -l)"
}

printf '\n| corpus | MB | tool | wall s | CPU s | MB/s (CPU) | peak RSS MB | engine speed-up (CPU) |\n|---|---:|---|---:|---:|---:|---:|---:|\n'
for c in "${corpora[@]}"; do
  dir="$shared/metrics/corpora/$c"
  case "$c" in
    gson) lang=java ;; jq) lang=c ;; fmt) lang=cpp ;; jekyll) lang=ruby ;; carbon) lang=php ;; *) lang="" ;;
  esac
  mb=$(find "$dir" -type f -print0 | xargs -0 cat | wc -c | awk '{printf "%.3f", $1/1e6}')
  read -r ew ec er < <(REPEAT=10 best "$dir" "$engine" .)
  row() { printf '| %s | %s | %s | %.3f | %.3f | %.1f | %.0f | %s |\n' "$c" "$mb" "$1" "$2" "$3" "$(echo "$mb / $3" | bc -l)" "$4" "$5"; }
  row "codethread (paper profile)" "$ew" "$ec" "$er" "—"
  read -r lw lc lr < <(best "$dir" "$venv/bin/lizard" --csv ${lang:+-l $lang} .)
  row "lizard 1.24.3" "$lw" "$lc" "$lr" "$(printf '%.1fx' "$(echo "$lc / $ec" | bc -l)")"
  if [ -n "$rca" ] && [ "$lang" != ruby ] && [ "$lang" != php ]; then
    # rust-code-analysis-cli writes nothing for `-p .`: give it the absolute path.
    read -r rw rc rr < <(best "$dir" "$rca" -m -O json -p "$dir")
    row "rust-code-analysis-cli 0.0.25" "$rw" "$rc" "$rr" "$(printf '%.1fx' "$(echo "$rc / $ec" | bc -l)")"
  fi
done
echo
echo "tree-sitter parse+walk floor and the engine per stage (thread CPU):"
for c in "${corpora[@]}"; do
  "$target/release/examples/throughput" "$shared/metrics/corpora/$c" 2>&1 | tail -n 3
done
