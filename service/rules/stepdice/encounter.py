"""A combat encounter's lifecycle: setup, start, end, and the victory/defeat suggestion (spec 4.8, 5.2)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.stepdice import guards, scenes, turns
from service.rules.stepdice.actions_gm import (
    StepDiceAddCharacter,
    StepDiceCreateEncounter,
    StepDiceEndEncounter,
    StepDiceSetPosition,
    StepDiceStartEncounter,
)
from service.rules.stepdice.context import Ctx
from service.rules.stepdice.errors import violation
from service.rules.stepdice.events_model import (
    StepDiceCharacterJoined,
    StepDiceEncounterCreated,
    StepDiceEncounterEnded,
    StepDiceEncounterRef,
    StepDiceOutcomeSuggested,
    StepDicePositionSet,
)


def create_encounter(ctx: Ctx, a: StepDiceCreateEncounter) -> None:
    enc = ctx.encounter
    if enc is not None and enc["phase"] != "ended":
        raise violation("encounter_in_progress", _("encounter {id} is still {phase}", id=enc["id"], phase=enc["phase"]))
    if a.new_scene or ctx.table["scene"] is None:
        scenes.begin(ctx, "combat", a.label)  # 7-A27: combat encounters are scenes
    enc = {
        "id": ctx.next_id("encounter", "enc"),
        "scene_id": ctx.table["scene"]["id"],
        "label": a.label,
        "round": 0,
        "phase": "setup",
        "pcs": {},
        "enemies": {},
        "turn_open_for": None,
        "pcs_done": [],
        "help_tokens": [],
        "outcome": None,
        "suggested_outcome": None,
    }
    ctx.table["encounter"] = enc
    ctx.emit(
        "encounter_created", StepDiceEncounterCreated(encounter_id=enc["id"], scene_id=enc["scene_id"], label=a.label)
    )


def add_character(ctx: Ctx, a: StepDiceAddCharacter) -> None:
    enc = guards.encounter(ctx)
    sheet = guards.not_dead(ctx, a.character_id)
    if a.character_id in enc["pcs"] or a.character_id in enc["enemies"]:
        raise violation(
            "duplicate_id", _("{character_id} is already in the encounter", character_id=a.character_id), "character_id"
        )
    if a.position is not None:
        guards.option(ctx, "use_grid", "position")
    acting = enc["phase"] == "player_phase" and sheet["condition"] == "active"
    enc["pcs"][a.character_id] = {
        "position": a.position.model_dump() if a.position else None,
        "move_remaining": turns.MOVE_PER_TURN,
        "action_available": acting,
    }
    ctx.emit(
        "character_joined",
        StepDiceCharacterJoined(
            character_id=a.character_id, encounter_id=enc["id"], position=enc["pcs"][a.character_id]["position"]
        ),
    )


def set_position(ctx: Ctx, a: StepDiceSetPosition) -> None:
    enc = guards.encounter(ctx)
    guards.option(ctx, "use_grid", "position")
    where = a.position.model_dump() if a.position else None
    if a.combatant_id in enc["pcs"]:
        enc["pcs"][a.combatant_id]["position"] = where
        hidden = False
    elif a.combatant_id in enc["enemies"]:
        enc["enemies"][a.combatant_id]["position"] = where
        hidden = not enc["enemies"][a.combatant_id]["position_revealed"]
    else:
        raise violation(
            "not_in_encounter", _("{combatant_id} is not in the encounter", combatant_id=a.combatant_id), "combatant_id"
        )
    ctx.emit("position_set", StepDicePositionSet(combatant_id=a.combatant_id, position=where), gm_only=hidden)


def start_encounter(ctx: Ctx, a: StepDiceStartEncounter) -> None:
    enc = guards.encounter(ctx, "setup")
    if not enc["pcs"] or not any(e["state"] == "active" for e in enc["enemies"].values()):
        raise violation("encounter_needs_combatants", _("add at least one PC and one enemy first (seed §5.1)"))
    ctx.emit("encounter_started", StepDiceEncounterRef(encounter_id=enc["id"]))
    turns.start_player_phase(ctx, 1, "setup")


def end_encounter(ctx: Ctx, a: StepDiceEndEncounter) -> None:
    """7-A47: only the GM closes an encounter; the server only suggests."""
    enc = guards.encounter(ctx)
    if enc["phase"] == "player_phase":
        turns.expire_help(ctx)
    enc.update(phase="ended", outcome=a.outcome, turn_open_for=None)
    ctx.emit(
        "encounter_ended",
        StepDiceEncounterEnded(
            encounter_id=enc["id"], outcome=a.outcome, round=enc["round"], suggested_outcome=enc["suggested_outcome"]
        ),
    )


def refresh_suggestion(ctx: Ctx) -> None:
    """Spec 4.8.8 / 7-A48, after every committed move: victory when every enemy is defeated, defeat when
    no PC stands."""
    enc = ctx.encounter
    if enc is None or enc["phase"] == "ended":
        return
    foes, pcs = list(enc["enemies"].values()), list(enc["pcs"])
    suggestion = None
    if foes and all(e["state"] == "defeated" for e in foes):
        suggestion = "victory"
    elif pcs and all(ctx.characters.get(c, {}).get("condition", "dead") != "active" for c in pcs):
        suggestion = "defeat"
    if suggestion != enc["suggested_outcome"]:
        enc["suggested_outcome"] = suggestion
        ctx.emit("outcome_suggested", StepDiceOutcomeSuggested(encounter_id=enc["id"], suggested_outcome=suggestion))
