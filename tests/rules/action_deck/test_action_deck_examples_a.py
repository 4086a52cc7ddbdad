"""Worked examples AD-E1 … AD-E11 of spec §6.1, fed through the engine with table dice and cards."""

from __future__ import annotations

from fractions import Fraction

import pytest

from action_deck_support import Table, one, player, types
from service.dice.table import TableDice
from service.rules.action_deck.movement import sustained_run
from service.rules.action_deck.rolls import Roller


def party(*cids: str, **kw) -> Table:
    t = Table(**kw.pop("options", {}))
    for cid in cids:
        t.add(cid, **kw)
    t.session({f"p-{cid}": [cid] for cid in cids})
    return t


def test_AD_E1_turn_order_by_rank_and_suit_joker_any_time():
    cards = {"alice": "KH", "bob": "6D", "cara": "6S", "dan": "6C", "eve": "AC", "fay": "2H", "gus": "JK-B"}
    t = party(*cards)
    t.fight(cards)
    order = []
    for _ in range(6):
        t.do({"type": "call_next"})
        cid = t.enc["current_turn"]
        order.append(cid)
        t.do({"type": "declare_turn", "character_id": cid})
        t.do({"type": "end_turn", "character_id": cid})
    assert order == ["eve", "alice", "cara", "bob", "dan", "fay"]
    t.fails({"type": "call_next"}, "no_card_to_call")  # the Joker is never called
    t.fails({"type": "end_round"}, "joker_must_act")  # B7
    t.do({"type": "declare_turn", "character_id": "gus", "actions": [{"kind": "attack"}]}, actor=player("p-gus", "gus"))
    t.do({"type": "trait_test", "character_id": "gus", "trait": "fighting", "action_index": 0}, dice=[1, 2])
    test = t.last_test()
    assert {"source": "joker", "value": 2} in test["modifiers"] and test["result"]["total"] == 4


def test_AD_E1_joker_claims_at_the_very_start():
    t = party("alice", "gus")
    t.fight({"alice": "AS", "gus": "JK-R"})
    t.do({"type": "declare_turn", "character_id": "gus"})  # before any card is called
    assert t.enc["current_turn"] == "gus" and not t.enc["draw_window_open"]


def _acting(t: Table, cid: str, n: int, **kw) -> None:
    t.fight({cid: "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": cid, "actions": [{"kind": "attack"}] * n, **kw})


def test_AD_E2a_two_actions_take_minus_two_each():
    t = party("ann", skills={"fighting": "d8"})
    _acting(t, "ann", 2)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting", "action_index": 0}, dice=[5, 2])
    r = t.last_test()["result"]
    assert (r["total"], r["success"]) == (3, False)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting", "action_index": 1}, dice=[5, 2])
    assert {"source": "multi_action", "value": -2} in t.last_test()["modifiers"]


def test_AD_E2b_penalty_stands_even_if_later_actions_are_never_taken():
    t = party("ann", skills={"fighting": "d8"})
    _acting(t, "ann", 3)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting", "action_index": 0}, dice=[7, 2])
    assert t.last_test()["result"]["total"] == 3
    t.do({"type": "end_turn", "character_id": "ann"})
    assert t.slot("ann")["acted"]


