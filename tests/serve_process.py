"""`rulekeeper serve` as its README starts it: a subprocess on a free loopback port, waited for until ready."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

# How long a server may take to start: an import and a migration, beside other tests' busy processes.
START_SECONDS = 60


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
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                if httpx.get(f"{self.url}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
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
