"""overheid-mcp with a real MCP client: the official MCP Python SDK 2.x, over stdio and over HTTP.

Starts the fake KvK and KOOP (`fake-upstream`), then `overheid-mcp` with the four CLIs, and talks
to it as the SDK's `Client` in three modes (`auto`, `legacy`, `2026-07-28`) over stdio and over
Streamable HTTP (with a bearer JWT signed by a key made here):
- lists the tools (no `kvk_nummer` where the session supplies it);
- calls a tool of every CLI, with and without `fields` (the SDK validates `structuredContent`
  against the listed `outputSchema`), and with `fields` once more as a client that asks for the
  data once (`_meta` `nl.overheid/text: short`, `nl.overheid/provenance: none`);
- reads a koop:// resource;
- tries, as a model alone, every way to file an RVO report: its own arguments (a dry run), every
  digest and id it was given sent back as `confirm` (refused) and, where rvo-cli records proposals,
  propose and then apply by id: nothing is ever filed (`rvo__rapportage_lijst` stays empty). A
  client with an elicitation callback (the SDK then declares form and url) is offered the waiting
  proposal's link as url-mode elicitation in its era's form (2026-07-28: an InputRequiredResult;
  2025-11-25 over stdio: `elicitation/create`; 2025-11-25 over HTTP: applying fails with -32042);
  one without gets the id, status, link and instruction.
No server path reaches the client (WIRE-9): rvo-cli's store in a result's provenance and an audit
log that cannot be written, named in every CLI's error, come back as `[pad op de server]`.
Then prompts, views, completions (the four CLIs over stdio, both eras), progress seen by the SDK's
progress callback and the CLI's warning by its logging callback on a slow call of the fixture CLI
(`tests/fixtures/demo-cli`, over stdio and HTTP, both eras). Last, 200
concurrent read-only calls over HTTP: a 503 or 429 with Retry-After is the only refusal (and is retried);
all are answered; p50 and p95 are printed.

Usage: python test_mcp_client.py TARGET_DIR   (TARGET_DIR holds overheid-mcp, the CLIs, fake-upstream)
Exit status 0 when every check passes.
"""
import asyncio
import base64
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import httpx2
import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from mcp import StdioServerParameters, types
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

HERE = Path(__file__).resolve().parent
# The family's programs: every *-cli program of the workspace (dist/build.sh --list, from cargo
# metadata).
CLIS = tuple(
    subprocess.run(
        ["bash", "dist/build.sh", "--list"], cwd=HERE.parents[2], capture_output=True, text=True, check=True
    ).stdout.split()
)
KVK = "68750110"
ISSUER, AUDIENCE = "https://login.test", "overheid-mcp-test"
# (mode, whether the client has an elicitation callback and so declares URL elicitation)
MODES = (("auto", True), ("legacy", True), ("legacy", False), ("2026-07-28", True), ("2026-07-28", False))
URL_ELICITATION_REQUIRED = -32042
# The approval page a waiting proposal's link points at (--goedkeuring-url; never opened here).
PAGE = "https://goedkeuring.example.test/voorstellen"
failures = []


def check(name, condition, detail=""):
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


# One call per CLI: (tool, arguments, fields, what the projection must hold exactly).
CALLS = [
    ("kvk__basisprofiel_toon", {}, ["naam", "kvkNummer"], {"kvkNummer": KVK, "naam": "Test BV Donald"}),
    ("koop__regeling_artikel", {"bwb_id": "BWBR0018451", "artikel": "2"}, ["bwb_id"], {"bwb_id": "BWBR0018451"}),
    ("rvo__regeling_toon", {"regeling_id": "EBR-2027"}, ["id"], {"id": "EBR-2027"}),
    ("regelrecht__check_energiebesparing", {"elektriciteit_kwh": 60000, "gas_m3": 30000},
     ["kvk_nummer"], {"kvk_nummer": KVK}),
]


class Person:
    """The elicitation callback: a person who answers as told, and is counted."""

    def __init__(self, declares=True):
        self.asked, self.requests, self.declares = 0, [], declares

    async def __call__(self, context, params):
        self.asked += 1
        self.requests.append(params)
        # A url-mode answer only says the person went to the page; it approves nothing.
        return types.ElicitResult(action="accept")


