#!/usr/bin/env bash
# Makes a Node 24 base image with no registry: a Debian bookworm root filesystem from
# debootstrap (Debian's package mirror), the repository's own Node 24 (the root `node`
# devDependency, from the npm registry) and npm (`npm pack npm@VERSION`), imported with
# `docker import`. The Dockerfile then builds FROM it:
#
#   deploy/image/local-base.sh                      # prints the image name
#   docker build --build-arg BASE_IMAGE="$(deploy/image/local-base.sh)" -t nodewright:0.1.0 .
#
# Needs root (debootstrap, installed from Debian's packages where missing), a running Docker
# engine and `pnpm install` done.
# The image trusts what this machine trusts: the host's CA bundle replaces the rootfs one and
# Node reads it (NODE_EXTRA_CA_CERTS), so a build behind a TLS-inspecting proxy reaches the
# npm registry as the host does. That is a property of this local base, not of the Dockerfile.
# The image is tagged by its inputs, so a second run with the same ones returns at once.
set -euo pipefail

readonly SUITE=bookworm
readonly MIRROR="${NODEWRIGHT_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
readonly NPM_VERSION=11.6.2

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
log() { printf '[local-base] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

node_bin="$(readlink -f "$root/node_modules/.bin/node")" || die "run pnpm install first (no node_modules/.bin/node)"
node_version="$("$node_bin" --version)"
[[ "$node_version" == v24.* ]] || die "the repository's node is $node_version, not 24"
readonly CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt
[[ -r "$CA_BUNDLE" ]] || die "no CA bundle at $CA_BUNDLE"
tag="$({
  printf 'suite=%s node=%s npm=%s arch=%s\n' "$SUITE" "$node_version" "$NPM_VERSION" "$(uname -m)"
  cat "$CA_BUNDLE"
} | sha256sum | cut -c1-12)"
image="nodewright-local/node:24-$tag"
if docker image inspect "$image" >/dev/null 2>&1; then
  printf '%s\n' "$image"
  exit 0
fi

if ! command -v debootstrap >/dev/null; then
  # A fresh Debian machine has no debootstrap; as root, take Debian's package.
  [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null || die "debootstrap is not installed (apt-get install debootstrap, as root)"
  log "installing debootstrap (Debian's package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2 ||
    { apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >&2; } ||
    die "apt-get install debootstrap"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$SECONDS
log "debootstrap $SUITE (minbase) from $MIRROR"
debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 20 "$work/debootstrap.log" >&2; die "debootstrap"; }
log "node $node_version and npm $NPM_VERSION"
install -m 0755 "$node_bin" "$work/rootfs/usr/local/bin/node"
(cd "$work" && npm pack --silent "npm@$NPM_VERSION" >/dev/null) || die "npm pack npm@$NPM_VERSION"
mkdir -p "$work/rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$work/rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$work/rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$work/rootfs/usr/local/bin/npx"
install -m 0644 "$CA_BUNDLE" "$work/rootfs$CA_BUNDLE"
rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
log "docker import $image"
tar -C "$work/rootfs" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_EXTRA_CA_CERTS=$CA_BUNDLE" \
  --change 'CMD ["node"]' - "$image" >/dev/null || die "docker import"
log "$image ready ($((SECONDS - started))s)"
printf '%s\n' "$image"
