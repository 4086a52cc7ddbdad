"""Party-level moves at any time: tokens, sides, sessions, resets, equipment, narration
(spec 4.7, 4.14, 4.15, 4.20, 4.22, 5.1.2, 5.6)."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _, _n
from service.rules.trikus import activity, fate, lines, redact
from service.rules.move import without
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.sheet import check_item, check_sides, item, item_record
from service.rules.trikus.events_model import (
    TrikusDarkSideAcknowledged,
    TrikusDarkTokenSpent,
    TrikusGmNoteAdded,
    TrikusItemChanged,
    TrikusItemGiven,
    TrikusLightToken,
    TrikusNarration,
    TrikusSessionStarted,
    TrikusSidesSet,
    TrikusTraitRevealed,
)


def award_light_token(ctx: Ctx, a: Any) -> None:
    """L264: the GM awards them for play true to a Light side, never for passing tests."""
    tok = activity.active_sheet(ctx, a.character_id)["light_tokens"]
    tok["active"] += 1
    tok["received_total"] += 1
    ctx.emit(
        "light_token_awarded", TrikusLightToken(character_id=a.character_id, reason=a.reason, active=tok["active"])
    )


def light_token_fact(ctx: Ctx, a: Any) -> None:
    """L272, A54: the player states a helpful fact; recorded, no veto, no dice."""
    sheet = activity.active_sheet(ctx, a.character_id)
    tok = sheet["light_tokens"]
    if tok["active"] < 1:
        raise violation("insufficient_light_tokens", _("{name} holds no light token", name=sheet["name"]))
    tok["active"] -= 1
    tok["used_total"] += 1
    ctx.emit("light_token_fact", TrikusLightToken(character_id=a.character_id, text=a.text, active=tok["active"]))


def spend_dark_token(ctx: Ctx, a: Any) -> None:
    """L286: the GM's to spend, any time; the player then acts out a dark side and says which (A37)."""
    sheet = activity.active_sheet(ctx, a.character_id)
    tok = sheet["dark_tokens"]
    if tok["active"] < 1:
        raise violation("insufficient_dark_tokens", _("{name} has no active dark token", name=sheet["name"]))
    tok["active"] -= 1
    tok["used_total"] += 1
    prompt = {"id": ctx.next_id("prompt", "d"), "character_id": a.character_id, "note": a.note}
    ctx.table["dark_side_prompts"].append(prompt)
    # The spend itself is open play (the player acts a dark side out); what is left is not, under A38's option.
    spent = TrikusDarkTokenSpent(**prompt, active=tok["active"], used_total=tok["used_total"])
    ctx.emit(
        "dark_token_spent",
        spent,
        redacted=without(spent, "active", "used_total") if ctx.options.hide_dark_counts_from_other_players else None,
    )


def acknowledge_dark_side(ctx: Ctx, a: Any) -> None:
    sheet = ctx.sheet(a.character_id)
    prompts = ctx.table["dark_side_prompts"]
    prompt = next((p for p in prompts if p["character_id"] == a.character_id), None)
    if prompt is None:
        raise violation("no_dark_side_prompt", _("the GM has not spent a dark token of this character"))
    if a.side_index >= len(sheet["dark_sides"]):
        raise violation(
            "no_such_side",
            _n(
                "{name} has {count} dark side",
                "{name} has {count} dark sides",
                len(sheet["dark_sides"]),
                name=sheet["name"],
                count=len(sheet["dark_sides"]),
            ),
            "side_index",
        )
    side = sheet["dark_sides"][a.side_index]
    side["revealed"] = True  # under optional rule 2 the GM learns it only now (L258)
    prompts.remove(prompt)
    ctx.emit(
        "dark_side_acknowledged",
        TrikusDarkSideAcknowledged(
            prompt_id=prompt["id"], character_id=a.character_id, side_index=a.side_index, side=side["text"], text=a.text
        ),
    )


def set_sides(ctx: Ctx, a: Any) -> None:
    """L246: sides are set at creation and at promotion (optional rule 1 for a new Master)."""
    sheet = activity.active_sheet(ctx, a.character_id)
    if not sheet["sides_pending"]:
        raise violation("sides_not_pending", _("sides are rewritten only after a promotion (L246)"))
    check_sides(sheet["tier"], a.light_sides, a.dark_sides, ctx.options)
    sheet["light_sides"] = [s.model_dump(mode="json") for s in a.light_sides]
    sheet["dark_sides"] = [{**s.model_dump(mode="json"), "revealed": False} for s in a.dark_sides]
    sheet["sides_pending"] = False
    full = TrikusSidesSet(character_id=a.character_id, light_sides=sheet["light_sides"], dark_sides=sheet["dark_sides"])
    if ctx.options.opt2_gm_blind_to_dark_sides:
        # Optional rule 2: the GM sees `data`, so the texts travel only in the players' redacted copy.
        blind = TrikusSidesSet(
            character_id=a.character_id,
            light_sides=sheet["light_sides"],
            dark_sides=redact.dark_sides(sheet["dark_sides"]),
        )
        ctx.emit("sides_set", blind, redacted=full)
    else:
        ctx.emit("sides_set", full)


