"""The approval page and applies, measured (issue 30; run by bench/proposals/page.sh).

Starts a fake OpenID provider (discovery, JWKS, authorize, token with the PKCE check; Ed25519 ID
tokens made here), then `overheid-mcp --http` as deployed: bearer-token auth, the four CLIs, the
approval page (--oidc-issuer, --oidc-client-id, --public-url), on the store of the environment
(SQLite in RVO_DATA_DIR, or OVERHEID_STORE_URL). Then:
1. the bridge's idle RSS with the page (after start, before any request);
2. PROPOSALS proposals recorded with rvo-cli (distinct inputs, one company);
3. a person logs in (authorization code + PKCE through the bridge's own redirects, cookies kept)
   and GETs proposal pages over one keep-alive connection: p50/p95 of the time to the whole
   answer as the client sees it on loopback (an upper bound of the server's time), and the
   bridge's CPU per GET;
4. the person approves every proposal on its page (GET, then POST with the page's CSRF token);
5. every approved proposal is applied once by `rvo-cli rapportage indienen --voorstel ID`, by
   WORKERS concurrent workers (each apply a new process, as every CLI call is): applies per second
   and p50/p95 per apply; every apply must file (ONTVANGEN, not replayed).

Usage: python page.py BIN_DIR WORK_DIR PROPOSALS GETS WORKERS
Prints a Markdown table. The environment names the store.
"""
import base64
import concurrent.futures
import hashlib
import html
import http.client
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

BIN, WORK = sys.argv[1], sys.argv[2]
PROPOSALS, GETS, WORKERS = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
KVK = "68750110"
CLIENT_ID = "overheid-mcp-pagina"
# The family's programs, as page.sh found them (dist/build.sh --list: cargo metadata).
CLIS = tuple(os.environ["FAMILY"].split())


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


