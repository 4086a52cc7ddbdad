"""Action Deck through the API: the deck stays secret, and concurrent deals or benny spends over the real
stores never double-deal a card or double-spend a benny."""

from __future__ import annotations

import asyncio

from apikit import assert_problem, bearer

from service.dice import verifiable

TRAITS = {
    "attributes": {"agility": "d6", "smarts": "d6", "spirit": "d6", "strength": "d6", "vigor": "d6"},
    "skills": {"athletics": "d6", "notice": "d6", "fighting": "d8", "shooting": "d6"},
}


async def deck_table(client, dice_mode="server"):
    from apikit import Table

    r = await client.post("/v1/campaigns", json={"name": "Deadlands", "system": "action_deck", "dice_mode": dice_mode})
    assert r.status_code == 201, r.text
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Ala")
    hero = await t.character({"name": "Hero", **TRAITS}, player_id=pid)
    goon = await t.character({"name": "Goon", "kind": "extra", "side": "opposition", **TRAITS})
    await t.ok({"type": "open_session", "players": [{"player_id": pid, "character_ids": [hero["id"]]}]})
    await t.ok({"type": "start_encounter", "participants": [hero["id"], goon["id"]]})
    return t, pid, token, hero["id"], goon["id"]


def cards_seen(state) -> list[str]:
    deck = state["table"]["deck"]
    dealt = [c for s in state["table"]["encounter"]["participants"].values() for c in (s.get("candidates") or [])]
    return dealt + list(deck.get("discard_pile", []))


async def test_nobody_sees_the_undealt_order_and_players_never_the_gm_pool(client):
    t, pid, token, hero, _ = await deck_table(client)
    await t.ok({"type": "deal"})
    gm_state = (await t.state())["state"]["table"]
    pl_state = (await t.state(token))["state"]["table"]
    assert "gm" in gm_state and "gm" not in pl_state
    for deck in (pl_state["deck"], gm_state["deck"]):
        assert "draw_pile" not in deck and "sealed" not in deck
    for log in (await t.events(token), await t.events()):  # §8: "hidden from everyone, GM included"
        orders = [e for e in log if e["type"] == "deck_order"]
        assert orders and all("order" not in e["data"] and "dice" not in e["data"] for e in orders)
        shuffle = [e for e in log if e["type"] == "dice_rolled" and e["data"].get("sealed")]
        assert [e["data"]["hidden_dice"] for e in shuffle] == [53] and "dice" not in shuffle[0]["data"]


async def test_the_order_and_its_dice_are_shown_to_everyone_when_the_encounter_ends(client):
    t, pid, token, hero, _ = await deck_table(client)
    await t.ok({"type": "deal"})
    await t.ok({"type": "end_encounter"})
    shown = [e for e in await t.events(token) if e["type"] == "dice_unsealed"]
    assert len(shown) == 1 and shown[0]["data"]["seal"] == "deck_shuffle:1"
    assert len(shown[0]["data"]["order"]) == 54 and len(shown[0]["data"]["shuffle_dice"]) == 53


async def test_players_see_an_npc_test_s_outcome_but_not_its_trait_dice(client):
    """§8 "NPC trait dice" are GM-only, in the dice log as in the test's own events."""
    t, pid, token, hero, goon = await deck_table(client)
    mark = (await t.events())[-1]["seq"]
    await t.ok({"type": "trait_test", "character_id": goon, "trait": "fighting"})
    gm = {e["type"]: e["data"] for e in await t.events(after=mark)}
    mine = {e["type"]: e["data"] for e in await t.events(token, after=mark)}
    assert gm["dice_rolled"]["dice"] and {d["sides"] for d in gm["dice_rolled"]["dice"]} <= {8, 6}
    assert mine["dice_rolled"] == {"purpose": "trait_test", "hidden": "gm"}
    assert "dice" not in mine["trait_test_rolled"] and "result" in mine["trait_test_rolled"]["test"]
    await t.ok({"type": "trait_test", "character_id": hero, "trait": "fighting"})
    mine = [e for e in await t.events(token) if e["type"] == "dice_rolled"]
    assert mine[-1]["data"]["dice"]  # a player's character rolls in the open


