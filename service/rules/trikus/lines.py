"""Lines, exhaustion and the party-wide reset (spec 4.1, 4.7, 4.17)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus.constants import LOST_LINE_RESETS, MAX_RESET_LOOPS
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.sheet import exhausted, free_lines
from service.rules.trikus.events_model import TrikusLineCrossed, TrikusLineLost, TrikusPartyReset


def check_line_choice(ctx: Ctx, sheet: dict[str, Any], line_index: int | None) -> None:
    """A12: a player with a free line must cross one; a crossed or lost line cannot be used (L60)."""
    if line_index is None:
        if free_lines(sheet):
            raise violation(
                "line_required", _("a player with a free line crosses it to take a test (L60, A12)"), "line_index"
            )
        master_lost = sheet["tier"] == "master" and sheet["lines"][0]["state"] == "lost"
        if ctx.options.catastrophe_master_strict and master_lost:
            raise violation(
                "master_line_lost",
                _("a Master without his line takes no test until it returns (L332, catastrophe_master_strict)"),
                "line_index",
            )
        return
    if not 0 <= line_index < len(sheet["lines"]):
        raise violation(
            "no_such_line",
            _("a {tier} has lines 0–{value}", tier=sheet["tier"], value=len(sheet["lines"]) - 1),
            "line_index",
        )
    state = sheet["lines"][line_index]["state"]
    if state == "crossed":
        raise violation(
            "line_already_crossed", _("line {line_index} is already crossed (L60)", line_index=line_index), "line_index"
        )
    if state == "lost":
        raise violation(
            "line_lost", _("line {line_index} was lost to a Catastrophe (L332)", line_index=line_index), "line_index"
        )


def cross(ctx: Ctx, cid: str, line_index: int) -> int:
    line = ctx.characters[cid]["lines"][line_index]
    line["state"] = "crossed"
    ctx.emit("line_crossed", TrikusLineCrossed(character_id=cid, line_index=line_index, line_dice=line["dice"]))
    return line["dice"]


def pick_lost_line(sheet: dict[str, Any], used: int | None) -> tuple[int | None, list[int]]:
    """A17: the line used in this test, else a crossed line, else a free line (the player's choice when
    the candidates differ, default most dice), else the lost line closest to coming back."""
    lines = sheet["lines"]
    if used is not None and lines[used]["state"] != "lost":
        return used, []
    for state in ("crossed", "free"):
        cands = [ln for ln in lines if ln["state"] == state]
        if cands:
            if len({ln["dice"] for ln in cands}) == 1:
                return cands[0]["index"], []
            return None, [ln["index"] for ln in sorted(cands, key=lambda ln: (-ln["dice"], ln["index"]))]
    lost = min(lines, key=lambda ln: (ln["lost_resets_remaining"], ln["index"]))
    return lost["index"], []


def lose(ctx: Ctx, cid: str, line_index: int) -> None:
    line = ctx.characters[cid]["lines"][line_index]
    line["state"] = "lost"
    line["lost_resets_remaining"] = LOST_LINE_RESETS
    ctx.emit(
        "line_lost", TrikusLineLost(character_id=cid, line_index=line_index, returns_after_resets=LOST_LINE_RESETS)
    )


def party_reset_check(ctx: Ctx) -> None:
    """L66: when every active character is exhausted the whole party uncrosses; a lost line waits one
    more reset (L332–L334). Run when a test or combat has finished (A14); bounded (A15)."""
    for _round in range(MAX_RESET_LOOPS):
        ids = ctx.active_ids()
        if not ids or not all(exhausted(ctx.characters[c]) for c in ids):
            return
        reset(ctx, ids, forced=False)


def reset(ctx: Ctx, ids: list[str], *, forced: bool, reason: str | None = None) -> None:
    before = {c: [ln["state"] for ln in ctx.characters[c]["lines"]] for c in ids}
    for cid in ids:
        for line in ctx.characters[cid]["lines"]:
            if line["state"] == "crossed":
                line["state"] = "free"
            elif line["state"] == "lost":
                line["lost_resets_remaining"] -= 1
                if line["lost_resets_remaining"] <= 0:
                    line["state"] = "free"
                    del line["lost_resets_remaining"]
    ctx.table["reset_count"] += 1
    ctx.emit(
        "party_reset",
        TrikusPartyReset(
            reset_count=ctx.table["reset_count"],
            forced=forced,
            reason=reason,
            lines_before=before,
            lines_after={c: [ln["state"] for ln in ctx.characters[c]["lines"]] for c in ids},
        ),
    )