def cpu_s(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def quantile(values, q):
    return statistics.quantiles(values, n=100)[q - 1]


# The fake OpenID provider: one person of company KVK.
key = Ed25519PrivateKey.generate()
public = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
JWK = {"kty": "OKP", "crv": "Ed25519", "kid": "idp", "alg": "EdDSA", "use": "sig", "x": b64(public)}
codes = {}


class Provider(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, value):
        self.send(200, json.dumps(value).encode(), [("Content-Type", "application/json")])

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        if url.path == "/.well-known/openid-configuration":
            self.json({"issuer": ISSUER, "authorization_endpoint": f"{ISSUER}/authorize",
                       "token_endpoint": f"{ISSUER}/token", "jwks_uri": f"{ISSUER}/jwks"})
        elif url.path == "/jwks":
            self.json({"keys": [JWK]})
        elif url.path == "/authorize":
            assert query["client_id"] == CLIENT_ID and query["code_challenge_method"] == "S256"
            code = secrets.token_urlsafe(16)
            codes[code] = (query["nonce"], query["code_challenge"])
            back = query["redirect_uri"] + "?" + urllib.parse.urlencode({"code": code, "state": query["state"]})
            self.send(302, headers=[("Location", back)])
        else:
            self.send(404)

    def do_POST(self):
        form = dict(urllib.parse.parse_qsl(self.rfile.read(int(self.headers["Content-Length"])).decode()))
        nonce, challenge = codes.pop(form.get("code"), (None, None))
        if challenge is None or b64(hashlib.sha256(form["code_verifier"].encode()).digest()) != challenge:
            return self.send(400, b'{"error":"invalid_grant"}')
        now = int(time.time())
        token = jwt.encode({"iss": ISSUER, "aud": CLIENT_ID, "sub": "anna", "name": "Anna de Vries",
                            "kvk_nummer": KVK, "nonce": nonce, "iat": now, "exp": now + 600},
                           key, algorithm="EdDSA", headers={"kid": "idp"})
        self.json({"id_token": token, "access_token": "x", "token_type": "Bearer"})


provider = ThreadingHTTPServer(("127.0.0.1", 0), Provider)
ISSUER = f"http://127.0.0.1:{provider.server_address[1]}"
threading.Thread(target=provider.serve_forever, daemon=True).start()

# The bridge as deployed: bearer tokens for /mcp, the page for people.
with open(f"{WORK}/jwks.json", "w") as f:
    json.dump({"keys": [JWK]}, f)
port = free_port()
base = f"http://127.0.0.1:{port}"
bridge = subprocess.Popen(
    [f"{BIN}/overheid-mcp", "--http", f"127.0.0.1:{port}", "--public-url", f"{base}/mcp",
     "--auth-jwks", f"{WORK}/jwks.json", "--auth-issuer", ISSUER, "--auth-audience", "bench",
     "--oidc-issuer", ISSUER, "--oidc-client-id", CLIENT_ID,
     *[arg for cli in CLIS for arg in ("--tool", f"{BIN}/{cli}")]],
    stderr=subprocess.PIPE, text=True)
for line in bridge.stderr:
    if "luistert op " in line:
        break
else:
    sys.exit("overheid-mcp --http did not start")
threading.Thread(target=lambda: [None for _ in bridge.stderr], daemon=True).start()
time.sleep(0.5)
idle = rss_kib(bridge.pid)
rows = []
try:
    # Proposals with distinct inputs (the explanation differs), recorded by rvo-cli.
    ids = []
    for i in range(PROPOSALS):
        out = subprocess.run([f"{BIN}/rvo-cli", "rapportage", "voorstel", KVK, "EBR-2027", "warmtepomp",
                              "--toelichting", f"bench {i} {secrets.token_hex(4)}", "--peildatum", "2026-12-01"],
                             capture_output=True, text=True, check=True).stdout
        ids.append(json.loads(out)["id"])

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    cookies = {}

    def request(method, path, body=None, extra=()):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), **dict(extra)}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = base
        connection.request(method, path, body, headers)
        reply = connection.getresponse()
        text = reply.read().decode()
        for name, value in reply.getheaders():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                cookie, _, content = pair.partition("=")
                if content:
                    cookies[cookie] = content
                else:
                    cookies.pop(cookie, None)
        return reply.status, reply.getheader("Location"), text

    # The login: the page sends the browser to the provider, the provider back with a code.
    status, to_provider, _ = request("GET", f"/voorstellen/{ids[0]}")
    assert status == 303 and to_provider.startswith(ISSUER), (status, to_provider)
    split = urllib.parse.urlsplit(to_provider)
    idp = http.client.HTTPConnection(split.hostname, split.port, timeout=30)
    idp.request("GET", f"{split.path}?{split.query}")
    answer = idp.getresponse()
    answer.read()
    back = urllib.parse.urlsplit(answer.getheader("Location"))
    status, _, _ = request("GET", f"{back.path}?{back.query}")
    assert status == 303 and "overheid_sessie" in cookies, status

    # Page GETs over one keep-alive connection.
    for id in ids[:20]:
        request("GET", f"/voorstellen/{id}")
    times = []
    cpu_before = cpu_s(bridge.pid)
    for n in range(GETS):
        started = time.perf_counter()
        status, _, page = request("GET", f"/voorstellen/{ids[n % len(ids)]}")
        times.append((time.perf_counter() - started) * 1000)
        assert status == 200 and "Goedkeuren" in page, status
    cpu_get = (cpu_s(bridge.pid) - cpu_before) * 1000 / GETS
    after_gets = rss_kib(bridge.pid)
    rows.append((f"approval page GET /voorstellen/ID, {GETS}× over keep-alive: p50 / p95",
                 f"{statistics.median(times):.2f} / {quantile(times, 95):.2f} ms (bridge CPU {cpu_get:.2f} ms/GET)",
                 "p50 <= 5 ms"))

    # The person approves every proposal on its page.
    posts = []
    for id in ids:
        status, _, page = request("GET", f"/voorstellen/{id}")
        hidden = {m.group(1): html.unescape(m.group(2))
                  for m in re.finditer(r'name="(csrf|digest)" value="([^"]*)"', page)}
        form = urllib.parse.urlencode({"beslissing": "goedkeuren", **hidden})
        started = time.perf_counter()
        status, _, page = request("POST", f"/voorstellen/{id}", form)
        posts.append((time.perf_counter() - started) * 1000)
        assert status == 200 and "goedgekeurd" in page, (status, page[:500])
    rows.append((f"approval POST (Goedkeuren), {len(posts)}×: p50 / p95",
                 f"{statistics.median(posts):.2f} / {quantile(posts, 95):.2f} ms", ""))
    rows.append(("bridge RSS: idle with the page / after the GETs and POSTs",
                 f"{idle / 1024:.1f} / {rss_kib(bridge.pid) / 1024:.1f} MiB (after the GETs {after_gets / 1024:.1f})",
                 "idle <= 16 MiB"))

    # Every approved proposal applied once, WORKERS at a time, each apply a new rvo-cli process.
    def apply(id):
        started = time.perf_counter()
        out = subprocess.run([f"{BIN}/rvo-cli", "rapportage", "indienen", "--voorstel", id,
                              "--fields", "status,replayed"], capture_output=True, text=True)
        took = (time.perf_counter() - started) * 1000
        return took, out.returncode, out.stdout, out.stderr

    began = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        done = list(pool.map(apply, ids))
    wall = time.perf_counter() - began
    failed = [d for d in done if d[1] != 0 or json.loads(d[2] or "{}") != {"status": "ONTVANGEN", "replayed": False}]
    assert not failed, failed[:3]
    applies = [d[0] for d in done]
    rows.append((f"applies of {len(ids)} distinct approved proposals, {WORKERS} concurrent rvo-cli processes",
                 f"{len(ids) / wall:.0f}/s; per apply p50 {statistics.median(applies):.1f} ms, "
                 f"p95 {quantile(applies, 95):.1f} ms", ">= 200/s on PostgreSQL"))
finally:
    bridge.terminate()
    bridge.wait()
    provider.shutdown()

print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
print("| figure | measured | target |")
print("|---|---:|---:|")
for row in rows:
    print("| " + " | ".join(row) + " |")
