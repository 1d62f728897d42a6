#!/usr/bin/env bash
# Builds kwok's controller image with nothing pulled, under the name kwok's manifests use
# (registry.k8s.io/kwok/kwok:<the version conformance/cluster/build/build.sh pins>), and prints
# that name on stdout: FROM the local base (deploy/image/local-base.sh), the kwok binary
# build.sh makes. The node image carries it (build-node-image.sh), so a new cluster needs no
# `kind load`; install-kwok.sh builds and loads it only into a node that lacks it.
# Needs a running Docker engine and `pnpm install` done.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
die() { printf '[kwok-image] FAILED: %s\n' "$*" >&2; exit 1; }

build_script="$root/conformance/cluster/build/build.sh"
version="$(bash "$build_script" --kwok-version)"
image="registry.k8s.io/kwok/kwok:$version"
cp_bin="$(bash "$build_script")"
base="$(bash "$root/deploy/image/local-base.sh")"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$cp_bin/kwok" "$work/kwok"
docker build -q -t "$image" -f - "$work" >/dev/null <<DOCKERFILE || die "docker build $image"
FROM $base
COPY kwok /usr/local/bin/kwok
ENV NODE_EXTRA_CA_CERTS=
ENTRYPOINT ["/usr/local/bin/kwok"]
CMD []
DOCKERFILE
printf '%s\n' "$image"
