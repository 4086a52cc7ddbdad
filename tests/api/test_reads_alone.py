"""Reads that need no session (service/store/records/pgdirect.py: Alone on PostgreSQL; litedirect.py on an embedded
database in a file, read in the event loop's thread instead of through aiosqlite's): the table from the view
this process keeps (service/game/log/views.py), which the campaign's row confirms (service/game/moves/play.py
get_state), still only ever the newest table, as the caller may see it, with its deadlines; and a page of the
log (service/game/campaigns/records.py read_events), the same page a session reads."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from apikit import WARRIOR, Table, bearer
from servers import drop_every_connection

TURNS = {"turn_seconds": 60, "choice_seconds": 30, "warning_seconds": 10}


async def table(client: httpx.AsyncClient, **extra) -> Table:
    body = {"name": "Reads", "system": "stepdice", "dice_mode": "server", **extra}
    r = await client.post("/v1/campaigns", json=body)
    assert r.status_code == 201, r.text
    return Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])


async def state(t: Table, token: str | None = None) -> dict:
    r = await t.client.get(f"{t.base}/state", headers=bearer(token or t.gm))
    assert r.status_code == 200, r.text
    return r.json()


class CountingSessions:
    """The app's session factory, counting the sessions it opens."""

    def __init__(self, sessions) -> None:
        self.sessions, self.opened = sessions, 0

    def __call__(self, *args, **kwargs):
        self.opened += 1
        return self.sessions(*args, **kwargs)


async def test_a_kept_view_is_read_without_a_session(app, client):
    t = await table(client)
    await t.ok({"type": "gm_note", "text": "the view is kept from the first read"})
    first = await state(t)
    svc = app.state.services
    svc.sessions = counting = CountingSessions(svc.sessions)
    assert await state(t) == first
    assert counting.opened == 0


async def test_a_page_of_the_log_is_read_without_a_session_and_is_the_page_a_session_reads(app, client, settings):
    from service.game.auth import authenticate_alone
    from service.game.log import events as log
    from service.store.records.insession import InSession

    t = await table(client, dice_mode="table")
    pid, token = await t.invite("Brona")
    await t.character(WARRIOR, player_id=pid)
    await t.ok({"type": "create_encounter"})
    await t.ok({"type": "add_enemy", "enemy_id": "b", "name": "Shadow", "kind": "boss", "position": {"x": 3, "y": 0}})
    svc = app.state.services
    expected = {}
    for who in (t.gm, token):
        async with svc.read() as s:  # the same statements through SQLAlchemy's session and its driver
            conn = InSession(s)
            expected[who] = await log.read(conn, await authenticate_alone(conn, who, t.id), 0, 100)
    svc.sessions = counting = CountingSessions(svc.sessions)
    pages = {}
    for who in (t.gm, token):
        r = await client.get(f"{t.base}/events", params={"after": 0, "limit": 100}, headers=bearer(who))
        assert r.status_code == 200, r.text
        pages[who] = r.json()
    assert pages == expected and pages[t.gm] != pages[token]  # the boss's target number is the GM's alone
    assert counting.opened == 0


async def test_a_campaign_and_its_characters_are_read_without_a_session_as_a_session_reads_them(
    app, client, settings, monkeypatch
):
    t = await table(client)
    seats = [await t.invite(name) for name in ("Brona", "Szept")]
    for pid, _ in seats:
        await t.character(WARRIOR, player_id=pid)
    r = await client.put(
        f"{t.base}/players/{seats[1][0]}/language", json={"language": "pl"}, headers=bearer(seats[1][1])
    )
    assert r.status_code == 200, r.text
    readers = (t.gm, seats[0][1], seats[1][1])

    async def reads() -> list:
        out = []
        for who in readers:
            for path in ("", "/characters"):
                r = await client.get(f"{t.base}{path}", headers=bearer(who))
                assert r.status_code == 200, r.text
                out.append(r.json())
        return out

    svc = app.state.services
    svc.sessions = counting = CountingSessions(svc.sessions)
    alone = await reads()
    assert counting.opened == 0
    # The same statements through SQLAlchemy's session and its driver (as an in-memory database is read).
    monkeypatch.setattr(svc, "reader", None)
    lender, svc.lender = svc.lender, None
    try:
        assert await reads() == alone
    finally:
        svc.lender = lender  # its kept connections go back to the pool when the app stops
    assert counting.opened == 6
    assert [c["you"]["role"] for c in alone[::2]] == ["gm", "player", "player"]
    assert [p["language"] for p in alone[0]["players"]] == [None, "pl"]
    assert len(alone[1]["items"]) == 2


