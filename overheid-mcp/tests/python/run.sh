#!/bin/sh
# Runs test_mcp_client.py with the official MCP Python SDK in its own virtual environment.
# Usage: overheid-mcp/tests/python/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
# The venv lives in $MCP_TEST_VENV (default: <workspace>/target/mcp-venv) and is reused.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
venv=${MCP_TEST_VENV:-$root/target/mcp-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import mcp, jwt, cryptography' 2>/dev/null; then
    python3 -m venv "$venv"
    # The official SDK (2.x: the 2026-07-28 client), and PyJWT + cryptography to sign test tokens.
    "$venv/bin/pip" install --quiet --disable-pip-version-check 'mcp>=2.3,<3' 'pyjwt>=2.8' cryptography
fi
exec "$venv/bin/python" "$here/test_mcp_client.py" "$target"
