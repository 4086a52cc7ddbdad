"""The /metrics endpoint (Prometheus text exposition format) and the route template HTTP metrics are counted by
(service/api/edge.py counts them). The metric objects are in service/metrics.py."""

from __future__ import annotations

import hmac
import os

from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest, multiprocess
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match

from service.game.errors import GameError
from service.i18n.message import _
from service.metrics import MULTIPROC_ENV

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
