#!/usr/bin/env bash
# Makes privileged containers (kind's nodes) start under this machine's Docker engine.
#
#   ensure-privileged-docker.sh IMAGE    IMAGE: any local image with /bin/true
#
# Tries `docker run --privileged IMAGE true` first and returns when it works. Otherwise (the VM
# withholds a capability from dockerd, e.g. CAP_SYS_RESOURCE, and runc fails with "unable to
# apply caps"), as root: installs runc-drop-withheld-caps as
# /usr/local/libexec/nodewright/runc-drop-withheld-caps, registers it in /etc/docker/daemon.json
# as the runtime "nodewright-runc" and makes it the default runtime (kind has no option to pick
# a runtime), reloads dockerd (SIGHUP reloads runtimes and default-runtime; a systemd-managed
# docker is restarted instead) and tries again. Exits non-zero with the reason when privileged
# containers still fail.
set -euo pipefail

readonly RUNTIME=nodewright-runc
readonly WRAPPER=/usr/local/libexec/nodewright/runc-drop-withheld-caps
readonly DAEMON_JSON=/etc/docker/daemon.json

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
log() { printf '[privileged-docker] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

image="${1:?usage: ensure-privileged-docker.sh IMAGE}"
privileged_runs() { docker run --rm --privileged "$image" true >/dev/null 2>"${1:-/dev/null}"; }

# A wrapper installed by an earlier run follows the repository's copy (it is read per call).
if [[ -f "$WRAPPER" ]] && ! cmp -s "$here/runc-drop-withheld-caps" "$WRAPPER"; then
  log "updating $WRAPPER"
  install -m 0755 "$here/runc-drop-withheld-caps" "$WRAPPER"
fi
if privileged_runs; then
  exit 0
fi
err="$(mktemp)"
trap 'rm -f "$err"' EXIT
privileged_runs "$err" || true
log "a privileged container does not start: $(tr '\n' ' ' <"$err" | cut -c1-200)"
[[ "$(id -u)" == 0 ]] || die "registering the $RUNTIME runtime needs root"
command -v jq >/dev/null || die "jq is needed (apt-get install jq)"

install -D -m 0755 "$here/runc-drop-withheld-caps" "$WRAPPER"
mkdir -p "$(dirname "$DAEMON_JSON")"
current='{}'
[[ -s "$DAEMON_JSON" ]] && current="$(cat "$DAEMON_JSON")"
jq --arg name "$RUNTIME" --arg path "$WRAPPER" \
  '.runtimes[$name] = {path: $path} | .["default-runtime"] = $name' <<<"$current" >"$DAEMON_JSON.tmp"
mv -f "$DAEMON_JSON.tmp" "$DAEMON_JSON"
log "registered $RUNTIME ($WRAPPER) as Docker's default runtime in $DAEMON_JSON"

if command -v systemctl >/dev/null && systemctl is-active --quiet docker 2>/dev/null; then
  log "restarting docker.service"
  systemctl restart docker
else
  pid="$(pgrep -xo dockerd)" || die "no dockerd process to reload"
  log "reloading dockerd (pid $pid, SIGHUP)"
  kill -HUP "$pid"
fi
for _ in $(seq 1 30); do
  if [[ "$(docker info --format '{{.DefaultRuntime}}' 2>/dev/null)" == "$RUNTIME" ]]; then break; fi
  sleep 1
done
privileged_runs "$err" || die "privileged containers still fail: $(tr '\n' ' ' <"$err" | cut -c1-300)"
log "privileged containers start with the $RUNTIME runtime"
