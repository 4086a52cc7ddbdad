"""The turn record and who acts next (spec §3.8, §4.13, §4.19, §4.20): shared by countdown, interrupts, tests."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.action_deck import guards
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckActionTaken,
    ActionDeckTurnResumed,
    ActionDeckTurnStarted,
    ActionDeckTurnSuspended,
)

RUNNING_PHASES = ("draw_window", "countdown")


def new_turn(ctx: Ctx, character_id: str, status: str, via: str) -> dict[str, Any]:
    """status: called (card called, may still hold) | claimed (from hold, Joker or interrupt) | acting."""
    return {
        "status": status,
        "via": via,
        "declared": [],
        "multi_action_penalty": 0,
        "ran": False,
        "run_roll": None,
        "turn_pace": ctx.sheet(character_id)["pace"],
        "movement_used": 0,
        "free_items_readied": 0,
        "rolled": False,
        "may_redeclare": False,
    }


def begin(ctx: Ctx, character_id: str, status: str, via: str) -> None:
    enc = ctx.running()
    enc["current_turn"] = character_id
    enc["participants"][character_id]["turn"] = new_turn(ctx, character_id, status, via)
    ctx.emit("turn_started", ActionDeckTurnStarted(character_id=character_id, round=enc["round"], via=via))


def start_before(ctx: Ctx, holder: str, target: str) -> None:
    """The holder won: the target's turn is suspended and resumes later, free to re-declare (seed 1.2)."""
    enc = ctx.running()
    target_turn = enc["participants"][target]["turn"]
    if target_turn is not None:
        target_turn["may_redeclare"] = True
    enc["turn_stack"].append(target)
    ctx.emit("turn_suspended", ActionDeckTurnSuspended(character_id=target, by=holder))
    begin(ctx, holder, "claimed", "interrupt")


def advance(ctx: Ctx) -> None:
    """After a turn: a holder that lost its interrupt test acts now (B15), else a suspended turn resumes."""
    enc = ctx.running()
    enc["current_turn"] = None
    if enc.get("after_current_action"):
        # The target ended its turn before another action: the simultaneous holder still gets its turn.
        enc["queued"].insert(0, enc["after_current_action"])
        enc["after_current_action"] = None
    if enc["queued"]:
        begin(ctx, enc["queued"].pop(0), "claimed", "interrupt_lost")
    elif enc["turn_stack"]:
        cid = enc["turn_stack"].pop()
        enc["current_turn"] = cid
        ctx.emit("turn_resumed", ActionDeckTurnResumed(character_id=cid, may_redeclare=True))


def mark_taken(ctx: Ctx, character_id: str, turn: dict[str, Any], index: int, what: str) -> None:
    turn["declared"][index]["taken"] = True
    turn["declared"][index]["done"] = what
    ctx.emit("action_taken", ActionDeckActionTaken(character_id=character_id, action_index=index, what=what))
    enc = ctx.running()
    after = enc.get("after_current_action")
    if after and enc["current_turn"] == character_id:
        # interrupt_tie_rule = simultaneous, equal totals: this action stands, then the holder acts.
        enc["after_current_action"] = None
        start_before(ctx, after, character_id)


def context(ctx: Ctx, character_id: str, action_index: int | None, free_action: bool) -> dict[str, Any]:
    """Where a test happens: inside the roller's own turn (which declared action) or outside it.

    In a running round a player rolls only in their own turn; out-of-turn tests (reactions, a power
    resisted) are called by the GM (§4.21)."""
    slot = ctx.slot(character_id)
    enc = ctx.encounter
    if slot is None or enc is None or enc["phase"] not in RUNNING_PHASES:
        if action_index is not None:
            raise violation("action_not_declared", _("no turn of this character is running"), "action_index")
        return {"turn": None, "action_index": None}
    if enc["current_turn"] != character_id:
        if not ctx.actor.is_gm:
            raise violation(
                "not_your_turn",
                _("it is not {name}'s turn; out-of-turn tests are called by the GM", name=ctx.name(character_id)),
            )
        if action_index is not None:
            raise violation("action_not_declared", _("the character's turn is not running"), "action_index")
        return {"turn": None, "action_index": None}
    turn = guards.own_turn(ctx, character_id)
    if free_action:
        return {"turn": turn, "action_index": None}
    guards.action_slot(ctx, turn, action_index)
    return {"turn": turn, "action_index": action_index}


def running_turn_of(ctx: Ctx, character_id: str) -> dict[str, Any] | None:
    """The roller's own declared turn when one is in progress (for the running penalty of reactions)."""
    enc = ctx.encounter
    if enc is None or enc["current_turn"] != character_id:
        return None
    turn = enc["participants"][character_id]["turn"]
    return turn if turn and turn["status"] == "acting" else None
