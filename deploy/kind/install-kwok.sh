#!/usr/bin/env bash
# Installs kwok into a running kind cluster made from the local node image, with nothing
# pulled: the kwok image comes with the node image (build-node-image.sh); a node made from an
# older one gets it built (build-kwok-image.sh) and loaded with `kind load docker-image`. The
# objects come from
# kwokInClusterManifests (conformance/cluster/src/kwok-manifests.ts), bundled with the esbuild
# that vite brings and run with the repository's node. Then creates one Node annotated for kwok
# and waits until it is Ready, unless FAKE_NODE_NAME is "" (try-kwok.sh: that Node has no taint,
# so the controller and the test pods could be scheduled on it).
#
#   install-kwok.sh CLUSTER_NAME [FAKE_NODE_NAME]     # default kwok-fake-0
#
# Progress to stderr with elapsed seconds. Needs `pnpm install` done (node, esbuild).
set -euo pipefail

cluster="${1:?usage: install-kwok.sh CLUSTER_NAME [FAKE_NODE_NAME]}"
fake_node="${2-kwok-fake-0}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
log() { printf '[install-kwok] %s (%ss)\n' "$*" "$SECONDS" >&2; }
die() { printf '[install-kwok] FAILED: %s\n' "$*" >&2; exit 1; }
SECONDS=0

node_bin="$(readlink -f "$root/node_modules/.bin/node")" || die "run pnpm install first"
esbuild="$(ls -d "$root"/node_modules/.pnpm/esbuild@*/node_modules/esbuild/bin/esbuild 2>/dev/null | head -n 1)"
[[ -x "$esbuild" ]] || die "no esbuild under node_modules/.pnpm (run pnpm install)"
kind_bin="$(bash "$here/build-kind.sh")/kind"
docker inspect "$cluster-control-plane" >/dev/null 2>&1 || die "no node container $cluster-control-plane"
# The node's own kubectl, with the cluster's admin credentials.
kubectl_cmd=(docker exec -i "$cluster-control-plane" kubectl --kubeconfig=/etc/kubernetes/admin.conf)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The objects, by phase: the TS module is the single source of what kwok needs.
cat >"$work/manifests.ts" <<TS
import { kwokInClusterManifests } from '$root/conformance/cluster/src/kwok-manifests.ts';
import { DEFAULT_STAGE_OPTIONS, kwokStages } from '$root/conformance/cluster/src/kwok-stages.ts';
const [phase, kubeletVersion] = process.argv.slice(2);
const m = kwokInClusterManifests({
  stages: kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion }),
  tolerateTaintKeys: ['node-role.kubernetes.io/control-plane'],
});
const items = phase === 'base' ? [m.crd, ...m.rbac] : phase === 'stages' ? m.stages : [m.deployment];
process.stdout.write(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
TS
"$esbuild" --bundle --platform=node --format=esm --log-level=warning \
  --outfile="$work/manifests.mjs" "$work/manifests.ts" || die "esbuild"
image="$(grep -o "registry.k8s.io/kwok/kwok:v[0-9.]*" "$work/manifests.mjs" | head -n 1)"
[[ -n "$image" ]] || die "no kwok image name in the manifests"
kube_version="$(docker exec "$cluster-control-plane" cat /kind/version)"
log "manifests for $image, kubelet version $kube_version"

# Read whole before grep looks at it: a grep that stops early can SIGPIPE the writer.
node_images="$(docker exec "$cluster-control-plane" ctr -n k8s.io images ls -q)"
if grep -qx "$image" <<<"$node_images"; then
  log "$image is in the node image"
else
  built="$(bash "$here/build-kwok-image.sh")"
  [[ "$built" == "$image" ]] || die "build-kwok-image.sh made $built, the manifests use $image"
  "$kind_bin" load docker-image --name "$cluster" "$image" >&2 || die "kind load docker-image $image"
  log "built and loaded $image into $cluster"
fi

apply_phase() { "$node_bin" "$work/manifests.mjs" "$1" "$kube_version" | "${kubectl_cmd[@]}" apply -f - >&2; }
apply_phase base || die "apply CRD and RBAC"
"${kubectl_cmd[@]}" wait --for=condition=Established crd --all --timeout=60s >&2 || die "CRD not Established"
for _ in $(seq 1 30); do apply_phase stages && break; sleep 1; done
apply_phase deployment || die "apply the kwok Deployment"
"${kubectl_cmd[@]}" -n kube-system rollout status deployment/kwok-controller --timeout=180s >&2 ||
  die "kwok Deployment not available"
log "kwok Deployment available"
[[ -n "$fake_node" ]] || exit 0

"${kubectl_cmd[@]}" apply -f - >&2 <<YAML || die "create Node $fake_node"
apiVersion: v1
kind: Node
metadata:
  name: $fake_node
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/hostname: $fake_node
    type: kwok
status:
  capacity: { cpu: "4", memory: 8Gi, pods: "20" }
YAML
"${kubectl_cmd[@]}" wait --for=condition=Ready "node/$fake_node" --timeout=120s >&2 || die "Node $fake_node not Ready"
log "Node $fake_node Ready"
