"""One test per rule of the opposed engine, pools, resources, lines and the party (spec 4.1–4.7, 4.12–4.23)."""

from __future__ import annotations

from trikus_support import GM, Table, player

from service.rules.trikus import SYSTEM


def solo(t: Table, cid: str = "michal", gm_pool: int = 1, **join) -> None:
    t.do({"type": "open_test", "character_ids": [cid], "gm_pool": gm_pool})
    t.do({"type": "join", "character_id": cid, **({"line_index": 0} | join)})
    t.do({"type": "start"})


def test_rule_first_throw_is_simultaneous_and_hidden():
    """L118: nobody's face exists until the wave completes: the first thrower's move rolls nothing."""
    t = Table()
    t.party()
    solo(t)
    events = t.submit("michal")
    assert [e.type for e in events] == ["throw_submitted"] and t.contest["dice"] == []
    assert t.whose() == ["gm"]
    t.fails({"type": "throw", "character_id": "michal"}, "already_thrown")


def test_rule_tie_on_first_throw_decides_nothing_outside_combat():
    """A6: both throw again; the tied dice are void."""
    t = Table()
    t.party()
    solo(t, gm_pool=3)
    t.wave(gm=6, michal=6)
    assert t.ctrl("michal") == ("tie", 6) and t.whose() == ["gm", "michal"]
    t.wave(gm=2, michal=3)
    assert t.ctrl("michal") == ("ctrl", "player", 3)


def test_rule_tie_both_out_of_dice_is_a_draw():
    """A7: both must rethrow and neither can: a draw; the line stays crossed, morale unchanged."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=2)
    solo(t, "pawel", morale=0)
    t.wave(gm=4, pawel=4)
    assert t.last["results"] == {"pawel": "draw"} and t.sheet("pawel")["morale_dice"] == 2
    assert t.sheet("pawel")["lines"][0]["state"] == "crossed"


def test_rule_tie_gm_cannot_rethrow_player_succeeds():
    t = Table()
    t.pc("michal", "master")
    solo(t)
    t.wave(gm=5, michal=5)
    assert t.last["results"] == {"michal": "success"}


def test_rule_tie_player_cannot_rethrow_fails():
    t = Table()
    t.pc("pawel", "beginner")
    solo(t, "pawel", gm_pool=2)
    t.wave(gm=5, pawel=5)
    assert t.last["results"] == {"pawel": "failure"}


def test_rule_controlling_side_never_throws():
    """L112, L166: only the side below the target throws."""
    t = Table()
    t.pc("michal", "master")
    solo(t, gm_pool=3)
    t.wave(gm=2, michal=9)
    t.fails({"type": "throw", "character_id": "michal"}, "not_your_turn")
    assert t.whose() == ["gm"]


def test_rule_winners_unthrown_dice_are_forfeited():
    """L112, A11: Michał wins with two dice in hand; nothing is refunded."""
    t = Table()
    t.party()
    solo(t)
    t.wave(gm=2, michal=9)
    assert t.last["results"] == {"michal": "success"} and t.sheet("michal")["lines"][0]["state"] == "crossed"


def test_rule_morale_gained_on_success_lost_on_any_failure():
    """L222, L224: one die per success; every held die goes on a failure; the GM gets none (L170)."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=3)
    solo(t, "pawel")
    t.wave(gm=9, pawel=1)
    assert t.sheet("pawel")["morale_dice"] == 0
    solo(t, "pawel", line_index=1)
    t.wave(gm=1, pawel=9)
    assert t.sheet("pawel")["morale_dice"] == 1


def test_rule_light_token_any_moment_of_the_test():
    """L280: a light die added mid-test; a failure with it brings no dark token (L278)."""
    t = Table(last_chance_prompt=False)
    t.pc("pawel", "beginner")
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "brave"})
    solo(t, "pawel", gm_pool=2)
    t.wave(gm=8, pawel=3)
    assert t.act is None  # no prompt: the failure is final at once
    assert t.sheet("pawel")["dark_tokens"]["active"] == 0
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "brave"})
    solo(t, "pawel", line_index=1, gm_pool=2)
    t.submit("pawel")
    t.do({"type": "spend_light_die", "character_id": "pawel"})
    assert t.unthrown()["pawel"] == 1
    t.do({"type": "throw"}, [8, 3])
    t.throw("pawel", 9)
    assert t.whose() == ["gm"]


def test_rule_last_chance_prompt_then_spend_or_pass():
    """A13: about to lose for lack of dice while holding a light token: spend or pass."""
    t = Table()
    t.pc("pawel", "beginner")
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "x"})
    t.do({"type": "award_light_token", "character_id": "pawel", "reason": "y"})
    solo(t, "pawel", gm_pool=2)
    t.wave(gm=8, pawel=3)
    assert t.contest["stage"] == "last_chance" and t.whose() == ["pawel"]
    assert t.may("pawel") == ["spend_light_die", "pass_last_chance"]
    t.fails({"type": "throw"}, "last_chance_pending")
    t.do({"type": "spend_light_die", "character_id": "pawel"})
    assert t.whose() == ["pawel"] and t.contest["stage"] == "wave"
    t.throw("pawel", 2)
    assert t.whose() == ["pawel"] and t.contest["stage"] == "last_chance"
    t.do({"type": "pass_last_chance", "character_id": "pawel"})
    assert t.last["results"] == {"pawel": "failure"} and t.sheet("pawel")["light_tokens"]["active"] == 1


