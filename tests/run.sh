#!/usr/bin/env bash
# The whole test suite: `cargo test --workspace --no-fail-fast` (every failure, not only the
# first) with any further arguments (after `--`, the test harness's: `tests/run.sh --
# --include-ignored`), then what did not run and why.
#
# A test that needs what the machine lacks skips with a line `overgeslagen: <test>: <reason>`
# (test_support::skip), or is `#[ignore = "<reason>"]`; both are counted here at the end, grouped
# by reason. With OVERHEID_TEST_NO_SKIP=1 (.ci/run) a skip fails its test, and this script
# fails when anything did not run. Exit: cargo's, or 1 for a run that left tests out under
# OVERHEID_TEST_NO_SKIP=1.
set -uo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
cargo test --workspace --no-fail-fast "$@" 2>&1 | tee "$log"
status=$?
python3 - "$log" <<'PY'
import collections, re, sys
skipped = collections.Counter()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    line = line.rstrip("\n")
    if line.startswith("overgeslagen: "):
        test, _, reason = line[len("overgeslagen: "):].partition(": ")
        skipped[reason or test] += 1
        continue
    ignored = re.match(r"^test (\S+) \.\.\. ignored(?:, (.*))?$", line)
    if ignored:
        skipped[ignored.group(2) or "#[ignore] zonder reden"] += 1
total = sum(skipped.values())
print()
print(f"niet uitgevoerd: {total} test{'s' if total != 1 else ''}" + (":" if total else ""))
for reason, count in skipped.most_common():
    print(f"  {count} × {reason}")
PY
if [ "$status" = 0 ] && [ "${OVERHEID_TEST_NO_SKIP:-}" = 1 ] &&
   grep -qE '^overgeslagen: |^test \S+ \.\.\. ignored' "$log"; then
  echo "tests/run.sh: OVERHEID_TEST_NO_SKIP=1, maar er is iets niet uitgevoerd" >&2
  status=1
fi
exit "$status"
