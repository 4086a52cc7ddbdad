"""Property tests over random legal play. Moves come from `table.awaiting`, dice from Hypothesis.

Checked after every move: no resource is negative or above its cap, every die is in exactly one event
(danger_pool_support.Table.do), the input state is untouched. Per roll: it resolves within a bounded
number of moves. Per scene: with the GM's policy below it ends within a bound. At the end: replaying the
same moves with the same dice from the initial state rebuilds the same state and events."""

from __future__ import annotations

from typing import Any

from danger_pool_support import GM, Table, player
from engine_moves import check_awaiting, check_offered, check_one_entry_per_party, check_typed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from property_examples import examples

from service.dice.table import TableDice
from service.dice.types import DieRoll
from service.rules.danger_pool import SYSTEM
from service.rules.danger_pool.aftermath import available
from service.rules.danger_pool.context import Ctx

MAX_MOVES = 70
GM_CLOSES_AFTER_ROUND = 4  # policy: the GM closes a scene that drags on (always allowed, §4.14)
SCENE_MOVE_BOUND = 400
CAST = {"ann": "P1", "bob": "P2", "cat": "P3"}


class StreamDice:
    mode = "table"

    def __init__(self, draw) -> None:
        self._draw, self._rolled = draw, []

    def roll(self, sides: int, *, purpose: str = "") -> DieRoll:
        die = DieRoll(sides=sides, face=self._draw(st.integers(1, sides)), source="table", purpose=purpose)
        self._rolled.append(die)
        return die

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)


def actor_for(who: str, draw):
    if who == "gm" or draw(st.booleans()) and draw(st.booleans()):
        return GM  # the GM may act for any character
    return player(who, player_id=CAST[who])


def declaration(t: Table, cid: str, draw) -> dict[str, Any]:
    sheet = t.sheet(cid)
    spends = [] if sheet["character_points"] == 0 else draw(st.sampled_from([[], ["risk"], ["ignore_pain"]]))
    return {
        "character_id": cid,
        "approach": "x",
        "ability": draw(st.sampled_from(sorted(sheet["abilities"]))),
        "legends": [legend["legend_id"] for legend in sheet["legends"]][: draw(st.integers(0, 1))],
        "scars": [s["scar_id"] for s in sheet["scars"]][: draw(st.integers(0, 2))],
        "cp_spends": spends,
    }


def aftermath_move(t: Table, cid: str, draw) -> dict[str, Any]:
    ctx = Ctx(t.state, GM, None)
    option = draw(st.sampled_from(available(ctx, cid)))
    move = {"type": "choose_aftermath", "character_id": cid, "option": option}
    if option == "take_the_hit":
        move["ability"] = next(a for a, r in sorted(t.sheet(cid)["abilities"].items()) if r >= 2)
    if option == "set_someone_up":
        pid = t.sheet(cid)["player_id"]
        target = next(
            c
            for c, s in sorted(t.state["characters"].items())
            if c != cid
            and s["status"] == "active"
            and s["player_id"] != pid
            and any(r >= 2 for r in s["abilities"].values())
        )
        move.update(
            target_character_id=target,
            ability=next(a for a, r in sorted(t.sheet(target)["abilities"].items()) if r >= 2),
        )
    return move


