// The organisation's identity provider of the end-to-end approval test (issue 38 item 6): npm
// oidc-provider 9.x with the device authorization grant (RFC 8628), rich authorization requests
// (RFC 9396, type nl.overheid.indiening, every member checked) and resource indicators (RFC 8707:
// a JWT access token for the backend's base URL or urn:overheid-cli:lokaal, audience = resource).
// The interactions are this file's own: a password login (a person has a password, nobody else
// does; a fresh one when the device login asks prompt=login or max_age=0, and only for the
// acr_values a password gives) and a consent page that shows the authorization details the
// person approves.
//
// Usage: node provider.mjs CONFIG.json   (prints "provider ready <issuer>" when listening)
//
// CONFIG (written by the test, readable by root only) holds the port, the accounts with a scrypt
// hash of their password, the resources a token may be for, the cookie keys, optionally the
// approval page's client (page_client: client_id, redirect_uri), and the path of a
// control file read per request: {"access_token_ttl": s, "device_code_ttl": s}, so the test can
// issue a short-lived token for one case without a restart ("fresh_login": false plays a provider
// that lets a session stand in for the fresh login asked). Loopback only.
import { readFileSync } from "node:fs";
import * as crypto from "node:crypto";
import * as http from "node:http";
import * as querystring from "node:querystring";
import Provider, { errors, interactionPolicy } from "oidc-provider";

const config = JSON.parse(readFileSync(process.argv[2], "utf8"));
const issuer = `http://127.0.0.1:${config.port}`;
const DETAIL_TYPE = "nl.overheid.indiening";
const LOCAL_AUDIENCE = "urn:overheid-cli:lokaal";
// What a password login proves; a request for more is refused at the login.
const PASSWORD_ACR = "substantieel";
// The device login's polling interval (RFC 8628 §3.2); oidc-provider names none by itself.
const INTERVAL = config.interval ?? 1;

