#!/usr/bin/env bash
# docs/install.md section 5 ("Try it on kind with KWOK") end to end on a machine with no
# container registry: every image is built here and loaded with `kind load docker-image`.
#
#   try-kwok.sh [--delete] [CLUSTER_NAME]      # default cluster name nw-kwok
#
#   1. build: kind CLI, node image (starts dockerd), controller image (deploy/image/build-image.sh),
#      helm (conformance/cluster/build/build-helm.sh); all return at once when cached;
#   2. cluster: `kind create cluster` from the local node image (kept when it already exists);
#   3. kwok: deploy/kind/install-kwok.sh with no fake Node of its own;
#   4. image: the controller image loaded into the node;
#   5. charts: nodewright-crd, then nodewright with values-kwok.yaml, replicas=1, the loaded
#      image and imagePullPolicy Never; waits for the pod to be Ready under the chart's
#      ServiceAccount and to hold the leader election Lease;
#   6. workload: KWOKNodeClass + NodePool "default", Deployment "inflate" of 5 pods requesting
#      cpu=1 with nodeSelector karpenter.sh/nodepool=default (so they can only run on nodes
#      nodewright launched, never on the kind node); waits for NodeClaims, Ready kwok Nodes and
#      the 5 pods Running on them;
#   7. scale-down: inflate scaled to 0; waits until every NodeClaim and nodewright Node is gone
#      (emptiness, consolidateAfter 30s);
#   8. with --delete, `kind delete cluster` (a failed run keeps the cluster for inspection).
#
# Re-running reuses the cluster, kwok, the image and the releases (helm upgrade). Progress on
# stderr with elapsed seconds; on failure, exits non-zero naming the step. Needs root and
# `pnpm install` (as the scripts it calls). The kubeconfig is written to
# ${TRY_KWOK_KUBECONFIG:-/tmp/nodewright-kind-CLUSTER_NAME.kubeconfig}.
set -eEuo pipefail

delete=false
cluster=nw-kwok
for arg in "$@"; do
  case "$arg" in
    --delete) delete=true ;;
    -h | --help) sed -n '2,27p' "$0"; exit 0 ;;
    -*) printf 'unknown option %s\n' "$arg" >&2; exit 2 ;;
    *) cluster="$arg" ;;
  esac
done

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

SECONDS=0
step=start
step_started=0
log() { printf '[try-kwok] %s (%ss)\n' "$*" "$SECONDS" >&2; }
begin() {
  [[ "$step" == start ]] || log "step $step done in $((SECONDS - step_started))s"
  step="$1"
  step_started=$SECONDS
  log "step $step: $2"
}
fail() { log "FAILED at step $step: $*"; exit 1; }
trap 'rc=$?; log "FAILED at step $step (exit $rc): $BASH_COMMAND"; exit $rc' ERR

# wait_until SECONDS WHAT COMMAND...: polls every 2 s until COMMAND succeeds.
wait_until() {
  local timeout="$1" what="$2" deadline=$((SECONDS + $1))
  shift 2
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || fail "timed out after ${timeout}s waiting for $what"
    sleep 2
  done
  log "$what"
}

begin build "kind, node image, controller image, helm"
kind="$(bash "$here/build-kind.sh")/kind"
node_image="$(bash "$here/build-node-image.sh")"
kubectl_bin="$(bash "$here/build-node-image.sh" --bin-dir)/kubectl"
controller_image="$(bash "$root/deploy/image/build-image.sh")"
helm="$(bash "$root/conformance/cluster/build/build-helm.sh")/helm"
log "node image $node_image, controller image $controller_image"

export KUBECONFIG="${TRY_KWOK_KUBECONFIG:-/tmp/nodewright-kind-$cluster.kubeconfig}"
kubectl() { "$kubectl_bin" "$@"; }
node_container="$cluster-control-plane"

begin cluster "kind cluster $cluster"
# Lists are read whole before grep looks at them: under pipefail, a grep that stops at its first
# match can make the writer die of SIGPIPE (exit 141) and the whole test fail or go wrong.
node_images() { docker exec "$node_container" ctr -n k8s.io images ls -q; }
if grep -qx "$cluster" <<<"$("$kind" get clusters 2>/dev/null)"; then
  log "cluster $cluster exists; kubeconfig refreshed"
  "$kind" get kubeconfig --name "$cluster" >"$KUBECONFIG"
else
  "$kind" create cluster --name "$cluster" --image "$node_image" \
    --config "$here/cluster.yaml" --kubeconfig "$KUBECONFIG" >&2
fi
kubectl wait --for=condition=Ready "node/$node_container" --timeout=120s >&2

begin kwok "kwok controller and stages"
if kubectl -n kube-system rollout status deployment/kwok-controller --timeout=5s >/dev/null 2>&1; then
  log "kwok-controller already available"
else
  bash "$here/install-kwok.sh" "$cluster" ""
fi

begin image "kind load docker-image $controller_image"
# kind's own presence check says "not yet present" on this node image even when it is (and
# spends 7 s loading again), so ask containerd.
if grep -qx "docker.io/library/$controller_image" <<<"$(node_images)"; then
  log "already in the node"
else
  "$kind" load docker-image --name "$cluster" "$controller_image" >&2