def pick(t: Table, draw) -> tuple[dict[str, Any], str] | None:
    sc, aw = t.scene, t.table["awaiting"]
    if sc is not None and sc["kind"] == "action" and sc["round"] > GM_CLOSES_AFTER_ROUND:
        return {"type": "end_scene"}, "gm"
    entry = draw(st.sampled_from(aw))
    who, kind = entry["character_id"] or "gm", draw(st.sampled_from(entry["may"]))
    if kind == "create_action_scene":
        team = sorted(c for c, s in t.state["characters"].items() if s["status"] == "active")
        if not team:
            return None
        els = [{"text": "guard"}] if draw(st.booleans()) else []
        return {
            "type": kind,
            "goal": "g",
            "leader_id": team[0],
            "team": team,
            "elements": els,
            "progress_track_length": draw(st.integers(1, 8)),
        }, who
    if kind in ("declare_action", "bail_out"):
        extra = {"kind": draw(st.sampled_from(["push", "hold_back"]))} if kind == "declare_action" else {}
        return {"type": kind, **extra, **declaration(t, who, draw)}, who
    if kind == "element_reroll" and len(sc["roll"]["danger_dice_rolls"]) > 2:
        return {"type": "confirm_roll"}, who  # policy when rerolls are unlimited (A13)
    if kind == "element_reroll":
        limit = t.state["options"]["element_rerolls_per_element_per_scene"]
        ids = [e["element_id"] for e in sc["elements"] if limit is None or e["rerolls_used"] < limit]
        return {"type": kind, "element_id": draw(st.sampled_from(ids))}, who
    if kind == "choose_tie":
        options = ["take_the_hit", "back_down"] + (["do_something_stupid"] if sc["roll"]["danger_max"] > 1 else [])
        option = draw(st.sampled_from(options))
        return {"type": kind, "character_id": who, "option": option}, who
    if kind == "extract":
        ins = [c for c in sc["team"] if sc["participation"][c] == "in_scene"]
        n = draw(st.integers(0, min(len(ins), sc["roll"]["successes"])))
        return {"type": kind, "character_id": who, "extracted_ids": ins[:n]}, who
    if kind == "add_element":
        return {"type": kind, "text": "crate"}, who
    if kind == "configure_scene":
        alive = [c for c in sc["team"] if t.sheet(c)["status"] == "active"]
        if not alive:
            return {"type": "end_scene"}, who
        leader = sc["leader_id"] if sc["leader_id"] in alive else alive[0]
        return {"type": kind, "progress_track_length": draw(st.integers(1, 8)), "team": alive, "leader_id": leader}, who
    if kind == "raise_alarm":
        return {"type": kind, "amount": draw(st.integers(0, 3))}, who
    if kind == "choose_aftermath":
        return aftermath_move(t, who, draw), who
    if kind == "review_aftermath":
        cid = next(
            c
            for c, s in sorted(t.state["characters"].items())
            if (s["aftermath_proposal"] or {}).get("state") == "proposed"
        )
        prop = t.sheet(cid)["aftermath_proposal"]
        still = t.sheet(cid)["abilities"][prop["ability"]] >= 2  # a Set Up may have lowered it meanwhile
        return {"type": kind, "character_id": cid, "decision": "approve" if still else "request_change"}, who
    if who == "gm":
        return {"type": kind}, who
    return {"type": kind, "character_id": who}, who


def check(t: Table) -> None:
    for cid, s in t.state["characters"].items():
        assert 0 <= s["stamina"] <= s["stamina_max"], cid
        assert s["character_points"] >= 0 and min(s["abilities"].values()) >= 1
    sc = t.scene
    if sc is not None and sc["kind"] == "action":
        assert sc["danger_pool_size"] >= 0 and 0 <= sc["progress_marked"] <= sc["progress_track_length"]
        assert set(sc["acted_this_round"]) <= set(sc["team"])
        assert sc["phase"] == "setup" or sc["leader_id"] in sc["team"]  # a dead leader is replaced in setup
        assert len(set(sc["acted_this_round"])) == len(sc["acted_this_round"])  # once per round
        assert sc["round"] == 0 or sc["alarm_used"] == (sc["alarm_amount"] is not None)


@settings(
    max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(
    st.data(),
    st.sampled_from(
        [
            {},
            {"allow_pass": True, "alarm_timing": "any_time"},
            {"zero_pool_policy": "roll_one_die", "element_rerolls_per_element_per_scene": None},
        ]
    ),
)
def test_random_legal_play_keeps_invariants_and_replays(data, options):
    draw = data.draw
    t = Table(**options)
    for cid, pid in CAST.items():
        t.pc(cid, {"Wetwork": 2, "Charm": 1}, player_id=pid, legends=["L"])
    start, log = t.state, []
    scene_id, scene_moves, roll_moves = None, 0, 0
    for _ in range(MAX_MOVES):
        chosen = pick(t, draw)
        if chosen is None:
            break
        action, who = chosen
        actor = actor_for(who, draw)
        dice = StreamDice(draw)
        offered = check_offered(SYSTEM, t.state, action, actor)
        new, events = SYSTEM.apply(t.state, action, actor, dice)
        assert offered, f"accepted {action['type']!r} from {actor.role}, which table.offers did not list"
        faces = [d.face for d in dice.rolled]
        assert [d for e in events for d in e.data.get("dice", [])] == [d.to_dict() for d in dice.rolled]
        t.state = new
        log.append((action, actor, faces, [(e.type, e.data) for e in events]))
        check(t)
        check_awaiting(SYSTEM, t.state)
        check_one_entry_per_party(t.state)
        check_typed(SYSTEM, t.state)
        sc = t.scene
        scene_moves = scene_moves + 1 if sc is not None and sc["id"] == scene_id else 0
        scene_id = sc["id"] if sc is not None else None
        assert scene_moves <= SCENE_MOVE_BOUND
        roll = sc.get("roll") if sc is not None else None
        roll_moves = roll_moves + 1 if roll is not None else 0
        if roll is not None:  # a roll ends within: reroll per element, confirm, one step per danger die
            assert roll_moves <= 2 + 2 * len(sc["elements"]) + len(roll["danger_dice"]) + 1
    replay = start
    for action, actor, faces, events in log:
        replay, again = SYSTEM.apply(replay, action, actor, TableDice(faces))
        assert [(e.type, e.data) for e in again] == events
    assert replay == t.state
