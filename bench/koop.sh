#!/usr/bin/env bash
# koop-cli on a generated large law (>= 10 MB, real structure) served by the fake KOOP:
# `regeling toon` (target < 150 ms wall, peak RSS < 4x the input) and `regeling artikel`
# (must stay cheap: one article, the law's JSON is never built). Standalone or from bench/run.sh.
#
#   bench/koop.sh [MB]      (default 10)
#
# Each call is a fresh process making both requests (search, then toestand) to the loopback fake.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes=${1:-10}
command -v hyperfine >/dev/null && command -v jq >/dev/null && [ -x /usr/bin/time ] ||
  { echo "hyperfine, jq en GNU time nodig (zie bench/run.sh)" >&2; exit 1; }

cargo build --release --quiet -p koop-cli -p test-support --bins --examples
bin=$PWD/target/release
work=$(mktemp -d)
fake_pid=
trap '[ -n "$fake_pid" ] && kill $fake_pid 2>/dev/null; rm -rf "$work"' EXIT

law="$work/BWBR9999999.xml"
"$bin/examples/large_law" "$megabytes" >"$law"
bytes=$(stat -c %s "$law")

KOOP_FAKE_GROTE_WET="$law" "$bin/fake-upstream" --source koop >"$work/fake.out" 2>/dev/null &
fake_pid=$!
for _ in $(seq 50); do grep -q '^export KOOP_REPOSITORY_URL=' "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
export KOOP_SRU_URL=$(sed -n 's/^export KOOP_SRU_URL=//p' "$work/fake.out")
export KOOP_REPOSITORY_URL=$(sed -n 's/^export KOOP_REPOSITORY_URL=//p' "$work/fake.out")
export KOOP_AUDIT_LOG="$work/audit.jsonl"
# The response cache lives in the work directory; the first three rows bypass it (--geen-cache, the
# figures of before the cache), the last reads the toestand from it (CACHE-1).
export OVERHEID_CACHE_DIR="$work/cache"

koop="$bin/koop-cli"
date=2025-06-01
# Warm the fake's copy of the law and learn the article numbers.
"$koop" regeling toon BWBR9999999 --peildatum $date --output json --fields 'artikelen[].nummer' >"$work/numbers.json"
count=$(jq '.artikelen | length' "$work/numbers.json")
middle=$(jq -r ".artikelen[$((count / 2))].nummer" "$work/numbers.json")
last=$(jq -r '.artikelen[-1].nummer' "$work/numbers.json")

get="$koop regeling toon BWBR9999999 --peildatum $date --output json --geen-cache"
art_mid="$koop regeling artikel BWBR9999999 $middle --peildatum $date --output json --geen-cache"
art_last="$koop regeling artikel BWBR9999999 $last --peildatum $date --output json --geen-cache"
art_warm="$koop regeling artikel BWBR9999999 $middle --peildatum $date --output json"
hyperfine -N --warmup 3 --runs 20 --export-json "$work/koop.json" \
  -n "regeling toon (hele wet)" "$get" \
  -n "regeling artikel $middle (midden)" "$art_mid" \
  -n "regeling artikel $last (laatste)" "$art_last" \
  -n "regeling artikel $middle (uit de cache)" "$art_warm" >/dev/null

rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {print $2}'; }

awk -v b="$bytes" -v n="$count" 'BEGIN { printf "Input: %.1f MiB toestand-XML, %d artikelen (fake KOOP op loopback; per aanroep een zoekvraag en de toestand).\n\n", b / 1048576, n }'
echo "| command | mean (ms) | ± (ms) | peak RSS (MiB) | RSS / input |"
echo "|---|---:|---:|---:|---:|"
jq -r '.results[] | [.command, (.mean*1000), (.stddev*1000)] | @tsv' "$work/koop.json" |
while IFS=$'\t' read -r name mean sd; do
  case "$name" in
    "regeling toon"*) kib=$(rss $get) ;;
    *cache*) kib=$(rss $art_warm) ;;
    *midden*) kib=$(rss $art_mid) ;;
    *) kib=$(rss $art_last) ;;
  esac
  awk -v n="$name" -v m="$mean" -v s="$sd" -v k="$kib" -v b="$bytes" \
    'BEGIN { printf "| %s | %.1f | %.1f | %.1f | %.2f× |\n", n, m, s, k / 1024, k * 1024 / b }'
done
