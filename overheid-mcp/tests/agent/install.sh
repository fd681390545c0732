#!/bin/sh
# Installs what the agent test (run.sh) and bench/approval need into DIR: Debian's chromium,
# chromium-driver, sqlite3, openssl, curl, script, unshare/runuser, useradd (and psql with
# OVERHEID_TEST_POSTGRES_URL) when missing; npm oidc-provider and Node 22 (package.json); Selenium
# in a virtual environment; provider.mjs beside its node_modules. Reused when already there.
# Usage: overheid-mcp/tests/agent/install.sh DIR   (as root)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
missing=""
command -v chromedriver >/dev/null || missing="$missing chromium chromium-driver"
command -v sqlite3 >/dev/null || missing="$missing sqlite3"
command -v openssl >/dev/null || missing="$missing openssl"
command -v curl >/dev/null || missing="$missing curl"
command -v script >/dev/null || missing="$missing bsdutils"
command -v unshare >/dev/null && command -v runuser >/dev/null || missing="$missing util-linux"
command -v useradd >/dev/null || missing="$missing passwd"
command -v npm >/dev/null || missing="$missing npm"
[ -z "${OVERHEID_TEST_POSTGRES_URL:-}" ] || command -v psql >/dev/null || missing="$missing postgresql-client"
if [ -n "$missing" ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
fi
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