def force_reset(ctx: Ctx, a: Any) -> None:
    """A15: campaign starts, absent characters, stuck parties; logged, never automatic."""
    if ctx.activity is not None:
        raise violation("activity_in_progress", _("reset lines between tests, not during one"))
    lines.reset(ctx, ctx.active_ids(), forced=True, reason=a.reason)


def start_session(ctx: Ctx, a: Any) -> None:
    """L25, L302: the new session starts with the promotions and new Beginners (A34)."""
    if ctx.activity is not None:
        raise violation("activity_in_progress", _("finish or abort the open activity first"))
    ctx.table["session_number"] += 1
    ctx.emit("session_started", TrikusSessionStarted(session_number=ctx.table["session_number"]))
    fate.apply_pending(ctx, session_start=True)


def give_item(ctx: Ctx, a: Any) -> None:
    sheet = ctx.sheet(a.character_id)
    check_item(a.item, "item")
    n = 1 + max((int(it["id"][1:]) for it in sheet["equipment"] if it["id"][1:].isdigit()), default=0)
    rec = item_record(a.item, f"i{n}")
    sheet["equipment"].append(rec)
    ctx.emit(
        "item_given",
        TrikusItemGiven(character_id=a.character_id, item=rec),
        redacted=TrikusItemGiven(character_id=a.character_id, item=redact.item(rec)),
    )


def _item(ctx: Ctx, a: Any) -> dict[str, Any]:
    it = item(ctx.sheet(a.character_id), a.item_id)
    if it is None:
        raise violation("unknown_item", _("no item {item_id!r}", item_id=a.item_id), "item_id")
    return it


def renew_item(ctx: Ctx, a: Any) -> None:
    """L418, A43: the GM marks the renew condition met."""
    it = _item(ctx, a)
    if it["state"] != "depleted" or not any(t["kind"] == "renewable" for t in it["traits"]):
        raise violation(
            "item_not_renewable",
            _("{name} is {state}, not a depleted renewable item", name=it["name"], state=it["state"]),
        )
    it["state"] = "available"
    ctx.emit("item_renewed", TrikusItemChanged(character_id=a.character_id, item_id=it["id"]))


def reveal_trait(ctx: Ctx, a: Any) -> None:
    it = _item(ctx, a)
    if a.trait_index >= len(it["traits"]):
        raise violation(
            "no_such_trait",
            _n(
                "{name} has {count} pip",
                "{name} has {count} pips",
                len(it["traits"]),
                name=it["name"],
                count=len(it["traits"]),
            ),
            "trait_index",
        )
    trait = it["traits"][a.trait_index]
    if trait["known_to_owner"]:
        raise violation("trait_already_known", _("the owner already knows this trait"))
    trait["known_to_owner"] = True
    ctx.emit("trait_revealed", TrikusTraitRevealed(character_id=a.character_id, item_id=it["id"], trait=dict(trait)))


def gm_note(ctx: Ctx, a: Any) -> None:
    if a.character_id is not None:
        ctx.sheet(a.character_id)
    note = {"id": ctx.secret_id("note", "n"), "character_id": a.character_id, "text": a.text}
    ctx.table["gm_notes"].append(note)
    ctx.emit("gm_note", TrikusGmNoteAdded(**note), gm_only=True)


def narrate(ctx: Ctx, a: Any) -> None:
    """L112: every throw comes with a description; recorded, never checked."""
    act = ctx.activity
    ctx.emit(
        "narration",
        TrikusNarration(
            character_id=a.character_id,
            by="gm" if ctx.actor.is_gm else "player",
            activity_id=act["id"] if act else None,
            text=a.text,
        ),
    )


HANDLERS = {
    "award_light_token": award_light_token,
    "light_token_fact": light_token_fact,
    "spend_dark_token": spend_dark_token,
    "acknowledge_dark_side": acknowledge_dark_side,
    "set_sides": set_sides,
    "force_reset": force_reset,
    "start_session": start_session,
    "give_item": give_item,
    "renew_item": renew_item,
    "reveal_trait": reveal_trait,
    "gm_note": gm_note,
    "narrate": narrate,
}
