"""The web table: a page at `/` that plays any campaign through the public API, like any other front end.

Plain ES modules and CSS under static/, shipped in the wheel as they are written (no build step, nothing
fetched from elsewhere). The page talks to the API it was served by, or to the one named by `?api=`."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

STATIC = Path(__file__).with_name("static")

# The page runs only its own files; it may call any API (`?api=`), and a token never leaves in a Referer.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' http: https: ws: wss:; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}


async def index(_: Request) -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html; charset=utf-8", headers=HEADERS)


class Assets(StaticFiles):
    def file_response(self, *args, **kwargs):
        response = super().file_response(*args, **kwargs)
        response.headers.update(HEADERS)
        return response


def web_routes() -> list:
    return [Route("/", index, methods=["GET"]), Mount("/static", app=Assets(directory=STATIC), name="static")]
