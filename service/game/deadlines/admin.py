"""The GM's hand on the clock: deadline settings, pause and resume (every deadline of the campaign), and
extending one deadline. Each change is logged as an event; players read the deadlines too."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from service.game.deadlines import settings as ds
from service.game.deadlines import sync
from service.game.log import events as log
from service.game import idempotency
from service.game.moves import pipeline
from service.game.log import tables
from service.game.auth import authenticate, require_gm
from service.game.context import Services
from service.game.errors import GameError, not_found
from service.i18n.message import _
from service.rules.base import Actor, Event
from service.store.records.clocks import CampaignClock, TurnDeadline
from service.store.records.models import Campaign, utcnow


class DeadlineExtension(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seconds: int = Field(ge=1, le=ds.MAX_SECONDS, description="Seconds added to this deadline.")


def keep(s, campaign: Campaign, settings: ds.TurnDeadlines, actor: Actor) -> CampaignClock:
    """A new campaign's clock (nothing awaits a player yet, so no deadline starts)."""
    clock = CampaignClock(
        campaign_id=campaign.id, settings=settings.model_dump(mode="json"), paused=False, updated_at=utcnow()
    )
    s.add(clock)
    sync.remember(s, campaign.id, clock)
    log.append(s, campaign, [Event("deadline_settings_changed", clock.settings)], actor)
    return clock


def row_view(row: TurnDeadline, now: float) -> dict[str, Any]:
    left = (
        row.remaining
        if row.status == "paused"
        else (max(0.0, sync.due(row) - now) if row.status == "running" else None)
    )
    return {
        "id": row.id,
        "character_id": row.character_id,
        "may": list(row.may),
        "kind": row.kind,
        "status": row.status,
        "seconds": row.seconds,
        "until": ds.iso(row.due_at) if row.status == "running" else None,
        "seconds_left": None if left is None else round(left, 3),
    }


async def _board(s, campaign_id: str) -> dict[str, Any]:
    found = await sync.clock_of(s, campaign_id)
    now = ds.clock()
    return {
        "settings": (found[1] if found else ds.TurnDeadlines()).model_dump(mode="json"),
        "paused": bool(found and found[0].paused),
        "deadlines": [row_view(r, now) for r in await sync.rows_of(s, campaign_id)],
    }


async def board(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        await authenticate(s, token, campaign_id)
        if await s.get(Campaign, campaign_id) is None:
            raise not_found("campaign", "campaign_id")
        return await _board(s, campaign_id)


async def _gm_campaign(s, campaign_id: str, token: str | None):
    principal = await authenticate(s, token, campaign_id)
    require_gm(principal)
    campaign = await log.locked_existing(s, campaign_id)
    pipeline.require_active(campaign)
    return principal, campaign


async def set_settings(svc: Services, campaign_id: str, token: str | None, body: ds.TurnDeadlines) -> dict[str, Any]:
    """New limits apply from now: every running deadline starts again under them."""
    async with svc.write() as s:
        principal, campaign = await _gm_campaign(s, campaign_id, token)
        clock = await s.get(CampaignClock, campaign_id)
        if clock is None:
            clock = keep(s, campaign, body, principal.actor())
        else:
            clock.settings, clock.updated_at = body.model_dump(mode="json"), utcnow()
            log.append(s, campaign, [Event("deadline_settings_changed", clock.settings)], principal.actor())
        for row in await sync.rows_of(s, campaign_id):
            await s.delete(row)
        await s.flush()
        state = await tables.load(svc, s, campaign)
        await sync.after_move(s, campaign, state["table"])
        return await idempotency.complete(s, await _board(s, campaign_id))


async def pause(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.write() as s:
        principal, campaign = await _gm_campaign(s, campaign_id, token)
        clock = await _clock(s, campaign_id)
        if not clock.paused:
            clock.paused = True
            paused = await sync.pause_running(s, campaign_id, ds.clock())
            log.append(s, campaign, [Event("deadlines_paused", {"deadlines": paused})], principal.actor())
        return await idempotency.complete(s, await _board(s, campaign_id))


async def resume(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.write() as s:
        principal, campaign = await _gm_campaign(s, campaign_id, token)
        clock = await _clock(s, campaign_id)
        if clock.paused:
            warning = ds.TurnDeadlines.model_validate(clock.settings).warning_seconds
            now = ds.clock()
            clock.paused = False
            clock.defaults_in_row = 0  # the GM is here: the clock may again move for the absent
            resumed = []
            for row in await sync.rows_of(s, campaign_id):
                if row.status == "paused":
                    sync.start(row, sync.left(row), warning, now)
                    resumed.append(sync.described(row))
            log.append(s, campaign, [Event("deadlines_resumed", {"deadlines": resumed})], principal.actor())
        return await idempotency.complete(s, await _board(s, campaign_id))


async def extend(
    svc: Services, campaign_id: str, deadline_id: str, token: str | None, body: DeadlineExtension
) -> dict[str, Any]:
    async with svc.write() as s:
        principal, campaign = await _gm_campaign(s, campaign_id, token)
        clock = await _clock(s, campaign_id)
        row = await s.get(TurnDeadline, deadline_id)
        if row is None or row.campaign_id != campaign_id:
            raise not_found("deadline", "deadline_id")
        if row.status == "expired":
            raise GameError(
                409,
                "deadline_expired",
                _("this deadline has already run out; the wait is the GM's now"),
                field="deadline_id",
            )
        row.warned_at = None  # a new limit: warned again before it
        if row.status == "paused":
            row.remaining = sync.left(row) + body.seconds
        else:
            warning = ds.TurnDeadlines.model_validate(clock.settings).warning_seconds
            sync.start(row, sync.due(row) + body.seconds - ds.clock(), warning, ds.clock())
        log.append(
            s,
            campaign,
            [Event("deadline_extended", {**sync.described(row), "seconds": body.seconds})],
            principal.actor(),
        )
        return await idempotency.complete(s, row_view(row, ds.clock()))


async def _clock(s, campaign_id: str) -> CampaignClock:
    clock = await s.get(CampaignClock, campaign_id)
    if clock is None:
        raise GameError(
            409, "no_turn_deadlines", _("this campaign keeps no turn deadlines; set them first"), field="campaign_id"
        )
    return clock
