"""The approval page in a real browser: headless Chromium over WebDriver (Selenium), a real OpenID
provider (npm oidc-provider, provider.mjs), and overheid-mcp with rvo-cli.

1. An MCP client (overheid-mcp over stdio, --goedkeuring-url pointing at the page) records a
   proposal with rvo__rapportage_voorstel and gets the approval link.
2. The browser opens that link, is sent to the provider, logs in as a person of the company,
   consents, comes back, sees the plan (company, scheme, digest) and presses Goedkeuren.
3. An MCP client in another process applies the proposal by id: one filing; again: a replay.
Also: a proposal declined in the browser files nothing; a person of another company gets 403.

Usage: python test_browser.py TARGET_DIR NODE   (TARGET_DIR holds overheid-mcp and rvo-cli)
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ready
from selenium.webdriver.support.ui import WebDriverWait

HERE = Path(__file__).resolve().parent
KVK = "68750110"
CLIENT = "overheid-mcp-pagina"
failures = []


def check(name, condition, detail=""):
    print(("ok     " if condition else "FAILED ") + name + ("" if condition else f": {detail}"))
    if not condition:
        failures.append(name)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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


def browser():
    options = Options()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


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


def log_in(driver, url, login):
    """Open `url`; at the provider, log in as `login` and consent; back at the page."""
    driver.get(url)
    # While a page is replaced, Chromium may answer any query with an error; ask again until the
    # deadline rather than read that as an answer.
    wait = WebDriverWait(driver, 20, ignored_exceptions=(WebDriverException,))
    wait.until(ready.presence_of_element_located((By.NAME, "login")))
    driver.find_element(By.NAME, "login").send_keys(login)
    driver.find_element(By.NAME, "password").send_keys("geheim")
    field = driver.find_element(By.NAME, "login")
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(gone(field))
    # The provider's consent page (first login of this browser), then back at the page.
    for _ in range(3):
        if "/voorstellen" in driver.current_url:
            break
        wait.until(lambda d: "/voorstellen" in d.current_url
                   or d.find_elements(By.CSS_SELECTOR, "button[type=submit]"))
        buttons = driver.find_elements(By.CSS_SELECTOR, "button[type=submit]")
        if buttons and "/voorstellen" not in driver.current_url:
            buttons[0].click()
            wait.until(gone(buttons[0]))
    wait.until(lambda d: "/voorstellen" in d.current_url and d.find_elements(By.TAG_NAME, "main"))


def settled(driver, word):
    """Wait until the page's main text holds `word`; the text either way."""
    try:
        WebDriverWait(driver, 20).until(lambda d: word in d.find_element(By.TAG_NAME, "main").text)
    except Exception:  # noqa: BLE001 - the check below reports what the page said
        pass
    return driver.find_element(By.TAG_NAME, "main").text if driver.find_elements(By.TAG_NAME, "main") \
        else driver.page_source[:500]


def main():
    target = Path(sys.argv[1]).resolve()
    node = sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        page_port, idp_port = free_port(), free_port()
        base = f"http://127.0.0.1:{page_port}"
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": tmp,
               "RVO_DATA_DIR": str(Path(tmp) / "rvo"), "OVERHEID_AUDIT_LOG": str(Path(tmp) / "audit.jsonl"),
               "OVERHEID_MCP_STATE_KEY": os.urandom(32).hex()}
        # provider.mjs runs beside the node_modules that hold oidc-provider (run.sh puts it there).
        script = Path(os.environ.get("BROWSER_TEST_DIR", HERE)) / "provider.mjs"
        idp = subprocess.Popen([node, str(script), str(idp_port), f"{base}/voorstellen/terug"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        page = None
        driver = None
        try:
            wait_for_line(idp, "provider ready", "oidc-provider")
            page = subprocess.Popen(
                [str(target / "overheid-mcp"), "--http", f"127.0.0.1:{page_port}", "--insecure-no-auth",
                 "--public-url", f"{base}/mcp", "--oidc-issuer", f"http://127.0.0.1:{idp_port}",
                 "--oidc-client-id", CLIENT, "--tool", str(target / "rvo-cli")],
                env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
            wait_for_line(page, "luistert op", "overheid-mcp --http")
            session = {**env, "KVK_SESSIE_NUMMER": KVK}
            arguments = {"regeling_id": "EBR-2027", "maatregelen": "warmtepomp, led-verlichting",
                         "peildatum": "2027-06-01"}

            agent = Mcp(target, session, f"{base}/voorstellen")
            proposed = agent.call("rvo__rapportage_voorstel", arguments)
            content = proposed.get("structuredContent") or {}
            link, proposal = content.get("goedkeuring_url", ""), content.get("voorstel_id", "")
            check("the MCP client gets the proposal's link", link == f"{base}/voorstellen/{proposal}", proposed)
            waiting = agent.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            check("applying before a person approved files nothing",
                  (waiting.get("structuredContent") or {}).get("status") == "open", waiting)
            declined_proposal = agent.call("rvo__rapportage_voorstel", {**arguments, "toelichting": "nee"})
            declined_link = (declined_proposal.get("structuredContent") or {}).get("goedkeuring_url", "")
            agent.close()

            driver = browser()
            log_in(driver, link, "anna")
            text = driver.find_element(By.TAG_NAME, "main").text
            check("the page shows the plan: company, scheme, digest",
                  KVK in text and "EBR-2027" in text and content.get("plan_digest", "-") in text, text[:400])
            driver.find_element(By.CSS_SELECTOR, "button[value=goedkeuren]").click()
            shown = settled(driver, "goedgekeurd")
            check("approved in the browser", "goedgekeurd" in shown, shown[:500])

            other = Mcp(target, session, f"{base}/voorstellen")
            filed = other.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            data = filed.get("structuredContent") or {}
            check("another MCP client applies by id: one filing",
                  data.get("status") == "ONTVANGEN" and data.get("replayed") is False, filed)
            again = other.call("rvo__rapportage_indienen", {"voorstel_id": proposal})
            check("applying again is a replay of the same filing",
                  (again.get("structuredContent") or {}).get("referentienummer") == data.get("referentienummer")
                  and (again.get("structuredContent") or {}).get("replayed") is True, again)

            driver.get(declined_link)
            WebDriverWait(driver, 20).until(ready.presence_of_element_located((By.CSS_SELECTOR, "button[value=afwijzen]")))
            driver.find_element(By.CSS_SELECTOR, "button[value=afwijzen]").click()
            shown = settled(driver, "afgewezen")
            check("declined in the browser", "afgewezen" in shown, shown[:500])
            declined_id = declined_link.rsplit("/", 1)[-1]
            refused = other.call("rvo__rapportage_indienen", {"voorstel_id": declined_id})
            check("a declined proposal files nothing", refused.get("isError") is True, refused)
            listed = other.call("rvo__rapportage_lijst", {})
            check("exactly one filing", (listed.get("structuredContent") or {}).get("aantal") == 1, listed)
            other.close()

            driver.delete_all_cookies()
            driver.quit()
            driver = browser()
            log_in(driver, link, "piet")
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
