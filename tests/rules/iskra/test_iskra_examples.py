"""Worked examples IS-E1…IS-E5 of spec 6, fed with table dice; one test per vector or branch."""

from __future__ import annotations

from iskra_support import Table, of, one, player

HERO = player("hero")


def _chasm(**options) -> Table:
    t = Table(**options)
    t.pc("hero")
    t.set("hero", health=3)  # IS-E1 vector A (illustrative): health 3, focus 5, xp 0
    t.do(
        {
            "type": "deal_damage",
            "character_id": "hero",
            "wounds": 5,
            "source": "fall",
            "description": "falls into a chasm",
        }
    )
    return t


def test_is_e1_a_no_focus_dies():
    t = _chasm()
    events = t.do({"type": "accept_damage"}, actor=HERO)
    assert t.sheet("hero")["status"] == "dead"
    assert one(events, "character_died")["cause"] == "wounds_beyond_health"


def test_is_e1_a_one_focus_still_dies():
    t = _chasm()
    t.do({"type": "reduce_damage", "amount": 1, "description": "grabs a root"}, actor=HERO)
    t.do({"type": "approve_focus"})
    t.do({"type": "accept_damage"}, actor=HERO)
    assert t.sheet("hero")["status"] == "dead"  # 4 > 3: two PS is the minimum


def test_is_e1_a_two_focus_approved_survives_on_deaths_door():
    t = _chasm()
    t.do({"type": "reduce_damage", "amount": 2, "description": "grabs a root sticking out of the wall"}, actor=HERO)
    assert t.pending["stage"] == "awaiting_gm_approval" and t.sheet("hero")["focus_points"] == 5
    t.do({"type": "approve_focus"})
    assert t.pending["wounds"] == 3
    events = t.do({"type": "accept_damage"}, actor=HERO)
    hero = t.sheet("hero")
    assert (hero["status"], hero["health"], hero["focus_points"], hero["xp"]) == ("alive", 0, 3, 3)
    assert one(events, "damage_applied")["deaths_door"] is True
    assert hero["recovery"]["next_si_test_due_at"] == t.table["day"] + 1


def test_is_e1_a_rejected_description_costs_nothing_and_another_is_approved():
    t = _chasm()
    t.do({"type": "reduce_damage", "amount": 2, "description": "flies up like a bird"}, actor=HERO)
    events = t.do({"type": "reject_focus", "reason": "contradicts the world's logic"})
    assert of(events, "focus_rejected") and t.sheet("hero")["focus_points"] == 5 and t.pending["wounds"] == 5
    t.do({"type": "reduce_damage", "amount": 2, "description": "a tree at the bottom cushions the fall"}, actor=HERO)
    t.do({"type": "approve_focus"})
    t.do({"type": "accept_damage"}, actor=HERO)
    hero = t.sheet("hero")
    assert (hero["status"], hero["health"], hero["focus_points"], hero["xp"]) == ("alive", 0, 3, 3)


def _already_at_door() -> Table:
    t = Table(overflow_damage_kills=False)
    t.pc("hero")
    t.set("hero", health=0)  # IS-E1 vector B: already on Death's Door
    t.do({"type": "deal_damage", "character_id": "hero", "wounds": 2, "source": "fall"})
    return t


def test_is_e1_b_no_focus_any_damage_kills():
    t = _already_at_door()
    events = t.do({"type": "accept_damage"}, actor=HERO)
    assert t.sheet("hero")["status"] == "dead"
    assert one(events, "character_died")["cause"] == "damage_on_deaths_door"


def test_is_e1_b_two_focus_no_damage_received_survives():
    t = _already_at_door()
    t.do({"type": "reduce_damage", "amount": 2, "description": "grabs a root"}, actor=HERO)
    t.do({"type": "approve_focus"})
    hero = t.sheet("hero")
    assert t.pending is None  # 0 Wounds left: applied at once
    assert (hero["status"], hero["health"], hero["xp"]) == ("alive", 0, 0)


def _sneak() -> Table:
    t = Table()
    t.pc("rogue", attrs={"dexterity": 3})
    t.npc("guard")
    return t


def test_is_e2_a_stealth_test_gets_the_predisposition():
    t = _sneak()
    r = t.test("rogue", "dexterity", 5, predispositions=[0], intent="sneak past")
    assert (r["s0"], r["total"], r["outcome"]) == (5, 10, "success")


def test_is_e2_b_attack_while_sneaking_does_not():
    t = _sneak()
    t.do(
        {
            "type": "attack",
            "character_id": "rogue",
            "target_id": "guard",
            "mode": "ranged",
            "distance": "near",
            "intent": "shoots from hiding",
        }
    )
    assert t.pending["s0"] == 3
    t.do({"type": "roll"}, dice=[5])
    t.do({"type": "accept_test"})
    assert (t.last_test["total"], t.last_test["outcome"]) == (8, "failure")
    assert t.pending is None


def _five() -> Table:
    t = Table()
    for c in ("a1", "a2", "b1", "b2", "c1"):
        t.pc(c)
    t.fight(["a1", "a2"], ["b1", "b2"], ["c1"], initiator="a1")
    return t


def _end_round(t: Table) -> None:
    for _ in range(len([p for p in t.enc["order"] if t.sheet(p)["status"] == "alive"])):
        t.do({"type": "end_turn", "participant_id": t.current})


def test_is_e3_turn_order_alternates_sides():
    t = _five()
    assert t.enc["order"] == ["a1", "b1", "c1", "a2", "b2"] and t.current == "a1"


