"""Whose move it is (spec §4.13, §4.18–§4.19, §5.2, §5.5–§5.7): `table["awaiting"]`, recomputed after every move.

One entry per party (the GM, or the player of one character), in the order play needs them: tests and
opposed tests still open, a soak the GM has to rule on, then the encounter — the running turn, holders and
Joker holders who may claim or interrupt, the GM's call of the next card — or, out of combat, the GM.
"""

from __future__ import annotations

from typing import Any

from service.rules.action_deck import checks, countdown, surprise
from service.rules.action_deck.context import Ctx
from service.rules.awaiting import character, gm, merged
from service.rules.base import Actor

IDLE_CLOSED = ("open_session",)
IDLE_OPEN = ("start_encounter", "award_benny", "close_session")
RUNNING = ("draw_window", "countdown")
TURN_MOVES = ("trait_test", "opposed_test", "damage_roll", "move", "jump", "ready_item")


class _Parties:
    """Collects moves per party, keeping the first-seen order of parties and of their moves."""

    def __init__(self) -> None:
        self._may: dict[str | None, list[str]] = {}

    def add(self, cid: str | None, *may: str) -> None:
        moves = self._may.setdefault(cid, [])
        moves.extend(m for m in may if m not in moves)

    def entries(self) -> list[dict[str, Any]]:
        # Already one entry per party; merged() is the rule every system's awaiting goes through.
        return merged([gm(*may) if cid is None else character(cid, *may) for cid, may in self._may.items() if may])


def _open_tests(ctx: Ctx, out: _Parties) -> None:
    """§5.5: a rolled test waits for its roller's reroll, substitution or accept (group tests: the GM's)."""
    for test in ctx.table["tests"].values():
        if test["state"] != "rolled":
            continue
        who = None if test["group"] is not None else test["roller_id"]
        may = ["reroll", "accept_test"]
        if test["kind"] == "trait" and test["spec"]["wild_die"] is not None:
            may.append("choose_wild_substitution")
        out.add(who, *may)


def _opposed(ctx: Ctx, out: _Parties) -> None:
    """§5.6: once the active party has rolled, the defender's roll is what the test waits for."""
    for record in ctx.table["opposed"].values():
        if record["stage"] in ("active_rolling", "awaiting_defender") and record["active_test"] is not None:
            out.add(record["defender_id"], "defend")


def _turn(ctx: Ctx, enc: dict[str, Any], cid: str, out: _Parties) -> None:
    turn = enc["participants"][cid]["turn"]
    sheet = ctx.characters[cid]
    if turn["status"] != "acting":
        hold = turn["status"] == "called" and not (sheet["shaken"] or sheet["stunned"])
        out.add(cid, "declare_turn", *(("hold",) if hold else ()), "end_turn")
        return
    may = []
    if turn["may_redeclare"]:
        may.append("redeclare")
    if any(not d["taken"] for d in turn["declared"]):
        may.append("take_action")
    if not turn["ran"] and not turn["rolled"]:
        may.append("run")
    out.add(cid, *may, *TURN_MOVES, "end_turn")


def _may_act_any_moment(enc: dict[str, Any], ctx: Ctx, cid: str) -> bool:
    """On hold, or a Joker not yet played this round (seed 1.2)."""
    slot = enc["participants"][cid]
    if ctx.characters[cid]["eliminated"] or slot["acted"] or not slot["can_act"]:
        return False
    return slot["on_hold"] or slot["joker_active"]


def _encounter(ctx: Ctx, enc: dict[str, Any], out: _Parties) -> None:
    phase = enc["phase"]
    if phase in ("dealing", "surprise_notice"):
        out.add(None, "deal", "end_encounter")
        return
    if enc["pending_interrupt"] is not None:
        return  # the interrupt's opposed Athletics (an open test or a defence) comes first
    current = enc["current_turn"]
    if current is not None:
        _turn(ctx, enc, current, out)
    if enc["draw_window_open"] and current is None:
        for cid in enc["order"]:
            slot = enc["participants"][cid]
            if slot["card"] and not ctx.characters[cid]["eliminated"]:
                out.add(cid, "draw_extra_card", *(("keep_card",) if len(slot["candidates"]) > 1 else ()))
    for cid in enc["order"]:
        if cid == current or not _may_act_any_moment(enc, ctx, cid):
            continue
        slot = enc["participants"][cid]
        if current is None:
            out.add(cid, "declare_turn", *(("hold",) if not slot["on_hold"] else ()))
        elif phase == "countdown":
            out.add(cid, "interrupt")
    if current is None:
        out.add(None, *_round_flow(ctx, enc), "end_encounter")


