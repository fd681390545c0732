#!/usr/bin/env bash
# From a release archive to the main job's answer, as a user without Rust gets there: unpack the
# archive (already downloaded: no network) into an empty directory and run the main job from it.
#
#   bench/release.sh [RUNS] [ARCHIVE]    (default: 10 runs, target/dist's x86_64 archive)
#
# Prints the archive's size and, per run, the wall time of `tar -xzf` plus the main job (a new
# directory each run, the page cache warm after the first), then the median and the largest.
# The figures in bench/RESULTS.md ("The release archive") come from here; say the profile the
# archive was built with (dist/release.sh: release unless --profile).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
archive=${2:-$(ls "$(bash dist/build.sh --target-dir)"/dist/overheid-cli-*-x86_64-unknown-linux-musl.tar.gz)}
bytes=$(stat -c %s "$archive")
python3 -c 'import sys; b = int(sys.argv[1]); print(f"archive: {sys.argv[2]}: {b} bytes, {b / 2**20:.1f} MiB")' "$bytes" "$(basename "$archive")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
times=()
for run in $(seq "$runs"); do
  dir=$work/$run
  mkdir "$dir"
  start=$(date +%s%N)
  tar -xzf "$archive" -C "$dir"
  REGELRECHT_AUDIT_LOG="$dir/audit.jsonl" "$dir"/overheid-cli-*/bin/regelrecht-cli \
    check energiebesparing 68750110 --elektriciteit-kwh 62000 --gas-m3 31000 >/dev/null
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000000 )))
  rm -rf "$dir"
done
printf '%s\n' "${times[@]}" | sort -n | python3 -c '
import sys
t = [int(x) for x in sys.stdin]
print("tar -xzf + main job, ms:", " ".join(map(str, t)))
print(f"median {t[len(t) // 2]} ms, largest {t[-1]} ms ({len(t)} runs)")'