async def conversation(label, server, mode, person, http):
    modern = mode != "legacy"
    label = f"{label} ({'url elicitation' if person.declares else 'no elicitation'})"
    callback = {"elicitation_callback": person} if person.declares else {}
    async with Client(server, mode=mode, read_timeout_seconds=60, **callback) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        check(f"{label}: tools/list has every CLI", all(
            any(name.startswith(cli.removesuffix("-cli") + "__") for name in tools) for cli in CLIS), sorted(tools))
        bound = [name for name in ("kvk__basisprofiel_toon", "rvo__rapportage_indienen",
                                   "regelrecht__check_energiebesparing") if name in tools]
        check(f"{label}: session-bound arguments are not listed",
              len(bound) == 3 and all("kvk_nummer" not in tools[n].input_schema.get("properties", {}) for n in bound),
              bound)
        for name, arguments, fields, expected in CALLS:
            whole = await client.call_tool(name, arguments)
            check(f"{label}: {name}", not whole.is_error and isinstance(whole.structured_content, dict),
                  whole)
            check(f"{label}: {name}: the text block is the data (every era)",
                  whole.content and json.loads(whole.content[0].text) == whole.structured_content)
            some = await client.call_tool(name, {**arguments, "fields": fields})
            data = some.structured_content or {}
            check(f"{label}: {name} with fields", not some.is_error
                  and {k: data.get(k) for k in expected} == expected and set(data) <= set(expected) | {"_links"},
                  data)
            # The data once (issue 40 item 4): the SDK still validates structuredContent; the text
            # block is one sentence, and no provenance is sent.
            once = await client.call_tool(name, {**arguments, "fields": fields},
                                          meta={"nl.overheid/text": "short", "nl.overheid/provenance": "none"})
            text = once.content[0].text if once.content else ""
            check(f"{label}: {name}: the data once when asked", not once.is_error
                  and once.structured_content == some.structured_content and "structuredContent" in text
                  and len(text) < 100 and "nl.overheid/provenance" not in (once.meta or {}), once)
        read = await client.read_resource("koop://regeling/BWBR0018451/artikel/2")
        text = json.loads(read.contents[0].text)
        check(f"{label}: resources/read", text.get("artikel", {}).get("nummer") == "2", text)

        arguments = {"regeling_id": "EBR-2027", "maatregelen": "warmtepomp, led-verlichting",
                     "toelichting": f"test {label}", "peildatum": "2027-06-01"}
        await model_alone(label, client, person, arguments, tools, modern, http)


async def attempt(client, name, arguments):
    """A call as a model makes it: the result, or the JSON-RPC error (e.g. -32042)."""
    try:
        return await client.call_tool(name, arguments)
    except MCPError as error:
        return error.error


