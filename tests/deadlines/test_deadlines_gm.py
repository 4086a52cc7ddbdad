"""The GM's hand on the clock: settings, pause, resume and extend, each logged; players read but may not touch."""

from __future__ import annotations

from apikit import assert_problem, bearer
from clockkit import board, events, install, of_type, scan, state
from test_deadlines_iskra import iskra_fight


async def test_only_the_gm_sets_pauses_or_extends_deadlines(app, client, monkeypatch):
    install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60})
    deadline = (await board(t, token))["deadlines"][0]
    assert deadline["character_id"] == hero and deadline["kind"] == "turn"
    assert_problem(
        await client.put(f"{t.base}/deadlines", json={"turn_seconds": 5}, headers=bearer(token)), 403, "gm_only"
    )
    assert_problem(await client.post(f"{t.base}/deadlines/pause", headers=bearer(token)), 403, "gm_only")
    assert_problem(
        await client.post(f"{t.base}/deadlines/{deadline['id']}/extend", json={"seconds": 5}, headers=bearer(token)),
        403,
        "gm_only",
    )


async def test_deadline_settings_are_validated_with_the_field_named(app, client):
    t, hero, foe, token = await iskra_fight(client)
    assert_problem(
        await client.put(f"{t.base}/deadlines", json={"turn_seconds": 0}, headers=bearer(t.gm)),
        422,
        "invalid_input",
        "turn_seconds",
    )
    assert_problem(
        await client.put(f"{t.base}/deadlines", json={"turn_seconds": "60"}, headers=bearer(t.gm)),
        422,
        "invalid_input",
        "turn_seconds",
    )
    r = await client.post("/v1/campaigns", json={"name": "x", "system": "iskra", "turn_deadlines": {"turn": 5}})
    assert_problem(r, 422, "invalid_input", "turn_deadlines.turn")


async def test_no_deadline_means_no_pause(app, client):
    t, hero, foe, token = await iskra_fight(client)
    assert_problem(await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm)), 409, "no_turn_deadlines")


async def test_pause_stops_every_deadline_and_resume_gives_back_the_time_left(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 100, "warning_seconds": 0})
    clock.advance(40)
    r = await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    assert r.json()["paused"] is True and r.json()["deadlines"][0]["seconds_left"] == 60
    assert next(e for e in (await state(t, token))["table"]["awaiting"] if e["character_id"] == hero)["until"] is None
    clock.advance(1000)
    assert await scan(app, t) == 0
    r = await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))
    assert r.json()["paused"] is False and r.json()["deadlines"][0]["seconds_left"] == 60
    clock.advance(59)
    assert await scan(app, t) == 0
    clock.advance(2)
    assert await scan(app, t) == 1
    logged = [e["type"] for e in await events(t, token=token)]
    assert logged.index("deadlines_paused") < logged.index("deadlines_resumed") < logged.index("deadline_expired")


async def test_a_wait_that_starts_while_paused_keeps_its_whole_limit(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client)
    r = await client.put(f"{t.base}/deadlines", json={"turn_seconds": 30}, headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["deadlines"][0]["status"] == "running"
    await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))
    await t.ok({"type": "end_turn", "participant_id": hero}, token=token)  # the foe's turn: the GM's
    await t.ok({"type": "end_turn", "participant_id": foe})  # round 2: the hero's turn again
    clock.advance(500)
    (row,) = (await board(t))["deadlines"]
    assert row["status"] == "paused" and row["seconds_left"] == 30


async def test_extend_gives_one_wait_more_time_and_is_logged(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 10})
    (row,) = (await board(t))["deadlines"]
    clock.advance(55)
    assert await scan(app, t) == 1  # the warning
    r = await client.post(f"{t.base}/deadlines/{row['id']}/extend", json={"seconds": 120}, headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    assert r.json()["seconds_left"] == 125
    clock.advance(10)
    assert await scan(app, t) == 0  # 65 s: the old limit has passed
    clock.advance(105)
    assert await scan(app, t) == 1  # 170 s: warned again before the new limit
    clock.advance(11)
    assert await scan(app, t) == 1
    evs = await events(t, token=token)
    assert of_type(evs, "deadline_extended")[0]["data"]["seconds"] == 120
    assert len(of_type(evs, "deadline_warning")) == 2 and len(of_type(evs, "deadline_expired")) == 1
    assert_problem(
        await client.post(f"{t.base}/deadlines/{row['id']}/extend", json={"seconds": 5}, headers=bearer(t.gm)),
        404,
        "not_found",
        "deadline_id",
    )


async def test_an_expired_deadline_handed_to_the_gm_cannot_be_extended(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "choice_seconds": 30})
    await t.ok({"type": "open_test", "character_id": hero, "attribute": "strength"})  # a roll: no default
    (row,) = [d for d in (await board(t))["deadlines"] if d["kind"] == "choice"]
    clock.advance(31)
    assert await scan(app, t) == 1
    (gone,) = [d for d in (await board(t))["deadlines"] if d["id"] == row["id"]]
    assert gone["status"] == "expired"
    assert_problem(
        await client.post(f"{t.base}/deadlines/{row['id']}/extend", json={"seconds": 5}, headers=bearer(t.gm)),
        409,
        "deadline_expired",
        "deadline_id",
    )


