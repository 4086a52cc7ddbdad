"""Advancement, rest, scenes and time-pressure clocks (seed §7.3, §8, §11, spec 4.11–4.14)."""

from __future__ import annotations

import pytest

from stepdice_support import Table, clock_id, one, player, types


def _t(**options):
    t = Table(**options)
    t.pc("w", "warrior")
    t.pc("r", "rogue")
    return t


def _grant(t, *ids):
    t.do({"type": "grant_advancement", "character_ids": list(ids) or ["w"], "reason": "adventure_end"})


# --- advancement ---------------------------------------------------------------------------------------


def test_grant_then_step_die():
    t = _t()
    _grant(t)
    assert t.sheet("w")["pending_advancements"] == 1
    ev = t.do(
        {"type": "advance", "character_id": "w", "choice": "step_die", "attribute": "strength"}, actor=player("w")
    )
    assert one(ev, "advancement_chosen")["to"] == "d12"
    assert t.sheet("w")["dice"]["strength"] == "d12" and t.sheet("w")["pending_advancements"] == 0


def test_grant_is_gm_only_and_advance_is_the_owners():
    t = _t()
    t.fails({"type": "grant_advancement", "character_ids": ["w"]}, "gm_only", actor=player("w"))
    _grant(t)
    t.fails({"type": "advance", "character_id": "w", "choice": "heart"}, "not_your_character", actor=player("r"))


def test_no_pending_advancement():
    _t().fails({"type": "advance", "character_id": "w", "choice": "heart"}, "no_pending_advancement")


def test_step_die_needs_an_attribute():
    t = _t()
    _grant(t)
    t.fails({"type": "advance", "character_id": "w", "choice": "step_die"}, "attribute_required", status=422)
    t.fails({"type": "advance", "character_id": "w", "choice": "heart", "attribute": "magic"}, "field_not_applicable")


def test_d20_is_the_cap():
    t = _t()
    t.sheet("w")["dice"]["strength"] = "d20"
    _grant(t)
    t.fails(
        {"type": "advance", "character_id": "w", "choice": "step_die", "attribute": "strength"}, "advancement_capped"
    )


@pytest.mark.parametrize("choice, key, cap", [("heart", "hearts", 7), ("mana", "mana", 5)])
def test_heart_and_mana_rise_with_current_value_and_cap(choice, key, cap):
    t = _t()
    t.sheet("w")[key] -= 1
    _grant(t)
    t.do({"type": "advance", "character_id": "w", "choice": choice})
    assert t.sheet("w")[f"{key}_max"] == (6 if key == "hearts" else 4)
    assert t.sheet("w")[key] == t.sheet("w")[f"{key}_max"] - 1  # 7-A29: current rose by one too
    t.sheet("w")[f"{key}_max"] = cap
    _grant(t)
    t.fails({"type": "advance", "character_id": "w", "choice": choice}, "advancement_capped")


def test_heart_advancement_stands_a_downed_character_up():
    t = _t()
    t.sheet("w").update(hearts=0, condition="downed")
    _grant(t)
    t.do({"type": "advance", "character_id": "w", "choice": "heart"})
    assert (t.sheet("w")["hearts"], t.sheet("w")["condition"]) == (1, "active")


def test_dead_characters_do_not_advance():
    t = _t()
    _grant(t)
    t.sheet("w").update(hearts=0, condition="dead")
    t.fails({"type": "advance", "character_id": "w", "choice": "heart"}, "character_dead")
    t.fails({"type": "grant_advancement", "character_ids": ["w"]}, "character_dead")


def test_discard_only_when_everything_is_capped():
    t = _t()
    _grant(t)
    t.fails({"type": "discard_advancement", "character_id": "w"}, "advancement_available")
    t.sheet("w")["dice"] = {"strength": "d20", "dexterity": "d20", "magic": "d20"}
    t.sheet("w").update(hearts_max=7, mana_max=5)
    t.do({"type": "discard_advancement", "character_id": "w"})
    assert t.sheet("w")["pending_advancements"] == 0


def test_variant_advances_proficiency_up_to_master():
    t = Table(variant_d6_only=True)
    t.pc("w", "warrior")
    _grant(t)
    ev = t.do({"type": "advance", "character_id": "w", "choice": "step_die", "attribute": "strength"})
    assert (one(ev, "advancement_chosen")["from"], t.sheet("w")["proficiency"]["strength"]) == ("trained", "master")
    assert t.sheet("w")["dice"]["strength"] == "d10"
    _grant(t)
    t.fails(
        {"type": "advance", "character_id": "w", "choice": "step_die", "attribute": "strength"}, "advancement_capped"
    )


# --- rest ---------------------------------------------------------------------------------------------


