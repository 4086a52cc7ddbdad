"""Where a webhook may send: public addresses only, and loopback when the deployment allows it.

Private, link-local, multicast, reserved and shared ranges are never reached, so a GM cannot point the
service at the cloud metadata endpoint or an internal admin page (SSRF). The check runs when a URL is
registered and again on every connection, on the very addresses the connection then uses: a name that
resolves somewhere else by delivery time (DNS rebinding) is refused too. Redirects are never followed,
and proxy variables from the environment are ignored.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
import ssl
from urllib.parse import urlsplit

import certifi
import httpcore
import httpx

from service.game.errors import invalid
from service.i18n.message import _, _n

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
MAX_URL = 2048


def address_allowed(ip: Address, allow_loopback: bool) -> bool:
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return address_allowed(ip.ipv4_mapped, allow_loopback)
        if ip.sixtofour is not None and not address_allowed(ip.sixtofour, allow_loopback):
            return False
    if ip.is_loopback:
        return allow_loopback
    return ip.is_global and not (ip.is_private or ip.is_reserved or ip.is_multicast or ip.is_link_local)


def split(url: str) -> tuple[str, int]:
    """The host and port of an http(s) URL; a 422 naming `url` for anything else."""
    if len(url) > MAX_URL or any(ord(ch) <= 32 or ord(ch) == 127 for ch in url):
        raise invalid(
            "invalid_webhook_url",
            _n(
                "a webhook URL is at most {max_url} character, without spaces",
                "a webhook URL is at most {max_url} characters, without spaces",
                MAX_URL,
                max_url=MAX_URL,
            ),
            "url",
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise invalid("invalid_webhook_url", _("not a valid URL: {exc}", exc=exc), "url") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise invalid("invalid_webhook_url", _("a webhook URL is http:// or https:// with a host"), "url")
    return parts.hostname, port or (443 if parts.scheme == "https" else 80)


async def resolve(host: str, port: int) -> list[Address]:
    """Every address the host stands for (a literal address stands for itself)."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    out: list[Address] = []
    for info in infos:
        ip = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if ip not in out:
            out.append(ip)
    return out


async def check_url(url: str, allow_loopback: bool) -> None:
    """At registration: the URL is well formed and every address its host resolves to may be reached."""
    host, port = split(url)
    try:
        addresses = await resolve(host, port)
    except OSError:
        raise invalid("webhook_url_unresolvable", _("the host {host!r} does not resolve", host=host), "url") from None
    refused = [a for a in addresses if not address_allowed(a, allow_loopback)]
    if refused or not addresses:
        if not refused:
            detail = _("the host {host!r} resolves to no address: webhooks go only to public addresses", host=host)
        elif allow_loopback:
            detail = _(
                "the host {host!r} resolves to {address}: webhooks go only to public addresses",
                host=host,
                address=str(refused[0]),
            )
        else:
            detail = _(
                "the host {host!r} resolves to {address}: webhooks go only to public addresses (loopback "
                "needs RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK)",
                host=host,
                address=str(refused[0]),
            )
        raise invalid("webhook_url_forbidden", detail, "url")


class Refused(httpcore.ConnectError):
    """A connection to an address webhooks may not reach."""


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """Resolves the host itself, checks every address, and connects only to a checked one."""

    def __init__(self, allow_loopback: bool) -> None:
        self._inner = httpcore.AnyIOBackend()
        self._allow_loopback = allow_loopback

    async def connect_tcp(
        self, host: str, port: int, timeout: float | None = None, local_address: str | None = None, socket_options=None
    ) -> httpcore.AsyncNetworkStream:
        # `timeout` is the client's connect timeout; it covers resolving and every address tried, not each one.
        try:
            async with asyncio.timeout(timeout):
                return await self._connect(host, port, local_address, socket_options)
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"{host} not reached within {timeout:g}s") from None

    async def _connect(
        self, host: str, port: int, local_address: str | None, socket_options
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await resolve(host, port)
        except OSError as exc:
            raise httpcore.ConnectError(f"{host} does not resolve: {exc}") from None
        refused = [a for a in addresses if not address_allowed(a, self._allow_loopback)]
        if refused or not addresses:
            raise Refused(f"refused: {host} resolves to {refused[0] if refused else 'nowhere'}, not a public address")
        last: Exception | None = None
        for ip in addresses:
            try:
                return await self._inner.connect_tcp(
                    str(ip), port, local_address=local_address, socket_options=socket_options
                )
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        assert last is not None
        raise last

    async def connect_unix_socket(self, path, timeout=None, socket_options=None):  # pragma: no cover
        raise Refused("webhooks are sent over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


@functools.cache
def _tls() -> ssl.SSLContext:
    """One per process, shared by every client: reading the CA bundle takes tens of milliseconds, and each app
    starts a webhook client (every test's app, every worker of a replica)."""
    return ssl.create_default_context(cafile=certifi.where())


class GuardedTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport, whose connection pool dials through GuardedBackend."""

    def __init__(self, allow_loopback: bool) -> None:
        super().__init__(verify=_tls(), trust_env=False)
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=_tls(),
            max_connections=100,
            max_keepalive_connections=20,
            keepalive_expiry=5.0,
            network_backend=GuardedBackend(allow_loopback),
        )


def client(allow_loopback: bool, timeout: float, connect_timeout: float | None = None) -> httpx.AsyncClient:
    """`connect_timeout` bounds resolving and connecting (an address that drops packets gives up early);
    `timeout` every other phase."""
    return httpx.AsyncClient(
        transport=GuardedTransport(allow_loopback),
        follow_redirects=False,
        trust_env=False,
        timeout=httpx.Timeout(timeout, connect=connect_timeout or timeout),
    )
