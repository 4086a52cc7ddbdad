"""The stored languages: the campaign's default (the GM's to set) and each player's own (the player's to set).
Which one a reply uses is decided per request (service/i18n/negotiate.py)."""

from __future__ import annotations

from typing import Any

from service.game.log import events as log
from service.game.auth import authenticate, require_gm
from service.game.campaigns.records import campaign_view, player_view
from service.game.context import Services
from service.game.errors import forbidden, not_found
from service.game.inputs import CampaignLanguageUpdate, PlayerLanguageUpdate
from service.game.moves.pipeline import require_active
from service.i18n import context
from service.i18n.message import _
from service.rules.base import Event
from service.store.records.models import Player


async def set_campaign_language(
    svc: Services, campaign_id: str, token: str | None, body: CampaignLanguageUpdate
) -> dict[str, Any]:
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await log.locked_existing(s, campaign_id)
        require_active(c)
        if c.language != body.language:
            c.language = body.language
            log.append(s, c, [Event("campaign_language_changed", {"language": c.language})], principal.actor())
        choice = context.current.get()
        if choice is not None:
            choice.campaign = c.language
        return campaign_view(c)


async def set_player_language(
    svc: Services, campaign_id: str, player_id: str, token: str | None, body: PlayerLanguageUpdate
) -> dict[str, Any]:
    """A preference is personal: only the player sets it (the GM has the campaign's)."""
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        player = await s.get(Player, player_id)
        if player is None or player.campaign_id != campaign_id:
            raise not_found("player", "player_id")
        if principal.player_id != player_id:
            raise forbidden(_("only the player sets their own language"), "player_id")
        player.language = body.language
        choice = context.current.get()
        if choice is not None:
            choice.player = player.language
        return player_view(player)
