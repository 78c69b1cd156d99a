#!/bin/sh
# Build and push the prebuilt images a CodeThread Harbor dataset names
# (exported with `chain harbor --docker-image-template ...`, see
# docs/harbor.md): one line of DATASET/images.tsv per image, `IMAGE<TAB>DIR`,
# DIR the build context relative to DATASET (a Dockerfile using
# `RUN --mount`: BuildKit, or podman). Run it on a build host with a
# container engine and push access; the task.toml files already name the
# images. Not exercised by the test-suite (no container runtime there).
#   sh build_images.sh DATASET [docker|podman] [--no-push]
set -eu
dataset="${1:?usage: $0 DATASET [docker|podman] [--no-push]}"
engine="${2:-docker}"
push=yes
[ "${3:-}" = "--no-push" ] && push=no
list="$dataset/images.tsv"
[ -f "$list" ] || { echo "$list: missing (export with --docker-image-template)" >&2; exit 2; }
tab="$(printf '\t')"
grep -v '^#' "$list" | while IFS="$tab" read -r image context; do
  [ -n "$image" ] || continue
  echo "== $image ($context)"
  "$engine" build -t "$image" "$dataset/$context"
  if [ "$push" = yes ]; then "$engine" push "$image"; fi
done
