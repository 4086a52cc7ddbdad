"""Whose move it is (spec 5.1, 5.2): `table.awaiting` after every move, one test per rule."""

from __future__ import annotations

from stepdice_support import GM, Table, attack, begin, player, skirmish

from service.rules.awaiting import AwaitingEntry
from service.rules.stepdice import SYSTEM


def awaiting(t: Table) -> list[dict]:
    return t.state["table"]["awaiting"]


def parties(t: Table) -> list[tuple[str, str | None]]:
    return [(e["who"], e["character_id"]) for e in awaiting(t)]


def may(t: Table, cid: str | None = None) -> list[str]:
    return next(e["may"] for e in awaiting(t) if e["character_id"] == cid)


def test_awaiting_a_new_table_is_the_gm_with_the_idle_moves():
    t = Table()
    assert parties(t) == [("gm", None)]
    assert {"test", "start_scene", "create_encounter", "rest", "grant_advancement"} <= set(may(t))
    assert "end_scene" not in may(t)  # no scene is open yet


def test_awaiting_with_no_encounter_is_the_gm_and_end_scene_once_a_scene_is_open():
    t = Table()
    t.pc("w")
    t.do({"type": "start_scene"})
    assert parties(t) == [("gm", None)] and "end_scene" in may(t)


def test_awaiting_clock_moves_only_with_the_clocks_option_and_a_running_clock():
    t = Table(use_time_pressure_clocks=True)
    t.do({"type": "start_scene"})
    assert "create_clock" in may(t) and "advance_clock" not in may(t)
    t.do({"type": "create_clock", "label": "guards", "length": 4, "consequence": "the alarm"})
    assert {"advance_clock", "cancel_clock"} <= set(may(t))
    without = Table()
    without.do({"type": "start_scene"})
    assert "create_clock" not in may(without)


def test_awaiting_in_encounter_setup_is_the_gm():
    t = Table()
    t.pc("w")
    t.do({"type": "create_encounter"})
    assert parties(t) == [("gm", None)]
    assert {"add_character", "add_enemy", "start_encounter", "set_position"} <= set(may(t))
    gridless = Table(use_grid=False)
    gridless.do({"type": "create_encounter"})
    assert "set_position" not in may(gridless)


def test_awaiting_between_turns_is_every_active_pc_yet_to_act_with_begin_turn():
    t = skirmish(pcs=("w", "r", "m"))
    assert parties(t) == [("character", "w"), ("character", "r"), ("character", "m")]
    assert all(e["may"] == ["begin_turn"] for e in awaiting(t))
    begin(t, "r")
    t.do({"type": "end_turn", "character_id": "r"})
    assert parties(t) == [("character", "w"), ("character", "m")]


def test_awaiting_during_an_open_turn_is_that_pc_with_its_turn_moves():
    t = skirmish()
    begin(t, "w")
    assert parties(t) == [("character", "w")]
    assert may(t, "w") == ["test", "attack", "cast", "help", "raise", "use_equipment", "move", "end_turn"]


def test_awaiting_after_the_action_is_spent_leaves_move_and_end_turn():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [8])
    assert may(t, "w") == ["move", "end_turn"]


def test_awaiting_without_the_grid_offers_no_move():
    t = skirmish(use_grid=False)
    begin(t, "w")
    assert "move" not in may(t, "w")


def test_awaiting_skips_downed_pcs_in_the_player_phase():
    t = skirmish()
    t.sheet("r").update(hearts=0, condition="downed")
    t.do({"type": "gm_note", "text": "r is down"})
    assert parties(t) == [("character", "w")]


def test_awaiting_with_every_pc_down_in_the_player_phase_is_the_gm_to_end_it():
    t = skirmish(pcs=("w",))
    t.sheet("w").update(hearts=0, condition="downed")
    t.do({"type": "gm_note", "text": "all down"})
    assert parties(t) == [("gm", None)] and may(t) == ["end_player_phase", "end_encounter"]


def test_awaiting_in_the_enemy_phase_is_the_gm():
    t = skirmish()
    t.do({"type": "end_player_phase"})
    assert parties(t) == [("gm", None)]
    assert {"enemy_move", "enemy_hit", "call_test", "end_enemy_phase"} <= set(may(t))


def test_awaiting_a_benefit_choice_is_the_acting_pc():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [10])
    assert awaiting(t) == [{"who": "character", "character_id": "w", "may": ["choose_benefit"]}]


def test_awaiting_a_retaliation_check_is_the_gm():
    t = skirmish()
    begin(t, "w")
    t.do(attack(), [3])
    assert awaiting(t) == [{"who": "gm", "character_id": None, "may": ["resolve_retaliation"]}]


def test_awaiting_an_armor_choice_is_the_pc_that_would_lose_the_heart():
    t = skirmish(use_armor_tokens=True)
    t.sheet("w")["equipment"]["protection"] = "mail"
    t.sheet("w")["armor_token_available"] = True
    t.do({"type": "end_player_phase"})
    t.do({"type": "enemy_hit", "enemy_id": "m1", "character_id": "w"})
    assert awaiting(t) == [{"who": "character", "character_id": "w", "may": ["choose_armor"]}]


def test_awaiting_a_consequence_text_is_the_gm():
    t = Table()
    t.pc("w")
    t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": 6}, [1])
    assert awaiting(t) == [{"who": "gm", "character_id": None, "may": ["record_consequence"]}]
    t.do({"type": "record_consequence", "text": "the lever snaps"})
    assert parties(t) == [("gm", None)]


def test_awaiting_after_the_encounter_ends_is_the_gm_with_the_idle_moves():
    t = skirmish()
    t.do({"type": "end_encounter", "outcome": "ended_by_gm"})
    assert parties(t) == [("gm", None)] and "rest" in may(t)


def test_awaiting_lists_a_pc_holding_a_granted_advancement():
    t = Table()
    t.pc("w")
    t.do({"type": "grant_advancement", "character_ids": ["w"]})
    assert parties(t) == [("gm", None), ("character", "w")] and may(t, "w") == ["advance"]
    t.do({"type": "advance", "character_id": "w", "choice": "heart"}, actor=player("w"))
    assert parties(t) == [("gm", None)]


def test_awaiting_is_computed_for_a_table_stored_before_it_was_kept():
    t = skirmish()
    stored = {**t.state, "table": {k: v for k, v in t.state["table"].items() if k != "awaiting"}}
    for actor in (GM, player("w")):
        assert SYSTEM.view(stored, actor)["table"]["awaiting"] == awaiting(t)


def test_awaiting_entries_have_the_shared_shape():
    t = skirmish()
    for entry in awaiting(t):
        AwaitingEntry.model_validate(entry)


def test_awaiting_merges_an_advancement_into_the_open_turn_of_its_pc():
    """One entry per party, as in the other four systems: `advance` beside the turn's moves, not a second entry."""
    t = Table()
    for c in ("w", "r"):
        t.pc(c, "warrior" if c == "w" else "rogue")
    t.do({"type": "grant_advancement", "character_ids": ["w"]})
    t.fight({"w": None, "r": None}, [{"enemy_id": "m1", "name": "Goblin", "kind": "minion"}])
    assert parties(t) == [("character", "w"), ("character", "r")]
    assert may(t, "w") == ["begin_turn", "advance"] and may(t, "r") == ["begin_turn"]
    begin(t, "w")
    assert parties(t) == [("character", "w")]
    assert may(t, "w")[-2:] == ["end_turn", "advance"] and "attack" in may(t, "w")
