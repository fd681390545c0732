#!/usr/bin/env python3
"""Filing through a proposal against today's --confirm, per report, for one or more rvo-cli
binaries interleaved (issue 30): each round runs every binary once, in turn, on the same
machine load, so a comparison of binaries shares the noise.

    filing.py REPORTS LABEL=BINARY [LABEL=BINARY ...]

The store is SQLite in a fresh data directory per binary, or the PostgreSQL of
OVERHEID_STORE_URL when set. Per report and binary: `rapportage indienen --dry-run` then
`--confirm=DIGEST` (today's filing), and `rapportage voorstel`, the person's approval at a
pseudo-terminal (`script`; not timed), then `rapportage indienen --voorstel ID`. Every timed call
is a fresh process, as every CLI call is. Prints per binary the median and the quartiles of each
path's time per report, and the ratio of the medians.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

REPORTS = int(sys.argv[1])
BINARIES = [arg.split("=", 1) for arg in sys.argv[2:]]
WORK = tempfile.mkdtemp()
RUN = str(time.time_ns())


def call(binary, env, *args, check=True):
    started = time.perf_counter()
    out = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    took = (time.perf_counter() - started) * 1000
    if check and out.returncode != 0:
        sys.exit(f"{args}: {out.returncode} {out.stderr}")
    return took, out.stdout


def report(label, i):
    # A company per report and binary (and run, for a shared database): every filing is new.
    return [f"{(hash((RUN, label, i)) % 90_000_000) + 10_000_000:08d}", "EBR-2027", "warmtepomp",
            "--peildatum", "2026-11-30"]


times = {label: {"confirm": [], "proposal": [], "voorstel": [], "apply": []} for label, _ in BINARIES}
for i in range(REPORTS):
    order = BINARIES[i % len(BINARIES):] + BINARIES[:i % len(BINARIES)]
    for label, binary in order:
        env = {"PATH": os.environ["PATH"], "HOME": f"{WORK}/{label}", "RVO_AUDIT_LOG": f"{WORK}/{label}.jsonl",
               "RVO_DATA_DIR": f"{WORK}/{label}/data"}
        if os.environ.get("OVERHEID_STORE_URL"):
            env["OVERHEID_STORE_URL"] = os.environ["OVERHEID_STORE_URL"]
        os.makedirs(env["HOME"], exist_ok=True)
        args = report(label, i)
        dry, plan = call(binary, env, "rapportage", "indienen", *args, "--dry-run")
        digest = json.loads(plan)["plan_digest"]
        confirm, _ = call(binary, env, "rapportage", "indienen", *args, f"--confirm={digest}")
        propose, out = call(binary, env, "rapportage", "voorstel", *[a if n else f"{int(a) + 1:08d}" for n, a in enumerate(args)])
        proposal = json.loads(out)
        typed = subprocess.run(
            ["script", "-qec", f"{binary} voorstel goedkeuren {proposal['id']} --timeout 30", "/dev/null"],
            input=proposal["plan_digest"][:8] + "\n", env={**env, "SHELL": "/bin/sh", "TERM": "xterm"},
            capture_output=True, text=True)
        assert typed.returncode == 0, typed.stdout
        apply, out = call(binary, env, "rapportage", "indienen", "--voorstel", proposal["id"])
        assert json.loads(out)["replayed"] is False
        t = times[label]
        t["confirm"].append(dry + confirm)
        t["voorstel"].append(propose)
        t["apply"].append(apply)
        t["proposal"].append(propose + apply)


def q(values):
    cut = statistics.quantiles(values, n=4)
    return f"{statistics.median(values):.1f} ({cut[0]:.1f}–{cut[2]:.1f})"


print(f"{REPORTS} reports per binary, interleaved; store: {'postgres' if os.environ.get('OVERHEID_STORE_URL') else 'sqlite'}; "
      f"load average {os.getloadavg()[0]:.1f}; ms per report, median (quartiles)")
print("| binary | dry run + --confirm | voorstel + apply | voorstel | apply | ratio of medians |")
print("|---|---:|---:|---:|---:|---:|")
for label, _ in BINARIES:
    t = times[label]
    ratio = statistics.median(t["proposal"]) / statistics.median(t["confirm"])
    print(f"| {label} | {q(t['confirm'])} | {q(t['proposal'])} | {q(t['voorstel'])} | {q(t['apply'])} | {ratio:.2f}× |")
