"""Worked examples TK-E5 … TK-E7, TK-E14 … TK-E16, TK-E20 … TK-E22 (spec section 6): combat."""

from __future__ import annotations

from trikus_support import Table


def test_TK_E5_zuzia_vs_the_guards_with_a_droid():
    """Zuzia: 1-die line + droid ally vs 2 guards (L182–L186). R1 tie then loss: the droid dies first
    (A23). R2 win: automatic attack, +1 morale. R3 with the morale die: loss of her last persistent die,
    knocked out, Catastrophe loses line 1 (the source does not say 'Catastrophe'; A45 applies it)."""
    t = Table()
    t.party()
    t.lines("zuzia", "crossed", "free")
    t.do({"type": "open_combat", "character_ids": ["zuzia"], "gm_pool": 2})
    assert t.whose() == ["zuzia"]
    t.do({"type": "join", "character_id": "zuzia", "line_index": 1, "allies": 1})
    t.do({"type": "start"})
    assert t.act["phase"] == "round_pool" and t.whose() == ["zuzia"]
    # R1
    t.do({"type": "declare_round", "character_id": "zuzia"})
    assert t.unthrown() == {"gm": 2, "zuzia": 2} and t.whose() == ["gm", "zuzia"]
    t.wave(gm=4, zuzia=4)
    assert t.ctrl("zuzia") == ("tie", 4) and t.whose() == ["gm", "zuzia"]  # both must rethrow (L182)
    t.wave(gm=9, zuzia=2)
    part = t.act["participants"]["zuzia"]
    assert t.act["round"] == 2 and (part["allies"], part["line_dice"]) == (0, 1)
    assert t.events("round_hits")[-1].data["players_hit"] == {"zuzia": "ally"}
    assert t.act["gm_pool"] == 2 and t.sheet("zuzia")["morale_dice"] == 0
    # R2
    assert t.whose() == ["zuzia"]
    t.do({"type": "declare_round", "character_id": "zuzia"})
    t.wave(gm=1, zuzia=3)
    assert t.ctrl("zuzia") == ("ctrl", "player", 3) and t.whose() == ["gm"]
    t.throw("gm", 2)
    assert t.events("combat_declaration")[-1].data["automatic"] is True
    assert t.act["gm_pool"] == 1 and t.sheet("zuzia")["morale_dice"] == 1 and t.act["round"] == 3
    # R3
    t.do({"type": "declare_round", "character_id": "zuzia", "morale": 1})
    assert t.sheet("zuzia")["morale_dice"] == 0 and t.unthrown() == {"gm": 1, "zuzia": 2}
    t.wave(gm=10, zuzia=8)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 10) and t.whose() == ["zuzia"]
    t.throw("zuzia", 9)
    assert t.act is None and t.last["outcome"] == "players_defeated"
    assert t.events("combat_ended")[-1].data["gm_pool"] == 1
    assert t.events("knocked_out")[0].data["character_id"] == "zuzia"
    assert t.events("catastrophe")[0].data["cause"] == "last_die"
    assert t.sheet("zuzia")["lines"][1] == {"index": 1, "dice": 1, "state": "lost", "lost_resets_remaining": 2}
    assert t.sheet("zuzia")["status"] == "active"  # players do not die (L180)


