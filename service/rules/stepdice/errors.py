"""The closed set of rule-violation codes this system raises, each with its HTTP status.

409: the move conflicts with the current state; 422: the move is malformed for the rules;
403 (`gm_only`, `not_your_character`) comes from `service.rules.base`.
"""

from __future__ import annotations

from service.rules.base import RuleViolation

CONFLICT, INVALID = 409, 422

CODES: dict[str, int] = {
    # who and when
    "choice_pending": CONFLICT,
    "no_pending_choice": CONFLICT,
    "wrong_pending_stage": CONFLICT,
    "no_encounter": CONFLICT,
    "not_in_encounter": CONFLICT,
    "encounter_in_progress": CONFLICT,
    "encounter_needs_combatants": CONFLICT,
    "wrong_phase": CONFLICT,
    "not_your_turn": CONFLICT,
    "turn_already_open": CONFLICT,
    "turn_already_taken": CONFLICT,
    "no_action_available": CONFLICT,
    "no_scene": CONFLICT,
    # characters and resources
    "unknown_character": INVALID,
    "character_downed": CONFLICT,
    "character_dead": CONFLICT,
    "target_not_downed": CONFLICT,
    "target_turn_over": CONFLICT,
    "insufficient_mana": CONFLICT,
    "insufficient_move": CONFLICT,
    # tests
    "unknown_talent": INVALID,
    "too_many_talents": INVALID,
    "too_many_helpers": INVALID,
    "cannot_help_self": INVALID,
    "cannot_help_d20": INVALID,
    "help_in_combat_uses_action": INVALID,
    "option_disabled": INVALID,
    "field_not_applicable": INVALID,
    # grid and combat
    "position_unknown": CONFLICT,
    "path_not_adjacent": INVALID,
    "not_adjacent": CONFLICT,
    "out_of_range": CONFLICT,
    "full_cover_blocks_ranged": CONFLICT,
    "unknown_enemy": INVALID,
    "enemy_defeated": CONFLICT,
    "duplicate_id": CONFLICT,
    # the later decisions of a test (spec 5.1)
    "could_reach_required": INVALID,
    "complication_required": INVALID,
    "benefit_not_available": INVALID,
    "benefit_text_required": INVALID,
    # clocks and advancement
    "unknown_clock": INVALID,
    "clock_not_running": CONFLICT,
    "no_pending_advancement": CONFLICT,
    "advancement_capped": CONFLICT,
    "advancement_available": CONFLICT,
    "attribute_required": INVALID,
    # character creation
    "weapon_required": INVALID,
    "wrong_item_count": INVALID,
    "wrong_talent_count": INVALID,
    "duplicate_talent": INVALID,
}


def violation(code: str, detail: str, field: str | None = None, status: int | None = None) -> RuleViolation:
    return RuleViolation(code, detail, field=field, status=status or CODES[code])
