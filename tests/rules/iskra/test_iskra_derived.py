"""IS-E6 derived vectors D1–D10 (spec 6): the formulas, checked one vector per test."""

from __future__ import annotations

from iskra_support import GM, Table, one, player
from service.rules.iskra import SYSTEM

ALA = player("ala")


def _s0_4() -> Table:
    t = Table()
    t.pc("ala", attrs={"dexterity": 4})
    t.open("ala", "dexterity")
    assert t.pending["s0"] == 4
    return t


def test_is_e6_d1_reroll_once_second_result_binds():
    t = _s0_4()
    t.do({"type": "roll"}, dice=[3], actor=ALA)
    t.do({"type": "reroll", "description": "tries again from experience"}, actor=ALA)
    t.do({"type": "approve_focus"}, dice=[6])
    assert t.pending["rolls"] == [3, 6] and t.sheet("ala")["focus_points"] == 4
    t.fails({"type": "reroll", "description": "again"}, "already_rerolled", actor=ALA)
    t.do({"type": "accept_test"}, actor=ALA)
    assert (t.last_test["total"], t.last_test["outcome"]) == (10, "success")


def test_is_e6_d2_spend_one_focus_after_the_roll():
    t = _s0_4()
    t.do({"type": "roll"}, dice=[5])
    t.do({"type": "focus_adjust", "amount": 1, "description": "a last push"})
    t.do({"type": "accept_test"})
    assert (t.last_test["s"], t.last_test["total"], t.last_test["outcome"]) == (5, 10, "success")


def test_is_e6_d3_failed_test_on_deaths_door_kills():
    t = Table()
    t.pc("ala", attrs={"charisma": 3})
    t.set("ala", health=0)
    r = t.test("ala", "charisma", 4)
    assert (r["s0"], r["total"], r["outcome"]) == (1, 5, "failure")
    assert t.sheet("ala")["status"] == "dead"


def test_is_e6_d4_two_helpers_count_once():
    t = Table()
    for c in ("ala", "bob", "cyd"):
        t.pc(c)
    t.open(
        "ala",
        "charisma",
        helpers=[{"character_id": "bob", "description": "vouches"}, {"character_id": "cyd", "description": "flatters"}],
    )
    assert t.pending["s0"] == 4


def _porter(**changes) -> Table:
    t = Table()
    t.pc(
        "ala",
        attrs={"strength": 2},
        inventory=[{"name": f"bag{n}", "weight": w} for n, w in enumerate([2, 2, 2, 2, 1])],
        **changes,
    )
    return t


def test_is_e6_d5_carrying_capacity_and_overload():
    t = _porter()
    view = SYSTEM.view(t.state, GM)
    assert (view["derived"]["ala"]["carry_capacity"], view["derived"]["ala"]["encumbrance"]) == (9, "normal")
    t.do({"type": "add_item", "character_id": "ala", "name": "lantern", "weight": 1}, actor=player("ala"))
    r = t.test("ala", "strength", 9)
    assert {"source": "overloaded", "value": -2, "label": "overloaded", "hidden": False} in r["modifiers"]
    for n in range(8):
        t.do({"type": "add_item", "character_id": "ala", "name": f"stone{n}", "weight": 1})
    t.fails({"type": "add_item", "character_id": "ala", "name": "one too many", "weight": 1}, "over_carry_limit")


def test_is_e6_d5_carrying_predisposition_raises_the_limit():
    t = _porter(predispositions=[{"label": "Dźwiganie", "affects_carrying": True}])
    d = SYSTEM.view(t.state, GM)["derived"]["ala"]
    assert d["carry_capacity"] == 11
    for n in range(13):
        t.do({"type": "add_item", "character_id": "ala", "name": f"stone{n}", "weight": 1})
    assert SYSTEM.view(t.state, GM)["derived"]["ala"]["load"] == 22
    t.fails({"type": "add_item", "character_id": "ala", "name": "one too many", "weight": 1}, "over_carry_limit")


