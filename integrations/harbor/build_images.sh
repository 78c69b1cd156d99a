#!/bin/sh
# Build and push the agent and verifier images of every task of a CodeThread
# Harbor dataset, and name them in each task.toml (for backends that need
# prebuilt images, such as singularity). Not exercised by the test-suite.
#   sh build_images.sh DATASET REGISTRY/PREFIX [docker|podman]
set -e
dataset="$1"; prefix="$2"; engine="${3:-docker}"
[ -n "$dataset" ] && [ -n "$prefix" ] || { echo "usage: $0 DATASET REGISTRY/PREFIX [docker|podman]" >&2; exit 2; }
for task in "$dataset"/*/; do
  task="${task%/}"; name="$(basename "$task" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9._-\n' '-')"
  agent="$prefix/agent:$name"
  "$engine" build -t "$agent" "$task/environment"; "$engine" push "$agent"
  if [ -d "$task/steps" ]; then
    for step in "$task"/steps/*/; do
      s="$(basename "$step")"; img="$prefix/verifier:$name-$s"
      "$engine" build -t "$img" "$step/tests"; "$engine" push "$img"
      echo "# verifier image of step $s: $img (set [steps.verifier.environment] docker_image)" >> "$task/task.toml"
    done
  else
    img="$prefix/verifier:$name"
    "$engine" build -t "$img" "$task/tests"; "$engine" push "$img"
    printf '\n[verifier.environment]\ndocker_image = "%s"\n' "$img" >> "$task/task.toml"
  fi
  sed -i "s|^\[environment\]$|[environment]\ndocker_image = \"$agent\"|" "$task/task.toml"
done
