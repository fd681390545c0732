#!/usr/bin/env bash
# overheid-mcp: idle resident memory, and the latency a call through the bridge adds to calling
# the CLI directly (targets: idle < 10 MiB, added < 5 ms). Standalone or from bench/run.sh.
#
#   bench/overheid-mcp.sh [CALLS]     (default 200 calls each way)
#
# Both sides run the same command against the fake KvK: kvk-cli basisprofiel toon 68750110
# --fields naam,kvkNummer --provenance. "direct" is hyperfine -N (exec, no shell); "bridge" is
# the round trip of one tools/call as a client on the bridge's stdin/stdout measures it.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-200}
command -v hyperfine >/dev/null && command -v jq >/dev/null || { echo "hyperfine en jq nodig (zie bench/run.sh)" >&2; exit 1; }

cargo build --release --quiet -p overheid-mcp -p kvk-cli -p test-support --bins
bin=$PWD/target/release
work=$(mktemp -d)
fake_pid=
trap '[ -n "$fake_pid" ] && kill $fake_pid 2>/dev/null; rm -rf "$work"' EXIT

"$bin/fake-upstream" --source kvk >"$work/fake.out" 2>/dev/null &
fake_pid=$!
for _ in $(seq 50); do grep -q '^export KVK_API_BASE=' "$work/fake.out" 2>/dev/null && break; sleep 0.1; done
export KVK_API_BASE=$(sed -n 's/^export KVK_API_BASE=//p' "$work/fake.out")
export KVK_API_KEY=bench-key KVK_AUDIT_LOG="$work/audit.jsonl"

hyperfine -N --warmup 10 --runs "$calls" --export-json "$work/direct.json" \
  "$bin/kvk-cli basisprofiel toon --output json --provenance --fields naam,kvkNummer -- 68750110" >/dev/null

python3 - "$bin" "$calls" "$work/direct.json" <<'PY'
import json, statistics, subprocess, sys, time
bin, calls, direct_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
bridge = subprocess.Popen([f"{bin}/overheid-mcp", "--tool", f"{bin}/kvk-cli"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def rpc(i, method, params):
    bridge.stdin.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params}) + "\n")
    bridge.stdin.flush()
    return json.loads(bridge.stdout.readline())
started = time.perf_counter()
rpc(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}})
ready_ms = (time.perf_counter() - started) * 1000
rpc(1, "tools/list", {})
time.sleep(0.3)
def rss_kib():
    with open(f"/proc/{bridge.pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
idle = rss_kib()
args = {"name": "kvk__basisprofiel_toon", "arguments": {"kvk_nummer": "68750110", "fields": ["naam", "kvkNummer"]}}
for i in range(10):
    assert not rpc(100 + i, "tools/call", args)["result"]["isError"]
times = []
for i in range(calls):
    t = time.perf_counter()
    answer = rpc(1000 + i, "tools/call", args)
    times.append((time.perf_counter() - t) * 1000)
    assert not answer["result"]["isError"], answer
busy = rss_kib()
bridge.stdin.close(); bridge.wait()
direct = json.load(open(direct_file))["results"][0]
d_median, d_mean = direct["median"] * 1000, direct["mean"] * 1000
b_median, b_mean = statistics.median(times), statistics.fmean(times)
print("| measure | value | target |")
print("|---|---:|---:|")
print(f"| bridge idle RSS (after initialize + tools/list) | {idle/1024:.1f} MiB | < 10 MiB |")
print(f"| bridge RSS after {calls + 10} calls (input validators compiled) | {busy/1024:.1f} MiB | |")
print(f"| bridge start to initialize answer (reads discovery) | {ready_ms:.1f} ms | |")
print(f"| kvk-cli direct, median / mean | {d_median:.2f} / {d_mean:.2f} ms | |")
print(f"| through overheid-mcp, median / mean | {b_median:.2f} / {b_mean:.2f} ms | |")
print(f"| added by the bridge (median) | {b_median - d_median:.2f} ms | < 5 ms |")
PY
