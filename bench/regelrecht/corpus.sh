#!/usr/bin/env bash
# regelrecht-cli over a whole upstream checkout (issue 41 item 2): `wet lijst` cold (no index in
# the cache) and warm (the index of the previous run), and one evaluation warm, in a 25,000-file
# checkout made from the shared corpus (bench/regelrecht/checkout.py).
#
#   bench/regelrecht/corpus.sh [BINARY] [FILES]
#
# BINARY defaults to the glibc release build (cargo build --release -p regelrecht-cli); give the
# static build's (dist/build.sh regelrecht-cli) to measure what is shipped. FILES defaults to 25000.
# The checkout is written to a directory on tmpfs (/dev/shm when there is room, else TMPDIR), as a
# checkout that was just read sits in the page cache; the cache (OVERHEID_CACHE_DIR) is this run's.
# Targets: wet lijst <= 5 s cold, <= 0.5 s warm; an evaluation <= 50 ms warm. Last, the stat
# calls a warm evaluation must make, timed alone (bench/regelrecht/stat_floor.c): its floor.
# Needs hyperfine (bench/run.sh installs it) and ../shared/regelrecht.
set -euo pipefail
cd "$(dirname "$0")/../.."
files=${2:-25000}
if [ -n "${1:-}" ]; then
  bin=$1
else
  cargo build --release --quiet -p regelrecht-cli
  bin=target/release/regelrecht-cli
fi
command -v hyperfine >/dev/null || { echo "hyperfine nodig (zie bench/run.sh)" >&2; exit 1; }
base=/dev/shm
[ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/regelrecht-corpus.XXXXXX")
trap 'rm -rf "$work"' EXIT
python3 bench/regelrecht/checkout.py ../shared/regelrecht/corpus "$work/checkout" "$files"
export OVERHEID_CACHE_DIR="$work/cache"
export REGELRECHT_AUDIT_LOG="$work/audit.jsonl"
corpus=$work/checkout
echo "programma: $bin ($(file -b "$bin" | cut -d, -f1-2))"
echo "machine: $(nproc) kernen, belasting $(cut -d' ' -f1-3 /proc/loadavg)"

# Cold: the cache emptied before every run, so every file is read and scanned.
hyperfine -N --runs 5 --prepare "rm -rf $work/cache" \
  --export-json "$work/cold.json" \
  "$bin wet lijst --corpus $corpus --fields aantal,aantal_versies"
# Warm: the index of the run before.
"$bin" wet lijst --corpus "$corpus" --fields aantal >/dev/null
hyperfine -N --warmup 2 --runs 20 --export-json "$work/warm.json" \
  "$bin wet lijst --corpus $corpus --fields aantal,aantal_versies" \
  "$bin wet lijst --corpus $corpus"
# One evaluation (a law with a cross-law input and an open term filled in by a regulation of its
# own copy), warm: the index and the law's prepared form in the cache.
evaluate=("$bin" evalueer wet_op_de_zorgtoeslag_k500 --uitvoer standaardpremie
  --peildatum 2025-01-01 --corpus "$corpus")
"${evaluate[@]}" >/dev/null
hyperfine -N --warmup 3 --runs 30 --export-json "$work/evalueer.json" "${evaluate[*]}"
echo "index: $(du -b "$work/cache" | cut -f1) bytes in de cache"
# The floor under the warm evaluation: the same stat calls made by a C program that does nothing
# else (bench/regelrecht/stat_floor.c), over the same checkout, right after it.
if command -v cc >/dev/null; then
  cc -O2 -o "$work/stat_floor" bench/regelrecht/stat_floor.c
  "$work/stat_floor" "$corpus" 10
else
  echo "stat_floor overgeslagen: geen C-compiler (cc)"
fi
