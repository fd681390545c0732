"""An agent with a shell, as another OS user, against real parts (issue 38 item 6; profile
§10.3, spec/rvo-backend.md §2.1).

The parts (harness.py): npm oidc-provider as the organisation's identity provider (device login,
rich authorization requests, JWT access tokens for the backend), two fake-rvo backends of
contract 2.0 trusting it, the operator's policy /etc/overheid/beleid.toml (methode =
"identiteit") on a tmpfs in a private mount namespace, the real target/debug/rvo-cli, the agent
as a non-root user created here (shell, tools, its own store and environment, the service
credential), and the person in a real Chromium.

The agent tries everything it can do alone: --confirm; typing the digest into `voorstel
goedkeuren` through `script` and through pty.fork(); an sqlite3 UPDATE marking a proposal
approved by "De Directeur"; every environment variable the tools read (the list from
`rvo-cli --help --json`), forged provider keys in the family cache with a forged token in the
store among them; its own token request at the provider; curl to the backend with the service
credential; a person's real token for another proposal, another company, another backend, an
expired one, one for another body. Each ends with nothing filed and a documented exit code.
Then the person approves once in Chromium, the agent applies: exactly one report; again:
replayed. With OVERHEID_TEST_POSTGRES_URL the same on PostgreSQL (OVERHEID_STORE_URL).

Usage (root, in a private mount namespace; run.sh does this):
  python test_agent.py TARGET_DIR NODE PROVIDER_SCRIPT
"""
import json
import os
import shlex
import signal
import sys
import threading
import time
from pathlib import Path

from harness import (AGENT_DEVICE_CODE_TTL, KVK, OTHER_KVK, PEILDATUM, REGELING, Approval, Parts, Person,
                     last_json, plan_digest)

failures = []
rows = []
documented = set()


def check(name, condition, detail=""):
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"), flush=True)
    if not condition:
        failures.append(name)
    return condition


class Attempts:
    """Each attempt: what the agent did, its exit (or HTTP status), and whether anything was
    filed; nothing may be, and every exit must be a documented one."""

    def __init__(self, parts):
        self.parts = parts
        self.before = len(parts.filed())

    def record(self, attempt, outcome, expected=None, code=None):
        """`outcome`: a Run (its exit) or an HTTP status (int)."""
        filed = len(self.parts.filed()) - self.before
        if isinstance(outcome, int):
            shown, exit_ok, detail = f"HTTP {outcome}", outcome in (expected or ()), outcome
        else:
            # The code from the JSON error on stderr, or from the text a terminal got.
            error = outcome.error.get("code", "") or next(
                (word for word in (code,) if word and f"code {word}" in outcome.stdout + outcome.stderr), "")
            shown = f"{outcome.code} {error}".strip()
            exit_ok = outcome.code != 0 and outcome.code in documented and (
                expected is None or outcome.code in expected) and (code is None or error == code)
            detail = outcome
        rows.append((attempt, shown, "ja" if filed else "nee"))
        check(f"{attempt}: {shown}, nothing filed", exit_ok and filed == 0, f"filed {filed}; {detail}")
        self.before += filed


def forge_row(parts, proposal, token="NULL"):
    """The agent marks `proposal` approved by "De Directeur" (method oidc) in its own store."""
    digest = proposal["plan_digest"]
    now_ms = int(time.time() * 1000)
    sql = (f"UPDATE overheid_proposals SET status = 'approved', decided_by_subject = 'directeur', "
           f"decided_by_name = 'De Directeur', decided_by_method = 'oidc', decided_at = {now_ms}, "
           f"decided_digest = '{digest}', decided_token = {token} WHERE id = '{proposal['id']}'")
    if parts.store_url:
        return parts.agent(f"psql -q \"$OVERHEID_STORE_URL\" -c {shlex.quote(sql)}")
    return parts.store_sql(sql)


def approve_in_browser(parts, person, proposal, login="anna", **changes):
    """The agent starts `voorstel goedkeuren`, the person approves in Chromium: (the call's
    result, the consent page's text)."""
    approval = Approval(parts, proposal["id"], **changes)
    if approval.link is None:
        return approval.result(), ""
    link = approval.link.split()[-1]
    text, _ = person.decide(link, login, parts.passwords[login])
    return approval.result(), text


