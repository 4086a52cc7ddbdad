"""Danger Pool through the API: an action scene played with table dice by the player and the GM, and the
GM's hidden elements kept from players."""

from __future__ import annotations

from apikit import Table, assert_problem


async def danger_table(client) -> tuple[Table, str, str]:
    r = await client.post("/v1/campaigns", json={"name": "One Last Job", "system": "danger_pool", "dice_mode": "table"})
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Cyclops")
    ch = await t.character(
        {
            "name": "Cyclops",
            "abilities": {"Wetwork": 3},
            "legends": ["Lead Nightmare of Old Baghdad"],
            "equipment": ["ivory-trimmed Colt 1911"],
        },
        player_id=pid,
    )
    await t.ok({"type": "assign_player", "player_id": pid, "character_id": ch["id"]})
    return t, ch["id"], token


async def test_push_marks_progress_for_dice_above_the_danger_maximum(client):
    """DP-E1 in spirit: Wetwork 3 + a legend + equipment = 5 dice against a danger pool of 2 (the start)."""
    t, cid, token = await danger_table(client)
    await t.ok(
        {
            "type": "create_action_scene",
            "goal": "get through the bar",
            "leader_id": cid,
            "team": [cid],
            "progress_track_length": 8,
        }
    )
    await t.ok({"type": "start_scene"})
    assert_problem(await t.act({"type": "start_scene"}, token=token), 403, "gm_only")
    out = await t.ok(
        {
            "type": "declare_action",
            "character_id": cid,
            "kind": "push",
            "approach": "kick the door",
            "ability": "Wetwork",
            "legends": ["legend-1"],
            "equipment": "item-1",
        },
        token=token,
        dice=[10, 10, 6, 6, 5, 9, 2],
    )
    rolled = [e for e in out["events"] if e["type"] == "dice_rolled"][0]["data"]["dice"]
    assert [d["face"] for d in rolled] == [10, 10, 6, 6, 5, 9, 2]
    scene = out["state"]["table"]["scene"]
    assert scene["progress_marked"] == 2


async def test_players_do_not_see_unrevealed_elements(client):
    t, cid, token = await danger_table(client)
    await t.ok({"type": "create_action_scene", "goal": "crack the safe", "leader_id": cid, "team": [cid]})
    await t.ok({"type": "add_element", "text": "SECRET guard dog"})
    assert "SECRET" in str((await t.state())["state"])
    assert "SECRET" not in str((await t.state(token))["state"])
    assert "SECRET" not in str(await t.events(token))


async def test_a_betrayers_former_player_can_no_longer_act_or_narrate_for_it(client):
    """§4.15.3: Betray the Team makes the character the GM's; its player is refused with character_not_yours."""
    t, cid, token = await danger_table(client)
    await t.ok(
        {
            "type": "create_action_scene",
            "goal": "rob the bank",
            "leader_id": cid,
            "team": [cid],
            "progress_track_length": 50,
        }
    )
    await t.ok({"type": "start_scene"})
    push = {"type": "declare_action", "character_id": cid, "kind": "push", "approach": "go", "ability": "Wetwork"}
    await t.ok(push, token=token, dice=[5, 5, 5, 10, 10])  # two danger tens: stamina 3 → 1
    await t.ok({"type": "continue_scene", "character_id": cid}, token=token)
    await t.ok({"type": "next_round"})
    await t.ok(push, token=token, dice=[5, 5, 5, 10, 10, 10, 10])  # taken out
    await t.ok({"type": "create_planning_scene"})
    await t.ok(
        {"type": "choose_aftermath", "character_id": cid, "option": "betray_the_team", "plan": "sell out"}, token=token
    )
    describe = {"type": "describe", "character_id": cid, "topic": "other", "text": "I was never with you"}
    assert_problem(await t.act(describe, token=token), 403, "character_not_yours", "action.character_id")
    await t.ok(describe)  # the GM speaks for the betrayer now


async def test_players_cannot_count_unrevealed_elements_from_ids_or_counters(client):
    t, cid, token = await danger_table(client)
    await t.ok(
        {
            "type": "create_action_scene",
            "goal": "crack the safe",
            "leader_id": cid,
            "team": [cid],
            "elements": [{"text": "the dog"}, {"text": "the guard"}],
        }
    )
    table = (await t.state(token))["state"]["table"]
    assert table["scene"]["elements"] == [] and "seq" not in table and "id_salt" not in table
    gm_ids = [e["element_id"] for e in (await t.state())["state"]["table"]["scene"]["elements"]]
    assert "element-1" not in gm_ids and "element-2" not in gm_ids
