"""An agent typing into a pseudo-terminal it opened itself (Python's pty.fork()): it runs a
command on the terminal's slave side, waits for its first output, then types TEXT and Enter
(again every few seconds) until the command ends or SECONDS pass; then it kills it.

Usage (as the agent): python3 agent_pty.py TEXT SECONDS -- COMMAND [ARG…]
Prints one JSON line: {"exit": <exit status, or null when it had to be killed>, "output": "…"}.
"""
import json
import os
import pty
import select
import signal
import sys
import time


def main():
    text, seconds = sys.argv[1], float(sys.argv[2])
    command = sys.argv[sys.argv.index("--") + 1:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    output, typed_at, status = b"", None, None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            output += chunk
        if output and (typed_at is None or time.monotonic() - typed_at > 3):
            try:
                os.write(fd, (text + "\n").encode())
            except OSError:
                pass
            typed_at = time.monotonic()
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
            break
    if status is None:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    try:
        while select.select([fd], [], [], 0.1)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            output += chunk
    except OSError:
        pass
    print(json.dumps({"exit": status, "output": output.decode(errors="replace")}))


if __name__ == "__main__":
    main()
