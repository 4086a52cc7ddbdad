"""After-effects of losing all stamina (spec §4.15), chosen in a planning scene (A33), once per player."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.danger_pool import guards
from service.rules.danger_pool.context import Ctx
from service.rules.danger_pool.errors import violation
from service.rules.danger_pool.sheet import AFTERMATH_OPTIONS, ability, reducible
from service.rules.danger_pool.events_model import (
    DangerPoolAftermathApplied,
    DangerPoolAftermathChangeRequested,
    DangerPoolAftermathProposed,
    DangerPoolAftermathSettledByGm,
    DangerPoolCharacterBetrayedTeam,
)

FIELDS = {
    "take_the_hit": {"ability"},
    "set_someone_up": {"ability", "target_character_id"},
    "betray_the_team": {"plan"},
    "hide_the_pain": {"exit"},
}
REQUIRED = {"take_the_hit": ("ability",), "set_someone_up": ("target_character_id", "ability")}


def used(ctx: Ctx, cid: str) -> set[str]:
    """Source: "одному игроку" — per player (A34 toggle: per character). A character nobody was assigned
    to counts as its own player."""
    sheet = ctx.characters[cid]
    pid = sheet.get("player_id")
    if ctx.options.aftermath_scope == "player" and pid is not None:
        return set(ctx.table["players"].get(pid, {}).get("aftermath_used", []))
    return set(sheet["aftermath_used"])


def _mark_used(ctx: Ctx, cid: str, option: str) -> None:
    sheet = ctx.characters[cid]
    sheet["aftermath_used"].append(option)
    if sheet.get("player_id"):
        entry = ctx.table["players"].setdefault(sheet["player_id"], {"character_id": cid, "aftermath_used": []})
        entry["aftermath_used"].append(option)


def _victims(ctx: Ctx, cid: str) -> list[str]:
    """Set Someone Else Up targets another player's active character (§4.15.2)."""
    pid = ctx.characters[cid].get("player_id")
    return sorted(
        c
        for c, s in ctx.characters.items()
        if c != cid and s.get("status") == "active" and (pid is None or s.get("player_id") != pid)
    )


def available(ctx: Ctx, cid: str) -> list[str]:
    """A35: the options this character could still choose."""
    out = []
    for option in AFTERMATH_OPTIONS:
        if option in used(ctx, cid):
            continue
        if option == "take_the_hit" and not reducible(ctx.characters[cid]):
            continue
        if option == "set_someone_up" and not any(reducible(ctx.characters[v]) for v in _victims(ctx, cid)):
            continue
        out.append(option)
    return out


def _owed(ctx: Ctx, cid: str) -> dict[str, Any]:
    sheet = guards.active(ctx, cid)
    if not sheet["pending_aftermath"]:
        raise violation("no_pending_aftermath", _("{name} owes no after-effect (§4.15)", name=sheet["name"]))
    sc = ctx.scene
    if sc is None or sc["kind"] != "planning":
        raise violation("not_in_planning_scene", _("after-effects are chosen during a planning scene (§4.15, A33)"))
    return sheet


def _reduce(ctx: Ctx, cid: str, name: str, field: str) -> int:
    sheet = ctx.characters[cid]
    if ability(sheet, name, field) < 2:
        raise violation("ability_too_low", _("only an ability rated 2 or more can be reduced (§4.15)"), field)
    return sheet["abilities"][name]


def choose_aftermath(ctx: Ctx, a: Any) -> None:
    cid = a.character_id
    sheet = _owed(ctx, cid)
    if a.option in used(ctx, cid):
        raise violation(
            "aftermath_option_used",
            _(
                "{option} was already used; the same option cannot be used twice ({aftermath_scope} scope, §4.15)",
                option=a.option,
                aftermath_scope=ctx.options.aftermath_scope,
            ),
            "option",
        )
    for name in ("ability", "target_character_id", "plan", "exit"):
        if getattr(a, name) is not None and name not in FIELDS[a.option]:
            raise violation(
                "field_not_applicable", _("{name} does not apply to {option}", name=name, option=a.option), name
            )
    for name in REQUIRED.get(a.option, ()):
        if getattr(a, name) is None:
            raise violation("field_required", _("{option} needs {name}", option=a.option, name=name), name)
    if a.option == "take_the_hit":
        _reduce(ctx, cid, a.ability, "ability")
        # A39: the GM may ask for another ability or description, so this waits for approval.
        sheet["aftermath_proposal"] = {
            "option": a.option,
            "ability": a.ability,
            "description": a.description,
            "state": "proposed",
            "note": None,
        }
        ctx.emit("aftermath_proposed", DangerPoolAftermathProposed(character_id=cid, **sheet["aftermath_proposal"]))
    elif a.option == "set_someone_up":
        _set_up(ctx, cid, a)
    elif a.option == "betray_the_team":
        _betray(ctx, cid, a)
    else:
        sheet["doomed_next_scene"], sheet["doomed_in_scene_id"] = True, None
        sheet["doomed_exit"] = a.exit or "dead"
        _applied(ctx, cid, a.option, {"exit": sheet["doomed_exit"], "description": a.description})