def _round_flow(ctx: Ctx, enc: dict[str, Any]) -> tuple[str, ...]:
    """The GM calls the highest card left; with none left the round ends, once every Joker has acted (B7)."""
    if countdown.callable_ids(ctx):
        return ("call_next",)
    jokers = [
        cid
        for cid in enc["order"]
        if enc["participants"][cid]["joker_active"]
        and _may_act_any_moment(enc, ctx, cid)
        and not enc["participants"][cid]["on_hold"]
    ]
    return () if jokers else ("end_round",)


def compute(ctx: Ctx) -> list[dict[str, Any]]:
    out = _Parties()
    _open_tests(ctx, out)
    _opposed(ctx, out)
    if ctx.table["soaks_pending"]:
        out.add(None, "set_condition")  # B38: the GM rules what a player's soak avoided
    enc = ctx.encounter
    if enc is not None:
        _encounter(ctx, enc, out)
    elif ctx.table["session"]["status"] == "open":
        out.add(None, *IDLE_OPEN)
    else:
        out.add(None, *IDLE_CLOSED)
    return out.entries()


def after_accepting(state: dict[str, Any], viewer: Actor) -> list[dict[str, Any]]:
    """Moves offered beyond the waits: a character's next move first accepts its rolled tests (§5.5,
    `engine.auto_accept`), which may settle an opposed test or an interrupt and so open moves the table does not
    show yet (the interrupted character's turn goes on once its defence wins; a Joker holder whose interrupt
    failed may interrupt again). Each such character is offered what the table would wait for from it once its
    tests are accepted, worked out on a copy from the whole state. So a player is told this only of the characters
    whose sheets the player sees whole (the party's): what an unrostered character may do next can follow from what
    the view keeps from players. A concealed attacker is left out for everyone: offering it a move would name it
    before it acts."""
    table = state.get("table") or {}
    rollers = sorted({t["roller_id"] for t in (table.get("tests") or {}).values() if t["state"] == "rolled"})
    hidden = set(surprise.concealed(table.get("encounter")))
    if viewer.role != "gm":
        rostered = {cid for p in (table.get("players") or {}).values() for cid in p.get("character_ids", [])}
        hidden |= {cid for cid in rollers if cid not in rostered and not viewer.controls(cid)}
    out: list[dict[str, Any]] = []
    for cid in rollers:
        if cid in hidden or cid not in (state.get("characters") or {}):
            continue
        ctx = Ctx(state, Actor(role="gm"), None)
        checks.finalize_open(ctx, {cid})
        out += [e for e in compute(ctx) if e["who"] == "character" and e["character_id"] == cid]
    return out


def refresh(ctx: Ctx) -> None:
    ctx.table["awaiting"] = compute(ctx)


# Moves the engine may accept outside what `awaiting` asks (the GM's management and narration, a player's moves
# out of turn), listed in `table.offers` (service.rules.awaiting.offers); each still passes the engine's checks.
# The GM may award a benny, or end the fight, at any moment.
OPEN_GM = (
    "add_participant",
    "apply_wounds",
    "award_benny",
    "end_encounter",
    "enter_play",
    "group_test",
    "hazard_test",
    "leave_play",
    "opposed_test",
    "run",
    "set_condition",
    "soak",
    "start_encounter",
    "trait_test",
    "unshake",
)
# `keep_card` is awaited only once an extra draw gave a choice, but keeping the one card dealt is accepted in the
# draw window too (it closes the choice early).
OPEN_PLAYER = (
    "damage_roll",
    "keep_card",
    "opposed_test",
    "regain_power",
    "run",
    "soak",
    "trait_test",
    "unshake",
)