const escape = (text) => String(text).replace(/[&<>"']/g,
  (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const control = () => JSON.parse(readFileSync(config.control, "utf8"));

function passwordMatches(account, password) {
  const hash = crypto.scryptSync(password, Buffer.from(account.salt, "hex"), 32,
    { N: 16384, r: 8, p: 1 });
  return crypto.timingSafeEqual(hash, Buffer.from(account.scrypt, "hex"));
}

// Every member of an nl.overheid.indiening detail, and nothing else.
const MEMBERS = {
  type: (v) => v === DETAIL_TYPE,
  voorstel_id: (v) => typeof v === "string" && /^vs_[a-z2-7]{32}$/.test(v),
  plan_digest: (v) => typeof v === "string" && /^[0-9a-f]{64}$/.test(v),
  kvk_nummer: (v) => typeof v === "string" && /^[0-9]{8}$/.test(v),
  regeling_id: (v) => typeof v === "string" && /^[A-Z0-9][A-Z0-9-]{0,63}$/.test(v),
  backend: (v) => typeof v === "string" && (v === "lokaal" || config.resources.includes(v)),
  peildatum: (v) => typeof v === "string" && /^\d{4}-\d{2}-\d{2}$/.test(v),
};

function audienceOf(detail) {
  return detail.backend === "lokaal" ? LOCAL_AUDIENCE : detail.backend;
}

function requested(ctx) {
  const raw = ctx.oidc.params.authorization_details;
  return raw === undefined ? [] : JSON.parse(raw);
}

const same = (a, b) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

// oidc-provider 9 drops prompt (a front-channel parameter) from a device authorization request,
// and turns max_age=0 into prompt=login, so neither reaches the login prompt of a device login:
// a person with a session in their browser would consent without logging in again. This
// provider keeps what the request asked (by device code) and asks for a login in that case.
const freshLoginAsked = new Set();
const policy = interactionPolicy.base();
policy.get("login").checks.add(new interactionPolicy.Check(
  "fresh_login_asked", "the client asked for a fresh login (prompt=login or max_age=0)",
  (ctx) => {
    const code = ctx.oidc.entities.DeviceCode;
    if (!code || !freshLoginAsked.has(code.jti) || ctx.oidc.result?.login || control().fresh_login === false) {
      return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    }
    return interactionPolicy.Check.REQUEST_PROMPT;
  },
));

const provider = new Provider(issuer, {
  interactions: { policy },
  clients: [{
    client_id: "overheid-cli",
    client_name: "overheid-cli (rvo-cli voorstel goedkeuren)",
    token_endpoint_auth_method: "none",
    // A device login, or with --browser a browser login on the same machine (RFC 8252: a native
    // client's loopback redirect, any port).
    application_type: "native",
    grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "authorization_code"],
    response_types: ["code"],
    redirect_uris: ["http://127.0.0.1/callback"],
    require_auth_time: true,
    authorization_details_types: [DETAIL_TYPE],
  },
  // The approval page of overheid-mcp --http (its browser test): the authorization code flow
  // with PKCE, a person's session login and, per decision, a fresh login with the details.
  ...(config.page_client ? [{
    client_id: config.page_client.client_id,
    client_name: "overheid-mcp (goedkeuringspagina)",
    token_endpoint_auth_method: "none",
    grant_types: ["authorization_code"],
    response_types: ["code"],
    redirect_uris: [config.page_client.redirect_uri],
    require_auth_time: true,
    authorization_details_types: [DETAIL_TYPE],
  }] : [])],
  jwks: { keys: [config.signing_key] },
  cookies: { keys: config.cookie_keys },
  acrValues: [PASSWORD_ACR, "hoog"],
  claims: { openid: ["sub"], profile: ["name", "kvk_nummer"], acr: null, auth_time: null },
  conformIdTokenClaims: false,
  findAccount: async (_ctx, id) => {
    const account = config.accounts[id];
    return account && {
      accountId: id,
      claims: async () => ({ sub: id, name: account.name, kvk_nummer: account.kvk_nummer }),
    };
  },
  // The access token says who approved, when they logged in and how (RFC 9068 §2.2.1).
  extraTokenClaims: async (ctx, token) => {
    if (token.kind !== "AccessToken") return undefined;
    const source = ctx?.oidc?.entities?.DeviceCode ?? ctx?.oidc?.entities?.AuthorizationCode;
    const account = config.accounts[token.accountId];
    return {
      ...(source?.authTime ? { auth_time: source.authTime } : {}),
      ...(source?.acr ? { acr: source.acr } : {}),
      ...(account ? { name: account.name } : {}),
    };
  },
  ttl: {
    AccessToken: () => control().access_token_ttl,
    DeviceCode: () => control().device_code_ttl,
    IdToken: 600,
    Interaction: 600,
    Session: 600,
    Grant: 600,
  },
  features: {
    devInteractions: { enabled: false },
    deviceFlow: {
      enabled: true,
      // The provider's own pages of the device login, in Dutch and without outside resources.
      userCodeInputSource: async (ctx, form, _out, err) => {
        const note = err ? "<p id=\"melding\">De code klopt niet of is verlopen.</p>" : "";
        ctx.body = html("Code invoeren", `${note}${form}
<button id="doorgaan" type="submit" form="op.deviceInputForm">Doorgaan</button>`);
      },
      userCodeConfirmSource: async (ctx, form, _client, _info, userCode) => {
        ctx.body = html("Apparaat bevestigen", `<p>Staat deze code op het apparaat waar u de goedkeuring startte?</p>
<p><code id="code">${escape(userCode)}</code></p>${form}
<button id="doorgaan" type="submit" form="op.deviceConfirmForm">Doorgaan</button>
<button id="afbreken" type="submit" form="op.deviceConfirmForm" name="abort" value="yes">Afbreken</button>`);
      },
      successSource: async (ctx) => {
        ctx.body = html("Klaar",
          "<p id=\"klaar\">U bent ingelogd en uw beslissing is doorgegeven. U kunt deze pagina sluiten.</p>");
      },
    },
    clientCredentials: { enabled: false },
    introspection: { enabled: false },
    revocation: { enabled: false },
    registration: { enabled: false },
    richAuthorizationRequests: {
      enabled: true,
      types: {
        [DETAIL_TYPE]: {
          validate(ctx, detail) {
            const names = Object.keys(detail);
            const wrong = names.filter((name) => !MEMBERS[name] || !MEMBERS[name](detail[name]));
            const missing = Object.keys(MEMBERS).filter((name) => !names.includes(name));
            if (wrong.length || missing.length) {
              throw new errors.InvalidAuthorizationDetails(
                `nl.overheid.indiening: ongeldig ${wrong.join(",")} ontbreekt ${missing.join(",")}`);
            }
            // The token's audience is the detail's backend: one resource, the same one.
            const resource = ctx.oidc.params.resource;
            if (resource !== audienceOf(detail)) {
              throw new errors.InvalidAuthorizationDetails("resource is niet de backend van het detail");
            }
          },
        },
      },
      // Exactly the details this request asked for and the person consented to: a grant of an
      // earlier login in the same browser never adds its details to this token.
      authorizationDetailsForGrantSource(ctx) {
        const granted = ctx.oidc.grant.rar ?? [];
        const asked = requested(ctx);
        if (!asked.every((detail) => granted.some((g) => same(g, detail)))) {
          throw new errors.AccessDenied("niet alle details zijn goedgekeurd");
        }
        return asked;
      },
      authorizationDetailsForAccessToken(_ctx, _token, source) {
        return source.rar;
      },
      authorizationDetailsForIntrospection(_ctx, token) {
        return token.rar;
      },
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: async (_ctx, _client, oneOf) => oneOf ?? undefined,
      useGrantedResource: async () => true,
      getResourceServerInfo: async (_ctx, resource) => {
        if (resource !== LOCAL_AUDIENCE && !config.resources.includes(resource)) {
          throw new errors.InvalidTarget();
        }
        return {
          scope: "indienen",
          audience: resource,
          accessTokenFormat: "jwt",
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
});
provider.proxy = false;

// RFC 8628's interval, and keys a verifier may keep (as a real provider's Cache-Control says).
provider.use(async (ctx, next) => {
  await next();
  if (ctx.oidc?.route === "device_authorization" && ctx.status === 200 && ctx.body) {
    ctx.body.interval = INTERVAL;
    const asked = ctx.oidc.body ?? {};
    if (String(asked.prompt ?? "").split(" ").includes("login") || String(asked.max_age) === "0") {
      freshLoginAsked.add(ctx.oidc.entities.DeviceCode.jti);
    }
  }
  if (ctx.oidc?.route === "jwks" || ctx.oidc?.route === "discovery") {
    ctx.set("cache-control", "public, max-age=300");
  }
  if (ctx.oidc?.route === "jwks") console.log(`jwks ${Date.now() / 1000}`);
});

function html(title, body) {
  return `<!DOCTYPE html><html lang="nl"><head><meta charset="utf-8"><title>${escape(title)}</title></head>`
    + `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`;
}

function page(res, status, title, body) {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(html(title, body));
}

function loginForm(uid, note) {
  return `${note ? `<p id="melding">${escape(note)}</p>` : ""}
<form method="post" action="/interaction/${uid}/login">
  <label>Gebruikersnaam <input name="login" autocomplete="username" autofocus></label>
  <label>Wachtwoord <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">Inloggen</button>
</form>`;
}

function consentPage(uid, details, account) {
  const rows = details.map((detail) => `<table class="detail">${Object.entries(detail)
    .map(([k, v]) => `<tr><th>${escape(k)}</th><td id="${escape(k)}">${escape(v)}</td></tr>`).join("")}</table>`);
  return `<p>Ingelogd als ${escape(account.name)}. overheid-cli vraagt uw goedkeuring voor:</p>
${rows.join("")}
<form method="post" action="/interaction/${uid}/confirm">
  <button id="goedkeuren" type="submit">Goedkeuren</button>
</form>
<form method="post" action="/interaction/${uid}/abort"><button id="afwijzen" type="submit">Afwijzen</button></form>`;
}

async function readForm(req) {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 16384) throw new Error("formulier te groot");
  }
  return querystring.parse(body);
}

// The interactions: /interaction/:uid (GET: the page of the prompt), …/login, …/confirm, …/abort.
async function interaction(req, res, path) {
  const [, , uid, action] = path.split("/");
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return page(res, 400, "Onbekende interactie", "");
  const { prompt, params, session } = details;
  if (req.method === "GET" && !action) {
    if (prompt.name === "login") return page(res, 200, "Inloggen", loginForm(uid));
    if (prompt.name === "consent") {
      const account = config.accounts[session.accountId];
      return page(res, 200, "Goedkeuren", consentPage(uid, prompt.details.rar ?? [], account));
    }
    return page(res, 501, "Niet ondersteund", "");
  }
  if (req.method !== "POST") return page(res, 405, "Niet toegestaan", "");
  if (action === "login" && prompt.name === "login") {
    const form = await readForm(req);
    const account = config.accounts[form.login];
    if (!account || typeof form.password !== "string" || !passwordMatches(account, form.password)) {
      return page(res, 401, "Inloggen", loginForm(uid, "Onbekende gebruiker of onjuist wachtwoord."));
    }
    const wanted = (params.acr_values ?? "").split(" ").filter(Boolean);
    if (wanted.length && !wanted.includes(PASSWORD_ACR)) {
      return provider.interactionFinished(req, res, {
        error: "access_denied",
        error_description: `een wachtwoord geeft niet de gevraagde zekerheid (${wanted.join(" ")})`,
      }, { mergeWithLastSubmission: false });
    }
    return provider.interactionFinished(req, res, {
      login: { accountId: form.login, acr: PASSWORD_ACR, amr: ["pwd"], remember: false },
    }, { mergeWithLastSubmission: false });
  }
  if (action === "confirm" && prompt.name === "consent") {
    await readForm(req);
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(" "));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    for (const [indicator, scope] of Object.entries(prompt.details.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scope.join(" "));
    }
    for (const detail of prompt.details.rar ?? []) grant.addRar(detail);
    const grantId = await grant.save();
    console.log(`consent ${Date.now() / 1000} ${session.accountId}`);
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  if (action === "abort") {
    await readForm(req);
    return provider.interactionFinished(req, res, {
      error: "access_denied", error_description: "de persoon heeft afgewezen",
    }, { mergeWithLastSubmission: false });
  }
  return page(res, 400, "Onverwacht", "");
}

const callback = provider.callback();
const server = http.createServer(async (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  if (path.startsWith("/interaction/")) {
    try {
      await interaction(req, res, path);
    } catch (error) {
      if (!res.headersSent) page(res, 400, "Fout", escape(error.message));
    }
    return;
  }
  callback(req, res);
});
server.listen(config.port, "127.0.0.1", () => console.log(`provider ready ${issuer}`));
