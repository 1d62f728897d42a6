# Shared by build.sh and build-helm.sh (sourced, not run): logging, the Go version check and a
# build step with a heartbeat. The caller sets LOG_TAG before sourcing, and cache_dir before
# calling step.

log() { printf '[%s] %s\n' "$LOG_TAG" "$*" >&2; }
die() { log "FAILED: $*"; exit 1; }

# Sets go_version, or dies unless the go on PATH is 1.26.x (what the pinned modules need).
require_go_126() {
  command -v go >/dev/null || die "go is not on PATH (Go 1.26 is required)"
  go_version="$(go env GOVERSION)"
  case "$go_version" in
    go1.26*) ;;
    *) die "Go 1.26.x is required (the pinned modules need it, v1.37 needs 1.27); found $go_version" ;;
  esac
}

# Without Go the inputs cannot be hashed (the Go version is one of them), but a machine that
# only runs tests may hold a build already (a CI cache, a copied home): prints the newest
# complete CACHE_ROOT/*/bin and exits 0 rather than refuse, saying that its inputs went
# unchecked; dies when there is none. Returns at once when go is on PATH.
#   use_cached_build_without_go CACHE_ROOT BINARY...
use_cached_build_without_go() {
  command -v go >/dev/null && return 0
  local root="$1" newest="" dir b complete
  shift
  for dir in "$root"/*/bin; do
    complete=1
    for b in "$@"; do
      [[ -x "$dir/$b" ]] || complete=0
    done
    if ((complete)) && { [[ -z "$newest" ]] || [[ "$dir" -nt "$newest" ]]; }; then newest="$dir"; fi
  done
  [[ -n "$newest" ]] || die "go is not on PATH (Go 1.26 is required to build) and $root holds no complete build"
  log "go is not on PATH: using the newest cached build $newest (its inputs are not checked)"
  printf '%s\n' "$newest"
  exit 0
}

# Two test runs may start at once: holds $cache_dir/.lock (fd 9) for the rest of the script,
# waiting while another build holds it. Where flock is missing, builds unlocked.
lock_cache_dir() {
  command -v flock >/dev/null || return 0
  exec 9>"$cache_dir/.lock"
  if ! flock -n 9; then
    log "another build holds $cache_dir/.lock; waiting for it"
    flock 9
  fi
}

# Runs one build step in the background and logs a heartbeat every minute, so CI never
# sees a silent job. No helper process outlives the step: a stray one would keep the
# script's stdout (read by the launcher) and the build lock open.
#   step SLUG LABEL COMMAND...   (output in $cache_dir/logs/SLUG.log)
step() {
  local slug="$1" label="$2"; shift 2
  local t0=$SECONDS next=60 pid
  local step_log="$cache_dir/logs/$slug.log"
  log "$label: building (log: $step_log)"
  "$@" >"$step_log" 2>&1 9>&- &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if ((SECONDS - t0 >= next)); then
      log "$label: still building ($((SECONDS - t0))s)"
      next=$((next + 60))
    fi
  done
  if ! wait "$pid"; then
    tail -n 40 "$step_log" >&2
    die "$label after $((SECONDS - t0))s (full log: $step_log)"
  fi
  log "$label: done in $((SECONDS - t0))s"
}
