"""Damage, Health and Death's Door (spec 4.8, 5.2, 5.3), Dodge (4.13.2) and their toggles."""

from __future__ import annotations

from iskra_support import Table, of, one, player

ALA = player("ala")


def _hurt(wounds: int, health: int = 5, **options) -> Table:
    t = Table(**options)
    t.pc("ala")
    t.set("ala", health=health)
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": wounds, "source": "fall"})
    return t


def test_wounds_lower_health_and_give_xp_per_wound():
    t = _hurt(2)
    t.do({"type": "accept_damage"}, actor=ALA)
    ala = t.sheet("ala")
    assert (ala["health"], ala["xp"], ala["xp_earned_total"]) == (3, 2, 2)


def test_overflow_damage_kills_by_default():
    t = _hurt(4, health=3)
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["status"] == "dead" and t.sheet("ala")["xp"] == 0


def test_overflow_off_clamps_at_deaths_door():
    t = _hurt(4, health=3, overflow_damage_kills=False)
    t.do({"type": "accept_damage"})
    ala = t.sheet("ala")
    assert (ala["status"], ala["health"], ala["xp"]) == ("alive", 0, 3)


def test_xp_per_wound_basis_wounds_after_focus():
    t = _hurt(4, health=3, overflow_damage_kills=False, xp_per_wound_basis="wounds_after_focus")
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["xp"] == 4


def test_npcs_earn_no_xp_for_wounds():
    t = Table()
    t.npc("orc")
    t.do({"type": "deal_damage", "character_id": "orc", "wounds": 2})
    t.do({"type": "accept_damage"})
    assert t.sheet("orc")["xp"] == 0 and t.sheet("orc")["health"] == 3


def test_without_focus_damage_applies_at_once():
    t = Table()
    t.pc("ala")
    t.set("ala", focus_points=0)
    events = t.do({"type": "deal_damage", "character_id": "ala", "wounds": 1})
    assert one(events, "damage_applied")["health"] == 4 and t.pending is None


def test_focus_cannot_reduce_below_zero():
    t = _hurt(2)
    t.fails({"type": "reduce_damage", "amount": 3, "description": "too much"}, "reduce_exceeds_wounds")


def _attacked(**options) -> Table:
    t = Table(**options)
    t.pc("att", attrs={"strength": 5})
    t.pc("ala", attrs={"dexterity": 3})
    return t


def _swing(t: Table, roll: int = 9, wounds: int | None = 2) -> None:
    extra = {} if wounds is None else {"wounds": wounds}
    t.do({"type": "attack", "character_id": "att", "target_id": "ala", "mode": "melee", **extra})
    if t.pending["stage"] == "pre_roll":
        t.do({"type": "roll"}, dice=[roll])
        if t.pending is not None and t.pending["kind"] == "test":
            t.do({"type": "accept_test"})


def test_dodge_window_opens_only_after_a_hit():
    t = _attacked()
    _swing(t, roll=1)
    assert t.pending is None and t.sheet("ala")["prone"] is False
    _swing(t, roll=9)
    assert t.pending["stage"] == "dodge_window"


def test_dodge_on_deaths_door_success_avoids_death_failure_kills():
    t = _attacked()
    t.set("ala", health=0)
    _swing(t)
    t.do({"type": "dodge", "choice": "dodge"}, actor=ALA)
    t.do({"type": "roll"}, dice=[9], actor=ALA)
    t.do({"type": "accept_test"}, actor=ALA)
    assert t.sheet("ala")["status"] == "alive" and t.pending is None  # 7-B12: no damage received
    _swing(t)
    t.do({"type": "dodge", "choice": "dodge_stay_standing"}, actor=ALA)
    t.do({"type": "roll"}, dice=[2], actor=ALA)
    events = t.do({"type": "accept_test"}, actor=ALA)
    assert one(events, "character_died")["cause"] == "failed_test_on_deaths_door" and t.pending is None


def test_dodge_timing_on_declare_decides_before_the_attack_test():
    t = _attacked(dodge_timing="on_declare")
    t.do({"type": "attack", "character_id": "att", "target_id": "ala", "mode": "melee", "wounds": 2})
    assert t.pending["stage"] == "dodge_declaration"
    t.fails({"type": "roll"}, "wrong_stage")
    t.do({"type": "dodge", "choice": "dodge"}, actor=ALA)
    assert t.sheet("ala")["prone"] is True
    t.do({"type": "roll"}, dice=[1])
    t.do({"type": "accept_test"})
    assert t.pending is None and t.sheet("ala")["prone"] is True  # the miss still leaves the dodger prone


def test_dodge_timing_on_declare_hit_runs_the_declared_dodge():
    t = _attacked(dodge_timing="on_declare")
    t.do({"type": "attack", "character_id": "att", "target_id": "ala", "mode": "melee", "wounds": 2})
    t.do({"type": "dodge", "choice": "dodge_stay_standing"}, actor=ALA)
    t.do({"type": "roll"}, dice=[9])
    t.do({"type": "accept_test"})
    assert t.pending["dodge_test"]["purpose"] == "dodge" and t.pending["dodge_test"]["s0"] == 1


def test_attack_without_known_wounds_waits_for_the_gm():
    t = _attacked()
    _swing(t, wounds=None)
    assert t.pending["stage"] == "wounds_needed"
    t.do({"type": "set_wounds", "wounds": 3})
    assert t.pending["stage"] == "dodge_window" and t.pending["wounds"] == 3


def test_attacking_a_hazard_records_the_hit():
    t = _attacked()
    t.fight(["att", "ala"], ["fire"], hazards=[{"participant_id": "fire", "name": "burning cart"}])
    t.do({"type": "attack", "character_id": "att", "target_id": "fire", "mode": "melee", "wounds": 1})
    events = t.do({"type": "roll"}, dice=[9])
    events += t.do({"type": "accept_test"})
    assert one(events, "hazard_hit")["wounds"] == 1 and t.pending is None


def test_damage_interrupts_a_safe_rest():
    t = Table()
    t.pc("ala")
    t.do({"type": "define_location", "location_id": "inn", "name": "Inn", "is_safe_place": True})
    t.do({"type": "set_location", "character_ids": ["ala"], "location_id": "inn"})
    t.set("ala", health=3)
    t.do({"type": "rest_start", "character_id": "ala"})
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 1})
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["recovery"]["safe_rest_since"] is None


def test_reaching_deaths_door_resets_the_recovery_schedule():
    t = _hurt(1)
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["recovery"]["next_si_test_due_at"] == 1
    t.do({"type": "define_location", "location_id": "inn", "name": "Inn", "is_safe_place": True})
    t.do({"type": "set_location", "character_ids": ["ala"], "location_id": "inn"})
    t.do({"type": "advance_time", "days": 3})
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 2})
    t.do({"type": "accept_damage"})
    assert t.sheet("ala")["recovery"]["next_si_test_due_at"] == 1  # later damage does not reset it
    t.do({"type": "deal_damage", "character_id": "ala", "wounds": 2})
    events = t.do({"type": "accept_damage"})
    assert of(events, "damage_applied")[0]["deaths_door"] is True
    assert t.sheet("ala")["recovery"]["next_si_test_due_at"] == 4  # a day after Death's Door (L68)
