"""Webhook endpoints of a campaign (GM only): register, list, change or pause, rotate the secret, delete;
their deliveries with every attempt; redeliver one.

The signing secret is returned by registration and rotation only; everywhere else it stays out.
URLs are checked (service/game/webhooks/egress.py) before any transaction opens, so a slow DNS answer holds no lock.
"""

import json
import uuid
from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from sqlalchemy import func, select

from service.game.webhooks import egress, outbox
from service.game.log import events
from service.game import idempotency
from service.game.auth import Principal, authenticate, require_gm
from service.game.context import Services
from service.game.errors import GameError, not_found
from service.game.webhooks.signing import Sealer, new_secret
from service.i18n.message import _n
from service.store.records.models import EventRecord, Webhook, WebhookAttempt, WebhookDelivery, utcnow

MAX_WEBHOOKS = 20
MAX_ROTATION_GRACE = 7 * 24 * 3600
DELIVERY_STATUSES = ("pending", "delivered", "failed")

EventType = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,63}$")]
View = Literal["gm", "players"]
Text = Annotated[str, StringConstraints(max_length=200, pattern=r"^[^\x00-\x1f\x7f]*$")]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class WebhookCreate(_In):
    url: str = Field(max_length=egress.MAX_URL, description="Where deliveries are POSTed: http(s), a public address.")
    event_types: list[EventType] | None = Field(
        None,
        max_length=100,
        description="Event types to deliver (as in the event log, e.g. `dice_rolled`); omitted or empty: every type.",
    )
    view: View = Field(
        "players",
        description="Whose view of the events the webhook gets: `players` (no GM-only "
        "event, secret data redacted) or `gm` (everything the GM sees).",
    )
    description: Text = ""


class WebhookUpdate(_In):
    url: str | None = Field(None, max_length=egress.MAX_URL)
    event_types: list[EventType] | None = Field(None, max_length=100)
    view: View | None = None
    status: Literal["active", "paused"] | None = Field(
        None,
        description="paused: no deliveries are written for new events and pending ones wait; active again "
        "(also for a webhook the service disabled after timeouts in a row): the pending ones go "
        "out, in order.",
    )
    description: Text | None = None


class SecretRotation(_In):
    """What a rotation takes: REST reads it from the query string, GraphQL from the mutation's input."""

    keep_previous_seconds: int = Field(
        0,
        ge=0,
        le=MAX_ROTATION_GRACE,
        description="Keep signing with the previous secret too for this long (0, the default: it stops at once).",
    )


def _iso(value: datetime | float | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, (int, float)):
        value = datetime.fromtimestamp(value, timezone.utc)
    return value.isoformat()


def webhook_view(w: Webhook) -> dict[str, Any]:
    grace = w.previous_until if w.previous_secret and w.previous_until and w.previous_until > outbox.clock() else None
    return {
        "id": w.id,
        "url": w.url,
        "event_types": list(w.event_types),
        "view": w.view,
        "status": w.status,
        "description": w.description,
        "previous_secret_expires_at": _iso(grace),
        "timeouts_in_row": w.timeouts_in_row,
        "retry_at": _iso(w.retry_at) if w.timeouts_in_row and w.retry_at > outbox.clock() else None,
        "created_at": _iso(w.created_at),
        "updated_at": _iso(w.updated_at),
    }


def delivery_view(d: WebhookDelivery, attempts: list[WebhookAttempt] | None = None) -> dict[str, Any]:
    out = {
        "id": d.id,
        "webhook_id": d.webhook_id,
        "seq": d.seq,
        "event_type": d.event_type,
        "status": d.status,
        "attempts": d.attempts,
        "next_attempt_at": _iso(d.next_attempt_at) if d.status == "pending" else None,
        "last_attempt_at": _iso(d.last_attempt_at),
        "last_response_code": d.last_response_code,
        "last_duration_ms": d.last_duration_ms,
        "last_error": d.last_error,
        "delivered_at": _iso(d.delivered_at),
        "created_at": _iso(d.created_at),
    }
    if attempts is not None:
        out["payload"] = json.loads(d.payload)
        out["attempt_log"] = [
            {
                "started_at": _iso(a.started_at),
                "duration_ms": a.duration_ms,
                "response_code": a.response_code,
                "error": a.error,
            }
            for a in attempts
        ]
    return out