def test_rule_team_test_gm_throws_while_any_player_is_above():
    """L148–L150: the GM rethrows when any player beats him; players below him throw even if a
    companion is ahead."""
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "michal"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, pawel=2, michal=9)
    assert t.whose() == ["gm"]  # Paweł is out of dice: his failure is final
    assert t.pair("pawel")["outcome"] == "won"


def test_rule_cancellation_order_highest_first_then_seat():
    """A10: successes decide by descending final value, ties by seat; one success cancels one failure."""
    t = Table()
    for c, tier in (("a", "beginner"), ("b", "beginner"), ("c", "beginner"), ("d", "beginner")):
        t.pc(c, tier)
    t.do({"type": "open_test", "character_ids": ["a", "b", "c", "d"], "gm_pool": 1})
    for c in "abcd":
        t.do({"type": "join", "character_id": c, "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=5, a=6, b=8, c=2, d=3)
    assert t.whose() == ["b"]
    t.fails({"type": "keep_success", "character_id": "a"}, "not_your_turn")
    t.do({"type": "give_up_success", "character_id": "b", "target_character_id": "c"})
    assert t.whose() == ["a"]
    t.fails({"type": "give_up_success", "character_id": "a", "target_character_id": "c"}, "not_a_cancellable_failure")
    t.do({"type": "keep_success", "character_id": "a"})
    assert t.last["results"] == {"a": "success", "b": "no_result", "c": "no_result", "d": "failure"}


def test_rule_team_test_with_no_failure_skips_cancellation():
    t = Table()
    t.party()
    t.do({"type": "open_test", "character_ids": ["pawel", "zuzia"], "gm_pool": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=1, pawel=5, zuzia=6)
    assert t.act is None and t.last["outcome"] == "success"


def test_rule_pvp_test_winner_gains_loser_loses_morale():
    """L112 'or players among themselves', spec 4.23: both cross lines, the winner gains morale."""
    t = Table()
    t.pc("pawel", "beginner", morale_dice=2)
    t.pc("zuzia", "advanced")
    t.do({"type": "open_pvp_test", "challenger_id": "zuzia", "opponent_id": "pawel"})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 1})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    assert t.whose() == ["zuzia", "pawel"]
    t.wave(zuzia=7, pawel=7)
    assert t.last["results"] == {"zuzia": "draw", "pawel": "draw"}
    t.do({"type": "open_pvp_test", "challenger_id": "zuzia", "opponent_id": "pawel"})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "join", "character_id": "pawel", "line_index": 1})
    t.do({"type": "start"})
    t.wave(zuzia=7, pawel=3)
    assert t.whose() == [] or t.act is None
    assert t.last["results"] == {"zuzia": "success", "pawel": "failure"}
    assert (t.sheet("zuzia")["morale_dice"], t.sheet("pawel")["morale_dice"]) == (1, 0)


def test_rule_pvp_negotiation_answered_by_the_opponent():
    t = Table(adv_negotiation=True)
    t.pc("pawel", "beginner")
    t.pc("zuzia", "advanced")
    t.do({"type": "open_pvp_test", "challenger_id": "zuzia", "opponent_id": "pawel"})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "start"})
    t.wave(zuzia=3, pawel=9)
    t.do({"type": "propose_negotiation", "character_id": "zuzia"})
    assert t.whose() == ["pawel"]
    t.fails({"type": "answer_negotiation", "accept": True, "character_id": "zuzia"}, "not_your_turn")
    t.fails(
        {"type": "answer_negotiation", "accept": True, "character_id": "pawel"},
        "not_your_character",
        actor=player("zuzia"),
    )
    t.do({"type": "answer_negotiation", "accept": True, "character_id": "pawel"}, actor=player("pawel"))
    t.throw("pawel", 2)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 2) or t.pair("zuzia")["state"]["side"] == "pawel"
    t.throw("zuzia", 2)
    assert t.last["results"] == {"zuzia": "success", "pawel": "failure"}


def test_rule_party_reset_only_when_everyone_is_exhausted():
    """L66: lines come back only when every active character is exhausted (after the test, A14)."""
    t = Table()
    t.party()
    t.lines("pawel", "crossed", "crossed", "free")
    solo(t, "michal")
    t.wave(gm=1, michal=5)
    assert t.state["table"]["reset_count"] == 0 and t.sheet("michal")["lines"][0]["state"] == "crossed"
    t.lines("zuzia", "crossed", "crossed")
    solo(t, "pawel", line_index=2)
    t.wave(gm=1, pawel=5)
    assert t.state["table"]["reset_count"] == 1
    assert all(ln["state"] == "free" for c in ("pawel", "zuzia", "michal") for ln in t.sheet(c)["lines"])


