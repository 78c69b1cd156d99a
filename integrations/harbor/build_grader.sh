#!/bin/sh
# Build the grader image Harbor verifiers copy swebench from (`chain harbor --grader-image`),
# from a Debian bookworm image and the package registries alone (no ghcr.io, no GitHub):
#   sh integrations/harbor/build_grader.sh [docker|podman] [TAG]
# The base is $CODETHREAD_DEBIAN_IMAGE (default debian:bookworm-slim); pip trusts
# $CODETHREAD_CA_BUNDLE (default: the host's bundle) during the build. On a machine
# codethread-sandbox set up, `chain sandbox harbor-grader` does the same with its own base image.
set -e
here="$(cd "$(dirname "$0")" && pwd)"
engine="${1:-docker}"
tag="${2:-codethread/harbor-grader:swebench-5.0.2}"
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
cp "$here/grader.Dockerfile" "$ctx/Dockerfile"
cp "$here/grader-python" "$ctx/grader-python"
ca="${CODETHREAD_CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}"
if [ -s "$ca" ]; then cp "$ca" "$ctx/ca-bundle.crt"; fi
DOCKER_BUILDKIT=1 "$engine" build --network host \
  --build-arg "DEBIAN=${CODETHREAD_DEBIAN_IMAGE:-debian:bookworm-slim}" -t "$tag" "$ctx"
echo "$tag"
