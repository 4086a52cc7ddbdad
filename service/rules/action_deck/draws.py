"""Drawing another Action Card with a benny (seed 1.6, spec §4.14, B10, B11, B45).

Open from the deal until the first turn of the round begins. The character keeps exactly one card; the
others go to the discard pile. Unchosen at the close: the highest (a Joker above all). A Joker drawn this
way triggers the reshuffle at once, Jokers Wild only when it is kept (B10).
"""

from __future__ import annotations

from service.i18n.message import _, _n
from service.rules.action_deck import bennies, deck, guards
from service.rules.action_deck.cards import highest, is_joker
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import ActionDeckCardKept, ActionDeckExtraCardDrawn, ActionDeckRoundRef


def unit(ctx: Ctx, character_id: str) -> list[str]:
    """Those acting on the same card: a group of Extras sharing one (B2), else the character alone."""
    enc = ctx.running()
    group = enc["participants"][character_id].get("group")
    if group is None:
        return [character_id]
    card = enc["participants"][character_id]["card"]
    return [m for m in enc["groups"][group] if enc["participants"][m]["card"] == card]


def _window(ctx: Ctx, character_id: str) -> dict:
    guards.owner(ctx, character_id)
    guards.alive(ctx, character_id)
    enc = guards.encounter(ctx)
    slot = guards.participant(ctx, character_id)
    if not enc["draw_window_open"]:
        raise violation(
            "draw_window_closed",
            _("extra cards are drawn only at the start of the round, before the first turn (seed 1.6)"),
        )
    if not slot["card"]:
        raise violation(
            "no_card", _("{name} has no Action Card this round (on hold or surprised)", name=ctx.name(character_id))
        )
    return slot


def draw_extra_card(ctx: Ctx, a) -> None:
    cid = a.character_id
    slot = _window(ctx, cid)
    limit = ctx.options.extra_card_draws_per_round
    if limit is not None and slot["draws"] >= limit:
        raise violation(
            "extra_draw_limit",
            _n(
                "at most {limit} extra card per round in this campaign (B11)",
                "at most {limit} extra cards per round in this campaign (B11)",
                limit,
                limit=limit,
            ),
        )
    deck.validate_draws(ctx, 1, None if a.card is None else [a.card], "card")
    payer = bennies.spend(ctx, cid, a.benny_source, "draw_card")
    card = deck.draw(ctx, a.card)
    members = unit(ctx, cid)
    for m in members:
        s = ctx.running()["participants"][m]
        s["candidates"].append(card)
        s["draws"] += 1
    ctx.emit(
        "extra_card_drawn",
        ActionDeckExtraCardDrawn(
            character_id=cid,
            card=card,
            candidates=list(slot["candidates"]),
            paid_by=payer if "player_id" in payer else "gm",
        ),
    )


def keep(ctx: Ctx, character_id: str, card: str, reason: str) -> None:
    members = unit(ctx, character_id)
    slot = ctx.running()["participants"][character_id]
    deck.discard(ctx, [c for c in slot["candidates"] if c != card])
    for m in members:
        s = ctx.running()["participants"][m]
        s.update(card=card, candidates=[card], joker_active=is_joker(card))
    ctx.emit("card_kept", ActionDeckCardKept(character_id=character_id, card=card, reason=reason))
    if is_joker(card) and not slot["joker_awarded"]:
        for m in members:
            ctx.running()["participants"][m]["joker_awarded"] = True
        bennies.jokers_wild(ctx, character_id)


def keep_card(ctx: Ctx, a) -> None:
    slot = _window(ctx, a.character_id)
    if a.card not in slot["candidates"]:
        raise violation(
            "card_not_held", _("{card} is not one of {candidates}", card=a.card, candidates=slot["candidates"]), "card"
        )
    keep(ctx, a.character_id, a.card, "chosen")


def close_window(ctx: Ctx) -> None:
    enc = ctx.running()
    if not enc["draw_window_open"]:
        return
    enc["draw_window_open"] = False
    done: set[str] = set()
    for cid in enc["order"]:
        slot = enc["participants"][cid]
        if cid in done or len(slot["candidates"]) < 2:
            continue
        done.update(unit(ctx, cid))
        keep(ctx, cid, highest(slot["candidates"]), "default_highest")
    ctx.emit("draw_window_closed", ActionDeckRoundRef(round=enc["round"]))
