#!/usr/bin/env bash
# Builds helm (the chart tests' `helm lint` / `helm template`) from its Go module into a cache
# directory keyed by every input of the build, and prints that bin directory on stdout. The
# sibling of build.sh, with the same contract, cache layout, lock and logs.
#
#   build-helm.sh            build helm if missing, then print the bin directory
#   build-helm.sh --bin-dir  print the bin directory only (exit 3 when helm is missing)
#
# Environment:
#   NODEWRIGHT_HELM_CACHE  cache root (default $HOME/.cache/nodewright/helm); helm lands in
#                          <root>/<inputs-hash>/bin/helm
set -euo pipefail

# helm is installed with `go install`, so its version lives here (checked against the
# checksum database, as kwok is in build.sh).
readonly HELM_VERSION=v3.21.4
# Bump when the flags below change, so old caches are not reused for a different build.
readonly BUILD_RECIPE=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=helm-build
# shellcheck source=lib.sh
source "$here/lib.sh"

# The -X flag gives `helm version` the real version instead of the module's "v3.21".
go_install_cached helm "$HELM_VERSION" "$BUILD_RECIPE" \
  "${NODEWRIGHT_HELM_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/helm}" \
  "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" \
  "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
  "$@"
