"""Nobody at the table: each rule system's default moves for absent players stop after
RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW in a row (the deadlines pause, with a `deadlines_paused_unattended`
event), so a campaign with one-second turns and an empty table does not grow its log forever."""

from __future__ import annotations

import dataclasses

import pytest
from apikit import Table, bearer
from clockkit import board, events, install, of_type
from test_deadlines_iskra import ELF
from test_deadlines_systems import TRAITS, campaign, crew, seat, stepdice_fight, trikus_sheet

FAST = {"turn_seconds": 1, "choice_seconds": 1, "warning_seconds": 0}
LIMIT = 5  # above the longest chain of defaults the rules themselves end (Danger Pool: 4)


@pytest.fixture
def settings(settings):
    return dataclasses.replace(settings, deadline_max_defaults_in_row=LIMIT)


async def unattended(app, t: Table, clock, rounds: int = 40) -> list[dict]:
    """The clock runs on with nobody moving: `rounds` scans, each two seconds after the last."""
    for _ in range(rounds):
        clock.advance(2)
        await app.state.deadlines.run_due()
    return await events(t)


def defaults(evs: list[dict]) -> list[dict]:
    return [e["data"]["default_action"] for e in of_type(evs, "deadline_expired") if e["data"]["handed_to"] == "rules"]


# One table per system, each left alone with a player's wait on the clock.


async def stepdice_table(client) -> Table:
    t, w, token = await stepdice_fight(client)
    assert (await client.put(f"{t.base}/deadlines", json=FAST, headers=bearer(t.gm))).status_code == 200
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    return t


async def trikus_table(client) -> Table:
    t = await campaign(client, "trikus", deadlines=FAST)
    p, pt = await seat(t, trikus_sheet("Pawel"))
    z, zt = await seat(t, trikus_sheet("Zuzia"))
    await t.ok({"type": "open_test", "character_ids": [p, z], "gm_pool": 3})
    await t.ok({"type": "join", "character_id": p, "line_index": 0}, token=pt)
    await t.ok({"type": "join", "character_id": z, "line_index": 0}, token=zt)
    await t.ok({"type": "start"})
    await t.ok({"type": "throw"})
    return t


async def danger_pool_table(client) -> Table:
    t = await campaign(client, "danger_pool", dice_mode="table", options={"allow_pass": True}, deadlines=FAST)
    a, _ = await seat(t, crew("Cyclops"))
    b, _ = await seat(t, crew("Mole"))
    await t.ok({"type": "create_action_scene", "goal": "get through the bar", "leader_id": a, "team": [a, b]})
    await t.ok({"type": "start_scene"})
    return t


async def iskra_seated(client) -> tuple[Table, dict[str, str]]:
    """Two players' heroes on opposite sides: their turns pass back and forth; with each hero's token."""
    t = await campaign(client, "iskra", deadlines=FAST)
    a, at = await seat(t, ELF)
    b, bt = await seat(t, {**ELF, "name": "Ola"})
    for cid in (a, b):
        await t.ok({"type": "approve_character", "character_id": cid})
    await t.ok(
        {
            "type": "start_combat",
            "initiator_id": a,
            "sides": [{"side_id": "A", "participant_ids": [a]}, {"side_id": "B", "participant_ids": [b]}],
        }
    )
    return t, {a: at, b: bt}


async def iskra_table(client) -> Table:
    return (await iskra_seated(client))[0]


