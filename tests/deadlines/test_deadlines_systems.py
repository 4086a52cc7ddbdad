"""Each rule system's default on a run-out deadline, applied through the API as an ordinary logged move (the
`app` fixture then checks every table replays from its move log), or handed to the GM where the rules have none."""

from __future__ import annotations

from apikit import Table, bearer
from clockkit import board, events, install, of_type, scan, state

TURNS = {"turn_seconds": 60, "choice_seconds": 30, "warning_seconds": 10}


async def campaign(
    client, system: str, *, dice_mode: str = "server", options: dict | None = None, deadlines: dict | None = None
) -> Table:
    body = {"name": "Deadlines", "system": system, "dice_mode": dice_mode, "options": options or {}}
    if deadlines is not None:
        body["turn_deadlines"] = deadlines
    r = await client.post("/v1/campaigns", json=body)
    assert r.status_code == 201, r.text
    return Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])


async def seat(t: Table, sheet: dict) -> tuple[str, str]:
    pid, token = await t.invite(sheet["name"])
    return (await t.character(sheet, player_id=pid))["id"], token


def entry(st: dict, cid: str) -> dict | None:
    return next((e for e in st["table"]["awaiting"] if e.get("character_id") == cid or e.get("who") == cid), None)


async def last_moves(t: Table, n: int) -> list[dict]:
    r = await t.client.get(f"{t.base}/export", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    return [m["body"]["action"] for m in r.json()["moves"][-n:]]


async def expired(t: Table) -> list[dict]:
    return [e["data"] for e in of_type(await events(t), "deadline_expired")]


# Step Dice ------------------------------------------------------------------------------------------------

WARRIOR = {
    "name": "Brona",
    "role": "warrior",
    "talents": ["Athlete", "Medic"],
    "equipment": {"weapon": "axe", "protection": "chain shirt", "items": ["rope", "torch", "whetstone"]},
}


async def stepdice_fight(client) -> tuple[Table, str, str]:
    t = await campaign(client, "stepdice", dice_mode="table")
    w, token = await seat(t, WARRIOR)
    await t.ok({"type": "create_encounter"})
    await t.ok({"type": "add_character", "character_id": w, "position": {"x": 0, "y": 0}})
    await t.ok({"type": "add_enemy", "enemy_id": "m", "name": "Goblin", "kind": "minion", "position": {"x": 3, "y": 0}})
    await t.ok({"type": "start_encounter"})
    return t, w, token


async def test_stepdice_open_turn_that_runs_out_ends(app, client, monkeypatch):
    """Seed §5.2: the player phase goes on without the absent PC: its open turn ends."""
    clock = install(monkeypatch)
    t, w, token = await stepdice_fight(client)
    r = await client.put(f"{t.base}/deadlines", json=TURNS, headers=bearer(t.gm))  # set by the GM mid-campaign
    assert r.status_code == 200, r.text
    await t.ok({"type": "begin_turn", "character_id": w}, token=token)
    assert entry(await state(t, token), w)["until"] is not None
    clock.advance(61)
    assert await scan(app, t) == 1
    assert (await expired(t))[-1]["default_action"] == {"type": "end_turn", "character_id": w}
    assert await last_moves(t, 1) == [{"type": "end_turn", "character_id": w}]
    st = await state(t)
    assert w in st["table"]["encounter"]["pcs_done"]


async def test_stepdice_turn_not_begun_is_handed_to_the_gm(app, client, monkeypatch):
    """No rule begins a turn for a player: the wait passes to the GM, announced, and nothing is moved."""
    clock = install(monkeypatch)
    t, w, token = await stepdice_fight(client)
    await client.put(f"{t.base}/deadlines", json=TURNS, headers=bearer(t.gm))
    before = (await t.state())["version"]
    clock.advance(61)
    assert await scan(app, t) == 1
    announced = (await expired(t))[-1]
    assert announced["handed_to"] == "gm" and announced["default_action"] is None
    assert announced["reason"] == "no_default"
    assert (await t.state())["version"] == before
    assert entry(await state(t), w)["until"] is None
    clock.advance(600)
    assert await scan(app, t) == 0  # handed over once, never again


# Trikus ---------------------------------------------------------------------------------------------------


def trikus_sheet(name: str) -> dict:
    return {
        "name": name,
        "tier": "beginner",
        "light_sides": [{"text": f"{name} is kind {i}"} for i in range(3)],
        "dark_sides": [{"text": f"{name} is dark", "authored_by": "self"}],
    }


async def test_trikus_absent_players_die_is_thrown_for_them(app, client, monkeypatch):
    """Spec 5.0: a throw for an absent player is a logged move; the wave then goes on as if they had thrown."""
    clock = install(monkeypatch)
    t = await campaign(client, "trikus", deadlines={"turn_seconds": 60})
    p, pt = await seat(t, trikus_sheet("Pawel"))
    z, zt = await seat(t, trikus_sheet("Zuzia"))
    await t.ok({"type": "open_test", "character_ids": [p, z], "gm_pool": 3})
    await t.ok({"type": "join", "character_id": p, "line_index": 0}, token=pt)
    await t.ok({"type": "join", "character_id": z, "line_index": 0}, token=zt)
    await t.ok({"type": "start"})
    await t.ok({"type": "throw"})
    await t.ok({"type": "throw", "character_id": p}, token=pt)
    assert entry(await state(t, zt), z)["until"] is not None
    clock.advance(61)
    assert await scan(app, t) >= 1
    thrown = [e for e in await expired(t) if e["character_id"] == z]
    assert thrown[0]["default_action"] == {"type": "throw", "character_id": z}
    assert {"type": "throw", "character_id": z} in await last_moves(t, 3)


async def test_trikus_in_table_dice_mode_a_throw_for_an_absent_player_goes_to_the_gm(app, client, monkeypatch):
    """Table mode: the players throw their own dice, so nobody can throw for the absent one."""
    clock = install(monkeypatch)
    t = await campaign(client, "trikus", dice_mode="table", deadlines={"turn_seconds": 60})
    p, pt = await seat(t, trikus_sheet("Pawel"))
    await t.ok({"type": "open_test", "character_ids": [p], "gm_pool": 3})
    await t.ok({"type": "join", "character_id": p, "line_index": 0}, token=pt)
    await t.ok({"type": "start"})
    await t.ok({"type": "throw"}, dice=[])
    before = (await t.state())["version"]
    clock.advance(61)
    assert await scan(app, t) == 1
    (announced,) = await expired(t)
    assert announced["handed_to"] == "gm" and announced["reason"] == "table_dice"
    assert (await t.state())["version"] == before


async def test_a_finished_campaign_keeps_no_deadline(app, client, monkeypatch):
    clock = install(monkeypatch)
    t = await campaign(client, "trikus", deadlines={"turn_seconds": 60})
    p, pt = await seat(t, trikus_sheet("Pawel"))
    await t.ok({"type": "open_test", "character_ids": [p], "gm_pool": 3})
    assert (await board(t))["deadlines"] == []  # joining is a choice, and choices are not timed here
    await t.ok({"type": "join", "character_id": p, "line_index": 0}, token=pt)
    await t.ok({"type": "start"})
    assert len((await board(t))["deadlines"]) == 1
    r = await client.post(f"{t.base}/finish", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    assert (await board(t))["deadlines"] == []
    clock.advance(61)
    assert await scan(app, t) == 0


# Danger Pool ----------------------------------------------------------------------------------------------


def crew(name: str) -> dict:
    return {"name": name, "abilities": {"Wetwork": 3}, "legends": ["A legend"], "equipment": ["a tool"]}


async def danger_scene(client, options: dict | None = None) -> tuple[Table, str, str, str, str]:
    t = await campaign(client, "danger_pool", dice_mode="table", options=options, deadlines=TURNS)
    a, at = await seat(t, crew("Cyclops"))
    b, bt = await seat(t, crew("Mole"))
    await t.ok({"type": "create_action_scene", "goal": "get through the bar", "leader_id": a, "team": [a, b]})
    await t.ok({"type": "start_scene"})
    return t, a, at, b, bt


async def test_danger_pool_absent_leaders_first_action_is_waived(app, client, monkeypatch):
    """A46: the leader's right to act first is waived so an absent leader never blocks the round."""
    clock = install(monkeypatch)
    t, a, at, b, bt = await danger_scene(client)
    assert "waive_first" in entry(await state(t, at), a)["may"]
    clock.advance(61)
    assert await scan(app, t) == 1
    assert await last_moves(t, 1) == [{"type": "waive_first", "character_id": a}]
    st = await state(t)
    assert st["table"]["scene"]["leader_first_pending"] is False
    assert {e["character_id"] for e in st["table"]["awaiting"]} == {a, b}
    assert all(e["until"] is not None for e in st["table"]["awaiting"])


async def test_danger_pool_round_action_is_passed_where_passing_is_allowed_and_the_scene_continues(
    app, client, monkeypatch
):
    """A41: passing is a campaign toggle; with it a run-out round action is passed. §4.13: at the round's end
    a leader who does not bail out continues the scene."""
    clock = install(monkeypatch)
    t, a, at, b, bt = await danger_scene(client, {"allow_pass": True})
    await t.ok({"type": "waive_first", "character_id": a}, token=at)
    clock.advance(61)
    assert await scan(app, t) == 2
    assert sorted(await last_moves(t, 2), key=str) == sorted(
        [{"type": "pass_turn", "character_id": a}, {"type": "pass_turn", "character_id": b}], key=str
    )
    # Everyone has passed: the round's end waits for the leader, whose run-out choice continues the scene.
    assert "continue_scene" in entry(await state(t), a)["may"]
    clock.advance(31)
    assert await scan(app, t) == 1
    assert await last_moves(t, 1) == [{"type": "continue_scene", "character_id": a}]


async def test_danger_pool_round_action_goes_to_the_gm_without_passing(app, client, monkeypatch):
    clock = install(monkeypatch)
    t, a, at, b, bt = await danger_scene(client)
    await t.ok({"type": "waive_first", "character_id": a}, token=at)
    clock.advance(61)
    assert await scan(app, t) == 2
    assert {e["handed_to"] for e in await expired(t)} == {"gm"}


# Iskra: reactions -----------------------------------------------------------------------------------------

ELF = {
    "name": "Ala",
    "species": "elf",
    "attributes": {"strength": 2, "dexterity": 2, "intelligence": 2, "charisma": 2},
    "predispositions": [{"label": "Sneaking"}],
    "weaknesses": [{"label": "Public speaking"}],
    "abilities": [{"ability_id": "light_step"}, {"ability_id": "efficiency"}],
}


async def test_iskra_incoming_wounds_are_taken_as_they_stand_when_the_choice_runs_out(app, client, monkeypatch):
    """Spec 5.2: without the player, no Focus Point is spent: the damage is accepted."""
    clock = install(monkeypatch)
    t = await campaign(client, "iskra", deadlines=TURNS)
    hero, token = await seat(t, ELF)
    await t.ok({"type": "approve_character", "character_id": hero})
    await t.ok({"type": "deal_damage", "character_id": hero, "wounds": 2, "source": "fall", "description": "a ledge"})
    waits = entry(await state(t, token), hero)
    assert "accept_damage" in waits["may"] and waits["until"] is not None
    clock.advance(31)
    assert await scan(app, t) == 1
    assert await last_moves(t, 1) == [{"type": "accept_damage"}]
    sheet = (await client.get(f"{t.base}/characters/{hero}", headers=bearer(token))).json()["sheet"]
    assert sheet["health"] == 3


# Action Deck ----------------------------------------------------------------------------------------------

TRAITS = {
    "attributes": {"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"},
    "skills": {"athletics": "d6", "notice": "d6", "fighting": "d8", "shooting": "d6"},
}


async def test_action_deck_called_character_goes_on_hold_when_the_turn_runs_out(app, client, monkeypatch):
    """§4.18: a called character may hold and act later in the round; that is what the absent one does."""
    clock = install(monkeypatch)
    t = await campaign(client, "action_deck", deadlines=TURNS)
    pid, token = await t.invite("Ala")
    hero = (await t.character({"name": "Hero", **TRAITS}, player_id=pid))["id"]
    goon = (await t.character({"name": "Goon", "kind": "extra", "side": "opposition", **TRAITS}))["id"]
    await t.ok({"type": "open_session", "players": [{"player_id": pid, "character_ids": [hero]}]})
    await t.ok({"type": "start_encounter", "participants": [hero, goon]})
    await t.ok({"type": "deal"})
    for _ in range(4):
        st = await state(t)
        mine = entry(st, hero)
        if mine is not None and "hold" in mine["may"]:
            break
        gm = next((e for e in st["table"]["awaiting"] if e["who"] == "gm"), {"may": []})
        if "call_next" in gm["may"]:
            await t.ok({"type": "call_next"})
        else:
            await t.ok({"type": "end_turn", "character_id": st["table"]["encounter"]["current_turn"]})
    assert mine["until"] is not None
    # The GM's own characters are never timed: only a player's wait has a deadline.
    assert all(d["character_id"] == hero for d in (await board(t))["deadlines"])
    clock.advance(61)
    assert await scan(app, t) >= 1
    # (An export would reveal the undealt deck: the expiry event names the move, the table shows it applied.)
    assert {"type": "hold", "character_id": hero} in [e["default_action"] for e in await expired(t)]
    assert (await state(t))["table"]["encounter"]["participants"][hero]["on_hold"] is True
