"""`rulekeeper serve` as its README starts it: a subprocess on a free loopback port, waited for until ready."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

# How long a server may take to start: an import and a migration, beside other tests' busy processes.
START_SECONDS = 60
# httpx builds an SSL context for every client it makes, reading the CA bundle (about 29 ms of CPU here), and
# `httpx.get` makes a client per call. Polled that way every 50 ms, a starting server had a poller spending over half
# a core beside it; such polls and a client per retried move were about a sixth of the CPU of the tests that start
# processes (py-spy over that step). The suite speaks plain HTTP on loopback: its clients share this one context.
LOOPBACK_TLS = ssl.create_default_context()


def answers(url: str, deadline: float, running: Callable[[], bool] = lambda: True, every: float = 0.05) -> bool:
    """Whether `url` answers 200 before `deadline` (time.monotonic()): asked every `every` seconds, on one client,
    while `running()` (a server that has exited will not answer)."""
    with httpx.Client(timeout=1, verify=LOOPBACK_TLS) as client:
        while True:
            try:
                if client.get(url).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            if not running() or time.monotonic() >= deadline:
                return False
            time.sleep(every)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """`rulekeeper serve --port N` in a subprocess."""

    def __init__(self, env: dict[str, str], log: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        exe = Path(sys.executable).with_name("rulekeeper")
        self._log = log.open("w")
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port)],
            env={**os.environ, "RULEKEEPER_LOG_LEVEL": "WARNING", **env},
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        self._logfile = log

    def ready(self) -> "Service":
        if answers(f"{self.url}/readyz", time.monotonic() + START_SECONDS, lambda: self.proc.poll() is None):
            return self
        self.stop()
        pytest.fail(f"rulekeeper serve did not start:\n{self._logfile.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
