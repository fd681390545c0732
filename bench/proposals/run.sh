#!/usr/bin/env bash
# Proposals (issue 30): the wall time of filing through a proposal (rapportage voorstel, then
# rapportage indienen --voorstel; the person's approval in between is not timed) against today's
# filing with --confirm, per report, on the SQLite store; with OVERHEID_STORE_URL (or run under
# tests/postgres/run.sh, which sets OVERHEID_TEST_POSTGRES_URL) also on PostgreSQL.
#
#   bench/proposals/run.sh [REPORTS]            (default 30; the binaries in target/release,
#   PROPOSALS_BENCH_BIN=DIR bench/proposals/run.sh   built if missing, or from DIR)
#
# The approval is made at a pseudo-terminal (`script`), as a person would; each timed call is
# a fresh process, as every CLI call is.
set -euo pipefail
cd "$(dirname "$0")/../.."
reports=${1:-30}
bin=${PROPOSALS_BENCH_BIN:-target/release}
[ -x "$bin/rvo-cli" ] || cargo build --release -q -p rvo-cli
cli=$(cd "$bin" && pwd)/rvo-cli
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s%N; }

# One report per company number, so every filing is new.
company() { printf '%08d' $((68750000 + $1)); }

run_store() {
  local label=$1; shift
  local data=$work/$label
  mkdir -p "$data/confirm" "$data/voorstel"
  export HOME=$work RVO_AUDIT_LOG=$work/$label-audit.jsonl
  # Today's filing: plan (exit 80), then --confirm=DIGEST.
  local start end
  start=$(now)
  for i in $(seq "$reports"); do
    digest=$(RVO_DATA_DIR=$data/confirm "$@" "$cli" rapportage indienen "$(company "$i")" EBR-2027 warmtepomp --peildatum 2026-11-30 2>/dev/null \
      | sed -n 's/.*"plan_digest":"\([0-9a-f]*\)".*/\1/p' || true)
    RVO_DATA_DIR=$data/confirm "$@" "$cli" rapportage indienen "$(company "$i")" EBR-2027 warmtepomp --peildatum 2026-11-30 --confirm="$digest" >/dev/null
  done
  end=$(now)
  local confirm_ms=$(( (end - start) / 1000000 ))
  # Through a proposal: voorstel (timed), approval at a terminal (not timed), apply (timed).
  local propose_ns=0 apply_ns=0
  for i in $(seq "$reports"); do
    start=$(now)
    out=$(RVO_DATA_DIR=$data/voorstel "$@" "$cli" rapportage voorstel "$(company "$i")" EBR-2027 warmtepomp --peildatum 2026-11-30)
    end=$(now); propose_ns=$((propose_ns + end - start))
    id=$(printf '%s' "$out" | sed -n 's/.*"id":"\(vs_[a-z2-7]*\)".*/\1/p')
    digest=$(printf '%s' "$out" | sed -n 's/.*"plan_digest":"\([0-9a-f]*\)".*/\1/p')
    (sleep 0.2; echo "${digest:0:8}"; sleep 0.2) | env RVO_DATA_DIR=$data/voorstel "$@" SHELL=/bin/sh TERM=xterm \
      script -qec "$cli voorstel goedkeuren $id --timeout 30" /dev/null >/dev/null
    start=$(now)
    RVO_DATA_DIR=$data/voorstel "$@" "$cli" rapportage indienen --voorstel "$id" >/dev/null
    end=$(now); apply_ns=$((apply_ns + end - start))
  done
  local proposal_ms=$(( (propose_ns + apply_ns) / 1000000 ))
  printf '%s: %d reports; --confirm (plan + confirm): %d ms (%d ms/report); proposal (voorstel + apply): %d ms (%d ms/report: voorstel %d, apply %d); ratio %s\n' \
    "$label" "$reports" "$confirm_ms" $((confirm_ms / reports)) "$proposal_ms" $((proposal_ms / reports)) \
    $((propose_ns / reports / 1000000)) $((apply_ns / reports / 1000000)) \
    "$(awk -v a="$proposal_ms" -v b="$confirm_ms" 'BEGIN { printf "%.2f", a / b }')"
}

run_store sqlite env
url=${OVERHEID_STORE_URL:-${OVERHEID_TEST_POSTGRES_URL:-}}
if [ -n "$url" ]; then
  run_store postgres env OVERHEID_STORE_URL="$url"
fi
