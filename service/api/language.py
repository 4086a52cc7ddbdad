"""ASGI middleware: notes the request's Accept-Language before anything can refuse it, and says in the
response which language it was answered in (`Content-Language`) and that the answer varies with the header."""

from __future__ import annotations

from service.i18n import SUPPORTED, context
from service.i18n.catalogue import translations

HEADER = b"accept-language"


def _header(scope) -> str | None:
    for name, value in scope.get("headers") or ():
        if name == HEADER:
            return value.decode("latin-1")
    return None


class Language:
    def __init__(self, app) -> None:
        self.app = app
        # Read the catalogues now (about a tenth of a second), not on the first request that needs one.
        for language in SUPPORTED:
            translations(language)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        choice = context.begin(_header(scope), socket=scope["type"] == "websocket")
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_language(message) -> None:
            if message["type"] == "http.response.start":
                # Decided now: the handler has met the caller and noted their stored preferences.
                headers = [
                    (k, v) for k, v in message.get("headers") or () if k.lower() not in (b"content-language", b"vary")
                ]
                vary = [v for k, v in message.get("headers") or () if k.lower() == b"vary"]
                headers.append((b"content-language", choice.language.encode("ascii")))
                headers.append((b"vary", b", ".join([*vary, b"Accept-Language"])))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_language)
