"""A browser's subscription: the handshake carries the page's `Origin` (and the browser's own Accept-Language),
and the page can set neither a header nor the token but in connection_init. Against `rulekeeper serve`, with
RULEKEEPER_CORS_ORIGINS set as a deployment sets it (docs/frontend.md, Subscriptions)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from serve_process import Service

PAGE = "http://table.example:8080"
ELSEWHERE = "http://elsewhere.example"
DESCRIBE = "subscription($c: ID!) { campaignEvents(campaignId: $c, after: 0) { seq type description } }"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("origin")
    service = Service(
        {"DATABASE_URL": f"sqlite:///{tmp}/rulekeeper.db", "RULEKEEPER_CORS_ORIGINS": PAGE}, tmp / "serve.log"
    ).ready()
    yield service.url
    service.stop()


def ws_url(base: str) -> str:
    return base.replace("http://", "ws://", 1) + "/graphql"


async def table(base: str, *, language: str = "en", player_language: str | None = None) -> tuple[str, str, str]:
    """A Step Dice campaign with one invited player: (campaign id, GM token, player token)."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        r = (await http.post("/v1/campaigns", json={"name": "T", "system": "stepdice", "language": language})).json()
        cid, gm = r["campaign"]["id"], r["gm_token"]
        invited = (
            await http.post(
                f"/v1/campaigns/{cid}/players", json={"name": "Ala"}, headers={"Authorization": f"Bearer {gm}"}
            )
        ).json()
        if player_language:
            r = await http.put(
                f"/v1/campaigns/{cid}/players/{invited['player']['id']}/language",
                json={"language": player_language},
                headers={"Authorization": f"Bearer {invited['token']}"},
            )
            assert r.status_code == 200, r.text
        return cid, gm, invited["token"]


async def descriptions(
    base: str,
    token: str,
    cid: str,
    *,
    origin: str | None = None,
    init: dict | None = None,
    headers: dict[str, str] | None = None,
) -> list[str]:
    """The descriptions of the campaign's first two events, subscribed as a page on `origin` would."""
    async with websockets.connect(
        ws_url(base), subprotocols=["graphql-transport-ws"], origin=origin, additional_headers=headers, open_timeout=10
    ) as ws:
        await ws.send(
            json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}", **(init or {})}})
        )
        assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
        await ws.send(
            json.dumps({"id": "1", "type": "subscribe", "payload": {"query": DESCRIBE, "variables": {"c": cid}}})
        )
        got = []
        while len(got) < 2:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert msg["type"] == "next" and not msg["payload"].get("errors"), msg
            got.append(msg["payload"]["data"]["campaignEvents"]["description"])
        return got


async def test_a_page_on_a_listed_origin_may_subscribe(served):
    cid, gm, _ = await table(served)
    assert (await descriptions(served, gm, cid, origin=PAGE))[1] == "Player Ala invited"


async def test_a_page_served_by_the_service_itself_may_subscribe(served):
    cid, gm, _ = await table(served)
    assert (await descriptions(served, gm, cid, origin=served))[1] == "Player Ala invited"


async def test_a_page_on_an_unlisted_origin_is_refused_at_the_handshake(served):
    cid, gm, _ = await table(served)
    with pytest.raises(InvalidStatus) as refused:
        await descriptions(served, gm, cid, origin=ELSEWHERE)
    assert refused.value.response.status_code == 403


async def test_a_star_lets_any_origin_subscribe(tmp_path):
    service = Service(
        {"DATABASE_URL": f"sqlite:///{tmp_path}/rulekeeper.db", "RULEKEEPER_CORS_ORIGINS": "*"}, tmp_path / "serve.log"
    ).ready()
    try:
        cid, gm, _ = await table(service.url)
        assert (await descriptions(service.url, gm, cid, origin=ELSEWHERE))[1] == "Player Ala invited"
    finally:
        service.stop()


async def test_the_language_in_connection_init_outranks_the_handshakes_header(served):
    cid, _, player = await table(served, language="en", player_language="ru")
    got = await descriptions(
        served, player, cid, origin=PAGE, init={"language": "pl"}, headers={"Accept-Language": "en"}
    )
    assert got[1] == "Zaproszono gracza Ala"


async def test_without_one_the_players_own_language_outranks_the_browsers_header(served):
    cid, _, player = await table(served, language="en", player_language="ru")
    got = await descriptions(served, player, cid, origin=PAGE, headers={"Accept-Language": "en-US,en;q=0.9"})
    assert got[1] == "Приглашён игрок Ala"


async def test_without_either_the_handshakes_header_then_the_campaigns_language_apply(served):
    cid, gm, _ = await table(served, language="pl")
    assert (await descriptions(served, gm, cid, origin=PAGE, headers={"Accept-Language": "ru"}))[
        1
    ] == "Приглашён игрок Ala"
    assert (await descriptions(served, gm, cid, origin=PAGE))[1] == "Zaproszono gracza Ala"


async def test_a_language_the_service_does_not_speak_closes_the_socket_with_4400(served):
    cid, gm, _ = await table(served)
    with pytest.raises(ConnectionClosed) as closed:
        await descriptions(served, gm, cid, origin=PAGE, init={"language": "de"})
    assert closed.value.rcvd.code == 4400 and "en, pl, ru" in closed.value.rcvd.reason
