"""Worked examples AD-E12 … AD-E21 of spec §6.1, fed through the engine with table dice and cards."""

from __future__ import annotations

from action_deck_support import Table, one, player, types


def test_AD_E12_jokers_wild_for_the_party_and_for_the_opposition():
    t = Table()
    for p in ("a", "b", "c", "d"):
        t.add(p)
    t.add("ally", side="party_ally")
    t.add("boss", side="opposition")
    t.add("lieutenant", side="opposition")
    t.session({f"p{p}": [p] for p in "abcd"}, party_size=3)
    for pid, n in zip(("pa", "pb", "pc", "pd"), (1, 0, 2, 3)):
        t.table["players"][pid]["bennies"] = n
    t.fight({"a": "2C", "b": "3C", "ally": "JK-R"})
    assert [t.bennies(p) for p in ("pa", "pb", "pc", "pd")] == [2, 1, 3, 4]
    t.do({"type": "end_encounter"})
    t.table["gm"]["benny_pool"] = 3
    t.fight({"a": "2C", "boss": "JK-B", "lieutenant": "5H"})
    assert t.table["gm"]["npc_bennies"] == {"ally": 2, "boss": 3, "lieutenant": 3}
    assert t.table["gm"]["benny_pool"] == 4


def test_AD_E13_gm_modifier_recorded_with_its_reason():
    t = Table()
    t.add("ann", skills={"notice": "d8"})
    ev = t.do(
        {
            "type": "trait_test",
            "character_id": "ann",
            "trait": "notice",
            "modifiers": [{"source": "closed door", "value": -2}],
        },
        dice=[5, 3],
    )
    test = one(ev, "trait_test_rolled").data["test"]
    assert test["modifiers"] == [{"source": "closed door", "value": -2}]
    assert (test["result"]["total"], test["result"]["success"]) == (3, False)


def _climber(t: Table) -> None:
    t.add("ann", pace=6)
    t.session({"p1": ["ann"]})
    t.fight({"ann": "AS"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "ann"})


def test_AD_E14_hazard_success_moves_normally():
    t = Table()
    _climber(t)
    t.do({"type": "hazard_test", "character_id": "ann", "segments": [{"inches": 2, "mode": "climb"}]}, dice=[5, 2])
    ev = t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    assert one(ev, "moved").data["cost"] == 4 and t.slot("ann")["turn"]["movement_used"] == 4


def test_AD_E14_hazard_critical_failure_climbing_is_a_fall_elsewhere_fatigue():
    t = Table()
    _climber(t)
    ev = t.do({"type": "hazard_test", "character_id": "ann", "segments": [{"inches": 2, "mode": "climb"}]}, dice=[1, 1])
    assert one(ev, "hazard_critical_failure").data["consequence"] == "fall" and t.char("ann")["fatigue"] == 0
    assert t.slot("ann")["turn"]["movement_used"] == 0
    ev = t.do({"type": "hazard_test", "character_id": "ann", "segments": [{"inches": 1, "mode": "walk"}]}, dice=[1, 1])
    assert one(ev, "hazard_critical_failure").data["consequence"] == "fatigue" and t.char("ann")["fatigue"] == 1


def test_AD_E14_hazard_ordinary_failure_does_not_move():
    t = Table()
    _climber(t)
    t.do({"type": "hazard_test", "character_id": "ann", "segments": [{"inches": 1, "mode": "swim"}]}, dice=[2, 3])
    ev = t.do({"type": "accept_test", "test_id": t.last_test()["id"]})
    assert "hazard_failed" in types(ev) and t.slot("ann")["turn"]["movement_used"] == 0


def test_AD_E15_hold_lost_to_shaken_and_no_hold_while_shaken():
    t = Table()
    for c in ("a", "b"):
        t.add(c)
    t.session({"pa": ["a"], "pb": ["b"]})
    t.fight({"a": "9S", "b": "KH"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "b"}, actor=player("pb", "b"))
    assert t.slot("b")["on_hold"]
    ev = t.do({"type": "set_condition", "character_id": "b", "shaken": True})
    assert "hold_lost" in types(ev) and not t.slot("b")["on_hold"] and t.slot("b")["acted"]
    t.fails({"type": "declare_turn", "character_id": "b"}, "already_acted")
    t.do({"type": "set_condition", "character_id": "a", "shaken": True})
    t.do({"type": "call_next"})
    t.fails({"type": "hold", "character_id": "a"}, "cannot_hold_while_shaken")


