"""Inside a turn (seed 1.3, spec §4.20–§4.26): taking and re-declaring actions, running, moving, hazards,
jumping and readying items. Movement is counted in inches against the turn's Pace (+ the run roll)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from service.i18n.message import _, _n
from service.rules.action_deck import checks, guards, turns
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.movement import (
    as_json,
    jump_base,
    jump_bonus,
    jump_max,
    segment_cost,
    sustained_run,
)
from service.rules.action_deck.events_model import (
    ActionDeckHazardCriticalFailure,
    ActionDeckHazardFailed,
    ActionDeckItemReadied,
    ActionDeckJumped,
    ActionDeckMoved,
    ActionDeckRan,
    ActionDeckRanOutsideCombat,
    ActionDeckTurnRedeclared,
)

ATHLETICS = "athletics"


def take_action(ctx: Ctx, a) -> None:
    guards.owner(ctx, a.character_id)
    turn = guards.own_turn(ctx, a.character_id)
    guards.action_slot(ctx, turn, a.action_index)
    turns.mark_taken(ctx, a.character_id, turn, a.action_index, a.description or "action")


def redeclare(ctx: Ctx, a) -> None:
    """B16: the remaining actions may change, the total stays ≤ 3, the penalty never decreases."""
    guards.owner(ctx, a.character_id)
    turn = guards.own_turn(ctx, a.character_id)
    if not turn["may_redeclare"]:
        raise violation("cannot_redeclare", _("only an interrupted character re-declares, once it resumes (seed 1.2)"))
    taken = [d for d in turn["declared"] if d["taken"]]
    total = len(taken) + len(a.actions)
    o = ctx.options
    if total > o.multi_action_max:
        raise violation(
            "too_many_actions",
            _n(
                "at most {multi_action_max} action per turn (seed 1.3): {count} taken + {count_2} new",
                "at most {multi_action_max} actions per turn (seed 1.3): {count} taken + {count_2} new",
                o.multi_action_max,
                count=len(taken),
                count_2=len(a.actions),
                multi_action_max=o.multi_action_max,
            ),
            "actions",
        )
    turn["declared"] = taken + [{"kind": x.kind, "note": x.note, "taken": False} for x in a.actions]
    turn["multi_action_penalty"] = min(turn["multi_action_penalty"], o.multi_action_step * (total - 1))
    turn["may_redeclare"] = False
    ctx.emit(
        "turn_redeclared",
        ActionDeckTurnRedeclared(
            character_id=a.character_id, actions=turn["declared"], multi_action_penalty=turn["multi_action_penalty"]
        ),
    )


def run(ctx: Ctx, a) -> None:
    sheet = guards.owner(ctx, a.character_id)
    if ctx.slot(a.character_id) is None:
        _run_outside_combat(ctx, a.character_id, sheet)
        return
    turn = guards.own_turn(ctx, a.character_id)
    if turn["ran"]:
        raise violation("already_ran", _("running is once per turn (seed 1.3)"))
    if turn["rolled"]:
        raise violation(
            "run_must_be_declared", _("the run is declared with the turn's actions, before its first roll (B19)")
        )
    roll = ctx.roller.plain(sheet["running_die"], "running_die")  # no ace (seed 1.3)
    turn["ran"], turn["run_roll"] = True, roll
    turn["turn_pace"] += roll
    ctx.emit(
        "ran",
        ActionDeckRan(character_id=a.character_id, run_roll=roll, turn_pace=turn["turn_pace"], dice=ctx.roller.take()),
    )


def _run_outside_combat(ctx: Ctx, cid: str, sheet: dict[str, Any]) -> None:
    """Seed 1.3, AD-E3: out of combat there is no run roll; the speed and how long it lasts follow from the
    sheet (twice Pace + the running die's top face, for half the Vigor die in minutes)."""
    guards.alive(ctx, cid)
    if "vigor" not in sheet["attributes"]:
        raise violation(
            "no_vigor_die",
            _(
                "{name} has no Vigor die: how long a run lasts outside combat is half of it (seed 1.3)",
                name=sheet["name"],
            ),
        )
    vigor = sheet["attributes"]["vigor"]["sides"]
    out = sustained_run(sheet["pace"], sheet["running_die"], vigor)
    ctx.emit(
        "ran_outside_combat",
        ActionDeckRanOutsideCombat(
            character_id=cid,
            pace=sheet["pace"],
            running_die=sheet["running_die"],
            vigor_die=vigor,
            inches_per_turn=out["inches_per_turn"],
            minutes=as_json(out["minutes"]),
        ),
    )


def _cost(ctx: Ctx, segments: list) -> Fraction:
    mode = ctx.options.movement_cost_mode
    return sum((segment_cost(Fraction(s.inches), s.mode, s.difficult_terrain, mode) for s in segments), Fraction(0))


def _budget(ctx: Ctx, turn: dict[str, Any], cost: Fraction) -> None:
    left = turn["turn_pace"] - Fraction(turn["movement_used"])
    if cost > left:
        raise violation(
            "exceeds_pace",
            _(
                'this costs {cost}" of Pace; {left}" are left this turn (seed 1.3)',
                cost=as_json(cost),
                left=as_json(left),
            ),
        )


def _charge(ctx: Ctx, character_id: str, cost: Fraction, what: dict[str, Any]) -> None:
    slot = ctx.slot(character_id)
    turn = slot["turn"] if slot else None
    if turn is not None:
        turn["movement_used"] = as_json(Fraction(turn["movement_used"]) + cost)
    ctx.emit(
        "moved",
        ActionDeckMoved(
            character_id=character_id,
            cost=as_json(cost),
            **what,
            movement_used=turn["movement_used"] if turn else None,
            turn_pace=turn["turn_pace"] if turn else None,
        ),
    )


def move(ctx: Ctx, a) -> None:
    guards.owner(ctx, a.character_id)
    turn = guards.own_turn(ctx, a.character_id)
    cost = _cost(ctx, a.segments)
    _budget(ctx, turn, cost)
    _charge(ctx, a.character_id, cost, {"segments": [s.model_dump() for s in a.segments]})


def hazard_test(ctx: Ctx, a) -> None:
    """§4.25 / B22: the GM calls Athletics for a dangerous move; the move happens only on a success."""
    guards.gm(ctx, _("the GM calls movement hazards (seed 1.3)"))
    guards.alive(ctx, a.character_id)
    turn = turns.running_turn_of(ctx, a.character_id)
    cost = _cost(ctx, a.segments)
    if turn is not None:
        _budget(ctx, turn, cost)
    modes = {s.mode for s in a.segments}
    default = "fall" if "climb" in modes else "no_breath" if "swim" in modes else "fatigue"
    context = {
        "segments": [s.model_dump() for s in a.segments],
        "cost": as_json(cost),
        "consequence": a.critical_consequence or default,
    }
    checks.build(
        ctx,
        roller_id=a.character_id,
        trait=ATHLETICS,
        where={"turn": None, "action_index": None},
        purpose="hazard",
        gm_mods=a.modifiers,
        context=context,
    )


def hazard_final(ctx: Ctx, test: dict[str, Any]) -> None:
    cid, c = test["roller_id"], test["context"]
    if test["critical_failure"]:
        sheet = ctx.characters[cid]
        if c["consequence"] == "fatigue":
            sheet["fatigue"] += 1  # bumps and bruises; a fall or lost breath is recorded (the seed has no rule)
        ctx.emit(
            "hazard_critical_failure",
            ActionDeckHazardCriticalFailure(character_id=cid, consequence=c["consequence"], fatigue=sheet["fatigue"]),
        )
    elif test["result"]["success"]:
        _charge(ctx, cid, Fraction(c["cost"]), {"segments": c["segments"], "hazard_test": test["id"]})
    else:
        ctx.emit("hazard_failed", ActionDeckHazardFailed(character_id=cid, test_id=test["id"], moved=False))


def jump(ctx: Ctx, a) -> None:
    guards.owner(ctx, a.character_id)
    turn = guards.own_turn(ctx, a.character_id)
    run_up = Fraction(a.run_up)
    athletics = a.athletics_action_index is not None
    longest = jump_max(a.direction, run_up, athletics)
    distance = longest if a.distance is None else Fraction(a.distance)
    if distance > longest:
        raise violation(
            "jump_too_far",
            _('at most {longest}" {direction} here (seed 1.3)', longest=as_json(longest), direction=a.direction),
            "distance",
        )
    _budget(ctx, turn, run_up + distance)  # "Skakanie nie pozwala jednak przekroczyć limitu ruchu"
    base = jump_base(a.direction, run_up)
    context = {
        "direction": a.direction,
        "run_up": as_json(run_up),
        "distance": as_json(distance),
        "base": as_json(base),
    }
    if not athletics:
        _jumped(ctx, a.character_id, context, min(distance, base))
        return
    guards.action_slot(ctx, turn, a.athletics_action_index, "athletics_action_index")
    checks.build(
        ctx,
        roller_id=a.character_id,
        trait=ATHLETICS,
        purpose="jump",
        context=context,
        where={"turn": turn, "action_index": a.athletics_action_index},
    )


def _jumped(ctx: Ctx, cid: str, c: dict[str, Any], achieved: Fraction, test_id: str | None = None) -> None:
    ctx.emit(
        "jumped",
        ActionDeckJumped(character_id=cid, direction=c["direction"], distance=as_json(achieved), test_id=test_id),
    )
    _charge(ctx, cid, Fraction(c["run_up"]) + achieved, {"jump": True})


def jump_final(ctx: Ctx, test: dict[str, Any]) -> None:
    c, r = test["context"], test["result"]
    bonus = jump_bonus(c["direction"], r["success"], r["raises"])  # B23: failure still jumps the base
    _jumped(ctx, test["roller_id"], c, min(Fraction(c["distance"]), Fraction(c["base"]) + bonus), test["id"])


def ready_item(ctx: Ctx, a) -> None:
    """Two items at hand per turn are free; more, or harder to reach, take a declared action (seed 1.3)."""
    sheet = guards.owner(ctx, a.character_id)
    guards.gm_fields(ctx, a, "at_hand")
    turn = guards.own_turn(ctx, a.character_id)
    gear = {g["name"].casefold(): g for g in sheet.get("gear", [])}
    item = gear.get(a.item.casefold())
    at_hand = a.at_hand if a.at_hand is not None else bool(item and item["at_hand"])
    free = at_hand and turn["free_items_readied"] < ctx.options.free_ready_items_per_turn
    if a.action_index is None:
        if not free:
            detail = (
                _("{item} needs a declared action: not at hand", item=a.item)
                if not at_hand
                else _("{item} needs a declared action: two items were already readied free", item=a.item)
            )
            raise violation("action_required", detail, "action_index")
        turn["free_items_readied"] += 1
    else:
        guards.action_slot(ctx, turn, a.action_index)
    ctx.emit(
        "item_readied",
        ActionDeckItemReadied(
            character_id=a.character_id, item=a.item, put_away=a.put_away, free=a.action_index is None, at_hand=at_hand
        ),
    )
    if a.action_index is not None:
        turns.mark_taken(ctx, a.character_id, turn, a.action_index, f"ready {a.item}")


checks.FINAL_HOOKS["hazard"] = hazard_final
checks.FINAL_HOOKS["jump"] = jump_final
