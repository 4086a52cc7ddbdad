"""RFC 9457 problem details: the one shape every refused request takes."""

from __future__ import annotations

import logging
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from service import requestid
from service.game.errors import GameError
from service.i18n.message import N_, _
from service.i18n.render import render
from service.logs import printable

log = logging.getLogger("rulekeeper.errors")

TITLES = {
    400: N_("Bad request"),
    401: N_("Unauthorized"),
    403: N_("Forbidden"),
    404: N_("Not found"),
    405: N_("Method not allowed"),
    409: N_("Conflict"),
    412: N_("Precondition failed"),
    413: N_("Payload too large"),
    415: N_("Unsupported media type"),
    422: N_("Unprocessable content"),
    429: N_("Too many requests"),
    500: N_("Internal server error"),
    503: N_("Service unavailable"),
}
GRAPHQL_PATH = "/graphql"


class ProblemResponse(JSONResponse):
    media_type = "application/problem+json"


def extensions(status: int, code: str, field: str | None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A refusal's members as a GraphQL error's `extensions` carry them: the problem's, by the same names."""
    return {"code": code, "status": status, "field": field, **(extra or {})}


def problem(
    status: int,
    code: str,
    detail: str,
    *,
    field: str | None = None,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    graphql: bool = False,
) -> ProblemResponse:
    """`graphql`: also a GraphQL response (an `errors` list with `extensions.code`), for refusals on
    /graphql that happen before GraphQL runs (too large, too many requests, not JSON). `detail` and `title`
    are rendered in the request's language; `code` and the field names never change with it."""
    detail = render(detail)
    body: dict[str, Any] = {
        "type": f"https://rulekeeper.dev/problems/{code}",
        "title": render(TITLES.get(status, N_("Error"))),
        "status": status,
        "detail": detail,
        "code": code,
    }
    if field:
        body["field"] = field
    if extra:
        body.update(extra)
    if graphql:
        body["errors"] = [{"message": detail, "extensions": extensions(status, code, field, extra)}]
    if status == 401:
        headers = {**(headers or {}), "WWW-Authenticate": 'Bearer realm="rulekeeper"'}
    return ProblemResponse(body, status_code=status, headers=headers)


async def game_error(_: Request, exc: GameError) -> ProblemResponse:
    retry = exc.extra.get("retry_after")
    return problem(
        exc.status,
        exc.code,
        exc.detail,
        field=exc.field,
        extra=exc.extra,
        headers={"Retry-After": str(retry)} if retry is not None else None,
    )


async def http_error(_: Request, exc: HTTPException) -> ProblemResponse:
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    # Starlette's own phrase ("Not Found"): rendered as plain text, which the catalogues carry
    # (service/i18n/library.py).
    return problem(exc.status_code, code, str(exc.detail), headers=getattr(exc, "headers", None))


async def unexpected(request: Request, exc: Exception) -> ProblemResponse:
    log.exception("unhandled error on %s %s", printable(request.method), printable(request.url.path))
    # Answered outside the middleware that echoes the request id (service/requestid.py): echo it here, so the
    # caller can quote the id of the logged traceback.
    rid = requestid.current.get()
    return problem(
        500,
        "internal_error",
        _("the service failed; this is a bug and has been logged"),
        headers={"X-Request-ID": rid} if rid else None,
    )
