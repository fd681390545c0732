"""overheid-mcp with a real MCP client: the official MCP Python SDK over stdio.

Starts the fake KvK and KOOP (`fake-upstream`), then `overheid-mcp` with kvk-cli, koop-cli and
rvo-cli, and as a client: initializes, lists the tools, calls kvk__basisprofiel_get with fields,
files an RVO report through proposal and confirmation (then again: a replay), and reads a
koop:// resource.

Usage: python test_mcp_client.py TARGET_DIR   (TARGET_DIR holds overheid-mcp, the CLIs, fake-upstream)
Exit status 0 when every check passes.
"""
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

HERE = Path(__file__).resolve().parent
CLIS = ("kvk-cli", "koop-cli", "rvo-cli")
failures = []


def check(name, condition, detail=""):
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def field(obj, snake, camel):
    """SDK 1.x uses camelCase attributes, 2.x snake_case; accept both."""
    for name in (snake, camel):
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


async def conversation(target, env):
    params = StdioServerParameters(
        command=str(target / "overheid-mcp"),
        args=[arg for cli in CLIS for arg in ("--tool", str(target / cli))],
        env=env,
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("initialize: serverInfo", field(init, "server_info", "serverInfo").name == "overheid-mcp")

            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            check("tools/list: kvk__basisprofiel_get", "kvk__basisprofiel_get" in tools, sorted(tools))
            check("tools/list: rvo__rapportage_indienen", "rvo__rapportage_indienen" in tools, sorted(tools))
            check("tools/list: koop__regeling_artikel", "koop__regeling_artikel" in tools, sorted(tools))
            get = tools["kvk__basisprofiel_get"]
            check("tools/list: fields argument", "fields" in field(get, "input_schema", "inputSchema")["properties"])
            maak = tools["rvo__rapportage_indienen"]
            check("tools/list: confirm argument on a mutation",
                  "confirm" in field(maak, "input_schema", "inputSchema")["properties"])

            result = await session.call_tool("kvk__basisprofiel_get",
                                             {"kvk_nummer": "68750110", "fields": ["naam", "kvkNummer"]})
            data = field(result, "structured_content", "structuredContent")
            check("call with fields: not an error", not field(result, "is_error", "isError"), result)
            check("call with fields: only the fields", data == {"kvkNummer": "68750110", "naam": "Test BV Donald"}, data)
            check("call with fields: text content is the same JSON", json.loads(result.content[0].text) == data)
            meta = field(result, "meta", "_meta") or {}
            provenance = meta.get("nl.overheid/provenance", {})
            check("call with fields: provenance in _meta", provenance.get("fields") == ["naam", "kvkNummer"], meta)

            arguments = {"kvk_nummer": "68750110", "regeling_id": "EBR-2027",
                         "maatregelen": "warmtepomp, led-verlichting", "peildatum": "2027-06-01"}
            proposal = await session.call_tool("rvo__rapportage_indienen", arguments)
            content = field(proposal, "structured_content", "structuredContent") or {}
            check("mutation: proposal is not an error", not field(proposal, "is_error", "isError"), proposal)
            check("mutation: requires confirmation", content.get("requires_confirmation") is True, content)
            digest = content.get("plan_digest", "")
            check("mutation: digest of the plan", len(digest) == 64 and content["plan"]["plan_digest"] == digest)
            stale = await session.call_tool("rvo__rapportage_indienen", {**arguments, "confirm": "0" * 64})
            check("mutation: a wrong digest is refused", field(stale, "is_error", "isError") is True, stale)
            done = await session.call_tool("rvo__rapportage_indienen", {**arguments, "confirm": digest})
            filed = field(done, "structured_content", "structuredContent") or {}
            check("mutation: confirmed and filed",
                  not field(done, "is_error", "isError") and filed.get("status") == "ONTVANGEN"
                  and filed.get("replayed") is False, done)
            again = await session.call_tool("rvo__rapportage_indienen", {**arguments, "confirm": digest})
            replay = field(again, "structured_content", "structuredContent") or {}
            check("mutation: exactly once (a replay, same reference)",
                  replay.get("replayed") is True
                  and replay.get("referentienummer") == filed.get("referentienummer"), again)

            templates = (await session.list_resource_templates())
            uris = [field(t, "uri_template", "uriTemplate") for t in field(templates, "resource_templates", "resourceTemplates")]
            check("resources/templates/list", "koop://regeling/{bwb_id}/artikel/{artikel}" in uris, uris)
            read = await session.read_resource("koop://regeling/BWBR0018451/artikel/2")
            text = json.loads(read.contents[0].text)
            check("resources/read: koop:// article", text.get("artikel", {}).get("nummer") == "2", text)
            check("resources/read: mimeType", field(read.contents[0], "mime_type", "mimeType") == "application/json")


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
            }
            asyncio.run(conversation(target, env))
    finally:
        fake.kill()
        fake.wait()
    if failures:
        sys.exit(f"{len(failures)} controle(s) mislukt: {', '.join(failures)}")
    print("alle controles geslaagd")


if __name__ == "__main__":
    main()
