#!/usr/bin/env bash
# What the static unwinder (common/build.rs) saves, per CLI (issue 32.10), in the glibc build, the
# only one that has it (the static musl build, dist/build.sh, links no libgcc_s; see
# ARCHITECTURE.md's Start-up): each CLI built two ways, alone as `cargo install --locked` builds
# it, then bench/startup.sh over both builds at once (interleaved).
#
#   bench/entry.sh [RUNS [DIR]]   (default 300 runs per command; the builds kept in DIR)
#
# - static: as `cargo build --release` builds it (libgcc's unwinder linked in);
# - shared: OVERHEID_SHARED_UNWINDER=1 (the program loads libgcc_s.so.1).
# (The C entry it also measured, `--cfg rust_main`, is gone: issue 42 item 7, bench/RESULTS.md.)
# Each build relinks the four CLIs (fat LTO): about 10 minutes on 2 cores. Leaves target/release
# as `cargo build --release` left it (a last plain build).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
# The family: every *-cli program of the workspace (cargo metadata).
read -r -a tools <<<"$(bash dist/build.sh --list)"
if [ -n "${2:-}" ]; then
  work=$2
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work/static" "$work/shared"
for tool in "${tools[@]}"; do
  cargo build --release --quiet -p "$tool"
  cp "target/release/$tool" "$work/static/"
done
for tool in "${tools[@]}"; do
  OVERHEID_SHARED_UNWINDER=1 cargo build --release --quiet -p "$tool"
  cp "target/release/$tool" "$work/shared/"
done
for tool in "${tools[@]}"; do cargo build --release --quiet -p "$tool"; done
for dir in static shared; do
  printf '%s: libgcc_s.so.1 %s\n' "$dir" \
    "$(readelf -d "$work/$dir/kvk-cli" | grep -q 'libgcc_s' && echo geladen || echo 'niet geladen')"
done
bash bench/startup.sh "$runs" "$work/static" "$work/shared"
