"""A real webhook receiver on 127.0.0.1 for the tests: an http.server in a thread that records every
request and answers as told (a status per request, a delay). Signatures are checked with the
`standardwebhooks` package, as a VTT module or bot would, never with the service's own code."""
from __future__ import annotations

import asyncio
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook


class Receiver:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], str]] = []   # (path, headers, body)
        self.plan: list[int] = []          # statuses for the next requests, then `status`
        self.status = 204
        self.delay = 0.0
        self._lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("content-length") or 0)).decode()
                with receiver._lock:
                    receiver.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    status = receiver.plan.pop(0) if receiver.plan else receiver.status
                    delay = receiver.delay
                if delay:
                    time.sleep(delay)
                if self.path == "/redirect":
                    self.send_response(302)
                    self.send_header("Location", "/landing")
                else:
                    self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "Receiver":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
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
        raise AssertionError(f"expected {count} requests on {path}, got {len(self.requests(path))}: "
                             f"{[json.loads(b).get('type') for _, b in self.requests(path)]}")

    async def arrived(self, count: int, timeout: float = 10.0, path: str = "/hook") -> list[tuple[dict[str, str], str]]:
        """`wait_for` for a test whose event loop runs the service: waits without blocking it."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.requests(path)) >= count:
                break
            await asyncio.sleep(0.02)
        return self.wait_for(count, 0, path)
