"""The approval page in a real browser: headless Chromium over WebDriver (Selenium), the
organisation's identity provider of the agent test (npm oidc-provider, ../agent/provider.mjs:
rich authorization requests, JWT access tokens), and overheid-mcp with rvo-cli.

1. An MCP client (overheid-mcp over stdio, --goedkeuring-url pointing at the page) records a
   proposal with rvo__rapportage_voorstel and gets the approval link.
2. The browser opens that link, is sent to the provider, logs in as a person of the company,
   consents, comes back and sees the plan (company, scheme, digest).
3. Goedkeuren sends the browser to the provider again: a fresh login (the session's does not
   count), then the provider's consent page shows the filing's authorization details
   (nl.overheid.indiening: proposal, digest, company, scheme); approved there, the page records
   the decision with the access token that login brought.
4. An MCP client in another process applies the proposal by id: one filing; again: a replay.
Also: a proposal declined in the browser files nothing; a decision whose login is refused at the
provider, or made by another person than the session's, decides nothing; a person of another
company gets 403.

Usage: python test_browser.py TARGET_DIR NODE PROVIDER_SCRIPT
"""
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

from harness import KVK, browser, free_port, start_provider

HERE = Path(__file__).resolve().parent
CLIENT = "overheid-mcp-pagina"
failures = []


def check(name, condition, detail=""):
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def wait_for_line(process, text, what):
    deadline = time.time() + 30
    for line in process.stderr if "luistert" in text else process.stdout:
        if text in line:
            return line
        if time.time() > deadline:
            break
    raise RuntimeError(f"{what} did not start")


class Mcp:
    """An MCP client of its own process: overheid-mcp over stdio, MCP 2026-07-28 (no handshake)."""

    def __init__(self, target, env, page):
        self.process = subprocess.Popen(
            [str(target / "overheid-mcp"), "--tool", str(target / "rvo-cli"), "--goedkeuring-url", page],
            env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.next = 0

    def call(self, name, arguments):
        self.next += 1
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {}}
        message = {"jsonrpc": "2.0", "id": self.next, "method": "tools/call",
                   "params": {"name": name, "arguments": arguments, "_meta": meta}}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            answer = json.loads(self.process.stdout.readline())
            if answer.get("id") == self.next:
                return answer.get("result") or answer

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def gone(element):
    """A wait condition: `element` has left the document.

    Selenium's `staleness_of` knows only the stale-element error. While Chromium swaps documents
    during a form's navigation it can also answer "Node with given id does not belong to the
    document" (an unknown error); both mean the old page is gone. The next wait checks where the
    browser arrived, so no other state is assumed here.
    """
    def predicate(_driver):
        try:
            element.is_enabled()
        except WebDriverException:
            return True
        return False
    return predicate


def at_provider(driver, page, login, password, approve=True):
    """At the provider until the browser is back at `page`: log in as `login` when asked, and
    consent (or refuse, with `approve` false) when asked. What happened there: whether a login
    was asked, and the consent page's text (None when none was shown)."""
    wait = WebDriverWait(driver, 20, ignored_exceptions=(WebDriverException,))
    asked_login, consent = False, None
    for _ in range(4):
        wait.until(lambda d: d.current_url.startswith(page) or d.find_elements(By.NAME, "password")
                   or d.find_elements(By.ID, "goedkeuren"))
        if driver.current_url.startswith(page):
            break
        if driver.find_elements(By.NAME, "password"):
            asked_login = True
            field = driver.find_element(By.NAME, "login")
            field.send_keys(login)
            driver.find_element(By.NAME, "password").send_keys(password)
            driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait.until(gone(field))
        else:
            consent = driver.find_element(By.TAG_NAME, "main").text
            button = driver.find_element(By.ID, "goedkeuren" if approve else "afwijzen")
            button.click()
            wait.until(gone(button))
    wait.until(lambda d: d.current_url.startswith(page) and d.find_elements(By.TAG_NAME, "main"))
    return asked_login, consent


def settled(driver, word):
    """Wait until the page's main text holds `word`; the text either way."""
    try:
        WebDriverWait(driver, 20).until(lambda d: word in d.find_element(By.TAG_NAME, "main").text)
    except Exception:  # noqa: BLE001 - the check below reports what the page said
        pass
    return driver.find_element(By.TAG_NAME, "main").text if driver.find_elements(By.TAG_NAME, "main") \
        else driver.page_source[:500]


