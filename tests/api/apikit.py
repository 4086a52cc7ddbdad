"""A tiny client vocabulary for API tests, so each test reads as the rule it checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


ROGUE = {
    "name": "Szept",
    "role": "rogue",
    "talents": ["Scout", "Negotiator"],
    "equipment": {"weapon": "ranged combat tool", "protection": None, "items": ["lockpicks", "rope", "flashlight"]},
}
WARRIOR = {
    "name": "Brona",
    "role": "warrior",
    "talents": ["Athlete", "Medic"],
    "equipment": {"weapon": "axe", "protection": "chain shirt", "items": ["rope", "torch", "whetstone"]},
}
MAGE = {
    "name": "Iskier",
    "role": "mage",
    "talents": ["Analyst", "Hacker"],
    "equipment": {"weapon": "staff", "protection": None, "items": ["chalk", "lantern", "book"]},
}


@dataclass
class Table:
    """A campaign seen from the GM's seat, with helpers to seat players and characters."""

    client: httpx.AsyncClient
    id: str
    gm: str
    players: dict[str, str] = field(default_factory=dict)  # player_id -> token

    @property
    def base(self) -> str:
        return f"/v1/campaigns/{self.id}"

    async def invite(self, name: str) -> tuple[str, str]:
        r = await self.client.post(f"{self.base}/players", json={"name": name}, headers=bearer(self.gm))
        assert r.status_code == 201, r.text
        body = r.json()
        self.players[body["player"]["id"]] = body["token"]
        return body["player"]["id"], body["token"]

    async def character(self, sheet: dict[str, Any], player_id: str | None = None) -> dict[str, Any]:
        r = await self.client.post(
            f"{self.base}/characters", json={"sheet": sheet, "player_id": player_id}, headers=bearer(self.gm)
        )
        assert r.status_code == 201, r.text
        return r.json()

    async def act(
        self,
        action: dict[str, Any],
        *,
        token: str | None = None,
        dice: list[int] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if dice is not None:
            body["dice"] = dice
        return await self.client.post(
            f"{self.base}/actions", json=body, headers={**bearer(token or self.gm), **(headers or {})}
        )

    async def ok(self, action: dict[str, Any], **kw) -> dict[str, Any]:
        r = await self.act(action, **kw)
        assert r.status_code == 200, r.text
        return r.json()

    async def state(self, token: str | None = None) -> dict[str, Any]:
        r = await self.client.get(f"{self.base}/state", headers=bearer(token or self.gm))
        assert r.status_code == 200, r.text
        return r.json()

    async def events(self, token: str | None = None, after: int = 0) -> list[dict[str, Any]]:
        r = await self.client.get(
            f"{self.base}/events", params={"after": after, "limit": 500}, headers=bearer(token or self.gm)
        )
        assert r.status_code == 200, r.text
        return r.json()["items"]


async def new_table(
    client: httpx.AsyncClient, *, dice_mode: str = "table", options: dict | None = None, name: str = "Test campaign"
) -> Table:
    r = await client.post(
        "/v1/campaigns", json={"name": name, "system": "stepdice", "dice_mode": dice_mode, "options": options or {}}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return Table(client=client, id=body["campaign"]["id"], gm=body["gm_token"])


def assert_problem(r: httpx.Response, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers["content-type"]
    body = r.json()
    assert body["status"] == status and body["code"] == code, body
    assert body["detail"] and body["title"] and body["type"]
    if field is not None:
        assert body.get("field") == field, body
    return body


def camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(p[:1].upper() + p[1:] for p in rest)


def gql_action(system: str, action: dict[str, Any]) -> dict[str, Any]:
    """A REST move as the GraphQL `ActionInput`: `{system: {moveType: {camelCasedField: …}}}`."""

    def fields(value):
        if isinstance(value, dict):
            return {camel(k): fields(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fields(v) for v in value]
        return value

    rest = {k: v for k, v in action.items() if k != "type"}
    return {camel(system): {camel(action["type"]): fields(rest) if rest else True}}


def untyped(value: dict[str, Any]) -> Any:
    assert value["__typename"] == "Untyped", value
    return value["json"]
