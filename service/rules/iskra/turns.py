"""Turn order, rounds and action budgets (spec 4.12.1–4.12.2, 5.4; L151–L157)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraActionSpent,
    IskraReactionSpent,
    IskraRoundEnded,
    IskraRoundStarted,
    IskraTurnEnded,
    IskraTurnStarted,
)

FULL_BUDGET = {"major": 1, "minor": 1, "passing": 1, "offhand_attacks": 0, "converted": False}


def live(ctx: Ctx, enc: dict[str, Any], pid: str) -> bool:
    p = enc["participants"].get(pid)
    if p is None or p["removed"]:
        return False
    return p["kind"] == "hazard" or ctx.characters[pid]["status"] == "alive"


def build_order(ctx: Ctx, enc: dict[str, Any], initiator: str | None) -> list[str]:
    """spec 4.12.2: the initiator first, then one from each following side in the cyclic order (L157)."""
    sides = enc["sides"]
    queues = [[p for p in s["participant_ids"] if p != initiator and live(ctx, enc, p)] for s in sides]
    order: list[str] = []
    i = -1
    if initiator is not None and live(ctx, enc, initiator):
        order.append(initiator)
        i = next(n for n, s in enumerate(sides) if initiator in s["participant_ids"])
    while any(queues):
        i = (i + 1) % len(sides)
        if queues[i]:
            order.append(queues[i].pop(0))  # a side with no one left is skipped
    return order


def reaction_allowance(ctx: Ctx) -> int | str:
    return ctx.options.reactions_per_round  # 7-B23


def start_round(ctx: Ctx, enc: dict[str, Any], number: int) -> None:
    if number > 1:
        if ctx.options.turn_order_repeat == "rebuild_each_round":
            enc["order"] = build_order(ctx, enc, enc["initiator_id"])
        else:  # 7-B27 default: round 1's order again, plus joiners, skipping the dead and removed
            enc["order"] = [p for p in enc["order"] if live(ctx, enc, p)]
    enc["round"] = number
    enc["reactions_left"] = {p: reaction_allowance(ctx) for p in enc["participants"]}
    ctx.emit("round_started", IskraRoundStarted(encounter_id=enc["id"], round=number, order=enc["order"]))
    enc["current_index"] = -1
    _next_turn(ctx, enc)


def _enter_turn(ctx: Ctx, enc: dict[str, Any], pid: str) -> None:
    # spec 5.4 turn(p) on entering: the old Ready and p's help tokens expire (7-B24, 7-B25); budget resets.
    expired = enc["ready"].get(pid)
    enc["ready"][pid] = None
    tokens = [h for h in enc["help_tokens"] if h["helper_id"] == pid]
    enc["help_tokens"] = [h for h in enc["help_tokens"] if h["helper_id"] != pid]
    enc["budget"][pid] = dict(FULL_BUDGET)
    ctx.emit(
        "turn_started",
        IskraTurnStarted(
            encounter_id=enc["id"],
            round=enc["round"],
            participant_id=pid,
            expired_ready=expired is not None,
            expired_help_tokens=[h["id"] for h in tokens],
        ),
    )


def _next_turn(ctx: Ctx, enc: dict[str, Any]) -> None:
    while True:
        enc["current_index"] += 1
        if enc["current_index"] >= len(enc["order"]):
            ctx.emit("round_ended", IskraRoundEnded(encounter_id=enc["id"], round=enc["round"]))
            if not any(live(ctx, enc, p) for p in enc["participants"]):
                enc["current_index"] = len(enc["order"])
                return  # nobody left to act; the GM ends the combat (7-B28)
            start_round(ctx, enc, enc["round"] + 1)
            return
        pid = enc["order"][enc["current_index"]]
        if live(ctx, enc, pid):  # skip the dead and removed (spec 5.4)
            _enter_turn(ctx, enc, pid)
            return


def current(enc: dict[str, Any]) -> str | None:
    i = enc["current_index"]
    return enc["order"][i] if 0 <= i < len(enc["order"]) else None


def end_turn(ctx: Ctx, enc: dict[str, Any]) -> None:
    ctx.emit("turn_ended", IskraTurnEnded(encounter_id=enc["id"], round=enc["round"], participant_id=current(enc)))
    _next_turn(ctx, enc)


def skip_if_gone(ctx: Ctx) -> None:
    """A participant who died or was removed in their own turn hands it on (spec 5.4 'skip p if dead')."""
    enc = ctx.encounter
    if enc is None or ctx.table["pending"] is not None:
        return
    pid = current(enc)
    if pid is not None and not live(ctx, enc, pid):
        end_turn(ctx, enc)


def name(enc: dict[str, Any], pid: str | None) -> str:
    """How players know a participant (a character's or a hazard's name), not its id."""
    p = enc["participants"].get(pid or "")
    return p["name"] if p is not None else str(pid)


def spend(ctx: Ctx, cid: str, kind: str, field: str = "character_id") -> bool:
    """Use one of the turn's actions (spec 4.12.1). Outside combat budgets are not enforced (L145)."""
    enc = ctx.encounter
    if enc is None or ctx.participant(cid) is None:
        return False
    if current(enc) != cid:
        raise violation(
            "not_your_turn",
            _("it is {name}'s turn, not {name_2}'s (L151)", name=name(enc, current(enc)), name_2=name(enc, cid)),
            field,
        )
    budget = enc["budget"][cid]
    if budget[kind] < 1:
        hint = (
            _("; give up the Major for a second Minor with convert_major")
            if kind == "minor" and budget["major"]
            else ""
        )
        raise violation(
            f"no_{kind}_action",
            _("{cid} has no {kind} Action left this turn{hint}", cid=cid, kind=kind.title(), hint=hint),
            field,
        )
    budget[kind] -= 1
    ctx.emit(
        "action_spent", IskraActionSpent(encounter_id=enc["id"], participant_id=cid, kind=kind, round=enc["round"])
    )
    return True


def can_react(ctx: Ctx, cid: str) -> bool:
    enc = ctx.encounter
    if enc is None or ctx.participant(cid) is None:
        return True  # outside combat the action types are not budgeted (L145)
    left = enc["reactions_left"].get(cid, 0)
    return left == "unlimited" or left > 0


def spend_reaction(ctx: Ctx, cid: str, why: str, field: str | None = None) -> None:
    if not can_react(ctx, cid):
        raise violation("no_reaction_left", _("{cid} has used this round's Reactions (7-B23)", cid=cid), field)
    enc = ctx.encounter
    if enc is None or ctx.participant(cid) is None:
        return
    if enc["reactions_left"][cid] != "unlimited":
        enc["reactions_left"][cid] -= 1
    ctx.emit(
        "reaction_spent",
        IskraReactionSpent(
            encounter_id=enc["id"], participant_id=cid, for_=why, reactions_left=enc["reactions_left"][cid]
        ),
    )