async def model_alone(label, client, person, arguments, tools, modern, http):
    """Every sequence a model can make alone files nothing."""
    name = "rvo__rapportage_indienen"
    check(f"{label}: confirm is offered by no tool",
          all("confirm" not in tool.input_schema.get("properties", {}) for tool in tools.values()))
    seen = set()
    applies = "voorstel_id" in tools[name].input_schema.get("properties", {})
    if not applies:
        dry = await client.call_tool(name, arguments)
        content = dry.structured_content or {}
        digest = ((dry.meta or {}).get("nl.overheid/plan") or {}).get("plan_digest")
        check(f"{label}: a mutation with its own arguments is a dry run",
              not dry.is_error and content.get("uitgevoerd") is False and digest, dry)
        seen.add(digest)
    if "rvo__rapportage_voorstel" in tools:
        person.asked, person.requests = 0, []
        proposed = await client.call_tool("rvo__rapportage_voorstel", arguments)
        content = proposed.structured_content or {}
        proposal = content.get("voorstel_id")
        check(f"{label}: propose gives an id, status and instruction", proposal and content.get("status")
              and content.get("instructie"), proposed)
        seen |= {proposal, content.get("plan_digest")}
        link = f"{PAGE}/{proposal}"
        check(f"{label}: propose: the link and the instruction", content.get("goedkeuring_url") == link
              and link in content.get("instructie", ""), content)

        def offered(requests):
            return requests and all(r.mode == "url" and r.url == link and proposal in r.message for r in requests)

        # Where the era lets the server ask during the call, a client that declared URL elicitation
        # is asked at once; a 2025-11-25 client over HTTP is told when it applies (-32042).
        during_call = person.declares and (modern or not http)
        if during_call:
            check(f"{label}: the waiting proposal is offered as url elicitation", offered(person.requests),
                  person.requests)
        else:
            check(f"{label}: propose: no elicitation", not person.requests, person.requests)
        person.requests = []
        early = await attempt(client, name, {"voorstel_id": proposal})
        if http and not modern:
            elicitations = [types.ElicitRequestURLParams.model_validate(e)
                            for e in (getattr(early, "data", None) or {}).get("elicitations", [])]
            check(f"{label}: apply before approval: -32042 with the url-mode elicitation and the instruction",
                  getattr(early, "code", None) == URL_ELICITATION_REQUIRED and offered(elicitations)
                  and link in early.message and name in early.message, early)
        else:
            waiting = getattr(early, "structured_content", None) or {}
            check(f"{label}: apply before approval: the id, status, link and instruction",
                  waiting.get("voorstel_id") == proposal and waiting.get("status") == "open"
                  and waiting.get("goedkeuring_url") == link and name in waiting.get("instructie", ""), early)
            check(f"{label}: apply before approval: " + ("offered as url elicitation" if during_call
                  else "no elicitation"), offered(person.requests) if during_call else not person.requests,
                  person.requests)
        for candidate in sorted(filter(None, seen)):
            applied = await attempt(client, name, {"voorstel_id": candidate})
            filed = getattr(applied, "structured_content", None) or {}
            check(f"{label}: applying {candidate[:8]} alone files nothing", filed.get("replayed") is None
                  and filed.get("referentienummer") is None, applied)
    for digest in sorted(filter(None, seen)):
        refused = await client.call_tool(name, {**arguments, "confirm": digest})
        check(f"{label}: confirm={digest[:8]} is refused", refused.is_error is True, refused)
    listed = await client.call_tool("rvo__rapportage_lijst", {})
    check(f"{label}: nothing was filed", (listed.structured_content or {}).get("aantal") == 0, listed)


async def features(label, server, mode):
    """Prompts listed and fetched, views listed and read, completions, through the SDK's own calls."""
    async with Client(server, mode=mode, read_timeout_seconds=60) as client:
        prompts = {p.name: p for p in (await client.list_prompts()).prompts}
        check(f"{label}: prompts/list", {"informatieplicht_energiebesparing", "regelingen_voor_mijn_bedrijf",
                                         "artikel_uitleggen", "status_voorstellen_en_rapportages"} <= set(prompts),
              sorted(prompts))
        got = await client.get_prompt("artikel_uitleggen", {"bwb_id": "BWBR0018451", "artikel": "2"})
        text = got.messages[0].content.text if got.messages else ""
        check(f"{label}: prompts/get fills the arguments and names the tool",
              "BWBR0018451" in text and "koop__regeling_artikel" in text, text)
        try:
            await client.get_prompt("artikel_uitleggen", {"bwb_id": "geen id", "artikel": "2"})
            check(f"{label}: prompts/get refuses an argument of another form", False)
        except MCPError as error:
            check(f"{label}: prompts/get refuses an argument of another form", error.error.code == -32602, error)
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        check(f"{label}: resources/list has the views",
              {"kvk://mijn/basisprofiel", "rvo://mijn/voorstellen", "rvo://regelingen", "regelrecht://wetten"} <= uris,
              sorted(uris))
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        check(f"{label}: resources/templates/list has the view templates",
              {"regelrecht://wetten/{law_id}", "rvo://regelingen/{regeling_id}"} <= templates, sorted(templates))
        own = await client.read_resource("kvk://mijn/basisprofiel")
        check(f"{label}: the session's own company is read without naming it",
              json.loads(own.contents[0].text).get("kvkNummer") == KVK, own.contents[0].text[:200])
        laws = await client.complete(types.ResourceTemplateReference(uri="regelrecht://wetten/{law_id}"),
                                     {"name": "law_id", "value": "bes"})
        check(f"{label}: completion of law_id", laws.completion.values == ["besluit_activiteiten_leefomgeving"],
              laws.completion)
        articles = await client.complete(types.PromptReference(name="artikel_uitleggen"),
                                         {"name": "artikel", "value": "5.15"}, {"bwb_id": "BWBR0041330"})
        check(f"{label}: completion of artikel in the context of bwb_id", "5.15a" in articles.completion.values,
              articles.completion)
        codes = await client.complete(types.PromptReference(name="informatieplicht_energiebesparing"),
                                      {"name": "maatregelen", "value": "GC"})
        check(f"{label}: completion of EML codes", codes.completion.values == ["GC1", "GC3"], codes.completion)


