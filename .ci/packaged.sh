#!/usr/bin/env bash
# Release check (issue 24): what `cargo publish` would upload works for a
# user who has nothing but the packages.
# 1. `cargo publish --workspace --dry-run --no-verify`: every crate packages,
#    in dependency order, with its metadata (no upload).
# 2. The packaged test suites compile from the packages alone: each package
#    directory is built as its own workspace, every codethread dependency
#    patched to its packaged copy (never to the source tree).
# 3. A scratch crate outside the workspace with ONE dependency,
#    codethread-metrics, builds and computes metrics (Lang re-exported).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
target="${CARGO_TARGET_DIR:-$root/target}"
cargo publish --workspace --dry-run --no-verify --allow-dirty --quiet
# What would be uploaded: the .crate files, unpacked to build them alone.
cargo package --workspace --no-verify --allow-dirty --quiet
pkg="$target/package"
for f in "$pkg"/*.crate; do
  rm -rf "${f%.crate}"
  # -m: the files get the time of extraction. With the archive's times, a
  # package at the same path as an earlier build's looked fresh to cargo,
  # which reused the earlier build's artifacts (a CI run compiled a test
  # against an old codethread-testkit without `file_shapes`).
  tar -xzmf "$f" -C "$pkg"
done
crates=(codethread-testkit codethread-io codethread-lex codethread-lang codethread-lizard codethread-rules codethread-patch codethread-skeleton codethread-metrics codethread-bench codethread-llm codethread-chain codethread-scaffold codethread-sandbox codethread-stats codethread-judge codethread-analysis)
patch_args=()
for c in "${crates[@]}"; do
  d="$pkg/$c-0.1.0"
  [ -f "$d/Cargo.toml" ] || { echo "no package $d"; exit 1; }
  patch_args+=(--config "patch.crates-io.$c.path=\"$d\"")
done
# The same target directory as the rest of CI: the registry dependencies
# are built once; the packaged crates, at other paths, get their own hashes.
export CARGO_TARGET_DIR="$target"
scratch_log="$(mktemp)"
for c in "${crates[@]}"; do
  d="$pkg/$c-0.1.0"
  # A package is no member of this repository's workspace.
  grep -q '^\[workspace\]' "$d/Cargo.toml" || printf '\n[workspace]\n' >> "$d/Cargo.toml"
  if ! cargo test --quiet --no-run --manifest-path "$d/Cargo.toml" "${patch_args[@]}" > "$scratch_log" 2>&1; then
    cat "$scratch_log"
    echo "packaged tests of $c do not compile"
    exit 1
  fi
done
echo "packaged tests compile: ${#crates[@]} crates"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch" "$scratch_log"' EXIT
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "scratch-user"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
codethread-metrics = "0.1"

[workspace]
TOML
cat > "$scratch/src/main.rs" <<'RS'
use codethread_metrics::{analyze_source, AnalyzeOptions, Lang, Profile};

fn main() {
    let src = "def f(x):\n    if x:\n        return 1\n    return 2\n";
    let file = analyze_source("a.py", Lang::Python, src, &AnalyzeOptions::new(Profile::Paper)).expect("measured");
    let f = &file.functions[0];
    assert_eq!(f.cyclomatic, Some(2));
    println!("scratch crate: {} cyclomatic {:?}", f.name, f.cyclomatic);
}
RS
cargo run --quiet --manifest-path "$scratch/Cargo.toml" "${patch_args[@]}" 2> "$scratch_log" || { cat "$scratch_log"; exit 1; }
