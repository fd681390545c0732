#!/usr/bin/env bash
# overheid-mcp on rmcp: idle memory over stdio and HTTP, the latency the bridge adds to a call over
# running the CLI alone, and read-only calls per second over HTTP (targets from issue 12:
# stdio idle RSS <= 12 MiB, HTTP idle RSS <= 16 MiB, added p50 <= 2 ms, >= 300 calls/s on 2 cores).
#
#   bench/mcp/run.sh [CALLS] [SECONDS] [CLIENTS]   (defaults: 300 calls, 10 s, 8 clients)
#   MCP_BENCH_BIN=DIR bench/mcp/run.sh …            (A/B: overheid-mcp and regelrecht-cli from DIR,
#                                                    nothing built)
#
# Besides wall-clock figures (which depend on the machine's load) it prints CPU time per call,
# which load hardly changes: the bridge's own (utime + stime of its process) and the CLI's (the
# children it reaped: cutime + cstime), and the load generator's own.
# The call is regelrecht-cli's `check energiebesparing` (embedded law text, no network), so the
# figures are the bridge and the CLI, not an upstream. HTTP calls carry a bearer JWT (Ed25519, made
# here with PyJWT + cryptography from the venv of overheid-mcp/tests/python/run.sh, created if absent),
# since over HTTP the company comes only from a verified token.
# Also prints the bytes a result costs, and how many of them are its text block (the same JSON as
# structuredContent, sent in both eras for hosts that show a model only `content`).
set -euo pipefail
cd "$(dirname "$0")/../.."
calls=${1:-300}
seconds=${2:-10}
clients=${3:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${MCP_BENCH_BIN:-}" ]; then
  bin=$work/bin
  mkdir "$bin"
  ln -s "$(cd "$MCP_BENCH_BIN" && pwd)/overheid-mcp" "$(cd "$MCP_BENCH_BIN" && pwd)/regelrecht-cli" "$bin/"
else
  cargo build --release --quiet -p overheid-mcp -p regelrecht-cli
  bin=$PWD/target/release
fi
# The other three CLIs are only read for their discovery (the catalogue's size); their release
# builds are used when present, else the debug ones.
# The family: every *-cli program of the workspace (cargo metadata).
family=$(bash dist/build.sh --list)
for cli in $family; do
  [ -x "$bin/$cli" ] && continue
  [ -x "target/release/$cli" ] && { ln -sf "$PWD/target/release/$cli" "$bin/$cli"; continue; }
  [ -x target/debug/$cli ] || cargo build --quiet -p $cli
  ln -sf "$PWD/target/debug/$cli" "$bin/$cli"
done
export HOME="$work" RVO_DATA_DIR="$work/rvo" KVK_SESSIE_NUMMER=68750110 KVK_API_KEY=bench-sleutel
venv=${MCP_TEST_VENV:-$PWD/target/mcp-venv}
if ! "$venv/bin/python" -c 'import jwt, cryptography' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'pyjwt>=2.8' cryptography
fi

FAMILY="$family" "$venv/bin/python" - "$bin" "$calls" "$seconds" "$clients" "$work" <<'PY'
import base64, http.client, json, os, statistics, subprocess, sys, threading, time
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
bin, calls, seconds, clients, work = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
load_before = os.getloadavg()[0]
key = Ed25519PrivateKey.generate()
raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
with open(f"{work}/jwks.json", "w") as f:
    json.dump({"keys": [{"kty": "OKP", "crv": "Ed25519", "kid": "b", "x": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()}]}, f)
token = jwt.encode({"iss": "https://login.bench", "aud": "bench", "kvk_nummer": "68750110", "exp": int(time.time()) + 3600},
                   key, algorithm="EdDSA", headers={"kid": "b"})
tools = [a for cli in os.environ["FAMILY"].split() for a in ("--tool", f"{bin}/{cli}")]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
ARGS = {"elektriciteit_kwh": 60000, "gas_m3": 30000}
NAME = "regelrecht__check_energiebesparing"
def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
TICK = os.sysconf("SC_CLK_TCK")
def cpu_s(pid):
    """(own, reaped children's) CPU seconds of a process (/proc/PID/stat utime+stime, cutime+cstime)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(x) for x in fields[11:15])
    return (utime + stime) / TICK, (cutime + cstime) / TICK
def self_cpu_s():
    t = os.times()
    return t.user + t.system

# stdio: idle memory, then the added latency (same call, same order of work: exec + read stdout).
bridge = subprocess.Popen([f"{bin}/overheid-mcp", *tools], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, bufsize=1)
def rpc(i, method, params):
    bridge.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": {**params, "_meta": META}}) + "\n")
    bridge.stdin.flush()
    return json.loads(bridge.stdout.readline())
rpc(0, "server/discover", {})
rpc(1, "tools/list", {})
time.sleep(0.3)
stdio_idle = rss_kib(bridge.pid)
command = [f"{bin}/regelrecht-cli", "check", "energiebesparing", "--output", "json", "--provenance",
           "--elektriciteit-kwh=60000", "--gas-m3=30000", "--", "68750110"]
for i in range(20):
    assert not rpc(10 + i, "tools/call", {"name": NAME, "arguments": ARGS})["result"]["isError"]
    subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
direct, through = [], []
stdio_cpu_before = cpu_s(bridge.pid)
for i in range(calls):
    t = time.perf_counter(); subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    direct.append((time.perf_counter() - t) * 1000)
    t = time.perf_counter(); answer = rpc(1000 + i, "tools/call", {"name": NAME, "arguments": ARGS})
    through.append((time.perf_counter() - t) * 1000)
    assert not answer["result"]["isError"], answer
stdio_cpu_after = cpu_s(bridge.pid)
stdio_bridge_ms = (stdio_cpu_after[0] - stdio_cpu_before[0]) * 1000 / calls
stdio_child_ms = (stdio_cpu_after[1] - stdio_cpu_before[1]) * 1000 / calls
modern = rpc(5000, "tools/call", {"name": NAME, "arguments": ARGS})["result"]
stdio_busy = rss_kib(bridge.pid)
bridge.stdin.close(); bridge.wait()
# The same result as a 2025-11-25 host gets it.
legacy = subprocess.run([f"{bin}/overheid-mcp", *tools], input="\n".join(json.dumps(m) for m in [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "b", "version": "0"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": NAME, "arguments": ARGS}}]) + "\n",
    capture_output=True, text=True).stdout.splitlines()[-1]
legacy = json.loads(legacy)["result"]
size = lambda v: len(json.dumps(v, separators=(",", ":")).encode())
text_bytes = size(legacy["content"])

# HTTP: idle memory and read-only calls per second with CLIENTS keep-alive connections.
server = subprocess.Popen([f"{bin}/overheid-mcp", "--http", "127.0.0.1:0", "--auth-jwks", f"{work}/jwks.json",
                           "--auth-issuer", "https://login.bench", "--auth-audience", "bench", "--max-calls", "64", "--max-calls-per-principal", "64", *tools],
                          stderr=subprocess.PIPE, text=True)
port = None
for line in server.stderr:
    if "luistert op " in line:
        port = int(line.rsplit(":", 1)[1].split("/")[0]); break
threading.Thread(target=lambda: [None for _ in server.stderr], daemon=True).start()
time.sleep(0.3)
http_idle = rss_kib(server.pid)
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": NAME, "arguments": ARGS, "_meta": META}})
headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
           "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": NAME,
           "Authorization": f"Bearer {token}"}
done, failed, latencies, stop = [0], [0], [], time.perf_counter() + seconds
lock = threading.Lock()
def client():
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while time.perf_counter() < stop:
        t = time.perf_counter()
        connection.request("POST", "/mcp", body, headers)
        reply = connection.getresponse(); data = reply.read()
        with lock:
            if reply.status == 200 and b'"isError":false' in data:
                done[0] += 1; latencies.append((time.perf_counter() - t) * 1000)
            else:
                failed[0] += 1
threads = [threading.Thread(target=client) for _ in range(clients)]
http_cpu_before, client_cpu_before = cpu_s(server.pid), self_cpu_s()
began = time.perf_counter()
for t in threads: t.start()
for t in threads: t.join()
wall = time.perf_counter() - began
http_cpu_after, client_cpu_after = cpu_s(server.pid), self_cpu_s()
runs = max(done[0] + failed[0], 1)
http_bridge_ms = (http_cpu_after[0] - http_cpu_before[0]) * 1000 / runs
http_child_ms = (http_cpu_after[1] - http_cpu_before[1]) * 1000 / runs
client_ms = (client_cpu_after - client_cpu_before) * 1000 / runs
http_busy = rss_kib(server.pid)
server.terminate(); server.wait()

p = lambda xs, q: statistics.quantiles(xs, n=100)[q - 1]
print(f"cores: {os.cpu_count()}, load average before: {load_before:.1f}, after: {os.getloadavg()[0]:.1f}")
print("| figure | measured | target |")
print("|---|---:|---:|")
print(f"| stdio idle RSS (after discover + tools/list) | {stdio_idle / 1024:.1f} MiB | <= 12 MiB |")
print(f"| stdio RSS after {calls + 20} calls | {stdio_busy / 1024:.1f} MiB | |")
print(f"| HTTP idle RSS | {http_idle / 1024:.1f} MiB | <= 16 MiB |")
print(f"| HTTP RSS after the load | {http_busy / 1024:.1f} MiB | |")
print(f"| regelrecht-cli alone, p50 / p95 | {statistics.median(direct):.2f} / {p(direct, 95):.2f} ms | |")
print(f"| through overheid-mcp (stdio), p50 / p95 | {statistics.median(through):.2f} / {p(through, 95):.2f} ms | |")
print(f"| added by the bridge, p50 | {statistics.median(through) - statistics.median(direct):.2f} ms | <= 2 ms |")
print(f"| {NAME} over HTTP, {clients} clients, {seconds:.0f} s | {done[0] / wall:.0f} calls/s ({failed[0]} failed); p50 {statistics.median(latencies):.1f} ms, p95 {p(latencies, 95):.1f} ms | >= 300/s |")
print(f"| CPU per call over stdio: bridge / CLI | {stdio_bridge_ms:.2f} / {stdio_child_ms:.2f} ms | |")
print(f"| CPU per call over HTTP: bridge / CLI / load generator | {http_bridge_ms:.2f} / {http_child_ms:.2f} / {client_ms:.2f} ms | |")
print(f"| result bytes, 2026-07-28 | {size(modern)} B (text block {size(modern['content'])} B) | |")
print(f"| result bytes, 2025-11-25 | {size(legacy)} B (text block {text_bytes} B) | |")
PY
