"""Opening, joining, starting and aborting activities (spec 5.2–5.4)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import activity, combat, opposed
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import TrikusActivityAborted, TrikusCombatAdjusted


def open_test(ctx: Ctx, a: Any) -> None:
    opposed.open_test(ctx, a)


def open_pvp_test(ctx: Ctx, a: Any) -> None:
    opposed.open_pvp(ctx, a)


def open_combat(ctx: Ctx, a: Any) -> None:
    combat.open_combat(ctx, a)


def join(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "pool_formation", "setup")
    (combat.join if act["kind"] == "combat" else opposed.join)(ctx, act, a)


def bad_feeling(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "pool_formation", "setup")
    activity.invited(ctx, act, a.character_id)
    activity.bad_feeling(ctx, act, a.character_id, a.description, a.intent)


def start(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "pool_formation", "setup")
    missing = [c for c in act["invited"] if c not in act["answers"]]
    if missing:
        raise violation("not_all_answered", _("waiting for {missing} to join or opt out", missing=", ".join(missing)))
    (combat.start if act["kind"] == "combat" else opposed.start)(ctx, act)


def declare_round(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "round_pool")
    combat.declare(ctx, act, a)


def abort_activity(ctx: Ctx, a: Any) -> None:
    """Administrative (spec 5.0): closes without further rules effects; what already happened stands."""
    act = activity.require(ctx)
    ctx.emit("activity_aborted", TrikusActivityAborted(activity_id=act["id"], phase=act["phase"], reason=a.reason))
    activity.close(ctx, act, "aborted")


def adjust_combat(ctx: Ctx, a: Any) -> None:
    act = activity.require(ctx, "round_pool")
    if act["gm_pool"] + a.gm_pool_delta < 1:
        raise violation("no_dice", _("the GM keeps at least one die while the combat goes on"), "gm_pool_delta")
    act["gm_pool"] += a.gm_pool_delta
    if a.powerful_opponent is not None:
        act["powerful_opponent"] = a.powerful_opponent
    ctx.emit(
        "combat_adjusted",
        TrikusCombatAdjusted(
            activity_id=act["id"],
            gm_pool_delta=a.gm_pool_delta,
            gm_pool=act["gm_pool"],
            powerful_opponent=act["powerful_opponent"],
            reason=a.reason,
        ),
    )


HANDLERS = {
    "open_test": open_test,
    "open_pvp_test": open_pvp_test,
    "open_combat": open_combat,
    "join": join,
    "bad_feeling": bad_feeling,
    "start": start,
    "declare_round": declare_round,
    "abort_activity": abort_activity,
    "adjust_combat": adjust_combat,
}
