// overheid-mcp with the official MCP TypeScript SDK 1.x client over Streamable HTTP.
//
// Starts `overheid-mcp --http` with rvo-cli and regelrecht-cli and a JWKS made here (Ed25519, Node's
// crypto), then as the SDK's Client with a bearer token: lists the tools (no kvk_nummer in a
// listed inputSchema), calls regelrecht__check_energiebesparing with and without fields (the SDK
// validates structuredContent against the listed outputSchema) and once more asking for the data
// once (_meta nl.overheid/text: short, nl.overheid/provenance: none), and accepts an error result
// (rvo__regeling_toon of a scheme that does not exist: isError, no structuredContent). Then prompts
// listed and fetched, the bridge's views listed and read, completions; and over stdio, with the
// fixture CLI, a slow call whose progress reaches the SDK's onprogress and whose CLI warning reaches
// its logging handler after logging/setLevel. Scopes (a reading token cannot file: 403
// insufficient_scope, from the SDK's transport and on the wire) and an intermediary's company list
// (--auth-companies-claim, _meta["nl.overheid/sessie"]), as the Python SDK script checks them.
//
// Usage: node test_client.mjs TARGET_DIR DEMO_CLI   (exit 0 when every check passes)
import { spawn } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";

// The features (tools, prompts, views, completions; progress and logging) with both SDKs: 1.x,
// and 2.x (the first block in 2026-07-28, the slow call in its legacy 2025-11-25 mode, where
// logging/setLevel is).
const SDKS = [
  ["1.x", () => new Client({ name: "overheid-ts-test", version: "1.0.0" }), StreamableHTTPClientTransport, StdioClientTransport,
    (client, handler) => client.setNotificationHandler(LoggingMessageNotificationSchema, handler)],
  ["2.x", (mode) => new Client2({ name: "overheid-ts-test", version: "2.0.0" }, { capabilities: {}, versionNegotiation: { mode } }),
    Http2, Stdio2, (client, handler) => client.setNotificationHandler("notifications/message", handler)],
];

const target = process.argv[2];
// The fixture CLI (overheid-mcp/tests/fixtures/demo-cli; run.sh passes it).
const demoCli = process.argv[3];
const failures = [];
function check(name, condition, detail = "") {
  console.log((condition ? "ok     " : "FAILED ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
  if (!condition) failures.push(name);
}
const checkAs = check;

const b64url = (buffer) => Buffer.from(buffer).toString("base64url");
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const jwk = { ...publicKey.export({ format: "jwk" }), kid: "ts", alg: "EdDSA", use: "sig" };
const dir = mkdtempSync(join(tmpdir(), "overheid-mcp-ts-"));
writeFileSync(join(dir, "jwks.json"), JSON.stringify({ keys: [jwk] }));
const header = b64url(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: "ts" }));
// A token with the usual claims, changed by `extra` (a member set to undefined is left out).
function signed(extra = {}) {
  const claims = b64url(JSON.stringify({
    iss: "https://login.test", aud: "overheid-mcp-ts", sub: "ts", kvk_nummer: "68750110",
    exp: Math.floor(Date.now() / 1000) + 600, ...extra,
  }));
  return `${header}.${claims}.${b64url(sign(null, Buffer.from(`${header}.${claims}`), privateKey))}`;
}
const token = signed();

const bridge = spawn(`${target}/overheid-mcp`, [
  "--http", "127.0.0.1:0", "--auth-jwks", join(dir, "jwks.json"),
  "--auth-issuer", "https://login.test", "--auth-audience", "overheid-mcp-ts",
  "--auth-companies-claim", "kvk_nummers",
  "--tool", `${target}/rvo-cli`, "--tool", `${target}/regelrecht-cli`,
], { env: { PATH: process.env.PATH, HOME: dir, RVO_DATA_DIR: join(dir, "rvo") }, stdio: ["ignore", "ignore", "pipe"] });
const url = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: bridge.stderr });
  lines.on("line", (line) => {
    const found = line.match(/luistert op (\S+)/);
    if (found) resolve(found[1]);
  });
  bridge.on("exit", (code) => reject(new Error(`overheid-mcp stopped (${code})`)));
});