def test_is_e3_round_two_repeats_and_skips_the_dead():
    t = _five()
    _end_round(t)
    assert t.enc["round"] == 2 and t.enc["order"] == ["a1", "b1", "c1", "a2", "b2"]
    t.do({"type": "deal_damage", "character_id": "b1", "wounds": 6, "source": "hazard"})
    t.do({"type": "accept_damage"})
    _end_round(t)
    assert t.enc["round"] == 3 and t.enc["order"] == ["a1", "c1", "a2", "b2"]


def _ready() -> Table:
    t = Table()
    t.pc("x", attrs={"strength": 2})
    t.pc("y")
    t.do({"type": "add_item", "character_id": "x", "name": "miecz", "weight": 1, "wounds": 2})
    t.fight(["x"], ["y"])
    t.do(
        {
            "type": "ready",
            "character_id": "x",
            "held_action": "melee_attack",
            "target_id": "y",
            "item_id": "i1",
            "description": "attack him with my sword",
            "trigger_text": "Y approaches to reach",
        }
    )
    return t


def test_is_e4_ready_spends_the_major_but_not_minor_or_passing():
    t = _ready()
    budget = t.enc["budget"]["x"]
    assert (budget["major"], budget["minor"], budget["passing"]) == (0, 1, 1)
    t.do({"type": "passing_action", "character_id": "x", "description": "shouts a warning"})


def test_is_e4_trigger_attacks_as_a_reaction():
    t = _ready()
    t.do({"type": "end_turn", "participant_id": "x"})
    t.do({"type": "passing_action", "character_id": "y", "description": "approaches X"})
    t.do({"type": "trigger_ready", "character_id": "x"})
    t.do({"type": "use_ready", "character_id": "x", "execute": True}, actor=player("x"))
    assert t.enc["reactions_left"]["x"] == 0 and t.enc["ready"]["x"] is None
    t.do({"type": "roll"}, dice=[8])
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "success"
    assert t.pending["stage"] == "dodge_window"  # Y still has a Reaction
    t.do({"type": "dodge", "choice": "none"}, actor=player("y"))
    t.do({"type": "accept_damage"}, actor=player("y"))
    assert t.sheet("y")["health"] == 3
    # X cannot Dodge for the rest of the round: Y's attack goes straight to the focus window.
    t.do({"type": "attack", "character_id": "y", "target_id": "x", "mode": "melee", "wounds": 1})
    t.do({"type": "roll"}, dice=[9])
    t.do({"type": "accept_test"})
    assert t.pending["kind"] == "damage" and t.pending["stage"] == "focus_window"


def test_is_e4_untriggered_ready_expires_at_the_readiers_next_turn():
    t = _ready()
    t.do({"type": "end_turn", "participant_id": "x"})
    t.do({"type": "end_turn", "participant_id": "y"})
    assert t.current == "x" and t.enc["ready"]["x"] is None


def _duel() -> Table:
    t = Table()
    t.pc("duelist", attrs={"strength": 4}, predispositions=[{"label": "Pojedynki"}])
    t.pc("bob")
    t.npc("foe")
    t.do({"type": "add_item", "character_id": "duelist", "name": "rapier", "weight": 1, "wounds": 2})
    return t


def test_is_e5_a_critical_success_without_a_roll_and_extra_wound():
    t = _duel()
    t.do(
        {"type": "attack", "character_id": "duelist", "target_id": "foe", "mode": "melee", "item_id": "i1"},
        actor=player("duelist"),
    )
    t.do(
        {"type": "help", "character_id": "bob", "beneficiary_id": "duelist", "description": "distracts the foe"},
        actor=player("bob"),
    )
    t.do(
        {
            "type": "adjust_test",
            "predispositions": [0],
            "critical_bonus_wounds": 1,
            "add_modifiers": [{"source": "high ground", "value": 1}],
        }
    )
    assert t.pending["s0"] == 9
    t.do({"type": "accept_test"}, actor=player("duelist"))  # no die needed
    assert t.last_test["outcome"] == "critical_success" and t.last_test["rolls"] == []
    assert t.pending["wounds"] == 3  # W + 1
    t.do({"type": "dodge", "choice": "none"})
    t.do({"type": "accept_damage"})
    assert t.sheet("foe")["health"] == 2


def _clumsy(**options) -> Table:
    t = Table(**options)
    t.pc("clumsy", attrs={"dexterity": 1})
    t.set("clumsy", health=2)
    t.open("clumsy", "dexterity")
    return t


def test_is_e5_b_critical_failure_without_a_roll_and_gm_note():
    t = _clumsy()
    assert t.pending["s0"] == -1
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "critical_failure"
    events = t.do({"type": "critical_note", "text": "attacker exposed"})
    assert one(events, "critical_noted")["text"] == "attacker exposed"


def test_is_e5_b_one_focus_makes_it_a_roll_only_ten_succeeds():
    t = _clumsy()
    t.do({"type": "focus_adjust", "amount": 1, "description": "steadies the hand"})
    t.fails({"type": "accept_test"}, "roll_required")
    t.do({"type": "roll"}, dice=[9])
    t.do({"type": "accept_test"})
    assert (t.last_test["s"], t.last_test["outcome"]) == (0, "failure")
    t2 = _clumsy()
    t2.do({"type": "focus_adjust", "amount": 1, "description": "steadies the hand"})
    t2.do({"type": "roll"}, dice=[10])
    t2.do({"type": "accept_test"})
    assert t2.last_test["outcome"] == "success"


def test_is_e5_b_focus_not_counting_for_critical_keeps_the_contradiction_out():
    t = _clumsy(focus_adjust_counts_for_critical=False)
    t.do({"type": "focus_adjust", "amount": 1, "description": "steadies the hand"})
    t.do({"type": "roll"}, dice=[10])  # total 10, yet S0 = −1 stays critical
    t.do({"type": "accept_test"})
    assert t.last_test["outcome"] == "critical_failure"
