"""Going back in a campaign's history: undoing moves, and finishing or deleting a campaign.

Undo never rewrites the log. It is a move of its own that sets the table back to an earlier
version's state; the undone moves, their events and their dice stay where they were (in the
verification document too), and an `undone` event says who undid what.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select

from service.game.log import events as log
from service.game.deadlines import sync as deadline_sync
from service.game import idempotency
from service.game.log import moves as movelog, tables
from service.game.moves import pipeline
from service.game.auth import authenticate, require_gm
from service.game.campaigns.records import campaign_view
from service.game.context import Services
from service.game.errors import GameError, conflict, invalid, not_found
from service.i18n.message import _, _n
from service.rules.base import Event
from service.rules.registry import SYSTEMS
from service.store.records.models import Campaign, Character, MoveRecord

MAX_UNDO = 100


async def _undo_target(s, campaign: Campaign, count: int) -> tuple[int, list[int]]:
    """The version to go back to, and the moves that undoes. Undo moves are skipped over: the move in
    effect at a version that an undo produced is the one in effect at the undo's target."""
    moves = {
        m.version: m
        for m in await s.scalars(
            select(MoveRecord).where(MoveRecord.campaign_id == campaign.id).order_by(MoveRecord.version)
        )
    }
    at = campaign.table_version
    undone: list[int] = []
    for _step in range(count):
        while at in moves and moves[at].kind == "undo":
            at = moves[at].body["target"]
        if at == 0:
            raise conflict(
                "nothing_to_undo",
                _n(
                    "only {count} move can be undone",
                    "only {count} moves can be undone",
                    len(undone),
                    count=len(undone),
                ),
                "count",
            )
        if moves[at].kind != "action":
            raise conflict(
                "undo_past_character",
                _("undo goes back over rule moves only; a character was created at version {at}", at=at),
                "count",
            )
        undone.append(at)
        at -= 1
    return at, undone


async def undo(svc: Services, campaign_id: str, token: str | None, count: int) -> dict[str, Any]:
    if not 1 <= count <= MAX_UNDO:
        raise invalid("invalid_input", _("count must be 1-{max_undo}", max_undo=MAX_UNDO), "count")
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        campaign = await log.locked_existing(s, campaign_id)
        pipeline.require_active(campaign)
        target, undone = await _undo_target(s, campaign, count)
        state = await movelog.state_at(s, campaign, target)
        blocker = getattr(SYSTEMS[campaign.system], "undo_blocker", None)
        refusal = blocker(state["table"], (await tables.load(svc, s, campaign))["table"]) if blocker else None
        if refusal is not None:
            raise GameError(refusal.status, refusal.code, refusal.detail, field="count")
        for ch in await s.scalars(select(Character).where(Character.campaign_id == campaign.id)):
            sheet = state["characters"].get(ch.id)
            if sheet is not None and sheet != ch.sheet:
                ch.sheet = sheet
                ch.version += 1
        actor = principal.actor()
        first_seq = campaign.last_seq + 1
        records = log.append(
            s,
            campaign,
            [
                Event(
                    "undone",
                    {
                        "undone_versions": undone,
                        "back_to_version": target,
                        "from_version": campaign.table_version,
                        "by": {"role": actor.role, "player_id": actor.player_id},
                    },
                )
            ],
            actor,
        )
        movelog.record(s, campaign, "undo", {"target": target, "undone": undone}, actor, [], first_seq, state)
        await s.flush()
        await deadline_sync.after_move(s, campaign, state["table"])
        await tables.publish(svc, s, campaign, state["table"])
        return await idempotency.complete(
            s,
            {
                "version": campaign.table_version,
                "system": campaign.system,
                "events": [v for v in (log.view(r, principal) for r in records) if v],
                "state": await deadline_sync.annotate(s, campaign.id, SYSTEMS[campaign.system].view(state, actor)),
            },
        )


async def finish(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    """No new moves; the table leaves the live store and is served from the records database."""
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        campaign = await log.locked_existing(s, campaign_id)
        pipeline.require_active(campaign)
        state = await movelog.state_at(s, campaign, campaign.table_version)
        if not await s.get(movelog.SnapshotRecord, (campaign.id, campaign.table_version)):
            movelog.snapshot(s, campaign, campaign.table_version, state)
        campaign.status = "finished"
        await deadline_sync.stop_all(s, campaign.id)
        log.append(s, campaign, [Event("campaign_finished", {"version": campaign.table_version})], principal.actor())
        await tables.evict(svc, s, campaign.id)
        return await idempotency.complete(s, campaign_view(campaign))


async def delete_campaign(svc: Services, campaign_id: str, token: str | None) -> None:
    """Everything goes: records, log, moves, dice sessions, the cached table. Finish first."""
    async with svc.write() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        campaign = await log.locked_campaign(s, campaign_id)
        if campaign is None:
            raise not_found("campaign", "campaign_id")
        if campaign.status == "active":
            raise GameError(
                409, "campaign_active", _("finish the campaign before deleting it (export it first to keep a copy)")
            )
        await tables.evict(svc, s, campaign.id)
        await s.execute(delete(Campaign).where(Campaign.id == campaign.id))
