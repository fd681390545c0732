#!/usr/bin/env bash
# Benchmarks against the local fakes (targets, not timed tests).
#
#   bench/run.sh            all benchmarks that have something to measure
#
# Installs hyperfine, jq, curl and GNU time from Debian when they are missing.
# Prints a Markdown table; the figures in README.md come from this script.
set -euo pipefail
cd "$(dirname "$0")/.."

need() {
  command -v "$1" >/dev/null 2>&1 && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
  else
    echo "missing $1 (Debian package $2)" >&2; exit 1
  fi
}
need hyperfine hyperfine
need jq jq
need curl curl
[ -x /usr/bin/time ] || need /usr/bin/time time

cargo build --release --quiet -p kvk-cli -p test-support --bins
bin=target/release
work=$(mktemp -d)
trap 'kill $fake_pid 2>/dev/null || true; rm -rf "$work"' EXIT

"$bin/fake-upstream" --source kvk >"$work/fake.out" 2>/dev/null &
fake_pid=$!
for _ in $(seq 50); do grep -q '^export KVK_API_BASE=' "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
base=$(sed -n 's/^export KVK_API_BASE=//p' "$work/fake.out")
url="$base/v1/basisprofielen/68750110?geoData=false"
export KVK_API_BASE="$base" KVK_API_KEY=bench-key KVK_AUDIT_LOG="$work/audit.jsonl"

kvk="$bin/kvk-cli basisprofiel toon 68750110 --fields naam,kvkNummer --provenance"
hyperfine -N --warmup 10 --runs 100 --export-json "$work/kvk.json" \
  -n "curl -s" "curl -s -H 'apikey: bench-key' $url" \
  -n "curl + jq" "bash -c \"curl -s -H 'apikey: bench-key' '$url' | jq -c '{naam,kvkNummer}'\"" \
  -n "kvk-cli --fields --provenance" "$kvk" \
  -n "kvk-cli --help --json" "$bin/kvk-cli --help --json" >/dev/null

rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}'; }

echo "| command | mean (ms) | ± (ms) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|"
jq -r '.results[] | [.command, (.mean*1000), (.stddev*1000)] | @tsv' "$work/kvk.json" |
while IFS=$'\t' read -r name mean sd; do
  case "$name" in
    "curl -s") r=$(rss curl -s -H "apikey: bench-key" "$url") ;;
    "curl + jq") r="-" ;;
    "kvk-cli --fields --provenance") r=$(rss $kvk) ;;
    "kvk-cli --help --json") r=$(rss "$bin/kvk-cli" --help --json) ;;
  esac
  printf '| %s | %.2f | %.2f | %s |\n' "$name" "$mean" "$sd" "$r"
done

for extra in bench/*.sh; do
  [ "$extra" = bench/run.sh ] && continue
  echo; echo "## $(basename "$extra" .sh)"
  bash "$extra"
done
