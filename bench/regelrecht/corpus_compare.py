#!/usr/bin/env python3
"""Two builds of regelrecht-cli over the same whole-upstream-size checkout, runs interleaved
(issue 41 item 2): `wet lijst` cold and warm and one evaluation warm, each build with its own cache.

    bench/regelrecht/corpus_compare.py BEFORE AFTER [RUNS] [CHECKOUT]

BEFORE and AFTER are regelrecht-cli binaries. RUNS (default 15) is the number of rounds; a round
runs every command once with BEFORE and once with AFTER, alternating which goes first, so both meet
the same load. CHECKOUT is a directory written by checkout.py (default: one of 25,000 files is
written on /dev/shm and removed afterwards). Cold runs: the first 5 rounds.
Cold runs use a cache of their own, emptied before each. Prints, per command and build, the median
and the least wall time, the median CPU (user + system), minor page faults and
peak RSS (from wait4), and the machine's load average before and after.
"""

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def measure(argv, env):
    """Wall seconds, CPU seconds, minor faults and peak RSS (KiB) of one run: the wall time by
    the monotonic clock, the rest from the kernel's account of the child (wait4), to the
    microsecond (GNU time's 10 ms steps were too coarse for a 100 ms evaluation)."""
    start = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), argv)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_minflt, usage.ru_maxrss


def main():
    before, after = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 15
    work = tempfile.mkdtemp(prefix="regelrecht-compare.", dir="/dev/shm" if os.access("/dev/shm", os.W_OK) else None)
    try:
        checkout = sys.argv[4] if len(sys.argv) > 4 else os.path.join(work, "checkout")
        if len(sys.argv) <= 4:
            here = os.path.dirname(os.path.abspath(__file__))
            shared = os.path.join(here, "..", "..", "..", "shared", "regelrecht", "corpus")
            subprocess.run([sys.executable, os.path.join(here, "checkout.py"), shared, checkout, "25000"], check=True)
        builds = {"voor": before, "na": after}
        envs = {}
        for name in builds:
            env = dict(os.environ)
            env["OVERHEID_CACHE_DIR"] = os.path.join(work, f"cache-{name}")
            env["REGELRECHT_AUDIT_LOG"] = os.path.join(work, f"audit-{name}.jsonl")
            envs[name] = env
        # A cold listing at a high load can take longer than the default 10 s deadline.
        commands = {
            "wet lijst koud": ["--timeout", "120", "wet", "lijst", "--corpus", checkout, "--fields", "aantal,aantal_versies"],
            "wet lijst warm (--fields aantal,aantal_versies)": ["--timeout", "120", "wet", "lijst", "--corpus", checkout, "--fields", "aantal,aantal_versies"],
            "wet lijst warm (alle rijen)": ["--timeout", "120", "wet", "lijst", "--corpus", checkout],
            "evalueer warm": ["--timeout", "120", "evalueer", "wet_op_de_zorgtoeslag_k500", "--uitvoer", "standaardpremie",
                              "--peildatum", "2025-01-01", "--corpus", checkout],
        }
        # Warm: each build's cache holds what its runs before left (the index, the prepared law).
        for command, args in commands.items():
            for name in builds:
                measure([builds[name], *args], envs[name])
        print(f"belasting voor: {open('/proc/loadavg').read().split()[:3]}")
        results = {(c, b): [] for c in commands for b in builds}
        for round_ in range(runs):
            order = list(builds) if round_ % 2 == 0 else list(reversed(builds))
            for command, args in commands.items():
                cold = command.endswith("koud")
                if cold and round_ >= 5:
                    continue
                for name in order:
                    env = envs[name]
                    if cold:
                        # Cold: a cache of its own, emptied first.
                        env = dict(env, OVERHEID_CACHE_DIR=os.path.join(work, f"koud-{name}"))
                        shutil.rmtree(env["OVERHEID_CACHE_DIR"], ignore_errors=True)
                    results[(command, name)].append(measure([builds[name], *args], env))
        print(f"belasting na: {open('/proc/loadavg').read().split()[:3]}")
        for name in builds:
            size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(envs[name]["OVERHEID_CACHE_DIR"]) for f in fs)
            print(f"cache {name}: {size} bytes")
        print("| opdracht | bouw | runs | wand (ms) | wand min (ms) | CPU (ms) | page faults | piek-RSS (MiB) |")
        print("|---|---|---:|---:|---:|---:|---:|---:|")
        for command in commands:
            for name in builds:
                rows = results[(command, name)]
                med = lambda i: statistics.median(r[i] for r in rows)
                least = min(r[0] for r in rows)
                print(f"| {command} | {name} | {len(rows)} | {med(0) * 1000:.0f} | {least * 1000:.0f} | {med(1) * 1000:.0f} | {med(2):.0f} | {med(3) / 1024:.1f} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
