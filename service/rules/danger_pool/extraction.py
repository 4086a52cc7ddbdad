"""The end of a bail-out (spec §4.13, A22, A27, A31): those pulled out leave, everyone left behind takes a scar,
and the scene ends with a successor. Reached from a won roll's extraction and from a lost roll (rolls.resolve)."""

from __future__ import annotations

from typing import Any

from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.events_model import DangerPoolBailOutResolved, DangerPoolScarGained
from service.rules.danger_pool.lifecycle import end_scene, make_action_scene, take_out
from service.rules.danger_pool.sheet import add_scar

BAIL_OUT_SCAR = "A fresh wound from the emergency exit"


def finish(ctx: Ctx, sc: dict[str, Any], extracted: list[str]) -> None:
    roll = sc["roll"]
    roll["state"], roll["extracted"] = "resolved", list(extracted)
    sc["last_roll"], sc["roll"] = roll, None
    left = [c for c in sc["team"] if sc["participation"][c] == "in_scene" or ctx.options.bail_out_includes_taken_out]
    scarred = [c for c in left if c not in extracted]
    for cid in scarred:
        scar = add_scar(ctx.characters[cid], BAIL_OUT_SCAR, "bail_out", sc["id"])
        ctx.emit("scar_gained", DangerPoolScarGained(character_id=cid, scar=scar, character_points_gained=0))
    ctx.emit(
        "bail_out_resolved",
        DangerPoolBailOutResolved(scene_id=sc["id"], outcome=roll["outcome"], extracted=extracted, scarred=scarred),
    )
    leader = sc["leader_id"]
    if ctx.characters[leader]["stamina"] == 0:  # A22: the bail-out's own tens still take out
        take_out(ctx, sc, leader)
    end_scene(ctx, sc, "bailed_out")
    # Same goal and leader, fresh track (A27), three danger dice, no +2 in its first round (A31).
    team = [c for c in sc["team"] if ctx.characters[c]["status"] == "active"]
    make_action_scene(
        ctx,
        goal=sc["goal"],
        leader_id=leader,
        team=team,
        base_length=None,
        danger_start=ctx.options.danger_pool_start_after_bail_out,
        predecessor=sc["id"],
    )