def test_rule_dead_and_turned_characters_do_not_block_the_reset():
    t = Table()
    t.party()
    t.sheet("zuzia")["status"] = "dead"
    t.lines("pawel", "crossed", "crossed", "crossed")
    solo(t, "michal")
    t.wave(gm=1, michal=5)
    assert t.state["table"]["reset_count"] == 1


def test_rule_catastrophe_in_the_test_that_exhausts_the_party_costs_a_full_cycle():
    """A14: the reset runs after Catastrophes: the boosted loser's line is lost (r=2) and becomes r=1."""
    t = Table()
    t.pc("michal", "master")
    t.pc("pawel", "beginner")
    t.lines("pawel", "crossed", "crossed", "crossed")
    solo(t, boost=True, gm_pool=1)
    t.wave(gm=10, michal=1)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    line = t.sheet("michal")["lines"][0]
    assert (line["state"], line["lost_resets_remaining"]) == ("lost", 1)
    assert t.state["table"]["reset_count"] == 1


def test_rule_one_catastrophe_per_character_per_test():
    """A17: boost and negotiation failures together: one Catastrophe, the dark token still comes."""
    t = Table(adv_negotiation=True)
    t.pc("michal", "master")
    solo(t, boost=True, gm_pool=2)
    t.wave(gm=10, michal=1)
    t.do({"type": "propose_negotiation", "character_id": "michal"})
    t.do({"type": "answer_negotiation", "accept": True})
    t.throw("gm", 9)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    assert len(t.events("catastrophe")) == 1 and len(t.events("line_lost")) == 1
    assert t.sheet("michal")["dark_tokens"]["active"] == 1


def test_rule_lost_line_choice_when_candidates_differ():
    """A17 steps 2–3: an exhausted Advanced boosts and fails: which crossed line is lost is hers to pick."""
    t = Table()
    t.pc("zuzia", "advanced")
    t.pc("michal", "master")
    t.lines("zuzia", "crossed", "crossed")
    solo(t, "zuzia", line_index=None, boost=True)
    t.wave(gm=10, zuzia=1)
    t.throw("zuzia", 1)
    assert t.act["phase"] == "lost_line_choice" and t.whose() == ["zuzia"]
    assert t.act["line_choices"] == [{"character_id": "zuzia", "candidates": [0, 1]}]
    t.fails({"type": "choose_lost_line", "character_id": "zuzia", "line_index": 2}, "not_a_candidate_line")
    t.do({"type": "choose_lost_line", "character_id": "zuzia", "line_index": 1})
    assert t.act is None and t.sheet("zuzia")["lines"][1]["state"] == "lost"


def test_rule_dark_tokens_gm_only_spend():
    """L286: the token belongs to the GM; a player cannot spend it."""
    t = Table()
    t.pc("zuzia", "advanced")
    t.sheet("zuzia")["dark_tokens"].update(active=1, received_total=1)
    t.fails({"type": "spend_dark_token", "character_id": "zuzia"}, "gm_only", actor=player("zuzia"))
    t.do({"type": "spend_dark_token", "character_id": "zuzia"})
    t.fails({"type": "acknowledge_dark_side", "character_id": "zuzia", "side_index": 2}, "no_such_side")


def test_rule_force_reset_and_start_session_are_logged():
    t = Table()
    t.pc("pawel", "beginner")
    t.lines("pawel", "crossed", "free", "free")
    t.do({"type": "force_reset", "reason": "new adventure"})
    assert t.events("party_reset")[0].data["forced"] and t.sheet("pawel")["lines"][0]["state"] == "free"
    t.do({"type": "start_session"})
    assert t.state["table"]["session_number"] == 2


def test_rule_awaiting_when_idle_is_the_gm():
    t = Table()
    assert t.whose() == ["gm"] and "open_test" in t.may("gm")
    assert SYSTEM.view(t.state, GM)["table"]["awaiting"] == t.state["table"]["awaiting"]


def test_rule_reset_loop_is_bounded_when_only_lost_lines_remain():
    """Spec 4.7, A15: a party whose every line is lost resets at most twice in a row."""
    t = Table()
    t.pc("michal", "master")
    solo(t, boost=True, gm_pool=1)
    t.wave(gm=10, michal=1)
    t.do({"type": "auto"}, [1, 1, 1, 1])
    assert t.state["table"]["reset_count"] == 2 and t.sheet("michal")["lines"][0]["state"] == "free"


def test_rule_awaiting_entries_name_the_gm_by_role_and_a_player_by_character_id():
    """The shared shape (service.rules.awaiting): who is `gm` or `character`, and a character's id is its own
    field, for awaiting and for the non-blocking requests alike."""
    t = Table()
    t.pc("michal", "master")
    t.do({"type": "open_test", "character_ids": ["michal"], "gm_pool": 1})
    assert t.state["table"]["awaiting"] == [
        {"who": "character", "character_id": "michal", "may": ["join", "bad_feeling"]}
    ]
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    assert t.state["table"]["awaiting"] == [{"who": "gm", "character_id": None, "may": ["start"]}]
