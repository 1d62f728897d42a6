#!/usr/bin/env bash
# Builds a kind node image for Kubernetes (the version conformance/cluster/build pins) with
# nothing pulled from a container registry, tags it nodewright-local/kind-node:<version>-<hash>
# and prints the tag on stdout. The hash covers every input (this directory, the conformance
# Go modules it reuses, Go, the platform, the base image), so a second run with the same
# inputs only checks that the tag exists.
#
#   build-node-image.sh            build if missing, print the tag
#   build-node-image.sh --bin-dir  print the node binaries' directory (kubectl); exit 3 if not built
#
# What it does, each step logged to stderr with elapsed seconds:
#   1. a Docker engine (deploy/image/ensure-docker.sh) and the Debian base image
#      (deploy/image/local-base.sh); privileged containers made to start
#      (ensure-privileged-docker.sh), since kind nodes are privileged;
#   2. binaries from Go modules, cached under ${NODEWRIGHT_KIND_CACHE:-~/.cache/nodewright/kind}/node/<hash>/bin
#      (hash of their own inputs only, so an edit to the node files reuses them):
#      kube-apiserver, kube-controller-manager, kube-scheduler and etcd from
#      conformance/cluster/build/build.sh (its own cache); kubelet, kubeadm, kubectl and
#      kube-proxy from build/kubernetes (same versions as the conformance go.mod); CoreDNS
#      (build/coredns) and a pause process (build/pause);
#   3. one image per name `kubeadm config images list` gives, FROM the base with the binary
#      copied in, and kwok's image (build-kwok-image.sh), saved together into one archive
#      (`docker save`), so a new cluster needs no `kind load` for kwok;
#   4. the node image (node/Dockerfile): Debian's systemd, containerd, runc and CNI plugins,
#      the node binaries, and the archive, which a oneshot unit imports into containerd's
#      k8s.io namespace at boot.
# Needs root, Go 1.26 and `pnpm install` done (local-base.sh takes the repository's node).
set -euo pipefail

# Bump when the recipe changes in a way the hashed files do not show.
readonly BUILD_RECIPE=1

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
conformance_build="$root/conformance/cluster/build"
export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

LOG_TAG=kind-node
# shellcheck source=../../conformance/cluster/build/lib.sh
source "$conformance_build/lib.sh"
progress() { log "$* (${SECONDS}s since start)" ; }
SECONDS=0

required_version() {
  local mod="$1" module="$2" version
  version="$(awk -v m="$module" '($1 == m) { print $2; exit } ($1 == "require" && $2 == m) { print $3; exit }' "$mod")"
  [[ -n "$version" ]] || die "$mod does not require $module"
  printf '%s' "$version"
}

require_go_126
bash "$root/deploy/image/ensure-docker.sh"
base="$(bash "$root/deploy/image/local-base.sh")"
base_id="$(docker image inspect -f '{{.Id}}' "$base")"
progress "base image $base"
bash "$here/ensure-privileged-docker.sh" "$base"
progress "privileged containers start"

kube_version="$(required_version "$here/build/kubernetes/go.mod" k8s.io/kubernetes)"
[[ "$kube_version" == "$(required_version "$conformance_build/kubernetes/go.mod" k8s.io/kubernetes)" ]] ||
  die "build/kubernetes/go.mod and the conformance go.mod pin different Kubernetes versions"
[[ "$kube_version" =~ ^v1\.([0-9]+)\.[0-9]+$ ]] || die "unexpected Kubernetes version $kube_version"
kube_minor="${BASH_REMATCH[1]}"
coredns_version="$(required_version "$here/build/coredns/go.mod" github.com/coredns/coredns)"
etcd_version="$(required_version "$conformance_build/etcd/go.mod" go.etcd.io/etcd/server/v3)"

# Files hashed: the binaries' inputs (their Go modules, the conformance build they share), and
# for the image what goes into it (node/, the runc wrapper) and this recipe; not the scripts
# that only use the image (install-kwok.sh, try-kwok.sh, cluster.yaml), so editing them keeps
# the tag.
hash_files() {
  (cd "$root" && find "$@" -type f ! -name '*.md' | LC_ALL=C sort | while read -r f; do printf '%s\n' "$f"; cat "$f"; done)
}
platform="recipe=$BUILD_RECIPE go=$go_version os=$(go env GOOS) arch=$(go env GOARCH)"
binaries_hash="$(
  { printf '%s\n' "$platform"; hash_files deploy/kind/build conformance/cluster/build/kubernetes \
      conformance/cluster/build/etcd conformance/cluster/build/build.sh conformance/cluster/build/lib.sh; } |
    sha256sum | cut -c1-16
)"
inputs_hash="$(
  { printf '%s base=%s binaries=%s\n' "$platform" "$base_id" "$binaries_hash"
    hash_files deploy/kind/node deploy/kind/runc-drop-withheld-caps deploy/kind/build-node-image.sh \
      deploy/kind/build-kwok-image.sh; } |
    sha256sum | cut -c1-16
)"
tag="nodewright-local/kind-node:$kube_version-${inputs_hash:0:12}"
cache_dir="${NODEWRIGHT_KIND_CACHE:-${HOME:?HOME is not set}/.cache/nodewright/kind}/node/$binaries_hash"
bin_dir="$cache_dir/bin"
if [[ "${1:-}" == --bin-dir ]]; then
  # The node binaries' directory (kubectl of the node's version), without building anything.
  [[ -x "$bin_dir/kubectl" ]] || exit 3
  printf '%s\n' "$bin_dir"
  exit 0
fi
if docker image inspect "$tag" >/dev/null 2>&1; then
  progress "$tag exists"
  printf '%s\n' "$tag"
  exit 0
fi

