"""The agent asks the identity provider for a token itself, without the person's password
(standard library only, as any script it could write):

1. a device login of its own for a proposal's authorization detail: it gets a code, opens the
   verification link, confirms the code and tries to log in as the person with guessed
   passwords (and with the service credential it knows); it polls the token endpoint until the
   code expires;
2. the grants a public client might be tried with: client_credentials, password (ROPC),
   refresh_token, an authorization-code request, and registering a client of its own.

Usage (as the agent): python3 agent_login.py ISSUER PROPOSAL.json LOGIN
Prints one JSON object: what each attempt got (status and OAuth error), and whether any answer
held an access token.
"""
import html
import http.cookiejar
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def call(opener, url, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    try:
        with opener.open(url, data, timeout=10) as answer:
            return answer.status, answer.geturl(), answer.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, url, error.read().decode(errors="replace")


def oauth_error(text):
    try:
        body = json.loads(text)
    except ValueError:
        return None
    return body.get("error") or ("access_token" if "access_token" in body else None)


def first_form(page, url):
    match = re.search(r"<form([^>]*)>(.*?)</form>", page, re.S)
    if not match:
        return None, {}
    action = re.search(r'action="([^"]*)"', match.group(1))
    fields = {name: html.unescape(value) for name, value in
              re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', match.group(2))}
    return urllib.parse.urljoin(url, action.group(1) if action else url), fields


def main():
    issuer, proposal_file, login = sys.argv[1:4]
    with open(proposal_file, encoding="utf-8") as f:
        detail = json.load(f)["authorization_details"][0]
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    metadata = json.loads(call(opener, f"{issuer}/.well-known/openid-configuration")[2])
    token_endpoint = metadata["token_endpoint"]
    outcome = {"tokens": 0}
    texts = []

    backend = detail["backend"]
    status, _, text = call(opener, metadata["device_authorization_endpoint"], {
        "client_id": "overheid-cli", "scope": "openid profile",
        "authorization_details": json.dumps([detail]),
        "resource": "urn:overheid-cli:lokaal" if backend == "lokaal" else backend})
    device = json.loads(text)
    outcome["device_authorization"] = status
    poll = {"grant_type": "urn:ietf:params:oauth:grant-type:device_code",
            "device_code": device["device_code"], "client_id": "overheid-cli"}
    status, _, text = call(opener, token_endpoint, poll)
    texts.append(text)
    outcome["first_poll"] = oauth_error(text)

    # At the verification page: the code confirmed, then the login form, with guessed passwords.
    status, url, page = call(opener, device["verification_uri_complete"])
    logins = []
    for _ in range(4):
        action, fields = first_form(page, url)
        if action is None:
            break
        if 'name="password"' in page:
            for password in ("", login, "geheim", "wachtwoord", "Welkom01!", os.environ.get("RVO_API_TOKEN", "")):
                status, _, answer = call(opener, action, {**fields, "login": login, "password": password})
                logins.append(status)
                if "goedkeuren" in answer:
                    outcome["consent_page_reached"] = True
            break
        if 'id="doorgaan"' in page:
            fields.setdefault("confirm", "yes")
        status, url, page = call(opener, action, fields)
    outcome["login_attempts"] = logins

    # Polling until the code has expired.
    seen = set()
    deadline = time.time() + device["expires_in"] + 10
    while time.time() < deadline:
        status, _, text = call(opener, token_endpoint, poll)
        texts.append(text)
        error = oauth_error(text)
        seen.add(error)
        if error != "authorization_pending":
            break
        time.sleep(device.get("interval", 5))
    outcome["polls"] = sorted(e or "-" for e in seen)

    for grant, form in (
        ("client_credentials", {"grant_type": "client_credentials", "client_id": "overheid-cli",
                                "resource": backend}),
        ("password", {"grant_type": "password", "client_id": "overheid-cli", "username": login,
                      "password": "geheim", "scope": "openid"}),
        ("refresh_token", {"grant_type": "refresh_token", "client_id": "overheid-cli",
                           "refresh_token": "x" * 43}),
        ("authorization_code", {"grant_type": "authorization_code", "client_id": "overheid-cli",
                                "code": "x" * 43, "redirect_uri": "http://127.0.0.1/terug"}),
    ):
        status, _, text = call(opener, token_endpoint, form)
        texts.append(text)
        outcome[grant] = [status, oauth_error(text)]
    query = urllib.parse.urlencode({"client_id": "overheid-cli", "response_type": "code", "scope": "openid",
                                    "redirect_uri": "http://127.0.0.1/terug"})
    status, _, text = call(opener, f"{metadata['authorization_endpoint']}?{query}")
    texts.append(text)
    outcome["authorization_request"] = status
    status, _, text = call(opener, f"{issuer}/reg", {"redirect_uris": "http://127.0.0.1/terug"})
    texts.append(text)
    outcome["registration"] = status
    outcome["tokens"] = sum("access_token" in t or "id_token" in t for t in texts)
    print(json.dumps(outcome))


if __name__ == "__main__":
    main()
