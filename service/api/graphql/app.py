"""GraphQL over HTTP and WebSocket (graphql-transport-ws), routed at the exact path /graphql."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any, cast

import orjson
from cross_web import HTTPException
from graphql import GraphQLError
from starlette.requests import Request
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from strawberry.asgi import GraphQL
from strawberry.http.async_base_view import AsyncWebSocketAdapter
from strawberry.subscriptions import GRAPHQL_TRANSPORT_WS_PROTOCOL
from strawberry.subscriptions.protocols.graphql_transport_ws.handlers import BaseGraphQLTransportWSHandler

from service.api import jsoninput
from service.api.graphql.schema import schema_for
from service.api.problems import problem
from service.api.ratelimit import Budgets, client_key, retry_after, store_of
from service.game.errors import GameError
from service.game.moves.access import Glances
from service.game.tokens import hash_token
from service.i18n import SUPPORTED
from service.i18n import context as i18n_context
from service.i18n import validation
from service.i18n.message import _, _n
from service.i18n.render import render
from service.settings import Settings

HTTP_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


class Refused(json.JSONDecodeError):
    """A body or message that parses as JSON but may not be used (see service.api.jsoninput). A
    JSONDecodeError so that strawberry refuses it where it refuses malformed JSON (a 400 on HTTP, a 4400
    close on a WebSocket); `error` says why."""

    def __init__(self, error: GameError) -> None:
        super().__init__(error.detail, "", 0)
        self.error = error


class TooManySockets(Exception):
    pass


class UnknownLanguage(Exception):
    pass


class SocketCount:
    """Sockets open per token (per client address for sockets without one), in this process."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def acquire(self, key: str) -> bool:
        if self.open[key] >= self.limit:
            return False
        self.open[key] += 1
        return True

    def release(self, key: str) -> None:
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]


def _well_formed(message) -> bool:
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return False
    if message["type"] in ("subscribe", "complete", "next", "error") and not isinstance(message.get("id"), str):
        return False
    if message["type"] == "subscribe":
        payload = message.get("payload")
        return (
            isinstance(payload, dict)
            and isinstance(payload.get("query"), str)
            and isinstance(payload.get("variables"), (dict, type(None)))
            and isinstance(payload.get("operationName"), (str, type(None)))
        )
    return True


class _TranslatedClose:
    """The socket as the protocol handler sees it, closing with its reason in the caller's language."""

    def __init__(self, websocket) -> None:
        self._websocket = websocket

    def __getattr__(self, name: str):
        return getattr(self._websocket, name)

    async def close(self, code: int, reason: str | None = None) -> None:
        if reason:
            reason = validation.fit_close_reason(render(validation.close_reason(reason)))
        await self._websocket.close(code=code, reason=reason)


class LimitedTransportWS(BaseGraphQLTransportWSHandler[dict[str, Any], None]):
    view: RulekeeperGraphQL  # the handler class below is only ever given its own view

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Every attribute but close() is the adapter's own.
        self.websocket = cast(AsyncWebSocketAdapter, _TranslatedClose(self.websocket))

    async def handle_message(self, message) -> None:
        # strawberry trusts the shape (indexes, hashes, measures it): a wrong one killed the socket with a TypeError.
        if not _well_formed(message):
            # A close reason may hold 123 bytes (cut to fit, in any language).
            await self.handle_invalid_message(
                _("malformed message: an object with a string type (and id, and a payload with a string query)")
            )
            return
        await super().handle_message(message)

    async def handle_connection_init(self, message) -> None:
        try:
            await super().handle_connection_init(message)
        except TooManySockets:
            await self.websocket.close(
                code=4429,
                reason=_n(
                    "at most {limit} socket per token",
                    "at most {limit} sockets per token",
                    self.view.sockets.limit,
                    limit=self.view.sockets.limit,
                ),
            )
        except UnknownLanguage:
            await self.websocket.close(
                code=4400, reason=_("language is one of {languages}", languages=", ".join(SUPPORTED))
            )

    async def handle_subscribe(self, message) -> None:
        if self.connection_acknowledged and message["id"] not in self.operations:
            # strawberry answers the same limit with an error that has no code; this one has.
            limit = self.max_subscriptions_per_connection
            if limit is not None and len(self.operations) >= limit:
                await self._refuse(
                    message,
                    _n(
                        "at most {limit} operation may run at once on one socket",
                        "at most {limit} operations may run at once on one socket",
                        limit,
                        limit=limit,
                    ),
                    code="too_many_subscriptions",
                    limit=limit,
                )
                return
            # Queries and mutations run over a socket too: each operation takes from the budgets as a request does.
            wait = await self._take_budget()
            if wait > 0:
                seconds = retry_after(wait)
                await self._refuse(
                    message,
                    _("too many requests; retry in {seconds} s", seconds=seconds),
                    code="rate_limited",
                    retry_after=seconds,
                )
                return
        await super().handle_subscribe(message)

    async def _take_budget(self) -> float:
        ws = self.context.get("request")
        store = store_of(ws.app) if ws is not None else None
        if ws is None or store is None or not self.view.budgets.enabled:
            return 0.0
        token = self.context.get("token")
        address = client_key(ws.client.host if ws.client else "unknown")
        return await store.take(self.view.budgets.request(address, token, credentials=bool(token)))

    async def _refuse(self, message, text: str, **extensions) -> None:
        error = GraphQLError(render(text), extensions=extensions)
        await self.send_message({"id": message["id"], "type": "error", "payload": [error.formatted]})

    async def shutdown(self) -> None:
        try:
            await super().shutdown()
        finally:
            key = self.context.pop("socket_key", None) if isinstance(self.context, dict) else None
            if key is not None:
                self.view.sockets.release(key)


