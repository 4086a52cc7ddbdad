"""Property tests over random legal play: moves come from `SYSTEM.legal_moves`, dice from Hypothesis.

Checked after every move: every legal move is accepted; no resource goes negative; token counters
add up (I3); line shapes match tiers (I1); lines come back only through a party reset that found every
active character exhausted (L66) or a promotion; every die rolled is in the events. Checked per
activity: a test ends within a bounded number of moves. Checked at the end: replaying the same moves
with the same dice from the initial state rebuilds the same state and events.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples
from engine_moves import check_awaiting, check_offered, check_typed, salted
from trikus_support import GM, character_input, dice_in, player

from service.dice.table import TableDice
from service.dice.types import DieRoll
from service.rules.trikus import SYSTEM
from service.rules.trikus.constants import LINE_SHAPE

TEST_MOVE_BOUND = 150  # a test: every wave spends a die, every decision is finite
ROUND_MOVE_BOUND = 150  # one combat round likewise
MAX_MOVES = 120
TRAITS = (
    "offensive",
    "defensive",
    "helpful",
    "single_use",
    "battle_meditation",
    "unreliable",
    "black_hole",
    "renewable",
    "sith_artifact",
)
MODIFIERS = {"offensive": {"modifier": -2}, "defensive": {"modifier": 2}}


class StreamDice:
    """A dice source whose faces Hypothesis chooses as they are needed."""

    mode = "table"

    def __init__(self, draw) -> None:
        self._draw = draw
        self._rolled: list[DieRoll] = []

    def roll(self, sides: int, *, purpose: str = "") -> DieRoll:
        die = DieRoll(sides=sides, face=self._draw(st.integers(1, sides)), source="table", purpose=purpose)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)


def actor(who: str):
    return GM if who == "gm" else player(who)


def check_sheet(cid: str, s: dict[str, Any]) -> None:
    assert s["morale_dice"] >= 0
    for kind in ("light_tokens", "dark_tokens"):
        tok = s[kind]
        assert min(tok.values()) >= 0, (cid, kind, tok)
        assert tok["active"] == tok["received_total"] - tok["used_total"] - tok["forfeited_total"]
    if s["status"] == "active":
        assert s["dark_tokens"]["active"] <= 2  # I4
    assert [ln["dice"] for ln in s["lines"]] == LINE_SHAPE[s["tier"]]  # I1
    for ln in s["lines"]:
        assert (ln["state"] == "lost") == ("lost_resets_remaining" in ln)
        if ln["state"] == "lost":
            assert ln["lost_resets_remaining"] in (1, 2)  # I11


def check_table(state: dict[str, Any]) -> None:
    act = state["table"]["activity"]
    if act is None:
        return
    assert act.get("gm_pool") is None or act["gm_pool"] >= 0
    for part in act["participants"].values():
        assert part.get("line_dice", 0) >= 0 and part.get("allies", 0) >= 0
    if act.get("contest"):
        assert min(act["contest"]["unthrown"].values()) >= 0  # I8


def check_resets(before: dict[str, Any], after: dict[str, Any], events) -> None:
    resets = [e for e in events if e.type == "party_reset"]
    for e in resets:
        if not e.data["forced"]:
            assert all(st_ != "free" for lines in e.data["lines_before"].values() for st_ in lines)
    promoted = {e.data["character_id"] for e in events if e.type == "character_promoted"}
    for cid, s in after["characters"].items():
        old = before["characters"][cid]["lines"]
        back = any(o["state"] != "free" and n["state"] == "free" for o, n in zip(old, s["lines"]))
        if back:
            assert resets or cid in promoted, f"{cid} got a line back without a reset"


def open_move(data, state: dict[str, Any]) -> dict[str, Any] | None:
    ids = sorted(c for c, s in state["characters"].items() if s["status"] == "active")
    if not ids:
        return None
    kind = data.draw(st.sampled_from(["test", "test", "combat", "pvp"]))
    if kind == "pvp" and len(ids) >= 2:
        a, b = data.draw(st.permutations(ids))[:2]
        return {"type": "open_pvp_test", "challenger_id": a, "opponent_id": b}
    chosen = data.draw(st.lists(st.sampled_from(ids), min_size=1, max_size=len(ids), unique=True))
    move = {
        "type": "open_test" if kind != "combat" else "open_combat",
        "character_ids": chosen,
        "gm_pool": data.draw(st.integers(1, 4)),
    }
    if kind == "combat":
        move["powerful_opponent"] = data.draw(st.booleans())
    return move


@st.composite
def campaign(draw) -> dict[str, Any]:
    options = SYSTEM.Options(
        **{
            k: draw(st.booleans())
            for k in (
                "adv_escape",
                "adv_catastrophe_line_loss",
                "adv_negotiation",
                "adv_boom",
                "adv_combat_difficulty",
                "adv_equipment",
                "last_chance_prompt",
                "team_cancellation_waives_penalties",
            )
        },
        promotions_apply=draw(st.sampled_from(["next_session", "immediately"])),
        boom_visibility=draw(st.sampled_from(["players_must_notice", "announce"])),
    )
    state = salted(SYSTEM.initial_state(options))
    for cid, tier in (("pawel", "beginner"), ("zuzia", "advanced"), ("michal", "master")):
        kinds = draw(st.lists(st.sampled_from(TRAITS), min_size=1, max_size=3, unique=True))
        item = {
            "name": "gear",
            "traits": [{"kind": k, "known_to_owner": draw(st.booleans()), **MODIFIERS.get(k, {})} for k in kinds],
        }
        data = character_input(cid, tier, equipment=[item] if draw(st.booleans()) else [])
        sheet = SYSTEM.new_character(SYSTEM.CharacterInput.model_validate(data), options)
        sheet["morale_dice"] = draw(st.integers(0, 2))
        light, dark = draw(st.integers(0, 2)), draw(st.integers(0, 2))
        sheet["light_tokens"].update(active=light, received_total=light)
        sheet["dark_tokens"].update(active=dark, received_total=dark)
        state["characters"][cid] = {**sheet, "id": cid}
    return state


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=campaign(), data=st.data())
def test_property_random_legal_play(start, data):
    state = start
    log: list[tuple[str, dict[str, Any], list[int]]] = []
    all_events = []
    moves_in_scope = 0
    for _ in range(MAX_MOVES):
        act = state["table"]["activity"]
        if act is None:
            move = open_move(data, state)
            if move is None:
                break
            who = "gm"
        else:
            legal = SYSTEM.legal_moves(state)
            assert legal, f"nobody can move in phase {act['phase']}"  # liveness: someone is always awaited
            pick = data.draw(st.sampled_from(legal))
            who, move = pick["who"], pick["action"]
        dice = StreamDice(data.draw)
        assert check_offered(SYSTEM, state, move, actor(who)), f"{move['type']!r} by {who} is not in table.offers"
        new, events = SYSTEM.apply(state, move, actor(who), dice)  # a legal move never raises
        json.dumps(new)
        assert dice_in(events) == [d.to_dict() for d in dice.rolled]  # the events show every die
        for cid, s in new["characters"].items():
            check_sheet(cid, s)
        check_table(new)
        check_awaiting(SYSTEM, new)
        check_typed(SYSTEM, new)
        check_resets(state, new, events)
        moves_in_scope = (
            0 if any(e.type in ("round_started", "activity_closed") for e in events) else moves_in_scope + 1
        )
        assert moves_in_scope <= (ROUND_MOVE_BOUND if (act or {}).get("kind") == "combat" else TEST_MOVE_BOUND)
        log.append((who, move, [d.face for d in dice.rolled]))
        all_events.extend(events)
        state = new

    # Determinism and replay: the same moves and dice from the same start rebuild the same state.
    replay, replay_events = start, []
    for who, move, faces in log:
        src = TableDice(faces)
        replay, events = SYSTEM.apply(replay, move, actor(who), src)
        assert src.unused == 0
        replay_events.extend(events)
    assert replay == state
    assert [(e.type, e.data, e.visibility, e.redacted) for e in replay_events] == [
        (e.type, e.data, e.visibility, e.redacted) for e in all_events
    ]


@settings(max_examples=examples(40), deadline=None)
@given(start=campaign(), data=st.data())
def test_property_a_test_always_ends_under_auto(start, data):
    """Whatever the dice, a test driven by `auto` plus the first legal decision ends in bounded moves."""
    state = start
    move = {"type": "open_test", "character_ids": ["pawel", "zuzia", "michal"], "gm_pool": data.draw(st.integers(1, 6))}
    state, _ = SYSTEM.apply(state, move, GM, StreamDice(data.draw))
    for _ in range(TEST_MOVE_BOUND):
        if state["table"]["activity"] is None:
            break
        legal = SYSTEM.legal_moves(state)
        pick = next((m for m in legal if m["action"]["type"] == "auto"), legal[0])
        state, _ = SYSTEM.apply(state, pick["action"], actor(pick["who"]), StreamDice(data.draw))
    assert state["table"]["activity"] is None
    assert state["table"]["last_activity"]["kind"] == "test"
