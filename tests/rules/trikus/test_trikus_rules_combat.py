"""One test per combat rule (L174–L216, L362–L392; spec 4.8–4.11, A20–A32)."""

from __future__ import annotations

from trikus_support import Table


def fight(t: Table, ids: list[str], gm_pool: int, lines: dict | None = None, **extra) -> None:
    t.do({"type": "open_combat", "character_ids": ids, "gm_pool": gm_pool, **extra})
    for cid in ids:
        t.do({"type": "join", "character_id": cid, "line_index": (lines or {}).get(cid, 0)})
    t.do({"type": "start"})


def declare(t: Table, *ids: str, **extras) -> None:
    for cid in ids:
        t.do({"type": "declare_round", "character_id": cid, **extras.get(cid, {})})


def test_rule_no_new_line_per_round_and_extras_do_not_carry_over():
    """L180: the line is crossed once; morale dice last one round."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=1)
    t.pc("michal", "master")
    fight(t, ["pawel"], 3)
    declare(t, "pawel", pawel={"morale": 1})
    assert t.unthrown()["pawel"] == 2
    t.wave(gm=1, pawel=5)
    t.do({"type": "auto"}, [1, 1])
    assert t.act["round"] == 2 and t.sheet("pawel")["morale_dice"] == 1
    declare(t, "pawel")
    assert t.unthrown() == {"gm": 2, "pawel": 1}
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["crossed", "free", "free"]


def test_rule_players_win_when_the_gm_loses_all_dice():
    """L196: the GM out of dice ends the combat with the players' success."""
    t = Table()
    t.pc("michal", "master")
    t.pc("pawel", "beginner")
    fight(t, ["michal"], 1)
    declare(t, "michal")
    t.wave(gm=1, michal=5)
    assert t.act is None and t.last["outcome"] == "players_win"