async def _gm(s, token: str | None, campaign_id: str) -> Principal:
    principal = await authenticate(s, token, campaign_id)
    require_gm(principal)
    return principal


async def _webhook(s, campaign_id: str, webhook_id: str) -> Webhook:
    w = await s.get(Webhook, webhook_id)
    if w is None or w.campaign_id != campaign_id:
        raise not_found("webhook", "webhook_id")
    return w


async def _delivery(s, webhook: Webhook, delivery_id: str) -> WebhookDelivery:
    d = await s.get(WebhookDelivery, delivery_id)
    if d is None or d.webhook_id != webhook.id:
        raise not_found("delivery", "delivery_id")
    return d


async def create(svc: Services, campaign_id: str, token: str | None, body: WebhookCreate) -> dict[str, Any]:
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
    await egress.check_url(body.url, svc.settings.webhooks_allow_loopback)
    async with svc.write() as s:
        await _gm(s, token, campaign_id)
        await events.locked_campaign(s, campaign_id)  # two registrations at once still count each other
        count = await s.scalar(select(func.count()).select_from(Webhook).where(Webhook.campaign_id == campaign_id)) or 0
        if count >= MAX_WEBHOOKS:
            raise GameError(
                409,
                "too_many_webhooks",
                _n(
                    "a campaign has at most {max_webhooks} webhook",
                    "a campaign has at most {max_webhooks} webhooks",
                    MAX_WEBHOOKS,
                    max_webhooks=MAX_WEBHOOKS,
                ),
            )
        secret = new_secret()
        w = Webhook(
            id=str(uuid.uuid4()),
            campaign_id=campaign_id,
            url=body.url,
            event_types=sorted(set(body.event_types or [])),
            view=body.view,
            status="active",
            description=body.description,
        )
        w.secret = Sealer(svc.settings.webhooks_secrets_key).seal(w.id, secret)
        s.add(w)
        await s.flush()
        return await idempotency.complete(s, {**webhook_view(w), "secret": secret})


async def list_webhooks(svc: Services, campaign_id: str, token: str | None) -> list[dict[str, Any]]:
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
        rows = await s.scalars(select(Webhook).where(Webhook.campaign_id == campaign_id).order_by(Webhook.created_at))
        return [webhook_view(w) for w in rows]