async def slow(label, server, mode, logs_expected):
    """A call of 2.2 s: progress through the SDK's progress callback, the CLI's warning through its
    logging callback (2026-07-28: the per-request level; 2025-11-25: logging/setLevel)."""
    logged, progress = [], []

    async def on_log(params):
        logged.append(params)

    async def on_progress(value, total, message):
        progress.append((time.perf_counter(), value, total, message))

    level = {"log_level": "warning"} if mode != "legacy" else {}
    async with Client(server, mode=mode, read_timeout_seconds=60, logging_callback=on_log, **level) as client:
        if mode == "legacy":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # deprecated by 2026-07-28, still 2025-11-25's way
                await client.set_logging_level("warning")
        started = time.perf_counter()
        result = await client.call_tool("demo__slaap", {"seconden": 2.2}, progress_callback=on_progress)
        answered = time.perf_counter()
        check(f"{label}: the slow call answers", not result.is_error, result)
        # Progress at least every second while the call runs, judged so that load on the machine
        # (the client's and the CLI's start-up) does not decide it: the first notification by the
        # bridge's own clock (its `progress` is the seconds since it started the CLI), the later
        # ones by the gaps between them as they arrive, and all of them while the call runs, not
        # in a burst at its end (the first at least a second before the answer, the last at least
        # a second after the first). A bridge that sends none, too rarely, or only when the CLI
        # has ended fails one of these however fast the machine.
        gaps = [b[0] - a[0] for a, b in zip(progress, progress[1:])]
        check(f"{label}: progress at least every second ({len(progress)} seen)",
              len(progress) >= 3 and progress[0][1] < 1.0 and max(gaps) < 1.0
              and all(a[1] < b[1] for a, b in zip(progress, progress[1:]))
              and answered - progress[0][0] >= 1.0 and progress[-1][0] - progress[0][0] >= 1.0,
              [(round(t - started, 2), v) for t, v, _, _ in progress] + [("answer", round(answered - started, 2))])
        warned = [p for p in logged if p.level == "warning" and "slaapt" in str(p.data)]
        if logs_expected:
            check(f"{label}: the CLI's warning as a log message", len(warned) == 1
                  and warned[0].logger == "demo__slaap", logged)
        else:
            check(f"{label}: no log message without a level that lasts", not logged, logged)


PLACEHOLDER = "[pad op de server]"


def server_path_in(text, forbidden):
    """The first server path `text` names: one of `forbidden`, or an absolute path whose first
    directory exists on this machine (`/tmp/…`, `/work/…`); None when there is none."""
    for path in forbidden:
        if path in text:
            return path
    for at, char in enumerate(text):
        if char != "/" or (at > 0 and text[at - 1] not in " \"'(=\n\t"):
            continue
        first = ""
        for c in text[at + 1:]:
            if not (c.isascii() and (c.isalnum() or c in "._-")):
                break
            first += c
        if first and text[at + 1 + len(first):].startswith("/") and Path("/", first).is_dir():
            return text[at:at + 60]
    return None


def said(result):
    """Everything a client received in a result, as JSON text."""
    return json.dumps(result.model_dump(mode="json", by_alias=True), ensure_ascii=False)


async def server_paths(label, server, mode, forbidden, audit_in_a_directory):
    """WIRE-9 as a real client sees it: no server path in a result, its provenance or an error.
    rvo-cli names its local store in the provenance of `rapportage lijst`, and every CLI names an
    audit log it cannot write in its error: the bridge shows each as `[pad op de server]`."""
    async with Client(server, mode=mode, read_timeout_seconds=60) as client:
        listed = await client.call_tool("rvo__rapportage_lijst", {})
        found = server_path_in(said(listed), forbidden)
        check(f"{label}: no server path in the result", found is None, found)
        meta = listed.meta or {}
        if audit_in_a_directory:
            problem = meta.get("nl.overheid/problem") or {}
            text = listed.content[0].text if listed.content else ""
            check(f"{label}: the audit error names its log as {PLACEHOLDER}",
                  listed.is_error and problem.get("code") == "AUDIT_FOUT"
                  and f"auditlog {PLACEHOLDER}" in text, said(listed)[:600])
        else:
            provenance = meta.get("nl.overheid/provenance") or {}
            check(f"{label}: the provenance names the store as {PLACEHOLDER}",
                  not listed.is_error and provenance.get("opslag") == PLACEHOLDER, provenance)
        refused = await client.call_tool("rvo__regeling_toon", {"regeling_id": "EBR\u00002027"})
        found = server_path_in(said(refused), forbidden)
        check(f"{label}: no server path in an error", refused.is_error and found is None, found)


