// Filing through overheid-mcp with the official MCP TypeScript SDK clients of every era: SDK 1.x
// (@modelcontextprotocol/sdk, MCP 2025-11-25) and SDK 2.x (@modelcontextprotocol/client, as a
// 2025-11-25 client and pinned to 2026-07-28), over stdio and over Streamable HTTP, each once
// declaring URL elicitation and once without it.
//
// In every conversation (a bridge and a store of its own) the client, as a model alone:
// - finds `confirm` offered by no tool, and rvo__rapportage_indienen taking only `voorstel_id`;
// - proposes a filing (rvo__rapportage_voorstel);
// - is offered the approval page's link as URL elicitation when it declared it, in its era's form
//   (2026-07-28: an InputRequiredResult's url-mode request, fulfilled by the SDK through the same
//   handler; 2025-11-25 over stdio: `elicitation/create` with mode "url"; 2025-11-25 over HTTP:
//   applying the waiting proposal fails with -32042, the elicitation in its data), and otherwise
//   gets the proposal id, its status, the link and the instruction as a complete result;
// - applies with every id and digest it was given, sends them back as `confirm`: nothing is filed
//   (rvo__rapportage_lijst stays at 0).
// Then a person approves at a terminal (`rvo-cli voorstel goedkeuren`, typed digest, under
// `script`): the same client applies by id and exactly one report is filed; again, and the first
// result comes back (replayed). That last step shows the refusals above are not a broken apply.
//
// Usage: node test_proposals.mjs TARGET_DIR   (exit 0 when every check passes)
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { Client as Client1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as Stdio1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as Http1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as Stdio2 } from "@modelcontextprotocol/client/stdio";

const target = process.argv[2];
const KVK = "68750110";
const ISSUER = "https://login.test";
const AUDIENCE = "overheid-mcp-ts";
// The approval page a waiting proposal's link points at (--goedkeuring-url; never opened here).
const PAGE = "https://goedkeuring.example.test/voorstellen";
const APPLY = "rvo__rapportage_indienen";
const PROPOSE = "rvo__rapportage_voorstel";
const URL_ELICITATION_REQUIRED = -32042;

const failures = [];
function check(name, condition, detail = "") {
  console.log((condition ? "ok     " : "FAILED ") + name + (condition ? "" : `: ${JSON.stringify(detail)?.slice(0, 600)}`));
  if (!condition) failures.push(name);
}

// A bearer token for the HTTP bridge: Ed25519, signed here, the company in a claim.
const b64url = (buffer) => Buffer.from(buffer).toString("base64url");
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const keys = mkdtempSync(join(tmpdir(), "overheid-mcp-ts-keys-"));
writeFileSync(join(keys, "jwks.json"), JSON.stringify({
  keys: [{ ...publicKey.export({ format: "jwk" }), kid: "ts", alg: "EdDSA", use: "sig" }],
}));
const header = b64url(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: "ts" }));
const claims = b64url(JSON.stringify({
  iss: ISSUER, aud: AUDIENCE, sub: "ts", kvk_nummer: KVK, exp: Math.floor(Date.now() / 1000) + 3600,
  // Applying a proposal needs the filing scope (a token without a scope claim only reads).
  scope: "overheid:lezen overheid:indienen",
}));
const token = `${header}.${claims}.${b64url(sign(null, Buffer.from(`${header}.${claims}`), privateKey))}`;

const TOOLS = ["--tool", `${target}/rvo-cli`, "--tool", `${target}/regelrecht-cli`];

function environment(dir) {
  return {
    PATH: process.env.PATH, HOME: dir, RVO_DATA_DIR: join(dir, "rvo"),
    OVERHEID_AUDIT_LOG: join(dir, "audit.jsonl"), OVERHEID_MCP_STATE_KEY: b64url(Buffer.alloc(32, 7)),
  };
}

// `overheid-mcp --http` on a loopback port; resolves to its URL.
async function startHttp(env) {
  const bridge = spawn(`${target}/overheid-mcp`, [
    "--http", "127.0.0.1:0", "--auth-jwks", join(keys, "jwks.json"), "--auth-issuer", ISSUER,
    "--auth-audience", AUDIENCE, "--goedkeuring-url", PAGE, ...TOOLS,
  ], { env, stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: bridge.stderr }).on("line", (line) => {
      const found = line.match(/luistert op (\S+)/);
      if (found) resolve(found[1]);
    });
    bridge.on("exit", (code) => reject(new Error(`overheid-mcp --http stopped (${code})`)));
  });
  return { bridge, url };
}