def _applied(ctx: Ctx, cid: str, option: str, data: dict[str, Any], redacted: dict[str, Any] | None = None) -> None:
    sheet = ctx.characters[cid]
    _mark_used(ctx, cid, option)
    sheet["pending_aftermath"], sheet["aftermath_proposal"] = False, None
    base = {"character_id": cid, "option": option}
    ctx.emit(
        "aftermath_applied",
        DangerPoolAftermathApplied(**base, **data),
        redacted=None if redacted is None else DangerPoolAftermathApplied(**base, **redacted),
    )


def _set_up(ctx: Ctx, cid: str, a: Any) -> None:
    target = a.target_character_id
    ctx.sheet(target, "target_character_id")
    if target not in _victims(ctx, cid):
        guards.active(ctx, target, "target_character_id")
        raise violation(
            "invalid_set_up_target",
            _("Set Someone Else Up picks another player's character (§4.15.2)"),
            "target_character_id",
        )
    victim = ctx.characters[target]
    rating = _reduce(ctx, target, a.ability, "ability")
    victim["abilities"][a.ability] = rating - 1
    gain = ctx.options.cp_per_accepted_reduction if ctx.options.set_up_victim_gains_cp else 0  # A11
    victim["character_points"] += gain
    _applied(
        ctx,
        cid,
        a.option,
        {
            "target_character_id": target,
            "ability": a.ability,
            "rating": rating - 1,
            "victim_character_points_gained": gain,
            "description": a.description,
        },
    )


def _betray(ctx: Ctx, cid: str, a: Any) -> None:
    sheet = ctx.characters[cid]
    pid = sheet.get("player_id")
    players = ctx.table["players"]
    # Every OTHER player gains 1 point, on their current character (§4.15.3); unassigned active
    # characters count as their own players.
    others = {e["character_id"] for p, e in players.items() if p != pid and e.get("character_id")}
    others |= {c for c, s in ctx.characters.items() if s.get("player_id") is None}
    got = sorted(c for c in others if c != cid and ctx.characters.get(c, {}).get("status") == "active")
    for c in got:
        ctx.characters[c]["character_points"] += 1
    ctx.table["pending_track_boxes"] += ctx.options.betrayal_track_boxes
    _applied(
        ctx,
        cid,
        a.option,
        {
            "character_points_to": got,
            "track_boxes": ctx.options.betrayal_track_boxes,
            "plan": a.plan,
            "description": a.description,
        },
        redacted={"character_points_to": got, "track_boxes": ctx.options.betrayal_track_boxes},
    )
    sheet.update(status="traitor_npc", player_id=None, former_player_id=pid, traitor_plan=a.plan)
    if pid and players.get(pid, {}).get("character_id") == cid:
        players[pid]["character_id"] = None  # A36: what the player does next is the table's call
    ctx.table["traitor_elements"].append(cid)
    ctx.emit("character_betrayed_team", DangerPoolCharacterBetrayedTeam(character_id=cid, former_player_id=pid))


def review_aftermath(ctx: Ctx, a: Any) -> None:
    cid = a.character_id
    sheet = _owed(ctx, cid)
    prop = sheet["aftermath_proposal"]
    if prop is None or prop["state"] != "proposed":
        raise violation(
            "no_aftermath_proposal",
            _("{name} has no proposal waiting for review (A39)", name=sheet["name"]),
            "character_id",
        )
    if a.decision == "request_change":
        prop.update(state="change_requested", note=a.note)
        ctx.emit("aftermath_change_requested", DangerPoolAftermathChangeRequested(character_id=cid, note=a.note))
        return
    if prop["option"] in used(ctx, cid):
        raise violation(
            "aftermath_option_used", _("{option} was already used (§4.15)", option=prop["option"]), "character_id"
        )
    rating = _reduce(ctx, cid, prop["ability"], "character_id")
    sheet["abilities"][prop["ability"]] = rating - 1
    sheet["character_points"] += ctx.options.cp_per_accepted_reduction  # A10: accepting a reduction
    _applied(
        ctx,
        cid,
        prop["option"],
        {
            "ability": prop["ability"],
            "rating": rating - 1,
            "character_points_gained": ctx.options.cp_per_accepted_reduction,
            "description": prop["description"],
        },
    )


def settle_aftermath(ctx: Ctx, a: Any) -> None:
    sheet = ctx.sheet(a.character_id)
    if not sheet["pending_aftermath"]:
        raise violation("no_pending_aftermath", _("{name} owes no after-effect (§4.15)", name=sheet["name"]))
    left = available(ctx, a.character_id)
    if left:
        raise violation("aftermath_option_available", _("options remain: {left} (A35)", left=", ".join(left)))
    sheet["pending_aftermath"], sheet["aftermath_proposal"] = False, None
    ctx.emit("aftermath_settled_by_gm", DangerPoolAftermathSettledByGm(character_id=a.character_id, text=a.text))