def _senators_guards(t: Table, **options) -> None:
    """TK-E6 round 1 (L198–L200): P 1+1 morale, Z 2, M 3 (keeps his morale die), GM 5."""
    t.party()
    t.sheet("pawel")["morale_dice"] = 1
    t.sheet("michal")["morale_dice"] = 1
    t.lines("zuzia", "free", "lost:1")
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 5, **options})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "join", "character_id": "michal", "line_index": 0})
    t.do({"type": "start"})
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["crossed", "free", "free"]
    assert t.whose() == ["pawel", "zuzia", "michal"]
    t.do({"type": "declare_round", "character_id": "pawel", "morale": 1})
    t.do({"type": "declare_round", "character_id": "zuzia"})
    t.do({"type": "declare_round", "character_id": "michal"})
    assert t.unthrown() == {"gm": 5, "pawel": 2, "zuzia": 2, "michal": 3}
    assert t.whose() == ["gm", "pawel", "zuzia", "michal"]
    t.wave(gm=8, pawel=3, zuzia=5, michal=8)
    assert (t.ctrl("pawel"), t.ctrl("zuzia"), t.ctrl("michal")) == (("ctrl", "gm", 8), ("ctrl", "gm", 8), ("tie", 8))
    assert t.unthrown() == {"gm": 4, "pawel": 1, "zuzia": 1, "michal": 2}
    assert t.whose() == ["gm", "pawel", "zuzia", "michal"]
    t.wave(gm=8, pawel=6, zuzia=9, michal=2)
    assert t.pair("pawel")["outcome"] == "won" and t.pair("pawel")["winner"] == "gm"  # out of dice: failure
    assert (t.ctrl("zuzia"), t.ctrl("michal")) == (("ctrl", "player", 9), ("ctrl", "gm", 8))
    assert t.unthrown() == {"gm": 3, "pawel": 0, "zuzia": 0, "michal": 1}
    assert t.whose() == ["gm", "michal"]
    t.wave(gm=7, michal=10)
    assert (t.ctrl("zuzia"), t.ctrl("michal")) == (("ctrl", "player", 9), ("ctrl", "player", 10))
    assert t.unthrown() == {"gm": 2, "pawel": 0, "zuzia": 0, "michal": 0} and t.whose() == ["gm"]
    t.throw("gm", 3)
    assert t.whose() == ["gm"] and t.unthrown()["gm"] == 1
    t.throw("gm", 7)
    assert t.act["results"] == {"pawel": "failure", "zuzia": "success", "michal": "success"}
    assert t.act["final_values"] == {"pawel": 8, "zuzia": 9, "michal": 10}
    assert t.act["phase"] == "declarations" and t.whose() == ["michal"]  # highest result first (L202)
    t.do({"type": "attack", "character_id": "michal"})
    assert t.whose() == ["zuzia"]
    t.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})


def test_TK_E6_team_combat_with_the_senators_guards():
    """Five waves exactly as L200; Michał attacks, Zuzia defends Paweł; GM 5 → 4, Paweł keeps his die."""
    t = Table()
    _senators_guards(t)
    assert t.act["gm_pool"] == 4 and t.act["round"] == 2
    parts = t.act["participants"]
    assert [parts[c]["line_dice"] + parts[c]["allies"] for c in ("pawel", "zuzia", "michal")] == [1, 2, 3]
    assert [t.sheet(c)["morale_dice"] for c in ("pawel", "zuzia", "michal")] == [0, 1, 2]
    assert t.whose() == ["pawel", "zuzia", "michal"]  # R2 pool formation
    assert [ln["state"] for ln in t.sheet("pawel")["lines"]] == ["crossed", "free", "free"]


def test_TK_E6_unmentioned_boom_of_three_eights():
    """A47: with adv_boom, three 8s are on the table after W2 (Michał W1, GM W1, GM W2)."""
    t = Table(adv_boom=True)
    t.party()
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 5})
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    t.sheet("pawel")["morale_dice"] = 1
    t.do({"type": "declare_round", "character_id": "pawel", "morale": 1})
    t.do({"type": "declare_round", "character_id": "zuzia"})
    t.do({"type": "declare_round", "character_id": "michal"})
    t.wave(gm=8, pawel=3, zuzia=5, michal=8)
    assert t.contest["boom"]["available"] == []
    t.wave(gm=8, pawel=6, zuzia=9, michal=2)
    assert t.contest["boom"]["available"] == [8]


