#!/usr/bin/env bash
# Build every SWE-bench Multilingual chain of fmt, jq and redis (and of the
# held-out C/C++ repositories valkey, micropython and nlohmann/json) from the
# real git repository, apply PR0 at the base commit and compile it with the
# project's own build. Prints one line per instance:
#   <id>  chain=built|filtered(<reason>)|failed(<reason>)  pr0=compiles|FAILS|-
# Not CI (needs cmake, autoreconf, make, a C/C++ compiler; minutes per instance).
#
# Usage: scripts/cfamily_builds.sh [REPO...] [-- ID...]
#   REPO: fmt jq redis valkey micropython json (default the first three); IDs
#   restrict to those instances.
# Env: CODETHREAD_SHARED (default ../shared beside the repository root),
#      REDIS_GIT (a redis git dir; default /work/.mirror/redis+redis/repo),
#      VALKEY_GIT, MICROPYTHON_GIT, JSON_GIT (likewise, default
#      /work/.mirror/<owner>+<name>/repo, as the search tool's fetch leaves them),
#      WORK (scratch dir; default a new mktemp -d), JOBS (default 2),
#      CHAIN_BIN (a built `chain` example; default: cargo build --release).
# fmt: cmake -DFMT_TEST=ON, then `make <test target>` of each test file the
#      instance's test_patch touches (test/ranges-test.cc -> ranges-test).
# jq:  autoreconf -i, ./configure --with-oniguruma=no --disable-docs, make
#      (the eval_script's build; no oniguruma: the bundle has no submodules).
# redis: make -C src redis-server (its deps compiled once per worktree).
# valkey: make -C src (server, cli, benchmark; deps compiled once per worktree).
# micropython: make -C mpy-cross, then make -C ports/unix VARIANT=minimal (the
#      eval_script builds VARIANT=standard, which needs git submodules the
#      snapshot does not have; minimal compiles the same py/ core).
# json: g++ -std=c++11 -fsyntax-only of each unit test file the test_patch
#      touches, against include/ (the stubbed headers) and the bundled doctest.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${CODETHREAD_SHARED:-$root/../shared}
redis_git=${REDIS_GIT:-/work/.mirror/redis+redis/repo}
work=${WORK:-$(mktemp -d)}
jobs=${JOBS:-2}
repos=(); ids=()
while [ $# -gt 0 ]; do
  if [ "$1" = -- ]; then shift; ids=("$@"); break; fi
  repos+=("$1"); shift
done
[ ${#repos[@]} -eq 0 ] && repos=(fmt jq redis)
# A missing build tool is named up front (exit 2), never reported as a PR0
# that fails to compile.
for r in "${repos[@]}"; do
  case $r in
    fmt) tools="cmake make c++" ;;
    jq) tools="autoreconf libtoolize bison flex make cc" ;;
    redis|valkey) tools="make cc" ;;
    micropython) tools="make cc python3" ;;
    json) tools="c++" ;;
    *) tools="" ;;
  esac
  for t in $tools; do
    command -v "$t" >/dev/null 2>&1 || { echo "$r needs $t (not on PATH)" >&2; exit 2; }
  done
done
dataset=$shared/swebench/swebench_datasets/SWE-bench_Multilingual.test.jsonl
mkdir -p "$work"
echo "# work dir: $work" >&2
chain_bin=${CHAIN_BIN:-$work/chain}
if [ ! -x "$chain_bin" ]; then
  (cd "$root" && cargo build --release --example chain -q) || exit 2
  cp "${CARGO_TARGET_DIR:-$root/target}/release/examples/chain" "$chain_bin" || exit 2
fi
for r in "${repos[@]}"; do
  case $r in
    fmt) full=fmtlib/fmt; git_src=$shared/repos/fmtlib__fmt.bundle ;;
    jq) full=jqlang/jq; git_src=$shared/repos/jqlang__jq.bundle ;;
    redis) full=redis/redis; git_src=$redis_git ;;
    valkey) full=valkey-io/valkey; git_src=${VALKEY_GIT:-/work/.mirror/valkey-io+valkey/repo} ;;
    micropython) full=micropython/micropython
      git_src=${MICROPYTHON_GIT:-/work/.mirror/micropython+micropython/repo} ;;
    json) full=nlohmann/json; git_src=${JSON_GIT:-/work/.mirror/nlohmann+json/repo} ;;
    *) echo "unknown repo $r" >&2; exit 2 ;;
  esac
  git_dir=$work/$r.git
  [ -d "$git_dir" ] || git clone -q --bare "$git_src" "$git_dir" || exit 2
  rows=$work/$r.jsonl
  python3 - "$dataset" "$full" "$rows" "${ids[@]}" <<'PY'
