"""Resolving a test (spec 4.2 resolve_test phases B–E, 5.1): roll, accept, finalize and consequences."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import checks, damage, derived, guards, health, recovery
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraCriticalNoted,
    IskraGloryUsed,
    IskraHazardHit,
    IskraTestResolved,
    IskraTestThrown,
)

SUCCESSES = ("success", "critical_success")


def outcome(ctx: Ctx, t: dict[str, Any]) -> str | None:
    """Phase D. Criticals depend only on attribute + modifiers (L28–L32); there is no natural-10 rule."""
    s = t["s0"] + t["adj"]
    basis = s if ctx.options.focus_adjust_counts_for_critical else t["s0"]  # 7-B5
    if basis >= 9:
        return "critical_success"
    if basis < 0:
        return "critical_failure"
    if t["roll"] is None:
        return None
    return "success" if t["roll"] + s >= 10 else "failure"


def post_roll_open(ctx: Ctx, t: dict[str, Any]) -> bool:
    """Whether any post-roll PS use is still possible; if not, the test finalizes by itself."""
    fp = ctx.characters[t["character_id"]]["focus_points"]
    can_reroll = not t["rerolled"] and fp >= ctx.options.reroll_cost_fp
    can_adjust = ctx.options.focus_adjust_after_roll and fp >= 1
    return ctx.characters[t["character_id"]]["status"] == "alive" and (can_reroll or can_adjust)


def throw(ctx: Ctx, t: dict[str, Any], event: str, **extra: Any) -> None:
    die = ctx.thrown().roll(10, purpose=f"{t['purpose']}:{t['attribute']}")
    t["roll"] = die.face
    t["rolls"].append(die.face)
    t["s"] = t["s0"] + t["adj"]
    t["stage"] = "post_roll"  # the event reports the test as it stands after the die
    checks.emit_test(ctx, event, IskraTestThrown, t, dice=[die.to_dict()], roll=die.face, **extra)


def after_roll(ctx: Ctx, t: dict[str, Any]) -> None:
    if not post_roll_open(ctx, t):
        finalize(ctx, t)


def finalize(ctx: Ctx, t: dict[str, Any]) -> None:
    result = outcome(ctx, t)
    if result is None:
        raise RuntimeError(f"test {t['id']} is finalized before its die is thrown")
    t["outcome"], t["stage"] = result, "closed"
    t["s"] = t["s0"] + t["adj"]
    t["total"] = None if t["roll"] is None else t["roll"] + t["s"]
    checks.emit_test(ctx, "test_resolved", IskraTestResolved, t, outcome=result)
    ctx.table["last_test"] = t
    cid = t["character_id"]
    sheet = ctx.characters[cid]
    exempt = t["purpose"] == "recovery" and not ctx.options.deaths_door_regen_test_can_kill  # 7-B11
    if result not in SUCCESSES and derived.deaths_door(sheet) and not exempt:
        health.kill(ctx, cid, "failed_test_on_deaths_door", test_id=t["id"])  # L66 "dowolnym ... teście"
    pending = ctx.table["pending"]
    if pending is t:
        ctx.table["pending"] = None
    if t["purpose"] == "dodge":
        damage.after_dodge(ctx, pending, result)
    elif t["purpose"] == "attack":
        _attack_consequence(ctx, t, result)
    elif t["purpose"] == "recovery":
        recovery.after_test(ctx, t, result)


def _attack_consequence(ctx: Ctx, t: dict[str, Any], result: str) -> None:
    atk = t["attack"]
    if result not in SUCCESSES:
        return  # 7-B33: a critical failure's exposure is a GM note (critical_note), never automatic
    bonus = atk["critical_bonus_wounds"] if result == "critical_success" else 0  # L30 "dodatkowa Rana"
    target = atk["target_id"]
    if atk["target_kind"] == "hazard":
        ctx.emit(
            "hazard_hit",
            IskraHazardHit(
                participant_id=target, test_id=t["id"], wounds=None if atk["wounds"] is None else atk["wounds"] + bonus
            ),
        )
        return
    if ctx.characters[target]["status"] != "alive":
        return
    source = {
        "kind": "attack",
        "attacker_id": t["character_id"],
        "test_id": t["id"],
        "mode": atk["mode"],
        "dodge_choice": atk.get("dodge_choice"),
        "critical_bonus_wounds": bonus,
    }
    damage.incoming(ctx, target, None if atk["wounds"] is None else atk["wounds"] + bonus, source)


# --- moves ---------------------------------------------------------------------------------------------


def roll(ctx: Ctx, a: Any) -> None:
    t = checks.active(ctx, a.test_id)
    guards.owner(ctx, t["character_id"])
    checks.stage(t, "pre_roll")
    throw(ctx, t, "test_rolled")
    after_roll(ctx, t)


def accept_test(ctx: Ctx, a: Any) -> None:
    t = checks.active(ctx, a.test_id)
    guards.owner(ctx, t["character_id"])
    checks.stage(t, "pre_roll", "post_roll")
    if t["stage"] == "pre_roll" and outcome(ctx, t) is None:
        # S sums NPC attributes and hidden modifiers on a secret test: a player hears only that a roll is due.
        s = "S" if t["secret"] and not ctx.actor.is_gm else f"S = {t['s0'] + t['adj']}"
        raise violation(
            "roll_required", _("{s} is neither ≥ 9 nor < 0, so the d10 decides (spec 4.2); send roll", s=s), "type"
        )
    finalize(ctx, t)


def use_glory(ctx: Ctx, a: Any) -> None:
    t = checks.active(ctx, a.test_id)
    guards.owner(ctx, t["character_id"])
    guards.option(ctx, "glory_modifier_enabled")
    checks.stage(t, "pre_roll")
    if t["context"] not in ("influence", "intimidate", "persuade"):
        raise violation(
            "glory_not_applicable",
            _(
                "Glory counts only to influence, intimidate or persuade someone (L120); this test is {context}",
                context=t["context"],
            ),
            "test_id",
        )
    if t["glory_used"]:
        raise violation("glory_already_used", _("Glory is already added to this test"), "test_id")
    t["glory_used"] = True
    checks.recompute(ctx, t)
    checks.emit_test(ctx, "glory_used", IskraGloryUsed, t, glory=ctx.characters[t["character_id"]]["glory"])


def critical_note(ctx: Ctx, a: Any) -> None:
    """7-B33: critical effects are optional ('może'); the GM records them as text."""
    last = ctx.table["last_test"]
    if last is None or (a.test_id is not None and a.test_id != last["id"]):
        raise violation("no_pending_test", _("notes go on the most recently resolved test"), "test_id")
    last["critical_note"] = a.text
    ctx.emit("critical_noted", IskraCriticalNoted(test_id=last["id"], outcome=last["outcome"], text=a.text))
