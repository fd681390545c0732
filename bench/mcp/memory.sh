#!/usr/bin/env bash
# overheid-mcp's memory under load: the bridge's RSS after warm-up and after 1,000, 2,000, 5,000 and
# 10,000 calls, over stdio (one client, in turn) and over HTTP (CLIENTS keep-alive connections),
# with glibc's default allocator settings and with MALLOC_ARENA_MAX=2. It must level off after
# warm-up (issue 31); the figures go into bench/RESULTS.md.
#
#   bench/mcp/memory.sh [CALLS] [CLIENTS]      (defaults: 10000 calls, 8 clients)
#   MCP_BENCH_BIN=DIR bench/mcp/memory.sh …     (overheid-mcp and regelrecht-cli from DIR, nothing built)
#
# The call is regelrecht-cli's `check energiebesparing` (embedded law, no network), as in run.sh;
# over HTTP with a bearer JWT made here (PyJWT from the venv of overheid-mcp/tests/python/run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
calls=${1:-10000}
clients=${2:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${MCP_BENCH_BIN:-}" ]; then
  bin=$(cd "$MCP_BENCH_BIN" && pwd)
else
  cargo build --release --quiet -p overheid-mcp -p regelrecht-cli
  bin=$PWD/target/release
fi
export HOME="$work" RVO_DATA_DIR="$work/rvo"
venv=${MCP_TEST_VENV:-$PWD/target/mcp-venv}
if ! "$venv/bin/python" -c 'import jwt, cryptography' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'pyjwt>=2.8' cryptography
fi

"$venv/bin/python" - "$bin" "$calls" "$clients" "$work" <<'PY'
import base64, http.client, json, os, subprocess, sys, threading, time
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
bin, calls, clients, work = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
key = Ed25519PrivateKey.generate()
raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
with open(f"{work}/jwks.json", "w") as f:
    json.dump({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "b", "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}]}, f)
token = jwt.encode({"iss": "https://login.bench", "aud": "bench", "kvk_nummer": "68750110",
                    "scope": "overheid:lezen", "exp": int(time.time()) + 7200}, key, algorithm="EdDSA", headers={"kid": "b"})
tools = ["--tool", f"{bin}/regelrecht-cli"]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
# Over stdio the host names the company per call; over HTTP only the token does.
STDIO_META = {**META, "nl.overheid/sessie": {"kvk_nummer": "68750110"}}
ARGS = {"elektriciteit_kwh": 60000, "gas_m3": 30000}
NAME = "regelrecht__check_energiebesparing"
MARKS = [m for m in (1000, 2000, 5000, 10000, 20000) if m <= calls] or [calls]
WARM = 100

def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))

def stdio(env):
    bridge = subprocess.Popen([f"{bin}/overheid-mcp", *tools], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
    def rpc(i, method, params):
        bridge.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": {**params, "_meta": STDIO_META}}) + "\n")
        bridge.stdin.flush()
        return json.loads(bridge.stdout.readline())
    rpc(0, "tools/list", {})
    row = {"idle": rss_kib(bridge.pid)}
    done = 0
    for mark in [WARM, *MARKS]:
        while done < mark:
            done += 1
            assert not rpc(done, "tools/call", {"name": NAME, "arguments": ARGS})["result"]["isError"]
        row[mark] = rss_kib(bridge.pid)
    bridge.stdin.close(); bridge.wait()
    return row

def over_http(env):
    server = subprocess.Popen([f"{bin}/overheid-mcp", "--http", "127.0.0.1:0", "--auth-jwks", f"{work}/jwks.json",
                               "--auth-issuer", "https://login.bench", "--auth-audience", "bench",
                               "--max-calls", "64", *tools], stderr=subprocess.PIPE, text=True, env=env)
    port = None
    for line in server.stderr:
        if "luistert op " in line:
            port = int(line.rsplit(":", 1)[1].split("/")[0]); break
    threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
    time.sleep(0.3)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": NAME, "arguments": ARGS, "_meta": META}})
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": NAME,
               "Authorization": f"Bearer {token}"}
    row = {"idle": rss_kib(server.pid)}
    done, lock = [0], threading.Lock()
    def client(limit):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if done[0] >= limit:
                    return
                done[0] += 1
            connection.request("POST", "/mcp", body, headers)
            reply = connection.getresponse(); data = reply.read()
            assert reply.status == 200 and b'"isError":false' in data, (reply.status, data[:300])
    for mark in [WARM, *MARKS]:
        threads = [threading.Thread(target=client, args=(mark,)) for _ in range(clients)]
        for t in threads: t.start()
        for t in threads: t.join()
        row[mark] = rss_kib(server.pid)
    server.terminate(); server.wait()
    return row

print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}, binaries: {bin}")
header = ["transport", "allocator", "idle", f"after {WARM}", *[f"after {m:,}" for m in MARKS]]
print("| " + " | ".join(header) + " |")
print("|" + "---|" * 2 + "---:|" * (len(header) - 2))
for label, extra in (("glibc default", {}), ("MALLOC_ARENA_MAX=2", {"MALLOC_ARENA_MAX": "2"})):
    env = {**os.environ, **extra}
    for transport, run in (("stdio", stdio), (f"HTTP, {clients} clients", over_http)):
        started = time.perf_counter()
        row = run(env)
        cells = [f"{row[k] / 1024:.1f}" for k in ["idle", WARM, *MARKS]]
        print(f"| {transport} | {label} | " + " | ".join(cells) + f" |   ({time.perf_counter() - started:.0f} s)", flush=True)
print("(RSS in MiB)")
PY
