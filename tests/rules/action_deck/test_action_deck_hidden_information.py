"""Spec §8: surprise attackers are hidden from players until revealed (seed 1.2, AD-E16) — not in the state
players see, not in their copy of any event; revealed with their card when they act or the round ends."""

from __future__ import annotations

import json

from action_deck_support import GM, Table, one, player

from service.rules.action_deck import SYSTEM

P = player("pp", "p")
AMBUSHERS = ("xsniper", "ycutthroat")


def _ambush() -> Table:
    """AD-E16: attackers xsniper and ycutthroat; victims p, q, r; Notice for p (passes) and q (fails)."""
    t = Table()
    for c in AMBUSHERS:
        t.add(c, side="opposition")
    for c in ("p", "q", "r"):
        t.add(c, skills={"notice": "d6"})
    t.session({"pp": ["p"], "pq": ["q"], "pr": ["r"]})
    t.do(
        {
            "type": "start_encounter",
            "participants": [*AMBUSHERS, "p", "q", "r"],
            "surprise": {
                "attackers": list(AMBUSHERS),
                "victims": ["p", "q", "r"],
                "notice": [{"character_id": "p"}, {"character_id": "q"}],
            },
        },
        dice=[5, 2, 2, 3],
    )
    t.do({"type": "deal", "cards": ["9C", "JK-R", "QD"]})
    return t


def _named(data) -> set[str]:
    text = json.dumps(data)
    return {c for c in AMBUSHERS if c in text}


def test_AD_E16_players_are_not_shown_the_surprise_attackers():
    t = _ambush()
    enc = SYSTEM.view(t.state, P)["table"]["encounter"]
    assert enc["order"] == ["p", "q", "r"] and set(enc["participants"]) == {"p", "q", "r"}
    assert enc["surprise"]["attackers"] == [] and "concealed" not in enc["surprise"]
    assert enc["surprise"]["victims"] == ["p", "q", "r"]
    assert set(SYSTEM.view(t.state, GM)["table"]["encounter"]["surprise"]["attackers"]) == set(AMBUSHERS)


def test_AD_E16_the_attackers_cards_look_face_down_to_players():
    t = _ambush()
    deck = SYSTEM.view(t.state, P)["table"]["deck"]
    assert deck["in_play"] == ["QD"]
    assert deck["draw_pile_count"] + len(deck["discard_pile"]) + len(deck["in_play"]) == 54


def test_AD_E16_no_event_names_a_concealed_attacker_to_players():
    t = _ambush()
    assert [e.type for e in t.log if _named(e.seen_by(P))] == []
    assert {"encounter_started", "cards_dealt", "jokers_wild", "npc_entered_play"} <= {
        e.type for e in t.log if _named(e.seen_by(GM))
    }


def test_AD_E16_an_attacker_is_revealed_with_its_card_when_it_acts():
    t = _ambush()
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "p", "actions": [{"kind": "attack"}]})
    ev = t.do({"type": "interrupt", "character_id": "ycutthroat"})  # Joker: no Athletics test
    revealed = one(ev, "surprise_attacker_revealed").seen_by(P)
    assert (revealed["character_id"], revealed["card"]) == ("ycutthroat", "JK-R")
    enc = SYSTEM.view(t.state, P)["table"]["encounter"]
    assert enc["surprise"]["attackers"] == ["ycutthroat"] and "ycutthroat" in enc["participants"]
    assert "xsniper" not in enc["participants"]


def test_AD_E16_attackers_still_on_hold_are_revealed_when_the_surprise_round_ends():
    t = _ambush()
    t.do({"type": "call_next"})
    t.do({"type": "declare_turn", "character_id": "p", "actions": [{"kind": "attack"}]})
    t.do({"type": "end_turn", "character_id": "p"})
    t.do({"type": "declare_turn", "character_id": "ycutthroat"})  # a Joker claims its turn
    t.do({"type": "end_turn", "character_id": "ycutthroat"})
    ev = t.do({"type": "end_round"})
    types = [e.type for e in ev]
    assert types.index("surprise_attacker_revealed") < types.index("round_ended")
    enc = SYSTEM.view(t.state, P)["table"]["encounter"]
    assert set(enc["surprise"]["attackers"]) == set(AMBUSHERS) and enc["participants"]["xsniper"]["on_hold"]


def test_a_party_ambush_is_no_secret_from_the_party():
    t = Table()
    t.add("p")
    t.add("orc", side="opposition")
    t.session({"pp": ["p"]})
    t.do(
        {"type": "start_encounter", "participants": ["p", "orc"], "surprise": {"attackers": ["p"], "victims": ["orc"]}}
    )
    t.do({"type": "deal", "cards": ["5S"]})
    enc = SYSTEM.view(t.state, P)["table"]["encounter"]
    assert enc["surprise"]["attackers"] == ["p"] and enc["participants"]["p"]["on_hold"]


def test_AD_E16_players_awaiting_does_not_name_a_concealed_attacker():
    t = _ambush()
    gm_waits = {e["character_id"] for e in SYSTEM.view(t.state, GM)["table"]["awaiting"]}
    assert set(AMBUSHERS) <= gm_waits  # on hold: they may claim their turn at any moment
    assert _named(SYSTEM.view(t.state, P)["table"]["awaiting"]) == set()