def _sith_lord(t: Table, michal_joins: bool) -> None:
    t.party()
    ids = ["pawel", "zuzia"] + (["michal"] if michal_joins else [])
    t.do({"type": "open_combat", "character_ids": ids, "gm_pool": 4, "powerful_opponent": True})
    for cid in ids:
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    for cid in ids:
        t.do({"type": "declare_round", "character_id": cid})
    faces = {"gm": 10, "pawel": 2, "zuzia": 10, "michal": 10}
    t.wave(**{k: v for k, v in faces.items() if k == "gm" or k in ids})


def test_TK_E7_the_fight_with_the_sith_lord_both_branches():
    """L216: Paweł's dice fall to zero again: Michał turns to the dark side (not taking part) or dies
    (taking part); either way Zuzia → Master, Paweł → Advanced, a Beginner for Michał's player (L214)."""
    for joins, status in ((True, "dead"), (False, "turned_dark")):
        t = Table()
        _sith_lord(t, michal_joins=joins)
        assert t.pair("pawel")["outcome"] == "won" and t.pair("pawel")["winner"] == "gm"
        t.wave(**({"gm": 1, "zuzia": 5, "michal": 5} if joins else {"gm": 1, "zuzia": 5}))
        t.do({"type": "auto"}, [1, 1])
        for cid in ["zuzia", "michal"] if joins else ["zuzia"]:
            assert t.whose() == [cid]
            t.do({"type": "attack", "character_id": cid})
        assert t.sheet("michal")["status"] == status
        pend = t.state["table"]["pending_changes"]
        assert sorted((p["kind"], p.get("character_id"), p.get("to")) for p in pend) == [
            ("new_character", None, None),
            ("promote", "pawel", "advanced"),
            ("promote", "zuzia", "master"),
        ]


def test_TK_E15_sacrifice_the_master_took_part():
    """Powerful fight against the Senator; Paweł loses his only die: knocked out with a Catastrophe,
    Michał (a participant) dies for him; Zuzia → Master, Paweł → Advanced, a Beginner for Michał's player
    at the next session (L214, L216, L308, L314)."""
    t = Table()
    _sith_lord(t, michal_joins=True)
    assert t.pair("pawel")["outcome"] == "won" and t.pair("pawel")["winner"] == "gm"
    assert (t.ctrl("zuzia"), t.ctrl("michal")) == (("tie", 10), ("tie", 10))
    t.wave(gm=1, zuzia=5, michal=5)
    t.do({"type": "auto"}, [1, 1])
    assert t.whose() == ["zuzia"]  # 5 and 5: seat order breaks the tie (A25)
    t.do({"type": "attack", "character_id": "zuzia"})
    assert t.whose() == ["michal"]
    t.do({"type": "attack", "character_id": "michal"})
    assert t.events("knocked_out")[0].data["character_id"] == "pawel"
    assert t.events("catastrophe")[0].data == {
        **t.events("catastrophe")[0].data,
        "character_id": "pawel",
        "cause": "last_die",
    }
    assert t.sheet("michal")["status"] == "dead"
    assert t.events("character_died")[0].data["reason"] == "sacrifice"
    pend = t.state["table"]["pending_changes"]
    assert {(p.get("character_id"), p.get("to")) for p in pend if p["kind"] == "promote"} == {
        ("zuzia", "master"),
        ("pawel", "advanced"),
    }
    assert any(p["kind"] == "new_character" and p["replaces"] == "michal" for p in pend)
    assert t.sheet("zuzia")["tier"] == "advanced"  # promotions wait for the next session (A34)
    assert t.act["round"] == 2 and t.act["participants"]["michal"]["status"] == "removed"  # he died
    assert t.act["participants"]["pawel"]["status"] == "knocked_out"
    t.do({"type": "abort_activity", "reason": "the Senator flees"})
    t.do({"type": "start_session"})
    assert (t.sheet("zuzia")["tier"], t.sheet("pawel")["tier"]) == ("master", "advanced")
    assert [ln["state"] for ln in t.sheet("zuzia")["lines"]] == ["free"]
    assert t.events("new_beginner_due")[0].data["replaces"] == "michal"