async def get(svc: Services, campaign_id: str, webhook_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
        return webhook_view(await _webhook(s, campaign_id, webhook_id))


async def update(
    svc: Services, campaign_id: str, webhook_id: str, token: str | None, body: WebhookUpdate
) -> dict[str, Any]:
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
        await _webhook(s, campaign_id, webhook_id)
    if body.url is not None:
        await egress.check_url(body.url, svc.settings.webhooks_allow_loopback)
    async with svc.write() as s:
        await _gm(s, token, campaign_id)
        w = await _webhook(s, campaign_id, webhook_id)
        if body.url is not None:
            w.url = body.url
        if body.event_types is not None:
            w.event_types = sorted(set(body.event_types))
        before = (w.view, list(w.event_types))
        if body.status == "active" and w.status != "active":  # a fresh start, without the backoff it earned
            w.timeouts_in_row, w.retry_at = 0, 0.0
        for name in ("view", "status", "description"):
            if getattr(body, name) is not None:
                setattr(w, name, getattr(body, name))
        w.updated_at = utcnow()
        if (w.view, list(w.event_types)) != before:
            await _refilter_pending(s, w)
        await s.flush()
        out = webhook_view(w)
    svc.deliveries_due.set()  # a resumed webhook's pending deliveries go now, not at the next poll
    return out


async def _refilter_pending(s, w: Webhook) -> None:
    """Pending deliveries follow a changed view or event types: a webhook switched to the players' view
    must not still send what only the GM saw when the delivery was written."""
    pending = list(
        await s.scalars(
            select(WebhookDelivery).where(WebhookDelivery.webhook_id == w.id, WebhookDelivery.status == "pending")
        )
    )
    for d in pending:
        rec = await s.scalar(
            select(EventRecord).where(EventRecord.campaign_id == w.campaign_id, EventRecord.seq == d.seq)
        )
        body = outbox.payload(rec, w.view) if rec is not None and outbox.wants(w, rec) else None
        if body is None:
            await s.delete(d)
        else:
            d.payload = body


async def rotate_secret(
    svc: Services, campaign_id: str, webhook_id: str, token: str | None, keep_previous_seconds: int = 0
) -> dict[str, Any]:
    """A new secret from now on. With `keep_previous_seconds`, deliveries carry a second signature made
    with the old secret until then, so a receiver can switch without refusing anything."""
    async with svc.write() as s:
        await _gm(s, token, campaign_id)
        w = await _webhook(s, campaign_id, webhook_id)
        sealer = Sealer(svc.settings.webhooks_secrets_key)
        secret = new_secret()
        if keep_previous_seconds > 0:
            w.previous_secret, w.previous_until = w.secret, outbox.clock() + keep_previous_seconds
        else:
            w.previous_secret, w.previous_until = None, None
        w.secret = sealer.seal(w.id, secret)
        w.updated_at = utcnow()
        await s.flush()
        return await idempotency.complete(s, {**webhook_view(w), "secret": secret})


async def delete(svc: Services, campaign_id: str, webhook_id: str, token: str | None) -> None:
    async with svc.write() as s:
        await _gm(s, token, campaign_id)
        await s.delete(await _webhook(s, campaign_id, webhook_id))


async def deliveries(
    svc: Services,
    campaign_id: str,
    webhook_id: str,
    token: str | None,
    *,
    status: str | None = None,
    before: int | None = None,
    limit: int = 50,
) -> dict[str, Any]:
    """Newest first; pass `next_before` as `before` to read on."""
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
        w = await _webhook(s, campaign_id, webhook_id)
        q = select(WebhookDelivery).where(WebhookDelivery.webhook_id == w.id)
        if status is not None:
            q = q.where(WebhookDelivery.status == status)
        if before is not None:
            q = q.where(WebhookDelivery.seq < before)
        rows = list(await s.scalars(q.order_by(WebhookDelivery.seq.desc()).limit(limit)))
        return {
            "items": [delivery_view(d) for d in rows],
            "next_before": rows[-1].seq if rows else before,
            "has_more": len(rows) == limit,
        }


async def _with_attempts(s, d: WebhookDelivery) -> dict[str, Any]:
    attempts = list(
        await s.scalars(select(WebhookAttempt).where(WebhookAttempt.delivery_id == d.id).order_by(WebhookAttempt.id))
    )
    return delivery_view(d, attempts)


async def delivery(
    svc: Services, campaign_id: str, webhook_id: str, delivery_id: str, token: str | None
) -> dict[str, Any]:
    async with svc.read() as s:
        await _gm(s, token, campaign_id)
        return await _with_attempts(s, await _delivery(s, await _webhook(s, campaign_id, webhook_id), delivery_id))


async def redeliver(
    svc: Services, campaign_id: str, webhook_id: str, delivery_id: str, token: str | None
) -> dict[str, Any]:
    """Send a delivery again, as soon as it is the endpoint's earliest pending one, with a fresh budget of
    attempts and the same `webhook-id` (a receiver that already has it may drop it as a duplicate)."""
    async with svc.write() as s:
        await _gm(s, token, campaign_id)
        d = await _delivery(s, await _webhook(s, campaign_id, webhook_id), delivery_id)
        d.status, d.attempts, d.next_attempt_at = "pending", 0, outbox.clock()
        await s.flush()
        out = await _with_attempts(s, d)
    svc.deliveries_due.set()
    return out