def test_rule_draw_in_combat_costs_no_die():
    """A7: both out of dice while tied: nobody loses a die, morale unchanged."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=1)
    t.pc("michal", "master")
    fight(t, ["pawel"], 1)
    declare(t, "pawel")
    t.wave(gm=4, pawel=4)
    assert t.act["round"] == 2 and t.act["participants"]["pawel"]["line_dice"] == 1
    assert t.act["gm_pool"] == 1 and t.sheet("pawel")["morale_dice"] == 1


def test_rule_pool_zero_participant_must_field_extras_or_leave():
    """A22: joined while exhausted: each round needs an extra die; declaring none means leaving, no penalty."""
    t = Table()
    t.pc("michal", "master", morale_dice=1)
    t.pc("pawel", "beginner")
    t.lines("michal", "crossed")
    t.do({"type": "open_combat", "character_ids": ["michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "michal", "line_index": None})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "michal"})
    assert t.act is None and t.last["outcome"] == "withdrawn"
    assert t.events("participant_left")[0].data["character_id"] == "michal"
    assert t.events("catastrophe") == []


def test_rule_pool_zero_participant_hit_is_knocked_out():
    """A22: failing with nothing to lose is like losing the last die: knocked out, Catastrophe."""
    t = Table()
    t.pc("michal", "master", morale_dice=1)
    t.pc("pawel", "beginner")
    t.lines("michal", "crossed")
    t.do({"type": "open_combat", "character_ids": ["michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "michal", "line_index": None})
    t.do({"type": "start"})
    declare(t, "michal", michal={"morale": 1})
    t.wave(gm=9, michal=2)
    assert t.last["outcome"] == "players_defeated"
    assert t.events("round_hits")[0].data["players_hit"] == {"michal": "nothing_left"}
    assert t.events("catastrophe")[0].data["cause"] == "last_die"


def test_rule_boost_once_per_combat_penalty_if_that_round_fails():
    """A21: boost at any round's pool formation, once; the penalty follows that round's result."""
    t = Table()
    t.pc("michal", "master")
    t.pc("pawel", "beginner")
    fight(t, ["michal"], 5)
    declare(t, "michal", michal={"boost": True})
    assert t.unthrown()["michal"] == 5
    t.wave(gm=1, michal=9)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    assert t.sheet("michal")["dark_tokens"]["active"] == 0 and t.act["round"] == 2
    t.fails({"type": "declare_round", "character_id": "michal", "boost": True}, "boost_already_used")
    declare(t, "michal")
    t.fails({"type": "boost", "character_id": "michal"}, "boost_only_before_test")


def test_rule_boosted_round_failure_gives_dark_token_and_catastrophe():
    t = Table()
    t.pc("michal", "master")
    t.pc("pawel", "beginner")
    fight(t, ["michal"], 2)
    declare(t, "michal", michal={"boost": True})
    t.wave(gm=10, michal=1)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    assert t.sheet("michal")["dark_tokens"]["active"] == 1
    assert t.events("catastrophe")[0].data["cause"] == "boost_failure"
    assert t.act["participants"]["michal"]["line_dice"] == 2


def test_rule_core_one_defender_is_enough_and_several_change_nothing():
    """L192, A25: defended, the failing player keeps the die; two defenders, still one die kept."""
    t = Table()
    for c in ("a", "b", "c"):
        t.pc(c, "beginner")
    fight(t, ["a", "b", "c"], 3)
    declare(t, "a", "b", "c")
    t.wave(gm=5, a=1, b=8, c=9)
    t.do({"type": "auto"}, [1, 1])
    assert t.whose() == ["c"]
    t.fails({"type": "defend", "character_id": "c", "target_character_id": "b"}, "not_a_failing_player")
    t.do({"type": "defend", "character_id": "c", "target_character_id": "a"})
    t.do({"type": "defend", "character_id": "b", "target_character_id": "a"})
    assert t.act["participants"]["a"]["line_dice"] == 1 and t.act["gm_pool"] == 3
    assert [t.sheet(c)["morale_dice"] for c in "abc"] == [0, 1, 1]  # A55: defenders keep morale


def test_rule_undefended_failure_loses_a_die_and_knocked_out_skip_later_rounds():
    t = Table()
    for c in ("a", "b"):
        t.pc(c, "beginner")
    fight(t, ["a", "b"], 3)
    declare(t, "a", "b")
    t.wave(gm=5, a=1, b=8)
    t.do({"type": "auto"}, [1, 1])
    t.do({"type": "attack", "character_id": "b"})
    assert t.act["participants"]["a"]["status"] == "knocked_out" and t.act["gm_pool"] == 2
    assert t.whose() == ["b"]  # round 2: only b declares


def test_rule_negotiation_failure_in_combat_is_an_undefendable_hit():
    """L346, A40: the die loss is automatic: no defense, no CD roll."""
    t = Table(adv_negotiation=True)
    for c in ("a", "b"):
        t.pc(c, "beginner", morale_dice=1)
    fight(t, ["a", "b"], 3)
    declare(t, "a", "b", a={"morale": 1})
    t.wave(gm=9, a=1, b=10)
    t.do({"type": "propose_negotiation", "character_id": "a"})
    t.do({"type": "answer_negotiation", "accept": True})
    t.throw("gm", 7)
    t.wave(gm=1, a=2)
    t.do({"type": "auto"}, [1])
    assert t.events("contest_resolved")[0].data["results"] == {"a": "failure", "b": "success"}
    assert t.events("combat_declaration")[0].data["automatic"]  # nobody can be defended
    assert t.events("round_hits")[0].data["players_hit"] == {"a": "line_die"}
    assert t.act["participants"]["a"]["status"] == "knocked_out"
    assert t.events("catastrophe")[0].data["cause"] == "negotiation_failure"


def test_rule_cd_gm_may_waive_a_roll():
    """A26: the GM rolls against every failing player unless he waives (logged)."""
    t = Table(adv_combat_difficulty=True)
    for c in ("a", "b"):
        t.pc(c, "beginner")
    fight(t, ["a", "b"], 3)
    declare(t, "a", "b")
    t.wave(gm=5, a=1, b=8)
    t.do({"type": "auto"}, [1, 1])
    t.do({"type": "attack", "character_id": "b"})
    t.throw("b", 2)
    assert t.whose() == ["gm"] and t.may("gm") == ["throw", "waive_roll", "auto"]
    t.fails({"type": "waive_roll", "target_character_id": "b"}, "not_a_roll_target")
    t.do({"type": "waive_roll", "target_character_id": "a"})
    assert t.events("roll_waived")[0].data["target_character_id"] == "a"
    assert t.act["participants"]["a"]["status"] == "active" and t.act["gm_pool"] == 3


def test_rule_cd_targets_are_not_clamped():
    """A29: CD 10 + 2 = 12: the GM cannot hit, the roll is still recorded."""
    t = Table(adv_combat_difficulty=True)
    for c in ("a", "b"):
        t.pc(c, "beginner")
    fight(t, ["a", "b"], 3, combat_difficulty=10)
    declare(t, "a", "b")
    t.wave(gm=5, a=1, b=8)
    t.do({"type": "auto"}, [1, 1])
    t.do({"type": "defend", "character_id": "b", "target_character_id": "a"})
    t.throw("gm", 10)
    roll = t.events("combat_difficulty_roll")[0].data
    assert (roll["need"], roll["value"], roll["hit"]) == (12, 10, False)


def test_rule_gm_out_and_players_out_in_the_same_round_players_win():
    """A27: all hits together; the GM's pool reaching 0 wins even if the players also dropped."""
    t = Table(adv_combat_difficulty=True)
    for c in ("a", "b"):
        t.pc(c, "beginner")
    fight(t, ["a", "b"], 1)
    declare(t, "a", "b")
    t.wave(gm=5, a=1, b=8)
    t.do({"type": "attack", "character_id": "b"})
    t.throw("b", 9)
    t.throw("gm", 9)
    assert t.last["outcome"] == "players_win"
    assert t.events("knocked_out")[0].data["character_id"] == "a"