def test_AD_E16_surprise_round():
    t = Table()
    for c in ("x", "y"):
        t.add(c, side="opposition")
    for c in ("p", "q", "r"):
        t.add(c, skills={"notice": "d6"})
    t.session({"pp": ["p"], "pq": ["q"], "pr": ["r"]})
    pool = t.table["gm"]["benny_pool"]
    t.do(
        {
            "type": "start_encounter",
            "participants": ["x", "y", "p", "q", "r"],
            "surprise": {
                "attackers": ["x", "y"],
                "victims": ["p", "q", "r"],
                "notice": [{"character_id": "p"}, {"character_id": "q"}],
            },
        },
        dice=[5, 2, 2, 3],
    )
    assert t.enc["phase"] == "surprise_notice"
    t.do({"type": "deal", "cards": ["9C", "JK-R", "QD"]})
    assert t.slot("x")["on_hold"] and t.slot("y")["on_hold"] and t.slot("y")["joker_active"]
    assert t.table["gm"]["npc_bennies"] == {"x": 3, "y": 3} and t.table["gm"]["benny_pool"] == pool + 1
    assert t.slot("p")["card"] == "QD" and t.slot("q")["card"] is None and t.slot("r")["card"] is None
    t.fails({"type": "declare_turn", "character_id": "q"}, "cannot_act_this_round")
    t.do({"type": "call_next"})
    assert t.enc["current_turn"] == "p"
    t.do({"type": "declare_turn", "character_id": "p", "actions": [{"kind": "attack"}]})
    t.do({"type": "interrupt", "character_id": "y"})  # Joker: no Athletics test
    assert t.enc["current_turn"] == "y" and t.enc["turn_stack"] == ["p"]
    t.do({"type": "declare_turn", "character_id": "y"})
    t.do({"type": "end_turn", "character_id": "y"})
    assert t.enc["current_turn"] == "p"
    t.do({"type": "end_turn", "character_id": "p"})
    t.fails({"type": "call_next"}, "no_card_to_call")
    t.do({"type": "end_round"})
    assert t.slot("x")["on_hold"] and not t.slot("q")["acted"]
    ev = t.do({"type": "deal", "cards": ["2S", "3S", "4S", "5S"]})
    assert set(one(ev, "cards_dealt").data["cards"]) == {"y", "p", "q", "r"}


def test_AD_E17_benny_card_draw():
    t = Table()
    t.add("ann")
    t.add("bob")
    t.session({"pa": ["ann"], "pb": ["bob"]})
    t.fight({"ann": "3C", "bob": "8D"})
    ann = player("pa", "ann")
    t.do({"type": "draw_extra_card", "character_id": "ann", "card": "JH"}, actor=ann)
    t.do({"type": "keep_card", "character_id": "ann", "card": "JH"}, actor=ann)
    assert t.slot("ann")["card"] == "JH" and "3C" in t.table["deck"]["discard_pile"] and t.bennies("pa") == 2
    t.do({"type": "call_next"})
    assert t.enc["current_turn"] == "ann"
    t.fails({"type": "draw_extra_card", "character_id": "bob", "card": "2H"}, "draw_window_closed")


def test_AD_E17_a_carried_over_holder_cannot_draw():
    t = Table()
    t.add("ann")
    t.add("bob")
    t.session({"pa": ["ann"], "pb": ["bob"]})
    t.fight({"ann": "3C", "bob": "8D"})
    t.do({"type": "call_next"})
    t.do({"type": "hold", "character_id": "bob"})
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "ann"})
    t.do({"type": "end_turn", "character_id": "ann"})
    t.do({"type": "end_round"})
    t.do({"type": "deal", "cards": ["4C"]})
    assert t.slot("bob")["card"] is None and t.slot("bob")["on_hold"]
    t.fails({"type": "draw_extra_card", "character_id": "bob", "card": "2H"}, "no_card")


def test_AD_E18_improvisation():
    t = Table()
    t.add("ann", skills={})
    t.do({"type": "trait_test", "character_id": "ann", "trait": "lockpicking"}, dice=[4, 3, 2])
    test = t.last_test()
    assert test["unskilled"] and {"source": "unskilled", "value": -2} in test["modifiers"]
    assert (test["result"]["total"], test["result"]["success"], test["result"]["raises"]) == (5, True, 0)
    t.do({"type": "trait_test", "character_id": "ann", "trait": "lockpicking"}, dice=[1, 1])
    assert t.last_test()["critical_failure"]


def test_AD_E19_group_test():
    t = Table()
    ids = [f"bandit{i}" for i in range(5)]
    for b in ids:
        t.add(b, kind="extra", side="opposition", skills={"shooting": "d6"})
    ev = t.do({"type": "group_test", "leader_id": ids[0], "member_ids": ids, "trait": "shooting"}, dice=[3, 6, 4])
    test = one(ev, "trait_test_rolled").data["test"]
    assert test["group"] == ids and test["result"]["total"] == 10 and test["result"]["raises"] == 1


def test_AD_E20_reroll_keeps_the_better_unless_critical():
    t = Table()
    t.add("ann")
    t.session({"pa": ["ann"]})
    ann = player("pa", "ann")
    t.do({"type": "trait_test", "character_id": "ann", "trait": "fighting"}, dice=[3, 2], actor=ann)
    tid = t.last_test()["id"]
    t.do({"type": "reroll", "test_id": tid}, dice=[2, 1], actor=ann)
    assert t.test(tid)["result"]["total"] == 3 and t.bennies("pa") == 2
    t.do({"type": "reroll", "test_id": tid}, dice=[1, 1], actor=ann)
    test = t.test(tid)
    assert test["critical_failure"] and test["state"] == "critical_failure" and t.bennies("pa") == 1


def test_AD_E21_session_lifecycle():
    t = Table()
    for c in "abcd":
        t.add(c)
    t.add("villain", side="opposition", benny_bonus=1)
    t.add("thug", side="opposition")
    t.session({f"p{c}": [c] for c in "abcd"})
    assert [t.bennies(f"p{c}") for c in "abcd"] == [3, 3, 3, 3] and t.table["gm"]["benny_pool"] == 4
    t.table["players"]["pa"]["bennies"] = 2
    t.do({"type": "enter_play", "character_id": "thug"})
    t.do({"type": "enter_play", "character_id": "villain"})
    assert t.table["gm"]["npc_bennies"] == {"thug": 2, "villain": 3}
    t.do({"type": "close_session"})
    assert [t.bennies(f"p{c}") for c in "abcd"] == [0, 0, 0, 0]
    assert t.table["gm"] == {"benny_pool": 0, "npc_bennies": {}}
