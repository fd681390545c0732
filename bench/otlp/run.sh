#!/usr/bin/env bash
# The cost of the Logboek destination (issue 16): added latency per call of a synchronous
# OTLP/HTTP export to a loopback receiver over the file-only path (target: <= 1 ms p50), and
# kvk-cli's peak RSS with the export on (target: <= 6 MiB).
#
#   bench/otlp/run.sh [TARGET_DIR]   (default target/release; builds kvk-cli there if missing)
#
# The upstream is the test-support fake (any build; it is the same for every variant). Needs
# hyperfine, jq, python3 and GNU time. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release}
[ -x "$bin/kvk-cli" ] || cargo build --release --quiet -p kvk-cli
fake_bin=target/release/fake-upstream
[ -x "$fake_bin" ] || fake_bin=target/debug/fake-upstream
[ -x "$fake_bin" ] || cargo build --quiet -p test-support --bin fake-upstream
[ -x "$fake_bin" ] || fake_bin=target/debug/fake-upstream

work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
"$fake_bin" --source kvk >"$work/fake.out" 2>/dev/null &
pids+=($!)
python3 bench/otlp/receiver.py >"$work/receiver.out" &
pids+=($!)
for _ in $(seq 100); do
  grep -q '^KVK_API_BASE=' "$work/fake.out" 2>/dev/null && grep -q http "$work/receiver.out" 2>/dev/null && break
  sleep 0.1
done
export KVK_API_BASE=$(sed -n 's/^KVK_API_BASE=//p' "$work/fake.out") KVK_API_KEY=bench-key
export KVK_AUDIT_LOG="$work/audit.jsonl" OTEL_EXPORTER_OTLP_ENDPOINT=$(head -1 "$work/receiver.out")
call="$bin/kvk-cli basisprofiel toon 68750110"

hyperfine -N --warmup 20 --runs "${RUNS:-300}" --export-json "$work/otlp.json" \
  -n file "env OVERHEID_AUDIT_EXPORT=file $call" \
  -n otlp "env OVERHEID_AUDIT_EXPORT=otlp $call" \
  -n file,otlp "env OVERHEID_AUDIT_EXPORT=file,otlp $call" >/dev/null

echo
python3 bench/otlp/paired.py "${PAIRS:-400}" -- $call
echo

rss() { OVERHEID_AUDIT_EXPORT=$1 /usr/bin/time -v $call 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}'; }
file_p50=$(jq '.results[0].median*1000' "$work/otlp.json")
echo "| OVERHEID_AUDIT_EXPORT | p50 (ms) | mean (ms) | ± (ms) | added p50 over file (ms) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---:|"
jq -r '.results[] | [.command, (.median*1000), (.mean*1000), (.stddev*1000)] | @tsv' "$work/otlp.json" |
while IFS=$'\t' read -r name p50 mean sd; do
  peak=$(for _ in 1 2 3 4 5; do rss "$name"; echo; done | sort -n | sed -n 3p)
  printf '| %s | %.2f | %.2f | %.2f | %+.2f | %s |\n' "$name" "$p50" "$mean" "$sd" \
    "$(echo "$p50 - $file_p50" | bc -l)" "$peak"
done
