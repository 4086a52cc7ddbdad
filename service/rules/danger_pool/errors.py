"""The closed set of rule-violation codes Danger Pool raises, each with its HTTP status.

409: the move conflicts with the current state; 422: the move is malformed for the rules;
403 (`gm_only`, `not_your_character`, `character_not_yours`) comes from `service.rules.base`.
"""

from __future__ import annotations

from service.rules.base import RuleViolation

CONFLICT, INVALID = 409, 422

CODES: dict[str, int] = {
    # scenes and phases (spec §5.1)
    "no_scene": CONFLICT,
    "scene_in_progress": CONFLICT,  # one scene at a time
    "not_action_scene": CONFLICT,
    "not_in_planning_scene": CONFLICT,  # after-effects are chosen in a planning scene (§4.15, A33)
    "wrong_phase": CONFLICT,
    "roll_in_progress": CONFLICT,  # at most one open roll per scene (§3.5)
    "no_open_roll": CONFLICT,
    "not_your_roll": CONFLICT,
    "reroll_window_closed": CONFLICT,  # element reroll / confirm only before the first tie choice (A13)
    # rounds and turn order (§4.2, §4.13)
    "not_in_scene": CONFLICT,
    "taken_out": CONFLICT,  # §4.12: no further part in this scene
    "already_acted_this_round": CONFLICT,
    "leader_acts_first": CONFLICT,  # A46
    "not_leader": CONFLICT,
    "leader_out_of_scene": CONFLICT,  # A25
    "alarm_already_used": CONFLICT,  # once per scene (§4.10)
    "alarm_not_now": CONFLICT,  # A12 timing
    # ties (§4.7)
    "no_tie": CONFLICT,
    "invalid_tie_die": INVALID,
    "stupid_changes_nothing": CONFLICT,  # a tie on 1: flipping a 1 to 1 would loop forever
    # the pool (§4.3–§4.5)
    "unknown_ability": INVALID,
    "unknown_legend": INVALID,
    "duplicate_legend": INVALID,
    "unknown_equipment": INVALID,
    "unknown_scar": INVALID,
    "duplicate_scar": INVALID,
    "too_many_character_point_spends": INVALID,  # A16
    "not_enough_character_points": CONFLICT,
    # elements (§4.11)
    "unknown_element": INVALID,
    "element_exhausted": CONFLICT,
    # bail-out extraction (§4.13)
    "too_many_extracted": INVALID,
    "not_extractable": INVALID,
    "duplicate_character": INVALID,
    # characters and teams
    "unknown_character": INVALID,
    "character_not_active": CONFLICT,
    "leader_not_in_team": INVALID,
    "leader_fixed_after_bail_out": CONFLICT,  # "with the same leader" (§4.13), unless that leader is gone
    # after-effects (§4.15)
    "no_pending_aftermath": CONFLICT,
    "aftermath_option_used": CONFLICT,
    "aftermath_pending": CONFLICT,  # A33: chosen before the planning scene closes
    "aftermath_option_available": CONFLICT,  # A35: the GM decides only when no option remains
    "no_aftermath_proposal": CONFLICT,  # A39
    "ability_too_low": CONFLICT,  # only a rating of 2 or more can be reduced
    "invalid_set_up_target": INVALID,
    # generic field checks and toggles
    "field_required": INVALID,
    "field_not_applicable": INVALID,
    "option_disabled": INVALID,
    # character creation (§3.3, A3)
    "abilities_required": INVALID,
    "invalid_ability_rating": INVALID,
    "duplicate_ability": INVALID,
}


def violation(code: str, detail: str, field: str | None = None, status: int | None = None) -> RuleViolation:
    return RuleViolation(code, detail, field=field, status=status or CODES[code])
