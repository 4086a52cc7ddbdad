"""The move log is the truth: tables rebuilt after any loss of the live store, undo, time travel,
export and import, finished and deleted campaigns. Runs on the embedded defaults and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
import json

from apikit import MAGE, ROGUE, WARRIOR, assert_problem, bearer, new_table

from service.game.log import moves as movelog
from service.game.log.tables import table_key
from service.store.live.sql import SqlLiveStore
from service.store.records.models import Campaign


async def seat(t, sheet):
    pid, token = await t.invite(sheet["name"])
    ch = await t.character(sheet, player_id=pid)
    return ch["id"], token


async def skirmish(t):
    """A Step Dice fight with server or verifiable dice: a few moves, several of them rolling."""
    w, wt = await seat(t, WARRIOR)
    r, rt = await seat(t, ROGUE)
    await t.ok({"type": "create_encounter"})
    for cid in (w, r):
        await t.ok({"type": "add_character", "character_id": cid, "position": None})
    await t.ok({"type": "add_enemy", "enemy_id": "g", "name": "Goblin", "kind": "minion"})
    await t.ok({"type": "add_enemy", "enemy_id": "b", "name": "Shadow", "kind": "boss"})
    await t.ok({"type": "start_encounter"})
    await t.ok({"type": "begin_turn", "character_id": w}, token=wt)
    await t.ok({"type": "test", "character_id": w, "attribute": "strength", "base_tn": 6}, token=wt)
    return w, wt, r, rt


def services(app):
    return app.state.services


async def campaign_row(app, campaign_id):
    async with services(app).read() as s:
        return await s.get(Campaign, campaign_id)


async def test_table_is_rebuilt_from_the_move_log_when_the_live_store_loses_it(client, app):
    t = await new_table(client, dice_mode="server")
    w, wt, _, _ = await skirmish(t)
    before = await t.state()
    await services(app).live.delete(table_key(t.id))
    assert await t.state() == before
    out = await t.ok({"type": "gm_note", "text": "and play goes on"})  # from the rebuilt table
    assert out["version"] == before["version"] + 1


async def test_a_live_copy_from_a_transaction_that_never_committed_is_ignored(client, app):
    t = await new_table(client, dice_mode="server")
    await skirmish(t)
    before = await t.state()
    row = await campaign_row(app, t.id)
    live = services(app).live
    await live.put_newer(table_key(t.id), row.table_version + 1, {"token": "x", "table": {"forged": True}})
    assert await t.state() == before
    await live.delete(table_key(t.id))
    await live.put_newer(table_key(t.id), row.table_version, {"token": "not-the-committed-one", "table": {}})
    assert await t.state() == before


async def test_replaying_the_move_log_from_version_0_reproduces_the_table(client, app):
    t = await new_table(client, dice_mode="verifiable")
    await skirmish(t)
    async with services(app).read() as s:
        c = await s.get(Campaign, t.id)
        rebuilt = await movelog.state_at(s, c, c.table_version)
    live = await services(app).live.get(table_key(t.id))
    assert live.value["table"] == rebuilt["table"]
    assert (await t.state())["version"] == c.table_version


async def test_undo_puts_the_table_back_and_keeps_the_dice_in_the_log(client):
    t = await new_table(client, dice_mode="verifiable")
    w, wt, _, _ = await skirmish(t)
    before_test = (
        await client.get(f"{t.base}/state", params={"version": (await t.state())["version"] - 1}, headers=bearer(t.gm))
    ).json()
    rolled = [e for e in await t.events() if e["type"] == "dice_rolled"]
    out = await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(t.gm))
    assert out.status_code == 200, out.text
    body = out.json()
    assert body["version"] == before_test["version"] + 2
    assert body["state"] == before_test["state"]
    undone = [e for e in body["events"] if e["type"] == "undone"]
    assert undone and undone[0]["data"]["undone_versions"] == [before_test["version"] + 1]
    assert undone[0]["data"]["by"]["role"] == "gm"
    assert [e for e in await t.events() if e["type"] == "dice_rolled"] == rolled  # nothing taken out of the log
    # The undone test's die is still in the verification document: undo is no free reroll in disguise.
    closed = await client.post(f"{t.base}/dice-sessions/current/close", json={}, headers=bearer(t.gm))
    assert closed.status_code == 200, closed.text
    doc = (await client.get(f"{t.base}/dice-sessions/1/verification", headers=bearer(t.gm))).json()
    assert doc["report"]["ok"] and len(doc["rolls"]) == sum(len(e["data"]["dice"]) for e in rolled)


async def test_undo_twice_goes_further_back_not_forward(client):
    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    v1 = await t.state()
    await t.ok({"type": "gm_note", "text": "one"})
    await t.ok({"type": "gm_note", "text": "two"})
    await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(t.gm))
    second = await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(t.gm))
    assert second.json()["state"] == v1["state"]


async def test_undo_is_for_the_gm_and_only_over_moves_that_exist(client):
    t = await new_table(client, dice_mode="server")
    _, pt = await t.invite("Ala")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    assert_problem(await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(pt)), 403, "gm_only")
    assert_problem(
        await client.post(f"{t.base}/undo", json={"count": 2}, headers=bearer(t.gm)), 409, "nothing_to_undo", "count"
    )
    assert_problem(
        await client.post(f"{t.base}/undo", json={"count": 0}, headers=bearer(t.gm)), 422, "invalid_input", "count"
    )


async def test_undo_does_not_go_back_over_a_character_creation(client):
    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    await t.character(MAGE)
    assert_problem(
        await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(t.gm)),
        409,
        "undo_past_character",
        "count",
    )


async def test_time_travel_shows_each_version_as_it_was_filtered_for_players(client):
    t = await new_table(client, dice_mode="server")
    w, wt, _, _ = await skirmish(t)
    now = await t.state()
    seen = {}
    for v in range(1, now["version"] + 1):
        r = await client.get(f"{t.base}/state", params={"version": v}, headers=bearer(wt))
        assert r.status_code == 200 and r.headers["etag"] == f'"{v}"'
        seen[v] = r.json()["state"]
    assert seen[now["version"]] == (await t.state(wt))["state"]
    boss = seen[now["version"]]["table"]["encounter"]["enemies"]["b"]
    assert "tn" not in boss  # a player's look at the past hides what the GM hides now
    assert_problem(
        await client.get(f"{t.base}/state", params={"version": now["version"] + 1}, headers=bearer(wt)),
        404,
        "not_found",
        "version",
    )


# The campaign document is one named scalar in GraphQL (its shape is the REST schema's CampaignDocument): read
# whole and sent back unchanged.
EXPORT = """query($c: ID!) { exportCampaign(campaignId: $c) }"""


def _swap_ids(value, ids):
    text = json.dumps(value, sort_keys=True)
    for new, old in ids.items():
        text = text.replace(new, old)
    return json.loads(text)


async def test_export_then_import_replays_to_the_same_table(client):
    t = await new_table(client, dice_mode="verifiable")
    await skirmish(t)
    await client.post(f"{t.base}/dice-sessions/current/close", json={}, headers=bearer(t.gm))
    doc = await client.get(f"{t.base}/export", headers=bearer(t.gm))
    assert doc.status_code == 200, doc.text
    doc = doc.json()
    r = await client.post("/v1/campaigns/import", json=doc)
    assert r.status_code == 201, r.text
    imported = r.json()
    new_id, new_gm = imported["campaign"]["id"], imported["gm_token"]
    assert new_id != t.id and len(imported["players"]) == 2
    copy_doc = (await client.get(f"/v1/campaigns/{new_id}/export", headers=bearer(new_gm))).json()
    ids = {new_id: t.id}
    ids.update({n["id"]: o["id"] for n, o in zip(copy_doc["players"], doc["players"])})
    ids.update({n["id"]: o["id"] for n, o in zip(copy_doc["characters"], doc["characters"])})
    assert copy_doc["final"]["version"] == doc["final"]["version"]
    old_state = (await t.state())["state"]
    new_state = (await client.get(f"/v1/campaigns/{new_id}/state", headers=bearer(new_gm))).json()["state"]
    assert _swap_ids(new_state, ids) == json.loads(json.dumps(old_state, sort_keys=True))
    old_events = [(e["seq"], e["type"], e["data"]) for e in await t.events()]
    new_events = (
        await client.get(f"/v1/campaigns/{new_id}/events", params={"limit": 500}, headers=bearer(new_gm))
    ).json()["items"]
    # The same events, the dice marked as the document's: this server did not roll them.
    assert all(e["data"]["imported"] is True for e in new_events if e["type"] == "dice_rolled")
    unmarked = [(e["seq"], e["type"], {k: v for k, v in e["data"].items() if k != "imported"}) for e in new_events]
    assert _swap_ids(unmarked, ids)[: len(old_events)] == json.loads(json.dumps(old_events, sort_keys=True))
    # The closed dice session still verifies on the new campaign, and a new one is open for play.
    v = (await client.get(f"/v1/campaigns/{new_id}/dice-sessions/1/verification", headers=bearer(new_gm))).json()
    assert v["report"]["ok"] and v["rolls"]
    sessions = (await client.get(f"/v1/campaigns/{new_id}/dice-sessions", headers=bearer(new_gm))).json()["items"]
    assert [s["status"] for s in sessions] == ["closed", "unverifiable", "open"]
    # The imported players' new tokens work; the old ones do not.
    player_token = imported["players"][0]["token"]
    assert (await client.get(f"/v1/campaigns/{new_id}/state", headers=bearer(player_token))).status_code == 200
    assert (await client.get(f"/v1/campaigns/{new_id}/state", headers=bearer(t.gm))).status_code == 401


async def test_import_refuses_a_document_whose_dice_were_changed(client):
    t = await new_table(client, dice_mode="server")
    await skirmish(t)
    doc = (await client.get(f"{t.base}/export", headers=bearer(t.gm))).json()
    rolling = next(m for m in doc["moves"] if m["dice"])
    die = rolling["dice"][0]
    die["face"] = (
        die["sides"] + 1 - die["face"] if die["sides"] > 1 and die["face"] * 2 != die["sides"] + 1 else die["face"]
    )
    if die["face"] == rolling["dice"][0]["face"]:
        doc["final"]["state_sha256"] = "0" * 64  # an unchangeable die: tamper with the recorded result instead
    r = await client.post("/v1/campaigns/import", json=doc)
    assert_problem(r, 422, "import_diverged")


async def test_a_finished_campaign_is_read_only_and_leaves_the_live_store(client, app):
    t = await new_table(client, dice_mode="server")
    w, wt, _, _ = await skirmish(t)
    before = await t.state()
    r = await client.post(f"{t.base}/finish", headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    assert await services(app).live.get(table_key(t.id)) is None
    assert await t.state() == before
    assert await t.state(wt) == (await t.state(wt))
    assert_problem(await t.act({"type": "gm_note", "text": "too late"}), 409, "campaign_finished")
    assert_problem(
        await client.post(f"{t.base}/undo", json={"count": 1}, headers=bearer(t.gm)), 409, "campaign_finished"
    )
    assert [e["type"] for e in await t.events()][-1] == "campaign_finished"
    assert (await client.get(f"{t.base}/export", headers=bearer(t.gm))).status_code == 200


async def test_delete_needs_a_finished_campaign_and_removes_everything(client):
    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    assert_problem(await client.delete(t.base, headers=bearer(t.gm)), 409, "campaign_active")
    await client.post(f"{t.base}/finish", headers=bearer(t.gm))
    r = await client.delete(t.base, headers=bearer(t.gm))
    assert r.status_code == 204 and r.content == b""
    assert (await client.get(f"{t.base}/state", headers=bearer(t.gm))).status_code == 401


async def test_an_idle_table_expires_from_the_live_store_and_comes_back_on_read(client, app):
    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    before = await t.state()
    object.__setattr__(services(app).settings, "table_idle_ttl", 0.2)
    await t.ok({"type": "gm_note", "text": "soon idle"})
    after = await t.state()
    await asyncio.sleep(0.35)
    assert await services(app).live.get(table_key(t.id)) is None
    assert await t.state() == after != before
    # Redis takes the rebuilt copy back from the read; the embedded store from the next move (its writes
    # wait for the campaign's writers, so a read does not write).
    if not isinstance(services(app).live, SqlLiveStore):
        assert await services(app).live.get(table_key(t.id)) is not None
    # The next move's copy stays, however slowly a loaded machine gets to the check below.
    object.__setattr__(services(app).settings, "table_idle_ttl", 60)
    await t.ok({"type": "gm_note", "text": "back"})
    assert await services(app).live.get(table_key(t.id)) is not None


async def test_undo_and_import_through_graphql(client):
    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    await t.ok({"type": "gm_note", "text": "oops"})
    q = "mutation($i: UndoMovesInput!) { undoMoves(input: $i) { version events { type } } }"
    r = (
        await client.post(
            "/graphql", json={"query": q, "variables": {"i": {"campaignId": t.id, "count": 1}}}, headers=bearer(t.gm)
        )
    ).json()
    assert r["data"]["undoMoves"]["events"][0]["type"] == "undone", r
    doc = (await client.post("/graphql", json={"query": EXPORT, "variables": {"c": t.id}}, headers=bearer(t.gm))).json()
    q = "mutation($i: ImportCampaignInput!) { importCampaign(input: $i) { campaign { id version } gmToken } }"
    out = (
        await client.post(
            "/graphql", json={"query": q, "variables": {"i": {"document": doc["data"]["exportCampaign"]}}}
        )
    ).json()
    assert out["data"]["importCampaign"]["campaign"]["version"] == 3, out
    past = (
        await client.post(
            "/graphql",
            json={
                "query": "query($c: ID!) { state(campaignId: $c, version: 1) { version } }",
                "variables": {"c": t.id},
            },
            headers=bearer(t.gm),
        )
    ).json()
    assert past["data"]["state"]["version"] == 1


async def test_a_table_from_before_the_move_log_is_adopted_as_its_first_snapshot(client, app):
    """Upgrading: a campaign whose table lived only in the live store keeps playing from that table."""
    from sqlalchemy import delete, update

    from service.store.records.models import MoveRecord, SnapshotRecord

    t = await new_table(client, dice_mode="server")
    await t.ok({"type": "start_scene", "kind": "narrative"})
    table = (await t.state())["state"]["table"]
    svc = services(app)
    async with svc.write() as s:
        await s.execute(delete(MoveRecord).where(MoveRecord.campaign_id == t.id))
        await s.execute(delete(SnapshotRecord).where(SnapshotRecord.campaign_id == t.id))
        await s.execute(update(Campaign).where(Campaign.id == t.id).values(table_version=0, table_token=""))
    await svc.live.delete(table_key(t.id))
    await svc.live.put_newer(table_key(t.id), 7, table)  # the old layout: the bare table, the store's own version
    assert (await t.state())["state"]["table"] == table
    out = await t.ok({"type": "gm_note", "text": "still here"})
    assert out["version"] == 8 and out["state"]["table"] == table
    assert (await t.state())["version"] == 8


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _app_client(settings):
    import httpx

    from service.app import create_app

    application = create_app(settings)
    return application, httpx.AsyncClient(transport=httpx.ASGITransport(app=application), base_url="http://rk.test")


async def test_an_unreachable_records_database_is_a_503_with_retry_after():
    from service.settings import Settings

    settings = Settings(
        database_url=f"postgresql+asyncpg://postgres@127.0.0.1:{_closed_port()}/none",
        auto_migrate=False,
        webhooks_secrets_key="a key for sealing webhook secrets",
    )
    application, c = await _app_client(settings)
    async with application.router.lifespan_context(application), c:
        r = await c.get("/v1/campaigns/00000000-0000-0000-0000-000000000000/state", headers=bearer("rk_x"))
        body = assert_problem(r, 503, "service_unavailable")
        assert r.headers["retry-after"] == "1" and "127.0.0.1" not in body["detail"]
        r = await c.post("/v1/campaigns", json={"name": "x", "system": "stepdice"})
        assert_problem(r, 503, "service_unavailable")
        g = (
            await c.post("/graphql", json={"query": '{ state(campaignId: "x") { version } }'}, headers=bearer("rk_x"))
        ).json()
        assert g["errors"][0]["extensions"]["code"] == "service_unavailable"


async def test_play_goes_on_from_the_records_database_while_redis_is_down(postgres_database):
    from service.settings import Settings

    settings = Settings(
        database_url=postgres_database,
        redis_url=f"redis://127.0.0.1:{_closed_port()}/0",
        webhooks_secrets_key="a key for sealing webhook secrets",
    )
    application, c = await _app_client(settings)
    async with application.router.lifespan_context(application), c:
        t = await new_table(c, dice_mode="server")
        await t.ok({"type": "start_scene", "kind": "narrative"})
        out = await t.ok({"type": "gm_note", "text": "no cache today"})
        assert out["version"] == 2 and (await t.state())["version"] == 2


async def test_export_is_refused_when_the_options_hide_characters_from_the_gm(client):
    r = await client.post(
        "/v1/campaigns", json={"name": "Blind", "system": "trikus", "options": {"opt2_gm_blind_to_dark_sides": True}}
    )
    gm = r.json()["gm_token"]
    r = await client.get(f"/v1/campaigns/{r.json()['campaign']['id']}/export", headers=bearer(gm))
    assert_problem(r, 403, "export_reveals_secrets")


async def test_a_campaign_document_may_be_larger_than_other_bodies(client):
    big = {"format": "rulekeeper-campaign/1", "padding": "x" * 100_000}
    assert_problem(await client.post("/v1/campaigns", json=big), 413, "payload_too_large")
    assert_problem(await client.post("/v1/campaigns/import", json=big), 422, "invalid_input")
