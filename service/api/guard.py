"""The first look at every request, before any handler: sizes and characters no handler should see.

- A body is limited while it arrives: a declared Content-Length over the limit is refused before a
  byte is read, and a chunked body is counted chunk by chunk, so no request can make the process
  hold more than the limit (plus the server's own small read buffer). 413 problem+json.
- A WebSocket message over the same limit closes the socket with 1009 (message too big).
- Header values with control characters (RFC 9110 forbids them; some ASGI servers pass them on) are
  400: they would otherwise reach the database as an Idempotency-Key or similar.
- A path with control characters (a decoded %00 or %0a) names no resource: 404, before any handler
  turns it into a database query.
"""

from __future__ import annotations

import re

from service.api.problems import GRAPHQL_PATH, problem
from service.game.errors import GameError
from service.i18n.message import _, _n

_CTL_BYTES = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
_CTL = re.compile("[\x00-\x1f\x7f]")


def too_large(limit: int) -> GameError:
    return GameError(
        413,
        "payload_too_large",
        _n(
            "request bodies are limited to {limit} byte",
            "request bodies are limited to {limit} bytes",
            limit,
            limit=limit,
        ),
        field="body",
    )


class RequestGuard:
    def __init__(self, app, max_body_bytes: int, larger: dict[str, int] | None = None) -> None:
        """`larger`: paths whose bodies may be bigger (a campaign document to import)."""
        self.app = app
        self.default = max_body_bytes
        self.larger = larger or {}

    def limit(self, scope) -> int:
        return self.larger.get(scope["path"], self.default) if scope["type"] == "http" else self.default

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _refusal(self, scope) -> GameError | None:
        for name, value in scope["headers"]:
            if _CTL_BYTES.search(value):
                header = name.decode("latin-1")
                return GameError(
                    400,
                    "invalid_header",
                    _("the {header} header contains control characters", header=header),
                    field=header,
                )
            if name == b"content-length" and value.strip().isdigit() and int(value) > self.limit(scope):
                return too_large(self.limit(scope))
        if _CTL.search(scope["path"]):
            return GameError(404, "not_found", _("no resource has control characters in its path"))
        return None

    async def _http(self, scope, receive, send) -> None:
        refused = self._refusal(scope)
        if refused is not None:
            response = problem(
                refused.status, refused.code, refused.detail, field=refused.field, graphql=scope["path"] == GRAPHQL_PATH
            )
            await response(scope, receive, send)
            return
        seen, limit = 0, self.limit(scope)

        async def counted():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    # Raised inside whatever is reading the body: the REST handler or the GraphQL view
                    # turns it into the 413, and nothing more of the body is read.
                    raise too_large(limit)
            return message

        await self.app(scope, counted, send)

    async def _websocket(self, scope, receive, send) -> None:
        closed = False

        async def checked():
            nonlocal closed
            message = await receive()
            if message["type"] == "websocket.receive" and _size(message) > self.default:
                closed = True
                await send({"type": "websocket.close", "code": 1009, "reason": "message too big"})
                return {"type": "websocket.disconnect", "code": 1009}
            return message

        async def guarded_send(message) -> None:
            if not closed:  # after our close, the application's last words have no socket to go to
                await send(message)

        await self.app(scope, checked, guarded_send)


def _size(message) -> int:
    if message.get("bytes") is not None:
        return len(message["bytes"])
    text = message.get("text") or ""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))
