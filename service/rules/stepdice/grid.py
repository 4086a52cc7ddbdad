"""Squares, movement, melee reach, range and cover (seed §4, §5.7, spec 4.7); only with `use_grid`.

Positions of PCs live in the encounter (they change every turn); without known positions the GM's
word stands, as it does with the grid off.
"""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.stepdice import guards
from service.rules.stepdice.actions_player import StepDiceMove
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import StepDiceMoved

RANGE_LIMIT = 10  # §5.7 "do 10 kratek bez kary"
SPELL_JUMP = 5  # §6.3 "skok 5 kratek"


def distance(a: dict[str, int], b: dict[str, int]) -> int:
    """§4.1: a diagonal counts as one square (Chebyshev distance)."""
    return max(abs(a["x"] - b["x"]), abs(a["y"] - b["y"]))


def adjacent(a: dict[str, int], b: dict[str, int]) -> bool:
    return distance(a, b) == 1  # 7-A50: diagonal neighbours are in melee reach


def _known(ctx: Ctx, character_id: str, enemy: dict[str, Any]) -> tuple[dict, dict] | None:
    if not ctx.options.use_grid:
        return None
    mine = ctx.running()["pcs"][character_id]["position"]
    if mine is None or enemy["position"] is None:
        return None
    return mine, enemy["position"]


def check_melee(ctx: Ctx, character_id: str, enemy: dict[str, Any]) -> None:
    where = _known(ctx, character_id, enemy)
    if where and not adjacent(*where):
        # An unrevealed position is GM-only (spec 8): a player hears that the target is out of reach, not where.
        far = (
            _n(
                "; it is {squares} square away",
                "; it is {squares} squares away",
                distance(*where),
                squares=distance(*where),
            )
            if ctx.actor.is_gm or enemy["position_revealed"]
            else ""
        )
        raise violation(
            "not_adjacent",
            _("melee needs the target on a neighbouring square{far} (seed §5.7)", far=far),
            "target_enemy_id",
        )


def ranged_steps(ctx: Ctx, character_id: str, enemy: dict[str, Any], cover: str) -> list[dict[str, Any]]:
    if cover == "full":
        raise violation(
            "full_cover_blocks_ranged", _("a target in full cover cannot be hit at range (seed §4.3)"), "cover"
        )
    steps = [{"source": "partial_cover", "delta": 1}] if cover == "partial" else []
    where = _known(ctx, character_id, enemy)
    if ctx.options.ranged_range_limit and where and distance(*where) > RANGE_LIMIT:
        steps.append({"source": "range_over_10", "delta": 1})
    return steps


def check_jump(ctx: Ctx, character_id: str, to: dict[str, int]) -> None:
    guards.option(ctx, "use_grid", "move_to")
    slot = ctx.slot(character_id)
    if slot is None:
        raise violation("not_in_encounter", _("positions are kept for characters in a running encounter"), "move_to")
    if slot["position"] is None:
        raise violation(
            "position_unknown", _("{character_id} has no position yet", character_id=character_id), "move_to"
        )
    if distance(slot["position"], to) > SPELL_JUMP:
        raise violation(
            "out_of_range",
            _n(
                "a jump reaches at most {spell_jump} square (seed §6.3)",
                "a jump reaches at most {spell_jump} squares (seed §6.3)",
                SPELL_JUMP,
                spell_jump=SPELL_JUMP,
            ),
            "move_to",
        )


def move(ctx: Ctx, a: StepDiceMove) -> None:
    """§4.2: up to 5 squares per turn, before and/or after the Action (any split)."""
    guards.active(ctx, a.character_id)
    guards.option(ctx, "use_grid", "path")
    slot = guards.turn(ctx, a.character_id, needs_action=False)
    here = slot["position"]
    if here is None:
        raise violation(
            "position_unknown",
            _("{character_id} has no position yet; the GM places it first", character_id=a.character_id),
        )
    path = [p.model_dump() for p in a.path]
    for i, square in enumerate(path):
        if not adjacent(here if i == 0 else path[i - 1], square):
            raise violation(
                "path_not_adjacent", _("each square of the path must touch the one before it"), f"path[{i}]"
            )
    if len(path) > slot["move_remaining"]:
        raise violation(
            "insufficient_move",
            _("{move_remaining} of 5 squares left this turn", move_remaining=slot["move_remaining"]),
            "path",
        )
    slot["move_remaining"] -= len(path)
    slot["position"] = path[-1]
    ctx.emit(
        "moved",
        StepDiceMoved(
            character_id=a.character_id,
            from_=here,
            to=path[-1],
            path=path,
            squares=len(path),
            move_remaining=slot["move_remaining"],
        ),
    )