async def test_a_move_made_through_another_replica_is_read_at_once_not_the_kept_view(app, client, settings):
    from service.app import create_app

    t = await table(client)
    await t.ok({"type": "gm_note", "text": "kept here"})
    kept = await state(t)
    assert kept["version"] == 1 and not kept["state"]["table"].get("encounter")
    other = create_app(settings)
    async with other.router.lifespan_context(other):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=other), base_url="http://other.test") as c:
            r = await c.post(f"{t.base}/actions", json={"action": {"type": "create_encounter"}}, headers=bearer(t.gm))
            assert r.status_code == 200, r.text
    now = await state(t)
    assert now["version"] == 2
    assert now["state"]["table"]["encounter"]


async def test_each_caller_is_served_the_view_of_their_own_seat(app, client):
    """Spec 8: players see an enemy's public side only, from a kept view as from a computed one."""
    t = await table(client)
    pid, token = await t.invite("Brona")
    await t.character(WARRIOR, player_id=pid)
    await t.ok({"type": "create_encounter"})
    await t.ok({"type": "add_enemy", "enemy_id": "m", "name": "Goblin", "kind": "minion", "position": {"x": 3, "y": 0}})
    seen = []
    for _ in range(2):  # computed, then kept
        gm, player = await state(t), await state(t, token)
        seen.append((gm, player))
        enemy = [who["state"]["table"]["encounter"]["enemies"]["m"] for who in (gm, player)]
        assert enemy[0] != enemy[1] and set(enemy[1]) < set(enemy[0])
    assert seen[0] == seen[1]


async def test_a_token_of_another_campaign_is_refused_a_kept_view_the_log_the_campaign_and_its_characters(app, client):
    t, other = await table(client), await table(client)
    await t.ok({"type": "gm_note", "text": "kept"})
    await state(t)
    for read in ("/state", "/events", "", "/characters"):
        r = await client.get(f"{t.base}{read}", headers=bearer(other.gm))
        assert r.status_code == 401 and r.json()["code"] == "unauthorized"


async def test_a_kept_view_awaiting_a_timed_move_still_says_until_when(app, client):
    t = await table(client, dice_mode="table", turn_deadlines=TURNS)
    pid, token = await t.invite("Brona")
    w = (await t.character(WARRIOR, player_id=pid))["id"]
    await t.ok({"type": "create_encounter"})
    await t.ok({"type": "add_character", "character_id": w, "position": {"x": 0, "y": 0}})
    await t.ok({"type": "add_enemy", "enemy_id": "m", "name": "Goblin", "kind": "minion", "position": {"x": 3, "y": 0}})
    await t.ok({"type": "start_encounter"})
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    for _ in range(2):  # computed, then kept
        awaiting = (await state(t, token))["state"]["table"]["awaiting"]
        assert next(e for e in awaiting if e.get("character_id") == w)["until"] is not None


