#!/usr/bin/env bash
# What the C entry (common::entry!) and the static unwinder (common/build.rs) save, per CLI
# (issue 32.10), in the glibc build, the only one that has them (the static musl build,
# dist/build.sh, has neither; see the README's Start-up): each CLI built three ways, alone as
# `cargo install --locked` builds it, then bench/startup.sh over the three builds at once
# (interleaved).
#
#   bench/entry.sh [RUNS [DIR]]   (default 300 runs per command; the builds kept in DIR)
#
# - both: as `cargo build --release` builds it (C's `main`, libgcc's unwinder linked in);
# - entry-only: OVERHEID_SHARED_UNWINDER=1 (the program loads libgcc_s.so.1);
# - neither: also `--cfg rust_main` for the tool's own crate only (`cargo rustc`), so
#   the other crates, and the names of the tool's startup.order, are those of the other builds.
# Each build relinks the four CLIs (fat LTO): about 15 minutes on 2 cores. Leaves target/release
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
mkdir -p "$work/both" "$work/entry-only" "$work/neither"
for tool in "${tools[@]}"; do
  cargo build --release --quiet -p "$tool"
  cp "target/release/$tool" "$work/both/"
done
for tool in "${tools[@]}"; do
  OVERHEID_SHARED_UNWINDER=1 cargo build --release --quiet -p "$tool"
  cp "target/release/$tool" "$work/entry-only/"
done
for tool in "${tools[@]}"; do
  OVERHEID_SHARED_UNWINDER=1 cargo rustc --release --quiet -p "$tool" --bin "$tool" -- --cfg rust_main
  cp "target/release/$tool" "$work/neither/"
done
for tool in "${tools[@]}"; do cargo build --release --quiet -p "$tool"; done
for dir in both entry-only neither; do
  printf '%s: libgcc_s.so.1 %s\n' "$dir" \
    "$(readelf -d "$work/$dir/kvk-cli" | grep -q 'libgcc_s' && echo geladen || echo 'niet geladen')"
done
bash bench/startup.sh "$runs" "$work/both" "$work/entry-only" "$work/neither"