def test_rule_master_consequence_once_per_combat():
    """A32: a second player losing the last die in the same powerful fight costs nothing more."""
    t = Table()
    t.pc("a", "beginner")
    t.pc("b", "advanced")
    t.pc("m", "master")
    fight(t, ["a", "b"], 3, powerful_opponent=True)
    declare(t, "a", "b")
    t.wave(gm=9, a=1, b=1)
    t.throw("b", 1)
    assert t.events("master_consequence")[0].data["master"] == "m"
    assert len(t.events("master_consequence")) == 1
    assert t.sheet("m")["status"] == "turned_dark"


def _two_master_knockout(seated_first: str, seated_second: str) -> Table:
    """A powerful fight with two Masters at the table (ids chosen so id order and seat order disagree)."""
    t = Table()
    t.pc(seated_first, "master")
    t.pc(seated_second, "master")
    t.pc("b", "beginner")
    fight(t, ["b"], 2, powerful_opponent=True)
    declare(t, "b")
    t.wave(gm=9, b=1)
    return t


def test_rule_master_consequence_with_two_masters_falls_on_the_first_in_seat_order():
    """Spec 3.3 tie-break: the Master seated first pays, whatever the characters' ids."""
    t = _two_master_knockout("zed", "amy")
    data = t.events("master_consequence")[0].data
    assert (data["master"], data["masters"]) == ("zed", ["zed", "amy"])
    assert t.sheet("zed")["status"] == "turned_dark" and t.sheet("amy")["status"] == "active"
    other = _two_master_knockout("amy", "zed")
    assert other.events("master_consequence")[0].data["master"] == "amy"
    assert other.sheet("zed")["status"] == "active"


def test_rule_seat_order_survives_a_reordered_character_mapping():
    """Once seated, a character keeps its seat even if the stored characters come back in another order."""
    t = Table()
    t.pc("zed", "master")
    t.pc("amy", "master")
    t.pc("b", "beginner")
    t.do({"type": "gm_note", "text": "the party sits down"})
    assert t.state["table"]["seats"] == ["zed", "amy", "b"]
    t.state["characters"] = dict(sorted(t.state["characters"].items()))
    fight(t, ["b"], 2, powerful_opponent=True)
    declare(t, "b")
    t.wave(gm=9, b=1)
    assert t.events("master_consequence")[0].data["master"] == "zed"


