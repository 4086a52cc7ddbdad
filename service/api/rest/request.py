"""What a REST handler gets: the services, the caller's token, the path, the query and a parsed body."""

import asyncio
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from starlette.requests import Request

from service.api import jsoninput
from service.api.bodies import parse
from service.game.context import Services
from service.game.errors import GameError
from service.i18n.message import _


@dataclass
class Call:
    request: Request
    svc: Services
    token: str | None
    path: dict[str, Any]
    body: Any

    def query_int(self, name: str, default: int, *, minimum: int = 0, maximum: int | None = None) -> int:
        raw = self.request.query_params.get(name)
        if raw is None:
            return default
        try:
            value = int(raw)
        except ValueError:
            raise GameError(400, "invalid_query", _("`{name}` must be an integer", name=name), field=name) from None
        if value < minimum or (maximum is not None and value > maximum):
            detail = (
                _("`{name}` must be between {minimum} and {maximum}", name=name, minimum=minimum, maximum=maximum)
                if maximum is not None
                else _("`{name}` must be at least {minimum}", name=name, minimum=minimum)
            )
            raise GameError(400, "invalid_query", detail, field=name)
        return value


def bearer(request: Request) -> str | None:
    value = request.headers.get("authorization", "")
    scheme, _, token = value.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


async def read_json(request: Request) -> Any:
    """The body as checked JSON. Its size was limited while it arrived (service.api.guard)."""
    return decode(await request.body(), request.headers.get("content-type", ""))


def decode(raw: bytes, ctype: str) -> Any:
    if raw and "json" not in ctype:
        raise GameError(415, "unsupported_media_type", _("send the body as application/json"), field="Content-Type")
    if not raw:
        raise GameError(422, "invalid_input", _("a JSON body is required"), field="body")
    return jsoninput.loads(raw)


# A body this large (a campaign document) is parsed and checked on a worker thread, not on the event loop.
LARGE_BODY = 256 * 1024


async def read_and_parse(request: Request, model: type[BaseModel]) -> tuple[Any, BaseModel]:
    raw = await request.body()
    ctype = request.headers.get("content-type", "")

    def both() -> tuple[Any, BaseModel]:
        data = decode(raw, ctype)
        return data, parse(model, data)

    return await asyncio.to_thread(both) if len(raw) > LARGE_BODY else both()
