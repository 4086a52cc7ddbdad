"""The edge of every request, the outermost middleware: the request's id (service/requestid.py), its language
(service/i18n), its metrics (service/metrics.py) and its line in the access log.

One layer, not four: each of the four wrapped the request and its `send` in a layer of its own, a coroutine call
and a copy of the answer's headers each, which cost more than the work they did. The middleware's cost
(benchmarks/middleware_bench.py: the whole app less the router alone), five runs alternating with the four
layers: GET /healthz 31 µs against 40 (medians), a logged and gzipped read 128 against 138; GET …/state served
on PostgreSQL + Redis (wrk, 32 tables), six runs: 0.34 against 0.36 ms of server CPU per read (medians), less in
five of the six.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from prometheus_client.metrics import Counter, Histogram

from service import requestid
from service.i18n import SUPPORTED, context
from service.i18n.catalogue import translations
from service.logs import printable
from service.metrics import REQUEST_SECONDS, REQUESTS

from service.api.httpmetrics import METHODS, route_template

log = logging.getLogger("rulekeeper")
LANGUAGE = b"accept-language"
# Answered every few seconds to every kubelet and Prometheus: logged at DEBUG while they pass.
QUIET = frozenset({"/healthz", "/readyz", "/metrics"})
# Set on every answer, from this layer's own values: whatever an inner layer set is replaced.
_REPLACED = frozenset({requestid.HEADER, b"content-language", b"vary"})


def _asked(scope) -> tuple[str | None, str | None]:
    """The caller's X-Request-ID and Accept-Language, in one pass over the headers."""
    rid = language = None
    for name, value in scope.get("headers") or ():
        if name == requestid.HEADER:
            rid = value.decode("latin-1")
        elif name == LANGUAGE:
            language = value.decode("latin-1")
    return rid, language


class Edge:
    """Every HTTP request and WebSocket gets its id (echoed as X-Request-ID, on every log line it causes) and its
    language (noted before anything can refuse it; said as Content-Language, with `Vary: Accept-Language`); every
    HTTP request is measured (a latency histogram and a count per method, route template and status) and logged
    (method, path, status, milliseconds; the path is the decoded one, so a client's %0a would start a new line: it
    is logged escaped)."""

    def __init__(self, app, routes) -> None:
        self.app = app
        self.routes = routes
        # The metrics' children per label values, as prometheus_client's `labels` finds them under a lock each time.
        self._seconds: dict[tuple[str, str], Histogram] = {}
        self._counts: dict[tuple[str, str, int], Counter] = {}
        # Read the catalogues now (about a tenth of a second), not on the first request that needs one.
        for language in SUPPORTED:
            translations(language)

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind == "http":
            await self._http(scope, receive, send)
        elif kind == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope, receive, send) -> None:
        asked_id, asked_language = _asked(scope)
        rid = requestid.accept(asked_id)
        raw_id = rid.encode("ascii")
        choice = context.begin(asked_language)
        start = time.perf_counter()
        status = 500

        async def answer(message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                # Decided now: the handler has met the caller and noted their stored preferences.
                message = {**message, "headers": _headers(message.get("headers"), raw_id, choice.language)}
            await send(message)

        token = requestid.current.set(rid)
        try:
            await self.app(scope, receive, answer)
        finally:
            self._done(scope, status, time.perf_counter() - start)
        # Reset only after a normal return: an exception goes on to Starlette's outermost error handler
        # (service.api.problems.unexpected), which logs it and answers with this id. Each request runs in a task of
        # its own, so the id goes no further than the request.
        requestid.current.reset(token)

    async def _websocket(self, scope, receive, send) -> None:
        asked_id, asked_language = _asked(scope)
        rid = requestid.accept(asked_id)
        raw_id = rid.encode("ascii")
        context.begin(asked_language, socket=True)

        async def accept(message) -> None:
            if message["type"] == "websocket.accept":
                headers = [(k, v) for k, v in message.get("headers") or () if k.lower() != requestid.HEADER]
                message = {**message, "headers": [*headers, (requestid.HEADER, raw_id)]}
            await send(message)

        token = requestid.current.set(rid)
        await self.app(scope, receive, accept)
        requestid.current.reset(token)

    def _done(self, scope, status: int, seconds: float) -> None:
        method = scope["method"] if scope["method"] in METHODS else "OTHER"
        route = route_template(scope, self.routes)
        histogram = self._seconds.get((method, route))
        if histogram is None:
            histogram = self._seconds[method, route] = REQUEST_SECONDS.labels(method, route)
        histogram.observe(seconds)
        counter = self._counts.get((method, route, status))
        if counter is None:
            counter = self._counts[method, route, status] = REQUESTS.labels(method, route, str(status))
        counter.inc()
        level = logging.DEBUG if scope["path"] in QUIET and status == 200 else logging.INFO
        if log.isEnabledFor(level):
            method, path, ms = printable(scope["method"]), printable(scope["path"]), seconds * 1000
            log.log(
                level,
                "%s %s %s %.1fms",
                method,
                path,
                status,
                ms,
                extra={"method": method, "path": path, "status": status, "duration_ms": round(ms, 1)},
            )


def _headers(headers: Any, raw_id: bytes, language: str) -> list[tuple[bytes, bytes]]:
    """The answer's headers with the edge's own: its language, that it varies with Accept-Language (besides
    whatever else it varies with), and the request's id."""
    kept, vary = [], []
    for name, value in headers or ():
        lower = name.lower()
        if lower == b"vary":
            vary.append(value)
        elif lower not in _REPLACED:
            kept.append((name, value))
    kept += [
        (b"content-language", language.encode("ascii")),
        (b"vary", b", ".join([*vary, b"Accept-Language"])),
        (requestid.HEADER, raw_id),
    ]
    return kept