def test_rule_master_consequence_warns_when_the_party_is_not_one_per_tier():
    """Spec 3.3 (L21, A34): other compositions are played, with a warning."""
    t = _two_master_knockout("zed", "amy")
    assert t.events("master_consequence")[0].data["warnings"] == ["party_not_one_per_tier"]


def test_rule_master_consequence_has_no_warning_for_one_of_each_tier():
    t = Table()
    t.party()
    fight(t, ["pawel"], 2, powerful_opponent=True)
    declare(t, "pawel")
    t.wave(gm=9, pawel=1)
    data = t.events("master_consequence")[0].data
    assert (data["master"], data["warnings"]) == ("michal", [])


def test_rule_no_master_no_consequence():
    t = Table()
    t.pc("a", "beginner")
    t.pc("b", "advanced")
    fight(t, ["a"], 2, powerful_opponent=True)
    declare(t, "a")
    t.wave(gm=9, a=1)
    assert t.events("master_consequence")[0].data["master"] is None
    assert t.sheet("b")["status"] == "active" and t.state["table"]["pending_changes"] == []


def test_rule_master_who_escaped_did_not_take_part():
    """A31, A39: an escaped Master turns to the dark side instead of dying."""
    t = Table(adv_escape=True)
    t.pc("a", "beginner")
    t.pc("m", "master")
    fight(t, ["a", "m"], 3, powerful_opponent=True)
    declare(t, "a")
    t.do({"type": "escape", "character_id": "m"})
    t.wave(gm=9, a=1)
    assert t.sheet("m")["status"] == "turned_dark"


def test_rule_knocked_out_master_took_part_and_dies():
    """A31: a Master knocked out in the powerful fight took part: he dies (the victim may be himself)."""
    t = Table()
    t.pc("a", "beginner")
    t.pc("m", "master")
    t.lines("m", "crossed")
    t.do({"type": "open_combat", "character_ids": ["m"], "gm_pool": 2, "powerful_opponent": True})
    t.do({"type": "join", "character_id": "m", "line_index": None, "allies": 1})
    t.do({"type": "start"})
    declare(t, "m")
    t.wave(gm=9, m=1)
    assert t.sheet("m")["status"] == "dead"
    assert {p.get("character_id") for p in t.state["table"]["pending_changes"]} >= {"a"}


def test_rule_turning_dark_mid_combat_removes_the_character():
    """A36: three active dark tokens: removed at once, no further effects."""
    t = Table(adv_escape=True)
    t.pc("a", "beginner")
    t.pc("b", "beginner")
    t.sheet("a")["dark_tokens"].update(active=2, received_total=2)
    fight(t, ["a", "b"], 2)
    declare(t, "a", "b")
    t.submit("gm")
    t.do({"type": "escape", "character_id": "a"})
    assert t.sheet("a")["status"] == "turned_dark"
    assert t.act["participants"]["a"]["status"] in ("escaped", "removed")
    assert t.whose() == ["b"]


def test_rule_escape_between_rounds():
    """A39: at a round's pool formation all dice are unthrown, so escape is allowed."""
    t = Table(adv_escape=True)
    t.pc("a", "beginner")
    t.pc("b", "beginner")
    fight(t, ["a", "b"], 2)
    t.do({"type": "escape", "character_id": "a"})
    assert t.act["participants"]["a"]["status"] == "escaped" and t.whose() == ["b"]
    assert t.sheet("a")["dark_tokens"]["active"] == 1


def test_rule_adjust_combat_between_rounds_is_logged():
    """A22/A36/A30: GM reinforcements and the powerful flag change only by a logged admin move."""
    t = Table()
    t.pc("a", "beginner")
    fight(t, ["a"], 2)
    t.do({"type": "adjust_combat", "gm_pool_delta": 2, "powerful_opponent": True, "reason": "the Sith Lord arrives"})
    assert t.act["gm_pool"] == 4 and t.act["powerful_opponent"]
    t.fails({"type": "adjust_combat", "gm_pool_delta": -4, "reason": "x"}, "no_dice")
    declare(t, "a")
    t.fails({"type": "adjust_combat", "gm_pool_delta": 1, "reason": "x"}, "wrong_phase")