def _hit(choice: str, roll: int) -> Table:
    t = Table()
    t.pc("att", attrs={"strength": 5})
    t.pc("tgt", attrs={"dexterity": 3})
    t.fight(["att"], ["tgt"])
    t.do({"type": "attack", "character_id": "att", "target_id": "tgt", "mode": "melee", "wounds": 2})
    t.do({"type": "roll"}, dice=[9])
    t.do({"type": "accept_test"})
    t.do({"type": "dodge", "choice": choice}, actor=player("tgt"))
    t.do({"type": "roll"}, dice=[roll], actor=player("tgt"))
    t.do({"type": "accept_test"}, actor=player("tgt"))
    return t


def test_is_e6_d6_dodge_staying_standing_fails():
    t = _hit("dodge_stay_standing", 6)
    assert (t.last_test["s"], t.last_test["total"], t.last_test["outcome"]) == (1, 7, "failure")
    assert t.pending["stage"] == "focus_window" and t.pending["wounds"] == 2
    assert t.sheet("tgt")["prone"] is False and t.enc["reactions_left"]["tgt"] == 0


def test_is_e6_d7_dodge_succeeds_and_falls_prone():
    t = _hit("dodge", 7)
    assert (t.last_test["s"], t.last_test["total"], t.last_test["outcome"]) == (3, 10, "success")
    assert t.pending is None and t.sheet("tgt")["health"] == 5 and t.sheet("tgt")["prone"] is True
    t.do({"type": "end_turn", "participant_id": "att"})
    t.do({"type": "stand_up", "character_id": "tgt"}, actor=player("tgt"))
    assert t.enc["budget"]["tgt"]["major"] == 0 and t.sheet("tgt")["prone"] is False


def test_is_e6_d8_spending_45_xp():
    t = Table()
    t.pc("ala")
    t.set("ala", xp=45)
    for buy in (
        {"purchase": "attribute", "attribute": "strength"},
        {"purchase": "ability", "ability_id": "language", "param": "krasnoludzki"},
        {"purchase": "focus_max"},
    ):
        t.do({"type": "buy", "character_id": "ala", **buy}, actor=ALA)
    ala = t.sheet("ala")
    assert (ala["xp"], ala["attributes"]["strength"], ala["focus_max"], ala["focus_points"]) == (0, 3, 6, 6)
    t.set("ala", xp=40, attributes={**ala["attributes"], "charisma": 5})
    t.fails(
        {"type": "buy", "character_id": "ala", "purchase": "attribute", "attribute": "charisma"},
        "attribute_at_max",
        actor=ALA,
    )
    t.do({"type": "start_session"})
    t.fails({"type": "buy", "character_id": "ala", "purchase": "focus_max"}, "not_between_sessions", actor=ALA)


def test_is_e6_d9_daily_strength_test_outside_a_safe_place():
    t = Table()
    t.pc("ala", attrs={"strength": 2})
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 2, "source": "hazard"})
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["health"] == 3 and t.sheet("ala")["recovery"]["next_si_test_due_at"] == 1
    t.do({"type": "advance_time", "days": 1})
    t.do({"type": "recovery_test", "character_id": "ala"}, actor=ALA)
    t.do({"type": "roll"}, dice=[3], actor=ALA)
    t.do({"type": "accept_test"}, actor=ALA)
    assert t.last_test["outcome"] == "failure" and t.sheet("ala")["health"] == 3
    t.fails({"type": "recovery_test", "character_id": "ala"}, "recovery_test_not_due", actor=ALA)
    t.do({"type": "advance_time", "days": 1})
    t.do({"type": "recovery_test", "character_id": "ala"}, actor=ALA)
    t.do({"type": "roll"}, dice=[8], actor=ALA)
    t.do({"type": "accept_test"}, actor=ALA)
    ala = t.sheet("ala")
    assert (t.table["day"], ala["health"], ala["recovery"]["next_si_test_due_at"]) == (2, 4, 3)


def test_is_e6_d10_focus_reduces_a_hit_to_deaths_door():
    t = Table()
    t.pc("ala")
    t.set("ala", health=1)
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 3, "source": "attack"})
    t.do({"type": "dodge", "choice": "none"}, actor=ALA)
    t.do({"type": "reduce_damage", "amount": 2, "description": "rolls with the blow"})
    events = t.do({"type": "accept_damage"}, actor=ALA)
    assert one(events, "damage_applied")["wounds"] == 1
    ala = t.sheet("ala")
    assert (ala["health"], ala["status"], ala["xp"]) == (0, "alive", 1)
