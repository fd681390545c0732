"""Figures of issue 38 (bench/approval/run.sh): from the person's consent to the report filed,
and the check of an approval token at apply, with the end-to-end test's real parts
(overheid-mcp/tests/agent/harness.py): npm oidc-provider, fake-rvo, the operator's policy, the
agent as another OS user, the person in Chromium.

Per sample the agent runs `rvo-cli voorstel goedkeuren ID && rvo-cli rapportage indienen
--voorstel ID` (as an agent would: the second command as soon as the first returns) and the
person approves in Chromium. Timed from the click on Goedkeuren (the consent submitted):
  consent   the provider handled the consent (its log)
  approved  `voorstel goedkeuren` returned: its next poll got the token, verified it, stored it
  filed     `rapportage indienen --voorstel` returned: the backend filed the report (201)
Then the token check at apply (rvo-cli/examples/verify_approval.rs) with the last sample's
token, its keys kept in the family cache.

An INTERVAL of `browser` runs `voorstel goedkeuren --browser` instead: the person's browser on
this machine comes back to the tool's loopback port (RFC 8252), no polling (the provider names
1 s for its device logins meanwhile).

Usage (root, in a private mount namespace; run.sh does this):
  python latency.py TARGET NODE PROVIDER_SCRIPT EXAMPLE SAMPLES INTERVAL [INTERVAL…]
"""
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from harness import Approval, Parts, Person


def stamps(lines):
    """The agent's `<label> <epoch seconds>` lines."""
    found = {}
    for line in lines:
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("goedgekeurd", "ingediend"):
            found[parts[0]] = float(parts[1])
    return found


def run(target, node, provider, example, samples, interval):
    browser = interval == "browser"
    parts = Parts(target, node, provider, interval=1 if browser else int(interval))
    login = "--browser " if browser else ""
    person = None
    rows = []
    try:
        parts.start()
        person = Person()
        fetches_before = None
        for i in range(samples + 1):
            proposal = parts.propose(f"bench {interval} {i}")
            pid = proposal["id"]
            script = (f"rvo-cli voorstel goedkeuren {login}{pid} >/dev/null && "
                      "echo \"goedgekeurd $(date +%s.%N)\" >&2 && "
                      f"rvo-cli rapportage indienen --voorstel {pid} >/dev/null && "
                      "echo \"ingediend $(date +%s.%N)\" >&2")
            approval = Approval(parts, pid, script=script)
            if approval.link is None:
                raise RuntimeError("".join(approval.lines))
            consents = len(parts.consents)
            _, submitted = person.decide(approval.link.split()[-1], "anna", parts.passwords["anna"])
            result = approval.result()
            times = stamps(result.stderr.splitlines())
            if result.code != 0 or "ingediend" not in times:
                raise RuntimeError(f"sample {i}: {result}")
            if i == 0:
                # The first sample fills the agent's cache (provider metadata and keys); not counted.
                fetches_before = parts.jwks_fetches
                continue
            rows.append({
                "consent": parts.consents[consents] - submitted,
                "approved": times["goedgekeurd"] - submitted,
                "filed": times["ingediend"] - submitted,
            })
        fetches = parts.jwks_fetches - fetches_before
        reports = len(parts.filed())
        token = parts.token_of(pid)
        detail = proposal["authorization_details"][0]
        verify = None
        if example:
            with tempfile.TemporaryDirectory() as work:
                Path(work, "token").write_text(token)
                Path(work, "detail.json").write_text(json.dumps(detail))
                cache = Path(work, "cache")
                cache.mkdir(mode=0o700)
                out = subprocess.run([example, parts.issuer, f"{work}/token", f"{work}/detail.json", str(cache),
                                      "2000", "substantieel"], capture_output=True, text=True, check=True)
                verify = json.loads(out.stdout)
    finally:
        if person is not None:
            person.close()
        parts.close()
    return rows, fetches, reports, verify


def summary(values):
    values = sorted(values)
    return (f"p50 {statistics.median(values) * 1000:.0f} ms, "
            f"min {values[0] * 1000:.0f}, max {values[-1] * 1000:.0f}")


def main():
    target, node, provider, example = sys.argv[1:5]
    # A stop (SIGTERM) still removes the agent's user and stops the parts.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    samples = int(sys.argv[5])
    intervals = [i if i == "browser" else int(i) for i in sys.argv[6:]] or [1]
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"machine: {os.cpu_count()} CPUs, load {' '.join(load)} at the start; rvo-cli and fake-rvo from {target}")
    verify = None
    for interval in intervals:
        rows, fetches, reports, measured = run(target, node, provider, example if verify is None else None,
                                               samples, interval)
        verify = verify or measured
        how = ("a browser login on this machine (RFC 8252), no polling" if interval == "browser"
               else f"interval {interval} s (the device login's polling interval the provider names)")
        print(f"\n{how}, "
              f"{len(rows)} samples, {reports} reports filed, provider keys fetched {fetches}x during them")
        for label in ("consent", "approved", "filed"):
            print(f"  consent submitted -> {label}: {summary([r[label] for r in rows])}")
        print("  filed per sample (ms): " + ", ".join(f"{r['filed'] * 1000:.0f}" for r in rows))
        print("  approved -> filed (the apply, a new process) p50: "
              f"{statistics.median(r['filed'] - r['approved'] for r in rows) * 1000:.0f} ms")
    if verify:
        print(f"\ntoken check at apply ({verify['alg']}, {verify['token_bytes']} bytes, {verify['rounds']} rounds): "
              f"verify alone p50 {verify['verify_us']['p50']} µs (p90 {verify['verify_us']['p90']}, "
              f"max {verify['verify_us']['max']}); keys read from the cache + verify p50 "
              f"{verify['cache_and_verify_us']['p50']} µs (p90 {verify['cache_and_verify_us']['p90']}, "
              f"max {verify['cache_and_verify_us']['max']})")
    print(f"load at the end: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