const args = { elektriciteit_kwh: 60000, gas_m3: 30000 };
try {
  for (const [sdk, makeClient, Http] of SDKS) {
  const check = (name, condition, detail) => checkAs(`${sdk} ${name}`, condition, detail);
  const transport = new Http(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = makeClient({ pin: "2026-07-28" });
  await client.connect(transport);
  if (sdk === "1.x") {
    check("initialize: serverInfo", client.getServerVersion()?.name === "overheid-mcp", client.getServerVersion());
  }
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check("tools/list: both CLIs", names.includes("regelrecht__check_energiebesparing") && names.includes("rvo__regeling_toon"), names);
  // The session's company is never an argument the model fills in (an example in the `fields`
  // description may still name the output member kvk_nummer).
  const offered = tools.filter((t) => "kvk_nummer" in (t.inputSchema.properties ?? {})
    || (t.inputSchema.required ?? []).includes("kvk_nummer")).map((t) => t.name);
  check("tools/list: no kvk_nummer argument in a listed inputSchema", offered.length === 0, offered);
  const whole = await client.callTool({ name: "regelrecht__check_energiebesparing", arguments: args });
  check("tools/call: data for the token's company",
    !whole.isError && whole.structuredContent?.kvk_nummer === "68750110", whole);
  const some = await client.callTool({ name: "regelrecht__check_energiebesparing", arguments: { ...args, fields: ["kvk_nummer"] } });
  check("tools/call with fields: valid against the outputSchema",
    !some.isError && JSON.stringify(some.structuredContent) === JSON.stringify({ kvk_nummer: "68750110" }), some);
  // The data once (issue 40 item 4): still valid against the outputSchema; the text block one
  // sentence; no provenance.
  const once = await client.callTool({ name: "regelrecht__check_energiebesparing", arguments: { ...args, fields: ["kvk_nummer"] },
    _meta: { "nl.overheid/text": "short", "nl.overheid/provenance": "none" } });
  check("tools/call: the data once when asked",
    !once.isError && JSON.stringify(once.structuredContent) === JSON.stringify(some.structuredContent)
    && once.content?.[0]?.text?.includes("structuredContent") && once.content[0].text.length < 100
    && once._meta?.["nl.overheid/provenance"] === undefined, once);
  const error = await client.callTool({ name: "rvo__regeling_toon", arguments: { regeling_id: "BESTAAT-NIET" } });
  check("tools/call: an error result is accepted", error.isError === true && error.structuredContent === undefined
    && error._meta?.["nl.overheid/problem"]?.exit_code === 66, error);

  const { prompts } = await client.listPrompts();
  const promptNames = prompts.map((p) => p.name);
  check("prompts/list: the prompts of the loaded tools",
    promptNames.includes("informatieplicht_energiebesparing") && promptNames.includes("status_voorstellen_en_rapportages")
    && !promptNames.includes("artikel_uitleggen"), promptNames);
  const prompt = await client.getPrompt({ name: "informatieplicht_energiebesparing", arguments: { regeling_id: "EBR-2027" } });
  const text = prompt.messages[0]?.content?.text ?? "";
  check("prompts/get: the text names the tools", text.includes("EBR-2027") && text.includes("rvo__rapportage_voorstel"), text);
  const { resources } = await client.listResources();
  const uris = resources.map((r) => r.uri);
  check("resources/list: the views", ["rvo://regelingen", "rvo://mijn/voorstellen", "regelrecht://wetten"]
    .every((u) => uris.includes(u)), uris);
  const own = await client.readResource({ uri: "rvo://mijn/rapportages" });
  check("resources/read: the token's company, never named", JSON.parse(own.contents[0].text).kvk_nummer === "68750110", own);
  const { resourceTemplates } = await client.listResourceTemplates();
  check("resources/templates/list: the view templates",
    resourceTemplates.some((t) => t.uriTemplate === "rvo://regelingen/{regeling_id}"), resourceTemplates);
  const ids = await client.complete({ ref: { type: "ref/resource", uri: "rvo://regelingen/{regeling_id}" },
    argument: { name: "regeling_id", value: "EBR" } });
  check("completion/complete: regeling_id", ids.completion.values.includes("EBR-2027")
    && ids.completion.values.every((v) => v.startsWith("EBR")), ids.completion);
  const laws = await client.complete({ ref: { type: "ref/prompt", name: "informatieplicht_energiebesparing" },
    argument: { name: "maatregelen", value: "GC1,GF" } });
  check("completion/complete: EML codes", JSON.stringify(laws.completion.values) === JSON.stringify(["GC1,GF4"]), laws.completion);
  await client.close();
  }

  // Scopes: reading and filing are two; a token without the one a call needs gets the step-up 403
  // (RFC 6750 insufficient_scope naming the scope), from the SDK's transport and on the wire.
  const metadata = await (await fetch(new URL("/.well-known/oauth-protected-resource", url))).json();
  check("scopes: scopes_supported names reading and filing",
    JSON.stringify(metadata.scopes_supported) === JSON.stringify(["overheid:lezen", "overheid:indienen"]), metadata);
  const apply = { name: "rvo__rapportage_indienen", arguments: { voorstel_id: "vs_" + "a".repeat(32) } };
  const post = (bearer, name, args) => fetch(url, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${bearer}`, "Content-Type": "application/json",
      Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": "tools/call", "Mcp-Name": name,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args,
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  for (const [label, bearer] of [["a reading token", signed({ scope: "overheid:lezen" })], ["a token without a scope claim", token]]) {
    const refused = await post(bearer, apply.name, apply.arguments);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    check(`scopes: ${label} may not file: 403 insufficient_scope with the filing scope`,
      refused.status === 403 && challenge.includes('error="insufficient_scope"')
      && challenge.includes('scope="overheid:indienen"') && challenge.includes("resource_metadata="),
      [refused.status, challenge]);
    const reader = new Client({ name: "overheid-ts-test", version: "1.0.0" });
    await reader.connect(new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${bearer}` } },
    }));
    const read = await reader.callTool({ name: "rvo__regeling_toon", arguments: { regeling_id: "EBR-2027" } });
    check(`scopes: ${label} may read through the SDK`, read.isError === false, read);
    const filed = await reader.callTool(apply).then((r) => ["answered", r], (e) => ["refused", e?.code, String(e)]);
    check(`scopes: ${label} may not file through the SDK (its transport refuses: 403 insufficient_scope)`,
      filed[0] === "refused" && filed[1] === 403 && filed[2].includes("insufficient_scope"), filed);
    await reader.close();
  }
  const filingOnly = await post(signed({ scope: "overheid:indienen" }), "rvo__regeling_toon", { regeling_id: "EBR-2027" });
  check("scopes: a filing-only token may not read",
    filingOnly.status === 403 && (filingOnly.headers.get("www-authenticate") ?? "").includes('scope="overheid:lezen"'),
    filingOnly.status);

  // An intermediary: its token lists companies (--auth-companies-claim), a call names one in
  // _meta["nl.overheid/sessie"], set by the client, and gets that company's answer; a company not
  // listed is one refusal for every number, naming none; naming none gets the hint to name one.
  const accountant = new Client({ name: "overheid-ts-test", version: "1.0.0" });
  await accountant.connect(new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${signed({ kvk_nummer: undefined, kvk_nummers: ["68750110", "11111111"], sub: "accountant" })}` } },
  }));
  await accountant.listTools();
  const checkFor = (company) => accountant.callTool({
    name: "regelrecht__check_energiebesparing", arguments: args,
    ...(company ? { _meta: { "nl.overheid/sessie": { kvk_nummer: company } } } : {}),
  });
  for (const company of ["68750110", "11111111"]) {
    const result = await checkFor(company);
    check(`intermediary: names ${company} in _meta and gets its check`,
      result.isError === false && result.structuredContent?.kvk_nummer === company, result);
  }
  const refusedFor = await Promise.all(["22222222", "99999999"].map(checkFor));
  const problems = refusedFor.map((r) => {
    const { instance, ...problem } = r._meta?.["nl.overheid/problem"] ?? {};
    return problem;
  });
  check("intermediary: a company not in the list: one refusal for every number, naming none",
    problems[0].code === "NIET_TOEGESTAAN" && JSON.stringify(problems[0]) === JSON.stringify(problems[1])
    && !JSON.stringify(refusedFor[0]).includes("22222222"), problems);
  const unnamed = await checkFor(null);
  const hint = unnamed._meta?.["nl.overheid/problem"]?.hint ?? "";
  check("intermediary: naming no company is told to name one, not to set a variable",
    unnamed.isError === true && hint.includes("nl.overheid/sessie") && !hint.includes("KVK_SESSIE_NUMMER"), unnamed);
  await accountant.close();

  // A slow call over stdio: progress through onprogress, the CLI's warning through logging.
  for (const [sdk, makeClient, , Stdio, onLog] of SDKS) {
  const check = (name, condition, detail) => checkAs(`${sdk} ${name}`, condition, detail);
  const demo = new Stdio({
    command: `${target}/overheid-mcp`,
    args: ["--tool", demoCli],
    env: { PATH: process.env.PATH, HOME: dir, DEMO_STORE: join(dir, "demo.json") },
  });
  const slow = makeClient("legacy");
  const logged = [];
  onLog(slow, (n) => { logged.push(n.params); });
  await slow.connect(demo);
  await slow.setLoggingLevel("warning");
  const started = Date.now();
  const progress = [];
  // 1.x takes (params, resultSchema, options), 2.x (params, options).
  const onprogress = { onprogress: (p) => progress.push([Date.now() - started, p.progress]) };
  const sleep = { name: "demo__slaap", arguments: { seconden: 2.2 } };
  const slept = sdk === "1.x" ? await slow.callTool(sleep, undefined, onprogress) : await slow.callTool(sleep, onprogress);
  const answered = Date.now() - started;
  check("progress: the slow call answers", !slept.isError, slept);
  // As in the Python test: the first by the bridge's own clock (seconds since it started the CLI),
  // the later ones by their gaps on arrival, all while the call runs (not in a burst at its end),
  // so that load on the machine does not decide it and a bridge that sends too rarely still fails.
  const gaps = progress.slice(1).map(([t], i) => t - progress[i][0]);
  check(`progress: onprogress at least every second (${progress.length} seen)`,
    progress.length >= 3 && progress[0][1] < 1 && Math.max(...gaps) < 1000
      && progress.every(([, v], i) => !i || v > progress[i - 1][1])
      && answered - progress[0][0] >= 1000 && progress.at(-1)[0] - progress[0][0] >= 1000,
    { progress, answered });
  check("logging: the CLI's warning after logging/setLevel",
    logged.length === 1 && logged[0].level === "warning" && logged[0].logger === "demo__slaap", logged);
  await slow.close();
  }
} catch (e) {
  check("the conversation ran", false, String(e?.stack ?? e));
} finally {
  bridge.kill("SIGTERM");
}
if (failures.length) {
  console.error(`${failures.length} check(s) failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("all checks passed");
