#!/usr/bin/env python3
"""Writes the linker's symbol order from the instructions some calls ran (bench/startup-order.sh).

    startup_order.py LINK_MAP BINARY CALLGRIND_OUT...

LINK_MAP is rust-lld's map of BINARY (`-Wl,-Map=LINK_MAP,--no-demangle`); each CALLGRIND_OUT is written
by `valgrind --tool=callgrind --dump-instr=yes --compress-strings=no --compress-pos=no`, which
gives each instruction's address as linked. Prints the symbols of every `.text` input section
that ran, one per line: those of the first output first, each output's sorted by name.
"""

import bisect
import re
import sys


def text_sections(link_map):
    """The `.text` input sections of the map: sorted (start, end, [symbols])."""
    sections, current, in_text = [], None, False
    row = re.compile(r"^\s*([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\d+\s(\s*)(.*)$")
    for line in open(link_map, encoding="utf-8", errors="replace"):
        m = row.match(line)
        if not m:
            continue
        vma, size, indent, rest = int(m[1], 16), int(m[2], 16), len(m[3]), m[4].strip()
        if indent == 0:  # an output section
            in_text = rest == ".text"
            current = None
        elif not in_text:
            continue
        elif ":(" in rest:  # an input section
            current = [vma, vma + size, []]
            sections.append(current)
        elif current is not None and rest:
            current[2].append(rest)
    sections.sort()
    return sections


def executed(callgrind_out, binary):
    """The addresses (as linked) of the instructions BINARY ran, in the order of the output."""
    in_binary = False
    for line in open(callgrind_out, encoding="utf-8", errors="replace"):
        if line.startswith("ob="):
            in_binary = line[3:].strip() == binary
        elif in_binary and line.startswith("0x"):
            yield int(line.split(None, 1)[0], 16)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    link_map, binary, runs = sys.argv[1], sys.argv[2], sys.argv[3:]
    sections = text_sections(link_map)
    if not sections:
        sys.exit(f"{link_map}: geen .text-secties")
    starts = [s[0] for s in sections]
    seen, order = set(), []
    for out in runs:
        # A run's new functions by name: the output's own order varies from build to build, and
        # within one run the order matters little (they lie together either way).
        ran = []
        for address in executed(out, binary):
            i = bisect.bisect_right(starts, address) - 1
            if i < 0 or address >= sections[i][1] or i in seen:
                continue
            seen.add(i)
            ran.extend(sections[i][2])
        order.extend(sorted(ran))
    if not order:
        sys.exit("geen uitgevoerde functies gevonden")
    sys.stdout.write("".join(name + "\n" for name in dict.fromkeys(order)))


if __name__ == "__main__":
    main()
