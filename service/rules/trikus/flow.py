"""The activity state machine (spec 5.2–5.4): after every move, advance until someone must decide.

Each step returns True when it moved the activity on (so the loop runs again) and False when the
activity waits for a move. Phases: pool_formation | setup -> [round_pool ->] contest -> boom_review ->
cancellation | declarations -> attack_rolls -> consequences -> lost_line_choice -> close.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.rules.trikus import activity, boom, combat, combat_round, consequences, contest, opposed
from service.rules.trikus.context import Ctx
from service.rules.trikus.events_model import TrikusCombatEnded, TrikusContestResolved


def can_last_chance(ctx: Ctx, cid: str) -> bool:
    """A13: the prompt is only worth making to a player who holds a light token."""
    sheet = ctx.characters[cid]
    return ctx.options.last_chance_prompt and sheet["status"] == "active" and sheet["light_tokens"]["active"] > 0


def proceed(ctx: Ctx) -> None:
    for _ in range(10_000):  # every step consumes a die or a decision: always halts
        act = ctx.activity
        if act is None or not STEPS[act["phase"]](ctx, act):
            return
    raise RuntimeError("trikus activity did not settle")  # pragma: no cover - a bug, never a rule


def _wait(ctx: Ctx, act: dict[str, Any]) -> bool:
    return False


def _round_pool(ctx: Ctx, act: dict[str, Any]) -> bool:
    if not combat.round_pool_complete(act):
        return False
    combat.start_round(ctx, act)
    return True


def _contest(ctx: Ctx, act: dict[str, Any]) -> bool:
    if not contest.settle(ctx, act, lambda cid: can_last_chance(ctx, cid)):
        return False
    c = act["contest"]
    for p in c["pairs"]:
        for who in (p["a"], p["b"]):
            if who != "gm":
                act["results"][who] = contest.result_for(p, who)
                act["final_values"][who] = p["final_value"]
    ctx.emit(
        "contest_resolved",
        TrikusContestResolved(
            activity_id=act["id"],
            round=act.get("round"),
            results=dict(act["results"]),
            final_values=dict(act["final_values"]),
        ),
    )
    act["phase"], act["reviewed"] = "boom_review", False
    return True


def _boom_review(ctx: Ctx, act: dict[str, Any]) -> bool:
    if not act["reviewed"] and boom.review_needed(ctx, act):
        return False
    if act["kind"] == "combat":
        combat_round.init_declarations(ctx, act)
        act["phase"] = "declarations"
    else:
        act["queue"] = opposed.cancellation_queue(act)
        act["phase"] = "cancellation"
    return True


def _cancellation(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["queue"] and opposed.cancellable(act):
        return False
    act["queue"] = []  # nothing left to cancel: the rest keep (spec 5.3)
    act["phase"] = "consequences"
    return True


def _declarations(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["queue"]:
        return False
    if ctx.options.adv_combat_difficulty:
        combat_round.init_rolls(act)
        act["phase"] = "attack_rolls"
    else:
        act["phase"] = "consequences"
    return True


def _rolls(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["queue"]:
        # ATTACK_ROLLS then GM_ROLLS (spec 5.4): the phase names whose roll comes next.
        act["phase"] = "attack_rolls" if act["queue"][0]["kind"] == "attack" else "gm_rolls"
        return False
    act["phase"] = "consequences"
    return True


def _consequences(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["kind"] == "combat":
        combat_round.apply_round(ctx, act)
    else:
        opposed.apply(ctx, act)
    consequences.resolve_line_losses(ctx, act)  # after the dark checks, before the reset (spec 4.6)
    act["phase"] = "lost_line_choice"
    return True


def _line_choice(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act.get("line_choices"):
        return False
    act["phase"] = "close"
    return True


def _close(ctx: Ctx, act: dict[str, Any]) -> bool:
    if act["kind"] == "combat":
        outcome = combat_round.end_check(ctx, act)
        if outcome is None:
            return True  # next round's pool formation
        act["outcome"] = outcome
        ctx.emit(
            "combat_ended",
            TrikusCombatEnded(activity_id=act["id"], outcome=outcome, rounds=act["round"], gm_pool=act["gm_pool"]),
        )
    else:
        outcome = opposed.outcome(act)
    activity.close(ctx, act, outcome)
    return True


def _no_test(ctx: Ctx, act: dict[str, Any]) -> bool:
    activity.close(ctx, act, "no_test")  # everyone opted out (spec 4.21)
    return True


STEPS: dict[str, Callable[[Ctx, dict[str, Any]], bool]] = {
    "pool_formation": _wait,
    "setup": _wait,
    "round_pool": _round_pool,
    "contest": _contest,
    "boom_review": _boom_review,
    "cancellation": _cancellation,
    "declarations": _declarations,
    "attack_rolls": _rolls,
    "gm_rolls": _rolls,
    "consequences": _consequences,
    "lost_line_choice": _line_choice,
    "close": _close,
    "no_test": _no_test,
}