async def test_graphql_sets_pauses_extends_and_reads_deadlines(app, client, monkeypatch):
    install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client)

    async def gql(query: str, variables: dict, tok: str) -> dict:
        r = await client.post("/graphql", json={"query": query, "variables": variables}, headers=bearer(tok))
        assert r.status_code == 200, r.text
        return r.json()

    out = await gql(
        "mutation($id: ID!) { setTurnDeadlines(input: {campaignId: $id, turnSeconds: 90, "
        "warningSeconds: 15}) { settings { turnSeconds warningSeconds } deadlines { id characterId until } } }",
        {"id": t.id},
        t.gm,
    )
    board_ = out["data"]["setTurnDeadlines"]
    assert board_["settings"] == {"turnSeconds": 90, "warningSeconds": 15}
    (row,) = board_["deadlines"]
    assert row["characterId"] == hero and row["until"]
    out = await gql(
        "mutation($id: ID!) { pauseTurnDeadlines(input: {campaignId: $id}) { paused } }", {"id": t.id}, t.gm
    )
    assert out["data"]["pauseTurnDeadlines"]["paused"] is True
    out = await gql(
        "mutation($id: ID!, $d: ID!) { extendTurnDeadline(input: {campaignId: $id, "
        "deadlineId: $d, seconds: 30}) { status secondsLeft } }",
        {"id": t.id, "d": row["id"]},
        t.gm,
    )
    assert out["data"]["extendTurnDeadline"] == {"status": "paused", "secondsLeft": 120}
    out = await gql(
        "query($id: ID!) { turnDeadlines(campaignId: $id) { paused deadlines { kind } } }", {"id": t.id}, token
    )
    assert out["data"]["turnDeadlines"] == {"paused": True, "deadlines": [{"kind": "turn"}]}
    out = await gql(
        "mutation($id: ID!) { resumeTurnDeadlines(input: {campaignId: $id}) { paused } }", {"id": t.id}, t.gm
    )
    assert out["data"]["resumeTurnDeadlines"]["paused"] is False
    out = await gql(
        "query($id: ID!) { state(campaignId: $id) { state { ... on IskraState { table { awaiting { "
        "characterId until } } } } } }",
        {"id": t.id},
        token,
    )
    waits = out["data"]["state"]["state"]["table"]["awaiting"]
    assert next(e for e in waits if e["characterId"] == hero)["until"]
    out = await gql(
        "mutation($id: ID!) { pauseTurnDeadlines(input: {campaignId: $id}) { paused } }", {"id": t.id}, token
    )
    assert out["errors"][0]["extensions"]["code"] == "gm_only"
    out = await gql(
        "query($id: ID!) { events(campaignId: $id, first: 500) { edges { node { type data { __typename "
        "... on DeadlineExtendedEvent { seconds } } } } } }",
        {"id": t.id},
        t.gm,
    )
    typed = {
        e["node"]["type"]: e["node"]["data"]["__typename"]
        for e in out["data"]["events"]["edges"]
        if e["node"]["type"].startswith("deadline")
    }
    assert typed == {
        "deadline_settings_changed": "DeadlineSettingsChangedEvent",
        "deadline_set": "DeadlineSetEvent",
        "deadlines_paused": "DeadlinesPausedEvent",
        "deadline_extended": "DeadlineExtendedEvent",
        "deadlines_resumed": "DeadlinesResumedEvent",
    }


async def test_graphql_campaign_created_with_deadlines(app, client):
    r = await client.post(
        "/graphql",
        json={
            "query": 'mutation { createCampaign(input: {name: "x", system: iskra, '
            "turnDeadlines: {turnSeconds: 60}}) { gmToken campaign { id } } }"
        },
    )
    body = r.json()["data"]["createCampaign"]
    r = await client.get(f"/v1/campaigns/{body['campaign']['id']}/deadlines", headers=bearer(body["gmToken"]))
    assert r.json()["settings"]["turn_seconds"] == 60


async def test_a_warning_already_sent_is_not_sent_again_after_pause_and_resume(app, client, monkeypatch):
    """Once per deadline: the warning went out at 50 s; paused at 55 s and resumed, the same deadline expires at
    60 s of play without a second warning."""
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 10})
    clock.advance(51)
    assert await scan(app, t) == 1  # the warning
    clock.advance(4)
    assert (await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))).status_code == 200
    clock.advance(300)
    assert (await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))).status_code == 200
    assert await scan(app, t) == 0  # 5 s left, inside the warning's 10: none
    clock.advance(6)
    assert await scan(app, t) == 1  # the expiry
    evs = await events(t, token=token)
    assert len(of_type(evs, "deadline_warning")) == 1 and len(of_type(evs, "deadline_expired")) == 1


async def test_a_deadline_paused_before_its_warning_is_warned_after_resume(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 10})
    clock.advance(20)
    assert (await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))).status_code == 200
    assert (await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))).status_code == 200
    clock.advance(31)
    assert await scan(app, t) == 1
    assert len(of_type(await events(t, token=token), "deadline_warning")) == 1


async def test_a_warning_a_pause_caught_before_the_scan_goes_out_once_after_resume(app, client, monkeypatch):
    """Paused after the warning's time but before the scan sent it: resumed, it goes out at once (not never), and
    only once."""
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60, "warning_seconds": 10})
    clock.advance(50.5)
    assert (await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))).status_code == 200
    assert (await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))).status_code == 200
    assert await scan(app, t) == 1
    (warning,) = of_type(await events(t, token=token), "deadline_warning")
    assert warning["data"]["seconds_left"] == 9.5
    clock.advance(5)
    assert (await client.post(f"{t.base}/deadlines/pause", headers=bearer(t.gm))).status_code == 200
    assert (await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))).status_code == 200
    assert await scan(app, t) == 0
    clock.advance(5)
    assert await scan(app, t) == 1  # the expiry
    assert len(of_type(await events(t, token=token), "deadline_warning")) == 1
