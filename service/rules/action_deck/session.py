"""Sessions and the GM's side of the benny economy (seed 1.6, spec §4.28, §5.1, B37)."""

from __future__ import annotations

from service.i18n.message import _
from service.rules.action_deck import bennies
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import (
    ActionDeckGmBenniesDiscarded,
    ActionDeckGmPoolSet,
    ActionDeckNpcLeftPlay,
    ActionDeckSessionClosed,
    ActionDeckSessionOpened,
)


def open_session(ctx: Ctx, a) -> None:
    session = ctx.table["session"]
    if session["status"] == "open":
        raise violation("session_already_open", _("close the current session first"))
    seen: set[str] = set()
    for i, entry in enumerate(a.players):
        for j, cid in enumerate(entry.character_ids):
            ctx.sheet(cid, f"players[{i}].character_ids[{j}]")
            if cid in seen:
                raise violation(
                    "duplicate_character",
                    _("{cid} is listed for two players", cid=cid),
                    f"players[{i}].character_ids[{j}]",
                )
            seen.add(cid)
    if len({e.player_id for e in a.players}) != len(a.players):
        raise violation("unknown_player", _("a player is listed twice"), "players")
    start = ctx.options.bennies_per_player_per_session
    ctx.table["players"] = {e.player_id: {"bennies": start, "character_ids": list(e.character_ids)} for e in a.players}
    party = a.party_size
    if party is None:  # B37a: the player characters present at session start
        party = sum(1 for cid in seen if ctx.characters[cid]["side"] == "party")
    session.update(status="open", number=session["number"] + 1, party_size=party)
    ctx.table["gm"] = {"benny_pool": party, "npc_bennies": {}}
    ctx.emit(
        "session_opened",
        ActionDeckSessionOpened(
            session=session["number"], party_size=party, bennies={pid: start for pid in ctx.table["players"]}
        ),
    )
    ctx.emit("gm_pool_set", ActionDeckGmPoolSet(benny_pool=party), gm_only=True)


def close_session(ctx: Ctx, a) -> None:
    bennies.require_session(ctx)
    if ctx.encounter is not None:
        raise violation("encounter_in_progress", _("end the encounter before closing the session"))
    discarded = {pid: e["bennies"] for pid, e in ctx.table["players"].items()}
    for entry in ctx.table["players"].values():
        entry["bennies"] = 0  # "Na koniec sesji wszystkie fuksy się odrzuca"
    gm = ctx.table["gm"]
    ctx.emit("session_closed", ActionDeckSessionClosed(session=ctx.table["session"]["number"], discarded=discarded))
    ctx.emit(
        "gm_bennies_discarded",
        ActionDeckGmBenniesDiscarded(benny_pool=gm["benny_pool"], npc_bennies=gm["npc_bennies"]),
        gm_only=True,
    )
    ctx.table["gm"] = {"benny_pool": 0, "npc_bennies": {}}  # B37b, B37c
    ctx.table["session"]["status"] = "closed"


def award_benny(ctx: Ctx, a) -> None:
    bennies.require_session(ctx)
    for i, pid in enumerate(a.player_ids):
        if pid not in ctx.table["players"]:
            raise violation("unknown_player", _("{pid} does not play this session", pid=pid), f"player_ids[{i}]")
    bennies.award_players(ctx, list(dict.fromkeys(a.player_ids)), a.count, a.reason or "")


def _npc_wild_card(ctx: Ctx, cid: str) -> dict:
    sheet = ctx.sheet(cid)
    if not bennies.is_npc(ctx, cid):
        raise violation(
            "not_an_npc", _("{name} is a player's character; its bennies are its player's", name=sheet["name"])
        )
    if sheet["kind"] != "wild_card":
        raise violation(
            "not_a_wild_card", _("{name} is an Extra: Extras use the GM pool (seed 1.6)", name=sheet["name"])
        )
    return sheet


def enter_play(ctx: Ctx, a) -> None:
    bennies.require_session(ctx)
    sheet = _npc_wild_card(ctx, a.character_id)
    if a.character_id in ctx.table["gm"]["npc_bennies"]:
        raise violation("already_in_play", _("{name} is already in play", name=sheet["name"]))
    bennies.enter_play(ctx, a.character_id, sheet["benny_bonus"] if a.edge_bonus is None else a.edge_bonus)


def leave_play(ctx: Ctx, a) -> None:
    _npc_wild_card(ctx, a.character_id)
    npc = ctx.table["gm"]["npc_bennies"]
    if a.character_id not in npc:
        raise violation("not_in_play", _("{name} is not in play", name=ctx.name(a.character_id)))
    left = npc.pop(a.character_id)
    ctx.emit(
        "npc_left_play",
        ActionDeckNpcLeftPlay(character_id=a.character_id, discarded=left),
        redacted=ActionDeckNpcLeftPlay(character_id=a.character_id),
    )
