"""A GraphQL subscriber over a real socket: the `websockets` client speaking graphql-transport-ws, with the
token in connection_init as a browser must send it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import websockets

# The payloads these tests produce: the service's own events and Step Dice's notes, every field selected so a
# subscription event can be compared with the REST log's.
EVENTS = """subscription($c: ID!, $a: Int!) {
  campaignEvents(campaignId: $c, after: $a) { seq type description actor { role playerId } createdAt
    data { __typename ... on Untyped { json }
      ... on CampaignCreatedEvent { name system options { json } diceMode language }
      ... on PlayerInvitedEvent { playerId name }
      ... on DiceRolledEvent { purpose diceSession refused { code status detail }
                               dice { sides face source seq purpose } hidden sealed hiddenDice }
      ... on ExpressionRolledEvent { expression label total text tree { json } }
      ... on StepDiceGmNoteEvent { text testId } } } }"""
# Fields the REST payload leaves out when they do not apply (GraphQL answers null).
OMITTED_WHEN_NULL = {"DiceRolledEvent": {"dice_session", "refused", "dice", "hidden", "sealed", "hidden_dice"}}


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {_snake(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


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
        await ws.send(
            json.dumps(
                {
                    "id": "1",
                    "type": "subscribe",
                    "payload": {"query": EVENTS, "variables": {"c": campaign_id, "a": after}},
                }
            )
        )
        yield Subscriber(ws)


def as_rest(event: dict[str, Any]) -> dict[str, Any]:
    """A subscription event in the REST log's shape, to compare the two."""
    data = event["data"]
    kind = data["__typename"]
    if kind == "Untyped":
        payload = data["json"]
    else:
        omitted = OMITTED_WHEN_NULL.get(kind, set())
        # Untyped fields (options, tree) come back as sent: only the selected field names are camelCase.
        payload = {
            _snake(k): v["json"] if k in ("options", "tree") else _plain(v)
            for k, v in data.items()
            if k != "__typename" and not (v is None and _snake(k) in omitted)
        }
    return {
        "seq": event["seq"],
        "type": event["type"],
        "description": event["description"],
        "data": payload,
        "actor": {"role": event["actor"]["role"], "player_id": event["actor"]["playerId"]},
        "created_at": event["createdAt"],
    }
