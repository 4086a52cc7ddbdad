"""Real service processes for the fault tests, started the README's way (`rulekeeper serve`)."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from serve_process import START_SECONDS, answers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServiceProcess:
    """One `rulekeeper serve` on a loopback port of its own; its log goes to `log` when given."""

    def __init__(self, env: dict[str, str], log: Path | None = None) -> None:
        self.port, self.env, self.log = free_port(), env, log
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def spawn(self) -> None:
        exe = Path(sys.executable).with_name("rulekeeper")
        err = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115 - the child keeps it
        try:
            self.proc = subprocess.Popen(
                [str(exe), "serve", "--port", str(self.port)], env=self.env, stdout=subprocess.DEVNULL, stderr=err
            )
        finally:
            if self.log:
                err.close()

    def wait_ready(self, path: str = "/healthz") -> None:
        if not answers(f"{self.url}{path}", time.monotonic() + START_SECONDS):
            raise AssertionError(f"rulekeeper serve {path} did not come up within {START_SECONDS}s")

    def start(self) -> None:
        self.spawn()
        self.wait_ready()

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
