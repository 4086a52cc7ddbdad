"""Surprise attackers stay hidden from players until revealed (seed 1.2, spec §4.12, §8).

The attackers of a surprise round are dealt a card and wait on hold. Players must not learn who they are, so
an attacker the players do not control (any NPC not on the party's side) is *concealed*: it is left out of
the players' view of the encounter — its place in the order, its slot, its card in play, its group — and out
of the players' copy of every event that would name it. It is revealed, with its card, when it acts (a claim
or an interrupt ends its hold), when its hold is lost, when the surprise round ends, or when the encounter
ends. Players on the party's side planned their own ambush: their attackers are never concealed.
"""

from __future__ import annotations

from typing import Any

from service.rules.action_deck.bennies import owner_player
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.events_model import ActionDeckSurpriseAttackerRevealed

PARTY_SIDES = ("party", "party_ally")


def concealable(ctx: Ctx, attackers: list[str]) -> list[str]:
    return [
        cid for cid in attackers if owner_player(ctx, cid) is None and ctx.characters[cid]["side"] not in PARTY_SIDES
    ]


def concealed(enc: dict[str, Any] | None) -> list[str]:
    surprise = (enc or {}).get("surprise") or {}
    return list(surprise.get("concealed", []))


def is_concealed(ctx: Ctx, cid: str) -> bool:
    return cid in concealed(ctx.encounter)


def reveal(ctx: Ctx, cid: str, reason: str) -> None:
    enc = ctx.running()
    enc["surprise"]["concealed"].remove(cid)
    slot = enc["participants"][cid]
    ctx.emit(
        "surprise_attacker_revealed",
        ActionDeckSurpriseAttackerRevealed(
            character_id=cid,
            reason=reason,
            card=slot["card"],
            on_hold=slot["on_hold"],
            joker_active=slot["joker_active"],
            group=slot["group"],
        ),
    )


def reveal_all(ctx: Ctx, reason: str) -> None:
    for cid in concealed(ctx.encounter):
        reveal(ctx, cid, reason)


def reveal_due(ctx: Ctx) -> None:
    """After every move: an attacker that is no longer waiting in ambush is in plain sight."""
    enc = ctx.encounter
    if enc is None:
        return
    for cid in concealed(enc):
        slot = enc["participants"][cid]
        waiting = slot["on_hold"] or enc["phase"] in ("dealing", "surprise_notice")  # dealt on hold
        if enc["round"] > 1:
            reveal(ctx, cid, "surprise_round_over")
        elif not waiting or slot["turn"] is not None or slot["acted"] or slot["draws"]:
            reveal(ctx, cid, "acted")  # a claim, an interrupt, a lost hold, a benny draw
        elif ctx.characters[cid]["eliminated"]:
            reveal(ctx, cid, "eliminated")


# --- what players see ----------------------------------------------------------------------------------------


def without(ids: list[str], hidden: set[str]) -> list[str]:
    return [cid for cid in ids if cid not in hidden]


def public_groups(groups: dict[str, list[str]], hidden: set[str]) -> dict[str, list[str]]:
    out = {g: without(members, hidden) for g, members in groups.items()}
    return {g: members for g, members in out.items() if members}


def redact_view(table: dict[str, Any]) -> None:
    """A player's copy of the table (already a deep copy): concealed attackers and their cards are taken out.
    Their cards count as face down, with the undealt ones, so the totals still come to 54."""
    enc = table.get("encounter")
    hidden = set(concealed(enc))
    if enc is None or enc.get("surprise") is None:
        return
    enc["surprise"].pop("concealed", None)
    if not hidden:
        return
    # An ambusher's claim or interrupt would name it before it acts.
    table["awaiting"] = [e for e in table.get("awaiting", []) if e.get("character_id") not in hidden]
    cards = set()
    for cid in hidden:
        slot = enc["participants"].pop(cid)
        cards |= {c for c in [slot["card"], *slot["candidates"]] if c}
    enc["order"] = without(enc["order"], hidden)
    enc["groups"] = public_groups(enc["groups"], hidden)
    enc["surprise"]["attackers"] = without(enc["surprise"]["attackers"], hidden)
    deck = table.get("deck")
    if deck is not None:
        face_up = [c for c in deck.get("in_play", []) if c not in cards]
        deck["draw_pile_count"] = deck.get("draw_pile_count", 0) + len(deck.get("in_play", [])) - len(face_up)
        deck["in_play"] = face_up
