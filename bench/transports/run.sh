#!/usr/bin/env bash
# CLI vs MCP, measured (issue 17): scripted agent tasks through every transport variant,
# offline against fake-upstream. Prints Markdown tables; writes bench/transports/results.json
# and the tables as bench/transports/results.md. Variants: the CLI (full, --fields, --jq, carried
# state) and overheid-mcp (stdio as a 2025-11-25 session, with and without fields; stdio as
# 2026-07-28 with compact provenance; stdio as 2026-07-28 asking for the data once and no
# provenance, `mcp-stdio-once`; Streamable HTTP on 127.0.0.1).
#
#   bench/transports/run.sh                 debug build, 3 runs per task × variant
#   RUNS=5 bench/transports/run.sh          more runs (the median wall time is reported)
#   PROFILE=release bench/transports/run.sh release build (slower to build, faster to run)
#
# The filing task goes through a proposal in every variant: rapportage voorstel, a person's approval
# at a terminal (rvo-cli voorstel goedkeuren under `script`, util-linux; not timed), then apply by id.
# Needs jq (the carried-state variant's follow-ups, and judging answers): installed from
# Debian when missing. Takes about 4 minutes on 2 cores after the build.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! command -v jq >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null
  else
    echo "jq ontbreekt (Debian-pakket jq)" >&2; exit 1
  fi
fi

profile=${PROFILE:-debug}
flag=()
[ "$profile" = release ] && flag=(--release)
# The family: every *-cli program of the workspace (cargo metadata).
packages=()
for tool in $(bash dist/build.sh --list); do packages+=(-p "$tool"); done
cargo build --quiet "${flag[@]}" "${packages[@]}" \
  -p overheid-mcp -p test-support -p bench-transports --bins
bin="target/$profile"
exec "$bin/bench-transports" --bin-dir "$bin" --runs "${RUNS:-3}" \
  --out bench/transports/results.json "$@"
