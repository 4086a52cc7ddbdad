"""Boom dice (advanced, L352–L358; spec 4.19, A42): three equal faces in one test or combat round."""

from __future__ import annotations

from collections import Counter
from typing import Any

from service.rules.trikus.context import Ctx
from service.rules.trikus.events_model import TrikusBoomAvailable, TrikusBoomClaimed


def announce(ctx: Ctx) -> bool:
    return ctx.options.boom_visibility == "announce"


def scan(ctx: Ctx, act: dict[str, Any]) -> None:
    """After each wave and each negotiation re-throw: current faces only (superseded ones and CD rolls
    never count); each value can boom once per scope (A42)."""
    if not ctx.options.adv_boom:
        return
    c = act["contest"]
    counts = Counter(d["value"] for d in c["dice"])
    b = c["boom"]
    for value in sorted(v for v, n in counts.items() if n >= 3 and v not in b["seen"]):
        b["seen"].append(value)
        b["available"].append(value)
        # players_must_notice (default): only the GM is told; players have to see it on the table (L356).
        ctx.emit("boom_available", TrikusBoomAvailable(activity_id=act["id"], value=value), gm_only=not announce(ctx))


def unclaimed(act: dict[str, Any]) -> list[int]:
    b = act["contest"]["boom"]
    claimed = {cl["value"] for cl in b["claims"]}
    return [v for v in b["available"] if v not in claimed]


def review_needed(ctx: Ctx, act: dict[str, Any]) -> bool:
    """The GM gets the end-of-test review when an unclaimed boom exists (L356). When players must notice,
    the review happens after every test, so its mere presence does not tell players a triple exists."""
    if not ctx.options.adv_boom or act.get("contest") is None:
        return False
    return bool(unclaimed(act)) or not announce(ctx)


def claim(ctx: Ctx, act: dict[str, Any], character_id: str, value: int, text: str) -> None:
    """The first valid claim takes the narration; the claim carries it, so the pause is one request."""
    act["contest"]["boom"]["claims"].append({"character_id": character_id, "value": value, "text": text})
    ctx.emit(
        "boom_claimed", TrikusBoomClaimed(activity_id=act["id"], character_id=character_id, value=value, narration=text)
    )
