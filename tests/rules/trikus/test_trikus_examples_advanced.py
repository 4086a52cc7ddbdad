"""Worked examples TK-E17 … TK-E19 (spec section 6): the advanced rules Catastrophe, Negotiation, Boom."""

from __future__ import annotations

from trikus_support import GM, Table, player

from service.rules.trikus import SYSTEM


def test_TK_E17_catastrophe_line_recovery():
    """Paweł loses line 0 (boosted failure), uses lines 1 and 2; reset #1 gives back only two lines;
    reset #2 all three (L334–L340). Paweł plays alone here, so his exhaustion is the party's."""
    t = Table()
    t.pc("pawel", "beginner", "Paweł")

    def test(line: int, gm: int, pawel: int, boost: bool = False) -> None:
        t.do({"type": "open_test", "character_ids": ["pawel"], "gm_pool": 1})
        t.do({"type": "join", "character_id": "pawel", "line_index": line, "boost": boost})
        t.do({"type": "start"})
        assert t.whose() == ["gm", "pawel"]
        t.wave(gm=gm, pawel=pawel)
        if boost:  # three dice: two more throws below the GM's 10
            assert t.whose() == ["pawel"]
            t.throw("pawel", 1)
            assert t.whose() == ["pawel"]
            t.throw("pawel", 1)
        assert t.act is None

    test(0, 10, 2, boost=True)
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["lost", "free", "free"]
    test(1, 2, 9)
    test(2, 2, 9)
    lines = t.sheet("pawel")["lines"]
    assert [ln["state"] for ln in lines] == ["lost", "free", "free"] and lines[0]["lost_resets_remaining"] == 1
    assert t.state["table"]["reset_count"] == 1
    test(1, 2, 9)
    test(2, 2, 9)
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["free", "free", "free"]
    assert t.state["table"]["reset_count"] == 2


def _droid(t: Table) -> None:
    t.pc("zuzia", "advanced", "Zuzia", morale_dice=1)
    t.pc("pawel", "beginner", "Paweł")
    t.do({"type": "open_test", "character_ids": ["zuzia"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0, "morale": 1})
    t.do({"type": "start"})
    t.wave(gm=4, zuzia=7)
    assert t.ctrl("zuzia") == ("ctrl", "player", 7) and t.unthrown() == {"gm": 1, "zuzia": 2}
    assert t.whose() == ["gm"]
    t.throw("gm", 10)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 10) and t.unthrown() == {"gm": 0, "zuzia": 2}
    assert t.whose() == ["zuzia"] and "propose_negotiation" in t.may("zuzia")
    t.do({"type": "propose_negotiation", "character_id": "zuzia"})
    assert t.contest["stage"] == "negotiation_offered" and t.whose() == ["gm"]
    assert t.may("gm") == ["answer_negotiation"]
    t.do({"type": "answer_negotiation", "accept": True})
    assert t.contest["stage"] == "negotiation_rethrow" and t.whose() == ["gm"]
    t.throw("gm", 8)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 8) and t.unthrown() == {"gm": 0, "zuzia": 2}
    assert t.contest["dice"][2]["superseded_value"] == 10 and t.act["participants"]["zuzia"]["negotiated"]
    assert t.whose() == ["zuzia"] and "propose_negotiation" not in t.may("zuzia")


def test_TK_E18_negotiation_branch_a_success():
    """Zuzia 3 dice (2-die line + a morale die, A41) vs GM 2; she negotiates the GM's 10 into an 8 and
    then throws 9: success, morale +1, no Catastrophe (L348)."""
    t = Table(adv_negotiation=True)
    _droid(t)
    t.throw("zuzia", 9)
    assert t.last["results"] == {"zuzia": "success"} and t.sheet("zuzia")["morale_dice"] == 1
    assert t.events("catastrophe") == []


def test_TK_E18_negotiation_branch_b_failure():
    """Both of her dice below 8: failure, a Catastrophe loses the line she crossed, morale 0 (L348)."""
    t = Table(adv_negotiation=True)
    _droid(t)
    t.throw("zuzia", 3)
    t.throw("zuzia", 5)
    z = t.sheet("zuzia")
    assert t.last["results"] == {"zuzia": "failure"} and z["morale_dice"] == 0
    assert t.events("catastrophe")[0].data["cause"] == "negotiation_failure"
    assert z["lines"][0] == {"index": 0, "dice": 2, "state": "lost", "lost_resets_remaining": 2}


def test_TK_E19_boom():
    """GM 7, P 5, Z 5, M 6; then P 7 (a tie takes control), Z 9, M 9; then GM 5: three 5s (L358).
    The triple is not announced to players; a claim pauses nothing more than its own narration, then
    the GM throws again for all three pairs; the end-of-test review follows."""
    t = Table(adv_boom=True)
    t.party()
    t.sheet("pawel")["morale_dice"] = 1
    t.do({"type": "open_test", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 3})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0, "morale": 1})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    t.wave(gm=7, pawel=5, zuzia=5, michal=6)
    assert [t.ctrl(c) for c in ("pawel", "zuzia", "michal")] == [("ctrl", "gm", 7)] * 3
    assert t.whose() == ["pawel", "zuzia", "michal"]
    t.wave(pawel=7, zuzia=9, michal=9)
    assert [t.ctrl(c) for c in ("pawel", "zuzia", "michal")] == [
        ("ctrl", "player", 7),
        ("ctrl", "player", 9),
        ("ctrl", "player", 9),
    ]
    assert t.contest["boom"]["available"] == [] and t.whose() == ["gm"]
    t.throw("gm", 5)
    assert t.contest["boom"]["available"] == [5]
    boom_event = t.events("boom_available")[0]
    assert boom_event.visibility == "gm"
    assert SYSTEM.view(t.state, player("pawel"))["table"]["activity"]["contest"]["boom"]["available"] == []
    assert SYSTEM.view(t.state, GM)["table"]["activity"]["contest"]["boom"]["available"] == [5]
    t.fails({"type": "claim_boom", "character_id": "zuzia", "value": 7, "text": "x"}, "no_such_boom")
    t.do(
        {
            "type": "claim_boom",
            "character_id": "zuzia",
            "value": 5,
            "text": "the guards' ship hits an asteroid and is smashed to atoms",
        }
    )
    t.fails({"type": "claim_boom", "character_id": "pawel", "value": 5, "text": "x"}, "boom_already_claimed")
    assert t.whose() == ["gm"]  # the test resumes: the GM throws again
    t.throw("gm", 4)
    assert t.act["phase"] == "boom_review" and t.whose() == ["gm"]
    t.fails({"type": "boom_review", "overrides": {"pawel": "failure"}}, "no_unclaimed_boom")
    t.do({"type": "boom_review"})
    assert t.act is None  # no failure to cancel: straight to the end
    assert t.last["results"] == {"pawel": "success", "zuzia": "success", "michal": "success"}
    assert [t.sheet(c)["morale_dice"] for c in ("pawel", "zuzia", "michal")] == [1, 1, 1]
