"""Enemies: kinds, TN and Wounds, hits, what players may know of them (seed §5.4–5.5, spec 3.3, 4.8.3)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.stepdice import guards
from service.rules.stepdice.actions_gm import StepDiceAddEnemy, StepDiceEnemyMove, StepDiceRevealEnemy
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import (
    StepDiceEnemyDefeated,
    StepDiceEnemyMoved,
    StepDiceEnemyRecord,
    StepDiceEnemyWounded,
)
from service.rules.move import without

DEFAULTS = {"minion": (6, 1), "elite": (8, 2), "boss": (12, 3)}  # (TN, Wounds): L263–L265, L275–L277


def public(enemy: dict[str, Any]) -> dict[str, Any]:
    """What players may know (spec 8): kind and TN once revealed; an elite's or boss's Wounds only if revealed."""
    out = {"id": enemy["id"], "name": enemy["name"], "state": enemy["state"], "revealed": enemy["revealed"]}
    if enemy["position_revealed"]:
        out["position"] = enemy["position"]
    if enemy["revealed"]:
        out.update(kind=enemy["kind"], tn=enemy["tn"])
    if (enemy["revealed"] and enemy["kind"] == "minion") or enemy["wounds_revealed"]:
        out.update(wounds_max=enemy["wounds_max"], wounds_taken=enemy["wounds_taken"])
    return out


def get(ctx: Ctx, enemy_id: str, field: str = "enemy_id") -> dict[str, Any]:
    enc = guards.encounter(ctx)
    enemy = enc["enemies"].get(enemy_id)
    if enemy is None:
        raise violation("unknown_enemy", _("no enemy {enemy_id!r} in this encounter", enemy_id=enemy_id), field)
    return enemy


def active(ctx: Ctx, enemy_id: str, field: str = "enemy_id") -> dict[str, Any]:
    enemy = get(ctx, enemy_id, field)
    if enemy["state"] == "defeated":
        raise violation("enemy_defeated", _("{enemy_id} is already defeated", enemy_id=enemy_id), field)
    return enemy


def add_enemy(ctx: Ctx, a: StepDiceAddEnemy) -> None:
    enc = guards.encounter(ctx)
    if a.kind == "elite":
        guards.option(ctx, "use_elites", "kind")  # L282: a table may play without elites
    if a.position is not None:
        guards.option(ctx, "use_grid", "position")
    taken = enc["enemies"].keys() | enc["pcs"].keys() | ctx.characters.keys()
    eid = a.enemy_id
    while eid is None or (a.enemy_id is None and eid in taken):
        eid = ctx.next_id("enemy", "e")
    if eid in taken:
        raise violation("duplicate_id", _("{eid!r} already names a combatant", eid=eid), "enemy_id")
    tn, wounds = DEFAULTS[a.kind]
    deviations = []  # 7-A22: an override of the "core" values is allowed and logged
    if a.tn is not None and a.tn != tn:
        deviations.append({"field": "tn", "default": tn, "value": a.tn})
        tn = a.tn
    if a.wounds_max is not None and a.wounds_max != wounds:
        deviations.append({"field": "wounds_max", "default": wounds, "value": a.wounds_max})
        wounds = a.wounds_max
    enemy = {
        "id": eid,
        "name": a.name,
        "kind": a.kind,
        "tn": tn,
        "wounds_max": wounds,
        "wounds_taken": 0,
        "state": "active",
        "position": a.position.model_dump() if a.position else None,
        "revealed": a.revealed,
        "wounds_revealed": a.wounds_revealed,
        "position_revealed": a.position_revealed,
        "deviations": deviations,
    }
    enc["enemies"][eid] = enemy
    ctx.emit(
        "enemy_added",
        StepDiceEnemyRecord(enemy_id=eid, **enemy),
        redacted=StepDiceEnemyRecord(enemy_id=eid, **public(enemy)),
    )


def reveal(
    ctx: Ctx,
    enemy: dict[str, Any],
    *,
    identity: bool = False,
    wounds: bool = False,
    position: bool = False,
    cause: dict[str, Any] | None = None,
) -> None:
    changed = {
        k
        for k, on in (("revealed", identity), ("wounds_revealed", wounds), ("position_revealed", position))
        if on and not enemy[k]
    }
    if not changed:
        return
    for k in changed:
        enemy[k] = True
    ctx.emit("enemy_revealed", StepDiceEnemyRecord(enemy_id=enemy["id"], **public(enemy), **(cause or {})))


def reveal_enemy(ctx: Ctx, a: StepDiceRevealEnemy) -> None:
    reveal(ctx, get(ctx, a.enemy_id), identity=a.identity, wounds=a.wounds, position=a.position)


def apply_hit(ctx: Ctx, enemy_id: str, wounds: int, test_id: str) -> None:
    """Spec 4.8.3: a minion goes down on any hit; elites and bosses take Wounds, overflow discarded (7-A51)."""
    enemy = ctx.running()["enemies"][enemy_id]
    if enemy["state"] == "defeated":
        return
    before = enemy["wounds_taken"]
    enemy["wounds_taken"] = (
        enemy["wounds_max"] if enemy["kind"] == "minion" else min(enemy["wounds_max"], before + wounds)
    )
    data = StepDiceEnemyWounded(
        enemy_id=enemy_id,
        test_id=test_id,
        wounds=wounds,
        wounds_taken=enemy["wounds_taken"],
        wounds_max=enemy["wounds_max"],
        overflow=max(0, before + wounds - enemy["wounds_max"]),
    )
    hidden = enemy["kind"] != "minion" and not enemy["wounds_revealed"]
    ctx.emit(
        "enemy_wounded",
        data,
        redacted=without(data, "wounds", "wounds_taken", "wounds_max", "overflow") if hidden else None,
    )
    if enemy["wounds_taken"] >= enemy["wounds_max"]:
        enemy["state"] = "defeated"
        ctx.emit("enemy_defeated", StepDiceEnemyDefeated(enemy_id=enemy_id, test_id=test_id))


def enemy_move(ctx: Ctx, a: StepDiceEnemyMove) -> None:
    """7-A15: enemy movement is GM-declared and not validated."""
    guards.encounter(ctx, "enemy_phase")
    enemy = active(ctx, a.enemy_id)
    guards.option(ctx, "use_grid", "to")
    frm, enemy["position"] = enemy["position"], a.to.model_dump()
    ctx.emit(
        "enemy_moved",
        StepDiceEnemyMoved(enemy_id=enemy["id"], from_=frm, to=enemy["position"], description=a.description),
        gm_only=not enemy["position_revealed"],
    )
