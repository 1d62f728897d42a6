#!/usr/bin/env bash
# Builds Prometheus (the dashboards integration test scrapes the controller with it and
# evaluates every panel's PromQL) from its Go module into a cache directory keyed by every
# input of the build, and prints that bin directory on stdout. The sibling of build-helm.sh,
# with the same contract, cache layout, lock and logs.
#
#   build-prometheus.sh            build prometheus if missing, then print the bin directory
#   build-prometheus.sh --bin-dir  print the bin directory only (exit 3 when it is missing)
#
# Environment:
#   NODEWRIGHT_PROMETHEUS_CACHE  cache root (default $HOME/.cache/nodewright/prometheus);
#                                prometheus lands in <root>/<inputs-hash>/bin/prometheus
set -euo pipefail

# Installed with `go install`, so the version lives here (checked against the checksum
# database). Prometheus tags its Go module v0.<minor>.<patch> for release v3.<minor>.<patch>.
readonly PROMETHEUS_VERSION=v0.316.0
# Bump when the flags below change, so old caches are not reused for a different build.
readonly BUILD_RECIPE=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=prometheus-build
# shellcheck source=lib.sh
source "$here/lib.sh"

cache_root="${NODEWRIGHT_PROMETHEUS_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/prometheus}"
use_cached_build_without_go "$cache_root" prometheus
require_go_126

inputs_hash="$(
  printf 'recipe=%s go=%s os=%s arch=%s prometheus=%s\n' \
    "$BUILD_RECIPE" "$go_version" "$(go env GOOS)" "$(go env GOARCH)" "$PROMETHEUS_VERSION" |
    sha256sum | cut -c1-16
)"
cache_dir="$cache_root/$inputs_hash"
bin_dir="$cache_dir/bin"

if [[ "${1:-}" == "--bin-dir" ]]; then
  printf '%s\n' "$bin_dir"
  [[ -x "$bin_dir/prometheus" ]] || exit 3
  exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument: $1 (usage: build-prometheus.sh [--bin-dir])"

if [[ -x "$bin_dir/prometheus" ]]; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

mkdir -p "$cache_dir/logs" || die "cannot create $cache_dir"
lock_cache_dir
# Another run may have finished the build while this one waited.
if [[ -x "$bin_dir/prometheus" ]]; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

staging="$(mktemp -d "$cache_dir/.staging.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
started=$SECONDS
# Without the builtinassets tag the web UI is not embedded: the tests only use the HTTP API,
# and the UI's assets are not part of the Go module anyway. The -X flag gives
# `prometheus --version` the release version instead of "(devel)".
build_prometheus() {
  GOBIN="$staging" nice -n 15 go install -trimpath \
    -ldflags "-s -w -X github.com/prometheus/common/version.Version=${PROMETHEUS_VERSION/v0./3.}" \
    "github.com/prometheus/prometheus/cmd/prometheus@$PROMETHEUS_VERSION"
}
step prometheus "prometheus $PROMETHEUS_VERSION" build_prometheus
mkdir -p "$bin_dir"
# A rename within one filesystem is atomic: bin/ never holds a partial binary.
mv -f "$staging/prometheus" "$bin_dir/prometheus" || die "cannot move prometheus into $bin_dir"
log "prometheus $PROMETHEUS_VERSION ready in $bin_dir ($((SECONDS - started))s)"
printf '%s\n' "$bin_dir"
