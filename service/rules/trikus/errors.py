"""The closed set of rule-violation codes Trikus raises, each with its HTTP status.

409: the move conflicts with the current state; 422: the move is malformed for the rules;
403 (`gm_only`, `not_your_character`, `character_not_yours`) comes from `service.rules.base`.
"""

from __future__ import annotations

from service.rules.base import RuleViolation

CONFLICT, INVALID = 409, 422

CODES: dict[str, int] = {
    # activities and turns (spec 5)
    "activity_in_progress": CONFLICT,  # one open test or combat per party (I7, A56)
    "no_activity": CONFLICT,
    "wrong_phase": CONFLICT,
    "not_your_turn": CONFLICT,  # throwing or deciding out of turn
    "already_thrown": CONFLICT,  # one die per thrower per wave (L112)
    "already_answered": CONFLICT,
    "not_invited": CONFLICT,
    "not_all_answered": CONFLICT,
    "not_participant": CONFLICT,
    "nothing_to_auto": CONFLICT,
    "negotiation_pending": CONFLICT,
    "last_chance_pending": CONFLICT,
    # characters
    "unknown_character": INVALID,
    "duplicate_character": INVALID,
    "character_not_active": CONFLICT,
    # lines and pools (spec 4.1, 4.2)
    "no_such_line": INVALID,
    "line_already_crossed": CONFLICT,
    "line_lost": CONFLICT,
    "line_required": CONFLICT,  # A12: a free line must be crossed
    "master_line_lost": CONFLICT,  # A18 strict reading
    "no_dice": CONFLICT,  # pool < 1: bad_feeling is the way out
    "insufficient_morale": CONFLICT,
    "insufficient_light_tokens": CONFLICT,
    "insufficient_dark_tokens": CONFLICT,
    "boost_only_before_test": CONFLICT,  # L230
    "boost_already_used": CONFLICT,  # once per test; once per combat (A21)
    "morale_only_before_test": CONFLICT,  # A13
    "field_not_applicable": INVALID,
    "option_disabled": INVALID,
    # the opposed engine (spec 4.3, 4.14, 4.16, 4.18)
    "pair_not_open": CONFLICT,
    "no_unthrown_die": INVALID,  # L324, TK-E16
    "no_last_chance": CONFLICT,
    "opponent_not_in_control": CONFLICT,
    "die_already_renegotiated": CONFLICT,
    "negotiation_already_refused": CONFLICT,
    "throw_already_submitted": CONFLICT,
    "no_negotiation_proposed": CONFLICT,
    # boom (spec 4.19)
    "no_such_boom": INVALID,
    "boom_already_claimed": CONFLICT,
    "no_unclaimed_boom": CONFLICT,
    "not_a_result": INVALID,
    # team test and team combat (spec 4.5, 4.9, 4.10)
    "not_a_cancellable_failure": INVALID,
    "cannot_cancel_negotiation_failure": CONFLICT,
    "not_a_failing_player": INVALID,
    "cannot_defend_negotiation_failure": CONFLICT,
    "not_a_roll_target": INVALID,
    # catastrophe (spec 4.17)
    "not_a_candidate_line": INVALID,
    # tokens, sides, equipment (spec 4.14, 4.15, 4.20, 4.22)
    "no_dark_side_prompt": CONFLICT,
    "no_such_side": INVALID,
    "sides_not_pending": CONFLICT,
    "wrong_side_count": INVALID,
    "master_dark_side_authorship": INVALID,
    "unknown_item": INVALID,
    "item_not_available": CONFLICT,
    "item_not_renewable": CONFLICT,
    "duplicate_trait": INVALID,
    "modifier_required": INVALID,
    "bad_trait_modifier": INVALID,
    "no_such_trait": INVALID,
    "trait_already_known": CONFLICT,
    "same_character": INVALID,
}


def violation(code: str, detail: str, field: str | None = None, status: int | None = None) -> RuleViolation:
    return RuleViolation(code, detail, field=field, status=status or CODES[code])