def test_rest_restores_everyone_not_dead():
    t = _t()
    t.pc("m", "mage")
    t.sheet("w").update(hearts=0, condition="downed", mana=0)
    t.sheet("r").update(hearts=0, condition="dead")
    ev = t.do({"type": "rest"})
    assert one(ev, "rest_taken")["skipped_dead"] == ["r"]
    assert (t.sheet("w")["hearts"], t.sheet("w")["mana"], t.sheet("w")["condition"]) == (5, 3, "active")
    assert t.sheet("r")["condition"] == "dead"


def test_rest_not_during_an_encounter():
    t = _t()
    t.do({"type": "create_encounter"})
    t.fails({"type": "rest"}, "encounter_in_progress")
    t.fails({"type": "rest"}, "gm_only", actor=player("w"))


# --- scenes -------------------------------------------------------------------------------------------


def test_scene_start_refreshes_armor_tokens():
    t = Table(use_armor_tokens=True)
    t.pc("w", "warrior", protection="shield")["armor_token_available"] = False
    t.pc("r", "rogue")
    ev = t.do({"type": "start_scene", "label": "the crypt"})
    assert one(ev, "armor_refreshed")["character_ids"] == ["w"]
    assert t.sheet("w")["armor_token_available"] is True and t.sheet("r")["armor_token_available"] is False


def test_scene_start_ends_the_previous_scene():
    t = _t()
    t.do({"type": "start_scene"})
    ev = t.do({"type": "start_scene"})
    assert types(ev)[:2] == ["scene_ended", "scene_started"] and t.table["scene"]["id"] == "s2"


def test_end_scene_needs_a_scene_and_no_fight():
    t = _t()
    t.fails({"type": "end_scene"}, "no_scene")
    t.do({"type": "create_encounter"})
    t.fails({"type": "end_scene"}, "encounter_in_progress")
    t.fails({"type": "start_scene"}, "encounter_in_progress")


# --- clocks -------------------------------------------------------------------------------------------


def _clocked(length=2, visible=True):
    t = _t(use_time_pressure_clocks=True)
    t.do({"type": "start_scene"})
    t.do(
        {
            "type": "create_clock",
            "label": "alarm",
            "length": length,
            "consequence": "the guards come",
            "visible_to_players": visible,
        }
    )
    return t


def _fail(t, roll=3, **kw):
    return t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6, **kw}, [roll])


def test_clocks_need_their_toggle():
    t = _t()
    t.do({"type": "start_scene"})
    t.fails({"type": "create_clock", "label": "x", "consequence": "y"}, "option_disabled")


def test_clocks_need_a_scene():
    _t(use_time_pressure_clocks=True).fails({"type": "create_clock", "label": "x", "consequence": "y"}, "no_scene")


def test_failures_advance_and_trigger_the_clock():
    t = _clocked()
    _fail(t, roll=7)
    assert t.table["clocks"][clock_id(1)]["value"] == 0  # successes do not move it
    assert one(_fail(t, roll=1), "clock_advanced")["value"] == 1  # a 1 counts once
    t.do({"type": "record_consequence", "text": "noise"})
    ev = _fail(t)
    assert one(ev, "clock_triggered")["consequence"] == "the guards come"
    assert t.table["clocks"][clock_id(1)]["status"] == "triggered"
    assert "clock_advanced" not in types(_fail(t))


def test_gm_may_exclude_a_test():
    t = _clocked()
    t.fails(
        {"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6, "advance_clocks": False},
        "gm_only",
        actor=player("w"),
    )
    _fail(t, advance_clocks=False)
    assert t.table["clocks"][clock_id(1)]["value"] == 0


def test_clock_of_another_scene_does_not_move():
    t = _clocked()
    ev = t.do({"type": "start_scene"})
    assert one(ev, "scene_ended")["clocks_closed"] == [clock_id(1)]
    assert "clock_advanced" not in types(_fail(t))


def test_cancel_and_manual_advance():
    t = _clocked(length=3)
    t.do({"type": "advance_clock", "clock_id": clock_id(1), "by": 2, "reason": "time passes"})
    assert t.table["clocks"][clock_id(1)]["value"] == 2
    t.do({"type": "cancel_clock", "clock_id": clock_id(1)})
    t.fails({"type": "cancel_clock", "clock_id": clock_id(1)}, "clock_not_running")
    t.fails({"type": "advance_clock", "clock_id": "nope"}, "unknown_clock")
    assert "clock_advanced" not in types(_fail(t))


def test_hidden_clock_events_are_gm_only():
    t = _clocked(visible=False)
    assert all(e.visibility == "gm" for e in t.log if e.type.startswith("clock_"))
    ev = _fail(t)
    rec = next(e for e in ev if e.type == "test_resolved")
    assert rec.data["clock_ids_advanced"] == [clock_id(1)] and rec.redacted["clock_ids_advanced"] == []
    assert next(e for e in ev if e.type == "clock_advanced").visibility == "gm"
