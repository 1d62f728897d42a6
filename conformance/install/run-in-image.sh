#!/bin/sh
# Stands in for `node` when rbac.integration.test.ts runs the controller from an image
# (NODEWRIGHT_CONTROLLER_IMAGE): called as `run-in-image.sh BIN_JS ARGS...`, it drops the
# script path and runs the image's entrypoint with ARGS, as the chart's Pod would: read-only
# root filesystem, the image's non-root user, no capabilities, on the host network (the test's
# API server listens on loopback), with the kubeconfig mounted read-only at the same path.
set -eu
: "${NODEWRIGHT_CONTROLLER_IMAGE:?set NODEWRIGHT_CONTROLLER_IMAGE}"
: "${NODEWRIGHT_CONTROLLER_CONTAINER:?set NODEWRIGHT_CONTROLLER_CONTAINER}"
shift
kubeconfig=""
prev=""
for arg in "$@"; do
  [ "$prev" = "--kubeconfig" ] && kubeconfig="$arg"
  prev="$arg"
done
[ -n "$kubeconfig" ] || { echo "run-in-image.sh: no --kubeconfig among the arguments" >&2; exit 2; }
# exec: the docker CLI gets the test's SIGTERM and passes it on to the controller.
exec docker run --rm --name "$NODEWRIGHT_CONTROLLER_CONTAINER" \
  --network host --read-only --cap-drop ALL --security-opt no-new-privileges \
  -v "$kubeconfig:$kubeconfig:ro" \
  "$NODEWRIGHT_CONTROLLER_IMAGE" "$@"
