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
# database). Prometheus tags its Go module v0.<minor><patch>.x for release v3.<minor>.x:
# v0.316.0 is Prometheus 3.16.0.
readonly PROMETHEUS_VERSION=v0.316.0
readonly PROMETHEUS_RELEASE=3.16.0
# Bump when the flags below change, so old caches are not reused for a different build.
readonly BUILD_RECIPE=2

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=prometheus-build
# shellcheck source=lib.sh
source "$here/lib.sh"

# Without the builtinassets tag the web UI is not embedded: the tests use the HTTP API only,
# and the UI's built assets are not part of the Go module. The -X flag gives
# `prometheus --version` the release instead of the module's version.
go_install_cached prometheus "$PROMETHEUS_VERSION" "$BUILD_RECIPE" \
  "${NODEWRIGHT_PROMETHEUS_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/prometheus}" \
  "github.com/prometheus/prometheus/cmd/prometheus@$PROMETHEUS_VERSION" \
  "-s -w -X github.com/prometheus/common/version.Version=$PROMETHEUS_RELEASE" \
  "$@"
