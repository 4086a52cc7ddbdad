"""Opposed tests (seed 1.4, spec §4.7, §5.6): the active party rolls (and rerolls) first and needs TN 4;
the defender's roll locks it; equal or higher foils the action; raises count from the loser's result.

Stages: active_rolling → (active fails: resolved) | awaiting_defender → defender_rolling → resolved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.i18n.message import _
from service.rules.action_deck import checks, guards, turns
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckOpposedAwaitingDefender,
    ActionDeckOpposedResolved,
    ActionDeckOpposedTestStarted,
)

RESOLVED_HOOKS: dict[str, Callable[[Ctx, dict[str, Any], dict[str, Any]], None]] = {}  # purpose -> effect


def start(
    ctx: Ctx,
    *,
    active: str,
    trait: str,
    defender: str,
    defender_trait: str,
    where: dict[str, Any],
    purpose: str = "contest",
    requires_tn: bool = True,
    modifiers: list | None = None,
    defender_modifiers: list | None = None,
) -> dict[str, Any]:
    oid = ctx.next_id("opposed", "o")
    record = {
        "id": oid,
        "purpose": purpose,
        "active_id": active,
        "trait": trait,
        "defender_id": defender,
        "defender_trait": defender_trait,
        "defender_modifiers": [m if isinstance(m, dict) else m.model_dump() for m in (defender_modifiers or [])],
        "active_test": None,
        "defender_test": None,
        "stage": "active_rolling",
        "requires_tn": requires_tn,
    }
    ctx.table["opposed"][oid] = record
    ctx.emit(
        "opposed_test_started",
        ActionDeckOpposedTestStarted(
            **{
                k: record[k]
                for k in ("id", "purpose", "active_id", "trait", "defender_id", "defender_trait", "requires_tn")
            }
        ),
    )
    test = checks.build(
        ctx,
        roller_id=active,
        trait=trait,
        where=where,
        gm_mods=modifiers,
        purpose="opposed_part",
        opposed=(oid, "active"),
    )
    if oid in ctx.table["opposed"]:  # a critical failure may already have resolved it
        record["active_test"] = test["id"]
    return record


def on_final(ctx: Ctx, test: dict[str, Any]) -> None:
    record = ctx.table["opposed"].get(test["opposed_id"])
    if record is None:
        return
    if test["role"] == "active":
        record["active_test"] = test["id"]
        failed = test["critical_failure"] or (record["requires_tn"] and not test["result"]["success"])
        if failed:
            _resolve(ctx, record, test, None)  # B31: the defender does not roll
        else:
            record["stage"] = "awaiting_defender"
            ctx.emit(
                "opposed_awaiting_defender",
                ActionDeckOpposedAwaitingDefender(
                    opposed_id=record["id"], defender_id=record["defender_id"], active_total=test["result"]["total"]
                ),
            )
    else:
        _resolve(ctx, record, ctx.table["tests"][record["active_test"]], test)


def defend(ctx: Ctx, a) -> None:
    record = ctx.table["opposed"].get(a.opposed_id)
    if record is None:
        raise violation(
            "unknown_test", _("no opposed test {opposed_id!r} is waiting", opposed_id=a.opposed_id), "opposed_id"
        )
    guards.owner(ctx, record["defender_id"], "opposed_id")
    if record["stage"] not in ("active_rolling", "awaiting_defender"):
        raise violation("not_awaiting_defender", _("the defender has already rolled"), "opposed_id")
    active = ctx.table["tests"][record["active_test"]]
    if active["state"] == "rolled":
        checks.finalize(ctx, active, "defender_rolls")  # the defender's roll locks the active result (§4.7)
        if record["id"] not in ctx.table["opposed"]:
            return  # the active party failed TN 4: nothing for the defender to roll
    record["stage"] = "defender_rolling"
    test = checks.build(
        ctx,
        roller_id=record["defender_id"],
        trait=record["defender_trait"],
        where={"turn": None, "action_index": None},
        gm_mods=record["defender_modifiers"],
        purpose="opposed_part",
        opposed=(record["id"], "defender"),
    )
    if record["id"] in ctx.table["opposed"]:
        record["defender_test"] = test["id"]


def _resolve(ctx: Ctx, record: dict[str, Any], active: dict[str, Any], defender: dict[str, Any] | None) -> None:
    step = ctx.options.raise_step
    a_total = active["result"]["total"]
    d_total = defender["result"]["total"] if defender else None
    if defender is None:
        winner, raises = "defender", 0
    elif defender["critical_failure"]:
        winner, raises = "active", max(0, (a_total - d_total) // step)  # B31
    elif record["requires_tn"]:
        winner = "defender" if d_total >= a_total else "active"  # "tyle samo lub więcej"
        raises = abs(d_total - a_total) // step  # from the loser's result
    else:
        winner = "active" if a_total > d_total else "defender" if d_total > a_total else "tie"
        raises = abs(a_total - d_total) // step
    result = {
        "winner": winner,
        "winner_id": {"active": record["active_id"], "defender": record["defender_id"]}.get(winner),
        "raises": raises,
        "active_total": a_total,
        "defender_total": d_total,
        "active_failed": defender is None,
    }
    del ctx.table["opposed"][record["id"]]
    ctx.emit(
        "opposed_resolved",
        ActionDeckOpposedResolved(
            opposed_id=record["id"],
            purpose=record["purpose"],
            active_test=active["id"],
            defender_test=defender["id"] if defender else None,
            **result,
        ),
    )
    hook = RESOLVED_HOOKS.get(record["purpose"])
    if hook is not None:
        hook(ctx, record, result)


def opposed_test(ctx: Ctx, a) -> None:
    guards.owner(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    guards.gm_fields(ctx, a, "modifiers", "defender_modifiers")
    guards.alive(ctx, a.defender_id, "defender_id")
    where = turns.context(ctx, a.character_id, a.action_index, a.free_action)
    start(
        ctx,
        active=a.character_id,
        trait=a.trait,
        defender=a.defender_id,
        defender_trait=a.defender_trait,
        where=where,
        modifiers=a.modifiers,
        defender_modifiers=a.defender_modifiers,
    )


checks.FINAL_HOOKS["opposed"] = on_final
