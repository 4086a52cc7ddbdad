"""Bailing out (spec §4.13): the leader's final roll at a round's end, and choosing whom it pulls out."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.danger_pool import extraction, guards, pool, rolls
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.events_model import DangerPoolBailOutStarted


def bail_out(ctx: Ctx, a: Any) -> None:
    """Only at a round's end and before the +2 or the alarm (source); only the leader, who must still be
    in the scene to roll (A25); any ability, built like every pool (A23)."""
    sc = guards.action_scene(ctx, "round_end_window")
    if sc["leader_decision"] is not None:
        raise violation(
            "wrong_phase", _("the leader already chose to {leader_decision}", leader_decision=sc["leader_decision"])
        )
    guards.leader(sc, a.character_id)
    if sc["participation"][a.character_id] == "taken_out":
        raise violation(
            "leader_out_of_scene",
            _("a taken-out leader cannot make the bail-out roll (A25); continue, or the GM closes the scene"),
        )
    guards.active(ctx, a.character_id)
    pool.plan(ctx, ctx.characters[a.character_id], a)  # validate before anything changes
    sc["leader_decision"] = "bail_out"
    ctx.emit(
        "bail_out_started", DangerPoolBailOutStarted(scene_id=sc["id"], round=sc["round"], leader_id=a.character_id)
    )
    rolls.open_roll(ctx, sc, a.character_id, a, "bail_out")


def extract(ctx: Ctx, a: Any) -> None:
    roll = guards.open_roll(ctx)
    if roll["state"] != "extraction_pending":
        raise violation("wrong_phase", _("extraction follows a won bail-out roll (§5.2)"))
    sc = guards.scene(ctx)
    guards.leader(sc, a.character_id)
    ids = list(a.extracted_ids)
    if len(set(ids)) != len(ids):
        raise violation("duplicate_character", _("a character is listed twice"), "extracted_ids")
    if len(ids) > roll["successes"]:
        raise violation(
            "too_many_extracted",
            _n(
                "{successes} success pulls out at most {successes} character",
                "{successes} successes pull out at most {successes} characters",
                roll["successes"],
                successes=roll["successes"],
            ),
            "extracted_ids",
        )
    for i, cid in enumerate(ids):
        if cid not in sc["team"] or sc["participation"][cid] != "in_scene":
            raise violation(
                "not_extractable", _("{cid} is not a member still in the scene (A24)", cid=cid), f"extracted_ids[{i}]"
            )
    extraction.finish(ctx, sc, ids)