import json, sys
data, full, out, *ids = sys.argv[1:]
with open(data) as f, open(out, "w") as o:
    for line in f:
        row = json.loads(line)
        if row["repo"] == full and (not ids or row["instance_id"] in ids):
            o.write(line)
PY
  [ -s "$rows" ] || continue
  out=$work/chain-$r
  nice "$chain_bin" build --instances "$rows" --repo "$git_dir" --out "$out" --force \
    > "$work/$r.build.log" 2>&1
  while IFS=$'\t' read -r id kind why; do
    if [ "$kind" != built ]; then
      echo "$id  chain=$kind($why)  pr0=-"; continue
    fi
    base=$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r["instance_id"]==sys.argv[2]: print(r["base_commit"])' "$rows" "$id")
    tree=$work/tree-$id
    rm -rf "$tree"
    git --git-dir="$git_dir" worktree add -q --detach "$tree" "$base" 2>/dev/null \
      || { echo "$id  chain=built  pr0=-(no worktree)"; continue; }
    if ! git -C "$tree" apply "$out/instances/$id/pr0.patch"; then
      echo "$id  chain=built  pr0=FAILS(git apply)"; continue
    fi
    log=$work/$id.compile.log
    ok=1
    case $r in
      fmt)
        targets=$(python3 -c 'import json,sys,re
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r["instance_id"]==sys.argv[2]:
        for m in re.finditer(r"^diff --git a/test/(\S+)\.cc ", r["test_patch"], re.M): print(m.group(1))' "$rows" "$id")
        [ -n "$targets" ] || targets=format-test
        (cd "$tree" && mkdir -p build && cd build \
          && nice cmake -DFMT_TEST=ON -DFMT_DOC=OFF .. > "$log" 2>&1 \
          && nice make -j"$jobs" $targets >> "$log" 2>&1) || ok=0 ;;
      jq)
        (cd "$tree" && nice autoreconf -i > "$log" 2>&1 \
          && nice ./configure --with-oniguruma=no --disable-docs --disable-maintainer-mode >> "$log" 2>&1 \
          && nice make -j"$jobs" >> "$log" 2>&1) || ok=0 ;;
      redis)
        (cd "$tree" && nice make -j"$jobs" -C src redis-server > "$log" 2>&1) || ok=0 ;;
      valkey)
        (cd "$tree" && nice make -j"$jobs" -C src > "$log" 2>&1) || ok=0 ;;
      micropython)
        (cd "$tree" && nice make -j"$jobs" -C mpy-cross > "$log" 2>&1 \
          && nice make -j"$jobs" -C ports/unix VARIANT=minimal >> "$log" 2>&1) || ok=0 ;;
      json)
        units=$(python3 -c 'import json,sys,re
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r["instance_id"]==sys.argv[2]:
        for m in re.finditer(r"^diff --git a/(tests/src/\S+\.cpp) ", r["test_patch"], re.M): print(m.group(1))' "$rows" "$id")
        : > "$log"
        for u in $units; do
          [ -f "$tree/$u" ] || continue
          (cd "$tree" && nice c++ -std=c++11 -fsyntax-only -Iinclude -Itests/thirdparty/doctest \
            "$u" >> "$log" 2>&1) || ok=0
        done ;;
    esac
    # The stubs must survive the build (a regenerated lexer.c erases them).
    stubs=$(git -C "$tree" diff --name-only | while read -r f; do grep -c __builtin_trap "$tree/$f"; done \
      | awk '{s+=$1} END {print s+0}')
    if [ $ok = 1 ] && [ "$stubs" = 0 ]; then
      echo "$id  chain=built  pr0=NO-OP(no stub left after the build)"
    elif [ $ok = 1 ]; then
      echo "$id  chain=built  pr0=compiles ($stubs stubs)"
      git --git-dir="$git_dir" worktree remove --force "$tree" 2>/dev/null
    else
      echo "$id  chain=built  pr0=FAILS(see $log)"
    fi
  done < <(python3 - "$out/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for o in s["outcomes"]:
    why = o.get("reason") or o.get("error") or ""
    if o["status"] == "built" and o.get("not_stubbed"):
        why = "not_stubbed: " + "; ".join(f"{t}: {r}" for t, r in o["not_stubbed"])
    print(o["instance_id"], o["status"], " ".join(why.split())[:200], sep="\t")
PY
)
done
