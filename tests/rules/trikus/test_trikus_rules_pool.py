"""Pool formation (spec 4.2, A12, A13, A21): what may be added before the test, and what may not after."""

from __future__ import annotations

from trikus_support import Table


def solo(t: Table, cid: str = "michal", gm_pool: int = 1, **join) -> None:
    t.do({"type": "open_test", "character_ids": [cid], "gm_pool": gm_pool})
    t.do({"type": "join", "character_id": cid, **({"line_index": 0} | join)})
    t.do({"type": "start"})


def test_rule_pool_additions_before_a_test():
    """L106, L230, A13: morale, boost and light tokens are added while the pool is formed."""
    t = Table()
    t.pc("michal", "master", morale_dice=2)
    t.pc("pawel", "beginner")
    t.do({"type": "award_light_token", "character_id": "michal", "reason": "x"})
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "commit_morale", "character_id": "michal", "count": 2})
    t.fails({"type": "commit_morale", "character_id": "michal"}, "insufficient_morale")
    t.do({"type": "boost", "character_id": "michal"})
    t.do({"type": "spend_light_die", "character_id": "michal"})
    t.fails({"type": "spend_light_die", "character_id": "michal"}, "insufficient_light_tokens")
    t.do({"type": "start"})
    assert t.unthrown()["michal"] == 3 + 2 + 2 + 1
    m = t.sheet("michal")
    assert (m["morale_dice"], m["light_tokens"]["active"], m["light_tokens"]["used_total"]) == (0, 0, 1)


def test_rule_pool_additions_in_a_combat_round():
    """L180: extras are per round; they are added to this round's declaration only."""
    t = Table()
    t.pc("michal", "master", morale_dice=1)
    t.pc("pawel", "beginner")
    t.do({"type": "open_combat", "character_ids": ["michal", "pawel"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.fails({"type": "boost", "character_id": "michal"}, "wrong_phase")  # setup: not yet a round
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    t.fails({"type": "boost", "character_id": "michal"}, "wrong_phase")  # declare first
    t.do({"type": "declare_round", "character_id": "michal"})
    t.do({"type": "boost", "character_id": "michal"})
    t.do({"type": "commit_morale", "character_id": "michal"})
    t.do({"type": "declare_round", "character_id": "pawel"})
    assert t.unthrown() == {"gm": 2, "michal": 6, "pawel": 1}
    assert t.act["participants"]["michal"]["boost_used"]


def test_rule_committed_extras_are_spent_even_if_never_thrown():
    """L112, A11: Michał wins with dice in hand; the morale die he committed is gone."""
    t = Table()
    t.pc("michal", "master", morale_dice=1)
    t.pc("pawel", "beginner")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "michal", "line_index": 0, "morale": 1})
    t.do({"type": "start"})
    t.wave(gm=1, michal=9)
    assert t.sheet("michal")["morale_dice"] == 1  # 1 - 1 committed + 1 for the success


def test_rule_bad_feeling_changes_nothing_and_everyone_out_is_no_test():
    """L78–L80, A53: not a test, not a failure: no line, morale or token changes."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=1)
    t.pc("zuzia", "advanced")
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia"], "gm_pool": 2})
    for cid in ("pawel", "zuzia"):
        t.do({"type": "bad_feeling", "character_id": cid, "description": "hides", "intent": "stay alive"})
    t.do({"type": "start"})
    assert t.act is None and t.last["outcome"] == "no_test"
    assert t.sheet("pawel")["morale_dice"] == 1 and t.sheet("pawel")["lines"][0]["state"] == "free"


def test_rule_exhausted_can_test_with_extras_only():
    """L68–L74: morale, light tokens or boost allow a test without a free line."""
    t = Table()
    t.pc("michal", "master", morale_dice=1)
    t.lines("michal", "crossed")
    t.do({"type": "award_light_token", "character_id": "michal", "reason": "helped"})
    solo(t, line_index=None, morale=1, light=1)
    assert t.unthrown()["michal"] == 2
    assert t.sheet("michal")["light_tokens"]["active"] == 0 and t.sheet("michal")["morale_dice"] == 0


def test_rule_boost_adds_two_dice_when_not_exhausted():
    """L230: +2d10 on top of the line."""
    t = Table()
    t.pc("michal", "master")
    solo(t, boost=True)
    assert t.unthrown()["michal"] == 5


def test_rule_free_line_must_be_crossed():
    """L60, A12: with a free line a player cannot join on extras only."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=1)
    t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
    t.fails({"type": "join", "character_id": "pawel", "line_index": None, "morale": 1}, "line_required")


def test_rule_advanced_chooses_2d10_or_1d10():
    """L41: the Advanced picks which line to cross."""
    t = Table()
    t.pc("zuzia", "advanced")
    solo(t, "zuzia", line_index=1)
    assert t.unthrown()["zuzia"] == 1 and t.sheet("zuzia")["lines"][1]["state"] == "crossed"
