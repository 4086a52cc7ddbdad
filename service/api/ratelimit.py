"""Rate limits: per bearer token, per client address, and a stricter budget for failed authentication.

Every request (and WebSocket handshake, and each operation started on a WebSocket: see
service.api.graphql.app) except /healthz and /readyz takes one from its address's bucket and, when it carries
a bearer token, one from the token's bucket, in one call to the bucket store (decided in this process; with
Redis, shared with the other replicas in the background: service/store/buckets.py). Each token the service
refuses then takes one from the address's failed-authentication bucket; once that one is empty, the address's
requests that carry a token are refused until it refills, whichever API they use. A refusal is a 429 problem
with Retry-After.

The client address is the connection's peer as the ASGI server reports it; behind a proxy, let the
server take it from X-Forwarded-For of trusted proxies only (uvicorn --proxy-headers with
--forwarded-allow-ips; `rulekeeper serve` trusts 127.0.0.1), never from the header of anyone else.
"""

from __future__ import annotations

import ipaddress
import math

from service.api.problems import GRAPHQL_PATH, problem
from service.game.auth import AuthFailures, auth_failures
from service.game.tokens import hash_token
from service.i18n.message import _
from service.settings import Settings
from service.store.buckets import Bucket, Buckets

EXEMPT = frozenset({"/healthz", "/readyz"})


def _bearer(scope) -> str | None:
    for name, value in scope["headers"]:
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() or None if scheme.lower() == "bearer" else None
    return None


def client_key(host: str) -> str:
    """An IPv6 client is its /64: that is what one subscriber gets, and taking a new address from it is free."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if ip.version == 6:
        if ip.ipv4_mapped:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


class Budgets:
    """Which buckets a request takes from, for the middleware and for each operation on a WebSocket."""

    def __init__(self, settings: Settings) -> None:
        self.per_token = settings.rate_per_token
        self.per_address = settings.rate_per_address
        self.on_failure = settings.rate_auth_failures
        self.enabled = any((self.per_token, self.per_address, self.on_failure))

    def request(self, address: str, token: str | None, *, credentials: bool) -> list[Bucket]:
        buckets = []
        if self.per_address:
            buckets.append(Bucket(f"address:{address}", self.per_address))
        if self.per_token and token:
            buckets.append(Bucket(f"token:{hash_token(token)[:32]}", self.per_token))
        if self.on_failure and credentials:
            buckets.append(Bucket(f"auth-failures:{address}", self.on_failure, charge=False))
        return buckets

    def failures(self, address: str, count: int) -> list[Bucket]:
        if not (self.on_failure and count):
            return []
        return [Bucket(f"auth-failures:{address}", self.on_failure, cost=min(count, self.on_failure.burst))]


def store_of(app) -> Buckets | None:
    return getattr(app.state, "rate_buckets", None)


def retry_after(wait: float) -> int:
    return max(1, math.ceil(wait))


class RateLimit:
    def __init__(self, app, settings: Settings) -> None:
        self.app = app
        self.budgets = Budgets(settings)

    async def __call__(self, scope, receive, send) -> None:
        store = store_of(scope["app"]) if "app" in scope else None
        if (
            not self.budgets.enabled
            or store is None
            or scope["type"] not in ("http", "websocket")
            or scope["path"] in EXEMPT
        ):
            await self.app(scope, receive, send)
            return
        address = client_key((scope.get("client") or ("unknown", 0))[0])
        token = _bearer(scope)
        # A WebSocket's token comes later, in its first message: a handshake counts as presenting one.
        wait = await store.take(
            self.budgets.request(address, token, credentials=bool(token) or scope["type"] == "websocket")
        )
        if wait > 0:
            await self._refuse(scope, receive, send, wait)
            return
        failures = AuthFailures()
        reset = auth_failures.set(failures)
        try:
            await self.app(scope, receive, send)
        finally:
            auth_failures.reset(reset)
            if failures.count:
                await store.take(self.budgets.failures(address, failures.count))

    async def _refuse(self, scope, receive, send, wait: float) -> None:
        seconds = retry_after(wait)
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013})  # try again later; before accept: a 403
            return
        response = problem(
            429,
            "rate_limited",
            _("too many requests; retry in {seconds} s", seconds=seconds),
            extra={"retry_after": seconds},
            headers={"Retry-After": str(seconds)},
            graphql=scope["path"] == GRAPHQL_PATH,
        )
        await response(scope, receive, send)
