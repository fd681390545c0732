#!/usr/bin/env bash
# The release build's time (issue 32.10): the workspace's own crates built again from clean,
# with the dependencies already built (as after a change to `common`, the usual case; a build
# from nothing adds the dependencies once).
#
#   bench/build-time.sh [CARGO ARGS ...]     e.g. --config 'profile.release.lto="thin"'
#
# SKIP_DEPS=1 skips the untimed first build (then dependencies missing from target/ are built in
# the timed one; `--timings` in CARGO ARGS says which units took the time).
#
# Removes the release artifacts of the workspace's packages only (`cargo clean --release -p`
# for each, never the dependencies), then times `cargo build --release --workspace -j 2`.
# Prints the wall and CPU time and the load average (the machine may be shared).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=$(cargo metadata --no-deps --format-version 1 |
  python3 -c 'import json, sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["packages"]))')
[ "${SKIP_DEPS:-}" = 1 ] || cargo build --release --workspace --quiet "$@" # the dependencies, not timed
args=()
for p in $packages; do args+=(-p "$p"); done
cargo clean --release --quiet "${args[@]}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f 'wall %e s, user %U s, system %S s' cargo build --release --workspace -j 2 --quiet "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