def test_TK_E14_the_master_did_not_help():
    """Michał is not in the powerful fight; Paweł loses all dice: Michał turns to the dark side and goes
    to the GM; the same promotions (L212, L302, L312)."""
    t = Table()
    _sith_lord(t, michal_joins=False)
    t.wave(gm=1, zuzia=5)
    t.do({"type": "auto"}, [1, 1])
    t.do({"type": "attack", "character_id": "zuzia"})
    m = t.sheet("michal")
    assert (m["status"], m["controller"]) == ("turned_dark", "gm")
    assert t.events("character_turned_dark")[0].data["reason"] == "absent_from_powerful_fight"
    pend = t.state["table"]["pending_changes"]
    assert {(p.get("character_id"), p.get("to")) for p in pend if p["kind"] == "promote"} == {
        ("zuzia", "master"),
        ("pawel", "advanced"),
    }


def test_TK_E16_escape():
    """Mid-round: GM 10, Paweł 8 (no die left), Zuzia 3 with one die left. Zuzia may escape (dark
    token, morale kept, out of later rounds); Paweł may not: he has thrown everything (L324–L326)."""
    t = Table(adv_escape=True)
    t.party()
    t.sheet("zuzia")["morale_dice"] = 2
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia"], "gm_pool": 2})
    t.do({"type": "join", "character_id": "pawel", "line_index": 0})
    t.do({"type": "join", "character_id": "zuzia", "line_index": 0})
    t.do({"type": "start"})
    t.do({"type": "declare_round", "character_id": "pawel"})
    t.do({"type": "declare_round", "character_id": "zuzia"})
    t.wave(gm=10, pawel=8, zuzia=3)
    assert t.ctrl("zuzia") == ("ctrl", "gm", 10) and t.unthrown()["zuzia"] == 1
    assert t.whose() == ["zuzia"] and "escape" in t.may("zuzia")
    t.fails({"type": "escape", "character_id": "pawel"}, "no_unthrown_die", status=422)
    t.do({"type": "escape", "character_id": "zuzia"})
    z = t.sheet("zuzia")
    assert z["dark_tokens"]["active"] == 1 and z["morale_dice"] == 2
    assert t.events("escaped")[0].data["character_id"] == "zuzia"
    assert t.act is None and t.last["outcome"] == "players_defeated"  # Paweł lost his only die
    assert t.last["results"] == {"pawel": "failure", "zuzia": "escaped"}


def _corridor(t: Table, cd: int) -> None:
    t.party()
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 5, "combat_difficulty": cd})
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "declare_round", "character_id": cid})
    t.wave(gm=8, pawel=3, zuzia=9, michal=10)  # P fails (1 die), Z and M succeed after the GM's dice
    for left in (3, 2, 1, 0):
        assert t.whose() == ["gm"]
        t.throw("gm", 1)
        assert t.act["phase"] == "contest" or left == 0
    assert t.act["results"] == {"pawel": "failure", "zuzia": "success", "michal": "success"}
    assert t.whose() == ["michal"]


def test_TK_E20_combat_difficulty_in_a_narrow_corridor():
    """CD 5: Michał attacks, Zuzia defends Paweł; Michał rolls first (5 hits), then the GM needs 5+2=7
    against Paweł (7 hits); Zuzia and Paweł do not roll; no morale for CD rolls (L372–L374)."""
    t = Table(adv_combat_difficulty=True)
    _corridor(t, 5)
    t.do({"type": "attack", "character_id": "michal"})
    t.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})
    assert t.act["phase"] == "attack_rolls" and t.whose() == ["michal"]
    t.fails({"type": "throw"}, "not_your_turn")
    t.throw("michal", 5)
    assert t.act["phase"] == "gm_rolls" and t.whose() == ["gm"]
    assert t.events("combat_difficulty_roll")[0].data["need"] == 5
    t.do({"type": "throw", "target_character_id": "pawel"}, [7])
    rolls = t.events("combat_difficulty_roll")
    assert [(r.data["roller"], r.data["need"], r.data["hit"]) for r in rolls] == [("michal", 5, True), ("gm", 7, True)]
    assert t.act["gm_pool"] == 4
    assert t.events("knocked_out")[0].data["character_id"] == "pawel"
    assert [t.sheet(c)["morale_dice"] for c in ("zuzia", "michal")] == [1, 1]


