"""A GraphQL subscriber over a real socket: the `websockets` client speaking graphql-transport-ws, with the
token in connection_init as a browser must send it."""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets

EVENTS = """subscription($c: String!, $a: Int!) {
  campaignEvents(campaignId: $c, after: $a) { seq type description data actor { role playerId } createdAt } }"""


class Subscriber:
    def __init__(self, ws) -> None:
        self.ws = ws

    async def next(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next event; fails on an error message or when nothing comes within `timeout`."""
        while True:
            msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if msg["type"] == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            if msg["type"] == "next" and not msg["payload"].get("errors"):
                return msg["payload"]["data"]["campaignEvents"]
            raise AssertionError(f"subscription failed: {msg}")

    async def until(self, seq: int, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Every event up to and including `seq`."""
        got: list[dict[str, Any]] = []
        while not got or got[-1]["seq"] < seq:
            got.append(await self.next(timeout))
        return got

    async def nothing_within(self, seconds: float) -> bool:
        try:
            await self.next(seconds)
        except (TimeoutError, asyncio.TimeoutError):
            return True
        return False


@asynccontextmanager
async def subscribe(base_url: str, token: str, campaign_id: str, after: int = 0) -> AsyncIterator[Subscriber]:
    url = base_url.replace("http://", "ws://", 1) + "/graphql"
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
        ack = json.loads(await asyncio.wait_for(ws.recv(), 10))
        assert ack["type"] == "connection_ack", ack
        await ws.send(json.dumps({"id": "1", "type": "subscribe",
                                  "payload": {"query": EVENTS, "variables": {"c": campaign_id, "a": after}}}))
        yield Subscriber(ws)


def as_rest(event: dict[str, Any]) -> dict[str, Any]:
    """A subscription event in the REST log's shape, to compare the two."""
    return {"seq": event["seq"], "type": event["type"], "description": event["description"], "data": event["data"],
            "actor": {"role": event["actor"]["role"], "player_id": event["actor"]["playerId"]},
            "created_at": event["createdAt"]}