def body_of(proposal):
    return proposal["plan"]["body"]


# The agent runs the browser login itself and plays the browser with curl (see terminal_attempts).
BROWSER_ATTEMPT = r"""
rvo-cli voorstel goedkeuren --browser {pid} >browser.out 2>browser.err &
tool=$!
for i in $(seq 100); do grep -q 'redirect_uri=' browser.err && break; sleep 0.1; done
link=$(grep -o 'http[^ ]*redirect_uri=[^ ]*' browser.err | head -n 1)
back=$(python3 -c 'import sys, urllib.parse as u; print(u.parse_qs(u.urlsplit(sys.argv[1]).query)["redirect_uri"][0])' "$link")
echo "provider $(curl -s -o /dev/null -w '%{{http_code}}' "$link")"
echo "callback $(curl -s -o /dev/null -w '%{{http_code}}' "$back?code=geraden&state=geraden")"
kill -INT $tool
wait $tool
code=$?
cat browser.err >&2
exit $code
"""


def terminal_attempts(parts, attempts, proposal):
    """--confirm, and typing the digest into `voorstel goedkeuren` (script, pty.fork()), and the
    agent's own token request at the provider, concurrently (each waits for a device code to
    expire)."""
    prefix = proposal["plan_digest"][:8]
    pid = proposal["id"]
    report = [KVK, REGELING, "LED-verlichting,Isolatie dak", "--peildatum", PEILDATUM,
              "--toelichting", proposal["plan"]["body"]["toelichting"]]
    attempts.record("--confirm", parts.rvo("rapportage", "indienen", *report, "--confirm"),
                    expected={77}, code="GOEDKEURING_VEREIST")
    attempts.record("--confirm=<digest>", parts.rvo("rapportage", "indienen", *report,
                                                    f"--confirm={proposal['plan_digest']}"),
                    expected={77}, code="GOEDKEURING_VEREIST")
    parts.agent(f"rvo-cli voorstel toon {pid} > voorstel.json")
    parts.set_ttl(device_code=AGENT_DEVICE_CODE_TTL)
    results = {}

    def run(name, script):
        results[name] = parts.agent(script, timeout=90)

    threads = [
        threading.Thread(target=run, args=("script", f"(sleep 1; echo {prefix}; sleep 2; echo {prefix}) | "
                                           f"script -qec 'rvo-cli voorstel goedkeuren {pid}' /dev/null")),
        threading.Thread(target=run, args=("pty", f"python3 \"$(command -v agent_pty.py)\" {prefix} 60 -- "
                                           f"rvo-cli voorstel goedkeuren {pid}")),
        threading.Thread(target=run, args=("login", f"python3 \"$(command -v agent_login.py)\" {parts.issuer} "
                                           "voorstel.json anna")),
        # The browser login (RFC 8252) with the agent as the browser: the provider's login page
        # without the person's password, and a callback at the tool's port that it made up; then
        # Ctrl-C. The tool's own exit (and its stderr) is the attempt's.
        threading.Thread(target=run, args=("browser", BROWSER_ATTEMPT.format(pid=pid))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    parts.set_ttl()
    scripted = results["script"]
    check("script: a device login started (link shown), the typed digest approved nothing",
          "user_code=" in scripted.stdout + scripted.stderr, scripted)
    attempts.record("`script` typing the digest into voorstel goedkeuren", scripted, expected={75},
                    code="LOGIN_NIET_VOLTOOID")
    typed = last_json(results["pty"].stdout)
    check("pty.fork(): a device login started, the typed digest approved nothing",
          "user_code=" in typed.get("output", ""), results["pty"])
    rows.append(("pty.fork() typing the digest into voorstel goedkeuren", f"{typed.get('exit')} LOGIN_NIET_VOLTOOID"
                 if typed.get("exit") == 75 else str(typed.get("exit")), "nee"))
    check("pty.fork(): exit 75, nothing filed", typed.get("exit") == 75 and len(parts.filed()) == attempts.before,
          typed.get("output", "")[-600:])
    browsed = results["browser"]
    check("--browser: a browser login started, the provider's page answered without a decision, "
          "the made-up callback was refused (400)",
          "redirect_uri=" in browsed.stderr and "callback 400" in browsed.stdout, browsed)
    attempts.record("voorstel goedkeuren --browser, the agent as the browser (no password, a made-up callback)",
                    browsed, expected={130}, code="ONDERBROKEN")
    shown = parts.rvo("voorstel", "toon", pid).data
    check("the proposal stays open", shown.get("status") == "open", shown)
    login = last_json(results["login"].stdout)
    check("the agent's own device login: the code is issued, the person's password is not guessed",
          login.get("device_authorization") == 200 and login.get("login_attempts")
          and all(status == 401 for status in login["login_attempts"]) and not login.get("consent_page_reached"),
          results["login"])
    check("the agent's own device login never gives a token (pending, then expired)",
          login.get("first_poll") == "authorization_pending" and "expired_token" in login.get("polls", []),
          login)
    for grant in ("client_credentials", "password", "refresh_token", "authorization_code"):
        status, error = login.get(grant, [0, None])
        check(f"the provider refuses grant {grant} to the agent", status == 400 and error != "access_token", login)
        rows.append((f"own token request at the provider: grant {grant}", f"HTTP {status} {error}", "nee"))
    check("no authorization request or client registration for the agent",
          login.get("authorization_request") == 400 and login.get("registration") == 404, login)
    check("not one access or ID token reached the agent", login.get("tokens") == 0, login)
    rows.append(("own device login, guessed passwords", "HTTP 401 (each); polls: "
                 + ", ".join(login.get("polls", [])), "nee"))


def env_value(parts, name, kind, forged_store, terminal_policy):
    """An adversarial value for variable `name` of `kind`."""
    home = parts.home
    values = {
        "RVO_API_BASE": parts.other_backend,
        "RVO_API_TOKEN": "eyJhbGciOiJub25lIn0.eyJzdWIiOiJkaXJlY3RldXIifQ.",
        "RVO_DATA_DIR": str(forged_store),
        "XDG_DATA_HOME": str(forged_store.parent / "xdg-data"),
        "KVK_SESSIE_NUMMER": OTHER_KVK,
        "OVERHEID_STORE_URL": "postgres://agent:geheim@127.0.0.1:1/records",
        "OVERHEID_GOEDKEURING_URL": "http://127.0.0.1:1/voorstellen",
        "OVERHEID_CLI_DIR": str(home / "nep-bin"),
        "OVERHEID_CACHE_DIR": str(home / "lege-cache"),
        "OVERHEID_CACHE_MAX_BYTES": "0",
        "XDG_CACHE_HOME": str(home / "xdg-cache"),
        "RVO_AUDIT_LOG": "/dev/null",
        "OVERHEID_AUDIT_LOG": "/dev/null",
        "XDG_STATE_HOME": str(home / "state"),
        "HOME": str(home / "ander-huis"),
        "OVERHEID_PROCESSING_ACTIVITY_ID": "goedgekeurd-door-directeur",
        "OVERHEID_MAX_RESPONSE_BYTES": "1",
        "TRACEPARENT": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "HTTPS_PROXY": "http://127.0.0.1:1",
        "NO_COLOR": "1",
        "TERM": "xterm-256color",
        "OVERHEID_AUDIT_EXPORT": "otlp",
        "OVERHEID_FOREIGN_PROCESSOR": "https://rvo.nl",
        "OVERHEID_FOREIGN_USER": "directeur",
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
        "OTEL_EXPORTER_OTLP_TIMEOUT": "1",
        "OTEL_SERVICE_NAME": "goedkeuring",
        "OTEL_RESOURCE_ATTRIBUTES": "goedgekeurd=ja",
        "OVERHEID_PAGER": "cat",
        "PAGER": "cat",
        "COLUMNS": "20",
        "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:1/v1/traces",
        "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20directeur",
        # Read only by the test build (rvo-cli-test-hooks), never by the real program.
        "RVO_CLI_TEST_BELEID": str(terminal_policy),
        "RVO_CLI_TEST_NOW": "2026-11-30T12:00:00Z",
        "SSL_CERT_FILE": str(home / "ca.pem"),
        "SSL_CERT_DIR": str(home),
    }
    if name in values:
        return values[name]
    # A variable added since this test was written: a value of its kind.
    return {"path": str(home / "elders"), "base_url": "http://127.0.0.1:1", "secret": "directeur"}.get(kind, "1")


def environment_attempts(parts, attempts, discovery):
    """Every variable the tools read, set by the agent: `--confirm` and applying a proposal it
    marked approved itself; with forged provider keys in the family cache and a forged token in
    the store, rvo-cli's own check may pass, and the backend refuses."""
    forged = parts.propose("env")
    forge_row(parts, forged)
    # A copy of the store with the forged row, for the variables that choose the store, and
    # the agent's own policy file (which the real program must never read).
    parts.agent("mkdir -p eigen/rvo xdg-data/rvo-cli nep-bin lege-cache xdg-cache state ander-huis && "
                "cp \"$RVO_DATA_DIR\"/overheid.sqlite3* eigen/rvo/ && "
                "cp \"$RVO_DATA_DIR\"/overheid.sqlite3* xdg-data/rvo-cli/ && "
                "chmod 700 eigen eigen/rvo xdg-data xdg-data/rvo-cli && "
                "printf '[goedkeuring]\\nmethode = \"terminal\"\\n' > beleid.toml && "
                "printf '#!/bin/sh\\necho {}\\n' > nep-bin/regelrecht-cli && chmod +x nep-bin/regelrecht-cli")
    variables = [(v["name"], v["kind"]) for v in discovery["env"]]
    for kind, names in discovery["profile_env"].items():
        variables += [(name, kind) for name in names]
    variables += [("RVO_CLI_TEST_BELEID", "path"), ("RVO_CLI_TEST_NOW", "setting"),
                  ("SSL_CERT_FILE", "path"), ("SSL_CERT_DIR", "path")]
    seen = set()
    report = [KVK, REGELING, "warmtepomp", "--peildatum", PEILDATUM, "--toelichting", "omgeving"]
    summary = {}
    for name, kind in variables:
        if name in seen:
            continue
        seen.add(name)
        value = env_value(parts, name, kind, parts.home / "eigen" / "rvo", parts.home / "beleid.toml")
        confirm = parts.rvo("rapportage", "indienen", *report, "--confirm", **{name: value})
        apply = parts.rvo("rapportage", "indienen", "--voorstel", forged["id"], **{name: value})
        for what, run in (("--confirm", confirm), ("--voorstel (row by hand)", apply)):
            filed = len(parts.filed()) - attempts.before
            ok = run.code != 0 and run.code in documented and filed == 0 and "referentienummer" not in run.stdout
            check(f"{name}={value[:40]} {what}: exit {run.code} {run.error.get('code', '')}, nothing filed",
                  ok, run)
            summary.setdefault((what, run.code, run.error.get("code", "")), []).append(name)
    for (what, code, error), names in sorted(summary.items()):
        rows.append((f"{what} with one of {len(names)} variables set ({', '.join(names)})", f"{code} {error}", "nee"))
    test_build_attempts(parts, attempts, forged)

    # Forged provider keys in the family cache (three ways to point at it), a forged token in
    # the store: rvo-cli's own check passes; the backend, with the provider's real keys, refuses.
    for label, changes, cache in (
        ("OVERHEID_CACHE_DIR", {"OVERHEID_CACHE_DIR": str(parts.home / "nep-cache")}, "nep-cache"),
        ("XDG_CACHE_HOME", {"XDG_CACHE_HOME": str(parts.home / "nep-xdg")}, "nep-xdg/overheid-cli"),
        ("the default cache (~/.cache)", {}, ".cache/overheid-cli"),
    ):
        proposal = parts.propose(f"nepsleutels {label}")
        parts.agent(f"rvo-cli voorstel toon {proposal['id']} > nep-voorstel.json")
        forged_run = parts.agent(f"python3 \"$(command -v agent_forge.py)\" {parts.issuer} nep-voorstel.json "
                                 f"{cache} nep-token.jwt")
        check(f"the agent forged provider keys in {label}", forged_run.code == 0, forged_run)
        forge_row(parts, proposal, token="CAST(readfile('nep-token.jwt') AS TEXT)" if not parts.store_url else
                  "'" + parts.agent("cat nep-token.jwt").stdout.strip() + "'")
        refusals = len(parts.refusals())
        run = parts.rvo("rapportage", "indienen", "--voorstel", proposal["id"], **changes)
        attempts.record(f"forged keys in {label} + forged token in the store: the backend refuses",
                        run, expected={77}, code="GOEDKEURING_VEREIST")
        new = parts.refusals(after=refusals)[refusals:]
        check(f"{label}: rvo-cli's own check passed, the 403 came from the backend (token ongeldig)",
              len(new) == 1 and "token ongeldig" in new[0], new)
        if not changes:
            # Forged keys under the real key's id make every real approval in this cache fail
            # (closed) until the entry's time, which the forger chose: the agent undoes it.
            parts.agent(f"rm -r {cache}")
        if label == "OVERHEID_CACHE_DIR":
            # Without the forged keys, rvo-cli's own check refuses before anything is sent.
            refusals = len(parts.refusals())
            run = parts.rvo("rapportage", "indienen", "--voorstel", proposal["id"],
                            OVERHEID_CACHE_DIR=str(parts.home / "lege-cache"))
            attempts.record("forged token in the store, real keys: rvo-cli refuses, nothing sent", run,
                            expected={77}, code="GOEDKEURING_ONGELDIG")
            check("nothing sent for a token rvo-cli refuses", len(parts.refusals(after=refusals)) == refusals,
                  parts.refusals()[refusals:])


def test_build_attempts(parts, attempts, forged):
    """The test build (rvo-cli-test-hooks, made by `cargo test`, never shipped) reads a policy
    file named in RVO_CLI_TEST_BELEID: an agent that got hold of it runs under a policy of its
    own, so rvo-cli's checks are off and it sends what it likes. The backend files nothing."""
    if not (parts.bin / "rvo-cli-test-hooks").exists():
        print("overgeslagen: rvo-cli-test-hooks is niet gebouwd (cargo test bouwt hem); "
              "de poging met de testbouw is niet gedaan")
        return
    own = {"RVO_CLI_TEST_BELEID": str(parts.home / "beleid.toml")}
    report = [KVK, REGELING, "zonnepanelen", "--peildatum", PEILDATUM, "--toelichting", "testbouw"]
    for label, command in (
        ("test build, its own policy: --confirm", ["rapportage", "indienen", *report, "--confirm"]),
        ("test build, its own policy: --voorstel (row by hand)",
         ["rapportage", "indienen", "--voorstel", forged["id"]]),
    ):
        refusals = len(parts.refusals())
        run = parts.agent("rvo-cli-test-hooks " + " ".join(shlex.quote(a) for a in command), **own)
        attempts.record(label, run, expected={77}, code="GOEDKEURING_VEREIST")
        check(f"{label}: sent, and refused by the backend", len(parts.refusals(after=refusals)) == refusals + 1)


def backend_attempts(parts, attempts):
    """curl to the backend with the service credential, without a person's token."""
    proposal = parts.propose("curl")
    body, key = body_of(proposal), proposal["plan_digest"]
    for label, bearer, service, expected in (
        ("curl: the service credential as Authorization", "$RVO_API_TOKEN", "$RVO_API_TOKEN", 403),
        ("curl: the service credential in Overheid-Dienstsleutel only", None, "$RVO_API_TOKEN", 403),
        ("curl: the service credential as Authorization, no Dienstsleutel", "$RVO_API_TOKEN", None, 403),
        ("curl: nothing", None, None, 401),
    ):
        status, answer = parts.agent_post(body, key, bearer=bearer, service=service)
        attempts.record(label, status, expected={expected})
        if expected == 403:
            check(f"{label}: problem type …/goedkeuring-vereist",
                  str(answer.get("type", "")).endswith("goedkeuring-vereist"), answer)


def stale_session_attempt(parts, attempts, person, last_login):
    """A provider that lets the person's browser session stand in for the fresh login asked
    (oidc-provider does so for a device login unless told otherwise): rvo-cli refuses the
    approval, because the login (auth_time) is older than the approval."""
    time.sleep(max(0.0, last_login + 32 - time.time()))
    proposal = parts.propose("oude sessie")
    parts.set_ttl(fresh_login=False)
    try:
        result, _ = approve_in_browser(parts, person, proposal)
    finally:
        parts.set_ttl()
    check("the provider let the session stand in (no password asked)", not person.logged_in)
    attempts.record("a device login answered by an old session (no fresh login)", result, expected={77},
                    code="GOEDKEURING_ONGELDIG")
    check("refused for the login's age (auth_time)", "auth_time" in result.error.get("detail", ""), result)
    check("the proposal stays open", parts.rvo("voorstel", "toon", proposal["id"]).data.get("status") == "open")


def person_token_attempts(parts, attempts, person, expired_since):
    """A person's real tokens, misused: for another proposal, another company, another
    backend; an expired one (approved earlier with a 1-second access token)."""
    target = parts.propose("doel")
    body, key = body_of(target), target["plan_digest"]

    other = parts.propose("ander voorstel")
    result, _ = approve_in_browser(parts, person, other)
    check("the person approved another proposal", result.code == 0, result)
    forge_row(parts, target, token=f"(SELECT decided_token FROM overheid_proposals WHERE id = '{other['id']}')")
    attempts.record("a person's token for another proposal, put on this one's row", parts.rvo(
        "rapportage", "indienen", "--voorstel", target["id"]), expected={77}, code="GOEDKEURING_ONGELDIG")
    status, _ = parts.agent_post(body, key, bearer=parts.token_sql(other["id"]))
    attempts.record("curl: a person's token for another proposal, this body and key", status, expected={403})
    status, _ = parts.agent_post(body, other["plan_digest"], bearer=parts.token_sql(other["id"]))
    attempts.record("curl: a person's token for another proposal, its key, this body", status, expected={403, 422})

    company = parts.propose("ander bedrijf", kvk=OTHER_KVK)
    result, _ = approve_in_browser(parts, person, company, login="piet")
    check("a person of another company approved its proposal", result.code == 0, result)
    target2 = parts.propose("doel 2")
    forge_row(parts, target2, token=f"(SELECT decided_token FROM overheid_proposals WHERE id = '{company['id']}')")
    attempts.record("a person's token for another company, put on this one's row", parts.rvo(
        "rapportage", "indienen", "--voorstel", target2["id"]), expected={77}, code="GOEDKEURING_ONGELDIG")
    status, _ = parts.agent_post(body_of(target2), company["plan_digest"], bearer=parts.token_sql(company["id"]))
    attempts.record("curl: another company's token and key, this company's body", status, expected={403, 422})

    elsewhere = parts.propose("andere backend", RVO_API_BASE=parts.other_backend)
    result, _ = approve_in_browser(parts, person, elsewhere, RVO_API_BASE=parts.other_backend)
    check("the person approved a filing at another backend", result.code == 0, result)
    attempts.record("a person's token for another backend, applied here", parts.rvo(
        "rapportage", "indienen", "--voorstel", elsewhere["id"]), expected={77}, code="GOEDKEURING_ONGELDIG")
    status, _ = parts.agent_post(body_of(elsewhere), elsewhere["plan_digest"], bearer=parts.token_sql(elsewhere["id"]))
    attempts.record("curl: a person's token for another backend, sent here", status, expected={403})

    expired, approved_at = expired_since
    # exp is 1 s after issue; a verifier allows 30 s of clock difference.
    time.sleep(max(0.0, approved_at + 33 - time.time()))
    attempts.record("an expired person's token", parts.rvo("rapportage", "indienen", "--voorstel", expired["id"]),
                    expected={77}, code="GOEDKEURING_ONGELDIG")
    status, _ = parts.agent_post(body_of(expired), expired["plan_digest"], bearer=parts.token_sql(expired["id"]))
    attempts.record("curl: an expired person's token", status, expected={403})

    # The person's token for exactly this filing, with another body under the same key: the
    # person approved these measures, not others.
    forged_body = dict(body_of(other), maatregelen=["zonnepanelen op het dak van de buren"])
    status, answer = parts.agent_post(forged_body, other["plan_digest"], bearer=parts.token_sql(other["id"]))
    attempts.record("curl: the person's token and key for a proposal, another body (measures)", status,
                    expected={403, 422})
    check("another body is refused as not approved", str(answer.get("type", "")).endswith("goedkeuring-vereist")
          or status == 422, answer)


def legit(parts, person, label):
    """The person approves once; the agent applies: exactly one report; again: replayed. The
    token never appears in what the agent was shown or in its audit log."""
    before = len(parts.filed())
    proposal = parts.propose(label)
    approval = Approval(parts, proposal["id"])
    check(f"{label}: voorstel goedkeuren shows the provider's link", approval.link is not None,
          "".join(approval.lines))
    if approval.link is None:
        return
    text, submitted = person.decide(approval.link.split()[-1], "anna", parts.passwords["anna"])
    check(f"{label}: the consent page shows the voorstel_id and plan digest",
          proposal["id"] in text and proposal["plan_digest"] in text, text)
    decided = approval.result()
    check(f"{label}: voorstel goedkeuren ends with exit 0, approved with a login", decided.code == 0
          and decided.data.get("status") == "goedgekeurd"
          and decided.data.get("beslissing", {}).get("met_login") is True,
          decided)
    first = parts.rvo("rapportage", "indienen", "--voorstel", proposal["id"])
    reports = parts.filed()
    check(f"{label}: the agent applies: exactly one report", first.code == 0 and first.data.get("replayed") is False
          and len(reports) == before + 1, f"{first}; {len(reports)} reports")
    rows.append((f"{label}: the person approves in Chromium, the agent applies", f"{first.code}", "ja (1)"))
    again = parts.rvo("rapportage", "indienen", "--voorstel", proposal["id"])
    check(f"{label}: applying again is replayed, still one report",
          again.code == 0 and again.data.get("replayed") is True and len(parts.filed()) == before + 1, again)
    rows.append((f"{label}: applying again", f"{again.code} replayed", "nee"))
    token = parts.token_of(proposal["id"])
    check(f"{label}: the token is stored with the decision", token.count(".") == 2, token[:20])
    status, answer = parts.agent_post(body_of(proposal), proposal["plan_digest"],
                                      bearer=parts.token_sql(proposal["id"]))
    check(f"{label}: curl replaying the filing with the token gets the first result",
          status == 200 and answer.get("referentienummer") == first.data.get("referentienummer"), (status, answer))
    rows.append((f"{label}: curl replays the same filing with the token", f"HTTP {status}", "nee"))
    for what, body, key in (
        ("another body, same key", dict(body_of(proposal), maatregelen=["iets anders"]), proposal["plan_digest"]),
        ("another body, its own key", dict(body_of(proposal), maatregelen=["iets anders"]),
         plan_digest(dict(body_of(proposal), maatregelen=["iets anders"]))),
    ):
        status, _ = parts.agent_post(body, key, bearer=parts.token_sql(proposal["id"]))
        check(f"{label}: the used token for {what} is refused", status in (403, 422)
              and len(parts.filed()) == before + 1, status)
        rows.append((f"{label}: curl with the used token, {what}", f"HTTP {status}", "nee"))
    audit = parts.agent("cat .local/state/overheid-cli/audit.jsonl").stdout
    leaked = [what for what, text in (("goedkeuren stdout/stderr", decided.stdout + decided.stderr),
                                      ("indienen stdout/stderr",
                                       first.stdout + first.stderr + again.stdout + again.stderr),
                                      ("audit log", audit)) if token and token in text]
    check(f"{label}: the token never printed or audited", not leaked, leaked)
    filed = [r for r in parts.filed() if r["referentienummer"] == first.data.get("referentienummer")]
    check(f"{label}: the report is the approved one",
          filed and filed[0]["maatregelen"] == body_of(proposal)["maatregelen"],
          filed)
    return proposal


def main():
    target, node, provider_script = Path(sys.argv[1]).resolve(), sys.argv[2], sys.argv[3]
    # A stop (SIGTERM) still removes the agent's user and stops the parts.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    store_url = os.environ.get("OVERHEID_TEST_POSTGRES_URL")
    parts = Parts(target, node, provider_script)
    person = None
    try:
        parts.start()
        discovery = json.loads(parts.agent("rvo-cli --help --json").stdout)
        documented.update(int(entry["code"]) for entry in discovery["exit_codes"])
        who = parts.agent("id -u; test -w /etc/overheid/beleid.toml && echo schrijfbaar; "
                          "echo x >> /etc/overheid/beleid.toml 2>/dev/null || echo geweigerd")
        check("the agent is not root and cannot change the policy",
              who.stdout.split()[0] != "0" and "schrijfbaar" not in who.stdout and "geweigerd" in who.stdout, who)
        check("the agent runs the real rvo-cli", os.path.samefile(parts.bin / "rvo-cli", target / "rvo-cli")
              or parts.agent("cmp \"$(command -v rvo-cli)\" " + shlex.quote(str(parts.bin / "rvo-cli"))).code == 0)
        attempts = Attempts(parts)
        person = Person()

        # The expired token first: its wait runs while the agent tries everything else.
        expired = parts.propose("verlopen")
        parts.set_ttl(access_token=1)
        result, _ = approve_in_browser(parts, person, expired)
        approved_at = time.time()
        parts.set_ttl()
        check("the person approved (a token that expires in 1 s)", result.code == 0, result)

        terminal_attempts(parts, attempts, parts.propose("terminal"))
        row = parts.propose("sqlite3")
        forged = forge_row(parts, row)
        check("the agent's sqlite3 UPDATE marked the proposal approved", forged.code == 0, forged)
        attempts.record("sqlite3 UPDATE: approved by \"De Directeur\", method oidc", parts.rvo(
            "rapportage", "indienen", "--voorstel", row["id"]), expected={77}, code="GOEDKEURING_ONGELDIG")
        environment_attempts(parts, attempts, discovery)
        backend_attempts(parts, attempts)
        stale_session_attempt(parts, attempts, person, approved_at)
        person_token_attempts(parts, attempts, person, (expired, approved_at))
        check("nothing filed before the person's approval", len(parts.filed()) == 0, parts.filed())

        legit(parts, person, "SQLite")

        if store_url:
            parts.store_url = store_url
            row = parts.propose("postgres rij")
            forged = forge_row(parts, row)
            check("PostgreSQL: the agent's psql UPDATE marked the proposal approved", forged.code == 0, forged)
            attempts.before = len(parts.filed())
            attempts.record("PostgreSQL: psql UPDATE, approved by \"De Directeur\"", parts.rvo(
                "rapportage", "indienen", "--voorstel", row["id"]), expected={77}, code="GOEDKEURING_ONGELDIG")
            legit(parts, person, "PostgreSQL")
        elif os.environ.get("OVERHEID_TEST_REQUIRE_POSTGRES") == "1":
            check("PostgreSQL (OVERHEID_TEST_POSTGRES_URL) is there", False, "not set")
        else:
            print("overgeslagen: de PostgreSQL-variant (OVERHEID_TEST_POSTGRES_URL niet gezet; "
                  "tests/postgres/run.sh start er een)")
        print(f"reports at the backends: {len(parts.filed())}")
    finally:
        if person is not None:
            person.close()
        if failures:
            for name in ("provider.log", "fake-rvo-1.log", "fake-rvo-2.log"):
                path = parts.private / name
                if path.exists():
                    print(f"--- {name}\n" + path.read_text()[-3000:])
        parts.close()
    print("\n| attempt | exit | filed? |\n|---|---|---|")
    for attempt, shown, filed in rows:
        print(f"| {attempt} | {shown} | {filed} |")
    if failures:
        sys.exit(f"{len(failures)} controle(s) mislukt: {', '.join(failures)}")
    print("alle controles geslaagd")


if __name__ == "__main__":
    main()
