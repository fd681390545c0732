#!/usr/bin/env bash
# The approval page and applies (issue 30): the bridge's idle RSS with the page (target <= 16 MiB),
# the page's GET time (p50 <= 5 ms), the approval POST, and applies per second of distinct approved
# proposals with p50/p95 (target on PostgreSQL: >= 200/s on 2 cores). On the SQLite store; with
# OVERHEID_STORE_URL (or under tests/postgres/run.sh, which sets OVERHEID_TEST_POSTGRES_URL) also on
# PostgreSQL. How each is measured: bench/proposals/page.py.
#
#   bench/proposals/page.sh [PROPOSALS] [GETS] [WORKERS]   (defaults 400, 1000, 4; release binaries
#   PROPOSALS_BENCH_BIN=DIR bench/proposals/page.sh …      in target/release, built if missing, or DIR)
#
# Needs PyJWT and cryptography: the venv of overheid-mcp/tests/python/run.sh (made if missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
proposals=${1:-400}
gets=${2:-1000}
workers=${3:-4}
bin=${PROPOSALS_BENCH_BIN:-target/release}
# The family: every *-cli program of the workspace (cargo metadata).
family=$(bash dist/build.sh --list)
export FAMILY="$family"
packages=(-p overheid-mcp)
for tool in $family; do packages+=(-p "$tool"); done
for program in overheid-mcp $family; do
  [ -x "$bin/$program" ] && continue
  cargo build --release -q "${packages[@]}"
  break
done
bin=$(cd "$bin" && pwd)
venv=${MCP_TEST_VENV:-$PWD/target/mcp-venv}
if ! "$venv/bin/python" -c 'import jwt, cryptography' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'pyjwt>=2.8' cryptography
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "commit $(git rev-parse --short HEAD)"

run() {
  local label=$1; shift
  mkdir -p "$work/$label"
  echo "## $label"
  env -i PATH="$PATH" HOME="$work/$label" RVO_DATA_DIR="$work/$label/rvo" \
    OVERHEID_AUDIT_LOG="$work/$label/audit.jsonl" OVERHEID_MCP_STATE_KEY="$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n')" \
    "$@" "$venv/bin/python" bench/proposals/page.py "$bin" "$work/$label" "$proposals" "$gets" "$workers"
}

run sqlite
url=${OVERHEID_STORE_URL:-${OVERHEID_TEST_POSTGRES_URL:-}}
if [ -n "$url" ]; then
  run postgres OVERHEID_STORE_URL="$url"
fi
