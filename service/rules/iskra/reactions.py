"""Reactions (spec 4.13; L167, L181): Ready → trigger → act or decline, and the Dodge."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.iskra import attacks, checks, damage, guards, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import IskraDodgeDeclared, IskraParticipantRef, IskraReadyEvent

MAJOR_HELD = {"melee_attack", "ranged_attack", "help"}
MINOR_HELD = {"use_item", "draw_item", "interact"}


def _participant(ctx: Ctx, cid: str) -> dict[str, Any]:
    enc = ctx.encounter
    if enc is None:
        raise violation("no_combat", _("Ready belongs to combat (L167)"))
    if ctx.participant(cid) is None:
        raise violation("not_a_participant", _("{cid} is not in this combat", cid=cid), "character_id")
    return enc


def ready(ctx: Ctx, a: Any) -> None:
    guards.no_pending(ctx)
    guards.acting(ctx, a.character_id)
    enc = _participant(ctx, a.character_id)
    if a.held_action in MAJOR_HELD and a.target_id is None:
        raise violation(
            "target_required", _("a readied {held_action} names its target", held_action=a.held_action), "target_id"
        )
    if a.target_id is not None:
        attacks._target(ctx, a.target_id)
    held_type = "major" if a.held_action in MAJOR_HELD else "minor" if a.held_action in MINOR_HELD else a.held_type
    turns.spend(ctx, a.character_id, "major")  # 7-B24: preparing costs the Major, triggering the Reaction
    entry = {
        "held_type": held_type,
        "held_action": a.held_action,
        "target_id": a.target_id,
        "item_id": a.item_id,
        "description": a.description,
        "trigger_text": a.trigger_text,
        "created_round": enc["round"],
    }
    enc["ready"][a.character_id] = entry
    data = IskraReadyEvent(encounter_id=enc["id"], participant_id=a.character_id, **entry)
    # spec 8: a Ready's trigger and held action are GM-only until it fires.
    ctx.emit(
        "ready_set",
        data,
        redacted=IskraReadyEvent(encounter_id=enc["id"], participant_id=a.character_id, created_round=enc["round"]),
    )


def trigger_ready(ctx: Ctx, a: Any) -> None:
    guards.no_pending(ctx)
    enc = _participant(ctx, a.character_id)
    guards.alive(ctx, a.character_id)
    entry = enc["ready"].get(a.character_id)
    if entry is None:
        raise violation(
            "no_ready_action",
            _("{character_id} has no Ready action waiting", character_id=a.character_id),
            "character_id",
        )
    if not turns.can_react(ctx, a.character_id):
        raise violation(
            "no_reaction_left",
            _("{character_id} has no Reaction left this round (7-B23)", character_id=a.character_id),
            "character_id",
        )
    ctx.table["pending"] = {
        "kind": "ready",
        "id": ctx.next_id("trigger", "r"),
        "character_id": a.character_id,
        "stage": "ready_window",
    }
    ctx.emit("ready_triggered", IskraReadyEvent(encounter_id=enc["id"], participant_id=a.character_id, **entry))


def use_ready(ctx: Ctx, a: Any) -> None:
    p = ctx.table["pending"]
    if p is None or p["kind"] != "ready" or p["character_id"] != a.character_id:
        raise violation(
            "no_ready_action", _("no triggered Ready for {character_id}", character_id=a.character_id), "character_id"
        )
    guards.acting(ctx, a.character_id)
    enc = guards.encounter(ctx)
    entry = enc["ready"][a.character_id]
    ctx.table["pending"] = None
    if not a.execute:  # L170 "może (nie musi)"; the Ready stays until the character's next turn
        ctx.emit("ready_declined", IskraParticipantRef(encounter_id=enc["id"], participant_id=a.character_id))
        return
    turns.spend_reaction(ctx, a.character_id, "ready")
    enc["ready"][a.character_id] = None
    ctx.emit("ready_used", IskraReadyEvent(encounter_id=enc["id"], participant_id=a.character_id, **entry))
    action = entry["held_action"]
    if action in ("melee_attack", "ranged_attack"):
        if ctx.characters.get(entry["target_id"], {}).get("status", "alive") != "alive":
            return  # the target died meanwhile: nothing to strike
        attacks.open_attack(
            ctx,
            a.character_id,
            entry["target_id"],
            action.split("_")[0],
            wounds=None,
            item_id=entry["item_id"],
            critical_bonus_wounds=0,
            intent=entry["description"],
        )
    elif action == "help":
        attacks.give_token(ctx, a.character_id, entry["target_id"], entry["description"])


def dodge(ctx: Ctx, a: Any) -> None:
    """L181 Unik: a Dexterity test; success avoids all Wounds; the dodger falls prone unless they took −2."""
    p = ctx.table["pending"]
    if p is not None and p["kind"] == "test" and p["stage"] == "dodge_declaration":
        target = p["attack"]["target_id"]
        guards.owner(ctx, target)
        if a.choice != "none":
            damage.declare_dodge(ctx, target, a.choice)
        p["attack"]["dodge_choice"] = a.choice
        p["stage"] = "pre_roll"
        checks.emit_test(ctx, "dodge_declared", IskraDodgeDeclared, p, choice=a.choice)
        return
    dmg = damage.pending_damage(ctx, a.damage_id, "dodge_window")
    guards.owner(ctx, dmg["target_id"])
    dmg["dodge"] = a.choice
    ctx.emit("dodge_declared", IskraDodgeDeclared(damage_id=dmg["id"], character_id=dmg["target_id"], choice=a.choice))
    if a.choice == "none":
        damage.to_focus(ctx, dmg)
        return
    damage.declare_dodge(ctx, dmg["target_id"], a.choice)
    damage.start_dodge_test(ctx, dmg)