def demo_http(target, env):
    demo = str(HERE.parent / "fixtures" / "demo-cli")
    process = subprocess.Popen([str(target / "overheid-mcp"), "--http", "127.0.0.1:0", "--insecure-no-auth",
                                "--tool", demo], env=env, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if "luistert op " in line:
            url = line.strip().split("luistert op ")[1]
            break
    else:
        raise RuntimeError("overheid-mcp --http did not start")
    import threading
    threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
    return process, url


def keys(tmp):
    key = Ed25519PrivateKey.generate()
    public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    jwk = {"kty": "OKP", "crv": "Ed25519", "kid": "test", "alg": "EdDSA", "use": "sig",
           "x": base64.urlsafe_b64encode(public).rstrip(b"=").decode()}
    path = Path(tmp) / "jwks.json"
    path.write_text(json.dumps({"keys": [jwk]}))
    # A claim given as None is left out.
    return path, lambda **claims: jwt.encode(
        {k: v for k, v in {"iss": ISSUER, "aud": AUDIENCE, "sub": "ondernemer", "kvk_nummer": KVK,
                           "exp": int(time.time()) + 3600, **claims}.items() if v is not None},
        key, algorithm="EdDSA", headers={"kid": "test"})


def start_http(target, env, jwks, extra=()):
    args = [str(target / "overheid-mcp"), "--http", "127.0.0.1:0", "--auth-jwks", str(jwks),
            "--auth-issuer", ISSUER, "--auth-audience", AUDIENCE, *extra,
            "--goedkeuring-url", PAGE, *[arg for cli in CLIS for arg in ("--tool", str(target / cli))]]
    process = subprocess.Popen(args, env=env, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if "luistert op " in line:
            url = line.strip().split("luistert op ")[1]
            break
    else:
        raise RuntimeError("overheid-mcp --http did not start")
    # Keep draining stderr.
    import threading
    threading.Thread(target=lambda: [None for _ in process.stderr], daemon=True).start()
    return process, url


def http_server(url, token):
    return streamable_http_client(url, http_client=httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=60), terminate_on_close=False)


META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


async def post(http, url, token, name, arguments, **extra):
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments, "_meta": META, **extra}}
    response = await http.post(url, json=body, headers={
        "Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name})
    return response


async def scopes(url, sign):
    """Reading and filing are two scopes; a token without the one a call needs gets the step-up 403."""
    apply = {"voorstel_id": "vs_" + "a" * 32}
    async with httpx2.AsyncClient(timeout=60) as http:
        metadata = (await http.get(url.removesuffix("/mcp") + "/.well-known/oauth-protected-resource")).json()
        check("http: scopes_supported names reading and filing",
              metadata.get("scopes_supported") == ["overheid:lezen", "overheid:indienen"], metadata)
        for label, token in (("a reading token", sign(scope="overheid:lezen")),
                             ("a token without a scope claim", sign())):
            refused = await post(http, url, token, "rvo__rapportage_indienen", apply)
            challenge = refused.headers.get("www-authenticate", "")
            check(f"http: {label} may not file: 403 insufficient_scope with the filing scope",
                  refused.status_code == 403 and 'error="insufficient_scope"' in challenge
                  and 'scope="overheid:indienen"' in challenge and "resource_metadata=" in challenge,
                  (refused.status_code, challenge))
            read = await post(http, url, token, "rvo__regeling_toon", {"regeling_id": "EBR-2027"})
            check(f"http: {label} may read", read.status_code == 200
                  and read.json()["result"].get("isError") is False, read.text[:300])
        filing_only = await post(http, url, sign(scope="overheid:indienen"), "rvo__regeling_toon",
                                 {"regeling_id": "EBR-2027"})
        check("http: a filing-only token may not read",
              filing_only.status_code == 403
              and 'scope="overheid:lezen"' in filing_only.headers.get("www-authenticate", ""),
              filing_only.status_code)
        # A completion may read the session's own proposals and reports: it needs the reading scope.
        body = {"jsonrpc": "2.0", "id": 1, "method": "completion/complete",
                "params": {"ref": {"type": "ref/resource", "uri": "rvo://mijn/voorstellen/{id}"},
                           "argument": {"name": "id", "value": ""}, "_meta": META}}
        completing = await http.post(url, json=body, headers={
            "Authorization": f"Bearer {sign(scope='overheid:indienen')}",
            "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
            "Mcp-Method": "completion/complete"})
        check("http: a filing-only token may not complete (it may read the company's proposals)",
              completing.status_code == 403
              and 'scope="overheid:lezen"' in completing.headers.get("www-authenticate", ""),
              (completing.status_code, completing.text[:200]))


async def intermediary(url, sign):
    """An intermediary's token lists companies; a call names one in _meta, checked against the list."""
    token = sign(kvk_nummer=None, kvk_nummers=[KVK, "11111111"], sub="accountant")
    arguments = {"elektriciteit_kwh": 60000, "gas_m3": 30000}

    async def check_for(company):
        extra = {} if company is None else {"_meta": {**META, "nl.overheid/sessie": {"kvk_nummer": company}}}
        async with httpx2.AsyncClient(timeout=60) as http:
            reply = await post(http, url, token, "regelrecht__check_energiebesparing", arguments, **extra)
        return reply.json().get("result", {})

    for company in (KVK, "11111111"):
        result = await check_for(company)
        check(f"http: an intermediary names {company} in _meta and gets its check",
              result.get("isError") is False
              and (result.get("structuredContent") or {}).get("kvk_nummer") == company, result)
    refused = [await check_for(company) for company in ("22222222", "99999999")]
    problems = [{k: v for k, v in (r.get("_meta") or {}).get("nl.overheid/problem", {}).items() if k != "instance"}
                for r in refused]
    check("http: a company not in the intermediary's list: one refusal for every number, naming none",
          problems[0].get("code") == "NIET_TOEGESTAAN" and problems[0] == problems[1]
          and "22222222" not in json.dumps(refused[0]), problems)
    unnamed = await check_for(None)
    hint = (unnamed.get("_meta") or {}).get("nl.overheid/problem", {}).get("hint", "")
    check("http: an intermediary that names no company is told to name one, not to set a variable",
          unnamed.get("isError") is True and "nl.overheid/sessie" in hint and "KVK_SESSIE_NUMMER" not in hint,
          unnamed)


async def load(target, env, jwks, token, calls=200, budget=150):
    """200 concurrent read-only calls of one principal; a 503 (all slots taken) or a 429 (the
    principal's quarter taken) is retried after its Retry-After, within the budget."""
    process, url = start_http(target, env, jwks)
    try:
        async with httpx2.AsyncClient(timeout=60, limits=httpx2.Limits(max_connections=calls)) as http:
            arguments = {"elektriciteit_kwh": 60000, "gas_m3": 30000}
            deadline = time.perf_counter() + budget

            async def one():
                started, overloaded = time.perf_counter(), 0
                while True:
                    reply = await post(http, url, token, "regelrecht__check_energiebesparing", arguments)
                    if reply.status_code not in (503, 429) or time.perf_counter() > deadline:
                        return reply, time.perf_counter() - started, overloaded
                    overloaded += 1
                    await asyncio.sleep(float(reply.headers.get("retry-after", "1")) * (0.5 + secrets.randbelow(100) / 100))

            began = time.perf_counter()
            replies = await asyncio.wait_for(asyncio.gather(*[one() for _ in range(calls)]), timeout=budget + 60)
            wall = time.perf_counter() - began
        ok = [t for r, t, _ in replies if r.status_code == 200 and not r.json()["result"].get("isError")]
        other = [r for r, _, _ in replies if r.status_code != 200 or r.json()["result"].get("isError")]
        overloads = sum(n for _, _, n in replies)
        check(f"load: {calls} concurrent calls all answered (503/429 + Retry-After is the only refusal)",
              not other and len(ok) == calls, [(r.status_code, r.text[:200]) for r in other[:3]])
        if len(ok) > 1:
            p95 = statistics.quantiles(ok, n=20)[18]
            print(f"load: {len(ok)} calls answered in {wall:.2f} s ({len(ok) / wall:.0f}/s), {overloads} 503/429s "
                  f"retried; p50 {statistics.median(ok) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms")
    finally:
        process.terminate()
        process.wait(timeout=30)


def main():
    target = Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parents[2] / "target" / "debug").resolve()
    for binary in ("overheid-mcp", "fake-upstream", *CLIS):
        if not (target / binary).is_file():
            sys.exit(f"{target / binary} ontbreekt; bouw eerst de workspace")
    fake = subprocess.Popen([str(target / "fake-upstream"), "--source", "kvk", "--source", "koop"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        fake.stdout.readline()  # "# <root URL>"; then "export NAME=value" lines (URLs, a demo key)
        announced = dict(fake.stdout.readline().strip().removeprefix("export ").partition("=")[::2]
                         for _ in range(4))
        bases = {k: v for k, v in announced.items() if k != "KVK_API_KEY"}
        assert set(bases) == {"KVK_API_BASE", "KOOP_SRU_URL", "KOOP_REPOSITORY_URL"}, announced
        with tempfile.TemporaryDirectory() as tmp:
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": tmp,
                **bases,
                "KVK_API_KEY": "test-sleutel",
                "OVERHEID_AUDIT_LOG": str(Path(tmp) / "audit.jsonl"),
                "RVO_DATA_DIR": str(Path(tmp) / "rvo"),
                "OVERHEID_MCP_STATE_KEY": secrets.token_hex(32),
            }
            stdio = StdioServerParameters(
                command=str(target / "overheid-mcp"),
                args=["--goedkeuring-url", PAGE, *[arg for cli in CLIS for arg in ("--tool", str(target / cli))]],
                env={**env, "KVK_SESSIE_NUMMER": KVK},
            )
            for mode, declares in MODES:
                asyncio.run(conversation(f"stdio {mode}", stdio, mode, Person(declares), http=False))
            for mode in ("legacy", "2026-07-28"):
                asyncio.run(features(f"features stdio {mode}", stdio, mode))
            forbidden = sorted({tmp, os.path.realpath(tmp), str(target), str(HERE.parents[2])})
            for audit_in_a_directory in (False, True):
                audit = {"OVERHEID_AUDIT_LOG": tmp} if audit_in_a_directory else {}
                paths = StdioServerParameters(command=stdio.command, args=stdio.args,
                                              env={**stdio.env, **audit})
                for mode in ("legacy", "2026-07-28"):
                    where = "audit log a directory" if audit_in_a_directory else "store"
                    asyncio.run(server_paths(f"server paths stdio {mode} ({where})", paths, mode, forbidden,
                                             audit_in_a_directory))
            demo_env = {**env, "DEMO_STORE": str(Path(tmp) / "demo.json")}
            demo = StdioServerParameters(command=str(target / "overheid-mcp"),
                                         args=["--tool", str(HERE.parent / "fixtures" / "demo-cli")], env=demo_env)
            for mode in ("legacy", "2026-07-28"):
                asyncio.run(slow(f"slow stdio {mode}", demo, mode, logs_expected=True))
            process, url = demo_http(target, demo_env)
            try:
                for mode in ("legacy", "2026-07-28"):
                    # Over stateless HTTP a 2025 client's logging/setLevel lasts for nothing.
                    asyncio.run(slow(f"slow http {mode}", url, mode, logs_expected=mode != "legacy"))
            finally:
                process.terminate()
                process.wait(timeout=30)
            jwks, sign = keys(tmp)
            token = sign(scope="overheid:lezen overheid:indienen")
            process, url = start_http(target, env, jwks, ("--auth-companies-claim", "kvk_nummers"))
            try:
                asyncio.run(scopes(url, sign))
                asyncio.run(intermediary(url, sign))
                for mode, declares in MODES:
                    asyncio.run(conversation(f"http {mode}", http_server(url, token), mode, Person(declares),
                                             http=True))
            finally:
                process.terminate()
                process.wait(timeout=30)
            asyncio.run(load(target, env, jwks, token))
    finally:
        fake.kill()
        fake.wait()
    if failures:
        sys.exit(f"{len(failures)} controle(s) mislukt: {', '.join(failures)}")
    print("alle controles geslaagd")


if __name__ == "__main__":
    main()
