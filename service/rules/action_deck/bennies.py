"""Who owns which benny, spending one atomically, and every way to gain them (spec §4.15, §4.28, §4.29).

Bennies belong to players, not characters (§3.3); the session roster (`table.players`) says which
player controls which characters. A character in nobody's roster is GM-controlled (an NPC): an NPC Wild
Card pays from its own bennies or the GM pool, an Extra only from the GM pool (seed 1.6).
"""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckBenniesAwarded,
    ActionDeckBennySpent,
    ActionDeckJokersWild,
    ActionDeckNpcEnteredPlay,
)


def owner_player(ctx: Ctx, character_id: str) -> str | None:
    for pid, entry in ctx.table["players"].items():
        if character_id in entry["character_ids"]:
            return pid
    return None


def is_npc(ctx: Ctx, character_id: str) -> bool:
    return owner_player(ctx, character_id) is None


def session_open(ctx: Ctx) -> bool:
    return ctx.table["session"]["status"] == "open"


def require_session(ctx: Ctx) -> None:
    if not session_open(ctx):
        raise violation("no_open_session", _("bennies are granted only during an open session (§5.1)"))


def _payer(ctx: Ctx, character_id: str, group: bool) -> str | None:
    if group:
        return None  # B33: a group test's bennies come from the GM pool
    pid = owner_player(ctx, character_id)
    if pid is None and not ctx.actor.is_gm:
        # A player acting for a character the roster does not list still pays from their own bennies.
        pid = ctx.actor.player_id or ""
    return pid


def spend(ctx: Ctx, character_id: str, source: str, use: str, *, group: bool = False) -> dict[str, Any]:
    """Check the balance, take one benny, record it. Raises before anything changes when none is left."""
    pid = _payer(ctx, character_id, group)
    if pid is not None:
        if source == "gm_pool":
            raise violation(
                "wrong_benny_source", _("a player character's bennies come from its player (§4.28)"), "benny_source"
            )
        entry = ctx.table["players"].get(pid)
        if entry is None or entry["bennies"] < 1:
            raise violation("no_benny", _("player {value} has no benny left", value=pid or "?"), "benny_source")
        entry["bennies"] -= 1
        payer: dict[str, Any] = {"player_id": pid}
        ctx.emit(
            "benny_spent", ActionDeckBennySpent(character_id=character_id, use=use, **payer, bennies=entry["bennies"])
        )
        return payer
    gm = ctx.table["gm"]
    wild = not group and ctx.sheet(character_id)["kind"] == "wild_card"
    own = gm["npc_bennies"].get(character_id, 0)
    if source == "own" and not wild:
        raise violation(
            "wrong_benny_source",
            _("Extras have no bennies of their own; they use the GM pool (seed 1.6)"),
            "benny_source",
        )
    take_own = source == "own" or (source == "auto" and wild and own > 0)
    if take_own:
        if own < 1:
            raise violation(
                "no_benny", _("{name} has no benny of its own left", name=ctx.name(character_id)), "benny_source"
            )
        gm["npc_bennies"][character_id] = own - 1
        payer = {"npc_id": character_id}
        left = own - 1
    else:
        if gm["benny_pool"] < 1:
            raise violation("no_benny", _("the GM pool is empty"), "benny_source")
        gm["benny_pool"] -= 1
        payer = {"gm_pool": True}
        left = gm["benny_pool"]
    public = {"character_id": character_id, "use": use, "paid_by": "gm"}
    # Players see that the GM spent a benny, never what is left (B37g).
    ctx.emit(
        "benny_spent", ActionDeckBennySpent(**public, **payer, bennies=left), redacted=ActionDeckBennySpent(**public)
    )
    return payer


def award_players(ctx: Ctx, player_ids: list[str], count: int, reason: str) -> None:
    players = ctx.table["players"]
    for pid in player_ids:
        players[pid]["bennies"] += count
    ctx.emit(
        "bennies_awarded",
        ActionDeckBenniesAwarded(
            player_ids=list(player_ids),
            count=count,
            reason=reason,
            bennies={pid: players[pid]["bennies"] for pid in player_ids},
        ),
    )


def enter_play(ctx: Ctx, character_id: str, edge_bonus: int, *, hidden: bool = False) -> None:
    """An NPC Wild Card's own bennies: 2 plus Edge bonuses (seed 1.6 'Figury niezależne'). `hidden`: a
    concealed surprise attacker (surprise.py), whose presence players learn only when it is revealed."""
    count = ctx.options.npc_wild_card_bennies + edge_bonus
    ctx.table["gm"]["npc_bennies"][character_id] = count
    public = {"character_id": character_id}
    ctx.emit(
        "npc_entered_play",
        ActionDeckNpcEnteredPlay(**public, bennies=count),
        redacted=ActionDeckNpcEnteredPlay(**public),
        gm_only=hidden,
    )


def jokers_wild(ctx: Ctx, character_id: str, *, hidden: bool = False) -> None:
    """§4.15: a PC or players' ally dealt a Joker → every player +1 (B9: allied NPCs get none); an opponent →
    its side's NPC Wild Cards +1 each (toggle B9) and +1 to the GM pool. Neutral characters: nobody.
    `hidden`: the Joker went to a concealed surprise attacker; players see it when the attacker is revealed
    (never a party-side character, so no player's bennies change unseen)."""
    sheet = ctx.sheet(character_id)
    side = sheet["side"]
    if side in ("party", "party_ally"):
        pids = list(ctx.table["players"])
        for pid in pids:
            ctx.table["players"][pid]["bennies"] += 1
        ctx.emit(
            "jokers_wild",
            ActionDeckJokersWild(
                character_id=character_id,
                side=side,
                bennies={pid: ctx.table["players"][pid]["bennies"] for pid in pids},
            ),
        )
        return
    if side != "opposition":
        ctx.emit("jokers_wild", ActionDeckJokersWild(character_id=character_id, side=side, bennies={}), gm_only=hidden)
        return
    gm = ctx.table["gm"]
    recipients = []
    enc = ctx.encounter
    for cid in enc["order"] if enc else []:
        other = ctx.characters.get(cid)
        if other is None or other["kind"] != "wild_card" or other["side"] != "opposition" or other["eliminated"]:
            continue
        if not is_npc(ctx, cid):
            continue
        if ctx.options.jokers_wild_opposition_recipients == "henchmen_only" and other.get("leader_id") != character_id:
            continue
        gm["npc_bennies"][cid] = gm["npc_bennies"].get(cid, 0) + 1
        recipients.append(cid)
    gm["benny_pool"] += 1
    public = {"character_id": character_id, "side": side}
    ctx.emit(
        "jokers_wild",
        ActionDeckJokersWild(
            **public,
            npc_recipients=recipients,
            gm_pool=gm["benny_pool"],
            npc_bennies={cid: gm["npc_bennies"][cid] for cid in recipients},
        ),
        redacted=ActionDeckJokersWild(**public),
        gm_only=hidden,
    )
