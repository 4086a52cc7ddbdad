"""End-of-test and end-of-round consequences (spec 4.6 step 3, 4.8 step 7, 4.17): morale, boost,
negotiation, items, Catastrophes and their line losses."""

from __future__ import annotations

from typing import Any

from service.rules.trikus import equipment, fate, lines
from service.rules.trikus.context import Ctx
from service.rules.trikus.events_model import TrikusCatastrophe, TrikusLostLineChoiceNeeded, TrikusMoraleChanged


def catastrophe(ctx: Ctx, act: dict[str, Any], cid: str, cause: str) -> None:
    """L196, L234, L346, L442. Narrative always; a lost line with adv_catastrophe_line_loss (A19).
    At most one per character per test or round: further triggers only add their cause (A17)."""
    if ctx.characters[cid]["status"] != "active":
        return
    done = act.setdefault("catastrophes", {})
    if cid in done:
        done[cid].append(cause)
        return
    done[cid] = [cause]
    ctx.emit(
        "catastrophe",
        TrikusCatastrophe(
            activity_id=act["id"],
            character_id=cid,
            cause=cause,
            line_loss=ctx.options.adv_catastrophe_line_loss,
            note="the GM narrates a painful effect; never death (L196)",
        ),
    )
    if ctx.options.adv_catastrophe_line_loss:
        act.setdefault("line_losses", []).append(cid)


def morale(ctx: Ctx, cid: str, result: str) -> None:
    """L222: a success gives one morale die; L224: any failure loses them all. The GM never gets any (L170)."""
    sheet = ctx.characters[cid]
    if result == "success":
        sheet["morale_dice"] += 1
    elif result == "failure" and sheet["morale_dice"]:
        sheet["morale_dice"] = 0
    else:
        return
    ctx.emit("morale_changed", TrikusMoraleChanged(character_id=cid, morale_dice=sheet["morale_dice"], reason=result))


def apply(ctx: Ctx, act: dict[str, Any], cid: str, result: str, *, cancelled: str | None = None) -> None:
    """One character's consequences. `result` is final (success, failure, draw, escaped, removed,
    no_result); `cancelled` is the result a team-test cancellation voided (A10)."""
    sheet = ctx.characters[cid]
    if sheet["status"] != "active":
        return  # removed mid-activity: no further effects (A36)
    part = act["participants"][cid]
    morale(ctx, cid, result)
    failed = result == "failure"
    cancel_penalty = cancelled == "failure" and not ctx.options.team_cancellation_waives_penalties
    if part.get("boost") and (failed or cancel_penalty):
        fate.add_dark_token(ctx, cid, "boost_failure")  # L234
        catastrophe(ctx, act, cid, "boost_failure")
    if part.get("negotiated") and failed:
        catastrophe(ctx, act, cid, "negotiation_failure")  # L346 (never cancelled, A40)
    if sheet["status"] == "active":
        equipment.on_end(
            ctx,
            cid,
            part.get("item_ids", []),
            "failure" if cancel_penalty else result,
            penalties=failed or cancel_penalty,
        )


def resolve_line_losses(ctx: Ctx, act: dict[str, Any]) -> None:
    """Apply every queued line loss; where the player has a real choice (A17 steps 2–3) ask them."""
    queue = act.pop("line_losses", [])
    for cid in queue:
        sheet = ctx.characters[cid]
        if sheet["status"] != "active":
            continue
        used = act["participants"][cid].get("line_index")
        index, candidates = lines.pick_lost_line(sheet, used)
        if index is not None:
            lines.lose(ctx, cid, index)
        else:
            act.setdefault("line_choices", []).append({"character_id": cid, "candidates": candidates})
            ctx.emit(
                "lost_line_choice_needed",
                TrikusLostLineChoiceNeeded(activity_id=act["id"], character_id=cid, candidates=candidates),
            )
