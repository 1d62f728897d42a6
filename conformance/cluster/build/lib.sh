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

# The whole of a single-binary build script (build-helm.sh, build-prometheus.sh): `go install`
# one command at a pinned version into CACHE_ROOT/<inputs-hash>/bin, the hash covering the
# recipe, Go, the platform and the version, and print that bin directory. With `--bin-dir` it
# only prints it, exiting 3 while the binary is missing. Holds the cache lock while building;
# bin/ never holds a partial binary.
#   go_install_cached NAME VERSION RECIPE CACHE_ROOT PACKAGE@VERSION LDFLAGS [--bin-dir]
go_install_cached() {
  local name="$1" version="$2" recipe="$3" cache_root="$4" package="$5" ldflags="$6"
  shift 6
  use_cached_build_without_go "$cache_root" "$name"
  require_go_126
  local inputs_hash bin_dir started
  inputs_hash="$(
    printf 'recipe=%s go=%s os=%s arch=%s %s=%s\n' \
      "$recipe" "$go_version" "$(go env GOOS)" "$(go env GOARCH)" "$name" "$version" |
      sha256sum | cut -c1-16
  )"
  cache_dir="$cache_root/$inputs_hash"
  bin_dir="$cache_dir/bin"

  if [[ "${1:-}" == "--bin-dir" ]]; then
    printf '%s\n' "$bin_dir"
    [[ -x "$bin_dir/$name" ]] || exit 3
    exit 0
  fi
  [[ $# -eq 0 ]] || die "unknown argument: $1 (usage: build-$name.sh [--bin-dir])"

  if [[ -x "$bin_dir/$name" ]]; then
    printf '%s\n' "$bin_dir"
    exit 0
  fi

  mkdir -p "$cache_dir/logs" || die "cannot create $cache_dir"
  lock_cache_dir
  # Another run may have finished the build while this one waited.
  if [[ -x "$bin_dir/$name" ]]; then
    printf '%s\n' "$bin_dir"
    exit 0
  fi

  staging="$(mktemp -d "$cache_dir/.staging.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  started=$SECONDS
  step "$name" "$name $version" \
    env GOBIN="$staging" nice -n 15 go install -trimpath -ldflags "$ldflags" "$package"
  mkdir -p "$bin_dir"
  # A rename within one filesystem is atomic.
  mv -f "$staging/$name" "$bin_dir/$name" || die "cannot move $name into $bin_dir"
  log "$name $version ready in $bin_dir ($((SECONDS - started))s)"
  printf '%s\n' "$bin_dir"
}
