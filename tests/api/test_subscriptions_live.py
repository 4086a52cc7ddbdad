"""GraphQL subscriptions as a client meets them: a service started the README's way (`rulekeeper serve`, a
real uvicorn on a real port), a real WebSocket client, moves made over REST. And two service processes on
PostgreSQL + Redis, and on PostgreSQL alone (LISTEN/NOTIFY), where a move made through one reaches a
subscriber of the other."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
import websockets

from gqlws import as_rest, subscribe
from serve_process import Service

# Far below the sweep (every 15 s): an event that arrives within this came
# through a notification, not through the sweep.
DELIVERY_SECONDS = 5.0


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[str]:
    """The embedded defaults, as the README's first command runs them."""
    tmp = tmp_path_factory.mktemp("served")
    service = Service({"DATABASE_URL": f"sqlite:///{tmp}/rulekeeper.db"}, tmp / "serve.log").ready()
    yield service.url
    service.stop()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def new_campaign(http: httpx.AsyncClient) -> tuple[str, str]:
    r = (await http.post("/v1/campaigns", json={"name": "Live", "system": "stepdice"})).json()
    return r["campaign"]["id"], r["gm_token"]


async def note(http: httpx.AsyncClient, cid: str, gm: str, text: str, *, for_players: bool = True) -> int:
    r = await http.post(
        f"/v1/campaigns/{cid}/actions",
        headers=bearer(gm),
        json={"action": {"type": "gm_note", "text": text, "visible_to_players": for_players}},
    )
    assert r.status_code == 200, r.text
    return r.json()["events"][-1]["seq"]


async def rest_log(http: httpx.AsyncClient, cid: str, token: str) -> list[dict]:
    return (await http.get(f"/v1/campaigns/{cid}/events?after=0&limit=500", headers=bearer(token))).json()["items"]


async def test_a_subscriber_receives_every_move_in_order_as_it_is_made(served):
    async with httpx.AsyncClient(base_url=served, timeout=10) as http:
        cid, gm = await new_campaign(http)
        async with subscribe(served, gm, cid) as sub:
            assert (await sub.next())["type"] == "campaign_created"
            for i in range(5):
                seq = await note(http, cid, gm, f"note {i}")
                got = await sub.until(seq, timeout=DELIVERY_SECONDS)
                assert [e["data"]["text"] for e in got if e["type"] == "gm_note"] == [f"note {i}"]
        assert [as_rest(e) for e in got][-1] == (await rest_log(http, cid, gm))[-1]


async def test_a_players_subscription_carries_exactly_the_players_rest_log(served):
    """Same filter as GET /events: GM-only events never reach a player, hidden parts stay hidden."""
    async with httpx.AsyncClient(base_url=served, timeout=10) as http:
        cid, gm = await new_campaign(http)
        player = (await http.post(f"/v1/campaigns/{cid}/players", headers=bearer(gm), json={"name": "Ala"})).json()[
            "token"
        ]
        async with subscribe(served, player, cid) as sub_player, subscribe(served, gm, cid) as sub_gm:
            await note(http, cid, gm, "the goblins wait behind the door", for_players=False)
            await note(http, cid, gm, "you hear a noise")
            await http.post(f"/v1/campaigns/{cid}/rolls", headers=bearer(gm), json={"expression": "2d6"})
            await note(http, cid, gm, "the trap is armed", for_players=False)
            last = await note(http, cid, gm, "the door opens")
            seen_by_player = [as_rest(e) for e in await sub_player.until(last, timeout=DELIVERY_SECONDS)]
            seen_by_gm = [as_rest(e) for e in await sub_gm.until(last, timeout=DELIVERY_SECONDS)]
        assert seen_by_player == await rest_log(http, cid, player)
        assert seen_by_gm == await rest_log(http, cid, gm)
        secrets = {"the goblins wait behind the door", "the trap is armed"}
        assert not secrets & {e["data"].get("text") for e in seen_by_player}
        assert secrets <= {e["data"].get("text") for e in seen_by_gm}


async def test_resuming_after_the_last_seq_received_loses_nothing_and_repeats_nothing(served):
    async with httpx.AsyncClient(base_url=served, timeout=10) as http:
        cid, gm = await new_campaign(http)
        async with subscribe(served, gm, cid) as sub:
            seq = await note(http, cid, gm, "before the drop")
            received = await sub.until(seq, timeout=DELIVERY_SECONDS)
        # Disconnected: the table plays on.
        for i in range(3):
            await note(http, cid, gm, f"while away {i}")
        async with subscribe(served, gm, cid, after=received[-1]["seq"]) as sub:
            resumed = [await sub.next(DELIVERY_SECONDS) for _ in range(3)]
            seq = await note(http, cid, gm, "after the return")
            resumed += await sub.until(seq, timeout=DELIVERY_SECONDS)
            assert await sub.nothing_within(0.3)
        everything = [as_rest(e) for e in received + resumed]
        assert everything == await rest_log(http, cid, gm)


