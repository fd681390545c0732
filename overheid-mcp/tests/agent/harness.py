"""The real parts of the end-to-end approval test (test_agent.py) and its benchmark
(bench/approval/latency.py): the organisation's identity provider (npm oidc-provider,
provider.mjs), two RVO backends of contract 2.0 (fake-rvo) that trust it, the operator's policy
in /etc/overheid (a tmpfs in this process's private mount namespace: run.sh starts it with
`unshare --mount`), the agent as an OS user of its own, and the person in Chromium.

Everything runs as root except the agent; everything listens on 127.0.0.1 only. Secrets the
agent must not have (the people's passwords, the provider's signing key) are in a directory only
root can read, never on a command line.
"""
import hashlib
import json
import os
import secrets
import shlex
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

KVK = "68750110"
OTHER_KVK = "11111111"
REGELING = "EBR-2027"
PEILDATUM = "2026-11-30"
POLICY_DIR = Path("/etc/overheid")
# How long a device code lives (s): the person has it to log in; the agent's attempts to approve
# at a terminal (which nobody finishes) end when a code of AGENT_DEVICE_CODE_TTL expires.
DEVICE_CODE_TTL = 60
AGENT_DEVICE_CODE_TTL = 15
RUNUSER = shutil.which("runuser") or "/usr/sbin/runuser"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def last_json(text):
    """The last line of `text` that is a JSON object, or {}."""
    for line in reversed(text.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                continue
    return {}


def plan_digest(body):
    """The plan digest of a filing of `body` (profile MUT-3): SHA-256 of the canonical JSON."""
    canonical = json.dumps({"arguments": body, "command": "rvo-cli rapportage indienen"},
                           sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


PEOPLE = (("anna", "Anna de Vries", KVK), ("piet", "Piet Ander", OTHER_KVK))


def start_provider(node, script, private, issuer, passwords, resources, control, interval=1,
                   page_client=None):
    """Start the organisation's identity provider (provider.mjs, beside its node_modules) at
    `issuer`: a fresh RSA signing key, the PEOPLE with a scrypt hash of their `passwords`, tokens
    for `resources` (and urn:overheid-cli:lokaal), lifetimes read per request from `control`,
    and with `page_client` ({"client_id", "redirect_uri"}) the approval page's client (the
    authorization code flow with PKCE). Its configuration is written into `private` (root only).
    Returns the running process once it listens; its stdout carries the consent and key lines."""
    key = subprocess.run(
        [node, "-e", "const c = require('crypto');"
         "const { privateKey } = c.generateKeyPairSync('rsa', { modulusLength: 2048 });"
         "const j = privateKey.export({ format: 'jwk' });"
         "j.kid = c.randomBytes(8).toString('hex'); j.use = 'sig'; j.alg = 'RS256';"
         "console.log(JSON.stringify(j));"],
        check=True, capture_output=True, text=True).stdout
    accounts = {}
    for login, name, kvk in PEOPLE:
        salt = os.urandom(16)
        digest = hashlib.scrypt(passwords[login].encode(), salt=salt, n=16384, r=8, p=1,
                                dklen=32, maxmem=64 * 1024 * 1024)
        accounts[login] = {"name": name, "kvk_nummer": kvk, "salt": salt.hex(), "scrypt": digest.hex()}
    config = Path(private) / "provider.json"
    config.write_text(json.dumps({
        "port": int(issuer.rsplit(":", 1)[1]),
        "accounts": accounts,
        "resources": list(resources),
        "cookie_keys": [secrets.token_hex(16)],
        "control": str(control),
        "signing_key": json.loads(key),
        "interval": interval,
        **({"page_client": page_client} if page_client else {}),
    }))
    os.chmod(config, 0o600)
    log = open(Path(private) / "provider.log", "w")
    script = Path(script)
    process = subprocess.Popen([node, str(script), str(config)], cwd=script.parent,
                               stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline()
    if not line.startswith("provider ready"):
        process.kill()
        raise RuntimeError(f"oidc-provider did not start: {line!r}; see {log.name}")
    return process


class Run:
    """One finished command: its exit status and output."""

    def __init__(self, code, stdout, stderr):
        self.code, self.stdout, self.stderr = code, stdout, stderr

    @property
    def data(self):
        return last_json(self.stdout)

    @property
    def error(self):
        return last_json(self.stderr)

    def __repr__(self):
        return f"exit {self.code}; stdout {self.stdout[-600:]!r}; stderr {self.stderr[-900:]!r}"


class Parts:
    """Starts and stops the parts; `close` undoes everything `start` did, also after a failure."""

    def __init__(self, target, node, provider_script, store_url=None, interval=1):
        self.interval = interval
        self.target = Path(target)
        self.node = node
        self.provider_script = Path(provider_script)
        self.store_url = store_url
        self.processes = []
        self.mounts = []
        self.user = None
        self.work = Path(tempfile.mkdtemp(prefix="overheid-agent-"))
        os.chmod(self.work, 0o711)
        self.private = self.work / "root"
        self.private.mkdir(mode=0o700)
        self.service_credential = secrets.token_urlsafe(24)
        self.passwords = {"anna": secrets.token_urlsafe(12), "piet": secrets.token_urlsafe(12)}

    # -- start and stop -------------------------------------------------------------------

    def start(self):
        if not POLICY_DIR.is_dir():
            raise RuntimeError(f"{POLICY_DIR} is missing (run.sh makes it)")
        self.issuer = f"http://127.0.0.1:{free_port()}"
        credential = self.private / "dienstsleutel"
        credential.write_text(self.service_credential + "\n")
        os.chmod(credential, 0o600)
        self.backends = [self._fake_rvo(i, credential) for i in (1, 2)]
        self.backend, self.other_backend = self.backends
        self._provider()
        self.set_policy()
        self._agent()

    def _fake_rvo(self, number, credential):
        log = open(self.private / f"fake-rvo-{number}.log", "w")
        process = subprocess.Popen(
            [str(self.target / "fake-rvo"), "--issuer", self.issuer, "--dienstsleutel-bestand", str(credential)],
            stdout=subprocess.PIPE, stderr=log, text=True)
        self.processes.append(process)
        line = process.stdout.readline()
        if not line.startswith("export RVO_API_BASE="):
            raise RuntimeError(f"fake-rvo did not start: {line!r}")
        return line.strip().split("=", 1)[1]

    def _provider(self):
        self.control = self.private / "control.json"
        self.set_ttl()
        self.provider = start_provider(self.node, self.provider_script, self.private, self.issuer,
                                       self.passwords, self.backends, self.control, self.interval)
        self.processes.append(self.provider)
        self.consents = []
        self.jwks_fetches = 0
        threading.Thread(target=self._provider_lines, daemon=True).start()

    def _provider_lines(self):
        """The provider's log of consents (when each was handled) and of key fetches."""
        for line in self.provider.stdout:
            if line.startswith("consent "):
                self.consents.append(float(line.split()[1]))
            elif line.startswith("jwks "):
                self.jwks_fetches += 1

    def set_ttl(self, access_token=600, device_code=DEVICE_CODE_TTL, fresh_login=True):
        """The lifetimes of the tokens and device codes the provider issues from now on, and
        whether it honours a fresh login asked (a real provider may let a session stand in);
        called without arguments: the defaults."""
        self.control.write_text(json.dumps({"access_token_ttl": access_token, "device_code_ttl": device_code,
                                            "fresh_login": fresh_login}))

    def set_policy(self, text=None):
        """The operator's policy: a root-owned 0644 file on a tmpfs over /etc/overheid, seen only
        in this mount namespace."""
        if not self.mounts:
            subprocess.run(["mount", "-t", "tmpfs", "-o", "mode=0755,size=64k", "overheid-beleid", str(POLICY_DIR)],
                           check=True)
            self.mounts.append(POLICY_DIR)
        path = POLICY_DIR / "beleid.toml"
        path.write_text(text or (
            "[goedkeuring]\n"
            "methode = \"identiteit\"\n"
            f"issuer = \"{self.issuer}\"\n"
            "client_id = \"overheid-cli\"\n"
            "acr = \"substantieel\"\n"))
        os.chown(path, 0, 0)
        os.chmod(path, 0o644)

    def _agent(self):
        """The agent: an OS user of its own with a shell, its own home and store, and the tools
        (the real target/debug programs, bound read-only into a directory it can reach)."""
        self.user = "ovagent" + secrets.token_hex(3)
        self.home = self.work / "agent"
        subprocess.run(["useradd", "--create-home", "--home-dir", str(self.home), "--shell", "/bin/bash",
                        "--user-group", self.user], check=True, capture_output=True)
        os.chmod(self.home, 0o700)
        self.bin = self.work / "bin"
        self.bin.mkdir(mode=0o755)
        # The family as the workspace describes it (dist/build.sh --list), and the test build
        # of rvo-cli the agent may also try.
        root = Path(__file__).resolve().parents[3]
        family = subprocess.run(["bash", str(root / "dist" / "build.sh"), "--list"], check=True,
                                capture_output=True, text=True).stdout.split()
        for tool in [*family, "rvo-cli-test-hooks"]:
            source = self.target / tool
            if source.exists():
                self.bind(source, self.bin / tool)
        for script in ("agent_forge.py", "agent_pty.py", "agent_login.py"):
            shutil.copy(Path(__file__).parent / script, self.bin / script)
            os.chmod(self.bin / script, 0o755)

    def bind(self, source, destination):
        """`source` at `destination`, read-only, in this mount namespace."""
        destination.touch()
        subprocess.run(["mount", "--bind", str(source), str(destination)], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", str(destination)], check=True)
        self.mounts.append(destination)

    def close(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        if self.user:
            # The agent's processes left over, by their ids, then the user and its home.
            pids = subprocess.run(["ps", "-u", self.user, "-o", "pid="], capture_output=True, text=True).stdout
            for pid in pids.split():
                try:
                    os.kill(int(pid), 9)
                except ProcessLookupError:
                    pass
            subprocess.run(["userdel", "--remove", self.user], capture_output=True)
        for mount in reversed(self.mounts):
            subprocess.run(["umount", "--lazy", str(mount)], capture_output=True)
        shutil.rmtree(self.work, ignore_errors=True)

    # -- the agent ------------------------------------------------------------------------

    def agent_env(self, **changes):
        """The agent's environment: its own store, the backend, the service credential (it
        knows it); `changes` set (a value) or unset (None) variables."""
        env = {
            "HOME": str(self.home), "USER": self.user, "LOGNAME": self.user, "SHELL": "/bin/bash",
            "PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            "RVO_API_BASE": self.backend, "RVO_API_TOKEN": self.service_credential,
            "RVO_DATA_DIR": str(self.home / "rvo"),
        }
        if self.store_url:
            env["OVERHEID_STORE_URL"] = self.store_url
        for name, value in changes.items():
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value
        return env

    def agent_command(self, script):
        return [RUNUSER, "-u", self.user, "--", "bash", "-c", script]

    def agent(self, script, timeout=120, **changes):
        """`script` run by the agent's bash, in its home, with its environment (and `changes`)."""
        done = subprocess.run(self.agent_command(script), env=self.agent_env(**changes), cwd=self.home,
                              capture_output=True, text=True, timeout=timeout)
        return Run(done.returncode, done.stdout, done.stderr)

    def agent_background(self, script, **changes):
        return subprocess.Popen(self.agent_command(script), env=self.agent_env(**changes), cwd=self.home,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def rvo(self, *args, **changes):
        """rvo-cli `args`, run by the agent."""
        return self.agent("rvo-cli " + " ".join(shlex.quote(a) for a in args), **changes)

    def propose(self, label, kvk=KVK, measures="LED-verlichting,Isolatie dak", **changes):
        """A new proposal of the agent (its explanation makes it unique)."""
        run = self.rvo("rapportage", "voorstel", kvk, REGELING, measures, "--peildatum", PEILDATUM,
                       "--toelichting", f"{label} {secrets.token_hex(4)}", **changes)
        if run.code != 0:
            raise RuntimeError(f"proposing failed: {run}")
        return run.data

    def store_sql(self, sql):
        """`sql` on the agent's SQLite store, as the agent (the sqlite3 program)."""
        return self.agent(f"sqlite3 \"$RVO_DATA_DIR/overheid.sqlite3\" {shlex.quote(sql)}")

    def token_of(self, proposal_id):
        """The approval token stored with a decision (read by the test, as root)."""
        if self.store_url:
            done = subprocess.run(["psql", "-At", self.store_url, "-c",
                                   f"SELECT decided_token FROM overheid_proposals WHERE id = '{proposal_id}'"],
                                  capture_output=True, text=True, check=True)
        else:
            done = subprocess.run(["sqlite3", str(self.home / "rvo" / "overheid.sqlite3"),
                                   f"SELECT decided_token FROM overheid_proposals WHERE id = '{proposal_id}'"],
                                  capture_output=True, text=True, check=True)
        return done.stdout.strip()

    def agent_post(self, body, key, bearer=None, service="$RVO_API_TOKEN", base="$RVO_API_BASE"):
        """A filing POST the agent sends itself with curl, with `bearer` (a shell word, e.g.
        "$(sqlite3 …)") as Authorization and `service` as Overheid-Dienstsleutel: (status, body)."""
        headers = ["-H 'Content-Type: application/json'", f"-H 'Idempotency-Key: {key}'"]
        if bearer:
            headers.append(f'-H "Authorization: Bearer {bearer}"')
        if service:
            headers.append(f'-H "Overheid-Dienstsleutel: {service}"')
        run = self.agent(f'curl -sS -o answer.json -w "%{{http_code}}" -X POST "{base}/rapportages" '
                         + " ".join(headers) + f" --data-binary {shlex.quote(json.dumps(body))}; "
                         "echo; cat answer.json")
        status, _, answer = run.stdout.partition("\n")
        return int(status or 0), last_json(answer)

    def token_sql(self, proposal_id):
        """The shell word with which the agent reads a decision's token from its own store."""
        if self.store_url:
            return (f"$(psql -At \"$OVERHEID_STORE_URL\" -c "
                    f"\"SELECT decided_token FROM overheid_proposals WHERE id = '{proposal_id}'\")")
        return (f"$(sqlite3 \"$RVO_DATA_DIR/overheid.sqlite3\" "
                f"\"SELECT decided_token FROM overheid_proposals WHERE id = '{proposal_id}'\")")

    # -- what the backends hold -----------------------------------------------------------

    def filed(self):
        """Every report the backends hold, of both companies."""
        reports = []
        for base in self.backends:
            for kvk in (KVK, OTHER_KVK):
                request = urllib.request.Request(f"{base}/rapportages?kvk_nummer={kvk}",
                                                 headers={"Overheid-Dienstsleutel": self.service_credential})
                with urllib.request.urlopen(request, timeout=10) as answer:
                    reports += json.load(answer)["rapportages"]
        return reports

    def backend_log(self, number=1):
        return (self.private / f"fake-rvo-{number}.log").read_text()

    def refusals(self, number=1, after=None):
        """Why the backend refused filings, in order; with `after` (a count), waits up to 3 s for
        more than that many (fake-rvo logs them every 100 ms)."""
        deadline = time.time() + (3 if after is not None else 0)
        while True:
            lines = [line for line in self.backend_log(number).splitlines() if line.startswith("geweigerd:")]
            if after is None or len(lines) > after or time.time() > deadline:
                return lines
            time.sleep(0.05)


class Approval:
    """`rvo-cli voorstel goedkeuren ID` run by the agent in the background: the login's link once
    it is shown (a device login's, or with --browser the provider's authorization link), and the
    call's result."""

    def __init__(self, parts, proposal_id, script=None, **changes):
        self.process = parts.agent_background(script or f"rvo-cli voorstel goedkeuren {proposal_id}", **changes)
        self.lines = []
        self.link = None
        found = threading.Event()

        def read():
            for line in self.process.stderr:
                self.lines.append(line)
                link = line.strip()
                if self.link is None and link.startswith("http") and (
                        "user_code=" in link or "redirect_uri=" in link):
                    self.link = line.strip()
                    found.set()
            found.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        found.wait(timeout=30)

    def result(self, timeout=60):
        stdout = self.process.stdout.read()
        self.process.wait(timeout=timeout)
        self.reader.join(timeout=5)
        return Run(self.process.returncode, stdout, "".join(self.lines))


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Person:
    """The person, in a real Chromium over WebDriver: opens the device login's link, confirms
    the code, logs in with their password, reads the consent page and decides."""

    def __init__(self):
        self.driver = browser()

    def close(self):
        self.driver.quit()

    def decide(self, link, login, password, approve=True):
        """Open `link` and decide; (the consent page's text, the time just before the decision
        was submitted)."""
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import WebDriverWait
        driver = self.driver
        wait = WebDriverWait(driver, 20, ignored_exceptions=(WebDriverException,))
        driver.get(link)
        # A device login first confirms its code; a browser login goes straight to the login.
        wait.until(lambda d: d.find_elements(By.ID, "doorgaan") or d.find_elements(By.NAME, "password")
                   or d.find_elements(By.ID, "goedkeuren"))
        if driver.find_elements(By.ID, "doorgaan"):
            driver.find_element(By.ID, "doorgaan").click()
        try:
            wait.until(lambda d: d.find_elements(By.NAME, "password") or d.find_elements(By.ID, "goedkeuren"))
        except Exception as error:
            raise RuntimeError(f"no login or consent page: {driver.current_url} {driver.page_source[:800]}") from error
        self.logged_in = bool(driver.find_elements(By.NAME, "password"))
        if self.logged_in:
            driver.find_element(By.NAME, "login").send_keys(login)
            driver.find_element(By.NAME, "password").send_keys(password)
            driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        try:
            wait.until(lambda d: d.find_elements(By.ID, "goedkeuren"))
        except Exception as error:
            raise RuntimeError(f"no consent page: {driver.current_url} {driver.page_source[:800]}") from error
        text = driver.find_element(By.TAG_NAME, "main").text
        button = driver.find_element(By.ID, "goedkeuren" if approve else "afwijzen")
        submitted = time.time()
        button.click()
        # The provider's own end page (device login), or rvo-cli's page at its loopback port.
        wait.until(lambda d: d.find_elements(By.ID, "klaar") or "Fout" in d.title
                   or (d.current_url.startswith("http://127.0.0.1:") and "rvo-cli" in d.title))
        return text, submitted
