"""The opposed-test engine (spec 4.3), shared by tests, team tests, PvP tests and combat rounds.

A contest is a set of pairs (side `a` against side `b`; `a` is "gm" except in PvP). Throws come in
waves: everyone a pair needs throws one die; nobody's value is known until the wave is complete
(L118, L148), so the dice of a wave are rolled together when its last thrower submits. That keeps
simultaneity without hiding anything: a submitted throw has no value yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.rules.move import guaranteed
from service.rules.trikus import boom
from service.rules.trikus.context import Ctx
from service.rules.trikus.events_model import (
    TrikusCharacterInActivity,
    TrikusPairResolved,
    TrikusThrowEvent,
    TrikusWaveRevealed,
)

LastChance = Callable[[str], bool]


def new_contest(order: list[str], pairs: list[tuple[str, str]], unthrown: dict[str, int]) -> dict[str, Any]:
    return {
        "order": order,  # throw order inside a wave: the GM first, then seat order
        "pairs": [
            {
                "a": a,
                "b": b,
                "state": {"kind": "initial"},
                "outcome": "open",
                "winner": None,
                "left": None,
                "final_value": None,
                "passed": [],
            }
            for a, b in pairs
        ],
        "unthrown": dict(unthrown),
        "dice": [],  # {id, wave, thrower, value, superseded_value?, renegotiated}
        "wave": 1,
        "submitted": [],  # who has thrown in the open wave (values come when it completes)
        "stage": "wave",  # wave | last_chance | negotiation_offered | negotiation_rethrow | resolved
        "last_chance": None,
        "negotiation": None,
        "boom": {"seen": [], "available": [], "claims": []},
    }


# ---- who throws (spec 4.3 required_throwers) ---------------------------------------------------------
def must_throw(pair: dict[str, Any]) -> list[str]:
    st = pair["state"]
    if st["kind"] in ("initial", "tie"):
        return [pair["a"], pair["b"]]  # both (re)throw; a tie decides nothing (L182, A6)
    return [pair["b"] if st["side"] == pair["a"] else pair["a"]]  # only the side not in control


def stuck(c: dict[str, Any], pair: dict[str, Any]) -> list[str]:
    """Sides that must throw and have no die left (a die submitted in the open wave is still to come):
    the pair ends (L112) unless a last chance applies."""
    return [s for s in must_throw(pair) if c["unthrown"].get(s, 0) == 0 and s not in c["submitted"]]


def open_pairs(c: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in c["pairs"] if p["outcome"] == "open"]


def required(c: dict[str, Any]) -> list[str]:
    need: set[str] = set()
    for p in open_pairs(c):
        if not stuck(c, p):
            need.update(must_throw(p))
    return [w for w in c["order"] if w in need]


def pair_of(c: dict[str, Any], cid: str) -> dict[str, Any] | None:
    return next((p for p in c["pairs"] if cid in (p["a"], p["b"])), None)


def pair_in(c: dict[str, Any], cid: str) -> dict[str, Any]:
    """The pair `cid` is in, where the contest guarantees one (a thrower, a proposer, the last-chance character)."""
    return guaranteed(pair_of(c, cid), f"the contest pair of {cid}")


def other(pair: dict[str, Any], side: str) -> str:
    return pair["b"] if side == pair["a"] else pair["a"]


def result_for(pair: dict[str, Any], who: str) -> str:
    out = pair["outcome"]
    if out == "won":
        return "success" if pair["winner"] == who else "failure"
    if out in ("escaped", "removed"):
        return out if pair["left"] == who else "no_result"
    return out  # draw | open


def die(c: dict[str, Any], die_id: int) -> dict[str, Any]:
    return c["dice"][die_id - 1]


# ---- moves on the contest ---------------------------------------------------------------------------
def submit(ctx: Ctx, act: dict[str, Any], who: str) -> None:
    """One die leaves the thrower's hand now (it counts as thrown for escape, A39); its face comes later."""
    c = act["contest"]
    c["unthrown"][who] -= 1
    c["submitted"].append(who)
    ctx.emit(
        "throw_submitted",
        TrikusThrowEvent(
            activity_id=act["id"],
            wave=c["wave"],
            thrower=who,
            waiting_for=[w for w in required(c) if w not in c["submitted"]],
        ),
    )


def leave(c: dict[str, Any], who: str, how: str) -> None:
    """Escape (spec 4.16) or removal (A36): the pair ends with no result for the one who left."""
    p = pair_of(c, who)
    if p is not None and p["outcome"] == "open":
        p.update(outcome=how, left=who, winner=None)
    c["unthrown"][who] = 0
    if who in c["submitted"]:
        c["submitted"].remove(who)


