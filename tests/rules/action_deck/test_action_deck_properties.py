"""Property: over random sequences of moves (illegal ones are refused and change nothing), no benny count goes
negative, no card is dealt twice within a deck cycle, and the deck, dealt and discarded cards are always the
54 cards (spec §3.6 invariant, §4.29 'never negative')."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples

from action_deck_support import GM, SeededDice, Table, player
from engine_moves import check_awaiting, check_offered, check_one_entry_per_party, check_typed
from service.rules.action_deck import SYSTEM
from service.rules.action_deck.cards import FULL_DECK
from service.rules.base import RuleViolation

PCS = ["ann", "bob", "cid"]
NPCS = ["orc", "gob", "rat"]
EVERYONE = PCS + NPCS


def build(options: dict) -> Table:
    t = Table(**options)
    for cid in PCS:
        t.add(cid)
    t.add("orc", side="opposition")
    t.add("gob", side="opposition", kind="extra")
    t.add("rat", side="neutral", kind="extra")
    t.session({f"p-{c}": [c] for c in PCS})
    return t


def candidates(t: Table, rnd: random.Random) -> list[dict]:
    """Moves worth trying now; many are still illegal and must be refused cleanly."""
    enc, tests = t.table["encounter"], t.table["tests"]
    cid = rnd.choice(EVERYONE)
    moves: list[dict] = [
        {"type": "trait_test", "character_id": cid, "trait": rnd.choice(["fighting", "notice", "lockpicking"])},
        {"type": "set_condition", "character_id": cid, "shaken": rnd.random() < 0.5},
        {"type": "unshake", "character_id": cid, "benny_source": rnd.choice(["auto", "own", "gm_pool"])},
        {"type": "regain_power", "character_id": cid},
        {"type": "award_benny", "player_ids": [f"p-{rnd.choice(PCS)}"]},
    ]
    open_tests = [k for k, v in tests.items() if v["state"] == "rolled"]
    if open_tests:
        tid = rnd.choice(open_tests)
        moves += [{"type": "reroll", "test_id": tid}] * 3 + [{"type": "accept_test", "test_id": tid}]
    for oid in t.table["opposed"]:
        moves.append({"type": "defend", "opposed_id": oid})
    if enc is None:
        parts = rnd.sample(EVERYONE, rnd.randint(1, 6))
        moves += [{"type": "start_encounter", "participants": parts}] * 4
        moves.append(
            {
                "type": "opposed_test",
                "character_id": cid,
                "trait": "fighting",
                "defender_id": rnd.choice(EVERYONE),
                "defender_trait": "fighting",
            }
        )
        return moves
    cur = enc["current_turn"]
    moves += [{"type": "deal"}] * 4 + [{"type": "call_next"}] * 4 + [{"type": "end_round"}] * 3
    moves += [{"type": "draw_extra_card", "character_id": cid}] * 2
    moves += [
        {
            "type": "declare_turn",
            "character_id": cid,
            "actions": [{"kind": "a"}] * rnd.randint(0, 3),
            "run": rnd.random() < 0.3,
        },
        {"type": "hold", "character_id": cid},
        {"type": "interrupt", "character_id": cid},
    ]
    if rnd.random() < 0.05:
        moves.append({"type": "end_encounter"})
    holders = [c for c, s in enc["participants"].items() if s["on_hold"] or s["joker_active"]]
    if holders:
        moves += [{"type": "interrupt", "character_id": rnd.choice(holders)}] * 3
    slot = enc["participants"].get(cid)
    if slot and slot["candidates"]:
        moves.append({"type": "keep_card", "character_id": cid, "card": rnd.choice(slot["candidates"])})
    if cur is not None:
        moves += [{"type": "end_turn", "character_id": cur}] * 3
        moves += [
            {"type": "trait_test", "character_id": cur, "trait": "fighting", "action_index": rnd.randint(0, 2)},
            {"type": "move", "character_id": cur, "segments": [{"inches": rnd.randint(1, 4)}]},
            {"type": "declare_turn", "character_id": cur, "actions": [{"kind": "a"}] * rnd.randint(0, 3)},
            {"type": "hold", "character_id": cur},
            {"type": "hold", "character_id": cur},
            {"type": "redeclare", "character_id": cur, "actions": [{"kind": "a"}] * rnd.randint(0, 2)},
        ]
    return moves


def check_invariants(t: Table, dealt: set[str], events) -> None:
    tb = t.table
    assert all(p["bennies"] >= 0 for p in tb["players"].values())
    assert tb["gm"]["benny_pool"] >= 0 and all(n >= 0 for n in tb["gm"]["npc_bennies"].values())
    deck = tb["deck"]
    everything = deck["draw_pile"] + deck["discard_pile"] + deck["in_play"]
    assert Counter(everything) == Counter(FULL_DECK)
    enc = tb["encounter"]
    held = set()
    if enc is not None:
        for s in enc["participants"].values():
            held |= set(s["candidates"]) | ({s["card"]} if s["card"] else set())
    assert held == set(deck["in_play"])
    for ev in events:  # no card dealt twice within one deck cycle
        if ev.type == "deck_order":
            dealt -= set(ev.data["starting_order"])
        elif ev.type == "cards_dealt":
            cards = set(ev.data["cards"].values())
            assert not cards & dealt
            dealt |= cards
        elif ev.type == "extra_card_drawn":
            assert ev.data["card"] not in dealt
            dealt.add(ev.data["card"])


OPTIONS = st.fixed_dictionaries(
    {
        "reshuffle_rule": st.sampled_from(["after_joker_round", "when_exhausted_only"]),
        "hold_persistence": st.sampled_from(["until_used", "next_round_only"]),
        "joker_interrupt_needs_test": st.booleans(),
        "interrupt_tie_rule": st.sampled_from(["defender_wins", "simultaneous"]),
        "extra_card_draws_per_round": st.sampled_from([None, 1]),
    }
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=OPTIONS, seed=st.integers(0, 2**32), steps=st.integers(20, 120))
def test_random_legal_sequences_keep_the_invariants(options, seed, steps):
    t = build(options)
    rnd = random.Random(seed)
    dealt: set[str] = set()
    applied = 0
    for _step in range(steps):
        action = rnd.choice(candidates(t, rnd))
        actor = GM
        if "character_id" in action and action["character_id"] in PCS and rnd.random() < 0.5:
            actor = player(f"p-{action['character_id']}", action["character_id"])
        offered = check_offered(SYSTEM, t.state, action, actor)
        try:
            new, events = SYSTEM.apply(t.state, action, actor, SeededDice(rnd.randint(0, 10**9)))
        except RuleViolation:
            continue
        assert offered, f"accepted {action['type']!r} from {actor.role}, which table.offers did not list"
        t.state = new
        applied += 1
        check_invariants(t, dealt, events)
        check_awaiting(SYSTEM, new)
        check_one_entry_per_party(new)
        check_typed(SYSTEM, new)
    assert applied > 0
