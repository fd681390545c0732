#!/usr/bin/env python3
"""Applies per second of distinct approved proposals (issue 30), without the bridge: only rvo-cli.

    applies.py BINARY PROPOSALS WORKERS LABEL=STORE_URL [LABEL=STORE_URL ...]

Per store (a PostgreSQL URL, or `sqlite` for a fresh data directory): PROPOSALS proposals of
distinct inputs recorded by `rvo-cli rapportage voorstel`, each approved by a person's act at a
pseudo-terminal (`rvo-cli voorstel goedkeuren ID`, the digest's start typed; not timed), then
every proposal applied once by WORKERS concurrent `rvo-cli rapportage indienen --voorstel ID`
processes (each a new process, as every CLI call is). With more than one store the applies run
in rounds of 50 per store in turn, so the stores share the machine's load. Prints per store the
applies per second (over the time of its rounds), p50 and p95 per apply, and the load
generator's own CPU per apply (this Python process starting and reaping the children), the CPU
of the rvo-cli processes per apply and, with POSTMASTER_PID=PID (the cluster's postmaster), that of
the PostgreSQL backends (their exited children's time): the CPU an apply costs the machine, and
with it the rate 2 idle cores could reach.
"""
import concurrent.futures
import json
import os
import pty
import resource
import secrets
import select
import statistics
import subprocess
import sys
import tempfile
import time

BIN, PROPOSALS, WORKERS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
STORES = [arg.split("=", 1) for arg in sys.argv[4:]]
WORK = tempfile.mkdtemp()
KVK = "68750110"
ROUND = 50


def env_of(label, url):
    env = {"PATH": os.environ["PATH"], "HOME": f"{WORK}/{label}", "RVO_AUDIT_LOG": f"{WORK}/{label}.jsonl",
           "RVO_DATA_DIR": f"{WORK}/{label}/data", "KVK_SESSIE_NUMMER": KVK}
    if url != "sqlite":
        env["OVERHEID_STORE_URL"] = url
    os.makedirs(env["HOME"], exist_ok=True)
    return env


def approve(env, proposal):
    """A person's act at a terminal: stdin and stderr a pseudo-terminal, the digest's start typed."""
    leader, follower = pty.openpty()
    child = subprocess.Popen([BIN, "voorstel", "goedkeuren", proposal["id"], "--timeout", "30"], env=env,
                             stdin=follower, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    screen = b""
    while b"--timeout):" not in screen:  # the prompt's last words: the program reads now
        ready, _, _ = select.select([leader], [], [], 10)
        if not ready:
            break
        try:
            screen += os.read(leader, 4096)
        except OSError:
            break
    os.write(leader, proposal["plan_digest"][:8].encode() + b"\n")
    out, _ = child.communicate(timeout=30)
    os.close(leader)
    assert child.returncode == 0 and json.loads(out)["status"] == "goedgekeurd", (child.returncode, out, screen)


def prepare(label, url):
    env = env_of(label, url)
    ids = []
    for i in range(PROPOSALS):
        out = subprocess.run([BIN, "rapportage", "voorstel", KVK, "EBR-2027", "warmtepomp", "--toelichting",
                              f"bench {i} {secrets.token_hex(4)}", "--peildatum", "2026-12-01"],
                             env=env, capture_output=True, text=True, check=True).stdout
        proposal = json.loads(out)
        approve(env, proposal)
        ids.append(proposal["id"])
    return env, ids


def apply(env, id):
    started = time.perf_counter()
    out = subprocess.run([BIN, "rapportage", "indienen", "--voorstel", id, "--fields", "status,replayed"],
                         env=env, capture_output=True, text=True)
    took = (time.perf_counter() - started) * 1000
    assert out.returncode == 0 and json.loads(out.stdout) == {"status": "ONTVANGEN", "replayed": False}, out
    return took


prepared = {label: prepare(label, url) for label, url in STORES}
times = {label: [] for label, _ in STORES}
walls = dict.fromkeys(times, 0.0)
generator = dict.fromkeys(times, 0.0)
children = dict.fromkeys(times, 0.0)
backends = dict.fromkeys(times, 0.0)
POSTMASTER = os.environ.get("POSTMASTER_PID")


def backend_cpu():
    """The postmaster's exited children's CPU (user + system), in seconds."""
    if not POSTMASTER:
        return 0.0
    with open(f"/proc/{POSTMASTER}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
    for start in range(0, PROPOSALS, ROUND):
        for label, _ in STORES:
            env, ids = prepared[label]
            cpu = resource.getrusage(resource.RUSAGE_SELF)
            kids = resource.getrusage(resource.RUSAGE_CHILDREN)
            server = backend_cpu()
            began = time.perf_counter()
            times[label] += pool.map(lambda id: apply(env, id), ids[start:start + ROUND])
            walls[label] += time.perf_counter() - began
            after = resource.getrusage(resource.RUSAGE_SELF)
            generator[label] += after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
            done = resource.getrusage(resource.RUSAGE_CHILDREN)
            children[label] += done.ru_utime + done.ru_stime - kids.ru_utime - kids.ru_stime
            backends[label] += backend_cpu() - server

print(f"{PROPOSALS} proposals per store, {WORKERS} concurrent rvo-cli processes; cores: {os.cpu_count()}, "
      f"load average: {os.getloadavg()[0]:.1f}")
print("| store | applies/s | p50 | p95 | CPU per apply: rvo-cli + backend + load generator | 2 idle cores at that CPU |")
print("|---|---:|---:|---:|---:|---:|")
for label, _ in STORES:
    t = sorted(times[label])
    cli, server, own = (x[label] * 1000 / len(t) for x in (children, backends, generator))
    print(f"| {label} | {len(t) / walls[label]:.0f}/s | {statistics.median(t):.1f} ms | "
          f"{t[int(0.95 * (len(t) - 1))]:.1f} ms | {cli:.2f} + {server:.2f} + {own:.2f} ms | "
          f"{2000 / (cli + server + own):.0f}/s |")