async def test_the_websocket_handshake_answers_with_a_request_id_the_asked_one_or_a_new_one(served):
    """Over a real socket, as a client that may set headers (a bot, a VTT's server) and as a browser, which cannot."""
    url = served.replace("http://", "ws://", 1) + "/graphql"
    asked = "vtt-7f3a:session/42"
    async with websockets.connect(
        url, subprotocols=["graphql-transport-ws"], additional_headers={"X-Request-ID": asked}, open_timeout=10
    ) as ws:
        assert ws.response.headers["X-Request-ID"] == asked
    async with websockets.connect(url, subprotocols=["graphql-transport-ws"], origin=served, open_timeout=10) as ws:
        assert uuid.UUID(ws.response.headers["X-Request-ID"]).version == 4


async def test_a_subscription_with_a_wrong_token_is_refused_with_the_rest_code(served):
    async with httpx.AsyncClient(base_url=served, timeout=10) as http:
        cid, _ = await new_campaign(http)
        async with subscribe(served, "not-a-token", cid) as sub:
            with pytest.raises(AssertionError, match="unauthorized"):
                await sub.next()


async def test_queries_sent_over_one_websocket_each_read_the_table_afresh(served):
    """A query's fields share one look at the campaign (service/game/moves/access.py Glances), which an HTTP
    request makes for its one query; a WebSocket carries many operations, and each must see the moves before it."""
    query = "query($c: ID!) { state(campaignId: $c) { version } campaign(id: $c) { version lastSeq } }"
    url = served.replace("http://", "ws://", 1) + "/graphql"
    async with httpx.AsyncClient(base_url=served, timeout=10) as http:
        cid, gm = await new_campaign(http)
        async with websockets.connect(url, subprotocols=["graphql-transport-ws"], open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {gm}"}}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "connection_ack"
            seen = []
            for i in range(3):
                await ws.send(
                    json.dumps(
                        {"id": str(i), "type": "subscribe", "payload": {"query": query, "variables": {"c": cid}}}
                    )
                )
                reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert reply["type"] == "next" and "errors" not in reply["payload"], reply
                seen.append(reply["payload"]["data"])
                assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "complete"
                await note(http, cid, gm, f"note {i}")
    assert [s["state"]["version"] for s in seen] == [s["campaign"]["version"] for s in seen]
    assert [s["campaign"]["version"] - seen[0]["campaign"]["version"] for s in seen] == [0, 1, 2]
    assert len({s["campaign"]["lastSeq"] for s in seen}) == 3


@pytest.fixture
def two_processes(postgres_database, redis_server, tmp_path) -> Iterator[tuple[str, str]]:
    env = {
        "DATABASE_URL": postgres_database.replace("postgresql+asyncpg://", "postgresql://"),
        "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
        "REDIS_URL": redis_server,
    }
    # Started together: B waits for nothing at start, and is used only once A has migrated the database.
    a = Service(env, tmp_path / "a.log")
    b = Service({**env, "RULEKEEPER_AUTO_MIGRATE": "false"}, tmp_path / "b.log")
    try:
        a.ready()
        b.ready()
    except BaseException:
        b.stop()
        a.stop()
        raise
    yield a.url, b.url
    b.stop()
    a.stop()


async def test_a_move_made_through_one_process_reaches_a_subscriber_of_another(two_processes):
    a, b = two_processes
    async with httpx.AsyncClient(base_url=a, timeout=10) as http_a:
        cid, gm = await new_campaign(http_a)
        async with subscribe(b, gm, cid) as sub_on_b:
            assert (await sub_on_b.next())["type"] == "campaign_created"
            for i in range(3):
                seq = await note(http_a, cid, gm, f"made on A {i}")
                got = await sub_on_b.until(seq, timeout=DELIVERY_SECONDS)
                assert [e["data"]["text"] for e in got] == [f"made on A {i}"]


@pytest.fixture
def two_processes_without_redis(postgres_database, tmp_path) -> Iterator[tuple[str, str]]:
    env = {
        "DATABASE_URL": postgres_database.replace("postgresql+asyncpg://", "postgresql://"),
        "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "a key for sealing webhook secrets",
        "REDIS_URL": "",
    }
    a = Service(env, tmp_path / "a.log")
    b = Service({**env, "RULEKEEPER_AUTO_MIGRATE": "false"}, tmp_path / "b.log")
    try:
        a.ready()
        b.ready()
    except BaseException:
        b.stop()
        a.stop()
        raise
    yield a.url, b.url
    b.stop()
    a.stop()


async def test_on_postgresql_alone_a_move_through_one_process_reaches_a_subscriber_of_another_within_a_second(
    two_processes_without_redis,
):
    """No Redis: the announcement goes through PostgreSQL's LISTEN/NOTIFY, not the 15 s sweep."""
    a, b = two_processes_without_redis
    async with httpx.AsyncClient(base_url=a, timeout=10) as http_a:
        cid, gm = await new_campaign(http_a)
        async with subscribe(b, gm, cid) as sub_on_b:
            assert (await sub_on_b.next())["type"] == "campaign_created"
            for i in range(3):
                seq = await note(http_a, cid, gm, f"made on A {i}")
                got = await sub_on_b.until(seq, timeout=1.0)
                assert [e["data"]["text"] for e in got] == [f"made on A {i}"]
