"""What the clock does is logged as the clock's, not the GM's: the warning, the expiry and the default move the
rules make for an absent player carry `actor.role` "clock" (REST and GraphQL's `EventActorRole.clock`), while
the same move made by the GM carries "gm". The `app` fixture then checks every table replays from its move log."""

from __future__ import annotations

from apikit import bearer
from clockkit import events, install, scan
from test_deadlines_systems import TURNS, stepdice_fight

CLOCK_TYPES = {"deadline_warning", "deadline_expired", "turn_ended"}


async def test_a_move_made_when_a_deadline_ran_out_is_the_clocks_not_the_gms(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, w, token = await stepdice_fight(client)
    assert (await client.put(f"{t.base}/deadlines", json=TURNS, headers=bearer(t.gm))).status_code == 200
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    before = (await events(t))[-1]["seq"]
    clock.advance(51)
    await scan(app, t)  # the warning
    clock.advance(10)
    await scan(app, t)  # the expiry, and the rules' end_turn for the absent player
    made = await events(t, after=before)
    assert {e["type"] for e in made} >= CLOCK_TYPES
    assert {(e["actor"]["role"], e["actor"]["player_id"]) for e in made} == {("clock", None)}, made
    # Seen by the player too, the same way.
    assert {e["actor"]["role"] for e in await events(t, after=before, token=token)} == {"clock"}


async def test_the_same_move_made_by_the_gm_is_the_gms(app, client, monkeypatch):
    install(monkeypatch)
    t, w, token = await stepdice_fight(client)
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    before = (await events(t))[-1]["seq"]
    await t.ok({"type": "end_turn", "character_id": w})
    assert {e["actor"]["role"] for e in await events(t, after=before)} == {"gm"}


async def test_graphql_tells_the_clock_from_the_gm(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, w, token = await stepdice_fight(client)
    assert (await client.put(f"{t.base}/deadlines", json=TURNS, headers=bearer(t.gm))).status_code == 200
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    clock.advance(61)
    await scan(app, t)
    r = await client.post(
        "/graphql",
        headers=bearer(t.gm),
        json={
            "query": "query($c: ID!) { events(campaignId: $c, first: 500) { edges { node { type actor { role } } } } }",
            "variables": {"c": t.id},
        },
    )
    assert "errors" not in r.json(), r.text
    roles = {n["node"]["type"]: n["node"]["actor"]["role"] for n in r.json()["data"]["events"]["edges"]}
    assert roles["deadline_expired"] == "clock" and roles["turn_ended"] == "clock"
    assert roles["campaign_created"] == "gm" and "player" in roles.values(), roles