// The client of one SDK, era and transport; `asked` collects the elicitation requests it gets.
function makeClient(sdk, era, declares, asked) {
  const capabilities = declares ? { elicitation: { form: {}, url: {} } } : {};
  const info = { name: `overheid-ts-${sdk}`, version: "1.0.0" };
  const answer = async (request) => {
    asked.push(request.params);
    // A url-mode answer only says the person went to the page; it approves nothing.
    return { action: "accept" };
  };
  if (sdk === "1.x") {
    const client = new Client1(info, { capabilities });
    if (declares) client.setRequestHandler(ElicitRequestSchema, answer);
    return client;
  }
  const mode = era === "2026-07-28" ? { pin: "2026-07-28" } : "legacy";
  const client = new Client2(info, { capabilities, versionNegotiation: { mode } });
  if (declares) client.setRequestHandler("elicitation/create", answer);
  return client;
}

function makeTransport(sdk, transport, env, url) {
  if (transport === "stdio") {
    const Stdio = sdk === "1.x" ? Stdio1 : Stdio2;
    return new Stdio({
      command: `${target}/overheid-mcp`, args: ["--goedkeuring-url", PAGE, ...TOOLS],
      env: { ...env, KVK_SESSIE_NUMMER: KVK }, stderr: "ignore",
    });
  }
  const Http = sdk === "1.x" ? Http1 : Http2;
  return new Http(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
}

// A call as a model makes it: the result, or the JSON-RPC error it failed with.
async function attempt(client, name, args) {
  try {
    return { result: await client.callTool({ name, arguments: args }) };
  } catch (error) {
    return { error: { code: error?.code, message: String(error?.message ?? error), data: error?.data } };
  }
}

const filed = (outcome) => outcome.result?.structuredContent?.referentienummer !== undefined
  || outcome.result?.structuredContent?.replayed !== undefined;

// Approval by a person at a terminal: the plan shown, the digest's first 8 characters typed.
function approveAtTerminal(env, id, digest) {
  const run = spawnSync("script", ["-qec", `${target}/rvo-cli voorstel goedkeuren ${id} --timeout 30`, "/dev/null"], {
    input: `${digest.slice(0, 8)}\n`, env: { ...env, KVK_SESSIE_NUMMER: KVK, SHELL: "/bin/sh", TERM: "xterm" },
    encoding: "utf8", timeout: 60_000,
  });
  return run.status === 0;
}

async function conversation(sdk, transport, era, declares) {
  const label = `ts ${sdk} ${transport} ${era} ${declares ? "url elicitation" : "no elicitation"}`;
  const dir = mkdtempSync(join(tmpdir(), "overheid-mcp-ts-"));
  const env = environment(dir);
  const http = transport === "http" ? await startHttp(env) : null;
  const asked = [];
  const client = makeClient(sdk, era, declares, asked);
  try {
    await client.connect(makeTransport(sdk, transport, env, http?.url));
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    check(`${label}: confirm is offered by no tool`,
      tools.every((t) => !("confirm" in (t.inputSchema.properties ?? {}))), tools.map((t) => t.name));
    // Only the proposal's id (and the profile's `fields`, which selects output).
    const own = Object.keys(byName[APPLY]?.inputSchema.properties ?? {}).filter((k) => k !== "fields");
    check(`${label}: ${APPLY} takes only voorstel_id`, JSON.stringify(own) === '["voorstel_id"]'
      && JSON.stringify(byName[APPLY].inputSchema.required) === '["voorstel_id"]', byName[APPLY]?.inputSchema);

    const args = { regeling_id: "EBR-2027", maatregelen: "warmtepomp, led-verlichting",
      toelichting: `test ${label}`, peildatum: "2027-06-01" };
    const proposed = await attempt(client, PROPOSE, args);
    const data = proposed.result?.structuredContent ?? {};
    const id = data.voorstel_id;
    const link = `${PAGE}/${id}`;
    check(`${label}: propose: a complete result with id, status, link and instruction`,
      !proposed.result?.isError && /^vs_/.test(id ?? "") && data.status === "open"
      && data.goedkeuring_url === link && data.instructie?.includes(link)
      && proposed.result.content?.[0]?.text?.includes(link), proposed);
    // Where the era lets the server ask during the call, a client that declared URL elicitation is
    // asked at once; a 2025-11-25 client over HTTP is told when it applies (-32042, below).
    const asksDuringCall = declares && (era === "2026-07-28" || transport === "stdio");
    // (SDK 2.x hands a 2026-07-28 input request to the handler without the elicitationId.)
    const offered = (list) => list.length > 0 && list.every((p) => p.mode === "url" && p.url === link
      && (era === "2026-07-28" || p.elicitationId === `voorstel-${id}`) && p.message?.includes(id));
    if (asksDuringCall) {
      check(`${label}: propose: the link is offered as url elicitation`, offered(asked), asked);
    } else {
      check(`${label}: propose: no elicitation (none declared, or not possible in this era)`, asked.length === 0, asked);
    }

    // Applying the waiting proposal, as a model alone.
    asked.length = 0;
    const early = await attempt(client, APPLY, { voorstel_id: id });
    check(`${label}: applying before approval files nothing`, !filed(early), early);
    if (era === "2025-11-25" && transport === "http") {
      // The SDKs keep only `elicitations` of the error's data; the message is the instruction.
      const elicitations = early.error?.data?.elicitations ?? [];
      check(`${label}: apply: -32042 with the url-mode elicitation in its data and the instruction`,
        early.error?.code === URL_ELICITATION_REQUIRED && offered(elicitations)
        && early.error.message.includes(link) && early.error.message.includes(APPLY), early);
    } else {
      const waiting = early.result?.structuredContent ?? {};
      check(`${label}: apply: the id, status, link and instruction`, !early.result?.isError
        && waiting.voorstel_id === id && waiting.status === "open" && waiting.goedkeuring_url === link
        && waiting.instructie?.includes(APPLY), early);
      if (asksDuringCall) {
        check(`${label}: apply: the link is offered as url elicitation`, offered(asked), asked);
      } else {
        check(`${label}: apply: no elicitation`, asked.length === 0, asked);
      }
    }

    // Every id and digest it was given, as voorstel_id and as confirm.
    const given = new Set([id, data.plan_digest, data.plan?.plan_digest, `voorstel-${id}`].filter(Boolean));
    for (const value of given) {
      if (value !== id) {
        const applied = await attempt(client, APPLY, { voorstel_id: value });
        check(`${label}: voorstel_id=${value.slice(0, 12)} files nothing`, !filed(applied), applied);
      }
      for (const [name, sent] of [[APPLY, { voorstel_id: id, confirm: value }], [PROPOSE, { ...args, confirm: value }]]) {
        const refused = await attempt(client, name, sent);
        check(`${label}: ${name} with confirm=${value.slice(0, 12)} is refused`,
          !filed(refused) && (refused.result?.isError === true || refused.error !== undefined), refused);
      }
    }
    const listed = await attempt(client, "rvo__rapportage_lijst", {});
    check(`${label}: nothing was filed`, listed.result?.structuredContent?.aantal === 0, listed);

    // A person approves at a terminal; then this client applies by id, once.
    check(`${label}: a person approves at a terminal`, approveAtTerminal(env, id, data.plan_digest));
    asked.length = 0;
    const applied = await attempt(client, APPLY, { voorstel_id: id });
    const report = applied.result?.structuredContent ?? {};
    check(`${label}: after approval the apply files`, !applied.result?.isError
      && report.status === "ONTVANGEN" && report.replayed === false && asked.length === 0, applied);
    const again = await attempt(client, APPLY, { voorstel_id: id });
    check(`${label}: again: the first result (replayed)`, again.result?.structuredContent?.replayed === true
      && again.result.structuredContent.referentienummer === report.referentienummer, again);
    const after = await attempt(client, "rvo__rapportage_lijst", {});
    check(`${label}: exactly one report was filed`, after.result?.structuredContent?.aantal === 1, after);
  } catch (e) {
    check(`${label}: the conversation ran`, false, String(e?.stack ?? e));
  } finally {
    await client.close().catch(() => {});
    http?.bridge.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

const CASES = [
  ["1.x", "stdio", "2025-11-25"], ["1.x", "http", "2025-11-25"],
  ["2.x", "stdio", "2025-11-25"], ["2.x", "http", "2025-11-25"],
  ["2.x", "stdio", "2026-07-28"], ["2.x", "http", "2026-07-28"],
];
for (const [sdk, transport, era] of CASES) {
  for (const declares of [true, false]) await conversation(sdk, transport, era, declares);
}
rmSync(keys, { recursive: true, force: true });
if (failures.length) {
  console.error(`${failures.length} check(s) failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log("all checks passed");
