"""Iskra turn deadlines: a player's turn that runs out ends (the turn passes), with a warning first."""

from __future__ import annotations

from apikit import Table, bearer
from clockkit import board, events, install, of_type, scan, state

ELF = {
    "name": "Ala",
    "species": "elf",
    "attributes": {"strength": 2, "dexterity": 2, "intelligence": 2, "charisma": 2},
    "predispositions": [{"label": "Sneaking"}],
    "weaknesses": [{"label": "Public speaking"}],
    "abilities": [{"ability_id": "light_step"}, {"ability_id": "efficiency"}],
}


async def iskra_fight(client, deadlines=None) -> tuple[Table, str, str, str]:
    body = {"name": "Iskra", "system": "iskra", "dice_mode": "server"}
    if deadlines is not None:
        body["turn_deadlines"] = deadlines
    r = await client.post("/v1/campaigns", json=body)
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Ala")
    hero = (await t.character(ELF, player_id=pid))["id"]
    foe = (await t.character({**ELF, "name": "Bandit", "controller": "gm"}))["id"]
    for cid in (hero, foe):
        await t.ok({"type": "approve_character", "character_id": cid})
    await t.ok(
        {
            "type": "start_combat",
            "initiator_id": hero,
            "sides": [{"side_id": "A", "participant_ids": [hero]}, {"side_id": "B", "participant_ids": [foe]}],
        }
    )
    return t, hero, foe, token


async def test_iskra_turn_that_runs_out_ends_by_default_after_a_warning(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 120, "warning_seconds": 30})
    waiting = (await state(t, token))["table"]["awaiting"]
    mine = next(e for e in waiting if e.get("character_id") == hero)
    assert mine["until"] is not None and "end_turn" in mine["may"]
    assert of_type(await events(t, token=token), "deadline_set")[-1]["data"]["character_id"] == hero

    clock.advance(89)
    assert await scan(app, t) == 0
    clock.advance(2)  # 91 s: inside the 30 s warning
    assert await scan(app, t) == 1
    warning = of_type(await events(t, token=token), "deadline_warning")
    assert len(warning) == 1 and warning[0]["data"]["character_id"] == hero
    assert not of_type(await events(t), "deadline_expired")

    clock.advance(30)  # 121 s: run out
    assert await scan(app, t) == 1
    evs = await events(t)
    expired = of_type(evs, "deadline_expired")[0]["data"]
    assert expired["handed_to"] == "rules"
    assert expired["default_action"] == {"type": "end_turn", "participant_id": hero}
    assert of_type(evs, "turn_ended") or of_type(evs, "turn_started")
    now = (await state(t))["table"]
    assert not any(e.get("character_id") == hero for e in now["awaiting"])
    assert await scan(app, t) == 0  # fired once
    r = await client.get(f"{t.base}/export", headers=bearer(t.gm))
    moves = r.json()["moves"]
    assert moves[-1]["body"]["action"] == {"type": "end_turn", "participant_id": hero}


async def test_iskra_without_deadlines_awaiting_has_no_until(app, client):
    t, hero, foe, token = await iskra_fight(client)
    assert all("until" not in e for e in (await state(t, token))["table"]["awaiting"])
    assert (await board(t))["deadlines"] == []


async def test_iskra_a_turn_answered_in_time_clears_its_deadline_and_the_next_wait_gets_its_own(
    app, client, monkeypatch
):
    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 120})
    (first,) = (await board(t))["deadlines"]
    await t.ok({"type": "end_turn", "participant_id": hero}, token=token)
    cleared = of_type(await events(t, token=token), "deadline_cleared")
    assert [e["data"]["deadline_id"] for e in cleared] == [first["id"]]
    assert (await board(t))["deadlines"] == []  # the foe's turn is the GM's: not timed
    clock.advance(100)
    await t.ok({"type": "end_turn", "participant_id": foe})
    (second,) = (await board(t))["deadlines"]
    assert second["id"] != first["id"] and second["seconds_left"] == 120
    assert await scan(app, t) == 0


async def test_iskra_a_default_that_cannot_be_worked_out_hands_the_wait_to_the_gm(app, client, monkeypatch):
    """A bug in a system's timeouts must not stall the table: the GM is handed the wait, and it is announced."""
    from service.rules.iskra import timeouts

    def broken(table, entry):
        raise KeyError("encounter")

    clock = install(monkeypatch)
    monkeypatch.setattr(timeouts, "default", broken)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60})
    clock.advance(61)
    assert await scan(app, t) == 1
    (expired,) = of_type(await events(t), "deadline_expired")
    assert expired["data"]["handed_to"] == "gm" and expired["data"]["reason"] == "default_failed"


async def test_a_default_refused_after_its_dice_logs_them_and_hands_the_wait_to_the_gm(app, client, monkeypatch):
    """A die once drawn is never discarded, the server's own move included."""
    from service.game.moves import pipeline
    from service.game.errors import GameError

    def rolls_then_refuses(system, state, action, actor, dice, dice_session):
        dice.roll(10, purpose="stand-in")
        raise GameError(409, "stand_in_refusal", "refused after a roll")

    clock = install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60})
    before = (await t.state())["version"]
    monkeypatch.setattr(pipeline, "decide", rolls_then_refuses)
    clock.advance(61)
    assert await scan(app, t) == 1
    evs = await events(t)
    (refused,) = of_type(evs, "deadline_default_refused")
    assert refused["data"]["code"] == "stand_in_refusal"
    assert of_type(evs, "dice_rolled")[-1]["data"]["refused"]["code"] == "stand_in_refusal"
    assert (await t.state())["version"] == before
    (row,) = (await board(t))["deadlines"]
    assert row["status"] == "expired"
    clock.advance(600)
    assert await scan(app, t) == 0


async def test_iskra_a_character_given_to_a_player_mid_turn_is_timed_from_then(app, client, monkeypatch):
    install(monkeypatch)
    t, hero, foe, token = await iskra_fight(client, {"turn_seconds": 60})
    pid = next(p for p in t.players)
    r = await client.put(f"{t.base}/characters/{hero}/player", json={"player_id": None}, headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    assert (await board(t))["deadlines"] == []  # the GM's character now: not timed
    r = await client.put(f"{t.base}/characters/{hero}/player", json={"player_id": pid}, headers=bearer(t.gm))
    assert [d["character_id"] for d in (await board(t))["deadlines"]] == [hero]
