"""For the webhook tests: a real receiver on 127.0.0.1, and the service as a real process to send to it.

The receiver is an http.server in a thread that records every request and answers as told (a status per
request, a delay, or held until the test lets it answer). Signatures are checked with the `standardwebhooks`
package, as a VTT module or bot would, never with the service's own code."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from serve_process import START_SECONDS, answers
from standardwebhooks import Webhook


class Receiver:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], str]] = []  # (path, headers, body)
        self.arrivals: list[tuple[str, float]] = []  # (path, time.monotonic())
        self.plan: list[int] = []  # statuses for the next requests, then `status`
        self.status = 204
        self.delay = 0.0
        # While cleared, every request waits for it before answering: a receiver as slow as the test needs,
        # bounded by the test's own steps rather than by a guess at how fast a loaded machine serves.
        self.hold = threading.Event()
        self.hold.set()
        self.answered = 0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length") or 0)).decode()
                with receiver._lock:
                    receiver.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    receiver.arrivals.append((self.path, time.monotonic()))
                    status = receiver.plan.pop(0) if receiver.plan else receiver.status
                    delay = receiver.delay
                if delay:
                    time.sleep(delay)
                receiver.hold.wait(60)
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/landing")
                else:
                    self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()
                with receiver._lock:
                    receiver.answered += 1

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        # shutdown() waits for serve_forever to look at its flag, which it does once per poll interval (0.5 s by
        # default): half a second at the end of every webhook test.
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    def __enter__(self) -> "Receiver":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.hold.set()
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/hook"

    def path_url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def requests(self, path: str = "/hook") -> list[tuple[dict[str, str], str]]:
        with self._lock:
            return [(h, b) for p, h, b in self.received if p == path]

    def times(self, path: str = "/hook") -> list[float]:
        with self._lock:
            return [t for p, t in self.arrivals if p == path]

    def verified(self, secret: str, path: str = "/hook") -> list[dict[str, Any]]:
        """Every request's payload, each verified with the standard library (raises on a bad one)."""
        return [Webhook(secret).verify(body, headers) for headers, body in self.requests(path)]

    def wait_for(self, count: int, timeout: float = 10.0, path: str = "/hook") -> list[tuple[dict[str, str], str]]:
        deadline = time.monotonic() + timeout
        while True:
            got = self.requests(path)
            if len(got) >= count:
                return got
            if time.monotonic() >= deadline:
                break
            time.sleep(0.02)
        raise AssertionError(
            f"expected {count} requests on {path}, got {len(self.requests(path))}: "
            f"{[json.loads(b).get('type') for _, b in self.requests(path)]}"
        )

    async def arrived(self, count: int, timeout: float = 10.0, path: str = "/hook") -> list[tuple[dict[str, str], str]]:
        """`wait_for` for a test whose event loop runs the service: waits without blocking it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.requests(path)) >= count:
                break
            await asyncio.sleep(0.02)
        return self.wait_for(count, 0, path)


class Silent:
    """A receiver that accepts every connection, reads what comes and never answers: each send to it holds
    its slot until the service's timeout."""

    def __init__(self) -> None:
        self._listener = socket.create_server(("127.0.0.1", 0), backlog=512)
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._open = True
        self._thread = threading.Thread(target=self._accept, daemon=True)

    def _accept(self) -> None:
        while self._open:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            conn.setblocking(False)  # the request waits, unread, in the socket's buffer
            with self._lock:
                self._conns.append(conn)

    @property
    def accepted(self) -> int:
        with self._lock:
            return len(self._conns)

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self._listener.getsockname()[1]}{path}"

    def __enter__(self) -> "Silent":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._open = False
        self._listener.close()
        with self._lock:
            for conn in self._conns:
                conn.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Service:
    """`rulekeeper serve` as a subprocess, with loopback webhooks allowed and the given settings."""

    def __init__(self, database_url: str, **settings: str) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK": "true",
            "RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS": "0.1",
            "RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS": "1",
            "RULEKEEPER_LOG_LEVEL": "WARNING",
            # Replicas on one PostgreSQL share the key that seals webhook secrets (required there).
            "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
            **settings,
        }
        self.env.pop("REDIS_URL", None)
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "Service":
        exe = Path(sys.executable).with_name("rulekeeper")
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if answers(f"{self.url}/healthz", time.monotonic() + START_SECONDS, lambda: self.proc.poll() is None):
            return self
        self.kill()  # not left running behind a failed test
        raise AssertionError("rulekeeper serve did not come up")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
