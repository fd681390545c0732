#!/usr/bin/env bash
# regelrecht-cli: fresh-process latency and peak memory (targets: check energiebesparing
# < 5 ms; evalueer of a cross-law output with the whole shared corpus < 15 ms).
#
#   bench/regelrecht.sh     (bench/run.sh runs it and installs hyperfine, jq and GNU time)
#
# Prints a Markdown table (median and min help on a busy machine). Needs the shared corpus at ../shared/regelrecht/corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

corpus=../shared/regelrecht/corpus
[ -d "$corpus" ] || { echo "geen corpus in $corpus" >&2; exit 1; }
cargo build --release --quiet -p regelrecht-cli
bin=target/release/regelrecht-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export REGELRECHT_AUDIT_LOG="$work/audit.jsonl"

check="$bin check energiebesparing 68750110 --elektriciteit-kwh 62000 --gas-m3 31000 --provenance"
cross="$bin evalueer wet_op_de_zorgtoeslag --uitvoer standaardpremie --peildatum 2025-01-01 --corpus $corpus"
lijst="$bin wet lijst --corpus $corpus"
discovery="$bin --help --json"

hyperfine -N --warmup 10 --runs 100 --export-json "$work/rr.json" \
  -n "check energiebesparing --provenance" "$check" \
  -n "evalueer (cross-law, hele corpus)" "$cross" \
  -n "wet lijst (hele corpus, alles geparsed)" "$lijst" \
  -n "discovery (--help --json)" "$discovery" >/dev/null

rss() { /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F': ' '/Maximum resident/ {printf "%.1f", $2/1024}'; }

echo "| command | mean (ms) | ± (ms) | median (ms) | min (ms) | target (ms) | peak RSS (MiB) |"
echo "|---|---:|---:|---:|---:|---:|---:|"
jq -r '.results[] | [.command, (.mean*1000), (.stddev*1000), (.median*1000), (.min*1000)] | @tsv' "$work/rr.json" |
while IFS=$'\t' read -r name mean sd median min; do
  case "$name" in
    "check energiebesparing --provenance") r=$(rss $check); t="< 5" ;;
    "evalueer (cross-law, hele corpus)") r=$(rss $cross); t="< 15" ;;
    "wet lijst (hele corpus, alles geparsed)") r=$(rss $lijst); t="-" ;;
    "discovery (--help --json)") r=$(rss $discovery); t="-" ;;
  esac
  printf '| %s | %.2f | %.2f | %.2f | %.2f | %s | %s |\n' "$name" "$mean" "$sd" "$median" "$min" "$t" "$r"
done