def decide(driver, word):
    """Press the page's button for `word` (goedkeuren, afwijzen); the browser leaves the page."""
    wait = WebDriverWait(driver, 20, ignored_exceptions=(WebDriverException,))
    wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, f"button[value={word}]")))
    button = driver.find_element(By.CSS_SELECTOR, f"button[value={word}]")
    button.click()
    try:
        wait.until(gone(button))
    except Exception as error:
        raise RuntimeError(f"pressing {word} left the page not: {driver.current_url} "
                           f"{driver.page_source[:1500]}") from error


def main():
    target = Path(sys.argv[1]).resolve()
    node, provider_script = sys.argv[2], sys.argv[3]
    passwords = {"anna": secrets.token_urlsafe(12), "piet": secrets.token_urlsafe(12)}
    with tempfile.TemporaryDirectory() as tmp:
        page_port, idp_port = free_port(), free_port()
        base = f"http://127.0.0.1:{page_port}"
        pages = f"{base}/voorstellen"
        issuer = f"http://127.0.0.1:{idp_port}"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp,
               "RVO_DATA_DIR": str(Path(tmp) / "rvo"), "OVERHEID_AUDIT_LOG": str(Path(tmp) / "audit.jsonl"),
               "OVERHEID_MCP_STATE_KEY": os.urandom(32).hex()}
        private = Path(tmp) / "idp"
        private.mkdir(mode=0o700)
        control = private / "control.json"
        control.write_text(json.dumps({"access_token_ttl": 600, "device_code_ttl": 60, "fresh_login": True}))
        idp = start_provider(node, provider_script, private, issuer, passwords, [], control,
                             page_client={"client_id": CLIENT, "redirect_uri": f"{pages}/terug"})
        threading.Thread(target=lambda: [None for _ in idp.stdout], daemon=True).start()
        page = None
        driver = None
        try:
            page = subprocess.Popen(
                [str(target / "overheid-mcp"), "--http", f"127.0.0.1:{page_port}", "--insecure-no-auth",
                 "--public-url", f"{base}/mcp", "--oidc-issuer", issuer,
                 "--oidc-client-id", CLIENT, "--tool", str(target / "rvo-cli")],
                env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
            wait_for_line(page, "luistert op", "overheid-mcp --http")
            session = {**env, "KVK_SESSIE_NUMMER": KVK}
            arguments = {"regeling_id": "EBR-2027", "maatregelen": "warmtepomp, led-verlichting",
                         "peildatum": "2027-06-01"}

            agent = Mcp(target, session, pages)
            proposed = agent.call("rvo__rapportage_voorstel", arguments)
            content = proposed.get("structuredContent") or {}
            link, proposal = content.get("goedkeuring_url", ""), content.get("voorstel_id", "")
            digest = content.get("plan_digest", "-")
            check("the MCP client gets the proposal's link", link == f"{pages}/{proposal}", proposed)
            waiting = agent.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            check("applying before a person approved files nothing",
                  (waiting.get("structuredContent") or {}).get("status") == "open", waiting)
            links = {}
            for label in ("nee", "geweigerd", "ander"):
                made = agent.call("rvo__rapportage_voorstel", {**arguments, "toelichting": label})
                links[label] = (made.get("structuredContent") or {}).get("goedkeuring_url", "")
            agent.close()

            driver = browser()
            driver.get(link)
            at_provider(driver, pages, "anna", passwords["anna"])
            text = driver.find_element(By.TAG_NAME, "main").text
            check("the page shows the plan: company, scheme, digest",
                  KVK in text and "EBR-2027" in text and digest in text, text[:400])
            for width, height, mobile in ((1280, 800, False), (390, 844, True)):
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
                driver.refresh()
                WebDriverWait(driver, 20).until(
                    ready.presence_of_element_located((By.CSS_SELECTOR, "button[value=afwijzen]")))
                seen = driver.execute_script(
                    "return [...document.querySelectorAll('button[name=beslissing]')].map(b => {"
                    " const r = b.getBoundingClientRect();"
                    " return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight"
                    " && r.right <= window.innerWidth; })")
                check(f"both buttons visible without scrolling at {width}x{height}",
                      seen == [True, True], seen)
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            # The figure of issue 38 (first paint of a proposal, p50 <= 50 ms from a warm store):
            # printed, not asserted; bench/RESULTS.md records it with the machine's load.
            paints, answers = [], []
            for _ in range(21):
                driver.refresh()
                WebDriverWait(driver, 20).until(
                    ready.presence_of_element_located((By.CSS_SELECTOR, "button[value=afwijzen]")))
                paint = WebDriverWait(driver, 10).until(lambda d: d.execute_script(
                    "const p = performance.getEntriesByName('first-contentful-paint')[0];"
                    " return p ? p.startTime : null;"))
                paints.append(paint)
                answers.append(driver.execute_script(
                    "const n = performance.getEntriesByType('navigation')[0];"
                    " return n.responseEnd - n.requestStart;"))
            paints.sort()
            answers.sort()
            print(f"first paint of a proposal, 21 reloads: p50 {paints[10]:.1f} ms, "
                  f"min {paints[0]:.1f}, max {paints[-1]:.1f}; the page's answer (request to response end) "
                  f"p50 {answers[10]:.1f} ms (load {os.getloadavg()[0]:.1f})")
            decide(driver, "goedkeuren")
            asked_login, consent = at_provider(driver, pages, "anna", passwords["anna"])
            check("approving asks a fresh login, though the session is minutes old", asked_login)
            check("the provider shows the filing's authorization details: proposal, digest, company, scheme",
                  consent is not None and all(v in consent for v in
                                              ("nl.overheid.indiening", proposal, digest, KVK, "EBR-2027")),
                  consent)
            shown = settled(driver, "goedgekeurd")
            check("approved in the browser, with the login's token", "goedgekeurd" in shown, shown[:500])

            other = Mcp(target, session, pages)
            filed = other.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            data = filed.get("structuredContent") or {}
            check("another MCP client applies by id: one filing",
                  data.get("status") == "ONTVANGEN" and data.get("replayed") is False, filed)
            again = other.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            check("applying again is a replay of the same filing",
                  (again.get("structuredContent") or {}).get("referentienummer") == data.get("referentienummer")
                  and (again.get("structuredContent") or {}).get("replayed") is True, again)

            driver.get(links["nee"])
            decide(driver, "afwijzen")
            at_provider(driver, pages, "anna", passwords["anna"])
            shown = settled(driver, "afgewezen")
            check("declined in the browser", "afgewezen" in shown, shown[:500])
            refused = other.call("rvo__rapportage_indienen", {"voorstel_id": links["nee"].rsplit("/", 1)[-1]})
            check("a declined proposal files nothing", refused.get("isError") is True, refused)

            driver.get(links["geweigerd"])
            decide(driver, "goedkeuren")
            at_provider(driver, pages, "anna", passwords["anna"], approve=False)
            shown = settled(driver, "niets besloten")
            check("refused at the provider's consent: nothing decided", "niets besloten" in shown, shown[:500])
            still = other.call("rvo__rapportage_indienen", {"voorstel_id": links["geweigerd"].rsplit("/", 1)[-1]})
            check("that proposal is still open", (still.get("structuredContent") or {}).get("status") == "open", still)

            driver.get(links["ander"])
            decide(driver, "goedkeuren")
            at_provider(driver, pages, "piet", passwords["piet"])
            shown = settled(driver, "iemand anders")
            check("a decision's login by another person than the session's decides nothing",
                  "iemand anders" in shown, shown[:500])
            still = other.call("rvo__rapportage_indienen", {"voorstel_id": links["ander"].rsplit("/", 1)[-1]})
            check("that proposal is still open", (still.get("structuredContent") or {}).get("status") == "open", still)

            listed = other.call("rvo__rapportage_lijst", {})
            check("exactly one filing", (listed.get("structuredContent") or {}).get("aantal") == 1, listed)
            other.close()

            driver.delete_all_cookies()
            driver.quit()
            driver = browser()
            driver.get(link)
            at_provider(driver, pages, "piet", passwords["piet"])
            check("a person of another company gets 403",
                  "Geen toegang" in driver.find_element(By.TAG_NAME, "main").text, driver.page_source[:300])
        finally:
            if driver is not None:
                driver.quit()
            for process in (page, idp):
                if process is not None:
                    process.terminate()
                    process.wait(timeout=30)
    if failures:
        sys.exit(f"{len(failures)} controle(s) mislukt: {', '.join(failures)}")
    print("alle controles geslaagd")


if __name__ == "__main__":
    main()
