"""Combat encounters (spec 3.9, 4.12.2, 5.4): setup with sides, joiners, removal, end, suggestions."""

from __future__ import annotations

from typing import Any, NoReturn

from service.i18n.message import _
from service.rules.iskra import guards, turns
from service.rules.iskra.context import Ctx
from service.rules.iskra.errors import violation
from service.rules.iskra.events_model import (
    IskraCombatEndSuggested,
    IskraCombatEnded,
    IskraCombatStarted,
    IskraParticipantJoined,
    IskraParticipantRef,
)


def _bad(detail: str, field: str = "sides") -> NoReturn:
    raise violation("bad_sides", detail, field)


def start_combat(ctx: Ctx, a: Any) -> None:
    guards.no_pending(ctx)
    if ctx.encounter is not None:
        raise violation("combat_in_progress", _("combat {id} is still running; end it first", id=ctx.encounter["id"]))
    if len(a.sides) < 2:
        _bad(_("combat alternates between two or more sides (L157)"))
    hazards = {h.participant_id: h.name for h in a.hazards}
    participants: dict[str, dict[str, Any]] = {}
    for i, side in enumerate(a.sides):
        if not side.participant_ids:
            _bad(_("side {side_id} has nobody in it", side_id=side.side_id), f"sides[{i}].participant_ids")
        for pid in side.participant_ids:
            if pid in participants:
                _bad(_("{pid} is on two sides", pid=pid), f"sides[{i}].participant_ids")
            kind = "hazard" if pid in hazards else "character"
            if kind == "character":
                guards.alive(ctx, pid, f"sides[{i}].participant_ids")
            participants[pid] = {
                "id": pid,
                "kind": kind,
                "side_id": side.side_id,
                "removed": False,
                "name": hazards.get(pid) or ctx.characters[pid]["name"],
            }
    if len({s.side_id for s in a.sides}) != len(a.sides):
        _bad(_("side ids must differ"))
    if set(hazards) - set(participants):
        _bad(_("every hazard must be on a side"), "hazards")
    if a.initiator_id not in participants:
        _bad(_("the initiator must be a participant (L157)"), "initiator_id")
    # 7-B27: the GM's cyclic side order starts with the initiator's side ("A").
    sides = [s.model_dump() for s in a.sides]
    first = next(n for n, s in enumerate(sides) if a.initiator_id in s["participant_ids"])
    sides = sides[first:] + sides[:first]
    enc = {
        "id": ctx.next_id("combat", "c"),
        "state": "active",
        "sides": sides,
        "initiator_id": a.initiator_id,
        "participants": participants,
        "round": 0,
        "order": [],
        "current_index": -1,
        "budget": {},
        "reactions_left": {},
        "ready": {p: None for p in participants},
        "help_tokens": [],
        "suggest_end": False,
        "outcome_note": None,
    }
    ctx.table["encounter"] = enc
    enc["order"] = turns.build_order(ctx, enc, a.initiator_id)
    for pid, p in participants.items():
        if p["kind"] == "character":
            ctx.characters[pid]["recovery"]["safe_rest_since"] = None  # fighting is not resting (L68)
    ctx.emit(
        "combat_started",
        IskraCombatStarted(
            encounter_id=enc["id"],
            sides=sides,
            initiator_id=a.initiator_id,
            order=enc["order"],
            participants=participants,
        ),
    )
    turns.start_round(ctx, enc, 1)


def _enc(ctx: Ctx) -> dict[str, Any]:
    return guards.encounter(ctx)


def join_combat(ctx: Ctx, a: Any) -> None:
    """spec 4.12.2: the GM inserts joining participants; they act at the end of the current round's order."""
    enc = _enc(ctx)
    side = next((s for s in enc["sides"] if s["side_id"] == a.side_id), None)
    if side is None:
        _bad(_("no side {side_id}", side_id=a.side_id), "side_id")
    if a.participant_id in enc["participants"]:
        _bad(_("{participant_id} is already a participant", participant_id=a.participant_id), "participant_id")
    if a.kind == "character":
        guards.alive(ctx, a.participant_id, "participant_id")
    name = a.name or (ctx.characters[a.participant_id]["name"] if a.kind == "character" else a.participant_id)
    enc["participants"][a.participant_id] = {
        "id": a.participant_id,
        "kind": a.kind,
        "side_id": a.side_id,
        "removed": False,
        "name": name,
    }
    side["participant_ids"].append(a.participant_id)
    enc["order"].append(a.participant_id)
    enc["ready"][a.participant_id] = None
    enc["reactions_left"][a.participant_id] = turns.reaction_allowance(ctx)
    ctx.emit(
        "participant_joined",
        IskraParticipantJoined(
            encounter_id=enc["id"], participant_id=a.participant_id, side_id=a.side_id, kind=a.kind, order=enc["order"]
        ),
    )


def remove_participant(ctx: Ctx, a: Any) -> None:
    enc = _enc(ctx)
    if ctx.participant(a.participant_id) is None:
        raise violation(
            "not_a_participant",
            _("{participant_id} is not in this combat", participant_id=a.participant_id),
            "participant_id",
        )
    enc["participants"][a.participant_id]["removed"] = True
    enc["ready"][a.participant_id] = None
    ctx.emit("participant_removed", IskraParticipantRef(encounter_id=enc["id"], participant_id=a.participant_id))


def end_combat(ctx: Ctx, a: Any) -> None:
    """7-B28: the source has no end condition, so the GM ends combat (then awards adversity XP if fitting)."""
    guards.no_pending(ctx)
    enc = _enc(ctx)
    enc["state"], enc["outcome_note"] = "ended", a.outcome_note
    ctx.emit("combat_ended", IskraCombatEnded(encounter_id=enc["id"], round=enc["round"], outcome_note=a.outcome_note))


def refresh(ctx: Ctx) -> None:
    """After every move: hand on a dead participant's turn; suggest ending when a side is wiped out."""
    turns.skip_if_gone(ctx)
    enc = ctx.encounter
    if enc is None:
        return
    empty = [s["side_id"] for s in enc["sides"] if not any(turns.live(ctx, enc, p) for p in s["participant_ids"])]
    if empty and not enc["suggest_end"]:
        enc["suggest_end"] = True
        ctx.emit("combat_end_suggested", IskraCombatEndSuggested(encounter_id=enc["id"], sides_without_living=empty))
