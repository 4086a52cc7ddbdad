"""A redis-server of a test's own, on a loopback port, that the test may kill and start again."""

from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from servers import in_ci


def require_redis_server() -> str:
    """The redis-server binary; without one a test fails under CI=true (.ci/run installs it) and is skipped
    elsewhere."""
    path = shutil.which("redis-server")
    if path is None:
        if in_ci():
            pytest.fail("redis-server is not installed (CI=true requires it; .ci/run installs it)", pytrace=False)
        pytest.skip("redis-server is not installed")
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisProcess:
    """`persistent`: an append-only file synced on every write, so a kill loses nothing acknowledged."""

    def __init__(self, workdir: Path, persistent: bool = False) -> None:
        self.port, self.dir, self.persistent = _free_port(), workdir, persistent
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 30) -> None:
        args = [require_redis_server(), "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir)]
        args += ["--save", "", "--appendonly", "yes" if self.persistent else "no", "--appendfsync", "always"]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not come up within {timeout}s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