async def test_concurrent_deals_never_deal_twice(client):
    t, *_ = await deck_table(client)
    results = await asyncio.gather(*[t.act({"type": "deal"}) for _ in range(5)])
    assert sorted(r.status_code for r in results).count(200) == 1, [r.text for r in results]
    assert all(r.status_code == 409 for r in results if r.status_code != 200)
    state = (await t.state())["state"]
    seen = cards_seen(state)
    assert len(seen) == len(set(seen))
    deck = state["table"]["deck"]
    out_of_pile = set(seen) | set(deck.get("in_play", []))
    assert deck["draw_pile_count"] + len(out_of_pile) == 54


async def test_concurrent_benny_spends_never_double_spend(client):
    t, pid, token, hero, _ = await deck_table(client, dice_mode="table")
    await t.ok({"type": "deal", "cards": ["KS", "QH"]})
    before = (await t.state(token))["state"]["table"]["players"][pid]["bennies"]
    assert before == 3
    results = await asyncio.gather(
        *[
            t.act({"type": "draw_extra_card", "character_id": hero, "benny_source": "own", "card": card}, token=token)
            for card in ("2C", "3C", "4C", "5C", "6C", "7C")
        ]
    )
    ok = [r for r in results if r.status_code == 200]
    assert len(ok) == 3, [r.text for r in results]
    for r in results:
        if r.status_code != 200:
            assert r.status_code == 409 and r.json()["code"] in {"no_benny", "concurrent_update"}, r.text
    state = (await t.state(token))["state"]
    assert state["table"]["players"][pid]["bennies"] == 0
    candidates = state["table"]["encounter"]["participants"][hero]["candidates"]
    assert len(candidates) == 4 and len(set(candidates)) == 4
    assert len([e for e in await t.events() if e["type"] == "extra_card_drawn"]) == 3


async def test_player_cannot_spend_a_benny_for_someone_elses_character(client):
    t, pid, token, hero, goon = await deck_table(client)
    await t.ok({"type": "deal"})
    r = await t.act({"type": "draw_extra_card", "character_id": goon, "benny_source": "own"}, token=token)
    assert_problem(r, 403, "not_your_character")


async def test_a_dice_session_does_not_close_while_its_shuffled_deck_is_dealt(client):
    """The seed recomputes every shuffle die: revealed mid-encounter, it would tell everyone the rest of the deck."""
    t, pid, token, hero, _ = await deck_table(client, dice_mode="verifiable")
    await t.ok({"type": "deal"})
    r = await client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(t.gm))
    body = assert_problem(r, 409, "deck_in_play")
    assert "end_encounter" in body["detail"]
    sessions = (await client.get(f"{t.base}/dice-sessions", headers=bearer(t.gm))).json()["items"]
    assert [(s["number"], s["status"], s["seed"]) for s in sessions] == [(1, "open", None)]
    await t.ok({"type": "end_encounter"})
    r = await client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(t.gm))
    assert r.status_code == 200, r.text


async def test_verifiable_campaign_proves_its_deck_order(client):
    """After the encounter and the session close, the shuffle dice recompute from the revealed seed."""
    t, pid, token, hero, _ = await deck_table(client, dice_mode="verifiable")
    await t.ok({"type": "deal"})
    await t.ok({"type": "end_encounter"})
    shown = [e for e in await t.events(token) if e["type"] == "dice_unsealed"][0]
    closed = (await client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(t.gm))).json()["closed"]
    doc = (await client.get(f"{t.base}/dice-sessions/1/verification", headers=bearer(token))).json()
    assert doc["report"]["ok"] is True and doc["report"]["gaps"] == []
    assert verifiable.commitment(closed["seed"]) == closed["commitment"]
    shuffle = shown["data"]["shuffle_dice"]
    assert len(shuffle) == 53 and all(d["source"] == "verifiable" for d in shuffle)
    assert {d["seq"] for d in shuffle} <= {r["seq"] for r in doc["rolls"]}
    for d in shuffle:
        assert verifiable.derive_face(doc["seed"], doc["client_seed"], d["seq"], d["sides"])[0] == d["face"]


