"""Request ids: each HTTP request and WebSocket connection gets one, the caller's `X-Request-ID` when it is a
safe value, else a new UUID. It is echoed in the response, written on every log line the request causes
(service/logs.py) and recorded on every event the request appends (events.request_id), so one id joins a
client's report, the service's log and the records.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar

HEADER = b"x-request-id"
MAX_LENGTH = 128
# Visible ASCII only, no spaces: a value that cannot split a log line or a header, and fits the column.
_SAFE = re.compile(rf"[\x21-\x7e]{{1,{MAX_LENGTH}}}")

current: ContextVar[str | None] = ContextVar("request_id", default=None)


def accept(value: str | None) -> str:
    """The caller's id when it is safe to log and store as is; otherwise a fresh one (never a refusal: an id
    is for correlation, and a proxy's odd id must not fail the request)."""
    if value is not None and _SAFE.fullmatch(value):
        return value
    return str(uuid.uuid4())


def _from_headers(scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == HEADER:
            return value.decode("latin-1")
    return None


class RequestId:
    """ASGI middleware, outermost: every later middleware, log line and response already has the id."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = accept(_from_headers(scope))
        raw = rid.encode("ascii")

        async def send_with_id(message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                headers = [(k, v) for k, v in message.get("headers") or () if k.lower() != HEADER]
                message = {**message, "headers": [*headers, (HEADER, raw)]}
            await send(message)

        token = current.set(rid)
        await self.app(scope, receive, send_with_id)
        # Reset only after a normal return: an exception goes on to Starlette's outermost error handler
        # (service.api.problems.unexpected), which logs it and answers with this id. Each request runs in a
        # task of its own, so the id goes no further than the request.
        current.reset(token)
