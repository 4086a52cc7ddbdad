"""The closed set of rule-violation codes this system raises, each with its HTTP status.

409: the move conflicts with the current state; 422: the move is malformed for the rules;
403 (`gm_only`, `not_your_character`) comes from `service.rules.base`. Names follow spec §5.2 where it names one.
"""

from __future__ import annotations

from service.rules.base import RuleViolation

CONFLICT, INVALID = 409, 422

CODES: dict[str, int] = {
    # sessions and bennies (§4.28, §4.29, §5.1)
    "no_open_session": CONFLICT,
    "session_already_open": CONFLICT,
    "no_benny": CONFLICT,
    "wrong_benny_source": INVALID,
    "unknown_player": INVALID,
    "duplicate_character": INVALID,
    "not_an_npc": CONFLICT,
    "not_a_wild_card": CONFLICT,
    "already_in_play": CONFLICT,
    "not_in_play": CONFLICT,
    # characters and conditions (§3.5, §4.27, §4.30)
    "unknown_character": INVALID,
    "character_eliminated": CONFLICT,
    "invalid_die": INVALID,
    "duplicate_trait": INVALID,
    "unknown_weapon": INVALID,
    "not_shaken": CONFLICT,
    # encounter and deck (§3.6, §4.11, §4.12, §4.16)
    "no_encounter": CONFLICT,
    "encounter_in_progress": CONFLICT,
    "not_in_encounter": CONFLICT,
    "already_in_encounter": CONFLICT,
    "duplicate_participant": INVALID,
    "invalid_surprise": INVALID,
    "invalid_group": INVALID,
    "option_disabled": INVALID,
    "wrong_phase": CONFLICT,
    "deck_exhausted": CONFLICT,
    "cards_required": INVALID,
    "cards_not_expected": INVALID,
    "unknown_card": INVALID,
    "card_not_in_deck": CONFLICT,
    "wrong_card_count": INVALID,
    # the extra-card window (§4.14)
    "draw_window_closed": CONFLICT,
    "no_card": CONFLICT,
    "extra_draw_limit": CONFLICT,
    "card_not_held": INVALID,
    # countdown, holds, interrupts (§4.13, §4.17–§4.19)
    "not_your_turn": CONFLICT,
    "turn_in_progress": CONFLICT,
    "already_acted": CONFLICT,
    "cannot_act_this_round": CONFLICT,
    "no_card_to_call": CONFLICT,
    "round_not_finished": CONFLICT,
    "joker_must_act": CONFLICT,
    "cannot_hold_while_shaken": CONFLICT,
    "cannot_hold_now": CONFLICT,
    "cannot_interrupt": CONFLICT,
    "nothing_to_interrupt": CONFLICT,
    "interrupt_pending": CONFLICT,
    "cannot_redeclare": CONFLICT,
    # the turn: actions, running, movement, items (§4.20–§4.26)
    "too_many_actions": INVALID,
    "action_not_declared": INVALID,
    "action_already_taken": CONFLICT,
    "turn_not_declared": CONFLICT,
    "action_required": CONFLICT,
    "run_must_be_declared": CONFLICT,
    "already_ran": CONFLICT,
    "no_vigor_die": CONFLICT,
    "exceeds_pace": CONFLICT,
    "jump_too_far": INVALID,
    # trait tests, opposed tests, damage (§4.2–§4.9, §5.5, §5.6)
    "unknown_test": INVALID,
    "test_not_open": CONFLICT,
    "critical_failure_cannot_be_rerolled": CONFLICT,
    "opposed_roll_locked": CONFLICT,
    "not_awaiting_defender": CONFLICT,
    "unskilled_not_allowed": CONFLICT,
    "rate_of_fire_exceeded": INVALID,
    "invalid_substitution": INVALID,
    "invalid_attempt": INVALID,
    "attack_missed": CONFLICT,
}


def violation(code: str, detail: str, field: str | None = None) -> RuleViolation:
    return RuleViolation(code, detail, field=field, status=CODES[code])