async def action_deck_table(client) -> Table:
    t = await campaign(client, "action_deck", deadlines=FAST)
    pid, _ = await t.invite("Ala")
    hero = (await t.character({"name": "Hero", **TRAITS}, player_id=pid))["id"]
    goon = (await t.character({"name": "Goon", "kind": "extra", "side": "opposition", **TRAITS}))["id"]
    await t.ok({"type": "open_session", "players": [{"player_id": pid, "character_ids": [hero]}]})
    await t.ok({"type": "start_encounter", "participants": [hero, goon]})
    await t.ok({"type": "deal"})
    for _ in range(8):  # the GM calls cards until the player's character is up
        st = (await t.state())["state"]
        if any(e.get("character_id") == hero and "hold" in e["may"] for e in st["table"]["awaiting"]):
            break
        gm = next((e for e in st["table"]["awaiting"] if e["who"] == "gm"), {"may": []})
        if "call_next" in gm["may"]:
            await t.ok({"type": "call_next"})
        else:
            await t.ok({"type": "end_turn", "character_id": st["table"]["encounter"]["current_turn"]})
    assert (await board(t))["deadlines"], "the player's character is up, on the clock"
    return t


TABLES = {
    "stepdice": stepdice_table,
    "trikus": trikus_table,
    "danger_pool": danger_pool_table,
    "iskra": iskra_table,
    "action_deck": action_deck_table,
}


# Where the rules go on without anyone (Iskra: two players' heroes pass the turn back and forth for ever) only the
# limit stops them; elsewhere the defaults soon reach a wait that is the GM's (Step Dice: a turn nobody begins;
# Trikus: the wave's end; Danger Pool: what follows a continued scene; Action Deck: the next card to call).
ENDLESS = {"iskra"}


@pytest.mark.parametrize("system", TABLES)
async def test_an_empty_table_with_one_second_turns_stops_growing_its_log(app, client, monkeypatch, system):
    clock = install(monkeypatch)
    t = await TABLES[system](client)
    evs = await unattended(app, t, clock)
    made = defaults(evs)
    assert 1 <= len(made) <= LIMIT, made
    assert all(d["status"] != "running" for d in (await board(t))["deadlines"])
    assert len(await unattended(app, t, clock)) == len(evs)  # and it stays that way
    paused = of_type(evs, "deadlines_paused_unattended")
    if system in ENDLESS:
        assert len(made) == LIMIT
        (event,) = paused
        assert event["data"]["defaults_in_row"] == LIMIT and event["data"]["deadlines"]
        assert (await board(t))["paused"] is True
    else:
        assert paused == []


@pytest.mark.parametrize("system", TABLES)
async def test_at_the_limit_the_deadlines_pause_and_say_why_in_every_system(app, client, monkeypatch, system):
    clock = install(monkeypatch)
    svc = app.state.services
    monkeypatch.setattr(svc, "settings", dataclasses.replace(svc.settings, deadline_max_defaults_in_row=1))
    t = await TABLES[system](client)
    evs = await unattended(app, t, clock)
    assert len(defaults(evs)) == 1
    (event,) = of_type(evs, "deadlines_paused_unattended")
    assert event["data"]["defaults_in_row"] == 1
    assert evs[-1]["type"] == "deadlines_paused_unattended"  # nothing after it
    assert (await board(t))["paused"] is True
    # The players see why the clock stopped, as they see the GM's pause.
    (_, token), *_ = t.players.items()
    assert of_type(await events(t, token=token), "deadlines_paused_unattended")


async def test_a_move_from_the_table_starts_the_count_again_and_so_does_the_gms_resume(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, tokens = await iskra_seated(client)
    evs = await unattended(app, t, clock, rounds=LIMIT - 1)
    assert len(defaults(evs)) == LIMIT - 1 and not of_type(evs, "deadlines_paused_unattended")
    (deadline,) = (await board(t))["deadlines"]
    hero = deadline["character_id"]
    await t.ok({"type": "end_turn", "participant_id": hero}, token=tokens[hero])
    evs = await unattended(app, t, clock)
    assert len(defaults(evs)) == (LIMIT - 1) + LIMIT  # a full count again after the player's move
    assert len(of_type(evs, "deadlines_paused_unattended")) == 1
    r = await client.post(f"{t.base}/deadlines/resume", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    evs = await unattended(app, t, clock)
    assert len(defaults(evs)) == (LIMIT - 1) + 2 * LIMIT  # and again after the GM's resume
    assert len(of_type(evs, "deadlines_paused_unattended")) == 2
