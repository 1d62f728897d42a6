#!/usr/bin/env bash
# Builds the repository's Dockerfile FROM a locally made Node 24 base (local-base.sh: no
# registry needed) and prints the image's name. The tag is a hash of everything the Dockerfile
# copies (and of the base), so a second run with the same sources returns at once, and a source
# change gets an image of its own. Needs a Docker engine (ensure-docker.sh) and `pnpm install`.
#
#   deploy/image/build-image.sh            # prints e.g. nodewright:src-3f2a9c1b0d4e
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log() { printf '[build-image] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

base="$("$root/deploy/image/local-base.sh")" || die "the local base image"
cd "$root"
# What the Dockerfile copies: tracked and untracked (not ignored) files, by content.
tag="$({
  printf 'base=%s\n' "$base"
  git ls-files -z --cached --others --exclude-standard -- Dockerfile .dockerignore package.json \
    pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json conformance/package.json packages providers |
    sort -z | xargs -0 sha256sum 2>/dev/null
} | sha256sum | cut -c1-12)"
image="nodewright:src-$tag"
if docker image inspect "$image" >/dev/null 2>&1; then
  printf '%s\n' "$image"
  exit 0
fi
log "docker build $image FROM $base (a cold build takes minutes: dependencies, then tsc -b)"
started=$SECONDS
docker build --build-arg BASE_IMAGE="$base" \
  --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || echo unknown)" -t "$image" . >&2 ||
  die "docker build"
log "$image built ($((SECONDS - started))s)"
printf '%s\n' "$image"
