#!/usr/bin/env bash
# Makes a Docker engine answer on this machine, for the tests that build and run the controller
# image: returns at once when `docker info` works; otherwise, as root, installs Debian's
# docker.io where no dockerd exists and starts dockerd in the background (its log in
# ${NODEWRIGHT_CACHE:-~/.cache/nodewright}/dockerd.log), then waits for it. Needs no registry:
# nothing is pulled. Exits non-zero with the reason when no engine can be had (not root, no
# apt-get, dockerd not answering within 90 s).
set -euo pipefail

log() { printf '[ensure-docker] %s\n' "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

answers() { timeout 20 docker info >/dev/null 2>&1; }

if command -v docker >/dev/null && answers; then
  exit 0
fi
[[ "$(id -u)" == 0 ]] || die "no Docker engine answers and this is not root: start one (dockerd) or set DOCKER_HOST"

if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
  command -v apt-get >/dev/null || die "no dockerd and no apt-get to install Debian's docker.io"
  log "installing docker.io (Debian's package)"
  started=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2 || die "apt-get update"
  apt-get install -y -qq --no-install-recommends docker.io >&2 || die "apt-get install docker.io"
  log "docker.io installed ($((SECONDS - started))s)"
fi

cache="${NODEWRIGHT_CACHE:-$HOME/.cache/nodewright}"
mkdir -p "$cache"
if ! pgrep -x dockerd >/dev/null; then
  log "starting dockerd (log: $cache/dockerd.log)"
  # setsid: the engine outlives this script and the test run that needed it, as a service would.
  setsid dockerd >>"$cache/dockerd.log" 2>&1 </dev/null &
fi
for _ in $(seq 1 90); do
  if answers; then
    log "Docker engine answers"
    exit 0
  fi
  sleep 1
done
tail -n 20 "$cache/dockerd.log" >&2 || true
die "dockerd did not answer within 90 s"
