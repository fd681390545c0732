#!/usr/bin/env python3
"""Runs short commands interleaved (A, B, C, A, B, C, ...) and prints each one's wall-time
median, spread and peak RSS, so that a change in the machine's load hits every command alike.

    bench/interleave.py [--runs N] [--warmup N] [--json FILE] NAME=COMMAND [NAME=COMMAND ...]

A COMMAND is split like a shell would (shlex), but no shell runs it: it is started with
posix_spawn and reaped with wait4, whose rusage gives its CPU time (user + system, which the
machine's load moves less than the wall time). Peak RSS is measured apart, in --rss-runs runs
of each under GNU time (/usr/bin/time -f %M): a child spawned from this runner reports the
runner's own RSS as its peak, since the kernel counts the address space it leaves at exec.
`COMMAND < FILE` feeds FILE on stdin (as the reference engine's `evaluate` reads its request).
stdout and stderr go to /dev/null; a command that exits non-zero stops the run (it would
measure an error path). The order of the commands is shuffled in each round.

Wall time is measured around spawn and wait, so it includes the runner's own overhead (the same
for every command, about 0.1 ms); compare commands within one run, not across runs. The load
average at start and end is printed with the table.
"""

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import time


def parse(spec):
    name, _, command = spec.partition("=")
    if not command:
        sys.exit(f"expected NAME=COMMAND, got {spec!r}")
    words = shlex.split(command)
    stdin = None
    if len(words) >= 2 and words[-2] == "<":
        stdin = words[-1]
        words = words[:-2]
    return {"name": name, "argv": words, "stdin": stdin}


def run_once(cmd, devnull):
    stdin_fd = os.open(cmd["stdin"], os.O_RDONLY) if cmd["stdin"] else devnull
    try:
        start = time.perf_counter_ns()
        pid = os.posix_spawnp(
            cmd["argv"][0],
            cmd["argv"],
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, stdin_fd, 0),
                (os.POSIX_SPAWN_DUP2, devnull, 1),
                (os.POSIX_SPAWN_DUP2, devnull, 2),
            ],
        )
        _, status, usage = os.wait4(pid, 0)
        end = time.perf_counter_ns()
    finally:
        if cmd["stdin"]:
            os.close(stdin_fd)
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"{cmd['name']}: exit {code} ({shlex.join(cmd['argv'])})")
    cpu = usage.ru_utime + usage.ru_stime
    return (end - start) / 1e6, cpu * 1e3


def peak_rss(cmd, devnull):
    """Peak RSS in MiB of one run, under GNU time (whose own RSS, about 2 MiB, is below it)."""
    read, write = os.pipe()
    stdin_fd = os.open(cmd["stdin"], os.O_RDONLY) if cmd["stdin"] else devnull
    argv = ["/usr/bin/time", "-f", "%M", "-o", f"/dev/fd/{write}"] + cmd["argv"]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
        (os.POSIX_SPAWN_DUP2, stdin_fd, 0),
        (os.POSIX_SPAWN_DUP2, devnull, 1),
        (os.POSIX_SPAWN_DUP2, devnull, 2),
        (os.POSIX_SPAWN_DUP2, write, write),
    ])
    os.close(write)
    with os.fdopen(read) as out:
        text = out.read()
    os.waitpid(pid, 0)
    if cmd["stdin"]:
        os.close(stdin_fd)
    return int(text.split()[-1]) / 1024


def quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--rss-runs", type=int, default=20)
    parser.add_argument("--json", help="also write every measurement here")
    parser.add_argument("commands", nargs="+", metavar="NAME=COMMAND")
    args = parser.parse_args()
    commands = [parse(spec) for spec in args.commands]
    devnull = os.open(os.devnull, os.O_RDWR)
    load_start = os.getloadavg()
    for _ in range(args.warmup):
        for cmd in commands:
            run_once(cmd, devnull)
    samples = {cmd["name"]: [] for cmd in commands}
    for _ in range(args.runs):
        order = commands[:]
        random.shuffle(order)
        for cmd in order:
            samples[cmd["name"]].append(run_once(cmd, devnull))
    load_end = os.getloadavg()
    rss = {cmd["name"]: [] for cmd in commands}
    if os.access("/usr/bin/time", os.X_OK):
        for _ in range(args.rss_runs):
            for cmd in commands:
                rss[cmd["name"]].append(peak_rss(cmd, devnull))

    print(f"{args.runs} runs per command, interleaved; load average "
          f"{load_start[0]:.2f} at start, {load_end[0]:.2f} at end")
    print()
    print(f"| command | median (ms) | p10–p90 (ms) | min (ms) | CPU median (ms) "
          f"| peak RSS median, min–max of {args.rss_runs} (MiB) |")
    print("|---|---:|---:|---:|---:|---:|")
    for cmd in commands:
        wall = [s[0] for s in samples[cmd["name"]]]
        cpu = [s[1] for s in samples[cmd["name"]]]
        peaks = rss[cmd["name"]] or [float("nan")]
        median = statistics.median(wall)
        print(f"| {cmd['name']} | {median:.3f} | {quantile(wall, 0.1):.3f}–{quantile(wall, 0.9):.3f} "
              f"| {min(wall):.3f} | {statistics.median(cpu):.2f} "
              f"| {statistics.median(peaks):.2f}, {min(peaks):.2f}–{max(peaks):.2f} |")
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"load": [load_start, load_end],
                       "results": [{"name": c["name"], "argv": c["argv"], "stdin": c["stdin"],
                                    "wall_ms": [s[0] for s in samples[c["name"]]],
                                    "cpu_ms": [s[1] for s in samples[c["name"]]],
                                    "peak_rss_mib": rss[c["name"]]}
                                   for c in commands]}, out)


if __name__ == "__main__":
    main()
