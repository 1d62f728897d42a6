#!/usr/bin/env bash
# Builds the kind CLI from its Go module (sigs.k8s.io/kind) into a cache directory keyed by
# the recipe, Go, the platform and the kind version, and prints that bin directory on stdout.
# No registry is needed: the module proxy serves the source.
#
#   build-kind.sh            build when missing, then print the bin directory
#   build-kind.sh --bin-dir  print the bin directory only (exit 3 when kind is missing)
#
# Environment: NODEWRIGHT_KIND_CACHE  cache root (default $HOME/.cache/nodewright/kind)
# Progress goes to stderr with elapsed seconds (the shared conformance build helpers).
set -euo pipefail

readonly KIND_VERSION=v0.33.0
# Bump when the flags below change, so old caches are not reused for a different build.
readonly BUILD_RECIPE=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=kind-build
# shellcheck source=../../conformance/cluster/build/lib.sh
source "$here/../../conformance/cluster/build/lib.sh"

go_install_cached kind "$KIND_VERSION" "$BUILD_RECIPE" \
  "${NODEWRIGHT_KIND_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/kind}" \
  "sigs.k8s.io/kind@$KIND_VERSION" "-s -w" "$@"
