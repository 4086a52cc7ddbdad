"""The closed set of rule-violation codes Iskra raises, each with its HTTP status.

409: the move conflicts with the current state; 422: the move is malformed for the rules;
403 (`gm_only`, `not_your_character`) comes from `service.rules.base`.
"""

from __future__ import annotations

from service.rules.base import RuleViolation

CONFLICT, INVALID = 409, 422

CODES: dict[str, int] = {
    # characters
    "unknown_character": INVALID,
    "character_dead": CONFLICT,  # invariant 3: the dead accept nothing
    "character_not_approved": CONFLICT,  # 7-B2
    "option_disabled": CONFLICT,
    # character creation (spec 4.15)
    "attribute_out_of_range": INVALID,  # L54
    "attribute_budget_exceeded": INVALID,  # 7-B2 optional budget
    "predisposition_required": INVALID,  # L84
    "too_many_predispositions": INVALID,  # L86
    "weakness_per_predisposition": INVALID,  # L86
    "wrong_ability_pick_count": INVALID,  # L128, L205
    "unknown_ability": INVALID,
    "ability_not_available": INVALID,  # species traits are never picked or bought
    "ability_level_order": INVALID,  # 7-B19
    "duplicate_ability": INVALID,  # 7-B41
    "ability_param_required": INVALID,  # Język names its language
    "glory_too_low": CONFLICT,  # L122
    # tests (spec 4.2, 5.1)
    "pending_first": CONFLICT,
    "no_pending_test": CONFLICT,
    "wrong_stage": CONFLICT,
    "roll_required": CONFLICT,
    "already_rerolled": CONFLICT,  # L74 once per test
    "adjust_after_roll_disabled": CONFLICT,  # 7-B4
    "not_enough_focus": CONFLICT,
    "no_focus_request": CONFLICT,
    "unknown_predisposition": INVALID,
    "glory_not_applicable": CONFLICT,  # L120
    "glory_already_used": CONFLICT,
    "cannot_help_self": INVALID,  # spec 4.7
    "already_helping": CONFLICT,
    # damage (spec 4.8, 5.2)
    "no_pending_damage": CONFLICT,
    "reduce_exceeds_wounds": INVALID,  # L76 "down to zero"
    "no_reaction_left": CONFLICT,  # 7-B23
    # combat (spec 4.12, 5.4)
    "combat_in_progress": CONFLICT,
    "no_combat": CONFLICT,
    "not_a_participant": CONFLICT,
    "bad_sides": INVALID,
    "not_your_turn": CONFLICT,
    "no_major_action": CONFLICT,
    "no_minor_action": CONFLICT,
    "no_passing_action": CONFLICT,
    "not_prone": CONFLICT,  # L166
    "melee_needs_reach": CONFLICT,  # 7-B38
    "wounds_required": INVALID,  # 7-B30
    "ability_required": CONFLICT,  # Oburęczność (L293)
    "offhand_limit_reached": CONFLICT,  # 7-B40
    "no_ready_action": CONFLICT,  # spec 4.13.1
    "target_required": INVALID,
    # XP, glory, sessions (spec 4.10, 5.6)
    "not_between_sessions": CONFLICT,  # L100
    "session_already_open": CONFLICT,
    "no_session_running": CONFLICT,
    "not_enough_xp": CONFLICT,
    "attribute_at_max": CONFLICT,  # L54
    "adversity_already_awarded": CONFLICT,  # 7-B16
    # recovery and environment (spec 4.9, 4.14)
    "recovery_test_not_due": CONFLICT,  # L68 once per day
    "recovery_tests_due": CONFLICT,
    "not_in_safe_place": CONFLICT,  # L68
    "regeneration_blocked": CONFLICT,  # Asrai Wrażliwość (L259)
    "at_maximum": CONFLICT,
    "unknown_location": INVALID,
    "no_ether_sense": CONFLICT,  # L207
    "npc_only": CONFLICT,  # 7-B29
    # carrying (spec 4.11)
    "over_carry_limit": CONFLICT,  # L134
    "unknown_item": INVALID,
    "heavy_item_requires_gm": CONFLICT,  # L319
}


def violation(code: str, detail: str, field: str | None = None, status: int | None = None) -> RuleViolation:
    return RuleViolation(code, detail, field=field, status=status or CODES[code])
