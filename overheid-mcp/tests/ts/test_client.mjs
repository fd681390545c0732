// overheid-mcp with the official MCP TypeScript SDK 1.x client over Streamable HTTP.
//
// Starts `overheid-mcp --http` with rvo-cli and regelrecht-cli and a JWKS made here (Ed25519, Node's
// crypto), then as the SDK's Client with a bearer token: lists the tools (no kvk_nummer in a
// listed inputSchema), calls regelrecht__check_energiebesparing with and without fields (the SDK
// validates structuredContent against the listed outputSchema), and accepts an error result
// (rvo__regeling_toon of a scheme that does not exist: isError, no structuredContent).
//
// Usage: node test_client.mjs TARGET_DIR   (exit 0 when every check passes)
import { spawn } from "node:child_process";
import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const target = process.argv[2];
const failures = [];
function check(name, condition, detail = "") {
  console.log((condition ? "ok     " : "FAILED ") + name + (condition ? "" : `: ${JSON.stringify(detail)}`));
  if (!condition) failures.push(name);
}

const b64url = (buffer) => Buffer.from(buffer).toString("base64url");
const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const jwk = { ...publicKey.export({ format: "jwk" }), kid: "ts", alg: "EdDSA", use: "sig" };
const dir = mkdtempSync(join(tmpdir(), "overheid-mcp-ts-"));
writeFileSync(join(dir, "jwks.json"), JSON.stringify({ keys: [jwk] }));
const header = b64url(JSON.stringify({ alg: "EdDSA", typ: "JWT", kid: "ts" }));
const claims = b64url(JSON.stringify({
  iss: "https://login.test", aud: "overheid-mcp-ts", sub: "ts", kvk_nummer: "68750110",
  exp: Math.floor(Date.now() / 1000) + 600,
}));
const token = `${header}.${claims}.${b64url(sign(null, Buffer.from(`${header}.${claims}`), privateKey))}`;

const bridge = spawn(`${target}/overheid-mcp`, [
  "--http", "127.0.0.1:0", "--auth-jwks", join(dir, "jwks.json"),
  "--auth-issuer", "https://login.test", "--auth-audience", "overheid-mcp-ts",
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

try {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "overheid-ts-test", version: "1.0.0" });
  await client.connect(transport);
  check("initialize: serverInfo", client.getServerVersion()?.name === "overheid-mcp", client.getServerVersion());
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  check("tools/list: both CLIs", names.includes("regelrecht__check_energiebesparing") && names.includes("rvo__regeling_toon"), names);
  // The session's company is never an argument the model fills in (an example in the `fields`
  // description may still name the output member kvk_nummer).
  const offered = tools.filter((t) => "kvk_nummer" in (t.inputSchema.properties ?? {})
    || (t.inputSchema.required ?? []).includes("kvk_nummer")).map((t) => t.name);
  check("tools/list: no kvk_nummer argument in a listed inputSchema", offered.length === 0, offered);
  const args = { elektriciteit_kwh: 60000, gas_m3: 30000 };
  const whole = await client.callTool({ name: "regelrecht__check_energiebesparing", arguments: args });
  check("tools/call: data for the token's company",
    !whole.isError && whole.structuredContent?.kvk_nummer === "68750110", whole);
  const some = await client.callTool({ name: "regelrecht__check_energiebesparing", arguments: { ...args, fields: ["kvk_nummer"] } });
  check("tools/call with fields: valid against the outputSchema",
    !some.isError && JSON.stringify(some.structuredContent) === JSON.stringify({ kvk_nummer: "68750110" }), some);
  const error = await client.callTool({ name: "rvo__regeling_toon", arguments: { regeling_id: "BESTAAT-NIET" } });
  check("tools/call: an error result is accepted", error.isError === true && error.structuredContent === undefined
    && error._meta?.["nl.overheid/problem"]?.exit_code === 66, error);
  await client.close();
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