fi

begin charts "helm: nodewright-crd, nodewright (kwok values, 1 replica)"
"$helm" upgrade --install nodewright-crd charts/nodewright-crd \
  --namespace nodewright --create-namespace >&2
# Not `kubectl wait --for=condition=Established`: right after the install it can find no
# conditions yet and fail (".status.conditions accessor error").
established() {
  local crd
  for crd in nodepools.karpenter.sh nodeclaims.karpenter.sh kwoknodeclasses.karpenter.kwok.sh; do
    [[ "$(kubectl get crd "$crd" -o jsonpath='{.status.conditions[?(@.type=="Established")].status}')" == True ]] ||
      return 1
  done
}
wait_until 60 "CRDs Established" established
"$helm" upgrade --install nodewright charts/nodewright --namespace nodewright \
  -f charts/nodewright/values-kwok.yaml --set replicas=1 \
  --set "image.repository=${controller_image%:*}" --set "image.tag=${controller_image##*:}" \
  --set image.pullPolicy=Never >&2
kubectl -n nodewright rollout status deployment/nodewright --timeout=180s >&2
pod="$(kubectl -n nodewright get pods -l app.kubernetes.io/name=nodewright \
  --field-selector=status.phase=Running -o jsonpath='{.items[0].metadata.name}')"
[[ -n "$pod" ]] || fail "no Running controller pod"
sa="$(kubectl -n nodewright get pod "$pod" -o jsonpath='{.spec.serviceAccountName}')"
[[ "$sa" == nodewright ]] || fail "pod $pod runs as ServiceAccount '$sa', not nodewright"
log "controller pod $pod Ready on $(kubectl -n nodewright get pod "$pod" -o jsonpath='{.spec.nodeName}'), ServiceAccount $sa"
lease_holder() {
  [[ "$(kubectl -n nodewright get lease nodewright-leader-election \
    -o jsonpath='{.spec.holderIdentity}')" == "$pod" ]]
}
wait_until 90 "$pod holds Lease nodewright/nodewright-leader-election" lease_holder

begin workload "KWOKNodeClass, NodePool, Deployment inflate (5 x cpu=1)"
# An image the node has (imported from the node image), should a pod ever land on it.
pause_image="$(grep -m1 '^registry.k8s.io/pause:' <<<"$(node_images)")"
kubectl apply -f - >&2 <<YAML
apiVersion: karpenter.kwok.sh/v1alpha1
kind: KWOKNodeClass
metadata: { name: default }
spec: {}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: default }
spec:
  template:
    spec:
      nodeClassRef: { group: karpenter.kwok.sh, kind: KWOKNodeClass, name: default }
      requirements:
        - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }
  disruption: { consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 30s }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: inflate, namespace: default }
spec:
  replicas: 5
  selector: { matchLabels: { app: inflate } }
  template:
    metadata: { labels: { app: inflate } }
    spec:
      nodeSelector: { karpenter.sh/nodepool: default }
      terminationGracePeriodSeconds: 0
      containers:
        - name: inflate
          image: $pause_image
          resources: { requests: { cpu: "1" } }
YAML
five_running() {
  [[ "$(kubectl get pods -l app=inflate --field-selector=status.phase=Running -o name | wc -l)" == 5 ]]
}
wait_until 180 "5 inflate pods Running" five_running
claims="$(kubectl get nodeclaims -o name | wc -l)"
((claims > 0)) || fail "pods Running but no NodeClaim"
kubectl wait --for=condition=Ready nodeclaims --all --timeout=60s >/dev/null
kubectl wait --for=condition=Ready nodes -l karpenter.sh/nodepool=default --timeout=60s >/dev/null
# Every pod on a node nodewright launched (label from the NodePool, kwok's annotation).
for node in $(kubectl get pods -l app=inflate -o jsonpath='{.items[*].spec.nodeName}'); do
  [[ "$(kubectl get node "$node" -o jsonpath='{.metadata.labels.karpenter\.sh/nodepool}')" == default ]] ||
    fail "an inflate pod is on $node, not a nodewright node"
  [[ "$(kubectl get node "$node" -o jsonpath='{.metadata.annotations.kwok\.x-k8s\.io/node}')" == fake ]] ||
    fail "node $node is not a kwok node"
done
log "$claims NodeClaim(s) Ready, 5 pods on kwok nodes $(kubectl get nodes -l karpenter.sh/nodepool=default -o jsonpath='{.items[*].metadata.name}')"
kubectl get nodeclaims,nodes >&2

begin scale-down "inflate scaled to 0; waiting for the nodes to go"
kubectl scale deployment inflate --replicas=0 >&2
no_claims() {
  [[ -z "$(kubectl get nodeclaims -o name)" && -z "$(kubectl get nodes -l karpenter.sh/nodepool -o name)" ]]
}
wait_until 300 "every NodeClaim and nodewright Node gone" no_claims

if $delete; then
  begin delete "kind delete cluster --name $cluster"
  "$kind" delete cluster --name "$cluster" >&2
  rm -f "$KUBECONFIG"
fi
log "step $step done in $((SECONDS - step_started))s"
log "OK: cluster $cluster, kubeconfig $KUBECONFIG$($delete && echo ' (deleted)')"