mkdir -p "$cache_dir/logs" || die "cannot create $cache_dir"
lock_cache_dir
# Another run may have built the image while this one waited for the lock.
if docker image inspect "$tag" >/dev/null 2>&1; then
  progress "$tag exists"
  printf '%s\n' "$tag"
  exit 0
fi

# 2. Binaries.
cp_bin="$(bash "$conformance_build/build.sh")"
progress "control-plane binaries in $cp_bin"

node_binaries=(kubelet kubeadm kubectl kube-proxy)
missing() {
  local b
  for b in "$@"; do [[ -x "$bin_dir/$b" ]] || return 0; done
  return 1
}
staging="$(mktemp -d "$cache_dir/.staging.XXXXXX")"
work="$(mktemp -d)"
trap 'rm -rf "$staging" "$work"' EXIT
if missing "${node_binaries[@]}"; then
  version_ldflags=""
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    version_ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=1"
    version_ldflags+=" -X $pkg.gitMinor=$kube_minor -X $pkg.gitTreeState=clean"
  done
  build_node_kube() {
    cd "$here/build/kubernetes" &&
      nice -n 15 go build -mod=readonly -trimpath -ldflags "-s -w$version_ldflags" -o "$staging/" \
        k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kubeadm \
        k8s.io/kubernetes/cmd/kubectl k8s.io/kubernetes/cmd/kube-proxy
  }
  step node-kubernetes "kubernetes $kube_version (${node_binaries[*]})" build_node_kube
fi
if missing coredns; then
  build_coredns() {
    cd "$here/build/coredns" &&
      nice -n 15 go build -mod=readonly -trimpath -ldflags "-s -w" -o "$staging/coredns" .
  }
  step coredns "coredns $coredns_version" build_coredns
fi
if missing pause; then
  build_pause() {
    cd "$here/build/pause" && nice -n 15 go build -trimpath -ldflags "-s -w" -o "$staging/pause" .
  }
  step pause "pause" build_pause
fi
mkdir -p "$bin_dir"
for b in "$staging"/*; do
  [[ -e "$b" ]] || continue
  mv -f "$b" "$bin_dir/" || die "cannot move $b into $bin_dir"
done
missing "${node_binaries[@]}" coredns pause && die "binaries missing from $bin_dir after the build"
progress "node binaries in $bin_dir"

# 3. Component images, named as kubeadm will ask for them.
mapfile -t refs < <("$bin_dir/kubeadm" config images list --kubernetes-version "$kube_version")
[[ ${#refs[@]} -gt 0 ]] || die "kubeadm listed no images"
pause_tag=""
for ref in "${refs[@]}"; do
  name="${ref##*/}"
  name="${name%%:*}"
  extra=""
  case "$name" in
    kube-apiserver | kube-controller-manager | kube-scheduler | etcd) src="$cp_bin/$name" ;;
    kube-proxy)
      src="$bin_dir/$name"
      # kube-proxy drives the host's packet filter through these commands.
      extra='RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends iptables nftables conntrack ipset >/dev/null && rm -rf /var/lib/apt/lists/*'
      ;;
    coredns | pause) src="$bin_dir/$name" ;;
    *) die "kubeadm lists an image this script cannot build: $ref" ;;
  esac
  [[ "$name" == pause ]] && pause_tag="${ref##*:}"
  label="$name"
  [[ "$name" == etcd ]] && label="etcd $etcd_version (tagged as kubeadm expects)"
  ctx="$work/ctx-$name"
  mkdir -p "$ctx"
  cp "$src" "$ctx/$name"
  # Upstream images start pause and coredns as /pause and /coredns; kubeadm runs the others
  # by command name.
  docker build -q -t "$ref" -f - "$ctx" >"$cache_dir/logs/image-$name.log" 2>&1 <<DOCKERFILE ||
FROM $base
$extra
COPY $name /usr/local/bin/$name
RUN ln -s usr/local/bin/$name /$name
LABEL org.nodewright.component="$label"
ENV NODE_EXTRA_CA_CERTS=
ENTRYPOINT ["/usr/local/bin/$name"]
CMD []
DOCKERFILE
    { tail -n 20 "$cache_dir/logs/image-$name.log" >&2; die "docker build $ref"; }
  rm -rf "$ctx"
  progress "image $ref"
done
[[ -n "$pause_tag" ]] || die "kubeadm listed no pause image"
refs+=("$(bash "$here/build-kwok-image.sh")")
progress "image ${refs[-1]}"
mkdir -p "$work/node-ctx/images"
docker save -o "$work/node-ctx/images/kubernetes-images.tar" "${refs[@]}" || die "docker save"
progress "saved ${#refs[@]} images ($(du -m "$work/node-ctx/images/kubernetes-images.tar" | cut -f1) MB)"

# 4. The node image.
ctx="$work/node-ctx"
cp -r "$here/node" "$ctx/node"
cp "$here/runc-drop-withheld-caps" "$ctx/"
sed -i "s/@PAUSE_TAG@/$pause_tag/" "$ctx/node/containerd-config.toml"
printf '%s' "$kube_version" >"$ctx/node/version"
mkdir -p "$ctx/bin"
cp "$bin_dir/kubelet" "$bin_dir/kubeadm" "$bin_dir/kubectl" "$ctx/bin/"
step node-image "docker build $tag" \
  docker build --build-arg "BASE_IMAGE=$base" \
    --label "org.nodewright.kubernetes=$kube_version" --label "org.nodewright.etcd=$etcd_version" \
    --label "org.nodewright.coredns=$coredns_version" \
    -t "$tag" -f "$ctx/node/Dockerfile" "$ctx"
progress "$tag built ($(docker image inspect -f '{{.Size}}' "$tag" | awk '{ printf "%d MB", $1 / 1e6 }'))"
printf '%s\n' "$tag"
