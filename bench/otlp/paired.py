"""Paired timing for a noisy machine: runs the file-only and the file,otlp variant of one
call alternately (order flipped every pair), N pairs, and prints the median of each and the
median of the per-pair difference (what the export adds), in ms.

Usage: paired.py N -- COMMAND...   (environment as for bench/otlp/run.sh)"""

import os
import statistics
import subprocess
import sys
import time


def timed(command, export):
    env = {**os.environ, "OVERHEID_AUDIT_EXPORT": export}
    start = time.perf_counter_ns()
    done = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if done.returncode != 0:
        sys.exit(f"{export}: exit {done.returncode}")
    return elapsed


def main():
    pairs, command = int(sys.argv[1]), sys.argv[3:]
    files, exports, added = [], [], []
    for i in range(pairs):
        order = ["file", "file,otlp"] if i % 2 == 0 else ["file,otlp", "file"]
        got = {export: timed(command, export) for export in order}
        files.append(got["file"])
        exports.append(got["file,otlp"])
        added.append(got["file,otlp"] - got["file"])
    print(f"| paired, {pairs} pairs | file p50 {statistics.median(files):.2f} ms "
          f"| file,otlp p50 {statistics.median(exports):.2f} ms "
          f"| added p50 {statistics.median(added):+.2f} ms |")


if __name__ == "__main__":
    main()
