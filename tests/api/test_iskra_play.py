"""Iskra through the API: incoming damage waits for the player's Focus Points and the GM's approval across
requests; NPC numbers stay hidden from players."""

from __future__ import annotations

from apikit import Table, assert_problem, bearer

ELF = {
    "name": "Ala",
    "species": "elf",
    "attributes": {"strength": 2, "dexterity": 2, "intelligence": 2, "charisma": 2},
    "predispositions": [{"label": "Sneaking"}],
    "weaknesses": [{"label": "Public speaking"}],
    "abilities": [{"ability_id": "light_step"}, {"ability_id": "efficiency"}],
}


async def iskra_table(client) -> tuple[Table, str, str]:
    r = await client.post("/v1/campaigns", json={"name": "Iskra", "system": "iskra", "dice_mode": "table"})
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Ala")
    hero = await t.character(ELF, player_id=pid)
    return t, hero["id"], token


async def test_focus_points_reduce_damage_after_gm_approval(client):
    """IS-E1 in spirit: a fall of 2 Wounds; the player spends 1 Focus Point with a description the GM approves."""
    t, hero, token = await iskra_table(client)
    assert_problem(
        await t.act({"type": "recovery_test", "character_id": hero}, token=token, dice=[5]),
        409,
        "character_not_approved",
    )
    await t.ok({"type": "approve_character", "character_id": hero})
    before = (await client.get(f"{t.base}/characters/{hero}", headers=bearer(token))).json()["sheet"]
    out = await t.ok(
        {
            "type": "deal_damage",
            "character_id": hero,
            "wounds": 2,
            "source": "fall",
            "description": "the ledge gives way",
        }
    )
    assert out["state"]["table"]["pending"]["kind"] == "damage"
    assert_problem(await t.act({"type": "approve_focus"}, token=token), 403, "gm_only")
    await t.ok({"type": "reduce_damage", "amount": 1, "description": "grabs a root"}, token=token)
    await t.ok({"type": "approve_focus"})
    await t.ok({"type": "accept_damage"}, token=token)
    after = (await client.get(f"{t.base}/characters/{hero}", headers=bearer(token))).json()["sheet"]
    assert after["health"] == before["health"] - 1
    assert after["focus_points"] == before["focus_points"] - 1


async def test_players_do_not_see_npc_health_or_focus(client):
    t, hero, token = await iskra_table(client)
    npc = await t.character({**ELF, "name": "Bandit", "controller": "gm"})
    gm_view = (await client.get(f"{t.base}/characters/{npc['id']}", headers=bearer(t.gm))).json()["sheet"]
    pl_view = (await client.get(f"{t.base}/characters/{npc['id']}", headers=bearer(token))).json()["sheet"]
    assert "health" in gm_view and "focus_points" in gm_view
    assert "health" not in pl_view and "focus_points" not in pl_view


async def test_a_refusal_never_tells_a_player_the_s_of_a_test_with_hidden_modifiers(client):
    """Spec 8: hidden situational modifiers are GM-only; roll_required names S only to the GM."""
    t, hero, token = await iskra_table(client)
    await t.ok({"type": "approve_character", "character_id": hero})
    await t.ok(
        {
            "type": "open_test",
            "character_id": hero,
            "attribute": "strength",
            "modifiers": [{"source": "a hidden ally", "value": 3, "hidden": True}],
        }
    )
    body = assert_problem(await t.act({"type": "accept_test"}, token=token), 409, "roll_required", "action.type")
    assert "5" not in body["detail"]
    body = assert_problem(await t.act({"type": "accept_test"}), 409, "roll_required")
    assert "S = 5" in body["detail"]
