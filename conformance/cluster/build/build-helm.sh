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

cache_root="${NODEWRIGHT_HELM_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/helm}"
use_cached_build_without_go "$cache_root" helm
require_go_126

inputs_hash="$(
  printf 'recipe=%s go=%s os=%s arch=%s helm=%s\n' \
    "$BUILD_RECIPE" "$go_version" "$(go env GOOS)" "$(go env GOARCH)" "$HELM_VERSION" |
    sha256sum | cut -c1-16
)"
cache_dir="$cache_root/$inputs_hash"
bin_dir="$cache_dir/bin"

if [[ "${1:-}" == "--bin-dir" ]]; then
  printf '%s\n' "$bin_dir"
  [[ -x "$bin_dir/helm" ]] || exit 3
  exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument: $1 (usage: build-helm.sh [--bin-dir])"

if [[ -x "$bin_dir/helm" ]]; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

mkdir -p "$cache_dir/logs" || die "cannot create $cache_dir"
lock_cache_dir
# Another run may have finished the build while this one waited.
if [[ -x "$bin_dir/helm" ]]; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

staging="$(mktemp -d "$cache_dir/.staging.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
started=$SECONDS
# The -X flag gives `helm version` the real version instead of the module's "v3.21".
build_helm() {
  GOBIN="$staging" nice -n 15 go install -trimpath \
    -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
}
step helm "helm $HELM_VERSION" build_helm
mkdir -p "$bin_dir"
# A rename within one filesystem is atomic: bin/ never holds a partial binary.
mv -f "$staging/helm" "$bin_dir/helm" || die "cannot move helm into $bin_dir"
log "helm $HELM_VERSION ready in $bin_dir ($((SECONDS - started))s)"
printf '%s\n' "$bin_dir"
