#!/usr/bin/env bash
# Builds the control-plane binaries the conformance cluster runs (etcd, kube-apiserver,
# kube-controller-manager, kube-scheduler, kwok) from Go modules, into a cache directory
# keyed by every input of the build, and prints that bin directory on stdout.
#
#   build.sh            build what is missing, then print the bin directory
#   build.sh --bin-dir  print the bin directory only (exit 3 when a binary is missing)
#   build.sh --kwok-version  print the kwok version (the image name deploy/kind uses)
#
# Environment:
#   NODEWRIGHT_CLUSTER_CACHE  cache root (default $HOME/.cache/nodewright/cluster); the
#                             binaries land in <root>/<inputs-hash>/bin
#
# Progress goes to stderr, one line per step with elapsed seconds. Any failure exits
# non-zero with the failing step named; nothing half-built is left in bin/.
set -euo pipefail

# kwok is installed with `go install`, so its version lives here rather than in a go.mod.
readonly KWOK_VERSION=v0.8.0
if [[ "${1:-}" == --kwok-version ]]; then
  printf '%s\n' "$KWOK_VERSION"
  exit 0
fi
# Bump when the flags below change, so old caches are not reused for a different build.
readonly BUILD_RECIPE=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=cluster-build
# shellcheck source=lib.sh
source "$here/lib.sh"

cache_root="${NODEWRIGHT_CLUSTER_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/cluster}"
use_cached_build_without_go "$cache_root" etcd kube-apiserver kube-controller-manager kube-scheduler kwok
require_go_126

# Reads the version a go.mod requires for a module, so go.mod stays the single source.
required_version() {
  local mod="$1" module="$2" version
  version="$(awk -v m="$module" '($1 == m) { print $2; exit } ($1 == "require" && $2 == m) { print $3; exit }' "$mod")"
  [[ -n "$version" ]] || die "$mod does not require $module"
  printf '%s' "$version"
}
kube_version="$(required_version "$here/kubernetes/go.mod" k8s.io/kubernetes)"
etcd_version="$(required_version "$here/etcd/go.mod" go.etcd.io/etcd/server/v3)"
[[ "$kube_version" =~ ^v1\.([0-9]+)\.[0-9]+$ ]] || die "unexpected Kubernetes version $kube_version"
kube_minor="${BASH_REMATCH[1]}"

inputs_hash="$(
  {
    printf 'recipe=%s go=%s os=%s arch=%s kwok=%s\n' \
      "$BUILD_RECIPE" "$go_version" "$(go env GOOS)" "$(go env GOARCH)" "$KWOK_VERSION"
    cd "$here"
    find kubernetes etcd -type f \( -name go.mod -o -name go.sum -o -name '*.go' \) | LC_ALL=C sort |
      while read -r f; do printf '%s\n' "$f"; cat "$f"; done
  } | sha256sum | cut -c1-16
)"
cache_dir="$cache_root/$inputs_hash"
bin_dir="$cache_dir/bin"

kube_binaries=(kube-apiserver kube-controller-manager kube-scheduler)
all_binaries=(etcd "${kube_binaries[@]}" kwok)

missing() {
  local b
  for b in "$@"; do [[ -x "$bin_dir/$b" ]] || return 0; done
  return 1
}

if [[ "${1:-}" == "--bin-dir" ]]; then
  printf '%s\n' "$bin_dir"
  missing "${all_binaries[@]}" && exit 3
  exit 0
fi
[[ $# -eq 0 ]] || die "unknown argument: $1 (usage: build.sh [--bin-dir])"

if ! missing "${all_binaries[@]}"; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

mkdir -p "$cache_dir" || die "cannot create $cache_dir"
lock_cache_dir
# Another run may have finished the build while this one waited.
if ! missing "${all_binaries[@]}"; then
  printf '%s\n' "$bin_dir"
  exit 0
fi

staging="$(mktemp -d "$cache_dir/.staging.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$cache_dir/logs"

started=$SECONDS
# -trimpath and -s -w keep the binaries path-independent and cut the link step; the -X
# flags give the components a real version, which the API server reports and its
# compatibility-version checks read.
version_ldflags=""
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  version_ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=1"
  version_ldflags+=" -X $pkg.gitMinor=$kube_minor -X $pkg.gitTreeState=clean"
done

mkdir -p "$staging/bin"
if missing "${kube_binaries[@]}"; then
  # One invocation for the three mains: they share most packages, so compile once.
  build_kube() {
    cd "$here/kubernetes" &&
      nice -n 15 go build -mod=readonly -trimpath -ldflags "-s -w$version_ldflags" \
        -o "$staging/bin/" ./kube-apiserver ./kube-controller-manager ./kube-scheduler
  }
  step kubernetes "kubernetes $kube_version (${kube_binaries[*]})" build_kube
fi
if missing etcd; then
  build_etcd() {
    cd "$here/etcd" &&
      nice -n 15 go build -mod=readonly -trimpath -ldflags "-s -w" -o "$staging/bin/etcd" .
  }
  step etcd "etcd $etcd_version" build_etcd
fi
if missing kwok; then
  build_kwok() {
    GOBIN="$staging/bin" nice -n 15 go install -trimpath -ldflags "-s -w" \
      "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  }
  step kwok "kwok $KWOK_VERSION" build_kwok
fi

mkdir -p "$bin_dir"
for b in "$staging"/bin/*; do
  # A rename within one filesystem is atomic: bin/ never holds a partial binary.
  mv -f "$b" "$bin_dir/" || die "cannot move $b into $bin_dir"
done
missing "${all_binaries[@]}" && die "build finished but binaries are missing from $bin_dir"
log "all binaries ready in $bin_dir ($((SECONDS - started))s)"
printf '%s\n' "$bin_dir"
