"""One test per violation code (errors.CODES, plus `gm_only` and `not_your_character`): the move is refused,
nothing changes.

Continued in test_trikus_violations_more.py, which also checks that every code has its test."""

from __future__ import annotations

import pytest
from trikus_support import Table


def opened(t: Table, cid: str = "michal", gm_pool: int = 2, **join) -> None:
    t.do({"type": "open_test", "character_ids": [cid], "gm_pool": gm_pool})
    t.do({"type": "join", "character_id": cid, **({"line_index": 0} | join)})
    t.do({"type": "start"})


@pytest.fixture
def t() -> Table:
    table = Table(adv_escape=True, adv_negotiation=True, adv_boom=True, adv_equipment=True)
    table.party()
    return table


def test_code_activity_in_progress(t):
    opened(t)
    t.fails({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1}, "activity_in_progress")
    t.fails({"type": "start_session"}, "activity_in_progress")
    t.fails({"type": "force_reset", "reason": "x"}, "activity_in_progress")


def test_code_no_activity(t):
    t.fails({"type": "start"}, "no_activity")


def test_code_wrong_phase(t):
    opened(t)
    t.fails({"type": "join", "character_id": "michal", "line_index": 0}, "wrong_phase")


def test_code_not_your_turn(t):
    opened(t, gm_pool=3)
    t.wave(gm=2, michal=9)
    t.fails({"type": "throw", "character_id": "michal"}, "not_your_turn")


def test_code_already_thrown(t):
    opened(t)
    t.submit("gm")
    t.fails({"type": "throw"}, "already_thrown")


def test_code_already_answered(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "bad_feeling", "character_id": "michal", "description": "d", "intent": "i"})
    t.fails({"type": "join", "character_id": "michal", "line_index": 0}, "already_answered")


def test_code_not_invited(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0}, "not_invited")


def test_code_not_all_answered(t):
    t.do({"type": "open_test", "character_ids": ["michal", "pawel"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.fails({"type": "start"}, "not_all_answered")


def test_code_not_participant(t):
    t.do({"type": "open_combat", "character_ids": ["michal", "pawel"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "bad_feeling", "character_id": "pawel", "description": "d", "intent": "i"})
    t.do({"type": "start"})
    t.fails({"type": "declare_round", "character_id": "pawel"}, "not_participant")


def test_code_nothing_to_auto(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "auto"}, "nothing_to_auto")


def test_code_negotiation_pending(t):
    opened(t)
    t.wave(gm=9, michal=1)
    t.do({"type": "propose_negotiation", "character_id": "michal"})
    t.fails({"type": "throw", "character_id": "michal"}, "negotiation_pending")
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "negotiation_pending")


def test_code_last_chance_pending(t):
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "x"})
    opened(t, "pawel")
    t.wave(gm=9, pawel=1)
    t.fails({"type": "throw"}, "last_chance_pending")


def test_code_unknown_character(t):
    t.fails({"type": "open_test", "character_ids": ["nobody"], "gm_pool": 1}, "unknown_character", status=422)


def test_code_duplicate_character(t):
    t.fails({"type": "open_test", "character_ids": ["pawel", "pawel"], "gm_pool": 1}, "duplicate_character")


def test_code_character_not_active(t):
    t.sheet("pawel")["status"] = "dead"
    t.fails({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1}, "character_not_active")
    t.fails({"type": "award_light_token", "character_id": "pawel", "reason": "x"}, "character_not_active")


def test_code_no_such_line(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "line_index": 1}, "no_such_line", status=422)


def test_code_line_already_crossed(t):
    t.lines("pawel", "crossed", "free", "free")
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0}, "line_already_crossed")


def test_code_line_lost(t):
    t.lines("pawel", "lost:2", "free", "free")
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": 0}, "line_lost")


def test_code_line_required(t):
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": None, "boost": True}, "line_required")


def test_code_master_line_lost():
    t = Table(catastrophe_master_strict=True)
    t.pc("michal", "master")
    t.lines("michal", "lost:1")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "boost": True}, "master_line_lost")


def test_code_no_dice(t):
    t.lines("michal", "crossed")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal"}, "no_dice")


def test_code_insufficient_morale(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "line_index": 0, "morale": 1}, "insufficient_morale")


def test_code_insufficient_light_tokens(t):
    t.fails({"type": "light_token_fact", "character_id": "pawel", "text": "x"}, "insufficient_light_tokens")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "line_index": 0, "light": 1}, "insufficient_light_tokens")


def test_code_insufficient_dark_tokens(t):
    t.fails({"type": "spend_dark_token", "character_id": "pawel"}, "insufficient_dark_tokens")


def test_code_boost_only_before_test(t):
    opened(t)
    t.fails({"type": "boost", "character_id": "michal"}, "boost_only_before_test")


def test_code_boost_already_used(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0, "boost": True})
    t.fails({"type": "boost", "character_id": "michal"}, "boost_already_used")


def test_code_morale_only_before_test(t):
    t.sheet("michal")["morale_dice"] = 1
    opened(t)
    t.fails({"type": "commit_morale", "character_id": "michal"}, "morale_only_before_test")


def test_code_field_not_applicable(t):
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "michal", "line_index": 0, "allies": 1}, "field_not_applicable")


def test_code_option_disabled():
    t = Table()
    t.party()
    t.fails({"type": "claim_boom", "character_id": "pawel", "value": 1, "text": "x"}, "option_disabled")


def test_code_pair_not_open(t):
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "x"})
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=1, pawel=9, michal=1)
    t.do({"type": "escape", "character_id": "michal"})
    t.fails({"type": "escape", "character_id": "michal"}, "no_unthrown_die")
    t.fails({"type": "spend_light_die", "character_id": "michal"}, "pair_not_open")


def test_code_no_unthrown_die(t):
    opened(t, "pawel")
    t.submit("pawel")
    t.fails({"type": "escape", "character_id": "pawel"}, "no_unthrown_die", status=422)


def test_code_no_last_chance(t):
    opened(t)
    t.fails({"type": "pass_last_chance", "character_id": "michal"}, "no_last_chance")


def test_code_opponent_not_in_control(t):
    opened(t, gm_pool=3)
    t.wave(gm=1, michal=9)
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "opponent_not_in_control")


def test_code_die_already_renegotiated(t):
    opened(t)
    t.wave(gm=9, michal=1)
    t.do({"type": "propose_negotiation", "character_id": "michal"})
    t.do({"type": "answer_negotiation", "accept": True})
    t.throw("gm", 9)
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "die_already_renegotiated")


def test_code_negotiation_already_refused(t):
    opened(t)
    t.wave(gm=9, michal=1)
    t.do({"type": "propose_negotiation", "character_id": "michal"})
    t.do({"type": "answer_negotiation", "accept": False})
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "negotiation_already_refused")


def test_code_throw_already_submitted(t):
    t.do({"type": "open_test", "character_ids": ["michal", "pawel"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=8, michal=1, pawel=9)
    t.submit("gm")
    t.fails({"type": "propose_negotiation", "character_id": "michal"}, "throw_already_submitted")


def test_code_no_negotiation_proposed(t):
    opened(t)
    t.fails({"type": "answer_negotiation", "accept": True}, "no_negotiation_proposed")