def test_AD_E2c_a_fourth_action_is_rejected():
    t = party("ann")
    t.fight({"ann": "AS"})
    t.do({"type": "call_next"})
    err = t.fails(
        {"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "attack"}] * 4}, "too_many_actions"
    )
    assert err.status == 422


def test_AD_E3_running_outside_combat():
    t = Table()
    t.add("fleet", pace=8, running_die="d8", attributes={"vigor": "d6"})
    t.session({"p-fleet": ["fleet"]})
    ev = one(t.do({"type": "run", "character_id": "fleet"}, actor=player("p-fleet", "fleet")), "ran_outside_combat")
    assert (ev.data["inches_per_turn"], ev.data["minutes"]) == (32, 3)  # 2 × (8 + 8)"; d6 / 2
    assert sustained_run(8, 8, 6) == {"inches_per_turn": 32, "minutes": Fraction(3)}


def test_AD_E3_running_outside_the_encounter_rolls_no_die():
    t = Table()
    t.add("ann", pace=6, running_die="d6", attributes={"vigor": "d4"})
    t.add("bob", attributes={"vigor": "d12"})
    t.session({"p-bob": ["bob"]})
    t.fight({"bob": "AS"})  # ann is not in the encounter: she runs outside it
    ev = one(t.do({"type": "run", "character_id": "ann"}), "ran_outside_combat")
    assert (ev.data["inches_per_turn"], ev.data["minutes"], ev.data.get("dice")) == (24, 2, None)


def test_AD_E4abc_aces_explode_and_modifiers_come_after():
    roller = Roller(TableDice([6, 3, 8, 8, 1]))
    a, b = roller.open(6, "t"), roller.open(8, "t")
    assert (a["total"], a["aced"]) == (9, True)
    assert (b["total"], b["natural_one"]) == (17, False)
    t = party("mook", kind="extra", skills={"fighting": "d6"})
    t.do(
        {
            "type": "trait_test",
            "character_id": "mook",
            "trait": "fighting",
            "modifiers": [{"source": "hard", "value": -2}],
        },
        dice=[6, 2],
    )
    assert t.last_test()["result"]["total"] == 6


def test_AD_E4d_the_running_die_never_aces():
    t = party("ann")
    t.fight({"ann": "AS"})
    t.do({"type": "call_next"})
    ev = t.do({"type": "declare_turn", "character_id": "ann", "run": True}, dice=[6])  # one die only
    assert one(ev, "turn_declared").data["turn_pace"] == 12


@pytest.mark.parametrize(
    "die,faces,mod,total,raises", [("d12", [11], 0, 11, 1), ("d8", [8, 4], 0, 12, 2), ("d8", [8, 5], -2, 11, 1)]
)
def test_AD_E5_raises_every_four_over_the_tn_after_modifiers(die, faces, mod, total, raises):
    t = party("mook", kind="extra", skills={"shooting": die})
    m = [{"source": "gm", "value": mod}] if mod else []
    t.do({"type": "trait_test", "character_id": "mook", "trait": "shooting", "modifiers": m}, dice=faces)
    r = t.last_test()["result"]
    assert r["success"] and (r["total"], r["raises"]) == (total, raises)


def _duel(**kw) -> Table:
    t = Table()
    t.add("ann", kind="extra", attributes={"strength": "d8"}, skills={"stealth": "d8"})
    t.add("bob", kind="extra", attributes={"strength": "d8"}, skills={"notice": "d8"})
    t.session({"p1": ["ann"], "p2": ["bob"]})
    return t


def _opposed(t: Table, trait: str, dtrait: str, adice, ddice=None) -> list:
    t.do(
        {"type": "opposed_test", "character_id": "ann", "trait": trait, "defender_id": "bob", "defender_trait": dtrait},
        dice=adice,
    )
    oid = t.last_test()["opposed_id"]
    return t.do({"type": "defend", "opposed_id": oid}, dice=ddice or [], actor=player("p2", "bob")) + (
        t.do({"type": "accept_test", "test_id": t.last_test()["id"]}) if ddice else []
    )


def test_AD_E6a_equal_is_enough_for_the_defender():
    t = _duel()
    ev = _opposed(t, "strength", "strength", [7], [7])
    res = one(ev, "opposed_resolved").data
    assert (res["winner_id"], res["raises"]) == ("bob", 0)


def test_AD_E6b_active_below_tn_fails_outright_and_the_defender_does_not_roll():
    t = _duel()
    ev = _opposed(t, "stealth", "notice", [3])
    res = one(ev, "opposed_resolved").data
    assert res["active_failed"] and res["winner_id"] == "bob" and "trait_test_rolled" not in types(ev)


def test_AD_E6c_raises_count_from_the_losers_result():
    t = _duel()
    ev = _opposed(t, "stealth", "notice", [8, 4], [3])
    res = one(ev, "opposed_resolved").data
    assert (res["winner_id"], res["raises"], res["active_total"], res["defender_total"]) == ("ann", 2, 12, 3)


def test_AD_E6d_no_benny_for_the_active_party_after_the_defender_rolled():
    t = _duel()
    t.do(
        {
            "type": "opposed_test",
            "character_id": "ann",
            "trait": "stealth",
            "defender_id": "bob",
            "defender_trait": "notice",
        },
        dice=[6],
    )
    active = t.last_test()["id"]
    t.do({"type": "defend", "opposed_id": t.last_test()["opposed_id"]}, dice=[2])
    err = t.fails({"type": "reroll", "test_id": active}, "opposed_roll_locked", actor=player("p1", "ann"))
    assert err.status == 409


def _jumper(t: Table, n_actions: int = 1) -> None:
    t.fight({"ann": "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "ann", "actions": [{"kind": "jump"}] * n_actions})


def test_AD_E7ab_free_jumps_and_the_run_up():
    t = party("ann")
    _jumper(t, 0)
    ev = t.do({"type": "jump", "character_id": "ann", "direction": "high"})
    assert one(ev, "jumped").data["distance"] == 0.5
    ev = t.do({"type": "jump", "character_id": "ann", "direction": "long", "run_up": 2})
    assert one(ev, "jumped").data["distance"] == 2
    assert t.slot("ann")["turn"]["movement_used"] == 4.5


@pytest.mark.parametrize(
    "direction,dice,distance", [("long", [5, 2], 3), ("long", [6, 2, 1], 4), ("high", [6, 2, 1], 2)]
)
def test_AD_E7c_athletics_adds_after_doubling(direction, dice, distance):
    t = party("ann", pace=12)
    _jumper(t)
    t.do(
        {"type": "jump", "character_id": "ann", "direction": direction, "run_up": 2, "athletics_action_index": 0},
        dice=dice,
    )
    ev = t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    assert one(ev, "jumped").data["distance"] == distance


def test_AD_E7d_jumping_never_exceeds_pace():
    t = party("ann")
    _jumper(t)
    t.fails(
        {"type": "jump", "character_id": "ann", "run_up": 3, "distance": 4, "athletics_action_index": 0}, "exceeds_pace"
    )
    t.do(
        {"type": "jump", "character_id": "ann", "run_up": 2, "distance": 4, "athletics_action_index": 0}, dice=[6, 2, 1]
    )
    t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    assert t.slot("ann")["turn"]["movement_used"] == 6


def test_AD_E8_readying_items():
    t = party(
        "ann",
        gear=[{"name": "sword"}, {"name": "shield"}, {"name": "dagger"}, {"name": "ankle pistol", "at_hand": False}],
    )
    _jumper(t, 1)
    for item in ("sword", "shield"):
        assert one(t.do({"type": "ready_item", "character_id": "ann", "item": item}), "item_readied").data["free"]
    t.fails({"type": "ready_item", "character_id": "ann", "item": "dagger"}, "action_required")
    t.do({"type": "ready_item", "character_id": "ann", "item": "dagger", "action_index": 0})
    t2 = party("ann", gear=[{"name": "ankle pistol", "at_hand": False}])
    _jumper(t2, 1)
    t2.fails({"type": "ready_item", "character_id": "ann", "item": "ankle pistol"}, "action_required")
    t2.fails({"type": "ready_item", "character_id": "ann", "item": "backpack rope"}, "action_required")


def test_AD_E9_wild_card_critical_failure_cannot_be_rerolled():
    t = party("ann", skills={"fighting": "d8"})
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[1, 1])
    test = t.last_test()
    assert test["critical_failure"] and test["state"] == "critical_failure" and not test["result"]["success"]
    t.fails({"type": "reroll", "test_id": test["id"]}, "critical_failure_cannot_be_rerolled")
    assert t.bennies("p-ann") == 3
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[1, 4])
    r = t.last_test()["result"]
    assert (r["critical_failure"], r["total"], r["success"]) == (False, 4, True)


@pytest.mark.parametrize(
    "check,mod,policy,crit,success",
    [
        (1, 0, "always_fail", True, False),
        (3, 0, "always_fail", False, False),
        (3, 3, "always_fail", False, False),
        (3, 3, "evaluate_total", False, True),
    ],
)
def test_AD_E10_extra_critical_failure_check(check, mod, policy, crit, success):
    t = Table(extra_natural_one_policy=policy)
    t.add("cultist", kind="extra", side="opposition", skills={"spellcasting": "d6"})
    m = [{"source": "gm", "value": mod}] if mod else []
    t.do(
        {"type": "trait_test", "character_id": "cultist", "trait": "spellcasting", "crit_check": True, "modifiers": m},
        dice=[1, check],
    )
    r = t.last_test()["result"]
    assert (r["critical_failure"], r["success"]) == (crit, success)


def test_AD_E10_no_check_unless_the_gm_flags_it():
    t = Table()
    t.add("cultist", kind="extra", skills={"spellcasting": "d6"})
    t.do({"type": "trait_test", "character_id": "cultist", "trait": "spellcasting"}, dice=[1])
    assert t.last_test()["result"]["critical_failure"] is False


@pytest.mark.parametrize(
    "kind,dice,crit,successes",
    [
        ("wild_card", [1, 1, 5, 1], True, 0),
        ("wild_card", [1, 1, 5, 4], False, 2),
        ("wild_card", [1, 5, 6, 2, 1], False, 2),
        ("extra", [1, 1], True, 0),
    ],
)
def test_AD_E11_several_trait_dice(kind, dice, crit, successes):
    t = Table()
    t.add(
        "gunner", kind=kind, skills={"shooting": "d6"}, weapons=[{"name": "smg", "damage": ["d6"], "rate_of_fire": 3}]
    )
    n = 2 if kind == "extra" else 3
    t.do(
        {"type": "trait_test", "character_id": "gunner", "trait": "shooting", "weapon": "smg", "dice_count": n},
        dice=dice,
    )
    test = t.last_test()
    assert (test["critical_failure"], test["result"]["successes"]) == (crit, successes)
    if dice == [1, 1, 5, 4]:
        assert [r["total"] for r in test["result"]["results"]] == [4, 1, 5]
