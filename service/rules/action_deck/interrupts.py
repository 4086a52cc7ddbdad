"""Interrupting (seed 1.2, spec §4.19, B6, B15): a holder, or a Joker holder, cuts into the running turn.

Both test Athletics, the holder as the active party; the winner acts first. A Joker holder needs no test
unless `joker_interrupt_needs_test`. The hold is used either way (B15): losing means acting right after
the target's turn.
"""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.action_deck import guards, opposed, turns
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import ActionDeckInterruptDeclared, ActionDeckInterruptResolved

ATHLETICS = "athletics"


def interrupt(ctx: Ctx, a) -> None:
    holder = a.character_id
    guards.owner(ctx, holder)
    guards.alive(ctx, holder)
    enc = guards.encounter(ctx, "countdown")
    slot = guards.participant(ctx, holder)
    guards.no_interrupt(ctx)
    target = enc["current_turn"]
    if target is None or target == holder:
        raise violation(
            "nothing_to_interrupt", _("no other character's turn is running; claim your turn with declare_turn instead")
        )
    joker = slot["joker_active"] and not slot["acted"]
    if not (slot["on_hold"] or joker):
        raise violation("cannot_interrupt", _("only a character on hold or holding a Joker may interrupt (seed 1.2)"))
    slot["on_hold"] = False
    if joker and not ctx.options.joker_interrupt_needs_test:
        ctx.emit(
            "interrupt_declared", ActionDeckInterruptDeclared(holder=holder, target=target, test=False, reason="joker")
        )
        turns.start_before(ctx, holder, target)
        return
    ctx.emit("interrupt_declared", ActionDeckInterruptDeclared(holder=holder, target=target, test=True))
    enc["pending_interrupt"] = {"holder": holder, "target": target, "opposed_id": None}
    record = opposed.start(
        ctx,
        active=holder,
        trait=ATHLETICS,
        defender=target,
        defender_trait=ATHLETICS,
        where={"turn": None, "action_index": None},
        purpose="interrupt",
        requires_tn=ctx.options.interrupt_tie_rule == "defender_wins",
    )
    if enc["pending_interrupt"] is not None:  # not already settled by a critical failure
        enc["pending_interrupt"]["opposed_id"] = record["id"]


def resolved(ctx: Ctx, record: dict[str, Any], result: dict[str, Any]) -> None:
    enc = ctx.encounter
    holder, target = record["active_id"], record["defender_id"]
    if enc is None:
        return
    enc["pending_interrupt"] = None
    if enc["current_turn"] != target:
        return  # the target's turn ended meanwhile (GM override); the hold was used (B15)
    if result["winner"] == "active":
        outcome = "holder_first"
    elif result["winner"] == "tie":
        outcome = "simultaneous"  # the target's current action stands, then the holder acts
        enc["after_current_action"] = holder
    else:
        outcome = "target_first"  # B15: the target finishes its turn, the holder acts right after
        enc["queued"].append(holder)
    ctx.emit("interrupt_resolved", ActionDeckInterruptResolved(holder=holder, target=target, outcome=outcome))
    if outcome == "holder_first":
        turns.start_before(ctx, holder, target)


opposed.RESOLVED_HOOKS["interrupt"] = resolved