@asynccontextmanager
async def service_on_postgresql(database_url: str, redis_url: str) -> AsyncIterator[httpx.AsyncClient]:
    from service.app import create_app
    from service.settings import Settings

    settings = Settings(
        database_url=database_url, redis_url=redis_url, webhooks_secrets_key="a key for sealing webhook secrets"
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://rk.test") as c:
            yield c


REQUESTS = {
    # On asyncpg directly: a read alone (Services.alone), a move inside the session's transaction.
    "read of a kept view": lambda c, t: c.get(f"{t.base}/state", headers=bearer(t.gm)),
    "move": lambda c, t: t.act({"type": "gm_note", "text": "after"}),
    # Through SQLAlchemy's own statements.
    "new campaign": lambda c, t: c.post("/v1/campaigns", json={"name": "n", "system": "stepdice"}),
    "events": lambda c, t: c.get(f"{t.base}/events?after=0", headers=bearer(t.gm)),
    "characters": lambda c, t: c.get(f"{t.base}/characters", headers=bearer(t.gm)),
    "export": lambda c, t: c.get(f"{t.base}/export", headers=bearer(t.gm)),
}


@pytest.mark.parametrize("request_kind", list(REQUESTS))
async def test_after_the_database_dropped_every_connection_one_request_is_a_503_and_the_next_are_served(
    postgres_database, redis_server, request_kind
):
    """As after a restart or a failover of PostgreSQL: the request that finds its connection gone answers 503 with
    Retry-After (nothing was changed), and every other connection the pool opened before is replaced rather than
    found dead by a request of its own."""
    send = REQUESTS[request_kind]
    async with service_on_postgresql(postgres_database, redis_server) as c:
        t = await table(c)
        for _ in range(3):
            await t.ok({"type": "gm_note", "text": "before"})
        await state(t)
        await drop_every_connection(postgres_database)
        answers = [await send(c, t) for _ in range(3)]
        assert [r.status_code for r in answers] == [503, *[answers[-1].status_code] * 2], [r.text for r in answers]
        assert answers[0].headers["retry-after"] == "1" and answers[-1].status_code in (200, 201)
        # The refused move left no trace: the table holds the three before and the two served after.
        assert (await state(t))["version"] == 3 + (2 if request_kind == "move" else 0)


# The web table's read after every move (service/web/static): its table, its campaign and its characters.
TABLE_CAMPAIGN_CHARACTERS = """query($id: ID!) {
  state(campaignId: $id) { version }
  campaign(id: $id) { version lastSeq you { role playerId characterIds } players { id name language } }
  characters(campaignId: $id) { id name version }
}"""


async def web_read(t: Table, token: str) -> dict:
    r = await t.client.post(
        "/graphql", json={"query": TABLE_CAMPAIGN_CHARACTERS, "variables": {"id": t.id}}, headers=bearer(token)
    )
    assert r.status_code == 200, r.text
    assert "errors" not in r.json(), r.json()
    return r.json()["data"]


@asynccontextmanager
async def direct_statements() -> AsyncIterator[list[str]]:
    """The statements sent on a connection with no session (Services.alone), on either backend."""
    from service.store.records import pgdirect

    sent: list[str] = []
    hook = lambda sql, args: sent.append(sql)  # noqa: E731
    pgdirect.STATEMENT_HOOKS.append(hook)
    try:
        yield sent
    finally:
        pgdirect.STATEMENT_HOOKS.remove(hook)


async def test_one_query_for_the_table_its_campaign_and_its_characters_looks_at_the_campaign_once(app, client):
    """Each of the three fields authenticated and read the campaign on its own (seven statements); now the
    credential, the campaign's row and the characters are read once, the players beside them."""
    t = await table(client)
    pid, token = await t.invite("Brona")
    await t.character(WARRIOR, player_id=pid)
    await t.character(WARRIOR)
    await t.ok({"type": "gm_note", "text": "a view to keep"})
    for who in (t.gm, token):
        await web_read(t, who)  # the view is kept from here on
        async with direct_statements() as sent:
            seen = await web_read(t, who)
        assert len(sent) == 2, sent
        assert seen["state"]["version"] == seen["campaign"]["version"]
        assert len(seen["characters"]) == 2
    assert seen["campaign"]["you"]["role"] == "player"
    assert len(seen["campaign"]["you"]["characterIds"]) == 1


async def test_the_fields_of_one_query_answer_as_the_rest_reads_do(app, client):
    t = await table(client)
    pid, token = await t.invite("Brona")
    for name in ("Ala", "Ola", "Ela"):
        await t.character({**WARRIOR, "name": name}, player_id=pid)
    for who in (t.gm, token):
        seen = await web_read(t, who)
        campaign = (await client.get(t.base, headers=bearer(who))).json()
        characters = (await client.get(f"{t.base}/characters", headers=bearer(who))).json()["items"]
        assert [c["id"] for c in seen["characters"]] == [c["id"] for c in characters]
        assert [c["name"] for c in characters] == ["Ala", "Ola", "Ela"]  # oldest first
        assert seen["campaign"]["players"] == campaign["players"]
        assert seen["campaign"]["you"]["characterIds"] == campaign["you"]["character_ids"]


async def test_each_query_looks_afresh(app, client):
    t = await table(client)
    first = await web_read(t, t.gm)
    await t.ok({"type": "gm_note", "text": "after the first query"})
    seen = await web_read(t, t.gm)
    assert seen["state"]["version"] == seen["campaign"]["version"] == first["state"]["version"] + 1


async def test_a_wrong_token_is_refused_by_every_field_of_the_query(app, client):
    t = await table(client)
    r = await client.post(
        "/graphql", json={"query": TABLE_CAMPAIGN_CHARACTERS, "variables": {"id": t.id}}, headers=bearer("nope")
    )
    assert r.json()["data"] is None
    assert {e["extensions"]["code"] for e in r.json()["errors"]} == {"unauthorized"}


async def test_one_character_is_the_one_in_the_list_and_a_character_of_another_campaign_is_not_found(app, client):
    t, other = await table(client), await table(client)
    pid, token = await t.invite("Brona")
    mine = await t.character(WARRIOR, player_id=pid)
    elsewhere = await other.character(WARRIOR)
    for who in (t.gm, token):
        listed = (await client.get(f"{t.base}/characters", headers=bearer(who))).json()["items"]
        r = await client.get(f"{t.base}/characters/{mine['id']}", headers=bearer(who))
        assert r.status_code == 200, r.text
        assert r.json() == listed[0]
        for missing in (elsewhere["id"], "no-such-character"):
            r = await client.get(f"{t.base}/characters/{missing}", headers=bearer(who))
            assert r.status_code == 404, r.text
            assert r.json()["code"] == "not_found" and r.json()["field"] == "character_id"
    async with direct_statements() as sent:
        r = await client.get(f"{t.base}/characters/{mine['id']}", headers=bearer(token))
    assert r.status_code == 200 and len(sent) == 1, sent