def test_TK_E20_vectors_miss_and_no_loss():
    """Michał 4 misses; the GM's 6 is below 7: nobody loses a die."""
    t = Table(adv_combat_difficulty=True)
    _corridor(t, 5)
    t.do({"type": "attack", "character_id": "michal"})
    t.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})
    t.do({"type": "auto"}, [4, 6])
    assert t.act["gm_pool"] == 5 and t.act["participants"]["pawel"]["status"] == "active"
    assert t.act["round"] == 2


def test_TK_E21_defense():
    """CD 3, Zuzia defends Paweł: the GM needs 3+2=5; an 8 knocks Paweł out with a Catastrophe (L390).
    Michał's attack roll (≥3) comes first."""
    t = Table(adv_combat_difficulty=True)
    _corridor(t, 3)
    t.do({"type": "attack", "character_id": "michal"})
    t.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})
    t.throw("michal", 3)
    t.throw("gm", 8)
    assert t.events("combat_difficulty_roll")[-1].data["need"] == 5
    assert t.events("knocked_out")[0].data["character_id"] == "pawel"
    assert t.events("catastrophe")[0].data["character_id"] == "pawel"


def test_TK_E21_variants_four_holds_and_two_defenders_need_seven():
    t = Table(adv_combat_difficulty=True)
    _corridor(t, 3)
    t.do({"type": "attack", "character_id": "michal"})
    t.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})
    t.throw("michal", 1)
    t.throw("gm", 4)
    assert t.act["participants"]["pawel"]["status"] == "active" and t.act["round"] == 2
    t2 = Table(adv_combat_difficulty=True)
    _corridor(t2, 3)
    t2.do({"type": "defend", "character_id": "michal", "target_character_id": "pawel"})
    t2.do({"type": "defend", "character_id": "zuzia", "target_character_id": "pawel"})
    assert t2.act["phase"] == "gm_rolls"
    t2.throw("gm", 7)
    assert t2.events("combat_difficulty_roll")[0].data["need"] == 7
    assert t2.events("knocked_out")[0].data["character_id"] == "pawel"


def test_TK_E22_attack():
    """CD 3, all three succeed and attack: Paweł 5 hits, Zuzia 7 hits, Michał 2 misses: GM −2; no GM
    rolls; +1 morale each (L392). Declaration order is highest result first: Michał, Zuzia, Paweł."""
    t = Table(adv_combat_difficulty=True)
    t.party()
    t.sheet("pawel")["morale_dice"] = 1
    t.do({"type": "open_combat", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": 3})
    assert t.act["combat_difficulty"] == 3  # the default (L368)
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "join", "character_id": cid, "line_index": 0})
    t.do({"type": "start"})
    for cid in ("pawel", "zuzia", "michal"):
        t.do({"type": "declare_round", "character_id": cid})
    t.wave(gm=1, pawel=5, zuzia=6, michal=7)
    assert t.whose() == ["gm"]
    t.throw("gm", 2)
    assert t.whose() == ["gm"]
    t.throw("gm", 2)
    assert t.act["phase"] == "attack_rolls" and t.whose() == ["michal"]
    assert [d["choice"] for d in t.act["declarations"]] == ["attack"] * 3
    t.throw("michal", 2)
    assert t.whose() == ["zuzia"]
    t.throw("zuzia", 7)
    assert t.whose() == ["pawel"]
    t.throw("pawel", 5)
    assert t.act["gm_pool"] == 1 and t.act["round"] == 2
    assert [r.data["roller"] for r in t.events("combat_difficulty_roll")] == ["michal", "zuzia", "pawel"]
    assert [t.sheet(c)["morale_dice"] for c in ("pawel", "zuzia", "michal")] == [2, 1, 1]
