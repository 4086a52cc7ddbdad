"""Scenes (7-A27): the GM declares their boundaries; Armor tokens refresh when one starts (§11.1)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.stepdice import clocks
from service.rules.stepdice.actions_gm import StepDiceEndScene, StepDiceStartScene
from service.rules.move import replaced
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import StepDiceArmorRefreshed, StepDiceSceneEnded, StepDiceSceneStarted


def _no_fight(ctx: Ctx) -> None:
    enc = ctx.encounter
    if enc is not None and enc["phase"] != "ended":
        raise violation("encounter_in_progress", _("end the encounter before the scene changes"))


def begin(ctx: Ctx, kind: str, label: str | None) -> None:
    if ctx.table["scene"] is not None:
        finish(ctx)
    scene = {"id": ctx.next_id("scene", "s"), "kind": kind, "label": label}
    ctx.table["scene"] = scene
    ctx.emit("scene_started", StepDiceSceneStarted(scene_id=scene["id"], kind=kind, label=label))
    if not ctx.options.use_armor_tokens:
        return
    refreshed = []
    for cid, sheet in ctx.characters.items():
        if (
            sheet["equipment"].get("protection")
            and sheet["condition"] != "dead"
            and not sheet.get("armor_token_available")
        ):
            sheet["armor_token_available"] = True
            refreshed.append(cid)
    if refreshed:
        ctx.emit("armor_refreshed", StepDiceArmorRefreshed(character_ids=refreshed, scene_id=scene["id"]))


def finish(ctx: Ctx) -> None:
    scene = ctx.table["scene"]
    hidden = clocks.hidden_ids(ctx)
    gone = clocks.discard_scene_clocks(ctx, scene["id"])
    ctx.table["failed_tests"] = []  # §3.7 compares tests within one scene
    if ctx.encounter is not None:  # only an ended encounter can be here (see _no_fight)
        ctx.table["encounter"] = None
    ctx.table["scene"] = None
    data = StepDiceSceneEnded(scene_id=scene["id"], clocks_closed=gone)
    visible = [c for c in gone if c not in hidden]
    ctx.emit("scene_ended", data, redacted=replaced(data, clocks_closed=visible) if visible != gone else None)


def start_scene(ctx: Ctx, a: StepDiceStartScene) -> None:
    _no_fight(ctx)
    begin(ctx, a.kind, a.label)


def end_scene(ctx: Ctx, a: StepDiceEndScene) -> None:
    _no_fight(ctx)
    if ctx.table["scene"] is None:
        raise violation("no_scene", _("no scene is open"))
    finish(ctx)