def settle(ctx: Ctx, act: dict[str, Any], last_chance: LastChance) -> bool:
    """Bring the contest to its next decision point; True when every pair is resolved.

    Order per spec 5.1.1: resolve pairs, offer a last chance (seat order), reveal a complete wave.
    """
    c = act["contest"]
    while True:
        if c["stage"] in ("negotiation_offered", "negotiation_rethrow"):
            return False
        _finalize(ctx, act, last_chance)
        lc = _next_last_chance(c, last_chance)
        if lc is not None:
            if c["stage"] != "last_chance" or c["last_chance"] != lc:
                ctx.emit("last_chance_offered", TrikusCharacterInActivity(activity_id=act["id"], character_id=lc))
            c["stage"], c["last_chance"] = "last_chance", lc
            return False
        c["last_chance"] = None
        if not open_pairs(c):
            c["stage"] = "resolved"
            return True
        c["stage"] = "wave"
        need = required(c)
        for w in [w for w in c["submitted"] if w not in need]:
            # A submitted die nobody needs any more (its pair ended) goes back to the hand unthrown.
            c["submitted"].remove(w)
            c["unthrown"][w] += 1
            ctx.emit("throw_withdrawn", TrikusThrowEvent(activity_id=act["id"], wave=c["wave"], thrower=w))
        if c["submitted"] and all(w in c["submitted"] for w in need):
            reveal(ctx, act)
            continue
        return False


def _candidates(p: dict[str, Any], sides: list[str], last_chance: LastChance) -> list[str]:
    return [s for s in sides if s != "gm" and s not in p["passed"] and last_chance(s)]


def _next_last_chance(c: dict[str, Any], last_chance: LastChance) -> str | None:
    for p in open_pairs(c):
        cands = _candidates(p, stuck(c, p), last_chance)
        if cands:
            return cands[0]
    return None


def _finalize(ctx: Ctx, act: dict[str, Any], last_chance: LastChance) -> None:
    """resolve_pairs (spec 4.3): the side that must throw and cannot loses; both stuck is a draw (A7)."""
    c = act["contest"]
    for p in open_pairs(c):
        sides = stuck(c, p)
        if not sides or _candidates(p, sides, last_chance):
            continue
        st = p["state"]
        if len(sides) == 2:
            p.update(outcome="draw", final_value=st.get("value"))
        else:
            winner = other(p, sides[0])
            p.update(outcome="won", winner=winner, final_value=st.get("target", st.get("value")))
        ctx.emit(
            "pair_resolved",
            TrikusPairResolved(
                activity_id=act["id"],
                a=p["a"],
                b=p["b"],
                outcome=p["outcome"],
                winner=p["winner"],
                final_value=p["final_value"],
            ),
        )


def reveal(ctx: Ctx, act: dict[str, Any]) -> None:
    """The wave is complete: throw its dice together, then compare per pair (spec 4.3 evaluate_wave)."""
    c = act["contest"]
    throwers = [w for w in c["order"] if w in c["submitted"]]
    values: dict[str, dict[str, Any]] = {}
    rolls = []
    for w in throwers:
        d = ctx.roll(f"{act['id']} wave {c['wave']}: {w}")
        rec = {"id": len(c["dice"]) + 1, "wave": c["wave"], "thrower": w, "value": d.face, "renegotiated": False}
        c["dice"].append(rec)
        values[w] = rec
        rolls.append(d.to_dict())
    for p in open_pairs(c):
        _evaluate(p, values.get(p["a"]), values.get(p["b"]))
    ctx.emit(
        "wave_revealed",
        TrikusWaveRevealed(
            activity_id=act["id"],
            wave=c["wave"],
            dice=rolls,
            throws=[{"thrower": w, "value": values[w]["value"], "die_id": values[w]["id"]} for w in throwers],
            pairs=[{"a": p["a"], "b": p["b"], "state": dict(p["state"])} for p in c["pairs"]],
            unthrown=dict(c["unthrown"]),
        ),
    )
    c["wave"] += 1
    c["submitted"] = []
    boom.scan(ctx, act)


def _evaluate(p: dict[str, Any], da: dict[str, Any] | None, db: dict[str, Any] | None) -> None:
    st = p["state"]
    if st["kind"] in ("initial", "tie"):
        if da is None or db is None:
            return
        if da["value"] > db["value"]:
            p["state"] = {"kind": "ctrl", "side": p["a"], "target": da["value"], "die": da["id"]}
        elif db["value"] > da["value"]:
            p["state"] = {"kind": "ctrl", "side": p["b"], "target": db["value"], "die": db["id"]}
        else:
            p["state"] = {"kind": "tie", "value": da["value"]}  # tied dice are void (A8)
        return
    challenger = db if st["side"] == p["a"] else da
    if challenger is not None and challenger["value"] >= st["target"]:  # a tie is enough (L122)
        side = p["b"] if st["side"] == p["a"] else p["a"]
        p["state"] = {"kind": "ctrl", "side": side, "target": challenger["value"], "die": challenger["id"]}
