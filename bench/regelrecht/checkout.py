#!/usr/bin/env python3
"""A checkout the size of the upstream RegelRecht corpus (issue 41 item 2), made from the shared corpus.

    bench/regelrecht/checkout.py SHARED_CORPUS TARGET [FILES]   (FILES default 25000)

Writes TARGET/nl/... as the upstream corpus lays it out: the shared corpus itself, then copies of
it until FILES law files, copy k in TARGET/kopie-k/ with every `$id` and every reference to one
(`regulation:`, `law:` of implements and overrides) renamed `<id>_k<k>`, so each copy is a family of
distinct laws that refer to each other as the originals do. The Awb is not copied: its hooks fire on
every decision, and a corpus holds it once. Each law folder also gets the upstream's status.yaml
(skipped by the loader). Prints the number of law files and bytes written.
"""

import os
import re
import sys


def main():
    shared, target = sys.argv[1], sys.argv[2]
    wanted = int(sys.argv[3]) if len(sys.argv) > 3 else 25000
    laws = []
    for root, _, files in os.walk(shared):
        for name in sorted(files):
            if name.endswith(".yaml"):
                path = os.path.join(root, name)
                laws.append((os.path.relpath(path, shared), open(path, encoding="utf-8").read()))
    laws.sort()
    ids = sorted({m.group(1) for _, text in laws for m in re.finditer(r"^\$id: *'?([a-z0-9_]+)'?", text, re.M)})
    once = {"algemene_wet_bestuursrecht"}
    renamed = [i for i in ids if i not in once]
    pattern = re.compile(r"\b(" + "|".join(sorted(renamed, key=len, reverse=True)) + r")\b")
    written = 0
    size = 0

    def write(relative, text):
        nonlocal written, size
        path = os.path.join(target, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        status = os.path.join(os.path.dirname(path), "status.yaml")
        if not os.path.exists(status):
            with open(status, "w", encoding="utf-8") as out:
                out.write("status: harvested\n")
        written += 1
        size += len(text.encode("utf-8"))

    for relative, text in laws:
        write(os.path.join("nl", relative), text)
    copy = 0
    while written < wanted:
        copy += 1
        for relative, text in laws:
            if written >= wanted:
                break
            law_id = re.search(r"^\$id: *'?([a-z0-9_]+)'?", text, re.M)
            if law_id and law_id.group(1) in once:
                continue
            text = pattern.sub(lambda m: f"{m.group(1)}_k{copy}", text)
            write(os.path.join(f"kopie-{copy}", relative), text)
    print(f"{written} wetbestanden, {size} bytes, {copy} kopieën in {target}")


if __name__ == "__main__":
    main()