async def test_table_mode_deals_the_cards_the_table_drew(client):
    t, pid, token, hero, goon = await deck_table(client, dice_mode="table")
    out = await t.ok({"type": "deal", "cards": ["AS", "10H"]})
    parts = out["state"]["table"]["encounter"]["participants"]
    assert parts[hero]["card"] == "AS" and parts[goon]["card"] == "10H"
    r = await t.act({"type": "deal", "cards": ["AS", "2C"]})
    assert r.status_code == 409, r.text


async def test_surprise_attackers_stay_hidden_from_players_until_revealed(client):
    """AD-E16, spec §8: neither the state nor the event log tells a player who lies in ambush."""
    from apikit import Table

    r = await client.post("/v1/campaigns", json={"name": "Ambush", "system": "action_deck", "dice_mode": "table"})
    t = Table(client=client, id=r.json()["campaign"]["id"], gm=r.json()["gm_token"])
    pid, token = await t.invite("Ala")
    hero = (await t.character({"name": "Hero", **TRAITS}, player_id=pid))["id"]
    sniper = (await t.character({"name": "Sniper", "side": "opposition", **TRAITS}))["id"]
    await t.ok({"type": "open_session", "players": [{"player_id": pid, "character_ids": [hero]}]})
    before = (await t.events())[-1]["seq"]  # the NPC's own creation is public: the ambush is not
    await t.ok(
        {
            "type": "start_encounter",
            "participants": [sniper, hero],
            "surprise": {"attackers": [sniper], "victims": [hero], "notice": [{"character_id": hero}]},
        },
        dice=[5, 2],
    )
    out = await t.ok({"type": "deal", "cards": ["9C", "QD"]}, token=None)
    assert (await t.state())["state"]["table"]["encounter"]["surprise"]["attackers"] == [sniper]
    enc = (await t.state(token))["state"]["table"]["encounter"]
    assert sniper not in enc["participants"] and enc["surprise"]["attackers"] == []
    leaked = [e["type"] for e in await t.events(token, after=before) if sniper in str(e)]
    assert leaked == [], leaked
    assert sniper in str(await t.events(after=before)) and sniper in str(out)
    await t.ok({"type": "call_next"})
    await t.ok({"type": "declare_turn", "character_id": hero, "actions": [{"kind": "attack"}]}, token=token)
    await t.ok({"type": "end_turn", "character_id": hero}, token=token)
    await t.ok({"type": "end_round"})
    revealed = [e for e in await t.events(token) if e["type"] == "surprise_attacker_revealed"]
    assert [(e["data"]["character_id"], e["data"]["card"]) for e in revealed] == [(sniper, "9C")]
    assert (await t.state(token))["state"]["table"]["encounter"]["surprise"]["attackers"] == [sniper]


async def test_no_export_while_a_sealed_deck_is_being_dealt(client):
    """The export holds every die; the shuffle dice of a deck still being dealt would tell its order (§8)."""
    t, *_ = await deck_table(client)
    await t.ok({"type": "deal"})
    assert_problem(await client.get(f"{t.base}/export", headers=bearer(t.gm)), 409, "deck_in_play")
    await t.ok({"type": "end_encounter"})
    assert (await client.get(f"{t.base}/export", headers=bearer(t.gm))).status_code == 200


async def test_undo_never_puts_dealt_cards_back_on_a_sealed_deck(client):
    """Undo past a deal would deal the same cards again: the undealt order would be known (§8)."""
    t, pid, *_ = await deck_table(client)
    await t.ok({"type": "deal"})
    undo = lambda n: client.post(f"{t.base}/undo", json={"count": n}, headers=bearer(t.gm))  # noqa: E731
    assert_problem(await undo(1), 409, "deck_in_play", "count")
    await t.ok({"type": "award_benny", "player_ids": [pid]})
    assert (await undo(1)).status_code == 200  # a move after the last draw may be undone
