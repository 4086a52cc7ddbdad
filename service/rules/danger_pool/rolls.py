"""One roll against the danger pool (spec §4.6–§4.8, §4.11, state machine §5.2):
declared → rolled (GM element window) → tie_pending* → resolved (or extraction_pending on a won bail-out)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.danger_pool import extraction, guards, pool, rounds
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.lifecycle import take_out
from service.rules.danger_pool.events_model import (
    DangerPoolActionRolled,
    DangerPoolDangerAdded,
    DangerPoolDangerRemovedHoldBack,
    DangerPoolDangerRerolledWithElement,
    DangerPoolProgressMarked,
    DangerPoolRollRef,
    DangerPoolRollResolved,
    DangerPoolStaminaLost,
    DangerPoolTieChoiceMade,
)


def compare(ctx: Ctx, roll: dict[str, Any]) -> None:
    """Danger 'tens' are ignored (§4.12); no live danger die counts as 0 (A14)."""
    live = [d for d in roll["danger_dice"] if d != ctx.top]
    roll["danger_max"] = max(live, default=0)
    roll["player_max"] = max(roll["player_dice"], default=0)
    roll["ignored"] = [i for i, d in enumerate(roll["danger_dice"]) if d == ctx.top]
    # A15: an auto-lost zero pool skips the comparison, so it can never tie.
    roll["tie"] = bool(roll["player_dice"]) and roll["player_max"] == roll["danger_max"]


def element_usable(ctx: Ctx, sc: dict[str, Any]) -> bool:
    limit = ctx.options.element_rerolls_per_element_per_scene
    return any(limit is None or e["rerolls_used"] < limit for e in sc["elements"])


def open_roll(ctx: Ctx, sc: dict[str, Any], cid: str, a: Any, kind: str) -> None:
    """Validate the declaration fully, then spend points, then roll player and danger dice (§4.1.2)."""
    sheet = ctx.characters[cid]
    p = pool.plan(ctx, sheet, a)
    pool.spend(ctx, cid, sheet, p["cp_spends"])
    player = [ctx.roll("player") for _ in range(p["dice_count"])]
    danger = [ctx.roll("danger") for _ in range(sc["danger_pool_size"])]
    roll = {
        "roll_id": ctx.next_id("roll", "roll-"),
        "scene_id": sc["id"],
        "round": sc["round"],
        "actor_id": cid,
        "kind": kind,
        "approach": a.approach,
        "risk_proposal": a.risk_proposal,
        **{k: v for k, v in p.items() if k != "dice_count"},
        "player_dice": [d.face for d in player],
        "danger_dice_rolls": [[d.face for d in danger]],
        "danger_dice": [d.face for d in danger],
        "tie_choices": [],
        "stupid_adds": 0,
        "outcome": None,
        "successes": 0,
        "effects": None,
        "state": "rolled",
    }
    compare(ctx, roll)
    sc["roll"] = roll
    sc["phase"] = "bail_out_roll" if kind == "bail_out" else "roll_open"
    # E2: both maxima are announced with every roll ("Мой максимум — восьмёрка!").
    ctx.emit(
        "action_rolled", DangerPoolActionRolled(**roll, character_id=cid, dice=[d.to_dict() for d in player + danger])
    )
    settle(ctx, sc)


def settle(ctx: Ctx, sc: dict[str, Any]) -> None:
    """The roll waits in `rolled` only while the GM could still reroll with an element (A13)."""
    if sc["roll"]["state"] == "rolled" and element_usable(ctx, sc):
        return
    advance(ctx, sc)


def advance(ctx: Ctx, sc: dict[str, Any]) -> None:
    roll = sc["roll"]
    compare(ctx, roll)
    if roll["tie"]:
        roll["state"] = "tie_pending"
        return
    resolve(ctx, sc, "win" if roll["player_dice"] and roll["player_max"] > roll["danger_max"] else "lose")


def resolve(ctx: Ctx, sc: dict[str, Any], outcome: str) -> None:
    """§4.8, in A30 order: danger added (1s, Stupid), stamina per danger ten, then the outcome."""
    roll, opts = sc["roll"], ctx.options
    cid, sheet = roll["actor_id"], ctx.characters[roll["actor_id"]]
    roll["outcome"] = outcome
    roll["successes"] = sum(1 for p in roll["player_dice"] if p > roll["danger_max"]) if outcome == "win" else 0
    ones = opts.danger_per_player_one * roll["player_dice"].count(1)
    eff = {
        "danger_added_player_ones": ones,
        "danger_added_stupid": roll["stupid_adds"],
        "danger_removed_hold_back": 0,
        "progress_delta": 0,
        "stamina_delta": 0,
    }
    _add_danger(ctx, sc, "danger_added_player_ones", ones, roll)
    _add_danger(ctx, sc, "danger_added_stupid", roll["stupid_adds"], roll)
    tens = roll["danger_dice"].count(ctx.top)  # includes dice turned by Take the Hit (A19)
    if tens:
        before = sheet["stamina"]
        sheet["stamina"] = max(0, before - tens)
        eff["stamina_delta"] = sheet["stamina"] - before
        ctx.emit(
            "stamina_lost",
            DangerPoolStaminaLost(character_id=cid, roll_id=roll["roll_id"], tens=tens, stamina=sheet["stamina"]),
        )
    if outcome == "win" and roll["kind"] == "push":  # A29: overflow is lost
        new = min(sc["progress_track_length"], sc["progress_marked"] + roll["successes"])
        eff["progress_delta"], sc["progress_marked"] = new - sc["progress_marked"], new
        ctx.emit(
            "progress_marked",
            DangerPoolProgressMarked(
                scene_id=sc["id"],
                roll_id=roll["roll_id"],
                marked=eff["progress_delta"],
                progress_marked=new,
                progress_track_length=sc["progress_track_length"],
            ),
        )
    if outcome == "win" and roll["kind"] == "hold_back":  # A29: floor 0
        new = max(0, sc["danger_pool_size"] - roll["successes"])
        eff["danger_removed_hold_back"], sc["danger_pool_size"] = sc["danger_pool_size"] - new, new
        ctx.emit(
            "danger_removed_hold_back",
            DangerPoolDangerRemovedHoldBack(
                scene_id=sc["id"],
                roll_id=roll["roll_id"],
                successes=roll["successes"],
                removed=eff["danger_removed_hold_back"],
                danger_pool_size=new,
            ),
        )
    roll["effects"] = eff
    roll["state"] = "extraction_pending" if roll["kind"] == "bail_out" and outcome == "win" else "resolved"
    ctx.emit(
        "roll_resolved",
        DangerPoolRollResolved(
            **{
                k: roll[k]
                for k in (
                    "roll_id",
                    "actor_id",
                    "kind",
                    "outcome",
                    "successes",
                    "player_max",
                    "danger_max",
                    "player_dice",
                    "danger_dice",
                    "ignored",
                    "tie_choices",
                    "effects",
                    "state",
                )
            }
        ),
    )
    if roll["kind"] == "bail_out":
        if outcome == "lose":
            extraction.finish(ctx, sc, [])
        return
    sc["last_roll"], sc["roll"] = roll, None
    if sheet["stamina"] == 0:  # A22: the outcome first, then out
        take_out(ctx, sc, cid)
    rounds.after_action(ctx, sc, cid)


def _add_danger(ctx: Ctx, sc: dict[str, Any], event: str, n: int, roll: dict[str, Any]) -> None:
    if n:
        sc["danger_pool_size"] += n
        ctx.emit(
            event,
            DangerPoolDangerAdded(
                scene_id=sc["id"], roll_id=roll["roll_id"], added=n, danger_pool_size=sc["danger_pool_size"]
            ),
        )


def declare_action(ctx: Ctx, a: Any) -> None:
    sc = guards.action_scene(ctx, "round_open")
    rounds.member_may_act(ctx, sc, a.character_id)
    open_roll(ctx, sc, a.character_id, a, a.kind)


def choose_tie(ctx: Ctx, a: Any) -> None:
    roll = guards.open_roll(ctx)
    guards.roll_actor(roll, a.character_id)
    if roll["state"] not in ("rolled", "tie_pending") or not roll["tie"]:
        raise violation("no_tie", _("the open roll is not tied (§4.7)"))
    sc = guards.scene(ctx)
    if a.option == "back_down":
        roll["tie_choices"].append({"option": a.option, "die_index": None})
        roll["state"] = "tie_pending"
        ctx.emit("tie_choice", DangerPoolTieChoiceMade(roll_id=roll["roll_id"], option=a.option, die_index=None))
        resolve(ctx, sc, "lose")
        return
    tied = [i for i, d in enumerate(roll["danger_dice"]) if d != ctx.top and d == roll["danger_max"]]
    index = tied[0] if a.die_index is None else a.die_index
    if index not in tied:
        raise violation(
            "invalid_tie_die",
            _(
                "danger die {index} does not show the tied {danger_max}; pick one of {tied}",
                index=index,
                danger_max=roll["danger_max"],
                tied=tied,
            ),
            "die_index",
        )
    stupid = a.option == "do_something_stupid"
    if stupid and roll["danger_max"] == 1:
        # Not in the spec: turning a 1 into a 1 leaves the tie as it was, so the player could add danger
        # dice forever without the roll ever ending. Take the Hit or Back Down end it.
        raise violation(
            "stupid_changes_nothing",
            _("the tie is on 1: turning the die to 1 changes nothing; take the hit or back down"),
            "option",
        )
    roll["danger_dice"][index] = 1 if stupid else ctx.top
    roll["stupid_adds"] += 1 if stupid else 0
    roll["tie_choices"].append({"option": a.option, "die_index": index})
    roll["state"] = "tie_pending"  # the element window is now closed (§5.2)
    compare(ctx, roll)
    ctx.emit(
        "tie_choice",
        DangerPoolTieChoiceMade(
            roll_id=roll["roll_id"],
            option=a.option,
            die_index=index,
            danger_dice=roll["danger_dice"],
            danger_max=roll["danger_max"],
            still_tied=roll["tie"],
        ),
    )
    advance(ctx, sc)


def _gm_window(ctx: Ctx) -> dict[str, Any]:
    roll = guards.open_roll(ctx)
    if roll["state"] != "rolled":
        raise violation(
            "reroll_window_closed",
            _("the GM's window on this roll closed when it was confirmed or a tie choice was made (A13)"),
        )
    return roll


def confirm_roll(ctx: Ctx, a: Any) -> None:
    roll = _gm_window(ctx)
    roll["state"] = "confirmed"
    ctx.emit("roll_confirmed", DangerPoolRollRef(roll_id=roll["roll_id"]))
    advance(ctx, guards.scene(ctx))


def element_reroll(ctx: Ctx, a: Any) -> None:
    roll = _gm_window(ctx)
    sc = guards.scene(ctx)
    el = next((e for e in sc["elements"] if e["element_id"] == a.element_id), None)
    if el is None:
        raise violation(
            "unknown_element", _("no element {element_id!r} in this scene", element_id=a.element_id), "element_id"
        )
    limit = ctx.options.element_rerolls_per_element_per_scene
    if limit is not None and el["rerolls_used"] >= limit:
        raise violation(
            "element_exhausted",
            _n(
                "{text} already rerolled {limit} time this scene (A13)",
                "{text} already rerolled {limit} times this scene (A13)",
                limit,
                text=el["text"],
                limit=limit,
            ),
            "element_id",
        )
    # ALL danger dice of this roll are rerolled; the new roll fully replaces the old one (A13, A44).
    dice = [ctx.roll("danger_reroll") for _n in roll["danger_dice"]]
    roll["danger_dice"] = [d.face for d in dice]
    roll["danger_dice_rolls"].append(list(roll["danger_dice"]))
    el["rerolls_used"] += 1
    el["revealed"] = True
    compare(ctx, roll)
    ctx.emit(
        "danger_rerolled_with_element",
        DangerPoolDangerRerolledWithElement(
            roll_id=roll["roll_id"],
            element_id=el["element_id"],
            element_text=el["text"],
            danger_dice=roll["danger_dice"],
            danger_max=roll["danger_max"],
            player_max=roll["player_max"],
            ignored=roll["ignored"],
            tie=roll["tie"],
            dice=[d.to_dict() for d in dice],
        ),
    )
    settle(ctx, sc)
