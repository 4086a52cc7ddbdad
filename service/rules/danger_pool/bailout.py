"""Bailing out (spec §4.13): the leader's final roll at a round's end, extraction, scars, successor scene."""
from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.danger_pool import guards, pool, rolls
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.lifecycle import end_scene, make_action_scene, take_out
from service.rules.danger_pool.sheet import add_scar

BAIL_OUT_SCAR = "A fresh wound from the emergency exit"


def bail_out(ctx: Ctx, a: Any) -> None:
    """Only at a round's end and before the +2 or the alarm (source); only the leader, who must still be
    in the scene to roll (A25); any ability, built like every pool (A23)."""
    sc = guards.action_scene(ctx, "round_end_window")
    if sc["leader_decision"] is not None:
        raise violation("wrong_phase", _("the leader already chose to {leader_decision}",
                                         leader_decision=sc['leader_decision']))
    guards.leader(sc, a.character_id)
    if sc["participation"][a.character_id] == "taken_out":
        raise violation("leader_out_of_scene", _("a taken-out leader cannot make the bail-out roll (A25); "
                                                 "continue, or the GM closes the scene"))
    guards.active(ctx, a.character_id)
    pool.plan(ctx, ctx.characters[a.character_id], a)      # validate before anything changes
    sc["leader_decision"] = "bail_out"
    ctx.emit("bail_out_started", {"scene_id": sc["id"], "round": sc["round"], "leader_id": a.character_id})
    rolls.open_roll(ctx, sc, a.character_id, a, "bail_out")


def extract(ctx: Ctx, a: Any) -> None:
    roll = guards.open_roll(ctx)
    if roll["state"] != "extraction_pending":
        raise violation("wrong_phase", _("extraction follows a won bail-out roll (§5.2)"))
    sc = ctx.scene
    guards.leader(sc, a.character_id)
    ids = list(a.extracted_ids)
    if len(set(ids)) != len(ids):
        raise violation("duplicate_character", _("a character is listed twice"), "extracted_ids")
    if len(ids) > roll["successes"]:
        raise violation("too_many_extracted", _n("{successes} success pulls out at most {successes} character",
                                                 "{successes} successes pull out at most {successes} characters",
                                                 roll['successes'], successes=roll['successes']), "extracted_ids")
    for i, cid in enumerate(ids):
        if cid not in sc["team"] or sc["participation"][cid] != "in_scene":
            raise violation("not_extractable", _("{cid} is not a member still in the scene (A24)", cid=cid),
                            f"extracted_ids[{i}]")
    finish(ctx, sc, ids)


def finish(ctx: Ctx, sc: dict[str, Any], extracted: list[str]) -> None:
    roll = sc["roll"]
    roll["state"], roll["extracted"] = "resolved", list(extracted)
    sc["last_roll"], sc["roll"] = roll, None
    left = [c for c in sc["team"] if sc["participation"][c] == "in_scene"
            or ctx.options.bail_out_includes_taken_out]
    scarred = [c for c in left if c not in extracted]
    for cid in scarred:
        scar = add_scar(ctx.characters[cid], BAIL_OUT_SCAR, "bail_out", sc["id"])
        ctx.emit("scar_gained", {"character_id": cid, "scar": scar, "character_points_gained": 0})
    ctx.emit("bail_out_resolved", {"scene_id": sc["id"], "outcome": roll["outcome"], "extracted": extracted,
                                   "scarred": scarred})
    leader = sc["leader_id"]
    if ctx.characters[leader]["stamina"] == 0:          # A22: the bail-out's own tens still take out
        take_out(ctx, sc, leader)
    end_scene(ctx, sc, "bailed_out")
    # Same goal and leader, fresh track (A27), three danger dice, no +2 in its first round (A31).
    team = [c for c in sc["team"] if ctx.characters[c]["status"] == "active"]
    make_action_scene(ctx, goal=sc["goal"], leader_id=leader, team=team, base_length=None,
                      danger_start=ctx.options.danger_pool_start_after_bail_out, predecessor=sc["id"])
