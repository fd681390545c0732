#!/usr/bin/env bash
# Start-up of every CLI (issue 32.10): `--help --json` of each tool (target ≤ 5 ms), `--version`,
# and one typical call each (kvk-cli's `basisprofiel toon` against the local fake, whose peak
# RSS has a target of ≤ 6 MiB; regelrecht-cli's small law), interleaved (bench/interleave.py).
#
#   bench/startup.sh [RUNS] [DIR ...]
#
# RUNS runs per command (default 300). Each DIR holds a build of the four CLIs to compare
# (say, copies of target/release from two settings; a DIR may hold only some of them, and
# FAKE_UPSTREAM may name a fake-upstream already built); the commands of all DIRs run interleaved
# in one run, named DIR's last two components. Without DIRs: the build as shipped
# (dist/build.sh: static, with musl) and the glibc build of `cargo build --release`
# (target/release), both built here (each CLI alone, as `cargo install --locked` builds it).
# Prints one table: wall median, p10–p90, CPU median and peak RSS (GNU time) per command.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-300}
shift || true
# The family: every *-cli program of the workspace (cargo metadata).
read -r -a tools <<<"$(bash dist/build.sh --list)"
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  dirs=("$(bash dist/build.sh "${tools[@]}")")
  for tool in "${tools[@]}"; do cargo build --locked --release --quiet -p "$tool"; done
  dirs+=("$PWD/target/release")
fi
# The fake KvK: FAKE_UPSTREAM names a built one (a debug build serves as well: it is the same for
# every build compared), else the release build, built when missing.
fake=${FAKE_UPSTREAM:-target/release/fake-upstream}
[ -x "$fake" ] || cargo build --release --quiet -p test-support --bin fake-upstream
work=$(mktemp -d)
fake_pid=
trap '[ -z "$fake_pid" ] || kill "$fake_pid" 2>/dev/null; rm -rf "$work"' EXIT
export HOME=$work XDG_CACHE_HOME=$work/cache XDG_STATE_HOME=$work/state XDG_DATA_HOME=$work/data
export OVERHEID_CACHE_DIR=$work/cache
for tool in "${tools[@]}"; do
  upper=$(echo "${tool%-cli}" | tr a-z A-Z)
  export "${upper}_AUDIT_LOG=$work/$tool-audit.jsonl"
done
"$fake" --source kvk >"$work/fake.out" 2>/dev/null &
fake_pid=$!
for _ in $(seq 50); do grep -q '^export KVK_API_BASE=' "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
export KVK_API_BASE=$(sed -n 's/^export KVK_API_BASE=//p' "$work/fake.out") KVK_API_KEY=bench-key

law=../shared/regelrecht/corpus/nl/ministeriele_regeling/regeling_standaardpremie/2025-01-01.yaml
commands=()
for dir in "${dirs[@]}"; do
  dir=$(realpath "$dir")
  label=$(basename "$(dirname "$dir")")/$(basename "$dir")
  # A DIR may hold some of the family only (a comparison of two tools' builds).
  for tool in "${tools[@]}"; do
    [ -x "$dir/$tool" ] || continue
    commands+=("$label $tool --help --json=$dir/$tool --help --json")
  done
  if [ -x "$dir/kvk-cli" ]; then
    commands+=("$label kvk-cli --version=$dir/kvk-cli --version"
      "$label kvk-cli basisprofiel toon=$dir/kvk-cli basisprofiel toon 68750110")
  fi
  if [ -f "$law" ] && [ -x "$dir/regelrecht-cli" ]; then
    commands+=("$label regelrecht-cli evalueer (small law)=$dir/regelrecht-cli evalueer regeling_standaardpremie --uitvoer standaardpremie --peildatum 2025-01-01 --corpus $law")
  fi
done
python3 bench/interleave.py --runs "$runs" --warmup 10 "${commands[@]}"
