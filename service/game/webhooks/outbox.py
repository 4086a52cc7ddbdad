"""The webhook outbox: one delivery row per event per matching active webhook, written in the transaction
that appends the event, so a delivery exists exactly when its event committed.

`Services.write` hands `enqueue` the events its transaction appended (`events.appended`) just before it
commits. The body of each delivery is fixed here, as the webhook's chosen view shows the event (the same
shape as the REST event log), so every attempt sends and signs the same bytes.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from service.game.log import events
from service.game.auth import Principal
from service.i18n import DEFAULT
from service.i18n import context as i18n_context
from service.store.records.models import Campaign, EventRecord, Webhook, WebhookDelivery

clock: Callable[[], float] = time.time

_VIEWERS = {"gm": "gm", "players": "player"}


def viewer(campaign_id: str, view: str) -> Principal:
    """Whose eyes a webhook sees through: the GM's, or any player's (no GM-only event, redacted data)."""
    return Principal(
        credential_id="webhook", campaign_id=campaign_id, role=_VIEWERS[view], player_id=None, character_ids=frozenset()
    )


def payload(rec: events.EventRow | EventRecord, view: str) -> str | None:
    """The delivery body, or None when this view does not see the event at all."""
    shown = events.view(rec, viewer(rec.campaign_id, view))
    if shown is None:
        return None
    body: dict[str, Any] = {
        "type": rec.type,
        "timestamp": shown["created_at"],
        "campaign_id": rec.campaign_id,
        "data": shown,
    }
    return json.dumps(body, separators=(",", ":"), sort_keys=True)


def wants(hook: Webhook, rec: events.EventRow | EventRecord) -> bool:
    return hook.campaign_id == rec.campaign_id and (not hook.event_types or rec.type in hook.event_types)


def new_delivery_id() -> str:
    return "msg_" + uuid.uuid4().hex


# session.info key: campaigns this transaction already found without an active webhook, while holding their lock.
_HOOKLESS = "rulekeeper.hookless"


def no_webhooks(session: AsyncSession, campaign_id: str) -> None:
    """The campaign had no active webhook when this transaction locked it: `enqueue` need not ask again."""
    session.info.setdefault(_HOOKLESS, set()).add(campaign_id)


async def enqueue(session: AsyncSession, records: list[events.EventRow], wake: asyncio.Event | None = None) -> int:
    """Write the deliveries for `records`, the events this transaction appended; `wake` is set once it commits."""
    campaigns = {r.campaign_id for r in records} - session.info.get(_HOOKLESS, set())
    if not campaigns:
        return 0
    hooks = list(
        await session.scalars(
            select(Webhook)
            .where(Webhook.campaign_id.in_(campaigns), Webhook.status == "active")
            .order_by(Webhook.created_at)
        )
    )
    if not hooks:
        return 0
    await session.flush()  # the records' created_at, as the log will show it
    # A delivery has no reader to ask: its descriptions are in the campaign's language.
    languages = dict(
        (
            await session.execute(
                select(Campaign.id, Campaign.language).where(Campaign.id.in_({h.campaign_id for h in hooks}))
            )
        ).all()
    )
    now = clock()
    written = 0
    for hook in hooks:
        for rec in sorted(records, key=lambda r: r.seq):
            if not wants(hook, rec):
                continue
            with i18n_context.using(languages.get(rec.campaign_id) or DEFAULT):
                body = payload(rec, hook.view)
            if body is None:
                continue
            session.add(
                WebhookDelivery(
                    id=new_delivery_id(),
                    webhook_id=hook.id,
                    campaign_id=rec.campaign_id,
                    seq=rec.seq,
                    event_type=rec.type,
                    payload=body,
                    status="pending",
                    attempts=0,
                    next_attempt_at=now,
                    lease="",
                    lease_until=0.0,
                )
            )
            written += 1
    if written and wake is not None:
        sa_event.listen(session.sync_session, "after_commit", lambda _s: wake.set(), once=True)
    return written