class RulekeeperGraphQL(GraphQL[dict[str, Any], None]):
    graphql_transport_ws_handler_class = LimitedTransportWS

    def __init__(self, schema, *, max_sockets: int, budgets: Budgets, **kwargs) -> None:
        super().__init__(schema, **kwargs)
        self.sockets = SocketCount(max_sockets)
        self.budgets = budgets

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        # As strawberry's own __call__, but every refusal is a problem that is also a GraphQL response.
        try:
            response = await self.run(Request(scope=scope, receive=receive))
        except GameError as exc:  # the body grew past the limit while it was read (service.api.guard)
            response = problem(exc.status, exc.code, exc.detail, field=exc.field, graphql=True)
        except HTTPException as exc:
            cause = exc.__cause__
            if isinstance(cause, Refused):
                e = cause.error
                response = problem(e.status, e.code, e.detail, field=e.field, graphql=True)
            else:
                code = (
                    "invalid_json"
                    if isinstance(cause, json.JSONDecodeError)
                    else HTTP_CODES.get(exc.status_code, "bad_request")
                )
                response = problem(exc.status_code, code, exc.reason, graphql=True)
        await response(scope, receive, send)

    async def parse_http_body(self, request):
        try:
            return await super().parse_http_body(request)
        except AttributeError:  # strawberry reads the body with .get(): a JSON string, number or null
            raise HTTPException(
                400, 'a GraphQL request is a JSON object, like {"query": "{ systems { id } }"}'
            ) from None

    def encode_json(self, data: object) -> str:
        # orjson, as REST replies are written (a table's every field is a large reply). A string, not bytes: on a
        # WebSocket strawberry would send bytes as a binary frame, which graphql-transport-ws does not allow.
        try:
            return orjson.dumps(data).decode()
        except TypeError:  # what orjson refuses (an integer past 64 bits) json still writes
            return json.dumps(data, separators=(",", ":"))

    def decode_json(self, data: str | bytes) -> object:
        try:
            return jsoninput.loads(data)
        except GameError as exc:
            raise Refused(exc) from None

    async def get_context(self, request, response=None) -> dict[str, Any]:
        token = None
        auth = request.headers.get("authorization", "") if hasattr(request, "headers") else ""
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            token = value.strip()
        context = {"request": request, "response": response, "services": request.app.state.services, "token": token}
        if not isinstance(request, WebSocket):
            # One query per HTTP request: its fields share their first look at a campaign. A WebSocket's context
            # lasts for every operation it carries, and each of those must read afresh.
            context["glances"] = Glances()
        return context

    async def on_ws_connect(self, context: dict[str, Any]):
        # Browsers cannot set headers on a WebSocket: take the token and the language from the connection_init payload.
        params = context.get("connection_params")
        params = params if isinstance(params, dict) else {}
        auth = params.get("authorization") or params.get("Authorization")
        if isinstance(auth, str):
            context["token"] = auth.partition(" ")[2].strip() if auth.lower().startswith("bearer ") else auth
        language = params.get("language")
        if language is not None:
            if not isinstance(language, str) or language.strip().lower() not in SUPPORTED:
                raise UnknownLanguage
            i18n_context.ask(language.strip().lower())
        token = context.get("token")
        client = getattr(context.get("request"), "client", None)
        key = "token:" + hash_token(token) if token else "address:" + client_key(client.host if client else "unknown")
        if not self.sockets.acquire(key):
            raise TooManySockets
        context["socket_key"] = key
        return None


def graphql_routes(settings: Settings | None = None) -> list:
    settings = settings or Settings()
    # A browser's handshake carries its page's Origin and no CORS applies to it: the same list decides.
    app = RulekeeperGraphQL(
        schema_for(settings),
        subscription_protocols=[GRAPHQL_TRANSPORT_WS_PROTOCOL],
        allowed_origins=settings.cors_origins,
        max_subscriptions_per_connection=settings.graphql_max_subscriptions,
        max_sockets=settings.graphql_max_sockets,
        budgets=Budgets(settings),
    )
    return [Route("/graphql", app, methods=["GET", "POST"]), WebSocketRoute("/graphql", app)]
