"""HTTP metrics and the /metrics endpoint (Prometheus text exposition format). The metric objects are in
service/metrics.py."""

from __future__ import annotations

import hmac
import os
import time

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match

from service.game.errors import GameError
from service.i18n.message import _
from service.metrics import MULTIPROC_ENV, REQUEST_SECONDS, REQUESTS

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
UNMATCHED = "unmatched"


def route_template(scope, routes) -> str:
    """The template of the route that took (or would take) this request; never the raw path."""
    route = scope.get("route")
    if route is None:
        # Answered before routing (a rate limit, a body too large): find the route it was meant for.
        for candidate in routes:
            match, _ = candidate.matches({**scope, "type": "http"})
            if match is not Match.NONE:
                route = candidate
                break
    return getattr(route, "path", None) or UNMATCHED


class HttpMetrics:
    """ASGI middleware: a latency histogram and a count per method, route template and status."""

    def __init__(self, app, routes) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = {"code": 500}

        async def send_wrapper(message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            method = scope["method"] if scope["method"] in METHODS else "OTHER"
            route = route_template(scope, self.routes)
            REQUEST_SECONDS.labels(method, route).observe(time.perf_counter() - start)
            REQUESTS.labels(method, route, str(status["code"])).inc()


def _registry() -> CollectorRegistry:
    """This process's metrics; with several worker processes (PROMETHEUS_MULTIPROC_DIR, set up by `rulekeeper
    serve --workers N`), every worker's, so one scrape is the whole server whichever worker answers it."""
    if not os.environ.get(MULTIPROC_ENV):
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


def endpoint(token: str | None):
    """GET /metrics; with a token configured, only for `Authorization: Bearer <token>`."""
    expected = f"Bearer {token}".encode() if token else None

    async def metrics(request: Request) -> Response:
        if expected is not None:
            given = request.headers.get("authorization", "").encode("latin-1", "replace")
            if not hmac.compare_digest(given, expected):
                raise GameError(
                    401,
                    "metrics_token_required",
                    _("this deployment requires its metrics token (RULEKEEPER_METRICS_TOKEN) to read metrics"),
                )
        return Response(generate_latest(_registry()), media_type=CONTENT_TYPE_LATEST)

    return metrics
